package events

import (
	"slices"

	"github.com/scenecs/scenecs/ecs"
)

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
	id    ListenerID
	name  string
	owner string // who listens, for reports ("on__hit"); "" if not said
	fn    func(*Event)
}

// Options configure an [Events].
type Options struct {
	// Budget points at the most deliveries (listener calls) a window may
	// make, read as each window opens (a registry points it at its
	// Limits.MaxDeliveries). Nil, or a value <= 0: [DefaultBudget].
	Budget *int
	// BudgetName names the budget in reports, as the program sets it
	// ("Limits.MaxDeliveries"); "" for "the delivery budget".
	BudgetName string
	// Report is given the [*BudgetError] of a window whose budget ran
	// out (nil: it is dropped).
	Report func(error)
	// Label names an entity in reports (its scene id, say); nil or "":
	// its handle.
	Label func(ecs.Entity) string
}

// DefaultBudget is the deliveries per window when [Options.Budget] gives
// none: far more than a scene's handlers make in a tick (a thousand
// entities each handling a hundred events), far fewer than the 2³² a
// handler that emits its own event twice asks for.
const DefaultBudget = 100_000

// Events are the entity events of one World: listeners (On, Off),
// sending (Emit, bubbling through parents), the "loaded" event, taps that
// see every event (inspectors), and the budget of deliveries. Make one
// with [New].
type Events struct {
	w         *ecs.World
	opt       Options
	listeners map[uint32][]listener
	nextLis   ListenerID
	free      []*Event // Events done with, reused by Emit
	taps      []tap
	nextTap   int

	win    Window // the window deliveries count in
	budget int    // its budget, read when it opened
	depth  int    // Emit calls in progress
}

// New returns the Events of w, which forget an entity's listeners when it
// is destroyed.
func New(w *ecs.World, opt Options) *Events {
	evs := &Events{w: w, opt: opt, listeners: make(map[uint32][]listener)}
	w.Observe(ecs.EntityDestroyed, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		delete(evs.listeners, e.Index())
	})
	return evs
}

// On registers fn for events called name emitted on e (or bubbling up
// from its descendants). Listeners are forgotten when e is destroyed. On a
// stale entity it registers nothing and returns 0.
func (evs *Events) On(e ecs.Entity, name string, fn func(ev *Event)) ListenerID {
	return evs.OnAs(e, name, "", fn)
}

// OnAs is [Events.On] for a listener that says who it is: owner names it
// in reports (a handler component's name, such as "on__hit"), as when
// the budget runs out at one of its deliveries.
func (evs *Events) OnAs(e ecs.Entity, name, owner string, fn func(ev *Event)) ListenerID {
	evs.notFrozen("Events.On")
	if !evs.w.Alive(e) {
		// Keyed by index, the listener would wake up on the entity that
		// reuses the slot.
		return 0
	}
	evs.nextLis++
	id := evs.nextLis<<32 | ListenerID(e.Index())
	evs.listeners[e.Index()] = append(evs.listeners[e.Index()], listener{id, name, owner, fn})
	return id
}

// Off removes a listener; it reports whether one was removed.
func (evs *Events) Off(id ListenerID) bool {
	evs.notFrozen("Events.Off")
	k := uint32(id)
	ls := evs.listeners[k]
	for i, l := range ls {
		if l.id == id {
			if len(ls) == 1 {
				delete(evs.listeners, k)
				return true
			}
			// A copy, so that an Emit in progress keeps its list.
			evs.listeners[k] = append(append([]listener(nil), ls[:i]...), ls[i+1:]...)
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
//
// Each delivery counts against the budget of the window it happens in
// (see [Events.OpenWindow]); once it is spent, Emit delivers nothing
// until the next window (taps are still told).
func (evs *Events) Emit(e ecs.Entity, name string, detail any, bubbles bool) {
	evs.notFrozen("Events.Emit")
	for i := range evs.taps {
		if t := &evs.taps[i].tap; t.Active == nil || t.Active() {
			t.Event(e, name, detail)
		}
	}
	if len(evs.listeners) == 0 {
		return
	}
	if evs.depth == 0 && !evs.win.open {
		evs.startWindow(Window{}) // an outermost Emit outside a window is one
	}
	// Events are reused (Emit nests when listeners emit): a delivery in
	// the steady state allocates nothing.
	var ev *Event
	if n := len(evs.free); n > 0 {
		ev, evs.free = evs.free[n-1], evs.free[:n-1]
	} else {
		ev = new(Event)
	}
	*ev = Event{Name: name, Target: e, Detail: detail}
	evs.depth++
	defer evs.done(ev)
	for cur := e; ; {
		ev.Current = cur
		ls := evs.listeners[cur.Index()]
		for i := range ls {
			if l := &ls[i]; l.name == name && evs.w.Alive(cur) {
				if evs.win.used >= evs.budget {
					evs.spent(cur, l)
					return
				}
				evs.win.used++
				l.fn(ev)
			}
		}
		if !bubbles || ev.stopped {
			return
		}
		p, ok := evs.w.Parent(cur)
		if !ok {
			return
		}
		cur = p
	}
}

// done ends an Emit: ev returns to the Events Emit reuses.
func (evs *Events) done(ev *Event) {
	evs.depth--
	*ev = Event{}
	if len(evs.free) < 64 {
		evs.free = append(evs.free, ev)
	}
}

// Listening reports whether e has a listener for the event name (on e
// itself: not one an ancestor has for a bubbling event). A component
// that writes data through a pointer asks it for componentchanged,
// which such a write does not emit.
func (evs *Events) Listening(e ecs.Entity, name string) bool {
	if !evs.w.Alive(e) {
		return false
	}
	for _, l := range evs.listeners[e.Index()] {
		if l.name == name {
			return true
		}
	}
	return false
}

// Heard reports whether an event emitted on e without bubbling may reach
// anyone: a tap that wants events now, or a listener of e (of any
// name). A sender whose detail costs something to make asks it first.
func (evs *Events) Heard(e ecs.Entity) bool {
	if len(evs.taps) > 0 && evs.Tapping() {
		return true
	}
	if len(evs.listeners) == 0 {
		return false
	}
	_, ok := evs.listeners[e.Index()]
	return ok
}

// A Tap is told of the events emitted on a World's entities (see
// [Events.AddTap]).
type Tap struct {
	// Active, if set, says whether the tap wants events now: while no
	// tap is active, Emit calls none and the component events are not
	// made for them (a tap that watches only while someone looks costs
	// nothing meanwhile). It may be called from the World's goroutine
	// only, and often: keep it cheap (an atomic load).
	Active func() bool
	// Event is called with each event, before its listeners run. It
	// must not keep detail beyond the call unless it knows its type, and
	// must not emit.
	Event func(e ecs.Entity, name string, detail any)
}

// tap is one tap AddTap registered.
type tap struct {
	id  int
	tap Tap
}

// AddTap registers t to be told of every event emitted with
// [Events.Emit] (the built-in events included), whether or not any
// listens: an inspector's event log. The returned function removes it.
func (evs *Events) AddTap(t Tap) (remove func()) {
	evs.nextTap++
	id := evs.nextTap
	evs.taps = append(evs.taps, tap{id, t})
	return func() {
		evs.taps = slices.DeleteFunc(evs.taps, func(t tap) bool { return t.id == id })
	}
}

// Tapping reports whether a tap wants events now.
func (evs *Events) Tapping() bool {
	for i := range evs.taps {
		if t := &evs.taps[i].tap; t.Active == nil || t.Active() {
			return true
		}
	}
	return false
}

// EmitLoaded emits loaded (A-Frame's event: the entity is built, its
// components initialised) on top and every entity below it, each after
// its descendants, children in order (grandchild, child, its sibling,
// parent), not bubbling. A loader calls it on each root of a scene it
// builds (and on the entities a hot reload adds), a registry on the
// entities it instantiates from mixins and prefabs. While the World
// defers structural changes, it waits for them (the entities'
// components) to be made.
func (evs *Events) EmitLoaded(top ecs.Entity) {
	if evs.w.Locked() {
		evs.w.Defer(func(*ecs.World) { evs.EmitLoaded(top) })
		return
	}
	if len(evs.listeners) == 0 && !evs.Tapping() || !evs.w.Alive(top) {
		return
	}
	var order []ecs.Entity
	var post func(e ecs.Entity)
	post = func(e ecs.Entity) {
		for c := range evs.w.ChildrenSeq(e) {
			post(c)
		}
		order = append(order, e)
	}
	post(top)
	for _, e := range order {
		evs.Emit(e, "loaded", nil, false)
	}
}

// notFrozen panics if the World is frozen: op, which uses state that
// only one goroutine may touch, was called by a system that runs under
// the parallel rules.
func (evs *Events) notFrozen(op string) {
	if evs.w.Frozen() {
		frozenPanic(op)
	}
}

//go:noinline
func frozenPanic(op string) {
	panic("events: " + op + " from a system running under the parallel rules (the World is frozen): " +
		"emit with its Context's or SystemContext's Emit, make changes through its Commands, " +
		"or declare it Exclusive")
}
