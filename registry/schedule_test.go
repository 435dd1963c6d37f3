package registry

import (
	"slices"
	"strings"
	"testing"
)

// schedNames returns the schedule's entry names in run order.
func schedNames(t *testing.T, r *Registry) []string {
	t.Helper()
	infos, err := r.Schedule().Systems()
	must(t, err)
	var out []string
	for _, si := range infos {
		out = append(out, si.Name)
	}
	return out
}

// logSystem registers a system that logs "name" when it ticks (and
// "name.tock" when it tocks, if tock).
func logSystem(t *testing.T, r *Registry, rec *recorder, name string, tock bool, d SystemDefinition[struct{}]) {
	t.Helper()
	d.Tick = func(s *SystemContext, _ *struct{}) { rec.add("%s", s.System.Name) }
	if tock {
		d.Tock = func(s *SystemContext, _ *struct{}) { rec.add("%s.tock", s.System.Name) }
	}
	_, err := RegisterSystem(r, name, d)
	must(t, err)
}

// logComponent registers a component whose tick (and tock) log its name,
// with one entity carrying it.
func logComponent(t *testing.T, r *Registry, rec *recorder, name string, d Definition[lcTicker]) {
	t.Helper()
	d.Tick = func(c *Context, _ *lcTicker) { rec.add("%s", c.Name) }
	d.Tock = func(c *Context, _ *lcTicker) { rec.add("%s.tock", c.Name) }
	c, err := Register(r, name, d)
	must(t, err)
	r.World().NewEntity(c.ID)
}

// TestPhasesRunInOrder: the phases run in their fixed order, and within
// each A-Frame's: system ticks, component ticks, system tocks, component
// tocks; registration order otherwise.
func TestPhasesRunInOrder(t *testing.T) {
	_, r := newTestRegistry(t)
	rec := &recorder{}
	logComponent(t, r, rec, "late", Definition[lcTicker]{Phase: PhasePostUpdate})
	logComponent(t, r, rec, "comp", Definition[lcTicker]{})
	logSystem(t, r, rec, "post", true, SystemDefinition[struct{}]{Phase: PhasePostUpdate})
	logSystem(t, r, rec, "upd", false, SystemDefinition[struct{}]{})
	logSystem(t, r, rec, "phys", false, SystemDefinition[struct{}]{Phase: PhasePhysics})
	logSystem(t, r, rec, "pre", false, SystemDefinition[struct{}]{Phase: PhasePreUpdate})
	logSystem(t, r, rec, "in", false, SystemDefinition[struct{}]{Phase: PhaseInput})
	must(t, r.Tick(1.0/60))
	want := "in | pre | phys | upd | comp | post | late | post.tock | late.tock | comp.tock"
	if got := rec.take(); got != want {
		t.Errorf("one tick:\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(schedNames(t, r), " "); got != "in pre phys upd comp post late post.tock late.tock comp.tock" {
		t.Errorf("Systems: %s", got)
	}
	if !slices.Equal(PhaseNames(), []string{"input", "pre-update", "physics", "update", "post-update"}) {
		t.Errorf("PhaseNames %v", PhaseNames())
	}
	_, err := RegisterSystem(r, "bad", SystemDefinition[struct{}]{Phase: "updat"})
	if err == nil || !strings.Contains(err.Error(), `unknown phase "updat"`) || !strings.Contains(err.Error(), `(did you mean "update"?)`) {
		t.Errorf("unknown phase: %v", err)
	}
}
