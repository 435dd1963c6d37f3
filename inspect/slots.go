package inspect

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Streams (GET /api/events, GET /api/transforms/stream) hold a slot each
// while they are open; there are maxStreams event streams and
// maxTransformStreams transform streams. A client that connects and
// never reads must not keep the page's own stream out, so slots are
// taken back:
//
//   - every write of a stream has a deadline (Timeouts.StreamWrite): a
//     client that has not read what was sent to it for that long, once
//     the connection's buffers are full, loses its stream;
//   - a stream that finds every slot taken takes the slot of a stream
//     whose write has been blocked the longest (for at least
//     slotStalled), else of the oldest stream open for at least
//     slotMinAge. That stream ends; a browser's EventSource reconnects by
//     itself a second later (the stream's retry), and gets a slot back
//     the same way. Only when every stream was opened less than
//     slotMinAge ago is the new one refused: 503, saying how many are
//     open and the limit.

// Bounds of the slot policy.
const (
	slotStalled = time.Second
	slotMinAge  = 2 * time.Second
)

// streamSlots are the slots of one kind of stream.
type streamSlots struct {
	kind string // "event streams", for messages
	max  int
	mu   sync.Mutex
	open []*streamSlot
}

// streamSlot is one open stream's slot.
type streamSlot struct {
	opened time.Time
	// lost is closed when the slot is taken back: the stream must end.
	lost     chan struct{}
	lostOnce sync.Once
	// writing is when the write in progress began (UnixNano), 0 if none.
	writing atomic.Int64
	// kick ends a write in progress at once (its deadline set to now);
	// nil if the stream's writer cannot.
	kick func()
}

// acquire returns a slot for a new stream, opened at now, whose writes
// kick ends, taking one back if all are taken; or nil and why not.
func (s *streamSlots) acquire(now time.Time, kick func()) (*streamSlot, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := &streamSlot{opened: now, lost: make(chan struct{}), kick: kick}
	if len(s.open) < s.max {
		s.open = append(s.open, sl)
		return sl, ""
	}
	v := s.victim(now)
	if v < 0 {
		return nil, fmt.Sprintf("inspect: too many %s: %d open, at most %d, and each was opened less than %v ago (older ones give their slot to new ones); try again", s.kind, len(s.open), s.max, slotMinAge)
	}
	s.open[v].takeBack()
	s.open[v] = sl
	return sl, ""
}

// victim returns the index of the slot to take back at now, or -1: the
// stream blocked in a write the longest (at least slotStalled), else the
// oldest open for at least slotMinAge.
func (s *streamSlots) victim(now time.Time) int {
	best, bestStall := -1, slotStalled-1
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
		if now.Sub(sl.opened) >= slotMinAge && (best < 0 || sl.opened.Before(s.open[best].opened)) {
			best = i
		}
	}
	return best
}

// release frees sl when its stream ends (nothing if it was taken back).
func (s *streamSlots) release(sl *streamSlot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.open {
		if x == sl {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return
		}
	}
}

// count returns the number of open streams.
func (s *streamSlots) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.open)
}

// takeBack tells the slot's stream to end, and ends its write in
// progress.
func (sl *streamSlot) takeBack() {
	sl.lostOnce.Do(func() {
		close(sl.lost)
		if sl.kick != nil {
			sl.kick()
		}
	})
}

// writing marks a write as begun (at now) or, with the zero time, done.
func (sl *streamSlot) writingSince(now time.Time) {
	if now.IsZero() {
		sl.writing.Store(0)
		return
	}
	sl.writing.Store(now.UnixNano())
}
