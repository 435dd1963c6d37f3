package schema

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"
)

type testHealth struct {
	HP      int     `scene:"hp,default=100,min=0"`
	MaxHP   int     `scene:"max-hp,default=100,min=1,max=1000"`
	Regen   float64 // untagged: "regen", number
	Mode    string  `scene:"mode,oneOf=walk|run"`
	Alive   bool    `scene:",default=true"`
	Pos     Vec3    `scene:"pos,default=0 1 0"`
	Tint    Color   `scene:"tint,default=#4cc3d9"`
	Tags    []string
	Wait    time.Duration `scene:"wait,default=1.5s"`
	Target  SelectorText
	Delay   float64 `scene:"delay,type=time,default=250"`
	Skipped int     `scene:"-"`
	private int
}

func TestSchemaOfStruct(t *testing.T) {
	ts := NewTypes()
	s, err := SchemaOf(reflect.TypeFor[testHealth](), ts)
	if err != nil {
		t.Fatal(err)
	}
	rt := reflect.TypeFor[testHealth]()
	want := []struct {
		name, typ, field string
		def              any
	}{
		{"hp", "int", "HP", 100},
		{"maxHp", "int", "MaxHP", 100},
		{"regen", "number", "Regen", 0.0},
		{"mode", "string", "Mode", "walk"},
		{"alive", "boolean", "Alive", true},
		{"pos", "vec3", "Pos", Vec3{0, 1, 0}},
		{"tint", "color", "Tint", Color{0x4c, 0xc3, 0xd9, 255}},
		{"tags", "array", "Tags", []string{}},
		{"wait", "duration", "Wait", 1500 * time.Millisecond},
		{"target", "selector", "Target", SelectorText("")},
		{"delay", "time", "Delay", 250.0},
	}
	if len(s.Props) != len(want) {
		t.Fatalf("got %d properties %v, want %d", len(s.Props), s.Names(), len(want))
	}
	if s.Single() || s.IsTag() || s.StructType() != rt {
		t.Errorf("Single %v IsTag %v StructType %v", s.Single(), s.IsTag(), s.StructType())
	}
	for i, w := range want {
		p := s.Props[i]
		f, _ := rt.FieldByName(w.field)
		if p.Name != w.name || p.Type.Name != w.typ || p.Index != i || p.Offset != f.Offset ||
			!slices.Equal(p.FieldIndex, f.Index) || p.FieldType != f.Type || !p.Type.Equal(p.Default, w.def) {
			t.Errorf("Props[%d] = %+v (type %s), want name %q type %q field %s default %#v", i, p, p.Type.Name, w.name, w.typ, w.field, w.def)
		}
	}
	if p := s.Props[0]; p.Min == nil || *p.Min != 0 || p.Max != nil {
		t.Errorf("hp min/max = %v/%v", p.Min, p.Max)
	}
	if p := s.Props[3]; !slices.Equal(p.OneOf, []string{"walk", "run"}) {
		t.Errorf("mode oneOf = %v", p.OneOf)
	}
	// Offsets let code write fields through unsafe pointers.
	var h testHealth
	base := unsafe.Pointer(&h)
	*(*int)(unsafe.Add(base, s.Props[1].Offset)) = 42
	*(*Vec3)(unsafe.Add(base, s.Props[5].Offset)) = Vec3{1, 2, 3}
	if h.MaxHP != 42 || h.Pos != (Vec3{1, 2, 3}) {
		t.Errorf("unsafe writes gave %+v", h)
	}
	// Defaults returns fresh slices.
	d := s.Defaults()
	if len(d) != len(want) || d[0] != 100 {
		t.Errorf("Defaults() = %v", d)
	}
	d[7] = append(d[7].([]string), "x")
	if len(s.Props[7].Default.([]string)) != 0 {
		t.Error("Defaults shares the array default")
	}
}

type testEmbedBase struct {
	Speed float64 `scene:"speed,default=2"`
}

type testEmbedded struct {
	testEmbedBase
	Name string
	Vec2 `scene:"offset"`
}

func TestSchemaOfEmbedded(t *testing.T) {
	s, err := SchemaOf(reflect.TypeFor[testEmbedded](), NewTypes())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !slices.Equal(got, []string{"speed", "name", "offset"}) {
		t.Fatalf("names = %v", got)
	}
	var v testEmbedded
	rv := reflect.ValueOf(&v).Elem()
	rv.FieldByIndex(s.Props[0].FieldIndex).SetFloat(5)
	*(*string)(unsafe.Add(unsafe.Pointer(&v), s.Props[1].Offset)) = "n"
	*(*Vec2)(unsafe.Add(unsafe.Pointer(&v), s.Props[2].Offset)) = Vec2{1, 2}
	if v.Speed != 5 || v.Name != "n" || v.Vec2 != (Vec2{1, 2}) || s.Props[0].Default != 2.0 {
		t.Errorf("embedded writes gave %+v, speed default %v", v, s.Props[0].Default)
	}
}

func TestSchemaOfSingleAndTag(t *testing.T) {
	type Position Vec3
	type Speed float64
	type Mode string
	type Enemy struct{}
	type Tagged struct {
		X    float64 `scene:"x"`
		Y, Z float64
	}
	ts := NewTypes()
	for _, c := range []struct {
		rt     reflect.Type
		single bool
		tag    bool
		typ    string
		def    any
	}{
		{reflect.TypeFor[Position](), true, false, "vec3", Vec3{}},
		{reflect.TypeFor[Vec4](), true, false, "vec4", Vec4{W: 1}},
		{reflect.TypeFor[Speed](), true, false, "number", 0.0},
		{reflect.TypeFor[Mode](), true, false, "string", ""},
		{reflect.TypeFor[Color](), true, false, "color", Color{255, 255, 255, 255}},
		{reflect.TypeFor[bool](), true, false, "boolean", false},
		{reflect.TypeFor[Enemy](), false, true, "", nil},
		{reflect.TypeFor[struct{ x int }](), false, true, "", nil},
	} {
		s, err := SchemaOf(c.rt, ts)
		if err != nil {
			t.Errorf("SchemaOf(%v): %v", c.rt, err)
			continue
		}
		if s.Single() != c.single || s.IsTag() != c.tag || s.StructType() != c.rt {
			t.Errorf("SchemaOf(%v): Single %v IsTag %v", c.rt, s.Single(), s.IsTag())
			continue
		}
		if c.single {
			p := s.Props[0]
			if p.Name != "" || p.Type.Name != c.typ || !p.Type.Equal(p.Default, c.def) || p.Offset != 0 || p.FieldType != c.rt {
				t.Errorf("SchemaOf(%v).Props[0] = %+v", c.rt, p)
			}
			if i, ok := s.Lookup(""); !ok || i != 0 {
				t.Errorf("single Lookup(\"\") = %d, %v", i, ok)
			}
		}
	}
	// A struct shaped like Vec3 but with scene tags is read field by field.
	s, err := SchemaOf(reflect.TypeFor[Tagged](), ts)
	if err != nil || s.Single() || len(s.Props) != 3 {
		t.Errorf("SchemaOf(Tagged) = %v, %v", s, err)
	}
}

func TestSchemaOfErrors(t *testing.T) {
	ts := NewTypes()
	type unexportedTagged struct {
		//lint:ignore U1000 the field is the case under test: unexported yet tagged
		hp int `scene:"hp"`
	}
	type badType struct{ M map[string]int }
	type badTypeName struct {
		X float64 `scene:"x,type=nubmer"`
	}
	type typeMismatch struct {
		X int `scene:"x,type=vec3"`
	}
	type dup struct {
		A int `scene:"maxHp"`
		B int `scene:"max-hp"`
	}
	type badDefault struct {
		A int `scene:"a,default=abc"`
	}
	type defaultOutOfRange struct {
		A int `scene:"a,default=5,max=3"`
	}
	type minAboveMax struct {
		A int `scene:"a,min=3,max=1"`
	}
	type minOnString struct {
		A string `scene:"a,min=3"`
	}
	type oneOfOnInt struct {
		A int `scene:"a,oneOf=1|2"`
	}
	type badDefaultOneOf struct {
		A string `scene:"a,oneOf=x|y,default=z"`
	}
	type badName struct {
		A int `scene:"a b"`
	}
	type badOption struct {
		A int `scene:"a,deflt=1"`
	}
	type noEquals struct {
		A int `scene:"a,min"`
	}
	type badMin struct {
		A int `scene:"a,min=x"`
	}
	type twice struct {
		A int `scene:"a,min=1,min=2"`
	}
	for _, c := range []struct {
		rt     reflect.Type
		errSub string
	}{
		{nil, "nil type"},
		{reflect.TypeFor[int64](), "expected a struct or a Go type of a property type"},
		{reflect.TypeFor[*testHealth](), "expected a struct"},
		{reflect.TypeFor[unexportedTagged](), "field hp: has a scene tag but is not exported"},
		{reflect.TypeFor[badType](), "field M: no property type for Go type map[string]int"},
		{reflect.TypeFor[badTypeName](), `field X: unknown property type "nubmer" (did you mean "number"?)`},
		{reflect.TypeFor[typeMismatch](), "a int field cannot hold a vec3 property"},
		{reflect.TypeFor[dup](), `duplicate property name "maxHp"`},
		{reflect.TypeFor[badDefault](), `field A: default: invalid value "abc": expected an integer`},
		{reflect.TypeFor[defaultOutOfRange](), `default: invalid value "5": expected an integer <= 3`},
		{reflect.TypeFor[minAboveMax](), "min 3 is above max 1"},
		{reflect.TypeFor[minOnString](), "min and max need a numeric property type, not string"},
		{reflect.TypeFor[oneOfOnInt](), "oneOf needs a string or array property type, not int"},
		{reflect.TypeFor[badDefaultOneOf](), `invalid value "z": expected one of x, y`},
		{reflect.TypeFor[badName](), `invalid property name "a b"`},
		{reflect.TypeFor[badOption](), `unknown option "deflt"`},
		{reflect.TypeFor[noEquals](), `option "min": expected key=value`},
		{reflect.TypeFor[badMin](), `option min="x": expected a number`},
		{reflect.TypeFor[twice](), `option "min" given twice`},
	} {
		_, err := SchemaOf(c.rt, ts)
		if err == nil || !strings.Contains(err.Error(), c.errSub) {
			t.Errorf("SchemaOf(%v) error = %v, want it to contain %q", c.rt, err, c.errSub)
		}
	}
	if _, err := SchemaOf(reflect.TypeFor[testHealth](), nil); err == nil {
		t.Error("SchemaOf with nil Types succeeded")
	}
}

func TestParseTag(t *testing.T) {
	one, three := 1.0, 3.0
	for _, c := range []struct {
		tag  string
		want tagSpec
	}{
		{"", tagSpec{}},
		{"hp", tagSpec{name: "hp"}},
		{",default=5", tagSpec{def: "5", hasDef: true}},
		{"tags,default='a, b',oneOf=a|b|c", tagSpec{name: "tags", def: "a, b", hasDef: true, oneOf: []string{"a", "b", "c"}}},
		{"x, min=1 , max=3,type=time", tagSpec{name: "x", min: &one, max: &three, typ: "time"}},
		{"x,default=", tagSpec{name: "x", def: "", hasDef: true}},
		{"x,,", tagSpec{name: "x"}},
	} {
		got, err := parseTag(c.tag)
		if err != nil {
			t.Errorf("parseTag(%q): %v", c.tag, err)
			continue
		}
		if got.name != c.want.name || got.def != c.want.def || got.hasDef != c.want.hasDef || got.typ != c.want.typ ||
			!slices.Equal(got.oneOf, c.want.oneOf) || !eqFloatPtr(got.min, c.want.min) || !eqFloatPtr(got.max, c.want.max) {
			t.Errorf("parseTag(%q) = %+v, want %+v", c.tag, got, c.want)
		}
	}
}

func eqFloatPtr(a, b *float64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

func TestLowerCamelAndHyphen(t *testing.T) {
	for in, want := range map[string]string{
		"HP": "hp", "MaxHP": "maxHP", "URLPath": "urlPath", "X": "x", "Speed": "speed", "ID": "id", "already": "already", "A1": "a1",
	} {
		if got := lowerCamel(in); got != want {
			t.Errorf("lowerCamel(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"max-width": "maxWidth", "A-B-c": "A-BC", "plain": "plain", "a--b": "a-B", "trailing-": "trailing-", "x-1": "x-1",
	} {
		if got := hyphenToCamel(in); got != want {
			t.Errorf("hyphenToCamel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLookup(t *testing.T) {
	ts := NewTypes()
	small, err := NewSchema([]PropSpec{{Name: "maxHp", Type: "int"}, {Name: "hp", Type: "int"}, {Name: "maxHP", Type: "int"}}, ts)
	if err != nil {
		t.Fatal(err)
	}
	var specs []PropSpec
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "maxHp", "hp", "maxHP"} {
		specs = append(specs, PropSpec{Name: n, Type: "int"})
	}
	large, err := NewSchema(specs, ts)
	if err != nil {
		t.Fatal(err)
	}
	if large.index == nil || small.index != nil {
		t.Fatal("index threshold not applied as expected")
	}
	for _, s := range []*Schema{small, large} {
		for _, c := range []struct {
			key  string
			want string // "" = not found
		}{
			{"maxHp", "maxHp"}, {"max-hp", "maxHp"}, {"hp", "hp"}, {"maxHP", "maxHP"}, {"max-h-p", "maxHP"},
			{"max-HP", ""}, {"MaxHp", ""}, {"maxhp", ""}, {"max-", ""}, {"", ""}, {"-hp", ""}, {"hp-", ""},
		} {
			i, ok := s.Lookup(c.key)
			got := ""
			if ok {
				got = s.Props[i].Name
			}
			if got != c.want {
				t.Errorf("Lookup(%q) in %d props = %q, want %q", c.key, len(s.Props), got, c.want)
			}
		}
	}
}

func TestNewSchema(t *testing.T) {
	ts := NewTypes()
	zero, ten := 0.0, 10.0
	s, err := NewSchema([]PropSpec{
		{Name: "max-hp", Type: "int", Default: "5", Min: &zero, Max: &ten},
		{Name: "color", Type: "color", Default: "red"},
		{Name: "mode", OneOf: []string{"a", "b"}},
		{Name: "pos", Type: "vec3", Default: "1 2 3"},
		{Name: "Mode"}, // field name collides with "mode" once exported
		{Name: "on", Type: "bool"},
	}, ts)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Names(); !slices.Equal(got, []string{"maxHp", "color", "mode", "pos", "Mode", "on"}) {
		t.Errorf("names = %v", got)
	}
	wantDefaults := []any{5, Color{255, 0, 0, 255}, "a", Vec3{1, 2, 3}, "", false}
	for i, d := range s.Defaults() {
		if !s.Props[i].Type.Equal(d, wantDefaults[i]) {
			t.Errorf("default %d = %#v, want %#v", i, d, wantDefaults[i])
		}
	}
	st := s.StructType()
	if st.Kind() != reflect.Struct || st.NumField() != 6 {
		t.Fatalf("StructType = %v", st)
	}
	// Writing each default through its offset, then reading back by field.
	v := reflect.New(st)
	base := v.UnsafePointer()
	*(*int)(unsafe.Add(base, s.Props[0].Offset)) = 7
	*(*Vec3)(unsafe.Add(base, s.Props[3].Offset)) = Vec3{4, 5, 6}
	*(*bool)(unsafe.Add(base, s.Props[5].Offset)) = true
	e := v.Elem()
	if e.FieldByIndex(s.Props[0].FieldIndex).Int() != 7 || e.Field(3).Interface() != (Vec3{4, 5, 6}) || !e.Field(5).Bool() {
		t.Errorf("struct after writes: %+v", e.Interface())
	}
	// The generated struct type describes the same schema.
	again, err := SchemaOf(st, ts)
	if err != nil || !slices.Equal(again.Names(), s.Names()) {
		t.Errorf("SchemaOf(StructType) = %v, %v", again, err)
	}

	single, err := NewSchema([]PropSpec{{Type: "vec2", Default: "1 1"}}, ts)
	if err != nil || !single.Single() || single.Props[0].Default != (Vec2{1, 1}) || single.StructType().Field(0).Type != reflect.TypeFor[Vec2]() {
		t.Errorf("single NewSchema = %+v, %v", single, err)
	}
	tag, err := NewSchema(nil, ts)
	if err != nil || !tag.IsTag() || tag.StructType().Size() != 0 {
		t.Errorf("tag NewSchema = %+v, %v", tag, err)
	}

	for _, c := range []struct {
		specs  []PropSpec
		errSub string
	}{
		{[]PropSpec{{Name: "a"}, {Name: ""}}, "property 1 has no name"},
		{[]PropSpec{{Name: "a", Type: "vec5"}}, `property "a": unknown property type "vec5" (did you mean "vec2"?)`},
		{[]PropSpec{{Name: "a", Type: "int", Default: "x"}}, `property "a": default: invalid value "x": expected an integer`},
		{[]PropSpec{{Name: "a"}, {Name: "a"}}, `duplicate property name "a"`},
		{[]PropSpec{{Name: "max-hp"}, {Name: "maxHp"}}, `duplicate property name "maxHp"`},
		{[]PropSpec{{Name: "1a"}}, `invalid property name "1a"`},
		{[]PropSpec{{Name: "a", OneOf: []string{"x"}, Default: "y"}}, `expected one of x`},
		{[]PropSpec{{Name: "a", Type: "number", Min: &ten, Max: &zero}}, "min 10 is above max 0"},
		{[]PropSpec{{Name: "a", Type: "number", Min: &ten}}, "default (the number type's): invalid value \"0\": expected a number >= 10"},
	} {
		_, err := NewSchema(c.specs, ts)
		if err == nil || !strings.Contains(err.Error(), c.errSub) {
			t.Errorf("NewSchema(%+v) error = %v, want it to contain %q", c.specs, err, c.errSub)
		}
		checkSchemaError(t, err)
	}
	_, err = NewSchema(nil, nil)
	if err == nil {
		t.Error("NewSchema with nil Types succeeded")
	}
	checkSchemaError(t, err)
}

// checkSchemaError checks that err is a *SchemaError whose message is
// the registry's prefix and then its Err's: what callers that add their
// own context (file:line:col) report without cutting text.
func checkSchemaError(t *testing.T, err error) {
	t.Helper()
	var se *SchemaError
	if !errors.As(err, &se) {
		t.Errorf("%v (%T) is not a *SchemaError", err, err)
		return
	}
	if want := "registry: NewSchema: " + se.Err.Error(); err.Error() != want || strings.HasPrefix(se.Err.Error(), "registry:") {
		t.Errorf("message %q, Err %q", err, se.Err)
	}
}

func TestPropertyCheck(t *testing.T) {
	lo, hi := -1.0, 1.0
	ts := NewTypes()
	num, _ := ts.Lookup("number")
	arr, _ := ts.Lookup("array")
	p := Property{Name: "x", Type: num, Default: 0.0, Min: &lo, Max: &hi}
	for _, c := range []struct {
		text   string
		errSub string
		off    int
	}{
		{"0.5", "", 0}, {"-1", "", 0}, {"1", "", 0}, {"", "", 0},
		{" 1.5", `invalid value "1.5": expected a number between -1 and 1`, 1},
		{"1.50", `invalid value "1.50": expected a number between -1 and 1`, 0},
	} {
		_, err := p.Parse(c.text)
		switch {
		case c.errSub == "" && err != nil:
			t.Errorf("Parse(%q): %v", c.text, err)
		case c.errSub != "" && (err == nil || !strings.Contains(err.Error(), c.errSub)):
			t.Errorf("Parse(%q) error = %v, want %q", c.text, err, c.errSub)
		case c.errSub != "" && err.(*ValueError).Offset != c.off:
			t.Errorf("Parse(%q) offset = %d, want %d", c.text, err.(*ValueError).Offset, c.off)
		}
	}
	a := Property{Name: "tags", Type: arr, Default: []string{}, OneOf: []string{"x", "y"}}
	if _, err := a.Parse("x, y, x"); err != nil {
		t.Errorf("array oneOf: %v", err)
	}
	_, err := a.Parse("x, zz")
	if ve, ok := err.(*ValueError); !ok || ve.Text != "zz" || ve.Offset != 3 || ve.Expected != "one of x, y" {
		t.Errorf("array oneOf error = %#v", err)
	}
}

func ExampleNewSchema() {
	zero := 0.0
	s, err := NewSchema([]PropSpec{
		{Name: "speed", Type: "number", Default: "2", Min: &zero},
		{Name: "path", Type: "array"},
		{Name: "mode", OneOf: []string{"loop", "once"}},
	}, NewTypes())
	if err != nil {
		panic(err)
	}
	fmt.Println(s.StructType())
	p, err := s.ParseAttr("patrol", "path: a, b; speed: 3.5")
	fmt.Println(s.PrintPatch(p), err)
	_, err = s.ParseAttr("patrol", "speed: -1")
	fmt.Println(err)
	// Output:
	// struct { Speed float64 "scene:\"speed,type=number\""; Path []string "scene:\"path,type=array\""; Mode string "scene:\"mode,type=string\"" }
	// path: a, b; speed: 3.5 <nil>
	// patrol: property "speed": invalid value "-1": expected a number >= 0
}
