package registry

import (
	"errors"
	"fmt"
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

// TestBeforeAfterOrdersSystemsAndComponents: constraints between systems,
// between components, and between both, in any direction, reorder
// registration order; constraints through a component without hooks
// hold; a constraint the phases contradict is an error naming both.
func TestBeforeAfterOrdersSystemsAndComponents(t *testing.T) {
	_, r := newTestRegistry(t)
	rec := &recorder{}
	logSystem(t, r, rec, "a", false, SystemDefinition[struct{}]{After: []string{"b"}})
	logSystem(t, r, rec, "b", false, SystemDefinition[struct{}]{})
	logSystem(t, r, rec, "c", false, SystemDefinition[struct{}]{Before: []string{"b"}})
	// x has no hooks: y before x, x before z still puts y before z.
	_, err := Register(r, "x", Definition[lcTicker]{Before: []string{"z"}})
	must(t, err)
	logComponent(t, r, rec, "z", Definition[lcTicker]{})
	logComponent(t, r, rec, "y", Definition[lcTicker]{Before: []string{"x"}})
	// A component in post-update after a system in update: satisfied by
	// the phases.
	logComponent(t, r, rec, "w", Definition[lcTicker]{Phase: PhasePostUpdate, After: []string{"a"}})
	must(t, r.Tick(1))
	if got, want := rec.take(), "c | b | a | y | z | w | y.tock | z.tock | w.tock"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Contradictions: a component before a system of its phase (systems
	// tick first), a system before one of an earlier phase.
	_, err = Register(r, "v", Definition[lcTicker]{Before: []string{"a"}, Tick: func(*Context, *lcTicker) {}})
	if err != nil {
		t.Fatal(err)
	}
	err = r.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "v must run before a (v -> a), but v runs in update (component ticks) and a in update (system ticks), earlier") {
		t.Errorf("slot contradiction: %v", err)
	}
	must(t, r.Schedule().Configure("v", &Settings{}))
	must(t, r.Tick(1))
	logSystem(t, r, rec, "p", false, SystemDefinition[struct{}]{Phase: PhasePhysics, After: []string{"b"}})
	if err := r.Tick(1); err == nil || !strings.Contains(err.Error(), "b must run before p (b -> p), but b runs in update (system ticks) and p in physics (system ticks), earlier") {
		t.Errorf("phase contradiction: %v", err)
	}
	if err := r.Schedule().Err(); err == nil {
		t.Error("Err is nil while Tick fails")
	}
}

// TestScheduleCycles: a before/after cycle among systems and components
// is refused at registration (naming it, registering nothing); one that
// Configure makes stops the schedule until undone.
func TestScheduleCycles(t *testing.T) {
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
	_, err = RegisterSystem(r, "self", SystemDefinition[struct{}]{After: []string{"self"}})
	if err == nil || !strings.Contains(err.Error(), "self -> self") {
		t.Errorf("self cycle: %v", err)
	}
	// Names are shared: a system may not take a ticking component's.
	_, err = RegisterSystem(r, "b", SystemDefinition[struct{}]{})
	if err == nil || !strings.Contains(err.Error(), `a component of that name is already in the schedule`) {
		t.Errorf("shared name: %v", err)
	}
	must(t, r.Schedule().Configure("c", &Settings{Before: []string{"a"}}))
	err = r.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "cycle: a -> b -> c -> a") {
		t.Errorf("cycle by Configure: %v", err)
	}
	if rec.take() != "" {
		t.Error("a schedule with a cycle ran")
	}
	must(t, r.Schedule().Configure("c", nil))
	must(t, r.Tick(1))
	if got := rec.take(); got != "a | b | c | b.tock | c.tock" {
		t.Errorf("after undoing: %s", got)
	}
	if err := r.Schedule().Configure("nope", nil); err == nil || !strings.Contains(err.Error(), `no system or component tick named "nope"`) {
		t.Errorf("Configure unknown: %v", err)
	}
}

// TestScheduleShuffle: the order is the same every time; a shuffle seed
// permutes what no constraint orders (the same way for the same seed)
// and keeps every constraint.
func TestScheduleShuffle(t *testing.T) {
	build := func(seed uint64) []string {
		_, r := newTestRegistry(t)
		rec := &recorder{}
		for i := range 12 {
			d := SystemDefinition[struct{}]{}
			if i%4 == 1 {
				d.After = []string{fmt.Sprintf("s%d", i-1)}
			}
			logSystem(t, r, rec, fmt.Sprintf("s%d", i), false, d)
		}
		r.Schedule().SetShuffle(seed)
		must(t, r.Tick(1))
		got := strings.Split(rec.take(), " | ")
		if names := schedNames(t, r); !slices.Equal(got, names) {
			t.Errorf("ran %v, listed %v", got, names)
		}
		return got
	}
	plain := build(0)
	if !slices.Equal(plain, build(0)) {
		t.Error("two builds differ")
	}
	want := []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"}
	if !slices.Equal(plain, want) {
		t.Errorf("unshuffled order %v", plain)
	}
	a, b := build(7), build(7)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 gave %v and %v", a, b)
	}
	if slices.Equal(a, plain) && slices.Equal(build(8), plain) {
		t.Error("shuffling changed nothing")
	}
	for _, order := range [][]string{a, build(8), build(9)} {
		for i := 1; i < 12; i += 4 {
			if slices.Index(order, fmt.Sprintf("s%d", i-1)) > slices.Index(order, fmt.Sprintf("s%d", i)) {
				t.Errorf("shuffle broke s%d after s%d: %v", i, i-1, order)
			}
		}
	}
}

// TestAmbiguities: declared systems that conflict with no order between
// them are reported (once, at each build), in the order they run; an
// order, reads against reads, undeclared systems and "*" are not; strict
// mode turns them into an error that stops the schedule.
func TestAmbiguities(t *testing.T) {
	_, r := newTestRegistry(t)
	for _, n := range []string{"p", "q", "k"} {
		_, err := Register(r, n, Definition[lcTicker]{})
		must(t, err)
	}
	rec := &recorder{}
	decl := func(name string, reads, writes []string, more SystemDefinition[struct{}]) {
		more.Access = &Access{Reads: reads, Writes: writes}
		logSystem(t, r, rec, name, false, more)
	}
	decl("w1", nil, []string{"p"}, SystemDefinition[struct{}]{})
	decl("r1", []string{"p"}, nil, SystemDefinition[struct{}]{})
	decl("r2", []string{"p", "q"}, nil, SystemDefinition[struct{}]{})
	decl("w2", []string{"k"}, []string{"q"}, SystemDefinition[struct{}]{After: []string{"r2"}})
	decl("all", nil, []string{"*"}, SystemDefinition[struct{}]{})
	logSystem(t, r, rec, "undeclared", false, SystemDefinition[struct{}]{})
	decl("typo", []string{"pp"}, nil, SystemDefinition[struct{}]{Phase: PhaseInput})
	var got []string
	for _, a := range r.Schedule().Ambiguities() {
		got = append(got, a.A+"/"+a.B+":"+strings.Join(a.Components, ","))
	}
	if want := []string{"w1/r1:p", "w1/r2:p"}; !slices.Equal(got, want) {
		t.Errorf("ambiguities %v, want %v", got, want)
	}
	warn := strings.Join(r.Schedule().Warnings(), "\n")
	for _, want := range []string{
		"ambiguous order: w1 and r1 (update) both use p, one writing, with no before/after between them: they run in registration order (w1 first)",
		`system typo declares unknown component "pp" (did you mean "p"?)`,
	} {
		if !strings.Contains(warn, want) {
			t.Errorf("warnings lack %q:\n%s", want, warn)
		}
	}
	must(t, r.Tick(1))
	r.Schedule().SetStrict(true)
	err := r.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "schedule (strict): ambiguous order: w1 and r1") {
		t.Errorf("strict: %v", err)
	}
	rec.take()
	must(t, r.Schedule().Configure("r1", &Settings{Access: &Access{Reads: []string{"p"}}, After: []string{"w1"}}))
	must(t, r.Schedule().Configure("r2", &Settings{Access: &Access{Reads: []string{"p", "q"}}, After: []string{"w1"}}))
	must(t, r.Tick(1))
	if len(r.Schedule().Ambiguities()) != 0 || !strings.Contains(rec.take(), "w1 | r1 | r2") {
		t.Errorf("ordered, still ambiguous: %v", r.Schedule().Ambiguities())
	}
}

// TestKeepExclusive: a system whose Go definition keeps Exclusive cannot
// be configured to run under the parallel rules (Check says so first,
// changing nothing), whatever Access the new settings hold; a definition
// that keeps Exclusive without it is refused.
func TestKeepExclusive(t *testing.T) {
	_, r := newTestRegistry(t)
	_, err := RegisterSystem(r, "emitter", SystemDefinition[struct{}]{
		Access: &Access{Writes: []string{"*"}, Exclusive: true, KeepExclusive: true},
		Tick:   func(*SystemContext, *struct{}) {},
	})
	must(t, err)
	for _, set := range []*Settings{
		{Access: &Access{Writes: []string{"*"}, KeepExclusive: true}},
		{Access: &Access{Reads: []string{"position"}}},
	} {
		if err := r.Schedule().Check("emitter", set); !errors.Is(err, ErrMustBeExclusive) {
			t.Errorf("Check %+v: %v", set.Access, err)
		}
		err := r.Schedule().Configure("emitter", set)
		if !errors.Is(err, ErrMustBeExclusive) || !strings.HasPrefix(err.Error(), "registry: schedule: emitter: exclusive false: it must run alone") {
			t.Errorf("Configure %+v: %v", set.Access, err)
		}
	}
	for _, set := range []*Settings{nil, {Every: 2}, {Access: &Access{Exclusive: true}}} {
		if err := r.Schedule().Configure("emitter", set); err != nil {
			t.Errorf("Configure %+v: %v", set, err)
		}
	}
	if info, _ := r.Schedule().Systems(); len(info) != 1 || !info[0].Exclusive {
		t.Errorf("schedule %+v", info)
	}
	_, err = RegisterSystem(r, "odd", SystemDefinition[struct{}]{
		Access: &Access{KeepExclusive: true},
		Tick:   func(*SystemContext, *struct{}) {},
	})
	if !errors.Is(err, ErrMustBeExclusive) {
		t.Errorf("KeepExclusive without Exclusive: %v", err)
	}
}
