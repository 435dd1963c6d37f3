package registry

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestInstantiatePrefabOver: the mixins and then own are written over
// the prefab's root per property (the parts are the prefab's), the
// composition is kept as the instance's overrides until the root is
// destroyed, and a failure (unknown prefab, mixin or component, a used
// id) leaves nothing behind.
func TestInstantiatePrefabOver(t *testing.T) {
	w, r := mixinRegistry(t, "tough: | unit=hp: 500; name: tank")
	must(t, r.Prefabs().Define(&Prefab{Name: "squad", Root: &PrefabNode{
		Components: namedPatches(t, r, "unit=hp: 10; name: lead; pos: 1 1 1"),
		Children:   []*PrefabNode{{Key: "0", Components: namedPatches(t, r, "unit=hp: 5")}},
	}}))
	e, err := r.Prefabs().InstantiateOver(ecs.Entity{}, "squad", "s1", []string{"tough"}, namedPatches(t, r, "unit=hp: 7"))
	must(t, err)
	if got, _ := r.Attr(e, "unit"); got != "hp: 7; name: tank; pos: 1 1 1" {
		t.Errorf("root unit %q", got)
	}
	part, _ := r.EntityByID("s1/0")
	if got, _ := r.Attr(part, "unit"); got != "hp: 5; name: grunt; pos: 0 1 0" || r.Prefabs().PartKey(part) != "0" {
		t.Errorf("part unit %q, key %q", got, r.Prefabs().PartKey(part))
	}
	over := r.Prefabs().Overrides(e)
	if len(over) != 1 || over[0].Name != "unit" || len(over[0].Patch) != 2 {
		t.Errorf("overrides %+v, want unit hp and name", over)
	}
	plain, err := r.Prefabs().Instantiate(ecs.Entity{}, "squad", "")
	must(t, err)
	if r.Prefabs().Overrides(plain) != nil {
		t.Error("an instance made without overrides has some")
	}
	must(t, w.Destroy(e))
	if r.Prefabs().Overrides(e) != nil {
		t.Error("the overrides outlive the instance")
	}

	n := w.Len()
	for _, tt := range []struct {
		name, id string
		mixins   []string
		own      []NamedPatch
		want     string
	}{
		{"squd", "", nil, nil, `unknown prefab "squd" (did you mean "squad"?)`},
		{"squad", "", []string{"nope"}, nil, `unknown mixin "nope"`},
		{"squad", "", nil, []NamedPatch{{Name: "nosuch"}}, `nosuch`},
		{"squad", "x", nil, nil, `id "x" is already used`},
	} {
		if tt.id != "" {
			x := w.NewEntity()
			must(t, r.SetEntityID(x, tt.id))
			n++
		}
		_, err := r.Prefabs().InstantiateOver(ecs.Entity{}, tt.name, tt.id, tt.mixins, tt.own)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v %v: %v, want %s", tt.name, tt.mixins, tt.own, err, tt.want)
		}
		if w.Len() != n {
			t.Errorf("%s: %d entities left behind", tt.name, w.Len()-n)
		}
	}
}

// TestPrefabSizeShared: a prefab whose nodes are shared (a template
// nesting another prefab shares its nodes) is counted node by node once,
// however large its instance: 2^40 entities in 41 shared nodes.
func TestPrefabSizeShared(t *testing.T) {
	_, r := mixinRegistry(t)
	n := &PrefabNode{}
	for range 40 {
		n = &PrefabNode{Key: "0", Children: []*PrefabNode{n, n}}
	}
	must(t, r.Prefabs().Define(&Prefab{Name: "huge", Root: n}))
	if got, want := r.Prefabs().Size("huge"), 1<<41-1; got != want {
		t.Errorf("PrefabSize = %d, want %d", got, want)
	}
	if got := r.Prefabs().Size("none"); got != 0 {
		t.Errorf("PrefabSize of an unknown prefab = %d", got)
	}
}

// TestDependencyOnPrefabMarker: a component that depends on the prefab
// marker would give every entity it is added to a marker naming no
// prefab (a fake instance); it is refused when added.
func TestDependencyOnPrefabMarker(t *testing.T) {
	w, r := mixinRegistry(t)
	must(t, r.Prefabs().Define(&Prefab{Name: "p", Root: &PrefabNode{}})) // registers the marker
	_, err := Register(r, "fake", Definition[lcUnit]{Dependencies: []string{PrefabComponent}})
	must(t, err)
	e := w.NewEntity()
	err = r.Set(e, "fake", "")
	if err == nil || !strings.Contains(err.Error(), "read-only marker of prefab instances") {
		t.Fatalf("Set of a component depending on the marker: %v", err)
	}
	if r.Has(e, PrefabComponent) || r.Has(e, "fake") {
		t.Error("the refused component or the marker was added")
	}
}
