package components

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Spawner creates entities from a mixin, or whole instances of a prefab
// (each with its subtree, see [registry.Prefabs.InstantiateOver]:
// the mixin, if any, is then written over the prefab's root, as on an
// instance in a scene), as its children, in its own space: their positions, drawn uniformly from a box of size Area centred
// on the spawner's origin, are relative to the spawner, so they appear
// around it wherever it is (and move and turn with it). Velocities are
// drawn from [-Velocity, +Velocity] per axis (leaving the mixin's when
// Velocity is zero), lifetimes in seconds from [Lifetime.X, Lifetime.Y]
// (leaving the mixin's when both are zero), and colours from Colors
// (leaving the mixin's when empty). The draws come from a random stream
// seeded by Seed (mixed with [registry.Registry].Seed), so the same
// scene spawns the same entities.
//
// When initialised it spawns Count entities and sets Done, so that a
// dumped scene loaded back does not spawn them twice. Then, if Rate is
// not zero, it goes on spawning Rate entities per second of scene time,
// as long as it has fewer than Max children (Max 0: no bound but the
// Registry's limits), so that with a lifetime on the spawned entities the
// number alive stays bounded (an instance of a prefab counts as one
// child); it waits, without an error, while spawning would pass
// Limits.MaxEntities (counting every entity of a prefab's instance).
//
// Spawning is bounded by the Registry's [registry.Limits] and stops when
// its context is done (see [registry.Registry.SetContext]). A failure is a
// [registry.SpawnError], returned by [registry.Registry.TakeErrors] and
// the next Tick, and a spawnerror event on the spawner's entity.
type Spawner struct {
	Mixin    string        `scene:"mixin"`
	Prefab   string        `scene:"prefab"`
	Count    int           `scene:"count,default=0,min=0"`
	Area     registry.Vec3 `scene:"area,default=10 10 10"`
	Velocity registry.Vec3 `scene:"velocity"`
	Seed     int           `scene:"seed,default=1"`
	Done     bool          `scene:"done"`
	Rate     float64       `scene:"rate,default=0,min=0"`
	Max      int           `scene:"max,default=0,min=0"`
	Lifetime registry.Vec2 `scene:"lifetime"`
	Colors   []string      `scene:"colors"`
}

// spawnState is a spawner's running state: its random stream, the
// entities owed by its rate, and its colours parsed.
type spawnState struct {
	rng    *rand.Rand
	src    *rand.PCG // rng's source, whose state SpawnerState saves
	owed   float64
	colors []registry.Color
	bad    error // a colour that does not parse
}

// registerSpawner registers spawner.
func registerSpawner(reg *registry.Registry, b *Builtins) error {
	b.spawnStates = map[ecs.Entity]*spawnState{}
	states := b.spawnStates
	t := b.Transforms
	setColors := func(st *spawnState, s *Spawner) {
		st.colors, st.bad = st.colors[:0], nil
		for _, text := range s.Colors {
			c, err := schema.ParseColor(text)
			if err != nil {
				st.bad = fmt.Errorf("spawner: colors: %w", err)
				return
			}
			st.colors = append(st.colors, c)
		}
	}
	c, err := registry.Register(reg, "spawner", registry.Definition[Spawner]{
		Init: func(c *registry.Context, s *Spawner) {
			src := rand.NewPCG(uint64(s.Seed), 0x5ce7ec5^reg.Seed)
			st := &spawnState{rng: rand.New(src), src: src}
			setColors(st, s)
			states[c.Entity] = st
			if s.Done || s.Count == 0 {
				return
			}
			s.Done = true
			cfg, parent, id := *s, c.Entity, c.ID
			// Spawn when the World is unlocked, so that every spawned
			// entity's components are in place before the next one.
			c.World.Defer(func(w *ecs.World) {
				runSpawn(reg, parent, id, cfg, cfg.Count, st)
				_ = w.MarkChanged(parent, id)
			})
		},
		Update: func(c *registry.Context, s, old *Spawner) {
			if st := states[c.Entity]; st != nil {
				setColors(st, s)
			}
		},
		Remove: func(c *registry.Context, s *Spawner) { delete(states, c.Entity) },
		// The tick reads its own state (each spawner's in states) and
		// spawns through its Commands.
		Access: &registry.Access{},
		Tick: func(c *registry.Context, s *Spawner) {
			st := states[c.Entity]
			if s.Rate <= 0 || st == nil {
				return
			}
			st.owed += s.Rate * c.Delta
			n := int(st.owed)
			if n <= 0 {
				return
			}
			st.owed -= float64(n)
			if s.Max > 0 {
				room := s.Max - t.Children(c.Entity)
				if room <= 0 {
					st.owed = 0 // full: no burst when room appears
					return
				}
				n = min(n, room)
			}
			// Waiting for room under Limits.MaxEntities is not an error.
			size := 1
			if s.Prefab != "" {
				size = max(1, reg.Prefabs().Size(s.Prefab))
			}
			if room := (reg.Limits.WithDefaults().MaxEntities - c.World.Len()) / size; n > room {
				if n = room; n <= 0 {
					return
				}
			}
			cfg, parent, id := *s, c.Entity, c.ID
			c.Commands().Defer(func(*ecs.World) { runSpawn(reg, parent, id, cfg, n, st) })
		},
	})
	if err != nil {
		return err
	}
	b.Spawner = ecs.NewMap[Spawner](reg.World(), c.ID)
	return nil
}

// runSpawn spawns n entities for the spawner s of entity parent and
// reports a failure.
func runSpawn(reg *registry.Registry, parent ecs.Entity, spawnerID ecs.ID, s Spawner, n int, st *spawnState) {
	if !reg.World().Alive(parent) {
		return
	}
	if err := spawn(reg, parent, spawnerID, s, n, st); err != nil {
		reg.ReportError(&registry.SpawnError{Entity: parent, EntityID: reg.EntityID(parent), Err: err})
		reg.Events().Emit(parent, "spawnerror", err, false)
	}
}

// spawnCheckEvery is how many entities a spawner creates between two
// looks at the Registry's context.
const spawnCheckEvery = 256

// spawn creates n entities for the spawner s of entity parent;
// spawnerID is the spawner component's ID, by which nested spawners are
// counted.
func spawn(reg *registry.Registry, parent ecs.Entity, spawnerID ecs.ID, s Spawner, n int, st *spawnState) error {
	if err := checkSpawn(reg, parent, spawnerID, s, n); err != nil {
		return err
	}
	if st.bad != nil {
		return st.bad
	}
	var mixins []string
	if s.Mixin != "" {
		mixins = []string{s.Mixin}
	}
	rng := st.rng
	_, hasPos := reg.Component("position")
	_, hasVel := reg.Component("velocity")
	life, hasLife := reg.Component("lifetime")
	lifeSeconds := -1
	if hasLife {
		lifeSeconds, _ = life.Schema.Lookup("seconds")
	}
	_, hasColor := reg.Component("color")
	uni := func(half float64) float64 { return (rng.Float64()*2 - 1) * half }
	// One set of patches, reused: Instantiate copies what it keeps.
	var pvs [4]registry.PropValue
	var ownBuf [4]registry.NamedPatch
	for i := 0; i < n; i++ {
		if i%spawnCheckEvery == spawnCheckEvery-1 {
			if err := reg.ContextErr(); err != nil {
				return fmt.Errorf("spawner: stopped after %d of %d entities: %w", i, n, err)
			}
		}
		p := registry.Vec3{X: uni(s.Area.X / 2), Y: uni(s.Area.Y / 2), Z: uni(s.Area.Z / 2)}
		own := ownBuf[:0]
		if hasPos {
			pvs[0] = registry.PropValue{Index: 0, Value: p}
			own = append(own, registry.NamedPatch{Name: "position", Patch: pvs[0:1:1]})
		}
		if s.Velocity != (registry.Vec3{}) && hasVel {
			v := registry.Vec3{X: uni(s.Velocity.X), Y: uni(s.Velocity.Y), Z: uni(s.Velocity.Z)}
			pvs[1] = registry.PropValue{Index: 0, Value: v}
			own = append(own, registry.NamedPatch{Name: "velocity", Patch: pvs[1:2:2]})
		}
		if s.Lifetime != (registry.Vec2{}) && lifeSeconds >= 0 {
			lo, hi := min(s.Lifetime.X, s.Lifetime.Y), max(s.Lifetime.X, s.Lifetime.Y)
			sec := max(0, lo+rng.Float64()*(hi-lo))
			pvs[2] = registry.PropValue{Index: lifeSeconds, Value: sec}
			own = append(own, registry.NamedPatch{Name: "lifetime", Patch: pvs[2:3:3]})
		}
		if len(st.colors) > 0 && hasColor {
			pvs[3] = registry.PropValue{Index: 0, Value: st.colors[rng.IntN(len(st.colors))]}
			own = append(own, registry.NamedPatch{Name: "color", Patch: pvs[3:4:4]})
		}
		var err error
		if s.Prefab != "" {
			_, err = reg.Prefabs().InstantiateOver(parent, s.Prefab, "", mixins, own)
		} else {
			_, err = reg.Mixins().Instantiate(parent, mixins, own)
		}
		if err != nil {
			if cerr := reg.ContextErr(); cerr != nil && errors.Is(err, cerr) {
				// Instantiate looks at the context before each instance.
				return fmt.Errorf("spawner: stopped after %d of %d entities: %w", i, n, cerr)
			}
			return err
		}
	}
	return nil
}

// checkSpawn refuses a spawn of n entities (n instances of a prefab)
// before it starts: when the Registry's context is done, the mixin or
// prefab is unknown, or a limit would be passed.
func checkSpawn(reg *registry.Registry, parent ecs.Entity, spawnerID ecs.ID, s Spawner, n int) error {
	if err := reg.ContextErr(); err != nil {
		return fmt.Errorf("spawner: %w", err)
	}
	if _, ok := reg.Mixins().Get(s.Mixin); !ok && s.Mixin != "" {
		return fmt.Errorf("spawner: unknown mixin %q", s.Mixin)
	}
	size := 1
	if s.Prefab != "" {
		if _, ok := reg.Prefabs().Get(s.Prefab); !ok {
			return fmt.Errorf("spawner: unknown prefab %q%s", s.Prefab, didyoumean.Hint(s.Prefab, reg.Prefabs().Names()))
		}
		size = reg.Prefabs().Size(s.Prefab)
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
	if live := w.Len(); n > (lim.MaxEntities-live)/size {
		return fmt.Errorf("spawner: %w: %d more entities with %d live would pass Limits.MaxEntities (%d)",
			registry.ErrLimit, spawnTotal(n, size), live, lim.MaxEntities)
	}
	return nil
}

// spawnTotal is the number of entities n spawns of size entities each
// make, saturated at math.MaxInt.
func spawnTotal(n, size int) int {
	if size > 0 && n > math.MaxInt/size {
		return math.MaxInt
	}
	return n * size
}
