package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// stringsDecls declares the string components of the exact-string tests:
// a single-property string with a default, and a component with a string
// property and another one.
const stringsDecls = "components:\n  label: {type: string, default: dflt}\n  note: {text: {type: string, default: dflt}, size: {type: int}}\n  mode: {type: string, default: walk, oneOf: [walk, run]}\n"

// exactStrings are values that a quoted string keeps exactly.
var exactStrings = []string{
	" ", "", "  padded  ", "a;b", "x: y", "a; b: c;", `quote"s`, "it's", "new\nline", "\ttab", "ünï ✓", "trailing\n",
	"<&>", "null", "yes", "#hash", "- dash", "\r\n",
}

func valueOf(t *testing.T, reg *registry.Registry, id, comp string, prop int) any {
	t.Helper()
	e, ok := reg.EntityByID(id)
	if !ok {
		t.Fatalf("no entity %q", id)
	}
	vs, err := reg.Values(e, comp)
	if err != nil {
		t.Fatalf("%s.%s: %v", id, comp, err)
	}
	return vs[prop]
}

// TestExactStrings: a quoted string value is kept as written, white space
// and all, in YAML (double and single quotes, mappings), XML attributes
// (and name.property attributes) and JSON strings; an empty quoted value
// is the empty string, not the default.
func TestExactStrings(t *testing.T) {
	for _, s := range exactStrings {
		q := fmt.Sprintf("%q", s) // a Go quoted string is a YAML double-quoted one here
		xml := xmlQuoted(s)
		js := jsonQuoted(s)
		srcs := map[string]string{
			"a.yaml": stringsDecls + "entities:\n  - {id: a, label: " + q + ", note: {text: " + q + "}}\n",
			"b.xml": "<scene><components><component name=\"label\" type=\"string\" default=\"dflt\"/>" +
				"<component name=\"note\"><property name=\"text\" type=\"string\" default=\"dflt\"/><property name=\"size\" type=\"int\"/></component>" +
				"</components><entity id=\"a\" label=" + xml + " note.text=" + xml + "/></scene>",
			"c.json": `{"components":{"label":{"type":"string","default":"dflt"},"note":{"text":{"type":"string","default":"dflt"},"size":{"type":"int"}}},` +
				`"entities":[{"id":"a","path":"a","parent":null,"class":[],"components":{"label":` + js + `,"note":{"text":` + js + `,"size":0}}}]}`,
		}
		if !strings.ContainsAny(s, "\n\r\t\\") {
			srcs["d.yaml"] = stringsDecls + "entities:\n  - id: a\n    label: '" + strings.ReplaceAll(s, "'", "''") + "'\n    note:\n      text: '" + strings.ReplaceAll(s, "'", "''") + "'\n"
		}
		for file, src := range srcs {
			reg := newTestRegistry(t)
			if _, err := LoadBytes(reg, file, []byte(src), Options{}); err != nil {
				t.Errorf("%s with %q: %v\n%s", file, s, err, src)
				continue
			}
			if got := valueOf(t, reg, "a", "label", 0); got != s {
				t.Errorf("%s: label = %q, want %q", file, got, s)
			}
			if got := valueOf(t, reg, "a", "note", 0); got != s {
				t.Errorf("%s: note.text = %q, want %q", file, got, s)
			}
			// And the World round-trips in every format.
			for _, w := range writers {
				var b bytes.Buffer
				if err := w.write(&b, reg); err != nil {
					t.Fatal(err)
				}
				reg2 := newTestRegistry(t)
				if _, err := LoadBytes(reg2, "again."+w.ext, b.Bytes(), Options{}); err != nil {
					t.Errorf("%s with %q as %s: %v\n%s", file, s, w.ext, err, b.String())
					continue
				}
				if msg := worldDiff(reg, reg2); msg != "" {
					t.Errorf("%s with %q as %s: %s\n%s", file, s, w.ext, msg, b.String())
				}
			}
		}
	}
}

// TestUnquotedStrings: `label:` takes the default, an attribute string
// trims its values, an enumerated value is compared without its spaces,
// and a YAML block is taken as YAML reads it (its final line break kept
// unless written |-).
func TestUnquotedStrings(t *testing.T) {
	src := stringsDecls + "entities:\n  - {id: a, label: }\n  - {id: b, label: plain text}\n  - {id: c, note: \"text:  x ; size: 2\"}\n  - {id: d, mode: \" run \"}\n" +
		"  - id: e\n    label: |\n      block\n  - id: f\n    label: |-\n      block\n"
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "a.yaml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, comp string
		want     any
	}{{"a", "label", "dflt"}, {"b", "label", "plain text"}, {"c", "note", "x"}, {"d", "mode", "run"}, {"e", "label", "block\n"}, {"f", "label", "block"}} {
		if got := valueOf(t, reg, c.id, c.comp, 0); got != c.want {
			t.Errorf("%s.%s = %q, want %q", c.id, c.comp, got, c.want)
		}
	}
}

// TestExportStringsNeedingAMapping: a string that an attribute string
// cannot hold is exported as a mapping (YAML) or name.property attributes
// (XML), and a single-property string left at a non-empty default is
// written out, because an empty XML attribute is the empty string.
func TestExportStringsNeedingAMapping(t *testing.T) {
	src := stringsDecls + "entities:\n  - {id: a, note: {text: \"a; b \", size: 3}, label: }\n"
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "a.yaml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	var y, x bytes.Buffer
	if err := scenefile.WriteYAML(&y, export.Export(reg, export.Options{})); err != nil {
		t.Fatal(err)
	}
	if err := scenefile.WriteXML(&x, export.Export(reg, export.Options{})); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(y.String(), `note: {text: "a; b ", size: 3}`) || !strings.Contains(y.String(), "label: dflt") {
		t.Errorf("YAML export:\n%s", y.String())
	}
	if !strings.Contains(x.String(), `note.text="a; b " note.size="3"`) || !strings.Contains(x.String(), `label="dflt"`) {
		t.Errorf("XML export:\n%s", x.String())
	}
}

// TestXMLPropertyAttributes: name.property attributes give one property
// each, merged over the component's attribute string; a bad property name
// is reported at the property.
func TestXMLPropertyAttributes(t *testing.T) {
	src := "<scene><components><component name=\"note\"><property name=\"text\" type=\"string\"/><property name=\"size\" type=\"int\"/></component></components>" +
		"<entity id=\"a\" note=\"text: x; size: 2\" note.text=\" y \"/></scene>"
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "a.xml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	if got, size := valueOf(t, reg, "a", "note", 0), valueOf(t, reg, "a", "note", 1); got != " y " || size != 2 {
		t.Errorf("note = %q, %v", got, size)
	}
	_, err := scenefile.Read("b.xml", []byte("<scene><entity note.9x=\"1\"/></scene>"), scenefile.Limits{})
	if err == nil || !strings.HasPrefix(err.Error(), "b.xml:1:21: invalid property name \"9x\"") {
		t.Errorf("err = %v", err)
	}
}

// xmlQuoted returns s as a double-quoted XML attribute value, with the
// characters an attribute cannot hold as they are written as references.
func xmlQuoted(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#10;", "\r", "&#13;", "\t", "&#9;")
	return `"` + r.Replace(s) + `"`
}

// jsonQuoted returns s as a JSON string.
func jsonQuoted(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
