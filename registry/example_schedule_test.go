package registry_test

import (
	"fmt"
	"os"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Wind is a component: a push on an entity's velocity.
type Wind struct {
	Force registry.Vec3 `scene:"force"`
}

// Example_schedule places a system and a component tick in the schedule
// beside the built-ins: a steering system that reads input in the input
// phase, a wind that pushes velocities in every fixed physics step (a
// component tick: after the physics system, A-Frame's order), split into
// chunks that run on the workers, and a score system of unknown access
// (exclusive) that runs after the behaviour system, twice a second. Then
// it prints the schedule as scene-run schedule does. docs/schedule.md
// walks through it.
func Example_schedule() {
	r := registry.New(ecs.NewWorld())
	b, err := components.Register(r)
	if err != nil {
		panic(err)
	}
	_, err = registry.RegisterSystem(r, "steer", registry.SystemDefinition[struct{}]{
		Phase:  registry.PhaseInput,
		Access: &registry.Access{Writes: []string{"velocity"}},
		Tick:   func(s *registry.SystemContext, _ *struct{}) { /* read a device, set velocities */ },
	})
	if err != nil {
		panic(err)
	}
	_, err = registry.Register(r, "wind", registry.Definition[Wind]{
		Phase:     registry.PhasePhysics,
		Access:    &registry.Access{Writes: []string{"velocity"}},
		ChunkSize: 1024,
		Tick: func(c *registry.Context, w *Wind) {
			v := b.Velocity.Get(c.Entity)
			v.X += w.Force.X * c.Delta
			v.Y += w.Force.Y * c.Delta
			v.Z += w.Force.Z * c.Delta
		},
	})
	if err != nil {
		panic(err)
	}
	_, err = registry.RegisterSystem(r, "score", registry.SystemDefinition[struct{}]{
		Interval: 0.5,
		After:    []string{"behaviour"},
		Tick:     func(s *registry.SystemContext, _ *struct{}) { /* count, print */ },
	})
	if err != nil {
		panic(err)
	}
	r.Schedule().SetWorkers(2)
	if err := r.Schedule().WriteTable(os.Stdout, 0); err != nil {
		panic(err)
	}

	// Half a second at 30 ticks per second: 30 physics steps of 1/60 s.
	e := r.World().NewEntity()
	if err := r.Set(e, "velocity", "0 0 0"); err != nil {
		panic(err)
	}
	if err := r.Set(e, "wind", "force: 0 0 6"); err != nil {
		panic(err)
	}
	for range 15 {
		if err := r.Tick(1.0 / 30); err != nil {
			panic(err)
		}
	}
	fmt.Printf("\nvelocity z after 0.5 s: %.3f\n", b.Velocity.Get(e).Z)
	// Output:
	// workers: 2
	// PHASE        RUNS
	// input        once per tick
	// pre-update   once per tick
	// physics      every fixed step of 0.01667 s (60 Hz), at most 8 per tick
	// update       once per tick
	// post-update  once per tick
	//
	// #  PHASE        BATCH  SYSTEM     KIND            MODE                                READS                                    WRITES                   BEFORE  AFTER
	// 0  input        0      steer      system tick     parallel                            -                                        velocity                 -       -
	// 1  physics      0      physics    system tick     exclusive                           acceleration,gravity,ground,scale,world  position,velocity,world  -       -
	// 2  physics      1      wind       component tick  parallel, chunks of 1024            -                                        velocity,wind            -       -
	// 3  update       0      behaviour  system tick     exclusive                           -                                        *                        -       -
	// 4  update       1      score      system tick     exclusive (undeclared), every 0.5s  -                                        -                        -       behaviour
	// 5  update       2      spin       component tick  parallel                            -                                        rotation,spin            -       -
	// 6  update       2      lifetime   component tick  parallel                            -                                        lifetime                 -       -
	// 7  update       2      spawner    component tick  parallel                            -                                        spawner                  -       -
	// 8  post-update  0      transform  system tock     exclusive                           position,rotation,scale                  world                    -       -
	//
	// velocity z after 0.5 s: 3.000
}
