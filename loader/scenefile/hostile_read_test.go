package scenefile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// hostileCase is scene bytes and what reading them must say: the first
// error's position ("file:line:col") and a substring of its message, or
// nothing for an input that must read without error.
type hostileCase struct {
	name string
	file string
	src  string
	pos  string // "" for no error
	msg  string
}

// hostileTimeout bounds each case, generously: the inputs are small or
// linear to read, and the old code took a minute on some of them (the
// loader's hostile tests use the same bound).
const hostileTimeout = 20 * time.Second

// runHostile reads c.src (with Read, or ReadFile-like limits when lim is
// set) under the time bound and checks the answer.
func runHostile(t *testing.T, c hostileCase, lim Limits) {
	t.Helper()
	type result struct {
		doc *Document
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		doc, err := Read(c.file, []byte(c.src), lim)
		done <- result{doc, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-time.After(hostileTimeout):
		t.Fatalf("%s: no answer within %v", c.name, hostileTimeout)
	}
	elapsed := time.Since(start)
	if c.pos == "" {
		if res.err != nil {
			t.Errorf("%s: unexpected error: %v", c.name, firstLine(res.err.Error()))
		}
		return
	}
	list, ok := res.err.(ErrorList)
	if !ok || len(list) == 0 {
		t.Errorf("%s: got %v, want an error at %s containing %q", c.name, res.err, c.pos, c.msg)
		return
	}
	if got := list[0].Pos.String(); got != c.pos || !strings.Contains(list[0].Msg, c.msg) {
		t.Errorf("%s: got %v\nwant %s: ...%s... (in %v)", c.name, list[0], c.pos, c.msg, elapsed)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// hostileYAMLSyntax: syntax errors are reported at the offending byte, not
// at the construct around it (yaml.v3 reports "line 1" for a mis-indented
// list item on line 4, and invalid bytes always at 1:1).
var hostileYAMLSyntax = []hostileCase{
	{"list item indented one too many", "a.yaml", "entities:\n  - id: a\n    position: 1 2 3\n   - id: b\n", "a.yaml:4:4", "bad indentation of a list item: expected column 3, as at line 2"},
	{"list item indented one too few", "a.yaml", "entities:\n  - id: a\n    children:\n      - id: b\n     - id: c\n", "a.yaml:5:6", "bad indentation of a list item"},
	{"list item after mapping entries", "a.yaml", "entities:\n  - id: a\n    p: 1\n    - id: b\n", "a.yaml:4:5", "did not find expected key"},
	{"mapping entry indented too much", "a.yaml", "entities:\n  - id: a\n    position: 1 2 3\n     scale: 2 2 2\n", "a.yaml:4:6", "bad indentation of a mapping entry"},
	{"mapping entry indented too little", "a.yaml", "scene:\n    physics: \"step: 1\"\n  audio: x\n", "a.yaml:3:3", "bad indentation of a mapping entry: expected column 1"},
	{"top-level key indented", "a.yaml", "entities: []\n mixins: {}\n", "a.yaml:2:2", "bad indentation of a mapping entry: expected column 1, as at line 1"},
	{"root less indented than the first line", "a.yaml", "  entities: []\nmixins: {}\n", "a.yaml:2:1", "unexpected content after the end of the document"},
	{"value then key on one line", "a.yaml", "entities:\n  - id: a b: c\n", "a.yaml:2:12", "mapping values are not allowed"},
	{"line without a colon among keys", "a.yaml", "entities:\n  - id: a\n    enemy\n", "a.yaml:3:5", "could not find expected ':'"},
	{"comment ends a value", "a.yaml", "entities:\n  - id: a # the hero\n    hero\n", "a.yaml:3:5", "could not find expected ':'"},
	{"unclosed brace at the end", "a.yaml", "entities:\n  - health: {hp: 5,\n      max: 10\n", "a.yaml:2:13", `"{" is never closed`},
	{"unclosed bracket at the end", "a.yaml", "entities: [\n  {id: a},\n  {id: b}\n", "a.yaml:1:11", `"[" is never closed`},
	{"unclosed nested brace", "a.yaml", "entities: [{id: a, health: {hp: 1}]\n", "a.yaml:1:35", "did not find expected ',' or '}'"},
	{"unclosed bracket before block content", "a.yaml", "entities:\n  - id: x\n    p: [1, 2\n  - id: y\n", "a.yaml:4:7", `(for the "[" at line 3, column 8)`},
	{"missing comma", "a.yaml", "entities: [{id: a} {id: b}]\n", "a.yaml:1:20", "did not find expected ',' or ']'"},
	{"doubled comma", "a.yaml", "entities: [{id: a},, {id: b}]\n", "a.yaml:1:20", "did not find expected node content"},
	{"unclosed double quote", "a.yaml", "entities:\n  - id: a\n    label: \"hello\n  - id: b\n", "a.yaml:3:12", "quoted string is never closed"},
	{"unclosed single quote", "a.yaml", "entities:\n  - label: 'it\n", "a.yaml:2:12", "quoted string is never closed"},
	{"quote inside single quotes", "a.yaml", "entities:\n  - label: 'it's'\n", "a.yaml:2:16", "unexpected text after the value"},
	{"text after a flow value", "a.yaml", "entities: [] x\n", "a.yaml:1:14", "unexpected text after the value"},
	{"unknown escape", "a.yaml", "entities:\n  - label: \"a\\qb\"\n", "a.yaml:2:14", "unknown escape character"},
	{"bad hex escape", "a.yaml", "entities:\n  - label: \"\\u12G4\"\n", "a.yaml:2:17", "hexdecimal"},
	{"surrogate escape", "a.yaml", "entities:\n  - label: \"\\uD800\"\n", "a.yaml:2:13", "invalid Unicode character escape"},
	{"block scalar indicator 0", "a.yaml", "entities:\n  - label: |0\n    x\n", "a.yaml:2:13", "indentation indicator equal to 0"},
	{"bad indentation after a block scalar", "a.yaml", "entities:\n  - id: a\n    note: |\n      text\n     - id: b\n", "a.yaml:5:6", "bad indentation of a list item"},
	{"tab as indentation", "a.yaml", "entities:\n\t- id: a\n", "a.yaml:2:1", "cannot start any token"},
	{"tab after spaces", "a.yaml", "entities:\n  - id: a\n  \t position: 1 2 3\n", "a.yaml:3:3", "tab"},
	{"tab after a dash", "a.yaml", "entities:\n  -\tid: a\n", "a.yaml:2:4", "cannot start any token"},
	{"tab in a nested list", "a.yaml", "a:\n  - b\n  \t- c\n", "a.yaml:3:3", "tab"},
	{"at sign", "a.yaml", "entities:\n  - id: @a\n", "a.yaml:2:9", "cannot start any token"},
	{"utf-16", "a.yaml", "\xff\xfee\x00n\x00", "a.yaml:1:1", "UTF-16"},
	{"several documents", "a.yaml", "entities: []\n---\nentities: []\n", "a.yaml:2:1", "several YAML documents"},
}

// hostileBytes generates the family of invalid bytes: NUL, other control
// characters and invalid UTF-8 at many offsets of a scene, each reported
// at its own line and column, in YAML and (for the reader's own checks)
// XML and JSON.
func hostileBytes() []hostileCase {
	base := map[string]string{
		"yaml": "entities:\n  - id: hero\n    label: \"héllo wörld\"\n    position: 1 2 3\n  - {id: b, scale: 2 2 2}\n",
		"xml":  "<scene>\n  <entity id=\"hero\" label=\"héllo wörld\"\n          position=\"1 2 3\"/>\n</scene>\n",
		"json": "{\"entities\":[\n  {\"id\":\"hero\",\"path\":\"hero\",\"parent\":null,\"class\":[],\n   \"components\":{\"label\":\"héllo wörld\"}}\n]}\n",
	}
	bad := []struct {
		name, b, msg string
	}{
		{"NUL", "\x00", "U+0000"},
		{"ESC", "\x1b", "U+001B"},
		{"DEL", "\x7f", "U+007F"},
		{"0xff", "\xff", "invalid UTF-8"},
		{"lone continuation byte", "\x80", "invalid UTF-8"},
		{"truncated sequence", "\xc3", "invalid UTF-8"},
		{"overlong", "\xc0\xaf", "invalid UTF-8"},
		{"surrogate", "\xed\xa0\x80", "invalid UTF-8"},
	}
	var out []hostileCase
	for _, ext := range []string{"yaml", "xml", "json"} {
		src := base[ext]
		// Insert inside string values only for XML and JSON, where the
		// reader checks characters in values (elsewhere the syntax
		// refuses them first, at the same place or before).
		for off := 0; off <= len(src); off += 3 {
			if off < len(src) && src[off]&0xc0 == 0x80 {
				continue // inside a character
			}
			if ext != "yaml" && !insideQuotes(src, off) {
				continue
			}
			for _, b := range bad {
				if ext != "yaml" && b.name == "DEL" {
					continue // XML and JSON allow DEL
				}
				data := src[:off] + b.b + src[off:]
				x := newLineIndex("a."+ext, []byte(data))
				msg := b.msg
				if ext == "xml" && b.msg != "invalid UTF-8" {
					msg = "illegal character code " + b.msg
				}
				if ext == "json" && b.msg != "invalid UTF-8" {
					msg = "in string literal"
				}
				out = append(out, hostileCase{
					name: fmt.Sprintf("%s %s at %d", ext, b.name, off),
					file: "a." + ext, src: data, pos: x.pos(off).String(), msg: msg,
				})
			}
		}
	}
	return out
}

// insideQuotes reports whether offset off of src is inside a "..."
// string (not on its quotes).
func insideQuotes(src string, off int) bool {
	return strings.Count(src[:off], `"`)%2 == 1 && src[off-1] != '"' || strings.Count(src[:off], `"`)%2 == 1 && off > 0 && src[off-1] == '"' && off < len(src) && src[off] != '"'
}

// hostileBOM: a UTF-8 byte order mark is accepted in every format, and
// takes no column: positions on the first line are the same with it.
var hostileBOM = []hostileCase{
	{"yaml bom", "a.yaml", "\ufeffentities:\n  - id: a\n", "", ""},
	{"yaml bom flow", "a.yaml", "\ufeff{entities: [{id: a}]}\n", "", ""},
	{"yaml bom position", "a.yaml", "\ufeffentities: x\n", "a.yaml:1:11", "entities must be a list"},
	{"yaml bom syntax", "a.yaml", "\ufeffentities: [\n", "a.yaml:1:11", "never closed"},
	{"xml bom", "a.xml", "\ufeff<scene><entity id=\"a\"/></scene>\n", "", ""},
	{"xml bom declaration", "a.xml", "\ufeff<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scene/>\n", "", ""},
	{"xml bom position", "a.xml", "\ufeff<scene><entity id=\"\"/></scene>\n", "a.xml:1:20", "empty entity id"},
	{"json bom", "a.json", "\ufeff{\"entities\":[{\"id\":\"a\",\"path\":\"a\",\"parent\":null,\"class\":[],\"components\":{}}]}\n", "", ""},
	{"json bom position", "a.json", "\ufeff{\"entities\":[{\"id\":\"\",\"path\":\"0\",\"parent\":null,\"class\":[],\"components\":{}}]}", "a.json:1:20", "empty entity id"},
	{"json bom syntax", "a.json", "\ufeff{\"entities\" []}", "a.json:1:13", "invalid character '['"},
	{"bom twice", "a.json", "\ufeff\ufeff{}", "a.json:1:1", "invalid character '\\ufeff'"},
}

// hostileJSON: JSON dumps with syntax errors, at the offending byte, and
// with structure errors.
var hostileJSON = []hostileCase{
	{"empty", "a.json", "", "a.json:1:1", "unexpected end of JSON input"},
	{"truncated", "a.json", "{\"entities\":[{\"id\":\"a\"", "a.json:1:23", "unexpected end of JSON input"},
	{"bad literal", "a.json", "{\"entities\":[\n  {\"id\":\"a\",\"components\":{\"visible\":tru}}]}", "a.json:2:40", "in literal true"},
	{"trailing comma", "a.json", "{\"entities\":[{},]}", "a.json:1:17", "looking for beginning of value"},
	{"control in string", "a.json", "{\"entities\":[{\"id\":\"a\tb\"}]}", "a.json:1:22", "in string literal"},
	{"bad escape", "a.json", "{\"entities\":[{\"id\":\"a\\qb\"}]}", "a.json:1:23", "in string escape code"},
	{"text after", "a.json", "{} x", "a.json:1:4", "after top-level value"},
	{"not an object", "a.json", "[1, 2]", "a.json:1:1", "a dump must be a JSON object"},
	{"nesting bomb", "a.json", "{\"scene\":" + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "}", "a.json:1:1009", "nested too deeply"},
	{"self parent", "a.json", "{\"entities\":[{\"id\":\"0\",\"path\":\"0\",\"parent\":\"0\",\"class\":[],\"components\":{}}]}", "a.json:1:44", "parent \"0\" is not an earlier entity"},
	{"depth too deep", "a.json", "{\"entities\":[{\"path\":\"0\",\"parent\":null,\"depth\":1}]}", "a.json:1:14", "depth 1: the entity before it is at depth -1"},
	{"depth and parent disagree", "a.json", "{\"entities\":[{\"id\":\"a\",\"parent\":null,\"depth\":0},{\"id\":\"b\",\"parent\":\"x\",\"depth\":1}]}", "a.json:1:68", "parent \"x\" is not the entity at depth 0 before it (\"a\")"},
	{"bad depth", "a.json", "{\"entities\":[{\"depth\":\"1\"}]}", "a.json:1:23", "depth must be a whole number"},
	{"unknown entity key", "a.json", "{\"entities\":[{\"kids\":[]}]}", "a.json:1:15", "unknown entity key \"kids\""},
	{"duplicate key", "a.json", "{\"entities\":[],\"entities\":[]}", "a.json:1:16", "duplicate key \"entities\""},
	{"bad id", "a.json", "{\"entities\":[{\"id\":\"a b\"}]}", "a.json:1:20", "no spaces allowed"},
}

// hostileMessages: messages that said the wrong thing.
var hostileMessages = []hostileCase{
	{"empty id yaml", "a.yaml", "entities:\n  - id: \"\"\n", "a.yaml:2:9", "empty entity id"},
	{"empty id xml", "a.xml", "<scene><entity id=\"\"/></scene>", "a.xml:1:20", "empty entity id"},
	{"blank id", "a.yaml", "entities:\n  - id: \" \"\n", "a.yaml:2:9", "no spaces allowed"},
	{"control character id", "a.yaml", "entities:\n  - id: \"a\\u0001\"\n", "a.yaml:2:9", "no control characters allowed"},
}

func TestHostileReads(t *testing.T) {
	for _, set := range [][]hostileCase{hostileYAMLSyntax, hostileBytes(), hostileBOM, hostileJSON, hostileMessages} {
		for _, c := range set {
			runHostile(t, c, Limits{})
		}
	}
}

// TestHostileSizes: inputs whose cost used to grow faster than their
// size. One XML element with 200,000 attributes took a minute (every
// attribute was compared with every other); positions are now O(1)
// amortized per token in every reader, on one line or many.
func TestHostileSizes(t *testing.T) {
	const n = 200_000
	var xa, ya, ja strings.Builder
	xa.WriteString("<scene><entity")
	ya.WriteString("entities: [{")
	ja.WriteString(`{"entities":[{"path":"0","parent":null,"class":[],"components":{`)
	for i := range n {
		fmt.Fprintf(&xa, " t%d=\"\"", i)
		if i > 0 {
			ya.WriteString(", ")
			ja.WriteByte(',')
		}
		fmt.Fprintf(&ya, "t%d: ", i)
		fmt.Fprintf(&ja, `"t%d":{}`, i)
	}
	xml := xa.String() + " t7=\"dup\"/></scene>"
	yaml := ya.String() + ", t7: dup}]\n"
	json := ja.String() + `,"t7":"dup"}}]}`
	for _, c := range []hostileCase{
		{"xml attributes", "a.xml", xml, fmt.Sprintf("a.xml:1:%d", len(xml)-len(" t7=\"dup\"/></scene>")+2), `duplicate attribute "t7" (first at a.xml:1:`},
		{"yaml keys on one line", "a.yaml", yaml, fmt.Sprintf("a.yaml:1:%d", len(yaml)-len(" t7: dup}]\n")+2), `duplicate key "t7" (first at a.yaml:1:`},
		{"json keys on one line", "a.json", json, fmt.Sprintf("a.json:1:%d", len(json)-len(`"t7":"dup"}}]}`)+1), `duplicate key "t7" (first at a.json:1:`},
	} {
		runHostile(t, c, Limits{})
	}
	// Many entities on one line, each with an error pointing back.
	var b strings.Builder
	b.WriteString("<scene>")
	for i := range 20_000 {
		fmt.Fprintf(&b, "<entity id=\"e%d\" p=\"1\" p=\"2\"/>", i%10)
	}
	b.WriteString("</scene>")
	start := time.Now()
	_, err := Read("a.xml", []byte(b.String()), Limits{MaxErrors: 1000})
	if list, ok := err.(ErrorList); !ok || len(list) != 1001 {
		t.Errorf("got %d errors, want 1000 and the limit", len(list))
	}
	if d := time.Since(start); d > hostileTimeout {
		t.Errorf("1,000 errors on one line took %v", d)
	}
}

// TestHostileDepth: nesting bombs are refused in time, in every format.
func TestHostileDepth(t *testing.T) {
	deep := 100_000
	for _, c := range []hostileCase{
		{"yaml flow", "a.yaml", "entities: " + strings.Repeat("[", deep) + strings.Repeat("]", deep) + "\n", "a.yaml:1:1", "exceeded max depth"},
		{"yaml block", "a.yaml", strings.Repeat("- ", deep) + "x\n", "a.yaml:1:1", "exceeded max depth"},
		{"json", "a.json", strings.Repeat("[", deep), "a.json:1:1001", "nested too deeply"},
	} {
		runHostile(t, c, Limits{})
	}
	// Deep but within the limits: entities 200 levels deep read without
	// yaml.v3.
	var b bytes.Buffer
	b.WriteString("entities:\n")
	for i := range 200 {
		ind := strings.Repeat("  ", 2*i)
		fmt.Fprintf(&b, "%s  - id: e%d\n%s    children:\n", ind, i, ind)
	}
	if _, res := yamlsyntax.Parse(b.Bytes(), nil); res.State != yamlsyntax.OK {
		t.Errorf("200 levels of entities: parser state %d", res.State)
	}
	runHostile(t, hostileCase{name: "200 levels", file: "a.yaml", src: b.String()}, Limits{})
}
