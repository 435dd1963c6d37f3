package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/rooms"
)

// Host is one host of a fleet: a rooms.Host whose rooms are reached, and
// created, through NATS. Its methods may be called from any goroutine.
type Host struct {
	opt     Options
	n       names
	nc      *nats.Conn
	st      *stores
	local   *rooms.Host
	started time.Time

	mu      sync.Mutex
	owned   map[string]*owned   // the rooms this host runs, by id
	pending map[string]struct{} // the rooms being created here, entry made, room not yet adopted
	subs    []*nats.Subscription
	streams atomic.Int64 // answers being sent in several messages (serve.go)
	// upkeeps counts the rounds of upkeep run to their end: one who
	// waits for the host to have read the directory (and claimed what
	// it would) waits on it.
	upkeeps atomic.Int64

	stop     chan struct{}
	stopOnce sync.Once
	life     context.Context // ends when the host stops: the loops' work stops waiting
	endLife  context.CancelFunc
	wg       sync.WaitGroup
	snapping chan struct{} // a slot per snapshot being taken (snapshotAll)
}

// owned is a room this host runs, with its directory entry.
type owned struct {
	mu       sync.Mutex // guards e
	e        *Entry
	room     *rooms.Room
	sub      *nats.Subscription
	snapping atomic.Bool // a snapshot of it is being taken
}

// maxSnapshotsAtOnce bounds the snapshots a host takes at the same time
// (each on a goroutine of its own: a room that does not answer holds up
// no other's).
const maxSnapshotsAtOnce = 4

// State is what a room publishes on PREFIX.state.ID after its ticks.
type State struct {
	ID       string  `json:"id"`
	Host     string  `json:"host"`
	Tick     int64   `json:"tick"`
	Time     float64 `json:"time"`
	Entities int     `json:"entities"`
	Data     any     `json:"data,omitempty"`
}

// Join makes a host of the fleet on nc: it opens (creating if need be)
// the fleet's buckets, says it is alive, serves create requests, and
// from then on beats, claims orphaned rooms and snapshots its own, until
// Leave or Close. The caller keeps nc and closes it after.
func Join(ctx context.Context, nc *nats.Conn, opt Options) (*Host, error) {
	opt.defaults()
	if err := rooms.CheckID(opt.ID); err != nil {
		return nil, fmt.Errorf("fleet: host id: %w", err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	h := &Host{opt: opt, n: namesOf(opt.Prefix), nc: nc, started: time.Now(),
		owned: map[string]*owned{}, pending: map[string]struct{}{}, stop: make(chan struct{}),
		snapping: make(chan struct{}, maxSnapshotsAtOnce)}
	h.life, h.endLife = context.WithCancel(context.Background())
	if h.st, err = openStores(ctx, js, h.n, opt.DeadAfter, opt.Replicas); err != nil {
		return nil, err
	}
	// The id is free (no live host beats under it) before the host
	// serves anything under it: a second host with a live host's id
	// would take its rooms as orphans and run them twice.
	rev, err := h.checkID(ctx)
	if err != nil {
		return nil, err
	}
	ro := opt.Rooms
	ro.OnTick = h.onTick
	ro.OnStop = h.onStop
	h.local = rooms.NewHost(ro)
	// Subscribed, and the server has the subscriptions, before the
	// first heartbeat makes the host one that others forward to: a
	// create forwarded in between would find no responder.
	if err := h.subscribe(); err != nil {
		h.halt()
		h.local.Close()
		return nil, err
	}
	if err := h.firstBeat(ctx, rev); err != nil {
		h.halt()
		h.local.Close()
		return nil, err
	}
	h.loops()
	return h, nil
}

// subscribe serves the fleet's requests to hosts: creates (any host's,
// in the queue group, and this host's own), resumes and destroys of
// rooms no host runs.
func (h *Host) subscribe() error {
	for _, s := range []struct {
		subj, queue string
		fn          nats.MsgHandler
	}{
		{h.n.create, h.n.queue, h.onCreate},
		{h.n.hostCreate + h.opt.ID + ".create", "", h.onHostCreate},
		{h.n.resume, h.n.queue, h.onResume},
		{h.n.destroy, h.n.queue, h.onDestroy},
	} {
		sub, err := h.nc.QueueSubscribe(s.subj, s.queue, s.fn)
		if err != nil {
			return fmt.Errorf("fleet: subscribing to %s: %w", s.subj, err)
		}
		h.subs = append(h.subs, sub)
	}
	if err := h.nc.FlushTimeout(h.opt.Timeout); err != nil {
		return fmt.Errorf("fleet: subscribing: %w", err)
	}
	return nil
}

// ID returns the host's id.
func (h *Host) ID() string { return h.opt.ID }

// Local returns the host's rooms.Host.
func (h *Host) Local() *rooms.Host { return h.local }

// ctx returns a context bounded by Options.Timeout.
func (h *Host) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), h.opt.Timeout)
}

// loops starts the host's three loops: heartbeats, the directory's
// upkeep (claims, rooms lost) every Heartbeat, and snapshots every
// SnapshotEvery. Each has a goroutine of its own, so that a slow
// round of snapshots or claims never holds up a heartbeat.
func (h *Host) loops() {
	h.every(h.opt.Heartbeat, func(ctx context.Context) { _ = h.beat(ctx) })
	h.every(h.opt.Heartbeat, func(ctx context.Context) { h.upkeep(ctx); h.upkeeps.Add(1) })
	h.every(h.opt.SnapshotEvery, func(context.Context) { h.snapshotAll() })
}

// snapshotAll starts a snapshot of each room, each on a goroutine of its
// own with a timeout of its own, at most maxSnapshotsAtOnce at a time:
// a room that does not answer (hung, or slow) holds up no other room's
// snapshot. A room whose last snapshot is still being taken, or whose
// goroutine has been busy in one tick for over half an interval, is
// left for the next.
func (h *Host) snapshotAll() {
	for _, o := range h.ownedRooms() {
		if o.room.Busy() > h.opt.SnapshotEvery/2 || !o.snapping.CompareAndSwap(false, true) {
			continue
		}
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			defer o.snapping.Store(false)
			ctx, cancel := context.WithTimeout(h.life, h.opt.Timeout)
			defer cancel()
			select {
			case h.snapping <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-h.snapping }()
			_ = h.snapshot(ctx, o)
		}()
	}
}

// every runs fn every d until the host stops, each run bounded by
// Options.Timeout.
func (h *Host) every(d time.Duration, fn func(ctx context.Context)) {
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				ctx, cancel := context.WithTimeout(h.life, h.opt.Timeout)
				fn(ctx)
				cancel()
			}
		}
	}()
}

// info is the host's line in the hosts bucket.
func (h *Host) info() []byte {
	b, _ := json.Marshal(HostInfo{ID: h.opt.ID, Rooms: h.local.Len(), Started: h.started, Inspect: h.opt.Inspect,
		MaxRooms: h.local.MaxRooms(), Hung: h.local.Hung()})
	return b
}

// beat puts the host's line in the hosts bucket, within one heartbeat
// interval: a put whose answer was lost is given up for the next beat,
// not waited on for Options.Timeout (5 s by default), longer than
// DeadAfter (3 s), in which the others would count the host dead.
func (h *Host) beat(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, h.opt.Heartbeat)
	defer cancel()
	if _, err := h.st.hosts.Put(ctx, h.opt.ID, h.info()); err != nil {
		return fmt.Errorf("fleet: heartbeat: %w", err)
	}
	return nil
}

// ownedRooms returns the rooms the host runs, by id.
func (h *Host) ownedRooms() []*owned {
	h.mu.Lock()
	os := make([]*owned, 0, len(h.owned))
	for _, o := range h.owned {
		os = append(os, o)
	}
	h.mu.Unlock()
	sort.Slice(os, func(i, j int) bool { return os[i].room.ID() < os[j].room.ID() })
	return os
}

// onTick publishes a room's state.
func (h *Host) onTick(r *rooms.Room, reg *registry.Registry) {
	if every := int64(h.opt.StateEvery); every > 0 && r.Tick()%every == 0 {
		s := State{ID: r.ID(), Host: h.opt.ID, Tick: r.Tick(), Time: reg.Time(), Entities: reg.World().Len()}
		if h.opt.State != nil {
			s.Data = h.opt.State(r, reg)
		}
		if b, err := json.Marshal(s); err == nil {
			_ = h.nc.Publish(h.n.state+r.ID(), b)
		}
	}
	if h.opt.Rooms.OnTick != nil {
		h.opt.Rooms.OnTick(r, reg)
	}
}

// onStop forgets a room that stopped; one that failed (a panic, a
// failed tick, given up as hung) is quarantined in the directory with
// its error, and no host resumes it until an operator says so.
func (h *Host) onStop(r *rooms.Room, err error) {
	h.mu.Lock()
	o := h.owned[r.ID()]
	if o != nil && o.room == r {
		delete(h.owned, r.ID())
	} else {
		o = nil
	}
	h.mu.Unlock()
	if o != nil {
		_ = o.sub.Unsubscribe()
		if err != nil {
			ctx, cancel := h.ctx()
			o.mu.Lock()
			h.quarantine(ctx, o.e, reason(err))
			o.mu.Unlock()
			cancel()
		}
	}
	if h.opt.Rooms.OnStop != nil {
		h.opt.Rooms.OnStop(r, err)
	}
}

// quarantine writes e (read at its revision) back as quarantined for
// why, held by no host, and says so in the log.
func (h *Host) quarantine(ctx context.Context, e *Entry, why string) {
	failures := e.Failures
	err := h.st.rewrite(ctx, e, func(q *Entry) {
		q.Host, q.Trial, q.Quarantine = "", time.Time{}, why
		q.Failures = max(q.Failures, failures)
	})
	if err != nil {
		h.opt.Logf("room %s: could not quarantine it (%s): %v", e.ID, why, err)
		return
	}
	h.opt.Logf("room %s quarantined: %s", e.ID, why)
}

// reason is the first line of err (a panic's stack stays out of the
// directory), at most maxReason bytes.
func reason(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	if len(s) > maxReason {
		s = s[:maxReason] + "..."
	}
	return s
}

// maxReason bounds the reason a quarantined room's entry gives.
const maxReason = 500

// Leave leaves the fleet in good order: it stops serving create
// requests, snapshots each room, releases it in the directory (for the
// other hosts to resume at once), stops it, and removes the host's line.
//
// Each room is released on a goroutine of its own, bounded by
// releaseWait: a room that does not pause and snapshot in time is not
// waited for (one hung in a tick is quarantined), so a host leaves
// within a few seconds whatever its rooms do.
func (h *Host) Leave(ctx context.Context) error {
	h.halt()
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, o := range h.ownedRooms() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.release(ctx, o); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	h.local.Close()
	if err := h.st.hosts.Delete(ctx, h.opt.ID); err != nil {
		errs = append(errs, fmt.Errorf("fleet: removing host %s: %w", h.opt.ID, err))
	}
	if len(errs) > 0 {
		return fmt.Errorf("fleet: leaving: %v", errs)
	}
	return nil
}

// releaseWait bounds the pause and snapshot of a room its host leaves.
const releaseWait = 2 * time.Second

// release pauses o, snapshots it, stops it and gives it up in the
// directory (its trial over: a room let go in good order did not fail).
// A room that does not stop in time (busy in a tick: hung, or only slow
// on a starved machine, which a host leaving cannot tell apart) is not
// released: it is left to the other hosts as a dead host's, put on
// trial, so that a host it brings down counts against it, and their
// watchdogs quarantine it if it hangs there.
func (h *Host) release(ctx context.Context, o *owned) error {
	h.drop(o)
	rctx, cancel := context.WithTimeout(ctx, releaseWait)
	defer cancel()
	// Paused, the room's snapshot is its last state: nothing is lost.
	var err error
	if st, body := o.room.RequestContext(rctx, "POST", "/api/pause", nil); st != http.StatusOK {
		err = fmt.Errorf("fleet: room %s: pausing it: %d %s", o.room.ID(), st, body)
	} else {
		err = h.snapshot(rctx, o)
	}
	_ = h.local.Stop(o.room.ID())
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.e.Host != h.opt.ID {
		return err
	}
	if rerr := o.room.Err(); errors.Is(rerr, rooms.ErrHung) {
		id, busy, tick := o.e.ID, o.room.Busy().Round(time.Millisecond), o.room.Tick()+1
		_ = h.st.rewrite(ctx, o.e, func(e *Entry) { e.Trial = time.Now() })
		h.opt.Logf("room %s did not stop (busy %v in tick %d): left to the other hosts, on trial", id, busy, tick)
		return nil
	}
	if uerr := h.st.rewrite(ctx, o.e, func(e *Entry) { e.Host, e.Trial = "", time.Time{} }); uerr != nil {
		return fmt.Errorf("fleet: releasing room %s: %w", o.e.ID, uerr)
	}
	return err
}

// Close stops the host at once, as if its process died: its rooms stop,
// the directory is not told (the other hosts resume its rooms once its
// heartbeats have expired). Leave is the orderly way out.
func (h *Host) Close() {
	h.halt()
	for _, o := range h.ownedRooms() {
		h.drop(o)
	}
	h.local.Close()
}

// halt stops the loops and the create subscriptions; the loops' work in
// progress stops waiting.
func (h *Host) halt() {
	h.stopOnce.Do(func() {
		close(h.stop)
		h.endLife()
		for _, s := range h.subs {
			_ = s.Unsubscribe()
		}
	})
	h.wg.Wait()
}

// drop stops serving o's subject and forgets it, without stopping it
// or touching the directory.
func (h *Host) drop(o *owned) {
	h.mu.Lock()
	if h.owned[o.room.ID()] == o {
		delete(h.owned, o.room.ID())
	}
	h.mu.Unlock()
	_ = o.sub.Unsubscribe()
}
