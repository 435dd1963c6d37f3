package ecs

import "fmt"

// Event is a kind of change that observers ([Observer], registered with
// [World.Observe] and [World.ObserveComponent]) are told about.
//
// The order, for one operation:
//   - [World.NewEntity] and the builders ([Builder1] to [Builder8]):
//     [EntityCreated], then [ComponentAdded] for each initial component in
//     increasing [ID] order, after the values are written.
//   - [World.Add], [World.AddPtr], [World.Set] of an absent component:
//     ComponentAdded after the value is written.
//   - Set of a present component, [World.MarkChanged]: [ComponentSet] after
//     the write.
//   - [World.Remove]: [ComponentRemoved] before the removal, the value
//     still readable.
//   - [World.Destroy]: for each entity of the subtree, children first:
//     ComponentRemoved for each component in increasing ID order, then
//     [EntityDestroyed], all before that entity is freed. A child is freed
//     before its parent's events: the parent's observers no longer see it
//     among the children.
//   - [World.SetParent], [World.InsertChild]: [ChildDetached] (entity
//     still under its old parent) and [ChildAttached] (under the new one),
//     with the child as the entity; a new root gets no ChildAttached.
//
// The typed forms ([Map.Set], [Map.Add], [Map.Remove]) and the batch forms
// ([World.NewEntities], [World.AddMany], [World.AddAll], [World.RemoveAll],
// [World.DestroyAll]) tell the same events as the operations they stand
// for.
//
// Observers run with the [World] locked: structural changes they make are
// deferred and applied, in order, right after the operation that
// triggered them completes.
type Event uint8

// The events.
const (
	EntityCreated Event = iota
	EntityDestroyed
	ComponentAdded
	ComponentRemoved
	ComponentSet
	ChildAttached
	ChildDetached
	numEvents
)

var eventNames = [...]string{"EntityCreated", "EntityDestroyed", "ComponentAdded", "ComponentRemoved", "ComponentSet", "ChildAttached", "ChildDetached"}

// String returns the event's name.
func (ev Event) String() string {
	if int(ev) < len(eventNames) {
		return eventNames[ev]
	}
	return "Event(?)"
}

// Observer is called for an [Event] on entity e. id is the component for
// component events ([ComponentAdded], [ComponentSet], [ComponentRemoved])
// and 0 otherwise. Register one with [World.Observe] or
// [World.ObserveComponent].
type Observer func(w *World, ev Event, e Entity, id ID)

// ObserverID identifies a registered observer, for [World.Unobserve].
type ObserverID uint64

type observerEntry struct {
	id ObserverID
	fn Observer
}

type observers struct {
	nobs    int
	nextObs ObserverID
	all     [numEvents][]observerEntry
	compObs [][numEvents][]observerEntry // by component ID, only for component events
}

// Observe registers fn for every occurrence of ev. Observers of one event
// run in registration order; for component events, the observers of every
// component run before those registered for the specific component
// ([World.ObserveComponent]). [World.Unobserve] removes fn again.
//
// It panics if ev is not one of the events ([Event]) or fn is nil.
func (w *World) Observe(ev Event, fn Observer) ObserverID {
	w.mutable("Observe")
	if ev >= numEvents {
		panic(fmt.Sprintf("ecs: Observe: unknown event %d", ev))
	}
	if fn == nil {
		panic("ecs: Observe: nil observer")
	}
	w.nextObs++
	w.all[ev] = append(w.all[ev], observerEntry{w.nextObs, fn})
	w.nobs++
	return w.nextObs
}

// ObserveComponent registers fn for ev ([ComponentAdded], [ComponentSet]
// or [ComponentRemoved]) on component id only. It panics if id is not
// registered, ev is another event or fn is nil.
func (w *World) ObserveComponent(ev Event, id ID, fn Observer) ObserverID {
	w.mutable("ObserveComponent")
	w.checkID("ObserveComponent", id)
	if ev != ComponentAdded && ev != ComponentSet && ev != ComponentRemoved {
		panic("ecs: ObserveComponent: " + ev.String() + " is not a component event; use Observe")
	}
	if fn == nil {
		panic("ecs: ObserveComponent: nil observer")
	}
	w.nextObs++
	w.compObs[id][ev] = append(w.compObs[id][ev], observerEntry{w.nextObs, fn})
	w.nobs++
	return w.nextObs
}

// Unobserve removes an observer ([World.Observe],
// [World.ObserveComponent]). It reports whether one was removed.
func (w *World) Unobserve(oid ObserverID) bool {
	w.mutable("Unobserve")
	del := func(list []observerEntry) ([]observerEntry, bool) {
		for i, o := range list {
			if o.id == oid {
				// Copy so that a dispatch in progress keeps its list.
				n := make([]observerEntry, 0, len(list)-1)
				n = append(n, list[:i]...)
				return append(n, list[i+1:]...), true
			}
		}
		return list, false
	}
	for ev := range w.all {
		var ok bool
		if w.all[ev], ok = del(w.all[ev]); ok {
			w.nobs--
			return true
		}
	}
	for id := range w.compObs {
		for ev := range w.compObs[id] {
			var ok bool
			if w.compObs[id][ev], ok = del(w.compObs[id][ev]); ok {
				w.nobs--
				return true
			}
		}
	}
	return false
}

// emit calls the observers of ev; the caller holds the lock.
func (w *World) emit(ev Event, e Entity, id ID) {
	for _, o := range w.all[ev] {
		o.fn(w, ev, e, id)
	}
	if ev >= ComponentAdded && ev <= ComponentSet && int(id) < len(w.compObs) {
		for _, o := range w.compObs[id][ev] {
			o.fn(w, ev, e, id)
		}
	}
}

// emitLocked calls the observers of ev with the World locked; the lock is
// released however they return (see leave).
func (w *World) emitLocked(ev Event, e Entity, id ID) {
	w.enter()
	done := false
	defer w.leave(&done)
	w.emit(ev, e, id)
	done = true
}
