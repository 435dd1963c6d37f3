package registry

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestSpawnsCheckTheLimitFirst: every way of spawning (a prefab's
// instance, whole or over mixins, a part of one, a mixin's instance)
// counts the entities it would make against Limits.MaxEntities before
// making any, and refuses, making nothing, what would pass it, with what
// it tried to spawn and the limit (issue 32: a prefab whose handler
// spawned two of itself reached 262,143 entities and a fatal error); a
// done context refuses it too.
func TestSpawnsCheckTheLimitFirst(t *testing.T) {
	w, r := mixinRegistry(t, "tough: | unit=hp: 500")
	squad := &PrefabNode{
		Components: namedPatches(t, r, "unit=hp: 10"),
		Children:   []*PrefabNode{{Key: "0"}, {Key: "1", Children: []*PrefabNode{{Key: "0"}}}},
	}
	must(t, r.Prefabs().Define(&Prefab{Name: "squad", Root: squad}))
	r.Limits.MaxEntities = 10
	for range 6 {
		w.NewEntity()
	}
	spawns := []struct {
		name string
		fn   func() (ecs.Entity, error)
		want string
	}{
		{"Instantiate", func() (ecs.Entity, error) { return r.Prefabs().Instantiate(ecs.Entity{}, "squad", "") },
			`registry: instance of prefab "squad": registry limit reached: 4 more entities with 7 live would pass Limits.MaxEntities (10)`},
		{"InstantiateOver", func() (ecs.Entity, error) {
			return r.Prefabs().InstantiateOver(ecs.Entity{}, "squad", "", []string{"tough"}, nil)
		}, `registry: instance of prefab "squad": registry limit reached: 4 more entities with 7 live would pass Limits.MaxEntities (10)`},
		{"InstantiatePart", func() (ecs.Entity, error) { return r.Prefabs().InstantiatePart(ecs.Entity{}, squad, "") },
			`registry: part of a prefab's instance: registry limit reached: 4 more entities with 7 live would pass Limits.MaxEntities (10)`},
		{"Mixins.Instantiate", func() (ecs.Entity, error) { return r.Mixins().Instantiate(ecs.Entity{}, []string{"tough"}, nil) },
			`registry: instance of mixins tough: registry limit reached: 1 more entities with 10 live would pass Limits.MaxEntities (10)`},
	}
	w.NewEntity() // 7 live: room for 3
	for _, s := range spawns {
		if s.name == "Mixins.Instantiate" {
			for w.Len() < 10 {
				w.NewEntity()
			}
		}
		n := w.Len()
		_, err := s.fn()
		if !errors.Is(err, ErrLimit) || err.Error() != s.want {
			t.Errorf("%s: %v\nwant %s", s.name, err, s.want)
		}
		if w.Len() != n {
			t.Errorf("%s made %d entities before failing", s.name, w.Len()-n)
		}
	}
	r.Limits.MaxEntities = 0 // the default: room again
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	defer r.SetContext(r.SetContext(ctx))
	for _, s := range spawns {
		if _, err := s.fn(); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "registry: ") {
			t.Errorf("%s with a done context: %v", s.name, err)
		}
	}
	r.SetContext(context.Background())
	for _, s := range spawns {
		if _, err := s.fn(); err != nil {
			t.Errorf("%s with room: %v", s.name, err)
		}
	}
}
