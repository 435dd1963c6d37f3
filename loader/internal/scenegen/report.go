package scenegen

import (
	"testing"
	"time"
)

// ReportVersus reports, for a benchmark that ran a hand-written fast path
// and the library lib it stands in for on the same input of size bytes
// b.N times, taking fast and ref in all: each one's time per run and
// throughput, and the speedup (ref over fast).
func ReportVersus(b *testing.B, size int, fast, ref time.Duration, lib string) {
	n := float64(b.N)
	b.ReportMetric(float64(fast.Nanoseconds())/n, "fast-ns/op")
	b.ReportMetric(float64(ref.Nanoseconds())/n, lib+"-ns/op")
	b.ReportMetric(float64(size)*n/fast.Seconds()/1e6, "fast-MB/s")
	b.ReportMetric(float64(size)*n/ref.Seconds()/1e6, lib+"-MB/s")
	b.ReportMetric(ref.Seconds()/fast.Seconds(), "speedup")
}
