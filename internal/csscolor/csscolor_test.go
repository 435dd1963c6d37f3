package csscolor

import (
	"strconv"
	"testing"
)

func parseFloat(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

func TestNamedColors(t *testing.T) {
	if n := len(namedColors); n != 149 { // 148 CSS names + transparent
		t.Errorf("len(namedColors) = %d, want 149", n)
	}
	for name, want := range map[string][4]uint8{
		"white": {255, 255, 255, 255}, "Black": {0, 0, 0, 255}, "cornflowerblue": {0x64, 0x95, 0xed, 255},
		"GRAY": {128, 128, 128, 255}, "grey": {128, 128, 128, 255}, "transparent": {},
	} {
		if got, ok := Parse(name, parseFloat); !ok || got != want {
			t.Errorf("Parse(%q) = %v %v, want %v", name, got, ok, want)
		}
	}
}

func TestParseForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [4]uint8
		ok   bool
	}{
		{"#f00", [4]uint8{255, 0, 0, 255}, true},
		{"#f008", [4]uint8{255, 0, 0, 0x88}, true},
		{"#4cc3d9", [4]uint8{0x4c, 0xc3, 0xd9, 255}, true},
		{"#01020300", [4]uint8{1, 2, 3, 0}, true},
		{"rgb(255, 0, 10)", [4]uint8{255, 0, 10, 255}, true},
		{"RGBA(100% 0% 0% / 50%)", [4]uint8{255, 0, 0, 128}, true},
		{"rgba(0,0,0,0.5)", [4]uint8{0, 0, 0, 128}, true},
		{"rgb(300, -5, 0)", [4]uint8{255, 0, 0, 255}, true},
		{"#12345", [4]uint8{}, false},
		{"#ggg", [4]uint8{}, false},
		{"rgb(1, 2)", [4]uint8{}, false},
		{"rgb(a, b, c)", [4]uint8{}, false},
		{"nocolour", [4]uint8{}, false},
		{"", [4]uint8{}, false},
	} {
		got, ok := Parse(c.in, parseFloat)
		if ok != c.ok || got != c.want {
			t.Errorf("Parse(%q) = %v %v, want %v %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
