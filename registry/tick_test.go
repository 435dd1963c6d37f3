package registry

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

// TestSystemSelectorSyntaxAtRegistration: a system selector that is not
// valid syntax is refused by RegisterSystem, with the selector's column,
// before and after Start; nothing is registered.
func TestSystemSelectorSyntaxAtRegistration(t *testing.T) {
	bad := []struct{ sel, want string }{
		{"[enemy]:not([alive]", `registry: system "s": selector:1:20: expected ')' to close ":not(", found end of input`},
		{"#", `selector:1:2: expected id after '#'`},
		{".a..b", `selector:1:4: expected class name after '.'`},
		{"[hp>abc]", `selector:1:5: expected number after '>'`},
		{"enemy", `selector:1:1: unexpected name "enemy"`},
		{"[a], ", `selector:1:`},
	}
	for _, started := range []bool{false, true} {
		for _, tt := range bad {
			_, r := newTestRegistry(t)
			if started {
				must(t, r.Start())
			}
			s, err := RegisterSystem(r, "s", SystemDefinition[sysConfig]{Selector: tt.sel})
			var se *selector.Error
			if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &se) {
				t.Errorf("started=%v: RegisterSystem(%q) = %v, want an error containing %q wrapping a *selector.Error", started, tt.sel, err, tt.want)
			}
			if s != nil || len(r.Systems()) != 0 {
				t.Errorf("started=%v: %q: system registered despite the error", started, tt.sel)
			}
		}
	}
}

// TestSystemThatCannotStart: a system whose selector is valid but does not
// compile (it names a component nobody registered) is reported by Start
// and by every Tick, does not tick, and does not stop the other systems
// (a system registered before it keeps ticking); it starts once its
// selector compiles. After Start, RegisterSystem reports the error itself
// and registers nothing.
func TestSystemThatCannotStart(t *testing.T) {
	w, r := newTestRegistry(t)
	moves := 0
	_, err := RegisterSystem(r, "mover", SystemDefinition[sysConfig]{
		Tick: func(*SystemContext, *sysConfig) { moves++ },
	})
	must(t, err)
	var inits, ticks int
	_, err = RegisterSystem(r, "hunter", SystemDefinition[sysConfig]{
		Selector: "[prey]",
		Init:     func(*SystemContext, *sysConfig) { inits++ },
		Tick:     func(s *SystemContext, _ *sysConfig) { ticks += len(s.Entities()) },
	})
	must(t, err)
	e := w.NewEntity()

	err = r.Tick(0.5)
	var se *selector.Error
	if err == nil || !strings.Contains(err.Error(), `registry: system "hunter": `) || !strings.Contains(err.Error(), "prey") || !errors.As(err, &se) {
		t.Fatalf("Tick = %v, want the hunter system's selector error", err)
	}
	if moves != 1 {
		t.Errorf("the other system did not tick beside the failed one: %d ticks", moves)
	}
	if inits != 0 || ticks != 0 {
		t.Errorf("the failed system ran: %d inits, %d ticks", inits, ticks)
	}
	// The error stays until the cause is gone; the other system goes on.
	if err := r.Tick(0.5); err == nil {
		t.Error("second Tick: no error while the system still cannot start")
	}
	if moves != 2 {
		t.Errorf("the other system ticked %d times in two ticks", moves)
	}
	// Declaring the component lets the system start, once.
	s, err := schema.NewSchema(nil, r.Types())
	must(t, err)
	_, err = r.Declare("prey", s)
	must(t, err)
	must(t, r.Set(e, "prey", ""))
	if err := r.Tick(0.5); err != nil {
		t.Fatalf("Tick once prey exists: %v", err)
	}
	must(t, r.Tick(0.5))
	if inits != 1 || ticks != 2 {
		t.Errorf("after the fix: %d inits, %d ticks; want 1 and 2", inits, ticks)
	}

	// After Start, a selector that does not compile is an error of
	// RegisterSystem, and nothing is registered; a good one starts at once.
	_, err = RegisterSystem(r, "late", SystemDefinition[sysConfig]{Selector: "[nobody]"})
	if err == nil || !strings.Contains(err.Error(), `registry: system "late": `) {
		t.Errorf("late RegisterSystem = %v", err)
	}
	if _, ok := r.System("late"); ok {
		t.Error("late system registered despite its error")
	}
	lateInit := 0
	_, err = RegisterSystem(r, "late", SystemDefinition[sysConfig]{Selector: "[prey]",
		Init: func(*SystemContext, *sysConfig) { lateInit++ }})
	must(t, err)
	if lateInit != 1 {
		t.Errorf("late system started %d times", lateInit)
	}
}

// TestCustomEngineErrorsFromTick: with a custom selector engine the
// selector is only compiled at Start; its error comes from every Tick
// while the other systems tick.
func TestCustomEngineErrorsFromTick(t *testing.T) {
	_, r := newTestRegistry(t)
	r.setSelectorEngine(&fakeEngine{r: r})
	rec := &recorder{}
	for _, d := range []struct{ name, sel string }{{"a", ""}, {"bad", "unit"}, {"c", ""}} {
		_, err := RegisterSystem(r, d.name, SystemDefinition[sysConfig]{Selector: d.sel,
			Tick: func(s *SystemContext, _ *sysConfig) { rec.add("%s", s.System.Name) }})
		must(t, err)
	}
	for range 2 {
		if err := r.Tick(1); fmt.Sprint(err) != `registry: system "bad": bad selector "unit"` {
			t.Errorf("Tick = %v", err)
		}
		if got := rec.take(); got != "a | c" {
			t.Errorf("ticked %q, want the two other systems", got)
		}
	}
}

// TestReentrantTick: Tick from any hook a Tick runs is refused with
// ErrReentrantTick, and the outer Tick goes on.
func TestReentrantTick(t *testing.T) {
	hooks := []string{"component tick", "component tickColumn", "component tock", "system init", "system update", "system tick", "system tock"}
	for _, hook := range hooks {
		t.Run(hook, func(t *testing.T) {
			w, r := newTestRegistry(t)
			var inner []error
			again := func(r *Registry) { inner = append(inner, r.Tick(1)) }
			var d Definition[lcTicker]
			switch hook {
			case "component tick":
				d.Tick = func(c *Context, _ *lcTicker) { again(c.Registry) }
			case "component tickColumn":
				d.TickColumn = func(c *Context, _ []lcTicker) { again(c.Registry) }
			case "component tock":
				d.Tock = func(c *Context, _ *lcTicker) { again(c.Registry) }
			}
			c, err := Register(r, "ticker", d)
			must(t, err)
			var sd SystemDefinition[sysConfig]
			switch hook {
			case "system init":
				sd.Init = func(s *SystemContext, _ *sysConfig) { again(s.Registry) }
			case "system update":
				sd.Update = func(s *SystemContext, _, _ *sysConfig) { again(s.Registry) }
			case "system tick":
				sd.Tick = func(s *SystemContext, _ *sysConfig) { again(s.Registry) }
			case "system tock":
				sd.Tock = func(s *SystemContext, _ *sysConfig) { again(s.Registry) }
			}
			_, err = RegisterSystem(r, "sys", sd)
			must(t, err)
			w.NewEntities(3, c.ID)
			must(t, r.Tick(1))
			if len(inner) == 0 {
				t.Fatal("the hook did not run")
			}
			for _, err := range inner {
				if !errors.Is(err, ErrReentrantTick) {
					t.Errorf("inner Tick = %v, want ErrReentrantTick", err)
				}
			}
			if r.Time() != 1 {
				t.Errorf("time %v after one Tick (an inner Tick ran)", r.Time())
			}
			// A Tick after the first is not refused.
			inner = nil
			must(t, r.Tick(1))
			if r.Time() != 2 {
				t.Errorf("time %v after two Ticks", r.Time())
			}
		})
	}
}

// TestTickNonFiniteDelta: NaN and infinite time steps are refused before
// anything runs.
func TestTickNonFiniteDelta(t *testing.T) {
	_, r := newTestRegistry(t)
	ran := 0
	_, err := RegisterSystem(r, "s", SystemDefinition[sysConfig]{Tick: func(*SystemContext, *sysConfig) { ran++ }})
	must(t, err)
	for _, dt := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if err := r.Tick(dt); err == nil || !strings.Contains(err.Error(), "finite") {
			t.Errorf("Tick(%v) = %v", dt, err)
		}
	}
	if ran != 0 || r.Time() != 0 {
		t.Errorf("a refused Tick ran hooks (%d) or moved time (%v)", ran, r.Time())
	}
}

// TestPanicInTickHookUnlocks: a hook of any kind that panics makes Tick
// return a *PanicError naming it (the program does not crash), and leaves
// the World unlocked (the changes it deferred applied, Flush usable) and
// the Registry able to tick again.
func TestPanicInTickHookUnlocks(t *testing.T) {
	for _, hook := range []string{"tick", "tickColumn", "tock", "system tick", "system tock"} {
		t.Run(hook, func(t *testing.T) {
			w, r := newTestRegistry(t)
			armed := true
			var made ecs.Entity
			boom := func(w *ecs.World) {
				if armed {
					armed = false
					made = w.NewEntity() // deferred while locked
					panic("boom")
				}
			}
			var d Definition[lcTicker]
			switch hook {
			case "tick":
				d.Tick = func(c *Context, _ *lcTicker) { boom(c.World) }
			case "tickColumn":
				d.TickColumn = func(c *Context, _ []lcTicker) { boom(c.World) }
			case "tock":
				d.Tock = func(c *Context, _ *lcTicker) { boom(c.World) }
			}
			c, err := Register(r, "ticker", d)
			must(t, err)
			var sd SystemDefinition[sysConfig]
			switch hook {
			case "system tick":
				sd.Tick = func(s *SystemContext, _ *sysConfig) { boom(s.World) }
			case "system tock":
				sd.Tock = func(s *SystemContext, _ *sysConfig) { boom(s.World) }
			}
			_, err = RegisterSystem(r, "sys", sd)
			must(t, err)
			w.NewEntities(5, c.ID)
			var pe *PanicError
			if err := r.Tick(1); !errors.As(err, &pe) || pe.Value != "boom" || pe.Locked {
				t.Fatalf("Tick: %v, want a *PanicError of boom", err)
			}
			want := map[string]string{"tick": "ticker", "tickColumn": "ticker", "tock": "ticker", "system tick": "sys", "system tock": "sys"}[hook]
			if pe.Name != want || !strings.Contains(pe.Error(), "registry: "+want+" panicked: boom") || len(pe.Stack) == 0 {
				t.Errorf("panic error %q (name %q), want it to name %q, with a stack", pe.Error(), pe.Name, want)
			}
			if w.Locked() {
				t.Fatal("World still locked after the panic")
			}
			if w.Pending() != 0 {
				t.Errorf("%d changes still pending", w.Pending())
			}
			if !made.IsZero() && !w.Alive(made) {
				t.Error("the entity created by the hook before it panicked was not made")
			}
			w.Flush() // panics if still locked
			e := w.NewEntity()
			must(t, r.Set(e, "ticker", "n: 1"))
			if !r.Has(e, "ticker") {
				t.Error("a change after the panic was not applied at once")
			}
			if err := r.Tick(1); err != nil {
				t.Errorf("Tick after the panic: %v", err)
			}
			if w.Locked() {
				t.Error("World locked after a normal Tick")
			}
		})
	}
}
