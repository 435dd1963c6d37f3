package registry

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

// lcUnit is the multi-property component most lifecycle tests use.
type lcUnit struct {
	HP   int    `scene:"hp,default=100,min=0"`
	Name string `scene:"name,default=grunt"`
	Pos  Vec3   `scene:"pos,default=0 1 0"`
}

// recorder collects hook calls and events as strings, in order.
type recorder struct{ log []string }

func (r *recorder) add(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf(format, args...))
}

// take returns the log so far, joined with " | ", and clears it.
func (r *recorder) take() string {
	s := strings.Join(r.log, " | ")
	r.log = r.log[:0]
	return s
}

func newTestRegistry(t testing.TB) (*ecs.World, *Registry) {
	t.Helper()
	w := ecs.NewWorld()
	return w, New(w)
}

// recordingDefinition returns a Definition of lcUnit whose hooks write to rec.
func recordingDefinition(rec *recorder) Definition[lcUnit] {
	return Definition[lcUnit]{
		Init: func(c *Context, u *lcUnit) { rec.add("init %s hp=%d", c.Name, u.HP) },
		Update: func(c *Context, u, old *lcUnit) {
			rec.add("update %s old=%d/%q new=%d/%q", c.Name, old.HP, old.Name, u.HP, u.Name)
		},
		Remove: func(c *Context, u *lcUnit) { rec.add("remove %s hp=%d", c.Name, u.HP) },
		Pause:  func(c *Context, u *lcUnit) { rec.add("pause %s", c.Name) },
		Play:   func(c *Context, u *lcUnit) { rec.add("play %s", c.Name) },
	}
}

// listenAll records the built-in component events on e.
func listenAll(r *Registry, e ecs.Entity, rec *recorder) {
	for _, name := range []string{"componentinitialized", "componentchanged", "componentremoved"} {
		r.Events().On(e, name, func(ev *Event) { rec.add("event %s %v", ev.Name, ev.Detail) })
	}
}

func mustValues(t *testing.T, r *Registry, e ecs.Entity, name string) []any {
	t.Helper()
	vs, err := r.Values(e, name)
	if err != nil {
		t.Fatalf("Values(%s): %v", name, err)
	}
	return vs
}

// TestSetMergeReplaceReset checks the write paths: Set and SetProperty
// merge like A-Frame's setAttribute, SetPatch with Replace resets what it
// does not give, ResetProperty restores one default; update runs only when
// the data changes.
func TestSetMergeReplaceReset(t *testing.T) {
	type step struct {
		op   string // set, prop, replace, merge, reset
		arg  string // attribute text, or "prop=text" for prop, prop for reset
		want string // Attr afterwards
	}
	tests := []struct {
		name    string
		steps   []step
		updates int // update calls, the first (after init) included
	}{
		{"set from defaults", []step{{"set", "hp: 50", "hp: 50; name: grunt; pos: 0 1 0"}}, 1},
		{"set merges", []step{
			{"set", "hp: 50", "hp: 50; name: grunt; pos: 0 1 0"},
			{"set", "name: boss", "hp: 50; name: boss; pos: 0 1 0"},
		}, 2},
		{"set same values does not update", []step{
			{"set", "hp: 50; name: boss", "hp: 50; name: boss; pos: 0 1 0"},
			{"set", "name: boss", "hp: 50; name: boss; pos: 0 1 0"},
			{"set", "hp: 50; pos: 0 1 0", "hp: 50; name: boss; pos: 0 1 0"},
		}, 1},
		{"set empty text keeps data", []step{
			{"set", "hp: 7", "hp: 7; name: grunt; pos: 0 1 0"},
			{"set", "", "hp: 7; name: grunt; pos: 0 1 0"},
		}, 1},
		{"set property", []step{
			{"set", "hp: 5", "hp: 5; name: grunt; pos: 0 1 0"},
			{"prop", "pos=1 2 3", "hp: 5; name: grunt; pos: 1 2 3"},
		}, 2},
		{"replace resets the others", []step{
			{"set", "hp: 50; name: boss; pos: 1 1 1", "hp: 50; name: boss; pos: 1 1 1"},
			{"replace", "name: boss", "hp: 100; name: boss; pos: 0 1 0"},
		}, 2},
		{"replace with the same data does not update", []step{
			{"set", "name: boss", "hp: 100; name: boss; pos: 0 1 0"},
			{"replace", "name: boss", "hp: 100; name: boss; pos: 0 1 0"},
		}, 1},
		{"merge patch", []step{
			{"set", "hp: 1", "hp: 1; name: grunt; pos: 0 1 0"},
			{"merge", "pos: 4 5 6", "hp: 1; name: grunt; pos: 4 5 6"},
		}, 2},
		{"reset property", []step{
			{"set", "hp: 50; name: boss", "hp: 50; name: boss; pos: 0 1 0"},
			{"reset", "hp", "hp: 100; name: boss; pos: 0 1 0"},
		}, 2},
		{"reset hyphen-case name", []step{
			{"set", "name: boss", "hp: 100; name: boss; pos: 0 1 0"},
			{"reset", "name", "hp: 100; name: grunt; pos: 0 1 0"},
		}, 2},
		{"reset a default is no change", []step{
			{"set", "hp: 3", "hp: 3; name: grunt; pos: 0 1 0"},
			{"reset", "pos", "hp: 3; name: grunt; pos: 0 1 0"},
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, r := newTestRegistry(t)
			updates := 0
			c, err := Register(r, "unit", Definition[lcUnit]{
				Update: func(*Context, *lcUnit, *lcUnit) { updates++ },
			})
			if err != nil {
				t.Fatal(err)
			}
			e := w.NewEntity()
			for i, s := range tt.steps {
				if err := writeStep(r, c, e, s.op, s.arg); err != nil {
					t.Fatalf("step %d (%s %q): %v", i, s.op, s.arg, err)
				}
				got, err := r.Attr(e, "unit")
				if err != nil {
					t.Fatal(err)
				}
				if got != s.want {
					t.Errorf("step %d (%s %q): Attr = %q, want %q", i, s.op, s.arg, got, s.want)
				}
			}
			if updates != tt.updates {
				t.Errorf("update ran %d times, want %d", updates, tt.updates)
			}
		})
	}
}

// writeStep writes arg to e's unit component by the path op names: set
// (Set), prop ("name=text", SetProperty), replace or merge (SetPatch in
// that mode), reset (ResetProperty).
func writeStep(r *Registry, c *Component, e ecs.Entity, op, arg string) error {
	switch op {
	case "set":
		return r.Set(e, "unit", arg)
	case "prop":
		k, v, _ := strings.Cut(arg, "=")
		return r.SetProperty(e, "unit", k, v)
	case "replace", "merge":
		p, err := c.Schema.ParseAttr("unit", arg)
		if err != nil {
			return err
		}
		mode := Merge
		if op == "replace" {
			mode = Replace
		}
		return r.SetPatch(e, "unit", p, mode)
	case "reset":
		return r.ResetProperty(e, "unit", arg)
	}
	return fmt.Errorf("unknown step %q", op)
}

// TestReplaceOnAbsent checks that SetPatch of an absent component starts
// from the defaults whatever the mode.
func TestReplaceOnAbsent(t *testing.T) {
	w, r := newTestRegistry(t)
	c, err := Register(r, "unit", Definition[lcUnit]{})
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []SetMode{Merge, Replace} {
		e := w.NewEntity()
		i, _ := c.Schema.Lookup("name")
		if err := r.SetPatch(e, "unit", Patch{{Index: i, Value: "x"}}, mode); err != nil {
			t.Fatal(err)
		}
		if got := mustValues(t, r, e, "unit"); !reflect.DeepEqual(got, []any{100, "x", Vec3{X: 0, Y: 1, Z: 0}}) {
			t.Errorf("mode %d: values %v", mode, got)
		}
	}
}

// TestLifecycleOrder follows one component through init, update, remove,
// and checks the events in between.
func TestLifecycleOrder(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	if _, err := Register(r, "unit", recordingDefinition(rec)); err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	listenAll(r, e, rec)

	steps := []struct {
		do   func() error
		want string
	}{
		{func() error { return r.Set(e, "unit", "hp: 50") },
			`init unit hp=50 | update unit old=0/"" new=50/"grunt" | event componentinitialized unit`},
		{func() error { return r.Set(e, "unit", "hp: 50") }, ``},
		{func() error { return r.Set(e, "unit", "name: boss") },
			`update unit old=50/"grunt" new=50/"boss" | event componentchanged unit`},
		{func() error { return r.ResetProperty(e, "unit", "name") },
			`update unit old=50/"boss" new=50/"grunt" | event componentchanged unit`},
		{func() error { return r.Remove(e, "unit") },
			`remove unit hp=50 | event componentremoved unit`},
		{func() error { return r.Set(e, "unit", "") },
			`init unit hp=100 | update unit old=0/"" new=100/"grunt" | event componentinitialized unit`},
		{func() error { return w.Destroy(e) },
			`remove unit hp=100 | event componentremoved unit`},
	}
	for i, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := rec.take(); got != s.want {
			t.Errorf("step %d:\n got %s\nwant %s", i, got, s.want)
		}
	}
	if r.Has(e, "unit") {
		t.Error("destroyed entity still has unit")
	}
}

// TestUpdateOldIsACopy checks that old is a snapshot: changing the data
// later does not change what an update hook kept, and arrays are not
// shared between old and new.
func TestUpdateOldIsACopy(t *testing.T) {
	type tagged struct {
		Tags []string `scene:"tags"`
		N    int      `scene:"n"`
	}
	w, r := newTestRegistry(t)
	var olds [][]string
	if _, err := Register(r, "tagged", Definition[tagged]{
		Update: func(c *Context, v, old *tagged) { olds = append(olds, old.Tags) },
	}); err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	for _, attr := range []string{"tags: a, b", "tags: c", "n: 1"} {
		if err := r.Set(e, "tagged", attr); err != nil {
			t.Fatal(err)
		}
	}
	want := [][]string{nil, {"a", "b"}, {"c"}}
	if !reflect.DeepEqual(olds, want) {
		t.Errorf("olds %q, want %q", olds, want)
	}
}

// TestComponentInitializedWithoutHooks checks that components with no
// hooks (like the built-ins) still announce themselves.
func TestComponentInitializedWithoutHooks(t *testing.T) {
	w, r := newTestRegistry(t)
	if _, err := Register(r, "plain", Definition[lcUnit]{}); err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	rec := &recorder{}
	listenAll(r, e, rec)
	if err := r.Set(e, "plain", "hp: 1"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(e, "plain", "hp: 2"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(e, "plain"); err != nil {
		t.Fatal(err)
	}
	want := "event componentinitialized plain | event componentchanged plain | event componentremoved plain"
	if got := rec.take(); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestSetFromHooks checks re-entrant writes: a Set of the same component
// from update runs a nested update whose old is the data before the nested
// change (A-Frame's red -> blue -> green).
func TestSetFromHooks(t *testing.T) {
	type colour struct {
		C string `scene:"c"`
	}
	w, r := newTestRegistry(t)
	rec := &recorder{}
	if _, err := Register(r, "colour", Definition[colour]{
		Update: func(c *Context, v, old *colour) {
			rec.add("%s->%s", old.C, v.C)
			if v.C == "blue" {
				if err := c.Registry.Set(c.Entity, "colour", "c: green"); err != nil {
					t.Error(err)
				}
			}
		},
	}); err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	if err := r.Set(e, "colour", "c: red"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(e, "colour", "c: blue"); err != nil {
		t.Fatal(err)
	}
	if got := rec.take(); got != "->red | red->blue | blue->green" {
		t.Errorf("updates %s", got)
	}
	if vs := mustValues(t, r, e, "colour"); vs[0] != "green" {
		t.Errorf("final %v", vs)
	}
}

// lcTicker is a component whose ticks are recorded.
type lcTicker struct {
	N int `scene:"n"`
}

// TestTickOrder checks one frame: systems tick, components tick (in
// before/after order), systems tock, components tock; Time and Delta.
func TestTickOrder(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	mk := func(after ...string) Definition[lcTicker] {
		return Definition[lcTicker]{
			After: after,
			Tick: func(c *Context, v *lcTicker) {
				v.N++
				rec.add("tick %s t=%g dt=%g", c.Name, c.Time, c.Delta)
			},
			Tock: func(c *Context, v *lcTicker) { rec.add("tock %s n=%d", c.Name, v.N) },
		}
	}
	if _, err := Register(r, "late", mk("early")); err != nil {
		t.Fatal(err)
	}
	if _, err := Register(r, "early", mk()); err != nil {
		t.Fatal(err)
	}
	if _, err := RegisterSystem(r, "sys", SystemDefinition[lcTicker]{
		Tick: func(s *SystemContext, _ *lcTicker) { rec.add("system tick t=%g dt=%g", s.Time, s.Delta) },
		Tock: func(s *SystemContext, _ *lcTicker) { rec.add("system tock") },
	}); err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	for _, n := range []string{"late", "early"} {
		if err := r.Set(e, n, ""); err != nil {
			t.Fatal(err)
		}
	}
	r.Tick(0.5)
	r.Tick(0.25)
	want := "system tick t=0.5 dt=0.5 | tick early t=0.5 dt=0.5 | tick late t=0.5 dt=0.5 | system tock | tock early n=1 | tock late n=1 | " +
		"system tick t=0.75 dt=0.25 | tick early t=0.75 dt=0.25 | tick late t=0.75 dt=0.25 | system tock | tock early n=2 | tock late n=2"
	if got := rec.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if r.Time() != 0.75 {
		t.Errorf("Time %g", r.Time())
	}
}

// TestTickEveryEntity checks that the per-entity and column forms visit
// every entity once per frame, with the right entity in the Context.
func TestTickEveryEntity(t *testing.T) {
	w, r := newTestRegistry(t)
	seen := map[ecs.Entity]int{}
	if _, err := Register(r, "each", Definition[lcTicker]{
		Tick: func(c *Context, v *lcTicker) { seen[c.Entity]++; v.N++ },
	}); err != nil {
		t.Fatal(err)
	}
	col := map[ecs.Entity]int{}
	if _, err := Register(r, "col", Definition[lcTicker]{
		Tick: func(c *Context, v *lcTicker) { t.Error("Tick ran although TickColumn is set") },
		TickColumn: func(c *Context, vs []lcTicker) {
			if !c.Entity.IsZero() {
				t.Errorf("Entity %v set in TickColumn", c.Entity)
			}
			for i := range vs {
				col[c.EntityAt(i)]++
				vs[i].N += 10
			}
		},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := Register(r, "other", Definition[lcUnit]{}); err != nil {
		t.Fatal(err)
	}
	var es []ecs.Entity
	for i := range 6 {
		e := w.NewEntity()
		es = append(es, e)
		must(t, r.Set(e, "each", ""))
		must(t, r.Set(e, "col", ""))
		if i%2 == 0 { // two tables
			must(t, r.Set(e, "other", ""))
		}
	}
	r.Tick(1)
	r.Tick(1)
	for _, e := range es {
		if seen[e] != 2 || col[e] != 2 {
			t.Errorf("%v: per-entity %d, column %d ticks", e, seen[e], col[e])
		}
		if vs := mustValues(t, r, e, "each"); vs[0] != 2 {
			t.Errorf("each.n = %v", vs[0])
		}
		if vs := mustValues(t, r, e, "col"); vs[0] != 20 {
			t.Errorf("col.n = %v", vs[0])
		}
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPausePlay checks pausing the scene and single entities: ticks stop,
// pause and play hooks run once per change, and the two kinds of pause
// compose (an entity paused on its own stays paused when the scene plays).
func TestPausePlay(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	def := recordingDefinition(rec)
	def.Init, def.Update = nil, nil
	def.Tick = func(c *Context, u *lcUnit) { u.HP++ }
	if _, err := Register(r, "unit", def); err != nil {
		t.Fatal(err)
	}
	a, b := w.NewEntity(), w.NewEntity()
	must(t, r.Set(a, "unit", "hp: 0"))
	must(t, r.Set(b, "unit", "hp: 0"))
	hp := func(e ecs.Entity) any { return mustValues(t, r, e, "unit")[0] }

	steps := []struct {
		name       string
		do         func() error
		log        string
		hpA, hpB   int
		paused     bool
		aPausedTag bool
	}{
		{"tick", nil, "", 1, 1, false, false},
		{"pause scene", func() error { r.Pause(); return nil }, "pause unit | pause unit", 1, 1, true, false},
		{"pause scene again", func() error { r.Pause(); return nil }, "", 1, 1, true, false},
		{"play scene", func() error { r.Play(); return nil }, "play unit | play unit", 2, 2, false, false},
		{"play scene again", func() error { r.Play(); return nil }, "", 3, 3, false, false},
		{"pause a", func() error { return r.PauseEntity(a) }, "pause unit", 3, 4, false, true},
		{"pause a again", func() error { return r.PauseEntity(a) }, "", 3, 5, false, true},
		{"pause scene with a paused", func() error { r.Pause(); return nil }, "pause unit", 3, 5, true, true},
		{"play scene with a paused", func() error { r.Play(); return nil }, "play unit", 3, 6, false, true},
		{"pause scene, play a", func() error { r.Pause(); return r.PlayEntity(a) }, "pause unit", 3, 6, true, false},
		{"play scene plays a too", func() error { r.Play(); return nil }, "play unit | play unit", 4, 7, false, false},
		{"play a again", func() error { return r.PlayEntity(a) }, "", 5, 8, false, false},
	}
	for _, s := range steps {
		if s.do != nil {
			must(t, s.do())
		}
		r.Tick(0.1)
		if got := rec.take(); got != s.log {
			t.Errorf("%s: hooks %q, want %q", s.name, got, s.log)
		}
		if hp(a) != s.hpA || hp(b) != s.hpB {
			t.Errorf("%s: hp a=%v b=%v, want %d %d", s.name, hp(a), hp(b), s.hpA, s.hpB)
		}
		if r.Paused() != s.paused {
			t.Errorf("%s: Paused %v", s.name, r.Paused())
		}
		pausedID, _ := w.ComponentID("paused")
		if w.Has(a, pausedID) != s.aPausedTag {
			t.Errorf("%s: a has paused tag %v", s.name, w.Has(a, pausedID))
		}
	}
	if r.Time() < 0.79 || r.Time() > 0.81 { // 8 playing ticks of 0.1
		t.Errorf("Time %g: paused ticks must not advance time", r.Time())
	}
	if err := r.PauseEntity(ecs.Entity{}); err == nil || !errors.Is(err, ecs.ErrStale) {
		t.Errorf("PauseEntity(zero) = %v", err)
	}
}

// TestDependencies checks A-Frame's order: root -> [dependency,
// codependency], dependency -> [nested] initialises nested, dependency,
// codependency, root; present dependencies keep their data.
func TestDependencies(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	reg := func(name string, deps ...string) {
		t.Helper()
		_, err := Register(r, name, Definition[lcTicker]{
			Dependencies: deps,
			Init:         func(c *Context, v *lcTicker) { rec.add("%s(%d)", c.Name, v.N) },
		})
		must(t, err)
	}
	reg("nested")
	reg("dependency", "nested")
	reg("codependency", "nested")
	reg("root", "dependency", "codependency")

	e := w.NewEntity()
	must(t, r.Set(e, "root", "n: 1"))
	if got := rec.take(); got != "nested(0) | dependency(0) | codependency(0) | root(1)" {
		t.Errorf("init order %s", got)
	}
	if got := r.EntityComponents(e); !reflect.DeepEqual(got, []string{"nested", "dependency", "codependency", "root"}) {
		t.Errorf("components %v", got)
	}

	// A dependency already present is neither re-added nor reset.
	e2 := w.NewEntity()
	must(t, r.Set(e2, "dependency", "n: 5"))
	rec.take()
	must(t, r.Set(e2, "root", ""))
	if got := rec.take(); got != "codependency(0) | root(0)" {
		t.Errorf("init order with dependency present: %s", got)
	}
	if vs := mustValues(t, r, e2, "dependency"); vs[0] != 5 {
		t.Errorf("dependency data %v", vs)
	}

	// An unknown dependency is reported when the component is added.
	reg("broken", "missing")
	err := r.Set(w.NewEntity(), "broken", "")
	if got, want := fmt.Sprint(err), `registry: component "broken" depends on unknown component "missing"`; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

// TestBeforeAfter checks tick ordering constraints, transitive ones
// through a component without tick, and cycles as registration errors.
func TestBeforeAfter(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	reg := func(name string, tick bool, before, after []string) error {
		d := Definition[lcTicker]{Before: before, After: after}
		if tick {
			d.Tick = func(c *Context, _ *lcTicker) { rec.add("%s", c.Name) }
		}
		_, err := Register(r, name, d)
		return err
	}
	must(t, reg("a", true, nil, []string{"b"}))       // a after b
	must(t, reg("b", true, nil, nil))                 //
	must(t, reg("c", true, []string{"b"}, nil))       // c before b
	must(t, reg("d", false, []string{"c"}, nil))      // d (no tick) before c
	must(t, reg("e", true, []string{"d"}, nil))       // e before d: so before c
	must(t, reg("f", true, nil, []string{"unknown"})) // unknown names are ignored
	must(t, reg("g", true, []string{"later"}, nil))   // a name registered later counts
	must(t, reg("later", true, nil, nil))             //
	e := w.NewEntity()
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "later"} {
		must(t, r.Set(e, n, ""))
	}
	r.Tick(1)
	if got := rec.take(); got != "e | c | b | a | f | g | later" {
		t.Errorf("tick order %s", got)
	}

	// Cycles.
	err := reg("x", true, []string{"e"}, []string{"a"}) // a -> x -> e -> d -> c -> b -> a
	if got, want := fmt.Sprint(err), "registry: before/after ordering has a cycle: a -> x -> e -> d -> c -> b -> a"; got != want {
		t.Errorf("error %q\nwant  %q", got, want)
	}
	err = reg("self", true, []string{"self"}, nil)
	if got, want := fmt.Sprint(err), "registry: before/after ordering has a cycle: self -> self"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
	if _, ok := r.Component("x"); ok {
		t.Error("x registered despite the cycle")
	}
	// The name is still free, in the Registry and in the World.
	must(t, reg("x", true, nil, []string{"later"}))
	must(t, r.Set(e, "x", ""))
	r.Tick(1)
	if got := rec.take(); got != "e | c | b | a | f | g | later | x" {
		t.Errorf("tick order after the failed registration %s", got)
	}
}

// lcSound is a multiple component.
type lcSound struct {
	Src    string  `scene:"src"`
	Volume float64 `scene:"volume,default=1"`
	Plays  int     `scene:"plays"`
}

// TestMultiple checks name__id instances: independent data, hooks and
// ticks; instance names refused for other components.
func TestMultiple(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	c, err := Register(r, "sound", Definition[lcSound]{
		Multiple: true,
		Init:     func(cx *Context, s *lcSound) { rec.add("init %s %s", cx.Name, s.Src) },
		Remove:   func(cx *Context, s *lcSound) { rec.add("remove %s", cx.Name) },
		Tick:     func(cx *Context, s *lcSound) { s.Plays++ },
	})
	must(t, err)
	if !c.Multiple {
		t.Error("Multiple not set")
	}
	_, err = Register(r, "unit", Definition[lcUnit]{})
	must(t, err)

	e := w.NewEntity()
	must(t, r.Set(e, "sound__1", "src: a.ogg"))
	must(t, r.Set(e, "sound__2", "src: b.ogg; volume: 0.5"))
	must(t, r.Set(e, "sound", "src: plain.ogg"))
	if got := rec.take(); got != "init sound__1 a.ogg | init sound__2 b.ogg | init sound plain.ogg" {
		t.Errorf("inits %s", got)
	}
	r.Tick(1)
	r.Tick(1)
	must(t, r.Set(e, "sound__1", "volume: 0.25"))
	want := map[string][]any{
		"sound__1": {"a.ogg", 0.25, 2},
		"sound__2": {"b.ogg", 0.5, 2},
		"sound":    {"plain.ogg", 1.0, 2},
	}
	for n, wv := range want {
		if got := mustValues(t, r, e, n); !reflect.DeepEqual(got, wv) {
			t.Errorf("%s = %v, want %v", n, got, wv)
		}
	}
	if got := r.EntityComponents(e); !slices.Contains(got, "sound__1") || !slices.Contains(got, "sound__2") || !slices.Contains(got, "sound") {
		t.Errorf("EntityComponents %v", got)
	}
	comp, id1, err := r.Lookup("sound__1")
	must(t, err)
	if comp != c || id1 == c.ID || w.ComponentName(id1) != "sound__1" {
		t.Errorf("Lookup(sound__1) = %v %d", comp.Name, id1)
	}
	if got, ok := r.ComponentByID(id1); !ok || got != c {
		t.Error("ComponentByID(instance) is not the base component")
	}
	if ids := c.InstanceIDs(); len(ids) != 3 || ids[0] != c.ID || ids[1] != id1 {
		t.Errorf("InstanceIDs %v", ids)
	}
	if _, _, ok := r.lookupExisting("sound__never"); ok {
		t.Error("LookupExisting registered an instance")
	}
	if r.Has(e, "sound__never") {
		t.Error("Has(sound__never)")
	}
	must(t, r.Remove(e, "sound__2"))
	if got := rec.take(); got != "remove sound__2" {
		t.Errorf("remove %s", got)
	}
	if !r.Has(e, "sound__1") || r.Has(e, "sound__2") {
		t.Error("removing sound__2 touched sound__1")
	}

	errs := []struct{ name, want string }{
		{"unit__1", `registry: component "unit" is not multiple: instance name "unit__1" is not allowed`},
		{"sound__", `registry: invalid instance name "sound__": expected sound__ID`},
		{"sound__a__b", `registry: invalid instance name "sound__a__b": expected sound__ID`},
		{"sound__a.b", `registry: invalid instance name "sound__a.b": only letters, digits, '-' and '_' may follow __`},
		{"sond__1", `unknown component "sond__1" (did you mean "sound"?)`},
	}
	for _, tt := range errs {
		err := r.Set(e, tt.name, "")
		if fmt.Sprint(err) != tt.want {
			t.Errorf("Set(%s): %v\nwant %s", tt.name, err, tt.want)
		}
	}
}

// TestEntityEvents checks child-attached/-detached (A-Frame's: emitted
// on the parent with {el}, bubbling), custom events with bubbling and
// StopPropagation, Off, and listeners dropped with their entity.
func TestEntityEvents(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	root, mid, leaf := w.NewEntity(), w.NewEntity(), w.NewEntity()
	name := map[ecs.Entity]string{root: "root", mid: "mid", leaf: "leaf"}
	for _, e := range []ecs.Entity{root, mid} {
		for _, ev := range []string{"child-attached", "child-detached"} {
			r.Events().On(e, ev, func(ev *Event) {
				rec.add("%s at %s on %s: %s", ev.Name, name[ev.Current], name[ev.Target], name[ev.Detail.(ChildEvent).El])
			})
		}
	}
	must(t, w.SetParent(mid, root))
	must(t, w.SetParent(leaf, mid))
	must(t, w.SetParent(leaf, root))
	must(t, w.SetParent(leaf, ecs.Entity{}))
	want := "child-attached at root on root: mid | " +
		"child-attached at mid on mid: leaf | child-attached at root on mid: leaf | " +
		"child-detached at mid on mid: leaf | child-detached at root on mid: leaf | child-attached at root on root: leaf | " +
		"child-detached at root on root: leaf"
	if got := rec.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	must(t, w.SetParent(leaf, mid))
	rec.take()

	// Custom events bubble from the target up, Current following.
	for _, e := range []ecs.Entity{leaf, mid, root} {
		r.Events().On(e, "hit", func(ev *Event) {
			rec.add("%s at %s from %s: %v", ev.Name, name[ev.Current], name[ev.Target], ev.Detail)
		})
	}
	r.Events().Emit(leaf, "hit", 3, true)
	if got, want := rec.take(), "hit at leaf from leaf: 3 | hit at mid from leaf: 3 | hit at root from leaf: 3"; got != want {
		t.Errorf("bubbling: %s", got)
	}
	r.Events().Emit(leaf, "hit", 4, false)
	if got, want := rec.take(), "hit at leaf from leaf: 4"; got != want {
		t.Errorf("not bubbling: %s", got)
	}
	stop := r.Events().On(mid, "hit", func(ev *Event) { rec.add("stop"); ev.StopPropagation() })
	r.Events().Emit(leaf, "hit", 5, true)
	if got, want := rec.take(), "hit at leaf from leaf: 5 | hit at mid from leaf: 5 | stop"; got != want {
		t.Errorf("StopPropagation: %s", got)
	}
	if !r.Events().Off(stop) || r.Events().Off(stop) {
		t.Error("Off reports wrongly")
	}
	r.Events().Emit(mid, "hit", 6, true)
	if got, want := rec.take(), "hit at mid from mid: 6 | hit at root from mid: 6"; got != want {
		t.Errorf("after Off: %s", got)
	}
	r.Events().Emit(leaf, "other", nil, true)
	if got := rec.take(); got != "" {
		t.Errorf("other event reached %s", got)
	}

	// Context.Emit bubbles from the hook's entity.
	_, err := Register(r, "shout", Definition[lcTicker]{
		Init: func(c *Context, _ *lcTicker) { c.Emit("hit", "shout") },
	})
	must(t, err)
	must(t, r.Set(leaf, "shout", ""))
	if got, want := rec.take(), "hit at leaf from leaf: shout | hit at mid from leaf: shout | hit at root from leaf: shout"; got != want {
		t.Errorf("Context.Emit: %s", got)
	}

	// Destroying an entity forgets its listeners, so a new entity reusing
	// its slot hears nothing; On refuses stale entities.
	must(t, w.Destroy(leaf))
	rec.take()
	for range 4 {
		n := w.NewEntity()
		if n.Index() == leaf.Index() {
			r.Events().Emit(n, "hit", 7, false)
		}
	}
	if id := r.Events().On(leaf, "hit", func(*Event) { rec.add("stale") }); id != 0 {
		t.Errorf("On(stale) = %d", id)
	}
	r.Events().Emit(leaf, "hit", 8, true)
	if got := rec.take(); got != "" {
		t.Errorf("events after destroy: %s", got)
	}
}

// TestChildDetachedOnDestroy: destroying a child removes its components
// with their hooks, and a parent's destroy takes the subtree.
func TestDestroySubtree(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	_, err := Register(r, "unit", Definition[lcUnit]{
		Remove: func(c *Context, u *lcUnit) { rec.add("remove %s", u.Name) },
	})
	must(t, err)
	p, c1, c2 := w.NewEntity(), w.NewEntity(), w.NewEntity()
	must(t, w.SetParent(c1, p))
	must(t, w.SetParent(c2, p))
	for e, n := range map[ecs.Entity]string{p: "p", c1: "c1", c2: "c2"} {
		must(t, r.Set(e, "unit", "name: "+n))
	}
	must(t, w.Destroy(p))
	if got := rec.take(); got != "remove c2 | remove c1 | remove p" {
		t.Errorf("removes %s", got)
	}
}

// TestDeclare checks data-only components declared from a schema built at
// run time: packed storage, attribute strings, events.
func TestDeclare(t *testing.T) {
	w, r := newTestRegistry(t)
	zero := 0.0
	s, err := schema.NewSchema([]PropSpec{
		{Name: "kind", OneOf: []string{"orc", "elf"}},
		{Name: "level", Type: "int", Default: "1", Min: &zero},
		{Name: "home", Type: "vec3"},
	}, r.Types())
	must(t, err)
	c, err := r.Declare("npc", s)
	must(t, err)
	if !c.Declared || c.HasTick() {
		t.Errorf("Declared %v HasTick %v", c.Declared, c.HasTick())
	}
	info, ok := w.ComponentInfo(c.ID)
	if !ok || info.Size != s.StructType().Size() || info.Type != s.StructType() {
		t.Errorf("stored as %+v, want the schema's struct type %v", info, s.StructType())
	}
	e := w.NewEntity()
	rec := &recorder{}
	listenAll(r, e, rec)
	must(t, r.Set(e, "npc", "kind: elf; home: 1 2 3"))
	must(t, r.Set(e, "npc", "level: 4"))
	if got, want := rec.take(), "event componentinitialized npc | event componentchanged npc"; got != want {
		t.Errorf("events %s", got)
	}
	if got, _ := r.Attr(e, "npc"); got != "kind: elf; level: 4; home: 1 2 3" {
		t.Errorf("Attr %q", got)
	}
	// The data is packed in the World, readable as the struct type.
	p, err := w.GetPtr(e, c.ID)
	must(t, err)
	v := reflect.NewAt(s.StructType(), p).Elem()
	if v.Field(0).String() != "elf" || v.Field(1).Int() != 4 {
		t.Errorf("stored %v", v.Interface())
	}
	if n, ok := c.Number(p, 1); !ok || n != 4 {
		t.Errorf("Number(level) = %v %v", n, ok)
	}
	if _, ok := c.Number(p, 0); ok {
		t.Error("Number(kind) reports numeric")
	}
	if got := c.Get(p, 2); got != (Vec3{X: 1, Y: 2, Z: 3}) {
		t.Errorf("Get(home) = %v", got)
	}
	// Parse errors come from the schema, located.
	err = r.Set(e, "npc", "kind: dwarf")
	var ae *AttrError
	if !errors.As(err, &ae) || ae.Component != "npc" || ae.Property != "kind" {
		t.Errorf("Set(kind: dwarf) = %v", err)
	}
	if got, _ := r.Attr(e, "npc"); got != "kind: elf; level: 4; home: 1 2 3" {
		t.Errorf("failed Set changed the data: %q", got)
	}

	// A tag.
	tag, err := schema.NewSchema(nil, r.Types())
	must(t, err)
	_, err = r.Declare("enemy", tag)
	must(t, err)
	must(t, r.Set(e, "enemy", ""))
	if !r.Has(e, "enemy") {
		t.Error("tag not set")
	}
	if got := r.EntityComponents(e); !reflect.DeepEqual(got, []string{"npc", "enemy"}) {
		t.Errorf("EntityComponents %v", got)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"enemy", "npc"}) {
		t.Errorf("Names %v", got)
	}
	if cs := r.Components(); len(cs) != 2 || cs[0].Name != "npc" || cs[1].Name != "enemy" {
		t.Errorf("Components %v", cs)
	}
}

// TestStructuralChangesDuringTick checks that hooks may create, destroy,
// add and remove during a tick: the changes are deferred to the end of
// the component's pass and applied in order, with their hooks.
func TestStructuralChangesDuringTick(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	_, err := Register(r, "marker", Definition[lcTicker]{
		Init:   func(c *Context, v *lcTicker) { rec.add("marker init n=%d", v.N) },
		Remove: func(c *Context, v *lcTicker) { rec.add("marker remove") },
	})
	must(t, err)
	var spawned []ecs.Entity
	_, err = Register(r, "chaos", Definition[lcTicker]{
		Tick: func(c *Context, v *lcTicker) {
			v.N++
			switch v.N {
			case 1:
				// Add a component to self and to a new entity.
				must(t, c.Registry.Set(c.Entity, "marker", "n: 1"))
				n := c.World.NewEntity()
				spawned = append(spawned, n)
				must(t, c.Registry.Set(n, "marker", "n: 2"))
				must(t, c.Registry.Set(n, "chaos", "n: 5"))
				if !c.World.Locked() || r.Has(c.Entity, "marker") {
					t.Error("structural change not deferred")
				}
				rec.add("tick 1 done")
			case 2:
				must(t, c.Registry.Remove(c.Entity, "marker"))
				rec.add("tick 2 done")
			case 3:
				must(t, c.World.Destroy(c.Entity))
				rec.add("tick 3 done")
			case 6:
				must(t, c.World.Destroy(c.Entity))
			}
		},
	})
	must(t, err)
	e := w.NewEntity()
	must(t, r.Set(e, "chaos", ""))
	r.Tick(1)
	if got, want := rec.take(), "tick 1 done | marker init n=1 | marker init n=2"; got != want {
		t.Errorf("frame 1: %s", got)
	}
	// The entity spawned during frame 1 did not tick in frame 1.
	if vs := mustValues(t, r, spawned[0], "chaos"); vs[0] != 5 {
		t.Errorf("spawned entity ticked in its creation frame: %v", vs)
	}
	r.Tick(1)
	// e's marker is removed, the spawned entity (n=6) destroyed.
	if got, want := rec.take(), "tick 2 done | marker remove | marker remove"; got != want {
		t.Errorf("frame 2: %s", got)
	}
	r.Tick(1)
	if got, want := rec.take(), "tick 3 done"; got != want {
		t.Errorf("frame 3: %s", got)
	}
	if w.Alive(e) || w.Alive(spawned[0]) {
		t.Errorf("alive after destroy: %v %v", w.Alive(e), w.Alive(spawned[0]))
	}
	if w.Len() != 0 || w.Pending() != 0 {
		t.Errorf("World has %d entities, %d pending changes", w.Len(), w.Pending())
	}
}

// TestRegistrationErrors asserts every registration error message.
func TestRegistrationErrors(t *testing.T) {
	_, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	type bad struct {
		F func() `scene:"f"`
	}
	other, err := schema.SchemaOf(reflect.TypeFor[lcTicker](), r.Types())
	must(t, err)
	tests := []struct {
		name string
		reg  func() error
		want string
	}{
		{"empty", func() error { _, err := Register(r, "", Definition[lcUnit]{}); return err },
			`registry: empty component name`},
		{"double underscore", func() error { _, err := Register(r, "a__b", Definition[lcUnit]{}); return err },
			`registry: component name "a__b": "__" is reserved for instance names (name__instance)`},
		{"bad character", func() error { _, err := Register(r, "a.b", Definition[lcUnit]{}); return err },
			`registry: component name "a.b": only letters, digits, '-' and '_' are allowed, not starting with a digit`},
		{"leading digit", func() error { _, err := Register(r, "1a", Definition[lcUnit]{}); return err },
			`registry: component name "1a": only letters, digits, '-' and '_' are allowed, not starting with a digit`},
		{"reserved", func() error { _, err := Register(r, "mixin", Definition[lcUnit]{}); return err },
			`registry: component name "mixin" is reserved`},
		{"reserved paused", func() error { _, err := Register(r, "paused", Definition[lcUnit]{}); return err },
			`registry: component name "paused" is reserved`},
		{"duplicate", func() error { _, err := Register(r, "unit", Definition[lcUnit]{}); return err },
			`registry: component "unit" is already registered`},
		{"duplicate declared", func() error { _, err := r.Declare("unit", other); return err },
			`registry: component "unit" is already registered`},
		{"declare nil schema", func() error { _, err := r.Declare("nothing", nil); return err },
			`registry: component "nothing": nil schema`},
		{"schema of another type", func() error {
			_, err := Register(r, "mismatch", Definition[lcUnit]{Schema: other})
			return err
		}, `registry: component "mismatch": schema describes registry.lcTicker, not registry.lcUnit`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(tt.reg()); got != tt.want {
				t.Errorf("error %q\nwant  %q", got, tt.want)
			}
		})
	}
	_, err = Register(r, "fn", Definition[bad]{})
	if err == nil || !strings.HasPrefix(err.Error(), `registry: component "fn": `) {
		t.Errorf("unsupported field type: %v", err)
	}
	if len(r.Names()) != 1 {
		t.Errorf("failed registrations left names behind: %v", r.Names())
	}
}

// TestUseErrors asserts the error messages of the entity operations.
func TestUseErrors(t *testing.T) {
	w, r := newTestRegistry(t)
	c, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	_, err = Register(r, "sound", Definition[lcSound]{Multiple: true})
	must(t, err)
	e := w.NewEntity()
	dead := w.NewEntity()
	must(t, w.Destroy(dead))
	tests := []struct {
		name string
		do   func() error
		want string
	}{
		{"unknown", func() error { return r.Set(e, "unti", "") }, `unknown component "unti" (did you mean "unit"?)`},
		{"unknown far", func() error { return r.Set(e, "zzzzzzzz", "") }, `unknown component "zzzzzzzz"`},
		{"stale", func() error { return r.Set(dead, "unit", "") },
			fmt.Sprintf("registry: set unit on %v: stale entity handle", dead)},
		{"index out of range", func() error { return r.SetPatch(e, "unit", Patch{{Index: 3, Value: 1}}, Merge) },
			`registry: set unit: property index 3 out of range`},
		{"reset unknown property", func() error { return r.ResetProperty(e, "unit", "mana") },
			`registry: unit has no property "mana"`},
		{"reset unknown component", func() error { return r.ResetProperty(e, "nope", "hp") },
			`unknown component "nope"`},
		{"remove absent", func() error { return r.Remove(e, "unit") },
			fmt.Sprintf("ecs: Remove %v unit: entity does not have the component", e)},
		{"remove unknown", func() error { return r.Remove(e, "nope") }, `unknown component "nope"`},
		{"values absent", func() error { _, err := r.Values(e, "unit"); return err },
			fmt.Sprintf("ecs: Get %v unit: entity does not have the component", e)},
		{"values unused instance", func() error { _, err := r.Values(e, "sound__x"); return err },
			fmt.Sprintf("registry: %v has no sound__x: entity does not have the component", e)},
		{"values unknown", func() error { _, err := r.Values(e, "nope"); return err }, `unknown component "nope"`},
		{"attr unknown", func() error { _, err := r.Attr(e, "nope"); return err }, `unknown component "nope"`},
		{"lookup instance of other", func() error { _, err := c.storeID("sound__1"); return err },
			`registry: "sound__1" is not an instance of "unit"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(tt.do()); got != tt.want {
				t.Errorf("error %q\nwant  %q", got, tt.want)
			}
		})
	}
	var uc *UnknownComponentError
	if err := r.Set(e, "unti", ""); !errors.As(err, &uc) || uc.Name != "unti" || uc.Suggestion != "unit" {
		t.Errorf("UnknownComponentError %+v", uc)
	}
	// A failed parse leaves the entity untouched.
	err = r.Set(e, "unit", "hp: -1")
	var ae *AttrError
	if !errors.As(err, &ae) || ae.Property != "hp" || r.Has(e, "unit") {
		t.Errorf("Set(hp: -1) = %v, has unit %v", err, r.Has(e, "unit"))
	}
	err = r.SetProperty(e, "unit", "mana", "1")
	if !errors.As(err, &ae) || ae.Kind != schema.UnknownProperty {
		t.Errorf("SetProperty(mana) = %v", err)
	}
}

// TestTwoRegistries checks that registries over different Worlds are
// independent (no package-level state).
func TestTwoRegistries(t *testing.T) {
	w1, r1 := newTestRegistry(t)
	w2, r2 := newTestRegistry(t)
	n1, n2 := 0, 0
	_, err := Register(r1, "unit", Definition[lcUnit]{Tick: func(*Context, *lcUnit) { n1++ }})
	must(t, err)
	_, err = Register(r2, "unit", Definition[lcUnit]{Tick: func(*Context, *lcUnit) { n2++ }})
	must(t, err)
	must(t, r1.Set(w1.NewEntity(), "unit", ""))
	must(t, r2.Set(w2.NewEntity(), "unit", ""))
	must(t, r2.Set(w2.NewEntity(), "unit", ""))
	r1.Tick(1)
	r2.Tick(1)
	if n1 != 1 || n2 != 2 {
		t.Errorf("ticks %d %d", n1, n2)
	}
	if r1.World() != w1 || r2.World() != w2 {
		t.Error("World()")
	}
	defer func() {
		if recover() == nil {
			t.Error("a second Registry on one World did not panic")
		}
	}()
	New(w1)
}

// TestTwoWritesInOnePass checks that two writes of a component the entity
// does not have yet, from one tick pass, merge as they would outside it:
// the second sees the first, and update runs for it.
func TestTwoWritesInOnePass(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	_, err := Register(r, "unit", recordingDefinition(rec))
	must(t, err)
	target := w.NewEntity()
	_, err = Register(r, "writer", Definition[lcTicker]{
		Tick: func(c *Context, v *lcTicker) {
			if v.N++; v.N == 1 {
				must(t, c.Registry.Set(target, "unit", "hp: 1"))
				must(t, c.Registry.Set(target, "unit", "name: x"))
				if err := c.Registry.Set(target, "unit", "hp: -1"); err == nil {
					t.Error("a bad value was accepted while deferred")
				}
			}
		},
	})
	must(t, err)
	must(t, r.Set(w.NewEntity(), "writer", ""))
	listenAll(r, target, rec)
	r.Tick(1)
	if got, _ := r.Attr(target, "unit"); got != "hp: 1; name: x; pos: 0 1 0" {
		t.Errorf("Attr %q", got)
	}
	want := `init unit hp=1 | update unit old=0/"" new=1/"grunt" | event componentinitialized unit | update unit old=1/"grunt" new=1/"x" | event componentchanged unit`
	if got := rec.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestInstanceFirstUsedInTick checks that the first use of an instance
// name from a tick hook (which registers a new ecs component and tick
// filter while the World is iterating) is safe, and that the instance
// ticks from the next frame on.
func TestInstanceFirstUsedInTick(t *testing.T) {
	w, r := newTestRegistry(t)
	plays := map[string]int{}
	_, err := Register(r, "sound", Definition[lcSound]{
		Multiple: true,
		TickColumn: func(c *Context, vs []lcSound) {
			for i := range vs {
				plays[c.Name]++
				if vs[i].Plays++; vs[i].Plays == 1 && c.Name == "sound" {
					e := c.EntityAt(i)
					must(t, c.Registry.Set(e, "sound__late", "src: late.ogg"))
					must(t, c.World.Destroy(c.World.NewEntity())) // create and destroy, deferred
				}
			}
		},
	})
	must(t, err)
	e := w.NewEntity()
	must(t, r.Set(e, "sound", ""))
	r.Tick(1)
	r.Tick(1)
	if plays["sound"] != 2 || plays["sound__late"] != 1 {
		t.Errorf("plays %v", plays)
	}
	if got, _ := r.Attr(e, "sound__late"); got != "src: late.ogg; volume: 1; plays: 1" {
		t.Errorf("sound__late %q", got)
	}
	if w.Len() != 1 {
		t.Errorf("%d entities", w.Len())
	}
}

// TestReserveIDs: ids given before and after Privileged().ReserveIDs are
// all found; a duplicate is still refused.
func TestReserveIDs(t *testing.T) {
	w, r := newTestRegistry(t)
	first := w.NewEntity()
	if err := r.SetEntityID(first, "first"); err != nil {
		t.Fatal(err)
	}
	r.Privileged().ReserveIDs(2000)
	es := make([]ecs.Entity, 2000)
	for i := range es {
		es[i] = w.NewEntity()
		if err := r.SetEntityID(es[i], fmt.Sprint("e", i)); err != nil {
			t.Fatal(err)
		}
	}
	if e, ok := r.EntityByID("first"); !ok || e != first {
		t.Errorf("the id given before ReserveIDs: %v %v", e, ok)
	}
	if e, ok := r.EntityByID("e1999"); !ok || e != es[1999] {
		t.Errorf("an id given after: %v %v", e, ok)
	}
	if err := r.SetEntityID(w.NewEntity(), "e7"); err == nil {
		t.Error("a duplicate id was taken")
	}
}
