package registry

import (
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// BenchmarkEmit is one event delivered to one listener of a child's
// parent, bubbling: the cost of Emit itself (the pool, the walk, the
// delivery budget's count) around a listener that does nothing.
func BenchmarkEmit(b *testing.B) {
	w, r := newTestRegistry(b)
	p, c := w.NewEntity(), w.NewEntity()
	if err := w.SetParent(c, p); err != nil {
		b.Fatal(err)
	}
	n := 0
	r.Events().On(p, "ping", func(*Event) { n++ })
	b.ReportAllocs()
	for b.Loop() {
		r.Events().Emit(c, "ping", nil, true)
	}
	if n == 0 {
		b.Fatal("no delivery")
	}
}

// BenchmarkInstantiatePrefab is one instance of a three-entity prefab
// made and destroyed: a spawn, with its limit and context checks.
func BenchmarkInstantiatePrefab(b *testing.B) {
	w, r := newTestRegistry(b)
	if _, err := Register(r, "unit", Definition[lcUnit]{}); err != nil {
		b.Fatal(err)
	}
	comp, _, _ := r.Lookup("unit")
	p, err := comp.Schema.ParseAttr("unit", "hp: 5")
	if err != nil {
		b.Fatal(err)
	}
	unit := []NamedPatch{{Name: "unit", Patch: p}}
	if err := r.Prefabs().Define(&Prefab{Name: "trio", Root: &PrefabNode{Components: unit,
		Children: []*PrefabNode{{Key: "0", Components: unit}, {Key: "1", Components: unit}}}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		e, err := r.Prefabs().Instantiate(ecs.Entity{}, "trio", "")
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Destroy(e); err != nil {
			b.Fatal(err)
		}
	}
}
