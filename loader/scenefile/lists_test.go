package scenefile

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// listScene writes array values as lists in every place a component is
// read: a setting, a declaration's default, a mixin, a prefab, a part
// and an entity (its whole value, a property in a mapping, a block
// sequence), with quoted items and an empty list.
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
    bag: {items: [x, "y z", 'it''s'], label: hi}
    tags2: [p, "q\tr"]
  - id: b
    mixin: m
    bag:
      items:
        - one
        - "two"
  - id: i
    prefab: box
    parts:
      lid: {tags2: []}
`

// TestReadLists: a list is read as a ListValue wherever a component's
// value, a property in a mapping or a declaration's default is read,
// with Text (Value, Default) its items joined by ", ".
func TestReadLists(t *testing.T) {
	doc, err := Read("l.yaml", []byte(listScene), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	items := func(l *ListValue) string {
		if l == nil {
			return "<nil>"
		}
		return fmt.Sprintf("%q", l.Texts())
	}
	check := func(what string, l *ListValue, text, wantText, want string) {
		t.Helper()
		if got := items(l); got != want || text != wantText {
			t.Errorf("%s: items %s text %q, want %s %q", what, got, text, want, wantText)
		}
	}
	sys := doc.Systems[0]
	check("setting", sys.Map[0].List, sys.Map[0].Value, "ann, bob", `["ann" "bob"]`)
	items0 := doc.Decls[0].Props[0]
	check("default", items0.DefaultList, items0.Default, "a, b, c", `["a" "b" "c"]`)
	if !items0.HasDefault || items0.DefaultPos != (Pos{"l.yaml", 4, 39}) || items0.DefaultList.Items[1].Pos != (Pos{"l.yaml", 4, 43}) {
		t.Errorf("default: has %v at %v, item 1 at %v", items0.HasDefault, items0.DefaultPos, items0.DefaultList.Items[1].Pos)
	}
	check("untyped default", doc.Decls[2].Props[0].DefaultList, doc.Decls[2].Props[0].Default, "p, q", `["p" "q"]`)
	if doc.Decls[0].Props[1].DefaultList != nil {
		t.Errorf("a scalar default read as a list")
	}
	check("mixin", doc.Mixins[0].Components[0].List, doc.Mixins[0].Components[0].Text, "from, mixin", `["from" "mixin"]`)
	body := doc.Prefabs[0].Body
	check("prefab", body.Components[0].Map[0].List, body.Components[0].Map[0].Value, "in, prefab", `["in" "prefab"]`)
	check("prefab child", body.Children[0].Components[0].List, body.Children[0].Components[0].Text, "lid", `["lid"]`)
	e := doc.Entities[0]
	check("mapping", e.Components[0].Map[0].List, e.Components[0].Map[0].Value, "x, y z, it's", `["x" "y z" "it's"]`)
	if e.Components[0].Map[1].List != nil || e.Components[0].Map[1].Value != "hi" {
		t.Errorf("scalar beside a list: %+v", e.Components[0].Map[1])
	}
	c := e.Components[1]
	check("whole value", c.List, c.Text, "p, q\tr", `["p" "q\tr"]`)
	if c.Kind != ValueText || !c.Exact {
		t.Errorf("whole value: kind %v exact %v", c.Kind, c.Exact)
	}
	check("block sequence", doc.Entities[1].Components[0].Map[0].List, doc.Entities[1].Components[0].Map[0].Value, "one, two", `["one" "two"]`)
	part := doc.Entities[2].Parts()[0].Body.Components[0]
	check("part", part.List, part.Text, "", `[]`)
	if part.Kind != ValueText {
		t.Errorf("an empty list is %v, want text (an empty array, not the defaults)", part.Kind)
	}
}

// TestListTextAt: a position in the text of a list value (its items
// joined by ", ") is placed in the item it falls in, through quotes and
// escapes, in YAML (flow and block sequences) and JSON; a separator
// counts with the item after it.
func TestListTextAt(t *testing.T) {
	doc, err := Read("l.yaml", []byte(listScene), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	e := doc.Entities[0]
	bag, tags := e.Components[0], e.Components[1]
	// bag: {items: [x, "y z", 'it''s'], label: hi} on line 17.
	// text "x, y z, it's": x at 0, "y z" at 3, "it's" at 8; the start
	// of a quoted item is its quote, as for any quoted value.
	for _, tc := range []struct {
		off  int
		want Pos
	}{
		{0, Pos{"l.yaml", 17, 19}},
		{1, Pos{"l.yaml", 17, 20}}, // the end of x
		{2, Pos{"l.yaml", 17, 22}}, // the separator: the next item
		{3, Pos{"l.yaml", 17, 22}},
		{5, Pos{"l.yaml", 17, 25}},
		{8, Pos{"l.yaml", 17, 29}},
		{11, Pos{"l.yaml", 17, 34}}, // 's' after the doubled quote
	} {
		if got := bag.ValueAt(0, tc.off); got != tc.want {
			t.Errorf("ValueAt(0, %d) = %v, want %v", tc.off, got, tc.want)
		}
	}
	// tags2: [p, "q\tr"] on line 18: 'r' is after the escape.
	if got, want := tags.TextAt(5), (Pos{"l.yaml", 18, 20}); got != want {
		t.Errorf("TextAt(5) = %v, want %v", got, want)
	}
	// The block sequence of entity b: "two" on line 24, 'w' at 6.
	b := doc.Entities[1].Components[0]
	if got, want := b.ValueAt(0, 6), (Pos{"l.yaml", 24, 13}); got != want {
		t.Errorf("block ValueAt(0, 6) = %v, want %v", got, want)
	}
	// An empty list: at the value.
	part := doc.Entities[2].Parts()[0].Body.Components[0]
	if got := part.TextAt(0); got != part.ValuePos() {
		t.Errorf("empty list TextAt(0) = %v, want the value's %v", got, part.ValuePos())
	}
	js := `{"entities":[{"id":"j","path":"j","parent":null,"class":[],"components":{"tags2":["a","b\u00e9c",3]}}]}`
	jd, err := Read("l.json", []byte(js), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	jc := jd.Entities[0].Components[0]
	// text "a, béc, 3": 'c' at 6 (é is 2 bytes), written after the escape.
	if jc.Text != "a, béc, 3" || jc.TextAt(6) != (Pos{"l.json", 1, 95}) || jc.TextAt(8) != (Pos{"l.json", 1, 98}) {
		t.Errorf("JSON list %q: TextAt(6) = %v, TextAt(8) = %v", jc.Text, jc.TextAt(6), jc.TextAt(8))
	}
}

// TestReadJSONLists: a JSON dump's arrays are lists wherever its
// sections hold component values and declarations; an item that is not
// a string, number or boolean is an error at the item.
func TestReadJSONLists(t *testing.T) {
	js := `{"scene":{"crowd":{"names":["ann","bob"]}},` +
		`"components":{"tags2":{"type":"array","default":["a","b"]}},` +
		`"prefabs":{"box":{"components":{"tags2":["in"],"bag":{"items":["x","y z"]}}}},` +
		`"entities":[{"id":"j","path":"j","parent":null,"class":[],"components":{"bag":{"items":["p",2,true]},"tags2":[]}}]}`
	doc, err := Read("l.json", []byte(js), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{
		doc.Systems[0].Map[0].List.Text(),
		doc.Decls[0].Props[0].DefaultList.Text(),
		doc.Prefabs[0].Body.Components[0].List.Text(),
		doc.Prefabs[0].Body.Components[1].Map[0].List.Text(),
		doc.Entities[0].Components[0].Map[0].List.Text(),
		fmt.Sprint(doc.Entities[0].Components[1].List.Items),
	}
	want := []string{"ann, bob", "a, b", "in", "x, y z", "p, 2, true", "[]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("JSON lists %q, want %q", got, want)
	}
	_, err = Read("l.json", []byte(`{"entities":[{"path":"j","parent":null,"class":[],"components":{"tags2":["a",null,["b"]],"bag":{"items":[{}]}}}]}`), Limits{})
	wantErr := `l.json:1:78: value of component "tags2": list items must be strings, not nothing` + "\n" +
		`l.json:1:83: value of component "tags2": list items must be strings, not a list` + "\n" +
		`l.json:1:106: property "items" of component "bag": list items must be strings, not a mapping`
	if err == nil || err.Error() != wantErr {
		t.Errorf("got %v\nwant %s", err, wantErr)
	}
}

// TestWriteLists: WriteYAML writes lists as flow sequences and the JSON
// head writes them as arrays, quoted where they must be; both read back
// to the same lists.
func TestWriteLists(t *testing.T) {
	doc, err := Read("l.yaml", []byte(listScene), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteYAML(&b, doc); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"crowd:\n    names: [ann, bob]\n",
		"items: {type: array, default: [a, b, c]}",
		"tags2: [from, mixin]",
		`bag: {items: [x, y z, "it's"], label: hi}`,
		`tags2: [p, "q\tr"]`,
		"tags2: []",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("WriteYAML lacks %q:\n%s", want, out)
		}
	}
	again, err := Read("again.yaml", b.Bytes(), Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if a, b := listsOf(doc), listsOf(again); a != b {
		t.Errorf("lists changed in YAML:\n%s\n%s", a, b)
	}
	var j bytes.Buffer
	WriteJSONHead(&j, doc)
	head := j.String()
	for _, want := range []string{`"crowd":{"names":["ann","bob"]}`, `"default":["a","b","c"]`, `"bag":{"items":["in","prefab"]}`, `{"id":"lid","components":{"tags2":["lid"]}}`} {
		if !strings.Contains(head, want) {
			t.Errorf("JSON head lacks %s:\n%s", want, head)
		}
	}
}

// listsOf prints every list a document holds, in order.
func listsOf(d *Document) string {
	var b strings.Builder
	comps := func(cs []*ComponentSpec) {
		for _, c := range cs {
			if c.List != nil {
				fmt.Fprintf(&b, "%s=%q ", c.Name, c.List.Texts())
			}
			for _, kv := range c.Map {
				if kv.List != nil {
					fmt.Fprintf(&b, "%s.%s=%q ", c.Name, kv.Key, kv.List.Texts())
				}
			}
		}
	}
	comps(d.Systems)
	for _, x := range d.Decls {
		for _, p := range x.Props {
			if p.DefaultList != nil {
				fmt.Fprintf(&b, "%s.%s default %q ", x.Name, p.Name, p.DefaultList.Texts())
			}
		}
	}
	for _, m := range d.Mixins {
		comps(m.Components)
	}
	var ents func([]*EntitySpec)
	ents = func(es []*EntitySpec) {
		for _, e := range es {
			comps(e.Components)
			for _, p := range e.Parts() {
				ents([]*EntitySpec{p.Body})
			}
			ents(e.Children)
		}
	}
	for _, p := range d.Prefabs {
		ents([]*EntitySpec{p.Body})
	}
	ents(d.Entities)
	return b.String()
}

// checkLists checks what every list of a document read from a file says
// of itself: its text is its items joined, and each item's start in it
// is placed at the item.
func checkLists(t *testing.T, doc *Document) {
	t.Helper()
	check := func(l *ListValue, text string, at func(int) Pos) {
		if l.Text() != text {
			t.Fatalf("list text %q, items %q", text, l.Texts())
		}
		off := 0
		for _, it := range l.Items {
			if got := at(off); got != it.Pos {
				t.Fatalf("item %q at %v, its text's start at %v", it.Text, it.Pos, got)
			}
			off += len(it.Text) + len(ListSep)
		}
	}
	comps := func(cs []*ComponentSpec) {
		for _, c := range cs {
			if c.List != nil {
				check(c.List, c.Text, c.TextAt)
			}
			for i, kv := range c.Map {
				if kv.List != nil {
					check(kv.List, kv.Value, func(off int) Pos { return c.ValueAt(i, off) })
				}
			}
		}
	}
	comps(doc.Systems)
	for _, m := range doc.Mixins {
		comps(m.Components)
	}
	WalkEntities(doc.Entities, func(e *EntitySpec) { comps(e.Components) })
}
