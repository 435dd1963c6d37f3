package selector

import "testing"

func TestLexNumber(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1", "1"}, {"-1", "-1"}, {"+1", "+1"}, {"1.5", "1.5"}, {".5", ".5"},
		{"-.5", "-.5"}, {"1e3", "1e3"}, {"1E+3", "1E+3"}, {"1e-3x", "1e-3"},
		{"1.", "1"}, {"1e", "1"}, {"1e+", "1"}, {"1.5.5", "1.5"}, {"12ab", "12"},
	}
	for _, tt := range tests {
		s := scanner{src: tt.src}
		if !s.startsNumber() {
			t.Errorf("%q: startsNumber false", tt.src)
			continue
		}
		if got := s.lexNumber(); got != tt.want {
			t.Errorf("%q: lexNumber = %q, want %q", tt.src, got, tt.want)
		}
	}
	for _, src := range []string{"", "+", "-", ".", "+.", "-a", "e1", ".e1"} {
		s := scanner{src: src}
		if s.startsNumber() {
			t.Errorf("%q: startsNumber true", src)
		}
	}
}

func TestLexIdent(t *testing.T) {
	tests := []struct {
		src, want string
		ok        bool
		end       int // offset after the identifier
	}{
		{"abc", "abc", true, 3},
		{"a-b_c9 x", "a-b_c9", true, 6},
		{"-a", "-a", true, 2},
		{"--", "--", true, 2},
		{"-", "", false, 0},
		{"-1", "", false, 0},
		{"1a", "", false, 0},
		{`\31 a`, "1a", true, 5},
		{"\\31\r\na", "1a", true, 6},
		{`\31  a`, "1", true, 4},
		{`\0000410`, "A0", true, 8},
		{`a\`, "a", true, 1},
		{"a\\\n", "a", true, 1},
		{`\`, "", false, 0},
		{"é.", "é", true, 2},
	}
	for _, tt := range tests {
		s := scanner{src: tt.src}
		got, ok := s.lexIdent()
		if got != tt.want || ok != tt.ok || s.off != tt.end {
			t.Errorf("%q: lexIdent = %q, %v, off %d; want %q, %v, off %d", tt.src, got, ok, s.off, tt.want, tt.ok, tt.end)
		}
	}
}

func TestLexString(t *testing.T) {
	tests := []struct {
		src, want string
		end       int
	}{
		{`"abc"x`, "abc", 5},
		{`'a"b'`, `a"b`, 5},
		{`"a\"b"`, `a"b`, 6},
		{"\"a\\\r\nb\"", "ab", 7},
		{"\"a\x00b\"", "a\uFFFDb", 5},
		{`"\"`, "", -1},
		{"\"a\rb\"", "", -1},
	}
	for _, tt := range tests {
		s := scanner{src: tt.src}
		got, err := s.lexString()
		if tt.end < 0 {
			if err == nil {
				t.Errorf("%q: no error", tt.src)
			}
			continue
		}
		if err != nil || got != tt.want || s.off != tt.end {
			t.Errorf("%q: lexString = %q, %v, off %d; want %q, off %d", tt.src, got, err, s.off, tt.want, tt.end)
		}
	}
}
