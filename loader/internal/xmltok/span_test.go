package xmltok

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// valueSeeds are start tags whose values are written every way XML
// writes one: each predefined entity, decimal and hexadecimal character
// references, CR LF and lone CR, in both quote styles.
var valueSeeds = []string{
	`<scene a="x &amp; y; s: 1" b='&#38;&#x26; s: 2' c="&lt;&gt;&quot;&apos; s: 3" d='&quot;&apos; s: 4'/>`,
	"<scene a=\"one\r\ntwo\rthree s: 1\" b='&#10;&#13;&#9; s: 2'/>",
	`<e h="hp: &#49;&#x30;; size: 2" l='text: a&amp;b; font: c'/>`,
	"<e\n  a = 'x'\n  b=\"\"\n/>",
}

// TestValueSpans checks the values' spans and DecodeValue on the seeds,
// the scanner's seeds and corpus and the repository's scenes.
func TestValueSpans(t *testing.T) {
	inputs := append([]string{}, valueSeeds...)
	inputs = append(inputs, scannerSeeds...)
	for _, data := range sceneInputs(t) {
		inputs = append(inputs, string(data))
	}
	inputs = append(inputs, fuzzCorpus(t, "FuzzScanner")...)
	for _, s := range inputs {
		if msg := checkValueSpans([]byte(s)); msg != "" {
			t.Errorf("%.300q: %s", s, msg)
		}
	}
}

// FuzzValueSpans checks, for every attribute the scanner reads, that its
// span holds its value as written (DecodeValue reads it back), and that
// replacing the bytes DecodeValue gives for a word of the value replaces
// exactly that word.
func FuzzValueSpans(f *testing.F) {
	for _, s := range valueSeeds {
		f.Add([]byte(s))
	}
	for _, s := range scannerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := checkValueSpans(data); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, data)
		}
	})
}

// fuzzCorpus returns the inputs of the corpus of fuzz test name in
// testdata/fuzz (files of one []byte).
func fuzzCorpus(t *testing.T, name string) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", name, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus for %s: %v", name, err)
	}
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, line, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
		q, ok := strings.CutPrefix(line, "[]byte(")
		if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); ok && err == nil {
			out = append(out, s)
		}
	}
	return out
}

// checkValueSpans returns what is wrong with the value spans of the
// start tags of data, or "".
func checkValueSpans(data []byte) string {
	s := NewScanner(data, 0)
	edits := 0
	for s.Next() {
		t := s.Token()
		if t.Kind != Start {
			continue
		}
		for _, a := range t.Attrs {
			text, at, ok := DecodeValue(data, a.ValOff, a.ValEnd)
			if !ok || text != a.Value || len(at) != len(text)+1 {
				return fmt.Sprintf("attribute %s at %d..%d: DecodeValue gives %q, %v (%d offsets), want %q", a.Name, a.ValOff, a.ValEnd, text, ok, len(at), a.Value)
			}
			for i := range at {
				if at[i] < int32(a.ValOff) || at[i] > int32(a.ValEnd) || i > 0 && at[i] < at[i-1] {
					return fmt.Sprintf("attribute %s at %d..%d: offsets %v out of order", a.Name, a.ValOff, a.ValEnd, at)
				}
			}
			if edits < 40 && len(data) < 4096 {
				edits++
				if msg := checkValueSplice(data, a, text, at); msg != "" {
					return msg
				}
			}
		}
	}
	return ""
}

// checkValueSplice replaces each word of the value of a (a run of
// letters or digits) with "Z" at the bytes DecodeValue gives, and checks
// that the tag then reads the value with just that word replaced.
func checkValueSplice(data []byte, a Attr, text string, at []int32) string {
	for i := 0; i < len(text); i++ {
		if !isWord(text[i]) || i > 0 && isWord(text[i-1]) {
			continue
		}
		j := i
		for j < len(text) && isWord(text[j]) {
			j++
		}
		out := append(append(append([]byte{}, data[:at[i]]...), 'Z'), data[at[j]:]...)
		want := text[:i] + "Z" + text[j:]
		s := NewScanner(out, 0)
		got := ""
		for s.Next() && got == "" {
			for _, b := range s.Token().Attrs {
				if b.NameOff == a.NameOff {
					got = b.Value
				}
			}
		}
		if got != want {
			return fmt.Sprintf("attribute %s: replacing %q at %d..%d reads %q, want %q\n%s", a.Name, text[i:j], at[i], at[j], got, want, out)
		}
		i = j
	}
	return ""
}

func isWord(c byte) bool { return c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))) }
