package registry

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/scenecs/scenecs/ecs"
)

// Spin turns an entity's rotation about Axis at Speed degrees per second.
type Spin struct {
	Axis  Vec3    `scene:"axis,default=0 1 0"`
	Speed float64 `scene:"speed,default=90"`
}

// Lifetime destroys its entity once Age reaches Seconds.
type Lifetime struct {
	Seconds float64 `scene:"seconds,default=1,min=0"`
	Age     float64 `scene:"age"`
}

// Spawner creates Count entities from a mixin when it is initialised, as
// its children, at positions drawn uniformly from a box of size Area
// centred on the origin of its parent space, with velocities drawn from
// [-Velocity, +Velocity] per axis. The draw is seeded by Seed, so the same
// scene spawns the same entities. Done is set once it has spawned, so that
// a dumped scene loaded back does not spawn twice.
type Spawner struct {
	Mixin    string `scene:"mixin"`
	Count    int    `scene:"count,default=0,min=0"`
	Area     Vec3   `scene:"area,default=10 10 10"`
	Velocity Vec3   `scene:"velocity"`
	Seed     int    `scene:"seed,default=1"`
	Done     bool   `scene:"done"`
}

// Physics configures the physics system: it integrates velocity,
// acceleration and gravity into position with a fixed time step.
type Physics struct {
	// Step is the fixed time step in seconds; each Tick runs as many
	// steps as the accumulated time allows (at most MaxSteps).
	Step     float64 `scene:"step,default=0.016666666666666666,min=0.000001"`
	MaxSteps int     `scene:"maxSteps,default=8,min=1"`
}

// Builtins holds the components and systems RegisterBuiltins registered,
// with typed accessors for Go code.
type Builtins struct {
	Position, Rotation, Scale       ecs.Map[Vec3]
	Velocity, Acceleration, Gravity ecs.Map[Vec3]
	Visible                         ecs.Map[bool]
	Spin                            ecs.Map[Spin]
	Lifetime                        ecs.Map[Lifetime]
	Spawner                         ecs.Map[Spawner]
	Physics                         *System
}

func withDefault[T any](r *Registry, def T) (*Schema, error) {
	var zero T
	s, err := SchemaOf(typeOf(zero), r.types)
	if err != nil {
		return nil, err
	}
	s.Props[0].Default = def
	return s, nil
}

// RegisterBuiltins registers the built-in components and systems:
// position, rotation, scale (vec3; scale defaults to 1 1 1), visible
// (boolean, default true), velocity, acceleration and gravity (vec3, in
// units per second, per second squared, and a per-entity gravity force
// acting as an acceleration), spin, lifetime, spawner, and the physics
// system. There is no global registry: call it on every Registry that
// wants them.
func RegisterBuiltins(r *Registry) (*Builtins, error) {
	b := &Builtins{}
	vec := func(name string, def Vec3, deps ...string) (ecs.Map[Vec3], error) {
		s, err := withDefault(r, def)
		if err != nil {
			return ecs.Map[Vec3]{}, err
		}
		c, err := Register[Vec3](r, name, Definition[Vec3]{Schema: s, Dependencies: deps})
		if err != nil {
			return ecs.Map[Vec3]{}, err
		}
		return ecs.NewMap[Vec3](r.w, c.ID), nil
	}
	var err error
	if b.Position, err = vec("position", Vec3{}); err != nil {
		return nil, err
	}
	if b.Rotation, err = vec("rotation", Vec3{}); err != nil {
		return nil, err
	}
	if b.Scale, err = vec("scale", Vec3{1, 1, 1}); err != nil {
		return nil, err
	}
	vs, err := withDefault(r, true)
	if err != nil {
		return nil, err
	}
	vc, err := Register[bool](r, "visible", Definition[bool]{Schema: vs})
	if err != nil {
		return nil, err
	}
	b.Visible = ecs.NewMap[bool](r.w, vc.ID)
	if b.Velocity, err = vec("velocity", Vec3{}, "position"); err != nil {
		return nil, err
	}
	if b.Acceleration, err = vec("acceleration", Vec3{}, "velocity"); err != nil {
		return nil, err
	}
	if b.Gravity, err = vec("gravity", Vec3{0, -9.8, 0}, "velocity"); err != nil {
		return nil, err
	}
	rot := b.Rotation
	sc, err := Register[Spin](r, "spin", Definition[Spin]{
		Dependencies: []string{"rotation"},
		Tick: func(c *Context, s *Spin) {
			if rp := rot.Get(c.Entity); rp != nil {
				d := s.Speed * c.Delta
				rp.X = math.Mod(rp.X+s.Axis.X*d, 360)
				rp.Y = math.Mod(rp.Y+s.Axis.Y*d, 360)
				rp.Z = math.Mod(rp.Z+s.Axis.Z*d, 360)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	b.Spin = ecs.NewMap[Spin](r.w, sc.ID)
	lc, err := Register[Lifetime](r, "lifetime", Definition[Lifetime]{
		Tick: func(c *Context, l *Lifetime) {
			l.Age += c.Delta
			if l.Age >= l.Seconds {
				_ = c.World.Destroy(c.Entity)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	b.Lifetime = ecs.NewMap[Lifetime](r.w, lc.ID)
	spc, err := Register[Spawner](r, "spawner", Definition[Spawner]{
		Init: func(c *Context, s *Spawner) {
			if s.Done || s.Count == 0 {
				return
			}
			s.Done = true
			cfg, parent, id := *s, c.Entity, c.ID
			// Spawn when the World is unlocked, so that every spawned
			// entity's components are in place before the next one.
			c.World.Defer(func(w *ecs.World) {
				if err := r.spawn(parent, cfg); err != nil {
					r.addError(fmt.Errorf("registry: entity %s: %w", r.describe(parent), err))
					r.Emit(parent, "spawnerror", err, false)
				}
				_ = w.MarkChanged(parent, id)
			})
		},
	})
	if err != nil {
		return nil, err
	}
	b.Spawner = ecs.NewMap[Spawner](r.w, spc.ID)
	b.Physics, err = RegisterSystem[Physics](r, "physics", physicsSystem(r, b))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// spawnCheckEvery is how many entities a spawner creates between two
// looks at the Registry's context.
const spawnCheckEvery = 256

func (r *Registry) spawn(parent ecs.Entity, s Spawner) error {
	if err := r.cancelled(); err != nil {
		return fmt.Errorf("spawner: %w", err)
	}
	if _, ok := r.mixins[s.Mixin]; !ok && s.Mixin != "" {
		return fmt.Errorf("spawner: unknown mixin %q", s.Mixin)
	}
	lim := r.limits()
	if sc, ok := r.comps["spawner"]; ok {
		depth := 0
		for p, ok := r.w.Parent(parent); ok; p, ok = r.w.Parent(p) {
			if r.w.Has(p, sc.ID) {
				depth++
			}
		}
		if depth >= lim.MaxSpawnDepth {
			return fmt.Errorf("spawner: %w: spawners nested %d deep (Limits.MaxSpawnDepth is %d); does a spawned mixin spawn again?",
				ErrLimit, depth+1, lim.MaxSpawnDepth)
		}
	}
	if live := r.w.Len(); s.Count > lim.MaxEntities-live {
		return fmt.Errorf("spawner: %w: %d more entities with %d live would pass Limits.MaxEntities (%d)",
			ErrLimit, s.Count, live, lim.MaxEntities)
	}
	var mixins []string
	if s.Mixin != "" {
		mixins = []string{s.Mixin}
	}
	rng := rand.New(rand.NewPCG(uint64(s.Seed), 0x5ce7ec5^r.Seed))
	pos, _ := r.Component("position")
	vel, _ := r.Component("velocity")
	uni := func(half float64) float64 { return (rng.Float64()*2 - 1) * half }
	for i := 0; i < s.Count; i++ {
		if i%spawnCheckEvery == spawnCheckEvery-1 {
			if err := r.cancelled(); err != nil {
				return fmt.Errorf("spawner: stopped after %d of %d entities: %w", i, s.Count, err)
			}
		}
		p := Vec3{uni(s.Area.X / 2), uni(s.Area.Y / 2), uni(s.Area.Z / 2)}
		own := []NamedPatch{{Name: "position", Patch: Patch{{Index: 0, Value: p}}}}
		if pos == nil {
			own = nil
		}
		if s.Velocity != (Vec3{}) && vel != nil {
			v := Vec3{uni(s.Velocity.X), uni(s.Velocity.Y), uni(s.Velocity.Z)}
			own = append(own, NamedPatch{Name: "velocity", Patch: Patch{{Index: 0, Value: v}}})
		}
		if _, err := r.Instantiate(parent, mixins, own); err != nil {
			return err
		}
	}
	return nil
}

// describe names e for messages: its scene id, or its handle.
func (r *Registry) describe(e ecs.Entity) string {
	if id := r.EntityID(e); id != "" {
		return "#" + id
	}
	return e.String()
}

// physicsSystem integrates, per storage table of entities with position
// and velocity: velocity += (acceleration + gravity) * step, then
// position += velocity * step (semi-implicit Euler), at a fixed step.
func physicsSystem(r *Registry, b *Builtins) SystemDefinition[Physics] {
	var f *ecs.Filter
	var acc float64
	posID, velID := b.Position.ID(), b.Velocity.ID()
	accID, gravID := b.Acceleration.ID(), b.Gravity.ID()
	return SystemDefinition[Physics]{
		Init: func(s *SystemContext, cfg *Physics) {
			f = ecs.NewFilter(r.w, ecs.With(posID, velID), ecs.Without(r.pausedTag))
		},
		Tick: func(s *SystemContext, cfg *Physics) {
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
// velocity) by one step of dt seconds. It walks the packed columns of each
// table; acceleration and gravity are applied where the table has them.
func Integrate(f *ecs.Filter, pos, vel, acc, grav ecs.ID, dt float64) {
	q := f.Query()
	for q.NextTable() {
		ps := ecs.Column[Vec3](&q, pos)
		vs := ecs.Column[Vec3](&q, vel)
		vs = vs[:len(ps)]
		if as := ecs.Column[Vec3](&q, acc); as != nil {
			as = as[:len(vs)]
			for i := range vs {
				vs[i].X += as[i].X * dt
				vs[i].Y += as[i].Y * dt
				vs[i].Z += as[i].Z * dt
			}
		}
		if gs := ecs.Column[Vec3](&q, grav); gs != nil {
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
