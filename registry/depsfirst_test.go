package registry

import (
	"fmt"
	"strings"
	"testing"
)

// chainItems returns n items named c0..c(n-1), each depending on the
// next, written in the order the dependencies must not come.
func chainItems(n int) []setItem {
	items := make([]setItem, n)
	for i := range items {
		c := &Component{Name: fmt.Sprintf("c%d", i)}
		if i+1 < n {
			c.Dependencies = []string{fmt.Sprintf("c%d", i+1)}
		}
		items[i] = setItem{c: c, name: c.Name}
	}
	return items
}

// TestDepsFirst: dependencies come first, for lists within the caller's
// buffer and beyond it (more than 8 items), an ordered list is returned
// as it is, and ordering a few items allocates nothing.
func TestDepsFirst(t *testing.T) {
	for _, n := range []int{1, 2, 8, 9, 20} {
		items := chainItems(n)
		var buf [8]setItem
		got := depsFirst(items, buf[:0])
		var names []string
		for _, it := range got {
			names = append(names, it.name)
		}
		for i := range names {
			if want := fmt.Sprintf("c%d", n-1-i); names[i] != want {
				t.Fatalf("n=%d: order %s", n, strings.Join(names, " "))
			}
		}
		if again := depsFirst(got, nil); &again[0] != &got[0] {
			t.Errorf("n=%d: an ordered list was copied", n)
		}
	}
	items := chainItems(8)
	if a := testing.AllocsPerRun(100, func() {
		var buf [8]setItem
		_ = depsFirst(items, buf[:0])
	}); a != 0 {
		t.Errorf("ordering 8 items allocates %v times", a)
	}
}
