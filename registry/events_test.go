package registry

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestComponentEventDetail: the component events carry A-Frame's {name,
// id}: the base name and the instance id.
func TestComponentEventDetail(t *testing.T) {
	w, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{Multiple: true})
	must(t, err)
	e := w.NewEntity()
	var got []string
	for _, n := range []string{"componentinitialized", "componentchanged", "componentremoved"} {
		r.Events().On(e, n, func(ev *Event) {
			d := ev.Detail.(ComponentEvent)
			got = append(got, ev.Name+" "+d.Name+"/"+d.ID+" "+d.String())
		})
	}
	must(t, r.Set(e, "unit__a", "hp: 1"))
	must(t, r.Set(e, "unit__a", "hp: 2"))
	must(t, r.Set(e, "unit", "hp: 3"))
	must(t, r.Remove(e, "unit__a"))
	want := "componentinitialized unit/a unit__a | componentchanged unit/a unit__a | componentinitialized unit/ unit | componentremoved unit/a unit__a"
	if s := strings.Join(got, " | "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestOffPerEntity: Off removes exactly its listener, among many on many
// entities, also from inside an Emit; unknown, repeated and zero ids are
// refused.
func TestOffPerEntity(t *testing.T) {
	w, r := newTestRegistry(t)
	var es []ecs.Entity
	var ids []ListenerID
	count := map[int]int{}
	for i := range 50 {
		e := w.NewEntity()
		es = append(es, e)
		for k := range 3 {
			i, k := i, k
			ids = append(ids, r.Events().On(e, "ping", func(*Event) { count[i*10+k]++ }))
		}
	}
	seen := map[ListenerID]bool{}
	for _, id := range ids {
		if id == 0 || seen[id] {
			t.Fatalf("listener id %v zero or repeated", id)
		}
		seen[id] = true
	}
	if !r.Events().Off(ids[3*7+1]) || r.Events().Off(ids[3*7+1]) || r.Events().Off(0) || r.Events().Off(ids[5]+1<<40) {
		t.Error("Off: the first removal must succeed, the others fail")
	}
	// A listener that removes another listener of its entity during an
	// Emit: later Emits do not call that one.
	r.Events().On(es[9], "ping", func(*Event) { r.Events().Off(ids[3*9+2]) })
	for _, e := range es {
		r.Events().Emit(e, "ping", nil, false)
	}
	for _, e := range es {
		r.Events().Emit(e, "ping", nil, false)
	}
	for i := range 50 {
		for k := range 3 {
			want := 2
			switch {
			case i == 7 && k == 1:
				want = 0
			case i == 9 && k == 2:
				want = 1
			}
			if count[i*10+k] != want {
				t.Errorf("listener %d of entity %d called %d times, want %d", k, i, count[i*10+k], want)
			}
		}
	}
	if id := r.Events().On(es[0], "x", func(*Event) {}); !r.Events().Off(id) || !r.Events().Listening(es[0], "ping") {
		t.Error("Off of the entity's last-added listener")
	}
	must(t, w.Destroy(es[0]))
	if r.Events().Off(ids[0]) {
		t.Error("Off of a destroyed entity's listener")
	}
}

// TestEmitLoaded: loaded reaches every entity of a subtree, each after
// its descendants, children in order, and does not bubble; while the
// World is locked it waits for the unlock; Instantiate and
// InstantiatePrefab emit it on what they make.
func TestEmitLoaded(t *testing.T) {
	w, r := newTestRegistry(t)
	names := map[ecs.Entity]string{}
	var got []string
	mk := func(name string, parent ecs.Entity) ecs.Entity {
		e := w.NewEntity()
		if !parent.IsZero() {
			must(t, w.SetParent(e, parent))
		}
		names[e] = name
		r.Events().On(e, "loaded", func(ev *Event) { got = append(got, names[ev.Current]+"<"+names[ev.Target]) })
		return e
	}
	root := mk("root", ecs.Entity{})
	c1 := mk("c1", root)
	mk("g1", c1)
	mk("c2", root)
	r.Events().EmitLoaded(root)
	if s := strings.Join(got, " "); s != "g1<g1 c1<c1 c2<c2 root<root" {
		t.Errorf("order: %s", s)
	}
	got = nil
	f := ecs.NewFilter(w)
	q := f.Query()
	r.Events().EmitLoaded(c1)
	if len(got) != 0 {
		t.Error("emitted while the World is locked")
	}
	q.Close()
	if s := strings.Join(got, " "); s != "g1<g1 c1<c1" {
		t.Errorf("after the unlock: %s", s)
	}
	got = nil
	_, err := Register(r, "unit", Definition[lcUnit]{
		Init: func(c *Context, _ *lcUnit) {
			names[c.Entity] = "made"
			c.On("loaded", func(ev *Event) { got = append(got, "made<"+names[ev.Target]) })
		},
	})
	must(t, err)
	r.Mixins().Define(&Mixin{ID: "m", Components: []NamedPatch{{Name: "unit"}}})
	if _, err := r.Mixins().Instantiate(root, []string{"m"}, nil); err != nil {
		t.Fatal(err)
	}
	must(t, r.Prefabs().Define(&Prefab{Name: "p", Root: &PrefabNode{Components: []NamedPatch{{Name: "unit"}},
		Children: []*PrefabNode{{Key: "0", Components: []NamedPatch{{Name: "unit"}}}}}}))
	if _, err := r.Prefabs().Instantiate(root, "p", ""); err != nil {
		t.Fatal(err)
	}
	if s := strings.Join(got, " "); s != "made<made made<made made<made" {
		t.Errorf("Instantiate and InstantiatePrefab: %s", s)
	}
}
