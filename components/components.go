package components

import (
	"math"
	"reflect"

	"github.com/scenecs/scenecs/components/behaviour"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Spin turns an entity's rotation about Axis at Speed degrees per second.
type Spin struct {
	Axis  registry.Vec3 `scene:"axis,default=0 1 0"`
	Speed float64       `scene:"speed,default=90"`
}

// Lifetime destroys its entity once Age reaches Seconds.
type Lifetime struct {
	Seconds float64 `scene:"seconds,default=1,min=0"`
	Age     float64 `scene:"age"`
}

// Builtins holds the components and systems [Register] registered, with
// typed accessors for Go code.
type Builtins struct {
	Position, Rotation, Scale       ecs.Map[registry.Vec3]
	World                           ecs.Map[WorldTransform]
	Velocity, Acceleration, Gravity ecs.Map[registry.Vec3]
	Visible                         ecs.Map[bool]
	Color                           ecs.Map[registry.Color]
	Spin                            ecs.Map[Spin]
	Lifetime                        ecs.Map[Lifetime]
	Spawner                         ecs.Map[Spawner]
	Ground                          ecs.Map[Ground]
	Geometry                        ecs.Map[Geometry]
	// SleepingID is the ecs tag of bodies at rest on a ground, which
	// physics skips until something wakes them.
	SleepingID ecs.ID
	Physics    *registry.System
	// Transform is the transform system, which updates world
	// transforms at the end of every tick; Transforms is its state, to
	// read world matrices and report direct writes.
	Transform  *registry.System
	Transforms *Transforms
	// Builtins are the behaviour components' system and runtimes
	// (package behaviour), promoted: b.Behaviour is the behaviour
	// system, b.Animations, b.Timers, b.EventSets, b.Handlers and
	// b.Bindings control them from Go, b.BehaviourOf reports an
	// entity's running behaviour to the inspector.
	*behaviour.Builtins

	spawnStates map[ecs.Entity]*spawnState // the spawners' running states (spawnstate.go)
}

// Register registers the built-in components and systems on reg:
// position, rotation, scale (vec3, relative to the parent; scale defaults
// to 1 1 1) and world (their result in world space, read-only), visible
// (boolean, default true), color (default white), velocity, acceleration
// and gravity (vec3, in units per second, per second squared, and a
// per-entity gravity force acting as an acceleration), spin, lifetime,
// spawner, ground, geometry (A-Frame's primitives and their sizes), the
// behaviour components of package components/behaviour (animation, timer,
// event-set, on, bind, with their property types), the physics system,
// the behaviour system and the transform system.
// docs/components.md lists their properties and behaviour.
func Register(reg *registry.Registry) (*Builtins, error) {
	b := &Builtins{}
	for _, step := range []func(*registry.Registry, *Builtins) error{
		registerTransform, registerMotion, registerSpin, registerLifetime,
		registerSpawner, registerGround, registerGeometry, registerPhysics, registerBehaviour, registerTransformSystem,
	} {
		if err := step(reg, b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// registerBehaviour registers the behaviour components and system
// (package behaviour) after physics, so that an animation of position has
// the last word in a tick, and before the transform system.
func registerBehaviour(reg *registry.Registry, b *Builtins) (err error) {
	t := b.Transforms
	b.Builtins, err = behaviour.Register(reg, behaviour.Host{
		Position: b.Position.ID(), Rotation: b.Rotation.ID(), Scale: b.Scale.ID(), World: b.World.ID(),
		Velocity: b.Velocity.ID(), Sleeping: b.SleepingID,
		Moved: t.Moved, MovedPositions: t.MovedPositions,
	})
	return err
}

// registerValue registers a single-property component whose Go type is
// its property type T, with def as its default.
func registerValue[T any](reg *registry.Registry, name string, def T, deps ...string) (ecs.Map[T], error) {
	s, err := schema.SchemaOf(reflect.TypeFor[T](), reg.Types())
	if err != nil {
		return ecs.Map[T]{}, err
	}
	s.Props[0].Default = def
	c, err := registry.Register(reg, name, registry.Definition[T]{Schema: s, Dependencies: deps})
	if err != nil {
		return ecs.Map[T]{}, err
	}
	return ecs.NewMap[T](reg.World(), c.ID), nil
}

// registerTransform registers world, position, rotation, scale, visible
// and color, and makes the transform state. Position, rotation and scale
// depend on world, so that an entity gets its world transform with the
// first of them, in the same storage move.
func registerTransform(reg *registry.Registry, b *Builtins) (err error) {
	// Read-only: the transform system writes it through b.World (the
	// ecs Map), below the Registry's checks.
	c, err := registry.Register(reg, WorldName, registry.Definition[WorldTransform]{
		ReadOnly: true,
		Owner:    "computed by the transform system from position, rotation and scale: set those instead",
	})
	if err != nil {
		return err
	}
	b.World = ecs.NewMap[WorldTransform](reg.World(), c.ID)
	if b.Position, err = registerValue(reg, "position", registry.Vec3{}, WorldName); err != nil {
		return err
	}
	if b.Rotation, err = registerValue(reg, "rotation", registry.Vec3{}, WorldName); err != nil {
		return err
	}
	if b.Scale, err = registerValue(reg, "scale", registry.Vec3{X: 1, Y: 1, Z: 1}, WorldName); err != nil {
		return err
	}
	if b.Visible, err = registerValue(reg, "visible", true); err != nil {
		return err
	}
	if b.Color, err = registerValue(reg, "color", registry.Color{R: 255, G: 255, B: 255, A: 255}); err != nil {
		return err
	}
	b.Transforms = newTransforms(reg, b)
	return nil
}

// registerTransformSystem registers the transform system, whose Tock
// brings world transforms up to date after everything ticked.
func registerTransformSystem(reg *registry.Registry, b *Builtins) (err error) {
	t := b.Transforms
	b.Transform, err = registry.RegisterSystem(reg, "transform", registry.SystemDefinition[struct{}]{
		// It walks the hierarchy and keeps its own books, alone.
		Access: &registry.Access{
			Reads:     []string{"position", "rotation", "scale"},
			Writes:    []string{WorldName},
			Exclusive: true,
		},
		Tock: func(*registry.SystemContext, *struct{}) { t.Update() },
	})
	return err
}

// registerMotion registers velocity, acceleration and gravity.
func registerMotion(reg *registry.Registry, b *Builtins) (err error) {
	if b.Velocity, err = registerValue(reg, "velocity", registry.Vec3{}, "position"); err != nil {
		return err
	}
	if b.Acceleration, err = registerValue(reg, "acceleration", registry.Vec3{}, "velocity"); err != nil {
		return err
	}
	b.Gravity, err = registerValue(reg, "gravity", registry.Vec3{Y: -9.8}, "velocity")
	return err
}

// registerSpin registers spin, which turns the rotation component.
func registerSpin(reg *registry.Registry, b *Builtins) error {
	rot := b.Rotation
	c, err := registry.Register(reg, "spin", registry.Definition[Spin]{
		Dependencies: []string{"rotation"},
		Access:       &registry.Access{Writes: []string{"rotation"}},
		Tick: func(c *registry.Context, s *Spin) {
			if rp := rot.Get(c.Entity); rp != nil {
				d := s.Speed * c.Delta
				rp.X = math.Mod(rp.X+s.Axis.X*d, 360)
				rp.Y = math.Mod(rp.Y+s.Axis.Y*d, 360)
				rp.Z = math.Mod(rp.Z+s.Axis.Z*d, 360)
				// A write through a pointer: say so, for the world
				// transform.
				c.Commands().MarkChanged(c.Entity, rot.ID())
			}
		},
	})
	if err != nil {
		return err
	}
	b.Spin = ecs.NewMap[Spin](reg.World(), c.ID)
	return nil
}

// registerLifetime registers lifetime.
func registerLifetime(reg *registry.Registry, b *Builtins) error {
	c, err := registry.Register(reg, "lifetime", registry.Definition[Lifetime]{
		Access: &registry.Access{},
		TickColumn: func(c *registry.Context, ls []Lifetime) {
			dt := c.Delta
			for i := range ls {
				ls[i].Age += dt
				if ls[i].Age >= ls[i].Seconds {
					c.Commands().Destroy(c.EntityAt(i))
				}
			}
		},
	})
	if err != nil {
		return err
	}
	b.Lifetime = ecs.NewMap[Lifetime](reg.World(), c.ID)
	return nil
}
