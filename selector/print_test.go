package selector

import (
	"reflect"
	"strings"
	"testing"
)

// handBuilt builds `.name#name[name.name=value]` without going through
// the parser, so that names and values the parser would never produce
// verbatim (control characters, leading digits, quotes...) reach the
// printer.
func handBuilt(name, value string, numeric bool) *SelectorList {
	return &SelectorList{Selectors: []*Complex{{Compounds: []*Compound{{Simples: []Simple{
		&Class{Name: name},
		&ID{Name: name},
		&Attr{Comp: name, Prop: name, Op: OpEq, Value: value, Numeric: numeric},
	}}}}}}
}

// printable reports whether the printer can represent s: NUL has no
// spelling (CSS maps it to U+FFFD) and names must not be empty.
func printable(name string) bool {
	return name != "" && !strings.ContainsRune(name, 0)
}

func checkHandBuilt(t *testing.T, name, value string) {
	t.Helper()
	want := handBuilt(name, value, false)
	src := want.String()
	got, err := ParseWithOptions(src, Options{MaxLength: 1 << 30})
	if err != nil {
		t.Fatalf("name %q value %q printed as %q: %v", name, value, src, err)
	}
	if !reflect.DeepEqual(stripPos(got), want) {
		t.Fatalf("name %q value %q printed as %q, parsed back as %s", name, value, src, dump(got))
	}
}

func TestPrintEscapes(t *testing.T) {
	tests := []struct{ name, value, want string }{
		{"a", "b", `.a#a[a.a=b]`},
		{"1", "1", `.\31 #1[\31 .\31 ="1"]`},
		{"-1", "-1", `.-\31 #-1[-\31 .-\31 ="-1"]`},
		{"-", "-", `.\-#-[\-.\-="-"]`},
		{"--", "--", `.--#--[--.--=--]`},
		{"a b", "a b", `.a\ b#a\ b[a\ b.a\ b="a b"]`},
		// A property "a.b" is prop.axis, written with its dot.
		{"a.b", `x"y\z`, `.a\.b#a\.b[a\.b.a.b="x\"y\\z"]`},
		{"a.b.c", "", `.a\.b\.c#a\.b\.c[a\.b\.c.a\.b\.c=""]`},
		{"\n", "\t\x7f", `.\a #\a [\a .\a ="\9 \7f "]`},
		{"a\x01b", "", `.a\1 b#a\1 b[a\1 b.a\1 b=""]`},
		{"é", "é", `.é#é[é.é=é]`},
		{"\\", "'", `.\\#\\[\\.\\="'"]`},
		{"a:b()", "[x]", `.a\:b\(\)#a\:b\(\)[a\:b\(\).a\:b\(\)="[x]"]`},
	}
	for _, tt := range tests {
		if got := handBuilt(tt.name, tt.value, false).String(); got != tt.want {
			t.Errorf("name %q value %q: got %s want %s", tt.name, tt.value, got, tt.want)
		}
		checkHandBuilt(t, tt.name, tt.value)
	}
}

// FuzzPrintNames checks that every printable name and value survives a
// print/parse round trip.
func FuzzPrintNames(f *testing.F) {
	for _, s := range []string{"a", "1", "-1", "-", "--", "a b", "\n", "é", "\\", "\xff", "\"'", "0x"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, name, value string) {
		if !printable(name) || strings.ContainsRune(value, 0) {
			return
		}
		checkHandBuilt(t, name, value)
	})
}
