// Package behaviour holds the behaviour components of scenecs: what an
// entity does in scene time and when events arrive. They are built-ins:
// package components registers them with the others (components.Register
// calls [Register]), and a program reaches their runtimes through
// components.Builtins, which embeds [Builtins]. Like the other built-ins
// they are written with the registry's public API only.
//
// # Outline
//
//   - Registering: [Register] registers animation, timer, event-set, on
//     and bind, their property types (loop, and the specs of on and bind)
//     and the behaviour system, on a registry that already holds the
//     transform and physics components; [Host] is what it is told of them
//     (their IDs, and where to report columns written below the World's
//     checks), so that this package does not import components.
//     [Builtins] holds the system and the runtimes.
//   - The behaviour system (behaviour.go) runs every tick, in order: the
//     timers ([Timers], [Timer]: an event, a [TimerEvent], after a delay,
//     once or repeating), the event-sets whose delay is over ([EventSets]:
//     A-Frame's community component, properties set when an event
//     arrives), the animations, then the bindings. It keeps the scene
//     time the expressions read.
//   - Animation (animation.go, animpath.go, animctl.go, animrun.go):
//     A-Frame's, with every easing of [Easings] ([Ease] computes one);
//     [Animation] is its data, [Loop] its loop property; a path names the
//     property it moves; [Animations] runs them in packed runs and starts,
//     pauses, resumes, restarts and stops one from Go ([AnimationState]
//     reports one); begin and complete are [AnimationEvent]s.
//   - on (on.go, onspec.go, clauses.go, oncompile.go, onset.go): handlers
//     that run inside the Emit of their events: conditions, sets, adds,
//     removes, emits, spawns, destroys and animation or timer control,
//     written as clauses ([OnSpec]) and compiled to expressions of
//     package expr against the registry (exprhost.go); [Handlers] runs
//     them.
//   - bind (bind.go, bindspec.go, bindgroup.go): properties computed
//     every tick from expressions ([BindSpec]); [Bindings] runs them,
//     those that share a program in batches.
//   - Inspection (behaviourinfo.go): [Builtins.BehaviourOf] reports an
//     entity's running behaviour ([BehaviourInfo]: [AnimationInfo],
//     [TimerInfo], [HandlerInfo], [BindingInfo]), which the inspector
//     shows.
//
// docs/components.md lists every property. In Go code, with b the
// result of components.Register:
//
//	err := b.Animations.Restart(e, "animation__open")
//	n, running := b.Timers.Fired(e, "timer")
package behaviour
