package export_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

const worldScene = `entities:
  - id: ship
    position: 10 0 0
    rotation: 0 0 90
    scale: 2 2 2
    children:
      - id: gun
        position: 1 0 0
        children:
          - id: tip
            position: 0 0.5 0
  - id: plain
    health: "hp: 3"
`

// TestJSONWorld: the JSON dump writes a read-only "world" object (world
// position, rotation and scale) for each entity with a transform and
// none for the others; the JSON reader ignores it, whatever it holds, so
// a dump reads back to the same World and the same dump; YAML and XML
// exports do not write it.
func TestJSONWorld(t *testing.T) {
	reg := newBenchRegistry(t)
	if _, err := loader.LoadBytes(reg, "w.yaml", []byte(worldScene), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := export.WriteJSON(&buf, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Entities []struct {
			ID         string                     `json:"id"`
			Components map[string]json.RawMessage `json:"components"`
			World      *struct {
				Position, Rotation, Scale struct{ X, Y, Z float64 }
			} `json:"world"`
		} `json:"entities"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	worlds := map[string]string{}
	for _, e := range doc.Entities {
		if _, ok := e.Components["world"]; ok {
			t.Errorf("%s: world among the components", e.ID)
		}
		if e.World == nil {
			worlds[e.ID] = "none"
			continue
		}
		w := e.World
		worlds[e.ID] = registry.Vec3{X: w.Position.X, Y: w.Position.Y, Z: w.Position.Z}.String() + " / " +
			registry.Vec3{X: w.Rotation.X, Y: w.Rotation.Y, Z: w.Rotation.Z}.String() + " / " +
			registry.Vec3{X: w.Scale.X, Y: w.Scale.Y, Z: w.Scale.Z}.String()
	}
	// The ship is turned 90° about z and scaled 2: the gun's x axis points
	// along world y, twice as long.
	want := map[string]string{
		"ship":  "10 0 0 / 0 0 90 / 2 2 2",
		"gun":   "10 2 0 / 0 0 90 / 2 2 2",
		"tip":   "9 2 0 / 0 0 90 / 2 2 2",
		"plain": "none",
	}
	for id, w := range want {
		if got := worlds[id]; !approxTriples(got, w) {
			t.Errorf("%s: world %q, want %q", id, got, w)
		}
	}
	for _, wr := range writers {
		var out bytes.Buffer
		if err := wr.write(&out, reg); err != nil {
			t.Fatal(err)
		}
		if wr.ext != "json" && strings.Contains(out.String(), "world") {
			t.Errorf("%s export writes world:\n%s", wr.ext, out.String())
		}
		reg2 := newBenchRegistry(t)
		if _, err := loader.LoadBytes(reg2, "again."+wr.ext, out.Bytes(), loader.Options{}); err != nil {
			t.Fatalf("%s: %v", wr.ext, err)
		}
		if got := dump(t, reg2); got != buf.String() {
			t.Errorf("%s: dump changed:\n%s", wr.ext, firstDiff(buf.String(), got))
		}
	}
	// Whatever "world" says, it is not read: the world transforms come
	// from the components.
	edited := strings.Replace(buf.String(), `"world":{"position":{"x":10,`, `"world":{"position":{"x":-555,`, 1)
	edited = strings.Replace(edited, `"id":"plain","path":"plain","parent":null,"depth":0,"class":[],"components":{"health":{"hp":3,"max":100}}`,
		`"id":"plain","path":"plain","parent":null,"depth":0,"class":[],"components":{"health":{"hp":3,"max":100}},"world":"anything"`, 1)
	if edited == buf.String() || !strings.Contains(edited, "-555") || !strings.Contains(edited, `"anything"`) {
		t.Fatalf("the edits did not apply:\n%s", edited)
	}
	reg3 := newBenchRegistry(t)
	if _, err := loader.LoadBytes(reg3, "edited.json", []byte(edited), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, reg3); got != buf.String() {
		t.Errorf("an edited world was read:\n%s", firstDiff(buf.String(), got))
	}
}

// approxTriples compares "x y z / x y z / x y z" strings to 1e-9.
func approxTriples(got, want string) bool {
	g, w := strings.Fields(got), strings.Fields(want)
	if len(g) != len(w) {
		return false
	}
	for i := range g {
		if g[i] == w[i] {
			continue
		}
		a, errA := strconv.ParseFloat(g[i], 64)
		b, errB := strconv.ParseFloat(w[i], 64)
		if errA != nil || errB != nil || a-b > 1e-9 || b-a > 1e-9 {
			return false
		}
	}
	return true
}
