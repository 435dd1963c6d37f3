package rooms

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// ErrExists is returned (wrapped) by Host.Create for an id already in
// use on the host.
var ErrExists = errors.New("room already exists")

// ErrNoRoom is returned (wrapped) for an id that names no room of the
// host.
var ErrNoRoom = errors.New("no such room")

// ErrClosed is returned by Host.Create once the host is closed.
var ErrClosed = errors.New("host closed")

// ErrFull is returned (wrapped) by Host.Create on a host that runs
// HostOptions.MaxRooms rooms already.
var ErrFull = errors.New("host full")

// ErrHung is wrapped by the error of a room given up as hung: its
// goroutine did not come back from one tick (or one piece of work
// between ticks) within HostOptions.HangAfter, or did not stop when
// asked to. See Host.Hung.
var ErrHung = errors.New("hung")

// Defaults of HostOptions.
const (
	// DefaultMaxRooms is the most rooms a host takes: 1,000 rooms of a
	// 500-entity scene at 30 Hz use about 1.2 cores and 300 MB (docs/scale.md).
	DefaultMaxRooms = 1000
	// DefaultMaxEntities is the most entities a room may hold: its
	// scene, its snapshot, and what its spawners make.
	DefaultMaxEntities = 100_000
	// DefaultHangAfter is how long a room's goroutine may stay in one
	// tick or one piece of work before the room is given up as hung.
	DefaultHangAfter = 10 * time.Second
)

// maxStopWait bounds how long Stop and Close wait for a room's goroutine
// to come back (at most HangAfter) before giving the room up as hung.
const maxStopWait = 2 * time.Second

// HostOptions configure a Host. All fields are optional.
type HostOptions struct {
	// Register, if not nil, registers the program's own components on
	// each room's Registry, after the built-ins of package components.
	Register func(reg *registry.Registry, b *components.Builtins) error
	// OnStop, if not nil, is called once for every room that stops, on
	// the room's goroutine once it no longer ticks and its host no longer
	// lists it, before its Done channel closes: err is nil for a room
	// stopped by Stop or Close, the panic or the tick's error otherwise.
	// For a room given up as hung (err wraps ErrHung) it is called on
	// another goroutine, while the room's may still run. It must not
	// wait for the room (Done, Stop).
	OnStop func(r *Room, err error)
	// OnTick, if not nil, is called on the room's goroutine after each of
	// its ticks, with the room's Registry (to publish its state, say). It
	// must not call the room's Do, Snapshot or Request, nor stop the room
	// and wait: the room's goroutine is the one that would answer.
	OnTick func(r *Room, reg *registry.Registry)
	// InspectHosts are extra Host header values each room's inspector
	// accepts (inspect.Options.Hosts): the address of the program's own
	// server, when it mounts rooms on it (ServeHTTP).
	InspectHosts []string
	// MaxRooms is the most rooms the host runs at once (rooms being made
	// counted): a Create beyond is refused with ErrFull. Zero means
	// DefaultMaxRooms.
	MaxRooms int
	// MaxEntities is each room's entity budget: the loader refuses a
	// scene or snapshot of more (scenefile.Limits), and a spawner that would
	// pass it fails, which stops its room (registry.Limits). Zero means
	// DefaultMaxEntities.
	MaxEntities int
	// HangAfter is how long a room's goroutine may stay in one tick, or
	// one piece of work between ticks (Do, a request), before the room is
	// given up as hung: stopped with an error wrapping ErrHung and
	// reported, no longer listed, while its goroutine, which nothing can
	// interrupt, runs on unseen (Hung counts them). Zero means
	// DefaultHangAfter.
	HangAfter time.Duration
}

// withDefaults returns o with its zero limits set to the defaults.
func (o HostOptions) withDefaults() HostOptions {
	if o.MaxRooms <= 0 {
		o.MaxRooms = DefaultMaxRooms
	}
	if o.MaxEntities <= 0 {
		o.MaxEntities = DefaultMaxEntities
	}
	if o.HangAfter <= 0 {
		o.HangAfter = DefaultHangAfter
	}
	return o
}

// stopWait is how long Stop waits for a room's goroutine to come back.
func (o *HostOptions) stopWait() time.Duration { return min(o.HangAfter, maxStopWait) }

// Host runs many rooms in one process. Its methods may be called from
// any goroutine.
type Host struct {
	opt    HostOptions
	plans  *live.PlanCache // rooms of one scene share its plan
	mu     sync.Mutex
	rooms  map[string]*Room
	closed bool
	hung   int // rooms given up as hung
	wg     sync.WaitGroup

	watching sync.Once     // starts the watchdog with the first room
	unwatch  chan struct{} // closed by Close: the watchdog ends
	unwatch1 sync.Once
	watchWG  sync.WaitGroup
}

// NewHost returns a Host with no rooms.
func NewHost(opt HostOptions) *Host {
	return &Host{opt: opt.withDefaults(), plans: live.NewPlanCache(), rooms: map[string]*Room{}, unwatch: make(chan struct{})}
}

// MaxRooms returns the most rooms the host runs at once.
func (h *Host) MaxRooms() int { return h.opt.MaxRooms }

// MaxEntities returns each room's entity budget.
func (h *Host) MaxEntities() int { return h.opt.MaxEntities }

// Hung returns the number of rooms given up as hung (ErrHung) whose
// goroutines were still running when given up: each may hold a core and
// its memory until the process ends.
func (h *Host) Hung() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.hung
}

// Create loads spec's scene into a new room and starts ticking it. The
// scene is loaded on the caller's goroutine; ctx interrupts the load.
// On an error (a bad spec, an id in use, a scene that does not load)
// no room is made.
func (h *Host) Create(ctx context.Context, spec Spec) (*Room, error) {
	if err := spec.check(); err != nil {
		return nil, err
	}
	if err := h.reserve(spec.ID); err != nil {
		return nil, err
	}
	r, err := newRoom(ctx, spec, &h.opt, h.plans)
	h.mu.Lock()
	defer h.mu.Unlock()
	if err == nil && h.closed {
		err = ErrClosed
	}
	if err != nil {
		delete(h.rooms, spec.ID)
		return nil, err
	}
	h.rooms[spec.ID] = r
	h.wg.Add(1)
	go r.run(h.stopped)
	h.watching.Do(h.watch)
	return r, nil
}

// reserve holds id for a room being made (a nil entry).
func (h *Host) reserve(id string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if _, ok := h.rooms[id]; ok {
		return fmt.Errorf("room %s: %w", id, ErrExists)
	}
	if len(h.rooms) >= h.opt.MaxRooms {
		return fmt.Errorf("room %s: %w: it runs %d rooms, its most (MaxRooms)", id, ErrFull, len(h.rooms))
	}
	h.rooms[id] = nil
	return nil
}

// watch starts the watchdog: every quarter of HangAfter (at most every
// second) it gives up the rooms busy in one piece of work for longer
// than HangAfter, each on a goroutine of its own (OnStop may take time).
// It counts the time it saw a room in one piece of work, crediting at
// most two of its periods per look: a process starved of CPU (whose
// rooms and watchdog all run late) does not make its rooms look hung.
func (h *Host) watch() {
	every := min(h.opt.HangAfter/4, time.Second)
	h.watchWG.Add(1)
	go func() {
		defer h.watchWG.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		type stuck struct {
			since  int64         // the piece of work: when it began (Room.busy)
			credit time.Duration // the time counted against it
		}
		seen := map[*Room]stuck{}
		last := time.Now()
		for {
			select {
			case <-h.unwatch:
				return
			case now := <-t.C:
				dt := min(now.Sub(last), 2*every)
				last = now
				next := map[*Room]stuck{}
				for _, r := range h.Rooms() {
					b := r.busy.Load()
					if b == 0 {
						continue
					}
					s, ok := seen[r]
					if ok && s.since == b {
						s.credit += dt
					} else {
						s = stuck{since: b, credit: min(r.Busy(), dt)}
					}
					next[r] = s
					if s.credit >= h.opt.HangAfter {
						go r.abandon(fmt.Errorf("room %s: %w: tick %d has run for %v (HangAfter %v)", r.id, ErrHung, r.tick.Load()+1, r.Busy().Round(time.Millisecond), h.opt.HangAfter))
					}
				}
				seen = next
			}
		}
	}()
}

// stopped forgets a room that stopped and reports it.
func (h *Host) stopped(r *Room, err error) {
	h.mu.Lock()
	if h.rooms[r.id] == r {
		delete(h.rooms, r.id)
	}
	if errors.Is(err, ErrHung) {
		h.hung++
	}
	h.mu.Unlock()
	if h.opt.OnStop != nil {
		h.opt.OnStop(r, err)
	}
	h.wg.Done()
}

// Room returns the running room id, or nil.
func (h *Host) Room(id string) *Room {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rooms[id]
}

// Rooms returns the running rooms, by id.
func (h *Host) Rooms() []*Room {
	h.mu.Lock()
	rs := make([]*Room, 0, len(h.rooms))
	for _, r := range h.rooms {
		if r != nil {
			rs = append(rs, r)
		}
	}
	h.mu.Unlock()
	sort.Slice(rs, func(i, j int) bool { return rs[i].id < rs[j].id })
	return rs
}

// Len returns the number of running rooms.
func (h *Host) Len() int { return len(h.Rooms()) }

// Stop stops the room id and waits until it has stopped. A room whose
// goroutine does not come back from its tick within HangAfter (2 s at
// most) is given up as hung (ErrHung) instead of waited for.
func (h *Host) Stop(id string) error {
	r := h.Room(id)
	if r == nil {
		return fmt.Errorf("room %s: %w", id, ErrNoRoom)
	}
	r.halt(h.opt.stopWait())
	return nil
}

// Close stops every room and waits for them, at most HangAfter (2 s at
// most) for rooms hung in a tick, which it gives up; Create fails from
// then on.
func (h *Host) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	rs := h.Rooms()
	var wg sync.WaitGroup
	for _, r := range rs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.halt(h.opt.stopWait())
		}()
	}
	wg.Wait()
	h.wg.Wait()
	h.unwatch1.Do(func() { close(h.unwatch) })
	h.watchWG.Wait()
}
