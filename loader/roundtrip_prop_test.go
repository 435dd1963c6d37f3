package loader

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// The dump round trip, as a property: whatever World a scene builds,
// exporting it in YAML, XML or JSON and loading the export into a fresh
// registry builds the same World: the same entities in the same tree
// order, with the same ids, classes, components and values, the same
// declared components and system settings.

// awkwardStrings are string values that need care in some spelling.
var awkwardStrings = []string{
	"", " ", "  padded  ", "plain", "a;b", "x: y", "a; b: c;", `quote"s`, "it's", "new\nline", "tab\there",
	"cr\r\nlf", "ünï ✓ 😀", "#hash", "- dash", "null", "yes", "~", "<&>", "&amp;", "]]>", "{a: b}", "[1, 2]",
	"\\back\\slash", "trailing ", " leading", "\u2028sep", "url(a;b)", "'", `"`, "::", "%x", "@at", "`tick`",
}

// oddIDs are ids that look like paths of entities without one, or that
// need escaping somewhere; each scene uses each at most once.
var oddIDs = []string{"0", "1", "2", "0/0", "0/1", "1/0", "0/0/0", "a", "a/0", "ü", "it's", "a&b", "<x>", "#id", "-d", "null", "yes", "0.5", "[x]", "{y}", "x:y", "e;f"}

var oddClasses = []string{"c1", "enemy", "0", "a/b", "ü", "x&y", "<b>", "null", "it's"}

// randValue returns attribute text for a random value of the named type.
func randValue(r *rand.Rand, typ string) string {
	num := func() string {
		switch r.Intn(5) {
		case 0:
			return strconv.Itoa(r.Intn(2001) - 1000)
		case 1:
			return strconv.FormatFloat(r.NormFloat64()*1e6, 'g', -1, 64)
		case 2:
			return strconv.FormatFloat(r.Float64()*1e-7, 'g', -1, 64)
		case 3:
			return "-0.5"
		}
		return strconv.FormatFloat(r.NormFloat64(), 'g', -1, 64)
	}
	nums := func(n int) string {
		s := make([]string, n)
		for i := range s {
			s[i] = num()
		}
		return strings.Join(s, " ")
	}
	switch typ {
	case "number", "time":
		return num()
	case "int":
		return strconv.Itoa(r.Intn(2_000_001) - 1_000_000)
	case "boolean":
		return strconv.FormatBool(r.Intn(2) == 0)
	case "string":
		return awkwardStrings[r.Intn(len(awkwardStrings))]
	case "vec2":
		return nums(2)
	case "vec3":
		return nums(3)
	case "vec4":
		return nums(4)
	case "color":
		if r.Intn(3) == 0 {
			return []string{"red", "teal", "#fff"}[r.Intn(3)]
		}
		return fmt.Sprintf("#%06x", r.Intn(1<<24))
	case "array":
		words := []string{"a", "b c", "ü", "x;y", "it's", "<t>"}
		n := r.Intn(4)
		s := make([]string, n)
		for i := range s {
			s[i] = words[r.Intn(len(words))]
		}
		return strings.Join(s, ", ")
	case "selector", "selectorAll":
		return []string{"#a", ".b .c", "[enemy]", "*", "", "#a > .b"}[r.Intn(6)]
	case "duration":
		return []string{"0s", "1.5s", "250ms", "2h3m4s", "1ns", "-3s"}[r.Intn(6)]
	case "entity", "entities":
		// Empty: a reference names an entity of the scene, which this
		// generator does not know; TestRefRoundTrip covers references.
		return ""
	}
	panic("randValue: no generator for type " + typ)
}

// genWorldDoc returns a random scene as a Document built in memory: one
// declared component with a property of every type the registry knows,
// a single-property component per type, strings with and without
// defaults, an enumeration, a tag, built-ins, system settings, odd ids,
// classes, and a tree of up to 40 entities up to 6 deep.
func genWorldDoc(r *rand.Rand, types []string) *scenefile.Document {
	doc := &scenefile.Document{}
	kit := &scenefile.Decl{Name: "kit"}
	for _, t := range types {
		kit.Props = append(kit.Props, &scenefile.PropDecl{Name: "p" + strings.ToUpper(t[:1]) + t[1:], Type: t})
		doc.Decls = append(doc.Decls, &scenefile.Decl{Name: "s-" + strings.ToLower(t), Single: true, Props: []*scenefile.PropDecl{{Type: t}}})
	}
	doc.Decls = append(doc.Decls, kit,
		&scenefile.Decl{Name: "label", Single: true, Props: []*scenefile.PropDecl{{Type: "string", Default: "dflt", HasDefault: true}}},
		&scenefile.Decl{Name: "mode", Single: true, Props: []*scenefile.PropDecl{{Type: "string", Default: "walk", HasDefault: true, OneOf: []string{"walk", "run"}}}},
		&scenefile.Decl{Name: "tagx"})
	if r.Intn(2) == 0 {
		doc.Systems = append(doc.Systems, &scenefile.ComponentSpec{Name: "physics", Kind: scenefile.ValueText, Text: "step: " + strconv.FormatFloat(0.001+r.Float64()/10, 'g', -1, 64)})
	}
	ids := slices.Clone(oddIDs)
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	count := 0
	var gen func(depth int) *scenefile.EntitySpec
	gen = func(depth int) *scenefile.EntitySpec {
		count++
		e := &scenefile.EntitySpec{}
		if r.Intn(2) == 0 && len(ids) > 0 {
			e.ID, ids = ids[0], ids[1:]
		}
		for _, c := range oddClasses {
			if r.Intn(6) == 0 {
				e.Class = append(e.Class, c)
			}
		}
		add := func(c *scenefile.ComponentSpec) { e.Components = append(e.Components, c) }
		if r.Intn(2) == 0 {
			c := &scenefile.ComponentSpec{Name: "kit", Kind: scenefile.ValueMap, Exact: true}
			for _, p := range kit.Props {
				if r.Intn(2) == 0 {
					c.Map = append(c.Map, &scenefile.KV{Key: p.Name, Value: randValue(r, p.Type), Exact: true})
				}
			}
			if len(c.Map) == 0 {
				c.Kind = scenefile.ValueEmpty
			}
			add(c)
		}
		for _, t := range types {
			if r.Intn(5) == 0 {
				add(&scenefile.ComponentSpec{Name: "s-" + strings.ToLower(t), Kind: scenefile.ValueText, Text: randValue(r, t), Exact: true})
			}
		}
		if r.Intn(2) == 0 {
			c := &scenefile.ComponentSpec{Name: "label", Kind: scenefile.ValueText, Text: randValue(r, "string"), Exact: true}
			if c.Text == "" {
				c.Kind = scenefile.ValueEmpty
			}
			add(c)
		}
		if r.Intn(3) == 0 {
			add(&scenefile.ComponentSpec{Name: "mode", Kind: scenefile.ValueText, Text: []string{"walk", "run"}[r.Intn(2)], Exact: true})
		}
		if r.Intn(3) == 0 {
			add(&scenefile.ComponentSpec{Name: "tagx"})
		}
		if r.Intn(4) == 0 {
			add(&scenefile.ComponentSpec{Name: "boss"}) // an undeclared tag
		}
		for _, b := range []string{"position", "scale", "visible", "velocity"} {
			if r.Intn(3) == 0 {
				typ := "vec3"
				if b == "visible" {
					typ = "boolean"
				}
				add(&scenefile.ComponentSpec{Name: b, Kind: scenefile.ValueText, Text: randValue(r, typ)})
			}
		}
		if depth < 6 {
			for n := r.Intn(4); n > 0 && count < 40; n-- {
				e.Children = append(e.Children, gen(depth+1))
			}
		}
		return e
	}
	for count < 40 && (len(doc.Entities) == 0 || r.Intn(4) != 0) {
		doc.Entities = append(doc.Entities, gen(1))
	}
	return doc
}

// worldDiff describes the first difference between the Worlds of two
// registries, or returns "".
func worldDiff(a, b *registry.Registry) string {
	decls := func(r *registry.Registry) map[string]*registry.Schema {
		m := map[string]*registry.Schema{}
		for _, c := range r.Components() {
			if c.Declared {
				m[c.Name] = c.Schema
			}
		}
		return m
	}
	da, db := decls(a), decls(b)
	if len(da) != len(db) {
		return fmt.Sprintf("%d declared components, then %d", len(da), len(db))
	}
	for name, sa := range da {
		sb, ok := db[name]
		if !ok || len(sa.Props) != len(sb.Props) {
			return fmt.Sprintf("declared component %q differs", name)
		}
		for i := range sa.Props {
			pa, pb := &sa.Props[i], &sb.Props[i]
			if pa.Name != pb.Name || pa.Type.Name != pb.Type.Name || !pa.Type.Equal(pa.Default, pb.Default) || !slices.Equal(pa.OneOf, pb.OneOf) {
				return fmt.Sprintf("declared component %q: property %q differs", name, pa.Name)
			}
		}
	}
	for _, sa := range a.Systems() {
		for _, sb := range b.Systems() {
			if sa.Name == sb.Name && !reflect.DeepEqual(sa.Values(), sb.Values()) {
				return fmt.Sprintf("system %s: %v, then %v", sa.Name, sa.Values(), sb.Values())
			}
		}
	}
	var walk func(path string, ea, eb []ecs.Entity) string
	walk = func(path string, ea, eb []ecs.Entity) string {
		if len(ea) != len(eb) {
			return fmt.Sprintf("%s: %d children, then %d", path, len(ea), len(eb))
		}
		for i := range ea {
			x, y := ea[i], eb[i]
			p := path + "/" + strconv.Itoa(i)
			if ia, ib := a.EntityID(x), b.EntityID(y); ia != ib {
				return fmt.Sprintf("%s: id %q, then %q", p, ia, ib)
			}
			if ca, cb := a.Classes(x), b.Classes(y); !slices.Equal(ca, cb) {
				return fmt.Sprintf("%s: classes %q, then %q", p, ca, cb)
			}
			na, nb := a.EntityComponents(x), b.EntityComponents(y)
			if !slices.Equal(na, nb) {
				return fmt.Sprintf("%s: components %v, then %v", p, na, nb)
			}
			for _, n := range na {
				va, _ := a.Values(x, n)
				vb, _ := b.Values(y, n)
				if !reflect.DeepEqual(va, vb) {
					return fmt.Sprintf("%s: %s = %#v, then %#v", p, n, va, vb)
				}
			}
			if msg := walk(p, slices.Collect(a.World().ChildrenSeq(x)), slices.Collect(b.World().ChildrenSeq(y))); msg != "" {
				return msg
			}
		}
		return ""
	}
	return walk("", slices.Collect(a.World().Roots()), slices.Collect(b.World().Roots()))
}

// TestRoundTripProperty builds random Worlds and checks that each export
// loads back to the same World in every format.
func TestRoundTripProperty(t *testing.T) {
	types := schema.NewTypes().Names()
	scenes := 150
	if testing.Short() {
		scenes = 30
	}
	r := rand.New(rand.NewSource(11))
	for n := range scenes {
		doc := genWorldDoc(r, types)
		reg := newTestRegistry(t)
		plan, err := plan.Compile(doc, reg, plan.Options{})
		if err != nil {
			t.Fatalf("scene %d does not compile: %v", n, err)
		}
		if _, err := live.Build(plan, reg); err != nil {
			t.Fatalf("scene %d does not build: %v", n, err)
		}
		for _, w := range writers {
			var b bytes.Buffer
			if err := w.write(&b, reg); err != nil {
				t.Fatalf("scene %d: write %s: %v", n, w.ext, err)
			}
			reg2 := newTestRegistry(t)
			if _, err := LoadBytes(reg2, "again."+w.ext, b.Bytes(), Options{}); err != nil {
				t.Fatalf("scene %d as %s does not load back: %v\n%s", n, w.ext, err, head(b.String(), 60))
			}
			if msg := worldDiff(reg, reg2); msg != "" {
				t.Fatalf("scene %d as %s loads back to another World: %s\n%s", n, w.ext, msg, head(b.String(), 80))
			}
		}
	}
}

// TestJSONPathLikeIDs is the case that lost entities: an id that is also
// the path of an entity without one ("0" among unnamed siblings, "0/1"
// below them) made an entity its own parent when the dump was read.
func TestJSONPathLikeIDs(t *testing.T) {
	src := "entities:\n  - children:\n      - id: \"0\"\n        children: [{}, {id: \"0/1\"}]\n      - {}\n  - {}\n  - id: \"1/0\"\n    children: [{}]\n"
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "a.yaml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := export.WriteJSON(&b, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	reg2 := newTestRegistry(t)
	if _, err := LoadBytes(reg2, "a.json", b.Bytes(), Options{}); err != nil {
		t.Fatal(err)
	}
	if reg2.World().Len() != 8 {
		t.Errorf("%d entities, want 8:\n%s", reg2.World().Len(), b.String())
	}
	if msg := worldDiff(reg, reg2); msg != "" {
		t.Errorf("%s\n%s", msg, b.String())
	}
	// A dump written before depths were recorded still reads, its
	// parents found among the ancestors of the entity before, never the
	// entity itself.
	legacy := `{"entities":[
  {"path":"0","parent":null,"class":[],"components":{}},
  {"id":"0","path":"0","parent":"0","class":[],"components":{}},
  {"path":"0/0","parent":"0","class":[],"components":{}},
  {"path":"1","parent":null,"class":[],"components":{}}
]}`
	doc, err := scenefile.ReadJSON("old.json", []byte(legacy), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Entities) != 2 || len(doc.Entities[0].Children) != 1 || len(doc.Entities[0].Children[0].Children) != 1 {
		t.Errorf("legacy dump read as %d entities: %+v", len(doc.Entities), doc.Entities)
	}
}
