package inspect

import (
	"testing"
	"time"
)

// TestStatsBounded: the inspector keeps at most ringSize tick samples
// however many ticks it observes (a run flat out ticks tens of thousands
// of times a second), and its statistics look at those only.
func TestStatsBounded(t *testing.T) {
	var s statsRing
	s.init(0)
	now := s.epoch
	const n = 10 * ringSize
	for i := range n {
		now = now.Add(10 * time.Microsecond)
		s.record(now, time.Duration(i%100)*time.Microsecond, 1, 0)
		if s.n > ringSize {
			t.Fatalf("after %d ticks %d samples kept, want at most %d", i+1, s.n, ringSize)
		}
	}
	if s.n != ringSize || s.ticks != n {
		t.Fatalf("%d samples, %d ticks", s.n, s.ticks)
	}
	st := s.snapshot(now)
	// The window (1 s) holds every tick, but only the last ringSize are
	// kept: the rate comes from their span, 10 µs apart.
	if st.Ticks != n || st.TicksPerSecond < 99_000 || st.TicksPerSecond > 101_000 {
		t.Errorf("stats %+v", st)
	}
	if st.MsPerTick.P99 > 0.1 || st.MsPerTick.P50 <= 0 {
		t.Errorf("percentiles %+v", st.MsPerTick)
	}
}
