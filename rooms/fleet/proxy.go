package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// ProxyOptions configure a Proxy. Zero fields take defaults.
type ProxyOptions struct {
	// KeepAlive is how often a stream's two ends tell each other they are
	// there; either gives up after five intervals without word. Default
	// 1 s.
	KeepAlive time.Duration
	// Timeout bounds the wait for an answer to begin. Default 30 s.
	Timeout time.Duration
	// Wait is how long a request waits for a host to serve its room
	// (one moving to another host, after a failover) before it is
	// answered 503. Default 10 s. A room the directory has no entry for
	// is answered 404 at once, and one that stopped with an error 410.
	Wait time.Duration
	// StreamWrite bounds each write of a streamed answer to the client:
	// a client that has not read for that long loses its stream.
	// Default 10 s.
	StreamWrite time.Duration
}

func (o *ProxyOptions) defaults() {
	for _, f := range []struct {
		v *time.Duration
		d time.Duration
	}{{&o.KeepAlive, defaultKeepAlive}, {&o.Timeout, 30 * time.Second}, {&o.Wait, 10 * time.Second}, {&o.StreamWrite, 10 * time.Second}} {
		if *f.v <= 0 {
			*f.v = f.d
		}
	}
	o.KeepAlive = min(max(o.KeepAlive, minKeepAlive), maxKeepAlive)
}

// Proxy serves the inspection API of any room of the fleet over HTTP,
// through NATS (the verb "serve"): requests, answers of any size, and
// the event and transform streams, which it relays as they come. It
// addresses a room by its id, not by its host: a room that moved to
// another host is reached there. Its methods may be called from any
// goroutine.
//
// A Proxy checks nothing: it sends every request with the fleet's
// authority (the room's token, as the verbs do), so whoever reaches it
// may change the rooms. Put it behind checks of its own (scene-run host
// -inspect checks the page's token, Host and Origin).
type Proxy struct {
	nc     *nats.Conn
	n      names
	opt    ProxyOptions
	prefix string // the inbox subjects are prefix.N
	sub    *nats.Subscription

	mu   sync.Mutex
	next uint64
	open map[string]*inbox
	dir  *stores // the directory, once found (lookup)
}

// NewProxy returns a Proxy of the fleet with the given prefix (empty:
// "scenecs") on nc. It subscribes one subject, the inboxes of its
// streams, until Close.
func NewProxy(nc *nats.Conn, prefix string, opt ProxyOptions) (*Proxy, error) {
	if prefix == "" {
		prefix = "scenecs"
	}
	opt.defaults()
	p := &Proxy{nc: nc, n: namesOf(prefix), opt: opt, prefix: nc.NewInbox(), open: map[string]*inbox{}}
	sub, err := nc.Subscribe(p.prefix+".*", p.dispatch)
	if err != nil {
		return nil, fmt.Errorf("fleet: proxy: %w", err)
	}
	// The inboxes are bounded by the hosts' windows, not by these.
	_ = sub.SetPendingLimits(-1, 256<<20)
	p.sub = sub
	return p, nil
}

// Close stops the Proxy's subscription: the streams it relays end.
func (p *Proxy) Close() error { return p.sub.Unsubscribe() }

// inbox is the messages of one streamed answer, as they arrive.
type inbox struct {
	mu   sync.Mutex
	msgs []*nats.Msg
	wake chan struct{}
}

// dispatch hands a message of an inbox to its answer's relay.
func (p *Proxy) dispatch(m *nats.Msg) {
	p.mu.Lock()
	in := p.open[m.Subject[len(p.prefix)+1:]]
	p.mu.Unlock()
	if in == nil {
		return
	}
	in.mu.Lock()
	in.msgs = append(in.msgs, m)
	in.mu.Unlock()
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// take returns the messages that arrived, in order.
func (in *inbox) take() []*nats.Msg {
	in.mu.Lock()
	defer in.mu.Unlock()
	ms := in.msgs
	in.msgs = nil
	return ms
}

// ServeRoom answers r, a request of the inspection API (its path
// "/api/...", as the room's own server would get it), for room id
// through NATS. A token parameter of the query is not passed on.
func (p *Proxy) ServeRoom(w http.ResponseWriter, r *http.Request, id string) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(msgLimit(p.nc))))
	if err != nil {
		proxyError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("fleet: proxy: reading the body: %v", err))
		return
	}
	q := r.URL.Query()
	target := r.URL.EscapedPath()
	if q.Has("token") {
		q.Del("token")
		r.URL.RawQuery = q.Encode()
	}
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	key, in := p.register()
	defer p.unregister(key)
	req := nats.NewMsg(p.n.room + id + ".serve")
	req.Header.Set(hdrMethod, r.Method)
	req.Header.Set(hdrPath, target)
	req.Header.Set(hdrInbox, p.prefix+"."+key)
	req.Header.Set(hdrKeepAlive, p.opt.KeepAlive.String())
	req.Data = body
	head, err := p.request(r.Context(), req, id)
	if err != nil {
		p.requestFailed(w, id, err)
		return
	}
	status, _ := strconv.Atoi(head.Header.Get(statusHeader))
	if status < 100 {
		status = http.StatusBadGateway
	}
	for k, vs := range head.Header {
		if !skipHeader(k) {
			w.Header()[http.CanonicalHeaderKey(k)] = vs
		}
	}
	control := head.Header.Get(hdrControl)
	if control == "" {
		w.Header().Set("Content-Length", strconv.Itoa(len(head.Data)))
		w.WriteHeader(status)
		_, _ = w.Write(head.Data)
		return
	}
	p.relay(w, r, in, control, status)
}

// register opens an inbox for an answer.
func (p *Proxy) register() (string, *inbox) {
	in := &inbox{wake: make(chan struct{}, 1)}
	p.mu.Lock()
	p.next++
	key := strconv.FormatUint(p.next, 36)
	p.open[key] = in
	p.mu.Unlock()
	return key, in
}

func (p *Proxy) unregister(key string) {
	p.mu.Lock()
	delete(p.open, key)
	p.mu.Unlock()
}

// request sends req, a request to room id, and returns the head of its
// answer; while no host serves the room (it is moving), it asks again for
// up to Options.Wait, unless the directory says the room is not there or
// has stopped (a *roomGone).
func (p *Proxy) request(ctx context.Context, req *nats.Msg, id string) (*nats.Msg, error) {
	give := time.Now().Add(p.opt.Wait)
	for first := true; ; first = false {
		rctx, cancel := context.WithTimeout(ctx, p.opt.Timeout)
		head, err := p.nc.RequestMsgWithContext(rctx, req)
		cancel()
		if !errors.Is(err, nats.ErrNoResponders) || time.Now().After(give) {
			return head, err
		}
		if first {
			if gone := p.lookup(ctx, id); gone != nil {
				return nil, gone
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// roomGone is a request's error for a room the directory has no entry
// for (stopped empty), or one that stopped with an error: no host will
// serve it, so the request does not wait for one.
type roomGone struct {
	id, stopped string
}

func (e *roomGone) Error() string {
	if e.stopped != "" {
		return fmt.Sprintf("fleet: room %s is quarantined: %s", e.id, e.stopped)
	}
	return "fleet: no such room: " + e.id
}

// lookup asks the directory about room id when no host serves it: a
// *roomGone if it has no entry or stopped, nil if it is there (moving, or
// being placed) or the directory cannot say.
func (p *Proxy) lookup(ctx context.Context, id string) *roomGone {
	p.mu.Lock()
	dir := p.dir
	p.mu.Unlock()
	if dir == nil {
		js, err := jetstream.New(p.nc)
		if err != nil {
			return nil
		}
		if dir, err = findStores(ctx, js, p.n); err != nil {
			return nil
		}
		p.mu.Lock()
		p.dir = dir
		p.mu.Unlock()
	}
	e, err := dir.getEntry(ctx, id)
	switch {
	case err != nil:
		return nil
	case e == nil:
		return &roomGone{id: id}
	case e.Quarantine != "":
		return &roomGone{id: id, stopped: e.Quarantine}
	}
	return nil
}

// requestFailed answers a request that got no answer.
func (p *Proxy) requestFailed(w http.ResponseWriter, id string, err error) {
	var gone *roomGone
	switch {
	case errors.As(err, &gone) && gone.stopped != "":
		proxyError(w, http.StatusGone, gone.Error())
	case errors.As(err, &gone):
		proxyError(w, http.StatusNotFound, gone.Error())
	case errors.Is(err, nats.ErrNoResponders):
		w.Header().Set("Retry-After", "1")
		proxyError(w, http.StatusServiceUnavailable, fmt.Sprintf("fleet: room %s: no host serves it (for %v): it does not exist, or is moving to another host", id, p.opt.Wait))
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout):
		proxyError(w, http.StatusGatewayTimeout, fmt.Sprintf("fleet: room %s: no answer in %v", id, p.opt.Timeout))
	default:
		proxyError(w, http.StatusBadGateway, fmt.Sprintf("fleet: room %s: %v", id, err))
	}
}

// proxyError writes the inspection API's error body.
func proxyError(w http.ResponseWriter, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"error": msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// relay writes a streamed body to w as its messages arrive, each flushed,
// acknowledging what it wrote, until the last message, the client goes,
// a write fails, a message is missing, or the room's host falls silent.
func (p *Proxy) relay(w http.ResponseWriter, r *http.Request, in *inbox, control string, status int) {
	rc := http.NewResponseController(w)
	// A stream outlives the server's whole-answer deadlines; each write
	// gets one of its own.
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(status)
	_ = rc.Flush()
	var delivered int64
	tell := func(cancel string) {
		m := nats.NewMsg(control)
		m.Header.Set(hdrAck, strconv.FormatInt(delivered, 10))
		if cancel != "" {
			m.Header.Set(hdrCancel, cancel)
		}
		_ = p.nc.PublishMsg(m)
	}
	t := time.NewTicker(p.opt.KeepAlive)
	defer t.Stop()
	heard, seq := time.Now(), int64(0)
	for {
		select {
		case <-r.Context().Done():
			tell("the client has gone")
			return
		case now := <-t.C:
			if now.Sub(heard) > keepAliveMisses*p.opt.KeepAlive {
				tell("the host fell silent")
				return
			}
			tell("")
			continue
		case <-in.wake:
		}
		for _, m := range in.take() {
			heard = time.Now()
			if n, _ := strconv.ParseInt(m.Header.Get(hdrSeq), 10, 64); n != seq+1 {
				tell(fmt.Sprintf("message %d missing", seq+1))
				return
			}
			seq++
			if len(m.Data) > 0 {
				_ = rc.SetWriteDeadline(time.Now().Add(p.opt.StreamWrite))
				_, err := w.Write(m.Data)
				if err == nil {
					err = rc.Flush()
				}
				if err != nil {
					tell("writing to the client: " + err.Error())
					return
				}
				delivered += int64(len(m.Data))
			}
			if m.Header.Get(hdrEnd) != "" {
				return
			}
		}
		tell("")
	}
}
