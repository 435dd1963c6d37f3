package events

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
)

// A Window is a span of work whose deliveries share one budget: a tick,
// an inspector's call, a hot reload. [Events.OpenWindow] opens one and
// returns the one it replaces, which [Events.CloseWindow] puts back:
//
//	defer evs.CloseWindow(evs.OpenWindow("tick"))
//
// Outside any window, each outermost [Events.Emit] (one no listener
// called) is a window of its own, so a program's own Emit in a loop is
// bounded per call, not in sum.
type Window struct {
	name string
	used int  // deliveries made
	open bool // opened by OpenWindow (else: one outermost Emit's)
	over bool // the budget ran out (and was reported)
}

// OpenWindow opens a window called name (it names the window in reports:
// "tick", "inspector call", "reload"): the deliveries from now until
// [Events.CloseWindow] share a budget of [Options.Budget]. It returns
// the window it replaces, for CloseWindow.
func (evs *Events) OpenWindow(name string) (prev Window) {
	prev = evs.win
	evs.startWindow(Window{name: name, open: true})
	return prev
}

// CloseWindow closes the current window and goes back to prev, what
// [Events.OpenWindow] returned (its deliveries counted as they were): a
// window opened inside another, such as a tick an inspector's call runs,
// has a budget of its own.
func (evs *Events) CloseWindow(prev Window) {
	evs.win = prev
	evs.budget = evs.budgetNow()
}

// startWindow makes w, fresh, the current window.
func (evs *Events) startWindow(w Window) {
	evs.win = w
	evs.budget = evs.budgetNow()
}

// budgetNow returns the budget of a window opening now.
func (evs *Events) budgetNow() int {
	if p := evs.opt.Budget; p != nil && *p > 0 {
		return *p
	}
	return DefaultBudget
}

// Used returns the deliveries made in the current window and its
// budget.
func (evs *Events) Used() (used, budget int) { return evs.win.used, evs.budget }

// spent refuses the delivery of the current event to l, a listener of
// cur, the budget being spent: the first refusal of the window is
// reported.
func (evs *Events) spent(cur ecs.Entity, l *listener) {
	if evs.win.over {
		return
	}
	evs.win.over = true
	if evs.opt.Report == nil {
		return
	}
	label := ""
	if evs.opt.Label != nil {
		label = evs.opt.Label(cur)
	}
	if label == "" {
		label = cur.String()
	}
	name := evs.opt.BudgetName
	if name == "" {
		name = "the delivery budget"
	}
	evs.opt.Report(&BudgetError{Entity: cur, Label: label, Listener: l.owner, Event: l.name,
		Budget: evs.budget, BudgetName: name, Window: evs.win.name})
}

// A BudgetError reports that the deliveries of a window passed its
// budget: the delivery refused first (the entity whose listener it was
// for, the listener's owner, the event), the budget, and the window. The
// window's later deliveries were dropped. For example:
//
//	entity #bomb: on__a: a: more than 100000 event deliveries in one tick (Limits.MaxDeliveries): the rest were dropped
type BudgetError struct {
	// Entity is the entity whose listener's delivery was refused first;
	// Label names it (#id, or its handle).
	Entity ecs.Entity
	Label  string
	// Listener is the listener's owner ("on__a"), "" if it said none
	// (see [Events.OnAs]); Event the event's name.
	Listener, Event string
	// Budget is the window's budget, BudgetName what sets it.
	Budget     int
	BudgetName string
	// Window names the window ("tick"); "" for one Emit outside any.
	Window string
}

// Error formats the error as described on [BudgetError].
func (e *BudgetError) Error() string {
	who := "entity " + e.Label + ": "
	if e.Listener != "" {
		who += e.Listener + ": "
	}
	in := "one Emit"
	if e.Window != "" {
		in = "one " + e.Window
	}
	return fmt.Sprintf("%s%s: more than %d event deliveries in %s (%s): the rest were dropped", who, e.Event, e.Budget, in, e.BudgetName)
}
