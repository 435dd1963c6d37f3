package behaviour

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
)

// This file is the expressions' host for the on and bind components:
// the names an expression reads (the data of the entity's components,
// through Frame.Comp), the property a set or binding writes, and the
// conversion of expression errors into errors placed in the attribute
// string.

// schemaEnv is what compiling an on or bind value knows of the scene:
// the schemas of the components it may name (a scene's declared ones
// among them, when a scene is checked), their names (for suggestions),
// the prefabs, and which components are read-only.
type schemaEnv struct {
	schema   func(name string) (*registry.Schema, bool)
	names    func() []string
	prefabs  func() []string
	readOnly func(name string) bool
}

// checkEnv is the schemaEnv of a component's Check (the Registry's
// schemas when the context gives none).
func checkEnv(cx *registry.CheckContext) schemaEnv {
	env := regEnv(cx.Registry)
	if cx.Schema != nil {
		env.schema = cx.Schema
	}
	env.names, env.prefabs = cx.ComponentNames, cx.PrefabNames
	return env
}

// regEnv is the schemaEnv of the Registry alone (when a component is set).
func regEnv(reg *registry.Registry) schemaEnv {
	return schemaEnv{
		schema: func(n string) (*registry.Schema, bool) {
			c, ok := reg.Component(n)
			if !ok {
				return nil, false
			}
			return c.Schema, true
		},
		names: reg.Names, prefabs: reg.Prefabs().Names,
		readOnly: func(n string) bool { c, ok := reg.Component(n); return ok && c.ReadOnly() },
	}
}

// compNames resolves the names of the expressions of one on or bind
// instance: `comp.prop` (and `comp` for a single-property component) read
// the entity's component data from a slot of Frame.Comp, one slot per
// component, handed out in the order they are first read; time, dt,
// event and detail are the frame's.
type compNames struct {
	env   schemaEnv
	slots []string // the component each slot holds
	used  uint8    // the slots the expression being compiled reads

	src   string   // the expression being compiled
	srcAt int      // its offset in the value
	item  int      // the index of the item it belongs to (set by the caller)
	reads []readAt // where each slot's component is first read
}

// readAt is where a slot's component is first read: in which item, and
// at which offset of the value.
type readAt struct{ item, at int }

// nameOffset returns the offset in src of the first whole-word use of
// name (a name followed by anything but a letter, a digit or _), or 0.
func nameOffset(src, name string) int {
	for i := 0; i+len(name) <= len(src); i++ {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return 0
		}
		i += j
		end := i + len(name)
		if (i == 0 || !identByte(src[i-1])) && (end == len(src) || !identByte(src[end])) {
			return i
		}
	}
	return 0
}

// identByte reports whether b may be part of a name.
func identByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// missingRead is the error reported when the entity of an on or a bind
// whose item's expression reads comp at offset at (in the value of the
// property prop) lacks the component.
func missingRead(prop, comp string, at int) *registry.PropError {
	return &registry.PropError{Property: prop, Text: comp, Offset: at,
		Msg: "reads " + comp + ", which the entity does not have: give it " + comp + " (or a mixin or prefab that has it)"}
}

// Resolve implements expr.Resolver.
func (r *compNames) Resolve(name string) (expr.Var, error) {
	comp, prop, dotted := strings.Cut(name, ".")
	s, ok := r.env.schema(comp)
	if !ok || strings.Contains(prop, ".") {
		return expr.Var{}, expr.ErrUnknownName
	}
	var p *registry.Property
	switch {
	case s.IsTag():
		return expr.Var{}, fmt.Errorf("component %q has no data to read (it is a tag)", comp)
	case !dotted && s.Single():
		p = &s.Props[0]
	case !dotted:
		return expr.Var{}, fmt.Errorf("component %q has several properties: name one, as in %s.%s", comp, comp, s.Props[0].Name)
	case s.Single():
		return expr.Var{}, expr.ErrUnknownName // an axis: the compiler reads it on the whole value
	default:
		i, ok := s.Lookup(prop)
		if !ok {
			return expr.Var{}, fmt.Errorf("component %q has no property %q%s", comp, prop, didyoumean.Hint(prop, s.Names()))
		}
		p = &s.Props[i]
	}
	slot := -1
	for i, c := range r.slots {
		if c == comp {
			slot = i
		}
	}
	if slot < 0 {
		if len(r.slots) == expr.MaxComps {
			return expr.Var{}, fmt.Errorf("%s: one on or bind may read at most %d components", comp, expr.MaxComps)
		}
		slot = len(r.slots)
		r.slots = append(r.slots, comp)
		r.reads = append(r.reads, readAt{r.item, r.srcAt + nameOffset(r.src, comp)})
	}
	r.used |= 1 << slot
	return propVar(p, slot), nil
}

// Names implements expr.Lister, for suggestions.
func (r *compNames) Names() []string {
	var out []string
	for _, n := range r.env.names() {
		if s, ok := r.env.schema(n); ok {
			if s.Single() {
				out = append(out, n)
			}
			for _, p := range s.Props {
				if p.Name != "" {
					out = append(out, n+"."+p.Name)
				}
			}
		}
	}
	return out
}

// fieldTypes maps the Go types of properties expressions read in place.
var fieldTypes = map[reflect.Type]expr.FieldType{
	reflect.TypeFor[float64](): expr.FieldFloat64, reflect.TypeFor[float32](): expr.FieldFloat32,
	reflect.TypeFor[int](): expr.FieldInt, reflect.TypeFor[int32](): expr.FieldInt32, reflect.TypeFor[int64](): expr.FieldInt64,
	reflect.TypeFor[bool](): expr.FieldBool, reflect.TypeFor[string](): expr.FieldString,
	reflect.TypeFor[registry.Vec2](): expr.FieldVec2, reflect.TypeFor[registry.Vec3](): expr.FieldVec3,
	reflect.TypeFor[registry.Vec4](): expr.FieldVec4,
}

// propVar is the variable reading property p of the component in slot:
// in place for numbers, booleans, strings and vectors; other types (a
// colour, a list) read as the text the property prints.
func propVar(p *registry.Property, slot int) expr.Var {
	if ft, ok := fieldTypes[p.Type.GoType]; ok && p.FieldType.Kind() == p.Type.GoType.Kind() {
		if ft == expr.FieldFloat64 && p.FieldType.Kind() == reflect.Float32 {
			ft = expr.FieldFloat32
		}
		return expr.FieldVar(expr.Field{Slot: slot, Offset: p.Offset, Type: ft})
	}
	if p.FieldType.Kind() == reflect.String {
		return expr.FieldVar(expr.Field{Slot: slot, Offset: p.Offset, Type: expr.FieldString})
	}
	off, ft := p.Offset, p.FieldType
	return expr.StringVar(func(f *expr.Frame) string {
		v := reflect.NewAt(ft, unsafe.Add(f.Comp[slot], off)).Elem()
		if ft != p.Type.GoType {
			v = v.Convert(p.Type.GoType)
		}
		return p.Print(v.Interface())
	})
}

// How a set or a binding writes its value.
const (
	wNumber  uint8 = iota + 1 // a float64 field
	wFloat32                  // a float32 field
	wInt                      // an int field, from a whole number
	wBool
	wString // a string field of the string type, without oneOf
	wVec2
	wVec3
	wVec4
	wParse // the text the expression gives, parsed by the property's type
	wAttr  // the text, parsed as the component's attribute string (several properties)
)

// propTarget is what a set or a binding writes: a property of a
// component, one axis of a vector property, or a whole component of
// several properties (from an attribute string).
type propTarget struct {
	comp  string
	prop  int // -1: the whole component (wAttr)
	axis  int // -1: the whole property
	write uint8
	kind  expr.Kind // what the expression gives
	off   uintptr   // byte offset of the write in the component's value
	check bool      // the property has oneOf, min or max to check
}

// resolveTarget resolves the path of a set or binding: comp, comp.prop,
// comp.axis (a single-property vector), comp.prop.axis. The error's
// text and offset (in path) point at the offending segment.
func resolveTarget(path string, env schemaEnv) (propTarget, *synError) {
	segs := splitPath(path)
	for _, s := range segs {
		if s.s == "" {
			return propTarget{}, &synError{Text: path, Expected: "a property path: component, component.property or component.property.axis"}
		}
	}
	comp := segs[0]
	s, ok := env.schema(comp.s)
	if !ok {
		return propTarget{}, &synError{Text: comp.s, Expected: "the name of a component" + didyoumean.Hint(comp.s, env.names())}
	}
	if env.readOnly != nil && env.readOnly(comp.s) {
		return propTarget{}, &synError{Text: comp.s, Expected: "a component that can be written (" + comp.s + " is read-only)"}
	}
	t := propTarget{comp: comp.s, prop: -1, axis: -1}
	rest := segs[1:]
	switch {
	case s.IsTag():
		return t, &synError{Text: comp.s, At: comp.at, Expected: "a component with data (" + comp.s + " is a tag: add or remove it)"}
	case s.Single():
		t.prop = 0
	case len(rest) == 0:
		t.write, t.kind = wAttr, expr.String
		return t, nil
	default:
		i, ok := s.Lookup(rest[0].s)
		if !ok {
			return t, &synError{Text: rest[0].s, At: rest[0].at, Expected: "a property of " + comp.s + didyoumean.Hint(rest[0].s, s.Names())}
		}
		t.prop, rest = i, rest[1:]
	}
	p := &s.Props[t.prop]
	t.off = p.Offset
	t.check = len(p.OneOf) > 0 || p.Min != nil || p.Max != nil
	t.write, t.kind = writeOf(p)
	if len(rest) == 0 {
		return t, nil
	}
	dim := t.kind.Dim()
	if a := axisIndex(rest[0].s); len(rest) == 1 && a >= 0 && a < dim {
		t.axis, t.write, t.kind = a, wNumber, expr.Number
		t.off += uintptr(8 * a)
		return t, nil
	}
	exp := "nothing after " + path[:rest[0].at-1] + " (it has no axes)"
	if dim > 0 {
		exp = "an axis of " + path[:rest[0].at-1] + " (" + strings.Join(strings.Split("xyzw"[:dim], ""), ", ") + ")"
	}
	return t, &synError{Text: rest[0].s, At: rest[0].at, Expected: exp}
}

// writeOf returns how a value of property p is written, and the kind of
// expression that gives it.
func writeOf(p *registry.Property) (uint8, expr.Kind) {
	gt, fk := p.Type.GoType, p.FieldType.Kind()
	switch {
	case gt == reflect.TypeFor[float64]() && fk == reflect.Float64:
		return wNumber, expr.Number
	case gt == reflect.TypeFor[float64]() && fk == reflect.Float32:
		return wFloat32, expr.Number
	case gt == reflect.TypeFor[int]() && fk == reflect.Int:
		return wInt, expr.Number
	case gt == reflect.TypeFor[bool]() && fk == reflect.Bool:
		return wBool, expr.Bool
	case gt == reflect.TypeFor[string]() && fk == reflect.String && len(p.OneOf) == 0:
		return wString, expr.String
	case gt == reflect.TypeFor[registry.Vec2]():
		return wVec2, expr.Vec2
	case gt == reflect.TypeFor[registry.Vec3]():
		return wVec3, expr.Vec3
	case gt == reflect.TypeFor[registry.Vec4]():
		return wVec4, expr.Vec4
	}
	return wParse, expr.String
}

// textFunc returns a closure giving prog's value as attribute text, for
// a property written from text (a string, a colour, a component's
// attribute string): a string as it is, a number, a boolean or a vector
// as an attribute string writes them (100, true, 1 2 3).
func textFunc(prog *expr.Program) func(*expr.Frame) string {
	switch k := prog.Kind(); {
	case k == expr.String:
		return prog.StringFunc()
	case k == expr.Bool:
		b := prog.BoolFunc()
		return func(f *expr.Frame) string { return strconv.FormatBool(b(f)) }
	case k == expr.Int || k == expr.Number:
		n := prog.NumberFunc()
		return func(f *expr.Frame) string { return strconv.FormatFloat(n(f), 'g', -1, 64) }
	case k.IsVec():
		v, dim := prog.VecFunc(), k.Dim()
		return func(f *expr.Frame) string {
			x := v(f)
			parts := make([]string, dim)
			for i := range parts {
				parts[i] = strconv.FormatFloat(x[i], 'g', -1, 64)
			}
			return strings.Join(parts, " ")
		}
	}
	d := prog.DynamicFunc()
	return func(f *expr.Frame) string {
		switch x := d(f); x := x.(type) {
		case string:
			return x
		case nil:
			return ""
		default:
			return fmt.Sprint(x)
		}
	}
}

// compileExpr compiles src (at offset at, as a clause's offsets count) to
// a program of kind want with the names of r; used is the mask of the
// slots it reads. The error is placed in the value: Text, Offset, and a
// message led by what (the clause, "if", "set", ...).
func compileExpr(src string, at int, r *compNames, want expr.Kind, what string) (*expr.Program, uint8, *exprErr) {
	r.used, r.src, r.srcAt = 0, src, at
	if want == expr.String {
		want = expr.Any // any value becomes text: see textFunc
	}
	p, err := expr.Compile(src, expr.Chain(expr.FrameNames(), r), want)
	if err != nil {
		var ee *expr.Error
		if !errors.As(err, &ee) {
			return nil, 0, &exprErr{text: src, at: at, msg: err.Error(), what: what}
		}
		end := min(ee.Offset+ee.Len, len(src))
		return nil, 0, &exprErr{text: src[ee.Offset:end], at: at + ee.Offset, msg: ee.Msg, what: what}
	}
	return p, r.used, nil
}

// exprErr is an expression's error, placed in a value.
type exprErr struct {
	text, msg, what string
	at              int
}

// wholeNumber converts v to an int for an int property, or says why it
// cannot: a value is a float64, exact as an int up to ±2^53.
func wholeNumber(v float64) (int, error) {
	switch {
	case math.IsInf(v, 0) || math.Abs(v) > 1<<53:
		return 0, fmt.Errorf("the value is %v, out of the int range (the property is an int, and a number is exact up to ±2^53)", v)
	case v != math.Trunc(v):
		return 0, fmt.Errorf("the value is %v, not a whole number (the property is an int)", v)
	}
	return int(v), nil
}
