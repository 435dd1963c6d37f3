package components

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// spawnErrors sets a spawner on a new entity and returns what TakeErrors
// and the spawnerror event report, and the entity.
func spawnErrors(t *testing.T, w *ecs.World, r *registry.Registry, attr string) (ecs.Entity, []string, error) {
	t.Helper()
	e := w.NewEntity()
	var events []string
	r.Events().On(e, "spawnerror", func(ev *registry.Event) { events = append(events, fmt.Sprint(ev.Detail)) })
	must(t, r.Set(e, "spawner", attr))
	return e, events, r.TakeErrors()
}

// TestSpawnerEntityLimit: a spawner whose count would bring the World past
// Limits.MaxEntities spawns nothing, at once, and fails with ErrLimit,
// reported by TakeErrors (and the spawnerror event); up to the limit it
// spawns.
func TestSpawnerEntityLimit(t *testing.T) {
	t.Run("default limit", func(t *testing.T) {
		w, r, _ := builtinRegistry(t)
		for _, count := range []int{math.MaxInt, math.MaxInt - 1, 1 << 40, registry.DefaultLimits().MaxEntities} {
			start := time.Now()
			e, events, err := spawnErrors(t, w, r, fmt.Sprintf("count: %d", count))
			if !errors.Is(err, registry.ErrLimit) || !strings.Contains(err.Error(), "Limits.MaxEntities (1000000)") {
				t.Errorf("count %d: TakeErrors = %v, want ErrLimit", count, err)
			}
			if len(events) != 1 {
				t.Errorf("count %d: %d spawnerror events", count, len(events))
			}
			if n := len(w.Children(e)); n != 0 {
				t.Errorf("count %d: %d entities spawned", count, n)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("count %d: refusing took %v", count, d)
			}
		}
	})
	t.Run("small limit", func(t *testing.T) {
		w, r, _ := builtinRegistry(t)
		r.Limits.MaxEntities = 50
		// One live entity (the spawner's) + 49 = 50: allowed.
		e, _, err := spawnErrors(t, w, r, "count: 49")
		if err != nil || len(w.Children(e)) != 49 || w.Len() != 50 {
			t.Fatalf("count 49 under a limit of 50: %v, %d children, %d live", err, len(w.Children(e)), w.Len())
		}
		// The World is full: another spawner's one entity is refused.
		e2, _, err := spawnErrors(t, w, r, "count: 1")
		if !errors.Is(err, registry.ErrLimit) || len(w.Children(e2)) != 0 {
			t.Errorf("count 1 over the limit: %v, %d children", err, len(w.Children(e2)))
		}
		// Count 0 spawns nothing and is no error.
		if _, _, err := spawnErrors(t, w, r, "count: 0"); err != nil {
			t.Errorf("count 0: %v", err)
		}
	})
	t.Run("message", func(t *testing.T) {
		w, r, _ := builtinRegistry(t)
		r.Limits.MaxEntities = 50
		nest := w.NewEntity()
		must(t, r.SetEntityID(nest, "nest"))
		must(t, r.Set(nest, "spawner", "count: 100"))
		want := "registry: entity #nest: spawner: registry limit reached: 100 more entities with 1 live would pass Limits.MaxEntities (50)"
		if err := r.TakeErrors(); fmt.Sprint(err) != want {
			t.Errorf("TakeErrors = %v\nwant %s", err, want)
		}
	})
}

// TestSpawnerDepthLimit: a mixin that spawns itself stops at
// Limits.MaxSpawnDepth (or at MaxEntities when each level multiplies), in
// bounded time, with the error reported.
func TestSpawnerDepthLimit(t *testing.T) {
	selfSpawning := func(t *testing.T, count int) (*ecs.World, *registry.Registry) {
		w, r, _ := builtinRegistry(t)
		sp, _ := r.Component("spawner")
		p, err := sp.Schema.ParseAttr("spawner", fmt.Sprintf("mixin: egg; count: %d", count))
		must(t, err)
		r.Mixins().Define(&registry.Mixin{ID: "egg", Components: []registry.NamedPatch{{Name: "spawner", Patch: p}}})
		return w, r
	}
	t.Run("chain", func(t *testing.T) {
		w, r := selfSpawning(t, 1)
		start := time.Now()
		_, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"egg"}, nil)
		must(t, err)
		// The root (depth 0) and one entity per level down to the
		// spawner at depth 16, which is refused.
		if w.Len() != 1+registry.DefaultLimits().MaxSpawnDepth {
			t.Errorf("%d entities, want %d", w.Len(), 1+registry.DefaultLimits().MaxSpawnDepth)
		}
		err = r.TakeErrors()
		if !errors.Is(err, registry.ErrLimit) || !strings.Contains(err.Error(), "Limits.MaxSpawnDepth is 16") {
			t.Errorf("TakeErrors = %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("took %v", d)
		}
	})
	t.Run("tree, depth bound", func(t *testing.T) {
		w, r := selfSpawning(t, 2)
		r.Limits.MaxSpawnDepth = 5
		_, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"egg"}, nil)
		must(t, err)
		// 1 + 2 + 4 + 8 + 16 + 32: the 32 spawners at depth 5 fail.
		if w.Len() != 63 {
			t.Errorf("%d entities, want 63", w.Len())
		}
		err = r.TakeErrors()
		if n := strings.Count(fmt.Sprint(err), "MaxSpawnDepth"); n != 32 {
			t.Errorf("%d depth errors, want 32: %v", n, err)
		}
	})
	t.Run("tree, entity bound", func(t *testing.T) {
		w, r := selfSpawning(t, 10)
		r.Limits.MaxEntities = 5000
		start := time.Now()
		_, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"egg"}, nil)
		must(t, err)
		if w.Len() > 5000 || w.Len() < 4990 {
			t.Errorf("%d entities, want close to the limit of 5000", w.Len())
		}
		err = r.TakeErrors()
		if !errors.Is(err, registry.ErrLimit) || !strings.Contains(err.Error(), "more errors") {
			t.Errorf("TakeErrors = %v", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v", d)
		}
		if r.TakeErrors() != nil {
			t.Error("TakeErrors did not forget")
		}
	})
}

// TestSpawnerCancel: spawning checks the Registry's context before each
// spawn and every few hundred entities.
func TestSpawnerCancel(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	//lint:ignore SA1012 a nil context is documented to mean "never done"
	if prev := r.SetContext(nil); prev == nil || prev.Err() != nil {
		t.Errorf("SetContext returned %v for the initial context", prev)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer r.SetContext(r.SetContext(ctx))
	// Cancelled while spawning: a component of the spawned mixin counts
	// inits and cancels after 1000.
	n := 0
	_, err := registry.Register(r, "counter", registry.Definition[counter]{Init: func(*registry.Context, *counter) {
		if n++; n == 1000 {
			cancel()
		}
	}})
	must(t, err)
	r.Mixins().Define(&registry.Mixin{ID: "counted", Components: []registry.NamedPatch{{Name: "counter"}}})
	e, _, err := spawnErrors(t, w, r, "mixin: counted; count: 100000")
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after") {
		t.Errorf("TakeErrors = %v, want context.Canceled", err)
	}
	if got := len(w.Children(e)); got < 1000 || got > 1000+spawnCheckEvery {
		t.Errorf("%d entities spawned after the cancel at 1000", got)
	}
	// Already cancelled: nothing spawns.
	e, _, err = spawnErrors(t, w, r, "count: 5")
	if !errors.Is(err, context.Canceled) || len(w.Children(e)) != 0 {
		t.Errorf("cancelled context: %v, %d children", err, len(w.Children(e)))
	}
}

// TestSpawnErrorsFromTick: a spawner failing during a Tick is reported by
// that Tick's error.
func TestSpawnErrorsFromTick(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	r.Limits.MaxEntities = 10
	_, err := registry.Register(r, "factory", registry.Definition[counter]{
		Tick: func(c *registry.Context, v *counter) {
			if v.N == 0 {
				v.N = 1
				must(t, c.Registry.Set(c.Entity, "spawner", "count: 100"))
			}
		},
	})
	must(t, err)
	must(t, r.Set(w.NewEntity(), "factory", ""))
	if err := r.Tick(0.1); !errors.Is(err, registry.ErrLimit) {
		t.Errorf("Tick = %v, want the spawner's ErrLimit", err)
	}
	if err := r.Tick(0.1); err != nil {
		t.Errorf("next Tick = %v, want nil (reported once)", err)
	}
}

// TestSpawnErrorType: every way a spawner fails is reported by TakeErrors
// as a *registry.SpawnError naming the spawner's entity, whose Err is the
// event's detail; errors.As finds each one in the joined error.
func TestSpawnErrorType(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	r.Limits.MaxEntities = 100
	r.Mixins().Define(&registry.Mixin{ID: "cyclic", Mixins: []string{"cyclic"}})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tt := range []struct {
		name, id, attr string
		ctx            context.Context
		is             error  // wrapped by the error, if not nil
		text           string // the error's Err
	}{
		{"entity limit", "big", "count: 1000", nil, registry.ErrLimit,
			"spawner: registry limit reached: 1000 more entities with 1 live would pass Limits.MaxEntities (100)"},
		{"unknown mixin", "", "count: 1; mixin: nope", nil, nil, `spawner: unknown mixin "nope"`},
		{"mixin cycle", "loop", "count: 1; mixin: cyclic", nil, nil, "mixin cycle: cyclic -> cyclic"},
		{"cancelled", "", "count: 1", cancelled, context.Canceled, "spawner: context canceled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ctx != nil {
				defer r.SetContext(r.SetContext(tt.ctx))
			}
			e := w.NewEntity()
			must(t, r.SetEntityID(e, tt.id))
			var detail any
			r.Events().On(e, "spawnerror", func(ev *registry.Event) { detail = ev.Detail })
			must(t, r.Set(e, "spawner", tt.attr))
			err := r.TakeErrors()
			var se *registry.SpawnError
			if !errors.As(err, &se) {
				t.Fatalf("TakeErrors = %v, not a *SpawnError", err)
			}
			if se.Entity != e || se.EntityID != tt.id || se.Err.Error() != tt.text || detail != se.Err {
				t.Errorf("SpawnError{%v, %q, %q}, detail %v; want entity %v, id %q, %q",
					se.Entity, se.EntityID, se.Err, detail, e, tt.id, tt.text)
			}
			who := e.String()
			if tt.id != "" {
				who = "#" + tt.id
			}
			if want := "registry: entity " + who + ": " + tt.text; err.Error() != want {
				t.Errorf("message %q, want %q", err, want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not wrap %v", err, tt.is)
			}
		})
	}
}
