package plan_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// decls declares the components the error cases use, in YAML.
const decls = "components:\n  health: {hp: {type: int, default: 100, min: 0, max: 1000}, max: {type: int, default: 100, min: 1}}\n  level: {type: number, default: 1, min: 1, max: 10}\n"

// TestCompileErrors has one case per kind of compile error, in both
// spellings where they differ, with the exact "file:line:col: message".
func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, src, want string
	}{
		{"unknown component yaml", "a.yaml", decls + "entities:\n  - helth: \"hp: 5\"\n",
			`a.yaml:5:5: unknown component "helth" (did you mean "health"?)`},
		{"unknown component xml", "a.xml", "<scene>\n  <entity id=\"x\" positon=\"1 2 3\"/>\n</scene>",
			`a.xml:2:18: unknown component "positon" (did you mean "position"?)`},
		{"world is computed", "a.yaml", "entities:\n  - position: 1 2 3\n    world: \"position: 1 2 3\"\n",
			`a.yaml:3:5: "world" is read-only (computed by the transform system from position, rotation and scale: set those instead) and cannot be written in a scene`},
		{"world is computed xml", "a.xml", "<scene>\n  <entity world=\"position: 1 2 3\"/>\n</scene>",
			`a.xml:2:11: "world" is read-only (computed by the transform system from position, rotation and scale: set those instead) and cannot be written in a scene`},
		{"dump key not read-only", "a.json", `{"entities":[{"path":"0","parent":null,"components":{},"position":{"x":1}}]}`,
			`a.json:1:56: unknown entity key "position": beside "components", a dump's entity has only the values of read-only components`},
		{"unknown component no suggestion", "a.yaml", "entities:\n  - zzzzzzzz: 1\n",
			`a.yaml:2:5: unknown component "zzzzzzzz"`},
		{"unknown system", "a.yaml", "scene:\n  phyiscs: \"step: 1\"\n",
			`a.yaml:2:3: unknown system "phyiscs" (did you mean "physics"?)`},
		{"bad value yaml quoted", "a.yaml", "entities:\n  - spin: \"speed: 5; axis: 1 x 0\"\n",
			`a.yaml:2:30: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"bad value yaml plain", "a.yaml", "entities:\n  - position: 1 2 x\n",
			`a.yaml:2:19: position: invalid value "x": expected a number for z of a vec3 (axes are separated by spaces)`},
		{"bad value yaml mapping", "a.yaml", "entities:\n  - spin:\n      speed: 5\n      axis: \"1 x 0\"\n",
			`a.yaml:4:16: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"bad value yaml folded", "a.yaml", "entities:\n  - spin: >\n      speed: 5;\n      axis: 1 x 0\n",
			`a.yaml:4:15: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"bad value yaml escapes", "a.yaml", "entities:\n  - spin: \"speed: 5;\\taxis: 1 x 0\"\n",
			`a.yaml:2:31: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"unknown property yaml", "a.yaml", "entities:\n  - spin: {speed: 5, axs: 1 2 0}\n",
			`a.yaml:2:22: spin: unknown property "axs" (did you mean "axis"?)`},
		{"bad value xml", "a.xml", "<scene>\n  <entity spin=\"speed: 5; axis: 1 x 0\"/>\n</scene>",
			`a.xml:2:35: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"bad value xml multi-line tag", "a.xml", "<scene>\n  <entity\n     id=\"x\"\n     spin=\"speed: 5;\n           axis: 1 x 0\"\n  />\n</scene>",
			`a.xml:5:20: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"bad value xml references", "a.xml", "<scene>\n  <entity spin=\"speed: &#53;; axis: 1 x 0\"/>\n</scene>",
			`a.xml:2:39: spin: property "axis": invalid value "x": expected a number for y of a vec3 (axes are separated by spaces)`},
		{"single-property mapping with other keys", "a.yaml", "entities:\n  - position: {x: 1, z: 3}\n",
			`a.yaml:2:22: position: a single-property value written as a mapping takes the axes x, y, z, w in order; found "z"`},
		{"unknown mixin", "a.yaml", "mixins:\n  cube: {scale: 1 1 1}\nentities:\n  - mixin: cub\n",
			`a.yaml:4:12: unknown mixin "cub" (did you mean "cube"?)`},
		{"unknown mixin in a mixin", "a.xml", "<scene>\n  <mixin id=\"big\" mixin=\"cube\"/>\n</scene>",
			`a.xml:2:26: mixin "big": unknown mixin "cube"`},
		{"mixin cycle", "a.yaml", "mixins:\n  a: {mixin: b, scale: 1 1 1}\n  b: {mixin: c}\n  c: {mixin: a}\n",
			// A cycle is reported once, where it is entered first.
			"a.yaml:2:14: mixin \"a\": mixin cycle: a -> b -> c -> a"},
		{"mixin cycle from an entity", "a.xml", "<scene>\n  <mixin id=\"a\" mixin=\"a\"/>\n  <entity mixin=\"a\"/>\n</scene>",
			// Not again at the entity using the mixin.
			"a.xml:2:24: mixin \"a\": mixin cycle: a -> a"},
		{"duplicate ids", "a.yaml", "entities:\n  - id: x\n  - id: y\n    children:\n      - id: x\n",
			`a.yaml:5:13: duplicate entity id "x" (first at a.yaml:2:9)`},
		{"min violated", "a.yaml", decls + "entities:\n  - health: \"hp: -5\"\n",
			`a.yaml:5:18: health: property "hp": invalid value "-5": expected an integer between 0 and 1000`},
		{"max violated xml", "a.xml", "<scene>\n  <components>\n    <component name=\"level\" type=\"number\" max=\"10\"/>\n  </components>\n  <entity level=\"11\"/>\n</scene>",
			`a.xml:5:18: level: invalid value "11": expected a number <= 10`},
		{"min violated in a mapping", "a.yaml", decls + "entities:\n  - health: {hp: 5, max: 0}\n",
			`a.yaml:5:26: health: property "max": invalid value "0": expected an integer >= 1`},
		{"value for a tag used before", "a.yaml", "entities:\n  - boss:\n  - boss: \"big\"\n",
			`a.yaml:3:11: "boss" is used as a tag elsewhere in the scene and takes no value`},
		{"value for a tag used after", "a.xml", "<scene>\n  <entity boss=\"big\"/>\n  <entity boss=\"\"/>\n</scene>",
			`a.xml:2:17: "boss" is used as a tag elsewhere in the scene and takes no value`},
		{"value for a declared tag", "a.yaml", "components:\n  npc: {}\nentities:\n  - npc: \"yes\"\n",
			`a.yaml:4:10: npc: invalid text "yes": expected no value (npc has no properties)`},
		{"instance of a component that is not multiple", "a.yaml", "entities:\n  - position__a: 1 2 3\n",
			`a.yaml:2:5: component "position" is not multiple: instance name "position__a" is not allowed`},
		{"declaration of a read-only component of the program", "a.yaml", "components:\n  world: {type: vec3}\n",
			`a.yaml:2:3: component "world" is the program's and read-only; a scene cannot declare its own`},
		{"bad declaration", "a.yaml", "components:\n  size: {type: nosuch}\n",
			`a.yaml:2:3: component "size": the unnamed property: unknown property type "nosuch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := newTestRegistry(t)
			before := dump(t, reg)
			_, err := loader.LoadBytes(reg, tc.file, []byte(tc.src), loader.Options{})
			if err == nil {
				t.Fatalf("no error, want\n%s", tc.want)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			var list scenefile.ErrorList
			if !errors.As(err, &list) || len(list) != strings.Count(tc.want, "\n")+1 {
				t.Errorf("error is not an ErrorList of %d: %#v", strings.Count(tc.want, "\n")+1, err)
			}
			if got := dump(t, reg); got != before || reg.World().Len() != 0 {
				t.Errorf("World changed by a failed load:\n%s", firstDiff(before, got))
			}
		})
	}
}

// TestAllProblemsAtOnce: read errors and compile errors of every kind are
// reported together, sorted by position, by Load, LoadBytes and
// CheckFile alike.
func TestAllProblemsAtOnce(t *testing.T) {
	src := decls +
		"mixins:\n  a: {mixin: a}\n" + // lines 4-5
		"entities:\n" +
		"  - id: x\n" + // 7
		"    helth: \"hp: 1\"\n" + // 8
		"    health: \"hp: -1\"\n" + // 9
		"  - id: x\n" + // 10
		"    mixin: cub\n" + // 11
		"    position: 1 2 3 4\n" // 12
	want := "a.yaml:5:14: mixin \"a\": mixin cycle: a -> a\n" +
		"a.yaml:8:5: unknown component \"helth\" (did you mean \"health\"?)\n" +
		"a.yaml:9:18: health: property \"hp\": invalid value \"-1\": expected an integer between 0 and 1000\n" +
		"a.yaml:10:9: duplicate entity id \"x\" (first at a.yaml:7:9)\n" +
		"a.yaml:11:12: unknown mixin \"cub\"\n" +
		"a.yaml:12:21: position: invalid value \"4\": expected at most 3 numbers (a vec3 is written \"x y z\")"
	check := func(how string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: no error", how)
		}
		if got := err.Error(); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", how, got, want)
		}
	}
	reg := newTestRegistry(t)
	_, err := loader.LoadBytes(reg, "a.yaml", []byte(src), loader.Options{})
	check("LoadBytes", err)
	_, err = loader.Load(reg, fstestFS{"a.yaml": src}.FS(), "a.yaml", loader.Options{})
	check("Load", err)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = loader.CheckFile(reg, filepath.Join(dir, "a.yaml"), loader.Options{})
	// Positions name the file by its path; references inside messages
	// ("first at") keep the name relative to the scene's directory.
	wantFile := filepath.Join(dir, "a.yaml") + ":" + strings.ReplaceAll(want, "\na.yaml:", "\n"+filepath.Join(dir, "a.yaml")+":")[len("a.yaml:"):]
	if err == nil || err.Error() != wantFile {
		t.Errorf("CheckFile: got\n%v", err)
	}
	if reg.World().Len() != 0 {
		t.Errorf("World changed")
	}
}

// TestBuildAllOrNothing: what only the World can tell (an id already in
// use, a declaration clashing with one made by an earlier scene) is
// checked before anything changes: the failed load leaves entities,
// declarations, mixins and system settings exactly as they were.
func TestBuildAllOrNothing(t *testing.T) {
	reg := newTestRegistry(t)
	first := "scene:\n  physics: \"step: 0.5\"\ncomponents:\n  health: {hp: {type: int}}\nmixins:\n  m: {scale: 2 2 2}\n" +
		"entities:\n  - id: hero\n    health: \"hp: 5\"\n    mixin: m\n    children:\n      - id: kid\n"
	if _, err := loader.LoadBytes(reg, "first.yaml", []byte(first), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	before, n := dump(t, reg), reg.World().Len()
	second := "scene:\n  physics: \"step: 0.25\"\n" + // 1-2
		"components:\n  health: {hp: {type: number}}\n  mana: {type: int}\n" + // 3-5
		"mixins:\n  m: {scale: 3 3 3}\n" + // 6-7
		"entities:\n  - id: other\n    mana: 3\n  - id: hero\n    children:\n      - id: kid\n" // 8-13
	_, err := loader.LoadBytes(reg, "second.yaml", []byte(second), loader.Options{})
	want := "second.yaml:4:3: component \"health\" is already registered with another schema\n" +
		"second.yaml:11:9: entity id \"hero\" is already used in the World\n" +
		"second.yaml:13:13: entity id \"kid\" is already used in the World"
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	if got := dump(t, reg); got != before || reg.World().Len() != n {
		t.Errorf("World changed by a failed load:\n%s", firstDiff(before, got))
	}
	if _, ok := reg.Component("mana"); ok {
		t.Errorf("mana was declared by a failed load")
	}
	if m, _ := reg.Mixins().Get("m"); m == nil || len(m.Components) != 1 || m.Components[0].Patch[0].Value != (registry.Vec3{X: 2, Y: 2, Z: 2}) {
		t.Errorf("mixin m replaced by a failed load: %+v", m)
	}
	// The same scene without the clashes loads next to the first.
	ok := strings.NewReplacer("{type: number}", "{type: int}", "id: hero", "id: hero2", "id: kid", "id: kid2").Replace(second)
	if _, err := loader.LoadBytes(reg, "second.yaml", []byte(ok), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := reg.World().Len(); got != n+3 {
		t.Errorf("%d entities, want %d", got, n+3)
	}
}

// TestLongNamesQuotedShort: a scene whose names and values are 1 MiB
// long (a generated file) gets errors of one short line each, quoting
// the start of the name or value and its length, at the right place.
// Before, each error quoted the whole name.
func TestLongNamesQuotedShort(t *testing.T) {
	long := strings.Repeat("q", 1<<20)
	for _, tc := range []struct{ file, src, want string }{
		{"a.xml", "<scene>\n  <entity " + long + "=\"1\"/>\n</scene>\n", `a.xml:2:11: unknown component "qqq`},
		{"a.yaml", "entities:\n  - position: 1 2 " + long + "\n", `a.yaml:2:19: position: invalid value "qqq`},
		{"a.yaml", "entities:\n  - mixin: " + long + "\n", `a.yaml:2:12: unknown mixin "qqq`},
	} {
		_, err := loader.LoadBytes(newTestRegistry(t), tc.file, []byte(tc.src), loader.Options{})
		if err == nil {
			t.Fatalf("no error, want %s", tc.want)
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.HasPrefix(msg, tc.want) || !strings.Contains(msg, `qqq…" (1048576 bytes)`) {
			t.Errorf("%.400s... (%d bytes)\nwant one line starting %s and quoting qqq…\" (1048576 bytes)", msg, len(msg), tc.want)
		}
	}
}
