package loader

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// nonFiniteScene declares components holding every float-holding property
// type, for the non-finite round trip, one of them with a non-finite
// default (kept as the default: NaN equals NaN for change detection and
// dumps).
const nonFiniteScene = `components:
  stats:
    speed: {type: number}
    wait: {type: time}
    flat: {type: vec2}
    quat: {type: vec4}
  heat: {type: number}
  chill: {type: vec3, default: NaN +Inf 0}
entities:
  - id: a
    chill:
  - id: b
    chill: 1 NaN
    children:
      - position: 1 2 3
`

// TestNonFiniteRoundTrip: a World holding +Inf, -Inf and NaN in position
// (as physics that overflows leaves it), in number and time properties
// and in vectors is dumped in YAML, XML and JSON, and each dump loads back
// to the same values: what a dump writes reads back.
func TestNonFiniteRoundTrip(t *testing.T) {
	inf, ninf, nan := math.Inf(1), math.Inf(-1), math.NaN()
	reg := newTestRegistry(t)
	sc, err := LoadBytes(reg, "nf.yaml", []byte(nonFiniteScene), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := sc.Entity("a")
	b, _ := sc.Entity("b")
	w := reg.World()
	// Set from Go, as a physics step would: no parsing involved.
	pos, _ := reg.Component("position")
	if err := reg.Set(a, "position", ""); err != nil {
		t.Fatal(err)
	}
	*ecs.NewMap[registry.Vec3](w, pos.ID).Get(a) = registry.Vec3{X: inf, Y: ninf, Z: nan}
	// A write through a pointer is reported, so that the world transform
	// (in the JSON dump) follows, as physics reports its own.
	if err := w.MarkChanged(a, pos.ID); err != nil {
		t.Fatal(err)
	}
	// Set through attribute text, in the spelling the writers use.
	for _, s := range []struct {
		e          ecs.Entity
		name, attr string
	}{
		{a, "stats", "speed: +Inf; wait: NaN; flat: -Inf NaN; quat: NaN +Inf -Inf 1"},
		{a, "heat", "-Inf"},
		{a, "velocity", "NaN 0 +Inf"},
		{b, "heat", "NaN"},
		{b, "stats", "speed: -Inf; wait: +Inf; flat: 1 +Inf; quat: -Inf"},
	} {
		if err := reg.Set(s.e, s.name, s.attr); err != nil {
			t.Fatalf("set %s %q: %v", s.name, s.attr, err)
		}
	}
	want := dump(t, reg)
	for _, tok := range []string{`"+Inf"`, `"-Inf"`, `"NaN"`} {
		if !strings.Contains(want, tok) {
			t.Fatalf("the JSON dump has no %s:\n%s", tok, want)
		}
	}
	wantVals := values(t, reg)
	for _, wr := range writers {
		var buf bytes.Buffer
		if err := wr.write(&buf, reg); err != nil {
			t.Fatalf("write %s: %v", wr.ext, err)
		}
		reg2 := newTestRegistry(t)
		if _, err := LoadBytes(reg2, "again."+wr.ext, buf.Bytes(), Options{}); err != nil {
			t.Errorf("%s dump does not load back: %v\n%s", wr.ext, err, buf.String())
			continue
		}
		if got := dump(t, reg2); got != want {
			t.Errorf("%s: dump changed:\n%s", wr.ext, firstDiff(want, got))
		}
		got := values(t, reg2)
		if len(got) != len(wantVals) {
			t.Errorf("%s: %d values, want %d", wr.ext, len(got), len(wantVals))
			continue
		}
		for k, v := range wantVals {
			if !sameBits(v, got[k]) {
				t.Errorf("%s: %s = %#v, want %#v", wr.ext, k, got[k], v)
			}
		}
	}
}

// values returns every component value of the World's entities, keyed by
// entity path, component and property index.
func values(t *testing.T, reg *registry.Registry) map[string]any {
	t.Helper()
	out := map[string]any{}
	i := 0
	for e := range reg.World().All() {
		for _, name := range reg.EntityComponents(e) {
			vs, err := reg.Values(e, name)
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range vs {
				out[fmt.Sprintf("%d/%s/%d", i, name, j)] = v
			}
		}
		i++
	}
	return out
}

// sameBits compares values, float axes with == except that NaN equals
// NaN.
func sameBits(a, b any) bool {
	fs := func(v any) ([]float64, bool) {
		switch x := v.(type) {
		case float64:
			return []float64{x}, true
		case registry.Vec2:
			return []float64{x.X, x.Y}, true
		case registry.Vec3:
			return []float64{x.X, x.Y, x.Z}, true
		case registry.Vec4:
			return []float64{x.X, x.Y, x.Z, x.W}, true
		}
		return nil, false
	}
	x, ok1 := fs(a)
	y, ok2 := fs(b)
	if !ok1 || !ok2 {
		return a == b
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
			return false
		}
	}
	return true
}

// TestNonFiniteBounds: a property with min or max refuses NaN with a clear
// error at its position, and the infinity beyond its bound; the spellings
// other than +Inf, -Inf and NaN are refused with a hint.
func TestNonFiniteBounds(t *testing.T) {
	head := "components:\n  hp: {type: number, min: 0}\n  cap: {type: number, max: 10}\nentities:\n"
	tests := []struct{ entity, want string }{
		{"  - hp: NaN\n", `nf.yaml:5:9: hp: invalid value "NaN": expected a number >= 0, not NaN`},
		{"  - hp: -Inf\n", `nf.yaml:5:9: hp: invalid value "-Inf": expected a number >= 0`},
		{"  - cap: NaN\n", `nf.yaml:5:10: cap: invalid value "NaN": expected a number <= 10, not NaN`},
		{"  - cap: +Inf\n", `nf.yaml:5:10: cap: invalid value "+Inf": expected a number <= 10`},
		{"  - position: 1 inf 2\n", `nf.yaml:5:17: position: invalid value "inf": expected a number for y of a vec3 (axes are separated by spaces) (non-finite numbers are written "+Inf", "-Inf" and "NaN")`},
	}
	for _, tt := range tests {
		reg := newTestRegistry(t)
		_, err := LoadBytes(reg, "nf.yaml", []byte(head+tt.entity), Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: got %v\nwant %s", tt.entity, err, tt.want)
		}
	}
	// Within bounds, infinities load.
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "nf.yaml", []byte(head+"  - hp: +Inf\n    cap: -Inf\n"), Options{}); err != nil {
		t.Error(err)
	}
}
