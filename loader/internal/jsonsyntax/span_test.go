package jsonsyntax

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// stringSeeds hold strings with each kind of escape before more text.
var stringSeeds = []string{
	`{"a": "x\\y; s: 1", "b": "\"q\" s: 2", "c": "\/\b\f\n\r\t s: 3"}`,
	`["\u00e9\ud83d\ude00 s: 1", "\ud83d\u0041 s: 2", "\udead s: 3", "plain"]`,
}

// TestSpans checks the spans of the parser's nodes and DecodeString on
// the seeds, the parser's seeds, the golden dumps and a generated one.
func TestSpans(t *testing.T) {
	inputs := append(append([]string{}, stringSeeds...), parseSeeds...)
	files, err := filepath.Glob("../../testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSON test files (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(data))
	}
	inputs = append(inputs, string(scenegen.JSONDump(50)))
	for _, s := range inputs {
		if msg := checkSpans([]byte(s)); msg != "" {
			t.Errorf("%.200q: %s", s, msg)
		}
	}
}

// FuzzSpans checks, for every input the parser accepts, that each node's
// span lies in its parent's after its previous sibling's and that a
// string's span reads back as its value through DecodeString.
func FuzzSpans(f *testing.F) {
	for _, s := range append(append([]string{}, stringSeeds...), parseSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := checkSpans(data); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, data)
		}
	})
}

// checkSpans returns what is wrong with the spans of data's tree, or "".
func checkSpans(data []byte) string {
	root, err := Parse(data, nil)
	if err != nil || root == nil {
		return ""
	}
	var msg string
	var walk func(n *yamlsyntax.Node, lo, hi int)
	walk = func(n *yamlsyntax.Node, lo, hi int) {
		if msg != "" {
			return
		}
		if int(n.Off) < lo || n.End <= n.Off || int(n.End) > hi {
			msg = fmt.Sprintf("%d:%d: span %d..%d outside %d..%d", n.Line, n.Col, n.Off, n.End, lo, hi)
			return
		}
		if n.Kind == yamlsyntax.Scalar {
			if !n.Exact {
				if n.Value != "" && string(data[n.Off:n.End]) != n.Value {
					msg = fmt.Sprintf("%d:%d: %q spans %q", n.Line, n.Col, n.Value, data[n.Off:n.End])
				}
				return
			}
			text, at, ok := DecodeString(data, int(n.Off), int(n.End))
			if !ok || text != n.Value || len(at) != len(text)+1 {
				msg = fmt.Sprintf("%d:%d: DecodeString gives %q, %v, want %q", n.Line, n.Col, text, ok, n.Value)
				return
			}
			for i := range at {
				if at[i] <= n.Off || at[i] >= n.End || i > 0 && at[i] < at[i-1] {
					msg = fmt.Sprintf("%d:%d: offsets %v out of order", n.Line, n.Col, at)
					return
				}
			}
			return
		}
		at := int(n.Off)
		for _, c := range n.Content {
			walk(c, at, int(n.End))
			at = int(c.End)
		}
	}
	walk(root, 0, len(data))
	return msg
}
