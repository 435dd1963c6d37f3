package expr

import (
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
)

// compile compiles the checked node n to a closure of its kind, folding
// constants. It punts (see [punt]) on constructs only the interpreter runs.
func (cc *compiler) compile(n ast.Node) code {
	var c code
	switch x := n.(type) {
	case *ast.NilNode:
		c = constNil()
	case *ast.IntegerNode:
		c = constInt(x.Value)
		if x.Type() == goType(Number) {
			c = constNum(float64(x.Value))
		}
	case *ast.FloatNode:
		c = constNum(x.Value)
	case *ast.BoolNode:
		c = constBool(x.Value)
	case *ast.StringNode:
		c = constStr(x.Value)
	case *ast.IdentifierNode:
		v, ok := cc.vars[x.Value]
		if !ok {
			punt("variable %s", x.Value) // a let variable or a predicate's
		}
		c = fromVar(v)
	case *ast.UnaryNode:
		c = cc.unary(x)
	case *ast.BinaryNode:
		c = cc.binary(x)
	case *ast.ChainNode:
		c = cc.chain(x)
	case *ast.MemberNode:
		c = cc.member(x)
	case *ast.CallNode:
		c = cc.call(x)
	case *ast.BuiltinNode:
		c = cc.builtin(x)
	case *ast.ConditionalNode:
		c = cc.cond(x)
	default:
		punt("%s", nodeName(n))
	}
	c.at = cc.span(n)
	c = cc.fold(c)
	if cc.codes != nil {
		cc.codes[n] = c
	}
	return c
}

// nodeName names a construct for Program.Interpreted.
func nodeName(n ast.Node) string {
	switch n.(type) {
	case *ast.VariableDeclaratorNode:
		return "let"
	case *ast.SequenceNode:
		return "sequence (;)"
	case *ast.ArrayNode:
		return "list literal"
	case *ast.MapNode:
		return "map literal"
	case *ast.SliceNode:
		return "slice"
	case *ast.PredicateNode, *ast.PointerNode:
		return "predicate"
	}
	return "construct"
}

// span returns the source text of n (all its tokens), memoized.
func (cc *compiler) span(n ast.Node) span {
	if s, ok := cc.spans[n]; ok {
		return s
	}
	lo, hi := cc.extent(n)
	s := span{0, len(cc.src)}
	if lo >= 0 {
		s = balance(cc.src, runeSpan(cc.src, file.Location{From: lo, To: hi}))
	}
	cc.spans[n] = s
	return s
}

// extent returns the rune range covered by the tokens of n and its
// descendants (lo < 0 if none has a location), memoized.
func (cc *compiler) extent(n ast.Node) (lo, hi int) {
	if e, ok := cc.extents[n]; ok {
		return e[0], e[1]
	}
	lo, hi = ownExtent(n)
	for _, c := range children(n) {
		if *c == nil {
			continue
		}
		clo, chi := cc.extent(*c)
		if clo >= 0 && (lo < 0 || clo < lo) {
			lo = clo
		}
		hi = max(hi, chi)
	}
	cc.extents[n] = [2]int{lo, hi}
	return lo, hi
}

// ownExtent returns the rune range of n's own token; nodes the checker
// made up carry no location (lo < 0).
func ownExtent(n ast.Node) (lo, hi int) {
	if l := n.Location(); l.To > l.From || l.From > 0 {
		return l.From, l.To
	}
	return -1, -1
}

// nodeSpan returns the byte span covering the tokens of n and its
// descendants.
func nodeSpan(src string, n ast.Node) span {
	cc := &compiler{src: src, spans: map[ast.Node]span{}, extents: map[ast.Node][2]int{}}
	return cc.span(n)
}

// balance widens s over the brackets its tokens leave open or closed (the
// tokens of a node do not include its closing parenthesis: `sin(x`).
// Brackets inside string literals do not count.
func balance(src string, s span) span {
	open, closed := 0, 0 // unmatched ( [ { and ) ] }
	var quote byte
	for i := s.from; i < s.to; i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			open++
		case c == ')' || c == ']' || c == '}':
			if open > 0 {
				open--
			} else {
				closed++
			}
		}
	}
	for ; open > 0 && s.to < len(src); s.to++ {
		if c := src[s.to]; c == ')' || c == ']' || c == '}' {
			open--
		} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
	}
	for ; closed > 0 && s.from > 0; s.from-- {
		if c := src[s.from-1]; c == '(' || c == '[' || c == '{' {
			closed--
		} else if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
	}
	return s
}

// locOf converts a byte span of src back to expr's rune location.
func locOf(src string, s span) file.Location {
	runes := func(b int) int {
		n := 0
		for i := range src {
			if i >= b {
				break
			}
			n++
		}
		return n
	}
	return file.Location{From: runes(s.from), To: runes(s.to)}
}

// unary compiles !x, not x, -x and +x.
func (cc *compiler) unary(x *ast.UnaryNode) code {
	a := cc.compile(x.Node)
	switch x.Operator {
	case "!", "not":
		b := cc.bool(a)
		return boolCode(func(f *Frame) bool { return !b(f) }, a.konst)
	case "-":
		if a.k == Int {
			i := a.i
			return intCode(func(f *Frame) int { return -i(f) }, a.konst)
		}
		n := cc.num(a)
		return numCode(func(f *Frame) float64 { return -n(f) }, a.konst)
	case "+":
		return a
	}
	punt("operator %s", x.Operator)
	return code{}
}

// cond compiles c ? a : b (and if c { a } else { b }).
func (cc *compiler) cond(x *ast.ConditionalNode) code {
	c := cc.compile(x.Cond)
	a, b := cc.compile(x.Exp1), cc.compile(x.Exp2)
	k := unify(a.k, b.k)
	a, b = cc.as(a, k), cc.as(b, k)
	test := cc.bool(c)
	if c.konst {
		var f Frame
		if t := test(&f); f.err == nil {
			if t {
				return a
			}
			return b
		}
	}
	kn := c.konst && a.konst && b.konst
	switch k {
	case Bool:
		x, y := a.b, b.b
		return boolCode(func(f *Frame) bool {
			if test(f) {
				return x(f)
			}
			return y(f)
		}, kn)
	case Int:
		x, y := a.i, b.i
		return intCode(func(f *Frame) int {
			if test(f) {
				return x(f)
			}
			return y(f)
		}, kn)
	case Number:
		x, y := a.n, b.n
		return numCode(func(f *Frame) float64 {
			if test(f) {
				return x(f)
			}
			return y(f)
		}, kn)
	case String:
		x, y := a.s, b.s
		return strCode(func(f *Frame) string {
			if test(f) {
				return x(f)
			}
			return y(f)
		}, kn)
	case Vec2, Vec3, Vec4:
		x, y := a.v, b.v
		return vecCode(k, func(f *Frame) Vec {
			if test(f) {
				return x(f)
			}
			return y(f)
		}, kn)
	}
	x1, y1 := a.d, b.d
	return dynCode(func(f *Frame) any {
		if test(f) {
			return x1(f)
		}
		return y1(f)
	}, kn)
}

// unify returns the kind both branches of a conditional convert to: their
// kind if the same, Number for two numbers, Dynamic otherwise.
func unify(a, b Kind) Kind {
	switch {
	case a == b && a != kindNil:
		return a
	case a.isNum() && b.isNum():
		return Number
	}
	return Dynamic
}
