package behaviour_test

import (
	"math"
	"testing"

	. "github.com/scenecs/scenecs/components/behaviour"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// TestAnimationWorldTransforms: animated positions, rotations and scales
// reach world transforms by the end of the tick, for roots and for
// children (a turning parent carries its child).
func TestAnimationWorldTransforms(t *testing.T) {
	r, b := animRegistry(t)
	w := r.World()
	root := entityWith(t, r, "position=0 0 0", "animation=property: position; to: 10 0 0; dur: 1000; easing: linear")
	parent := entityWith(t, r, "position=0 0 0", "rotation=0 0 0",
		"animation__turn=property: rotation.y; to: 90; dur: 1000; easing: linear",
		"animation__grow=property: scale; from: 1 1 1; to: 3 3 3; dur: 1000; easing: linear")
	child := w.NewEntity()
	must(t, w.SetParent(child, parent))
	must(t, r.Set(child, "position", "1 0 0"))
	leaf := entityWith(t, r, "position=0 0 0")
	must(t, w.SetParent(leaf, child))
	must(t, r.Set(leaf, "animation", "property: position.y; to: 1; dur: 1000; easing: linear"))
	ticks(t, r, 60)
	near := func(a, b registry.Vec3) bool {
		return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 && math.Abs(a.Z-b.Z) < 1e-9
	}
	if wt, _ := b.Transforms.World(root); !near(wt.Position, registry.Vec3{X: 10}) {
		t.Errorf("root: world %v", wt.Position)
	}
	// The parent turned a quarter about y and grew 3 times: its child
	// at local x 1 is at world z -3, the leaf 3 above it.
	if wt, _ := b.Transforms.World(child); !near(wt.Position, registry.Vec3{Z: -3}) {
		t.Errorf("child: world %v", wt.Position)
	}
	if wt, _ := b.Transforms.World(leaf); !near(wt.Position, registry.Vec3{Y: 3, Z: -3}) {
		t.Errorf("leaf: world %v", wt.Position)
	}
	// Half way, the same reached every tick.
	must(t, b.Animations.Restart(root, "animation"))
	ticks(t, r, 30)
	if wt, _ := b.Transforms.World(root); !near(wt.Position, registry.Vec3{X: 10}) {
		t.Errorf("restarted from its end (from 10 0 0 to 10 0 0): %v", wt.Position)
	}
}

// TestAnimationPausedEntity: an animation stops with its entity (and the
// scene) and resumes with it; events that reach a paused entity are
// ignored, as A-Frame removes its listeners on pause.
func TestAnimationPausedEntity(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r, "score=0", "animation=property: score; to: 10; dur: 100; easing: linear; restartEvents: again")
	ticks(t, r, 3)
	must(t, r.PauseEntity(e))
	ticks(t, r, 10)
	r.Events().Emit(e, "again", nil, false)
	must(t, r.PlayEntity(e))
	if v := num(t, r, e, "score", 0); math.Abs(v-5) > 1e-9 {
		t.Errorf("paused half way: %v", v)
	}
	r.Pause()
	ticks(t, r, 10)
	r.Play()
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); v != 10 {
		t.Errorf("resumed (no restart while paused): %v", v)
	}
}

// TestAnimationAddsTarget: an animation of a component the entity lacks
// adds it (with its defaults, from which it starts), as A-Frame's
// setAttribute does; one that loses its component while running gets it
// back.
func TestAnimationAddsTarget(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r, "animation=property: stats.speed; to: 10; dur: 100; easing: linear")
	if !r.Has(e, "stats") {
		t.Fatal("the target component was not added")
	}
	ticks(t, r, 3)
	if v := num(t, r, e, "stats", 1); math.Abs(v-5) > 1e-9 {
		t.Errorf("from the default: %v", v)
	}
	must(t, r.Remove(e, "stats"))
	ticks(t, r, 1)
	ticks(t, r, 1)
	if !r.Has(e, "stats") {
		t.Error("the removed target was not added back")
	}
}

// TestAnimationRemoved: removing an animation (or destroying its entity)
// forgets its state; the others go on, whatever the order of removal.
func TestAnimationRemoved(t *testing.T) {
	r, b := animRegistry(t)
	var es []ecs.Entity
	for range 5 {
		es = append(es, entityWith(t, r, "score=0", "animation=property: score; to: 10; dur: 100; easing: linear; loop: true"))
	}
	ticks(t, r, 1)
	must(t, r.Remove(es[1], "animation"))
	must(t, r.World().Destroy(es[3]))
	runs, indexed := b.Animations.States()
	if n := b.Animations.Running(); n != 3 || runs != 3 || indexed != 3 {
		t.Errorf("after a removal and a destroy: %d running, %d states", n, runs)
	}
	ticks(t, r, 2)
	for i, e := range es {
		if i == 3 {
			continue
		}
		v := num(t, r, e, "score", 0)
		if want := map[bool]float64{true: 10.0 / 6, false: 5}[i == 1]; math.Abs(v-want) > 1e-9 {
			t.Errorf("entity %d: %v, want %v", i, v, want)
		}
	}
	// A new entity in the destroyed one's slot is a new animation.
	e := entityWith(t, r, "score=0", "animation=property: score; to: 10; dur: 100; easing: linear")
	if e.Index() != es[3].Index() {
		t.Skip("the World did not reuse the slot")
	}
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); math.Abs(v-5) > 1e-9 {
		t.Errorf("new entity in a reused slot: %v", v)
	}
}

// TestAnimationWakesBody: an animation of a sleeping body's position
// wakes it, so that physics takes it from where the animation leaves it.
func TestAnimationWakesBody(t *testing.T) {
	r, b := animRegistry(t)
	entityWith(t, r, "ground=restitution: 0", "position=0 -0.5 0", "scale=100 1 100")
	body := entityWith(t, r, "position=0 3 0", "gravity=0 -9.8 0")
	ticks(t, r, 120)
	if !r.World().Has(body, b.SleepingID) {
		t.Fatal("the body did not come to rest")
	}
	must(t, r.Set(body, "animation", "property: position.y; to: 5; dur: 100; easing: linear"))
	ticks(t, r, 6)
	if r.World().Has(body, b.SleepingID) {
		t.Error("the animated body sleeps")
	}
	ticks(t, r, 3)
	if y := b.Position.Get(body).Y; y >= 5 || y <= 0.5 {
		t.Errorf("after the animation the body falls: y %v", y)
	}
}

// TestAnimationRedeclared: a declared component whose schema a reload
// changes gets new storage; an animation of it follows (its path
// resolved again against the new schema).
func TestAnimationRedeclared(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r, "stats=speed: 0", "animation=property: stats.speed; to: 10; dur: 100; easing: linear")
	ticks(t, r, 3)
	s, err := schema.NewSchema([]registry.PropSpec{{Name: "label", Type: "string"}, {Name: "speed", Type: "number"}}, r.Types())
	must(t, err)
	if _, err := r.Privileged().Redeclare("stats", s); err != nil {
		t.Fatal(err)
	}
	ticks(t, r, 1)
	if v := num(t, r, e, "stats", 1); math.Abs(v-10.0*4/6) > 1e-9 {
		t.Errorf("after the redeclaration: speed %v", v)
	}
}

// TestLoopType: the loop type reads counts, true and false, and refuses
// the rest with what it expects.
func TestLoopType(t *testing.T) {
	r, _ := animRegistry(t)
	typ, ok := r.Types().Lookup("loop")
	if !ok {
		t.Fatal("no loop type")
	}
	for text, want := range map[string]string{"0": "0", " 3 ": "3", "007": "7", "true": "true", "false": "0", "": "5"} {
		v, err := typ.Parse(text, Loop("5"))
		if err != nil || typ.Print(v) != want {
			t.Errorf("%q: %v, %v; want %s", text, v, err, want)
		}
	}
	for _, bad := range []string{"-1", "+2", "1.5", "yes", "True", "99999999999", "1 2"} {
		_, err := typ.Parse(" "+bad, Loop("0"))
		ve, ok := err.(*registry.ValueError)
		if !ok || ve.Offset != 1 || ve.Text != bad || ve.Expected != LoopExpected {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if n, forever := Loop("true").Count(); !forever || n != 0 {
		t.Error("true is forever")
	}
	if n, forever := Loop("12").Count(); forever || n != 12 {
		t.Error("12")
	}
}
