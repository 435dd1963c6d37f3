package behaviour_test

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

const hz = 1.0 / 60

// animRegistry returns a registry with the built-ins and two declared
// components: score (a single number) and stats (one property of every
// kind an animation writes).
func animRegistry(t testing.TB) (*registry.Registry, *components.Builtins) {
	t.Helper()
	_, r, b := builtinRegistry(t)
	declare := func(name string, specs ...registry.PropSpec) {
		s, err := schema.NewSchema(specs, r.Types())
		must(t, err)
		_, err = r.Declare(name, s)
		must(t, err)
	}
	declare("score", registry.PropSpec{Type: "number"})
	declare("stats",
		registry.PropSpec{Name: "hp", Type: "int"}, registry.PropSpec{Name: "speed", Type: "number"},
		registry.PropSpec{Name: "on", Type: "boolean"}, registry.PropSpec{Name: "tint", Type: "color", Default: "#000000"},
		registry.PropSpec{Name: "aim", Type: "vec2"}, registry.PropSpec{Name: "q", Type: "vec4"},
		registry.PropSpec{Name: "label", Type: "string"})
	return r, b
}

// entityWith makes an entity with the components "name=attr".
func entityWith(t testing.TB, r *registry.Registry, comps ...string) ecs.Entity {
	t.Helper()
	e := r.World().NewEntity()
	for _, c := range comps {
		name, attr, _ := strings.Cut(c, "=")
		must(t, r.Set(e, name, attr))
	}
	return e
}

func ticks(t testing.TB, r *registry.Registry, n int) {
	t.Helper()
	for range n {
		must(t, r.Tick(hz))
	}
}

// num returns property i of e's component name as a float64.
func num(t testing.TB, r *registry.Registry, e ecs.Entity, name string, i int) float64 {
	t.Helper()
	vs, err := r.Values(e, name)
	must(t, err)
	switch v := vs[i].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	}
	t.Fatalf("%s[%d] is %T", name, i, vs[i])
	return 0
}

// eventLog records the animation events of e as "tick name detail".
type eventLog struct {
	tick int
	got  []string
}

func (l *eventLog) listen(r *registry.Registry, e ecs.Entity, names ...string) {
	for _, n := range names {
		r.Events().On(e, n, func(ev *registry.Event) { l.got = append(l.got, fmt.Sprintf("%d %s %v", l.tick, ev.Name, ev.Detail)) })
	}
}

func (l *eventLog) take() string {
	s := strings.Join(l.got, " | ")
	l.got = nil
	return s
}

// TestAnimationSceneTime: a linear tween of a number reads exactly its
// middle after half its duration in ticks of 1/60 s, its end after the
// duration; animationbegin comes when it begins, animationcomplete (and
// animationcomplete__ID) when it ends, with A-Frame's {name}.
func TestAnimationSceneTime(t *testing.T) {
	r, b := animRegistry(t)
	var log eventLog
	e := r.World().NewEntity()
	log.listen(r, e, "animationbegin", "animationcomplete", "animationcomplete__up")
	must(t, r.Set(e, "score", "0"))
	must(t, r.Set(e, "animation__up", "property: score; from: 0; to: 10; dur: 1000; easing: linear"))
	if got := log.take(); got != "0 animationbegin {animation__up}" {
		t.Errorf("at load: %s", got)
	}
	for log.tick = 1; log.tick <= 30; log.tick++ {
		ticks(t, r, 1)
	}
	if v := num(t, r, e, "score", 0); v != 5 {
		t.Errorf("after 30 ticks: %v, want 5", v)
	}
	for ; log.tick <= 61; log.tick++ {
		ticks(t, r, 1)
	}
	if v := num(t, r, e, "score", 0); v != 10 {
		t.Errorf("at the end: %v, want 10", v)
	}
	if got := log.take(); got != "60 animationcomplete {animation__up} | 60 animationcomplete__up {animation__up}" {
		t.Errorf("events: %s", got)
	}
	st, ok := b.Animations.State(e, "animation__up")
	if !ok || !st.Done || st.Running || st.Progress != 1 || st.Play != 1 {
		t.Errorf("state after the end: %+v, %v", st, ok)
	}
	// The default easing is easeInQuad, as A-Frame's.
	e2 := entityWith(t, r, "score=0", "animation=property: score; to: 10")
	ticks(t, r, 30)
	if v := num(t, r, e2, "score", 0); math.Abs(v-2.5) > 1e-12 {
		t.Errorf("easeInQuad at half time: %v, want 2.5", v)
	}
}

// TestAnimationLoopDir checks loop and dir as A-Frame's anime.js counts
// plays: loop plays (0 and 1: one), one more for reverse, two for
// alternate with loop 1; alternate turns back after each play.
func TestAnimationLoopDir(t *testing.T) {
	// dur 100 ms = 6 ticks; values at ticks 3, 6, 9, 12, 15, 18 and
	// the tick the animation completed at (0: never).
	for _, tc := range []struct {
		attr string
		want string
		done int
	}{
		{"loop: 0", "5 10 10 10 10 10", 6},
		{"loop: false", "5 10 10 10 10 10", 6},
		{"loop: 1", "5 10 10 10 10 10", 6},
		{"loop: 2", "5 0 5 10 10 10", 12},
		{"loop: 3; dir: alternate", "5 10 5 0 5 10", 18},
		{"loop: 1; dir: alternate", "5 10 5 0 0 0", 12},
		{"loop: 2; dir: alternate", "5 10 5 0 0 0", 12},
		{"dir: reverse", "5 0 0 0 0 0", 6},
		{"loop: 2; dir: reverse", "5 10 5 10 5 0", 18},
		{"loop: true", "5 0 5 0 5 0", 0},
		{"loop: true; dir: alternate", "5 10 5 0 5 10", 0},
	} {
		r, _ := animRegistry(t)
		var log eventLog
		e := entityWith(t, r, "score=0")
		log.listen(r, e, "animationcomplete")
		must(t, r.Set(e, "animation", "property: score; from: 0; to: 10; dur: 100; easing: linear; "+tc.attr))
		var got []string
		for log.tick = 1; log.tick <= 18; log.tick++ {
			ticks(t, r, 1)
			if log.tick%3 == 0 {
				got = append(got, fmt.Sprint(math.Round(num(t, r, e, "score", 0)*1e9)/1e9))
			}
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%s: %s, want %s", tc.attr, s, tc.want)
		}
		want := ""
		if tc.done > 0 {
			want = fmt.Sprintf("%d animationcomplete {animation}", tc.done)
		}
		if s := log.take(); s != want {
			t.Errorf("%s: events %q, want %q", tc.attr, s, want)
		}
	}
}

// TestAnimationDelayRound: the delay holds the property as it is, the
// animation begins (animationbegin, from sampled) when it is over; round
// writes whole numbers.
func TestAnimationDelayRound(t *testing.T) {
	r, _ := animRegistry(t)
	var log eventLog
	e := entityWith(t, r, "score=1")
	log.listen(r, e, "animationbegin")
	must(t, r.Set(e, "animation", "property: score; to: 11; dur: 100; delay: 100; easing: linear; round: true"))
	for log.tick = 1; log.tick <= 3; log.tick++ {
		ticks(t, r, 1)
	}
	must(t, r.Set(e, "score", "3")) // during the delay: from will be 3
	for ; log.tick <= 5; log.tick++ {
		ticks(t, r, 1)
	}
	if v := num(t, r, e, "score", 0); v != 3 || log.take() != "" {
		t.Errorf("during the delay: %v", v)
	}
	for ; log.tick <= 6; log.tick++ {
		ticks(t, r, 1)
	}
	if got := log.take(); got != "6 animationbegin {animation}" {
		t.Errorf("begin: %q", got)
	}
	ticks(t, r, 1) // 1/6 of the way from 3 to 11: 4.33, rounded
	if v := num(t, r, e, "score", 0); v != 4 {
		t.Errorf("one tick in: %v, want 4 (rounded)", v)
	}
	ticks(t, r, 2) // half way: 7
	if v := num(t, r, e, "score", 0); v != 7 {
		t.Errorf("half way: %v, want 7", v)
	}
}

// TestAnimationEvents: startEvents turn autoplay off and (re)start the
// animation from the current value; pauseEvents and resumeEvents hold
// and release it; restartEvents restart an autoplaying one; a disabled
// animation ignores them.
func TestAnimationEvents(t *testing.T) {
	r, b := animRegistry(t)
	e := entityWith(t, r, "score=0",
		"animation=property: score; to: 10; dur: 100; easing: linear; startEvents: go; pauseEvents: hold; resumeEvents: free")
	ticks(t, r, 10)
	if v := num(t, r, e, "score", 0); v != 0 {
		t.Errorf("with startEvents, it does not autoplay: %v", v)
	}
	r.Events().Emit(e, "go", nil, false)
	ticks(t, r, 3)
	r.Events().Emit(e, "hold", nil, false)
	ticks(t, r, 20)
	if v := num(t, r, e, "score", 0); math.Abs(v-5) > 1e-9 {
		t.Errorf("held half way: %v", v)
	}
	if st, _ := b.Animations.State(e, "animation"); !st.Paused || !st.Running {
		t.Errorf("held: %+v", st)
	}
	r.Events().Emit(e, "free", nil, false)
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); v != 10 {
		t.Errorf("resumed to the end: %v", v)
	}
	r.Events().Emit(e, "go", nil, false) // starts again, from 10 (the current value) to 10
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); v != 10 {
		t.Errorf("restarted from the current value: %v", v)
	}
	must(t, r.Set(e, "score", "4"))
	must(t, r.Set(e, "animation", "enabled: false"))
	r.Events().Emit(e, "go", nil, false)
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); v != 4 {
		t.Errorf("disabled, start events are ignored: %v", v)
	}

	// restartEvents restart without turning autoplay off.
	e2 := entityWith(t, r, "score=0", "animation=property: score; from: 0; to: 10; dur: 100; easing: linear; restartEvents: again")
	ticks(t, r, 9)
	if v := num(t, r, e2, "score", 0); v != 10 {
		t.Errorf("autoplayed to the end: %v", v)
	}
	r.Events().Emit(e2, "again", nil, false)
	ticks(t, r, 3)
	if v := num(t, r, e2, "score", 0); math.Abs(v-5) > 1e-9 {
		t.Errorf("restarted: %v, want 5", v)
	}
}

// TestAnimationRestart is A-Frame's pitfall: setting the same data again
// does not restart a finished animation (no update runs); Restart does.
func TestAnimationRestart(t *testing.T) {
	r, b := animRegistry(t)
	const attr = "property: score; from: 0; to: 10; dur: 100; easing: linear"
	e := entityWith(t, r, "score=0", "animation="+attr)
	var log eventLog
	log.listen(r, e, "animationbegin", "animationcomplete")
	ticks(t, r, 6)
	if log.take() != "0 animationcomplete {animation}" {
		t.Fatal("no completion")
	}
	must(t, r.Set(e, "animation", attr))
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); v != 10 || log.take() != "" {
		t.Errorf("the same data again restarted it: %v", v)
	}
	must(t, b.Animations.Restart(e, "animation"))
	if got := log.take(); got != "0 animationbegin {animation}" {
		t.Errorf("Restart: %q", got)
	}
	ticks(t, r, 3)
	if v := num(t, r, e, "score", 0); math.Abs(v-5) > 1e-9 {
		t.Errorf("after Restart and 3 ticks: %v, want 5", v)
	}
	must(t, b.Animations.Stop(e, "animation"))
	ticks(t, r, 3)
	if st, _ := b.Animations.State(e, "animation"); st.Running || math.Abs(num(t, r, e, "score", 0)-5) > 1e-9 {
		t.Errorf("Stop: %+v", st)
	}
	if err := b.Animations.Restart(e, "animation__nope"); err == nil {
		t.Error("Restart of an animation the entity lacks succeeded")
	}
	if err := b.Animations.Pause(r.World().NewEntity(), "animation"); err == nil {
		t.Error("Pause on an entity without the animation succeeded")
	}
}
