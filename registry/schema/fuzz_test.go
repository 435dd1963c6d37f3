package schema

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// fuzzType checks a property type's parser on arbitrary text: it never
// panics; an error is a *ValueError pointing into the text; a value has
// the type's Go type, and printing it gives text that parses to an equal
// value.
func fuzzType(f *testing.F, typeName string, def any, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
	typ, ok := NewTypes().Lookup(typeName)
	if !ok {
		f.Fatalf("no type %q", typeName)
	}
	if def == nil {
		def = typ.Default
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := typ.Parse(text, def)
		if err != nil {
			var ve *ValueError
			if !errors.As(err, &ve) {
				t.Fatalf("Parse(%q) error %T %v, want *ValueError", text, err, err)
			}
			if ve.Offset < 0 || ve.Offset+len(ve.Text) > len(text) || text[ve.Offset:ve.Offset+len(ve.Text)] != ve.Text {
				t.Fatalf("Parse(%q): error text %q not at offset %d", text, ve.Text, ve.Offset)
			}
			if ve.Expected == "" {
				t.Fatalf("Parse(%q): error without Expected", text)
			}
			return
		}
		if reflect.TypeOf(v) != typ.GoType {
			t.Fatalf("Parse(%q) = %T, want %v", text, v, typ.GoType)
		}
		printed := typ.Print(v)
		again, err := typ.Parse(printed, def)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v printed as %q, which does not parse: %v", text, v, printed, err)
		}
		if !typ.Equal(v, again) {
			t.Fatalf("Parse(%q) = %#v printed as %q parses to %#v", text, v, printed, again)
		}
	})
}

func FuzzParseNumber(f *testing.F) {
	fuzzType(f, "number", 7.0, "0", "-1.5e3", " .5 ", "1e309", "NaN", "+Inf", " -Inf", "inf", "-NaN", "0x1p3", "1_0", "")
}

func FuzzParseInt(f *testing.F) {
	fuzzType(f, "int", 3, "0", "-42", "+7", "4.9", "9223372036854775808", "")
}

func FuzzParseBoolean(f *testing.F) {
	fuzzType(f, "boolean", true, "true", "false", " false ", "TRUE", "")
}

func FuzzParseString(f *testing.F) {
	fuzzType(f, "string", "d", "hello", "  a: b; c  ", "\u00a0x\u00a0", "")
}

func FuzzParseVec2(f *testing.F) {
	fuzzType(f, "vec2", Vec2{1, 2}, "1 2", "3", "1 2 3", "a b", "")
}

func FuzzParseVec3(f *testing.F) {
	fuzzType(f, "vec3", Vec3{1, 2, 3}, "0 1 -5", " 1\t2\n3 ", "1 2", "1 2 3 4", "1,2,3", "1e400 0 0", "+Inf -Inf NaN", "NaN", "1 Infinity", "")
}

func FuzzParseVec4(f *testing.F) {
	fuzzType(f, "vec4", Vec4{1, 2, 3, 4}, "1 2 3 4", "1 2 3", "1 2 3 4 5", "")
}

func FuzzParseColor(f *testing.F) {
	fuzzType(f, "color", Color{1, 2, 3, 4}, "#f00", "#FF000080", "#abcd", "red", "RebeccaPurple", "transparent",
		"rgb(255, 0, 0)", "rgba(1,2,3,0.5)", "rgb(10% 20% 30% / 40%)", "rgb(1e3, -1, 0)", "")
}

func FuzzParseArray(f *testing.F) {
	fuzzType(f, "array", []string{"d"}, "a, b ,c", "a,,b", " , ", "solo", "")
}

func FuzzParseSelector(f *testing.F) {
	fuzzType(f, "selector", nil, "#player", "[enemy]:not([alive])", "[enemy]:not([alive]", " #", ".a..b", "[hp>abc]", "a ~ ~ b", "")
}

func FuzzParseSelectorAll(f *testing.F) {
	fuzzType(f, "selectorAll", nil, ".a, .b", ".a, ", ":is(.a", "")
}

func FuzzParseTime(f *testing.F) {
	fuzzType(f, "time", 5.0, "0", "16.5", "1s", "NaN", "-Inf", "")
}

func FuzzParseDuration(f *testing.F) {
	fuzzType(f, "duration", time.Second, "1.5s", "300ms", "250", "0.5", "-2h", "1e300", "9223372036854ms", "")
}

// checkAttrError checks that err is an *AttrError, or an AttrErrors of
// two to MaxAttrErrors of them in text order, each with its Text found at
// its Offset in text; errors.As finds the first.
func checkAttrError(t *testing.T, text string, err error) {
	t.Helper()
	list := AttrErrorList(err)
	var many AttrErrors
	if len(list) == 0 || len(list) > MaxAttrErrors || errors.As(err, &many) != (len(list) > 1) {
		t.Fatalf("error %T %v, want *AttrError or AttrErrors", err, err)
	}
	var first *AttrError
	if !errors.As(err, &first) || first != list[0] {
		t.Fatalf("%q: errors.As does not find the first problem", text)
	}
	for i, ae := range list {
		if ae.Offset < 0 || ae.Offset+len(ae.Text) > len(text) || text[ae.Offset:ae.Offset+len(ae.Text)] != ae.Text {
			t.Fatalf("%q: error text %q not at offset %d (%v)", text, ae.Text, ae.Offset, ae)
		}
		if i > 0 && ae.Offset <= list[i-1].Offset {
			t.Fatalf("%q: problems out of text order: %v", text, err)
		}
		if ae.Error() == "" {
			t.Fatal("empty error message")
		}
	}
}

// checkEachChunk checks, for a multi-property schema and a text without
// url( (where ';' always separates chunks), that the problems of the
// whole text are those of its chunks parsed one by one, at their offsets
// in the text: no problem is lost or made up by parsing on after one.
func checkEachChunk(t *testing.T, s *Schema, text string, err error) {
	t.Helper()
	if s.IsTag() || s.Single() || strings.Contains(text, "url(") {
		return
	}
	var want []string
	off := 0
	for _, chunk := range strings.Split(text, ";") {
		_, cerr := s.ParseAttr("c", chunk)
		for _, ae := range AttrErrorList(cerr) {
			want = append(want, fmt.Sprintf("%d %d %q %q", off+ae.Offset, ae.Kind, ae.Text, ae.Expected))
		}
		off += len(chunk) + 1
	}
	var got []string
	for _, ae := range AttrErrorList(err) {
		got = append(got, fmt.Sprintf("%d %d %q %q", ae.Offset, ae.Kind, ae.Text, ae.Expected))
	}
	if len(want) > MaxAttrErrors {
		want = want[:MaxAttrErrors]
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%q: problems\n %q\nchunk by chunk\n %q", text, got, want)
	}
}

// checkPatchRoundTrip checks that the full data made of the defaults plus
// p prints to an attribute string that parses back to equal values, and
// that PrintPatch(p) parses back to p.
func checkPatchRoundTrip(t *testing.T, s *Schema, text string, p Patch) {
	t.Helper()
	seen := map[int]bool{}
	for _, pv := range p {
		if seen[pv.Index] {
			t.Fatalf("%q: property %d twice in the patch", text, pv.Index)
		}
		seen[pv.Index] = true
		if reflect.TypeOf(pv.Value) != s.Props[pv.Index].Type.GoType {
			t.Fatalf("%q: value %#v of %s is not a %v", text, pv.Value, s.Props[pv.Index].Name, s.Props[pv.Index].Type.GoType)
		}
	}
	vals := s.Defaults()
	for _, pv := range p {
		vals[pv.Index] = pv.Value
	}
	printed := s.PrintAttr(vals)
	p2, err := s.ParseAttr("c", printed)
	if err != nil {
		t.Fatalf("%q: PrintAttr gave %q, which does not parse: %v", text, printed, err)
	}
	if len(p2) != len(s.Props) && !s.IsTag() {
		t.Fatalf("%q: PrintAttr gave %q, which parses to %d of %d properties", text, printed, len(p2), len(s.Props))
	}
	for _, pv := range p2 {
		prop := s.Props[pv.Index]
		if !prop.Type.Equal(pv.Value, vals[pv.Index]) {
			t.Fatalf("%q: printed %q: %s = %#v, want %#v", text, printed, prop.Name, pv.Value, vals[pv.Index])
		}
	}
	if s.IsTag() || len(p) == 0 {
		return
	}
	pp := s.PrintPatch(p)
	p3, err := s.ParseAttr("c", pp)
	if err != nil || len(p3) != len(p) {
		t.Fatalf("%q: PrintPatch gave %q, which parses to %v, %v", text, pp, p3, err)
	}
	for i := range p3 {
		if p3[i].Index != p[i].Index || !s.Props[p[i].Index].Type.Equal(p3[i].Value, p[i].Value) {
			t.Fatalf("%q: PrintPatch gave %q, which parses to %v, want %v", text, pp, p3, p)
		}
	}
}

var fuzzAttrSeeds = []string{
	"", ";;", "color: red; opacity: 0.5", "src: url(data:a;b); side: back", "max-hp: 3; maxHp: 4",
	"repeat: 1", "layers: a,,b", "opacity:", "red", ": 5", "src: url(a;b", "colour: red", "src: a:b:c",
	"target: #p > .q; threshold: 1e-7", "visible: true;;visible: false",
	// Several problems in one text: each is reported.
	"opacity: 2; max-hp: 1.5", "colour: red; opacity: 0.5; blue; : 3; repeat: 1 x", "side: up; src: url(a;b); side: down",
	"opacity: 0.5; src: url(a; side: back", "x;x;x;x;x;x;x;x;x;x;x;x", "opacity: -1;;; opacity: 2",
}

func FuzzParseAttr(f *testing.F) {
	for _, s := range fuzzAttrSeeds {
		f.Add(s)
	}
	type Position Vec3
	type Label string
	schemas := []*Schema{testSchema(f, testMaterial{}), testSchema(f, Position{}), testSchema(f, Label("")), testSchema(f, struct{}{})}
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range schemas {
			p, err := s.ParseAttr("c", text)
			checkEachChunk(t, s, text, err)
			if err != nil {
				checkAttrError(t, text, err)
				continue
			}
			checkPatchRoundTrip(t, s, text, p)
		}
	})
}

func FuzzParseMap(f *testing.F) {
	f.Add("opacity", "0.5", "max-hp", "3")
	f.Add("src", "a;b", "src", "")
	f.Add("colour", "red", "", "")
	f.Add("opacity", "2", "max-hp", "1.5")
	s := testSchema(f, testMaterial{})
	f.Fuzz(func(t *testing.T, k1, v1, k2, v2 string) {
		kv := [][2]string{{k1, v1}, {k2, v2}}
		p, err := s.ParseMap("c", kv)
		if err != nil {
			// One problem per bad pair, in pair order.
			for i, ae := range AttrErrorList(err) {
				if ae.Pair < i || ae.Pair > 1 {
					t.Fatalf("ParseMap(%q) error %v", kv, err)
				}
			}
			for pair := range kv {
				_, perr := s.ParseMap("c", kv[pair:pair+1])
				bad := slices.ContainsFunc(AttrErrorList(err), func(ae *AttrError) bool { return ae.Pair == pair })
				if (perr != nil) != bad {
					t.Fatalf("ParseMap(%q): pair %d alone gives %v, together %v", kv, pair, perr, err)
				}
			}
			return
		}
		// A value with ';' cannot be printed in an attribute string, so
		// only check that each value re-parses through its property.
		for _, pv := range p {
			prop := &s.Props[pv.Index]
			again, err := prop.Parse(prop.Print(pv.Value))
			if err != nil || !prop.Type.Equal(again, pv.Value) {
				t.Fatalf("ParseMap(%q): %s = %#v does not round-trip: %#v, %v", kv, prop.Name, pv.Value, again, err)
			}
		}
	})
}

func FuzzParseTag(f *testing.F) {
	for _, s := range []string{"", "hp,default=100,min=0", "tags,default='a, b',oneOf=a|b", "x,type=time", "-", ",,", "a,min", "a,'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		spec, err := parseTag(tag)
		if err != nil {
			return
		}
		if !spec.hasDef && spec.def != "" {
			t.Fatalf("parseTag(%q) = %+v: default text without a default", tag, spec)
		}
		for _, b := range []*float64{spec.min, spec.max} {
			if b != nil && *b != *b {
				t.Fatalf("parseTag(%q) = %+v: NaN bound", tag, spec)
			}
		}
	})
}

func FuzzNewSchema(f *testing.F) {
	f.Add("hp", "int", "5", "mode", "walk|run")
	f.Add("max-hp", "number", "", "", "")
	f.Add("", "vec3", "1 2", "x", "")
	ts := NewTypes()
	f.Fuzz(func(t *testing.T, name, typ, def, name2, oneOf string) {
		specs := []PropSpec{{Name: name, Type: typ, Default: def}}
		if name2 != "" {
			spec := PropSpec{Name: name2}
			if oneOf != "" {
				spec.OneOf = []string{oneOf, "z"}
			}
			specs = append(specs, spec)
		}
		s, err := NewSchema(specs, ts)
		if err != nil {
			return
		}
		if s.StructType().NumField() != len(s.Props) {
			t.Fatalf("%+v: StructType has %d fields for %d props", specs, s.StructType().NumField(), len(s.Props))
		}
		for i, p := range s.Props {
			if s.StructType().Field(i).Offset != p.Offset || reflect.TypeOf(p.Default) != p.Type.GoType {
				t.Fatalf("%+v: bad property %d: %+v", specs, i, p)
			}
		}
		// Each default prints to text its property parses back to it.
		for _, p := range s.Props {
			again, err := p.Parse(p.Print(p.Default))
			if err != nil || !p.Type.Equal(again, p.Default) {
				t.Fatalf("%+v: default of %q %#v does not round-trip: %#v, %v", specs, p.Name, p.Default, again, err)
			}
		}
	})
}
