// Package ecs is the packed-array entity component system under scenecs:
// a [World] of entities whose components live in archetype tables, typed
// access to them through [Map], cached filters, and queries that walk the
// packed columns without allocating.
//
// # Outline
//
//   - [World] holds everything: entities, registered components, tables,
//     filters and observers. [NewWorld] makes one; [World.NewEntity] and
//     [World.NewEntities] create entities, [World.Destroy] destroys one,
//     [World.Len] counts them. A World is not safe for concurrent use.
//   - [Entity] is a small handle: an index ([Entity.Index]), a generation
//     ([Entity.Generation]) and the tag of the World that made it.
//     Destroying an entity moves its slot's generation on, so the old
//     handle is stale forever: [World.Alive] reports false and methods
//     return [ErrStale]. The zero Entity ([Entity.IsZero]) and handles of
//     another World are refused the same way; World tags are never reused.
//   - Components are registered per World under unique names and numbered
//     by a dense [ID]: from a Go type with [Register] (or [MustRegister]),
//     which returns the typed accessor [Map]; at run time from a
//     [reflect.Type] or a plain size with [World.RegisterType] and
//     [World.RegisterBytes]; tags, which take no per-entity storage, with
//     [World.RegisterTag]. [Map.Get], [Map.Set], [Map.Add] and [Map.Remove]
//     work on one entity; code that knows a component only by ID uses
//     [World.Get], [World.GetPtr], [World.Set], [World.SetPtr],
//     [World.Add], [World.AddMany] and [World.Remove], and
//     [World.ComponentID] and [World.ComponentInfo] ([Info]) describe it.
//   - Archetype tables store the components: one table per distinct set of
//     components (its signature, a [Mask]; see [World.Mask]), one packed
//     column per component. Adding or removing a component moves the
//     entity's row to another table along a cached edge.
//   - Queries by entity: a [Filter] ([NewFilter] with [With], [Without] and
//     [AnyOf], or [NewFilterMasks]) is matched once per table and keeps the
//     list of matching tables, extending it as tables appear.
//     [Filter.Query] starts a [Query]; [Query.Next] moves its
//     allocation-free cursor and [Query.Entity] and [Query.Ptr] read the
//     current entity. The typed [Filter1] to [Filter8] ([NewFilter2], ...)
//     give [Query1] to [Query8], whose Get ([Query2.Get]) returns pointers
//     to the components; [Filter2.Each] calls a function per entity.
//   - Queries by table: [Query.NextTable] moves a table at a time, and
//     [Column] (or Columns on a typed query, [Query2.Columns]) returns the
//     table's packed values as slices, for the fastest loops.
//   - Deferral: while a query iterates, or an observer or a batch fill
//     function runs, the World is locked ([World.Locked]). Structural
//     changes (create with components, destroy, add, remove, reparent) are
//     then recorded in a command buffer ([World.Pending]) and applied, in
//     the order they were made, when the last lock is released; value
//     writes to components the entity has happen at once. [World.Defer]
//     queues a function the same way. See "Ending an iteration" below.
//   - Hierarchy: [World.SetParent] and [World.InsertChild] arrange
//     entities in a tree whose pre-order walk is the document order;
//     [World.Parent], [World.Children], [World.ChildIndex], [World.Roots],
//     [World.All] and [World.Descendants] read it. Destroying an entity
//     destroys its subtree. A World pays for the hierarchy only from its
//     first use ([World.EnableHierarchy]).
//   - Observers: [World.Observe] and [World.ObserveComponent] register an
//     [Observer] for an [Event]: an entity created or destroyed, a
//     component added, set or removed, a child attached or detached.
//     [World.Unobserve] removes one. [Event] gives the order of the events
//     of one operation. Observers run with the World locked, so their
//     structural changes are applied right after the operation that
//     triggered them.
//   - Change counters: [World.Version] grows with every structural change,
//     [World.Changes] with every add, remove or set of one component
//     through the World; comparing a reading with an earlier one tells a
//     system whether to do its work again. A write through a pointer from
//     [Map.Get] is counted only when followed by [World.MarkChanged].
//   - Batches: [Builder1] to [Builder8] ([NewBuilder2], ...) create
//     entities straight into their table, one ([Builder2.New]) or many
//     ([Builder2.NewBatch], [Builder2.NewBatchFn]); [World.NewEntities]
//     creates many with zero values; [World.AddAll], [World.RemoveAll] and
//     [World.DestroyAll] change every entity a [Filter] matches, whole
//     tables at a time where they can.
//
// # Ending an iteration
//
// A query's lock lasts until [Query.Next] or [Query.NextTable] returns
// false, or [Query.Close] is called. A loop that may break out early or
// panic should start with
//
//	q := f.Query()
//	defer q.Close()
//
// Close is idempotent and never releases another iteration's lock (copies
// of a Query share one iteration). [Filter2.Each], observers and batch fill
// functions release their lock however they return, panics included, so a
// recovered panic does not leave the World locked. A panic while deferred
// changes are being applied leaves the rest queued; [World.Flush] applies
// them.
//
// # Misuse
//
// Misuse is refused, never a runtime error. A component ID that is not
// registered is an error (wrapping [ErrUnknownComponent]) from methods
// that return errors and a panic with an "ecs:" message from the others;
// negative counts panic; stale, zero and foreign handles are refused
// ([ErrStale]). The other errors, [ErrNoComponent], [ErrHasComponent],
// [ErrDuplicateName] and [ErrCycle], are wrapped with the entity or
// component they concern: test them with [errors.Is]. [MaxComponents]
// bounds the components of a World, [MaxRuntimeSize] the size of one
// registered at run time.
package ecs
