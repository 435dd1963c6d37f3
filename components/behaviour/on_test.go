package behaviour_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

// world is a loaded scene for the behaviour tests: its registry, its
// entities by id, and helpers.
type world struct {
	t   *testing.T
	reg *registry.Registry
	sc  *loader.Scene
	log []string // the errors ticks returned
}

func load(t *testing.T, text string) *world {
	t.Helper()
	reg := newRegistry(t)
	sc, err := loader.LoadBytes(reg, "scene.yaml", []byte(text), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, reg: reg, sc: sc}
}

func (w *world) e(id string) ecs.Entity {
	w.t.Helper()
	e, ok := w.reg.EntityByID(id)
	if !ok {
		w.t.Fatalf("no entity #%s", id)
	}
	return e
}

func (w *world) attr(id, comp string) string {
	w.t.Helper()
	s, err := w.reg.Attr(w.e(id), comp)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return s
}

func (w *world) emit(id, event string, detail any) {
	w.reg.Events().Emit(w.e(id), event, detail, false)
}

func (w *world) tick(n int) {
	w.t.Helper()
	for range n {
		if err := w.reg.Tick(1.0 / 60); err != nil {
			w.log = append(w.log, err.Error())
		}
	}
}

// errs returns the errors reported since the last call: those ticks
// returned, then those waiting.
func (w *world) errs() string {
	if err := w.reg.TakeErrors(); err != nil {
		w.log = append(w.log, err.Error())
	}
	s := strings.Join(w.log, "\n")
	w.log = nil
	return s
}

const onScene = `
components:
  health: {hp: {type: int, default: 10}, label: {type: string}}
  score: {type: number, default: 0}
prefabs:
  rock:
    position: 0 0 0
    class: rock
entities:
  - id: base
    score: 0
    on__hurt: "set: score = score + detail.hp"
    children:
      - id: a
        class: friend
        health: {hp: 10}
        on__hit: "if: detail.damage > 3; set: health.hp = health.hp - detail.damage, color = health.hp < 5 ? '#ff0000' : '#ffff00'; emit: hurt with {hp: health.hp}"
        on__ping: {event: ping, from: .friend, set: "health.label = 'pinged by ' + string(event)"}
      - id: b
        on__boom: "target: .friend; set: scale = vec3(2, 2, 2); add: enemy; target: self; remove: visible; spawn: rock at vec3(detail.x, 0, 0), rock"
        visible: true
  - id: enemy-decl
    enemy:
`

// TestOnActions: conditions on the detail, sets computed from the
// components and the event, emits with a detail that bubble to an
// ancestor's handler, from filters on the source, targets by selector,
// add, remove and spawn.
func TestOnActions(t *testing.T) {
	w := load(t, onScene)
	w.emit("a", "hit", map[string]any{"damage": 2.0})
	if got := w.attr("a", "health"); got != "hp: 10; label: " {
		t.Errorf("a hit of 2 (below the condition) changed health: %s", got)
	}
	w.emit("a", "hit", map[string]any{"damage": 4.0})
	if got, c := w.attr("a", "health"), w.attr("a", "color"); got != "hp: 6; label: " || c != "#ffff00" {
		t.Errorf("after a hit of 4: health %s, color %s", got, c)
	}
	if got := w.attr("base", "score"); got != "6" {
		t.Errorf("hurt bubbled to base with hp 6: score %s", got)
	}
	w.emit("a", "hit", map[string]any{"damage": 5})
	if got, c, s := w.attr("a", "health"), w.attr("a", "color"), w.attr("base", "score"); got != "hp: 1; label: " || c != "#ff0000" || s != "7" {
		t.Errorf("after a hit of 5: health %s, color %s, score %s", got, c, s)
	}
	// from: the event must come from a .friend: a itself is one.
	w.emit("a", "ping", nil)
	if got := w.attr("a", "health"); got != "hp: 1; label: pinged by ping" {
		t.Errorf("ping: %s", got)
	}
	w.emit("b", "boom", map[string]any{"x": 3})
	if got := w.attr("a", "scale"); got != "2 2 2" || !w.reg.Has(w.e("a"), "enemy") {
		t.Errorf("target .friend: scale %s, enemy %v", got, w.reg.Has(w.e("a"), "enemy"))
	}
	if w.reg.Has(w.e("b"), "visible") || w.reg.Has(w.e("b"), "scale") || w.reg.Has(w.e("b"), "enemy") {
		t.Error("target: self did not go back to b, or the first target clause reached it")
	}
	rocks, _ := w.reg.QueryAll("#b > .rock")
	if len(rocks) != 2 {
		t.Fatalf("spawned %d rocks under b, want 2", len(rocks))
	}
	if p, _ := w.reg.Attr(rocks[0], "position"); p != "3 0 0" {
		t.Errorf("the first rock is at %s, want 3 0 0", p)
	}
	if p, _ := w.reg.Attr(rocks[1], "position"); p != "0 0 0" {
		t.Errorf("the second rock (no at) is at %s, want the prefab's 0 0 0", p)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}

// TestOnFrom: a handler with from ignores an event whose source (its
// target: where it was emitted) does not match, also one bubbling from a
// child that does not match.
func TestOnFrom(t *testing.T) {
	w := load(t, `
entities:
  - id: p
    on: "event: ping; from: .bullet; add: enemy"
    children:
      - id: plain
      - id: bullet
        class: bullet
`)
	w.reg.Events().Emit(w.e("plain"), "ping", nil, true)
	w.emit("p", "ping", nil)
	if w.reg.Has(w.e("p"), "enemy") {
		t.Fatal("a ping from a source that is not a .bullet ran the handler")
	}
	w.reg.Events().Emit(w.e("bullet"), "ping", nil, true)
	if !w.reg.Has(w.e("p"), "enemy") {
		t.Error("a ping bubbling from the .bullet did not run the handler")
	}
}

// TestOnControlsAnimationsAndTimers: start, pause, resume, stop and
// restart reach animations and timers; an animation begun by on moves
// from the next tick.
func TestOnControlsAnimationsAndTimers(t *testing.T) {
	w := load(t, `
components:
  n: {type: number}
entities:
  - id: d
    n: 0
    animation__up: "property: n; from: 0; to: 60; dur: 1000; easing: linear; autoplay: false"
    timer__t: "delay: 100; repeat: true; autoplay: false; event: tock"
    on__go: "event: go; start: animation__up, timer__t"
    on__hold: "event: hold; pause: animation__up, timer__t"
    on__again: "event: again; resume: animation__up, timer__t"
    on__halt: "event: halt; stop: timer__t; restart: animation__up"
    on__tock: "set: n = n + 1000"
`)
	w.tick(5)
	if got := w.attr("d", "n"); got != "0" {
		t.Fatalf("the animation ran before go: n %s", got)
	}
	w.emit("d", "go", nil)
	w.tick(10)
	if got := w.attr("d", "n"); got != "10" {
		t.Errorf("10 ticks after go: n %s, want 10", got)
	}
	w.emit("d", "hold", nil)
	w.tick(10)
	if got := w.attr("d", "n"); got != "10" {
		t.Errorf("paused: n %s, want 10", got)
	}
	w.emit("d", "again", nil)
	w.tick(2)
	// The timer fired once at 100 ms (tick 6 after go), which the
	// animation overwrote; n follows the animation again.
	if got := w.attr("d", "n"); got != "12" {
		t.Errorf("resumed: n %s, want 12", got)
	}
	w.emit("d", "halt", nil)
	w.tick(1)
	if got := w.attr("d", "n"); got != "1" {
		t.Errorf("restarted: n %s, want 1", got)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}

// TestOnRunsHooks: a set reaches a component with an update hook
// through its hook (an animation retargets), and an entity that listens
// to componentchanged hears about the sets.
func TestOnRunsHooks(t *testing.T) {
	w := load(t, `
components:
  n: {type: number}
  seen: {type: int}
entities:
  - id: d
    n: 0
    seen: 0
    position: 0 0 0
    animation: "property: n; from: 0; to: 10; dur: 1000; easing: linear"
    on__far: "event: far; set: animation.to = 100"
    on__bump: "event: bump; set: position.x = 5"
    on__changed: "event: componentchanged; if: detail.name == 'position'; set: seen = seen + 1"
`)
	w.tick(30)
	w.emit("d", "far", nil)
	w.tick(15)
	if got := w.attr("d", "n"); got != "75" {
		t.Errorf("animation.to set to 100 at half time, 15 ticks later: n %s, want 75", got)
	}
	w.emit("d", "bump", nil)
	w.emit("d", "bump", nil) // the same value: no change, no event
	if got := w.attr("d", "seen"); got != "1" {
		t.Errorf("componentchanged heard %s times, want 1", got)
	}
}

// TestOnNestingBounded: a handler whose action emits the event it
// handles stops at the nesting bound with one error; a handler that
// removes itself runs once.
func TestOnNestingBounded(t *testing.T) {
	w := load(t, `
components:
  n: {type: int}
entities:
  - id: d
    n: 0
    on__loop: "event: loop; set: n = n + 1; emit: loop"
    on__once: "event: once; remove: on__once; set: n = 1000; emit: once"
`)
	w.emit("d", "loop", nil)
	if got := w.attr("d", "n"); got != "32" {
		t.Errorf("loop ran %s times, want 32", got)
	}
	if e := w.errs(); !strings.Contains(e, "on__loop: loop: handlers nested more than 32 deep") || strings.Count(e, "\n") != 0 {
		t.Errorf("errors: %q", e)
	}
	w.emit("d", "once", nil)
	if got := w.attr("d", "n"); got != "32" {
		t.Errorf("once: n %s: the handler went on after removing itself", got)
	}
	w.emit("d", "once", nil)
	if w.reg.Has(w.e("d"), "on__once") {
		t.Error("on__once is still there")
	}
}

// TestOnRunTimeErrors: what fails while the scene runs (a detail of the
// wrong kind, a component the entity lost, a value no property holds)
// is reported once per message, naming the entity and the handler; the
// handler goes on working for good events.
func TestOnRunTimeErrors(t *testing.T) {
	w := load(t, `
components:
  health: {hp: {type: int, default: 10}}
entities:
  - id: d
    health: {hp: 10}
    on__hit: "if: detail.damage > 0; set: health.hp = health.hp - detail.damage"
    on__heal: "set: health.hp = health.hp + 0.5"
    on__stun: "start: animation__stun"
    on__huge: "set: health.hp = 2 ** 64"
    on__cast: "set: health.hp = int(1e300)"
  - id: bare
    health: {hp: 1}
    on__hit: "set: health.hp = health.hp - 1"
`)
	if err := w.reg.Remove(w.e("bare"), "health"); err != nil { // lost at run time
		t.Fatal(err)
	}
	w.emit("d", "hit", map[string]any{"damage": "lots"})
	w.emit("d", "hit", map[string]any{"damage": "lots"})
	w.emit("d", "heal", nil)
	w.emit("d", "stun", nil)
	w.emit("d", "huge", nil)
	w.emit("d", "cast", nil)
	w.emit("bare", "hit", nil)
	got := w.errs()
	for _, want := range []string{
		`entity #d: on__hit: if: detail.damage is a string ("lots"), not a number`,
		`entity #d: on__heal: set health on #d: the value is 10.5, not a whole number (the property is an int)`,
		`entity #d: on__stun: start animation__stun: components: #d has no animation "animation__stun"`,
		`entity #d: on__huge: set health on #d: the value is 1.8446744073709552e+19, out of the int range (the property is an int, and a number is exact up to ±2^53)`,
		`entity #d: on__cast: set health.hp: int(1e300): 1e+300 is out of the int range`,
		`entity #bare: on__hit: an expression reads health, which #bare does not have`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "on__hit: if:"); n != 1 {
		t.Errorf("the same error reported %d times", n)
	}
	w.emit("d", "hit", map[string]any{"damage": 3})
	if got := w.attr("d", "health"); got != "hp: 7" {
		t.Errorf("a good hit after bad ones: %s", got)
	}
}

func mustOK(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestOnBuiltinDetails: expressions read the details of the built-in
// events by their lower-case names: a timer's name and count, an
// animation's name, a collide's ground and speed, a component event's
// name.
func TestOnBuiltinDetails(t *testing.T) {
	w := load(t, `
components:
  log: {type: string}
  n: {type: number}
entities:
  - id: floor
    ground: "restitution: 0"
    position: 0 -0.5 0
    scale: 100 1 100
  - id: d
    log: ""
    n: 0
    position: 0 1 0
    gravity: 0 -10 0
    timer__t: "delay: 100; repeat: 2; event: tock"
    animation__a: "property: n; to: 1; dur: 50"
    on__tock: "set: log = log + '|' + detail.name + ' ' + string(detail.count)"
    on__done: "event: animationcomplete; set: log = log + '|done ' + detail.name"
    on__hit: "event: collide; if: detail.speed > 1 && detail.targetId == 'floor'; set: log = log + '|landed'"
    on__seen: "event: componentinitialized; set: log = log + '|init ' + detail.name"
`)
	w.tick(40)
	mustOK(t, w.reg.Set(w.e("d"), "visible", "true"))
	// on__seen hears the init of the handler set after it ("on", no instance id).
	want := "|init on|done animation__a|timer__t 1|timer__t 2|timer__t 3|landed|init visible"
	if got := w.attr("d", "log"); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}
