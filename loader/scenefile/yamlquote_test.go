package scenefile

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestYAMLDumpKeepsOperators: a YAML dump writes a value as typed, not
// with the JSON escapes of HTML characters (`presses \u003e= 2`).
func TestYAMLDumpKeepsOperators(t *testing.T) {
	text := "if: counter.n >= 2 && counter.n < 5; emit: done"
	out := writeOneValue(t, text)
	if !strings.Contains(out, `"`+text+`"`) {
		t.Fatalf("the dump does not write %q as typed:\n%s", text, out)
	}
	if got := readOneValue(t, out); got != text {
		t.Fatalf("read back %q, want %q", got, text)
	}
}

// FuzzYAMLString: whatever a string value holds, the YAML writer writes
// a scalar that the reader reads back as the same string (invalid UTF-8
// as encoding/json writes it, U+FFFD), and never a JSON escape for a
// printable character.
func FuzzYAMLString(f *testing.F) {
	for _, s := range []string{"a >= 2 && b < 3", `say "hi" \ bye`, "tab\there\nline", "\x7f\u0085\u2028\u2029\ufeff\u009f",
		"é ü 漢字 🎲", " lead", "trail ", "#c0ffee", "- dash", "x: y", "\xff\xfe bad", "null", "~", "'single'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) || len(s) > 1000 {
			return
		}
		out := writeOneValue(t, s)
		var want strings.Builder
		for _, r := range s { // one U+FFFD per invalid byte
			want.WriteRune(r)
		}
		if got := readOneValue(t, out); got != want.String() {
			t.Fatalf("%q: wrote\n%s\nread back %q", s, out, got)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`, `\u0027`} {
			if strings.Contains(out, esc) {
				t.Fatalf("%q: a printable character written as %s:\n%s", s, esc, out)
			}
		}
		if !utf8.ValidString(out) {
			t.Fatalf("%q: the dump is not UTF-8:\n%q", s, out)
		}
	})
}

// writeOneValue dumps a scene of one entity whose component note has the
// value text (exact, as a file gives it).
func writeOneValue(t *testing.T, text string) string {
	t.Helper()
	doc := &Document{Entities: []*EntitySpec{{ID: "a", Components: []*ComponentSpec{{Name: "note", Kind: ValueText, Text: text, Exact: true}}}}}
	var b bytes.Buffer
	if err := WriteYAML(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// readOneValue reads what writeOneValue wrote and returns the value.
func readOneValue(t *testing.T, src string) string {
	t.Helper()
	doc, err := ReadYAML("dump.yaml", []byte(src), Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if len(doc.Entities) != 1 || len(doc.Entities[0].Components) != 1 {
		t.Fatalf("read back %d entities:\n%s", len(doc.Entities), src)
	}
	return doc.Entities[0].Components[0].Text
}
