package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Event streams (GET /api/events) are Server-Sent Events. Each client has
// its own buffer of streamBuffer events; publishing never blocks: when a
// client's buffer is full the event is dropped for that client, and the
// client is told with a "dropped" event once it catches up.

// streamBuffer is the number of events a client may have pending.
const streamBuffer = 256

// hub fans events out to the open streams.
type hub struct {
	mu   sync.Mutex
	subs map[*subscriber]struct{}
	seq  uint64
	// open counts the streams, for the event log to ask without the lock.
	open atomic.Int32
}

type subscriber struct {
	ch      chan []byte
	dropped atomic.Int64
	// events, if not nil, are the names of the entity events the stream
	// takes (GET /api/events?events=hit,open); nil: all.
	events map[string]bool
}

// subscribe adds a stream (its slot is already taken: see slots.go)
// taking the entity events named in events (nil: all).
func (h *hub) subscribe(events map[string]bool) *subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*subscriber]struct{}{}
	}
	s := &subscriber{ch: make(chan []byte, streamBuffer), events: events}
	h.subs[s] = struct{}{}
	h.open.Add(1)
	return s
}

func (h *hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		h.open.Add(-1)
	}
	h.mu.Unlock()
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// publish sends an event to every stream without waiting for any.
func (h *hub) publish(event string, v any) { h.send(event, "", v) }

// publishEvent sends an "entity-event" about the entity event name to
// the streams that take it.
func (h *hub) publishEvent(name string, v any) { h.send("entity-event", name, v) }

// send sends an event to every stream (that takes the entity event
// name, if not "") without waiting for any.
func (h *hub) send(event, name string, v any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) == 0 {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		data, _ = json.Marshal(map[string]string{"error": err.Error()})
	}
	h.seq++
	msg := fmt.Appendf(nil, "id: %d\nevent: %s\ndata: %s\n\n", h.seq, event, data)
	for s := range h.subs {
		if name != "" && s.events != nil && !s.events[name] {
			continue
		}
		select {
		case s.ch <- msg:
		default:
			s.dropped.Add(1)
		}
	}
}

// eventFilter reads ?events=NAME,NAME of GET /api/events: the entity
// events the stream takes (nil: all); ok is false if it wrote an error.
func eventFilter(w http.ResponseWriter, r *http.Request) (map[string]bool, bool) {
	q := r.URL.Query()
	if !q.Has("events") {
		return nil, true
	}
	names := map[string]bool{}
	for _, n := range strings.Split(q.Get("events"), ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !validEvent(n) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: events: %q is not an event name (letters, digits, '-', '_' and '.')", n))
			return nil, false
		}
		names[n] = true
	}
	return names, true
}

// events serves GET /api/events. It holds one of the maxStreams slots
// (slots.go); each write has a deadline of Timeouts.StreamWrite.
func (in *Inspector) events(w http.ResponseWriter, r *http.Request) {
	filter, ok := eventFilter(w, r)
	if !ok {
		return
	}
	rc := http.NewResponseController(w)
	sl, why := in.eventSlots.Acquire(time.Now(), func() { _ = rc.SetWriteDeadline(time.Now()) })
	if sl == nil {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, why)
		return
	}
	defer in.eventSlots.Release(sl)
	s := in.hub.subscribe(filter)
	defer in.hub.unsubscribe(s)
	streamDeadlines(rc)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	// send writes what write writes, then flushes, within the deadline.
	send := func(write func() error) error {
		now := time.Now()
		sl.WritingSince(now)
		defer sl.WritingSince(time.Time{})
		_ = rc.SetWriteDeadline(now.Add(in.timeouts.StreamWrite))
		if err := write(); err != nil {
			return err
		}
		return rc.Flush()
	}
	writeStats := func() error {
		b, _ := json.Marshal(in.Stats())
		_, err := fmt.Fprintf(w, "event: stats\ndata: %s\n\n", b)
		return err
	}
	if send(func() error {
		w.WriteHeader(http.StatusOK)
		if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil {
			return err
		}
		return writeStats()
	}) != nil {
		return
	}
	t := time.NewTicker(in.statsEvery)
	defer t.Stop()
	for {
		var write func() error
		select {
		case <-r.Context().Done():
			return
		case <-in.closed:
			return
		case <-sl.Lost:
			return // its slot went to a newer stream
		case <-t.C:
			write = writeStats
		case msg := <-s.ch:
			write = func() error { return writeEvents(w, s, msg) }
		}
		if send(write) != nil {
			return
		}
	}
}

// writeEvents writes msg and the other events waiting for s, then a
// "dropped" event if some were dropped.
func writeEvents(w http.ResponseWriter, s *subscriber, msg []byte) error {
	_, err := w.Write(msg)
	for more := true; more && err == nil; {
		select {
		case msg = <-s.ch:
			_, err = w.Write(msg)
		default:
			more = false
		}
	}
	if n := s.dropped.Swap(0); n > 0 && err == nil {
		_, err = fmt.Fprintf(w, "event: dropped\ndata: {\"dropped\":%d,\"note\":\"this client read too slowly; %d events were dropped: fetch /api/scene to catch up\"}\n\n", n, n)
	}
	return err
}
