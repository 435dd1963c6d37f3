package schema

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

type testMaterial struct {
	Color     Color   `scene:"color,default=#fff"`
	Opacity   float64 `scene:"opacity,default=1,min=0,max=1"`
	Src       string
	Side      string `scene:"side,oneOf=front|back|double"`
	Repeat    Vec2   `scene:"repeat,default=1 1"`
	MaxHP     int    `scene:"max-hp,default=10"`
	Visible   bool   `scene:"visible,default=true"`
	Layers    []string
	Target    SelectorText
	Threshold float64 `scene:"threshold,type=time"`
}

func testSchema(t testing.TB, v any) *Schema {
	t.Helper()
	s, err := SchemaOf(reflect.TypeOf(v), NewTypes())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// patchMap renders a patch as "name=printed" strings for comparison.
func patchString(s *Schema, p Patch) string {
	var parts []string
	for _, pv := range p {
		parts = append(parts, s.Props[pv.Index].Name+"="+s.Props[pv.Index].Print(pv.Value))
	}
	return strings.Join(parts, " | ")
}

func TestParseAttrMulti(t *testing.T) {
	s := testSchema(t, testMaterial{})
	for _, c := range []struct {
		in, want string
	}{
		{"", ""},
		{"   ", ""},
		{"opacity: 0.5", "opacity=0.5"},
		{"opacity:0.5;src:a.png", "opacity=0.5 | src=a.png"},
		{"  opacity :  0.5  ;  src : a.png  ", "opacity=0.5 | src=a.png"},
		{"opacity: 0.5;", "opacity=0.5"},
		{"opacity: 0.5;;; ;src: x;;", "opacity=0.5 | src=x"},
		{";;", ""},
		{"opacity: 0.2; src: x; opacity: 0.7", "opacity=0.7 | src=x"},
		{"max-hp: 3", "maxHp=3"},
		{"maxHp: 4", "maxHp=4"},
		{"src: http://h:8080/p", "src=http://h:8080/p"},
		{"src: url(data:image/png;base64,AAA;BBB)", "src=url(data:image/png;base64,AAA;BBB)"},
		{"src: url(a;b) ; side: back", "src=url(a;b) | side=back"},
		{"src: url(a) url(b;c)", "src=url(a) url(b;c)"},
		{"src:", "src="},
		{"src: ; opacity: 1", "src= | opacity=1"},
		{"opacity:", "opacity=1"},   // empty: the default
		{"repeat: 2", "repeat=2 1"}, // missing axes from the default
		{"color: RED", "color=#ff0000"},
		{"color: rgba(0, 0, 255, 0.5)", "color=#0000ff80"},
		{"layers: a, b ,c", "layers=a, b, c"},
		{"target: #player > .gun", "target=#player > .gun"},
		{"threshold: 16.7", "threshold=16.7"},
		{"visible: false", "visible=false"},
		{"side: double", "side=double"},
	} {
		p, err := s.ParseAttr("material", c.in)
		if err != nil {
			t.Errorf("ParseAttr(%q): %v", c.in, err)
			continue
		}
		if got := patchString(s, p); got != c.want {
			t.Errorf("ParseAttr(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseAttrErrors(t *testing.T) {
	s := testSchema(t, testMaterial{})
	for _, c := range []struct {
		in   string
		kind AttrErrorKind
		msg  string
		prop string
		text string
		off  int
	}{
		{"opacity: abc", InvalidValue, `material: property "opacity": invalid value "abc": expected a number`, "opacity", "abc", 9},
		{"src: x; opacity:  2", InvalidValue, `material: property "opacity": invalid value "2": expected a number between 0 and 1`, "opacity", "2", 18},
		{"opacity: NaN", InvalidValue, `material: property "opacity": invalid value "NaN": expected a number`, "opacity", "NaN", 9},
		{"max-hp: 1.5", InvalidValue, `material: property "maxHp": invalid value "1.5": expected an integer`, "maxHp", "1.5", 8},
		{"repeat: 1 2 3", InvalidValue, `material: property "repeat": invalid value "3": expected at most 2 numbers (a vec2 is written "x y")`, "repeat", "3", 12},
		{"repeat: 1 b", InvalidValue, `material: property "repeat": invalid value "b": expected a number for y of a vec2 (axes are separated by spaces)`, "repeat", "b", 10},
		{"side: sideways", InvalidValue, `material: property "side": invalid value "sideways": expected one of front, back, double`, "side", "sideways", 6},
		{"side:", InvalidValue, `material: property "side": invalid value "": expected one of front, back, double`, "side", "", 5},
		{"visible: yes", InvalidValue, `material: property "visible": invalid value "yes": expected true or false`, "visible", "yes", 9},
		{"color: bleu", InvalidValue, `material: property "color": invalid value "bleu": expected a colour`, "color", "bleu", 7},
		{"opacity: 1; colour: red", UnknownProperty, `material: unknown property "colour" (did you mean "color"?)`, "colour", "colour", 12},
		{"max-HP: 1", UnknownProperty, `material: unknown property "max-HP" (did you mean "maxHp"?)`, "max-HP", "max-HP", 0},
		{"zzzzzz: 1", UnknownProperty, `material: unknown property "zzzzzz": expected one of color, opacity, src, side, repeat, maxHp, visible, layers, target, threshold`, "zzzzzz", "zzzzzz", 0},
		{"red", InvalidSyntax, `material: invalid text "red": expected "property: value" pairs separated by ";"`, "", "red", 0},
		{"opacity: 1;  blue ", InvalidSyntax, `material: invalid text "blue": expected "property: value" pairs separated by ";"`, "", "blue", 13},
		{": 5", InvalidSyntax, `material: invalid text ": 5": expected a property name before ":"`, "", ": 5", 0},
		{"a; :", InvalidSyntax, `material: invalid text "a": expected "property: value" pairs`, "", "a", 0},
		{"opacity: 1; :", InvalidSyntax, `material: invalid text ":": expected a property name before ":"`, "", ":", 12},
		{"src: url(a;b", InvalidSyntax, `material: invalid text "url(a;b": expected ")" to close "url("`, "", "url(a;b", 5},
		{"src: (a;b)", InvalidSyntax, `material: invalid text "b)": expected "property: value" pairs`, "", "b)", 8},
	} {
		_, err := s.ParseAttr("material", c.in)
		var ae *AttrError
		if !errors.As(err, &ae) {
			t.Errorf("ParseAttr(%q) error = %v, want an *AttrError", c.in, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.msg) || ae.Kind != c.kind || ae.Property != c.prop || ae.Text != c.text || ae.Offset != c.off || ae.Pair != -1 || ae.Component != "material" {
			t.Errorf("ParseAttr(%q) error\n got  %q kind %d prop %q text %q off %d pair %d\n want %q kind %d prop %q text %q off %d",
				c.in, err, ae.Kind, ae.Property, ae.Text, ae.Offset, ae.Pair, c.msg, c.kind, c.prop, c.text, c.off)
		}
		if c.in[ae.Offset:ae.Offset+len(ae.Text)] != ae.Text {
			t.Errorf("ParseAttr(%q): error text %q is not at offset %d", c.in, ae.Text, ae.Offset)
		}
	}
}

func TestParseAttrSingleAndTag(t *testing.T) {
	type Position Vec3
	type Label string
	type Enemy struct{}
	pos := testSchema(t, Position{})
	label := testSchema(t, Label(""))
	enemy := testSchema(t, Enemy{})
	for _, c := range []struct {
		s          *Schema
		comp, in   string
		want       any // nil: no value in the patch
		msg        string
		off        int
		wantSingle bool
	}{
		{s: pos, comp: "position", in: "0 1 -5", want: Vec3{0, 1, -5}},
		{s: pos, comp: "position", in: "  1 2 ", want: Vec3{1, 2, 0}},
		{s: pos, comp: "position", in: "", want: Vec3{}},
		{s: pos, comp: "position", in: "x: 1", msg: `position: invalid value "x:": expected a number for x of a vec3 (axes are separated by spaces)`, off: 0},
		{s: pos, comp: "position", in: " 1 2 3 4", msg: `position: invalid value "4": expected at most 3 numbers (a vec3 is written "x y z")`, off: 7},
		{s: label, comp: "label", in: " a: b; c ", want: "a: b; c"},
		{s: label, comp: "label", in: "url(x", want: "url(x"},
		{s: enemy, comp: "enemy", in: ""},
		{s: enemy, comp: "enemy", in: "  \t"},
		{s: enemy, comp: "enemy", in: " yes", msg: `enemy: invalid text "yes": expected no value (enemy has no properties)`, off: 1},
	} {
		p, err := c.s.ParseAttr(c.comp, c.in)
		if c.msg != "" {
			var ae *AttrError
			if !errors.As(err, &ae) || err.Error() != c.msg || ae.Offset != c.off {
				t.Errorf("%s ParseAttr(%q) error = %v (%+v), want %q at %d", c.comp, c.in, err, ae, c.msg, c.off)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s ParseAttr(%q): %v", c.comp, c.in, err)
			continue
		}
		if c.want == nil {
			if len(p) != 0 {
				t.Errorf("%s ParseAttr(%q) = %v, want empty", c.comp, c.in, p)
			}
			continue
		}
		if len(p) != 1 || p[0].Index != 0 || !reflect.DeepEqual(p[0].Value, c.want) {
			t.Errorf("%s ParseAttr(%q) = %v, want %v", c.comp, c.in, p, c.want)
		}
	}
}

func TestAppendAttrReuse(t *testing.T) {
	s := testSchema(t, testMaterial{})
	buf := make(Patch, 0, 16)
	p, err := s.AppendAttr(buf, "m", "opacity: 0.5; src: a")
	if err != nil || len(p) != 2 {
		t.Fatal(p, err)
	}
	// Duplicates are only merged within one call's part of the patch.
	p, err = s.AppendAttr(p, "m", "opacity: 0.25; opacity: 0.75")
	if err != nil || patchString(s, p) != "opacity=0.5 | src=a | opacity=0.75" {
		t.Errorf("AppendAttr = %s, %v", patchString(s, p), err)
	}
	if &p[0] != &buf[:1][0] {
		t.Error("AppendAttr did not reuse dst's storage")
	}
}

func TestParseMap(t *testing.T) {
	s := testSchema(t, testMaterial{})
	p, err := s.ParseMap("material", [][2]string{{"opacity", "0.5"}, {" max-hp ", " 3 "}, {"src", ""}, {"opacity", "0.25"}})
	if err != nil || patchString(s, p) != "opacity=0.25 | maxHp=3 | src=" {
		t.Errorf("ParseMap = %s, %v", patchString(s, p), err)
	}
	if p, err := s.ParseMap("material", nil); err != nil || len(p) != 0 {
		t.Errorf("ParseMap(nil) = %v, %v", p, err)
	}
	for _, c := range []struct {
		s    *Schema
		kv   [][2]string
		msg  string
		pair int
		off  int
	}{
		{s, [][2]string{{"src", "x"}, {"opacity", " 7"}}, `material: property "opacity": invalid value "7": expected a number between 0 and 1`, 1, 1},
		{s, [][2]string{{" opacty", "1"}}, `material: unknown property "opacty" (did you mean "opacity"?)`, 0, 1},
		{s, [][2]string{{"", "1"}}, `material: invalid text "": expected a property name`, 0, 0},
		{s, [][2]string{{"repeat", "1 2 x"}}, `material: property "repeat": invalid value "x": expected at most 2 numbers`, 0, 4},
		{testSchema(t, Vec3{}), [][2]string{{"x", "1"}}, `material: invalid text "x": expected a bare value (material has a single property), not a mapping`, 0, 0},
		{testSchema(t, struct{}{}), [][2]string{{"x", "1"}}, `material: invalid text "x": expected no value (material has no properties)`, 0, 0},
	} {
		_, err := c.s.ParseMap("material", c.kv)
		var ae *AttrError
		if !errors.As(err, &ae) || !strings.HasPrefix(err.Error(), c.msg) || ae.Pair != c.pair || ae.Offset != c.off {
			t.Errorf("ParseMap(%q) error = %v (%+v), want %q pair %d offset %d", c.kv, err, ae, c.msg, c.pair, c.off)
		}
	}
}

func TestPrintAttr(t *testing.T) {
	s := testSchema(t, testMaterial{})
	def := s.PrintAttr(s.Defaults())
	const want = "color: #ffffff; opacity: 1; src: ; side: front; repeat: 1 1; maxHp: 10; visible: true; layers: ; target: ; threshold: 0"
	if def != want {
		t.Errorf("PrintAttr(defaults) =\n %q, want\n %q", def, want)
	}
	vals := s.Defaults()
	vals[1] = nil
	vals = vals[:4]
	if got := s.PrintAttr(vals); got != "color: #ffffff; src: ; side: front" {
		t.Errorf("PrintAttr(partial) = %q", got)
	}
	// Round trip: the printed defaults parse back to the defaults.
	p, err := s.ParseAttr("material", def)
	if err != nil || len(p) != len(s.Props) {
		t.Fatalf("ParseAttr(PrintAttr(defaults)) = %v, %v", p, err)
	}
	for _, pv := range p {
		prop := s.Props[pv.Index]
		if !prop.Type.Equal(pv.Value, prop.Default) {
			t.Errorf("round trip of %s: %#v, want %#v", prop.Name, pv.Value, prop.Default)
		}
	}
	type Position Vec3
	pos := testSchema(t, Position{})
	if got := pos.PrintAttr([]any{Vec3{1, 2.5, -3}}); got != "1 2.5 -3" {
		t.Errorf("single PrintAttr = %q", got)
	}
	if got := pos.PrintAttr(nil); got != "" {
		t.Errorf("single PrintAttr(nil) = %q", got)
	}
	if got := testSchema(t, struct{}{}).PrintAttr(nil); got != "" {
		t.Errorf("tag PrintAttr = %q", got)
	}
	pp, _ := s.ParseAttr("m", "src: a; opacity: 0.5")
	if got := s.PrintPatch(pp); got != "src: a; opacity: 0.5" {
		t.Errorf("PrintPatch = %q", got)
	}
	if got := pos.PrintPatch(Patch{{0, Vec3{1, 1, 1}}}); got != "1 1 1" {
		t.Errorf("single PrintPatch = %q", got)
	}
}

func TestRoundTripFromText(t *testing.T) {
	s := testSchema(t, testMaterial{})
	for _, in := range []string{
		"color: #abc; opacity: 0.125; src: url(a;b); side: back; repeat: 1e-9 1e30; max-hp: -7; visible: false; layers: a,,b; target: #x; threshold: 0.5",
		"layers: ,; src: a:b:c",
		"color: transparent",
	} {
		p, err := s.ParseAttr("m", in)
		if err != nil {
			t.Fatalf("ParseAttr(%q): %v", in, err)
		}
		vals := s.Defaults()
		for _, pv := range p {
			vals[pv.Index] = pv.Value
		}
		printed := s.PrintAttr(vals)
		p2, err := s.ParseAttr("m", printed)
		if err != nil {
			t.Fatalf("ParseAttr(PrintAttr) of %q: %v", printed, err)
		}
		for _, pv := range p2 {
			if prop := s.Props[pv.Index]; !prop.Type.Equal(pv.Value, vals[pv.Index]) {
				t.Errorf("%q: %s = %#v after round trip, want %#v", printed, prop.Name, pv.Value, vals[pv.Index])
			}
		}
	}
}

func ExampleSchema_ParseAttr() {
	type Health struct {
		HP    int    `scene:"hp,default=100,min=0"`
		MaxHP int    `scene:"max-hp,default=100"`
		Mode  string `scene:"mode,oneOf=walk|run"`
	}
	s, err := SchemaOf(reflect.TypeFor[Health](), NewTypes())
	if err != nil {
		panic(err)
	}
	p, err := s.ParseAttr("health", "hp: 50; max-hp: 120;")
	fmt.Println(s.PrintPatch(p), err)
	_, err = s.ParseAttr("health", "hp: abc")
	fmt.Println(err)
	_, err = s.ParseAttr("health", "mod: run")
	fmt.Println(err)
	fmt.Println(s.PrintAttr(s.Defaults()))
	// Output:
	// hp: 50; maxHp: 120 <nil>
	// health: property "hp": invalid value "abc": expected an integer
	// health: unknown property "mod" (did you mean "mode"?)
	// hp: 100; maxHp: 100; mode: walk
}

func ExampleSchemaOf_single() {
	type Position Vec3
	s, _ := SchemaOf(reflect.TypeFor[Position](), NewTypes())
	p, err := s.ParseAttr("position", "0 1.6")
	fmt.Println(s.Single(), p[0].Value, err)
	// Output: true 0 1.6 0 <nil>
}
