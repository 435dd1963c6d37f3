// Package registry binds component and system definitions to an
// [ecs.World], in the manner of A-Frame's component registry: it knows
// every component by name and schema, turns attribute strings such as
// "hp: 80; regen: 10" into packed component data and back, runs the
// lifecycle hooks in A-Frame's order, and ticks components and systems.
//
// # Outline
//
//   - [Registry]: one per World, made with [New]. There is no
//     package-level registry: a program may hold several, one per World.
//     A Registry, like its World, is not safe for concurrent use.
//   - Components: a Go type registered under a name with [Register] and a
//     [Definition] becomes a [Component]. Its [Schema] lists the
//     properties ([Property]) with their types ([Type], from a [Types]
//     set), defaults and bounds; it comes from struct fields and `scene`
//     tags ([schema.SchemaOf]) or is written out ([schema.NewSchema]).
//     Those value types, attribute strings, patches and mixins are
//     package [schema]'s, which knows no World; the registry names them
//     by aliases ([Schema], [Patch], [Vec3], ...), and a data-only
//     component can be declared at run time ([Registry.Declare]). [Registry.Component] and
//     [Registry.Lookup] find a component by name.
//   - Values: [Registry.Set] parses an attribute string and sets it on an
//     entity, adding the component (and its dependencies) if absent;
//     [Registry.SetPatch] (a parsed [Patch], with a [SetMode]) and
//     [Registry.SetMany] (several [NamedPatch] values in one move) write
//     parsed values, and [Registry.Remove] detaches a component.
//     [Registry.Attr] and [Registry.Values] read values back. Writes go
//     through the World, so its observers and change counters
//     ([ecs.World.Changes]) see every change. A bad attribute string is an
//     [*AttrError], which holds the property type's [*ValueError] where
//     there is one; an unknown component name is an
//     [*UnknownComponentError].
//   - Lifecycle: the hooks of a [Definition] (init, update, remove, tick
//     or tick by column, tock, pause, play) run in A-Frame's order and
//     receive a [Context] naming the entity and component instance.
//   - Systems: [RegisterSystem] with a [SystemDefinition] registers a
//     [System]: one configuration ([System.ConfigureAttr]) and hooks
//     that receive a [SystemContext], optionally over the entities a
//     selector matches.
//   - Ticking: [Registry.Tick] advances scene time ([Registry.Time]):
//     systems tick, then components, then systems and components tock.
//     The order, the workers and the scene clock are package
//     [schedule]'s: the Registry registers each system and each ticking
//     component there as a node ([schedule.Node]), and
//     [Registry.Schedule] returns its [Schedule]; [Access], [Settings]
//     and the phases ([PhaseUpdate], ...) are aliases of its names.
//     It starts the systems first ([Registry.Start]) and returns the errors
//     of deferred work, such as a [*SpawnError] ([Registry.TakeErrors]).
//     [Registry.Pause] and [Registry.Play] stop and resume the whole scene,
//     [Registry.PauseEntity] and [Registry.PlayEntity] one entity.
//   - Mixins, prefabs and limits: a [Mixin] is a named set of component
//     values that entities and spawners instantiate
//     ([Mixins.Define]); a [Prefab] is a named entity subtree,
//     instanced whole. [Limits] bound what spawns create ([ErrLimit]),
//     and [Registry.SetContext] lets a [context.Context] stop long work.
//   - Ids, classes and selectors: entity ids ([Registry.SetEntityID],
//     [Registry.EntityByID]) and classes ([Registry.SetClasses]) are kept
//     here, and [*Registry] is a [selector.Source]: [Registry.QueryAll],
//     [Registry.Resolve] and [Registry.Compile] run CSS-like selectors
//     against it. A [SelectorText] property names an entity by selector
//     ([Registry.Resolve]).
//   - Entity events are package [events]': [Registry.Events] returns the
//     Registry's ([events.Events.On] listens for named events, an [Event],
//     on an entity; [events.Events.Emit] sends one, bubbling up the
//     hierarchy if asked); the registry emits componentinitialized,
//     componentchanged and componentremoved itself. Their deliveries per
//     tick are bounded by [Limits] (MaxDeliveries).
//
// The built-in components (position, velocity, spawner, ...) and the
// physics system are not here but in package components; a Registry made
// with [New] knows no component until some are registered.
package registry
