package live

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// prefabLayers is a scene whose five layers each give health properties,
// so that which layer wins is visible per property.
const prefabLayers = `
components:
  health:
    hp: {type: int, default: 100}
    max: {type: int, default: 100}
    regen: {type: int, default: 0}
    armor: {type: int, default: 0}
    speed: {type: int, default: 0}
mixins:
  pm: {health: "hp: 1; max: 1; regen: 1; armor: 1; speed: 1"}
  im: {health: "max: 4; regen: 4; armor: 4"}
prefabs:
  base: {mixin: pm, health: "max: 2; regen: 2; armor: 2; speed: 2"}
  variant: {prefab: base, health: "regen: 3; armor: 3; speed: 3"}
entities:
  - id: a
    prefab: variant
    mixin: im
    health: "armor: 5"
  - id: b
    prefab: base
`

// TestPrefabComposition: per property, the base prefab's mixins, its
// components, the variant's, the instance's mixins and the instance's
// own components, each beating the ones before.
func TestPrefabComposition(t *testing.T) {
	reg := newTestRegistry(t)
	sc, err := LoadBytes(reg, "a.yaml", []byte(prefabLayers), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{
		"a": "hp: 1; max: 4; regen: 4; armor: 5; speed: 3",
		"b": "hp: 1; max: 2; regen: 2; armor: 2; speed: 2",
	} {
		e, _ := sc.Entity(id)
		if got, _ := reg.Attr(e, "health"); got != want {
			t.Errorf("%s: health %q, want %q", id, got, want)
		}
	}
	a, _ := sc.Entity("a")
	if got := reg.Prefabs().Of(a); got != "variant" {
		t.Errorf("a is an instance of %q, want variant", got)
	}
}

// shipScene is a prefab with named and unnamed parts, a nested prefab,
// and instances with and without ids, overriding parts.
const shipScene = `
prefabs:
  barrel: {class: barrel, scale: 1 2 1}
  gun:
    class: gun
    children:
      - id: muzzle
        prefab: barrel
  ship:
    class: ship
    position: 0 0 0
    children:
      - id: gun-left
        prefab: gun
        class: gun left
        position: -1 0 0
      - id: gun-right
        prefab: gun
        class: gun right
        position: 1 0 0
      - {visible: false}
entities:
  - id: f1
    prefab: ship
    position: 5 0 0
  - id: f2
    prefab: ship
    class: ship hero
    parts:
      gun-left: {position: "-2 0 0", class: gun left big}
      gun-right/muzzle: {scale: 3 3 3}
      "0": {visible: true}
    children:
      - id: pilot
  - prefab: ship
`

func loadShips(t *testing.T, src string) (*registry.Registry, *Scene) {
	t.Helper()
	reg := newTestRegistry(t)
	sc, err := LoadBytes(reg, "a.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return reg, sc
}

func query(t *testing.T, reg *registry.Registry, sel string) []string {
	t.Helper()
	es, err := reg.QueryAll(sel)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, export.EntityPath(reg, e))
	}
	return out
}

// TestPrefabInstances: parts are named "<instance id>/<name>" (an
// unnamed part by its index), selectors reach them through the
// hierarchy and the marker, parts overrides apply per property, and an
// instance's own children come after its parts.
func TestPrefabInstances(t *testing.T) {
	reg, sc := loadShips(t, shipScene)
	if sc.Plan.Count != 3*6+1 {
		t.Errorf("%d entities, want 19", sc.Plan.Count)
	}
	for sel, want := range map[string]string{
		"#f2 > .gun":      "f2/gun-left f2/gun-right",
		".big":            "f2/gun-left",
		"[prefab=ship]":   "f1 f2 2",
		"[prefab=gun]":    "f1/gun-left f1/gun-right f2/gun-left f2/gun-right 2/0 2/1",
		"#f2 > *":         "f2/gun-left f2/gun-right f2/0 pilot",
		"[prefab=barrel]": "f1/gun-left/muzzle f1/gun-right/muzzle f2/gun-left/muzzle f2/gun-right/muzzle 2/0/0 2/1/0",
		"[scale.x=3]":     "f2/gun-right/muzzle",
		"[visible=false]": "f1/0 2/2",
		".hero":           "f2",
		"#f1\\/gun-left":  "f1/gun-left",
	} {
		if got := strings.Join(query(t, reg, sel), " "); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	e, _ := sc.Entity("f2/gun-left")
	if got, _ := reg.Attr(e, "position"); got != "-2 0 0" {
		t.Errorf("f2/gun-left position %q", got)
	}
	if got := reg.Prefabs().PartKey(e); got != "gun-left" {
		t.Errorf("part key %q", got)
	}
	if got := reg.Classes(e); strings.Join(got, " ") != "gun left big" {
		t.Errorf("classes %q", got)
	}
}

// TestPrefabXMLMatchesYAML: the XML spelling of prefabs and parts loads
// to the same World.
func TestPrefabXMLMatchesYAML(t *testing.T) {
	const x = `<scene>
  <prefab name="barrel" class="barrel" scale="1 2 1"/>
  <prefab name="gun" class="gun"><entity id="muzzle" prefab="barrel"/></prefab>
  <prefab name="ship" class="ship" position="0 0 0">
    <entity id="gun-left" prefab="gun" class="gun left" position="-1 0 0"/>
    <entity id="gun-right" prefab="gun" class="gun right" position="1 0 0"/>
    <entity visible="false"/>
  </prefab>
  <entity id="f1" prefab="ship" position="5 0 0"/>
  <entity id="f2" prefab="ship" class="ship hero">
    <part path="gun-left" position="-2 0 0" class="gun left big"/>
    <part path="gun-right/muzzle" scale="3 3 3"/>
    <part path="0" visible="true"/>
    <entity id="pilot"/>
  </entity>
  <entity prefab="ship"/>
</scene>`
	ry, _ := loadShips(t, shipScene)
	rx := newTestRegistry(t)
	if _, err := LoadBytes(rx, "a.xml", []byte(x), Options{}); err != nil {
		t.Fatal(err)
	}
	if a, b := dump(t, ry), dump(t, rx); a != b {
		t.Errorf("yaml and xml differ:\n%s\n%s", a, b)
	}
}

// TestPrefabErrors: each mistake is reported at its place, with
// suggestions, all at once.
func TestPrefabErrors(t *testing.T) {
	for _, tc := range []struct{ name, file, src, want string }{
		{"unknown prefab", "a.yaml", "prefabs:\n  ship: {}\nentities:\n  - prefab: shp\n", `a.yaml:4:13: unknown prefab "shp" (did you mean "ship"?)`},
		{"cycle", "a.yaml", "prefabs:\n  a: {prefab: b}\n  b: {children: [{prefab: c}]}\n  c: {prefab: a}\nentities:\n  - prefab: a\n",
			`a.yaml:2:3: prefab "a": prefab cycle: a -> b -> c -> a`},
		{"self", "a.yaml", "prefabs:\n  a: {children: [{prefab: a}]}\n", `a.yaml:2:3: prefab "a": prefab cycle: a -> a`},
		{"missing part", "a.yaml", "prefabs:\n  ship: {children: [{id: gun-left}, {id: gun-right}]}\nentities:\n  - prefab: ship\n    parts:\n      gun-lft: {visible: false}\n",
			`a.yaml:6:7: prefab "ship" has no part "gun-lft" (did you mean "gun-left"?)`},
		{"parts without prefab", "a.yaml", "entities:\n  - parts: {a: {}}\n", `a.yaml:2:13: "parts" without "prefab": only an instance of a prefab has parts`},
		{"prefab id", "a.yaml", "prefabs:\n  ship: {id: s}\n", `a.yaml:2:14: prefab "ship": a prefab has no id (its instances have theirs; inside a prefab, an id names a child)`},
		{"part id", "a.yaml", "prefabs:\n  ship: {children: [{id: g}]}\nentities:\n  - prefab: ship\n    parts: {g: {id: x}}\n",
			`a.yaml:5:21: part "g": a part has the id its instance gives it; it takes components, class, mixin and children`},
		{"slash name", "a.yaml", "prefabs:\n  ship: {children: [{id: a/b}]}\n", `a.yaml:2:26: name "a/b" inside a prefab contains "/", which separates the names of a part's path`},
		{"number name", "a.yaml", "prefabs:\n  ship: {children: [{id: \"7\"}]}\n", `a.yaml:2:26: name "7" inside a prefab is a number, which addresses an unnamed child in a part's path; start it with a letter`},
		{"duplicate name", "a.yaml", "prefabs:\n  ship: {children: [{id: a}, {id: a}]}\n", `a.yaml:2:35: duplicate name "a" among the children of a prefab (first at a.yaml:2:26)`},
		{"duplicate prefab", "a.yaml", "prefabs:\n  a: {}\nentities: []\n", ""},
		{"bad value in prefab", "a.yaml", "prefabs:\n  a: {position: 1 x}\n", `a.yaml:2:19: position: invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"part id clash", "a.yaml", "prefabs:\n  s: {children: [{id: g}]}\nentities:\n  - {id: f, prefab: s}\n  - {id: f/g}\n",
			`a.yaml:4:10: instance "f" of prefab "s" gives its part "g" the id "f/g", which the entity at a.yaml:5:10 has too`},
		{"xml prefab without name", "a.xml", "<scene><prefab/></scene>", `a.xml:1:8: <prefab> needs a name attribute`},
		{"xml part in prefab", "a.xml", `<scene><prefab name="a"><part path="x"/></prefab></scene>`, `a.xml:1:25: unknown element <part> in <prefab> (want <entity>)`},
		{"xml mixin prefab", "a.xml", `<scene><mixin id="m" prefab="p"/></scene>`, `a.xml:1:22: "prefab" is not allowed in a mixin: a mixin gives one entity components; for an entity with children, define a prefab (under "prefabs", or <prefab name=...>) and write "prefab: NAME" on the entities`},
		{"xml part without prefab", "a.xml", `<scene><entity><part path="q"/></entity></scene>`, `a.xml:1:28: <part> in an <entity> without a prefab attribute: only an instance of a prefab has parts`},
		{"json unknown prefab", "a.json", "{\"prefabs\": {\"ship\": {}},\n \"entities\": [{\"prefab\": \"shp\"}]}", `a.json:2:26: unknown prefab "shp" (did you mean "ship"?)`},
		{"json prefab cycle", "a.json", "{\"prefabs\": {\n \"a\": {\"prefab\": \"b\"},\n \"b\": {\"prefab\": \"a\"}}}", `a.json:2:2: prefab "a": prefab cycle: a -> b -> a`},
		{"xml unknown part", "a.xml", `<scene><prefab name="a"/><entity prefab="a"><part path="q"/></entity></scene>`, `a.xml:1:57: prefab "a" has no part "q"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadBytes(newTestRegistry(t), tc.file, []byte(tc.src), Options{})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var list scenefile.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if got := list.Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestLongPrefabCycle: a cycle of many prefabs is named shortened, as
// mixin cycles are.
func TestLongPrefabCycle(t *testing.T) {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	for i := range 10 {
		b.WriteString("  p" + itoa(i) + ": {prefab: p" + itoa((i+1)%10) + "}\n")
	}
	_, err := LoadBytes(newTestRegistry(t), "a.yaml", []byte(b.String()), Options{})
	want := `a.yaml:2:3: prefab "p0": prefab cycle of 10 prefabs: p0 -> p1 -> p2 -> ... -> p8 -> p9 -> p0`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestInstantiatePrefab: a program instantiates a scene's prefab, whole,
// under any parent, with ids for its parts.
func TestInstantiatePrefab(t *testing.T) {
	reg, sc := loadShips(t, shipScene)
	f1, _ := sc.Entity("f1")
	e, err := reg.Prefabs().Instantiate(f1, "ship", "f9")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(query(t, reg, "#f9 > .gun"), " "); got != "f9/gun-left f9/gun-right" {
		t.Errorf("#f9 > .gun: %q", got)
	}
	if p, _ := reg.World().Parent(e); p != f1 {
		t.Errorf("parent %v", p)
	}
	if got := strings.Join(query(t, reg, "#f9 [prefab=barrel]"), " "); got != "f9/gun-left/muzzle f9/gun-right/muzzle" {
		t.Errorf("muzzles %q", got)
	}
	if _, err := reg.Prefabs().Instantiate(ecs.Entity{}, "shp", ""); err == nil || !strings.Contains(err.Error(), ` (did you mean "ship"?)`) {
		t.Errorf("unknown prefab: %v", err)
	}
	if _, err := reg.Prefabs().Instantiate(ecs.Entity{}, "ship", "f9"); err == nil {
		t.Error("a used id is accepted")
	}
	n := reg.World().Len()
	if _, err := reg.Prefabs().Instantiate(ecs.Entity{}, "ship", ""); err != nil || reg.World().Len() != n+6 {
		t.Errorf("unnamed instance: %v, %d entities more", err, reg.World().Len()-n)
	}
}

// exportText writes reg's World in format f ("yaml" or "xml").
func exportText(t *testing.T, reg *registry.Registry, f string, opt export.Options) string {
	t.Helper()
	var b strings.Builder
	doc := export.Export(reg, opt)
	var err error
	if f == "xml" {
		err = scenefile.WriteXML(&b, doc)
	} else {
		err = scenefile.WriteYAML(&b, doc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPrefabRoundTrip: a World with instances (runtime changes, a part
// destroyed, an instance spawned at run time) exported in each format
// reads back to the same World, instances and all; the export is
// smaller than the flat one, which reads back to the same World without
// the prefabs.
func TestPrefabRoundTrip(t *testing.T) {
	reg, sc := loadShips(t, shipScene)
	f1, _ := sc.Entity("f1")
	if err := reg.Set(f1, "position", "7 7 7"); err != nil {
		t.Fatal(err)
	}
	gl, _ := sc.Entity("f2/gun-left")
	if err := reg.Set(gl, "visible", "false"); err != nil {
		t.Fatal(err)
	}
	_ = reg.SetClasses(gl, []string{"gun", "hit"})
	s9, err := reg.Prefabs().Instantiate(ecs.Entity{}, "gun", "s9")
	if err != nil {
		t.Fatal(err)
	}
	_ = reg.Set(s9, "color", "red")
	_ = reg.World().Destroy(reg.World().Children(sc.Roots[2])[1]) // a part of the unnamed ship
	want := dump(t, reg)
	wantFlat := dumpOpt(t, reg, export.Options{Flat: true})
	for _, f := range []string{"yaml", "xml", "json"} {
		for _, flat := range []bool{false, true} {
			opt := export.Options{Flat: flat}
			var text string
			if f == "json" {
				text = dumpOpt(t, reg, opt)
			} else {
				text = exportText(t, reg, f, opt)
			}
			back := newTestRegistry(t)
			if _, err := LoadBytes(back, "back."+f, []byte(text), Options{}); err != nil {
				t.Fatalf("%s flat=%v: %v\n%s", f, flat, err, text)
			}
			got, w := dump(t, back), want
			if flat {
				got, w = dumpOpt(t, back, opt), wantFlat
			}
			if got != w {
				t.Errorf("%s flat=%v: the dump changed:\n%s\nwant\n%s\nfrom\n%s", f, flat, got, w, text)
			}
			if f != "json" && !flat {
				if ft := exportText(t, reg, f, export.Options{Flat: true}); len(text) >= len(ft) {
					t.Errorf("%s: the export (%d bytes) is not smaller than the flat one (%d)", f, len(text), len(ft))
				}
			}
		}
	}
}

func dumpOpt(t *testing.T, reg *registry.Registry, opt export.Options) string {
	t.Helper()
	var b strings.Builder
	if err := export.WriteJSON(&b, reg, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPrefabSelectors: the selectors docs/selectors.md shows for
// instances of prefabs select what it says.
func TestPrefabSelectors(t *testing.T) {
	reg, _ := loadShips(t, `
prefabs:
  gun: {class: gun}
  ship:
    children:
      - {id: gun-left, prefab: gun}
  big-ship: {prefab: ship}
entities:
  - {id: f1, prefab: ship}
  - {id: f2, prefab: big-ship}
  - {id: lone, prefab: gun}
`)
	for sel, want := range map[string]string{
		"[prefab=ship]":                    "f1",
		"[prefab]":                         "f1 f1/gun-left f2 f2/gun-left lone",
		"[prefab^=ship]":                   "f1",
		"[prefab=ship], [prefab=big-ship]": "f1 f2",
		"[prefab=ship] > .gun":             "f1/gun-left",
		"#f2 > .gun":                       "f2/gun-left",
		"#f2 [prefab=gun]":                 "f2/gun-left",
		"[prefab=gun]:not([prefab] > *)":   "lone",
		`#f2\/gun-left`:                    "f2/gun-left",
	} {
		if got := strings.Join(query(t, reg, sel), " "); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
}
