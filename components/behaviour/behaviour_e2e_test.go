package behaviour_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// behaviourScene is one scene in the three spellings: a counter tweened
// in scene time, a door a timer opens, a lamp whose bulb goes out when
// the scene is loaded (after a delay) and whose colour pulses, a rock
// that turns red when it hits the floor.
var behaviourScene = map[string]string{
	"scene.yaml": `
components:
  score: {type: number, default: 0}
entities:
  - id: counter
    score: 0
    animation: "property: score; from: 0; to: 10; dur: 1000; easing: linear"
    event-set__done: "_event: animationcomplete; color: #00ff00"
  - id: door
    position: 0 0 0
    timer: {delay: 250, event: open}
    animation__open: {property: object3D.position.y, to: 3, dur: 500, easing: easeOutQuad, startEvents: open}
  - id: lamp
    color: white
    event-set__blink: "_event: loaded; _target: #bulb; visible: false; _delay: 100"
    animation__glow: "property: color; from: #000000; to: #ffffff; dur: 200; dir: alternate; loop: true; easing: linear"
  - id: bulb
    visible: true
  - id: floor
    ground: "restitution: 0"
    position: 0 -0.5 0
    scale: 100 1 100
  - id: rock
    position: 0 1 0
    gravity: 0 -10 0
    event-set__collide: "color: red"
`,
	"scene.xml": `<scene>
  <components><component name="score" type="number" default="0"/></components>
  <entity id="counter" score="0" animation="property: score; from: 0; to: 10; dur: 1000; easing: linear"
          event-set__done="_event: animationcomplete; color: #00ff00"/>
  <entity id="door" position="0 0 0" timer="delay: 250; event: open"
          animation__open="property: object3D.position.y; to: 3; dur: 500; easing: easeOutQuad; startEvents: open"/>
  <entity id="lamp" color="white" event-set__blink="_event: loaded; _target: #bulb; visible: false; _delay: 100"
          animation__glow="property: color; from: #000000; to: #ffffff; dur: 200; dir: alternate; loop: true; easing: linear"/>
  <entity id="bulb" visible="true"/>
  <entity id="floor" ground="restitution: 0" position="0 -0.5 0" scale="100 1 100"/>
  <entity id="rock" position="0 1 0" gravity="0 -10 0" event-set__collide="color: red"/>
</scene>`,
	"scene.json": `{"components": {"score": {"type": "number", "default": "0"}}, "entities": [
  {"id": "counter", "components": {"score": 0, "animation": "property: score; from: 0; to: 10; dur: 1000; easing: linear",
    "event-set__done": "_event: animationcomplete; color: #00ff00"}},
  {"id": "door", "components": {"position": {"x": 0, "y": 0, "z": 0}, "timer": {"delay": 250, "event": "open"},
    "animation__open": {"property": "object3D.position.y", "to": "3", "dur": 500, "easing": "easeOutQuad", "startEvents": "open"}}},
  {"id": "lamp", "components": {"color": "white", "event-set__blink": "_event: loaded; _target: #bulb; visible: false; _delay: 100",
    "animation__glow": "property: color; from: #000000; to: #ffffff; dur: 200; dir: alternate; loop: true; easing: linear"}},
  {"id": "bulb", "components": {"visible": true}},
  {"id": "floor", "components": {"ground": "restitution: 0", "position": "0 -0.5 0", "scale": "100 1 100"}},
  {"id": "rock", "components": {"position": "0 1 0", "gravity": "0 -10 0", "event-set__collide": "color: red"}}
]}`,
}

func newRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// runScene loads a scene, runs n ticks at 60 Hz and returns the JSON
// dump of the World.
func runScene(t *testing.T, name, text string, n int) string {
	t.Helper()
	reg := newRegistry(t)
	if _, err := loader.LoadBytes(reg, name, []byte(text), loader.Options{}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for range n {
		if err := reg.Tick(1.0 / 60); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var b bytes.Buffer
	if err := export.WriteJSON(&b, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBehaviourEndToEnd loads the scene in each spelling, runs it and
// reads the dump: every spelling gives the same World, twice the same
// (runs are deterministic), with what the behaviour did.
func TestBehaviourEndToEnd(t *testing.T) {
	want := runScene(t, "scene.yaml", behaviourScene["scene.yaml"], 45)
	for name, text := range behaviourScene {
		for run := range 2 {
			if got := runScene(t, name, text, 45); got != want {
				t.Errorf("%s (run %d): the dump differs from scene.yaml's:\n%s\nwant\n%s", name, run, got, want)
			}
		}
	}
	for _, frag := range []string{
		`"score":7.5`,                    // 45 ticks of a 1 s tween to 10
		`"position":{"x":0,"y":3,"z":0}`, // the door: opened at tick 15, for 30 ticks
		`"visible":false`,                // the bulb, 100 ms after loaded
		`"color":"#ff0000"`,              // the rock hit the floor (tick 19)
		`"color":"#404040"`,              // the lamp: 45 ticks into its 200 ms alternate pulse: 1/4 up
	} {
		if !strings.Contains(want, frag) {
			t.Errorf("the dump lacks %s:\n%s", frag, want)
		}
	}
	if strings.Contains(want, `"color":"#00ff00"`) {
		t.Error("the counter's animation completed early")
	}
	if got := runScene(t, "scene.yaml", behaviourScene["scene.yaml"], 60); !strings.Contains(got, `"color":"#00ff00"`) {
		t.Error("animationcomplete did not reach the counter's event-set at tick 60")
	}
}

// posOf returns "name:line:col" of the n-th occurrence (from 1) of
// marker in text, columns counted in characters from 1.
func posOf(name, text, marker string, n int) string {
	at := -1
	for range n {
		at += 1 + strings.Index(text[at+1:], marker)
	}
	line := 1 + strings.Count(text[:at], "\n")
	col := 1 + len([]rune(text[strings.LastIndexByte(text[:at], '\n')+1:at]))
	return name + ":" + itoa(line) + ":" + itoa(col)
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestBehaviourLoadErrors: what the animation and event-set components
// check when a scene loads is an error at file:line:col, pointing inside
// the attribute string (or at the mapping's value), in every spelling.
func TestBehaviourLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		yaml, xml, json string // the value, in each spelling
		marker          string // text around the offending text, once in each file
		off             int    // where the offending text starts in marker
		msg             string
	}{
		{`"property: score.y; to: 1"`, `property: score.y; to: 1`, `"property: score.y; to: 1"`, "score.y", 6,
			`animation: property "property": invalid value "y": expected a vector property before the axis (number has none)`},
		{`"property: positon.x; to: 1"`, `property: positon.x; to: 1`, `"property: positon.x; to: 1"`, "positon", 0,
			`animation: property "property": invalid value "positon": expected the name of a component (did you mean "position"?)`},
		{`"property: position; to: 1 2 zz"`, `property: position; to: 1 2 zz`, `"property: position; to: 1 2 zz"`, "zz", 0,
			`animation: property "to": invalid value "zz": expected a number for z of a vec3`},
		// A quoted value in a mapping: an error at its start points at
		// the quote, as the loader's own value errors do.
		{`{property: color, from: blu}`, `property: color; from: blu`, `{"property": "color", "from": "blu"}`, "blu", 0,
			`animation: property "from": invalid value "blu": expected`},
		{`"property: components.score.x.y; to: 1"`, `property: components.score.x.y; to: 1`, `"property: components.score.x.y; to: 1"`, "x.y", 2,
			`animation: property "property": invalid value "y"`},
		{`{property: score, loop: forever}`, `property: score; loop: forever`, `{"property": "score", "loop": "forever"}`, "forever", 0,
			`animation: property "loop": invalid value "forever": expected a count (0 or more), true or false`},
	} {
		for _, f := range []struct{ name, text string }{
			{"bad.yaml", "components:\n  score: {type: number}\nentities:\n  - id: a\n    score: 1\n    animation: " + tc.yaml + "\n"},
			{"bad.xml", "<scene>\n  <components><component name=\"score\" type=\"number\"/></components>\n  <entity id=\"a\" score=\"1\"\n    animation=\"" + tc.xml + "\"/>\n</scene>\n"},
			{"bad.json", "{\"components\": {\"score\": {\"type\": \"number\"}},\n \"entities\": [{\"id\": \"a\",\n  \"components\": {\"score\": 1, \"animation\": " + tc.json + "}}]}\n"},
		} {
			_, err := loader.LoadBytes(newRegistry(t), f.name, []byte(f.text), loader.Options{})
			at := strings.Index(f.text, tc.marker) + tc.off
			if f.text[at-1] == '"' && f.text[at-2] == ' ' {
				at-- // a quoted value of a mapping (JSON): at its quote
			}
			want := posOf(f.name, f.text, f.text[at:at+1], strings.Count(f.text[:at+1], f.text[at:at+1]))
			if err == nil || !strings.HasPrefix(err.Error(), want+": "+tc.msg) {
				t.Errorf("%s: %v\nwant %s: %s", f.name, err, want, tc.msg)
			}
		}
	}
}

// TestEventSetLoadErrors: the sets of an event-set are checked against
// their components' schemas when the scene loads, whatever _target
// says; the error points at the key or value inside the string.
func TestEventSetLoadErrors(t *testing.T) {
	for _, tc := range []struct{ value, marker, msg string }{
		{"_event: hit; colr: red", "colr", `event-set__x: invalid value "colr": expected the name of a component (did you mean "color"?)`},
		{"_event: hit; _target: #other; scale: 1 2 three", "three", `event-set__x: invalid value "three": expected a number for z of a vec3`},
		{"_event: hit; spin.sped: 3", "sped", `event-set__x: invalid value "sped": expected unknown property "sped" (did you mean "speed"?)`},
		{"_event: hit; spin.speed: fast", "fast", `event-set__x: invalid value "fast": expected a number`},
		{"_delay: later; color: red", "later", `event-set__x: invalid value "later": expected a delay in milliseconds`},
		{"color: red; nothing", "nothing", `event-set__x: invalid value "nothing": expected "key: value" pairs separated by ";"`},
		{"_target: a >> b; color: red", "a >> b", `event-set__x: invalid value "a >> b": expected a selector`},
	} {
		for _, f := range []struct{ name, text string }{
			{"bad.yaml", "entities:\n  - id: a\n    event-set__x: \"" + tc.value + "\"\n"},
			{"bad.xml", "<scene>\n  <entity id=\"a\"\n    event-set__x=\"" + tc.value + "\"/>\n</scene>\n"},
			{"bad.json", "{\"entities\": [{\"id\": \"a\",\n  \"components\": {\"event-set__x\": \"" + tc.value + "\"}}]}\n"},
		} {
			_, err := loader.LoadBytes(newRegistry(t), f.name, []byte(f.text), loader.Options{})
			want := posOf(f.name, f.text, tc.marker, 1)
			if err == nil || !strings.HasPrefix(err.Error(), want+": "+tc.msg) {
				t.Errorf("%s: %v\nwant %s: %s", f.name, err, want, tc.msg)
			}
		}
	}
}

// reload compiles text as the new version of sc's file and applies the
// difference, as hot reload does.
func reload(t *testing.T, sc *loader.Scene, text string) {
	t.Helper()
	doc, err := scenefile.Read("scene.yaml", []byte(text), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := plan.Compile(doc, sc.Registry, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.Apply(sc.Diff(plan)); err != nil {
		t.Fatal(err)
	}
}

// TestBehaviourHotReload: editing an animation in the file keeps its
// elapsed time unless property or from changed; an edited event-set
// listens to its new event; a new entity gets loaded; a timer keeps its
// time.
func TestBehaviourHotReload(t *testing.T) {
	const v1 = `
entities:
  - id: a
    position: 0 0 0
    animation: "property: position.x; to: 10; dur: 1000; easing: linear"
    event-set: "_event: ping; color: red"
    timer: "delay: 1000; event: ring"
`
	reg := newRegistry(t)
	sc, err := loader.LoadBytes(reg, "scene.yaml", []byte(v1), loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := sc.Entity("a")
	var rang []float64
	reg.Events().On(a, "ring", func(*registry.Event) { rang = append(rang, reg.Time()) })
	step := func(n int) {
		for range n {
			if err := reg.Tick(1.0 / 60); err != nil {
				t.Fatal(err)
			}
		}
	}
	x := func() float64 { vs, _ := reg.Values(a, "position"); return vs[0].(registry.Vec3).X }
	step(30)
	reload(t, sc, strings.Replace(v1, "to: 10", "to: 20", 1))
	step(6)
	if got := x(); got < 11.99 || got > 12.01 {
		t.Errorf("to edited: x %v, want 12 (36/60 of 20)", got)
	}
	v3 := strings.Replace(strings.Replace(v1, "to: 10", "from: 5; to: 20", 1), "_event: ping", "_event: pong", 1)
	v3 = strings.Replace(v3, "delay: 1000", "delay: 900", 1) + "  - id: b\n    event-set: \"_event: loaded; color: blue\"\n"
	reload(t, sc, v3)
	step(30)
	if got := x(); got < 12.49 || got > 12.51 {
		t.Errorf("from edited (restarted): x %v, want 12.5", got)
	}
	reg.Events().Emit(a, "ping", nil, false)
	if reg.Has(a, "color") {
		t.Error("the edited event-set still listens to ping")
	}
	reg.Events().Emit(a, "pong", nil, false)
	if s, _ := reg.Attr(a, "color"); s != "#ff0000" {
		t.Errorf("pong: color %q", s)
	}
	b, _ := sc.Entity("b")
	if s, _ := reg.Attr(b, "color"); s != "#0000ff" {
		t.Errorf("the entity the reload added did not get loaded: color %q", s)
	}
	if len(rang) != 1 || rang[0] < 0.89 || rang[0] > 0.91 {
		t.Errorf("the timer, edited to 900 ms at 600 ms, rang at %v", rang)
	}
}
