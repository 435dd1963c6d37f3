package registry

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

// TestRefusedComponentLeavesNoTrace: a component whose before/after
// closes a cycle is refused by the schedule before it is registered: the
// name stays free (in the Registry and the World) and registers again,
// fixed.
func TestRefusedComponentLeavesNoTrace(t *testing.T) {
	_, r := newTestRegistry(t)
	rec := &recorder{}
	logSystem(t, r, rec, "a", false, SystemDefinition[struct{}]{Before: []string{"b"}})
	logComponent(t, r, rec, "b", Definition[lcTicker]{Before: []string{"c"}})
	_, err := Register(r, "c", Definition[lcTicker]{Before: []string{"a"}, Tick: func(*Context, *lcTicker) {}})
	if err == nil || err.Error() != "registry: before/after ordering has a cycle: a -> b -> c -> a" {
		t.Fatalf("cycle at registration: %v", err)
	}
	if _, ok := r.Component("c"); ok {
		t.Error("a refused component was registered")
	}
	logComponent(t, r, rec, "c", Definition[lcTicker]{})
	must(t, r.Tick(1))
	if got := rec.take(); got != "a | b | c | b.tock | c.tock" {
		t.Errorf("after registering it fixed: %s", got)
	}
}

// TestOneClock: the Registry keeps no time of its own: Time is the
// schedule's clock, which its ticks move, SetClock sets, and every hook
// reads (a system's and a component's tick, and hooks run outside a
// tick, such as a component's init).
func TestOneClock(t *testing.T) {
	w, r := newTestRegistry(t)
	var sysTime, initTime, initDelta float64
	_, err := RegisterSystem(r, "clock", SystemDefinition[struct{}]{
		Tick: func(s *SystemContext, _ *struct{}) { sysTime = s.Time },
	})
	must(t, err)
	c, err := Register(r, "stamp", Definition[lcTicker]{
		Init: func(cx *Context, _ *lcTicker) { initTime, initDelta = cx.Time, cx.Delta },
	})
	must(t, err)
	for range 30 {
		must(t, r.Tick(1.0/60))
	}
	if r.Time() != 0.5 || r.Schedule().Time() != 0.5 || sysTime != 0.5 {
		t.Errorf("30 ticks of 1/60 s: Registry %v, schedule %v, system saw %v", r.Time(), r.Schedule().Time(), sysTime)
	}
	must(t, r.Schedule().SetClock(Clock{Time: 7}))
	if r.Time() != 7 {
		t.Errorf("Time %v after SetClock 7", r.Time())
	}
	w.NewEntity(c.ID)
	if initTime != 7 || initDelta != 1.0/60 {
		t.Errorf("init at time %v, delta %v; want 7 and the last tick's 1/60", initTime, initDelta)
	}
	must(t, r.Tick(0.5))
	if r.Time() != 7.5 || sysTime != 7.5 || r.Schedule().Clock().Time != 7.5 {
		t.Errorf("a tick after SetClock: Registry %v, system %v", r.Time(), sysTime)
	}
}

// TestScheduleSeesComponents: the schedule learns the Registry's
// components through its host: access naming an instance's base covers
// the instances (a new one widens it), and a name no component has is a
// warning with a hint from the registered names.
func TestScheduleSeesComponents(t *testing.T) {
	w, r := newTestRegistry(t)
	_, err := Register(r, "health", Definition[pval]{Multiple: true})
	must(t, err)
	_, err = RegisterSystem(r, "typo", SystemDefinition[struct{}]{Access: &Access{Reads: []string{"helth"}}, Tick: func(*SystemContext, *struct{}) {}})
	must(t, err)
	if warn := strings.Join(r.Schedule().Warnings(), "\n"); !strings.Contains(warn, `system typo declares unknown component "helth" (did you mean "health"?)`) {
		t.Errorf("warnings: %s", warn)
	}
	_, id, err := r.Lookup("health__extra")
	must(t, err)
	e := w.NewEntity(id)
	seen := 0
	f := ecs.NewFilter(w, ecs.With(id))
	_, err = RegisterSystem(r, "reader", SystemDefinition[struct{}]{
		Access: &Access{Reads: []string{"health"}},
		Tick: func(s *SystemContext, _ *struct{}) {
			q := s.Query(f)
			defer q.Close()
			for q.Next() {
				if q.Entity() == e && q.Ptr(id) != nil {
					seen++
				}
			}
		},
	})
	must(t, err)
	must(t, r.Tick(0.1))
	if seen != 1 {
		t.Errorf("a system that reads health saw health__extra %d times, want 1", seen)
	}
}

// TestDeclareManyComponentsIsFast: declaring many components (the scene
// case: declared components and tags, without before/after) stays fast,
// and the schedule, whose order waits for the next run, still runs what
// ticks. The bound is generous: an order built per registration took
// minutes for this many (the schedule's own test counts its builds).
func TestDeclareManyComponentsIsFast(t *testing.T) {
	w, r := newTestRegistry(t)
	ticks := 0
	c, err := Register(r, "ticker", Definition[lcTicker]{Tick: func(*Context, *lcTicker) { ticks++ }})
	must(t, err)
	w.NewEntity(c.ID)
	must(t, r.Tick(0))
	tag, err := schema.NewSchema(nil, r.Types())
	must(t, err)
	data, err := schema.NewSchema([]PropSpec{{Name: "hp", Type: "int"}}, r.Types())
	must(t, err)
	const n = 10_000
	start := time.Now()
	for i := range n {
		s := tag
		if i%2 == 1 {
			s = data
		}
		_, err := r.Declare(fmt.Sprintf("c%d", i), s)
		must(t, err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("declaring %d components took %v", n, d)
	}
	must(t, r.Tick(0))
	if ticks != 2 {
		t.Errorf("ticker ticked %d times in two Ticks", ticks)
	}
}
