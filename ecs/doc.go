// Package ecs is the packed-array entity component system under scenecs.
//
// A World holds entities and their components. Entities are small handles
// (index, generation and the tag of the World that made them); a
// destroyed entity's handle is detectably stale forever, and a handle from
// another World is always refused too: World tags are never reused.
//
// Components are registered per World, either from a Go type with
// Register, or at run time from a reflect.Type or a plain size
// (RegisterType, RegisterBytes) for components that exist only as data.
// Every component has an ID and a unique name. Zero-size components are
// tags: they take no per-entity storage.
//
// Storage is archetype tables: one table per distinct set of components
// (its signature, a Mask), one packed column per component. Adding or
// removing a component moves the entity's row to another table along a
// cached edge. Queries (Filter, Filter1..Filter8) are matched once per
// table and cache the matching tables; they iterate entity by entity with
// an allocation-free cursor (Next/Get) or table by table over the packed
// columns (NextTable/Columns) for the fastest loops.
//
// While a query iterates, the World is locked: structural changes
// (create with components, destroy, add, remove, reparent) are recorded in
// a command buffer and applied when the last open iteration ends, in the
// order they were made. Value writes (Set on a component the entity has)
// happen at once. A loop that may break out early or panic should start
// with
//
//	q := f.Query()
//	defer q.Close()
//
// Close is idempotent and never releases another iteration's lock (copies
// of a Query share one iteration). Each, observers and batch fill
// functions release their lock however they return, panics included, so
// a recovered panic does not leave the World locked.
//
// Misuse is refused, never a runtime error: a component ID that is not
// registered is an error (wrapping ErrUnknownComponent) from methods that
// return errors and a panic with an "ecs:" message from the others;
// negative counts panic; stale, zero and foreign handles are refused.
//
// Observers (Observe, ObserveComponent) are told when entities are
// created and destroyed and when components are added, set and removed;
// see Event for the order. Structural changes made from an observer are
// deferred the same way and applied right after the operation that
// triggered it.
//
// A World is not safe for concurrent use.
package ecs
