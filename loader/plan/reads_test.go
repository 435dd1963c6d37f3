package plan_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
)

// TestReadsComponentEntityLacks: an on or a bind whose expression reads a
// component its entity does not have would fail at the scene's first
// tick; the load refuses it at the read, for an entity written in the
// file and for a prefab's body (once, not per instance), written as an
// attribute string or a mapping. An entity that has the component
// (itself, through a mixin, a prefab, or as a dependency of another, as
// position brings world) loads, as does a handler that adds what it
// reads; of two entities sharing one value, only the one without the
// component is reported.
func TestReadsComponentEntityLacks(t *testing.T) {
	const decl = "components:\n  health:\n    hp: {type: number, default: 10}\n"
	const msg = "reads health, which the entity does not have: give it health (or a mixin or prefab that has it)"
	for _, tc := range []struct {
		name, src string
		want      []string // "" : the scene loads
	}{
		{"on, attribute string", "entities:\n  - on__hit: \"set: health.hp = health.hp - 1\"\n",
			[]string{"5:32: on__hit: " + msg}},
		{"bind, mapping", "entities:\n  - position: 0 0 0\n    bind: {position.x: health.hp * 2}\n",
			[]string{`6:24: bind: property "position.x": ` + msg}},
		{"prefab body, once for two instances", "prefabs:\n  egg:\n    on__hit: \"if: health.hp > 0; emit: cracked\"\nentities:\n  - prefab: egg\n  - prefab: egg\n",
			[]string{"6:19: on__hit: " + msg}},
		{"shared value, one entity lacks", "entities:\n  - health: \"hp: 3\"\n    on__hit: \"if: health.hp > 0; emit: e\"\n  - on__hit: \"if: health.hp > 0; emit: e\"\n",
			[]string{"7:19: on__hit: " + msg}},
		{"own", "entities:\n  - health: \"hp: 3\"\n    bind: \"health.hp: health.hp + 1\"\n", nil},
		{"through a mixin", "mixins:\n  alive: {health: \"hp: 3\"}\nentities:\n  - mixin: alive\n    on__hit: \"set: health.hp = health.hp - 1\"\n", nil},
		{"through a prefab", "prefabs:\n  body: {health: \"hp: 3\"}\nentities:\n  - prefab: body\n    on__hit: \"set: health.hp = health.hp - 1\"\n", nil},
		{"a dependency", "entities:\n  - position: 1 2 3\n    bind: \"scale.x: world.position.x\"\n", nil},
		{"added first", "entities:\n  - on__hit: \"add: health; set: health.hp = health.hp + 1\"\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(decl+tc.src), loader.Options{})
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			want := "a.yaml:" + strings.Join(tc.want, "\na.yaml:")
			if err == nil || err.Error() != want {
				t.Fatalf("got\n%v\nwant\n%s", err, want)
			}
		})
	}
}
