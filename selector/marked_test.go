package selector_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// TestQueryAllFlatWorldOrder checks the marking fast path (table-only
// selectors over a World whose document order is index order) against a
// plain walk of the World in document order, through churn that moves
// entities between tables and recycles slots.
func TestQueryAllFlatWorldOrder(t *testing.T) {
	w, r := newRegistry(t)
	rng := rand.New(rand.NewPCG(1, 2))
	var es []ecs.Entity
	for i := 0; i < 3000; i++ {
		e := w.NewEntity()
		es = append(es, e)
		if rng.IntN(2) == 0 {
			must(t, r.Set(e, "enemy", ""))
		}
		if rng.IntN(3) == 0 {
			must(t, r.Set(e, "alive", "true"))
		}
		if rng.IntN(2) == 0 {
			must(t, r.Set(e, "health", "hp: "+itoa(rng.IntN(40))))
		}
	}
	check := func() {
		t.Helper()
		for _, src := range []string{"[enemy]:not([alive])", "[health.hp<20]", "[enemy], [health.hp>=30]", "*", ":not([enemy])"} {
			sel, err := r.Compile(src)
			must(t, err)
			got := sel.QueryAll(nil)
			var want []ecs.Entity
			for e := range w.All() {
				if sel.Matches(e) {
					want = append(want, e)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s: QueryAll gives %d entities, a document-order walk %d (or a different order)", src, len(got), len(want))
			}
		}
	}
	check()
	// Churn: move entities between tables.
	for i := 0; i < 500; i++ {
		e := es[rng.IntN(len(es))]
		if !w.Alive(e) {
			continue
		}
		switch rng.IntN(3) {
		case 0:
			if r.Has(e, "alive") {
				must(t, r.Remove(e, "alive"))
			} else {
				must(t, r.Set(e, "alive", "false"))
			}
		case 1:
			must(t, r.Set(e, "health", "hp: "+itoa(rng.IntN(40))))
		case 2:
			must(t, w.Destroy(e))
		}
	}
	check()
	// Recycled slots: index order is no longer document order.
	for i := 0; i < 100; i++ {
		must(t, r.Set(w.NewEntity(), "enemy", ""))
	}
	check()
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}
