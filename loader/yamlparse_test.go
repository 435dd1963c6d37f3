package loader

import "testing"

// yamlParserSeeds are inputs for the differential test of the YAML
// parser: every construct of the subset, what it leaves to yaml.v3, and
// the syntax errors it reports itself.
var yamlParserSeeds = []string{
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

func TestYAMLParserSeeds(t *testing.T) {
	for _, s := range yamlParserSeeds {
		if msg := compareYAMLParser([]byte(s)); msg != "" {
			t.Errorf("%q: %s", s, msg)
		}
	}
}
