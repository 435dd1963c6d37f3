package live

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile/edit"
)

// checkScene is a scene with something of every kind next to the
// entity the edits change (hero's health): properties of the same
// component, other components, other entities, a mixin, prefabs (one
// unused), an instance with parts, a declaration, a setting.
const checkScene = `scene:
  physics: "step: 0.02"
components:
  level: {type: int, default: 1}
mixins:
  tough: {label: "font: bold"}
  unused: {label: "font: thin"}
prefabs:
  ship:
    label: "text: ship"
    children:
      - id: gun
        position: 1 0 0
  spare:
    label: "text: spare"
entities:
  - id: hero
    class: player
    mixin: tough
    position: 0 1 -5
    health: "hp: 100; max: 100"
    level: 2
    children:
      - id: kid
        position: 9 9 9
  - id: f1
    prefab: ship
    parts:
      gun: {position: 2 0 0}
  - id: other
    health: "hp: 7"
`

// neighbourCorruptions change, besides hero's hp (which the edit sets to
// 5), one thing of each kind the edit was not asked to change.
var neighbourCorruptions = []struct{ name, from, to string }{
	{"another property of the component", `"hp: 5; max: 100"`, `"hp: 5; max: 10"`},
	{"another component of the entity", "position: 0 1 -5", "position: 0 1 -6"},
	{"a declared component of the entity", "level: 2", "level: 3"},
	{"the entity's classes", "class: player", "class: players"},
	{"the entity's mixins", "mixin: tough", "mixin: unused"},
	{"a child", "position: 9 9 9", "position: 9 9 8"},
	{"another entity", `health: "hp: 7"`, `health: "hp: 8"`},
	{"a part of an instance", "gun: {position: 2 0 0}", "gun: {position: 3 0 0}"},
	{"an instance's prefab", "prefab: ship", "prefab: spare"},
	{"a prefab", `label: "text: ship"`, `label: "text: boat"`},
	{"a prefab no entity uses", `label: "text: spare"`, `label: "text: spore"`},
	{"a mixin", `tough: {label: "font: bold"}`, `tough: {label: "font: bolder"}`},
	{"a mixin no entity uses", `unused: {label: "font: thin"}`, `unused: {label: "font: thick"}`},
	{"a declaration", "default: 1}", "default: 2}"},
	{"a setting", `"step: 0.02"`, `"step: 0.03"`},
}

// TestEditChecksWholeFile: an edit that sets hero's hp as asked but also
// changes something else is refused by both checks: the reading of the
// file (verifyEdit, for EditComponent) and the compiled scene
// (checkEdit, for save-back), whatever the something else is.
func TestEditChecksWholeFile(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": checkScene}, "main.yaml")
	hero := env.entity("hero")
	q, err := env.rl.saveRequest(hero, "health", "hp: 5", false)
	if err != nil {
		t.Fatal(err)
	}
	src := []byte(checkScene)
	ent := q.node.Src
	good, err := editComponentChecked(src, ent, "health", q.comp.Schema, q.props)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(checkScene, `"hp: 100; max: 100"`, `"hp: 5; max: 100"`, 1); string(good) != want {
		t.Fatalf("the edit:\n%s", good)
	}
	path := filepath.Join(env.dir, "main.yaml")
	if _, err := env.rl.checkEdit(q, ent, path, src, good, nil); err != nil {
		t.Fatalf("the right edit is refused: %v", err)
	}
	for _, c := range neighbourCorruptions {
		t.Run(c.name, func(t *testing.T) {
			if strings.Count(string(good), c.from) != 1 {
				t.Fatalf("%q occurs %d times", c.from, strings.Count(string(good), c.from))
			}
			bad := []byte(strings.Replace(string(good), c.from, c.to, 1))
			if err := edit.Verify(src, bad, ent, "health", setCheck(q.comp.Schema, q.props)); !errors.Is(err, ErrCannotEdit) {
				t.Errorf("the reading of the file lets it through: %v", err)
			}
			if _, err := env.rl.checkEdit(q, ent, path, src, bad, nil); err == nil && !strings.Contains(c.name, "no entity uses") {
				t.Errorf("the compiled check lets it through")
			}
		})
	}
	if b, _ := os.ReadFile(path); string(b) != checkScene {
		t.Fatal("a check wrote the file")
	}
}
