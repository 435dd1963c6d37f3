// Package components holds the built-in game components and systems of
// scenecs, apart from the registry's machinery, the way A-Frame keeps its
// components apart from its core: transform (position, rotation, scale),
// visible, motion (velocity, acceleration, gravity), spin, lifetime,
// spawner, and the physics system that integrates motion at a fixed step.
//
// There is no global registry: call [Register] on every
// [registry.Registry] that wants them. It returns [Builtins], typed access
// to the components' data for Go code:
//
//	reg := registry.New(ecs.NewWorld())
//	b, err := components.Register(reg)
//	...
//	b.Position.Get(e).Y += 1
//
// They are written with the registry's public API only, so they double as
// examples of components (hooks, dependencies, a system that walks packed
// columns, deferred work bounded by [registry.Limits]).
package components
