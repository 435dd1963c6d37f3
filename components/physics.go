package components

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Physics configures the physics system: it integrates velocity,
// acceleration and gravity into position with a fixed time step.
type Physics struct {
	// Step is the fixed time step in seconds; each Tick runs as many
	// steps as the accumulated time allows (at most MaxSteps).
	Step     float64 `scene:"step,default=0.016666666666666666,min=0.000001"`
	MaxSteps int     `scene:"maxSteps,default=8,min=1"`
}

// registerPhysics registers the physics system.
func registerPhysics(reg *registry.Registry, b *Builtins) (err error) {
	b.Physics, err = registry.RegisterSystem(reg, "physics", physicsSystem(reg, b))
	return err
}

// physicsSystem integrates, per storage table of entities with position
// and velocity: velocity += (acceleration + gravity) * step, then
// position += velocity * step (semi-implicit Euler), at a fixed step.
func physicsSystem(reg *registry.Registry, b *Builtins) registry.SystemDefinition[Physics] {
	var f *ecs.Filter
	var acc float64
	posID, velID := b.Position.ID(), b.Velocity.ID()
	accID, gravID := b.Acceleration.ID(), b.Gravity.ID()
	return registry.SystemDefinition[Physics]{
		Init: func(s *registry.SystemContext, cfg *Physics) {
			f = ecs.NewFilter(reg.World(), ecs.With(posID, velID), ecs.Without(reg.PausedTag()))
		},
		Tick: func(s *registry.SystemContext, cfg *Physics) {
			acc += s.Delta
			steps := 0
			for acc >= cfg.Step*(1-1e-9) && steps < cfg.MaxSteps {
				acc -= cfg.Step
				steps++
			}
			if steps == cfg.MaxSteps {
				acc = 0 // too far behind: drop the backlog
			}
			if acc < 0 {
				acc = 0
			}
			for i := 0; i < steps; i++ {
				Integrate(f, posID, velID, accID, gravID, cfg.Step)
			}
		},
	}
}

// Integrate advances every entity of f (which must require position and
// velocity) by one step of dt seconds: velocity += (acceleration +
// gravity) * dt, then position += velocity * dt. pos, vel, acc and grav
// are the IDs of the four vec3 components ([registry.Vec3] columns). It
// walks the packed columns of each table; acceleration and gravity are
// applied where the table has them.
func Integrate(f *ecs.Filter, pos, vel, acc, grav ecs.ID, dt float64) {
	q := f.Query()
	for q.NextTable() {
		ps := ecs.Column[registry.Vec3](&q, pos)
		vs := ecs.Column[registry.Vec3](&q, vel)
		vs = vs[:len(ps)]
		if as := ecs.Column[registry.Vec3](&q, acc); as != nil {
			as = as[:len(vs)]
			for i := range vs {
				vs[i].X += as[i].X * dt
				vs[i].Y += as[i].Y * dt
				vs[i].Z += as[i].Z * dt
			}
		}
		if gs := ecs.Column[registry.Vec3](&q, grav); gs != nil {
			gs = gs[:len(vs)]
			for i := range vs {
				vs[i].X += gs[i].X * dt
				vs[i].Y += gs[i].Y * dt
				vs[i].Z += gs[i].Z * dt
			}
		}
		for i := range ps {
			ps[i].X += vs[i].X * dt
			ps[i].Y += vs[i].Y * dt
			ps[i].Z += vs[i].Z * dt
		}
	}
}
