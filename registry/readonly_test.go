package registry

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// roScore is a read-only component of a test program: its owner keeps it.
type roScore struct {
	Points int `scene:"points"`
}

// readOnlyRegistry is mixinRegistry with a read-only "score" (Multiple,
// so that instances are covered too), a "tracked" component that depends
// on it, a prefab "rock", and mixins giving read-only components.
func readOnlyRegistry(t *testing.T) (*ecs.World, *Registry) {
	t.Helper()
	w, r := mixinRegistry(t, "plain: | unit=hp: 3")
	_, err := Register(r, "score", Definition[roScore]{ReadOnly: true, Owner: "kept by the scoring system", Multiple: true})
	must(t, err)
	_, err = Register(r, "tracked", Definition[lcSound]{Dependencies: []string{"score"}})
	must(t, err)
	must(t, r.Prefabs().Define(&Prefab{Name: "rock", Root: &PrefabNode{Components: namedPatches(t, r, "unit=hp: 9")}}))
	must(t, r.Prefabs().Define(&Prefab{Name: "boulder", Root: &PrefabNode{Components: namedPatches(t, r, "unit=hp: 90")}}))
	r.Mixins().Define(&Mixin{ID: "cheat", Components: []NamedPatch{{Name: "score", Patch: Patch{{Index: 0, Value: 99}}}}})
	r.Mixins().Define(&Mixin{ID: "fake", Components: []NamedPatch{{Name: PrefabComponent, Patch: Patch{{Index: 0, Value: PrefabRef("rock")}}}}})
	return w, r
}

// TestReadOnlyWrites: every public write of the Registry refuses a
// read-only component (a program's own, its instances, and the prefab
// marker) with an error that errors.Is ErrReadOnly and names the owner,
// changing nothing: no value set or removed, no entity made.
func TestReadOnlyWrites(t *testing.T) {
	w, r := readOnlyRegistry(t)
	inst, err := r.Prefabs().Instantiate(ecs.Entity{}, "rock", "")
	must(t, err)
	kept := w.NewEntity()
	must(t, r.Privileged().SetPatch(kept, "score", Patch{{Index: 0, Value: 5}}, Merge))
	must(t, r.Privileged().SetPatch(kept, "score__b", Patch{{Index: 0, Value: 6}}, Merge))
	bare := w.NewEntity()
	marker := func(v string) Patch { return Patch{{Index: 0, Value: PrefabRef(v)}} }

	writes := []struct {
		name string
		do   func() error
	}{
		{"Set", func() error { return r.Set(bare, "score", "points: 1") }},
		{"Set over", func() error { return r.Set(kept, "score", "points: 1") }},
		{"Set instance", func() error { return r.Set(kept, "score__b", "points: 1") }},
		{"Set new instance", func() error { return r.Set(kept, "score__c", "points: 1") }},
		{"SetPatch", func() error { return r.SetPatch(kept, "score", Patch{{Index: 0, Value: 1}}, Replace) }},
		{"SetProperty", func() error { return r.SetProperty(kept, "score", "points", "1") }},
		{"ResetProperty", func() error { return r.ResetProperty(kept, "score", "points") }},
		{"Remove", func() error { return r.Remove(kept, "score") }},
		{"Remove instance", func() error { return r.Remove(kept, "score__b") }},
		{"SetMany", func() error {
			return r.SetMany(bare, []NamedPatch{{Name: "unit"}, {Name: "score", Patch: Patch{{Index: 0, Value: 1}}}})
		}},
		{"Set marker", func() error { return r.SetPatch(inst, PrefabComponent, marker("boulder"), Merge) }},
		{"Set fake marker", func() error { return r.SetPatch(bare, PrefabComponent, marker("rock"), Merge) }},
		{"Remove marker", func() error { return r.Remove(inst, PrefabComponent) }},
		{"SetMany marker", func() error { return r.SetMany(bare, []NamedPatch{{Name: PrefabComponent, Patch: marker("rock")}}) }},
		{"Instantiate own", func() error {
			_, err := r.Mixins().Instantiate(ecs.Entity{}, nil, []NamedPatch{{Name: "unit"}, {Name: "score"}})
			return err
		}},
		{"Instantiate mixin", func() error {
			_, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"plain", "cheat"}, nil)
			return err
		}},
		{"Instantiate fake", func() error { _, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"fake"}, nil); return err }},
		{"InstantiatePrefabOver own", func() error {
			_, err := r.Prefabs().InstantiateOver(ecs.Entity{}, "rock", "", nil, []NamedPatch{{Name: PrefabComponent, Patch: marker("boulder")}})
			return err
		}},
		{"InstantiatePrefabOver mixin", func() error {
			_, err := r.Prefabs().InstantiateOver(ecs.Entity{}, "rock", "", []string{"cheat"}, nil)
			return err
		}},
		{"DefinePrefab root", func() error {
			return r.Prefabs().Define(&Prefab{Name: "forged", Root: &PrefabNode{Components: []NamedPatch{{Name: "score"}}}})
		}},
		{"DefinePrefab part marker", func() error {
			return r.Prefabs().Define(&Prefab{Name: "forged", Root: &PrefabNode{Children: []*PrefabNode{
				{Key: "0", Prefab: "rock", Components: []NamedPatch{{Name: PrefabComponent, Patch: marker("boulder")}}},
			}}})
		}},
	}
	before := dumpReadOnly(r)
	n := w.Len()
	for _, tt := range writes {
		err := tt.do()
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want a read-only error", tt.name, err)
			continue
		}
		var ro *ReadOnlyError
		if !errors.As(err, &ro) || !strings.Contains(err.Error(), "read-only") || ro.Component == "" {
			t.Errorf("%s: %q does not say what and why", tt.name, err)
		}
		if ro.Component == "score" && !strings.Contains(err.Error(), "kept by the scoring system") {
			t.Errorf("%s: %q does not name the owner", tt.name, err)
		}
	}
	if got := dumpReadOnly(r); got != before || w.Len() != n {
		t.Errorf("refused writes changed the World:\n%s\nwant\n%s (entities %d, want %d)", got, before, w.Len(), n)
	}
	if r.Has(bare, "unit") {
		t.Error("a refused SetMany set its other components")
	}
	if _, ok := r.Prefabs().Get("forged"); ok {
		t.Error("a prefab with a read-only component was defined")
	}
	if got := r.Prefabs().Of(inst); got != "rock" {
		t.Errorf("instance marker %q", got)
	}
}

// dumpReadOnly prints every entity's score instances and marker.
func dumpReadOnly(r *Registry) string {
	var b strings.Builder
	for e := range r.World().All() {
		b.WriteString(e.String() + ":")
		for _, name := range r.EntityComponents(e) {
			if c, _ := r.Component(name); c != nil && c.ReadOnly() {
				a, _ := r.Attr(e, name)
				b.WriteString(" " + name + "=" + a)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestReadOnlyOwners: the owners' paths keep working. Privileged writes
// and removes; prefab instantiation sets the marker, a nested instance
// (the loader's form: the marker naming the node's prefab) included; a
// read-only dependency is added with its defaults; a write refused while
// the World is locked is refused at once, not deferred.
func TestReadOnlyOwners(t *testing.T) {
	w, r := readOnlyRegistry(t)
	e := w.NewEntity()
	p := r.Privileged()
	must(t, p.SetPatch(e, "score", Patch{{Index: 0, Value: 4}}, Merge))
	must(t, p.SetMany(e, []NamedPatch{{Name: "score__x", Patch: Patch{{Index: 0, Value: 2}}}}))
	if a, _ := r.Attr(e, "score"); a != "points: 4" || !r.Has(e, "score__x") {
		t.Errorf("privileged writes: %q", a)
	}
	must(t, p.Remove(e, "score__x"))
	if r.Has(e, "score__x") {
		t.Error("privileged remove")
	}
	must(t, r.Prefabs().Define(&Prefab{Name: "pile", Root: &PrefabNode{Children: []*PrefabNode{
		{Key: "0", Prefab: "rock", Components: []NamedPatch{{Name: "unit"}, {Name: PrefabComponent, Patch: Patch{{Index: 0, Value: PrefabRef("rock")}}}}},
	}}}))
	pile, err := r.Prefabs().Instantiate(ecs.Entity{}, "pile", "pile")
	must(t, err)
	part, _ := r.EntityByID("pile/0")
	if r.Prefabs().Of(pile) != "pile" || r.Prefabs().Of(part) != "rock" {
		t.Errorf("markers %q %q", r.Prefabs().Of(pile), r.Prefabs().Of(part))
	}
	d := w.NewEntity()
	must(t, r.Set(d, "tracked", ""))
	if a, _ := r.Attr(d, "score"); a != "points: 0" {
		t.Errorf("read-only dependency: %q", a)
	}
	// In a hook, with the World locked: refused now, nothing deferred.
	ran := 0
	_, err = Register(r, "meddler", Definition[lcSound]{Tick: func(c *Context, _ *lcSound) {
		ran++
		if err := c.Registry.Set(c.Entity, "score", "points: 100"); !errors.Is(err, ErrReadOnly) {
			t.Errorf("Set in a tick: %v", err)
		}
	}})
	must(t, err)
	must(t, r.Set(d, "meddler", ""))
	must(t, r.Tick(0.1))
	if a, _ := r.Attr(d, "score"); a != "points: 0" || ran != 1 {
		t.Errorf("after a refused write in a tick (%d ticks): %q", ran, a)
	}
	if err := r.checkWritable("add", "unit"); err != nil {
		t.Errorf("CheckWritable(unit): %v", err)
	}
	if err := r.checkWritable("add", "score__q"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("CheckWritable(score__q): %v", err)
	}
	if err := r.checkWritable("add", "nope"); err == nil {
		t.Error("CheckWritable of an unknown name: no error")
	}
	score, _ := r.Component("score")
	var ro *ReadOnlyError
	if err := score.CheckWritable("remove", "score__q"); !errors.As(err, &ro) || ro.Op != "remove" || ro.Component != "score__q" {
		t.Errorf("Component.CheckWritable: %v", err)
	}
	unit, _ := r.Component("unit")
	if err := unit.CheckWritable("set", "unit"); err != nil {
		t.Errorf("Component.CheckWritable(unit): %v", err)
	}
}
