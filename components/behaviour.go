package components

import "github.com/scenecs/scenecs/registry"

// registerBehaviour registers the behaviour components (animation, timer,
// event-set) and the behaviour system that runs them. The system runs in
// the update phase, after the physics phase, so that an animation of
// position has the last word in a tick; every tick it runs, in this order, the timers (and
// their events), the event-sets whose delay is over, and the animations
// (then their events): an animation that a timer's event begins has
// begun at that tick's time, and moves from the next tick on.
func registerBehaviour(reg *registry.Registry, b *Builtins) error {
	for _, step := range []func(*registry.Registry, *Builtins) error{registerAnimation, registerTimer, registerEventSet} {
		if err := step(reg, b); err != nil {
			return err
		}
	}
	a, ts, es := b.Animations, b.Timers, b.EventSets
	var err error
	b.Behaviour, err = registry.RegisterSystem(reg, "behaviour", registry.SystemDefinition[struct{}]{
		// Animations and event-sets set any component; timers emit
		// events whose listeners may do anything.
		Access: &registry.Access{Writes: []string{"*"}, Exclusive: true},
		Tick: func(s *registry.SystemContext, _ *struct{}) {
			ts.step(s.Delta)
			a.flush()
			es.step()
			a.flush()
			a.step(s.Delta)
			a.flush()
		},
	})
	return err
}
