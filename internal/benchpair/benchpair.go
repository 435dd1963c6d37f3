// Package benchpair times cases side by side in one benchmark, for
// ratios measured in the same run on a noisy machine. Tests alone import
// it.
package benchpair

import (
	"testing"
	"time"
)

// Interleaved runs the cases in turn, once each per iteration, and
// reports each one's mean time per run in µs (µs/NAME, names in the
// cases' order) and the ratio of the last to the one before (last/prev).
// Each case goes first in turn, so that none is always the one that
// finds the caches warmed (or cooled) by another.
func Interleaved(b *testing.B, names []string, cases ...func()) {
	total := make([]time.Duration, len(cases))
	for it := 0; b.Loop(); it++ {
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
