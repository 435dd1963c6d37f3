package components_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// TestTransformsModel runs random sequences of every kind of change the
// transform system must follow (registry writes, removals of position,
// rotation, scale and world, reparenting, destroying subtrees, creating
// entities, writes through pointers reported with MarkChanged, column
// writes reported with Moved or MovedPositions, ticks, physics bodies
// landing on a ground) and after each
// checks every entity's world matrix and world position against a
// recomputation from scratch with the test's own three.js transcription:
// the product of the local matrices of the entity and its ancestors that
// have a world component.
func TestTransformsModel(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { runModel(t, seed) })
	}
}

func runModel(t *testing.T, seed uint64) {
	w, r, b := newReg(t)
	rng := rand.New(rand.NewPCG(seed, 99))
	var es []ecs.Entity
	live := func() []ecs.Entity {
		out := es[:0:0]
		for _, e := range es {
			if w.Alive(e) {
				out = append(out, e)
			}
		}
		es = out
		return out
	}
	any := func() ecs.Entity {
		l := live()
		if len(l) == 0 {
			return ecs.Entity{}
		}
		return l[rng.IntN(len(l))]
	}
	vec := func(lo, hi float64) registry.Vec3 {
		return registry.Vec3{X: lo + rng.Float64()*(hi-lo), Y: lo + rng.Float64()*(hi-lo), Z: lo + rng.Float64()*(hi-lo)}
	}
	comps := []string{"position", "rotation", "scale"}
	value := func(c string) registry.Vec3 {
		switch c {
		case "rotation":
			return vec(-180, 180)
		case "scale":
			return vec(0.3, 2)
		}
		return vec(-5, 5)
	}
	maps := map[string]ecs.Map[registry.Vec3]{"position": b.Position, "rotation": b.Rotation, "scale": b.Scale}
	create := func() {
		e := w.NewEntity()
		if p := any(); !p.IsZero() && rng.IntN(4) > 0 {
			ok(t, w.SetParent(e, p))
		}
		for _, c := range comps {
			if rng.IntN(3) > 0 {
				ok(t, r.Set(e, c, value(c).String()))
			}
		}
		es = append(es, e)
	}
	for range 40 {
		create()
	}
	if seed%2 == 0 {
		// A ground: bodies land on it (physics moves them, and their
		// world transforms must follow).
		g := w.NewEntity()
		ok(t, r.Set(g, "ground", "restitution: 0.5"))
		ok(t, r.Set(g, "position", "0 -3 0"))
	}
	all := ecs.NewFilter(w, ecs.With(b.World.ID()))
	for step := range 300 {
		op := rng.IntN(12)
		e := any()
		if e.IsZero() {
			create()
			continue
		}
		c := comps[rng.IntN(3)]
		what := ""
		switch op {
		case 0, 1:
			what = "set " + c
			ok(t, r.Set(e, c, value(c).String()))
		case 2:
			what = "remove " + c
			if r.Has(e, c) {
				ok(t, r.Remove(e, c))
			}
		case 3:
			what = "remove world"
			if r.Has(e, "world") && rng.IntN(3) == 0 {
				ok(t, r.Remove(e, "world"))
			}
		case 4:
			what = "reparent"
			p := any()
			if p == e || w.IsAncestor(e, p) || rng.IntN(5) == 0 {
				p = ecs.Entity{}
			}
			ok(t, w.SetParent(e, p))
		case 5:
			what = "destroy"
			if rng.IntN(3) == 0 {
				ok(t, w.Destroy(e))
			}
		case 6:
			what = "create"
			create()
		case 7:
			what = "pointer + MarkChanged"
			if m := maps[c]; m.Has(e) {
				*m.Get(e) = value(c)
				ok(t, w.MarkChanged(e, m.ID()))
			}
		case 8, 9:
			// Column writes to some entities, reported by filter.
			posOnly := op == 9
			what = fmt.Sprint("columns, positions only: ", posOnly)
			q := all.Query()
			for q.NextTable() {
				for _, cc := range comps {
					if posOnly && cc != "position" {
						continue
					}
					if col := ecs.Column[registry.Vec3](&q, maps[cc].ID()); col != nil {
						for i := range col {
							if rng.IntN(4) == 0 {
								col[i] = value(cc)
							}
						}
					}
				}
			}
			if posOnly {
				b.Transforms.MovedPositions(all)
			} else {
				b.Transforms.Moved(all)
			}
			if rng.IntN(2) == 0 {
				b.Transforms.Update()
			} else {
				ok(t, r.Tick(0.01)) // the transform system updates
			}
		case 10:
			what = "tick"
			ok(t, r.Tick(0.02))
		case 11:
			what = "velocity"
			ok(t, r.Set(e, "velocity", vec(-3, 3).String()))
			if rng.IntN(2) == 0 {
				ok(t, r.Set(e, "gravity", ""))
			}
		}
		checkModel(t, w, b, fmt.Sprintf("step %d (%s)", step, what))
	}
}

// checkModel compares every entity's world transform with the product of
// the local matrices of it and its ancestors that have world.
func checkModel(t *testing.T, w *ecs.World, b *components.Builtins, where string) {
	t.Helper()
	local := func(e ecs.Entity) m4 {
		p, r, s := v3{}, v3{}, v3{1, 1, 1}
		if v := b.Position.Get(e); v != nil {
			p = rv(*v)
		}
		if v := b.Rotation.Get(e); v != nil {
			r = rv(*v)
		}
		if v := b.Scale.Get(e); v != nil {
			s = rv(*v)
		}
		return localMatrix(p, r, s)
	}
	for e := range w.All() {
		if !b.World.Has(e) {
			continue
		}
		var chain []ecs.Entity
		for a := e; ; {
			if b.World.Has(a) {
				chain = append(chain, a)
			}
			p, ok := w.Parent(a)
			if !ok {
				break
			}
			a = p
		}
		want := localMatrix(v3{}, v3{}, v3{1, 1, 1})
		for i := len(chain) - 1; i >= 0; i-- {
			want = mul(want, local(chain[i]))
		}
		got, _ := b.Transforms.Matrix(e)
		for i := range got {
			if !near(got[i], want[i]) {
				t.Fatalf("%s: entity %v (%d transform ancestors): world matrix\n got %v\nwant %v", where, e, len(chain)-1, got, want)
			}
		}
		if wp := b.World.Get(e).Position; !nearV(rv(wp), v3{want[12], want[13], want[14]}) {
			t.Fatalf("%s: entity %v: world position %v, want %v", where, e, wp, want[12:15])
		}
		_, _, ws := decompose3(want)
		if s := b.World.Get(e).Scale; !nearV(rv(s), ws) {
			t.Fatalf("%s: entity %v: world scale %v, want %s", where, e, s, vs(ws))
		}
	}
}
