package registry_test

import (
	"fmt"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
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
// hooks in the same order, called directly) against the schedule on 1
// and 2 workers, in the same run. Each case runs its own copy of the
// scene from the same start.
func BenchmarkScheduleScenes(b *testing.B) {
	for _, scene := range []string{scenes.Default, "asteroids.yaml"} {
		for _, mode := range []string{"fixed-loop", "workers=1", "workers=2"} {
			b.Run(fmt.Sprintf("%s/%s", scene, mode), func(b *testing.B) {
				reg := loadScene(b, scene)
				tick := reg.Tick
				switch mode {
				case "fixed-loop":
					tick = reg.FixedLoopTick
				case "workers=1":
					reg.Schedule().SetWorkers(1)
				default:
					reg.Schedule().SetWorkers(2)
				}
				for b.Loop() {
					if err := tick(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e3, "µs/tick")
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
			})
		}
	}
}
