package expr

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/expr-lang/expr/builtin"
	"github.com/scenecs/scenecs/internal/quote"
)

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

// truncInt returns x without its fraction as an int, as int(x) does, or
// an error if that is not an int: NaN, or out of the 64-bit range.
func truncInt(x float64) (int, error) {
	switch t := math.Trunc(x); {
	case x != x:
		return 0, errors.New("NaN is not a number")
	case t < math.MinInt64 || t >= math.MaxInt64:
		return 0, fmt.Errorf("%v is out of the int range", x)
	default:
		return int(t), nil
	}
}

// intOf is int(x) of a value whose type is known at run time: expr's
// conversion, but that a number out of the int range is an error rather
// than a wrapped int, and a string that is no int says so briefly.
func intOf(x any) (int, error) {
	switch v := x.(type) {
	case float64:
		return truncInt(v)
	case float32:
		return truncInt(float64(v))
	case uint:
		if v > math.MaxInt64 {
			return 0, fmt.Errorf("%v is out of the int range", v)
		}
	case uint64:
		if v > math.MaxInt64 {
			return 0, fmt.Errorf("%v is out of the int range", v)
		}
	case string:
		i, err := strconv.Atoi(v)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return 0, fmt.Errorf("%s is out of the int range", quote.Text(v))
		case err != nil:
			return 0, fmt.Errorf("invalid operation: int(%s)", quote.Text(v)) // expr's words
		}
		return i, nil
	}
	return builtin.Int(x).(int), nil
}

// intOrPanic is intOf for the closures' conversion of a dynamic value,
// which recovers expr's panics as the evaluation's error.
func intOrPanic(x any) any {
	i, err := intOf(x)
	if err != nil {
		panic(err.Error())
	}
	return i
}
