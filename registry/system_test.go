package registry

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

type sysConfig struct {
	Rate  float64 `scene:"rate,default=1"`
	Label string  `scene:"label,default=main"`
}

// fakeEngine compiles "[name]" to "entities having component name"; any
// other text is an error.
type fakeEngine struct {
	r        *Registry
	compiles int
}

func (f *fakeEngine) Compile(src string) (compiledSelector, error) {
	f.compiles++
	if !strings.HasPrefix(src, "[") || !strings.HasSuffix(src, "]") {
		return nil, fmt.Errorf("bad selector %q", src)
	}
	return fakeMatcher{f.r, src[1 : len(src)-1]}, nil
}

type fakeMatcher struct {
	r    *Registry
	name string
}

func (m fakeMatcher) QueryAll(dst []ecs.Entity) []ecs.Entity {
	for e := range m.r.World().All() {
		if m.r.Has(e, m.name) {
			dst = append(dst, e)
		}
	}
	return dst
}

func (m fakeMatcher) QueryFirst() (ecs.Entity, bool) {
	es := m.QueryAll(nil)
	if len(es) == 0 {
		return ecs.Entity{}, false
	}
	return es[0], true
}

func (m fakeMatcher) Matches(e ecs.Entity) bool { return m.r.Has(e, m.name) }

// TestSystemLifecycle checks init, update(zero) at Start, update(old) on
// ConfigureAttr only when the data changes, tick and tock each frame.
func TestSystemLifecycle(t *testing.T) {
	_, r := newTestRegistry(t)
	rec := &recorder{}
	sys, err := RegisterSystem(r, "sim", SystemDefinition[sysConfig]{
		Init: func(s *SystemContext, c *sysConfig) { rec.add("init %g %s", c.Rate, c.Label) },
		Update: func(s *SystemContext, c, old *sysConfig) {
			rec.add("update %g/%q -> %g/%q", old.Rate, old.Label, c.Rate, c.Label)
		},
		Tick: func(s *SystemContext, c *sysConfig) { rec.add("tick %g %s t=%g", c.Rate, s.System.Name, s.Time) },
		Tock: func(s *SystemContext, c *sysConfig) { rec.add("tock dt=%g", s.Delta) },
	})
	must(t, err)
	// Configured before Start: no hook runs, the data is kept.
	must(t, sys.ConfigureAttr("rate: 2"))
	if got := rec.take(); got != "" {
		t.Errorf("hooks before Start: %s", got)
	}
	must(t, r.Start())
	must(t, r.Start()) // idempotent
	if got, want := rec.take(), `init 2 main | update 0/"" -> 2/"main"`; got != want {
		t.Errorf("Start: %s", got)
	}
	steps := []struct {
		attr, want string
	}{
		{"rate: 2", ""},
		{"label: side", `update 2/"main" -> 2/"side"`},
		{"", ""},
		{"rate: 3; label: side", `update 2/"side" -> 3/"side"`},
	}
	for _, s := range steps {
		must(t, sys.ConfigureAttr(s.attr))
		if got := rec.take(); got != s.want {
			t.Errorf("ConfigureAttr(%q): %s, want %s", s.attr, got, s.want)
		}
	}
	// Replace resets what the patch does not give.
	sim, _ := r.System("sim")
	must(t, sim.Configure(Patch{{Index: 1, Value: "side"}}, Replace))
	if got, want := rec.take(), `update 3/"side" -> 1/"side"`; got != want {
		t.Errorf("Replace: %s", got)
	}
	if got := sys.Values(); !reflect.DeepEqual(got, []any{1.0, "side"}) {
		t.Errorf("Values %v", got)
	}
	if cfg := (*sysConfig)(sys.Data()); cfg.Rate != 1 || cfg.Label != "side" {
		t.Errorf("Data %+v", cfg)
	}
	r.Tick(0.5)
	if got, want := rec.take(), "tick 1 sim t=0.5 | tock dt=0.5"; got != want {
		t.Errorf("Tick: %s", got)
	}
	r.Pause()
	r.Tick(0.5)
	r.Play()
	if got := rec.take(); got != "" {
		t.Errorf("paused scene ticked systems: %s", got)
	}
	if s, ok := r.System("sim"); !ok || s != sys {
		t.Error("System(sim)")
	}
	if ss := r.Systems(); len(ss) != 1 || ss[0] != sys {
		t.Errorf("Systems %v", ss)
	}
}

// TestSystemOrder checks that systems start and tick in registration
// order, and that one registered after Start is started at once.
func TestSystemOrder(t *testing.T) {
	_, r := newTestRegistry(t)
	rec := &recorder{}
	reg := func(name string) {
		_, err := RegisterSystem(r, name, SystemDefinition[sysConfig]{
			Init: func(s *SystemContext, _ *sysConfig) { rec.add("init %s", s.System.Name) },
			Tick: func(s *SystemContext, _ *sysConfig) { rec.add("tick %s", s.System.Name) },
		})
		must(t, err)
	}
	reg("b")
	reg("a")
	r.Tick(1) // starts
	reg("c")
	r.Tick(1)
	want := "init b | init a | tick b | tick a | init c | tick b | tick a | tick c"
	if got := rec.take(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSystemSelector checks a system's selector, compiled by the engine
// at Start, and the failure paths: no engine, a bad selector.
func TestSystemSelector(t *testing.T) {
	w, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	var got []ecs.Entity
	_, err = RegisterSystem(r, "units", SystemDefinition[sysConfig]{
		Selector: "[unit]",
		Tick:     func(s *SystemContext, _ *sysConfig) { got = s.Entities() },
	})
	must(t, err)
	a, _, c := w.NewEntity(), w.NewEntity(), w.NewEntity()
	must(t, r.Set(a, "unit", ""))
	must(t, r.Set(c, "unit", ""))

	// No engine: Start fails, Tick ticks no system, and Start can be
	// retried once an engine is set.
	r.setSelectorEngine(nil)
	err = r.Start()
	if want := `registry: system "units" has a selector but no selector engine is set`; fmt.Sprint(err) != want {
		t.Errorf("Start = %v, want %s", err, want)
	}
	r.Tick(1)
	if got != nil {
		t.Errorf("a system ticked although Start failed: %v", got)
	}
	eng := &fakeEngine{r: r}
	r.setSelectorEngine(eng)
	r.Tick(1)
	if !reflect.DeepEqual(got, []ecs.Entity{a, c}) {
		t.Errorf("Entities %v, want [%v %v]", got, a, c)
	}
	// Registry queries go through the engine and are cached.
	es, err := r.QueryAll("[unit]")
	must(t, err)
	n := eng.compiles
	if _, err := r.QueryAll("[unit]"); err != nil || eng.compiles != n {
		t.Errorf("query not cached: %d compiles", eng.compiles)
	}
	if !reflect.DeepEqual(es, []ecs.Entity{a, c}) {
		t.Errorf("QueryAll %v", es)
	}
	if e, ok, err := r.Resolve("[unit]"); err != nil || !ok || e != a {
		t.Errorf("QueryFirst %v %v %v", e, ok, err)
	}
	if e, ok, err := r.Resolve(SelectorText("[unit]")); err != nil || !ok || e != a {
		t.Errorf("Resolve %v %v %v", e, ok, err)
	}
	if _, ok, err := r.Resolve(""); ok || err != nil {
		t.Errorf("Resolve(\"\") %v %v", ok, err)
	}
	if es, err := r.QueryAll(string(SelectorAllText("[unit]"))); err != nil || len(es) != 2 {
		t.Errorf("ResolveAll %v %v", es, err)
	}
	if _, err := r.QueryAll("unit"); fmt.Sprint(err) != `bad selector "unit"` {
		t.Errorf("QueryAll(bad) = %v", err)
	}

	// A bad selector fails Start with the engine's error.
	_, r2 := newTestRegistry(t)
	r2.setSelectorEngine(&fakeEngine{r: r2})
	_, err = RegisterSystem(r2, "bad", SystemDefinition[sysConfig]{Selector: "unit"})
	must(t, err)
	if err := r2.Start(); fmt.Sprint(err) != `registry: system "bad": bad selector "unit"` {
		t.Errorf("Start = %v", err)
	}
	// Without an engine (setSelectorEngine(nil) removes the default one),
	// queries fail.
	_, r3 := newTestRegistry(t)
	r3.setSelectorEngine(nil)
	if _, err := r3.QueryAll("[x]"); fmt.Sprint(err) != "registry: no selector engine set" {
		t.Errorf("QueryAll without engine = %v", err)
	}
	// A system without selector has no entities.
	sc := &SystemContext{System: &System{}}
	if sc.Entities() != nil {
		t.Error("Entities without selector")
	}
}

// TestSystemErrors asserts the system error messages.
func TestSystemErrors(t *testing.T) {
	_, r := newTestRegistry(t)
	_, err := RegisterSystem(r, "physics", SystemDefinition[sysConfig]{})
	must(t, err)
	other, err := schema.SchemaOf(reflect.TypeFor[lcTicker](), r.Types())
	must(t, err)
	tests := []struct {
		name string
		do   func() error
		want string
	}{
		{"duplicate", func() error { _, err := RegisterSystem(r, "physics", SystemDefinition[sysConfig]{}); return err },
			`registry: system "physics" is already registered`},
		{"bad name", func() error { _, err := RegisterSystem(r, "a b", SystemDefinition[sysConfig]{}); return err },
			`registry: component name "a b": only letters, digits, '-' and '_' are allowed, not starting with a digit`},
		{"schema of another type", func() error {
			_, err := RegisterSystem(r, "mismatch", SystemDefinition[sysConfig]{Schema: other})
			return err
		}, `registry: system "mismatch": schema describes registry.lcTicker, not registry.sysConfig`},
		{"index out of range", func() error { s, _ := r.System("physics"); return s.Configure(Patch{{Index: 2, Value: 1.0}}, Merge) },
			`registry: configure physics: property index 2 out of range`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := fmt.Sprint(tt.do()); got != tt.want {
				t.Errorf("error %q\nwant  %q", got, tt.want)
			}
		})
	}
	phys, _ := r.System("physics")
	err = phys.ConfigureAttr("rate: fast")
	var ae *AttrError
	if !errors.As(err, &ae) || ae.Component != "physics" || ae.Property != "rate" {
		t.Errorf("ConfigureAttr(rate: fast) = %v", err)
	}
	if _, ok := r.System("mismatch"); ok {
		t.Error("failed system registered")
	}
}
