package live

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkSaveSet measures saving a one-property change of the
// 10,000-entity scene of the reload benchmarks into its file:
// PrepareSet (read and compile the files, diff, edit, check, compile
// the edit, diff) then Commit (write and apply), all on the simulation
// goroutine in the inspector.
func BenchmarkSaveSet(b *testing.B) {
	file := filepath.Join(b.TempDir(), "scene.yaml")
	if err := os.WriteFile(file, genReloadScene(benchEntities, 0), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := newBenchRegistry(b)
	sc, err := LoadFile(reg, file, Options{})
	if err != nil {
		b.Fatal(err)
	}
	rl := &Reloader{Scene: sc, File: file}
	e, _ := sc.Entity("r500")
	i := 0
	for b.Loop() {
		i++
		s, err := NewSaver(rl).PrepareSet(e, "position", strconv.Itoa(i)+" 0 0")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
