package live

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// refReloadV1 docks a ship at p1.
const refReloadV1 = `components:
  docked: {type: entity}
entities:
  - id: ship
    docked: "#p1"
  - id: p1
  - id: p2
`

// dockedAt returns what #id's docked points at (the zero Entity if
// nothing).
func (env *reloadEnv) dockedAt(id string) ecs.Entity {
	env.t.Helper()
	vs, err := env.reg.Values(env.entity(id), "docked")
	if err != nil {
		env.t.Fatal(err)
	}
	e, _ := vs[0].(registry.Ref).Get(env.reg.World())
	return e
}

// TestReloadRetargetsReference: a save that points a reference elsewhere
// is an edit of that property (the holder is kept, the diff says the
// property changed), and the new target is followed; a save that adds a
// holder naming an entity added after it in the same save resolves it;
// a save naming no entity is an error at the value.
func TestReloadRetargetsReference(t *testing.T) {
	env := newReloadEnv(t, refReloadV1)
	ship := env.entity("ship")
	if got := env.dockedAt("ship"); got != env.entity("p1") {
		t.Fatalf("docked at %v before the reload", got)
	}
	d := env.mustReload(strings.Replace(refReloadV1, `"#p1"`, `"#p2"`, 1))
	if env.entity("ship") != ship {
		t.Error("the retargeted ship was made again")
	}
	if got := env.dockedAt("ship"); got != env.entity("p2") {
		t.Errorf("docked at %v after the retarget, want p2", got)
	}
	var lines []string
	for _, e := range d.Entries(env.reg) {
		lines = append(lines, e.String())
	}
	if all := strings.Join(lines, "\n"); len(lines) != 1 || !strings.Contains(all, "docked") || strings.Contains(all, "created") {
		t.Errorf("diff entries:\n%s", all)
	}
	env.mustReload(strings.Replace(refReloadV1, "  - id: p2\n", "  - id: p2\n  - id: tug\n    docked: \"#p3\"\n  - id: p3\n", 1))
	if got := env.dockedAt("tug"); got.IsZero() || got != env.entity("p3") {
		t.Errorf("a new holder of an entity created after it in the same save: docked at %v", got)
	}
	_, err := env.reload(strings.Replace(refReloadV1, `"#p1"`, `"#p9"`, 1))
	if err == nil || !strings.Contains(err.Error(), `scene.yaml:5:13: docked: no entity "#p9"`) {
		t.Errorf("a reference to no entity: %v", err)
	}
}
