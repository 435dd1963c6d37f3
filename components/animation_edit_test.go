package components

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry"
)

// TestAnimationEdit is what a hot reload does (update with the old
// data): an edit keeps the elapsed time, unless it changes property or
// from, which restart the animation; to, dur and loop take effect where
// it is; a finished animation gets its new end value at once, without
// events.
func TestAnimationEdit(t *testing.T) {
	r, b := animRegistry(t)
	e := entityWith(t, r, "score=0", "stats=speed: 0", "animation=property: score; from: 0; to: 10; dur: 1000; easing: linear")
	var log eventLog
	log.listen(r, e, "animationbegin", "animationcomplete")
	ticks(t, r, 30)
	must(t, r.Set(e, "animation", "to: 20"))
	ticks(t, r, 6) // 36 ticks of 60: 3/5 of 20
	if v := num(t, r, e, "score", 0); math.Abs(v-12) > 1e-9 {
		t.Errorf("to edited: %v, want 12", v)
	}
	must(t, r.Set(e, "animation", "dur: 2000"))
	ticks(t, r, 6) // 42 ticks of 120
	if v := num(t, r, e, "score", 0); math.Abs(v-7) > 1e-9 {
		t.Errorf("dur edited: %v, want 7", v)
	}
	if log.take() != "" {
		t.Error("edits that keep the elapsed time emitted events")
	}
	must(t, r.Set(e, "animation", "from: 2"))
	if got := log.take(); got != "0 animationbegin {animation}" {
		t.Errorf("from edited: %q", got)
	}
	ticks(t, r, 60) // 60 ticks of 120 from 2 to 20
	if v := num(t, r, e, "score", 0); math.Abs(v-11) > 1e-9 {
		t.Errorf("from edited (restarted): %v, want 11", v)
	}
	must(t, r.Set(e, "animation", "property: stats.speed; from: 0"))
	ticks(t, r, 30)
	if v, s := num(t, r, e, "stats", 1), num(t, r, e, "score", 0); math.Abs(v-5) > 1e-9 || math.Abs(s-11) > 1e-9 {
		t.Errorf("property edited (restarted on stats.speed): speed %v, score %v", v, s)
	}
	ticks(t, r, 90)
	log.take()
	must(t, r.Set(e, "animation", "to: 40"))
	if v := num(t, r, e, "stats", 1); v != 40 || log.take() != "" {
		t.Errorf("finished, to edited: speed %v, want 40 at once without events", v)
	}
	must(t, r.Set(e, "animation", "loop: 2"))
	ticks(t, r, 60)
	if st, _ := b.Animations.State(e, "animation"); st.Running {
		t.Errorf("a finished animation does not start again on a loop edit: %+v", st)
	}
	must(t, r.Set(e, "animation", "enabled: false"))
	must(t, r.Set(e, "animation", "enabled: true"))
	ticks(t, r, 60)
	if v := num(t, r, e, "stats", 1); math.Abs(v-20) > 1e-9 {
		t.Errorf("enabled again: it begins from the start (loop 2, 60 of 2×120 ticks): %v, want 20", v)
	}
}

// TestAnimationKinds checks each kind of value: ints (truncated, as
// A-Frame's int parse), booleans (1 only at the end, A-Frame's), colours
// per channel in RGB (rounded), whole vectors, one axis (the others
// kept), vec2 and vec4, and a string property refused.
func TestAnimationKinds(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r, "stats=hp: 0; tint: #000000; aim: 1 1; q: 0 0 0 0", "position=1 2 3", "visible=false")
	for _, a := range []string{
		"animation__hp=property: stats.hp; to: 10; dur: 100; easing: linear",
		"animation__on=property: stats.on; to: true; dur: 100",
		"animation__tint=property: stats.tint; to: #ff8040; dur: 100; easing: linear",
		"animation__aim=property: stats.aim; to: 3 5; dur: 100; easing: linear",
		"animation__q=property: stats.q.w; to: 8; dur: 100; easing: linear",
		"animation__y=property: position.y; to: 8; dur: 100; easing: linear",
		"animation__vis=property: object3D.visible; to: true; dur: 100",
	} {
		name, attr, _ := strings.Cut(a, "=")
		must(t, r.Set(e, name, attr))
	}
	ticks(t, r, 4) // 2/3 of the way
	vs, err := r.Values(e, "stats")
	must(t, err)
	aim, q := vs[4].(registry.Vec2), vs[5].(registry.Vec4)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if vs[0] != 6 || vs[2] != false || vs[3] != (registry.Color{R: 170, G: 85, B: 43, A: 255}) ||
		!near(aim.X, 1+4.0/3) || !near(aim.Y, 1+8.0/3) || q.X != 0 || q.Z != 0 || !near(q.W, 16.0/3) {
		t.Errorf("stats at 2/3: %v", vs)
	}
	if p, _ := r.Values(e, "position"); p[0] != (registry.Vec3{X: 1, Y: 6, Z: 3}) {
		t.Errorf("position.y at 2/3: %v", p[0])
	}
	if v, _ := r.Values(e, "visible"); v[0] != false {
		t.Error("visible turned true before the end")
	}
	ticks(t, r, 2)
	vs, _ = r.Values(e, "stats")
	if vs[0] != 10 || vs[2] != true || vs[3] != (registry.Color{R: 255, G: 128, B: 64, A: 255}) {
		t.Errorf("stats at the end: %v", vs)
	}
	if v, _ := r.Values(e, "visible"); v[0] != true {
		t.Error("visible not true at the end")
	}
	must(t, r.Set(e, "animation__bad", "property: stats.label; to: x"))
	if err := r.TakeErrors(); err == nil || !strings.Contains(err.Error(), "animation__bad") ||
		!strings.Contains(err.Error(), "not a string") {
		t.Errorf("a string property: %v", err)
	}
}

// TestAnimationRuntimeErrors: data set from Go (not checked as a scene
// is) that cannot run is reported through the Registry's errors, once,
// naming the entity and the animation, and the animation stops.
func TestAnimationRuntimeErrors(t *testing.T) {
	r, b := animRegistry(t)
	must(t, r.Set(r.World().NewEntity(), "animation", "property: nothing.here"))
	e := entityWith(t, r, "score=0")
	must(t, r.SetEntityID(e, "scorer"))
	must(t, r.Set(e, "animation__x", "property: score; to: ten"))
	err := r.Tick(hz)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{`property "nothing.here"`, "entity #scorer: animation__x: to:", `"ten"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if st, _ := b.Animations.State(e, "animation__x"); st.Running {
		t.Error("a failed animation runs")
	}
	if err := r.Tick(hz); err != nil {
		t.Errorf("reported again: %v", err)
	}
	var ae *registry.AttrError
	if errors.As(err, &ae) {
		t.Errorf("runtime errors are not attribute errors: %v", ae)
	}
}

// TestAnimationStopsRelated: an animation that begins stops the others
// of the entity playing the same property (A-Frame's), under any
// spelling of its path; one on another property, or waiting for its
// delay, goes on.
func TestAnimationStopsRelated(t *testing.T) {
	r, b := animRegistry(t)
	e := entityWith(t, r, "position=0 0 0",
		"animation__a=property: position; to: 10 10 10; dur: 1000; easing: linear",
		"animation__x=property: object3D.position.x; to: -10; dur: 1000; easing: linear; startEvents: go",
		"animation__s=property: scale; to: 2 2 2; dur: 1000",
		"animation__d=property: position.x; to: 5; dur: 1000; delay: 5000; startEvents: go")
	ticks(t, r, 6)
	r.Events().Emit(e, "go", nil, false)
	for name, running := range map[string]bool{"animation__a": false, "animation__x": true, "animation__s": true, "animation__d": true} {
		if st, _ := b.Animations.State(e, name); st.Running != running {
			t.Errorf("%s running %v, want %v", name, st.Running, running)
		}
	}
	ticks(t, r, 6)
	p, _ := r.Values(e, "position")
	if got := p[0].(registry.Vec3); math.Abs(got.X-(1-11*0.1)) > 1e-9 || math.Abs(got.Y-1) > 1e-9 {
		t.Errorf("position after the takeover: %v", got)
	}
}
