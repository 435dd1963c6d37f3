package export_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// siblingScene returns a Registry holding one entity with the id "top"
// and n children without ids, and the children.
func siblingScene(tb testing.TB, n int) (*registry.Registry, []ecs.Entity) {
	tb.Helper()
	var b strings.Builder
	b.WriteString("entities:\n  - id: top\n    children:\n")
	for range n {
		b.WriteString("      - position: 0 0 0\n")
	}
	reg := newTestRegistry(tb)
	if _, err := loader.LoadBytes(reg, "s.yaml", []byte(b.String()), loader.Options{}); err != nil {
		tb.Fatal(err)
	}
	top, _ := reg.EntityByID("top")
	return reg, reg.World().Children(top)
}

// entityChain returns a Registry holding a chain of n entities without
// ids, each the only child of the one before, and the chain from its
// root down.
func entityChain(tb testing.TB, n int) (*registry.Registry, []ecs.Entity) {
	tb.Helper()
	reg := newTestRegistry(tb)
	w := reg.World()
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = w.NewEntity()
		if i > 0 {
			if err := w.InsertChild(es[i-1], es[i], -1); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return reg, es
}

// benchmarkNaming names every entity of es: each on its own with
// EntityPath, and all at once with EntityPaths.
func benchmarkNaming(b *testing.B, reg *registry.Registry, es []ecs.Entity) {
	b.Run("EntityPath", func(b *testing.B) {
		for b.Loop() {
			for _, e := range es {
				_ = export.EntityPath(reg, e)
			}
		}
	})
	b.Run("EntityPaths", func(b *testing.B) {
		for b.Loop() {
			_ = export.EntityPaths(reg, es)
		}
	})
}

// BenchmarkNameSiblings names the 1,000 and the 10,000 children without
// ids of one entity: the time per child should not grow with their
// number (it did when ChildIndex counted earlier siblings).
func BenchmarkNameSiblings(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint("n=", n), func(b *testing.B) {
			reg, kids := siblingScene(b, n)
			benchmarkNaming(b, reg, kids)
		})
	}
}

// BenchmarkNameChain names every entity of a chain of 1,000 without ids:
// EntityPath builds each path from the root, EntityPaths builds each from
// its parent's.
func BenchmarkNameChain(b *testing.B) {
	reg, es := entityChain(b, 1000)
	benchmarkNaming(b, reg, es)
}
