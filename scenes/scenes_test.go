package scenes_test

import (
	"io/fs"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

func newRegistry(tb testing.TB) (*registry.Registry, *components.Builtins) {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	if err != nil {
		tb.Fatal(err)
	}
	return reg, b
}

// TestEverySceneLoads loads every embedded scene and runs it briefly.
func TestEverySceneLoads(t *testing.T) {
	names, err := fs.Glob(scenes.FS, "*.*ml")
	if err != nil || len(names) < 4 {
		t.Fatalf("scenes: %v %v", names, err)
	}
	for _, name := range names {
		reg, _ := newRegistry(t)
		if _, err := loader.Load(reg, scenes.FS, name, loader.Options{}); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if reg.World().Len() == 0 {
			t.Errorf("%s: no entities", name)
		}
		for i := 0; i < 10; i++ {
			reg.Tick(1.0 / 60)
		}
	}
}

// TestDefaultSceneFalls checks the default scene does what it says: 10,000
// cubes that fall under gravity.
func TestDefaultSceneFalls(t *testing.T) {
	reg, b := newRegistry(t)
	if _, err := loader.Load(reg, scenes.FS, scenes.Default, loader.Options{}); err != nil {
		t.Fatal(err)
	}
	cubes, err := reg.QueryAll("[cube]")
	if err != nil || len(cubes) != 10000 {
		t.Fatalf("cubes %d %v", len(cubes), err)
	}
	before := 0.0
	for _, e := range cubes {
		before += b.Position.Get(e).Y
	}
	for i := 0; i < 60; i++ {
		reg.Tick(1.0 / 60)
	}
	after := 0.0
	for _, e := range cubes {
		after += b.Position.Get(e).Y
	}
	// One second under 9.8 m/s² lowers each cube by about 4.9 m on
	// average (initial velocities are symmetric around zero).
	if drop := (before - after) / 10000; drop < 4 || drop > 6 {
		t.Fatalf("average drop %.2f m, want about 4.9", drop)
	}
}

// BenchmarkCubesPhysics measures the default scene's physics per entity
// per tick against a hand-written loop over the same data (three []Vec3
// slices: position, velocity, gravity) in the same run.
func BenchmarkCubesPhysics(b *testing.B) {
	reg, bi := newRegistry(b)
	if _, err := loader.Load(reg, scenes.FS, scenes.Default, loader.Options{}); err != nil {
		b.Fatal(err)
	}
	n := reg.World().Len()
	cubes, _ := reg.QueryAll("[cube]")
	ps := make([]registry.Vec3, len(cubes))
	vs := make([]registry.Vec3, len(cubes))
	gs := make([]registry.Vec3, len(cubes))
	for i, e := range cubes {
		ps[i], vs[i], gs[i] = *bi.Position.Get(e), *bi.Velocity.Get(e), *bi.Gravity.Get(e)
	}
	const dt = 1.0 / 60
	b.Run("scene", func(b *testing.B) {
		for b.Loop() {
			reg.Tick(dt)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity/tick")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
	})
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			handStep(ps, vs, gs, dt)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/entity/tick")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ticks/s")
	})
}

//go:noinline
func handStep(ps, vs, gs []registry.Vec3, dt float64) {
	vs = vs[:len(ps)]
	gs = gs[:len(ps)]
	for i := range vs {
		vs[i].X += gs[i].X * dt
		vs[i].Y += gs[i].Y * dt
		vs[i].Z += gs[i].Z * dt
	}
	for i := range ps {
		ps[i].X += vs[i].X * dt
		ps[i].Y += vs[i].Y * dt
		ps[i].Z += vs[i].Z * dt
	}
}
