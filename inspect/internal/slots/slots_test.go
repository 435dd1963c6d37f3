package slots

import (
	"strings"
	"testing"
	"time"
)

// TestTakeBack: a full Set refuses a new stream while every open one is
// younger than MinAge, then gives it the slot of the stream blocked in
// a write the longest, else of the oldest; the stream taken back is
// told (Lost closed, its write kicked) and its Release changes nothing.
func TestTakeBack(t *testing.T) {
	s := NewSet("event streams", 2)
	t0 := time.Unix(1000, 0)
	kicked := 0
	a, _ := s.Acquire(t0, func() { kicked++ })
	b, _ := s.Acquire(t0.Add(time.Second), nil)
	if a == nil || b == nil || s.Count() != 2 {
		t.Fatalf("two slots: %v %v, count %d", a, b, s.Count())
	}
	if c, why := s.Acquire(t0.Add(MinAge/2), nil); c != nil || !strings.Contains(why, "too many event streams: 2 open, at most 2") {
		t.Fatalf("third while young: %v %q", c, why)
	}
	// b is blocked in a write for longer than Stalled: it goes first,
	// though a is older.
	b.WritingSince(t0.Add(time.Second))
	now := t0.Add(time.Second + Stalled + time.Millisecond)
	c, _ := s.Acquire(now, nil)
	if c == nil || !closed(b.Lost) || closed(a.Lost) {
		t.Fatalf("stalled b not taken back: c %v, b lost %v, a lost %v", c, closed(b.Lost), closed(a.Lost))
	}
	s.Release(b) // taken back already: nothing
	if s.Count() != 2 {
		t.Fatalf("count %d after releasing a slot taken back", s.Count())
	}
	// Nobody blocked: the oldest open for MinAge goes, its write kicked.
	d, _ := s.Acquire(t0.Add(MinAge+time.Second), nil)
	if d == nil || !closed(a.Lost) || kicked != 1 {
		t.Fatalf("oldest not taken back: d %v, a lost %v, kicked %d", d, closed(a.Lost), kicked)
	}
	s.Release(c)
	s.Release(d)
	if s.Count() != 0 {
		t.Fatalf("count %d after releasing all", s.Count())
	}
}

func closed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
