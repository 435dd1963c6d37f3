package inspect

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"testing"
)

// TestWorldInAPI: the entity endpoint shows the world transform apart
// from the components, as dumps do; GET /api/transforms sends world
// transforms by default (nine floats per entity with a transform), which
// follow a parent moved through the API; the world component cannot be
// set, removed or given to a new entity.
func TestWorldInAPI(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	var gun struct {
		Components []componentValue `json:"components"`
		World      struct {
			Position struct{ X, Y, Z float64 } `json:"position"`
			Scale    struct{ X, Y, Z float64 } `json:"scale"`
		} `json:"world"`
	}
	e.get("/api/entities/ship%2F1").json(t, &gun)
	if gun.World.Position.X != 1 || gun.World.Position.Y != 0.5 || gun.World.Scale.X != 1 {
		t.Errorf("gun's world: %+v", gun.World)
	}
	for _, c := range gun.Components {
		if c.Name == "world" {
			t.Error("world listed among the components")
		}
	}
	// Move the ship: its guns' world transforms follow at once.
	e.call("PUT", "/api/entities/ship/components/position", "10 0 0").expect(t, http.StatusOK)
	e.get("/api/entities/ship%2F1").json(t, &gun)
	if gun.World.Position.X != 11 {
		t.Errorf("gun's world x %v after the ship moved to 10 0 0", gun.World.Position.X)
	}
	r := e.get("/api/transforms").expect(t, http.StatusOK)
	if got := r.header.Get("X-Layout"); got != "world.position:3,world.rotation:3,world.scale:3" {
		t.Fatalf("default layout %q", got)
	}
	var q queryResult
	e.get("/api/query?selector=[world]").json(t, &q)
	b := r.body
	if n, stride := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]); int(n) != q.Count || stride != 9 {
		t.Fatalf("n %d stride %d, query %+v", n, stride, q)
	}
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[16+4*i:])) }
	if i := slices.Index(q.Matches, "ship/1"); i < 0 || f(9*i) != 11 || f(9*i+1) != 0.5 || f(9*i+6) != 1 {
		t.Errorf("ship/1 in /api/transforms: %v", []float32{f(9 * i), f(9*i + 1), f(9*i + 6)})
	}
	// Read-only.
	for _, req := range [][3]string{
		{"PUT", "/api/entities/ship/components/world", "position: 1 2 3"},
		{"DELETE", "/api/entities/ship/components/world", ""},
		{"POST", "/api/entities", `{"components": {"world": "position: 1 2 3"}}`},
	} {
		r := e.call(req[0], req[1], req[2]).expect(t, http.StatusBadRequest)
		var body errorBody
		if err := json.Unmarshal(r.body, &body); err != nil || body.Error != "inspect: world is computed from position, rotation and scale (read-only): set those instead" {
			t.Errorf("%s %s: %s", req[0], req[1], r.body)
		}
	}
}
