package yamlsyntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// parserSeeds are inputs for the differential test of the YAML
// parser: every construct of the subset, what it leaves to yaml.v3, and
// the syntax errors it reports itself.
var parserSeeds = []string{
	"", "a:\n- b\n- c: d\n  e: 'f''g'\n", "a: {b: [1, \"x\"], c: ~}\n", "a: b # c\n#d\n", "- \n-\n- - a\n",
	"a:\n  b:\n    c: -1\n", "a: x:y\n", "---\na: 1\n", "--- # c\na: 1\n", "\ufeffa: 1\n", "a: 1\r\nb: 2\r\n",
	"a: b\n\n\n  c\n   d  \n\n", "a: \"x\n\n  y  z \"", "a: 'x\n   \n  ''y'''", "a: \"a\\\n   b\"", "a: \"a\\\n\n  b\"",
	"a: \"\\t\\u00e9\\x41\\U0001F600\\N\\_\\L\\P\\e\\0\\ \\/\"", "a: [1,\n2]", "a:\n  - [1,\n2]", "{a: , b: 1}", "{a: }", "{a}", "[a, ]",
	"[a: 1]", "{\"a\":1}", "{\"a\" :1}", "[a b\n c]", "- a\n  - b", "a: b\n  c:d", "{a b: 1}", "{a:1}",
	"entities: [{id: a, position: 1 2 3}, {id: b}]\n", "{entities: [{id: a}, {id: b}], scene: {}}\n",
	"entities:\n- id: a\n  children:\n  - id: b\n", "héllo: wörld\n", "a: [x, {b: c, d: [e]}]\n", "a: é # ü\n",
	"a: |\n  x\n", "a: &x 1\n", "a: *x\n", "a: !t 1\n", "? a\n: b\n", "%YAML 1.2\n---\na: 1\n", "a: 1\n---\nb: 2\n", "a:\tb\n",
	"a: <<\n", "<<: {a: 1}\n", "~: 1\n", "a: \"x\": y", "a: [1] x", "a: 'it's'", "a: 1\n- b", "a:\n  b: 1\n - c",
	"entities:\n  - id: a\n    position: 1 2 3\n   - id: b\n", "a:\n  b: 1\n   c: 2\n", "a:\n    b: 1\n  c: 2\n", "a: {b: 1\n",
	"a: [1, 2\n  - id: y\n", "a: \"abc\n", "a: 'abc\n", "a\x00: 1", "a: \xff\n", "a: b\n\x01\n", "[a,,b]", "[,a]", "{a: 1,,}",
	"[a[b]", "{a: [1] x}", "[\"a\" x]", "  a: 1\nb: 2", "a\nb: 1", "[1]\n[2]", "a: b\n  # c\n  d", "a: x #c\n  y",
	"a: \"\\q\"", "a: \"\\xZZ\"", "a: \"\\uD800\"", "a: [\"x\"\n: 1]",
	"a: |\n  x\n", "a: >\n  x\n  y\n\n  z\n", "a: |-\n  x\n\n", "a: |+\n  x\n\n", "a: |2\n   x\n", "- >\n a\n  b\n c\n",
	"a: |\n", "a: | # c\n  x", "a: |0\n", "a: |x\n", "|\n x", ">\n\n a\n", "a:\n  b: |\n    x\n  c: 1\n", "a: >-\n   x\n  y\n",
	"a: |\n  x\n\ty\n", "- |\n  a\n- b\n", "a:\n- |1\n  x\n", "a: >\n\n  x\n\n\n  y\n   z\n  w\n",
	"a: [1, {b: 2}, [3]]\nc: d\n", "e: {\n  f: g,\n  h: [i,\n     j]\n}\n", "a: b\n  c\n\n  d\n", "- a\n -b\n",
	"a: \"x\\\"y\" # q\n", "a: 'x'' y'\n", "\"a b\": 1\n'c': 2\n", "a: - b\n", "a: ? b\n", "a: 1 # c\n# d\nb: 2\n",
}

func TestParserSeeds(t *testing.T) {
	for _, s := range parserSeeds {
		if msg := compareParser([]byte(s)); msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
	}
}

// TestParserScenes compares the parser with yaml.v3 on the example
// scenes, the loader's test scenes and generated ones.
func TestParserScenes(t *testing.T) {
	for name, data := range sceneInputs(t) {
		if msg := compareParser(data); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

// sceneInputs returns the YAML scenes of the repository (scenes/ and the
// loader's testdata) and generated scenes in block and flow style, by name.
func sceneInputs(t testing.TB) map[string][]byte {
	out := map[string][]byte{
		"generated":      scenegen.Scene("yaml", 300),
		"generated-load": scenegen.LoadScene("yaml", 300),
		"generated-flow": scenegen.FlowScene(300),
	}
	for _, pattern := range []string{"../../../scenes/*.yaml", "../../scenefile/testdata/*.yaml", "../../testdata/golden/*.yaml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no files match %s", pattern)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = data
		}
	}
	return out
}

// FuzzFastPath checks the parser against yaml.v3, the reference:
// wherever the parser accepts an input, yaml.v3 must produce the same
// tree; wherever it reports a syntax error, yaml.v3 must refuse the input
// too. The corpus in testdata/fuzz holds, besides what fuzzing found, the
// YAML inputs of the loader's hostile-input tables.
func FuzzFastPath(f *testing.F) {
	for _, data := range sceneInputs(f) {
		if len(data) < 1<<16 {
			f.Add(data)
		}
	}
	f.Add(scenegen.Scene("yaml", 30))
	f.Add(scenegen.FlowScene(20))
	for _, s := range parserSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := compareParser(data); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, data)
		}
	})
}

// compareParser returns what is wrong with the parser's answer for data,
// compared with yaml.v3's, or "".
func compareParser(data []byte) string {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return "" // UTF-16, which yaml.v3 reads and scenes refuse by design
	}
	fast, res := Parse(data, nil)
	switch res.State {
	case Unsupported:
		return ""
	case Invalid:
		if _, _, err := ParseReference(data); err == nil {
			return fmt.Sprintf("the parser reports %q at offset %d, yaml.v3 accepts", res.ErrMsg, res.ErrOff)
		}
		return ""
	}
	slow, extras, err := ParseReference(data)
	if err != nil {
		return fmt.Sprintf("the parser accepted what yaml.v3 refuses (%v)", err)
	}
	if len(extras) > 0 {
		return "the parser accepted anchors or tags"
	}
	return sameTree(fast, slow)
}

func sameTree(a, b *Node) string {
	if a == nil || b == nil {
		if a != b {
			return "one tree is empty"
		}
		return ""
	}
	if a.Kind != b.Kind || a.Null != b.Null || a.Exact != b.Exact || a.Value != b.Value || a.Line != b.Line || a.Col != b.Col || len(a.Content) != len(b.Content) {
		return "nodes differ: fast " + nodeString(a) + ", yaml.v3 " + nodeString(b)
	}
	for i := range a.Content {
		if msg := sameTree(a.Content[i], b.Content[i]); msg != "" {
			return msg
		}
	}
	return ""
}

func nodeString(n *Node) string {
	return fmt.Sprintf("%d:%d kind %d %s", n.Line, n.Col, n.Kind, n.Value)
}
