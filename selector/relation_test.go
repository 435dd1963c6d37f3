package selector_test

import (
	"errors"
	"math/rand/v2"
	"slices"
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
