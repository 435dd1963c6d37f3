package components

import (
	"fmt"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// TestBindStepAllocates: bindings of each entity's own data all go into
// one batch once their pointers are cached, and a tick of them then
// allocates nothing.
func TestBindStepAllocates(t *testing.T) {
	w := ecs.NewWorld()
	r := registry.New(w)
	bi, err := Register(r)
	must(t, err)
	for i := range 600 {
		e := w.NewEntity()
		must(t, r.Set(e, "position", fmt.Sprintf("%d 0 0", i)))
		must(t, r.Set(e, "bind", "position.y: sin(time * 2 + position.x) * 3"))
	}
	step := func() {
		bi.clock.tick(hz)
		bi.Bindings.step()
		bi.Transforms.movedPos = bi.Transforms.movedPos[:0] // what the transform system takes
	}
	for range 3 {
		step()
	}
	if bs := bi.Bindings; len(bs.batches) != 1 || bs.nLoose != 0 || len(bs.batches[0].runs) != 600 {
		t.Fatalf("%d batches, %d loose runs: want the 600 runs in one batch", len(bs.batches), bs.nLoose)
	}
	if allocs := testing.AllocsPerRun(100, step); allocs != 0 {
		t.Errorf("a tick of the bindings allocates %v times", allocs)
	}
	if err := r.TakeErrors(); err != nil {
		t.Fatal(err)
	}
}
