package selector_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/selector"
)

// TestRelationsOracle: over random worlds and random selectors with
// relations, references, variables (the host's too) and :not, every call
// returns exactly what the brute-force oracle returns, in document order.
func TestRelationsOracle(t *testing.T) {
	worlds, compiled := 150, 0
	if testing.Short() {
		worlds = 30
	}
	for seed := range worlds {
		rng := rand.New(rand.NewPCG(uint64(seed), 34))
		f := randomRelWorld(rng, 4+rng.IntN(14))
		g := &relGen{rng: rng, n: 20}
		var me ecs.Entity // the first entity, if any is left
		for e := range f.w.All() {
			me = e
			break
		}
		hosts := map[string]any{"me": me, "team": "red"}
		o := newRelOracle(f, hosts)
		for range 25 {
			src := g.selector()
			sel, err := selector.CompileWith(src, f, selector.CompileOptions{Vars: []string{"me", "team"}})
			if err != nil {
				var se *selector.Error
				if !errors.As(err, &se) {
					t.Fatalf("%s: %v is not a *selector.Error", src, err)
				}
				continue // a variable used once, or where variables may not go
			}
			compiled++
			must(t, sel.Bind("me", me))
			must(t, sel.Bind("team", "red"))
			checkOracle(t, f, o, sel, src, seed)
			sel.Close()
		}
	}
	if compiled < worlds*25/3 {
		t.Fatalf("only %d of %d random selectors compiled", compiled, worlds*25)
	}
}

func checkOracle(t *testing.T, f *relWorld, o *relOracle, sel *selector.Selector, src string, seed int) {
	t.Helper()
	want := o.query(sel.List())
	name := func(es []ecs.Entity) string {
		var s []string
		for _, e := range es {
			s = append(s, e.String()+"#"+f.id[e])
		}
		return strings.Join(s, " ")
	}
	if got := sel.QueryAll(nil); !slices.Equal(got, want) {
		t.Fatalf("seed %d: %s\n got %s\nwant %s\nplan %s", seed, src, name(got), name(want), sel.Explain())
	}
	if n := sel.Count(); n != len(want) {
		t.Fatalf("seed %d: %s: Count %d, want %d", seed, src, n, len(want))
	}
	for _, e := range o.all {
		if got := sel.Matches(e); got != slices.Contains(want, e) {
			t.Fatalf("seed %d: %s: Matches(%v#%s) = %v\nplan %s", seed, src, e, f.id[e], got, sel.Explain())
		}
	}
}

// TestRelationErrors: what the compiler refuses, at the column.
func TestRelationErrors(t *testing.T) {
	f := newRelWorld()
	for _, tt := range []struct{ src, want string }{
		{"[ship]:to(faction, *)", "selector:1:11: faction holds no references"},
		{"[ship]:from(dockd, *)", `selector:1:13: unknown relation "dockd"`},
		{"[hp=#e1]", "selector:1:1: hp holds no references"},
		{"[ship][faction=$f]", "selector:1:7: variable $f is used once, so it joins nothing: use it again, write [faction] to ask only for presence, or declare it a host variable (CompileOptions.Vars)"},
		{"[docked=$x][faction=$x]", "selector:1:12: variable $x is text here (faction) but an entity elsewhere"},
		{"[faction=$this]", "selector:1:1: variable $this is text here (faction) but an entity elsewhere"},
		{"[faction=$f] > [faction=$f]", "selector:1:1: variable $f cannot be used before a combinator (variables go in the last compound of a complex selector)"},
		{"[faction=$f]:is([faction=$f])", "selector:1:17: variable $f cannot be used inside :is()"},
		{"[faction=$f]:to(docked, [faction=$f], [planet])", "selector:1:25: variable $f cannot be used in a :to() list of several selectors"},
		{":not([faction=$f]):not([hp=$f])", "selector:1:6: variable $f is used once, so it joins nothing: use it again, write [faction] to ask only for presence, or declare it a host variable (CompileOptions.Vars)"},
		{"[dockd=$l][docked=$l]", `selector:1:1: unknown component "dockd"`},
	} {
		_, err := selector.Compile(tt.src, f)
		var se *selector.Error
		if err == nil || !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("Compile(%q)\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
	// A Source without Relations (the registry's Source methods alone:
	// the registry itself has relations).
	_, r := newRegistry(t)
	if _, err := selector.Compile("[health]:to(health, *)", struct{ selector.Source }{r}); err == nil || !strings.Contains(err.Error(), `selector:1:13: relation "health": the Source has no relations`) {
		t.Errorf("a Source without relations: %v", err)
	}
	// The registry's own word for a component that holds no reference.
	if _, err := selector.Compile("[health]:to(health, *)", r); err == nil || !strings.Contains(err.Error(), `selector:1:13: component "health" holds no reference`) {
		t.Errorf("the registry, a component without references: %v", err)
	}
	// The Source's own error is kept.
	_, err := selector.Compile(":to(nope, *)", f)
	if se := (*selector.Error)(nil); !errors.As(err, &se) || se.Err == nil || se.Err.Error() != `unknown relation "nope"` {
		t.Errorf("Err not kept: %#v", err)
	}
	if _, err := selector.CompileWith("*", f, selector.CompileOptions{Vars: []string{"this"}}); err == nil {
		t.Error("declaring $this: no error")
	}
}

// fleet is a world of ships docked at planets: planet i has the id pI
// and faction red for even i; ship j (id sJ) is docked at planet j%planets
// and has faction red for j%3 == 0.
func fleet(ships, planets int) *relWorld {
	f := newRelWorld()
	ps := make([]ecs.Entity, planets)
	for i := range ps {
		ps[i] = f.add("p"+strconv.Itoa(i), ecs.Entity{}, "planet")
		f.faction.Set(ps[i], []string{"red", "blue"}[i%2])
	}
	for j := range ships {
		s := f.add("s"+strconv.Itoa(j), ecs.Entity{}, "ship")
		f.docked.Set(s, ps[j%planets])
		f.faction.Set(s, []string{"red", "blue", "green"}[j%3])
	}
	return f
}

// TestRelationPlan: the planner takes the cheaper side. A selective list
// (an id, or fewer matches than the holder has candidates) is collected
// first and its holders walked through the reverse index, without reading
// every candidate's targets; a list with many matches is checked on each
// candidate's targets instead, without the reverse index. Matches asks
// about one entity and always checks.
func TestRelationPlan(t *testing.T) {
	f := fleet(1000, 10)
	for _, tt := range []struct {
		src             string
		n               int
		targets, holder int // calls of Relation.Targets and Holders, at most
		explain         string
	}{
		{"[ship][docked=#p3]", 100, 0, 1, "set-from-matches"},
		{"[ship]:to(docked, #p3)", 100, 0, 1, "set-from-matches"},
		{"[ship]:to(docked, [planet][faction=red])", 500, 0, 10, "set-from-matches"},
		{"[planet]:from(docked, #s7)", 1, 1, 0, "set-from-matches"},
		{"#s7:to(docked, [planet])", 1, 1, 0, "check-targets"},
		{"[planet]:from(docked, [ship][faction=green])", 10, 0, 10, "check-holders"},
		{"[ship][faction=$f]:to(docked, [faction=$f])", 334, 2000, 0, "check-targets"},
		{"[ship][faction=$f]:to(docked, [planet][faction=$f])", 334, 1000, 10, "set-from-matches"},
	} {
		f.targetCalls, f.holderCalls = 0, 0
		sel := selector.MustCompile(tt.src, f)
		if got := len(sel.QueryAll(nil)); got != tt.n {
			t.Errorf("%s: %d matches, want %d", tt.src, got, tt.n)
		}
		if f.targetCalls > tt.targets || f.holderCalls > tt.holder {
			t.Errorf("%s: %d Targets and %d Holders calls, want at most %d and %d\n%s", tt.src, f.targetCalls, f.holderCalls, tt.targets, tt.holder, sel.Explain())
		}
		if ex := sel.Explain(); !strings.Contains(ex, tt.explain) {
			t.Errorf("%s: plan %s, want %s", tt.src, ex, tt.explain)
		}
	}
	sel := selector.MustCompile("[ship]:to(docked, #p3)", f)
	s3, _ := f.EntityByID("s3")
	f.targetCalls, f.holderCalls = 0, 0
	if !sel.Matches(s3) || f.holderCalls != 0 || f.targetCalls != 1 {
		t.Errorf("Matches: %d Targets and %d Holders calls, want 1 and 0", f.targetCalls, f.holderCalls)
	}
}

// TestBind: a host variable, such as the players' $me, takes its value
// before a query; unbound, the selectors using it match nothing.
func TestBind(t *testing.T) {
	f := fleet(6, 2)
	sel, err := selector.CompileWith("[ship][docked=$me], [ship][faction=$team]:to(docked, [faction=$team])", f,
		selector.CompileOptions{Vars: []string{"me", "team"}})
	must(t, err)
	ids := func() string {
		var s []string
		for _, e := range sel.QueryAll(nil) {
			s = append(s, f.id[e])
		}
		return strings.Join(s, " ")
	}
	if got := ids(); got != "" {
		t.Errorf("unbound: %q", got)
	}
	p1, _ := f.EntityByID("p1")
	must(t, sel.Bind("me", p1))
	if got := ids(); got != "s1 s3 s5" {
		t.Errorf("$me=p1: %q", got)
	}
	must(t, sel.Bind("team", "red"))
	if got := ids(); got != "s0 s1 s3 s5" {
		t.Errorf("$me=p1 $team=red: %q", got)
	}
	must(t, sel.Bind("me", nil))
	if got := ids(); got != "s0" {
		t.Errorf("$team=red: %q", got)
	}
	if err := sel.Bind("team", p1); err == nil || !strings.Contains(err.Error(), "$team is text, not an entity") {
		t.Errorf("Bind(team, entity): %v", err)
	}
	if err := sel.Bind("you", p1); err == nil || !strings.Contains(err.Error(), "no host variable $you (declared: $me, $team)") {
		t.Errorf("Bind(you): %v", err)
	}
}

// TestRelationExamples: the examples of docs/selectors.md.
func TestRelationExamples(t *testing.T) {
	f := fleet(6, 2) // s0..s5 docked at p0 p1 p0 p1 p0 p1; factions red blue green ...; p0 red, p1 blue
	st := f.add("st", ecs.Entity{})
	f.faction.Set(st, "green")
	s2, _ := f.EntityByID("s2")
	f.docked.Set(s2, st)
	owner := f.add("o", ecs.Entity{}, "ship")
	f.holds.Set(owner, []ecs.Entity{s2})
	f.docked.Set(owner, s2)
	for _, tt := range []struct{ src, want string }{
		{"[ship]:to(docked, [planet])", "s0 s1 s3 s4 s5"},
		{"[ship][faction=$f]:to(docked, [faction=$f])", "s0 s1 s2"},
		{"[ship][faction=$f]:not(:to(docked, [faction=$f]))", "s3 s4 s5"},
		{"[docked=#p1]", "s1 s3 s5"},
		{":from(docked, [ship])", "p0 p1 s2 st"},
		{":from(holds, [docked=$this])", "s2"},
		{"[planet]:not(:from(docked, [faction=green]))", "p0"},
	} {
		sel := selector.MustCompile(tt.src, f)
		var got []string
		for _, e := range sel.QueryAll(nil) {
			got = append(got, f.id[e])
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: %q, want %q\n%s", tt.src, g, tt.want, sel.Explain())
		}
	}
}
