package registry

import (
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
)

// Context is what a hook receives: the Registry and World, the entity and
// component instance the call is about, and the scene time. A Context is
// only valid during the call it is passed to.
type Context struct {
	Registry *Registry
	World    *ecs.World
	// Entity is the entity the hook runs for. In TickColumn it is unset;
	// use EntityAt.
	Entity ecs.Entity
	// ID is the ecs ID of the component instance, Name its name
	// ("sound__1" for an instance of a multiple component).
	ID   ecs.ID
	Name string
	// Time is the scene time in seconds (in a fixed-step phase, its
	// clock) and Delta the time since the hook last ran: the time step of
	// the current tick, or the fixed step, in seconds.
	Time, Delta float64

	q          *ecs.Query
	cmds       *ecs.Commands // tick and tock hooks: the run's buffer
	restricted bool          // the hook runs under the parallel rules
}

// Commands returns the buffer of structural changes of this run of a tick
// or tock hook, applied in order at the end of its batch: a tick that
// declares its [Access] (and runs under the parallel rules) makes its
// structural changes, MarkChanged calls and deferred work there. It panics
// outside tick and tock hooks.
func (c *Context) Commands() *ecs.Commands {
	if c.cmds == nil {
		panic("registry: Context.Commands outside a tick or tock hook: change the World directly there")
	}
	return c.cmds
}

// EntityAt returns the entity of row i of the column a TickColumn hook is
// given.
func (c *Context) EntityAt(i int) ecs.Entity { return c.q.EntityAt(i) }

// Emit emits an entity event on the hook's entity (see [Events.Emit]):
// at once, except from a tick that runs under the parallel rules, whose
// events are emitted at the end of its batch, in order with its commands.
func (c *Context) Emit(name string, detail any) {
	evs := c.Registry.Events()
	if c.restricted {
		e := c.Entity
		c.cmds.Defer(func(*ecs.World) { evs.Emit(e, name, detail, true) })
		return
	}
	evs.Emit(c.Entity, name, detail, true)
}

// On listens to an entity event on the hook's entity.
func (c *Context) On(name string, fn func(ev *Event)) ListenerID {
	return c.Registry.Events().On(c.Entity, name, fn)
}

// Query returns the entities matching a selector, in document order. It
// needs a selector engine (see Registry.setSelectorEngine).
func (c *Context) Query(selector string) ([]ecs.Entity, error) {
	return c.Registry.QueryAll(selector)
}

// Event is an entity event delivered to listeners. It is valid only
// during the listener's call (Emit reuses it): a listener that keeps an
// event keeps a copy of the fields it needs, not the pointer.
type Event struct {
	// Name is the event's name, such as "componentchanged".
	Name string
	// Target is the entity the event was emitted on; Current the entity
	// whose listener is running (an ancestor, when the event bubbles).
	Target, Current ecs.Entity
	// Detail is the event's payload: a [ComponentEvent] for the
	// component events, a [ChildEvent] for child-attached and
	// child-detached, nil for loaded.
	Detail any

	stopped bool
}

// StopPropagation stops a bubbling event from reaching further ancestors.
func (ev *Event) StopPropagation() { ev.stopped = true }

// ComponentEvent is the Detail of componentinitialized, componentchanged
// and componentremoved, A-Frame's {name, id}: the component's base name
// and its instance id ("" for a component that is not an instance of a
// multiple one).
// Expressions read its fields as detail.name and detail.id.
type ComponentEvent struct {
	Name string `expr:"name"`
	ID   string `expr:"id"`
}

// String returns the component's name as scenes write it: "sound" or
// "sound__beep".
func (c ComponentEvent) String() string {
	if c.ID == "" {
		return c.Name
	}
	return c.Name + "__" + c.ID
}

// componentEvent returns the ComponentEvent of the component name name
// ("sound__beep").
func componentEvent(name string) ComponentEvent {
	base, id, _ := strings.Cut(name, "__")
	return ComponentEvent{Name: base, ID: id}
}

// emitComponent emits a component event on e about component id, its
// Detail made only if e has listeners or a tap is active (loading a large
// scene initialises millions of components), and boxed once per
// component: an inspector's event log taps every event, and a scene that
// spawns every tick emits tens a tick.
func (r *Registry) emitComponent(e ecs.Entity, event string, id ecs.ID) {
	if !r.tapping() {
		if len(r.listeners) == 0 {
			return
		}
		if _, ok := r.listeners[e.Index()]; !ok {
			return
		}
	}
	r.Events().Emit(e, event, r.componentDetail(id), false)
}

// componentDetail returns the ComponentEvent of component id, as an
// interface value made on first use.
func (r *Registry) componentDetail(id ecs.ID) any {
	if int(id) >= len(r.compDetails) {
		r.compDetails = append(r.compDetails, make([]any, int(id)+1-len(r.compDetails))...)
	}
	d := r.compDetails[id]
	if d == nil {
		d = componentEvent(r.nameOf(id))
		r.compDetails[id] = d
	}
	return d
}

// ChildEvent is the Detail of child-attached and child-detached,
// A-Frame's {el}: the child that was attached or detached.
// Expressions read it as detail.el.
type ChildEvent struct {
	El ecs.Entity `expr:"el"`
}

// ListenerID identifies a listener, for Off. It holds the index of the
// listener's entity (its low 32 bits), so that Off looks at that entity's
// listeners only.
type ListenerID uint64

type listener struct {
	id   ListenerID
	name string
	fn   func(*Event)
}

// On registers fn for events called name emitted on e (or bubbling up
// from its descendants). Listeners are forgotten when e is destroyed. On a
// stale entity it registers nothing and returns 0.
func (evs *Events) On(e ecs.Entity, name string, fn func(ev *Event)) ListenerID {
	r := evs.r
	r.notFrozen("Events.On")
	if !r.w.Alive(e) {
		// Keyed by index, the listener would wake up on the entity that
		// reuses the slot.
		return 0
	}
	r.nextLis++
	id := r.nextLis<<32 | ListenerID(e.Index())
	r.listeners[e.Index()] = append(r.listeners[e.Index()], listener{id, name, fn})
	return id
}

// Off removes a listener; it reports whether one was removed.
func (evs *Events) Off(id ListenerID) bool {
	r := evs.r
	r.notFrozen("Events.Off")
	k := uint32(id)
	ls := r.listeners[k]
	for i, l := range ls {
		if l.id == id {
			if len(ls) == 1 {
				delete(r.listeners, k)
				return true
			}
			// A copy, so that an Emit in progress keeps its list.
			r.listeners[k] = append(append([]listener(nil), ls[:i]...), ls[i+1:]...)
			return true
		}
	}
	return false
}

// Emit delivers the event name to e's listeners and, if bubbles, then to
// each ancestor's, until a listener stops it. The built-in events are
// A-Frame's: componentinitialized, componentchanged and componentremoved
// (a [ComponentEvent] as Detail) and loaded (no Detail) do not bubble;
// child-attached and child-detached, emitted on the parent with a
// [ChildEvent] as Detail, bubble.
func (evs *Events) Emit(e ecs.Entity, name string, detail any, bubbles bool) {
	r := evs.r
	r.notFrozen("Events.Emit")
	for i := range r.taps {
		if t := &r.taps[i].tap; t.Active == nil || t.Active() {
			t.Event(e, name, detail)
		}
	}
	if len(r.listeners) == 0 {
		return
	}
	// Events are reused (Emit nests when listeners emit): a delivery in
	// the steady state allocates nothing.
	var ev *Event
	if n := len(r.evFree); n > 0 {
		ev, r.evFree = r.evFree[n-1], r.evFree[:n-1]
	} else {
		ev = new(Event)
	}
	*ev = Event{Name: name, Target: e, Detail: detail}
	defer r.freeEvent(ev)
	for cur := e; ; {
		ev.Current = cur
		for _, l := range r.listeners[cur.Index()] {
			if l.name == name && r.w.Alive(cur) {
				l.fn(ev)
			}
		}
		if !bubbles || ev.stopped {
			return
		}
		p, ok := r.w.Parent(cur)
		if !ok {
			return
		}
		cur = p
	}
}

// freeEvent returns ev to the Events Emit reuses.
func (r *Registry) freeEvent(ev *Event) {
	*ev = Event{}
	if len(r.evFree) < 64 {
		r.evFree = append(r.evFree, ev)
	}
}

// Listening reports whether e has a listener for the event name (on e
// itself: not one an ancestor has for a bubbling event). A component
// that writes data through a pointer asks it for componentchanged,
// which such a write does not emit.
func (evs *Events) Listening(e ecs.Entity, name string) bool {
	r := evs.r
	if !r.w.Alive(e) {
		return false
	}
	for _, l := range r.listeners[e.Index()] {
		if l.name == name {
			return true
		}
	}
	return false
}

// An EventTap is told of the events emitted on a Registry's entities
// (see [Events.AddTap]).
type EventTap struct {
	// Active, if set, says whether the tap wants events now: while no
	// tap is active, Emit calls none and the component events are not
	// made for them (a tap that watches only while someone looks costs
	// nothing meanwhile). It may be called from the Registry's goroutine
	// only, and often: keep it cheap (an atomic load).
	Active func() bool
	// Event is called with each event, before its listeners run. It
	// must not keep detail beyond the call unless it knows its type, and
	// must not emit.
	Event func(e ecs.Entity, name string, detail any)
}

// eventTap is one tap AddEventTap registered.
type eventTap struct {
	id  int
	tap EventTap
}

// AddTap registers t to be told of every event emitted with
// [Events.Emit] (the built-in events included), whether or not any
// listens: an inspector's event log. The returned function removes it.
func (evs *Events) AddTap(t EventTap) (remove func()) {
	r := evs.r
	r.nextTap++
	id := r.nextTap
	r.taps = append(r.taps, eventTap{id, t})
	return func() {
		r.taps = slices.DeleteFunc(r.taps, func(t eventTap) bool { return t.id == id })
	}
}

// tapping reports whether a tap wants events now.
func (r *Registry) tapping() bool {
	for i := range r.taps {
		if t := &r.taps[i].tap; t.Active == nil || t.Active() {
			return true
		}
	}
	return false
}

// EmitLoaded emits loaded (A-Frame's event: the entity is built, its
// components initialised) on top and every entity below it, each after
// its descendants, children in order (grandchild, child, its sibling,
// parent), not bubbling. The loader calls it on each root of a scene it
// builds (and on the entities a hot reload adds), the Registry on the
// entities Instantiate and InstantiatePrefab make. While the World
// defers structural changes, it waits for them (the entities'
// components) to be made.
func (evs *Events) EmitLoaded(top ecs.Entity) {
	r := evs.r
	if r.w.Locked() {
		r.w.Defer(func(*ecs.World) { r.Events().EmitLoaded(top) })
		return
	}
	if len(r.listeners) == 0 && !r.tapping() || !r.w.Alive(top) {
		return
	}
	var order []ecs.Entity
	var post func(e ecs.Entity)
	post = func(e ecs.Entity) {
		for c := range r.w.ChildrenSeq(e) {
			post(c)
		}
		order = append(order, e)
	}
	post(top)
	for _, e := range order {
		r.Events().Emit(e, "loaded", nil, false)
	}
}

// notFrozen panics if the World is frozen: op, which uses state of the
// Registry that only one goroutine may touch, was called by a system that
// runs under the parallel rules (see [Access]).
func (r *Registry) notFrozen(op string) {
	if r.w.Frozen() {
		panic("registry: " + op + " from a system running under the parallel rules (the World is frozen): " +
			"emit with its Context's or SystemContext's Emit, make changes through its Commands, " +
			"or declare it Exclusive")
	}
}
