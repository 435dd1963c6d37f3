package expr

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"
)

// The budgets on expr's VM. The VM counts the items of the lists it
// builds itself (ranges, list literals, map, filter) against its own
// budget, which the language sets to MaxItems; it counts no string, nor
// the lists its built-in functions make. So before a tree runs on the
// VM, budgetPatch rewrites every construct that makes a string or a list
// the VM does not count into a call of the language's metered version
// (__add for +, __replace for replace, ...), whose first argument is the
// evaluation's Frame (the environment's field memName): it works out the
// size of what it would make, counts it in the Frame, or refuses. The
// same rewrite gives int() the closures' check of the int range, and
// `matches` with a pattern made at run time a bound on its length.

// memName is the environment field holding the evaluation's *Frame.
const memName = "__mem"

// meteredName returns the checked version of expr's built-in name, or
// "" if the built-in makes nothing the budgets count (and is not int).
func meteredName(name string) string {
	switch name {
	case "upper", "lower", "replace", "string", "join", "split", "concat", "flatten":
		return "__" + name
	case "int":
		return "__int" // a number out of the int range fails, as in the closures
	}
	return ""
}

// budgetPatch is the rewrite; it runs on a checked tree.
type budgetPatch struct{}

// Visit replaces the node at n by a call of its metered version.
func (budgetPatch) Visit(n *ast.Node) {
	var name string
	var args []ast.Node
	switch x := (*n).(type) {
	case *ast.BinaryNode:
		switch {
		case x.Operator == "+" && !(isNumType(x.Left.Type()) && isNumType(x.Right.Type())):
			name = "__add"
		case x.Operator == "matches":
			if _, ok := x.Right.(*ast.StringNode); ok {
				return // compiled once, with the program
			}
			name = "__matches"
		default:
			return
		}
		args = []ast.Node{x.Left, x.Right}
	case *ast.BuiltinNode:
		if name = meteredName(x.Name); name == "" {
			return
		}
		args = x.Arguments
	default:
		return
	}
	ast.Patch(n, &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: name},
		Arguments: append([]ast.Node{&ast.IdentifierNode{Value: memName}}, args...),
	})
}

// isNumType reports whether t is a Go integer or float type.
func isNumType(t reflect.Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// frameOf returns the Frame a metered function is given first.
func frameOf(args []any) *Frame {
	if f, ok := args[0].(*Frame); ok && f != nil {
		return f
	}
	return &Frame{} // not reached: budgetPatch always passes the frame
}

// meteredFuncs returns the checked functions for expr's checker and VM:
// each takes the Frame first, then the built-in's own arguments, and
// calls the built-in once what it would make is counted.
func meteredFuncs() []*builtin.Function {
	frame := reflect.TypeFor[*Frame]()
	orig := func(name string) *builtin.Function { return builtin.Builtins[builtin.Index[name]] }
	// withFrame returns the function types of fn with the frame first.
	withFrame := func(fn *builtin.Function) []reflect.Type {
		var ts []reflect.Type
		for _, t := range fn.Types {
			in := []reflect.Type{frame}
			for i := range t.NumIn() {
				in = append(in, t.In(i))
			}
			out := []reflect.Type{t.Out(0)}
			ts = append(ts, reflect.FuncOf(in, out, t.IsVariadic()))
		}
		return ts
	}
	fn := func(name string, call func(f *Frame, args []any) (any, error), types []reflect.Type) *builtin.Function {
		return &builtin.Function{Name: name, Types: types,
			Func: func(args ...any) (any, error) { return call(frameOf(args), args[1:]) }}
	}
	str, anyT := reflect.TypeFor[string](), reflect.TypeFor[any]()
	fns := []*builtin.Function{
		fn("__add", vmAdd, []reflect.Type{
			reflect.FuncOf([]reflect.Type{frame, str, str}, []reflect.Type{str}, false),
			reflect.FuncOf([]reflect.Type{frame, anyT, anyT}, []reflect.Type{anyT}, false),
		}),
		fn("__matches", vmMatches, []reflect.Type{
			reflect.FuncOf([]reflect.Type{frame, anyT, anyT}, []reflect.Type{reflect.TypeFor[bool]()}, false),
		}),
		fn("__string", vmString, withFrame(orig("string"))),
	}
	for _, name := range []string{"upper", "lower"} {
		o := orig(name)
		fns = append(fns, fn("__"+name, func(f *Frame, args []any) (any, error) {
			s, ok := args[0].(string)
			if !ok {
				return o.Fast(args[0]), nil // fails as the built-in does
			}
			out, be := changeCase(f, name, s)
			if be != nil {
				return nil, be
			}
			return out, nil
		}, withFrame(o)))
	}
	for _, name := range []string{"replace", "join", "split"} {
		o := orig(name)
		fns = append(fns, fn("__"+name, func(f *Frame, args []any) (any, error) {
			if be := vmPrice(f, name, args); be != nil {
				return nil, be
			}
			return o.Func(args...)
		}, withFrame(o)))
	}
	for _, name := range []string{"concat", "flatten", "int"} {
		o := orig(name)
		fns = append(fns, &builtin.Function{Name: "__" + name,
			Func: func(args ...any) (any, error) {
				if name == "int" {
					i, err := intOf(args[1])
					if err != nil {
						return nil, fmt.Errorf("int: %w", err)
					}
					return i, nil
				}
				if be := vmPrice(frameOf(args), name, args[1:]); be != nil {
					return nil, be
				}
				out, _, err := o.Safe(args[1:]...)
				return out, err
			},
			Validate: func(args []reflect.Type) (reflect.Type, error) {
				if len(args) == 0 || args[0] != frame {
					return nil, fmt.Errorf("__%s takes the frame first", name)
				}
				return o.Validate(args[1:])
			}})
	}
	return fns
}

// vmAdd is + on the VM for operands that are not both numbers: two
// strings are joined within the budget, the rest added as the VM adds.
func vmAdd(f *Frame, args []any) (any, error) {
	if s, ok := args[0].(string); ok {
		if t, ok := args[1].(string); ok {
			if be := f.spendBytes("+", len(s)+len(t)); be != nil {
				return nil, be
			}
			return s + t, nil
		}
	}
	return runtime.Add(args[0], args[1]), nil
}

// vmMatches is `s matches pattern` on the VM for a pattern made at run
// time: false if either is nil, as the VM's operator; a pattern longer
// than an expression may be (MaxSource) is refused, since compiling a
// regular expression costs memory in proportion to it.
func vmMatches(_ *Frame, args []any) (any, error) {
	if args[0] == nil || args[1] == nil {
		return false, nil
	}
	s, ok1 := args[0].(string)
	pat, ok2 := args[1].(string)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("matches takes strings, not %s and %s", describe(args[0]), describe(args[1]))
	}
	if len(pat) > MaxSource {
		return nil, &budgetError{op: "matches", n: len(pat), pattern: true}
	}
	return regexp.MatchString(pat, s)
}

// vmString is string(x) on the VM.
func vmString(f *Frame, args []any) (any, error) {
	s, be := text(f, args[0])
	if be != nil {
		return nil, be
	}
	return s, nil
}

// vmPrice counts what expr's built-in name would make of args (the
// arguments without the frame) and refuses it if over the budget. An
// argument of the wrong type costs nothing: the built-in then fails.
func vmPrice(f *Frame, name string, args []any) *budgetError {
	switch name {
	case "replace":
		s, ok1 := args[0].(string)
		old, ok2 := args[1].(string)
		nw, ok3 := args[2].(string)
		n := -1
		if len(args) == 4 {
			n = runtime.ToInt(args[3])
		}
		if ok1 && ok2 && ok3 {
			return f.spendBytes(name, replaceSize(s, old, nw, n))
		}
	case "join":
		sep := ""
		if len(args) == 2 {
			sep, _ = args[1].(string)
		}
		if n, ok := joinSize(args[0], sep); ok {
			return f.spendBytes(name, n)
		}
	case "split":
		s, ok1 := args[0].(string)
		sep, ok2 := args[1].(string)
		if ok1 && ok2 {
			n := strings.Count(s, sep) + 1
			if sep == "" {
				n = utf8.RuneCountInString(s) // one a character
			}
			if len(args) == 3 {
				if m := runtime.ToInt(args[2]); m >= 0 && m < n {
					n = m
				}
			}
			return f.spendItems(name, n)
		}
	case "concat":
		n := 0
		for _, a := range args {
			if v := reflect.ValueOf(a); v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
				n += v.Len()
			}
		}
		return f.spendItems(name, n)
	case "flatten":
		if v := reflect.ValueOf(args[0]); v.Kind() == reflect.Slice || v.Kind() == reflect.Array {
			return f.spendItems(name, countLeaves(v, MaxItems-f.items))
		}
	}
	return nil
}

// joinSize returns the length of join(list, sep), if list is a list of
// strings.
func joinSize(list any, sep string) (int, bool) {
	n := 0
	switch l := list.(type) {
	case []string:
		for _, s := range l {
			n += len(s)
		}
		if len(l) > 1 {
			n += (len(l) - 1) * len(sep)
		}
	case []any:
		for _, x := range l {
			s, ok := x.(string)
			if !ok {
				return 0, false
			}
			n += len(s)
		}
		if len(l) > 1 {
			n += (len(l) - 1) * len(sep)
		}
	default:
		return 0, false
	}
	return n, true
}
