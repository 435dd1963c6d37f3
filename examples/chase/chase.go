package main

import (
	"math"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// Chase is the game's own component: its entity runs toward a target
// entity at a fixed speed and stops within reach of it. In a scene:
//
//	chase: "target: #player; speed: 3"
//
// Target, Speed and Reach come from the scene; Caught is run-time state
// (a hot reload that edits speed keeps it, and the entity's position).
type Chase struct {
	Target registry.SelectorText `scene:"target,default=#player"`
	Speed  float64               `scene:"speed,default=2,min=0"`
	Reach  float64               `scene:"reach,default=1,min=0"`
	Caught bool                  `scene:"caught"`
}

// register registers the game's components on a registry that has the
// built-ins (b): the one function both the command set and the game loop
// call, so that the tools know exactly what the game runs.
func register(reg *registry.Registry, b *components.Builtins) error {
	_, err := registry.Register(reg, "chase", registry.Definition[Chase]{
		Dependencies: []string{"position"},
		Tick: func(c *registry.Context, ch *Chase) {
			chaseTick(c, ch, b)
		},
	})
	return err
}

// chaseTick moves c.Entity toward its target. It reads another entity:
// the target's world transform (the player may sit on a turntable, so
// its own position is relative to the turntable), and the chaser's own.
func chaseTick(c *registry.Context, ch *Chase, b *components.Builtins) {
	target, ok, err := c.Registry.Resolve(ch.Target)
	if err != nil || !ok || target == c.Entity {
		return // no such target (yet): stand still
	}
	to, ok1 := b.Transforms.World(target)
	from, ok2 := b.Transforms.World(c.Entity)
	if !ok1 || !ok2 {
		return
	}
	dx := to.Position.X - from.Position.X
	dz := to.Position.Z - from.Position.Z
	d := math.Hypot(dx, dz) // chasers run on the ground plane
	if d > ch.Reach {
		step := min(ch.Speed*c.Delta, d-ch.Reach)
		// A chaser at the root of the scene: its position is its world
		// position. Set (not a write through the pointer) lets the
		// transform system see the move at once.
		p := *b.Position.Get(c.Entity)
		p.X += dx / d * step
		p.Z += dz / d * step
		_ = b.Position.Set(c.Entity, p)
		d -= step
	}
	ch.Caught = d <= ch.Reach+1e-9
}
