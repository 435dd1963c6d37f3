package loader

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// markedPos removes the marker "‸" from src and returns the text and the
// line:col position of the marker in it, columns counted in characters.
func markedPos(file, src string) (string, string) {
	i := strings.Index(src, "‸")
	if i < 0 {
		panic("no marker in " + src)
	}
	before := src[:i]
	line := 1 + strings.Count(before, "\n")
	col := 1 + utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:])
	return before + src[i+len("‸"):], scenefile.Pos{File: file, Line: line, Col: col}.String()
}

// TestJSONPositionsMultiByte: every error in a JSON dump is placed in the
// JSON file itself, with columns counted in characters, also after
// multi-byte characters and escapes on the same line: syntax errors,
// entity keys, component declarations (the file's "components" object,
// read and compiled), system settings and errors inside values.
func TestJSONPositionsMultiByte(t *testing.T) {
	pre := `"entities":[{"id":"日本","class":["é","\u00fc\ud83d\ude00"],"components":{"visible":"true"}}]`
	for _, tc := range []struct{ name, src, msg string }{
		{"syntax", `{` + pre + `, ‸x}`, "invalid character 'x'"},
		{"entity id", `{"entities":[{"id":"日本","components":{}},{"id":‸"a b"}]}`, "no spaces allowed"},
		{"unknown key", `{` + pre + `,‸"nope":1}`, `unknown top-level key "nope"`},
		{"declaration name", `{` + pre + `,"components":{‸"a.b":{}}}`, `invalid component name "a.b"`},
		{"declaration key", `{` + pre + `,"components":{"hp":{"type":"int",‸"mni":0}}}`, `unknown key "mni"`},
		{"declaration bound", `{` + pre + `,"components":{"hp":{"type":"int","min":‸"x"}}}`, "min must be a number"},
		{"declaration compiled", `{` + pre + `,"components":{‸"hp":{"type":"nosuch"}}}`, `component "hp": `},
		{"declaration on a later line", "{" + pre + ",\n \"components\":{\"ok\":{},\n  \"lbl\":{\"type\":\"string\",\"default\":\"é\"}, ‸\"hp\":{\"type\":\"nosuch\"}}}", `component "hp": `},
		{"setting", `{` + pre + `,"scene":{"physics":"step: ‸x"}}`, `physics`},
		{"value after multi-byte", `{"entities":[{"id":"é","class":["ü"],"components":{"position":"1 2 ‸x"}}]}`, "position"},
		{"value after escapes", `{"entities":[{"id":"é","components":{"position":"1 \u0032 ‸x"}}]}`, "position"},
		{"value after a surrogate pair", `{"components":{"tag":{"name":{"type":"string"},"n":{"type":"int"}}},"entities":[{"components":{"tag":"name: \ud83d\ude00\u00e9; n: ‸x"}}]}`, "tag"},
		{"property value", `{"entities":[{"id":"é","components":{"physics2":{}, "health":{"hp":‸"x"}}}],"components":{"health":{"hp":{"type":"int"}}}}`, "health"},
	} {
		src, want := markedPos("a.json", tc.src)
		reg := newTestRegistry(t)
		_, err := LoadBytes(reg, "a.json", []byte(src), Options{})
		if err == nil {
			t.Errorf("%s: no error for %s", tc.name, src)
			continue
		}
		got := err.Error()
		if !strings.HasPrefix(got, want+": ") || !strings.Contains(got, tc.msg) {
			t.Errorf("%s: %s\ngot  %v\nwant %s: ...%s...", tc.name, src, got, want, tc.msg)
		}
	}
}
