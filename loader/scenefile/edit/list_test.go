package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
	"github.com/scenecs/scenecs/registry"
)

// editBag has an array beside a string, for lists in a mapping.
type editBag struct {
	Items []string `scene:"items"`
	Label string   `scene:"label"`
}

// newListEditRegistry is newEditRegistry with bag and tags (a single
// array).
func newListEditRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newEditRegistry(tb)
	if _, err := registry.Register(reg, "bag", registry.Definition[editBag]{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.Register(reg, "tags", registry.Definition[[]string]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

const listEditYAML = `entities:
  - id: flow
    tags: [a, "b c"]   # kept
    bag: {items: [x, 'y'], label: hi}
  - id: block
    tags:
      - one   # first
      - two
    bag:
      items:
        - p
        - q
      label: lo
  - {id: inline, tags: [m, n], bag: {items: [], label: z}}
`

var listEditCases = []editCase{
	{"whole list, in place", "flow", "tags", "a, d", false, `[a, "b c"]`, `[a, "d"]`},
	{"whole list, fewer items", "flow", "tags", "x", false, `[a, "b c"]`, `[x]`},
	{"whole list, emptied", "flow", "tags", "", false, `[a, "b c"]`, `[]`},
	{"whole list, quotes where needed", "flow", "tags", "a, b: c, d]", false, `[a, "b c"]`, `[a, "b: c", "d]"]`},
	{"list in a mapping, in place", "flow", "bag", "items: x, z", false, `'y'`, `'z'`},
	{"list in a mapping, more items", "flow", "bag", "items: x, y, w", false, `[x, 'y']`, `[x, y, w]`},
	{"text beside a list", "flow", "bag", "label: yo", false, "label: hi", "label: yo"},
	{"both at once", "flow", "bag", "label: yo; items: k", false, "{items: [x, 'y'], label: hi}", "{items: [k], label: yo}"},
	{"block list, in place, comment kept", "block", "tags", "one, 2", false, "      - two\n", "      - 2\n"},
	{"block list, more items", "block", "tags", "one, two, three", false, "    tags:\n      - one   # first\n      - two\n", "    tags: [one, two, three]\n"},
	{"block list in a block mapping", "block", "bag", "items: p, q, r", false, "      items:\n        - p\n        - q\n", "      items: [p, q, r]\n"},
	{"text beside a block list", "block", "bag", "label: hi", false, "label: lo", "label: hi"},
	{"flow entity, list", "inline", "tags", "m", false, "tags: [m, n]", "tags: [m]"},
	{"flow entity, empty list filled", "inline", "bag", "items: e, f", false, "items: []", "items: [e, f]"},
	{"remove a list", "flow", "tags", "", true, "    tags: [a, \"b c\"]   # kept\n", ""},
	{"remove a block list", "block", "tags", "", true, "    tags:\n      - one   # first\n      - two\n", ""},
}

// TestEditLists: a value written as a list (a component's whole value,
// a property of a mapping) is set as a list, item by item in place when
// it keeps its number of items, else written anew; a property written
// as text beside a list is set as text, the list untouched; every
// result reads back as asked (see runListEditCase).
func TestEditLists(t *testing.T) {
	for _, v := range fileVariants {
		for _, c := range listEditCases {
			t.Run(v.name+"/"+c.name, func(t *testing.T) {
				src := v.conv(listEditYAML)
				if v.bom {
					src = "\ufeff" + src
				}
				runListEditCase(t, src, c, v.conv(c.from), v.conv(c.to))
			})
		}
	}
}

// runListEditCase is runEditCase with the list registry.
func runListEditCase(t *testing.T, src string, c editCase, from, to string) {
	t.Helper()
	reg := newListEditRegistry(t)
	doc, err := scenefile.Read("l.yaml", []byte(src), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ent := findEntity(doc, c.id)
	comp, _ := reg.Component(c.comp)
	var out []byte
	if c.remove {
		out, err = live.EditRemove([]byte(src), ent, c.comp)
	} else {
		out, err = live.EditComponent([]byte(src), ent, c.comp, comp.Schema, c.attr)
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(src, from); n != 1 {
		t.Fatalf("the case's text %q occurs %d times in the file", from, n)
	}
	if want := strings.Replace(src, from, to, 1); string(out) != want {
		t.Fatalf("edited file:\n%s\nwant:\n%s", out, want)
	}
	checkReadsBack(t, reg, "l.yaml", out, c)
}

// TestEditListsVerified: an edit of a list is made right or refused
// with ErrCannotEdit, never written wrong: an item written as a block
// scalar is rewritten in place as a quoted one; a list in YAML the
// editor leaves alone (a tag: the file is read by yaml.v3, without
// spans) is refused; and the read-back, which compares lists, refuses
// an edit that would have turned another component's list into text.
func TestEditListsVerified(t *testing.T) {
	reg := newListEditRegistry(t)
	tags, _ := reg.Component("tags")
	src := "entities:\n  - id: b\n    tags:\n      - |-\n        one\n      - two\n"
	doc, err := scenefile.Read("l.yaml", []byte(src), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := live.EditComponent([]byte(src), findEntity(doc, "b"), "tags", tags.Schema, "x y, two")
	if want := strings.Replace(src, "|-\n        one", `"x y"`, 1); err != nil || string(out) != want {
		t.Fatalf("block scalar item: %v\n%s\nwant\n%s", err, out, want)
	}
	checkReadsBack(t, reg, "l.yaml", out, editCase{id: "b", comp: "tags", attr: "x y, two"})
	tagged := []byte("entities:\n  - id: b\n    tags: [!!str a, b]\n")
	td, err := scenefile.Read("l.yaml", tagged, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := live.EditComponent(tagged, findEntity(td, "b"), "tags", tags.Schema, "c"); !errors.Is(err, edit.ErrCannotEdit) || out != nil {
		t.Fatalf("a list in YAML left to yaml.v3: %v\n%s", err, out)
	}
	// The read-back tells a list from its text.
	before := []byte("entities:\n  - id: a\n    label: {text: a}\n  - id: b\n    tags: [p, q]\n")
	after := []byte("entities:\n  - id: a\n    label: {text: z}\n  - id: b\n    tags: \"p, q\"\n")
	bd, _ := scenefile.Read("l.yaml", before, scenefile.Limits{})
	err = edit.Verify(before, after, findEntity(bd, "a"), "label", func(old, new []*scenefile.ComponentSpec) error { return nil })
	if !errors.Is(err, edit.ErrCannotEdit) || !strings.Contains(err.Error(), "changed") {
		t.Fatalf("a list turned into text passed the read-back: %v", err)
	}
}

// TestDropListProperty: reverting a property written as a list (flow or
// block) takes its key and list out of the mapping, the text property
// beside it left as it was.
func TestDropListProperty(t *testing.T) {
	sch := edit.Schema{Props: []string{"items", "label"}}
	doc, err := scenefile.Read("l.yaml", []byte(listEditYAML), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ id, from, to string }{
		{"flow", "{items: [x, 'y'], label: hi}", "{label: hi}"},
		{"block", "      items:\n        - p\n        - q\n", ""},
	} {
		out, err := edit.DropProperty([]byte(listEditYAML), findEntity(doc, tc.id), "bag", sch, 0)
		if want := strings.Replace(listEditYAML, tc.from, tc.to, 1); err != nil || string(out) != want {
			t.Errorf("%s: %v\n%s\nwant\n%s", tc.id, err, out, want)
		}
	}
}
