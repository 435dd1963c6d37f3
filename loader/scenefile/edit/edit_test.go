package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
	"github.com/scenecs/scenecs/registry"
)

// Components of the edit tests, besides the built-ins (position: vec3,
// spin: axis and speed, velocity, ...).
type editHealth struct {
	HP    int `scene:"hp,default=100"`
	Max   int `scene:"max,default=100"`
	MaxHP int `scene:"maxHp,default=1"`
}

type editLabel struct {
	Text string `scene:"text"`
	Font string `scene:"font,default=sans"`
}

type editTag struct{}

// newEditRegistry returns a registry with the built-ins, health, label,
// title (a single string), enemy and alive (tags).
func newEditRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newTestRegistry(tb)
	if _, err := registry.Register(reg, "health", registry.Definition[editHealth]{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.Register(reg, "label", registry.Definition[editLabel]{}); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.Register(reg, "title", registry.Definition[string]{}); err != nil {
		tb.Fatal(err)
	}
	for _, tag := range []string{"enemy", "alive"} {
		if _, err := registry.Register(reg, tag, registry.Definition[editTag]{}); err != nil {
			tb.Fatal(err)
		}
	}
	return reg
}

// findEntity returns the entity of doc whose id is id.
func findEntity(doc *scenefile.Document, id string) *scenefile.EntitySpec {
	var found *scenefile.EntitySpec
	var walk func([]*scenefile.EntitySpec)
	walk = func(es []*scenefile.EntitySpec) {
		for _, e := range es {
			if e.ID == id {
				found = e
			}
			walk(e.Children)
		}
	}
	walk(doc.Entities)
	return found
}

const editYAML = `# A scene to edit.  Comments stay.
mixins:
  tough:
    health: "hp: 500; max: 500"
    enemy:

entities:
  # the hero
  - id: hero
    class: player
    position: 0 1 -5        # where it starts
    health: "hp: 100; max: 100"
    label: {text: 'Héros', font: "serif"}

  -   id: goblin            # odd indentation
      mixin: tough
      health:
          hp: 40   # hurt
          max: 60
      spin: 'axis: 0 0 1; speed: 45'
  - {id: flat, position: 1 2 3, health: {hp: 7}}
  - id: é-ünïcode
    title: "ünï ¢ode"
    label: {text: ✓ done}
  - id: bare
    children:
      - id: kid
        position: 9 9 9
  - id: plain
    label: text:x;font:y
  - position: 5 5 5
    id: dashy
  - id: nulls
    health:
    label: ~    # nothing yet
    spin: {}
  - id: empties
    health: ""
    label: ''
  - id: multi
    label: {
      text: a,
      font: b
    }
    title: "a
      b"
    health: {
      hp: 1,
      max: 2
    }
  - id: lone
    health: "hp: 1"   # the only one
  - id: blocky
    label:
      text: a   # c
      font: b
    position: 1 1 1
`

const editXML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- comments stay -->
<scene>
  <mixin id="tough" health="hp: 500" enemy=""/>
  <entity id="hero" class="player"
          position="0 1 -5"
          health="hp: 100; max: 100"
          label.text='H&#233;ros &amp; co'>
    <entity id="kid" position='9 9 9' health.hp="3"/>
  </entity>
  <entity id="gob" mixin="tough" spin="axis: 0 0 1; speed: 45"></entity>
  <entity id="é" title="ünï ¢ode" label="text: &#10003;; font: serif"/>
  <entity id="both" health="max: 2" health.hp="1"  health.max-hp = "4" />
  <entity id="empty" health=""/>
</scene>
`

// editCase is one edit and the text it must change: the file after the
// edit is the file with from (which occurs once) replaced by to.
type editCase struct {
	name     string
	id       string // the entity
	comp     string
	attr     string // the value set
	remove   bool
	from, to string
}

var yamlEditCases = []editCase{
	{"text property", "hero", "health", "hp: 25", false, `health: "hp: 100; max: 100"`, `health: "hp: 25; max: 100"`},
	{"single value with comment", "hero", "position", "1 2 3", false, "position: 0 1 -5        #", "position: 1 2 3        #"},
	{"flow map, double quotes", "hero", "label", "font: mono", false, `font: "serif"`, `font: "mono"`},
	{"flow map, single quotes kept", "hero", "label", `text: Hé "quoted"`, false, `'Héros'`, `'Hé "quoted"'`},
	{"single quote doubled", "hero", "label", "text: it's", false, `'Héros'`, `'it''s'`},
	{"hash in quotes", "hero", "label", "font: a #b", false, `font: "serif"`, `font: "a #b"`},
	{"two properties", "hero", "health", "max: 7; hp: 6", false, `"hp: 100; max: 100"`, `"hp: 6; max: 7"`},
	{"hyphen-case key", "hero", "health", "max-hp: 3", false, `"hp: 100; max: 100"`, `"hp: 100; max: 100; maxHp: 3"`},
	{"block map with comment", "goblin", "health", "hp: 41", false, "hp: 40   # hurt", "hp: 41   # hurt"},
	{"block map, new property", "goblin", "health", "maxHp: 2", false, "          max: 60\n", "          max: 60\n          maxHp: 2\n"},
	{"single quoted text", "goblin", "spin", "speed: 90", false, "speed: 45'", "speed: 90'"},
	{"new component, odd indentation", "goblin", "velocity", "1 0 0", false, "      spin: 'axis: 0 0 1; speed: 45'\n", "      spin: 'axis: 0 0 1; speed: 45'\n      velocity: 1 0 0\n"},
	{"component from a mixin", "goblin", "enemy", "", false, "      spin: 'axis: 0 0 1; speed: 45'\n", "      spin: 'axis: 0 0 1; speed: 45'\n      enemy:\n"},
	{"flow entity, new property", "flat", "health", "max: 9", false, "{hp: 7}", "{hp: 7, max: 9}"},
	{"flow entity, single value", "flat", "position", "4 5 6", false, "position: 1 2 3,", "position: 4 5 6,"},
	{"flow entity, new component", "flat", "spin", "speed: 5", false, "health: {hp: 7}}", `health: {hp: 7}, spin: "speed: 5"}`},
	{"flow entity, new tag", "flat", "enemy", "", false, "health: {hp: 7}}", "health: {hp: 7}, enemy: {}}"},
	{"unicode before the value", "é-ünïcode", "label", "text: ✗ no", false, "{text: ✓ done}", "{text: ✗ no}"},
	{"unicode, new property", "é-ünïcode", "label", "font: mono", false, "{text: ✓ done}", "{text: ✓ done, font: mono}"},
	{"question mark in a flow mapping", "é-ünïcode", "label", "text: 0?", false, "{text: ✓ done}", `{text: "0?"}`},
	{"unicode single string", "é-ünïcode", "title", "a: b", false, `title: "ünï ¢ode"`, `title: "a: b"`},
	{"double quote escaped", "é-ünïcode", "title", `say "hi" \o/`, false, `title: "ünï ¢ode"`, `title: "say \"hi\" \\o/"`},
	{"only children", "bare", "position", "1 1 1", false, "  - id: bare\n", "  - id: bare\n    position: 1 1 1\n"},
	{"plain keeps its spacing", "plain", "label", "font: z", false, "text:x;font:y", "text:x;font:z"},
	{"plain needs quotes", "plain", "label", "font: a #b", false, "label: text:x;font:y", `label: "text:x;font:a #b"`},
	{"plain, a line break needs quotes", "plain", "label", "text: 0\n0", false, "label: text:x;font:y", `label: "text:0\n0;font:y"`},
	{"plain, new property in its spacing", "plain", "health", "hp: 1", false, "    label: text:x;font:y\n", "    label: text:x;font:y\n    health: \"hp: 1\"\n"},
	{"null", "nulls", "health", "hp: 3", false, "    health:\n    label: ~", "    health: \"hp: 3\"\n    label: ~"},
	{"tilde with comment", "nulls", "label", "font: x", false, "label: ~    #", `label: "font: x"    #`},
	{"empty flow map", "nulls", "spin", "speed: 2", false, "spin: {}", "spin: {speed: 2}"},
	{"empty double quotes", "empties", "health", "hp: 3", false, `health: ""`, `health: "hp: 3"`},
	{"empty single quotes", "empties", "label", "text: a", false, `label: ''`, `label: 'text: a'`},
	{"multi-line flow map", "multi", "label", "font: c", false, "      font: b\n    }", "      font: c\n    }"},
	{"multi-line flow map, new entry", "multi", "health", "maxHp: 3", false, "      max: 2\n", "      max: 2,\n      maxHp: 3\n"},
	{"same values: no change", "multi", "label", "font: b; text: a", false, "", ""},
	{"multi-line quoted", "multi", "title", "x y", false, "\"a\n      b\"", `"x y"`},
	{"tag already there", "nulls", "health", "", false, "", ""},

	{"remove a line", "kid", "position", "", true, "\n        position: 9 9 9", ""},
	{"remove a flow map line", "hero", "label", "", true, "    label: {text: 'Héros', font: \"serif\"}\n", ""},
	{"remove a block map", "blocky", "label", "", true, "    label:\n      text: a   # c\n      font: b\n", ""},
	{"remove in flow, last", "flat", "health", "", true, ", health: {hp: 7}", ""},
	{"remove in flow, first", "flat", "position", "", true, "position: 1 2 3, ", ""},
	{"remove on the dash line", "dashy", "position", "", true, "  - position: 5 5 5\n    id: dashy", "  - id: dashy"},
	{"remove with a comment", "lone", "health", "", true, "    health: \"hp: 1\"   # the only one\n", ""},
	{"remove multi-line", "multi", "title", "", true, "    title: \"a\n      b\"\n", ""},
}

var xmlEditCases = []editCase{
	{"text property", "hero", "health", "hp: 25", false, `health="hp: 100; max: 100"`, `health="hp: 25; max: 100"`},
	{"single value", "hero", "position", "1 2 3", false, `position="0 1 -5"`, `position="1 2 3"`},
	{"comp.prop with references", "hero", "label", `text: a<b "c" & d`, false, `label.text='H&#233;ros &amp; co'`, `label.text='a&lt;b "c" &amp; d'`},
	{"new comp.prop on its own line", "hero", "label", "font: serif", false, "label.text='H&#233;ros &amp; co'>", "label.text='H&#233;ros &amp; co'\n          label.font='serif'>"},
	{"new attribute on its own line", "hero", "spin", "speed: 1", false, "label.text='H&#233;ros &amp; co'>", "label.text='H&#233;ros &amp; co'\n          spin='speed: 1'>"},
	{"comp.prop", "kid", "health", "hp: 4", false, `health.hp="3"`, `health.hp="4"`},
	{"new comp.prop", "kid", "health", "max: 5", false, `health.hp="3"/>`, `health.hp="3" health.max="5"/>`},
	{"new attribute", "gob", "velocity", "1 0 0", false, `speed: 45">`, `speed: 45" velocity="1 0 0">`},
	{"component from a mixin", "gob", "health", "max: 1", false, `speed: 45">`, `speed: 45" health="max: 1">`},
	{"after a reference", "é", "label", "font: mono", false, `font: serif"`, `font: mono"`},
	{"escaped in double quotes", "é", "title", `it's "x" & y`, false, `title="ünï ¢ode"`, `title="it's &quot;x&quot; &amp; y"`},
	{"the last place wins", "both", "health", "hp: 9; max: 8; maxHp: 7", false, `health="max: 2" health.hp="1"  health.max-hp = "4"`, `health="max: 8" health.hp="9"  health.max-hp = "7"`},
	{"empty attribute", "empty", "health", "hp: 2", false, `health=""`, `health="hp: 2"`},

	{"remove an attribute on its own line", "hero", "health", "", true, "\n          health=\"hp: 100; max: 100\"", ""},
	{"remove comp.prop", "hero", "label", "", true, "\n          label.text='H&#233;ros &amp; co'", ""},
	{"remove a first attribute", "kid", "position", "", true, " position='9 9 9'", ""},
	{"remove all attributes of a component", "both", "health", "", true, ` health="max: 2" health.hp="1"  health.max-hp = "4"`, ""},
}

// fileVariant turns the fixture and a case into a variant of line breaks
// and byte order mark.
type fileVariant struct {
	name string
	conv func(string) string
	bom  bool
}

var fileVariants = []fileVariant{
	{"LF", func(s string) string { return s }, false},
	{"CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, false},
	{"BOM", func(s string) string { return s }, true},
	{"BOM+CRLF", func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }, true},
}

func TestEditByteForByte(t *testing.T) {
	for _, f := range []struct {
		file  string
		src   string
		cases []editCase
	}{{"scene.yaml", editYAML, yamlEditCases}, {"scene.xml", editXML, xmlEditCases}} {
		for _, v := range fileVariants {
			for _, c := range f.cases {
				t.Run(f.file+"/"+v.name+"/"+c.name, func(t *testing.T) {
					src := v.conv(f.src)
					if v.bom {
						src = "\ufeff" + src
					}
					from, to := v.conv(c.from), v.conv(c.to)
					runEditCase(t, f.file, src, c, from, to)
				})
			}
		}
	}
}

// runEditCase edits src as c says and checks the bytes and what they
// read back as.
func runEditCase(t *testing.T, file, src string, c editCase, from, to string) {
	t.Helper()
	reg := newEditRegistry(t)
	doc, err := scenefile.Read(file, []byte(src), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	ent := findEntity(doc, c.id)
	if ent == nil {
		t.Fatalf("no entity %q", c.id)
	}
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
	want := src // from empty: nothing changes
	if from != "" {
		if n := strings.Count(src, from); n != 1 {
			t.Fatalf("the case's text %q occurs %d times in the file", from, n)
		}
		want = strings.Replace(src, from, to, 1)
	}
	if string(out) != want {
		t.Fatalf("edited file:\n%s\nwant:\n%s", out, want)
	}
	checkReadsBack(t, reg, file, out, c)
}

// checkReadsBack loads the edited file and checks the component's values:
// those set equal the attribute string's, a removed one is gone.
func checkReadsBack(t *testing.T, reg *registry.Registry, file string, out []byte, c editCase) {
	t.Helper()
	sc, err := loader.LoadBytes(reg, file, out, loader.Options{})
	if err != nil {
		t.Fatalf("the edited file does not load: %v", err)
	}
	e, ok := sc.Entity(c.id)
	if !ok {
		t.Fatalf("no entity %q after the edit", c.id)
	}
	if c.remove {
		if reg.Has(e, c.comp) {
			t.Fatalf("%s still has %s", c.id, c.comp)
		}
		return
	}
	checkValues(t, reg, e, c.comp, c.attr)
}

// checkValues checks that e's component holds what attr gives.
func checkValues(t *testing.T, reg *registry.Registry, e ecs.Entity, name, attr string) {
	t.Helper()
	comp, _ := reg.Component(name)
	p, err := comp.Schema.ParseAttr(name, attr)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := reg.Values(e, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, pv := range p {
		pr := &comp.Schema.Props[pv.Index]
		if !pr.Type.Equal(vals[pv.Index], pv.Value) {
			t.Fatalf("%s.%s reads back as %q, want %q", name, pr.Name, pr.Print(vals[pv.Index]), pr.Print(pv.Value))
		}
	}
}

func TestEditErrors(t *testing.T) {
	reg := newEditRegistry(t)
	health, _ := reg.Component("health")
	src := []byte(editYAML)
	doc, err := scenefile.Read("scene.yaml", src, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	hero := findEntity(doc, "hero")
	if _, err := live.EditComponent(src, hero, "health", health.Schema, "hp: abc"); err == nil || !strings.Contains(err.Error(), "hp") {
		t.Fatalf("bad value: %v", err)
	}
	if _, err := live.EditRemove(src, hero, "spin"); !errors.Is(err, edit.ErrNoSource) {
		t.Fatalf("remove a component not written: %v", err)
	}
	// YAML the parser leaves to yaml.v3 has no spans: not edited.
	tagged := []byte("entities:\n  - id: a\n    title: !!str x\n")
	td, err := scenefile.Read("t.yaml", tagged, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	title, _ := reg.Component("title")
	if _, err := live.EditComponent(tagged, findEntity(td, "a"), "title", title.Schema, "y"); !errors.Is(err, edit.ErrCannotEdit) || !strings.Contains(err.Error(), "tags") {
		t.Fatalf("a file read by yaml.v3: %v", err)
	}
	// JSON dumps are not edited.
	js := []byte(`{"entities": [{"id": "a", "path": "a", "parent": null, "depth": 0, "class": [], "components": {"position": {"x": 1, "y": 2, "z": 3}}}]}`)
	jd, err := scenefile.Read("d.json", js, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := reg.Component("position")
	if _, err := live.EditComponent(js, findEntity(jd, "a"), "position", pos.Schema, "1 1 1"); !errors.Is(err, edit.ErrCannotEdit) || !strings.Contains(err.Error(), "JSON") {
		t.Fatalf("JSON: %v", err)
	}
	// Positions that do not fit the bytes are refused, not guessed.
	if _, err := live.EditComponent([]byte("entities: []\n"), hero, "health", health.Schema, "hp: 1"); !errors.Is(err, edit.ErrCannotEdit) {
		t.Fatalf("other bytes: %v", err)
	}
}

// TestYAMLPlainOK: what may be written as a plain scalar, in a block and
// in a flow collection; everything else is quoted.
func TestYAMLPlainOK(t *testing.T) {
	for _, c := range []struct {
		text        string
		block, flow bool
	}{
		{"1 2 3", true, true},
		{"text:x;font:y", true, false},
		{"-1", true, true},
		{"a#b", true, true},
		{"Héros ✓", true, true},
		{"", false, false},
		{"null", false, false},
		{"~", false, false},
		{" a", false, false},
		{"a ", false, false},
		{"a: b", false, false},
		{"a #b", false, false},
		{"#a", false, false},
		{"'a'", false, false},
		{"\"a", false, false},
		{"- a", false, false},
		{"a:", false, false},
		{"a, b", true, false},
		{"[a]", false, false},
		{"a{b}", true, false},
		{"0?", true, false},
		{"a?b", true, false},
		{"a:b", true, false},
		{"0\n0", false, false},
		{"0\r0", false, false},
		{"0\t0", false, false},
		{"0\u00850", false, false},
		{"0\u20280", false, false},
		{"0\ufeff0", false, false},
		{"0\x7f0", false, false},
	} {
		if got := edit.YAMLPlainOK(c.text, false); got != c.block {
			t.Errorf("edit.YAMLPlainOK(%q, block) = %v", c.text, got)
		}
		if got := edit.YAMLPlainOK(c.text, true); got != c.flow {
			t.Errorf("edit.YAMLPlainOK(%q, flow) = %v", c.text, got)
		}
	}
}
