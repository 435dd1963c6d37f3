package registry

import (
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/events"
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

// The entity events are package events'; the registry makes one
// [events.Events] per Registry ([Registry.Events]) and names its types by
// these aliases, so that a listener is written as before.
type (
	// Events are a Registry's entity events (see [events.Events]).
	Events = events.Events
	// Event is an entity event delivered to listeners (see [events.Event]).
	Event = events.Event
	// ListenerID identifies a listener (see [events.ListenerID]).
	ListenerID = events.ListenerID
	// EventTap is told of every event emitted (see [events.Tap]).
	EventTap = events.Tap
	// ComponentEvent is the Detail of the component events (see
	// [events.ComponentEvent]).
	ComponentEvent = events.ComponentEvent
	// ChildEvent is the Detail of child-attached and child-detached (see
	// [events.ChildEvent]).
	ChildEvent = events.ChildEvent
	// BudgetError reports a window whose deliveries passed
	// Limits.MaxDeliveries (see [events.BudgetError]).
	BudgetError = events.BudgetError
)

// newEvents makes the Registry's events: their budget is
// Limits.MaxDeliveries, their reports go to ReportError.
func (r *Registry) newEvents() *events.Events {
	return events.New(r.w, events.Options{
		Budget:     &r.Limits.MaxDeliveries, // 0: events.DefaultBudget, as WithDefaults has it
		BudgetName: "Limits.MaxDeliveries",
		Report:     r.ReportError,
		Label:      r.entityLabel,
	})
}

// entityLabel names e in reports: #id, or its handle.
func (r *Registry) entityLabel(e ecs.Entity) string {
	if id := r.EntityID(e); id != "" {
		return "#" + id
	}
	return e.String()
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
	if !r.events.Heard(e) {
		return
	}
	r.events.Emit(e, event, r.componentDetail(id), false)
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
