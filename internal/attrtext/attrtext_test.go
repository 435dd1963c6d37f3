package attrtext

import (
	"strings"
	"testing"
)

// chunks returns the chunks of text as "key=value" (or "!text" for a
// chunk without ':', "url@N" for an open url), empty chunks left out.
func chunks(text string) []string {
	var out []string
	for at := 0; at <= len(text); {
		var c Chunk
		c, at = Cut(text, at)
		switch {
		case c.OpenURL >= 0:
			out = append(out, "url@"+text[c.OpenURL:c.End])
		case c.Empty():
		case c.Colon < 0:
			out = append(out, "!"+text[c.TrimStart:c.TrimEnd])
		default:
			out = append(out, text[c.KeyStart:c.KeyEnd]+"="+text[c.ValStart:c.ValEnd])
		}
	}
	return out
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string
	}{
		{"", ""},
		{"hp: 100; max: 200", "hp=100|max=200"},
		{"  hp :100 ;; ;max:  200 ; ", "hp=100|max=200"},
		{"src: url(a;b); w: 2", "src=url(a;b)|w=2"},
		{"src: url(a;b", "url@url(a;b"},
		{"a: url(x) ; b: (y;z)", "a=url(x)|b=(y|!z)"},
		{"fast; x: 1: 2", "!fast|x=1: 2"},
		{": 4", "=4"},
		{"k:\tv\n", "k=v"},
	} {
		if got := strings.Join(chunks(tc.text), "|"); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
}

// FuzzCut: the chunks tile the text, each ends at a ';' outside url(...)
// or at the end, and the key and value lie inside their chunk, trimmed.
func FuzzCut(f *testing.F) {
	for _, s := range []string{"hp: 100; max: 200", "src: url(a;b); w: 2", "a;;b:c", "url(", ":;:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for at := 0; at <= len(text); {
			var c Chunk
			c, at = Cut(text, at)
			if c.Start != prev || c.End < c.Start || c.End > len(text) || c.End < len(text) && text[c.End] != ';' {
				t.Fatalf("%q: chunk %+v after %d", text, c, prev)
			}
			prev = c.End + 1
			in := func(a, b int) bool {
				return c.Start <= a && a <= b && b <= c.End && (a == b || !IsSpace(text[a]) && !IsSpace(text[b-1]))
			}
			if !in(c.TrimStart, c.TrimEnd) || !in(c.KeyStart, c.KeyEnd) || !in(c.ValStart, c.ValEnd) {
				t.Fatalf("%q: bounds outside the chunk or untrimmed: %+v", text, c)
			}
			if c.Colon >= 0 && (text[c.Colon] != ':' || strings.Contains(text[c.Start:c.Colon], ":")) {
				t.Fatalf("%q: colon %d is not the chunk's first ':'", text, c.Colon)
			}
			if c.OpenURL >= 0 && (c.End != len(text) || !strings.HasPrefix(text[c.OpenURL:], "url(")) {
				t.Fatalf("%q: open url %d", text, c.OpenURL)
			}
		}
		if prev != len(text)+1 {
			t.Fatalf("%q: chunks end at %d", text, prev)
		}
	})
}
