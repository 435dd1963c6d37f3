// Package ecs is the packed-array entity component system under scenecs.
//
// A World holds entities and their components. Entities are small handles
// (index + generation); a destroyed entity's handle is detectably stale
// forever, and a handle from another World is refused too.
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
// happen at once.
//
// Observers (Observe, ObserveComponent) are told when entities are
// created and destroyed and when components are added, set and removed;
// see Event for the order. Structural changes made from an observer are
// deferred the same way and applied right after the operation that
// triggered it.
//
// A World is not safe for concurrent use.
package ecs
