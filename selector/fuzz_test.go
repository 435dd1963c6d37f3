package selector

import (
	"errors"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"*", "#player", ".a.b", "[health]", "[health.hp<-5]", "[position.y>0]",
	`[a="x\"y" i]`, `[a='\41 b' s]`, "[a=1e3]", "[sound__1.volume>=.5]",
	".a > .b + .c ~ .d .e", ".a, .b", ":not(.a, [b])", ":is(.a) :where(.b)",
	":has(> .a, + .b, ~ .c, .d)", ":root", ":empty", ":first-child",
	":last-child", ":only-child", ":scope > [weapon]",
	":nth-child(2n + 1 of .a)", ":nth-last-child(-n+3)", ":nth-child(odd)",
	`.\31 a`, `#a\ b`, `[a="\a x"]`, "[a!=-x]", "enemy", ":hover", "::x",
	".a,", "[a", ":not(", ":nth-child(2n+", `[a="`, "[a=\"x\ny\"]",
	// Long combinator chains (issue 11), up to the 4 KB limit.
	strings.Repeat("* ~ ", 999) + "*", strings.Repeat("*+", 2047) + "*",
	strings.Repeat("#a > ", 799) + "#b", strings.Repeat(".a ", 1300) + ".b",
	":not(" + strings.Repeat(".a ~ .b + ", 300) + "*)", ":has(" + strings.Repeat("~ * ", 999) + ")",
	":is(" + strings.Repeat("* ~ ", 500) + "*), " + strings.Repeat("* + ", 400) + "*",
}

// FuzzParse checks that Parse never panics, that errors are *Error with a
// column inside the input (or just past it), and that every accepted
// selector prints to text that parses back to an equal tree and prints
// identically again.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, tt := range validTests {
		f.Add(tt.src)
	}
	for _, tt := range invalidTests {
		f.Add(tt.src)
	}
	for _, tt := range relValidTests {
		f.Add(tt.src)
	}
	for _, tt := range relInvalidTests {
		f.Add(tt.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		l, err := Parse(src)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("%q: error %T is not *Error", src, err)
			}
			if l != nil {
				t.Fatalf("%q: non-nil list with error", src)
			}
			if se.Col < 1 || se.Col > len(src)+1 {
				t.Fatalf("%q: column %d outside 1..%d", src, se.Col, len(src)+1)
			}
			return
		}
		checkPositions(t, src, l)
		checkRoundTrip(t, src, l)
	})
}

var benchSelectors = []string{
	".enemy",
	"#player > .weapon",
	"[health.hp<-5]",
	".enemy[health.hp<=0]:not([boss]), #level > .crate ~ [pickup.kind=ammo i]",
	":has(> [collider]) .a .b .c:nth-child(2n+1 of .d)",
}

func BenchmarkParse(b *testing.B) {
	n := 0
	for _, s := range benchSelectors {
		n += len(s)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range benchSelectors {
			if _, err := Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkString(b *testing.B) {
	ls := make([]*SelectorList, len(benchSelectors))
	for i, s := range benchSelectors {
		ls[i] = MustParse(s)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range ls {
			_ = l.String()
		}
	}
}
