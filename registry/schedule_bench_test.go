package registry

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/benchpair"
)

// benchWork is the per-entity work of the benchmark systems: a few
// dozen nanoseconds of arithmetic that depends on the value, so that it
// cannot be skipped.
func benchWork(vs []pval) {
	for i := range vs {
		x := vs[i].X
		for range 4 {
			x = math.Sqrt(x*x+1) * 0.5
		}
		vs[i].X = x
	}
}

// independentScene is a Registry with n entities carrying the components
// a, b, c and d, and four systems of equal cost, each writing its own
// component over every entity (they do not conflict: one batch); with
// chunk > 0, one system over all four columns split into chunks of that
// many rows instead.
func independentScene(b *testing.B, n, chunk int) (*Registry, []func()) {
	w := ecs.NewWorld()
	r := New(w)
	names := []string{"a", "b", "c", "d"}
	ids := make([]ecs.ID, len(names))
	for i, name := range names {
		c, err := Register(r, name, Definition[pval]{})
		must(b, err)
		ids[i] = c.ID
	}
	for i := range n {
		e := w.NewEntity(ids...)
		for _, id := range ids {
			ecs.NewMap[pval](w, id).Get(e).X = float64(i % 101)
		}
	}
	// hand is the same work in plain loops, one after the other: the
	// serial baseline.
	var hand []func()
	for k, name := range names {
		id := ids[k]
		f := ecs.NewFilter(w, ecs.With(id))
		hand = append(hand, func() {
			q := f.Query()
			for q.NextTable() {
				benchWork(ecs.Column[pval](&q, id))
			}
		})
		if chunk > 0 {
			continue
		}
		_, err := RegisterSystem(r, "sys-"+name, SystemDefinition[struct{}]{
			Access: &Access{Writes: []string{name}},
			Query:  func(s *SystemContext, _ *struct{}) *ecs.Filter { return ecs.NewFilter(s.World, ecs.With(id)) },
			// One chunk: the system runs whole, as an unchunked one.
			ChunkSize: n,
			Each: func(_ *SystemContext, _ *struct{}, q *ecs.Query) {
				for q.NextTable() {
					benchWork(ecs.Column[pval](q, id))
				}
			},
		})
		must(b, err)
	}
	if chunk > 0 {
		_, err := RegisterSystem(r, "chunked", SystemDefinition[struct{}]{
			Access:    &Access{Writes: names},
			ChunkSize: chunk,
			Query:     func(s *SystemContext, _ *struct{}) *ecs.Filter { return ecs.NewFilter(s.World, ecs.With(ids...)) },
			Each: func(_ *SystemContext, _ *struct{}, q *ecs.Query) {
				for q.NextTable() {
					for _, id := range ids {
						benchWork(ecs.Column[pval](q, id))
					}
				}
			},
		})
		must(b, err)
	}
	must(b, r.Start())
	return r, hand
}

// BenchmarkScheduleParallel: four independent systems of equal cost over
// 100,000 entities on 1 and 2 workers, against the same work in four
// plain loops (hand); and the same work as one system split into chunks
// of 4096 rows; on one core and on two (GOMAXPROCS 1 and 2). The three
// run in turn within each iteration, each timed,
// so that the machine's other load weighs on all three alike (see
// interleaved).
func BenchmarkScheduleParallel(b *testing.B) {
	const n = 100_000
	for _, chunk := range []int{0, 4096} {
		r, hand := independentScene(b, n, chunk)
		name := "4-systems"
		if chunk > 0 {
			name = "chunked"
		}
		tick := func(workers int) func() {
			return func() {
				r.Schedule().SetWorkers(workers)
				if err := r.Tick(1.0 / 60); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, cores := range []int{1, 2} {
			// GOMAXPROCS set here rather than with -cpu, so that it holds
			// for every run of the case whatever runs around it.
			b.Run(fmt.Sprintf("%s/cores=%d", name, cores), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cores))
				benchpair.Interleaved(b, []string{"hand", "workers=1", "workers=2"}, func() {
					for _, f := range hand {
						f()
					}
				}, tick(1), tick(2))
			})
		}
	}
}
