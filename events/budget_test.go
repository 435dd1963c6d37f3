package events_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/events"
)

// fanOut makes e's listener of "a" emit "a" twice on e, nested at most
// depth deep (as on's handlers are, 32): 2^(depth+1)-1 deliveries asked.
func fanOut(evs *events.Events, e ecs.Entity, depth int) *int {
	calls, nest := 0, 0
	evs.OnAs(e, "a", "on__a", func(*events.Event) {
		calls++
		if nest == depth {
			return
		}
		nest++
		evs.Emit(e, "a", nil, false)
		evs.Emit(e, "a", nil, false)
		nest--
	})
	return &calls
}

// TestBudgetStopsFanOut: a listener that emits its own event twice,
// nested 32 deep, asks for 2³³-1 deliveries; the window's budget ends it
// after the budget's worth, reported once with the entity, the
// listener's owner, the event and the budget.
func TestBudgetStopsFanOut(t *testing.T) {
	w := ecs.NewWorld()
	var errs []error
	budget := 1000
	evs := events.New(w, events.Options{
		Budget:     &budget,
		BudgetName: "Limits.MaxDeliveries",
		Report:     func(err error) { errs = append(errs, err) },
		Label:      func(ecs.Entity) string { return "#bomb" },
	})
	e := w.NewEntity()
	calls := fanOut(evs, e, 32)
	prev := evs.OpenWindow("tick")
	evs.Emit(e, "a", nil, false)
	if *calls != 1000 {
		t.Errorf("%d deliveries in a window of 1000", *calls)
	}
	evs.Emit(e, "a", nil, false) // same window: nothing more, not reported again
	if *calls != 1000 || len(errs) != 1 {
		t.Fatalf("after a second Emit: %d deliveries, %d reports", *calls, len(errs))
	}
	var be *events.BudgetError
	if !errors.As(errs[0], &be) || be.Entity != e || be.Listener != "on__a" || be.Event != "a" || be.Budget != 1000 || be.Window != "tick" {
		t.Errorf("report %#v", errs[0])
	}
	want := "entity #bomb: on__a: a: more than 1000 event deliveries in one tick (Limits.MaxDeliveries): the rest were dropped"
	if errs[0].Error() != want {
		t.Errorf("report\n got %s\nwant %s", errs[0], want)
	}
	evs.CloseWindow(prev)
	// Outside any window, each outermost Emit has a budget of its own.
	*calls = 0
	evs.Emit(e, "a", nil, false)
	evs.Emit(e, "a", nil, false)
	if *calls != 2000 || len(errs) != 3 {
		t.Errorf("two Emits outside a window: %d deliveries, %d reports", *calls, len(errs))
	}
	if !strings.Contains(errs[2].Error(), "in one Emit") {
		t.Errorf("report outside a window: %v", errs[2])
	}
}

// TestWindowsNest: a window opened inside another has a budget of its
// own; closing it goes back to the outer one's count.
func TestWindowsNest(t *testing.T) {
	w := ecs.NewWorld()
	n := 0
	budget := 10
	evs := events.New(w, events.Options{Budget: &budget, Report: func(error) { n++ }})
	e := w.NewEntity()
	calls := 0
	evs.On(e, "x", func(*events.Event) { calls++ })
	outer := evs.OpenWindow("inspector call")
	for range 6 {
		evs.Emit(e, "x", nil, false)
	}
	inner := evs.OpenWindow("tick")
	for range 10 {
		evs.Emit(e, "x", nil, false)
	}
	if used, budget := evs.Used(); used != 10 || budget != 10 || n != 0 {
		t.Errorf("inner window: used %d of %d, %d reports", used, budget, n)
	}
	evs.CloseWindow(inner)
	for range 6 {
		evs.Emit(e, "x", nil, false)
	}
	evs.CloseWindow(outer)
	if calls != 6+10+4 || n != 1 {
		t.Errorf("%d deliveries, %d reports; want 20 and 1", calls, n)
	}
}

// TestDefaultBudget: without Options.Budget (or with one that gives 0)
// the budget is DefaultBudget, and a report without a Label names the
// entity by its handle.
func TestDefaultBudget(t *testing.T) {
	w := ecs.NewWorld()
	var got error
	zero := 0
	evs := events.New(w, events.Options{Budget: &zero, Report: func(err error) { got = err }})
	e := w.NewEntity()
	calls := fanOut(evs, e, 32)
	evs.Emit(e, "a", nil, false)
	if *calls != events.DefaultBudget {
		t.Errorf("%d deliveries, want %d", *calls, events.DefaultBudget)
	}
	if got == nil || !strings.HasPrefix(got.Error(), "entity "+e.String()+": on__a: a: more than 100000 event deliveries in one Emit (the delivery budget)") {
		t.Errorf("report %v", got)
	}
}

// TestBudgetCostsNoAllocation: counting deliveries allocates nothing.
func TestBudgetCostsNoAllocation(t *testing.T) {
	w := ecs.NewWorld()
	evs := events.New(w, events.Options{})
	e := w.NewEntity()
	n := 0
	evs.On(e, "x", func(*events.Event) { n++ })
	allocs := testing.AllocsPerRun(1000, func() {
		defer evs.CloseWindow(evs.OpenWindow("tick"))
		evs.Emit(e, "x", nil, false)
	})
	if allocs != 0 || n != 1001 {
		t.Errorf("%v allocations per window and Emit, %d deliveries", allocs, n)
	}
}
