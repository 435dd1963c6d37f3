package plan_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
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

// listScene writes arrays as lists in each place a value is read: a
// setting, declarations' defaults (typed, and untyped: an array), a
// mixin, a prefab, a part, an entity (whole value, mapping property,
// block sequence, a built-in's property), and an empty list.
const listScene = `scene:
  crowd: {names: [ann, bob]}
components:
  bag: {items: {type: array, default: [a, b, c]}, label: {type: string}}
  tags2: {type: array}
  loose: {v: {default: [p, q]}}
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
    loose: {}
    animation: {property: position.y, to: 3, startEvents: [open, go]}
  - id: b
    mixin: m
    bag:
      items:
        - one
        - two
  - id: d
    bag: {label: defaults}
  - id: i
    prefab: box
    parts:
      lid: {tags2: []}
`

// TestListsCompile: every list of listScene gives its property the
// array of its items, and the plan records which properties the scene
// writes as lists.
func TestListsCompile(t *testing.T) {
	reg := newListRegistry(t)
	s, err := loader.LoadBytes(reg, "l.yaml", []byte(listScene), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	value := func(id, comp string, prop int) string {
		t.Helper()
		e, ok := reg.EntityByID(id)
		if !ok {
			t.Fatalf("no entity %q", id)
		}
		vs, err := reg.Values(e, comp)
		if err != nil {
			t.Fatalf("%s %s: %v", id, comp, err)
		}
		return fmt.Sprintf("%q", vs[prop])
	}
	for _, tc := range []struct{ what, got, want string }{
		{"mapping", value("e", "bag", 0), `["x" "y z"]`},
		{"whole value", value("e", "tags2", 0), `["p" "q"]`},
		{"untyped default", value("e", "loose", 0), `["p" "q"]`},
		{"built-in", value("e", "animation", indexOf(t, reg, "animation", "startEvents")), `["open" "go"]`},
		{"mixin", value("b", "tags2", 0), `["from" "mixin"]`},
		{"block sequence", value("b", "bag", 0), `["one" "two"]`},
		{"declared default", value("d", "bag", 0), `["a" "b" "c"]`},
		{"prefab", value("i", "bag", 0), `["in" "prefab"]`},
		{"part", value("i/lid", "tags2", 0), `[]`},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	if sys, _ := reg.System("crowd"); fmt.Sprintf("%q", sys.Values()[0]) != `["ann" "bob"]` {
		t.Errorf("setting: %q", sys.Values()[0])
	}
	want := scenefile.Lists{
		{Component: "crowd", Property: "names"}: true, {Component: "bag", Property: "items"}: true,
		{Component: "loose", Property: "v"}: true, {Component: "tags2"}: true, {Component: "animation", Property: "startEvents"}: true,
	}
	if fmt.Sprint(s.Plan.Lists) != fmt.Sprint(want) {
		t.Errorf("Plan.Lists = %v, want %v", s.Plan.Lists, want)
	}
	// A scene that writes no list records none.
	s2, err := loader.LoadBytes(newListRegistry(t), "t.yaml", []byte("entities:\n  - animation: {property: position.y, startEvents: \"open, go\"}\n"), loader.Options{})
	if err != nil || s2.Plan.Lists != nil {
		t.Errorf("no lists: %v, %v", s2.Plan.Lists, err)
	}
}

// indexOf returns the index of property prop of component comp.
func indexOf(t *testing.T, reg *registry.Registry, comp, prop string) int {
	t.Helper()
	c, _ := reg.Component(comp)
	i, ok := c.Schema.Lookup(prop)
	if !ok {
		t.Fatalf("%s has no %s", comp, prop)
	}
	return i
}

// TestListErrors: a list where no list is written, and an item an
// array's text cannot say, are errors at the value or at the item, in
// every place a list is read; so are errors of a list's items' values.
func TestListErrors(t *testing.T) {
	const decls = "components:\n  bag: {items: {type: array}, label: {type: string}}\n  tags2: {type: array}\n  pick: {type: array, oneOf: [a, b]}\n  flag: {}\n"
	for _, tc := range []struct {
		name, file, src string
		want            []string
	}{
		{"vector", "a.yaml", "entities:\n  - position: [1, 2, 3]\n",
			[]string{`2:15: position: a list is written only for an array property, not for a value of type vec3`}},
		{"string in a mapping", "a.yaml", decls + "entities:\n  - bag: {items: [a], label: [b]}\n",
			[]string{`7:30: bag: property "label": a list is written only for an array property, not for a value of type string`}},
		{"several properties", "a.yaml", decls + "entities:\n  - bag: [a, b]\n",
			[]string{`7:10: bag: a list is written only for an array property, and bag has several properties: write them as a mapping (bag: {items: [a, b]})`}},
		{"tag", "a.yaml", decls + "entities:\n  - flag: []\n",
			[]string{`7:11: flag: a list is written only for an array property, and flag has no properties`}},
		{"axis", "a.yaml", "entities:\n  - position: {x: [1]}\n",
			[]string{`2:19: position: property "x": a list is written only for an array property, not for an axis of a vector`}},
		{"item with a comma", "a.yaml", decls + "entities:\n  - tags2: [a, \"b,c\"]\n",
			[]string{`7:16: tags2: list item "b,c" holds a ',', which separates the items of an array (its text is "a, b,c"): an item cannot hold one`}},
		{"item with spaces", "a.yaml", decls + "entities:\n  - bag: {items: [\" a\", b]}\n",
			[]string{`7:19: bag: property "items": list item " a" starts or ends with white space, which the items of an array cannot keep (they are trimmed)`}},
		{"one empty item", "a.yaml", decls + "entities:\n  - tags2: [\"\"]\n",
			[]string{`7:13: tags2: a list of one empty item is not an array its text can say (the empty text is the empty array): write [] for an empty array`}},
		{"oneOf, at the item", "a.yaml", decls + "entities:\n  - pick: [a, b, \"c\"]\n",
			[]string{`7:18: pick: invalid value "c": expected one of a, b`}},
		{"oneOf in a block sequence", "a.yaml", decls + "entities:\n  - bag: {}\n    pick:\n      - b\n      - d\n",
			[]string{`10:9: pick: invalid value "d": expected one of a, b`}},
		{"mixin", "a.yaml", decls + "mixins:\n  m: {position: [1]}\n",
			[]string{`7:17: position: a list is written only for an array property, not for a value of type vec3`}},
		{"prefab", "a.yaml", decls + "prefabs:\n  p: {tags2: [\"x,y\"]}\nentities:\n  - prefab: p\n",
			[]string{`7:15: tags2: list item "x,y" holds a ',', which separates the items of an array (its text is "x,y"): an item cannot hold one`}},
		{"part", "a.yaml", decls + "prefabs:\n  p:\n    children:\n      - id: c\nentities:\n  - prefab: p\n    parts:\n      c: {scale: [2]}\n",
			[]string{`13:18: scale: a list is written only for an array property, not for a value of type vec3`}},
		{"setting", "a.yaml", "scene:\n  physics: {step: [1]}\n",
			[]string{`2:19: physics: property "step": a list is written only for an array property, not for a value of type number`}},
		{"declaration", "a.yaml", "components:\n  n: {type: number, default: [1]}\n  t: {type: array, default: [a, \" b\"]}\n",
			[]string{`2:30: component "n": default: a list is written only for an array property, not for a value of type number`,
				`3:33: component "t": default: list item " b" starts or ends with white space, which the items of an array cannot keep (they are trimmed)`}},
		{"schedule keys", "a.yaml", "scene:\n  physics: {_phase: [update], _reads: [position, \"a b\"]}\n",
			[]string{`2:21: scene: physics: _phase: a list is written only for the keys that list names (_before, _after, _reads, _writes)`,
				`2:50: scene: physics: _reads: list item "a b" is not one name`}},
		{"json", "a.json", `{"entities":[{"path":"0","parent":null,"class":[],"components":{"position":[1,2,3],"animation":{"property":"position.y","startEvents":["a",", b"]}}}]}`,
			[]string{`1:76: position: a list is written only for an array property, not for a value of type vec3`,
				`1:140: animation: property "startEvents": list item ", b" holds a ',', which separates the items of an array (its text is "a, , b"): an item cannot hold one`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := newListRegistry(t)
			_, err := loader.LoadBytes(reg, tc.file, []byte(tc.src), loader.Options{})
			want := tc.file + ":" + strings.Join(tc.want, "\n"+tc.file+":")
			if err == nil || err.Error() != want {
				t.Errorf("got\n%v\nwant\n%s", err, want)
			}
			if reg.World().Len() != 0 {
				t.Error("a failed load built entities")
			}
		})
	}
}

// TestListsNotCached: a list whose text is that of an attribute string
// met before is checked all the same (compiling remembers the patches of
// attribute strings, not of lists).
func TestListsNotCached(t *testing.T) {
	src := "components:\n  tags2: {type: array}\nentities:\n  - tags2: \"a,b\"\n  - tags2: [\"a,b\"]\n"
	_, err := loader.LoadBytes(newListRegistry(t), "a.yaml", []byte(src), loader.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), "a.yaml:5:13: tags2: list item \"a,b\" holds a ','") {
		t.Errorf("got %v", err)
	}
}

// TestParseValueList: ParseValue (what save-back checks edits with)
// parses a list as Compile does, and refuses what Compile refuses.
func TestParseValueList(t *testing.T) {
	doc, err := scenefile.Read("a.yaml", []byte("entities:\n  - {tags: [a, b], bad: [\"a,b\"], pos: [1]}\n"), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	arr, err := schema.NewSchema([]schema.PropSpec{{Type: "array"}}, schema.NewTypes())
	if err != nil {
		t.Fatal(err)
	}
	vec, _ := schema.NewSchema([]schema.PropSpec{{Type: "vec3"}}, schema.NewTypes())
	cs := doc.Entities[0].Components
	if p, err := plan.ParseValue(cs[0], arr); err != nil || fmt.Sprintf("%q", p[0].Value) != `["a" "b"]` {
		t.Errorf("tags: %v %v", p, err)
	}
	if _, err := plan.ParseValue(cs[1], arr); err == nil || !strings.Contains(err.Error(), "a.yaml:2:26: ") {
		t.Errorf("bad: %v", err)
	}
	if _, err := plan.ParseValue(cs[2], vec); err == nil || !strings.Contains(err.Error(), "a.yaml:2:39: pos: a list is written only for an array property") {
		t.Errorf("pos: %v", err)
	}
}
