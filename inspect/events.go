package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
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
}

type subscriber struct {
	ch      chan []byte
	dropped atomic.Int64
}

// subscribe adds a stream; nil if there are too many.
func (h *hub) subscribe() *subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) >= maxStreams {
		return nil
	}
	if h.subs == nil {
		h.subs = map[*subscriber]struct{}{}
	}
	s := &subscriber{ch: make(chan []byte, streamBuffer)}
	h.subs[s] = struct{}{}
	return s
}

func (h *hub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// publish sends an event to every stream without waiting for any.
func (h *hub) publish(event string, v any) {
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
		select {
		case s.ch <- msg:
		default:
			s.dropped.Add(1)
		}
	}
}

// events serves GET /api/events.
func (in *Inspector) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "inspect: this server cannot stream responses")
		return
	}
	s := in.hub.subscribe()
	if s == nil {
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("inspect: too many event streams (at most %d)", maxStreams))
		return
	}
	defer in.hub.unsubscribe(s)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	writeStats := func() error {
		b, _ := json.Marshal(in.Stats())
		_, err := fmt.Fprintf(w, "event: stats\ndata: %s\n\n", b)
		return err
	}
	if _, err := fmt.Fprint(w, "retry: 1000\n\n"); err != nil || writeStats() != nil {
		return
	}
	fl.Flush()
	t := time.NewTicker(in.statsEvery)
	defer t.Stop()
	for {
		var err error
		select {
		case <-r.Context().Done():
			return
		case <-in.closed:
			return
		case <-t.C:
			err = writeStats()
		case msg := <-s.ch:
			_, err = w.Write(msg)
			for more := true; more && err == nil; {
				select {
				case msg = <-s.ch:
					_, err = w.Write(msg)
				default:
					more = false
				}
			}
		}
		if n := s.dropped.Swap(0); n > 0 && err == nil {
			_, err = fmt.Fprintf(w, "event: dropped\ndata: {\"dropped\":%d,\"note\":\"this client read too slowly; %d events were dropped: fetch /api/scene to catch up\"}\n\n", n, n)
		}
		if err != nil {
			return
		}
		fl.Flush()
	}
}
