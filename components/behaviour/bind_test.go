package behaviour_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

const bindScene = `
components:
  health: {hp: {type: int, default: 10}}
entities:
  - id: bob
    position: 1 0 0
    bind: "position.y: sin(time * 2) * 3"
  - id: spinner
    bind__turn: {rotation: "vec3(0, time * 90, 0)", visible: "time > 0.5"}
    children:
      - id: arm
        position: 1 0 0
  - id: lamp
    health: {hp: 10}
    bind: "color: health.hp < 5 ? '#ff0000' : '#00ff00'; health.hp: 10 - floor(time * 10)"
  - id: grower
    bind: "scale.x: 2"
  - id: clock
    timer: "delay: 1000; event: ring"
    bind: "timer.delay: 500"
`

// TestBindFollows: bound properties equal their expressions after every
// tick: numbers, vectors, booleans, colours from text, an int; world
// transforms follow the bound transforms; a missing target component is
// added; a component with an update hook is set through it.
func TestBindFollows(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	tr, err := components.Register(reg)
	mustOK(t, err)
	if _, err := loader.LoadBytes(reg, "scene.yaml", []byte(bindScene), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, reg: reg}
	for n := 1; n <= 40; n++ {
		w.tick(1)
		tm := float64(n) * (1.0 / 60)
		if got, want := w.attr("bob", "position"), fmt.Sprintf("1 %s 0", fmtNum(math.Sin(tm*2)*3)); got != want {
			t.Fatalf("tick %d: bob at %s, want %s", n, got, want)
		}
		if got, want := w.attr("spinner", "rotation"), "0 "+fmtNum(tm*90)+" 0"; got != want {
			t.Fatalf("tick %d: rotation %s, want %s", n, got, want)
		}
		if got, want := w.attr("spinner", "visible"), fmt.Sprint(tm > 0.5); got != want {
			t.Fatalf("tick %d: visible %s, want %s", n, got, want)
		}
	}
	arm, _ := tr.Transforms.World(w.e("arm"))
	// spinner turned 40/60*90 = 60 degrees about y: the arm at x=1 in
	// its space is at (cos 60°, 0, -sin 60°) in the world.
	if math.Abs(arm.Position.X-0.5) > 1e-9 || math.Abs(arm.Position.Z+math.Sqrt(3)/2) > 1e-9 {
		t.Errorf("the arm's world position %v does not follow the bound rotation", arm.Position)
	}
	if got := w.attr("lamp", "health"); got != "hp: 4" {
		t.Errorf("lamp health %s, want hp: 4 (10 - floor(40/60*10))", got)
	}
	if got := w.attr("lamp", "color"); got != "#ff0000" {
		t.Errorf("lamp color %s: it read hp before the binding that writes it, in the same tick (hp 5 at tick 39: green); want red", got)
	}
	if got := w.attr("grower", "scale"); got != "2 1 1" {
		t.Errorf("grower scale %s: the missing scale was not added and bound", got)
	}
	if n, running := tr.Timers.Fired(w.e("clock"), "timer"); n != 1 || running {
		t.Errorf("the timer's bound delay of 500 ms (set through its update hook) did not make it ring by 666 ms: fired %d", n)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}

// fmtNum prints a number as attribute strings do.
func fmtNum(x float64) string {
	s, _ := registry.New(ecs.NewWorld()).Types().Lookup("number")
	return s.Print(x)
}

// TestBindErrors: a binding that reads a component its entity lost (the
// load refuses one it lacks from the start: plan's
// TestReadsComponentEntityLacks), or gives a value no property holds, is
// reported once and leaves the property as it was; the others go on.
func TestBindErrors(t *testing.T) {
	w := load(t, `
components:
  health: {hp: {type: int, default: 10}}
entities:
  - id: a
    position: 0 0 0
    health: "hp: 3"
    bind: "position.x: health.hp; position.y: sqrt(time - 1); position.z: time"
`)
	if err := w.reg.Remove(w.e("a"), "health"); err != nil {
		t.Fatal(err)
	}
	w.tick(3)
	got := w.errs()
	for _, want := range []string{
		"entity #a: bind: position.x: the expression reads health, which #a does not have",
		"entity #a: bind: position.y: the value is NaN, not a finite number",
	} {
		if strings.Count(got, want) != 1 {
			t.Errorf("errors lack %q once:\n%s", want, got)
		}
	}
	if p := w.attr("a", "position"); p != "0 0 0.05" {
		t.Errorf("position %s, want 0 0 0.05", p)
	}
}

// TestBindBudgets: a binding whose expression would make a string over
// the expression budget, and one whose value is a text of 256 KiB no
// property takes, are reported once each, on one short line (the value
// quoted by its start and its length), never a fatal error; the
// properties keep their values and the scene goes on.
func TestBindBudgets(t *testing.T) {
	x64 := "'" + strings.Repeat("x", 64) + "'"
	k256 := "replace(replace(" + x64 + ", 'x', " + x64 + "), 'x', " + x64 + ")"
	w := load(t, `
entities:
  - id: a
    position: 0 0 0
    color: "#fff"
    bind: "position.x: len(replace(`+k256+`, 'x', `+k256+`)); color: `+k256+`; position.z: time"
`)
	w.tick(3)
	got := w.errs()
	for _, want := range []string{
		"entity #a: bind: position.x: replace would make a string of 68719476736 bytes: over the budget of 1048576 bytes of text per evaluation",
		`entity #a: bind: color: invalid value "xxxx`,
	} {
		if strings.Count(got, want) != 1 {
			t.Errorf("errors lack %q once:\n%.2000s", want, got)
		}
	}
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 400 {
			t.Errorf("an error line of %d bytes: %.400s...", len(line), line)
		}
	}
	if !strings.Contains(got, `…" (262144 bytes)`) {
		t.Errorf("the value's length is not said:\n%.2000s", got)
	}
	if p, c := w.attr("a", "position"), w.attr("a", "color"); p != "0 0 0.05" || c != "#ffffff" {
		t.Errorf("position %s, color %s; want 0 0 0.05 and #ffffff", p, c)
	}
}

// TestBindEdits: a bind set again takes its new bindings at once; one
// removed stops; removing the bindings of some entities leaves the
// others bound (the packed states are moved, not lost).
func TestBindEdits(t *testing.T) {
	var text strings.Builder
	text.WriteString("entities:\n")
	for i := range 20 {
		fmt.Fprintf(&text, "  - id: e%d\n    position: 0 0 0\n    bind: \"position.x: %d + time\"\n", i, i)
	}
	w := load(t, text.String())
	w.tick(6)
	for i := 0; i < 20; i += 3 {
		mustOK(t, w.reg.Remove(w.e(fmt.Sprint("e", i)), "bind"))
	}
	mustOK(t, w.reg.Set(w.e("e1"), "bind", "position.y: 7"))
	w.tick(6)
	for i := range 20 {
		got := w.attr(fmt.Sprint("e", i), "position")
		want := fmt.Sprintf("%s 0 0", fmtNum(float64(i)+12.0/60))
		switch {
		case i%3 == 0:
			want = fmt.Sprintf("%s 0 0", fmtNum(float64(i)+6.0/60))
		case i == 1:
			want = fmt.Sprintf("%s 7 0", fmtNum(1+6.0/60))
		}
		if got != want {
			t.Errorf("e%d at %s, want %s", i, got, want)
		}
	}
}

// TestBindBatches: entities bound alike to a value of the time share one
// batch, which follows entities destroyed, bound, and moved to other
// storage (a component added) tick after tick.
func TestBindBatches(t *testing.T) {
	var text strings.Builder
	text.WriteString("entities:\n")
	for i := range 50 {
		fmt.Fprintf(&text, "  - id: e%d\n    position: %d 0 0\n    bind: \"position.y: time * 2\"\n", i, i)
	}
	w := load(t, text.String())
	next := 50
	for tick := 1; tick <= 30; tick++ {
		switch tick % 3 {
		case 0:
			mustOK(t, w.reg.World().Destroy(w.e(fmt.Sprint("e", tick))))
		case 1:
			e := w.reg.World().NewEntity()
			mustOK(t, w.reg.SetEntityID(e, fmt.Sprint("e", next)))
			mustOK(t, w.reg.Set(e, "position", fmt.Sprintf("%d 0 0", next)))
			mustOK(t, w.reg.Set(e, "bind", "position.y: time * 2"))
			next++
		case 2:
			mustOK(t, w.reg.Set(w.e(fmt.Sprint("e", 40+tick%10)), "visible", "true"))
		}
		w.tick(1)
		want := fmtNum(float64(tick) * (1.0 / 60) * 2)
		es, _ := w.reg.QueryAll("[bind]")
		for _, e := range es {
			vs, _ := w.reg.Values(e, "position")
			if got := fmtNum(vs[0].(registry.Vec3).Y); got != want {
				t.Fatalf("tick %d: %s at y %s, want %s", tick, w.reg.EntityID(e), got, want)
			}
		}
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}

// TestBindEntityBatches: entities bound alike to a value that reads their
// own components share one batch (evaluated 256 at a time), which gives
// each entity its own value and follows entities destroyed, bound, and
// moved to other storage tick after tick; a value that is not finite for
// one entity is refused for that entity alone; a batch on rotation
// reads one component and writes another.
func TestBindEntityBatches(t *testing.T) {
	const n = 600
	var text strings.Builder
	text.WriteString("entities:\n")
	for i := range n {
		fmt.Fprintf(&text, "  - id: e%d\n    position: %d 0 0\n    bind: \"position.y: sin(time * 2 + position.x) * 3; position.z: 1 / position.x; rotation.y: position.x * time\"\n", i, i)
	}
	w := load(t, text.String())
	next := n
	for tick := 1; tick <= 18; tick++ {
		// A change every other tick: the tick after a structural change
		// runs the bindings one by one, while they find their components
		// anew; the next one runs the batches.
		switch tick % 6 {
		case 0:
			mustOK(t, w.reg.World().Destroy(w.e(fmt.Sprint("e", tick*7))))
		case 2:
			e := w.reg.World().NewEntity()
			mustOK(t, w.reg.SetEntityID(e, fmt.Sprint("e", next)))
			mustOK(t, w.reg.Set(e, "position", fmt.Sprintf("%d 0 0", next)))
			mustOK(t, w.reg.Set(e, "bind", "position.y: sin(time * 2 + position.x) * 3; position.z: 1 / position.x; rotation.y: position.x * time"))
			next++
		case 4:
			mustOK(t, w.reg.Set(w.e(fmt.Sprint("e", 300+tick)), "visible", "true"))
		}
		w.tick(1)
		tm := float64(tick) * (1.0 / 60)
		es, _ := w.reg.QueryAll("[bind]")
		if len(es) < n {
			t.Fatalf("tick %d: %d bound entities", tick, len(es))
		}
		for _, e := range es {
			vs, _ := w.reg.Values(e, "position")
			p := vs[0].(registry.Vec3)
			rs, _ := w.reg.Values(e, "rotation")
			wantZ := 1 / p.X
			if p.X == 0 {
				wantZ = 0 // 1/0 is refused: z keeps its value
			}
			if p.Y != math.Sin(tm*2+p.X)*3 || p.Z != wantZ || rs[0].(registry.Vec3).Y != p.X*tm {
				t.Fatalf("tick %d: %s at %v rotated %v, want y %v, z %v, rotation.y %v", tick, w.reg.EntityID(e), p, rs[0], math.Sin(tm*2+p.X)*3, wantZ, p.X*tm)
			}
		}
	}
	if got, want := w.errs(), "entity #e0: bind: position.z: the value is +Inf, not a finite number"; strings.Count(got, "bind:") != 1 || !strings.Contains(got, want) {
		t.Errorf("errors:\n%s\nwant %q once, and nothing else", got, want)
	}
}

// TestBindBatchFails: a batch whose value fails for every entity (a part
// that does not depend on the entity fails) writes nothing, tick after
// tick, and reports the error.
func TestBindBatchFails(t *testing.T) {
	var text strings.Builder
	text.WriteString("entities:\n")
	for i := range 300 {
		fmt.Fprintf(&text, "  - id: e%d\n    position: %d 5 0\n    bind: \"position.y: position.x + 1 %% 0\"\n", i, i)
	}
	w := load(t, text.String())
	w.tick(4)
	for i := range 300 {
		if got, want := w.attr(fmt.Sprint("e", i), "position"), fmt.Sprintf("%d 5 0", i); got != want {
			t.Fatalf("e%d at %s, want %s (unchanged)", i, got, want)
		}
	}
	if got := w.errs(); !strings.Contains(got, "entity #e0: bind: position.y:") || !strings.Contains(got, "modulo by zero") {
		t.Errorf("errors lack e0's modulo by zero:\n%.500s", got)
	}
}
