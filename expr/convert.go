package expr

import "fmt"

// unsupported is the panic value of the closure compiler for a construct
// it does not compile; Compile recovers it and runs the expression on
// expr's VM instead.
type unsupported struct{ what string }

// punt abandons closure compilation for what.
func punt(format string, args ...any) {
	panic(unsupported{fmt.Sprintf(format, args...)})
}

// num returns c as a number closure (an Int promotes, a Dynamic is
// checked at run time).
func (cc *compiler) num(c code) func(*Frame) float64 {
	switch c.k {
	case Number:
		return c.n
	case Int:
		i := c.i
		return func(f *Frame) float64 { return float64(i(f)) }
	case Dynamic, kindNil:
		return cc.dynNum(c)
	}
	punt("%v used as a number", c.k)
	return nil
}

// int returns c as an int closure.
func (cc *compiler) int(c code) func(*Frame) int {
	switch c.k {
	case Int:
		return c.i
	case Dynamic, kindNil:
		return cc.dynInt(c)
	}
	punt("%v used as an int", c.k)
	return nil
}

// bool returns c as a bool closure.
func (cc *compiler) bool(c code) func(*Frame) bool {
	switch c.k {
	case Bool:
		return c.b
	case Dynamic, kindNil:
		return cc.dynBool(c)
	}
	punt("%v used as a bool", c.k)
	return nil
}

// str returns c as a string closure.
func (cc *compiler) str(c code) func(*Frame) string {
	switch c.k {
	case String:
		return c.s
	case Dynamic, kindNil:
		return cc.dynStr(c)
	}
	punt("%v used as a string", c.k)
	return nil
}

// vec returns c as a vector closure of kind k.
func (cc *compiler) vec(c code, k Kind) func(*Frame) Vec {
	switch {
	case c.k == k:
		return c.v
	case c.k == Dynamic || c.k == kindNil:
		return cc.dynVec(c, k)
	}
	punt("%v used as a %v", c.k, k)
	return nil
}

// as converts c to kind k (Int to Number, Dynamic to anything, anything
// to Dynamic), keeping constness; it punts on other conversions.
func (cc *compiler) as(c code, k Kind) code {
	if c.k == k {
		return c
	}
	var out code
	switch k {
	case Number:
		out = numCode(cc.num(c), c.konst)
	case Int:
		out = intCode(cc.int(c), c.konst)
	case Bool:
		out = boolCode(cc.bool(c), c.konst)
	case String:
		out = strCode(cc.str(c), c.konst)
	case Vec2, Vec3, Vec4:
		out = vecCode(k, cc.vec(c, k), c.konst)
	case Dynamic, Any:
		out = dynCode(box(c), c.konst)
	default:
		punt("%v used as %v", c.k, k)
	}
	out.at = c.at
	return cc.fold(out)
}

// fits reports whether a value of kind have can be passed where kind want
// is wanted (as does): numbers promote, a dynamic value is checked when
// used, and anything goes where a dynamic value is wanted.
func fits(have, want Kind) bool {
	switch {
	case have == want, want == Dynamic, want == Any:
		return true
	case have == Dynamic || have == kindNil:
		return true
	case want == Number:
		return have == Int
	}
	return false
}
