package behaviour_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// The speed targets of issue 23 for bind and on. Compare the pairs in
// one run:
//
//	go test -run '^$' -bench 'Bind|OnDispatch' -count 5 ./components
//
// A bind such as position.y: sin(time*2)*3 over 10,000 entities costs at
// most twice a hand-written Go loop computing the same; an event
// delivered to an on with a condition and one set costs under 1 µs, with
// no allocation (TestOnDispatchAllocates checks that).

const benchBound = 10_000

// bindBenchCases are the expressions benchmarked, with the hand-written
// Go that computes the same from the time and the entity's position.
var bindBenchCases = []struct {
	name, expr string
	hand       func(t float64, p *registry.Vec3) float64
	// timeOnly: the value is the same for every entity, and a third
	// hand-written loop computes it once per tick (hand-hoisted).
	timeOnly bool
}{
	{"time", "sin(time * 2) * 3", func(t float64, _ *registry.Vec3) float64 { return math.Sin(t*2) * 3 }, true},
	{"entity", "sin(time * 2 + position.x) * 3", func(t float64, p *registry.Vec3) float64 { return math.Sin(t*2+p.X) * 3 }, false},
}

// bindBench is the World of a bind benchmark: benchBound entities with a
// position, bound or not.
type bindBench struct {
	r     *registry.Registry
	b     *components.Builtins
	es    []ecs.Entity
	moved *ecs.Filter
	log   *moveLog // where the bindings and the hand-written loops report their moves
}

func newBindBench(b *testing.B, expr string) *bindBench {
	w := ecs.NewWorld()
	r := registry.New(w)
	bi, err := components.Register(r)
	must(b, err)
	bb := &bindBench{r: r, b: bi}
	var comps []registry.NamedPatch
	comps = append(comps, registry.NamedPatch{Name: "position", Patch: registry.Patch{{Index: 0, Value: registry.Vec3{}}}})
	if expr != "" {
		comps = append(comps, namedPatchesB(b, r, "bind", "position.y: "+expr))
	}
	for i := range benchBound {
		e := w.NewEntity()
		comps[0].Patch = registry.Patch{{Index: 0, Value: registry.Vec3{X: float64(i) / 100}}}
		must(b, r.SetMany(e, comps))
		bb.es = append(bb.es, e)
	}
	bb.moved = ecs.NewFilter(w, ecs.With(bi.Position.ID(), bi.World.ID()))
	must(b, r.Tick(hz)) // pointers cached
	bb.log = &moveLog{}
	bi.ReportMoves(bb.log.Moved, bb.log.MovedPositions)
	return bb
}

// BenchmarkBindLoop is the bind loop alone (with what it hands the
// transform system), against hand-written loops computing the same: over
// the entities through ecs.Map, and over packed position columns.
func BenchmarkBindLoop(b *testing.B) {
	for _, c := range bindBenchCases {
		b.Run(c.name+"/bind", func(b *testing.B) {
			bb := newBindBench(b, c.expr)
			bs := bb.b.Bindings
			b.ResetTimer()
			for range b.N {
				bb.b.TickClock(hz)
				bs.Step()
				bb.log.clear()
			}
			b.StopTimer()
			checkBound(b, bb, c.hand)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBound, "ns/entity")
		})
		b.Run(c.name+"/hand", func(b *testing.B) {
			bb := newBindBench(b, "")
			pos, t := bb.b.Position, 0.0
			b.ResetTimer()
			for range b.N {
				t += hz
				for _, e := range bb.es {
					if p := pos.Get(e); p != nil {
						p.Y = c.hand(t, p)
					}
				}
				bb.log.MovedPositions(bb.moved)
				bb.log.clear()
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBound, "ns/entity")
		})
		if c.timeOnly {
			b.Run(c.name+"/hand-hoisted", func(b *testing.B) {
				bb := newBindBench(b, "")
				id, t := bb.b.Position.ID(), 0.0
				b.ResetTimer()
				for range b.N {
					t += hz
					y := c.hand(t, nil)
					q := bb.moved.Query()
					for q.NextTable() {
						ps := ecs.Column[registry.Vec3](&q, id)
						for i := range ps {
							ps[i].Y = y
						}
					}
					bb.log.MovedPositions(bb.moved)
					bb.log.clear()
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBound, "ns/entity")
			})
		}
		b.Run(c.name+"/hand-column", func(b *testing.B) {
			bb := newBindBench(b, "")
			t := 0.0
			b.ResetTimer()
			for range b.N {
				t += hz
				handColumn(bb, t, c.hand)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBound, "ns/entity")
		})
		// ratio-column runs the bind loop and hand-column in alternating
		// blocks of ticks and reports the CPU time of one over the
		// other's (see threadCPU), so that the load of a shared machine
		// falls on both alike.
		b.Run(c.name+"/ratio-column", func(b *testing.B) {
			bb, hb := newBindBench(b, c.expr), newBindBench(b, "")
			t := 0.0
			var tb, th time.Duration
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for b.Loop() {
				t0 := threadCPU()
				for range 8 {
					bb.b.TickClock(hz)
					bb.b.Bindings.Step()
					bb.log.clear()
				}
				t1 := threadCPU()
				for range 8 {
					t += hz
					handColumn(hb, t, c.hand)
				}
				tb, th = tb+t1-t0, th+threadCPU()-t1
			}
			checkBound(b, bb, c.hand)
			b.ReportMetric(float64(tb)/float64(th), "bind/hand-column")
		})
	}
}

// handColumn is one tick of the hand-written loop over the packed
// position columns: y computed from the time and the position.
func handColumn(bb *bindBench, t float64, hand func(float64, *registry.Vec3) float64) {
	id := bb.b.Position.ID()
	q := bb.moved.Query()
	for q.NextTable() {
		ps := ecs.Column[registry.Vec3](&q, id)
		for i := range ps {
			ps[i].Y = hand(t, &ps[i])
		}
	}
	bb.log.MovedPositions(bb.moved)
	bb.log.clear()
}

// checkBound checks that every bound position holds its expression's
// value at the clock's time.
func checkBound(b *testing.B, bb *bindBench, hand func(float64, *registry.Vec3) float64) {
	t := bb.b.Now()
	for _, e := range bb.es {
		p := bb.b.Position.Get(e)
		if want := hand(t, p); p.Y != want {
			b.Fatalf("position %v, want y %v", *p, want)
		}
	}
}

// onBench is an entity with a handler of a condition and one set, and
// the detail of its event.
func onBench(t testing.TB) (*registry.Registry, ecs.Entity, any) {
	w := ecs.NewWorld()
	r := registry.New(w)
	_, err := components.Register(r)
	must(t, err)
	s, err := schema.NewSchema([]registry.PropSpec{{Name: "hp", Type: "number"}}, r.Types())
	must(t, err)
	_, err = r.Declare("health", s)
	must(t, err)
	e := w.NewEntity()
	must(t, r.Set(e, "health", "hp: 100"))
	must(t, r.Set(e, "on__hit", "if: detail.damage > 3 && health.hp > -1e9; set: health.hp = health.hp - detail.damage"))
	return r, e, map[string]any{"damage": 5.0}
}

// BenchmarkOnDispatch is one event delivered to an on with a condition
// and one set, through Events.Emit.
func BenchmarkOnDispatch(b *testing.B) {
	r, e, detail := onBench(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r.Events().Emit(e, "hit", detail, false)
	}
	b.StopTimer()
	if err := r.TakeErrors(); err != nil {
		b.Fatal(err)
	}
}
