package expr

import "fmt"

// Kind is the type of a value in an expression.
type Kind uint8

// The kinds of values. Number is a float64; Int is a Go int, which expr's
// syntax keeps apart from floats (integer literals, `%`, `int(x)`); an Int
// promotes to a Number wherever a number is wanted. Vec2, Vec3 and Vec4
// are vectors of float64 held in a [Vec]. Dynamic is a value whose type is
// known only at run time (an event's detail): it is checked where it is
// used. Any is not a value's kind: passed to [Compile] it means "whatever
// kind the expression has".
const (
	Any Kind = iota
	Bool
	Int
	Number
	String
	Vec2
	Vec3
	Vec4
	Dynamic
	kindNil // the literal nil: only in ==, != and ??
	numKinds
)

var kindNames = [numKinds]string{"any", "bool", "int", "number", "string", "vec2", "vec3", "vec4", "dynamic", "nil"}

// String returns the kind's name as error messages and the docs spell it:
// "number", "vec3", "dynamic".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// IsVec reports whether k is Vec2, Vec3 or Vec4.
func (k Kind) IsVec() bool { return k == Vec2 || k == Vec3 || k == Vec4 }

// Dim returns the number of axes of a vector kind, and 0 for other kinds.
func (k Kind) Dim() int {
	switch k {
	case Vec2:
		return 2
	case Vec3:
		return 3
	case Vec4:
		return 4
	}
	return 0
}

// isNum reports whether k is Int or Number.
func (k Kind) isNum() bool { return k == Int || k == Number }

// vecKind returns the vector kind of n axes.
func vecKind(n int) Kind { return Vec2 + Kind(n-2) }

// Vec is the value of a vector: up to four axes x, y, z, w. A Vec2 uses
// the first two, a Vec3 the first three; the axes beyond the kind's
// dimension are zero.
type Vec [4]float64
