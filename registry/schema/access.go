package schema

import (
	"reflect"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/scenecs/scenecs/selector"
)

// This file holds how a property is read and written inside a component
// value in memory: by the registry (Accessor) and by selectors' value
// tests (Reader, AxisReader).

// An Accessor reads and writes one property inside a component value (a
// pointer to the Go struct the schema was made from), with functions
// prepared once: fast paths for the common field types, reflect for the
// others (converting between the field's type and the property type's Go
// type, as for `type Mode string`).
type Accessor struct {
	// Get reads the property's value as its property type's Go type.
	Get func(p unsafe.Pointer) any
	// Set writes v, of the property type's Go type; a []string is copied.
	Set func(p unsafe.Pointer, v any)
	// Num reads a numeric property as float64 (ok=false for others).
	Num func(p unsafe.Pointer) (float64, bool)
}

// Accessors returns an [Accessor] for each of the schema's properties, in
// the order of Props.
func (s *Schema) Accessors() []Accessor {
	acc := make([]Accessor, len(s.Props))
	for i := range s.Props {
		acc[i] = s.Props[i].Accessor()
	}
	return acc
}

// Accessor returns the [Accessor] of the property, at its Offset.
func (p *Property) Accessor() Accessor {
	off, ft, gt := p.Offset, p.FieldType, p.Type.GoType
	a := Accessor{Num: func(unsafe.Pointer) (float64, bool) { return 0, false }}
	at := func(q unsafe.Pointer) unsafe.Pointer { return unsafe.Add(q, off) }
	if ft == gt {
		switch gt {
		case reflect.TypeFor[float64]():
			a.Get = func(q unsafe.Pointer) any { return *(*float64)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*float64)(at(q)) = v.(float64) }
			a.Num = func(q unsafe.Pointer) (float64, bool) { return *(*float64)(at(q)), true }
			return a
		case reflect.TypeFor[int]():
			a.Get = func(q unsafe.Pointer) any { return *(*int)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*int)(at(q)) = v.(int) }
			a.Num = func(q unsafe.Pointer) (float64, bool) { return float64(*(*int)(at(q))), true }
			return a
		case reflect.TypeFor[bool]():
			a.Get = func(q unsafe.Pointer) any { return *(*bool)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*bool)(at(q)) = v.(bool) }
			return a
		case reflect.TypeFor[string]():
			a.Get = func(q unsafe.Pointer) any { return *(*string)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*string)(at(q)) = v.(string) }
			return a
		case reflect.TypeFor[Vec3]():
			a.Get = func(q unsafe.Pointer) any { return *(*Vec3)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*Vec3)(at(q)) = v.(Vec3) }
			return a
		case reflect.TypeFor[time.Duration]():
			a.Get = func(q unsafe.Pointer) any { return *(*time.Duration)(at(q)) }
			a.Set = func(q unsafe.Pointer, v any) { *(*time.Duration)(at(q)) = v.(time.Duration) }
			return a
		}
	}
	// General case: through reflect, converting between the field's type
	// and the property type's Go type (`type Mode string`).
	a.Get = func(q unsafe.Pointer) any {
		v := reflect.NewAt(ft, at(q)).Elem()
		if ft != gt {
			v = v.Convert(gt)
		}
		return v.Interface()
	}
	a.Set = func(q unsafe.Pointer, v any) {
		if s, ok := v.([]string); ok {
			v = slices.Clone(s)
		}
		rv := reflect.ValueOf(v)
		if ft != gt {
			rv = rv.Convert(ft)
		}
		reflect.NewAt(ft, at(q)).Elem().Set(rv)
	}
	switch ft.Kind() {
	case reflect.Float32, reflect.Float64:
		a.Num = func(q unsafe.Pointer) (float64, bool) { return reflect.NewAt(ft, at(q)).Elem().Float(), true }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		a.Num = func(q unsafe.Pointer) (float64, bool) { return float64(reflect.NewAt(ft, at(q)).Elem().Int()), true }
	}
	return a
}

var vecAxes = map[reflect.Type]int{
	reflect.TypeFor[Vec2](): 2,
	reflect.TypeFor[Vec3](): 3,
	reflect.TypeFor[Vec4](): 4,
}

// AxisReader returns the selector's reader of the axis x, y, z or w of a
// vector property, or of the channel r, g, b or a of a colour property
// (`[world.position.y<0]`); ok is false if the property has no such axis.
func (p *Property) AxisReader(axis string) (r selector.PropertyReader, ok bool) {
	if n, ok := vecAxes[p.FieldType]; ok {
		if i := strings.Index("xyzw"[:n], axis); len(axis) == 1 && i >= 0 {
			off := p.Offset + uintptr(i)*8
			return selector.PropertyReader{Kind: selector.KindNumber, Type: "number", Num: func(q unsafe.Pointer) float64 {
				return *(*float64)(unsafe.Add(q, off))
			}, Field: selector.FieldFloat64, Offset: off}, true
		}
	}
	if p.FieldType == reflect.TypeFor[Color]() {
		if i := strings.Index("rgba", axis); len(axis) == 1 && i >= 0 {
			off := p.Offset + uintptr(i)
			return selector.PropertyReader{Kind: selector.KindInt, Type: "int", Num: func(q unsafe.Pointer) float64 {
				return float64(*(*uint8)(unsafe.Add(q, off)))
			}, Field: selector.FieldUint8, Offset: off}, true
		}
	}
	return selector.PropertyReader{}, false
}

// Reader returns the selector's reader of the property at byte offset off
// of the component value (its Offset, or 0 for the value of a
// single-property component read whole). A plain field also gets its
// type for the selector's column loops; a duration (compared in
// seconds), an array and a printed value do not.
func (p *Property) Reader(off uintptr) selector.PropertyReader {
	at := func(q unsafe.Pointer) unsafe.Pointer { return unsafe.Add(q, off) }
	ft := p.FieldType
	sp := selector.PropertyReader{Type: p.Type.Name, Field: fieldTypes[ft.Kind()], Offset: off}
	if p.Type.GoType == reflect.TypeFor[time.Duration]() && ft.Kind() == reflect.Int64 {
		sp.Kind = selector.KindNumber
		sp.Num = func(q unsafe.Pointer) float64 { return time.Duration(*(*int64)(at(q))).Seconds() }
		sp.Field = selector.NoField
		return sp
	}
	switch ft.Kind() {
	case reflect.Float64:
		sp.Kind = selector.KindNumber
		sp.Num = func(q unsafe.Pointer) float64 { return *(*float64)(at(q)) }
		return sp
	case reflect.Float32:
		sp.Kind = selector.KindNumber
		sp.Num = func(q unsafe.Pointer) float64 { return float64(*(*float32)(at(q))) }
		return sp
	case reflect.Int:
		sp.Kind = selector.KindInt
		sp.Num = func(q unsafe.Pointer) float64 { return float64(*(*int)(at(q))) }
		return sp
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		sp.Kind = selector.KindInt
		sp.Num = func(q unsafe.Pointer) float64 { return float64(reflect.NewAt(ft, at(q)).Elem().Int()) }
		return sp
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		sp.Kind = selector.KindInt
		sp.Num = func(q unsafe.Pointer) float64 { return float64(reflect.NewAt(ft, at(q)).Elem().Uint()) }
		return sp
	case reflect.Bool:
		sp.Kind = selector.KindBool
		sp.Bool = func(q unsafe.Pointer) bool { return *(*bool)(at(q)) }
		return sp
	case reflect.String:
		sp.Kind = selector.KindString
		sp.Str = func(q unsafe.Pointer) string { return *(*string)(at(q)) }
		return sp
	case reflect.Slice:
		if ft.Elem().Kind() == reflect.String {
			// Arrays read as their elements separated by spaces, so that
			// `~=` tests membership.
			sp.Str = func(q unsafe.Pointer) string {
				v := reflect.NewAt(ft, at(q)).Elem()
				var b strings.Builder
				for i := range v.Len() {
					if i > 0 {
						b.WriteByte(' ')
					}
					b.WriteString(v.Index(i).String())
				}
				return b.String()
			}
			return sp
		}
	}
	sp.Field = selector.NoField
	gt, typ := p.Type.GoType, p.Type
	sp.Str = func(q unsafe.Pointer) string {
		v := reflect.NewAt(ft, at(q)).Elem()
		if ft != gt && v.CanConvert(gt) {
			v = v.Convert(gt)
		}
		return typ.Print(v.Interface())
	}
	return sp
}

// fieldTypes maps the kinds of Go types a selector reads as plain fields.
var fieldTypes = map[reflect.Kind]selector.FieldType{
	reflect.Float64: selector.FieldFloat64, reflect.Float32: selector.FieldFloat32,
	reflect.Int: selector.FieldInt, reflect.Int8: selector.FieldInt8, reflect.Int16: selector.FieldInt16,
	reflect.Int32: selector.FieldInt32, reflect.Int64: selector.FieldInt64,
	reflect.Uint: selector.FieldUint, reflect.Uint8: selector.FieldUint8, reflect.Uint16: selector.FieldUint16,
	reflect.Uint32: selector.FieldUint32, reflect.Uint64: selector.FieldUint64, reflect.Uintptr: selector.FieldUintptr,
	reflect.Bool: selector.FieldBool, reflect.String: selector.FieldString,
}
