package registry

import (
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
	// Time is the scene time in seconds and Delta the time step of the
	// current tick, in seconds.
	Time, Delta float64

	q *ecs.Query
}

// EntityAt returns the entity of row i of the column a TickColumn hook is
// given.
func (c *Context) EntityAt(i int) ecs.Entity { return c.q.EntityAt(i) }

// Emit emits an entity event on the hook's entity (see [Registry.Emit]).
func (c *Context) Emit(name string, detail any) { c.Registry.Emit(c.Entity, name, detail, true) }

// On listens to an entity event on the hook's entity.
func (c *Context) On(name string, fn func(ev *Event)) ListenerID {
	return c.Registry.On(c.Entity, name, fn)
}

// Query returns the entities matching a selector, in document order. It
// needs a selector engine (see Registry.setSelectorEngine).
func (c *Context) Query(selector string) ([]ecs.Entity, error) {
	return c.Registry.QueryAll(selector)
}

// Event is an entity event delivered to listeners.
type Event struct {
	// Name is the event's name, such as "componentchanged".
	Name string
	// Target is the entity the event was emitted on; Current the entity
	// whose listener is running (an ancestor, when the event bubbles).
	Target, Current ecs.Entity
	// Detail is the event's payload: the component name for the
	// component events, the child entity for child-attached and
	// child-detached.
	Detail any

	stopped bool
}

// StopPropagation stops a bubbling event from reaching further ancestors.
func (ev *Event) StopPropagation() { ev.stopped = true }

// ListenerID identifies a listener, for Off.
type ListenerID uint64

type listener struct {
	id   ListenerID
	name string
	fn   func(*Event)
}

// On registers fn for events called name emitted on e (or bubbling up
// from its descendants). Listeners are forgotten when e is destroyed. On a
// stale entity it registers nothing and returns 0.
func (r *Registry) On(e ecs.Entity, name string, fn func(ev *Event)) ListenerID {
	if !r.w.Alive(e) {
		// Keyed by index, the listener would wake up on the entity that
		// reuses the slot.
		return 0
	}
	r.nextLis++
	r.listeners[e.Index()] = append(r.listeners[e.Index()], listener{r.nextLis, name, fn})
	return r.nextLis
}

// Off removes a listener; it reports whether one was removed.
func (r *Registry) Off(id ListenerID) bool {
	for k, ls := range r.listeners {
		for i, l := range ls {
			if l.id == id {
				n := append(append([]listener(nil), ls[:i]...), ls[i+1:]...)
				r.listeners[k] = n
				return true
			}
		}
	}
	return false
}

// Emit delivers the event name to e's listeners and, if bubbles, then to
// each ancestor's, until a listener stops it. The built-in events
// (componentinitialized, componentchanged, componentremoved with the
// component name as Detail; child-attached and child-detached on the
// parent with the child as Detail) do not bubble.
func (r *Registry) Emit(e ecs.Entity, name string, detail any, bubbles bool) {
	if len(r.listeners) == 0 {
		return
	}
	ev := &Event{Name: name, Target: e, Detail: detail}
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
