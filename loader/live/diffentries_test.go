package live

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// entriesScene loads src (YAML) into a fresh registry with the built-ins.
func entriesScene(t *testing.T, src string) (*registry.Registry, *Scene) {
	t.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	s, err := LoadBytes(reg, "scene.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return reg, s
}

// entryLines returns the String of each entry.
func entryLines(es []DiffEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

const entriesBase = `scene:
  physics: "step: 0.02"
components:
  health: {hp: {type: int, default: 100}, max: {type: int, default: 100}}
mixins:
  rock:
    enemy:
    spin: "axis: 0 0 1; speed: 45"
entities:
  - id: goblin-1
    class: monster
    health: {hp: 40}
    position: 1 2 3
  - id: ship
    position: 0 0 0
    children:
      - position: 1 0 0
      - position: 2 0 0
        children:
          - position: 3 0 0
  - id: rock-1
    mixin: rock
  - id: old
    lifetime: "seconds: 2"
    children:
      - id: old-child
`

// TestDiffEntries: every kind of change is one entry per entity, component
// and property, with old and new values printed, entities named by id or
// path (never a count), before and after Apply.
func TestDiffEntries(t *testing.T) {
	edited := `scene:
  physics: "step: 0.01"
components:
  health: {hp: {type: int, default: 100}, max: {type: int, default: 100}}
mixins:
  rock:
    enemy:
    spin: "axis: 0 0 1; speed: 90"
entities:
  - id: goblin-1
    class: monster boss
    health: {hp: 25, max: 50}
    position: 1 2 4
    velocity: 0 1 0
  - id: ship
    children:
      - position: 1 0 0
      - position: 2 0 0
        children:
          - position: 3 0 0
          - id: newborn
            position: 4 0 0
  - id: rock-1
    mixin: rock
  - position: 9 9 9
    children:
      - id: grandchild
`
	want := []string{
		"+ #newborn",
		"+ 3",
		"+ #grandchild",
		"- #old",
		"- #old-child",
		"~ #goblin-1 +velocity 0 1 0",
		"~ #goblin-1 health.hp 40 → 25",
		"~ #goblin-1 health.max 100 → 50",
		"~ #goblin-1 position 1 2 3 → 1 2 4",
		"~ #goblin-1 class monster → monster boss",
		"~ #ship -position",
		"~ #rock-1 spin.speed 45 → 90",
		"~ mixin rock (changed)",
		"~ scene physics.step 0.02 → 0.01",
	}
	for _, applied := range []bool{false, true} {
		reg, s := entriesScene(t, entriesBase)
		doc, err := scenefile.Read("scene.yaml", []byte(edited), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		plan, err := compileDoc(doc, reg)
		if err != nil {
			t.Fatal(err)
		}
		d := s.Diff(plan)
		if applied {
			if err := s.Apply(d); err != nil {
				t.Fatal(err)
			}
		}
		got := entryLines(d.Entries(reg))
		if !slices.Equal(got, want) {
			t.Errorf("applied=%v: entries\n%s\nwant\n%s", applied, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestDiffEntriesUnnamed: entities without ids are named by their live
// path, created and destroyed subtrees entity by entity.
func TestDiffEntriesUnnamed(t *testing.T) {
	reg, s := entriesScene(t, `entities:
  - position: 0 0 0
    children:
      - position: 1 0 0
      - position: 2 0 0
`)
	doc, _ := scenefile.Read("scene.yaml", []byte(`entities:
  - position: 0 0 0
    children:
      - position: 1 0 5
  - position: 7 0 0
    children:
      - position: 8 0 0
      - position: 9 0 0
`), scenefile.Limits{})
	plan, err := compileDoc(doc, reg)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Diff(plan)
	if err := s.Apply(d); err != nil {
		t.Fatal(err)
	}
	got := entryLines(d.Entries(reg))
	want := []string{"+ 1", "+ 1/0", "+ 1/1", "- 0/1", "~ 0/0 position 1 0 0 → 1 0 5"}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// JSON: kinds by name, positions left out.
	b, err := json.Marshal(d.Entries(reg)[4])
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"kind":"changed","entity":"0/0","component":"position","old":"1 0 0","new":"1 0 5"}` {
		t.Errorf("JSON: %s", b)
	}
}

// TestDiffEntriesDecl: a declaration whose schema changes is an entry,
// and values are printed with the schema of their own side.
func TestDiffEntriesDecl(t *testing.T) {
	reg, s := entriesScene(t, `components:
  mood: {level: {type: int, default: 1}}
entities:
  - id: a
    mood: {level: 2}
`)
	doc, _ := scenefile.Read("scene.yaml", []byte(`components:
  mood: {level: {type: number, default: 1}, label: {type: string, default: calm}}
entities:
  - id: a
    mood: {level: 2.5, label: angry}
`), scenefile.Limits{})
	plan, err := compileDoc(doc, reg)
	if err != nil {
		t.Fatal(err)
	}
	d := s.Diff(plan)
	if err := s.Apply(d); err != nil {
		t.Fatal(err)
	}
	got := entryLines(d.Entries(reg))
	want := []string{"~ #a mood.level 2 → 2.5", "~ #a mood.label \"\" → angry", "~ components mood (schema changed)"}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if k := DiffKind(0).String(); k != "unknown" {
		t.Errorf("zero kind: %q", k)
	}
}
