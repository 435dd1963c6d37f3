package behaviour_test

import (
	"fmt"
	"testing"

	"github.com/scenecs/scenecs/components"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// TestBindStepAllocates: bindings of each entity's own data all go into
// one batch once their pointers are cached, and a tick of them then
// allocates nothing.
func TestBindStepAllocates(t *testing.T) {
	w := ecs.NewWorld()
	r := registry.New(w)
	bi, err := components.Register(r)
	must(t, err)
	for i := range 600 {
		e := w.NewEntity()
		must(t, r.Set(e, "position", fmt.Sprintf("%d 0 0", i)))
		must(t, r.Set(e, "bind", "position.y: sin(time * 2 + position.x) * 3"))
	}
	must(t, r.Tick(hz)) // pointers cached, as the bind benchmarks have them
	log := &moveLog{}
	bi.ReportMoves(log.Moved, log.MovedPositions)
	step := func() {
		bi.TickClock(hz)
		bi.Bindings.Step()
		log.clear() // what the transform system takes
	}
	for range 3 {
		step()
	}
	if batches, loose, first := bi.Bindings.Batches(); batches != 1 || loose != 0 || first != 600 {
		t.Fatalf("%d batches, %d loose runs: want the 600 runs in one batch", batches, loose)
	}
	if allocs := testing.AllocsPerRun(100, step); allocs != 0 {
		t.Errorf("a tick of the bindings allocates %v times", allocs)
	}
	if err := r.TakeErrors(); err != nil {
		t.Fatal(err)
	}
}
