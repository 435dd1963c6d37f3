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

// TestStatsLoad: the load is the share of the window's wall time spent
// ticking: about 1 for ticks back to back (a run flat out), the tick's
// share of the time step for a paced run, and 0 once nothing ticked in
// the last second (paused).
func TestStatsLoad(t *testing.T) {
	for _, c := range []struct {
		name       string
		dur, every time.Duration
		lo, hi     float64
	}{
		{"flat out", 40 * time.Microsecond, 40 * time.Microsecond, 0.99, 1},
		{"flat out, a request served between ticks", 40 * time.Microsecond, 44 * time.Microsecond, 0.88, 0.93},
		{"paced at 60 Hz", time.Millisecond, time.Second / 60, 0.055, 0.065},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s statsRing
			s.init(0)
			now := s.epoch
			for range 3 * ringSize {
				now = now.Add(c.every)
				s.record(now, c.dur, 1, 0)
			}
			if st := s.snapshot(now); st.Load < c.lo || st.Load > c.hi {
				t.Errorf("load %.3f, want %.3f to %.3f", st.Load, c.lo, c.hi)
			}
			if st := s.snapshot(now.Add(2 * time.Second)); st.Load != 0 {
				t.Errorf("load %.3f two seconds after the last tick, want 0", st.Load)
			}
		})
	}
}
