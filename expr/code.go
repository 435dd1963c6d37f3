package expr

import "errors"

// code is a compiled expression node: its kind and the closure of that
// kind (exactly one of b, i, n, s, v, d is set; kindNil sets d).
type code struct {
	k Kind
	b func(*Frame) bool
	i func(*Frame) int
	n func(*Frame) float64
	s func(*Frame) string
	v func(*Frame) Vec
	d func(*Frame) any
	// konst: the value does not depend on the frame.
	konst bool
	// field: the value is this field of a component (see Field).
	field *Field
	// time: the value is the frame's Time.
	time bool
	// at: the node's text in the source, for run-time errors.
	at span
}

// Closure constructors. Each takes the closure and whether it is constant.

func boolCode(fn func(*Frame) bool, konst bool) code   { return code{k: Bool, b: fn, konst: konst} }
func intCode(fn func(*Frame) int, konst bool) code     { return code{k: Int, i: fn, konst: konst} }
func numCode(fn func(*Frame) float64, konst bool) code { return code{k: Number, n: fn, konst: konst} }
func strCode(fn func(*Frame) string, konst bool) code  { return code{k: String, s: fn, konst: konst} }
func dynCode(fn func(*Frame) any, konst bool) code     { return code{k: Dynamic, d: fn, konst: konst} }
func vecCode(k Kind, fn func(*Frame) Vec, konst bool) code {
	return code{k: k, v: fn, konst: konst}
}

// Constants.

func constBool(x bool) code       { return boolCode(func(*Frame) bool { return x }, true) }
func constInt(x int) code         { return intCode(func(*Frame) int { return x }, true) }
func constNum(x float64) code     { return numCode(func(*Frame) float64 { return x }, true) }
func constStr(x string) code      { return strCode(func(*Frame) string { return x }, true) }
func constVec(k Kind, x Vec) code { return vecCode(k, func(*Frame) Vec { return x }, true) }
func constNil() code {
	return code{k: kindNil, d: func(*Frame) any { return nil }, konst: true}
}

// fromVar returns the code reading variable v.
func fromVar(v Var) code {
	c := code{k: v.Kind, b: v.Bool, i: v.Int, n: v.Number, s: v.String, v: v.Vec, d: v.Dynamic, konst: v.Const, field: v.Field, time: v.time}
	if v.Field != nil {
		// Read the field inline: the same closures FieldVar builds, made
		// here so that a Var whose accessor does more still reads fast.
		fv := fieldAccessor(*v.Field)
		c.b, c.i, c.n, c.s, c.v = fv.Bool, fv.Int, fv.Number, fv.String, fv.Vec
	}
	return c
}

// fold evaluates a constant code once and returns a constant of its
// value, so that evaluation skips the whole subtree. A constant whose
// evaluation fails (1 % 0) is left as it is: it fails at run time, where
// (in a branch not taken) it may never run. The strings folded count
// against one budget of MaxBytes for the compilation (the program keeps
// them): a constant that would exceed it is no longer taken for a
// constant, and is made (within each evaluation's budget) when it runs.
func (cc *compiler) fold(c code) code {
	if !c.konst {
		return c
	}
	f := Frame{mem: cc.folded}
	var out code
	switch c.k {
	case Bool:
		out = constBool(c.b(&f))
	case Int:
		out = constInt(c.i(&f))
	case Number:
		out = constNum(c.n(&f))
	case String:
		out = constStr(c.s(&f))
	case Vec2, Vec3, Vec4:
		out = constVec(c.k, c.v(&f))
	default:
		return c
	}
	if f.err != nil {
		if errors.Is(f.err, ErrBudget) {
			c.konst = false
		}
		return c
	}
	cc.folded = f.mem
	out.at = c.at
	return out
}

// constValue returns the value of a constant code as an any (float64,
// int, bool, string, Vec or the dynamic value), and whether it has one.
func constValue(c code) (any, bool) {
	if !c.konst {
		return nil, false
	}
	var f Frame
	v := box(c)(&f)
	return v, f.err == nil
}
