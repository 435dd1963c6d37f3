package schedule

import (
	"fmt"
	"testing"
	"time"
)

// interleaved runs the cases in turn, once each per iteration, and
// reports each one's mean time per run in µs (µs/NAME) and the ratio of
// the last to the one before (last/prev).
func interleaved(b *testing.B, names []string, cases ...func()) {
	total := make([]time.Duration, len(cases))
	for it := 0; b.Loop(); it++ {
		// Each case goes first in turn: none is always the one that
		// finds the caches warmed (or cooled) by another.
		for k := range cases {
			i := (it + k) % len(cases)
			t0 := time.Now()
			cases[i]()
			total[i] += time.Since(t0)
		}
	}
	for i, name := range names {
		b.ReportMetric(float64(total[i].Nanoseconds())/1e3/float64(b.N), "µs/"+name)
	}
	k := len(cases) - 1
	b.ReportMetric(float64(total[k])/float64(total[k-1]), "last/prev")
}

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
			interleaved(b, []string{"fixed-loop", "schedule"}, tick(s.fixedLoopTick), tick(s.Tick))
			// µs per tick of 64 nodes: ns per node is µs*1000/64.
		})
	}
}
