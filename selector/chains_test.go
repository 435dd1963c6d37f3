package selector_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// Long combinator chains (issue 11): a selector of 1,000 `~` steps took
// 17 s and 1.1 GB on 10,000 siblings, and :has() with a sibling or
// descendant lead was quadratic in the entities. Every call must run in
// time linear in entities × steps, with memory that does not grow with
// the steps.

// chainN is the size of the worlds: 10,000 entities, fewer under the
// race detector (see race_test.go), which slows these loops 100-fold.
var chainN = 10_000

type chainWorld struct {
	name string
	w    *ecs.World
	r    *registry.Registry
}

// flatWorld is a parent with chainN children; every second child has
// class a, every third class b.
func flatWorld(t testing.TB) chainWorld {
	w, r := newRegistry(t)
	root := w.NewEntity()
	for i := range chainN {
		e := w.NewEntity()
		must(t, w.SetParent(e, root))
		setABClasses(t, r, e, i)
	}
	return chainWorld{"flat", w, r}
}

// rootsWorld is chainN roots (roots are siblings of each other).
func rootsWorld(t testing.TB) chainWorld {
	w, r := newRegistry(t)
	w.EnableHierarchy()
	for i := range chainN {
		setABClasses(t, r, w.NewEntity(), i)
	}
	return chainWorld{"roots", w, r}
}

// deepWorld is a single chain of chainN entities, each the child of the
// one before.
func deepWorld(t testing.TB) chainWorld {
	w, r := newRegistry(t)
	var p ecs.Entity
	for i := range chainN {
		e := w.NewEntity()
		if !p.IsZero() {
			must(t, w.SetParent(e, p))
		}
		setABClasses(t, r, e, i)
		p = e
	}
	return chainWorld{"deep", w, r}
}

// combWorld is a chain of 100 entities, each with 99 leaf children
// besides the next link: depth and width at once.
func combWorld(t testing.TB) chainWorld {
	w, r := newRegistry(t)
	var p ecs.Entity
	i := 0
	for range 100 {
		link := w.NewEntity()
		if !p.IsZero() {
			must(t, w.SetParent(link, p))
		}
		setABClasses(t, r, link, i)
		i++
		for range 99 {
			e := w.NewEntity()
			must(t, w.SetParent(e, link))
			setABClasses(t, r, e, i)
			i++
		}
		p = link
	}
	return chainWorld{"comb", w, r}
}

func setABClasses(t testing.TB, r *registry.Registry, e ecs.Entity, i int) {
	var cls []string
	if i%2 == 0 {
		cls = append(cls, "a")
	}
	if i%3 == 0 {
		cls = append(cls, "b")
	}
	must(t, r.SetClasses(e, cls))
}

// chainFamily builds a selector of k repeated steps.
type chainFamily struct {
	name string
	gen  func(k int) string
	// want is the number of matches on each world (by name) with k
	// steps; a missing world is not checked.
	want map[string]func(k int) int
}

// rep joins k copies of step with sep (k compounds).
func rep(step, sep string, k int) string {
	return strings.Repeat(step+sep, k-1) + step
}

var chainFamilies = []chainFamily{
	{"~", func(k int) string { return rep("*", " ~ ", k) }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - (k - 1) }, "roots": func(k int) int { return chainN - (k - 1) }, "deep": zero}},
	{"+", func(k int) string { return rep("*", " + ", k) }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - (k - 1) }, "roots": func(k int) int { return chainN - (k - 1) }, "deep": zero}},
	{"~compact", func(k int) string { return rep("*", "~", k) }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - (k - 1) }}},
	{">", func(k int) string { return rep("*", " > ", k) }, map[string]func(int) int{
		"deep": func(k int) int { return chainN - (k - 1) }, "flat": zero, "roots": zero}},
	{"descendant", func(k int) string { return rep("*", " ", k) }, map[string]func(int) int{
		"deep": func(k int) int { return chainN - (k - 1) }}},
	{"classes ~ +", func(k int) string { return rep(".a ~ .b", " + ", k/2) }, nil},
	{"mix", func(k int) string { return rep("* > .a ~ * + .b", " ", k/4) }, nil},
	{"no match", func(k int) string { return rep(".a", " ~ ", k-1) + " ~ .z" }, map[string]func(int) int{
		"flat": zero, "roots": zero, "deep": zero, "comb": zero}},
	{":not", func(k int) string { return ":not(" + rep("*", " ~ ", k) + ")" }, map[string]func(int) int{
		"flat": func(k int) int { return 1 + k - 1 }, "roots": func(k int) int { return k - 1 }}},
	{":is", func(k int) string { return ":is(" + rep("*", " + ", k) + ")" }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - (k - 1) }}},
	{":is descendant", func(k int) string { return ":is(" + rep(".a", " ", k) + ") *" }, nil},
	{":has(~)", func(k int) string { return "*:has(" + strings.Repeat("~ * ", k) + ")" }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - k }, "roots": func(k int) int { return chainN - k }, "deep": zero}},
	{":has(+)", func(k int) string { return "*:has(" + strings.Repeat("+ * ", k) + ")" }, map[string]func(int) int{
		"flat": func(k int) int { return chainN - k }}},
	{":has(>)", func(k int) string { return "*:has(" + strings.Repeat("> * ", k) + ")" }, map[string]func(int) int{
		"deep": func(k int) int { return chainN - k }, "flat": func(k int) int { return b2i(k == 1) }}},
	{":has(descendant)", func(k int) string { return "*:has(" + rep("*", " ", k) + ")" }, map[string]func(int) int{
		"deep": func(k int) int { return chainN - k }}},
	{":has(~) absent", func(k int) string { return "*:has(~ .z)" }, map[string]func(int) int{
		"flat": zero, "roots": zero, "deep": zero, "comb": zero}},
	{":has() absent", func(k int) string { return "*:has(.z)" }, map[string]func(int) int{
		"flat": zero, "roots": zero, "deep": zero, "comb": zero}},
	{":has(+ ~) absent", func(k int) string { return ".a:has(+ * ~ .z), .b:has(> .z)" }, map[string]func(int) int{
		"flat": zero, "roots": zero, "deep": zero, "comb": zero}},
	{"list", func(k int) string { return rep("*", " ~ ", k/2) + ", " + rep("*", " > ", k/2) }, nil},
	{":nth-child of", func(k int) string { return ":nth-child(odd of " + rep("*", " ~ ", k) + ")" }, nil},
	{":not(:has())", func(k int) string { return ":not(:has(" + rep(".a", " ~ ", k) + "))" }, nil},
}

func zero(int) int { return 0 }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// maxSteps returns the largest k whose selector fits the 4 KB limit.
func (f chainFamily) maxSteps() int {
	k := 4
	for len(f.gen(k*2)) <= selector.DefaultMaxLength && k < 4096 {
		k *= 2
	}
	for len(f.gen(k+1)) <= selector.DefaultMaxLength && k < 4096 {
		k++
	}
	return k
}

// compounds counts the compound selectors of l, nested lists included.
func compounds(l *selector.SelectorList) int {
	n := 0
	for _, cx := range l.Selectors {
		for _, cp := range cx.Compounds {
			n++
			for _, s := range cp.Simples {
				if ps, ok := s.(*selector.Pseudo); ok && ps.List != nil {
					n += compounds(ps.List)
				}
			}
		}
	}
	return n
}

// chainRun is one measured QueryAll.
type chainRun struct {
	matches int
	ops     uint64 // combinator work units (Selector.Ops)
	bytes   uint64 // bytes allocated by the call
	d       time.Duration
}

// runChain compiles src and measures its first QueryAll, which must end
// within the time limit (a generous wall-clock guard on a shared machine;
// the work counter is the precise check).
func runChain(t *testing.T, cw chainWorld, src string) chainRun {
	t.Helper()
	s, err := selector.Compile(src, cw.r)
	if err != nil {
		t.Fatalf("%.40q: %v", src, err)
	}
	defer s.Close()
	dst := make([]ecs.Entity, 0, cw.w.Len())
	type result struct {
		run chainRun
	}
	done := make(chan result, 1)
	go func() {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		got := s.QueryAll(dst)
		d := time.Since(t0)
		runtime.ReadMemStats(&m1)
		done <- result{chainRun{len(got), s.Ops(), m1.TotalAlloc - m0.TotalAlloc, d}}
	}()
	select {
	case r := <-done:
		return r.run
	case <-time.After(30 * time.Second):
		t.Fatalf("%.40q on %s: QueryAll still running after 30 s", src, cw.name)
	}
	return chainRun{}
}

// TestLongChains runs every family at the largest size the 4 KB limit
// allows, on flat (10,000 siblings, as children and as roots), deep
// (10,000 levels) and comb-shaped worlds, and checks:
//
//   - the result, where it is easy to count;
//   - the work: at most 4 units per entity per compound, plus the
//     right-to-left budget (a quadratic :has() did ~N²/2);
//   - the memory: the bytes the call allocates do not grow with the
//     steps (a quarter of the steps must cost as much), and stay under a
//     bound per entity (1,000 `~` steps allocated 1.1 GB);
//   - the time, against a generous wall-clock limit.
func TestLongChains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four 10,000-entity worlds")
	}
	worlds := []chainWorld{flatWorld(t), rootsWorld(t), deepWorld(t), combWorld(t)}
	for _, cw := range worlds {
		// Warm the shared document-order index, so that the first
		// selector does not pay for it.
		selector.MustCompile(rep("*", " ~ ", 40), cw.r).QueryAll(nil)
		for _, f := range chainFamilies {
			t.Run(cw.name+"/"+f.name, func(t *testing.T) {
				k := f.maxSteps()
				src := f.gen(k)
				run := runChain(t, cw, src)
				small := runChain(t, cw, f.gen(max(k/4, 1)))
				n := cw.w.Len()
				steps := compounds(selector.MustParse(src))
				if want, ok := f.want[cw.name]; ok {
					if w := max(want(k), 0); run.matches != w {
						t.Errorf("%d steps: %d matches, want %d", k, run.matches, w)
					}
				}
				if lim := uint64(4*n*(steps+1) + n + 64); run.ops > lim {
					t.Errorf("%d compounds: %d units of work, over %d (4 per entity per compound)", steps, run.ops, lim)
				}
				if lim := uint64(128*n + 1<<20); run.bytes > lim {
					t.Errorf("%d compounds: allocated %d bytes, over %d", steps, run.bytes, lim)
				}
				if run.bytes > small.bytes+64<<10 {
					t.Errorf("memory grows with the steps: %d compounds allocated %d bytes, a quarter of them %d",
						steps, run.bytes, small.bytes)
				}
				if run.d > 10*time.Second {
					t.Errorf("%d compounds took %v", steps, run.d)
				}
				t.Logf("%d compounds: %d matches, %d units, %d KB, %v", steps, run.matches, run.ops, run.bytes>>10, run.d)
			})
		}
	}
}

// TestLongChainsSteadyState checks that repeated calls of a long chain
// reuse their memory: a few allocations per call, no more for 3,000
// steps (600 under the race detector) than for 100. Selectors over the default 4 KB limit are parsed
// with a larger MaxLength, as a program may.
func TestLongChainsSteadyState(t *testing.T) {
	w, r := newRegistry(t)
	w.EnableHierarchy()
	n := chainN * 2 / 5
	long := n * 3 / 4
	for i := range n {
		setABClasses(t, r, w.NewEntity(), i)
	}
	cw := chainWorld{"roots", w, r}
	dst := make([]ecs.Entity, 0, n)
	allocs := func(src string) (float64, int) {
		l, err := selector.ParseWithOptions(src, selector.Options{MaxLength: 1 << 20})
		must(t, err)
		s, err := selector.CompileList(l, cw.r)
		must(t, err)
		return testing.AllocsPerRun(3, func() { dst = s.QueryAll(dst[:0]) }), len(dst)
	}
	for _, gen := range []func(int) string{
		func(k int) string { return rep("*", " ~ ", k) },
		func(k int) string { return "*:has(" + strings.Repeat("+ * ", k) + ")" },
		func(k int) string { return ":not(" + rep("*", " ~ ", k) + ")" },
		func(k int) string { return rep("* + .a", " ~ ", k/2) },
	} {
		a100, _ := allocs(gen(100))
		aLong, m := allocs(gen(long))
		if aLong > a100 || aLong > 8 {
			t.Errorf("%.20q: %v allocations per call for %d steps, %v for 100", gen(100), aLong, long, a100)
		}
		if m == 0 || m == n {
			t.Errorf("%.20q: %d matches for %d steps", gen(100), m, long)
		}
	}
}

// TestLongChainMatches checks the single-entity entry points on a long
// chain: Matches and QueryFrom agree with QueryAll.
func TestLongChainMatches(t *testing.T) {
	w, r := newRegistry(t)
	root := w.NewEntity()
	var es []ecs.Entity
	for i := range 300 {
		e := w.NewEntity()
		must(t, w.SetParent(e, root))
		setABClasses(t, r, e, i)
		es = append(es, e)
	}
	for _, src := range []string{
		rep("*", " ~ ", 100), rep(".a", " ~ ", 100), rep("*", " + ", 100), ":has(" + strings.Repeat("~ .b ", 60) + ")",
	} {
		s := selector.MustCompile(src, r)
		all := s.QueryAll(nil)
		in := map[ecs.Entity]bool{}
		for _, e := range all {
			in[e] = true
		}
		for _, e := range es {
			if s.Matches(e) != in[e] {
				t.Fatalf("%.20q: Matches(%v) = %v, QueryAll says %v", src, e, !in[e], in[e])
			}
		}
		if from := s.QueryFrom(root, nil); fmt.Sprint(from) != fmt.Sprint(all) {
			t.Errorf("%.20q: QueryFrom(root) %d matches, QueryAll %d", src, len(from), len(all))
		}
	}
}
