package schedule_test

import (
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
	"github.com/scenecs/scenecs/schedule"
)

// loadScene loads an embedded scene into a new Registry with the
// built-in components, and runs its first ticks (the load's spawns).
func loadScene(b *testing.B, name string) *registry.Registry {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		b.Fatal(err)
	}
	if _, err := loader.Load(reg, scenes.FS, name, loader.Options{}); err != nil {
		b.Fatal(err)
	}
	for range 10 {
		if err := reg.Tick(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
	return reg
}

// BenchmarkScheduleScenes: whole ticks of the default scene (cubes.yaml)
// and asteroids.yaml: the loop before the schedule (fixed-loop: the same
// nodes in the same order, run directly) against the schedule on 1
// and 2 workers. Each case ticks its own copy of the scene from the same
// start, the three in turn within each iteration, each timed, so that
// the machine's other load weighs on all three alike.
func BenchmarkScheduleScenes(b *testing.B) {
	for _, scene := range []string{scenes.Default, "asteroids.yaml"} {
		b.Run(scene, func(b *testing.B) {
			fixed, one, two := loadScene(b, scene), loadScene(b, scene), loadScene(b, scene)
			one.Schedule().SetWorkers(1)
			two.Schedule().SetWorkers(2)
			regs := []*registry.Registry{fixed, one, two}
			total := make([]time.Duration, len(regs))
			for it := 0; b.Loop(); it++ {
				for k := range regs {
					i := (it + k) % len(regs) // each goes first in turn
					reg := regs[i]
					t0 := time.Now()
					var err error
					if i == 0 {
						err = schedule.FixedLoopTick(reg.Schedule(), 1.0/60)
					} else {
						err = reg.Tick(1.0 / 60)
					}
					total[i] += time.Since(t0)
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			for i, name := range []string{"fixed-loop", "workers=1", "workers=2"} {
				b.ReportMetric(float64(total[i].Nanoseconds())/1e3/float64(b.N), "µs/"+name)
			}
			b.ReportMetric(float64(total[1])/float64(total[0]), "workers=1/fixed-loop")
			b.ReportMetric(float64(total[2])/float64(total[1]), "workers=2/workers=1")
		})
	}
}
