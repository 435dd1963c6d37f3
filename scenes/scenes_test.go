package scenes_test

import (
	"fmt"
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

// TestDefaultSceneFalls checks the default scene does what it says:
// 10,000 cubes that fall under gravity (those still in the air after a
// second fell about 4.9 m on average).
func TestDefaultSceneFalls(t *testing.T) {
	reg, b := newRegistry(t)
	if _, err := loader.Load(reg, scenes.FS, scenes.Default, loader.Options{}); err != nil {
		t.Fatal(err)
	}
	cubes, err := reg.QueryAll("[cube]")
	if err != nil || len(cubes) != 10000 {
		t.Fatalf("cubes %d %v", len(cubes), err)
	}
	before := make([]float64, len(cubes))
	for i, e := range cubes {
		before[i] = b.Position.Get(e).Y
	}
	for i := 0; i < 60; i++ {
		reg.Tick(1.0 / 60)
	}
	drop, n := 0.0, 0
	for i, e := range cubes {
		if before[i] > 0 { // 20 m above the ground: still falling
			drop += before[i] - b.Position.Get(e).Y
			n++
		}
	}
	// One second under 9.8 m/s² lowers each cube by about 4.9 m on
	// average (initial velocities are symmetric around zero).
	if drop /= float64(n); n < 4000 || drop < 4 || drop > 6 {
		t.Fatalf("average drop %.2f m over %d cubes, want about 4.9", drop, n)
	}
}

// groundTop returns the height of the default scene's ground's top face.
func groundTop(t *testing.T, reg *registry.Registry, b *components.Builtins) float64 {
	t.Helper()
	g, ok := reg.EntityByID("ground")
	if !ok {
		t.Fatal("no #ground")
	}
	w := b.World.Get(g)
	return w.Position.Y + w.Scale.Y/2
}

// TestDefaultSceneLandsAndLasts: after 600 ticks no cube is below the
// ground (each cube's bottom, half its scale below its centre, is on or
// above the ground's top face), most have come to rest and sleep, and
// the World says the same through selectors and world transforms. Over
// 6,000 ticks (100 s, past the cubes' 30 to 60 s lifetimes) cubes expire
// and are replaced: the entity count never passes 10,003 (10,000 cubes,
// the camera, the ground and the spawner) and stays above 9,000 once
// the first cubes expire, and cubes keep landing.
func TestDefaultSceneLandsAndLasts(t *testing.T) {
	for _, name := range []string{"cubes.yaml", "cubes.xml"} {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "cubes.xml" {
				t.Skip("cubes.yaml is the same scene")
			}
			reg, b := newRegistry(t)
			if _, err := loader.Load(reg, scenes.FS, name, loader.Options{}); err != nil {
				t.Fatal(err)
			}
			w := reg.World()
			top := groundTop(t, reg, b)
			below := func(tick int) {
				t.Helper()
				cubes, _ := reg.QueryAll("[cube]")
				for _, e := range cubes {
					p, s := b.World.Get(e).Position, b.Scale.Get(e)
					if p.Y-s.Y/2 < top-1e-9 {
						t.Fatalf("tick %d: cube %v at %v, below the ground's top %v", tick, e, p, top)
					}
				}
			}
			const bound = 10003
			most, least, expired := 0, bound, false
			first := map[ecs.Entity]bool{}
			cubes, _ := reg.QueryAll("[cube]")
			for _, e := range cubes {
				first[e] = true
			}
			for tick := 1; tick <= 6000; tick++ {
				if err := reg.Tick(1.0 / 60); err != nil {
					t.Fatal(err)
				}
				n := w.Len()
				most = max(most, n)
				if expired {
					least = min(least, n)
				}
				if tick == 600 {
					below(tick)
					asleep, _ := reg.Compile("[cube][sleeping]")
					if n := asleep.Count(); n < 9000 {
						t.Errorf("tick 600: %d cubes at rest, want most of them", n)
					}
					if n, _ := reg.QueryAll(fmt.Sprintf("[cube][world.position.y<%g]", top)); len(n) != 0 {
						t.Errorf("tick 600: [world.position.y<%g] matches %d cubes", top, len(n))
					}
				}
				if tick%600 == 0 && tick > 600 {
					below(tick)
				}
				if !expired && tick > 1 && n < bound {
					expired = true
				}
			}
			if most > bound || least < 9000 || !expired {
				t.Errorf("entities between %d and %d over 6,000 ticks (expired: %v), want at most %d and at least 9,000", least, most, expired, bound)
			}
			// Most of the first cubes are gone, replaced by new ones.
			cubes, _ = reg.QueryAll("[cube]")
			old := 0
			for _, e := range cubes {
				if first[e] {
					old++
				}
			}
			if old > 1000 {
				t.Errorf("%d of the first cubes still alive after 100 s (lifetimes 30 to 60 s)", old)
			}
		})
	}
}

// BenchmarkCubesPhysics measures a tick of the default scene per entity
// (physics with landings and sleeping, lifetimes, spawning, world
// transforms: the whole tick, over as many ticks as the benchmark runs,
// so mostly cubes at rest, some expiring and falling anew) against a
// hand-written loop over the same data (three []Vec3 slices: position,
// velocity, gravity: the physics of falling cubes alone) in the same run.
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

// TestBehaviourScene checks that behaviour.yaml does what it says: the
// door opens when its timer fires and turns green when open; the lamp
// blinks; the countdown counts down and drops a wave of three rocks at
// 0, every 3 s; the rocks flash when they land, or when sent "hit", and
// last six seconds.
func TestBehaviourScene(t *testing.T) {
	reg, _ := newRegistry(t)
	sc, err := loader.Load(reg, scenes.FS, "behaviour.yaml", loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ent := func(id string) ecs.Entity { e, _ := sc.Entity(id); return e }
	attr := func(id, comp string) string { s, _ := reg.Attr(ent(id), comp); return s }
	tick := 0
	run := func(to int) {
		for ; tick < to; tick++ {
			if err := reg.Tick(1.0 / 60); err != nil {
				t.Fatalf("tick %d: %v", tick+1, err)
			}
		}
	}
	count := func(sel string) int { es, _ := reg.QueryAll(sel); return len(es) }
	run(20)
	if attr("lamp", "color") != "#ffee88" || attr("door", "position") != "-6 1.5 -4" || attr("countdown", "countdown") != "3" {
		t.Errorf("at 1/3 s: lamp %s, door %s, countdown %s", attr("lamp", "color"), attr("door", "position"), attr("countdown", "countdown"))
	}
	run(90)
	if attr("lamp", "color") != "#30302a" || attr("countdown", "countdown") != "2" || attr("countdown", "color") != "#ffb224" {
		t.Errorf("at 1.5 s: lamp %s, countdown %s (%s)", attr("lamp", "color"), attr("countdown", "countdown"), attr("countdown", "color"))
	}
	run(179)
	if count(".rock") != 0 {
		t.Errorf("rocks before the countdown reached 0: %d", count(".rock"))
	}
	run(181)
	if count(".rock") != 3 || attr("countdown", "countdown") != "3" {
		t.Errorf("at 3 s: %d rocks, countdown %s", count(".rock"), attr("countdown", "countdown"))
	}
	if y := attr("door", "position"); y == "-6 1.5 -4" || y == "-6 4.5 -4" {
		t.Errorf("at 3 s the door is not opening: %s", y)
	}
	run(240)
	if attr("door", "position") != "-6 4.5 -4" || attr("door", "color") != "#7ddc8c" {
		t.Errorf("at 4 s the door is not open and green: %s %s", attr("door", "position"), attr("door", "color"))
	}
	run(262)
	flashing := 0
	for _, e := range mustQuery(t, reg, ".rock") {
		if c, _ := reg.Attr(e, "color"); c != "#888888" {
			flashing++
		}
	}
	if flashing < 2 {
		t.Errorf("%d rocks flash after landing", flashing)
	}
	run(360)
	if count(".rock") != 6 {
		t.Errorf("at 6 s: %d rocks, want two waves", count(".rock"))
	}
	rocks := mustQuery(t, reg, ".rock")
	for _, e := range rocks {
		reg.Events().Emit(e, "hit", nil, false)
	}
	run(361)
	for _, e := range rocks {
		// One tick into the flash from #ff4040 to #888888.
		if c, _ := reg.Attr(e, "color"); c < "#f0" || c > "#ff5" {
			t.Errorf("a rock sent hit is %s, not red", c)
		}
	}
	run(560)
	if n := count(".rock"); n != 6 {
		t.Errorf("at 9.33 s: %d rocks, want 6 (the first wave gone after 6 s, the third come)", n)
	}
}

func mustQuery(t *testing.T, reg *registry.Registry, sel string) []ecs.Entity {
	t.Helper()
	es, err := reg.QueryAll(sel)
	if err != nil {
		t.Fatal(err)
	}
	return es
}
