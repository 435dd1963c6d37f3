// Package components holds the built-in game components and systems of
// scenecs, apart from the registry's machinery, the way A-Frame keeps its
// components apart from its core. They are written with the registry's
// public API only, so they double as examples of components: hooks,
// dependencies, a system that walks packed columns, deferred work bounded
// by [registry.Limits].
//
// # Outline
//
//   - Registering: there is no global registry. [Register] registers the
//     components and systems on one [registry.Registry] and returns
//     [Builtins]: typed access to their data for Go code ([ecs.Map]
//     values), the physics and transform systems, the transform state,
//     and the behaviour runtimes of package components/behaviour.
//   - Transform: position, rotation and scale are relative to the parent;
//     world ([WorldTransform]) is their result in world space, read-only.
//     [Transforms] keeps it up to date incrementally: [Transforms.World]
//     and [Transforms.Matrix] ([Mat4]) read it. Writes through the World
//     are seen at once; writes made through pointers or packed columns are
//     reported with [ecs.World.MarkChanged] (one entity) or
//     [Transforms.Moved] (a filter's entities) and applied by
//     [Transforms.Update], which the transform system calls at the end of
//     every tick.
//   - Motion and physics: velocity, acceleration and gravity are vec3
//     components ([registry.Vec3]); the physics system ([Physics]
//     configures it) integrates them into position at a fixed step
//     ([Integrate] is one step over a filter) and lands bodies on grounds
//     ([Ground]), where they bounce, slide and come to rest ([RestSpeed],
//     [StopSpeed]); bodies at rest get the sleeping tag
//     ([Builtins.SleepingID]) and are skipped until something wakes them.
//   - Others: visible and color ([registry.Color]); [Spin] turns an
//     entity; [Lifetime] destroys it after a time; [Spawner] creates
//     entities from a mixin or a prefab, at once or at a rate.
//   - Behaviour in scene time: animation, timer, event-set, on and bind
//     are package components/behaviour, which [Register] registers with
//     the rest (handing it the transform state as a [behaviour.Host]) and
//     [Builtins] embeds (b.Animations starts, pauses and restarts an
//     animation from Go); physics emits collide when a body lands.
//
// docs/components.md lists every property. In Go code:
//
//	reg := registry.New(ecs.NewWorld())
//	b, err := components.Register(reg)
//	...
//	b.Position.Get(e).Y += 1                    // a write through a pointer:
//	reg.World().MarkChanged(e, b.Position.ID()) // say so, for the world transform
//	w, _ := b.Transforms.World(e)               // position, rotation, scale in world space
//	m, _ := b.Transforms.Matrix(e)              // the world matrix
package components
