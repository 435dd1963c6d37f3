package expr

import (
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
)

// chain compiles a?.b (the chain's end: a nil met by ?. makes it nil).
func (cc *compiler) chain(x *ast.ChainNode) code {
	c := cc.compile(x.Node)
	if !isDyn(c.k) {
		return c // typed values are never nil
	}
	d := c.d
	return dynCode(func(f *Frame) any {
		v := d(f)
		if _, stop := v.(chainStop); stop {
			return nil
		}
		return v
	}, c.konst)
}

// member compiles v.x (an axis of a vector) and d.name, d[key] (a field
// or element of a dynamic value).
func (cc *compiler) member(x *ast.MemberNode) code {
	base := cc.compile(x.Node)
	if base.k.IsVec() {
		name, ok := x.Property.(*ast.StringNode)
		i := -1
		if ok && len(name.Value) == 1 {
			i = strings.Index("xyzw"[:base.k.Dim()], name.Value)
		}
		if i < 0 {
			punt("vector member")
		}
		if base.field != nil {
			fd := Field{Slot: base.field.Slot, Offset: base.field.Offset + uintptr(i)*8, Type: FieldFloat64}
			return fromVar(FieldVar(fd))
		}
		v := base.v
		return numCode(func(f *Frame) float64 { return v(f)[i] }, base.konst)
	}
	if !isDyn(base.k) {
		punt("member of a %v", base.k)
	}
	key := box(cc.compile(x.Property))
	d, at, baseAt, optional := base.d, cc.span(x), base.at, x.Optional
	return dynCode(func(f *Frame) any {
		b := d(f)
		switch {
		case b == chainStop{}:
			return b
		case b == nil && optional:
			return chainStop{}
		}
		return cc.fetch(f, b, key(f), at, baseAt)
	}, false)
}

// call compiles a call of one of the language's functions.
func (cc *compiler) call(x *ast.CallNode) code {
	id, ok := x.Callee.(*ast.IdentifierNode)
	if !ok || cc.t.funcs[id.Value] == nil {
		punt("call")
	}
	fn := cc.t.funcs[id.Value]
	args := make([]code, len(x.Arguments))
	ks := make([]Kind, len(args))
	for i, a := range x.Arguments {
		args[i] = cc.compile(a)
		ks[i] = args[i].k
	}
	s, ok := fn.choose(ks)
	if !ok {
		punt("%s(%s)", fn.name, kindList(ks))
	}
	if fn.ambiguous(ks) {
		return cc.dynCall(fn, args, cc.span(x))
	}
	for i := range args {
		args[i] = cc.as(args[i], s.param(i))
	}
	return s.build(args)
}

// dynCall compiles a call whose overload depends on the run-time kinds of
// dynamic arguments (length(detail.v) on a vec2 or a vec3): it picks the
// overload when it runs, as expr's VM does. Its kind is the overloads'
// common result kind, or Dynamic.
func (cc *compiler) dynCall(fn *function, args []code, at span) code {
	boxed := make([]func(*Frame) any, len(args))
	ks := make([]Kind, len(args))
	for i, a := range args {
		boxed[i], ks[i] = box(a), a.k
	}
	out := Any
	for _, s := range fn.sigs {
		if s.accepts(ks) && out != Dynamic {
			if out != Any && out != s.out {
				out = Dynamic
			} else {
				out = s.out
			}
		}
	}
	d := dynCode(func(f *Frame) any {
		vals := make([]any, len(boxed))
		for i, b := range boxed {
			vals[i] = b(f)
		}
		v, err := fn.vmFunc(vals...)
		if err != nil {
			f.Fail(errAt(cc.src, at, "%v", err))
		}
		return v
	}, konst(args))
	d.at = at
	return cc.as(d, out)
}

// builtin compiles the built-ins of expr the closure compiler handles.
func (cc *compiler) builtin(x *ast.BuiltinNode) code {
	args := make([]code, len(x.Arguments))
	for i, a := range x.Arguments {
		args[i] = cc.compile(a)
	}
	kn := konst(args)
	switch x.Name {
	case "len", "int", "float", "string":
		return cc.convert(x.Name, args[0], cc.span(x))
	case "upper", "lower":
		return cc.changeCase(x.Name, cc.str(args[0]), cc.span(x), kn)
	case "trim":
		if len(args) == 1 {
			s := cc.str(args[0])
			return strCode(func(f *Frame) string { return strings.TrimSpace(s(f)) }, kn)
		}
		return str2(cc, args, strings.Trim)
	case "trimPrefix":
		return str2(cc, args, strings.TrimPrefix)
	case "trimSuffix":
		return str2(cc, args, strings.TrimSuffix)
	case "indexOf", "lastIndexOf":
		s, t := cc.str(args[0]), cc.str(args[1])
		fn := strings.Index
		if x.Name == "lastIndexOf" {
			fn = strings.LastIndex
		}
		return intCode(func(f *Frame) int { return fn(s(f), t(f)) }, kn)
	case "replace":
		if len(args) == 3 {
			return cc.replace(args, cc.span(x), kn)
		}
	}
	punt("list function %s", x.Name)
	return code{}
}

// changeCase compiles upper(s) and lower(s), counted (see changeCase).
func (cc *compiler) changeCase(name string, s func(*Frame) string, at span, kn bool) code {
	cc.allocs = true
	return strCode(func(f *Frame) string {
		out, be := changeCase(f, name, s(f))
		if be != nil {
			cc.overBudget(f, at, be)
		}
		return out
	}, kn)
}

// replace compiles replace(s, old, new): the size of the result is
// worked out from the number of matches before it is made.
func (cc *compiler) replace(args []code, at span, kn bool) code {
	s, o, n := cc.str(args[0]), cc.str(args[1]), cc.str(args[2])
	cc.allocs = true
	return strCode(func(f *Frame) string {
		x, old, nw := s(f), o(f), n(f)
		if !cc.spend(f, at, "replace", replaceSize(x, old, nw, -1)) {
			return ""
		}
		return strings.ReplaceAll(x, old, nw)
	}, kn)
}

// str2 compiles a function of two strings giving a string.
func str2(cc *compiler, args []code, fn func(s, t string) string) code {
	s, t := cc.str(args[0]), cc.str(args[1])
	return strCode(func(f *Frame) string { return fn(s(f), t(f)) }, konst(args))
}

// convert compiles len, int, float and string of one argument.
func (cc *compiler) convert(name string, a code, at span) code {
	switch {
	case name == "len" && a.k == String:
		s := a.s
		return intCode(func(f *Frame) int { return utf8.RuneCountInString(s(f)) }, a.konst)
	case name == "int" && a.k == Int, name == "float" && a.k == Number:
		return a
	case name == "int" && a.k == Number:
		n := a.n
		return intCode(func(f *Frame) int {
			i, err := truncInt(n(f))
			if err != nil {
				f.Fail(errAt(cc.src, at, "%s: %v", at.text(cc.src), err))
			}
			return i
		}, a.konst)
	case name == "float" && a.k == Int:
		return numCode(cc.num(a), a.konst)
	case name == "string" && a.k == String:
		return a
	case name == "string":
		b := box(a)
		cc.allocs = true
		return strCode(func(f *Frame) string {
			out, be := text(f, b(f))
			if be != nil {
				cc.overBudget(f, at, be)
			}
			return out
		}, a.konst)
	}
	// A string or a dynamic value: expr's own conversion, which parses
	// strings and fails on other types.
	fn := map[string]func(any) any{"len": builtin.Len, "int": intOrPanic, "float": builtin.Float}[name]
	if fn == nil || (a.k != String && !isDyn(a.k)) {
		punt("%s of a %v", name, a.k)
	}
	b := box(a)
	conv := func(v, _ any) any { return fn(v) }
	d := func(f *Frame) any { return cc.try(f, at, conv, b(f), nil) }
	out := dynCode(d, a.konst)
	out.at = at
	if name == "float" {
		return cc.as(out, Number)
	}
	return cc.as(out, Int)
}
