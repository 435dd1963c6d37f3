package schedule

import (
	"fmt"
	"github.com/scenecs/scenecs/internal/benchpair"
	"testing"
)

// BenchmarkScheduleOverheadPerSystem: the cost the schedule adds to each
// node it runs, on one worker: ticks of 64 nodes that do nothing
// (exclusive ones, or declared ones, which run under the parallel rules
// in batches), against the loop before the schedule running the same
// nodes (fixedLoopTick), in turn within each iteration. Reported per
// tick: the difference over 64 is the schedule's own cost per node.
func BenchmarkScheduleOverheadPerSystem(b *testing.B) {
	for _, decl := range []bool{false, true} {
		s, _, _ := newTest(b)
		for i := range 64 {
			in := Info{Name: fmt.Sprint("s", i), Tick: true}
			if decl {
				in.Settings.Access = &Access{Writes: []string{fmt.Sprint("c", i)}}
			}
			must(b, s.Add(&testNode{info: in, run: func(*Unit) {}}))
		}
		s.SetWorkers(1)
		name := "exclusive"
		if decl {
			name = "declared"
		}
		tick := func(f func(float64) error) func() {
			return func() {
				if err := f(1.0 / 60); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.Run(name, func(b *testing.B) {
			benchpair.Interleaved(b, []string{"fixed-loop", "schedule"}, tick(s.fixedLoopTick), tick(s.Tick))
			// µs per tick of 64 nodes: ns per node is µs*1000/64.
		})
	}
}
