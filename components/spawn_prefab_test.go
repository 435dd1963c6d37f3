package components

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry"
)

// defineRock defines the prefab rock: a root with a colour and a scale,
// and two debris parts (one with a child of its own): 4 entities.
func defineRock(t *testing.T, r *registry.Registry) {
	t.Helper()
	must(t, r.Prefabs().Define(&registry.Prefab{Name: "rock", Root: &registry.PrefabNode{
		Class:      []string{"rock"},
		Components: namedPatches(t, r, "color=#884400", "scale=2 2 2"),
		Children: []*registry.PrefabNode{
			{Key: "chip", Class: []string{"debris"}, Components: namedPatches(t, r, "position=1 0 0"),
				Children: []*registry.PrefabNode{{Key: "0", Components: namedPatches(t, r, "visible=false")}}},
			{Key: "0", Class: []string{"debris"}, Components: namedPatches(t, r, "position=-1 0 0")},
		},
	}}))
}

// TestSpawnerPrefab: with prefab, each spawned child is a whole instance
// (marker, parts with their keys, classes and components); the drawn
// values and the mixin are written over the prefab's root per property,
// and the Registry keeps them as the instance's overrides.
func TestSpawnerPrefab(t *testing.T) {
	w, r, b := builtinRegistry(t)
	defineRock(t, r)
	r.Mixins().Define(&registry.Mixin{ID: "big", Components: namedPatches(t, r, "scale=5 5 5")})
	e := w.NewEntity()
	must(t, r.Set(e, "spawner", "prefab: rock; mixin: big; count: 3; velocity: 1 1 1; colors: #00ff00"))
	must(t, r.TakeErrors())
	kids := w.Children(e)
	if len(kids) != 3 || w.Len() != 1+3*4 {
		t.Fatalf("%d children, %d entities; want 3 instances of 4 entities", len(kids), w.Len())
	}
	seen := map[registry.Vec3]bool{}
	for _, k := range kids {
		if got := r.Prefabs().Of(k); got != "rock" {
			t.Errorf("child is an instance of %q", got)
		}
		if got := strings.Join(r.Classes(k), " "); got != "rock" {
			t.Errorf("root classes %q", got)
		}
		if got, _ := r.Attr(k, "scale"); got != "5 5 5" {
			t.Errorf("root scale %q: the mixin is not over the prefab", got)
		}
		if got, _ := r.Attr(k, "color"); got != "#00ff00" {
			t.Errorf("root color %q: the drawn colour is not over the prefab", got)
		}
		p := *b.Position.Get(k)
		if seen[p] || !b.Velocity.Has(k) {
			t.Errorf("position %v repeated or no velocity", p)
		}
		seen[p] = true
		parts := w.Children(k)
		if len(parts) != 2 || r.Prefabs().PartKey(parts[0]) != "chip" || r.Prefabs().PartKey(parts[1]) != "0" || len(w.Children(parts[0])) != 1 {
			t.Fatalf("parts %v", parts)
		}
		if got, _ := r.Attr(parts[1], "position"); got != "-1 0 0" || r.Prefabs().Of(parts[1]) != "" {
			t.Errorf("part 0: position %q, prefab %q", got, r.Prefabs().Of(parts[1]))
		}
		over := map[string]bool{}
		for _, np := range r.Prefabs().Overrides(k) {
			over[np.Name] = true
		}
		if !over["position"] || !over["velocity"] || !over["color"] || !over["scale"] || len(over) != 4 {
			t.Errorf("overrides %v", over)
		}
	}
	// Destroying an instance forgets its overrides.
	must(t, w.Destroy(kids[0]))
	if r.Prefabs().Overrides(kids[0]) != nil {
		t.Error("overrides of a destroyed instance kept")
	}
	// The instance selector finds the spawned instances.
	got, err := r.QueryAll("[prefab=rock]")
	must(t, err)
	if len(got) != 2 {
		t.Errorf("[prefab=rock]: %d", len(got))
	}
}

// TestSpawnerPrefabErrors: an unknown prefab (with a suggestion) and a
// spawn whose instances would pass Limits.MaxEntities spawn nothing and
// report a spawnerror; the limit counts every entity of an instance.
func TestSpawnerPrefabErrors(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	defineRock(t, r)
	for _, tt := range []struct{ attr, want string }{
		{"prefab: rok; count: 1", `spawner: unknown prefab "rok" (did you mean "rock"?)`},
		{"prefab: nothing-like-it; count: 1", `spawner: unknown prefab "nothing-like-it"`},
		{"prefab: rock; mixin: nope; count: 1", `spawner: unknown mixin "nope"`},
	} {
		e, events, err := spawnErrors(t, w, r, tt.attr)
		var se *registry.SpawnError
		if !errors.As(err, &se) || se.Err.Error() != tt.want || len(events) != 1 || events[0] != tt.want {
			t.Errorf("%s: TakeErrors %v, events %q; want %s", tt.attr, err, events, tt.want)
		}
		if n := len(w.Children(e)); n != 0 {
			t.Errorf("%s: %d children", tt.attr, n)
		}
	}

	w, r, _ = builtinRegistry(t)
	defineRock(t, r)
	r.Limits.MaxEntities = 1 + 2*4 + 3 // the spawner, two rocks, and room for less than a third
	e, _, err := spawnErrors(t, w, r, "prefab: rock; count: 3")
	if !errors.Is(err, registry.ErrLimit) || !strings.Contains(err.Error(), "12 more entities with 1 live") || len(w.Children(e)) != 0 {
		t.Errorf("count 3 of 4 entities under a limit of 12: %v, %d children", err, len(w.Children(e)))
	}
	must(t, w.Destroy(e))
	e, _, err = spawnErrors(t, w, r, "prefab: rock; count: 2")
	if err != nil || len(w.Children(e)) != 2 {
		t.Fatalf("count 2: %v, %d children", err, len(w.Children(e)))
	}
	// At a rate, the spawner waits for room for a whole instance.
	must(t, w.Destroy(e))
	e = w.NewEntity()
	must(t, r.Set(e, "spawner", "prefab: rock; rate: 100"))
	for range 3 {
		must(t, r.Tick(0.1))
	}
	if n := len(w.Children(e)); n != 2 || w.Len() != 9 {
		t.Errorf("at a rate under a limit of 12: %d instances, %d entities; want 2 and 9", n, w.Len())
	}
	if err := r.TakeErrors(); err != nil {
		t.Errorf("waiting for room reported %v", err)
	}
}

// TestSpawnerPrefabMax: max bounds the instances, each counting as one
// child, whatever its size.
func TestSpawnerPrefabMax(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	defineRock(t, r)
	e := w.NewEntity()
	must(t, r.Set(e, "spawner", "prefab: rock; rate: 50; max: 5; lifetime: 100 100"))
	for range 4 {
		must(t, r.Tick(0.1))
	}
	if n := len(w.Children(e)); n != 5 || w.Len() != 1+5*4 {
		t.Errorf("%d instances, %d entities; want 5 and 21", n, w.Len())
	}
	if got := fmt.Sprint(r.Prefabs().Of(w.Children(e)[4])); got != "rock" {
		t.Errorf("last child is an instance of %q", got)
	}
}
