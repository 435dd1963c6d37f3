package expr

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/expr-lang/expr/vm/runtime"
	"github.com/scenecs/scenecs/internal/quote"
)

// The vector types expr's checker and VM see: structs of float64 whose
// fields are named x, y, z, w in expressions. They have no methods, so
// that an expression cannot call any.
type (
	vmVec2 struct {
		X float64 `expr:"x"`
		Y float64 `expr:"y"`
	}
	vmVec3 struct {
		X float64 `expr:"x"`
		Y float64 `expr:"y"`
		Z float64 `expr:"z"`
	}
	vmVec4 struct {
		X float64 `expr:"x"`
		Y float64 `expr:"y"`
		Z float64 `expr:"z"`
		W float64 `expr:"w"`
	}
)

// toVM converts a vector of kind k to the VM's struct.
func toVM(k Kind, v Vec) any {
	switch k {
	case Vec2:
		return vmVec2{v[0], v[1]}
	case Vec3:
		return vmVec3{v[0], v[1], v[2]}
	}
	return vmVec4{v[0], v[1], v[2], v[3]}
}

// fromVM converts a VM vector (or a Vec) to a Vec and its kind.
func fromVM(x any) (Vec, Kind, bool) {
	switch x := x.(type) {
	case vmVec2:
		return Vec{x.X, x.Y}, Vec2, true
	case vmVec3:
		return Vec{x.X, x.Y, x.Z}, Vec3, true
	case vmVec4:
		return Vec{x.X, x.Y, x.Z, x.W}, Vec4, true
	case Vec:
		return x, Any, true
	}
	return Vec{}, Any, false
}

// box returns a closure giving c's value as an any, as expr's VM holds it:
// float64, int, bool, string, a VM vector, or the dynamic value itself.
// A constant is boxed once.
func box(c code) func(*Frame) any {
	var fn func(*Frame) any
	switch c.k {
	case Bool:
		b := c.b
		fn = func(f *Frame) any { return b(f) }
	case Int:
		i := c.i
		fn = func(f *Frame) any { return i(f) }
	case Number:
		n := c.n
		fn = func(f *Frame) any { return n(f) }
	case String:
		s := c.s
		fn = func(f *Frame) any { return s(f) }
	case Vec2, Vec3, Vec4:
		v, k := c.v, c.k
		fn = func(f *Frame) any { return toVM(k, v(f)) }
	default:
		fn = c.d
	}
	if c.konst {
		var f Frame
		x := fn(&f)
		if f.err == nil {
			return func(*Frame) any { return x }
		}
	}
	return fn
}

// describe names the type of a dynamic value for error messages.
func describe(x any) string {
	switch x := x.(type) {
	case nil:
		return "nil"
	case bool:
		return "a bool"
	case string:
		return fmt.Sprintf("a string (%s)", quote.String(x))
	case float32, float64, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprintf("a number (%v)", x)
	case vmVec2:
		return "a vec2"
	case vmVec3:
		return "a vec3"
	case vmVec4:
		return "a vec4"
	}
	switch reflect.TypeOf(x).Kind() {
	case reflect.Map:
		return "a map"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return fmt.Sprintf("a %T", x)
}

// toFloat converts a Go number to float64.
func toFloat(x any) (float64, bool) {
	switch x := x.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case float32:
		return float64(x), true
	case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return runtime.ToFloat64(x), true
	}
	return 0, false
}

// toInt converts a Go integer to int (not a float: `%` refuses those).
func toInt(x any) (int, bool) {
	switch x := x.(type) {
	case int:
		return x, true
	case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return runtime.ToInt(x), true
	}
	return 0, false
}

// wrongType is the run-time error for a dynamic value of the wrong type.
func (cc *compiler) wrongType(at span, x any, want string) *Error {
	return errAt(cc.src, at, "%s is %s, not %s", at.text(cc.src), describe(x), want)
}

// dynNum coerces the dynamic code c to a number.
func (cc *compiler) dynNum(c code) func(*Frame) float64 {
	d, at := c.d, c.at
	return func(f *Frame) float64 {
		x := d(f)
		if v, ok := toFloat(x); ok {
			return v
		}
		f.Fail(cc.wrongType(at, x, "a number"))
		return 0
	}
}

// dynInt coerces the dynamic code c to an integer.
func (cc *compiler) dynInt(c code) func(*Frame) int {
	d, at := c.d, c.at
	return func(f *Frame) int {
		x := d(f)
		if v, ok := toInt(x); ok {
			return v
		}
		f.Fail(cc.wrongType(at, x, "an integer"))
		return 0
	}
}

// dynBool coerces the dynamic code c to a bool.
func (cc *compiler) dynBool(c code) func(*Frame) bool {
	d, at := c.d, c.at
	return func(f *Frame) bool {
		x := d(f)
		if v, ok := x.(bool); ok {
			return v
		}
		f.Fail(cc.wrongType(at, x, "a bool"))
		return false
	}
}

// dynStr coerces the dynamic code c to a string.
func (cc *compiler) dynStr(c code) func(*Frame) string {
	d, at := c.d, c.at
	return func(f *Frame) string {
		x := d(f)
		if v, ok := x.(string); ok {
			return v
		}
		f.Fail(cc.wrongType(at, x, "a string"))
		return ""
	}
}

// dynVec coerces the dynamic code c to a vector of kind k.
func (cc *compiler) dynVec(c code, k Kind) func(*Frame) Vec {
	d, at := c.d, c.at
	return func(f *Frame) Vec {
		x := d(f)
		if v, vk, ok := fromVM(x); ok && (vk == k || vk == Any) {
			return v
		}
		f.Fail(cc.wrongType(at, x, "a "+k.String()))
		return Vec{}
	}
}

// chainStop is the value of an optional member access (a?.b) on nil: it
// makes the rest of the chain nil.
type chainStop struct{}

// fetch reads the member key of the dynamic value base, as expr's VM does
// (a missing map key reads as the map's zero value, a struct field by its
// name or `expr` tag, a list element by index).
func (cc *compiler) fetch(f *Frame, base, key any, at, baseAt span) any {
	if m, ok := base.(map[string]any); ok {
		if k, ok := key.(string); ok {
			return m[k]
		}
	}
	if base == nil {
		f.Fail(errAt(cc.src, at, "cannot read %s of %s: it is nil", quote.Text(fmt.Sprint(key)), baseAt.text(cc.src)))
		return nil
	}
	return cc.try(f, at, func(a, b any) any { return runtime.Fetch(a, b) }, base, key)
}

// try calls op(a, b), turning a panic of expr's run-time helpers (a type
// they do not handle) into the frame's error.
func (cc *compiler) try(f *Frame, at span, op func(a, b any) any, a, b any) (v any) {
	defer func() {
		if r := recover(); r != nil {
			f.Fail(errAt(cc.src, at, "%s: %s", at.text(cc.src), translate(strings.TrimPrefix(fmt.Sprint(r), "runtime error: "))))
			v = nil
		}
	}()
	return op(a, b)
}

// dynOp returns expr's run-time helper for the operator op, for operands
// whose types are known only at run time.
func dynOp(op string) func(a, b any) any {
	switch op {
	case "+":
		return runtime.Add
	case "-":
		return runtime.Subtract
	case "*":
		return runtime.Multiply
	case "/":
		return func(a, b any) any { return runtime.Divide(a, b) }
	case "%":
		return func(a, b any) any { return runtime.Modulo(a, b) }
	case "**", "^":
		return func(a, b any) any { return runtime.Exponent(a, b) }
	case "==":
		return func(a, b any) any { return runtime.Equal(a, b) }
	case "!=":
		return func(a, b any) any { return !runtime.Equal(a, b) }
	case "<":
		return func(a, b any) any { return runtime.Less(a, b) }
	case ">":
		return func(a, b any) any { return runtime.More(a, b) }
	case "<=":
		return func(a, b any) any { return runtime.LessOrEqual(a, b) }
	case ">=":
		return func(a, b any) any { return runtime.MoreOrEqual(a, b) }
	}
	return nil
}

// dynBinary compiles l op r through expr's run-time helper for op: the
// path for operands of types known only at run time (and the rare typed
// pairs the typed closures do not specialise). Comparisons give a Bool,
// arithmetic a Dynamic.
func (cc *compiler) dynBinary(op string, l, r code, at span) code {
	fn := dynOp(op)
	a, b := box(l), box(r)
	konst := l.konst && r.konst
	switch op {
	case "==", "!=", "<", ">", "<=", ">=":
		return boolCode(func(f *Frame) bool {
			v, _ := cc.try(f, at, fn, a(f), b(f)).(bool)
			return v
		}, konst)
	case "+":
		cc.allocs = true
		return dynCode(func(f *Frame) any {
			x, y := a(f), b(f)
			if s, ok := x.(string); ok {
				if t, ok := y.(string); ok && !cc.spend(f, at, "+", len(s)+len(t)) {
					return nil
				}
			}
			return cc.try(f, at, fn, x, y)
		}, konst)
	}
	return dynCode(func(f *Frame) any { return cc.try(f, at, fn, a(f), b(f)) }, konst)
}
