package live

import (
	"strings"
	"testing"
)

// shadowScene declares its own timer, as scenes written before the
// library had a built-in of that name did.
const shadowScene = `components:
  timer:
    left: {type: number, default: 5}
entities:
  - id: a
    timer: "left: 3"
    bind: "position.x: timer.left"
`

// TestSceneShadowsBuiltin: a scene's own declaration of a built-in's name
// (timer) loads: within the scene the name is its declaration (the value
// parses against it, an expression reads it), with a note at the
// declaration; a scene in another registry still gets the built-in
// timer, which rings.
func TestSceneShadowsBuiltin(t *testing.T) {
	reg := newTestRegistry(t)
	sc, err := LoadBytes(reg, "a.yaml", []byte(shadowScene), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := sc.Plan.Notes; len(n) != 1 || n[0].Pos.String() != "a.yaml:2:3" || !strings.Contains(n[0].Msg, `component "timer" shadows the program's component`) {
		t.Errorf("notes: %v", n)
	}
	if c, ok := reg.Component("timer"); !ok || !c.Declared {
		t.Fatalf("timer in the scene's registry: %+v", c)
	}
	if err := reg.Tick(0.1); err != nil {
		t.Fatal(err)
	}
	e, _ := reg.EntityByID("a")
	if got, _ := reg.Attr(e, "position"); got != "3 0 0" {
		t.Errorf("position %q: the bind did not read the scene's timer.left", got)
	}
	other := newTestRegistry(t)
	if _, err := LoadBytes(other, "b.yaml", []byte("entities:\n  - id: b\n    timer: \"delay: 0; event: rang\"\n    on__rang: \"add: rung\"\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := other.Tick(0.1); err != nil {
		t.Fatal(err)
	}
	if b, _ := other.EntityByID("b"); !other.Has(b, "rung") {
		t.Error("the built-in timer in another registry did not ring")
	}
}

// TestReloadShadowsBuiltin: a save that adds a declaration of a
// built-in's name no entity uses applies it (the scene's own from then
// on); one while entities hold the built-in is refused, the scene kept.
func TestReloadShadowsBuiltin(t *testing.T) {
	env := newReloadEnv(t, "entities:\n  - id: a\n    position: 0 0 0\n")
	env.mustReload(shadowScene)
	if c, ok := env.reg.Component("timer"); !ok || !c.Declared {
		t.Fatalf("timer after the reload: %+v", c)
	}
	env2 := newReloadEnv(t, "entities:\n  - id: a\n    animation: \"property: position.x; to: 1\"\n")
	before := dump(t, env2.reg)
	_, err := env2.reload("components:\n  animation:\n    to: {type: number}\nentities:\n  - id: a\n    animation: \"to: 1\"\n")
	if err == nil || !strings.Contains(err.Error(), `scene.yaml:2:3: component "animation" is the program's and entities hold it`) {
		t.Fatalf("reload: %v", err)
	}
	if after := dump(t, env2.reg); after != before {
		t.Errorf("a refused reload changed the World")
	}
}
