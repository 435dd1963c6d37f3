package behaviour_test

import (
	"math"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// builtinRegistry returns a new World and Registry with the built-ins
// (package components, which registers the behaviour ones) registered.
func builtinRegistry(t testing.TB) (*ecs.World, *registry.Registry, *components.Builtins) {
	t.Helper()
	w := ecs.NewWorld()
	r := registry.New(w)
	b, err := components.Register(r)
	must(t, err)
	return w, r, b
}

// moveLog stands in for the transform state's lists of moved filters in
// the benchmarks of a loop alone, which clear it where the transform
// system would take it (Builtins.ReportMoves sends the runtimes' reports
// here; the hand-written loops report here too).
type moveLog struct{ moved, pos []*ecs.Filter }

// Moved records f as the transform state does, once.
func (m *moveLog) Moved(f *ecs.Filter) { m.moved = addFilter(m.moved, f) }

// MovedPositions records f as the transform state does, once.
func (m *moveLog) MovedPositions(f *ecs.Filter) { m.pos = addFilter(m.pos, f) }

// clear forgets the recorded filters.
func (m *moveLog) clear() { m.moved, m.pos = m.moved[:0], m.pos[:0] }

// addFilter appends f to fs unless it is there.
func addFilter(fs []*ecs.Filter, f *ecs.Filter) []*ecs.Filter {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	return append(fs, f)
}

// mover is what the hand-written loops tell of their writes: the
// transform state, or a moveLog.
type mover interface{ MovedPositions(*ecs.Filter) }

// abs returns |x|.
func abs(x float64) float64 { return math.Abs(x) }
