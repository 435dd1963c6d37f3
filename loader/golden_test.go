package loader

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

var update = flag.Bool("update", false, "rewrite the golden dumps in testdata/golden")

// Sound is a multiple component registered by the golden tests.
type Sound struct {
	Src    string  `scene:"src"`
	Volume float64 `scene:"volume,default=1,min=0,max=1"`
	Loop   bool    `scene:"loop"`
}

// Audio configures the audio system registered by the golden tests.
type Audio struct {
	Volume float64 `scene:"volume,default=1"`
	Muted  bool    `scene:"muted"`
}

// newRichRegistry returns a Registry with the built-ins, the multiple
// component sound and the system audio.
func newRichRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newTestRegistry(tb)
	if _, err := registry.Register[Sound](reg, "sound", registry.Definition[Sound]{Multiple: true}); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.RegisterSystem[Audio](reg, "audio", registry.SystemDefinition[Audio]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// loadDump loads name from fsys into a fresh registry made by newReg and
// returns the registry and its dump.
func loadDump(t *testing.T, newReg func(testing.TB) *registry.Registry, fsys fs.FS, name string) (*registry.Registry, string) {
	t.Helper()
	reg := newReg(t)
	if _, err := Load(reg, fsys, name, Options{}); err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	return reg, dump(t, reg)
}

// TestGoldenCubes: the example scene in YAML and in XML builds the same
// World, spawned cubes included.
func TestGoldenCubes(t *testing.T) {
	ry, y := loadDump(t, newTestRegistry, scenes.FS, "cubes.yaml")
	rx, x := loadDump(t, newTestRegistry, scenes.FS, "cubes.xml")
	if y != x {
		t.Errorf("cubes.yaml and cubes.xml dump differently:\n%s", firstDiff(y, x))
	}
	if ry.World().Len() != 10003 || rx.World().Len() != 10003 {
		t.Errorf("entities: yaml %d, xml %d; want 10003 (camera, ground, spawner, 10,000 cubes)", ry.World().Len(), rx.World().Len())
	}
	cubes, err := ry.QueryAll("[cube]")
	if err != nil || len(cubes) != 10000 {
		t.Errorf("[cube]: %d entities, %v", len(cubes), err)
	}
}

// TestGoldenRich: the hand-written pair rich.yaml / rich.xml builds the
// same World in both spellings, equal to the reviewed golden dump
// rich.dump.json (go test -run TestGoldenRich -update rewrites it).
func TestGoldenRich(t *testing.T) {
	fsys := os.DirFS("testdata/golden")
	reg, y := loadDump(t, newRichRegistry, fsys, "rich.yaml")
	_, x := loadDump(t, newRichRegistry, fsys, "rich.xml")
	if y != x {
		t.Fatalf("rich.yaml and rich.xml dump differently:\n%s", firstDiff(y, x))
	}
	golden := "testdata/golden/rich.dump.json"
	if *update {
		if err := os.WriteFile(golden, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if y != string(want) {
		t.Errorf("dump differs from %s:\n%s", golden, firstDiff(string(want), y))
	}
	if n := reg.World().Len(); n != 9 {
		t.Errorf("%d entities, want 9", n)
	}
}

// TestRichSemantics spells out what the golden dump must say, so that a
// wrong golden file cannot pass: mixin precedence per property, nested
// mixins, multiple instances, classes, tags, ids and system settings.
func TestRichSemantics(t *testing.T) {
	for _, name := range []string{"rich.yaml", "rich.xml"} {
		t.Run(name, func(t *testing.T) {
			reg, _ := loadDump(t, newRichRegistry, os.DirFS("testdata/golden"), name)
			attr := func(id, comp string) string {
				t.Helper()
				e, ok := reg.EntityByID(id)
				if !ok {
					t.Fatalf("no entity %q", id)
				}
				s, err := reg.Attr(e, comp)
				if err != nil {
					return "<" + err.Error() + ">"
				}
				return s
			}
			for _, c := range []struct{ id, comp, want string }{
				// own hp beats the mixins; walker's max beats base's
				{"hero", "health", "hp: 75; max: 80"},
				// runner (listed) beats walker (its part)
				{"hero", "mode", "run"},
				{"hero", "scale", "2 2 2"},
				{"hero", "velocity", "1 0 0"},
				{"hero", "visible", "false"},
				{"hero", "tint", "#ff0000"},
				{"hero", "sound__idle", "src: idle.ogg; volume: 0.25; loop: false"},
				{"hero", "sound__step", "src: step.ogg; volume: 1; loop: true"},
				{"hero", "boss", ""},
				{"hero", "npc", ""},
				{"shield", "health", "hp: 0; max: 50"},
				{"shield", "sound__idle", "src: idle.ogg; volume: 1; loop: false"},
				{"blade", "lifetime", "seconds: 2.5; age: 0"},
				{"blade", "level", "3"},
				{"villager's", "tint", "#0080ff"},
				{"villager's", "mode", "walk"},
				{"villager's", "health", "hp: 50; max: 80"},
			} {
				if got := attr(c.id, c.comp); got != c.want {
					t.Errorf("%s %s = %q, want %q", c.id, c.comp, got, c.want)
				}
			}
			hero, _ := reg.EntityByID("hero")
			if got := reg.Classes(hero); !reflect.DeepEqual(got, []string{"player", "brave"}) {
				t.Errorf("hero classes %v", got)
			}
			blade, _ := reg.EntityByID("blade")
			if got := export.EntityPath(reg, blade); got != "blade" {
				t.Errorf("blade path %q", got)
			}
			p, _ := reg.World().Parent(blade)
			if got := reg.Classes(p); !reflect.DeepEqual(got, []string{"weapon", "left"}) {
				t.Errorf("blade's parent classes %v", got)
			}
			if got := export.EntityPath(reg, p); got != "hero/0" {
				t.Errorf("blade's parent path %q", got)
			}
			if bosses, _ := reg.QueryAll("[boss]"); len(bosses) != 2 {
				t.Errorf("[boss]: %d entities, want 2", len(bosses))
			}
			for _, c := range []struct{ sys, want string }{
				{"physics", "step: 0.02; maxSteps: 4"},
				{"audio", "volume: 0.5; muted: true"},
			} {
				s, _ := reg.System(c.sys)
				if got := s.Schema.PrintAttr(s.Values()); got != c.want {
					t.Errorf("system %s = %q, want %q", c.sys, got, c.want)
				}
			}
		})
	}
}

// TestEveryExampleLoads loads every scene under scenes/ and checks that
// scenes written in both spellings (same base name) build the same World.
func TestEveryExampleLoads(t *testing.T) {
	names, err := fs.Glob(scenes.FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	dumps := map[string]string{}
	n := 0
	for _, name := range names {
		if f := scenefile.FormatOf(name); f != scenefile.FormatYAML && f != scenefile.FormatXML {
			continue
		}
		n++
		reg, d := loadDump(t, newTestRegistry, scenes.FS, name)
		if reg.World().Len() == 0 {
			t.Errorf("%s: no entities", name)
		}
		base := strings.TrimSuffix(name, path.Ext(name))
		if other, ok := dumps[base]; ok && other != d {
			t.Errorf("%s and its other spelling dump differently:\n%s", name, firstDiff(other, d))
		}
		dumps[base] = d
	}
	if n < 4 {
		t.Errorf("only %d example scenes found", n)
	}
}

// TestMixinsAgreeWithRegistry: an entity built by the loader from a mixin
// list has the values registry.Instantiate (used by the spawner) gives
// for the same list, including lists naming a mixin and one of its parts
// in either order.
func TestMixinsAgreeWithRegistry(t *testing.T) {
	lists := []string{"base", "walker", "runner", "walker base", "base walker", "runner walker base",
		"base runner", "red runner", "runner red walker", "walker walker", "red base red"}
	var b strings.Builder
	b.WriteString("mixins:\n  base: {visible: \"false\", health: \"hp: 50; max: 50\", mode: fly}\n" +
		"  walker: {mixin: base, mode: walk, health: \"max: 80\", scale: 1 1 1}\n" +
		"  runner: {mixin: walker, mode: run, scale: 2 2 2}\n  red: {tint: \"#ff0000\", mode: fly, scale: 3 3 3}\n" +
		"components:\n  health: {hp: {type: int}, max: {type: int}}\n  mode: {type: string}\n  tint: {type: color}\nentities:\n")
	for i, l := range lists {
		fmt.Fprintf(&b, "  - {id: e%d, mixin: %s}\n", i, l)
	}
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "m.yaml", []byte(b.String()), Options{}); err != nil {
		t.Fatal(err)
	}
	for i, l := range lists {
		e, _ := reg.EntityByID(fmt.Sprintf("e%d", i))
		inst, err := reg.Mixins().Instantiate(e, strings.Fields(l), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, want := reg.EntityComponents(e), reg.EntityComponents(inst)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("mixin %q: loader gives %v, registry %v", l, got, want)
			continue
		}
		for _, c := range got {
			if c == "world" {
				continue // inst is e's child: its world transform is e's times its own
			}
			g, _ := reg.Attr(e, c)
			w, _ := reg.Attr(inst, c)
			if g != w {
				t.Errorf("mixin %q: %s = %q from the loader, %q from the registry", l, c, g, w)
			}
		}
	}
	// The case that was wrong: runner (listed last) must beat walker.
	e, _ := reg.EntityByID("e6") // base runner
	if got, _ := reg.Attr(e, "mode"); got != "run" {
		t.Errorf("mixin \"base runner\": mode %q, want run", got)
	}
	e, _ = reg.EntityByID("e3") // walker base: base is walker's part
	if got, _ := reg.Attr(e, "mode"); got != "walk" {
		t.Errorf("mixin \"walker base\": mode %q, want walk", got)
	}
}

// TestMixinNestingIsLinear: a mixin reached many times through nesting is
// expanded once (this input used to take exponential time).
func TestMixinNestingIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("mixins:\n  m0: {scale: 5 5 5}\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "  m%d: {mixin: m%d m%d}\n", i, i-1, i-1)
	}
	b.WriteString("entities:\n  - {id: x, mixin: m60 m59}\n")
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "m.yaml", []byte(b.String()), Options{}); err != nil {
		t.Fatal(err)
	}
	x, _ := reg.EntityByID("x")
	if got, _ := reg.Attr(x, "scale"); got != "5 5 5" {
		t.Errorf("scale %q", got)
	}
}

// TestOverlay: overlaying own components on composed mixins is
// registry.Compose, without modifying its inputs.
func TestOverlay(t *testing.T) {
	reg := newTestRegistry(t)
	pv := func(kv ...any) registry.Patch {
		var p registry.Patch
		for i := 0; i < len(kv); i += 2 {
			p = append(p, registry.PropValue{Index: kv[i].(int), Value: kv[i+1]})
		}
		return p
	}
	ms := []*registry.Mixin{
		{ID: "a", Components: []registry.NamedPatch{{Name: "x", Patch: pv(0, 1, 1, 2)}, {Name: "y", Patch: pv(0, 3)}}},
		{ID: "b", Components: []registry.NamedPatch{{Name: "y", Patch: pv(1, 4)}, {Name: "z"}}},
	}
	owns := [][]registry.NamedPatch{
		nil,
		{{Name: "x", Patch: pv(1, 9)}},
		{{Name: "w", Patch: pv(0, 7)}, {Name: "y", Patch: pv(0, 8, 2, 8)}},
		{{Name: "x", Patch: pv(0, 5)}, {Name: "x", Patch: pv(0, 6)}}, // repeated (a JSON dump may repeat keys)
	}
	for i := range 20 {
		owns = append(owns, []registry.NamedPatch{{Name: fmt.Sprintf("c%d", i), Patch: pv(0, i)}, {Name: "y", Patch: pv(0, i)}})
	}
	for _, own := range owns {
		for _, mixins := range [][]*registry.Mixin{nil, ms} {
			base := reg.Mixins().Compose(mixins, nil)
			snapshot := fmt.Sprint(base, own)
			got := plan.Overlay(base, own)
			want := reg.Mixins().Compose(mixins, own)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("plan.Overlay(%v, %v) = %v, want %v", base, own, got, want)
			}
			if fmt.Sprint(base, own) != snapshot {
				t.Errorf("overlay modified its inputs")
			}
		}
	}
}

// firstDiff shows where two dumps first differ, line by line.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, x, y)
		}
	}
	return "(equal)"
}

// dumpCount returns the number of entities in a JSON dump.
func dumpCount(t *testing.T, d string) int {
	t.Helper()
	var v struct{ Entities []json.RawMessage }
	if err := json.NewDecoder(bytes.NewReader([]byte(d))).Decode(&v); err != nil {
		t.Fatalf("dump is not JSON: %v", err)
	}
	return len(v.Entities)
}
