package components

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// TestBuiltinSchemas pins every built-in's properties, types and defaults
// (docs/components.md lists the same).
func TestBuiltinSchemas(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	tests := []struct {
		name  string
		props string // name:type, single-property schemas with an empty name
		attr  string // the defaults, printed
		deps  []string
		ticks bool
	}{
		{"world", "position:vec3 rotation:vec3 scale:vec3", "position: 0 0 0; rotation: 0 0 0; scale: 1 1 1", nil, false},
		{"position", ":vec3", "0 0 0", []string{"world"}, false},
		{"rotation", ":vec3", "0 0 0", []string{"world"}, false},
		{"scale", ":vec3", "1 1 1", []string{"world"}, false},
		{"visible", ":boolean", "true", nil, false},
		{"color", ":color", "#ffffff", nil, false},
		{"velocity", ":vec3", "0 0 0", []string{"position"}, false},
		{"acceleration", ":vec3", "0 0 0", []string{"velocity"}, false},
		{"gravity", ":vec3", "0 -9.8 0", []string{"velocity"}, false},
		{"spin", "axis:vec3 speed:number", "axis: 0 1 0; speed: 90", []string{"rotation"}, true},
		{"lifetime", "seconds:number age:number", "seconds: 1; age: 0", nil, true},
		{"spawner", "mixin:string prefab:string count:int area:vec3 velocity:vec3 seed:int done:boolean rate:number max:int lifetime:vec2 colors:array",
			"mixin: ; prefab: ; count: 0; area: 10 10 10; velocity: 0 0 0; seed: 1; done: false; rate: 0; max: 0; lifetime: 0 0; colors: ", nil, true},
		{"ground", "restitution:number friction:number", "restitution: 0.5; friction: 0.2", []string{"position"}, false},
	}
	for _, tt := range tests {
		c, ok := r.Component(tt.name)
		if !ok {
			t.Errorf("%s not registered", tt.name)
			continue
		}
		var props []string
		for _, p := range c.Schema.Props {
			props = append(props, p.Name+":"+p.Type.Name)
		}
		if got := strings.Join(props, " "); got != tt.props {
			t.Errorf("%s: properties %q, want %q", tt.name, got, tt.props)
		}
		// Only world is read-only: the Registry refuses to write it, its
		// owner writes it below the checks.
		if c.ReadOnly() != (tt.name == WorldName) {
			t.Errorf("%s: ReadOnly %v", tt.name, c.ReadOnly())
		}
		e := w.NewEntity()
		if c.ReadOnly() {
			if err := r.Set(e, tt.name, ""); !errors.Is(err, registry.ErrReadOnly) || !strings.Contains(err.Error(), "transform system") {
				t.Errorf("%s: Set: %v, want a read-only error naming its owner", tt.name, err)
			}
			must(t, r.Privileged().SetPatch(e, tt.name, nil, registry.Merge))
		} else {
			must(t, r.Set(e, tt.name, ""))
		}
		if got, _ := r.Attr(e, tt.name); got != tt.attr {
			t.Errorf("%s: defaults %q, want %q", tt.name, got, tt.attr)
		}
		if !reflect.DeepEqual(c.Dependencies, tt.deps) {
			t.Errorf("%s: dependencies %v, want %v", tt.name, c.Dependencies, tt.deps)
		}
		if c.HasTick() != tt.ticks {
			t.Errorf("%s: HasTick %v", tt.name, c.HasTick())
		}
	}
	phys, ok := r.System("physics")
	if !ok {
		t.Fatal("physics system not registered")
	}
	if got := phys.Values(); !reflect.DeepEqual(got, []any{1.0 / 60, 8}) {
		t.Errorf("physics defaults %v", got)
	}
	if got := strings.Join(phys.Schema.Names(), " "); got != "step maxSteps" {
		t.Errorf("physics properties %q", got)
	}
	// Twice on one Registry is an error; on another Registry it is fine.
	if _, err := Register(r); fmt.Sprint(err) != `registry: component "world" is already registered` {
		t.Errorf("second Register: %v", err)
	}
	builtinRegistry(t)
}

// simulate returns where semi-implicit Euler at a fixed step puts a body
// after n steps.
func simulate(p, v, a registry.Vec3, step float64, n int) (registry.Vec3, registry.Vec3) {
	for range n {
		v.X += a.X * step
		v.Y += a.Y * step
		v.Z += a.Z * step
		p.X += v.X * step
		p.Y += v.Y * step
		p.Z += v.Z * step
	}
	return p, v
}

// TestPhysics checks the integration of velocity, acceleration and gravity
// at the fixed step, the accumulator, MaxSteps, and paused entities.
func TestPhysics(t *testing.T) {
	w, r, b := builtinRegistry(t)
	const step = 1.0 / 60
	mover := w.NewEntity() // velocity only
	must(t, r.Set(mover, "velocity", "1 0 0"))
	faller := w.NewEntity() // velocity and gravity
	must(t, r.Set(faller, "position", "0 10 0"))
	must(t, r.Set(faller, "gravity", ""))
	pusher := w.NewEntity() // acceleration and gravity
	must(t, r.Set(pusher, "acceleration", "2 0 0"))
	must(t, r.Set(pusher, "gravity", "0 -1 0"))
	still := w.NewEntity() // position only: not integrated
	must(t, r.Set(still, "position", "5 5 5"))
	if !r.Has(pusher, "velocity") || !r.Has(pusher, "position") {
		t.Fatal("dependencies not added")
	}

	frames := []struct {
		dt    float64
		steps int // total steps so far
	}{
		{0.05, 3},      // 3 steps
		{0.01, 3},      // accumulates
		{0.01, 4},      // 0.02 accumulated: one step, 0.0033 left
		{0.0134, 5},    // 0.0167 >= step within rounding: one more
		{1.0, 5 + 8},   // MaxSteps, backlog dropped
		{0.005, 5 + 8}, // nothing left over from the backlog
	}
	for i, f := range frames {
		r.Tick(f.dt)
		checks := []struct {
			e       ecs.Entity
			p, v, a registry.Vec3
		}{
			{mover, registry.Vec3{}, v3(1, 0, 0), registry.Vec3{}},
			{faller, v3(0, 10, 0), registry.Vec3{}, v3(0, -9.8, 0)},
			{pusher, registry.Vec3{}, registry.Vec3{}, v3(2, -1, 0)},
		}
		for _, c := range checks {
			wp, wv := simulate(c.p, c.v, c.a, step, f.steps)
			if gp, gv := *b.Position.Get(c.e), *b.Velocity.Get(c.e); !near(gp, wp) || !near(gv, wv) {
				t.Errorf("frame %d: %v at %v moving %v, want %v moving %v", i, c.e, gp, gv, wp, wv)
			}
		}
		if p := *b.Position.Get(still); p != v3(5, 5, 5) {
			t.Errorf("frame %d: entity without velocity moved to %v", i, p)
		}
	}

	// A paused entity is not integrated; a paused scene integrates nothing.
	before := *b.Position.Get(mover)
	must(t, r.PauseEntity(mover))
	r.Tick(step)
	if p := *b.Position.Get(mover); p != before {
		t.Errorf("paused entity moved from %v to %v", before, p)
	}
	must(t, r.PlayEntity(mover))
	r.Pause()
	r.Tick(step)
	if p := *b.Position.Get(mover); p != before {
		t.Errorf("entity moved in a paused scene: %v", p)
	}
	r.Play()
	r.Tick(step)
	if p := *b.Position.Get(mover); p == before {
		t.Error("entity did not move after Play")
	}

	// The step is configurable.
	phys, _ := r.System("physics")
	must(t, phys.ConfigureAttr("step: 0.5; maxSteps: 2"))
	x := b.Position.Get(mover).X
	r.Tick(1)
	if got := b.Position.Get(mover).X; math.Abs(got-(x+1)) > 1e-9 {
		t.Errorf("two steps of 0.5 at speed 1 moved %g", got-x)
	}
}

func near(a, b registry.Vec3) bool {
	const eps = 1e-9
	return math.Abs(a.X-b.X) < eps && math.Abs(a.Y-b.Y) < eps && math.Abs(a.Z-b.Z) < eps
}

// TestPhysicsDeterministic runs one scene in two Worlds with different
// frame timings that add up to the same number of fixed steps: the bodies
// end bit-for-bit at the same place.
func TestPhysicsDeterministic(t *testing.T) {
	run := func(dts []float64) []registry.Vec3 {
		w, r, b := builtinRegistry(t)
		var es []ecs.Entity
		for i := range 50 {
			e := w.NewEntity()
			must(t, r.Set(e, "velocity", fmt.Sprintf("%d 1 %g", i, float64(i)/7)))
			if i%3 == 0 {
				must(t, r.Set(e, "gravity", ""))
			}
			if i%5 == 0 {
				must(t, r.Set(e, "acceleration", "0.5 0 0"))
			}
			es = append(es, e)
		}
		for _, dt := range dts {
			r.Tick(dt)
		}
		var out []registry.Vec3
		for _, e := range es {
			out = append(out, *b.Position.Get(e), *b.Velocity.Get(e))
		}
		return out
	}
	const step = 1.0 / 60
	even := make([]float64, 120)
	for i := range even {
		even[i] = step
	}
	uneven := []float64{}
	for range 40 {
		uneven = append(uneven, step*0.5, step*2.5) // 3 steps per pair, 120 in all
	}
	a, b := run(even), run(uneven)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("different results for the same number of steps")
	}
	if !reflect.DeepEqual(a, run(even)) {
		t.Errorf("different results for the same run")
	}
}

// TestSpin checks the rotation, wrapped to [0, 360), and that spin adds
// rotation.
func TestSpin(t *testing.T) {
	w, r, b := builtinRegistry(t)
	e := w.NewEntity()
	must(t, r.Set(e, "spin", ""))
	if !r.Has(e, "rotation") {
		t.Fatal("spin did not add rotation")
	}
	r.Tick(1)
	if got := *b.Rotation.Get(e); got != v3(0, 90, 0) {
		t.Errorf("after 1 s: %v", got)
	}
	r.Tick(3)
	if got := *b.Rotation.Get(e); got != v3(0, 0, 0) {
		t.Errorf("after 4 s: %v", got)
	}
	must(t, r.Set(e, "spin", "axis: 1 0 1; speed: 100"))
	r.Tick(0.5)
	if got := *b.Rotation.Get(e); got != v3(50, 0, 50) {
		t.Errorf("after axis change: %v", got)
	}
	if got := b.Spin.Get(e); got.Speed != 100 {
		t.Errorf("typed access %+v", got)
	}
}

// TestLifetime checks that lifetime destroys its entity (and subtree)
// once its age reaches its seconds, and keeps the age as data.
func TestLifetime(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	e, child := w.NewEntity(), w.NewEntity()
	must(t, w.SetParent(child, e))
	must(t, r.Set(e, "lifetime", "seconds: 1"))
	forever := w.NewEntity()
	must(t, r.Set(forever, "lifetime", "seconds: 100"))
	r.Tick(0.5)
	if got, _ := r.Attr(e, "lifetime"); got != "seconds: 1; age: 0.5" {
		t.Errorf("after 0.5 s: %q", got)
	}
	r.Tick(0.25)
	if !w.Alive(e) {
		t.Fatal("destroyed early")
	}
	r.Tick(0.25)
	if w.Alive(e) || w.Alive(child) {
		t.Errorf("alive at its lifetime: %v, child %v", w.Alive(e), w.Alive(child))
	}
	if !w.Alive(forever) {
		t.Error("the other entity died")
	}
	zero := w.NewEntity()
	must(t, r.Set(zero, "lifetime", "seconds: 0"))
	r.Tick(0.001)
	if w.Alive(zero) {
		t.Error("lifetime 0 survived a frame")
	}
}

// TestSpawner checks that spawner creates Count children from its mixin,
// at positions and velocities drawn deterministically from its seed, sets
// done, and does not spawn again.
func TestSpawner(t *testing.T) {
	spawn := func(attr string) (*registry.Registry, *Builtins, ecs.Entity, []ecs.Entity) {
		w, r, b := builtinRegistry(t)
		r.Mixins().Define(&registry.Mixin{ID: "ball", Components: namedPatches(t, r, "spin=speed: 10", "position=9 9 9")})
		e := w.NewEntity()
		must(t, r.Set(e, "spawner", attr))
		return r, b, e, w.Children(e)
	}
	r, b, e, kids := spawn("mixin: ball; count: 20; area: 4 2 0; velocity: 1 0 0; seed: 7")
	if len(kids) != 20 {
		t.Fatalf("%d children, want 20", len(kids))
	}
	if got, _ := r.Attr(e, "spawner"); !strings.Contains(got, "done: true") {
		t.Errorf("done not set: %q", got)
	}
	var xs []float64
	for _, k := range kids {
		p, v := *b.Position.Get(k), *b.Velocity.Get(k)
		if math.Abs(p.X) > 2 || math.Abs(p.Y) > 1 || p.Z != 0 {
			t.Errorf("position %v outside the 4 2 0 area", p)
		}
		if math.Abs(v.X) > 1 || v.Y != 0 || v.Z != 0 {
			t.Errorf("velocity %v outside +-(1 0 0)", v)
		}
		if s := b.Spin.Get(k); s == nil || s.Speed != 10 {
			t.Errorf("mixin not applied: spin %+v", s)
		}
		xs = append(xs, p.X)
	}
	if xs[0] == xs[1] {
		t.Error("positions not drawn")
	}
	// The same seed gives the same scene, another seed another one.
	_, b2, _, kids2 := spawn("mixin: ball; count: 20; area: 4 2 0; velocity: 1 0 0; seed: 7")
	_, b3, _, kids3 := spawn("mixin: ball; count: 20; area: 4 2 0; velocity: 1 0 0; seed: 8")
	for i := range kids {
		if *b2.Position.Get(kids2[i]) != *b.Position.Get(kids[i]) || *b2.Velocity.Get(kids2[i]) != *b.Velocity.Get(kids[i]) {
			t.Fatalf("child %d differs for the same seed", i)
		}
	}
	if *b3.Position.Get(kids3[0]) == *b.Position.Get(kids[0]) {
		t.Error("another seed gave the same first position")
	}

	// Changing the spawner later does not spawn again: init only.
	must(t, r.Set(e, "spawner", "count: 30"))
	if n := len(r.World().Children(e)); n != 20 {
		t.Errorf("%d children after a change", n)
	}
	// done: true (a dumped scene loaded back) and count 0 spawn nothing.
	for _, attr := range []string{"mixin: ball; count: 5; done: true", "mixin: ball"} {
		_, _, _, kids := spawn(attr)
		if len(kids) != 0 {
			t.Errorf("%q spawned %d", attr, len(kids))
		}
	}
	// No mixin: bare positioned entities, no velocity when none asked.
	_, b4, _, kids4 := spawn("count: 3")
	if len(kids4) != 3 || !b4.Position.Has(kids4[0]) || b4.Velocity.Has(kids4[0]) {
		t.Errorf("spawn without mixin: %d children", len(kids4))
	}
}

// TestSpawnerErrors checks that a spawn failure is reported as a
// spawnerror event on the spawner, with nothing spawned.
func TestSpawnerErrors(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	r.Mixins().Define(&registry.Mixin{ID: "cyclic", Mixins: []string{"cyclic"}})
	for _, tt := range []struct{ mixin, want string }{
		{"nope", `spawner: unknown mixin "nope"`},
		{"cyclic", `mixin cycle: cyclic -> cyclic`},
	} {
		e := w.NewEntity()
		var got []string
		r.Events().On(e, "spawnerror", func(ev *registry.Event) { got = append(got, fmt.Sprint(ev.Detail)) })
		must(t, r.Set(e, "spawner", "count: 2; mixin: "+tt.mixin))
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("mixin %s: spawnerror %q, want %q", tt.mixin, got, tt.want)
		}
		if n := len(w.Children(e)); n != 0 {
			t.Errorf("mixin %s: %d children", tt.mixin, n)
		}
	}
}

// TestSpawnerInTick checks that a spawner added by a tick hook spawns once
// the pass ends, safely.
func TestSpawnerInTick(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	_, err := registry.Register(r, "factory", registry.Definition[counter]{
		Tick: func(c *registry.Context, v *counter) {
			if v.N == 0 {
				v.N = 1
				must(t, c.Registry.Set(c.Entity, "spawner", "count: 4"))
			}
		},
	})
	must(t, err)
	e := w.NewEntity()
	must(t, r.Set(e, "factory", ""))
	r.Tick(0.1)
	if n := len(w.Children(e)); n != 4 {
		t.Errorf("%d children, want 4", n)
	}
	r.Tick(0.1)
	if n := len(w.Children(e)); n != 4 {
		t.Errorf("%d children after another frame", n)
	}
}

// TestResetSingleProperty checks that a single-property component resets
// with the empty property name, back to its own default.
func TestResetSingleProperty(t *testing.T) {
	w, r, _ := builtinRegistry(t)
	e := w.NewEntity()
	must(t, r.Set(e, "scale", "2 2 2"))
	must(t, r.ResetProperty(e, "scale", ""))
	if got, _ := r.Attr(e, "scale"); got != "1 1 1" {
		t.Errorf("scale after reset %q", got)
	}
}

// TestNames: Names lists every component and system Register registers,
// and nothing else.
func TestNames(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	if _, err := Register(reg); err != nil {
		t.Fatal(err)
	}
	names := Names()
	want := len(reg.Names()) + len(reg.Systems())
	if len(names) != want {
		t.Fatalf("%d names, want %d: %v", len(names), want, names)
	}
	for _, n := range names {
		_, comp := reg.Component(n)
		_, sys := reg.System(n)
		if !comp && !sys {
			t.Errorf("%q is neither a component nor a system of Register", n)
		}
	}
	for _, n := range []string{"position", "world", "physics", "spawner"} {
		if !slices.Contains(names, n) {
			t.Errorf("Names lacks %q", n)
		}
	}
}
