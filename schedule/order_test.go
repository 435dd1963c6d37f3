package schedule

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPhasesRunInOrder: the phases run in their fixed order, and within
// each A-Frame's: system ticks, component ticks, system tocks, component
// tocks; registration order otherwise. An unknown phase is refused with
// a hint.
func TestPhasesRunInOrder(t *testing.T) {
	s, _, rec := newTest(t)
	add(t, s, rec, "late", true, true, Settings{Phase: PhasePostUpdate})
	add(t, s, rec, "comp", true, true, Settings{})
	add(t, s, rec, "post", false, true, Settings{Phase: PhasePostUpdate})
	add(t, s, rec, "upd", false, false, Settings{})
	add(t, s, rec, "phys", false, false, Settings{Phase: PhasePhysics})
	add(t, s, rec, "pre", false, false, Settings{Phase: PhasePreUpdate})
	add(t, s, rec, "in", false, false, Settings{Phase: PhaseInput})
	must(t, s.Tick(1.0/60))
	if got, want := rec.take(), "in | pre | phys | upd | comp | post | late | post.tock | late.tock | comp.tock"; got != want {
		t.Errorf("one tick:\n got %s\nwant %s", got, want)
	}
	if got := entryNames(t, s); got != "in pre phys upd comp post late post.tock late.tock comp.tock" {
		t.Errorf("Systems: %s", got)
	}
	if !slices.Equal(PhaseNames(), []string{"input", "pre-update", "physics", "update", "post-update"}) {
		t.Errorf("PhaseNames %v", PhaseNames())
	}
	err := s.Add(&testNode{info: Info{Name: "bad", Tick: true, Settings: Settings{Phase: "updat"}}})
	if err == nil || !strings.Contains(err.Error(), `unknown phase "updat"`) || !strings.Contains(err.Error(), `(did you mean "update"?)`) {
		t.Errorf("unknown phase: %v", err)
	}
}

// TestBeforeAfterOrdersNodes: constraints between systems, between
// components, and between both, in any direction, reorder registration
// order; constraints through a node without hooks hold; a constraint the
// phases contradict is an error naming both.
func TestBeforeAfterOrdersNodes(t *testing.T) {
	s, _, rec := newTest(t)
	add(t, s, rec, "a", false, false, Settings{After: []string{"b"}})
	add(t, s, rec, "b", false, false, Settings{})
	add(t, s, rec, "c", false, false, Settings{Before: []string{"b"}})
	// x has no hooks: y before x, x before z still puts y before z.
	must(t, s.Add(&testNode{info: Info{Name: "x", Kind: KindComponent, Settings: Settings{Before: []string{"z"}}}}))
	add(t, s, rec, "z", true, true, Settings{})
	add(t, s, rec, "y", true, true, Settings{Before: []string{"x"}})
	// A component in post-update after a system in update: satisfied by
	// the phases.
	add(t, s, rec, "w", true, true, Settings{Phase: PhasePostUpdate, After: []string{"a"}})
	must(t, s.Tick(1))
	if got, want := rec.take(), "c | b | a | y | z | w | y.tock | z.tock | w.tock"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Contradictions: a component before a system of its phase (systems
	// tick first), a system before one of an earlier phase.
	add(t, s, rec, "v", true, false, Settings{Before: []string{"a"}})
	err := s.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "v must run before a (v -> a), but v runs in update (component ticks) and a in update (system ticks), earlier") {
		t.Errorf("slot contradiction: %v", err)
	}
	must(t, s.Configure("v", &Settings{}))
	must(t, s.Tick(1))
	add(t, s, rec, "p", false, false, Settings{Phase: PhasePhysics, After: []string{"b"}})
	if err := s.Tick(1); err == nil || !strings.Contains(err.Error(), "b must run before p (b -> p), but b runs in update (system ticks) and p in physics (system ticks), earlier") {
		t.Errorf("phase contradiction: %v", err)
	}
	if err := s.Err(); err == nil {
		t.Error("Err is nil while Tick fails")
	}
}

// TestScheduleCycles: a before/after cycle among nodes is refused when
// it is added (naming it, adding nothing); one that Configure makes
// stops the schedule until undone. Systems and components share names.
func TestScheduleCycles(t *testing.T) {
	s, _, rec := newTest(t)
	add(t, s, rec, "a", false, false, Settings{Before: []string{"b"}})
	add(t, s, rec, "b", true, true, Settings{Before: []string{"c"}})
	err := s.Add(&testNode{info: Info{Name: "c", Kind: KindComponent, Tick: true, Settings: Settings{Before: []string{"a"}}}})
	if err == nil || err.Error() != "registry: before/after ordering has a cycle: a -> b -> c -> a" {
		t.Fatalf("cycle when added: %v", err)
	}
	if slices.Contains(s.Names(), "c") {
		t.Error("a refused node was added")
	}
	add(t, s, rec, "c", true, true, Settings{})
	err = s.Add(&testNode{info: Info{Name: "self", Tick: true, Settings: Settings{After: []string{"self"}}}})
	if err == nil || !strings.Contains(err.Error(), "self -> self") {
		t.Errorf("self cycle: %v", err)
	}
	// Names are shared: a system may not take a ticking component's.
	err = s.Add(&testNode{info: Info{Name: "b", Tick: true}})
	if err == nil || !strings.Contains(err.Error(), `a component of that name is already in the schedule`) {
		t.Errorf("shared name: %v", err)
	}
	must(t, s.Configure("c", &Settings{Before: []string{"a"}}))
	err = s.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "cycle: a -> b -> c -> a") {
		t.Errorf("cycle by Configure: %v", err)
	}
	if rec.take() != "" {
		t.Error("a schedule with a cycle ran")
	}
	must(t, s.Configure("c", nil))
	must(t, s.Tick(1))
	if got := rec.take(); got != "a | b | c | b.tock | c.tock" {
		t.Errorf("after undoing: %s", got)
	}
	if err := s.Configure("nope", nil); err == nil || !strings.Contains(err.Error(), `no system or component tick named "nope"`) {
		t.Errorf("Configure unknown: %v", err)
	}
}

// TestScheduleShuffle: the order is the same every time; a shuffle seed
// permutes what no constraint orders (the same way for the same seed)
// and keeps every constraint.
func TestScheduleShuffle(t *testing.T) {
	build := func(seed uint64) []string {
		s, _, rec := newTest(t)
		for i := range 12 {
			set := Settings{}
			if i%4 == 1 {
				set.After = []string{fmt.Sprintf("s%d", i-1)}
			}
			add(t, s, rec, fmt.Sprintf("s%d", i), false, false, set)
		}
		s.SetShuffle(seed)
		must(t, s.Tick(1))
		got := strings.Split(rec.take(), " | ")
		if names := entryNames(t, s); strings.Join(got, " ") != names {
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

// TestAmbiguities: declared nodes that conflict with no order between
// them are reported (once, at each build), in the order they run; an
// order, reads against reads, undeclared nodes and "*" are not; a name
// the host does not know is a warning with a hint; strict mode turns
// ambiguities into an error that stops the schedule.
func TestAmbiguities(t *testing.T) {
	s, _, rec := newTest(t, "p", "q", "k")
	decl := func(name string, reads, writes []string, set Settings) {
		set.Access = &Access{Reads: reads, Writes: writes}
		add(t, s, rec, name, false, false, set)
	}
	decl("w1", nil, []string{"p"}, Settings{})
	decl("r1", []string{"p"}, nil, Settings{})
	decl("r2", []string{"p", "q"}, nil, Settings{})
	decl("w2", []string{"k"}, []string{"q"}, Settings{After: []string{"r2"}})
	decl("all", nil, []string{"*"}, Settings{})
	add(t, s, rec, "undeclared", false, false, Settings{})
	decl("typo", []string{"pp"}, nil, Settings{Phase: PhaseInput})
	var got []string
	for _, a := range s.Ambiguities() {
		got = append(got, a.A+"/"+a.B+":"+strings.Join(a.Components, ","))
	}
	if want := []string{"w1/r1:p", "w1/r2:p"}; !slices.Equal(got, want) {
		t.Errorf("ambiguities %v, want %v", got, want)
	}
	warn := strings.Join(s.Warnings(), "\n")
	for _, want := range []string{
		"ambiguous order: w1 and r1 (update) both use p, one writing, with no before/after between them: they run in registration order (w1 first)",
		`system typo declares unknown component "pp" (did you mean "p"?)`,
	} {
		if !strings.Contains(warn, want) {
			t.Errorf("warnings lack %q:\n%s", want, warn)
		}
	}
	must(t, s.Tick(1))
	s.SetStrict(true)
	err := s.Tick(1)
	if err == nil || !strings.Contains(err.Error(), "schedule (strict): ambiguous order: w1 and r1") {
		t.Errorf("strict: %v", err)
	}
	rec.take()
	must(t, s.Configure("r1", &Settings{Access: &Access{Reads: []string{"p"}}, After: []string{"w1"}}))
	must(t, s.Configure("r2", &Settings{Access: &Access{Reads: []string{"p", "q"}}, After: []string{"w1"}}))
	must(t, s.Tick(1))
	if len(s.Ambiguities()) != 0 || !strings.Contains(rec.take(), "w1 | r1 | r2") {
		t.Errorf("ordered, still ambiguous: %v", s.Ambiguities())
	}
}

// TestKeepExclusive: a node whose Go definition keeps Exclusive cannot
// be configured to run under the parallel rules (Check says so first,
// changing nothing), whatever Access the new settings hold; a definition
// that keeps Exclusive without it is refused.
func TestKeepExclusive(t *testing.T) {
	s, _, rec := newTest(t)
	add(t, s, rec, "emitter", false, false, Settings{Access: &Access{Writes: []string{"*"}, Exclusive: true, KeepExclusive: true}})
	for _, set := range []*Settings{
		{Access: &Access{Writes: []string{"*"}, KeepExclusive: true}},
		{Access: &Access{Reads: []string{"position"}}},
	} {
		if err := s.Check("emitter", set); !errors.Is(err, ErrMustBeExclusive) {
			t.Errorf("Check %+v: %v", set.Access, err)
		}
		err := s.Configure("emitter", set)
		if !errors.Is(err, ErrMustBeExclusive) || !strings.HasPrefix(err.Error(), "registry: schedule: emitter: exclusive false: it must run alone") {
			t.Errorf("Configure %+v: %v", set.Access, err)
		}
	}
	for _, set := range []*Settings{nil, {Every: 2}, {Access: &Access{Exclusive: true}}} {
		if err := s.Configure("emitter", set); err != nil {
			t.Errorf("Configure %+v: %v", set, err)
		}
	}
	if info, _ := s.Systems(); len(info) != 1 || !info[0].Exclusive {
		t.Errorf("schedule %+v", info)
	}
	err := s.Add(&testNode{info: Info{Name: "odd", Tick: true, Settings: Settings{Access: &Access{KeepExclusive: true}}}})
	if !errors.Is(err, ErrMustBeExclusive) {
		t.Errorf("KeepExclusive without Exclusive: %v", err)
	}
}

// TestAddManyNodesBuildsOnce: adding many nodes, and invalidating the
// order many times (a registry does, per component it registers), builds
// the order once, before the next run, not per change; and stays fast.
// The bound is generous: a build per addition took minutes for this
// many.
func TestAddManyNodesBuildsOnce(t *testing.T) {
	s, _, rec := newTest(t)
	add(t, s, rec, "ticker", true, false, Settings{})
	must(t, s.Tick(0))
	builds := s.builds
	const n = 10_000
	start := time.Now()
	for i := range n {
		if i%2 == 0 {
			must(t, s.Add(&testNode{info: Info{Name: fmt.Sprintf("c%d", i), Kind: KindComponent, Settings: Settings{After: []string{"ticker"}}}}))
		}
		s.Invalidate()
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("adding %d nodes took %v", n, d)
	}
	if s.builds != builds {
		t.Errorf("%d builds while adding, want none", s.builds-builds)
	}
	must(t, s.Tick(0))
	must(t, s.Tick(0))
	if s.builds != builds+1 {
		t.Errorf("%d builds for two Ticks after the additions, want 1", s.builds-builds)
	}
}

// TestBeforeAfterChainsAddInLinearTime: long before/after chains, in
// either direction, are added without walking the chain each time (a
// node with only edges in or only edges out cannot close a cycle), and
// run in the constrained order.
func TestBeforeAfterChainsAddInLinearTime(t *testing.T) {
	const n = 2000
	for _, dir := range []string{"after", "before"} {
		s, _, _ := newTest(t)
		var order []int
		for i := range n {
			set := Settings{}
			if i > 0 {
				prev := []string{fmt.Sprintf("k%d", i-1)}
				if dir == "after" {
					set.After = prev
				} else {
					set.Before = prev
				}
			}
			must(t, s.Add(&testNode{info: Info{Name: fmt.Sprintf("k%d", i), Kind: KindComponent, Tick: true, Settings: set},
				run: func(*Unit) { order = append(order, i) }}))
		}
		must(t, s.Tick(1))
		if len(order) != n {
			t.Fatalf("%s: %d ticks", dir, len(order))
		}
		for j := 1; j < n; j++ {
			if (dir == "after") != (order[j] > order[j-1]) {
				t.Fatalf("%s chain: order broken at %d: %v...", dir, j, order[max(0, j-2):j+1])
			}
		}
		// Closing the chain into a cycle is still refused.
		first, last := "k0", fmt.Sprintf("k%d", n-1)
		set := Settings{}
		if dir == "after" {
			set.After, set.Before = []string{last}, []string{first}
		} else {
			set.Before, set.After = []string{last}, []string{first}
		}
		err := s.Add(&testNode{info: Info{Name: "closer", Kind: KindComponent, Tick: true, Settings: set}})
		if err == nil || !strings.Contains(err.Error(), "before/after ordering has a cycle: k0 -> ") {
			t.Errorf("%s: closing the chain: %v", dir, err)
		}
	}
}
