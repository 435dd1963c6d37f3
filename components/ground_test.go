package components_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

const dt = 1.0 / 60

// body makes an entity with position, velocity, gravity and scale under
// parent (zero: a root).
func body(t *testing.T, r *registry.Registry, parent ecs.Entity, pos, vel, scale string) ecs.Entity {
	t.Helper()
	e := r.World().NewEntity()
	if !parent.IsZero() {
		ok(t, r.World().SetParent(e, parent))
	}
	ok(t, r.Set(e, "position", pos))
	ok(t, r.Set(e, "velocity", vel))
	ok(t, r.Set(e, "gravity", ""))
	ok(t, r.Set(e, "scale", scale))
	return e
}

// TestGroundBouncesAndRests: a body dropped on a flat ground never ends a
// tick below it, bounces with the ground's restitution, comes to rest on
// it (position exactly on the top face, velocity zero) and sleeps; a
// write wakes it; moving the ground wakes every sleeper. The same holds
// with and without an entity that has a transform parent (the two paths
// of the physics step).
func TestGroundBouncesAndRests(t *testing.T) {
	for _, nested := range []bool{false, true} {
		t.Run(fmt.Sprint("nested=", nested), func(t *testing.T) {
			w, r, b := newReg(t)
			g := w.NewEntity()
			ok(t, r.Set(g, "ground", "restitution: 0.5; friction: 0.2"))
			ok(t, r.Set(g, "scale", "10 0.2 10")) // top face at y = 0.1
			if nested {
				p := w.NewEntity()
				ok(t, r.Set(p, "position", "100 0 0"))
				c := w.NewEntity()
				ok(t, w.SetParent(c, p))
				ok(t, r.Set(c, "position", "0 0 0"))
			}
			e := body(t, r, ecs.Entity{}, "0 5 0", "1 0 0", "0.5 0.5 0.5")
			const top = 0.1 + 0.25
			bounces, apex, prevVY := 0, 0.0, 0.0
			for i := range 600 {
				ok(t, r.Tick(dt))
				p, v := *b.Position.Get(e), *b.Velocity.Get(e)
				if p.Y < top-1e-12 {
					t.Fatalf("tick %d: below the ground at %v", i, p)
				}
				if wp := b.World.Get(e).Position; wp != p {
					t.Fatalf("tick %d: world position %v, position %v", i, wp, p)
				}
				if prevVY <= 0 && v.Y > 0 {
					bounces++
				}
				if bounces == 1 {
					apex = math.Max(apex, p.Y)
				}
				prevVY = v.Y
			}
			// Dropped from 4.65 above the top: e = 0.5 bounces back to
			// about e² of the height.
			if bounces < 3 || apex-top < 0.2*4.65 || apex-top > 0.3*4.65 {
				t.Errorf("%d bounces, first back up to %.3f above the ground", bounces, apex-top)
			}
			p, v := *b.Position.Get(e), *b.Velocity.Get(e)
			if p.Y != top || v != (registry.Vec3{}) || !w.Has(e, b.SleepingID) {
				t.Fatalf("not at rest: %v %v sleeping %v", p, v, w.Has(e, b.SleepingID))
			}
			if p.X <= 0 || p.X > 5 {
				t.Errorf("slid to x %v: friction should stop it", p.X)
			}
			if got, _ := r.QueryAll("[sleeping]"); len(got) != 1 || got[0] != e {
				t.Errorf("[sleeping] matches %v", got)
			}
			// Asleep, it does not move, and physics skips it.
			ok(t, r.Tick(dt))
			if *b.Position.Get(e) != p {
				t.Error("a sleeping body moved")
			}
			// A write wakes it: it falls again.
			ok(t, r.Set(e, "position", "0 2 0"))
			if w.Has(e, b.SleepingID) {
				t.Fatal("a set did not wake it")
			}
			ok(t, r.Tick(dt))
			if b.Position.Get(e).Y >= 2 {
				t.Error("woken, it did not fall")
			}
			for range 300 {
				ok(t, r.Tick(dt))
			}
			if !w.Has(e, b.SleepingID) {
				t.Fatal("did not fall asleep again")
			}
			// Lowering the ground wakes it; it falls onto the new top.
			ok(t, r.Set(g, "position", "0 -1 0"))
			ok(t, r.Tick(dt))
			if w.Has(e, b.SleepingID) || b.Position.Get(e).Y >= top {
				t.Fatal("moving the ground did not wake the sleeper")
			}
			for range 300 {
				ok(t, r.Tick(dt))
			}
			if got := b.Position.Get(e).Y; got != top-1 {
				t.Errorf("at rest at %v, want %v", got, top-1)
			}
		})
	}
}

// TestGroundRestitutionAndAcceleration: restitution 0 stops a body at
// once; a body pushed along the ground does not sleep; friction holds it
// (static) when the push is weaker than friction × gravity, and slows it
// by friction × gravity when it is stronger.
func TestGroundRestitutionAndAcceleration(t *testing.T) {
	w, r, b := newReg(t)
	g := w.NewEntity()
	ok(t, r.Set(g, "ground", "restitution: 0"))
	ok(t, r.Set(g, "scale", "1 0 1")) // top face at y = 0
	e := body(t, r, ecs.Entity{}, "0 3 0", "0 0 0", "1 1 1")
	held := body(t, r, ecs.Entity{}, "5 0.5 0", "0 0 0", "1 1 1")
	ok(t, r.Set(held, "acceleration", "1 0 0")) // friction 0.2 × 9.8 holds it
	pushed := body(t, r, ecs.Entity{}, "10 0.5 0", "0 0 0", "1 1 1")
	ok(t, r.Set(pushed, "acceleration", "3 0 0"))
	for i := range 120 {
		ok(t, r.Tick(dt))
		if v := b.Velocity.Get(e); b.Position.Get(e).Y == 0.5 && v.Y != 0 {
			t.Fatalf("tick %d: bounced with restitution 0: %v", i, *v)
		}
	}
	if !w.Has(e, b.SleepingID) {
		t.Error("not asleep")
	}
	if w.Has(held, b.SleepingID) || b.Position.Get(held).X != 5 {
		t.Errorf("the held body slept or moved: %v", *b.Position.Get(held))
	}
	// 2 s at 3 - 0.2·9.8 = 1.04 per second squared: about 2.08.
	if x := b.Position.Get(pushed).X - 10; w.Has(pushed, b.SleepingID) || x < 1.9 || x > 2.3 {
		t.Errorf("the pushed body slept or moved by %v", x)
	}
}

// TestGroundSlopeAndNested: a rotated ground is a slope a body slides
// down without going through it; a body below a moved, turned and scaled
// parent lands on the ground at its world position (its local position
// corrected in its parent's space), never below it.
func TestGroundSlopeAndNested(t *testing.T) {
	w, r, b := newReg(t)
	g := w.NewEntity()
	ok(t, r.Set(g, "ground", "restitution: 0.2; friction: 0"))
	ok(t, r.Set(g, "rotation", "0 0 20")) // a slope down towards -x
	ok(t, r.Set(g, "scale", "100 0 100"))
	e := body(t, r, ecs.Entity{}, "0 3 0", "0 0 0", "1 1 1")
	parent := w.NewEntity()
	ok(t, r.Set(parent, "position", "-20 10 0"))
	ok(t, r.Set(parent, "rotation", "0 90 30"))
	ok(t, r.Set(parent, "scale", "2 2 2"))
	child := body(t, r, parent, "0 0 0", "0 0 0", "0.5 0.5 0.5") // 1 x 1 x 1 in world
	n := v3{-math.Sin(20 * math.Pi / 180), math.Cos(20 * math.Pi / 180), 0}
	above := func(p registry.Vec3) float64 { return n.x*p.X + n.y*p.Y + n.z*p.Z - 0.5*(math.Abs(n.x)+math.Abs(n.y)) }
	for i := range 240 {
		ok(t, r.Tick(dt))
		for name, x := range map[string]ecs.Entity{"root": e, "child": child} {
			if d := above(b.World.Get(x).Position); d < -1e-9 {
				t.Fatalf("tick %d: %s %v below the slope by %g", i, name, b.World.Get(x).Position, -d)
			}
		}
	}
	// The slope goes down towards -x.
	if p := b.World.Get(e).Position; p.X > -1 || above(p) > 1e-6 {
		t.Errorf("root did not slide down the slope: %v", p)
	}
	if p := b.World.Get(child).Position; above(p) > 1e-6 {
		t.Errorf("child not on the slope: %v (%g above)", p, above(p))
	}
	// Bodies on a slope without friction never rest.
	if w.Has(e, b.SleepingID) {
		t.Error("slept on a slope")
	}
}

// TestSpawnerOwnSpace: a spawner places what it spawns around its own
// position, turned and scaled with it (the children's positions and
// velocities are in its space), and they follow it when it moves.
func TestSpawnerOwnSpace(t *testing.T) {
	w, r, b := newReg(t)
	r.Mixins().Define(&registry.Mixin{ID: "dot"})
	sp := w.NewEntity()
	ok(t, r.Set(sp, "position", "20 0 20"))
	ok(t, r.Set(sp, "rotation", "0 90 0"))
	ok(t, r.Set(sp, "spawner", "mixin: dot; count: 200; area: 4 2 0; velocity: 1 0 0"))
	kids := w.Children(sp)
	if len(kids) != 200 {
		t.Fatalf("%d children", len(kids))
	}
	for _, k := range kids {
		lp, wp := *b.Position.Get(k), b.World.Get(k).Position
		if math.Abs(lp.X) > 2 || math.Abs(lp.Y) > 1 || lp.Z != 0 {
			t.Fatalf("local position %v outside the area", lp)
		}
		// Turned 90° about y: local x is world -z.
		if want := (v3{20, lp.Y, 20 - lp.X}); !nearV(rv(wp), want) {
			t.Fatalf("world position %v, want %s", wp, vs(want))
		}
	}
	ok(t, r.Set(sp, "position", "0 0 0"))
	if wp := b.World.Get(kids[0]).Position; wp.X > 1e-9 || math.Abs(wp.Z) > 2 {
		t.Errorf("child at %v after the spawner moved to the origin", wp)
	}
	// Velocities are in the spawner's space too: after a second of
	// physics (no gravity) each child moved along world -z.
	k := kids[1]
	before, v := b.World.Get(k).Position, *b.Velocity.Get(k)
	for range 60 {
		ok(t, r.Tick(dt))
	}
	after := b.World.Get(k).Position
	if !nearV(v3{after.X - before.X, after.Y - before.Y, after.Z - before.Z}, v3{0, 0, -v.X}) {
		t.Errorf("moved %v→%v with local velocity %v", before, after, v)
	}
}

// TestSpawnerRate: a spawner with a rate keeps spawning, never above max
// children; with a lifetime on what it spawns the count stays bounded and
// the spawner keeps it up. Lifetimes and colours are drawn from the
// spawner's ranges; a colour that does not parse is a spawn error.
func TestSpawnerRate(t *testing.T) {
	w, r, b := newReg(t)
	r.Mixins().Define(&registry.Mixin{ID: "spark", Components: namedPatches(t, r, "lifetime=seconds: 9")})
	sp := w.NewEntity()
	ok(t, r.Set(sp, "spawner", "mixin: spark; count: 10; rate: 60; max: 40; lifetime: 0.5 1; colors: red, #00ff00"))
	if n := b.Transforms.Children(sp); n != 10 {
		t.Fatalf("%d children after init, want 10", n)
	}
	most, least := 0, 1<<30
	colors := map[registry.Color]bool{}
	for i := range 600 {
		ok(t, r.Tick(dt))
		n := len(w.Children(sp))
		if n != b.Transforms.Children(sp) {
			t.Fatalf("Children %d, the World says %d", b.Transforms.Children(sp), n)
		}
		most = max(most, n)
		if i > 120 {
			least = min(least, n)
		}
		for _, k := range w.Children(sp) {
			l := b.Lifetime.Get(k)
			if l.Seconds < 0.5 || l.Seconds > 1 {
				t.Fatalf("lifetime %v outside 0.5..1", l.Seconds)
			}
			colors[*b.Color.Get(k)] = true
		}
	}
	// 60 a second living 0.5 to 1 s: about 45 wanted, 40 allowed.
	if most > 40 || least < 25 {
		t.Errorf("children between %d and %d, want at most 40 and steadily many", least, most)
	}
	if len(colors) != 2 || !colors[registry.Color{R: 255, A: 255}] || !colors[registry.Color{G: 255, A: 255}] {
		t.Errorf("colours %v", colors)
	}
	bad := w.NewEntity()
	var got []string
	r.Events().On(bad, "spawnerror", func(ev *registry.Event) { got = append(got, fmt.Sprint(ev.Detail)) })
	ok(t, r.Set(bad, "spawner", "count: 1; colors: nope"))
	if len(got) != 1 || !strings.Contains(got[0], `spawner: colors: `) || len(w.Children(bad)) != 0 {
		t.Errorf("bad colour: %q, %d children", got, len(w.Children(bad)))
	}
}

// TestWorldSelectors: selectors test world transforms.
func TestWorldSelectors(t *testing.T) {
	w, r, _ := newReg(t)
	p := w.NewEntity()
	ok(t, r.SetEntityID(p, "p"))
	ok(t, r.Set(p, "position", "0 -10 0"))
	c := w.NewEntity()
	ok(t, w.SetParent(c, p))
	ok(t, r.SetEntityID(c, "c"))
	ok(t, r.Set(c, "position", "0 5 0")) // world y -5
	d := w.NewEntity()
	ok(t, r.SetEntityID(d, "d"))
	ok(t, r.Set(d, "position", "0 5 0"))
	// Axes of vector properties and channels of colour properties of
	// other components too.
	sp := w.NewEntity()
	ok(t, r.SetEntityID(sp, "sp"))
	ok(t, r.Set(sp, "spawner", "area: 20 1 1"))
	team, err := schema.NewSchema([]registry.PropSpec{{Name: "tint", Type: "color", Default: "#ff8000"}, {Name: "size", Type: "int"}}, r.Types())
	ok(t, err)
	_, err = r.Declare("team", team)
	ok(t, err)
	ok(t, r.Set(d, "team", "size: 2"))
	for sel, want := range map[string]string{
		"[spawner.area.x>10]":                          "sp",
		"[spawner.area.y>10]":                          "",
		"[team.tint.r=255][team.tint.g<200]":           "d",
		"[world.position.y<0]":                         "p c",
		"[position.y>0]":                               "c d",
		"[position.y>0][world.position.y<0]":           "c",
		"[world.scale.x=1]:not([world.position.y<-6])": "c d",
	} {
		es, err := r.QueryAll(sel)
		ok(t, err)
		var ids []string
		for _, e := range es {
			ids = append(ids, r.EntityID(e))
		}
		if got := strings.Join(ids, " "); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
}

func namedPatches(t *testing.T, r *registry.Registry, comps ...string) []registry.NamedPatch {
	t.Helper()
	var out []registry.NamedPatch
	for _, c := range comps {
		name, attr, _ := strings.Cut(c, "=")
		comp, _, err := r.Lookup(name)
		ok(t, err)
		p, err := comp.Schema.ParseAttr(name, attr)
		ok(t, err)
		out = append(out, registry.NamedPatch{Name: name, Patch: p})
	}
	return out
}

var _ = components.RestSpeed
