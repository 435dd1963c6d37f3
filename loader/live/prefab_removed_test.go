package live

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/editorschema"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Parts an instance does not have: `path: removed` in YAML and JSON,
// <removed path="..."/> in XML. A dump writes an instance that lost a
// part at run time so, and loads back to the same World, prefab
// membership included.

// lostParts are the ways an instance loses parts at run time: each
// destroys entities of the World loaded from removedSceneText.
var lostParts = []struct {
	name string
	lose func(t *testing.T, reg *registry.Registry, sc *Scene)
}{
	{"a named part", loseIDs("f1/gun-left")},
	{"a part of a nested instance", loseIDs("f1/gun-right/muzzle")},
	{"a nested instance part and its own part", loseIDs("f1/gun-right/muzzle", "f2/gun-right")},
	{"an unnamed part", loseIDs("f2/0")},
	{"a part the scene changes, a sibling changed at run time", func(t *testing.T, reg *registry.Registry, sc *Scene) {
		loseIDs("f2/gun-left")(t, reg, sc)
		e, _ := sc.Entity("f2/gun-right/muzzle")
		if err := reg.Set(e, "scale", "5 5 5"); err != nil {
			t.Fatal(err)
		}
	}},
	{"every part", loseIDs("f1/gun-left", "f1/gun-right", "f1/0")},
	{"parts of a variant, its own child too", loseIDs("v1/extra", "v1/gun-left/muzzle")},
	{"a part of an instance without an id", func(t *testing.T, reg *registry.Registry, sc *Scene) {
		w := reg.World()
		ship := sc.Roots[2]
		if err := w.Destroy(w.Children(w.Children(ship)[1])[0]); err != nil { // 2/1/0, the muzzle of its second gun
			t.Fatal(err)
		}
	}},
	{"a part of an instance spawned at run time", func(t *testing.T, reg *registry.Registry, sc *Scene) {
		s9, err := reg.Prefabs().Instantiate(ecs.Entity{}, "big", "s9")
		if err != nil {
			t.Fatal(err)
		}
		_ = s9
		loseIDs("s9/gun-right", "s9/extra")(t, reg, sc)
	}},
}

// removedSceneText is shipScene with a variant of ship and an instance
// of it.
const removedSceneText = `
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
  big:
    prefab: ship
    scale: 2 2 2
    children:
      - id: extra
        position: 0 9 0
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
  - id: v1
    prefab: big
`

// loseIDs destroys the entities with the given ids.
func loseIDs(ids ...string) func(t *testing.T, reg *registry.Registry, sc *Scene) {
	return func(t *testing.T, reg *registry.Registry, sc *Scene) {
		t.Helper()
		for _, id := range ids {
			e, ok := reg.EntityByID(id)
			if !ok {
				t.Fatalf("no entity %q", id)
			}
			if err := reg.World().Destroy(e); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// removedSpelling is how each format says a part is removed.
var removedSpelling = map[string]string{"yaml": ": removed\n", "xml": "<removed path=", "json": `:"removed"`}

// TestRemovedPartRoundTrip: an instance that lost parts at run time is
// dumped as an instance with those parts removed, in every format, and
// loads back to the same World: same entities, values, prefab markers
// and part keys. The XML dump is valid against the XSD.
func TestRemovedPartRoundTrip(t *testing.T) {
	for _, tc := range lostParts {
		t.Run(tc.name, func(t *testing.T) {
			reg, sc := loadShips(t, removedSceneText)
			tc.lose(t, reg, sc)
			want := dump(t, reg)
			for _, f := range []string{"yaml", "xml", "json"} {
				var text string
				if f == "json" {
					text = dumpOpt(t, reg, export.Options{})
				} else {
					text = exportText(t, reg, f, export.Options{})
				}
				if !strings.Contains(text, removedSpelling[f]) {
					t.Fatalf("%s: no removed part written:\n%s", f, text)
				}
				back := newTestRegistry(t)
				if _, err := LoadBytes(back, "back."+f, []byte(text), Options{}); err != nil {
					t.Fatalf("%s: %v\n%s", f, err, text)
				}
				if got := dump(t, back); got != want {
					t.Fatalf("%s: the dump changed:\n%s\nwant\n%s\nfrom\n%s", f, got, want, text)
				}
				if f == "xml" {
					checkXSD(t, back, text)
				}
			}
		})
	}
}

// checkXSD validates the XML scene text against reg's XSD, if xmllint
// is installed.
func checkXSD(t *testing.T, reg *registry.Registry, text string) {
	t.Helper()
	lint, err := exec.LookPath("xmllint")
	if err != nil {
		return // TestXSD* say it is missing
	}
	dir := t.TempDir()
	var b bytes.Buffer
	if err := editorschema.WriteXSD(&b, reg, nil); err != nil {
		t.Fatal(err)
	}
	xsd, file := filepath.Join(dir, "scene.xsd"), filepath.Join(dir, "scene.xml")
	if err := os.WriteFile(xsd, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(lint, "--noout", "--schema", xsd, file).CombinedOutput(); err != nil {
		t.Fatalf("the XML dump is not valid against the XSD (%v):\n%s\n%s", err, out, text)
	}
}

// TestRemovedPartSyntax: the three spellings load to the same World,
// which lacks the removed parts (and what is below them) and keeps the
// instance's other parts and its marker.
func TestRemovedPartSyntax(t *testing.T) {
	const head = "prefabs:\n  gun: {children: [{id: muzzle}]}\n  ship: {children: [{id: a, prefab: gun}, {id: b, prefab: gun}, {}]}\n"
	srcs := map[string]string{
		"a.yaml": head + "entities:\n  - id: s\n    prefab: ship\n    parts: {a: removed, b/muzzle: removed, \"0\": {visible: false}}\n",
		"a.xml": `<scene><prefab name="gun"><entity id="muzzle"/></prefab>
<prefab name="ship"><entity id="a" prefab="gun"/><entity id="b" prefab="gun"/><entity/></prefab>
<entity id="s" prefab="ship"><removed path="a"/><removed path="b/muzzle"/><part path="0" visible="false"/></entity></scene>`,
		"a.json": `{"prefabs": {"gun": {"children": [{"id": "muzzle"}]}, "ship": {"children": [{"id": "a", "prefab": "gun"}, {"id": "b", "prefab": "gun"}, {}]}},
"entities": [{"id": "s", "prefab": "ship", "parts": {"a": "removed", "b/muzzle": "removed"}}, {"id": "s/0", "parent": "s", "depth": 1, "part": "0", "components": {"visible": false}}]}`,
	}
	var first string
	for name, src := range srcs {
		reg := newTestRegistry(t)
		sc, err := LoadBytes(reg, name, []byte(src), Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(query(t, reg, "#s *"), " "); got != "s/b s/0" {
			t.Errorf("%s: the instance has %q, want s/b s/0", name, got)
		}
		if sc.Plan.Count != 3 {
			t.Errorf("%s: %d entities planned, want 3", name, sc.Plan.Count)
		}
		s, _ := reg.EntityByID("s")
		if reg.Prefabs().Of(s) != "ship" {
			t.Errorf("%s: the instance lost its marker", name)
		}
		d := dump(t, reg)
		if first == "" {
			first = d
		} else if d != first {
			t.Errorf("%s loads to another World:\n%s\nwant\n%s", name, d, first)
		}
	}
}

// TestRemovedPartErrors: a removed part that the prefab does not have,
// a change inside a removed part, and misspellings of "removed" are
// reported at their place, in every format.
func TestRemovedPartErrors(t *testing.T) {
	const head = "prefabs:\n  ship: {children: [{id: gun, children: [{id: muzzle}]}]}\nentities:\n"
	for _, tc := range []struct{ name, file, src, want string }{
		{"unknown path", "a.yaml", head + "  - {prefab: ship, parts: {gum: removed}}\n", `a.yaml:4:28: prefab "ship" has no part "gum" (did you mean "gun"?)`},
		{"change inside removed", "a.yaml", head + "  - {prefab: ship, parts: {gun/muzzle: {visible: false}, gun: removed}}\n",
			`a.yaml:4:28: part "gun/muzzle" is inside the part "gun", which this instance removes`},
		{"removed inside removed", "a.yaml", head + "  - {prefab: ship, parts: {gun: removed, gun/muzzle: removed}}\n",
			`a.yaml:4:42: part "gun/muzzle" is inside the part "gun", which this instance removes`},
		{"misspelt", "a.yaml", head + "  - {prefab: ship, parts: {gun: remove}}\n",
			`a.yaml:4:33: part "gun": want its changes (components, class, mixin, children) or "removed" for a part the instance does not have, not "remove"`},
		{"a list", "a.yaml", head + "  - {prefab: ship, parts: {gun: [removed]}}\n", `a.yaml:4:33: entity must be a mapping, not a list`},
		{"xml attribute", "a.xml", `<scene><prefab name="s"><entity id="g"/></prefab><entity prefab="s"><removed path="g" visible="false"/></entity></scene>`,
			`a.xml:1:87: unknown attribute "visible" on <removed> (want path): a removed part takes nothing but its path`},
		{"xml without path", "a.xml", `<scene><prefab name="s"><entity id="g"/></prefab><entity prefab="s"><removed/></entity></scene>`,
			`a.xml:1:69: <removed> needs a path attribute`},
		{"xml child", "a.xml", `<scene><prefab name="s"><entity id="g"/></prefab><entity prefab="s"><removed path="g"><entity/></removed></entity></scene>`,
			`a.xml:1:87: unknown element <entity> in <removed>`},
		{"xml in a prefab", "a.xml", `<scene><prefab name="s"><removed path="g"/></prefab></scene>`,
			`a.xml:1:25: unknown element <removed> in <prefab> (want <entity>)`},
		{"json misspelt", "a.json", `{"prefabs": {"s": {"children": [{"id": "g"}]}}, "entities": [{"prefab": "s", "parts": {"g": "gone"}}]}`,
			`a.json:1:93: part "g": want its changes (components, class, mixin, children) or "removed" for a part the instance does not have, not "gone"`},
		{"json dump part body", "a.json", `{"prefabs": {"s": {"children": [{"id": "g"}]}}, "entities": [{"prefab": "s", "parts": {"g": {}}}]}`,
			`a.json:1:93: part "g": an entity of a dump lists in "parts" only the parts it does not have ("removed"); a part's changes are written on its own entity, with "part"`},
		{"json body misspelt", "a.json", `{"prefabs": {"s": {"children": [{"id": "g"}]}, "t": {"children": [{"prefab": "s", "parts": {"g": "gone"}}]}}}`,
			`a.json:1:98: part "g": want its changes (components, class, mixin, children) or "removed" for a part the instance does not have, not "gone"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadBytes(newTestRegistry(t), tc.file, []byte(tc.src), Options{})
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

// TestReloadRemovedPart: writing `removed` for a part destroys it on
// reload (and what is below it); taking it out again creates the part
// anew; the rest of the instance keeps its runtime state.
func TestReloadRemovedPart(t *testing.T) {
	const v1 = `
prefabs:
  ship:
    children:
      - id: gun
        children: [{id: muzzle}]
      - id: radar
entities:
  - id: f
    prefab: ship
`
	const v2 = v1 + "    parts: {gun: removed}\n"
	env := newReloadEnv(t, v1)
	radar, _ := env.reg.EntityByID("f/radar")
	if err := env.reg.Set(radar, "position", "7 7 7"); err != nil {
		t.Fatal(err)
	}
	d, err := env.reload(v2)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(entries(d, env), "\n"); got != "- #f/gun\n- #f/gun/muzzle" {
		t.Errorf("entries:\n%s", got)
	}
	if _, ok := env.reg.EntityByID("f/gun"); ok {
		t.Error("the removed part is still there")
	}
	if got := env.attr(radar, "position"); got != "7 7 7" {
		t.Errorf("radar moved to %q", got)
	}
	d, err = env.reload(v1)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(entries(d, env), "\n"); got != "+ #f/gun\n+ #f/gun/muzzle" {
		t.Errorf("entries:\n%s", got)
	}
	f, _ := env.reg.EntityByID("f")
	gun, ok := env.reg.EntityByID("f/gun")
	if !ok || env.reg.Prefabs().PartKey(gun) != "gun" || env.reg.World().Children(f)[0] != gun {
		t.Error("the part is not back, first, with its key")
	}
}
