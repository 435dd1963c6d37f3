package inspect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// How requests reach the World: each is a work item on a bounded queue,
// served on the simulation goroutine by Drain (between ticks, within an
// allowance) or DrainUntil (in time a loop has to spare). A work item is
// served in one go (fn) or, if it may be long (a dump of the whole
// scene), in steps (step), one per call until done, so that no call of
// Drain holds the simulation much longer than its budget. What is long
// to format (the JSON of a dump) is formatted by the HTTP goroutine
// (reply.encode), one at a time (Inspector.encoders).

// work is one request waiting for the simulation goroutine.
type work struct {
	ctx  context.Context
	name string // "PUT /api/...", for messages
	fn   func() reply
	// step, instead of fn, serves the request in steps: each call works
	// until the clock passes until (or a little beyond) and reports
	// whether it is done, with the reply.
	step func(until time.Time) (reply, bool)
	done chan reply // buffered: the server never blocks on it
	// key names a read (method GET, path and query), which identical
	// reads arriving while it waits, not yet begun, join: they are more,
	// and get the same reply. Empty for other requests. more is guarded
	// by Inspector.shareMu until the work begins, then only read.
	key  string
	more []waiter
}

// waiter is a request waiting for the reply of a work item it joined.
type waiter struct {
	ctx  context.Context
	done chan reply
}

// begin takes it out of the reads others may join, and reports whether
// any of its clients is still there.
func (in *Inspector) begin(it *work) bool {
	in.shareMu.Lock()
	if it.key != "" && in.shared[it.key] == it {
		delete(in.shared, it.key)
	}
	in.shareMu.Unlock()
	return it.wanted()
}

// wanted reports whether any client of it (once begun) is still there.
func (it *work) wanted() bool {
	if it.ctx.Err() == nil {
		return true
	}
	for _, x := range it.more {
		if x.ctx.Err() == nil {
			return true
		}
	}
	return false
}

// waiting returns the number of requests waiting for the simulation
// goroutine: those queued and those that joined them.
func (in *Inspector) waiting() int {
	in.shareMu.Lock()
	defer in.shareMu.Unlock()
	n := len(in.queue)
	for _, it := range in.shared {
		n += len(it.more)
	}
	return n
}

// answer sends rep to every client of it (an encoding is shared: made
// once).
func (it *work) answer(rep reply) {
	if rep.encode != nil {
		rep.enc = &encoding{f: rep.encode}
		rep.encode = nil
	}
	it.done <- rep
	for _, x := range it.more {
		x.done <- rep
	}
}

// reply is what a work item answers: a status and a JSON value, or bytes
// already encoded, or a function that encodes them (off the simulation
// goroutine).
type reply struct {
	status int
	body   any
	raw    []byte
	ctype  string
	header map[string]string
	// encode, if not nil, writes the body: the HTTP goroutine calls it,
	// one answer at a time (enc, once the work answers).
	encode func(io.Writer) error
	enc    *encoding
}

// encoding is a reply's body to encode once for all its clients.
type encoding struct {
	f    func(io.Writer) error
	once sync.Once
	b    []byte
	err  error
}

// allowance is the time Drain may spend serving: it grows by
// Options.Share of the wall time that passes, up to Options.Budget, and
// what Drain serves is taken from it (it may go below zero).
type allowance struct {
	last time.Time
	left time.Duration
}

// refill adds what the time since the last refill gives.
func (a *allowance) refill(now time.Time, share float64, budget time.Duration) {
	if a.last.IsZero() {
		a.left = budget
	} else {
		a.left += time.Duration(share * float64(now.Sub(a.last)))
	}
	a.left = min(a.left, budget)
	a.last = now
}

// Drain serves waiting requests on the calling goroutine, which must be
// the one that runs the simulation, between ticks, within its allowance
// (Options.Budget per call, Options.Share of wall time on average): while
// any is left, requests one after another until Budget or the allowance
// is spent, a large one (a dump) a slice at a time. Requests whose client
// has gone are skipped. It returns the number of requests answered.
func (in *Inspector) Drain() int {
	in.log.stale = true // the event log reads the clock again at its next event
	if in.log.remove != nil {
		select {
		case <-in.closed:
			in.untapEvents() // on the simulation goroutine, as the Registry wants
		default:
		}
	}
	if in.cur == nil && len(in.queue) == 0 {
		return 0 // nothing to do: not even a look at the clock
	}
	now := time.Now()
	in.allow.refill(now, in.opt.Share, in.opt.Budget)
	if in.allow.left <= 0 {
		return 0
	}
	n := in.serveUntil(now.Add(in.allow.left))
	in.allow.left -= time.Since(now)
	return n
}

// DrainUntil serves waiting requests on the simulation goroutine until
// deadline: for a loop that has time to spare before its next tick (it
// would sleep until then), which it may spend on requests, not bound by
// Options.Share. It starts work only until Options.Budget before the
// deadline: a request that cannot be split (a selector query) is
// finished once begun, and that margin is for it. It returns the number
// of requests answered.
func (in *Inspector) DrainUntil(deadline time.Time) int {
	in.log.stale = true
	until := deadline.Add(-in.opt.Budget)
	if !time.Now().Before(until) {
		return 0
	}
	return in.serveUntil(until)
}

// serveUntil serves requests until until (at least one slice of work if
// any waits), and returns the number answered.
func (in *Inspector) serveUntil(until time.Time) int {
	n := 0
	for first := true; first || time.Now().Before(until); first = false {
		it := in.cur
		if it == nil {
			select {
			case it = <-in.queue:
			default:
			}
		}
		if it == nil {
			break
		}
		if in.cur == nil && !in.begin(it) || in.cur != nil && !it.wanted() {
			in.cur = nil
			continue // its clients have gone
		}
		in.cur = nil
		rep, done := in.serve(it, until)
		if !done {
			in.cur = it // goes on at the next call
			break
		}
		it.answer(rep)
		n++
	}
	if n > 0 {
		in.stats.setWorld(in.w.Len(), in.reg.Time())
	}
	return n
}

// serve runs one work item (or one step of it), turning a panic (in a
// hook, say) into a 500 answer: the simulation goes on.
func (in *Inspector) serve(it *work, until time.Time) (r reply, done bool) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprintf("inspect: %s: panic: %v", it.name, p)
			if in.w.Locked() {
				msg += " (the World was left locked: structural changes are deferred until the program recovers it)"
			}
			r, done = errReply(http.StatusInternalServerError, msg), true
		}
	}()
	if it.step != nil {
		return it.step(until)
	}
	return it.fn(), true
}

// encoded returns the body e encodes, encoding it if no client did yet:
// one at a time across the Inspector's requests, so that formatting
// large answers (off the simulation goroutine) leaves a core to the
// simulation.
func (in *Inspector) encoded(e *encoding) ([]byte, error) {
	e.once.Do(func() {
		in.encoders <- struct{}{}
		defer func() { <-in.encoders }()
		var buf bytes.Buffer
		e.err = e.f(&buf)
		e.b = buf.Bytes()
	})
	return e.b, e.err
}
