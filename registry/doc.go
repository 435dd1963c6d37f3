// Package registry binds component and system definitions to an
// [ecs.World], in the manner of A-Frame's component registry: it knows
// every component by name and schema, turns attribute strings such as
// "hp: 80; regen: 10" into packed component data and back, runs the
// lifecycle hooks in A-Frame's order, and ticks components and systems.
//
// A component is a Go type registered under a name with [Register]; its
// [Schema] (property names, types ([Type]), defaults, bounds) comes from
// struct fields and `scene` tags ([SchemaOf]) or is written out
// ([NewSchema]), and a data-only component can be declared at run time
// ([Registry.Declare]).
// Hooks (init, update, remove, tick, pause, play) receive a [Context].
// Systems ([RegisterSystem]) hold one configuration and tick before and
// after the components, optionally over the entities a selector matches.
//
// Writes go through the World ([Registry.Set], [Registry.SetPatch],
// [Registry.SetMany]), so observers and change counters see every change.
// Mixins ([Mixin]) are named sets of component values entities and
// spawners instantiate. Entity ids and classes are kept here too, and
// [*Registry] is a [selector.Source]: [Registry.QueryAll] and
// [Registry.Compile] run CSS-like selectors against it.
//
// The built-in components (position, velocity, spawner, ...) and the
// physics system are not here but in package components; a Registry made
// with [New] knows no component until some are registered. There is no
// package-level registry: a program may hold several, one per World.
//
// A Registry, like its World, is not safe for concurrent use.
package registry
