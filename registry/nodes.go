package registry

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/schedule"
)

// Schedule returns the Registry's schedule: the systems and component
// ticks registered so far, as its nodes, and the scene clock.
func (r *Registry) Schedule() *Schedule { return r.sched }

// schedHost is the Registry as its schedule's [schedule.Host]: a type of
// its own, so that the host's methods stay out of the Registry's API.
type schedHost Registry

// ComponentIDs returns the ecs IDs of the component called name, its
// instances' after its own.
func (h *schedHost) ComponentIDs(name string) ([]ecs.ID, bool) {
	c, ok := h.comps[name]
	if !ok {
		return nil, false
	}
	return c.InstanceIDs(), true
}

// ComponentNames returns the registered components' names.
func (h *schedHost) ComponentNames() []string { return (*Registry)(h).Names() }

// Report records an error of a run for the Tick to return.
func (h *schedHost) Report(err error) { (*Registry)(h).ReportError(err) }

// TakeErrors returns the errors reported since the last call.
func (h *schedHost) TakeErrors() error { return (*Registry)(h).TakeErrors() }

// Begin opens the window of event deliveries of a Tick or a RunOnce.
func (h *schedHost) Begin(what string) { h.window = h.events.OpenWindow(what) }

// End closes the window Begin opened.
func (h *schedHost) End() { h.events.CloseWindow(h.window) }

// Start starts the systems; a paused Registry does not run its phases.
func (h *schedHost) Start() (bool, error) {
	err := (*Registry)(h).Start()
	return !h.paused, err
}

// sysNode is a system as a node of the schedule.
type sysNode struct {
	sys   *System
	set   Settings
	chunk int
	rows  []ecs.Chunk     // Split's, reused
	ctx   []SystemContext // by unit index (chunks of a run may run at once), reused
}

// newSysNode returns the node of sys.
func newSysNode(sys *System, set Settings, chunk int) *sysNode {
	return &sysNode{sys: sys, set: set, chunk: chunk, ctx: make([]SystemContext, 1)}
}

// Info says what the system is: its hooks and its Go definition's
// settings.
func (n *sysNode) Info() schedule.Info {
	s := n.sys
	return schedule.Info{Name: s.Name, Kind: schedule.KindSystem, Tick: s.tick != nil || s.each != nil, Tock: s.tock != nil,
		Settings: n.set, ChunkSize: n.chunk}
}

// Ready reports whether the system started.
func (n *sysNode) Ready() bool { return n.sys.started }

// Split cuts a chunked system's query into chunks of size rows.
func (n *sysNode) Split(size int, dst []schedule.Chunk) []schedule.Chunk {
	if f := n.sys.filter; f != nil {
		n.rows = f.Chunks(size, n.rows[:0])
		for _, rows := range n.rows {
			dst = append(dst, schedule.Chunk{Rows: rows})
		}
	}
	n.ctx = grow(n.ctx, len(dst))
	return dst
}

// Run runs one unit of the system: its Tock, its Tick, or its Each over
// the whole query or one chunk.
func (n *sysNode) Run(u *schedule.Unit) {
	s := n.sys
	r := s.reg
	sc := &n.ctx[u.Index]
	*sc = SystemContext{Registry: r, World: r.w, System: s, Time: u.Time, Delta: u.Delta, Step: u.Step, Steps: u.Steps,
		cmds: u.Commands, mask: u.Mask, restricted: u.Parallel}
	switch {
	case u.Tock:
		s.tock(sc, s.data)
	case s.each != nil && !u.Whole:
		q := u.Chunk.Rows.Query(u.Mask)
		defer q.Close()
		s.each(sc, s.data, &q)
	case s.each != nil:
		q := s.filter.Query()
		if u.Mask != nil && u.Parallel {
			q.Close()
			q = s.filter.QueryOnly(*u.Mask)
		}
		defer q.Close()
		s.each(sc, s.data, &q)
	default:
		s.tick(sc, s.data)
	}
}

// compNode is a component's tick and tock as a node of the schedule.
type compNode struct {
	c    *Component
	rows []ecs.Chunk // Split's, reused
	ctx  []Context   // by unit index, reused
}

// Info says what the component's node is.
func (n *compNode) Info() schedule.Info {
	c := n.c
	return schedule.Info{Name: c.Name, Kind: schedule.KindComponent, Tick: c.hooks.tick != nil, Tock: c.hooks.tock != nil,
		Settings: c.sched, ChunkSize: c.chunk}
}

// Ready reports true: a component ticks from its registration on.
func (n *compNode) Ready() bool { return true }

// Split cuts the tick's query of each instance into chunks of size rows.
func (n *compNode) Split(size int, dst []schedule.Chunk) []schedule.Chunk {
	for i, tf := range n.c.filters {
		n.rows = tf.f.Chunks(size, n.rows[:0])
		for _, rows := range n.rows {
			dst = append(dst, schedule.Chunk{Rows: rows, Part: i})
		}
	}
	n.ctx = grow(n.ctx, len(dst))
	return dst
}

// Run runs the component's tick or tock over one chunk, or over every
// instance's entities that are not paused.
func (n *compNode) Run(u *schedule.Unit) {
	c := n.c
	r := c.reg
	hook := c.hooks.tick
	if u.Tock {
		hook = c.hooks.tock
	}
	cx := &n.ctx[u.Index]
	*cx = Context{Registry: r, World: r.w, Time: u.Time, Delta: u.Delta, cmds: u.Commands, restricted: u.Parallel}
	if !u.Whole {
		tf := c.filters[u.Chunk.Part]
		q := u.Chunk.Rows.Query(nil)
		cx.ID, cx.Name = tf.id, r.nameOf(tf.id)
		runHook(hook, cx, tf.id, &q)
		return
	}
	for _, tf := range c.filters {
		q := tf.f.Query()
		cx.ID, cx.Name = tf.id, r.nameOf(tf.id)
		runHook(hook, cx, tf.id, &q)
	}
}

// runHook calls a component's tick or tock hook over q and closes q on
// the way out, also when the hook panics.
func runHook(hook func(*Context, ecs.ID, *ecs.Query), cx *Context, id ecs.ID, q *ecs.Query) {
	defer func() { q.Close(); cx.q = nil }()
	cx.q, cx.Entity = q, ecs.Entity{}
	hook(cx, id, q)
}

// grow returns s with at least n elements.
func grow[T any](s []T, n int) []T {
	if n > len(s) {
		s = append(s, make([]T, n-len(s))...)
	}
	return s
}
