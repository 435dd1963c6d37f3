package components

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// collideLog records the collide events that reach e as "tick:body>ground".
type collideLog struct {
	tick  int
	got   []string
	names map[ecs.Entity]string
}

func (l *collideLog) listen(r *registry.Registry, e ecs.Entity) {
	r.Events().On(e, "collide", func(ev *registry.Event) {
		d := ev.Detail.(CollideEvent)
		if d.Speed <= 0 {
			l.got = append(l.got, "bad speed")
		}
		l.got = append(l.got, fmt.Sprintf("%d:%s>%s(%s)", l.tick, l.names[ev.Target], l.names[d.Target], d.TargetID))
	})
}

func (l *collideLog) run(t *testing.T, r *registry.Registry, n int) string {
	t.Helper()
	for range n {
		l.tick++
		ticks(t, r, 1)
	}
	s := strings.Join(l.got, " ")
	l.got = nil
	return s
}

// TestCollide: a body that hits a ground gets collide (bubbling, naming
// the ground) once when it lands, once per bounce, not while it rests or
// slides; on every path physics steps bodies by (one flat ground: the
// fused loop; several, or acceleration: the table loops; a slope: the
// general one; under a turned parent: its parent's space).
func TestCollide(t *testing.T) {
	for _, tc := range []struct {
		name, ground, body string
		parent             bool
		want               string
	}{
		// 1 - 5t² brings the bottom of the unit cube to 0 at t ≈ 0.316 s:
		// step 19 of 1/60 s.
		{"fused", "restitution: 0", "position=0 1 0|gravity=0 -10 0|scale=1 1 1", false, "19:b>g(floor)"},
		{"table", "restitution: 0", "position=0 1 0|gravity=0 -10 0", false, "19:b>g(floor)"},
		{"acceleration", "restitution: 0", "position=0 1 0|acceleration=0 -10 0|velocity=0 0 0", false, "19:b>g(floor)"},
		{"bounces", "restitution: 0.7", "position=0 1 0|gravity=0 -10 0|scale=1 1 1", false,
			"19:b>g(floor) 45:b>g(floor) 62:b>g(floor) 73:b>g(floor) 80:b>g(floor) 84:b>g(floor)"},
		{"slope", "restitution: 0", "position=0 1 0|gravity=0 -10 0|scale=1 1 1", false, "19:b>g(floor)"},
		{"nested", "restitution: 0", "position=0 1 0|gravity=0 -10 0", true, "19:b>g(floor)"},
	} {
		r, _ := animRegistry(t)
		w := r.World()
		g := entityWith(t, r, "ground="+tc.ground, "position=0 -0.5 0", "scale=100 1 100")
		must(t, r.SetEntityID(g, "floor"))
		if tc.name == "slope" {
			must(t, r.Set(g, "rotation", "0 0 1"))
		}
		root := w.NewEntity()
		if tc.parent {
			must(t, r.Set(root, "rotation", "0 90 0"))
		}
		b := w.NewEntity()
		must(t, w.SetParent(b, root))
		for _, c := range strings.Split(tc.body, "|") {
			name, a, _ := strings.Cut(c, "=")
			must(t, r.Set(b, name, a))
		}
		l := &collideLog{names: map[ecs.Entity]string{b: "b", g: "g", root: "root"}}
		l.listen(r, root) // it bubbles from the body
		if got := l.run(t, r, 180); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestCollideAgain: a body at rest gets no more collides; woken and
// dropped again, it gets one.
func TestCollideAgain(t *testing.T) {
	r, bi := animRegistry(t)
	g := entityWith(t, r, "ground=restitution: 0", "position=0 -0.5 0", "scale=100 1 100")
	b := entityWith(t, r, "position=0 1 0", "gravity=0 -10 0")
	l := &collideLog{names: map[ecs.Entity]string{b: "b", g: "g"}}
	l.listen(r, b)
	if got := l.run(t, r, 120); strings.Count(got, "b>g") != 1 {
		t.Fatalf("first fall: %q", got)
	}
	if !r.World().Has(b, bi.SleepingID) {
		t.Fatal("not asleep")
	}
	must(t, r.Set(b, "position", "0 2 0"))
	if got := l.run(t, r, 120); strings.Count(got, "b>g") != 1 {
		t.Errorf("dropped again: %q", got)
	}
}
