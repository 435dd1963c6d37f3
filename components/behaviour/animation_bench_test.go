package behaviour_test

import (
	"testing"

	"github.com/scenecs/scenecs/components"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// The speed target of issue 23: 10,000 entities each with a running
// animation on position cost, per tick, at most 1.5 times a hand-written
// tween loop over the same data. Compare the pairs in one run:
//
//	go test -run '^$' -bench 'Animation' -count 5 ./components

const benchAnimated = 10_000

// handTween is the state a hand-written tween keeps per entity: the
// same data an animation's state holds for a position tween.
type handTween struct {
	e             ecs.Entity
	from, to      registry.Vec3
	elapsed, durS float64
}

// handTweens is the hand-written baseline: a slice of tweens updated in
// a loop, positions written through the typed accessor, the transform
// system told of the moved positions as physics tells it (so world
// transforms follow, as they do for animations).
type handTweens struct {
	ts    []handTween
	pos   ecs.Map[registry.Vec3]
	moved *ecs.Filter
	t     mover
}

// step is the hand-written loop: easeInQuad, looping, from 0 0 0 to
// 10 5 2 over 2 s, as the animations of the benchmark.
func (h *handTweens) step(dt float64) {
	for i := range h.ts {
		s := &h.ts[i]
		s.elapsed += dt
		if s.elapsed >= s.durS {
			s.elapsed -= s.durS
		}
		p := s.elapsed / s.durS
		e := p * p
		if pos := h.pos.Get(s.e); pos != nil {
			pos.X = s.from.X + (s.to.X-s.from.X)*e
			pos.Y = s.from.Y + (s.to.Y-s.from.Y)*e
			pos.Z = s.from.Z + (s.to.Z-s.from.Z)*e
		}
	}
	h.t.MovedPositions(h.moved)
}

// columnTween is the tween state as a component of its own, next to
// position in the entities' storage table: the other hand-written
// baseline walks both packed columns, with no lookup per entity.
type columnTween struct {
	From, To      registry.Vec3
	Elapsed, DurS float64
}

// columnStep is the hand-written loop over packed columns: the tweens
// and positions of each table side by side.
func columnStep(f *ecs.Filter, posID, tweenID ecs.ID, t mover, dt float64) {
	q := f.Query()
	for q.NextTable() {
		ps := ecs.Column[registry.Vec3](&q, posID)
		ts := ecs.Column[columnTween](&q, tweenID)[:len(ps)]
		for i := range ts {
			s := &ts[i]
			s.Elapsed += dt
			if s.Elapsed >= s.DurS {
				s.Elapsed -= s.DurS
			}
			p := s.Elapsed / s.DurS
			e := p * p
			ps[i].X = s.From.X + (s.To.X-s.From.X)*e
			ps[i].Y = s.From.Y + (s.To.Y-s.From.Y)*e
			ps[i].Z = s.From.Z + (s.To.Z-s.From.Z)*e
		}
	}
	t.MovedPositions(f)
}

// Baselines of the benchmarks.
const (
	benchAnimation = iota // the animation component
	benchHand             // handTweens: a slice of tweens, positions through ecs.Map
	benchColumn           // columnStep: packed columns
)

var benchNames = []string{"animation", "hand", "hand-column"}

// benchScene returns a registry with benchAnimated entities with a
// position each, animated by the animation component, by a system
// running the hand-written loop over a slice, or by one over packed
// columns. If log is not nil, the loops report their moves to it instead
// of to the transform state.
func benchScene(b *testing.B, kind int, log *moveLog) (*registry.Registry, *components.Builtins, func(dt float64)) {
	w := ecs.NewWorld()
	r := registry.New(w)
	bi, err := components.Register(r)
	must(b, err)
	var mv mover = bi.Transforms
	if log != nil {
		bi.ReportMoves(log.Moved, log.MovedPositions)
		mv = log
	}
	h := &handTweens{pos: bi.Position, t: mv}
	pos := registry.Patch{{Index: 0, Value: registry.Vec3{}}}
	anim := namedPatchesB(b, r, "animation", "property: position; from: 0 0 0; to: 10 5 2; dur: 2000; loop: true")
	tweens := ecs.MustRegister[columnTween](w, "bench-tween")
	for range benchAnimated {
		e := w.NewEntity()
		comps := []registry.NamedPatch{{Name: "position", Patch: pos}}
		if kind == benchAnimation {
			comps = append(comps, anim)
		}
		must(b, r.SetMany(e, comps))
		to := registry.Vec3{X: 10, Y: 5, Z: 2}
		h.ts = append(h.ts, handTween{e: e, to: to, durS: 2})
		if kind == benchColumn {
			must(b, tweens.Add(e, columnTween{To: to, DurS: 2}))
		}
	}
	step := func(dt float64) { bi.Animations.Step(dt); bi.Animations.Flush() }
	switch kind {
	case benchHand:
		h.moved = ecs.NewFilter(w, ecs.With(bi.Position.ID(), bi.World.ID()))
		step = h.step
	case benchColumn:
		f := ecs.NewFilter(w, ecs.With(bi.Position.ID(), tweens.ID(), bi.World.ID()))
		step = func(dt float64) { columnStep(f, bi.Position.ID(), tweens.ID(), mv, dt) }
	}
	if kind != benchAnimation {
		_, err := registry.RegisterSystem(r, "hand", registry.SystemDefinition[struct{}]{
			Tick: func(s *registry.SystemContext, _ *struct{}) { step(s.Delta) },
		})
		must(b, err)
	}
	must(b, r.Tick(hz)) // everything started, pointers cached
	return r, bi, step
}

func namedPatchesB(b *testing.B, r *registry.Registry, name, attr string) registry.NamedPatch {
	c, _, err := r.Lookup(name)
	must(b, err)
	p, err := c.Schema.ParseAttr(name, attr)
	must(b, err)
	return registry.NamedPatch{Name: name, Patch: p}
}

// BenchmarkAnimationTick is a whole Registry.Tick (systems, the
// transform update of the 10,000 moved positions) with the positions
// animated by animation components, then by the hand-written loops.
func BenchmarkAnimationTick(b *testing.B) {
	for kind, name := range benchNames {
		b.Run(name, func(b *testing.B) {
			r, bi, _ := benchScene(b, kind, nil)
			b.ResetTimer()
			for range b.N {
				if err := r.Tick(hz); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if kind == benchAnimation && bi.Animations.Running() != benchAnimated {
				b.Fatalf("%d animations running", bi.Animations.Running())
			}
			checkBenchPositions(b, r, bi)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchAnimated, "ns/entity")
		})
	}
}

// BenchmarkAnimationLoop is the update alone: each loop and what it
// hands the transform system (not the transform update).
func BenchmarkAnimationLoop(b *testing.B) {
	for kind, name := range benchNames {
		b.Run(name, func(b *testing.B) {
			log := &moveLog{}
			_, _, step := benchScene(b, kind, log)
			b.ResetTimer()
			for range b.N {
				step(hz)
				log.clear()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchAnimated, "ns/entity")
		})
	}
}

// checkBenchPositions checks that every position is on the tween's
// path and that its world position follows it.
func checkBenchPositions(b *testing.B, r *registry.Registry, bi *components.Builtins) {
	q := ecs.NewFilter(r.World(), ecs.With(bi.Position.ID())).Query()
	defer q.Close()
	for q.Next() {
		p := *bi.Position.Get(q.Entity())
		w, _ := bi.Transforms.World(q.Entity())
		if p.X < 0 || p.X > 10 || abs(p.Y-p.X/2) > 1e-9 || abs(p.Z-p.X/5) > 1e-9 || w.Position != p {
			b.Fatalf("position %v, world %v", p, w.Position)
		}
	}
}
