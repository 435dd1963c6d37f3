package registry

import (
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

// The registry implements the selector's contract for relations.
var _ selector.Relations = (*Registry)(nil)

type dockT struct {
	At    Ref  `scene:"at,onDelete=destroy"`
	Cargo Refs `scene:"cargo"`
	Speed float64
}

func newRelRegistry(t *testing.T) *Registry {
	t.Helper()
	r := New(ecs.NewWorld())
	if _, err := Register(r, "dock", Definition[dockT]{}); err != nil {
		t.Fatal(err)
	}
	s, err := schema.NewSchema([]PropSpec{{Type: "entity", OnDelete: "remove"}}, r.Types())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Declare("docked", s); err != nil {
		t.Fatal(err)
	}
	return r
}

func mustCreate(t *testing.T, r *Registry, id string) ecs.Entity {
	t.Helper()
	e, err := r.Create(ecs.Entity{}, CreateSpec{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRelationContract(t *testing.T) {
	r := newRelRegistry(t)
	p1, p2, ship, barge := mustCreate(t, r, "p1"), mustCreate(t, r, "p2"), mustCreate(t, r, "ship"), mustCreate(t, r, "barge")
	// Through an attribute string, `#id` is resolved at once.
	if err := r.Set(ship, "docked", "#p1"); err != nil {
		t.Fatal(err)
	}
	if err := SetRef(r, barge, "docked", p1); err != nil {
		t.Fatal(err)
	}
	if err := SetRef(r, ship, "dock.cargo", p2, p1); err != nil {
		t.Fatal(err)
	}
	rel, err := r.Relation("docked")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := r.Component("docked")
	if !slices.Equal(rel.IDs, []ecs.ID{c.ID}) {
		t.Errorf("IDs = %v, want [%v]", rel.IDs, c.ID)
	}
	if got := rel.Targets(ship, nil); !slices.Equal(got, []ecs.Entity{p1}) {
		t.Errorf("targets of ship = %v, want p1", got)
	}
	if got := rel.Holders(p1, nil); !slices.Equal(got, []ecs.Entity{ship, barge}) {
		t.Errorf("holders of p1 = %v, want ship, barge", got)
	}
	cargo, err := r.Relation("dock.cargo")
	if err != nil {
		t.Fatal(err)
	}
	if got := cargo.Targets(ship, nil); !slices.Equal(got, []ecs.Entity{p2, p1}) {
		t.Errorf("cargo = %v, want p2, p1 in order", got)
	}
	// The value reads back through the normal path, as a handle.
	vs, _ := r.Values(ship, "docked")
	if got, ok := vs[0].(Ref).Get(r.World()); !ok || got != p1 {
		t.Errorf("docked value %#v", vs[0])
	}
	// Retargeting moves the holder in the reverse index.
	if err := r.Set(ship, "docked", "#p2"); err != nil {
		t.Fatal(err)
	}
	if got := rel.Holders(p1, nil); !slices.Equal(got, []ecs.Entity{barge}) {
		t.Errorf("after retarget, holders of p1 = %v", got)
	}
	for _, bad := range []struct{ rel, want string }{
		{"nope", `unknown component "nope"`},
		{"dock", "several reference properties"},
		{"dock.speed", "not a reference"},
		{"dock.x", `no property "x"`},
	} {
		if _, err := r.Relation(bad.rel); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Relation(%q) = %v, want %q", bad.rel, err, bad.want)
		}
	}
}

func TestRelationPolicies(t *testing.T) {
	r := newRelRegistry(t)
	w := r.World()
	p1, p2, ship, barge := mustCreate(t, r, "p1"), mustCreate(t, r, "p2"), mustCreate(t, r, "ship"), mustCreate(t, r, "barge")
	_ = SetRef(r, ship, "docked", p1)   // remove
	_ = SetRef(r, barge, "dock.at", p1) // destroy
	_ = SetRef(r, ship, "dock.cargo", p1, p2, p1)
	if err := w.Destroy(p1); err != nil {
		t.Fatal(err)
	}
	if r.Has(ship, "docked") {
		t.Errorf("ship still has docked (onDelete: remove)")
	}
	if w.Alive(barge) {
		t.Errorf("barge is alive (onDelete: destroy)")
	}
	vs, _ := r.Values(ship, "dock")
	if cargo := vs[1].(Refs); len(cargo) != 1 || cargo[0].Target != p2 {
		t.Errorf("cargo after clear = %#v, want [p2]", cargo)
	}
	if a, _ := r.Attr(ship, "dock"); strings.Contains(a, "p1") {
		t.Errorf("attr %q still names p1", a)
	}
	// A stale handle set from Go is refused.
	if err := SetRef(r, ship, "docked", p1); err == nil {
		t.Errorf("SetRef to a destroyed entity succeeded")
	}
}
