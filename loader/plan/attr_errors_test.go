package plan_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// race is a component with properties of several kinds, for the errors
// of a value with more than one bad property.
type race struct {
	Speed float64 `scene:"speed,min=0"`
	Laps  int     `scene:"laps,default=3"`
	Name  string  `scene:"name"`
}

// TestEveryBadPropertyReported: a component value with several bad
// properties gets one error per property, each at the offending text
// inside the value (its own file:line:col), however the value is written:
// an attribute string (plain, quoted, with escapes, folded, XML with
// character references, JSON with escapes) or a mapping, on an entity, in
// a mixin, in a prefab, in a part, or as a system setting.
func TestEveryBadPropertyReported(t *testing.T) {
	const speed = `race: property "speed": invalid value "-3": expected a number >= 0`
	const laps = `race: property "laps": invalid value "1.5": expected an integer`
	for _, tc := range []struct {
		name, file, src string
		want            []string
	}{
		{"yaml quoted", "a.yaml", "entities:\n  - race: \"speed: -3; laps: 1.5\"\n",
			[]string{"2:19: " + speed, "2:29: " + laps}},
		{"yaml single-quoted, second line", "a.yaml", "entities:\n  - race: 'speed: -3;\n      laps: 1.5'\n",
			[]string{"2:19: " + speed, "3:13: " + laps}},
		{"yaml escapes", "a.yaml", "entities:\n  - race: \"speed: \\x2D3;\\tlaps: 1.5\"\n",
			[]string{"2:19: " + speed, "2:33: " + laps}},
		{"yaml folded", "a.yaml", "entities:\n  - race: >\n      speed: -3;\n      laps: 1.5\n",
			[]string{"3:14: " + speed, "4:13: " + laps}},
		{"yaml flow mapping", "a.yaml", "entities:\n  - race: {speed: -3, laps: 1.5}\n",
			[]string{"2:19: " + speed, "2:29: " + laps}},
		{"yaml block mapping", "a.yaml", "entities:\n  - race:\n      speed: -3\n      laps: 1.5\n",
			[]string{"3:14: " + speed, "4:13: " + laps}},
		{"xml", "a.xml", "<scene>\n  <entity race=\"speed: -3; laps: 1.5\"/>\n</scene>\n",
			[]string{"2:24: " + speed, "2:34: " + laps}},
		{"xml references", "a.xml", "<scene>\n  <entity race=\"speed: &#45;3&#59; laps: 1.5\"/>\n</scene>\n",
			[]string{"2:24: " + speed, "2:42: " + laps}},
		{"json string", "a.json", "{\"entities\": [{\"components\": {\"race\": \"speed: -3;\\u0020laps: 1.5\"}}]}\n",
			[]string{"1:47: " + speed, "1:62: " + laps}},
		{"json object", "a.json", "{\"entities\": [{\"components\": {\"race\": {\"speed\": -3, \"laps\": 1.5}}}]}\n",
			[]string{"1:49: " + speed, "1:61: " + laps}},
		{"mixin", "a.yaml", "mixins:\n  fast: {race: \"speed: -3; laps: 1.5\"}\n",
			[]string{"2:24: " + speed, "2:34: " + laps}},
		{"prefab", "a.yaml", "prefabs:\n  car: {race: \"speed: -3; laps: 1.5\"}\nentities:\n  - prefab: car\n",
			[]string{"2:23: " + speed, "2:33: " + laps}},
		{"part", "a.yaml", "prefabs:\n  car:\n    children:\n      - race: \"laps: 1\"\nentities:\n  - prefab: car\n    parts:\n      \"0\": {race: \"speed: -3; laps: 1.5\"}\n",
			[]string{"8:27: " + speed, "8:37: " + laps}},
		{"system setting", "a.yaml", "scene:\n  physics: \"step: 0; maxSteps: 0\"\n",
			[]string{`2:19: physics: property "step": invalid value "0": expected a number between 0.000001 and 86400`,
				`2:32: physics: property "maxSteps": invalid value "0": expected an integer >= 1`}},
		{"every kind at once", "a.yaml", "entities:\n  - race: \"speed: -3; lpas: 2; fast; : 4; laps: 1.5; name: ok\"\n",
			[]string{"2:19: " + speed, `2:23: race: unknown property "lpas" (did you mean "laps"?)`,
				`2:32: race: invalid text "fast": expected "property: value" pairs separated by ";"`,
				`2:38: race: invalid text ": 4": expected a property name before ":"`, "2:49: " + laps}},
		{"unclosed url ends the value", "a.yaml", "entities:\n  - race: \"speed: -3; name: url(a; laps: 1.5\"\n",
			[]string{"2:19: " + speed, `2:29: race: invalid text "url(a; laps: 1.5": expected ")" to close "url("`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := newTestRegistry(t)
			if _, err := registry.Register(reg, "race", registry.Definition[race]{}); err != nil {
				t.Fatal(err)
			}
			_, err := loader.LoadBytes(reg, tc.file, []byte(tc.src), loader.Options{})
			var list scenefile.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want an ErrorList", err)
			}
			want := tc.file + ":" + strings.Join(tc.want, "\n"+tc.file+":")
			if got := err.Error(); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if reg.World().Len() != 0 {
				t.Error("a failed load built entities")
			}
		})
	}
}

// TestCheckBesideParseErrors: a value with a property its component's
// Check refuses and another that does not parse reports both at once
// (the newcomer's `positon` appeared only after `startEvent` was fixed),
// while a Check complaint about a property that did not parse (or that
// Check saw at its default because of it) is not reported twice.
func TestCheckBesideParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"attribute string", "entities:\n  - animation: \"property: positon.y; to: 3; startEvent: open\"\n",
			[]string{`2:27: animation: property "property": invalid value "positon": expected the name of a component (did you mean "position"?)`,
				`2:45: animation: unknown property "startEvent" (did you mean "startEvents"?)`}},
		{"mapping", "entities:\n  - animation: {property: positon.y, to: 3, startEvent: open}\n",
			[]string{`2:27: animation: property "property": invalid value "positon": expected the name of a component (did you mean "position"?)`,
				`2:45: animation: unknown property "startEvent" (did you mean "startEvents"?)`}},
		{"the checked property fails to parse", "entities:\n  - animation: \"property: position.y; dur: x\"\n",
			[]string{`2:44: animation: property "dur": invalid value "x": expected a number`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(tc.src), loader.Options{})
			want := "a.yaml:" + strings.Join(tc.want, "\na.yaml:")
			if err == nil || err.Error() != want {
				t.Fatalf("got\n%v\nwant\n%s", err, want)
			}
		})
	}
}

// TestBareNameSuggestsID: a selector value that is a bare name which is
// the id of an entity of the scene (written before or after it) says
// that #name selects it; a name no entity has gets the usual advice
// alone.
func TestBareNameSuggestsID(t *testing.T) {
	const advice = `expected a selector: unexpected name "light": entities have no type; write [light] for a component or .light for a class`
	const hint = ` (the scene has an entity with the id "light": #light selects it)`
	for _, tc := range []struct {
		name, src, want string
	}{
		{"event-set _target, the id written before", "entities:\n  - id: light\n  - event-set: \"_event: go; _target: light; visible: false\"\n",
			`a.yaml:3:38: event-set: invalid value "light": ` + advice + hint},
		{"selector property, the id written after", "components:\n  follow: {target: {type: selector}}\nentities:\n  - follow: {target: light}\n    children:\n      - id: light\n",
			`a.yaml:4:22: follow: property "target": invalid value "light": ` + advice + hint},
		{"no such id", "components:\n  follow: {target: {type: selector}}\nentities:\n  - id: lamp\n    follow: {target: light}\n",
			`a.yaml:5:22: follow: property "target": invalid value "light": ` + advice},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(tc.src), loader.Options{})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}
