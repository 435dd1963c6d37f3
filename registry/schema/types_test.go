package schema

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

// typeCase is one parse test of a property type: text parsed with def
// gives want, or an error whose message contains errSub.
type typeCase struct {
	text   string
	def    any // nil: the type's default
	want   any
	errSub string
	errOff int // ValueError.Offset when errSub != ""
}

func runTypeCases(t *testing.T, typeName string, cases []typeCase) {
	t.Helper()
	ts := NewTypes()
	typ, ok := ts.Lookup(typeName)
	if !ok {
		t.Fatalf("type %q not registered", typeName)
	}
	for _, c := range cases {
		def := c.def
		if def == nil {
			def = typ.Default
		}
		got, err := typ.Parse(c.text, def)
		if c.errSub != "" {
			if err == nil {
				t.Errorf("%s.Parse(%q) = %#v, want error containing %q", typeName, c.text, got, c.errSub)
				continue
			}
			if !strings.Contains(err.Error(), c.errSub) {
				t.Errorf("%s.Parse(%q) error %q, want it to contain %q", typeName, c.text, err, c.errSub)
			}
			var ve *ValueError
			if !errors.As(err, &ve) {
				t.Errorf("%s.Parse(%q) error %T, want *ValueError", typeName, c.text, err)
			} else if ve.Offset != c.errOff {
				t.Errorf("%s.Parse(%q) error offset %d, want %d", typeName, c.text, ve.Offset, c.errOff)
			} else if ve.Offset+len(ve.Text) > len(c.text) || c.text[ve.Offset:ve.Offset+len(ve.Text)] != ve.Text {
				t.Errorf("%s.Parse(%q) error text %q not at offset %d", typeName, c.text, ve.Text, ve.Offset)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s.Parse(%q) error: %v", typeName, c.text, err)
			continue
		}
		if reflect.TypeOf(got) != typ.GoType {
			t.Errorf("%s.Parse(%q) = %T, want a %v", typeName, c.text, got, typ.GoType)
		}
		if !typ.Equal(got, c.want) {
			t.Errorf("%s.Parse(%q) = %#v, want %#v", typeName, c.text, got, c.want)
		}
		// Whatever parses prints back to text that parses to the same value.
		printed := typ.Print(got)
		again, err := typ.Parse(printed, def)
		if err != nil || !typ.Equal(got, again) {
			t.Errorf("%s: Parse(Print(%#v)) = Parse(%q) = %#v, %v", typeName, got, printed, again, err)
		}
	}
}

func TestNumber(t *testing.T) {
	runTypeCases(t, "number", []typeCase{
		{text: "0", want: 0.0},
		{text: "1.5", want: 1.5},
		{text: " -3 ", want: -3.0},
		{text: "+2", want: 2.0},
		{text: ".5", want: 0.5},
		{text: "5.", want: 5.0},
		{text: "1.5e3", want: 1500.0},
		{text: "1E-7", want: 1e-7},
		{text: "", def: 7.0, want: 7.0},
		{text: "  ", def: 7.0, want: 7.0},
		{text: "abc", errSub: `invalid value "abc": expected a number`},
		{text: " 12px", errSub: `"12px": expected a number`, errOff: 1},
		// The non-finite numbers, in the one spelling Print writes.
		{text: "NaN", want: math.NaN()},
		{text: "+Inf", want: math.Inf(1)},
		{text: " -Inf ", want: math.Inf(-1)},
		{text: "Inf", errSub: `expected a number (non-finite numbers are written "+Inf", "-Inf" and "NaN")`},
		{text: "inf", errSub: `non-finite numbers are written`},
		{text: "-infinity", errSub: `non-finite numbers are written`},
		{text: "nan", errSub: `non-finite numbers are written`},
		{text: "+NaN", errSub: `non-finite numbers are written`},
		{text: "-NaN", errSub: `non-finite numbers are written`},
		{text: "1e999", errSub: "expected a number"},
		{text: "0x10", errSub: "expected a number"},
		{text: "1_000", errSub: "expected a number"},
		{text: "1e", errSub: "expected a number"},
		{text: ".", errSub: "expected a number"},
		{text: "-", errSub: "expected a number"},
		{text: "1 2", errSub: "expected a number"},
	})
}

func TestFormatFloat(t *testing.T) {
	for _, c := range []struct {
		f    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1.5, "-1.5"}, {0.1, "0.1"},
		{1e20, "100000000000000000000"}, {1e21, "1e+21"}, {1e-6, "0.000001"}, {1e-7, "1e-07"},
		{123456.789, "123456.789"},
	} {
		if got := formatFloat(c.f); got != c.want {
			t.Errorf("formatFloat(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}

func TestInt(t *testing.T) {
	runTypeCases(t, "int", []typeCase{
		{text: "0", want: 0},
		{text: "42", want: 42},
		{text: " -7 ", want: -7},
		{text: "+3", want: 3},
		{text: "", def: 9, want: 9},
		{text: "9223372036854775807", want: math.MaxInt},
		{text: "4.9", errSub: `invalid value "4.9": expected an integer`},
		{text: "abc", errSub: "expected an integer"},
		{text: "0x10", errSub: "expected an integer"},
		{text: "1e3", errSub: "expected an integer"},
		{text: "9223372036854775808", errSub: "expected an integer between"},
	})
}

func TestTime(t *testing.T) {
	runTypeCases(t, "time", []typeCase{
		{text: "0", want: 0.0},
		{text: "250", want: 250.0},
		{text: "16.5", want: 16.5},
		{text: "", def: 100.0, want: 100.0},
		{text: "1s", errSub: "expected a time in milliseconds (a number)"},
	})
}

func TestDuration(t *testing.T) {
	runTypeCases(t, "duration", []typeCase{
		{text: "0", want: time.Duration(0)},
		{text: "1.5s", want: 1500 * time.Millisecond},
		{text: "300ms", want: 300 * time.Millisecond},
		{text: "1h2m3s", want: time.Hour + 2*time.Minute + 3*time.Second},
		{text: "-2s", want: -2 * time.Second},
		{text: "250", want: 250 * time.Millisecond},
		{text: "0.5", want: 500 * time.Microsecond},
		{text: "", def: time.Second, want: time.Second},
		{text: "1.5 s", errSub: `expected a duration such as "1.5s" or "300ms", or a number of milliseconds`},
		{text: "soon", errSub: "expected a duration"},
		{text: "1e300", errSub: "expected a duration"},
	})
}

func TestBoolean(t *testing.T) {
	runTypeCases(t, "boolean", []typeCase{
		{text: "true", want: true},
		{text: " false ", want: false},
		{text: "", def: true, want: true},
		{text: "TRUE", errSub: `invalid value "TRUE": expected true or false`},
		{text: "0", errSub: "expected true or false"},
		{text: "no", errSub: "expected true or false"},
	})
	// bool is an alias.
	ts := NewTypes()
	a, _ := ts.Lookup("bool")
	b, _ := ts.Lookup("boolean")
	if a == nil || a != b {
		t.Errorf("Lookup(bool) = %v, want the boolean type", a)
	}
	f, _ := ts.Lookup("float")
	if f == nil || f.Name != "number" {
		t.Errorf("Lookup(float) = %v, want the number type", f)
	}
}

func TestStringLike(t *testing.T) {
	runTypeCases(t, "string", []typeCase{
		{text: "hello", want: "hello"},
		{text: "  two words  ", want: "two words"},
		{text: "a: b; c", want: "a: b; c"},
		{text: "", def: "x", want: ""},
	})
	runTypeCases(t, "selector", []typeCase{
		{text: " #player ", want: SelectorText("#player")},
		{text: "[enemy]:not([alive])", want: SelectorText("[enemy]:not([alive])")},
		{text: "", want: SelectorText("")},
	})
	runTypeCases(t, "selectorAll", []typeCase{
		{text: ".a, .b", want: SelectorAllText(".a, .b")},
		{text: "  ", want: SelectorAllText("")},
	})
	// Invalid selector syntax is refused as the value is parsed, the
	// offset pointing at the offending character of the value (at its end
	// for a selector cut short).
	for _, typeName := range []string{"selector", "selectorAll"} {
		runTypeCases(t, typeName, []typeCase{
			{text: "[enemy]:not([alive]", errSub: `invalid value "": expected a selector: expected ')' to close ":not(", found end of input`, errOff: 19},
			{text: "  [enemy]:not([alive] ", errSub: `expected ')' to close ":not("`, errOff: 21},
			{text: "#", errSub: `expected a selector: expected id after '#'`, errOff: 1},
			{text: " .a..b", errSub: `invalid value ".b": expected a selector: expected class name after '.', found '.'`, errOff: 4},
			{text: "enemy", errSub: `invalid value "enemy": expected a selector: unexpected name "enemy"`},
			{text: "[hp>abc]", errSub: `expected number after '>'`, errOff: 4},
			{text: ":nope(.a)", errSub: `unknown pseudo-class ":nope"`},
			{text: "[a], [b], .c, :is(" + strings.Repeat("x", 40), errSub: `invalid value "xxxxxxxxxxxxxxxxxxxxxxxx": expected a selector`, errOff: 18},
		})
	}
}

func TestArray(t *testing.T) {
	runTypeCases(t, "array", []typeCase{
		{text: "a, b ,c", want: []string{"a", "b", "c"}},
		{text: "a,,b", want: []string{"a", "", "b"}},
		{text: "1 2 3", want: []string{"1 2 3"}},
		{text: "", def: []string{"x"}, want: []string{}},
		{text: " , ", want: []string{"", ""}},
		{text: "solo", want: []string{"solo"}},
	})
	if got := printArrayValue([]string{"a", "b"}); got != "a, b" {
		t.Errorf("print array = %q, want %q", got, "a, b")
	}
}

func TestVectors(t *testing.T) {
	runTypeCases(t, "vec2", []typeCase{
		{text: "1 2", want: Vec2{1, 2}},
		{text: "3", def: Vec2{0, 9}, want: Vec2{3, 9}},
		{text: "1 2 3", errSub: `invalid value "3": expected at most 2 numbers (a vec2 is written "x y")`, errOff: 4},
	})
	runTypeCases(t, "vec3", []typeCase{
		{text: "0 1 -5", want: Vec3{0, 1, -5}},
		{text: "  1\t2\n3  ", want: Vec3{1, 2, 3}},
		{text: "1 2", def: Vec3{7, 8, 9}, want: Vec3{1, 2, 9}},
		{text: "", def: Vec3{7, 8, 9}, want: Vec3{7, 8, 9}},
		{text: "1.5e2 -0.25 .5", want: Vec3{150, -0.25, 0.5}},
		{text: "1 2 3 4", errSub: `invalid value "4": expected at most 3 numbers (a vec3 is written "x y z")`, errOff: 6},
		{text: "1 x 3", errSub: `invalid value "x": expected a number for y of a vec3`, errOff: 2},
		{text: "1,2,3", errSub: `invalid value "1,2,3": expected a number for x of a vec3 (axes are separated by spaces)`},
		{text: "a b c", errSub: `"a": expected a number for x`},
		{text: "1 NaN 3", want: Vec3{1, math.NaN(), 3}},
		{text: "+Inf -Inf NaN", want: Vec3{math.Inf(1), math.Inf(-1), math.NaN()}},
		{text: "1 inf 3", errSub: `"inf": expected a number for y of a vec3 (axes are separated by spaces) (non-finite numbers are written`, errOff: 2},
	})
	runTypeCases(t, "vec4", []typeCase{
		{text: "1 2 3 4", want: Vec4{1, 2, 3, 4}},
		{text: "1 2 3", want: Vec4{1, 2, 3, 1}},
		{text: "1 2 3 4 5", errSub: "at most 4 numbers", errOff: 8},
	})
	for _, c := range []struct {
		v    interface{ String() string }
		want string
	}{
		{Vec2{1, -2}, "1 -2"}, {Vec3{0, 1.5, -5}, "0 1.5 -5"}, {Vec4{1, 2, 3, 1}, "1 2 3 1"},
		{Vec3{1e-9, 1e25, 0.1}, "1e-09 1e+25 0.1"},
	} {
		if got := c.v.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestColor(t *testing.T) {
	red := Color{255, 0, 0, 255}
	runTypeCases(t, "color", []typeCase{
		{text: "#f00", want: red},
		{text: "#F00", want: red},
		{text: "#ff0000", want: red},
		{text: "#FF0000ff", want: red},
		{text: "#f008", want: Color{255, 0, 0, 0x88}},
		{text: "#11223344", want: Color{0x11, 0x22, 0x33, 0x44}},
		{text: "red", want: red},
		{text: " Red ", want: red},
		{text: "REBECCAPURPLE", want: Color{0x66, 0x33, 0x99, 255}},
		{text: "transparent", want: Color{}},
		{text: "rgb(255, 0, 0)", want: red},
		{text: "RGB(255,0,0)", want: red},
		{text: "rgb(255 0 0)", want: red},
		{text: "rgba(255, 0, 0, 0.5)", want: Color{255, 0, 0, 128}},
		{text: "rgb(255 0 0 / 50%)", want: Color{255, 0, 0, 128}},
		{text: "rgb(100%, 50%, 0%)", want: Color{255, 128, 0, 255}},
		{text: "rgb(300, -5, 0)", want: Color{255, 0, 0, 255}},
		{text: "", def: Color{1, 2, 3, 4}, want: Color{1, 2, 3, 4}},
		{text: "#ff00", want: Color{255, 255, 0, 0}},
		{text: "#ff000", errSub: "expected a colour"},
		{text: "#gg0000", errSub: "expected a colour"},
		{text: "redd", errSub: `invalid value "redd": expected a colour: "#rgb", "#rrggbb", "#rrggbbaa", "rgb(r, g, b)", "rgba(r, g, b, a)" or a CSS colour name`},
		{text: "rgb(1, 2)", errSub: "expected a colour"},
		{text: "rgb(a, b, c)", errSub: "expected a colour"},
		{text: "rgb(1, 2, 3", errSub: "expected a colour"},
		{text: "hsl(0, 100%, 50%)", errSub: "expected a colour"},
	})
	for _, c := range []struct {
		c    Color
		want string
	}{
		{red, "#ff0000"}, {Color{0x4c, 0xc3, 0xd9, 255}, "#4cc3d9"}, {Color{1, 2, 3, 0}, "#01020300"},
	} {
		if got := c.c.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.c, got, c.want)
		}
	}
	for name, want := range map[string]Color{
		"white": {255, 255, 255, 255}, "black": {0, 0, 0, 255}, "cornflowerblue": {0x64, 0x95, 0xed, 255},
		"gray": {128, 128, 128, 255}, "grey": {128, 128, 128, 255}, "lightgoldenrodyellow": {0xfa, 0xfa, 0xd2, 255},
		"yellowgreen": {0x9a, 0xcd, 0x32, 255}, "aliceblue": {0xf0, 0xf8, 0xff, 255},
	} {
		if got, err := ParseColor(strings.ToUpper(name)); err != nil || got != want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", strings.ToUpper(name), got, err, want)
		}
	}
	if c, err := ParseColor(" teal "); err != nil || c != (Color{0, 128, 128, 255}) {
		t.Errorf("ParseColor(teal) = %v, %v", c, err)
	}
	if _, err := ParseColor("nope"); err == nil {
		t.Error("ParseColor(nope) succeeded")
	}
}

func TestBuiltinDefaults(t *testing.T) {
	ts := NewTypes()
	want := map[string]any{
		"number": 0.0, "int": 0, "boolean": false, "string": "", "vec2": Vec2{}, "vec3": Vec3{},
		"vec4": Vec4{W: 1}, "color": Color{255, 255, 255, 255}, "array": []string{},
		"selector": SelectorText(""), "selectorAll": SelectorAllText(""), "time": 0.0, "duration": time.Duration(0),
		"entity": Ref{}, "entities": Refs{},
	}
	names := ts.Names()
	if len(names) != len(want) {
		t.Errorf("Names() = %v, want %d types", names, len(want))
	}
	for _, name := range names {
		typ, _ := ts.Lookup(name)
		w, ok := want[name]
		if !ok {
			t.Errorf("unexpected built-in type %q", name)
			continue
		}
		if typ.Name != name || reflect.TypeOf(typ.Default) != typ.GoType || !typ.Equal(typ.Default, w) {
			t.Errorf("type %q: Name %q, Default %#v (GoType %v), want default %#v", name, typ.Name, typ.Default, typ.GoType, w)
		}
		if typ.Parse == nil || typ.Print == nil || typ.Equal == nil {
			t.Errorf("type %q lacks a function", name)
		}
	}
}

func TestTypesIndependent(t *testing.T) {
	a, b := NewTypes(), NewTypes()
	ta, _ := a.Lookup("array")
	tb, _ := b.Lookup("array")
	if ta == tb {
		t.Fatal("two Types share a *Type")
	}
	ta.Name = "changed"
	if tb.Name != "array" || arrayType.Name != "array" {
		t.Error("changing one Types' type changed another's")
	}
}

func TestRegister(t *testing.T) {
	type Celsius float64
	ts := NewTypes()
	custom := &Type{
		Name:    "celsius",
		Default: Celsius(20),
		Parse: func(text string, def any) (any, error) {
			s := strings.TrimSuffix(strings.TrimSpace(text), "C")
			if s == "" {
				return def, nil
			}
			f, ok := parseFloat(s)
			if !ok {
				return nil, &ValueError{Text: text, Expected: "a temperature such as 20C"}
			}
			return Celsius(f), nil
		},
		Print: func(v any) string { return formatFloat(float64(v.(Celsius))) + "C" },
	}
	if err := ts.Register(custom); err != nil {
		t.Fatal(err)
	}
	got, ok := ts.Lookup("celsius")
	if !ok || got.GoType != reflect.TypeFor[Celsius]() || got.Equal == nil {
		t.Fatalf("Lookup(celsius) = %+v, %v", got, ok)
	}
	if ft, ok := ts.ForGoType(reflect.TypeFor[Celsius]()); !ok || ft != got {
		t.Errorf("ForGoType(Celsius) = %v, %v", ft, ok)
	}
	v, err := got.Parse("36.6C", got.Default)
	if err != nil || v != Celsius(36.6) || got.Print(v) != "36.6C" || !got.Equal(v, Celsius(36.6)) {
		t.Errorf("celsius parse/print = %v, %v, %q", v, err, got.Print(v))
	}
	for _, c := range []struct {
		t      *Type
		errSub string
	}{
		{nil, "nil type"},
		{custom, `type "celsius" is already registered`},
		{&Type{Name: "number", Default: 1.0, Parse: parseNumberValue}, "already registered"},
		{&Type{Name: "bool", Default: true, Parse: parseBoolValue}, "already registered"},
		{&Type{Name: "", Default: 1, Parse: parseIntValue}, "invalid type name"},
		{&Type{Name: "a-b", Default: 1, Parse: parseIntValue}, "invalid type name"},
		{&Type{Name: "x", Default: 1}, "no Parse function"},
		{&Type{Name: "x", Parse: parseIntValue}, "neither GoType nor Default"},
		{&Type{Name: "x", GoType: reflect.TypeFor[int](), Default: "s", Parse: parseIntValue}, "Default is a string, not a int"},
	} {
		err := ts.Register(c.t)
		if err == nil || !strings.Contains(err.Error(), c.errSub) {
			t.Errorf("Register(%+v) = %v, want error containing %q", c.t, err, c.errSub)
		}
	}
	// Defaults filled in: zero default, fmt printing, DeepEqual for slices.
	if err := ts.Register(&Type{Name: "ints", GoType: reflect.TypeFor[[]int](), Parse: func(string, any) (any, error) { return []int{1}, nil }}); err != nil {
		t.Fatal(err)
	}
	ints, _ := ts.Lookup("ints")
	if ints.Default == nil || ints.Print([]int{1, 2}) != "[1 2]" || !ints.Equal([]int{1}, []int{1}) {
		t.Errorf("filled-in ints type: default %#v print %q", ints.Default, ints.Print([]int{1, 2}))
	}
}

func TestForGoType(t *testing.T) {
	type Speed float64
	type Mode string
	type Tags []string
	type Position Vec3
	type Millis int64
	type Names []Mode
	ts := NewTypes()
	for _, c := range []struct {
		rt   reflect.Type
		want string // "" = none
	}{
		{reflect.TypeFor[float64](), "number"},
		{reflect.TypeFor[int](), "int"},
		{reflect.TypeFor[bool](), "boolean"},
		{reflect.TypeFor[string](), "string"},
		{reflect.TypeFor[Vec2](), "vec2"},
		{reflect.TypeFor[Vec3](), "vec3"},
		{reflect.TypeFor[Vec4](), "vec4"},
		{reflect.TypeFor[Color](), "color"},
		{reflect.TypeFor[[]string](), "array"},
		{reflect.TypeFor[SelectorText](), "selector"},
		{reflect.TypeFor[SelectorAllText](), "selectorAll"},
		{reflect.TypeFor[time.Duration](), "duration"},
		{reflect.TypeFor[Speed](), "number"},
		{reflect.TypeFor[Mode](), "string"},
		{reflect.TypeFor[Tags](), "array"},
		{reflect.TypeFor[Position](), "vec3"},
		{reflect.TypeFor[Millis](), ""},
		{reflect.TypeFor[Names](), ""},
		{reflect.TypeFor[float32](), ""},
		{reflect.TypeFor[int64](), ""},
		{reflect.TypeFor[map[string]int](), ""},
		{reflect.TypeFor[*Vec3](), ""},
		{reflect.TypeFor[struct{ A, B int }](), ""},
	} {
		got, ok := ts.ForGoType(c.rt)
		name := ""
		if ok {
			name = got.Name
		}
		if name != c.want {
			t.Errorf("ForGoType(%v) = %q, want %q", c.rt, name, c.want)
		}
	}
}
