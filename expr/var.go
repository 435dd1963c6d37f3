package expr

import (
	"errors"
	"fmt"
	"slices"
	"unsafe"
)

// Var is what a name in an expression stands for: its kind and a typed
// accessor over the evaluation [Frame]. Exactly the accessor matching Kind
// is set (Number for Number, Vec for the three vector kinds, Dynamic for
// Dynamic). Build one with [NumberVar], [IntVar], [BoolVar], [StringVar],
// [VecVar], [DynamicVar], [Const] or [FieldVar].
type Var struct {
	Kind    Kind
	Bool    func(*Frame) bool
	Int     func(*Frame) int
	Number  func(*Frame) float64
	String  func(*Frame) string
	Vec     func(*Frame) Vec
	Dynamic func(*Frame) any

	// Const marks a value that does not depend on the frame: the compiler
	// evaluates it once, with an empty frame, and folds the expressions
	// built on it. Its accessor must not read the frame.
	Const bool
	// Field, when set, says that the value is a plain field of a
	// component value the host puts in Frame.Comp; the compiler then reads
	// it inline instead of calling the accessor.
	Field *Field

	// time: the variable is the frame's Time (see FrameNames), which the
	// compiler reads inline.
	time bool
}

// NumberVar returns a Number variable read by fn.
func NumberVar(fn func(*Frame) float64) Var { return Var{Kind: Number, Number: fn} }

// IntVar returns an Int variable read by fn.
func IntVar(fn func(*Frame) int) Var { return Var{Kind: Int, Int: fn} }

// BoolVar returns a Bool variable read by fn.
func BoolVar(fn func(*Frame) bool) Var { return Var{Kind: Bool, Bool: fn} }

// StringVar returns a String variable read by fn.
func StringVar(fn func(*Frame) string) Var { return Var{Kind: String, String: fn} }

// VecVar returns a vector variable of kind k (Vec2, Vec3 or Vec4) read by
// fn. It panics if k is not a vector kind.
func VecVar(k Kind, fn func(*Frame) Vec) Var {
	if !k.IsVec() {
		panic(fmt.Sprintf("expr.VecVar: %v is not a vector kind", k))
	}
	return Var{Kind: k, Vec: fn}
}

// DynamicVar returns a Dynamic variable read by fn: its type is checked
// where the expression uses it, at run time.
func DynamicVar(fn func(*Frame) any) Var { return Var{Kind: Dynamic, Dynamic: fn} }

// Const returns a constant variable of value v, which must be a bool, an
// int, a float64, a string or a Vec (as a Vec3; use [ConstVec] for other
// dimensions). It panics on other types.
func Const(v any) Var {
	switch v := v.(type) {
	case bool:
		return Var{Kind: Bool, Bool: func(*Frame) bool { return v }, Const: true}
	case int:
		return Var{Kind: Int, Int: func(*Frame) int { return v }, Const: true}
	case float64:
		return Var{Kind: Number, Number: func(*Frame) float64 { return v }, Const: true}
	case string:
		return Var{Kind: String, String: func(*Frame) string { return v }, Const: true}
	case Vec:
		return ConstVec(Vec3, v)
	}
	panic(fmt.Sprintf("expr.Const: unsupported type %T", v))
}

// ConstVec returns a constant vector of kind k.
func ConstVec(k Kind, v Vec) Var {
	r := VecVar(k, func(*Frame) Vec { return v })
	r.Const = true
	return r
}

// FieldType is the Go type of a component field a [Field] reads.
type FieldType uint8

// The field types a [Field] can read. FieldVec2..FieldVec4 are 2 to 4
// consecutive float64 (a struct{X, Y, Z float64} or a [3]float64).
const (
	FieldFloat64 FieldType = iota + 1
	FieldFloat32
	FieldInt
	FieldInt32
	FieldInt64
	FieldBool
	FieldString
	FieldVec2
	FieldVec3
	FieldVec4
)

// kind returns the kind of a field of type t.
func (t FieldType) kind() Kind {
	switch t {
	case FieldFloat64, FieldFloat32:
		return Number
	case FieldInt, FieldInt32, FieldInt64:
		return Int
	case FieldBool:
		return Bool
	case FieldString:
		return String
	case FieldVec2, FieldVec3, FieldVec4:
		return Vec2 + Kind(t-FieldVec2)
	}
	return Any
}

// Field locates a variable inside a component value: the host puts a
// pointer to the component value in Frame.Comp[Slot] before evaluating,
// and the value is the field of type Type at byte Offset. The pointer
// must be valid for every evaluation that reads it.
type Field struct {
	Slot   int
	Offset uintptr
	Type   FieldType
}

// FieldVar returns the variable reading field f, with both the accessor
// (for the interpreter and for hosts) and the Field set. It panics if the
// slot is out of range or the type unknown.
func FieldVar(f Field) Var {
	if f.Slot < 0 || f.Slot >= MaxComps {
		panic(fmt.Sprintf("expr.FieldVar: slot %d out of range [0,%d)", f.Slot, MaxComps))
	}
	k := f.Type.kind()
	if k == Any {
		panic(fmt.Sprintf("expr.FieldVar: unknown field type %d", f.Type))
	}
	v := fieldAccessor(f)
	v.Field = &f
	return v
}

// fieldAccessor builds the accessor closures of a field.
func fieldAccessor(f Field) Var {
	s, off := f.Slot, f.Offset
	switch f.Type {
	case FieldFloat64:
		return NumberVar(func(fr *Frame) float64 { return *(*float64)(unsafe.Add(fr.Comp[s], off)) })
	case FieldFloat32:
		return NumberVar(func(fr *Frame) float64 { return float64(*(*float32)(unsafe.Add(fr.Comp[s], off))) })
	case FieldInt:
		return IntVar(func(fr *Frame) int { return *(*int)(unsafe.Add(fr.Comp[s], off)) })
	case FieldInt32:
		return IntVar(func(fr *Frame) int { return int(*(*int32)(unsafe.Add(fr.Comp[s], off))) })
	case FieldInt64:
		return IntVar(func(fr *Frame) int { return int(*(*int64)(unsafe.Add(fr.Comp[s], off))) })
	case FieldBool:
		return BoolVar(func(fr *Frame) bool { return *(*bool)(unsafe.Add(fr.Comp[s], off)) })
	case FieldString:
		return StringVar(func(fr *Frame) string { return *(*string)(unsafe.Add(fr.Comp[s], off)) })
	}
	n := int(f.Type-FieldVec2) + 2
	kind := vecKind(n)
	switch n {
	case 2:
		return VecVar(kind, func(fr *Frame) Vec {
			p := (*[2]float64)(unsafe.Add(fr.Comp[s], off))
			return Vec{p[0], p[1]}
		})
	case 3:
		return VecVar(kind, func(fr *Frame) Vec {
			p := (*[3]float64)(unsafe.Add(fr.Comp[s], off))
			return Vec{p[0], p[1], p[2]}
		})
	}
	return VecVar(kind, func(fr *Frame) Vec { return *(*Vec)(unsafe.Add(fr.Comp[s], off)) })
}

// ErrUnknownName is what a [Resolver] returns (or wraps) for a name it
// does not know, so that the compiler tries a shorter prefix of a dotted
// name, and finally reports the name as unknown.
var ErrUnknownName = errors.New("unknown name")

// Resolver maps the names of an expression to variables, at compile time.
// A name is an identifier or a dotted path of them: "time", "health.hp",
// "position.y", "detail.damage". For a dotted path the compiler asks for
// the whole path first, then for ever shorter prefixes; the rest of the
// path becomes member accesses on the prefix's value (an axis of a vector,
// a field of a dynamic value). So a host may resolve "position.y" itself,
// or resolve "position" to a Vec3 and leave ".y" to the compiler.
//
// Resolve returns an error wrapping [ErrUnknownName] (or a Var of kind
// [Any] and no error) for a name it does not know; any other error means
// the name is known but cannot be used, and its text is reported at the
// name (such as `component "health" has no property "hpp" (did you mean
// "hp"?)`). The constants PI and E are the language's own: a resolver is
// not asked for them.
type Resolver interface {
	Resolve(name string) (Var, error)
}

// Lister is implemented by resolvers that can list their names; the
// compiler uses the list for "did you mean" hints.
type Lister interface {
	Names() []string
}

// ResolverFunc adapts a function to [Resolver].
type ResolverFunc func(name string) (Var, error)

// Resolve calls fn(name).
func (fn ResolverFunc) Resolve(name string) (Var, error) { return fn(name) }

// Vars is a [Resolver] over a fixed set of names.
type Vars map[string]Var

// Resolve returns the variable named name.
func (vs Vars) Resolve(name string) (Var, error) {
	if v, ok := vs[name]; ok {
		return v, nil
	}
	return Var{}, ErrUnknownName
}

// Names returns the names, sorted.
func (vs Vars) Names() []string {
	names := make([]string, 0, len(vs))
	for n := range vs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Chain returns a resolver that asks rs in order: the first that knows a
// name (or fails on it with an error other than [ErrUnknownName]) answers.
func Chain(rs ...Resolver) Resolver { return chain(rs) }

type chain []Resolver

func (c chain) Resolve(name string) (Var, error) {
	for _, r := range c {
		v, err := r.Resolve(name)
		if err == nil || !errors.Is(err, ErrUnknownName) {
			return v, err
		}
	}
	return Var{}, ErrUnknownName
}

func (c chain) Names() []string {
	var names []string
	for _, r := range c {
		if l, ok := r.(Lister); ok {
			names = append(names, l.Names()...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// FrameNames returns the resolver of the names every host context has,
// read from the [Frame]: `time` and `dt` (numbers, seconds), `event`
// (string: the event's name) and `detail` (dynamic: the event's detail, so
// that `detail.damage` reads its field). A host chains it with its own
// resolver: Chain(FrameNames(), mine).
func FrameNames() Resolver { return frameResolver{} }

type frameResolver struct{}

func (frameResolver) Resolve(name string) (Var, error) {
	switch name {
	case "time":
		v := NumberVar(func(f *Frame) float64 { return f.Time })
		v.time = true
		return v, nil
	case "dt":
		return NumberVar(func(f *Frame) float64 { return f.Dt }), nil
	case "event":
		return StringVar(func(f *Frame) string { return f.Event }), nil
	case "detail":
		return DynamicVar(func(f *Frame) any { return f.Detail }), nil
	}
	return Var{}, ErrUnknownName
}

func (frameResolver) Names() []string { return []string{"detail", "dt", "event", "time"} }

// check reports what is wrong with v as the value of name, or nil.
func (v Var) check() error {
	ok := false
	switch v.Kind {
	case Bool:
		ok = v.Bool != nil
	case Int:
		ok = v.Int != nil
	case Number:
		ok = v.Number != nil
	case String:
		ok = v.String != nil
	case Vec2, Vec3, Vec4:
		ok = v.Vec != nil
	case Dynamic:
		ok = v.Dynamic != nil
	default:
		return fmt.Errorf("the resolver gave it no kind")
	}
	if !ok {
		return fmt.Errorf("the resolver gave it kind %v but no %v accessor", v.Kind, v.Kind)
	}
	if v.Field != nil && (v.Field.Type.kind() != v.Kind || v.Field.Slot < 0 || v.Field.Slot >= MaxComps) {
		return fmt.Errorf("the resolver gave it kind %v with a field of type %d in slot %d", v.Kind, v.Field.Type, v.Field.Slot)
	}
	return nil
}
