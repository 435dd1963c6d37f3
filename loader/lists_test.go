package loader

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Crowd is a system with an array setting, for lists in the scene's
// settings.
type Crowd struct {
	Names []string `scene:"names"`
}

// newListRegistry is newTestRegistry with the crowd system.
func newListRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newTestRegistry(tb)
	if _, err := registry.RegisterSystem(reg, "crowd", registry.SystemDefinition[Crowd]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// listScene writes arrays as lists in each place a value is read (see
// the plan's tests), and one as text, which dumps keep as text.
const listScene = `scene:
  crowd: {names: [ann, bob]}
components:
  bag: {items: {type: array, default: [a, b, c]}, label: {type: string}}
  tags2: {type: array}
  texts: {type: array, default: "u, v"}
mixins:
  m: {tags2: [from, mixin]}
prefabs:
  box:
    bag: {items: [in, prefab]}
    children:
      - id: lid
        tags2: [lid]
entities:
  - id: e
    bag: {items: [x, "y z"], label: hi}
    tags2: [p, q]
    texts: w
    animation__a: {property: position.y, to: 3, startEvents: [open, go]}
  - id: b
    mixin: m
    bag:
      items:
        - one
        - two
  - id: i
    prefab: box
    parts:
      lid: {tags2: []}
`

// TestListsDumpAsWritten: a scene's export given its plan's Lists writes
// the values (and defaults) written as lists as lists, in YAML and in a
// JSON dump's sections, and the others as text; XML, which has no lists,
// writes their text. Each dump loads back to the same World, and dumping
// that again in its format gives the same bytes.
func TestListsDumpAsWritten(t *testing.T) {
	reg := newListRegistry(t)
	s, err := LoadBytes(reg, "l.yaml", []byte(listScene), Options{})
	if err != nil {
		t.Fatal(err)
	}
	state := dump(t, reg)
	opt := export.Options{Lists: s.Plan.Lists}
	var y bytes.Buffer
	if err := scenefile.WriteYAML(&y, export.Export(reg, opt)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"crowd:\n    names: [ann, bob]\n",
		"items: {type: array, default: [a, b, c]}",
		`texts: {type: array, default: "u, v"}`,
		"bag: {items: [in, prefab]}",
		"tags2: [lid]",
		"bag: {items: [x, y z], label: hi}",
		"tags2: [p, q]",
		"texts: w\n",
		"animation__a: {property: position.y, to: 3, startEvents: [open, go]}",
		"tags2: [from, mixin]",
		"bag: {items: [one, two]}",
		"lid:\n        tags2: []",
	} {
		if !strings.Contains(y.String(), want) {
			t.Errorf("the YAML dump lacks %q:\n%s", want, y.String())
		}
	}
	var j bytes.Buffer
	if err := export.WriteJSON(&j, reg, opt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"crowd":{"names":["ann","bob"]}`, `"default":["a","b","c"]`, `"default":"u, v"`, `"bag":{"items":["in","prefab"]}`} {
		if !strings.Contains(j.String(), want) {
			t.Errorf("the JSON dump lacks %s:\n%s", want, j.String())
		}
	}
	var x bytes.Buffer
	if err := scenefile.WriteXML(&x, export.Export(reg, opt)); err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		file string
		b    []byte
	}{{"again.yaml", y.Bytes()}, {"again.json", j.Bytes()}, {"again.xml", x.Bytes()}} {
		reg2 := newListRegistry(t)
		s2, err := LoadBytes(reg2, d.file, d.b, Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", d.file, err, d.b)
		}
		if got := dump(t, reg2); got != state {
			t.Errorf("%s: the World changed:\n%s", d.file, firstDiff(state, got))
		}
		var b bytes.Buffer
		opt2 := export.Options{Lists: s2.Plan.Lists}
		switch d.file {
		case "again.yaml":
			err = scenefile.WriteYAML(&b, export.Export(reg2, opt2))
		case "again.json":
			err = export.WriteJSON(&b, reg2, opt2)
		default:
			continue // it lost the lists: a setting is written another way
		}
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(d.b) {
			t.Errorf("%s: dumped again, it differs:\n%s", d.file, firstDiff(string(d.b), b.String()))
		}
	}
}

// TestListsDumpWithoutLists: an export not given the Lists writes
// arrays as A-Frame's text, as it always did, which loads back the same.
func TestListsDumpWithoutLists(t *testing.T) {
	reg := newListRegistry(t)
	if _, err := LoadBytes(reg, "l.yaml", []byte(listScene), Options{}); err != nil {
		t.Fatal(err)
	}
	var y bytes.Buffer
	if err := scenefile.WriteYAML(&y, export.Export(reg, export.Options{})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(y.String(), "[") || !strings.Contains(y.String(), `tags2: "p, q"`) {
		t.Errorf("lists without Lists:\n%s", y.String())
	}
	reg2 := newListRegistry(t)
	if _, err := LoadBytes(reg2, "again.yaml", y.Bytes(), Options{}); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, reg), dump(t, reg2); a != b {
		t.Errorf("the World changed:\n%s", firstDiff(a, b))
	}
}

// TestListsDumpItemWithComma: a value set at run time whose item holds a
// ',' is dumped as a list all the same, and loading it back says why it
// cannot be an array's item, at the item, rather than splitting it.
func TestListsDumpItemWithComma(t *testing.T) {
	reg := newListRegistry(t)
	s, err := LoadBytes(reg, "l.yaml", []byte(listScene), Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := reg.EntityByID("e")
	if err := reg.SetPatch(e, "tags2", registry.Patch{{Index: 0, Value: []string{"a,b"}}}, registry.Merge); err != nil {
		t.Fatal(err)
	}
	var y bytes.Buffer
	if err := scenefile.WriteYAML(&y, export.Export(reg, export.Options{Lists: s.Plan.Lists})); err != nil {
		t.Fatal(err)
	}
	_, err = LoadBytes(newListRegistry(t), "again.yaml", y.Bytes(), Options{})
	if err == nil || !strings.Contains(err.Error(), `tags2: list item "a,b" holds a ','`) {
		t.Errorf("got %v\n%s", err, y.String())
	}
}
