package behaviour

import "github.com/scenecs/scenecs/registry"

// registerBehaviour registers the behaviour components (animation, timer,
// event-set, on, bind) and the behaviour system that runs them. The
// system runs in the update phase, after the physics phase, so that an
// animation of position has the last word in a tick; every tick it runs,
// in this order, the timers (and their events), the event-sets whose
// delay is over, the animations (then their events), and the bindings: an
// animation that a timer's event begins has begun at that tick's time,
// and moves from the next tick on; a binding sees the tick's animated
// values. The on handlers run inside the Emit of their events, wherever
// it happens.
//
// The system reads the scene time, the behaviour components' data and
// the components their expressions and paths name; it writes the
// properties the animations, event-sets, handlers and bindings target
// (any component but the read-only ones), adds and removes components,
// creates and destroys entities (on's spawn and destroy), and emits
// events (timers, animations, on's emit): it is exclusive, and a scene
// may not make it otherwise (KeepExclusive).
func registerBehaviour(reg *registry.Registry, b *Builtins) error {
	for _, step := range []func(*registry.Registry, *Builtins) error{registerAnimation, registerTimer, registerEventSet, registerOn, registerBind} {
		if err := step(reg, b); err != nil {
			return err
		}
	}
	a, ts, es, bs := b.Animations, b.Timers, b.EventSets, b.Bindings
	var err error
	b.Behaviour, err = registry.RegisterSystem(reg, "behaviour", registry.SystemDefinition[struct{}]{
		// Animations and event-sets set any component; timers emit
		// events whose listeners may do anything.
		Phase:  registry.PhaseUpdate,
		Access: &registry.Access{Writes: []string{"*"}, Exclusive: true, KeepExclusive: true},
		Tick: func(s *registry.SystemContext, _ *struct{}) {
			b.clock.t, b.clock.dt = s.Time, s.Delta
			ts.step(s.Delta)
			a.flush()
			es.step()
			a.flush()
			a.step(s.Delta)
			a.flush()
			bs.step()
		},
	})
	return err
}

// sceneClock is the scene time as expressions read it, the Registry's
// (ticks times the step, so that 30 ticks at 60 Hz are 0.5 s exactly, as
// the animations count, and a World resumed from its registry.Clock goes
// on with the same numbers), and the step of the tick.
type sceneClock struct{ t, dt float64 }

// now returns the scene time in seconds.
func (c *sceneClock) now() float64 { return c.t }
