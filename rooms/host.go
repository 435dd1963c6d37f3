package rooms

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/loader"
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

// HostOptions configure a Host. All fields are optional.
type HostOptions struct {
	// Register, if not nil, registers the program's own components on
	// each room's Registry, after the built-ins of package components.
	Register func(reg *registry.Registry, b *components.Builtins) error
	// OnStop, if not nil, is called once for every room that stops, on
	// the room's goroutine once it no longer ticks and its host no longer
	// lists it, before its Done channel closes: err is nil for a room
	// stopped by Stop or Close, the panic or the tick's error otherwise.
	// It must not wait for the room (Done, Stop).
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
}

// Host runs many rooms in one process. Its methods may be called from
// any goroutine.
type Host struct {
	opt    HostOptions
	plans  *loader.PlanCache // rooms of one scene share its plan
	mu     sync.Mutex
	rooms  map[string]*Room
	closed bool
	wg     sync.WaitGroup
}

// NewHost returns a Host with no rooms.
func NewHost(opt HostOptions) *Host {
	return &Host{opt: opt, plans: loader.NewPlanCache(), rooms: map[string]*Room{}}
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
	h.rooms[id] = nil
	return nil
}

// stopped forgets a room that stopped and reports it.
func (h *Host) stopped(r *Room, err error) {
	h.mu.Lock()
	if h.rooms[r.id] == r {
		delete(h.rooms, r.id)
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

// Stop stops the room id and waits until it has stopped.
func (h *Host) Stop(id string) error {
	r := h.Room(id)
	if r == nil {
		return fmt.Errorf("room %s: %w", id, ErrNoRoom)
	}
	r.halt()
	return nil
}

// Close stops every room and waits for them; Create fails from then on.
func (h *Host) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	for _, r := range h.Rooms() {
		r.halt()
	}
	h.wg.Wait()
}
