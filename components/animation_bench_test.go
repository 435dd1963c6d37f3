package components

import (
	"testing"

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
	t     *Transforms
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

// benchScene returns a registry with benchAnimated entities with a
// position each: animated by the animation component (hand false) or
// by a system running the hand-written loop.
func benchScene(b *testing.B, hand bool) (*registry.Registry, *Builtins, *handTweens) {
	w := ecs.NewWorld()
	r := registry.New(w)
	bi, err := Register(r)
	must(b, err)
	h := &handTweens{pos: bi.Position, t: bi.Transforms}
	pos := registry.Patch{{Index: 0, Value: registry.Vec3{}}}
	anim := namedPatchesB(b, r, "animation", "property: position; from: 0 0 0; to: 10 5 2; dur: 2000; loop: true")
	for range benchAnimated {
		e := w.NewEntity()
		comps := []registry.NamedPatch{{Name: "position", Patch: pos}}
		if !hand {
			comps = append(comps, anim)
		}
		must(b, r.SetMany(e, comps))
		h.ts = append(h.ts, handTween{e: e, to: registry.Vec3{X: 10, Y: 5, Z: 2}, durS: 2})
	}
	if hand {
		h.moved = ecs.NewFilter(w, ecs.With(bi.Position.ID(), bi.World.ID()))
		_, err := registry.RegisterSystem(r, "hand", registry.SystemDefinition[struct{}]{
			Tick: func(s *registry.SystemContext, _ *struct{}) { h.step(s.Delta) },
		})
		must(b, err)
	}
	must(b, r.Tick(hz)) // everything started, pointers cached
	return r, bi, h
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
// animated by animation components, then by the hand-written loop.
func BenchmarkAnimationTick(b *testing.B) {
	for _, hand := range []bool{false, true} {
		name := map[bool]string{false: "animation", true: "hand"}[hand]
		b.Run(name, func(b *testing.B) {
			r, bi, _ := benchScene(b, hand)
			b.ResetTimer()
			for range b.N {
				if err := r.Tick(hz); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if !hand && bi.Animations.Running() != benchAnimated {
				b.Fatalf("%d animations running", bi.Animations.Running())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchAnimated, "ns/entity")
		})
	}
}

// BenchmarkAnimationLoop is the update alone: the animations' loop and
// what it hands the transform system (not the transform update), then
// the hand-written loop with the same.
func BenchmarkAnimationLoop(b *testing.B) {
	for _, hand := range []bool{false, true} {
		name := map[bool]string{false: "animation", true: "hand"}[hand]
		b.Run(name, func(b *testing.B) {
			r, bi, h := benchScene(b, hand)
			a := bi.Animations
			b.ResetTimer()
			for range b.N {
				if hand {
					h.step(hz)
				} else {
					a.step(hz)
					a.flush()
				}
				bi.Transforms.moved, bi.Transforms.movedPos = bi.Transforms.moved[:0], bi.Transforms.movedPos[:0]
			}
			b.StopTimer()
			_ = r
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchAnimated, "ns/entity")
		})
	}
}
