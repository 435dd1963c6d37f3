package schema

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestParsePairs: A-Frame's style-parser rules (cut at ';' outside
// url(...), each chunk at its first ':'), keys as written, the last
// value of a repeated key at its first place, positions of keys and
// values; and the errors.
func TestParsePairs(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", ""},
		{" ; ;", ""},
		{"_event: click; material.color: red", "_event=click@0,8 material.color=red@15,31"},
		{"src: url(a;b:c); x: 1:2", "src=url(a;b:c)@0,5 x=1:2@17,20"},
		{"  k :  v  ;", "k=v@2,7"},
		{"a: 1; b: 2; a: 3", "a=3@0,15 b=2@6,9"},
		{"scale: ", "scale=@0,7"},
		{"max-hp: 2", "max-hp=2@0,8"},
	} {
		ps, err := ParsePairs(tc.text)
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.Key+"="+p.Value+"@"+itoa(p.KeyAt)+","+itoa(p.ValueAt))
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%q: %s, want %s", tc.text, s, tc.want)
		}
	}
	for _, tc := range []struct {
		text, bad string
		at        int
	}{
		{"a: 1; oops", "oops", 6},
		{"a: 1;  : 2", ": 2", 7},
		{"a: url(x", "url(x", 3},
	} {
		_, err := ParsePairs(tc.text)
		var ve *ValueError
		if !errors.As(err, &ve) || ve.Text != tc.bad || ve.Offset != tc.at {
			t.Errorf("%q: %v (%+v), want %q at %d", tc.text, err, ve, tc.bad, tc.at)
		}
	}
	ps, _ := ParsePairs("a: 1; b: x y")
	if v, ok := ps.Get("b"); !ok || v != "x y" {
		t.Errorf("Get(b) = %q, %v", v, ok)
	}
	if _, ok := ps.Get("c"); ok {
		t.Error("Get(c) found")
	}
	if ps.String() != "a: 1; b: x y" {
		t.Errorf("String: %q", ps.String())
	}
}

// TestPairsType: the pairs type registered in a set of types: a
// component whose Go type is Pairs takes them as its attribute string;
// equality ignores where pairs were written.
func TestPairsType(t *testing.T) {
	ts := NewTypes()
	if err := ts.Register(PairsType()); err != nil {
		t.Fatal(err)
	}
	s, err := SchemaOf(reflect.TypeFor[Pairs](), ts)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Single() || s.Props[0].Type.Name != "pairs" {
		t.Fatalf("schema: %+v", s.Props)
	}
	typ := s.Props[0].Type
	a, _ := typ.Parse("x: 1;y: 2", nil)
	b, _ := typ.Parse("  x:1 ; y :2", nil)
	if !typ.Equal(a, b) || typ.Equal(a, Pairs{{Key: "x", Value: "1"}}) || typ.Equal(a, 3) {
		t.Error("Equal")
	}
	if typ.Print(a) != "x: 1; y: 2" {
		t.Errorf("Print: %q", typ.Print(a))
	}
	_, err = s.ParseAttr("sets", "x: 1; nope")
	var ae *AttrError
	if !errors.As(err, &ae) || ae.Offset != 6 || ae.Text != "nope" {
		t.Errorf("ParseAttr: %v", err)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// FuzzParsePairs checks, for any text: no panic; on success every key
// and value is the trimmed text at its recorded offset, keys are not
// empty, and printing then parsing gives the same pairs; on error the
// offset points at the offending text.
func FuzzParsePairs(f *testing.F) {
	for _, s := range []string{
		"", ";", "a: b", "_event: click; material.color: red; _delay: 50",
		"src: url(a;b); x: y", "a: url(", "a", " : b", "a: 1; a: 2", "a:b:c;d: ;",
		"k: \t v \n ; q: ü", "x: url(a) url(b;c)", "a; b: c", "::",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParsePairs(text)
		if err != nil {
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Offset < 0 || ve.Offset+len(ve.Text) > len(text) || text[ve.Offset:ve.Offset+len(ve.Text)] != ve.Text {
				t.Fatalf("%q: error %v does not point at its text", text, err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if p.Key == "" || seen[p.Key] {
				t.Fatalf("%q: empty or repeated key %q", text, p.Key)
			}
			seen[p.Key] = true
			if text[p.KeyAt:p.KeyAt+len(p.Key)] != p.Key || text[p.ValueAt:p.ValueAt+len(p.Value)] != p.Value {
				t.Fatalf("%q: pair %+v is not at its offsets", text, p)
			}
			if s, e := trimBounds(p.Key); s != 0 || e != len(p.Key) {
				t.Fatalf("%q: key %q not trimmed of ASCII white space", text, p.Key)
			}
		}
		back, err := ParsePairs(ps.String())
		if err != nil || !equalPairs(back, ps) {
			t.Fatalf("%q: printed %q reads back as %v, %v", text, ps.String(), back, err)
		}
	})
}
