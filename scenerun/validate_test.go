package scenerun

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// lap is a program's component with two properties that can go wrong.
type lap struct {
	Speed float64 `scene:"speed,min=0"`
	Laps  int     `scene:"laps,default=3"`
}

// TestValidateEveryBadProperty: validate reports each bad property of a
// component value on a line of its own, at the property's place inside
// the value, for a program's components and the built-ins, in YAML and
// XML alike.
func TestValidateEveryBadProperty(t *testing.T) {
	game := Program{Name: "game", Register: func(reg *registry.Registry, b *components.Builtins) error {
		if b == nil {
			return errors.New("no built-ins")
		}
		_, err := registry.Register(reg, "lap", registry.Definition[lap]{})
		return err
	}}
	yaml := sceneFile(t, "s.yaml", "entities:\n  - lap: \"speed: -3; laps: 1.5\"\n    spin: {speed: x, axis: 1 y 0}\n")
	xml := sceneFile(t, "s.xml", "<scene>\n  <entity lap=\"laps: 2.5; speed: -1\"/>\n</scene>\n")
	code, out, errOut := runProg(game, "validate", yaml, xml)
	want := yaml + `:2:18: lap: property "speed": invalid value "-3": expected a number >= 0` + "\n" +
		yaml + `:2:28: lap: property "laps": invalid value "1.5": expected an integer` + "\n" +
		yaml + `:3:19: spin: property "speed": invalid value "x": expected a number` + "\n" +
		yaml + `:3:30: spin: property "axis": invalid value "y": expected a number for y of a vec3 (axes are separated by spaces)` + "\n" +
		xml + `:2:22: lap: property "laps": invalid value "2.5": expected an integer` + "\n" +
		xml + `:2:34: lap: property "speed": invalid value "-1": expected a number >= 0` + "\n"
	if code != ExitScene || out != "" || errOut != want {
		t.Errorf("validate: exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errOut, want)
	}
	if n := strings.Count(errOut, "\n"); n != 6 {
		t.Errorf("%d lines, want one per bad property (6)", n)
	}
}

// TestValidateReadsComponentEntityLacks: validate refuses an on (on an
// entity, on a prefab's body) or a bind that reads a component its
// entity lacks, which dump would fail on at tick 1; the same scene with
// the component given passes both.
func TestValidateReadsComponentEntityLacks(t *testing.T) {
	const head = "components:\n  health:\n    hp: {type: number, default: 10}\nprefabs:\n  egg:\n    on__hit: \"set: health.hp = health.hp - 1\"\n"
	bad := sceneFile(t, "bad.yaml", head+"entities:\n  - id: a\n    timer: \"delay: 0; event: hit\"\n    bind: \"position.x: health.hp * 2\"\n  - prefab: egg\n")
	code, _, errOut := runProg(Program{Name: "game"}, "validate", bad)
	const msg = ": reads health, which the entity does not have: give it health (or a mixin or prefab that has it)\n"
	if want := bad + ":6:32: on__hit" + msg + bad + ":10:24: bind" + msg; code != ExitScene || errOut != want {
		t.Errorf("validate: exit %d, stderr\n%s\nwant\n%s", code, errOut, want)
	}
	good := sceneFile(t, "good.yaml", strings.Replace(head, "on__hit:", "health: \"hp: 3\"\n    on__hit:", 1)+
		"entities:\n  - id: a\n    health: \"hp: 5\"\n    timer: \"delay: 0; event: hit\"\n    bind: \"position.x: health.hp * 2\"\n  - prefab: egg\n")
	for _, verb := range []string{"validate", "dump"} {
		if code, _, errOut := runProg(Program{Name: "game"}, verb, good); code != 0 {
			t.Errorf("%s good.yaml: exit %d\n%s", verb, code, errOut)
		}
	}
}

// TestValidateStrictShadow: a scene that declares its own timer (written
// before the library had one) passes validate and runs; validate -strict
// names the shadowing at the declaration and fails.
func TestValidateStrictShadow(t *testing.T) {
	scene := sceneFile(t, "old.yaml", "components:\n  timer:\n    left: {type: number, default: 5}\nentities:\n  - id: a\n    timer: \"left: 3\"\n")
	if code, out, errOut := runProg(Program{Name: "game"}, "validate", scene); code != 0 || out+errOut != "" {
		t.Errorf("validate: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runProg(Program{Name: "game"}, "dump", scene); code != 0 {
		t.Errorf("dump: exit %d\n%s", code, errOut)
	}
	code, _, errOut := runProg(Program{Name: "game"}, "validate", "-strict", scene)
	if want := scene + `:2:3: note: component "timer" shadows the program's component of that name within this scene`; code != ExitScene || !strings.HasPrefix(errOut, want) {
		t.Errorf("validate -strict: exit %d, stderr\n%s\nwant it to start with\n%s", code, errOut, want)
	}
}
