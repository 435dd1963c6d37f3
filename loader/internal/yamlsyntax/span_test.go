package yamlsyntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unsafe"
)

// spanSeeds are inputs whose scalars are written every way YAML writes
// one: plain over several lines, single-quoted with doubled quotes,
// double-quoted with each kind of escape and with folds, block scalars
// of both kinds with every chomping, nulls, flow collections.
var spanSeeds = []string{
	"a: \"x\\\\y; s: 1\"\nb: \"\\\"q\\\" s: 2\"\n",
	"a: \"\\t\\n\\r\\0\\a\\b\\v\\f\\e\\ \\/\\_\\N\\L\\P\\x41\\u00e9\\U0001F600 s: 1\"\n",
	"a: \"one\n  two\n\n  three \\\n   four\"\n",
	"a: 'it''s ''q'' s: 1'\nb: 'x\n\n  y'\n",
	"a: plain\n  over\n\n  lines\nb: x  # c\n",
	"- {a: \"x\\\\y\", b: 'c''d', c: e\n   f}\n",
	"a: |\n  hp: 1\n  max: 2\nb: >-\n  x\n  y\n\n   z\nc: |+\n  k\n\n\nd: |2-\n   w\n",
	"a:\nb: ~\nc: {d: , e}\nf: [g: , h]\n- x\n",
	"entities:\n  - id: a\n    health: \"hp: \\\\1; max: 2\"\n  - {id: b, p: 'x''y'}\n",
	"a: \"x\"\r\nb: 'y\r\n  z'\r\nc: |\r\n  q\r\n",
}

// TestSpans checks the spans of the parser's nodes and DecodeScalar on
// the seeds, the parser's seeds and the repository's scenes.
func TestSpans(t *testing.T) {
	inputs := append([]string{}, spanSeeds...)
	inputs = append(inputs, parserSeeds...)
	for _, data := range sceneInputs(t) {
		inputs = append(inputs, string(data))
	}
	inputs = append(inputs, fuzzCorpus(t, "FuzzFastPath")...)
	for _, s := range inputs {
		if msg := checkSpans([]byte(s), len(s) < 4096); msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
	}
}

// FuzzSpans checks, for every input the parser accepts, that each node's
// span lies in its parent's after its previous sibling's, that a
// scalar's span reads back as its value through DecodeScalar, and that
// replacing the bytes DecodeScalar gives for a part of the text replaces
// exactly that part.
func FuzzSpans(f *testing.F) {
	for _, s := range spanSeeds {
		f.Add([]byte(s))
	}
	for _, s := range parserSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := checkSpans(data, len(data) < 4096); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, data)
		}
	})
}

// checkSpans returns what is wrong with the spans of data's tree, or "".
// With splice, it also edits each scalar (see FuzzSpans).
func checkSpans(data []byte, splice bool) string {
	root, res := Parse(data, nil)
	if res.State != OK || root == nil {
		return ""
	}
	var msg string
	var walk func(n *Node, lo, hi, parent int)
	edits := 0
	walk = func(n *Node, lo, hi, parent int) {
		if msg != "" {
			return
		}
		if int(n.Off) < lo || n.End < n.Off || int(n.End) > hi {
			msg = fmt.Sprintf("%s: span %d..%d outside %d..%d", nodeString(n), n.Off, n.End, lo, hi)
			return
		}
		if n.Kind == Scalar {
			msg = checkScalar(data, n, parent)
			if msg == "" && splice && edits < 40 {
				edits++
				msg = checkSplice(data, n, parent)
			}
			return
		}
		ind := parent
		if c := data[n.Off]; c != '{' && c != '[' {
			ind = int(n.Off) - lineStartOf(data, int(n.Off))
		}
		at := int(n.Off)
		for _, c := range n.Content {
			walk(c, at, int(n.End), ind)
			at = int(c.End)
		}
	}
	walk(root, 0, len(data), -1)
	return msg
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

func lineStartOf(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// checkScalar checks that scalar n's span holds it as written.
func checkScalar(data []byte, n *Node, parent int) string {
	d, ok := DecodeScalar(data, int(n.Off), int(n.End), parent)
	if !ok {
		return fmt.Sprintf("%s: DecodeScalar(%d, %d) fails on %q", nodeString(n), n.Off, n.End, data[n.Off:n.End])
	}
	want := n.Value
	if n.Off == n.End {
		want = ""
	}
	if d.Text != want || len(d.At) != len(d.Text)+1 {
		return fmt.Sprintf("%s: DecodeScalar gives %q (%d offsets), the node %q", nodeString(n), d.Text, len(d.At), want)
	}
	for i := 1; i < len(d.At); i++ {
		if d.At[i] < d.At[i-1] || d.At[i] < n.Off || d.At[i] > n.End {
			return fmt.Sprintf("%s: offsets %v not in order within %d..%d", nodeString(n), d.At, n.Off, n.End)
		}
	}
	if n.Exact && (data[n.Off] != data[n.End-1] || n.End-n.Off < 2) {
		return fmt.Sprintf("%s: quoted scalar spans %q", nodeString(n), data[n.Off:n.End])
	}
	return ""
}

// checkSplice replaces each word of scalar n's text (a run of letters or
// digits) with "Z" at the bytes DecodeScalar gives, and checks that the
// file then reads the text with just that word replaced.
func checkSplice(data []byte, n *Node, parent int) string {
	d, _ := DecodeScalar(data, int(n.Off), int(n.End), parent)
	text := d.Text
	for a := 0; a < len(text); a++ {
		if !isWord(text[a]) || a > 0 && isWord(text[a-1]) {
			continue
		}
		b := a
		for b < len(text) && isWord(text[b]) {
			b++
		}
		out := append(append(append([]byte{}, data[:d.At[a]]...), 'Z'), data[d.At[b]:]...)
		want := text[:a] + "Z" + text[b:]
		root, res := Parse(out, nil)
		if res.State != OK {
			return fmt.Sprintf("%s: replacing %q at %d..%d: the file does not parse (%s)", nodeString(n), text[a:b], d.At[a], d.At[b], res.ErrMsg)
		}
		got := findScalar(root, n.Off)
		if got == nil || got.Value != want {
			return fmt.Sprintf("%s: replacing %q at %d..%d reads %v, want %q\n%s", nodeString(n), text[a:b], d.At[a], d.At[b], got, want, out)
		}
		a = b
	}
	return ""
}

func isWord(c byte) bool { return c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))) }

// findScalar returns the scalar of the tree n at offset off.
func findScalar(n *Node, off int32) *Node {
	if n == nil {
		return nil
	}
	if n.Kind == Scalar && n.Off == off {
		return n
	}
	for _, c := range n.Content {
		if s := findScalar(c, off); s != nil {
			return s
		}
	}
	return nil
}

// TestNodeSize: a node stays 64 bytes, spans included (a reader builds
// one per key and value).
func TestNodeSize(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 64 {
		t.Fatalf("a Node is %d bytes", s)
	}
}
