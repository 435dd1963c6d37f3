package behaviour_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// attr returns e's component name as attribute text.
func attr(t testing.TB, r *registry.Registry, e ecs.Entity, name string) string {
	t.Helper()
	s, err := r.Attr(e, name)
	must(t, err)
	return s
}

// TestEventSet: the event (_event, or the instance id) sets each pair on
// the entity: a whole component (single- or multi-property), a property,
// one axis of a vector (the others kept); missing components are added;
// the target sees componentchanged.
func TestEventSet(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r, "position=1 2 3", "stats=hp: 1; speed: 1",
		"event-set=_event: hit; color: red; scale: 2 2 2; stats.hp: 5; position.y: 9",
		"event-set__click=stats: speed: 4; stats.on: true; visible: false")
	var changed []string
	r.Events().On(e, "componentchanged", func(ev *registry.Event) { changed = append(changed, ev.Detail.(registry.ComponentEvent).String()) })
	if r.Has(e, "color") {
		t.Fatal("set before the event")
	}
	r.Events().Emit(e, "hit", nil, false)
	for name, want := range map[string]string{"color": "#ff0000", "scale": "2 2 2", "position": "1 9 3",
		"stats": "hp: 5; speed: 1; on: false; tint: #000000; aim: 0 0; q: 0 0 0 1; label: "} {
		if got := attr(t, r, e, name); got != want {
			t.Errorf("after hit, %s: %q, want %q", name, got, want)
		}
	}
	r.Events().Emit(e, "click", nil, false)
	if got := attr(t, r, e, "stats"); !strings.HasPrefix(got, "hp: 5; speed: 4; on: true;") {
		t.Errorf("after click, stats: %q", got)
	}
	if got := attr(t, r, e, "visible"); got != "false" {
		t.Errorf("after click, visible: %q", got)
	}
	// color, scale and visible were added (componentinitialized).
	if got := strings.Join(changed, " "); got != "stats position stats stats" {
		t.Errorf("componentchanged: %s", got)
	}
	// An edit listens to the new event only.
	must(t, r.Set(e, "event-set__click", "_event: tap; stats.hp: 8"))
	r.Events().Emit(e, "click", nil, false)
	r.Events().Emit(e, "tap", nil, false)
	if got := attr(t, r, e, "stats"); !strings.HasPrefix(got, "hp: 8;") {
		t.Errorf("after the edit and tap: %q", got)
	}
	// Removed, it listens no more; a paused entity does not listen.
	must(t, r.Remove(e, "event-set__click"))
	must(t, r.Set(e, "stats", "hp: 0"))
	r.Events().Emit(e, "tap", nil, false)
	must(t, r.PauseEntity(e))
	r.Events().Emit(e, "hit", nil, false)
	if got := attr(t, r, e, "stats"); !strings.HasPrefix(got, "hp: 0;") {
		t.Errorf("removed or paused, it set: %q", got)
	}
}

// TestEventSetTargetDelay: _target sets the first entity the selector
// matches (A-Frame's querySelector), resolved when the event arrives;
// _delay waits in scene time, each event its own wait; a target that
// matches nothing is reported.
func TestEventSetTargetDelay(t *testing.T) {
	r, _ := animRegistry(t)
	src := entityWith(t, r, "event-set__go=_target: .lamp; color: blue; _delay: 100",
		"event-set__now=_event: go; _target: #late; score: 7")
	lamps := []ecs.Entity{entityWith(t, r, "color=white"), entityWith(t, r, "color=white")}
	for _, l := range lamps {
		must(t, r.SetClasses(l, []string{"lamp"}))
	}
	r.Events().Emit(src, "go", nil, false)
	if err := r.TakeErrors(); err == nil || !strings.Contains(err.Error(), `_target "#late" matches no entity`) {
		t.Errorf("a target that matches nothing: %v", err)
	}
	late := r.World().NewEntity()
	must(t, r.SetEntityID(late, "late"))
	ticks(t, r, 3)
	r.Events().Emit(src, "go", nil, false) // a second wait, 3 ticks after the first
	if got := attr(t, r, late, "score"); got != "7" {
		t.Errorf("target resolved when the event arrives: score %q", got)
	}
	ticks(t, r, 2)
	if got := attr(t, r, lamps[0], "color"); got != "#ffffff" {
		t.Errorf("before the delay: %q", got)
	}
	ticks(t, r, 1)
	if got, other := attr(t, r, lamps[0], "color"), attr(t, r, lamps[1], "color"); got != "#0000ff" || other != "#ffffff" {
		t.Errorf("after the delay: first lamp %q, second %q", got, other)
	}
	must(t, r.Set(lamps[0], "color", "white"))
	ticks(t, r, 3)
	if got := attr(t, r, lamps[0], "color"); got != "#0000ff" {
		t.Errorf("the second event's set: %q", got)
	}
	// A set that waits on a removed event-set is dropped.
	r.Events().Emit(src, "go", nil, false)
	must(t, r.Remove(src, "event-set__go"))
	must(t, r.Set(lamps[0], "color", "white"))
	ticks(t, r, 10)
	if got := attr(t, r, lamps[0], "color"); got != "#ffffff" {
		t.Errorf("set after its event-set went: %q", got)
	}
}

// TestEventSetRuntimeErrors: pairs set from Go that do not compile are
// reported when set (a scene's are load errors), the others still work.
func TestEventSetRuntimeErrors(t *testing.T) {
	r, _ := animRegistry(t)
	e := entityWith(t, r)
	must(t, r.SetEntityID(e, "src"))
	for _, tc := range []struct{ attr, want string }{
		{"_event: a; colour: red", `entity #src: event-set: invalid value "colour": expected the name of a component (did you mean "color"?)`},
		{"_event: a; stats.hq: 1", `invalid value "hq": expected unknown property "hq" (did you mean "hp"?)`},
		{"_event: a; scale: 1 2 x", `invalid value "x": expected a number for z of a vec3`},
		{"_event: a; _delay: -5", `invalid value "-5": expected a delay in milliseconds`},
		{"_event: a; _target: #(", `expected`},
		{"_event: a; position.q: 1", `invalid value "q": expected an axis of position (xyz)`},
		{"_event: a; visible.x: 1", `invalid value "x": expected nothing after visible ("visible: VALUE": it has a single property)`},
	} {
		must(t, r.Set(e, "event-set", tc.attr))
		if err := r.TakeErrors(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %s", tc.attr, err, tc.want)
		}
	}
	if _, err := schema.ParsePairs("a: 1; nocolon"); err == nil {
		t.Error("a chunk without ':' parsed")
	}
}
