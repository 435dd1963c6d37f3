package behaviour

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Builtins holds the behaviour components and the system [Register]
// registered: the system and the runtimes, to control them from Go.
// components.Builtins embeds it, so a program that called
// components.Register reaches them as b.Animations, b.Timers and so on.
type Builtins struct {
	// Behaviour is the system that runs the animation, timer and
	// event-set components every tick; Animations, Timers and EventSets
	// are their runtimes, to control them from Go.
	Behaviour  *registry.System
	Animations *Animations
	Timers     *Timers
	EventSets  *EventSets
	// Handlers runs the on components (inside the Emit that delivers
	// their events), Bindings the bind components (in the behaviour
	// system's tick).
	Handlers *Handlers
	Bindings *Bindings

	host       Host
	transforms transforms
	clock      sceneClock // the scene time the handlers and bindings read
}

// Host is what the behaviour components need of the transform and
// physics built-ins, which package components registers before them:
// the components' IDs and the transform state's reports of writes made
// below the World's checks.
type Host struct {
	// Position, Rotation, Scale and World are the transform components;
	// an animation or binding of the first three moves World.
	Position, Rotation, Scale, World ecs.ID
	// Velocity is the velocity component, Sleeping the tag of bodies at
	// rest, which an animated body loses so that physics sees it move.
	Velocity, Sleeping ecs.ID
	// Moved says that the entities of a filter had their position,
	// rotation or scale written through a column; MovedPositions the
	// same for position alone.
	Moved, MovedPositions func(*ecs.Filter)
}

// transforms is the part of the transform state the runtimes use.
type transforms struct {
	worldID, posID, rotID, sclID ecs.ID
	host                         *Host
}

// Moved reports writes to the transforms of f's entities.
func (t *transforms) Moved(f *ecs.Filter) { t.host.Moved(f) }

// MovedPositions reports writes to the positions of f's entities.
func (t *transforms) MovedPositions(f *ecs.Filter) { t.host.MovedPositions(f) }

// Register registers the behaviour components (animation, timer,
// event-set, on, bind, with the property types loop, pairs, on and bind)
// and the behaviour system on reg, which must hold the components host
// names. Package components calls it (components.Register registers
// everything); docs/components.md lists the properties.
func Register(reg *registry.Registry, host Host) (*Builtins, error) {
	b := &Builtins{host: host}
	b.transforms = transforms{worldID: host.World, posID: host.Position, rotID: host.Rotation, sclID: host.Scale, host: &b.host}
	if err := registerBehaviour(reg, b); err != nil {
		return nil, err
	}
	return b, nil
}

// worldName is the name of the world component (components.WorldName),
// which paths may not target: the transform system computes it.
const worldName = "world"
