package inspect

import (
	"encoding/binary"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// TestWorldInAPI: the entity endpoint shows the world transform apart
// from the components, as dumps do; GET /api/transforms sends world
// transforms by default (nine floats per entity with a transform), which
// follow a parent moved through the API; the world component cannot be
// set, removed or given to a new entity.
func TestWorldInAPI(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	var gun struct {
		Components []componentValue `json:"components"`
		World      struct {
			Position struct{ X, Y, Z float64 } `json:"position"`
			Scale    struct{ X, Y, Z float64 } `json:"scale"`
		} `json:"world"`
	}
	e.get("/api/entities/ship%2F1").json(t, &gun)
	if gun.World.Position.X != 1 || gun.World.Position.Y != 0.5 || gun.World.Scale.X != 1 {
		t.Errorf("gun's world: %+v", gun.World)
	}
	for _, c := range gun.Components {
		if c.Name == "world" {
			t.Error("world listed among the components")
		}
	}
	// Move the ship: its guns' world transforms follow at once.
	e.call("PUT", "/api/entities/ship/components/position", "10 0 0").expect(t, http.StatusOK)
	e.get("/api/entities/ship%2F1").json(t, &gun)
	if gun.World.Position.X != 11 {
		t.Errorf("gun's world x %v after the ship moved to 10 0 0", gun.World.Position.X)
	}
	r := e.get("/api/transforms").expect(t, http.StatusOK)
	if got := r.header.Get("X-Layout"); got != "world.position:3,world.rotation:3,world.scale:3" {
		t.Fatalf("default layout %q", got)
	}
	var q queryResult
	e.get("/api/query?selector=[world]").json(t, &q)
	b := r.body
	if n, stride := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]); int(n) != q.Count || stride != 9 {
		t.Fatalf("n %d stride %d, query %+v", n, stride, q)
	}
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[16+4*i:])) }
	if i := slices.Index(q.Matches, "ship/1"); i < 0 || f(9*i) != 11 || f(9*i+1) != 0.5 || f(9*i+6) != 1 {
		t.Errorf("ship/1 in /api/transforms: %v", []float32{f(9 * i), f(9*i + 1), f(9*i + 6)})
	}
	// Read-only: see TestReadOnlyComponents.
	e.call("PUT", "/api/entities/ship/components/world", "position: 1 2 3").expect(t, http.StatusConflict)
}

// readOnlyScene has prefab instances (rock-1, a spawned one is made by
// the test) and plain entities.
const readOnlyScene = `prefabs:
  rock:
    enemy:
    children:
      - class: chip
        position: 1 0 0
  boulder:
    children:
      - class: slab
      - class: slab
entities:
  - id: rock-1
    prefab: rock
    position: 0 1 0
  - id: plain
    position: 0 0 0
`

// TestReadOnlyComponents: read-only components (world, the prefab
// marker, and a program's own) are flagged in GET /api/components, and
// every write the API offers refuses them with 409 and the registry's
// reason, changing nothing: setting or removing one on an entity that
// has it, adding one to an entity that lacks it (a fake [prefab=rock]),
// relabelling an instance, creating an entity with one among its own
// components or through a mixin.
func TestReadOnlyComponents(t *testing.T) {
	e := newEnvWith(t, Options{}, func(reg *registry.Registry) (*live.Scene, error) {
		_, err := registry.Register(reg, "score", registry.Definition[health]{ReadOnly: true, Owner: "kept by the scoring system", Multiple: true})
		if err != nil {
			return nil, err
		}
		reg.Mixins().Define(&registry.Mixin{ID: "fake-rock", Components: []registry.NamedPatch{
			{Name: registry.PrefabComponent, Patch: registry.Patch{{Index: 0, Value: registry.PrefabRef("rock")}}}}})
		reg.Mixins().Define(&registry.Mixin{ID: "cheat", Components: []registry.NamedPatch{{Name: "score"}}})
		return loader.LoadBytes(reg, "scene.yaml", []byte(readOnlyScene), loader.Options{})
	}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	var spawned ecs.Entity
	e.sim(func() {
		x, err := e.reg.Prefabs().Instantiate(ecs.Entity{}, "rock", "spawned")
		if err != nil {
			t.Error(err)
		}
		spawned = x
		if err := e.reg.Privileged().SetPatch(x, "score", nil, registry.Merge); err != nil {
			t.Error(err)
		}
	})
	var comps struct {
		Components []componentInfo `json:"components"`
	}
	e.get("/api/components").json(t, &comps)
	ro := map[string]bool{}
	for _, c := range comps.Components {
		if c.ReadOnly {
			ro[c.Name] = true
			if c.Owner == "" {
				t.Errorf("%s: read-only without an owner", c.Name)
			}
		}
	}
	if !ro["world"] || !ro["prefab"] || !ro["score"] || len(ro) != 3 {
		t.Errorf("read-only components %v, want world, prefab, score", ro)
	}
	before := e.dump()
	count := func(sel string) int {
		var q queryResult
		e.get("/api/query?selector="+url.QueryEscape(sel)).json(t, &q)
		return q.Count
	}
	rocks := count("[prefab=rock]")
	for _, req := range [][3]string{
		{"PUT", "/api/entities/plain/components/world", "position: 1 2 3"},
		{"DELETE", "/api/entities/plain/components/world", ""},
		{"PUT", "/api/entities/plain/components/prefab", "rock"},
		{"PUT", "/api/entities/rock-1/components/prefab", "boulder"},
		{"PUT", "/api/entities/spawned/components/prefab", "boulder"},
		{"DELETE", "/api/entities/rock-1/components/prefab", ""},
		{"DELETE", "/api/entities/spawned/components/prefab", ""},
		{"PUT", "/api/entities/plain/components/score", "hp: 1"},
		{"PUT", "/api/entities/spawned/components/score", "hp: 1"},
		{"DELETE", "/api/entities/spawned/components/score", ""},
		{"PUT", "/api/entities/plain/components/score__x", "hp: 1"},
		{"POST", "/api/entities", `{"components": {"world": "position: 1 2 3"}}`},
		{"POST", "/api/entities", `{"id": "fake", "components": {"position": "0 0 0", "prefab": "rock"}}`},
		{"POST", "/api/entities", `{"id": "fake", "mixin": "fake-rock"}`},
		{"POST", "/api/entities", `{"id": "fake", "parent": "rock-1", "mixin": "cheat", "components": {"enemy": ""}}`},
	} {
		r := e.call(req[0], req[1], req[2]).expect(t, http.StatusConflict)
		msg := r.errMsg(t)
		if !strings.Contains(msg, "read-only") || strings.Count(msg, "registry:") > 0 {
			t.Errorf("%s %s: %q does not say why", req[0], req[1], msg)
		}
	}
	if after := e.dump(); after != before {
		t.Errorf("refused writes changed the scene:\n%s\nwant\n%s", after, before)
	}
	if n := count("[prefab=rock]"); n != rocks || rocks != 2 {
		t.Errorf("[prefab=rock] matches %d, want %d (and 2)", n, rocks)
	}
	e.sim(func() {
		if got := e.reg.Prefabs().Of(spawned); got != "rock" {
			t.Errorf("spawned instance relabelled %q", got)
		}
	})
	// The components the owners write still work: moving an entity moves
	// its world transform; instances still get their markers.
	e.call("PUT", "/api/entities/plain/components/position", "5 0 0").expect(t, http.StatusOK)
	var plain struct {
		World struct{ Position struct{ X float64 } } `json:"world"`
	}
	e.get("/api/entities/plain").json(t, &plain)
	if plain.World.Position.X != 5 {
		t.Errorf("world after a move: %+v", plain.World)
	}
}
