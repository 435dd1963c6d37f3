// Package components holds the built-in game components and systems of
// scenecs, apart from the registry's machinery, the way A-Frame keeps its
// components apart from its core: transform (position, rotation, scale,
// relative to the parent, and world, their result in world space),
// visible, color, motion (velocity, acceleration, gravity), spin,
// lifetime, spawner, ground, the physics system that integrates motion at
// a fixed step and lands bodies on grounds (emitting collide), the
// transform system that keeps world transforms up to date, and the
// behaviour components, run in scene time by the behaviour system:
// animation (A-Frame's), timer and event-set (A-Frame's community
// component), with the loop and pairs property types they use.
//
// There is no global registry: call [Register] on every
// [registry.Registry] that wants them. It returns [Builtins], typed access
// to the components' data for Go code, and the transform state:
//
//	reg := registry.New(ecs.NewWorld())
//	b, err := components.Register(reg)
//	...
//	b.Position.Get(e).Y += 1                    // a write through a pointer:
//	reg.World().MarkChanged(e, b.Position.ID()) // say so, for the world transform
//	w, _ := b.Transforms.World(e)               // position, rotation, scale in world space
//	m, _ := b.Transforms.Matrix(e)              // the world matrix
//
// They are written with the registry's public API only, so they double as
// examples of components (hooks, dependencies, a system that walks packed
// columns, deferred work bounded by [registry.Limits]).
package components
