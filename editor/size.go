package editor

import "reflect"

// What the history holds, in bytes: values are measured by what they
// are (a string its bytes, a slice its elements, a struct its fields),
// not by what the Go runtime happens to share between them, so that the
// count is an upper bound of what the entries keep alive and the same
// on every run. A pointer counts its target's own size, not what that
// target points to (component values are plain data; a pointer inside
// one would lead into state the entry does not own).

// valuesBytes counts the bytes of a component's values.
func valuesBytes(vals []any) int64 {
	n := int64(24 + 16*len(vals))
	for _, v := range vals {
		n += valueBytes(v)
	}
	return n
}

// valueBytes counts the bytes of one value: its own and those it holds.
func valueBytes(v any) int64 {
	if v == nil {
		return 0
	}
	rv := reflect.ValueOf(v)
	return int64(rv.Type().Size()) + heldBytes(rv)
}

// heldBytes counts the bytes v refers to beyond its own size.
func heldBytes(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if holds(v.Type().Elem()) {
			for i := range v.Len() {
				n += heldBytes(v.Index(i))
			}
		}
		return n
	case reflect.Array:
		n := int64(0)
		if holds(v.Type().Elem()) {
			for i := range v.Len() {
				n += heldBytes(v.Index(i))
			}
		}
		return n
	case reflect.Struct:
		n := int64(0)
		for i := range v.NumField() {
			n += heldBytes(v.Field(i))
		}
		return n
	case reflect.Map:
		n := int64(v.Len()) * int64(v.Type().Key().Size()+v.Type().Elem().Size())
		for it := v.MapRange(); it.Next(); {
			n += heldBytes(it.Key()) + heldBytes(it.Value())
		}
		return n
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return int64(v.Elem().Type().Size()) + heldBytes(v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return int64(v.Elem().Type().Size())
	}
	return 0
}

// holds reports whether values of t may refer to bytes beyond their own
// size.
func holds(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
		return true
	case reflect.Array:
		return holds(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if holds(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
