package docorder

import (
	"slices"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestIndex orders entities in document order (a pre-order walk), each
// once, whether document order is index order or not, with few or many
// entities to order, and follows structural changes.
func TestIndex(t *testing.T) {
	w := ecs.NewWorld()
	w.EnableHierarchy()
	es := w.NewEntities(10000)
	var ix Index
	// Flat: document order is index order.
	ix.Refresh(w)
	if !ix.Mono || len(ix.Order) != 10000 {
		t.Fatalf("flat World: Mono %v, %d entities", ix.Mono, len(ix.Order))
	}
	rev := slices.Clone(es)
	slices.Reverse(rev)
	if got := ix.AppendOrdered(w, nil, append(rev, es[5], es[5])); !slices.Equal(got, es) {
		t.Errorf("flat, many: %v", got[:5])
	}
	if got := ix.AppendOrdered(w, nil, []ecs.Entity{es[9], es[2], es[9]}); !slices.Equal(got, []ecs.Entity{es[2], es[9]}) {
		t.Errorf("flat, few: %v", got)
	}
	// es[0] becomes the last child of es[9999]: document order is no
	// longer index order.
	if err := w.SetParent(es[0], es[9999]); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(es[1:]), es[0])
	if got := ix.AppendOrdered(w, nil, rev); !slices.Equal(got, want) {
		t.Errorf("after reparenting, many: first %v last %v", got[0], got[len(got)-1])
	}
	if ix.Mono {
		t.Error("Mono after reparenting")
	}
	if got := ix.AppendOrdered(w, nil, []ecs.Entity{es[0], es[1]}); !slices.Equal(got, []ecs.Entity{es[1], es[0]}) {
		t.Errorf("after reparenting, few: %v", got)
	}
	if got := ix.First(w, []ecs.Entity{es[0], es[200], es[3]}); got != es[3] {
		t.Errorf("First = %v, want %v", got, es[3])
	}
	// Links: parent and previous sibling positions.
	ix.Link(w)
	p0 := ix.Pos[es[0].Index()]
	if ix.Par[p0] != int32(ix.Pos[es[9999].Index()]) || ix.Prv[p0] != -1 {
		t.Errorf("links of the child: parent %d, previous %d", ix.Par[p0], ix.Prv[p0])
	}
	if p1 := ix.Pos[es[2].Index()]; ix.Par[p1] != -1 || ix.Prv[p1] != int32(ix.Pos[es[1].Index()]) {
		t.Errorf("links of a root: parent %d, previous %d", ix.Par[p1], ix.Prv[p1])
	}
	// Has reads a bitset by position.
	b := make([]uint64, (len(ix.Order)+63)/64)
	b[p0>>6] |= 1 << (p0 & 63)
	if !ix.Has(b, es[0]) || ix.Has(b, es[1]) {
		t.Error("Has")
	}
	// A shared index is one index.
	var sh Shared
	if a, b := sh.DocOrderIndex(), sh.DocOrderIndex(); a != b {
		t.Error("Shared returns different indexes")
	}
}
