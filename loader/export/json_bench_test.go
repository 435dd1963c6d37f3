package export_test

import (
	"io"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/scenes"
)

// BenchmarkWriteJSON dumps the default scene once loaded (10,003
// entities, 10,000 of them roots without ids), as scene-run dump does:
// the whole dump with WriteJSON, and the entities alone with
// DumpEntities.
func BenchmarkWriteJSON(b *testing.B) {
	reg := newTestRegistry(b)
	if _, err := loader.Load(reg, scenes.FS, scenes.Default, loader.Options{}); err != nil {
		b.Fatal(err)
	}
	var es []ecs.Entity
	for e := range reg.World().All() {
		es = append(es, e)
	}
	b.Run("WriteJSON", func(b *testing.B) {
		for b.Loop() {
			if err := export.WriteJSON(io.Discard, reg, export.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("DumpEntities", func(b *testing.B) {
		for b.Loop() {
			export.DumpEntities(reg, es)
		}
	})
}
