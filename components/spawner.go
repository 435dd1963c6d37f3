package components

import (
	"fmt"
	"math/rand/v2"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Spawner creates Count entities from a mixin when it is initialised, as
// its children, at positions drawn uniformly from a box of size Area
// centred on the origin of its parent space, with velocities drawn from
// [-Velocity, +Velocity] per axis. The draw is seeded by Seed (mixed with
// [registry.Registry].Seed), so the same scene spawns the same entities.
// Done is set once it has spawned, so that a dumped scene loaded back
// does not spawn twice.
//
// Spawning is bounded by the Registry's [registry.Limits] and stops when
// its context is done (see [registry.Registry.SetContext]). A failure is a
// [registry.SpawnError], returned by [registry.Registry.TakeErrors] and
// the next Tick, and a spawnerror event on the spawner's entity.
type Spawner struct {
	Mixin    string        `scene:"mixin"`
	Count    int           `scene:"count,default=0,min=0"`
	Area     registry.Vec3 `scene:"area,default=10 10 10"`
	Velocity registry.Vec3 `scene:"velocity"`
	Seed     int           `scene:"seed,default=1"`
	Done     bool          `scene:"done"`
}

// registerSpawner registers spawner.
func registerSpawner(reg *registry.Registry, b *Builtins) error {
	c, err := registry.Register(reg, "spawner", registry.Definition[Spawner]{
		Init: func(c *registry.Context, s *Spawner) {
			if s.Done || s.Count == 0 {
				return
			}
			s.Done = true
			cfg, parent, id := *s, c.Entity, c.ID
			// Spawn when the World is unlocked, so that every spawned
			// entity's components are in place before the next one.
			c.World.Defer(func(w *ecs.World) {
				if err := spawn(reg, parent, id, cfg); err != nil {
					reg.ReportError(&registry.SpawnError{Entity: parent, EntityID: reg.EntityID(parent), Err: err})
					reg.Emit(parent, "spawnerror", err, false)
				}
				_ = w.MarkChanged(parent, id)
			})
		},
	})
	if err != nil {
		return err
	}
	b.Spawner = ecs.NewMap[Spawner](reg.World(), c.ID)
	return nil
}

// spawnCheckEvery is how many entities a spawner creates between two
// looks at the Registry's context.
const spawnCheckEvery = 256

// spawn runs the spawner s of entity parent; spawnerID is the spawner
// component's ID, by which nested spawners are counted.
func spawn(reg *registry.Registry, parent ecs.Entity, spawnerID ecs.ID, s Spawner) error {
	if err := checkSpawn(reg, parent, spawnerID, s); err != nil {
		return err
	}
	var mixins []string
	if s.Mixin != "" {
		mixins = []string{s.Mixin}
	}
	rng := rand.New(rand.NewPCG(uint64(s.Seed), 0x5ce7ec5^reg.Seed))
	_, hasPos := reg.Component("position")
	_, hasVel := reg.Component("velocity")
	uni := func(half float64) float64 { return (rng.Float64()*2 - 1) * half }
	for i := 0; i < s.Count; i++ {
		if i%spawnCheckEvery == spawnCheckEvery-1 {
			if err := reg.ContextErr(); err != nil {
				return fmt.Errorf("spawner: stopped after %d of %d entities: %w", i, s.Count, err)
			}
		}
		p := registry.Vec3{X: uni(s.Area.X / 2), Y: uni(s.Area.Y / 2), Z: uni(s.Area.Z / 2)}
		var own []registry.NamedPatch
		if hasPos {
			own = append(own, registry.NamedPatch{Name: "position", Patch: registry.Patch{{Index: 0, Value: p}}})
		}
		if s.Velocity != (registry.Vec3{}) && hasVel {
			v := registry.Vec3{X: uni(s.Velocity.X), Y: uni(s.Velocity.Y), Z: uni(s.Velocity.Z)}
			own = append(own, registry.NamedPatch{Name: "velocity", Patch: registry.Patch{{Index: 0, Value: v}}})
		}
		if _, err := reg.Instantiate(parent, mixins, own); err != nil {
			return err
		}
	}
	return nil
}

// checkSpawn refuses a spawn before it starts: when the Registry's
// context is done, the mixin is unknown, or a limit would be passed.
func checkSpawn(reg *registry.Registry, parent ecs.Entity, spawnerID ecs.ID, s Spawner) error {
	if err := reg.ContextErr(); err != nil {
		return fmt.Errorf("spawner: %w", err)
	}
	if _, ok := reg.Mixin(s.Mixin); !ok && s.Mixin != "" {
		return fmt.Errorf("spawner: unknown mixin %q", s.Mixin)
	}
	lim := reg.Limits.WithDefaults()
	w := reg.World()
	depth := 0
	for p, ok := w.Parent(parent); ok; p, ok = w.Parent(p) {
		if w.Has(p, spawnerID) {
			depth++
		}
	}
	if depth >= lim.MaxSpawnDepth {
		return fmt.Errorf("spawner: %w: spawners nested %d deep (Limits.MaxSpawnDepth is %d); does a spawned mixin spawn again?",
			registry.ErrLimit, depth+1, lim.MaxSpawnDepth)
	}
	if live := w.Len(); s.Count > lim.MaxEntities-live {
		return fmt.Errorf("spawner: %w: %d more entities with %d live would pass Limits.MaxEntities (%d)",
			registry.ErrLimit, s.Count, live, lim.MaxEntities)
	}
	return nil
}
