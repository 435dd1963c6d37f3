package registry

import (
	"errors"
	"reflect"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestCreateShapes: entities created with the same component names (the
// second and later replay what the first worked out) get the same
// components in the same order of init as the first, their own values,
// their missing dependencies with defaults, and instances of a multiple
// component; a read-only component is refused on a replay too; a
// component registered since is seen (the shapes are forgotten).
func TestCreateShapes(t *testing.T) {
	w, r := readOnlyRegistry(t)
	rec := &recorder{}
	for _, n := range []string{"leaf", "mid"} {
		deps := map[string][]string{"mid": {"leaf"}}[n]
		_, err := Register(r, n, Definition[lcTicker]{Dependencies: deps,
			Init: func(c *Context, v *lcTicker) { rec.add("%s(%d)", c.Name, v.N) }})
		must(t, err)
	}
	spec := func(n string) CreateSpec {
		return CreateSpec{Components: namedPatches(t, r, "mid=n: "+n, "sound__a=", "tracked=")}
	}
	var first []string
	var firstInit string
	for i, n := range []string{"1", "2", "3"} {
		e, err := r.Create(ecs.Entity{}, spec(n))
		must(t, err)
		comps, init := r.EntityComponents(e), rec.take()
		if i == 0 {
			first, firstInit = comps, init
			if init != "leaf(0) | mid(1)" {
				t.Fatalf("first init %q", init)
			}
		} else if !reflect.DeepEqual(comps, first) || init != "leaf(0) | mid("+n+")" {
			t.Errorf("entity %d: components %v, init %q; first %v, %q", i, comps, init, first, firstInit)
		}
		if vs := mustValues(t, r, e, "mid"); vs[0] != i+1 {
			t.Errorf("entity %d: mid %v", i, vs)
		}
	}
	if want := []string{"score", "tracked", "leaf", "mid", "sound__a"}; !reflect.DeepEqual(first, want) {
		t.Errorf("components %v, want %v", first, want)
	}
	if cs := spec("9").Components; r.shapes.get(hashNames(cs), cs) == nil {
		t.Error("the shape was not remembered: nothing was replayed")
	}
	// A read-only component in a known shape is still refused.
	ro := CreateSpec{Components: namedPatches(t, r, "score=points: 1")}
	for range 2 {
		n := w.Len()
		if _, err := r.Create(ecs.Entity{}, ro); !errors.Is(err, ErrReadOnly) || w.Len() != n {
			t.Fatalf("read-only: %v, %d entities (was %d)", err, w.Len(), n)
		}
		_, err := r.Privileged().Create(ecs.Entity{}, ro)
		must(t, err)
	}
	// A component registered after a shape was seen: the shape is
	// worked out again (its dependency now known).
	_, err := Register(r, "late", Definition[lcTicker]{Dependencies: []string{"leaf"}})
	must(t, err)
	e, err := r.Create(ecs.Entity{}, CreateSpec{Components: namedPatches(t, r, "late=n: 4")})
	must(t, err)
	if got := r.EntityComponents(e); !reflect.DeepEqual(got, []string{"leaf", "late"}) {
		t.Errorf("late: %v", got)
	}
}
