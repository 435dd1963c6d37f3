package export_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// refPath is EntityPath by its definition: the id, or the parent's path
// and the number of earlier siblings.
func refPath(reg *registry.Registry, e ecs.Entity) string {
	if id := reg.EntityID(e); id != "" {
		return id
	}
	w := reg.World()
	n := 0
	for s, ok := w.PrevSibling(e); ok; s, ok = w.PrevSibling(s) {
		n++
	}
	if p, ok := w.Parent(e); ok {
		return refPath(reg, p) + "/" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// checkPaths checks EntityPath, a fresh Namer (in document order and
// backwards) and EntityPaths against refPath for every entity of reg.
func checkPaths(t *testing.T, reg *registry.Registry, what string) {
	t.Helper()
	es := collectAll(reg.World())
	want := make([]string, len(es))
	for i, e := range es {
		want[i] = refPath(reg, e)
		if got := export.EntityPath(reg, e); got != want[i] {
			t.Fatalf("%s: EntityPath(%v) %q, want %q", what, e, got, want[i])
		}
	}
	if got := export.EntityPaths(reg, es); !slices.Equal(got, want) {
		t.Fatalf("%s: EntityPaths %q, want %q", what, got, want)
	}
	n := export.NewNamer(reg)
	for i := len(es) - 1; i >= 0; i-- {
		if got := n.Path(es[i]); got != want[i] {
			t.Fatalf("%s: Namer.Path(%v) backwards %q, want %q", what, es[i], got, want[i])
		}
	}
}

func collectAll(w *ecs.World) []ecs.Entity {
	var es []ecs.Entity
	for e := range w.All() {
		es = append(es, e)
	}
	return es
}

// TestPathsUnderChanges names every entity after each of random changes
// to a forest (creations at the end and at random places, reparenting,
// destroys, ids given and taken): EntityPath, Namer and EntityPaths
// agree with the definition of a path, and the lazily numbered child
// indexes under them with counting.
func TestPathsUnderChanges(t *testing.T) {
	for seed := range uint64(8) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			reg := newTestRegistry(t)
			w := reg.World()
			rng := rand.New(rand.NewPCG(seed, 7))
			var es []ecs.Entity
			pick := func() ecs.Entity {
				es = slices.DeleteFunc(es, func(e ecs.Entity) bool { return !w.Alive(e) })
				if len(es) == 0 || rng.IntN(6) == 0 {
					return ecs.Entity{} // the roots
				}
				return es[rng.IntN(len(es))]
			}
			for step := range 400 {
				what := changePaths(t, reg, rng, pick, &es)
				if step%4 == 0 || what == "id" {
					checkPaths(t, reg, fmt.Sprintf("step %d (%s)", step, what))
				}
			}
			if len(collectAll(w)) < 10 {
				t.Fatalf("only %d entities at the end", len(collectAll(w)))
			}
		})
	}
}

// changePaths makes one random change to reg's World and says which.
func changePaths(t *testing.T, reg *registry.Registry, rng *rand.Rand, pick func() ecs.Entity, es *[]ecs.Entity) string {
	w := reg.World()
	switch op := rng.IntN(10); {
	case op < 4:
		p := pick()
		e := w.NewEntity()
		*es = append(*es, e)
		if !p.IsZero() {
			mustOK(t, w.InsertChild(p, e, rng.IntN(3)-1)) // -1: append
		}
		return "create"
	case op < 6:
		e, p := pick(), pick()
		if e.IsZero() || p == e || (!p.IsZero() && w.IsAncestor(e, p)) {
			return "none"
		}
		mustOK(t, w.InsertChild(p, e, rng.IntN(4)-1))
		return "move"
	case op < 8:
		if e := pick(); !e.IsZero() && rng.IntN(2) == 0 {
			mustOK(t, w.Destroy(e))
		}
		return "destroy"
	default:
		e := pick()
		if e.IsZero() {
			return "none"
		}
		id := ""
		if reg.EntityID(e) == "" {
			id = fmt.Sprint("id", e.Index(), "g", e.Generation())
		}
		mustOK(t, reg.SetEntityID(e, id))
		return "id"
	}
}

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
