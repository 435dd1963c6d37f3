package jsonsyntax

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// parseSeeds are inputs for the differential test: every construct of
// JSON, and the ways each can go wrong.
var parseSeeds = []string{
	"", " ", "{}", "[]", "null", "true", "false", "0", "-0", "1.5e-3", "-12E+4", "\"\"", "\"a\"",
	"{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\"}}", " {\n\t\"a\" : [ 1 , 2 ] \r\n} ",
	"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\ud83d\\u0041\\udead\"", "\"é日本\U0001F600\"",
	"{\"a\":1,\"a\":2}", "[1,[2,[3,[4]]]]",
	"{", "[", "{\"a\"", "{\"a\":", "{\"a\":1", "{\"a\":1,", "[1,", "[1 2]", "{\"a\" 1}", "{1:2}", "{\"a\":1,}", "[1,]", "[,1]",
	"tru", "nul", "falsy", "t", "x", "-", "01", "1.", "1.e", "1e", "1e+", ".5", "+1", "- 1",
	"\"abc", "\"a\tb\"", "\"a\\qb\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\", "\"\\u", "\"\xff\"", "\"a\xc3\"", "\"\xed\xa0\x80\"",
	"{} x", "[] []", "1 2", "{\"a\":1}}", "\x00", "\ufeff{}", "\ufeff\ufeff{}",
}

// TestParseSeeds compares the parser with encoding/json on the seeds and
// on the loader's JSON test files.
func TestParseSeeds(t *testing.T) {
	inputs := map[string][]byte{}
	for _, s := range parseSeeds {
		inputs[s] = []byte(s)
	}
	files, err := filepath.Glob("../../testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no JSON test files (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	inputs["generated"] = scenegen.JSONDump(300)
	for name, data := range inputs {
		if msg := compareParse(data); msg != "" {
			t.Errorf("%.80q: %s", name, msg)
		}
	}
}

// FuzzParse checks the parser against encoding/json, the reference: the
// same inputs accepted and refused (but for invalid UTF-8 in strings,
// which encoding/json replaces and the parser refuses, and nesting past
// MaxNesting), the same values, and for refused inputs the same message.
func FuzzParse(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Add(scenegen.JSONDump(20))
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := compareParse(data); msg != "" {
			t.Fatalf("%q: %s", data, msg)
		}
	})
}

// compareParse returns what is wrong with the parser's answer for data,
// compared with encoding/json's, or "".
func compareParse(data []byte) string {
	tree, perr := Parse(data, nil)
	ref := bytes.TrimPrefix(data, []byte("\ufeff")) // encoding/json reads no byte order mark
	if !json.Valid(ref) {
		var se *json.SyntaxError
		if err := json.Unmarshal(ref, new(any)); !errors.As(err, &se) {
			return fmt.Sprintf("encoding/json refuses without a syntax error: %v", err)
		} else if perr == nil {
			return fmt.Sprintf("the parser accepts, encoding/json: %v", se)
		} else if perr.Msg != se.Error() && asciiAt(data, perr.Off) && !strings.HasPrefix(perr.Msg, "nested too deeply") && !sameEnd(data, perr, se) {
			// (encoding/json quotes a byte of a non-ASCII character
			// where the parser quotes the character.)
			return fmt.Sprintf("the parser says %q, encoding/json %q", perr.Msg, se.Error())
		}
		return ""
	}
	switch {
	case perr != nil && strings.HasPrefix(perr.Msg, "nested too deeply"):
		return ""
	case perr != nil && perr.Msg == "invalid UTF-8 in string" && !utf8.Valid(ref):
		return ""
	case perr != nil:
		return fmt.Sprintf("the parser refuses (%s at %d), encoding/json accepts", perr.Msg, perr.Off)
	}
	var want any
	dec := json.NewDecoder(bytes.NewReader(ref))
	dec.UseNumber()
	if err := dec.Decode(&want); err != nil {
		return fmt.Sprintf("encoding/json validates, then fails to decode: %v", err)
	}
	return sameValue(tree, want)
}

// sameEnd reports whether both say the input ends too soon: the parser
// as such, encoding/json, which feeds a space at the end, sometimes as an
// invalid ' '.
func sameEnd(data []byte, perr *Error, se *json.SyntaxError) bool {
	return perr.Off == len(data) && perr.Msg == "unexpected end of JSON input" && strings.HasPrefix(se.Error(), "invalid character ' '")
}

// asciiAt reports whether the byte at off is ASCII (or the end).
func asciiAt(data []byte, off int) bool {
	return off >= len(data) || data[off] < utf8.RuneSelf
}

// sameValue compares a tree with the value encoding/json decoded (with
// UseNumber): objects by key (the last of duplicates), arrays in order,
// numbers as written.
func sameValue(n *yamlsyntax.Node, v any) string {
	switch v := v.(type) {
	case map[string]any:
		if n.Kind != yamlsyntax.Mapping {
			return fmt.Sprintf("%d:%d: kind %d, encoding/json an object", n.Line, n.Col, n.Kind)
		}
		got := map[string]*yamlsyntax.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			got[n.Content[i].Value] = n.Content[i+1]
		}
		if len(got) != len(v) {
			return fmt.Sprintf("%d:%d: %d keys, encoding/json %d", n.Line, n.Col, len(got), len(v))
		}
		for k, x := range v {
			c, ok := got[k]
			if !ok {
				return fmt.Sprintf("%d:%d: no key %q", n.Line, n.Col, k)
			}
			if msg := sameValue(c, x); msg != "" {
				return msg
			}
		}
	case []any:
		if n.Kind != yamlsyntax.Sequence || len(n.Content) != len(v) {
			return fmt.Sprintf("%d:%d: kind %d with %d items, encoding/json an array of %d", n.Line, n.Col, n.Kind, len(n.Content), len(v))
		}
		for i := range v {
			if msg := sameValue(n.Content[i], v[i]); msg != "" {
				return msg
			}
		}
	case nil:
		if n.Kind != yamlsyntax.Scalar || !n.Null {
			return fmt.Sprintf("%d:%d: %q, encoding/json null", n.Line, n.Col, n.Value)
		}
	default:
		want := fmt.Sprint(v)
		exact := false
		if s, ok := v.(string); ok {
			want, exact = s, true
		}
		if n.Kind != yamlsyntax.Scalar || n.Null || n.Value != want || n.Exact != exact {
			return fmt.Sprintf("%d:%d: %q (exact %v), encoding/json %q", n.Line, n.Col, n.Value, n.Exact, want)
		}
	}
	return ""
}
