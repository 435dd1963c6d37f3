package components_test

import (
	"errors"
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

// transformModel is one random run of TestTransformsModel: the World,
// its registry and built-ins, and the entities made so far (some dead).
type transformModel struct {
	t    *testing.T
	w    *ecs.World
	r    *registry.Registry
	b    *components.Builtins
	rng  *rand.Rand
	es   []ecs.Entity
	maps map[string]ecs.Map[registry.Vec3]
	all  *ecs.Filter // the entities with a world transform
}

// transformComps are the local transform components.
var transformComps = []string{"position", "rotation", "scale"}

func runModel(t *testing.T, seed uint64) {
	w, r, b := newReg(t)
	m := &transformModel{t: t, w: w, r: r, b: b, rng: rand.New(rand.NewPCG(seed, 99))}
	m.maps = map[string]ecs.Map[registry.Vec3]{"position": b.Position, "rotation": b.Rotation, "scale": b.Scale}
	for range 40 {
		m.create()
	}
	if seed%2 == 0 {
		// A ground: bodies land on it (physics moves them, and their
		// world transforms must follow).
		g := w.NewEntity()
		ok(t, r.Set(g, "ground", "restitution: 0.5"))
		ok(t, r.Set(g, "position", "0 -3 0"))
	}
	m.all = ecs.NewFilter(w, ecs.With(b.World.ID()))
	for step := range 300 {
		op := m.rng.IntN(12)
		e := m.any()
		if e.IsZero() {
			m.create()
			continue
		}
		what := m.change(op, e)
		checkModel(t, w, b, fmt.Sprintf("step %d (%s)", step, what))
	}
}

// live returns the live entities of m.es, and drops the dead from it.
func (m *transformModel) live() []ecs.Entity {
	out := m.es[:0:0]
	for _, e := range m.es {
		if m.w.Alive(e) {
			out = append(out, e)
		}
	}
	m.es = out
	return out
}

// any returns a live entity at random, the zero Entity if there is none.
func (m *transformModel) any() ecs.Entity {
	l := m.live()
	if len(l) == 0 {
		return ecs.Entity{}
	}
	return l[m.rng.IntN(len(l))]
}

// vec returns a random vector with coordinates in [lo, hi).
func (m *transformModel) vec(lo, hi float64) registry.Vec3 {
	rng := m.rng
	return registry.Vec3{X: lo + rng.Float64()*(hi-lo), Y: lo + rng.Float64()*(hi-lo), Z: lo + rng.Float64()*(hi-lo)}
}

// value returns a random value of the transform component c.
func (m *transformModel) value(c string) registry.Vec3 {
	switch c {
	case "rotation":
		return m.vec(-180, 180)
	case "scale":
		return m.vec(0.3, 2)
	}
	return m.vec(-5, 5)
}

// create makes an entity, most often under a random parent, with random
// transform components.
func (m *transformModel) create() {
	e := m.w.NewEntity()
	if p := m.any(); !p.IsZero() && m.rng.IntN(4) > 0 {
		ok(m.t, m.w.SetParent(e, p))
	}
	for _, c := range transformComps {
		if m.rng.IntN(3) > 0 {
			ok(m.t, m.r.Set(e, c, m.value(c).String()))
		}
	}
	m.es = append(m.es, e)
}

// change makes the change numbered op (0 to 11) to e or the World, and
// says what it was.
func (m *transformModel) change(op int, e ecs.Entity) string {
	t, w, r, rng := m.t, m.w, m.r, m.rng
	c := transformComps[rng.IntN(3)]
	what := ""
	switch op {
	case 0, 1:
		what = "set " + c
		ok(t, r.Set(e, c, m.value(c).String()))
	case 2:
		what = "remove " + c
		if r.Has(e, c) {
			ok(t, r.Remove(e, c))
		}
	case 3:
		what = "remove world"
		if r.Has(e, "world") && rng.IntN(3) == 0 {
			// Read-only: the public path refuses; Go code below the
			// checks can still do it, and the system copes.
			if err := r.Remove(e, "world"); !errors.Is(err, registry.ErrReadOnly) {
				t.Fatalf("Remove(world): %v, want ErrReadOnly", err)
			}
			ok(t, r.Privileged().Remove(e, "world"))
		}
	case 4:
		what = "reparent"
		p := m.any()
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
		m.create()
	case 7:
		what = "pointer + MarkChanged"
		if mp := m.maps[c]; mp.Has(e) {
			*mp.Get(e) = m.value(c)
			ok(t, w.MarkChanged(e, mp.ID()))
		}
	case 8, 9:
		posOnly := op == 9
		what = fmt.Sprint("columns, positions only: ", posOnly)
		m.writeColumns(posOnly)
	case 10:
		what = "tick"
		ok(t, r.Tick(0.02))
	case 11:
		what = "velocity"
		ok(t, r.Set(e, "velocity", m.vec(-3, 3).String()))
		if rng.IntN(2) == 0 {
			ok(t, r.Set(e, "gravity", ""))
		}
	}
	return what
}

// writeColumns writes random values to some entities' transform columns
// (positions only, if posOnly), reports them by filter, and updates.
func (m *transformModel) writeColumns(posOnly bool) {
	q := m.all.Query()
	for q.NextTable() {
		for _, cc := range transformComps {
			if posOnly && cc != "position" {
				continue
			}
			if col := ecs.Column[registry.Vec3](&q, m.maps[cc].ID()); col != nil {
				for i := range col {
					if m.rng.IntN(4) == 0 {
						col[i] = m.value(cc)
					}
				}
			}
		}
	}
	tr := m.b.Transforms
	if posOnly {
		tr.MovedPositions(m.all)
	} else {
		tr.Moved(m.all)
	}
	if m.rng.IntN(2) == 0 {
		tr.Update()
	} else {
		ok(m.t, m.r.Tick(0.01)) // the transform system updates
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
