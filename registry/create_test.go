package registry

import (
	"errors"
	"slices"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestCreate: Registry.Create gives an entity its parent, id, classes,
// part key and components (own over the mixins', per property), and on
// any error leaves nothing behind: not the entity, not its id.
func TestCreate(t *testing.T) {
	w, r := readOnlyRegistry(t)
	r.Mixins().Define(parseMixin(t, r, "weak: | unit=hp: 1 | sound__m="))
	parent, err := r.Create(ecs.Entity{}, CreateSpec{ID: "p"})
	must(t, err)
	e, err := r.Create(parent, CreateSpec{ID: "kid", Classes: []string{"a", "b"}, PartKey: "gun",
		Mixins: []string{"weak"}, Components: namedPatches(t, r, "sound__x=", "unit=hp: 7")})
	must(t, err)
	if p, _ := w.Parent(e); p != parent || r.EntityID(e) != "kid" || !slices.Equal(r.Classes(e), []string{"a", "b"}) || r.Prefabs().PartKey(e) != "gun" {
		t.Errorf("parent %v id %q classes %v key %q", p, r.EntityID(e), r.Classes(e), r.Prefabs().PartKey(e))
	}
	if got, _ := r.Attr(e, "unit"); got != "hp: 7; name: grunt; pos: 0 1 0" || !r.Has(e, "sound__x") || !r.Has(e, "sound__m") {
		t.Errorf("unit %q, sound__x %v", got, r.Has(e, "sound__x"))
	}
	// A name given twice composes per property, as with mixins.
	twice, err := r.Create(ecs.Entity{}, CreateSpec{Components: namedPatches(t, r, "unit=hp: 2", "unit=hp: 3")})
	must(t, err)
	if got, _ := r.Attr(twice, "unit"); got != "hp: 3; name: grunt; pos: 0 1 0" {
		t.Errorf("unit given twice: %q", got)
	}

	n := w.Len()
	for _, c := range []struct {
		name   string
		parent ecs.Entity
		spec   CreateSpec
		is     error
	}{
		{"id taken", parent, CreateSpec{ID: "kid"}, nil},
		{"read-only", parent, CreateSpec{ID: "fresh", Components: namedPatches(t, r, "score=points: 1")}, ErrReadOnly},
		{"read-only from a mixin", ecs.Entity{}, CreateSpec{ID: "fresh", Mixins: []string{"cheat"}}, ErrReadOnly},
		{"unknown mixin", ecs.Entity{}, CreateSpec{ID: "fresh", Mixins: []string{"nope"}}, nil},
		{"bad class", ecs.Entity{}, CreateSpec{ID: "fresh", Classes: []string{"a b"}}, nil},
		{"dead parent", ecs.Entity{}, CreateSpec{ID: "fresh"}, nil},
	} {
		if c.name == "dead parent" {
			gone, _ := r.Create(ecs.Entity{}, CreateSpec{})
			must(t, w.Destroy(gone))
			c.parent = gone
		}
		got, err := r.Create(c.parent, c.spec)
		if err == nil || !got.IsZero() || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: got %v, %v", c.name, got, err)
		}
		if w.Len() != n {
			t.Errorf("%s: %d entities after a refused Create, want %d", c.name, w.Len(), n)
		}
		if _, used := r.EntityByID("fresh"); used {
			t.Errorf("%s: the id of a refused Create is taken", c.name)
		}
	}

	// The owner's path writes read-only components.
	own, err := r.Privileged().Create(ecs.Entity{}, CreateSpec{Components: namedPatches(t, r, "score=points: 4")})
	must(t, err)
	if got, _ := r.Attr(own, "score"); got != "points: 4" {
		t.Errorf("privileged score %q", got)
	}
}

// TestCreateOnePath: prefab instantiation and Instantiate make their
// entities as Create does: an instance's parts get their ids and part
// keys before their components' hooks run.
func TestCreateOnePath(t *testing.T) {
	w, r := readOnlyRegistry(t)
	var seen []string
	_, err := Register(r, "probe", Definition[lcUnit]{Init: func(c *Context, _ *lcUnit) {
		seen = append(seen, r.EntityID(c.Entity)+"/"+r.Prefabs().PartKey(c.Entity))
	}})
	must(t, err)
	must(t, r.Prefabs().Define(&Prefab{Name: "ship", Root: &PrefabNode{Components: namedPatches(t, r, "probe="),
		Children: []*PrefabNode{{Key: "gun", Components: namedPatches(t, r, "probe=")}}}}))
	inst, err := r.Prefabs().Instantiate(ecs.Entity{}, "ship", "s")
	must(t, err)
	if want := []string{"s/", "s/gun/gun"}; !slices.Equal(seen, want) {
		t.Errorf("hooks saw %q, want %q", seen, want)
	}
	n := w.Len()
	if _, err := r.Prefabs().InstantiatePart(inst, &PrefabNode{Key: "bad", Class: []string{"a b"}}, ""); err == nil || w.Len() != n {
		t.Errorf("a refused part: %v, %d entities (want %d)", err, w.Len(), n)
	}
	if _, err := r.Mixins().Instantiate(ecs.Entity{}, []string{"cheat"}, nil); !errors.Is(err, ErrReadOnly) || w.Len() != n {
		t.Errorf("Instantiate of a read-only mixin: %v, %d entities", err, w.Len())
	}
}
