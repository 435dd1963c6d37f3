package components

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// builtinRegistry returns a new World and Registry with the built-ins
// registered.
func builtinRegistry(t testing.TB) (*ecs.World, *registry.Registry, *Builtins) {
	t.Helper()
	w := ecs.NewWorld()
	r := registry.New(w)
	b, err := Register(r)
	must(t, err)
	return w, r, b
}

// counter is a component with one int, for hooks that count.
type counter struct {
	N int `scene:"n"`
}

// namedPatches parses "name=attr" strings into NamedPatches.
func namedPatches(t *testing.T, r *registry.Registry, comps ...string) []registry.NamedPatch {
	t.Helper()
	var out []registry.NamedPatch
	for _, c := range comps {
		name, attr, _ := strings.Cut(strings.TrimSpace(c), "=")
		comp, _, err := r.Lookup(name)
		must(t, err)
		p, err := comp.Schema.ParseAttr(name, attr)
		must(t, err)
		out = append(out, registry.NamedPatch{Name: name, Patch: p})
	}
	return out
}

// v3 returns the vector x y z.
func v3(x, y, z float64) registry.Vec3 { return registry.Vec3{X: x, Y: y, Z: z} }

// hz is the step of the tests' ticks, 60 Hz.
const hz = 1.0 / 60

// entityWith makes an entity with the components "name=attr".
func entityWith(t testing.TB, r *registry.Registry, comps ...string) ecs.Entity {
	t.Helper()
	e := r.World().NewEntity()
	for _, c := range comps {
		name, attr, _ := strings.Cut(c, "=")
		must(t, r.Set(e, name, attr))
	}
	return e
}

// ticks ticks r n times at hz.
func ticks(t testing.TB, r *registry.Registry, n int) {
	t.Helper()
	for range n {
		must(t, r.Tick(hz))
	}
}
