package expr

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unsafe"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// binary compiles a binary operator.
func (cc *compiler) binary(x *ast.BinaryNode) code {
	at := cc.span(x)
	if arr, ok := x.Right.(*ast.ArrayNode); ok && x.Operator == "in" {
		return cc.inList(cc.compile(x.Left), arr)
	}
	l, r := cc.compile(x.Left), cc.compile(x.Right)
	switch op := x.Operator; op {
	case "&&", "and", "||", "or":
		return cc.logic(op, l, r)
	case "==", "!=":
		return cc.equal(op, l, r, at)
	case "<", ">", "<=", ">=":
		return cc.compare(op, l, r, at)
	case "+", "-", "*", "/", "%", "**", "^":
		return cc.arith(op, l, r, at)
	case "contains", "startsWith", "endsWith":
		return cc.strOp(op, l, r)
	case "matches":
		return cc.matches(l, r)
	case "in":
		return cc.inDynamic(l, r, at)
	case "??":
		return cc.coalesce(l, r)
	}
	punt("operator %s", x.Operator)
	return code{}
}

func isDyn(k Kind) bool { return k == Dynamic || k == kindNil }

// logic compiles && and || (and, or), short-circuiting.
func (cc *compiler) logic(op string, l, r code) code {
	a, b := cc.bool(l), cc.bool(r)
	kn := l.konst && r.konst
	if op == "&&" || op == "and" {
		return boolCode(func(f *Frame) bool { return a(f) && b(f) }, kn)
	}
	return boolCode(func(f *Frame) bool { return a(f) || b(f) }, kn)
}

// equal compiles == and !=.
func (cc *compiler) equal(op string, l, r code, at span) code {
	eq := cc.eq(l, r, at)
	if op == "==" {
		return eq
	}
	b := eq.b
	return boolCode(func(f *Frame) bool { return !b(f) }, eq.konst)
}

// eq compiles l == r.
func (cc *compiler) eq(l, r code, at span) code {
	kn := l.konst && r.konst
	switch {
	case l.k == Int && r.k == Int:
		a, b := l.i, r.i
		return boolCode(func(f *Frame) bool { return a(f) == b(f) }, kn)
	case l.k.isNum() && r.k.isNum():
		a, b := cc.num(l), cc.num(r)
		return boolCode(func(f *Frame) bool { return a(f) == b(f) }, kn)
	case l.k == String && r.k == String:
		a, b := l.s, r.s
		return boolCode(func(f *Frame) bool { return a(f) == b(f) }, kn)
	case l.k == Bool && r.k == Bool:
		a, b := l.b, r.b
		return boolCode(func(f *Frame) bool { return a(f) == b(f) }, kn)
	case l.k.IsVec() && l.k == r.k:
		a, b := l.v, r.v
		return boolCode(func(f *Frame) bool { return a(f) == b(f) }, kn)
	case l.k == kindNil && !isDyn(r.k), r.k == kindNil && !isDyn(l.k):
		return constBool(false) // a typed value is never nil
	}
	return cc.dynBinary("==", l, r, at)
}

// compare compiles <, >, <= and >=, on numbers or strings.
func (cc *compiler) compare(op string, l, r code, at span) code {
	if op == ">" || op == ">=" {
		// a > b is b < a (NaN included: both false).
		l, r = r, l
		op = "<" + op[1:]
	}
	numish := func(k Kind) bool { return k.isNum() || isDyn(k) }
	strish := func(k Kind) bool { return k == String || isDyn(k) }
	kn := l.konst && r.konst
	switch {
	case l.field != nil && r.konst && r.k.isNum(), r.field != nil && l.konst && l.k.isNum():
		if c := cc.fieldCompare(op, l, r); c.b != nil {
			return c
		}
	}
	switch {
	case l.k == Int && r.k == Int:
		return cmpOrdered(op, l.i, r.i, constOf(l, l.i), constOf(r, r.i), kn)
	case (l.k.isNum() || r.k.isNum()) && numish(l.k) && numish(r.k):
		a, b := cc.num(l), cc.num(r)
		return cmpOrdered(op, a, b, constOf(l, a), constOf(r, b), kn)
	case (l.k == String || r.k == String) && strish(l.k) && strish(r.k):
		a, b := cc.str(l), cc.str(r)
		return cmpOrdered(op, a, b, constOf(l, a), constOf(r, b), kn)
	}
	return cc.dynBinary(op, l, r, at)
}

// constOf returns a pointer to the value of fn if c is constant, else nil.
func constOf[T any](c code, fn func(*Frame) T) *T {
	if !c.konst {
		return nil
	}
	var f Frame
	v := fn(&f)
	if f.err != nil {
		return nil
	}
	return &v
}

type ordered interface{ ~int | ~float64 | ~string }

// cmpOrdered compiles a < b or a <= b, with the constant side (if any)
// held in the closure rather than called.
func cmpOrdered[T ordered](op string, a, b func(*Frame) T, ca, cb *T, kn bool) code {
	lt := op == "<"
	switch {
	case cb != nil && lt:
		y := *cb
		return boolCode(func(f *Frame) bool { return a(f) < y }, kn)
	case cb != nil:
		y := *cb
		return boolCode(func(f *Frame) bool { return a(f) <= y }, kn)
	case ca != nil && lt:
		x := *ca
		return boolCode(func(f *Frame) bool { return x < b(f) }, kn)
	case ca != nil:
		x := *ca
		return boolCode(func(f *Frame) bool { return x <= b(f) }, kn)
	case lt:
		return boolCode(func(f *Frame) bool { return a(f) < b(f) }, kn)
	}
	return boolCode(func(f *Frame) bool { return a(f) <= b(f) }, kn)
}

// fieldCompare compiles a comparison of a float64 or int field with a
// constant number of its type as one closure that loads the field itself
// (the selector's value predicates: [health.hp<20]). It returns a zero
// code for other comparisons.
func (cc *compiler) fieldCompare(op string, l, r code) code {
	fd, c, left := l.field, r, true
	if fd == nil || !r.konst {
		fd, c, left = r.field, l, false
	}
	// A constant that fails to evaluate (0 % 0) fails at run time instead.
	switch {
	case fd.Type == FieldFloat64:
		if y := constOf(c, cc.num(c)); y != nil {
			return fieldCmp(op, fd, *y, left)
		}
	case fd.Type == FieldInt && c.k == Int:
		if y := constOf(c, c.i); y != nil {
			return fieldCmp(op, fd, *y, left)
		}
	}
	return code{}
}

// fieldCmp compiles field < y, field <= y, y < field or y <= field for a
// field of type T.
func fieldCmp[T int | float64](op string, fd *Field, y T, left bool) code {
	s, off := fd.Slot, fd.Offset
	lt := op == "<"
	switch {
	case left && lt:
		return boolCode(func(f *Frame) bool { return *(*T)(unsafe.Add(f.Comp[s], off)) < y }, false)
	case left:
		return boolCode(func(f *Frame) bool { return *(*T)(unsafe.Add(f.Comp[s], off)) <= y }, false)
	case lt:
		return boolCode(func(f *Frame) bool { return y < *(*T)(unsafe.Add(f.Comp[s], off)) }, false)
	}
	return boolCode(func(f *Frame) bool { return y <= *(*T)(unsafe.Add(f.Comp[s], off)) }, false)
}

// arith compiles + - * / % ** ^ on numbers (and + on strings).
func (cc *compiler) arith(op string, l, r code, at span) code {
	kn := l.konst && r.konst
	switch {
	case isDyn(l.k) && isDyn(r.k):
		return cc.dynBinary(op, l, r, at)
	case l.k == String || r.k == String:
		if op != "+" {
			punt("%v %s %v", l.k, op, r.k)
		}
		a, b := cc.str(l), cc.str(r)
		cc.allocs = true
		return strCode(func(f *Frame) string {
			x, y := a(f), b(f)
			if !cc.spend(f, at, "+", len(x)+len(y)) {
				return ""
			}
			return x + y
		}, kn)
	case op == "%":
		a, b := cc.int(l), cc.int(r)
		return intCode(func(f *Frame) int {
			x, y := a(f), b(f)
			if y == 0 {
				f.Fail(errAt(cc.src, at, "%s: modulo by zero", at.text(cc.src)))
				return 0
			}
			return x % y
		}, kn)
	case op == "**" || op == "^":
		a, b := cc.num(l), cc.num(r)
		return numCode(func(f *Frame) float64 { return math.Pow(a(f), b(f)) }, kn)
	case l.k == Int && r.k == Int && op != "/":
		return intArith(op, l.i, r.i, kn)
	}
	ca, cb := constOf(l, cc.num(l)), constOf(r, cc.num(r))
	if c := timeArith(op, l, r, ca, cb); c.n != nil {
		return c
	}
	return numArith(op, cc.num(l), cc.num(r), ca, cb, kn)
}

// timeArith compiles time op constant and constant op time as one
// closure reading the frame's Time (sin(time * 2) is the typical bind).
// It returns a zero code otherwise.
func timeArith(op string, l, r code, ca, cb *float64) code {
	if l.time && cb != nil {
		y := *cb
		switch op {
		case "+":
			return numCode(func(f *Frame) float64 { return f.Time + y }, false)
		case "-":
			return numCode(func(f *Frame) float64 { return f.Time - y }, false)
		case "*":
			return numCode(func(f *Frame) float64 { return f.Time * y }, false)
		}
		return numCode(func(f *Frame) float64 { return f.Time / y }, false)
	}
	if r.time && ca != nil {
		x := *ca
		switch op {
		case "+":
			return numCode(func(f *Frame) float64 { return x + f.Time }, false)
		case "-":
			return numCode(func(f *Frame) float64 { return x - f.Time }, false)
		case "*":
			return numCode(func(f *Frame) float64 { return x * f.Time }, false)
		}
		return numCode(func(f *Frame) float64 { return x / f.Time }, false)
	}
	return code{}
}

// intArith compiles + - * on ints (wrapping on overflow, as Go and expr's
// VM do).
func intArith(op string, a, b func(*Frame) int, kn bool) code {
	switch op {
	case "+":
		return intCode(func(f *Frame) int { return a(f) + b(f) }, kn)
	case "-":
		return intCode(func(f *Frame) int { return a(f) - b(f) }, kn)
	}
	return intCode(func(f *Frame) int { return a(f) * b(f) }, kn)
}

// numArith compiles + - * / on numbers, with a constant operand (if any)
// held in the closure.
func numArith(op string, a, b func(*Frame) float64, ca, cb *float64, kn bool) code {
	if cb != nil {
		y := *cb
		switch op {
		case "+":
			return numCode(func(f *Frame) float64 { return a(f) + y }, kn)
		case "-":
			return numCode(func(f *Frame) float64 { return a(f) - y }, kn)
		case "*":
			return numCode(func(f *Frame) float64 { return a(f) * y }, kn)
		}
		return numCode(func(f *Frame) float64 { return a(f) / y }, kn)
	}
	if ca != nil {
		x := *ca
		switch op {
		case "+":
			return numCode(func(f *Frame) float64 { return x + b(f) }, kn)
		case "-":
			return numCode(func(f *Frame) float64 { return x - b(f) }, kn)
		case "*":
			return numCode(func(f *Frame) float64 { return x * b(f) }, kn)
		}
		return numCode(func(f *Frame) float64 { return x / b(f) }, kn)
	}
	switch op {
	case "+":
		return numCode(func(f *Frame) float64 { return a(f) + b(f) }, kn)
	case "-":
		return numCode(func(f *Frame) float64 { return a(f) - b(f) }, kn)
	case "*":
		return numCode(func(f *Frame) float64 { return a(f) * b(f) }, kn)
	}
	return numCode(func(f *Frame) float64 { return a(f) / b(f) }, kn)
}

// strOp compiles contains, startsWith and endsWith. As in expr's VM, a
// nil operand makes them false.
func (cc *compiler) strOp(op string, l, r code) code {
	a, b := cc.strOrNil(l), cc.strOrNil(r)
	fn := strings.Contains
	switch op {
	case "startsWith":
		fn = strings.HasPrefix
	case "endsWith":
		fn = strings.HasSuffix
	}
	return boolCode(func(f *Frame) bool {
		x, xnil := a(f)
		y, ynil := b(f)
		return !xnil && !ynil && fn(x, y)
	}, l.konst && r.konst)
}

// strOrNil returns c as a string closure that also reports a nil value.
func (cc *compiler) strOrNil(c code) func(*Frame) (string, bool) {
	if !isDyn(c.k) {
		s := cc.str(c)
		return func(f *Frame) (string, bool) { return s(f), false }
	}
	d, at := c.d, c.at
	return func(f *Frame) (string, bool) {
		switch x := d(f).(type) {
		case nil:
			return "", true
		case string:
			return x, false
		default:
			f.Fail(cc.wrongType(at, x, "a string"))
			return "", true
		}
	}
}

// matches compiles s matches "regexp" for a constant pattern (compiled
// once; Go's regexps run in linear time). A nil s does not match.
func (cc *compiler) matches(l, r code) code {
	v, ok := constValue(r)
	pat, isStr := v.(string)
	if !ok || !isStr {
		punt("matches with a pattern that is not constant")
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		punt("matches with an invalid pattern")
	}
	s := cc.strOrNil(l)
	return boolCode(func(f *Frame) bool {
		x, isNil := s(f)
		return !isNil && re.MatchString(x)
	}, l.konst)
}

// inList compiles x in [a, b, c] for a list of constants.
func (cc *compiler) inList(l code, arr *ast.ArrayNode) code {
	var list []any
	var strs []string
	for _, n := range arr.Nodes {
		v, ok := constValue(cc.compile(n))
		if !ok {
			punt("in with a list that is not constant")
		}
		list = append(list, v)
		if s, ok := v.(string); ok {
			strs = append(strs, s)
		}
	}
	if l.k == String {
		a := l.s
		return boolCode(func(f *Frame) bool { return slices.Contains(strs, a(f)) }, l.konst)
	}
	a := box(l)
	return boolCode(func(f *Frame) bool {
		x := a(f)
		for _, v := range list {
			if runtime.Equal(v, x) {
				return true
			}
		}
		return false
	}, l.konst)
}

// inDynamic compiles x in v for a dynamic v (a list or a map of an
// event's detail).
func (cc *compiler) inDynamic(l, r code, at span) code {
	if !isDyn(r.k) {
		punt("in on a %v", r.k)
	}
	a, b := box(l), r.d
	in := func(x, y any) any { return runtime.In(x, y) }
	return boolCode(func(f *Frame) bool {
		v, _ := cc.try(f, at, in, a(f), b(f)).(bool)
		return v
	}, false)
}

// coalesce compiles l ?? r: l unless it is nil.
func (cc *compiler) coalesce(l, r code) code {
	switch {
	case l.k == kindNil:
		return r
	case !isDyn(l.k):
		return l // a typed value is never nil
	}
	a, b := l.d, box(r)
	return dynCode(func(f *Frame) any {
		if v := a(f); v != nil {
			return v
		}
		return b(f)
	}, l.konst && r.konst)
}
