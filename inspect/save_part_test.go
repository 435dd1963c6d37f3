package inspect

import (
	"net/http"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry"
)

// partScene has an entity whose position's y the simulation moves (the
// test moves it as an animation would) and a spin written as a mapping.
const partScene = `entities:
  - id: lift            # goes up and down
    position: 1 2.50 3   # y animated
    spin:
      axis: 0 1 0
      speed: 10
  - id: crate
    mixin: heavy
mixins:
  heavy:
    position: 0 4 0
`

// positionOf reads e's position in the World, on the simulation
// goroutine.
func (e *env) positionOf(ref string) registry.Vec3 {
	e.t.Helper()
	var v registry.Vec3
	e.sim(func() {
		ent, ok := e.reg.EntityByID(ref)
		if !ok {
			e.t.Fatalf("no entity %s", ref)
		}
		vals, err := e.reg.Values(ent, "position")
		if err != nil {
			e.t.Fatal(err)
		}
		v = vals[0].(registry.Vec3)
	})
	return v
}

// moveY sets e's position.y in the World as a system would.
func (e *env) moveY(ref string, y float64) {
	e.t.Helper()
	e.sim(func() {
		ent, _ := e.reg.EntityByID(ref)
		vals, _ := e.reg.Values(ent, "position")
		p := vals[0].(registry.Vec3)
		p.Y = y
		if err := e.reg.SetPatch(ent, "position", registry.Patch{{Index: 0, Value: p}}, registry.Merge); err != nil {
			e.t.Fatal(err)
		}
	})
}

// TestSavePartKeepsRuntimeValues (issue 33): a save of one axis
// (PUT .../components/position.x?save=1) writes that axis into the file
// with the file's other axes as the file writes them, never the value
// the simulation gave y; the World keeps its own y and z. Undo puts both
// back. The whole vector saved writes the World's y, which is what the
// page did before.
func TestSavePartKeepsRuntimeValues(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", partScene)
	e.start()
	e.moveY("lift", 7.25) // the animation's value now

	var ch changeEvent
	e.call("PUT", "/api/entities/lift/components/position.x?save=1", "4").expect(t, http.StatusOK).json(t, &ch)
	want := replaceOnce(t, partScene, "position: 1 2.50 3   #", "position: 4 2.50 3   #")
	if got := readFile(t, file); got != want {
		t.Errorf("the file after saving position.x:\n%s\nwant\n%s", got, want)
	}
	if got := e.positionOf("lift"); got != (registry.Vec3{X: 4, Y: 7.25, Z: 3}) {
		t.Errorf("the World's position %v, want x set and the animated y kept", got)
	}
	if !ch.Saved || ch.Attr != "4 7.25 3" || len(ch.Entries) != 1 || ch.Entries[0].Old != "1 7.25 3" {
		t.Errorf("the change: %+v", ch)
	}

	// Two axes at once, in the order the path gives them.
	e.moveY("lift", 8)
	e.call("PUT", "/api/entities/lift/components/position.zx?save=1", "-3 5").expect(t, http.StatusOK)
	want2 := replaceOnce(t, partScene, "position: 1 2.50 3   #", "position: 5 2.50 -3   #")
	if got := readFile(t, file); got != want2 {
		t.Errorf("the file after saving position.zx:\n%s", got)
	}
	if got := e.positionOf("lift"); got != (registry.Vec3{X: 5, Y: 8, Z: -3}) {
		t.Errorf("the World's position %v after position.zx", got)
	}

	// An axis of a property, and a property alone.
	e.call("PUT", "/api/entities/lift/components/spin.axis.z?save=1", "1").expect(t, http.StatusOK)
	e.call("PUT", "/api/entities/lift/components/spin.speed?save=1", "20").expect(t, http.StatusOK)
	want3 := replaceOnce(t, want2, "      axis: 0 1 0\n      speed: 10\n", "      axis: 0 1 1\n      speed: 20\n")
	if got := readFile(t, file); got != want3 {
		t.Errorf("the file after saving spin.axis.z and spin.speed:\n%s", got)
	}

	// An entity given its position by a mixin gets the mixin's other
	// axes in its own key.
	e.call("PUT", "/api/entities/crate/components/position.y?save=1", "6").expect(t, http.StatusOK)
	want4 := replaceOnce(t, want3, "    mixin: heavy\n", "    mixin: heavy\n    position: 0 6 0\n")
	if got := readFile(t, file); got != want4 {
		t.Errorf("the file after saving crate's position.y:\n%s", got)
	}

	// Undo, back to the first set: the file as it was, the World's
	// position as it had it before each set.
	for range 4 {
		e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	}
	if got := readFile(t, file); got != want {
		t.Errorf("the file after undoing to the first set:\n%s", got)
	}
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != partScene {
		t.Errorf("the file after undoing every set:\n%s", got)
	}
	if got := e.positionOf("lift"); got != (registry.Vec3{X: 1, Y: 7.25, Z: 3}) {
		t.Errorf("the World's position %v after the undo, want it as before the set", got)
	}
	var h struct{ Entries []struct{ Summary string } }
	e.get("/api/history").expect(t, http.StatusOK).json(t, &h)
	if len(h.Entries) != 5 || h.Entries[0].Summary != "set position.x of #lift" {
		t.Errorf("the history: %+v", h.Entries)
	}
}

// TestSetPartErrors: a path the component does not have, a value with
// the wrong number of axes or one the parser refuses, is a 400 saying
// what and where (the offset in the body), and nothing changes.
func TestSetPartErrors(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", partScene)
	e.start()
	for _, c := range []struct {
		path, body, want string
		offset           int
	}{
		{"position.q", "1", `expected axes of position (x, y, z, each once)`, -1},
		{"position.xx", "1 2", `expected axes of position`, -1},
		{"spin.sped", "1", `spin has no property "sped"`, -1},
		{"spin.speed.x", "1", `spin.speed is a number, not a vector`, -1},
		{"position.", "1", `expected a property or axes after the dot`, -1},
		{"position.xz", "1", `expected 2 numbers separated by spaces, for x z`, 0},
		{"position.yz", "1 abc", `invalid value "abc"`, 2},
		{"spin.speed", "fast", `property "speed": invalid value "fast"`, 0},
	} {
		r := e.call("PUT", "/api/entities/lift/components/"+c.path+"?save=1", c.body).expect(t, http.StatusBadRequest)
		var eb errorBody
		r.json(t, &eb)
		if !strings.Contains(eb.Error, c.want) || c.offset >= 0 && (eb.Offset == nil || *eb.Offset != c.offset) {
			off := -1
			if eb.Offset != nil {
				off = *eb.Offset
			}
			t.Errorf("%s %q: %q at %d, want %q at %d", c.path, c.body, eb.Error, off, c.want, c.offset)
		}
	}
	e.call("DELETE", "/api/entities/lift/components/position.x", "").expect(t, http.StatusBadRequest)
	if got := readFile(t, file); got != partScene {
		t.Errorf("refused sets changed the file:\n%s", got)
	}
	if got := e.positionOf("lift"); got != (registry.Vec3{X: 1, Y: 2.5, Z: 3}) {
		t.Errorf("refused sets changed the World: %v", got)
	}
}
