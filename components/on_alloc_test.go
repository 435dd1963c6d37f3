package components

import (
	"testing"
)

// TestOnDispatchAllocates: delivering an event to an on with a
// condition and one set allocates nothing in the steady state, and does
// what it says.
func TestOnDispatchAllocates(t *testing.T) {
	r, e, detail := onBench(t)
	hp := func() float64 { vs, _ := r.Values(e, "health"); return vs[0].(float64) }
	r.Events().Emit(e, "hit", detail, false)
	if got := hp(); got != 95 {
		t.Fatalf("hp %v after a hit of 5", got)
	}
	allocs := testing.AllocsPerRun(200, func() { r.Events().Emit(e, "hit", detail, false) })
	if allocs != 0 {
		t.Errorf("a delivery allocates %v times", allocs)
	}
	if err := r.TakeErrors(); err != nil {
		t.Fatal(err)
	}
	// 1 + 201 hits of 5 from 100.
	if got := hp(); got != 100-202*5 {
		t.Errorf("hp %v, want %v", got, 100-202*5)
	}
}
