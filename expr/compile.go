package expr

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/checker/nature"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// Program is a compiled expression. It is immutable and safe for
// concurrent use; each goroutine evaluates with a [Frame] of its own.
type Program struct {
	src    string
	c      code
	interp string   // why the interpreter runs it, or ""
	names  []string // the names it reads, sorted
	batch  *Batch   // its batch form, or nil (batch.go)
}

// compiler compiles one checked tree to closures.
type compiler struct {
	src     string
	vars    map[string]Var
	t       *tables
	spans   map[ast.Node]span
	extents map[ast.Node][2]int // see extent
	env     reflect.Type        // the environment's struct type (see envType)
	names   []string            // its fields' names
	codes   map[ast.Node]code   // the code compiled for each node, for batchOf
	// allocs: some node makes strings, so the program is metered (see
	// metered); folded: the bytes of the constants folded so far, against
	// MaxBytes.
	allocs bool
	folded int
}

// Compile parses, checks and compiles the expression src, resolving its
// names through r (nil: no names but the constants). want is the kind the
// caller needs: [Any] takes the expression's own kind; otherwise the
// result is converted where the language allows it (an int or a dynamic
// value to a number; a dynamic value to anything, checked at run time; a
// number to an int, checked at run time to be whole) and refused
// otherwise, with an error that names both kinds.
//
// Errors are of type *[Error] and locate the problem in src.
func Compile(src string, r Resolver, want Kind) (p *Program, err error) {
	if len(src) > MaxSource {
		return nil, errAt(src, span{MaxSource, len(src)}, "expression too long: %d bytes, the limit is %d", len(src), MaxSource)
	}
	if strings.TrimSpace(src) == "" {
		return nil, errAt(src, span{0, len(src)}, "empty expression")
	}
	if r == nil {
		r = Vars{}
	}
	defer func() {
		if x := recover(); x != nil {
			p, err = nil, errAt(src, span{0, len(src)}, "internal error compiling the expression: %v", x)
		}
	}()
	t := sharedTables()
	config := newConfig(t)
	rs := &resolver{src: src, r: r, t: t, vars: map[string]Var{}}
	tree, err := rs.parse(config)
	if err != nil {
		return nil, err
	}
	env, names := envType(rs.vars)
	config.WithEnv(reflect.Zero(env).Interface())
	// The tree compiled is checked as expr.Compile checks it, so that it
	// means what it means to expr's VM; a copy is checked again, for the
	// errors one pass misses (see checkTwice).
	if _, cerr := new(checker.Checker).PatchAndCheck(tree, config); cerr != nil {
		return nil, fromExprError(src, cerr)
	}
	if err := recheck(rs, t, env); err != nil {
		return nil, err
	}
	ast.Walk(&tree.Node, structNatures{&config.NtCache})
	cc := &compiler{src: src, vars: rs.vars, t: t, spans: map[ast.Node]span{}, extents: map[ast.Node][2]int{}, env: env, names: names,
		codes: map[ast.Node]code{}}
	c, why := cc.top(tree.Node)
	var batch *Batch
	if why == "" && (want == Number || want == Any) {
		batch = cc.batchOf(tree.Node)
	}
	if why != "" {
		if c, err = cc.interpret(tree, config); err != nil {
			return nil, err
		}
	}
	if c, err = cc.want(c, want); err != nil {
		return nil, err
	}
	if cc.allocs || why != "" {
		c = metered(c)
	}
	cc.spans, cc.extents, cc.vars, cc.codes = nil, nil, nil, nil // the closures keep cc for its source only
	return &Program{src: src, c: c, interp: why, names: names, batch: batch}, nil
}

// recheck parses and resolves the source again and checks the copy with
// checkTwice.
func recheck(rs *resolver, t *tables, env reflect.Type) error {
	config := newConfig(t)
	tree, err := rs.parse(config)
	if err != nil {
		return err
	}
	config.WithEnv(reflect.Zero(env).Interface())
	if err := checkTwice(tree, config); err != nil {
		return fromExprError(rs.src, err)
	}
	return nil
}

// checkTwice applies the operator patches and type-checks the tree, then
// checks it again from untyped nodes without patchers: expr's checker,
// once a patch has typed a call, skips its arguments on later passes, so
// that an error inside them (vec3(min(x, true), 1, 2)) would go
// unreported. The second pass may rewrite int literals into floats (as
// the checker does for arguments it tries against float overloads), so
// it runs on a copy, not on the tree compiled.
func checkTwice(tree *parser.Tree, config *conf.Config) error {
	if _, err := new(checker.Checker).PatchAndCheck(tree, config); err != nil {
		return err
	}
	ast.Walk(&tree.Node, untype{})
	plain := *config
	plain.Visitors = nil
	_, err := checker.Check(tree, &plain)
	return err
}

// untype clears the types the checker put on the nodes.
type untype struct{}

func (untype) Visit(n *ast.Node) { (*n).SetNature(nature.Nature{}) }

// structNatures re-derives the nature of every struct-typed node through
// the checker's cache. expr's operator patcher types the calls it makes
// with a nature that lacks the struct's field table, on which expr's
// compiler crashes for a member access such as (v + w).x.
type structNatures struct{ c *nature.Cache }

func (s structNatures) Visit(n *ast.Node) {
	if t := (*n).Type(); t != nil && t.Kind() == reflect.Struct {
		(*n).SetNature(s.c.FromType(t))
	}
}

// envType is the environment expr's checker and VM see: a struct with
// one field per resolved name, of the Go type of its kind, named by its
// `expr` tag (so that a dotted name is one variable). The fields are in
// the order of names; one more, last, holds the evaluation's *Frame for
// the metered functions (see budgetPatch).
func envType(vars map[string]Var) (reflect.Type, []string) {
	names := make([]string, 0, len(vars))
	for n := range vars {
		names = append(names, n)
	}
	slices.Sort(names)
	fields := make([]reflect.StructField, len(names), len(names)+1)
	for i, n := range names {
		fields[i] = reflect.StructField{
			Name: fmt.Sprintf("F%d", i),
			Type: goType(vars[n].Kind),
			Tag:  reflect.StructTag(fmt.Sprintf("expr:%q", n)),
		}
	}
	fields = append(fields, reflect.StructField{Name: "Mem", Type: reflect.TypeFor[*Frame](), Tag: reflect.StructTag(fmt.Sprintf("expr:%q", memName))})
	return reflect.StructOf(fields), names
}

// top compiles the tree to closures, or returns why it cannot (a
// construct only the interpreter runs).
func (cc *compiler) top(n ast.Node) (c code, why string) {
	defer func() {
		if x := recover(); x != nil {
			u, ok := x.(unsupported)
			if !ok {
				panic(x)
			}
			why = u.what
		}
	}()
	c = cc.compile(n)
	if c.k == kindNil {
		c = dynCode(c.d, true)
	}
	return c, ""
}

// interpret returns the code running the checked tree on expr's VM,
// with the budgets (see budgetPatch).
func (cc *compiler) interpret(tree *parser.Tree, config *conf.Config) (code, error) {
	kind := kindOfType(tree.Node.Type())
	ast.Walk(&tree.Node, budgetPatch{})
	if _, err := checker.Check(tree, config); err != nil {
		return code{}, fromExprError(cc.src, err)
	}
	ast.Walk(&tree.Node, structNatures{&config.NtCache})
	prog, err := exprcompiler.Compile(tree, config)
	if err != nil {
		return code{}, fromExprError(cc.src, err)
	}
	get := make([]func(*Frame) any, len(cc.names))
	for i, n := range cc.names {
		get[i] = box(fromVar(cc.vars[n]))
	}
	src, t, mem := cc.src, cc.env, len(cc.names)
	d := dynCode(func(f *Frame) any {
		env := reflect.New(t).Elem()
		for i, g := range get {
			if v := g(f); v != nil {
				env.Field(i).Set(reflect.ValueOf(v))
			}
		}
		env.Field(mem).Set(reflect.ValueOf(f))
		machine := vm.VM{MemoryBudget: MaxItems}
		out, err := machine.Run(prog, env.Addr().Interface())
		if err != nil {
			f.Fail(fromExprError(src, err))
			return nil
		}
		return out
	}, false)
	d.at = span{0, len(src)}
	return cc.as(d, kind), nil
}

// kindOfType returns the kind of a Go type expr's checker inferred.
func kindOfType(t reflect.Type) Kind {
	for _, k := range []Kind{Bool, Int, Number, String, Vec2, Vec3, Vec4} {
		if t == goType(k) {
			return k
		}
	}
	return Dynamic
}

// want converts the program's code to the kind the caller wants.
func (cc *compiler) want(c code, want Kind) (code, error) {
	switch {
	case want == Any || want == c.k:
		return c, nil
	case want == Int && c.k == Number:
		return cc.whole(c), nil
	case fits(c.k, want):
		return cc.as(c, want), nil
	}
	return code{}, errAt(cc.src, span{0, len(cc.src)}, "the expression is %s, but %s is needed here", article(c.k), article(want))
}

// whole converts a number to an int, failing at run time on a number
// that is not a whole number within the range of int.
func (cc *compiler) whole(c code) code {
	n, at := c.n, c.at
	out := intCode(func(f *Frame) int {
		x := n(f)
		i, err := truncInt(x)
		if err == nil && x != math.Trunc(x) {
			err = fmt.Errorf("%v is not an integer", x)
		}
		if err != nil {
			f.Fail(errAt(cc.src, at, "%v", err))
			return 0
		}
		return i
	}, c.konst)
	out.at = at
	return cc.fold(out)
}

// article returns "a number", "an int".
func article(k Kind) string {
	if k == Int {
		return "an int"
	}
	return "a " + k.String()
}

// Source returns the expression's text.
func (p *Program) Source() string { return p.src }

// Kind returns the kind of the program's value.
func (p *Program) Kind() Kind { return p.c.k }

// Const reports whether the value depends on nothing the frame holds: the
// host may evaluate it once. A constant the compiler could not fold
// within the budget of [MaxBytes] is not one: it is made, within each
// evaluation's budget, every time it runs.
func (p *Program) Const() bool { return p.c.konst }

// Names returns the names the program reads, as resolved (the longest
// known prefix of a dotted path: "health.hp", "detail"), sorted; PI and E
// included. A host tells from them what a binding depends on.
func (p *Program) Names() []string { return slices.Clone(p.names) }

// Interpreted returns "" when the program runs as closures, and otherwise
// the construct that made it run on expr's VM (such as "list function
// filter"): the interpreter allocates on every evaluation.
func (p *Program) Interpreted() string { return p.interp }

// mustBe panics unless the program is of kind k (or, for Number, Int).
func (p *Program) mustBe(k Kind, what string) {
	if p.c.k != k && !(k == Number && p.c.k == Int) && !(k == Vec3 && p.c.k.IsVec()) {
		panic(fmt.Sprintf("expr: %s of a program of kind %v (compile with want %v)", what, p.c.k, k))
	}
}
