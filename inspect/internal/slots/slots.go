// Package slots bounds the streams an inspector keeps open (its event
// and transform streams) and takes a slot back from a stream that does
// not read or has been open long enough, so that a client that connects
// and never reads cannot keep the page's own stream out.
package slots

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Streams (the inspector's GET /api/events, GET /api/transforms/stream)
// hold a slot each while they are open, a [Set] of them per kind of
// stream. A client that connects and never reads must not keep the
// page's own stream out, so slots are taken back:
//
//   - every write of a stream has a deadline (the inspector's Timeouts.StreamWrite): a
//     client that has not read what was sent to it for that long, once
//     the connection's buffers are full, loses its stream;
//   - a stream that finds every slot taken takes the slot of a stream
//     whose write has been blocked the longest (for at least
//     Stalled), else of the oldest stream open for at least
//     MinAge. That stream ends; a browser's EventSource reconnects by
//     itself a second later (the stream's retry), and gets a slot back
//     the same way. Only when every stream was opened less than
//     MinAge ago is the new one refused: 503, saying how many are
//     open and the limit.

// Bounds of the slot policy.
const (
	// Stalled is how long a stream's write must have been blocked for
	// its slot to go to a new stream first.
	Stalled = time.Second
	// MinAge is how long a stream must have been open for its slot to
	// go to a new stream.
	MinAge = 2 * time.Second
)

// A Set is the slots of one kind of stream. Its methods may be called
// from any goroutine.
type Set struct {
	kind string // "event streams", for messages
	max  int
	mu   sync.Mutex
	open []*Slot
}

// NewSet returns a Set of max slots; kind names its streams in messages
// ("event streams").
func NewSet(kind string, max int) *Set { return &Set{kind: kind, max: max} }

// A Slot is one open stream's slot.
type Slot struct {
	opened time.Time
	// Lost is closed when the slot is taken back: the stream must end.
	Lost     chan struct{}
	lostOnce sync.Once
	// writing is when the write in progress began (UnixNano), 0 if none.
	writing atomic.Int64
	// kick ends a write in progress at once (its deadline set to now);
	// nil if the stream's writer cannot.
	kick func()
}

// Acquire returns a slot for a new stream, opened at now, whose writes
// kick ends, taking one back if all are taken; or nil and why not.
func (s *Set) Acquire(now time.Time, kick func()) (*Slot, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := &Slot{opened: now, Lost: make(chan struct{}), kick: kick}
	if len(s.open) < s.max {
		s.open = append(s.open, sl)
		return sl, ""
	}
	v := s.victim(now)
	if v < 0 {
		return nil, fmt.Sprintf("inspect: too many %s: %d open, at most %d, and each was opened less than %v ago (older ones give their slot to new ones); try again", s.kind, len(s.open), s.max, MinAge)
	}
	s.open[v].takeBack()
	s.open[v] = sl
	return sl, ""
}

// victim returns the index of the slot to take back at now, or -1: the
// stream blocked in a write the longest (at least Stalled), else the
// oldest open for at least MinAge.
func (s *Set) victim(now time.Time) int {
	best, bestStall := -1, Stalled-1
	for i, sl := range s.open {
		if w := sl.writing.Load(); w != 0 {
			if stall := now.Sub(time.Unix(0, w)); stall > bestStall {
				best, bestStall = i, stall
			}
		}
	}
	if best >= 0 {
		return best
	}
	for i, sl := range s.open {
		if now.Sub(sl.opened) >= MinAge && (best < 0 || sl.opened.Before(s.open[best].opened)) {
			best = i
		}
	}
	return best
}

// Release frees sl when its stream ends (nothing if it was taken back).
func (s *Set) Release(sl *Slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.open {
		if x == sl {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return
		}
	}
}

// Count returns the number of open streams.
func (s *Set) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// takeBack tells the slot's stream to end, and ends its write in
// progress.
func (sl *Slot) takeBack() {
	sl.lostOnce.Do(func() {
		close(sl.Lost)
		if sl.kick != nil {
			sl.kick()
		}
	})
}

// WritingSince marks a write as begun (at now) or, with the zero time, done.
func (sl *Slot) WritingSince(now time.Time) {
	if now.IsZero() {
		sl.writing.Store(0)
		return
	}
	sl.writing.Store(now.UnixNano())
}
