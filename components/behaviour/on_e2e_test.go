package behaviour_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
)

// onScene3 is one scene with on and bind, in the three spellings, the
// mapping forms in YAML and JSON: a door a timer opens, a lamp that
// blinks, a target hit from outside, a wave spawned by a timer.
var onScene3 = map[string]string{
	"scene.yaml": `
components:
  health: {hp: {type: int, default: 10}}
prefabs:
  rock:
    position: 0 0 0
    class: rock
entities:
  - id: door
    position: 0 0 0
    timer: {delay: 250, event: open}
    on__open: "set: position.y = 3; emit: opened"
    on__opened: "add: open"
  - id: lamp
    bind: "visible: fract(time * 2) < 0.5"
  - id: target
    health: {hp: 10}
    on: {event: hit, if: "detail.damage > 3", set: "health.hp = health.hp - detail.damage, color = health.hp < 5 ? 'red' : 'orange'"}
  - id: spawner
    timer: "delay: 500; event: wave"
    on__wave: "spawn: rock at vec3(1, 0, 0), rock at vec3(2, 0, 0)"
    bind__spin: {rotation.y: "time * 90"}
`,
	"scene.xml": `<scene>
  <components><component name="health"><property name="hp" type="int" default="10"/></component></components>
  <prefab name="rock" position="0 0 0" class="rock"/>
  <entity id="door" position="0 0 0" timer="delay: 250; event: open" on__open="set: position.y = 3; emit: opened" on__opened="add: open"/>
  <entity id="lamp" bind="visible: fract(time * 2) &lt; 0.5"/>
  <entity id="target" health="hp: 10" on="event: hit; if: detail.damage > 3; set: health.hp = health.hp - detail.damage, color = health.hp &lt; 5 ? 'red' : 'orange'"/>
  <entity id="spawner" timer="delay: 500; event: wave" on__wave="spawn: rock at vec3(1, 0, 0), rock at vec3(2, 0, 0)" bind__spin="rotation.y: time * 90"/>
</scene>`,
	"scene.json": `{"components": {"health": {"hp": {"type": "int", "default": "10"}}},
 "prefabs": {"rock": {"components": {"position": "0 0 0"}, "class": "rock"}},
 "entities": [
  {"id": "door", "components": {"position": "0 0 0", "timer": {"delay": 250, "event": "open"},
    "on__open": "set: position.y = 3; emit: opened", "on__opened": {"add": "open"}}},
  {"id": "lamp", "components": {"bind": {"visible": "fract(time * 2) < 0.5"}}},
  {"id": "target", "components": {"health": {"hp": 10},
    "on": {"event": "hit", "if": "detail.damage > 3", "set": "health.hp = health.hp - detail.damage, color = health.hp < 5 ? 'red' : 'orange'"}}},
  {"id": "spawner", "components": {"timer": "delay: 500; event: wave", "on__wave": "spawn: rock at vec3(1, 0, 0), rock at vec3(2, 0, 0)",
    "bind__spin": {"rotation.y": "time * 90"}}}
]}`,
}

// runOnScene loads a scene, runs n ticks at 60 Hz, hits the target
// with the given damages, and returns the JSON dump.
func runOnScene(t *testing.T, name, text string, n int, damages ...float64) string {
	t.Helper()
	reg := newRegistry(t)
	sc, err := loader.LoadBytes(reg, name, []byte(text), loader.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for range n {
		if err := reg.Tick(1.0 / 60); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	target, _ := sc.Entity("target")
	for _, d := range damages {
		reg.Events().Emit(target, "hit", map[string]any{"damage": d}, false)
	}
	if err := reg.TakeErrors(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b bytes.Buffer
	if err := export.WriteJSON(&b, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestOnBindEndToEnd: the scene in each spelling gives the same World
// (twice: runs are deterministic), with what the handlers and bindings
// did; the dump loads back.
func TestOnBindEndToEnd(t *testing.T) {
	want := runOnScene(t, "scene.yaml", onScene3["scene.yaml"], 40, 4, 2, 5)
	for name, text := range onScene3 {
		for run := range 2 {
			if got := runOnScene(t, name, text, 40, 4, 2, 5); got != want {
				t.Errorf("%s (run %d): the dump differs from scene.yaml's:\n%s\nwant\n%s", name, run, got, want)
			}
		}
	}
	for _, frag := range []string{
		`"on__opened":"add: open","open":{}`, // opened: the tag added by on__opened
		`"position":{"x":0,"y":3,"z":0}`,     // the door, opened at 250 ms
		`{"visible":true,"bind"`,             // the lamp at 40/60 s: fract(1.33) < 0.5, visible added
		`"health":{"hp":1}`,                  // hits of 4 and 5 (2 is below the condition)
		`"color":"#ff0000"`,                  // hp 1 < 5
		`"rotation":{"x":0,"y":60,"z":0}`,    // the spinner, 40/60 s at 90°/s
		`"path":"spawner/1","parent":"spawner","depth":1,"class":["rock"],"prefab":"rock","components":{"position":{"x":2`, // the wave
		`"on":"event: hit; if: detail.damage \u003e 3; set: health.hp`,                                                     // the mapping, dumped as a string
	} {
		if !strings.Contains(want, frag) {
			t.Errorf("the dump lacks %s:\n%s", frag, want)
		}
	}
	if strings.Count(want, `"prefab":"rock"`) != 2 {
		t.Errorf("the wave is not two rocks:\n%s", want)
	}
	// The dump is a scene: it loads back and runs on.
	if got := runOnScene(t, "dump.json", want, 0); !strings.Contains(got, `"health":{"hp":1}`) {
		t.Errorf("the dump loaded back lost the target's health:\n%s", got)
	}
}

// TestOnBindLoadErrors: what on and bind check when a scene loads is an
// error at file:line:col inside the attribute string (the offending
// name, the clause, the expression's token), in every spelling.
func TestOnBindLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		comp, value, marker, msg string
	}{
		{"on", "event: hit; if: helth.hp > 1; destroy", "helth.hp", `on: if: unknown name "helth.hp" (did you mean "health.hp"?)`},
		{"on", "event: hit; set: health.hp = health.hp + 'x'", "+ 'x'", `on: set health.hp: operator + does not apply to int and string`},
		{"on", "event: hit; set: helth.hp = 1", "helth", `on: invalid value "helth": expected the name of a component (did you mean "health"?)`},
		{"on", "event: hit; set: health.hq = 1", "hq", `on: invalid value "hq": expected a property of health (did you mean "hp"?)`},
		{"on", "event: hit; spawn: rok", "rok", `on: invalid value "rok": expected the name of a prefab (did you mean "rock"?)`},
		{"on", "event: hit; start: health", "health", `on: invalid value "health": expected the name of an animation or a timer`},
		{"on", "event: hit; if: sine(1) > 0; destroy", "sine", `on: if: unknown function "sine" (did you mean "sin"?)`},
		{"on", "evnt: hit; destroy", "evnt", `on: invalid value "evnt": expected a clause (did you mean "event"?)`},
		{"on", "event: hit; emit: ping with health.hp +; destroy", "; destroy", `on: emit: unexpected end of the expression`},
		{"on", "event: hit; target: #a >; destroy", "; destroy", `on: invalid value "": expected a selector`},
		{"on", "set: world.position = vec3(1, 1, 1)", "world", `on: invalid value "world": expected a component that can be written (world is read-only)`},
		{"bind", "position.y: sin(tim)", "tim", `bind: position.y: unknown name "tim" (did you mean "time"?)`},
		{"bind", "position.w: 1", "w", `bind: invalid value "w": expected an axis of position (x, y, z)`},
		{"bind", "visible: 1 + 1", "1 + 1", `bind: visible: the expression is an int, but a bool is needed here`},
	} {
		for _, f := range []struct{ name, text string }{
			{"bad.yaml", "components:\n  health: {hp: {type: int}}\nprefabs:\n  rock: {position: 0 0 0}\nentities:\n  - id: a\n    health: {hp: 1}\n    " + tc.comp + ": \"" + tc.value + "\"\n"},
			{"bad.xml", "<scene>\n  <components><component name=\"health\"><property name=\"hp\" type=\"int\"/></component></components>\n  <prefab name=\"rock\" position=\"0 0 0\"/>\n  <entity id=\"a\" health=\"hp: 1\"\n    " + tc.comp + "=\"" + strings.ReplaceAll(tc.value, ">", "&gt;") + "\"/>\n</scene>\n"},
			{"bad.json", "{\"components\": {\"health\": {\"hp\": {\"type\": \"int\"}}}, \"prefabs\": {\"rock\": {\"components\": {\"position\": \"0 0 0\"}}},\n \"entities\": [{\"id\": \"a\",\n  \"components\": {\"health\": \"hp: 1\", \"" + tc.comp + "\": \"" + tc.value + "\"}}]}\n"},
		} {
			_, err := loader.LoadBytes(newRegistry(t), f.name, []byte(f.text), loader.Options{})
			value, marker := tc.value, tc.marker
			if f.name == "bad.xml" {
				value, marker = strings.ReplaceAll(value, ">", "&gt;"), strings.ReplaceAll(marker, ">", "&gt;")
			}
			at := strings.Index(f.text, value) + strings.Index(value, marker)
			if strings.Index(value, marker) == 0 && f.name != "bad.xml" {
				at-- // an error at the start of a quoted value points at the quote, as the loader's do
			}
			want := posOf(f.name, f.text, f.text[at:at+1], strings.Count(f.text[:at+1], f.text[at:at+1]))
			if err == nil || !strings.HasPrefix(err.Error(), want+": "+tc.msg) {
				t.Errorf("%s: %v\nwant %s: %s", f.name, err, want, tc.msg)
			}
		}
	}
}

// TestOnBindMappingErrors: in the mapping forms (YAML, JSON) an error is
// at the pair: its key, or its value.
func TestOnBindMappingErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, at, msg string }{
		{"bad.yaml", "entities:\n  - id: a\n    on:\n      event: hit\n      iff: x\n", "5:7", `on: unknown property "iff": expected a clause (did you mean "if"?)`},
		{"bad.yaml", "entities:\n  - id: a\n    on:\n      event: hit\n      if: \"position.q > 1\"\n      destroy:\n", "5:21", `on: property "if": vec3 has no axis q`},
		{"bad.yaml", "entities:\n  - id: a\n    bind:\n      position.y: sin(tim)\n", "4:23", `bind: property "position.y": unknown name "tim"`},
		{"bad.json", "{\"entities\": [{\"id\": \"a\", \"components\": {\"bind\":\n {\"position.y\": \"1\", \"position.y \": \"2\"}}}]}", "2:37", `bind: property "position.y": invalid value "2": expected each path bound once`},
		{"bad.json", "{\"entities\": [{\"id\": \"a\", \"components\": {\"on\":\n {\"event\": \"hit\", \"set\": \"a = 1; b = 2\"}}}]}", "2:32", `on: property "set": invalid value "; b = 2": expected no ";" here`},
	} {
		_, err := loader.LoadBytes(newRegistry(t), tc.name, []byte(tc.text), loader.Options{})
		if want := tc.name + ":" + tc.at + ": " + tc.msg; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%v\nwant %s", err, want)
		}
	}
}
