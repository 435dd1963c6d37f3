package selector_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// This file holds a naive reference matcher: it evaluates a parsed
// selector straight from the definitions, trying every entity of the
// World for every combinator, with no index, no budget and no set; its
// only cache remembers answers of the pure function at() so that long
// chains stay polynomial. It is meant for small worlds only; the engine
// must agree with it on every entity, whichever way it evaluates (right
// to left, set at a time, or switching in the middle of a call).

// refWorld is a small World and a plain model of it: hierarchy, ids,
// classes and the components the reference understands.
type refWorld struct {
	w        *ecs.World
	r        *registry.Registry
	all      []ecs.Entity // document order
	parent   map[ecs.Entity]ecs.Entity
	siblings map[ecs.Entity][]ecs.Entity // the sibling group e belongs to, in order (roots together)
	children map[ecs.Entity][]ecs.Entity
	id       map[ecs.Entity]string
	classes  map[ecs.Entity][]string
	enemy    map[ecs.Entity]bool
	hp       map[ecs.Entity]int // absent: no health
}

// load reads the model from the World once it is built.
func (m *refWorld) load() {
	m.all = slices.Collect(m.w.All())
	m.parent = map[ecs.Entity]ecs.Entity{}
	m.siblings = map[ecs.Entity][]ecs.Entity{}
	m.children = map[ecs.Entity][]ecs.Entity{}
	roots := slices.Collect(m.w.Roots())
	for _, e := range roots {
		m.siblings[e] = roots
	}
	for _, e := range m.all {
		kids := m.w.Children(e)
		m.children[e] = kids
		for _, k := range kids {
			m.parent[k] = e
			m.siblings[k] = kids
		}
	}
}

// newRefWorld builds a random forest of n entities. shape 0 is random,
// 1 flat (all roots), 2 a single deep chain, 3 a few wide parents.
func newRefWorld(t testing.TB, rng *rand.Rand, n, shape int) *refWorld {
	w, r := newRegistry(t)
	m := &refWorld{w: w, r: r, id: map[ecs.Entity]string{}, classes: map[ecs.Entity][]string{},
		enemy: map[ecs.Entity]bool{}, hp: map[ecs.Entity]int{}}
	var es []ecs.Entity
	for i := range n {
		e := w.NewEntity()
		switch {
		case shape == 1 || i == 0:
			if rng.IntN(3) == 0 {
				must(t, w.InsertChild(ecs.Entity{}, e, rng.IntN(i+1)))
			}
		case shape == 2:
			must(t, w.SetParent(e, es[i-1]))
		case shape == 3:
			must(t, w.InsertChild(es[rng.IntN(min(i, 3))], e, rng.IntN(i+1)))
		default:
			if rng.IntN(5) > 0 {
				must(t, w.InsertChild(es[rng.IntN(i)], e, rng.IntN(4)))
			}
		}
		es = append(es, e)
		if rng.IntN(3) > 0 {
			id := "e" + strconv.Itoa(i)
			must(t, r.SetEntityID(e, id))
			m.id[e] = id
		}
		var cls []string
		for _, c := range []string{"a", "b", "c"} {
			if rng.IntN(2) == 0 {
				cls = append(cls, c)
			}
		}
		must(t, r.SetClasses(e, cls))
		m.classes[e] = cls
		if rng.IntN(3) == 0 {
			must(t, r.Set(e, "enemy", ""))
			m.enemy[e] = true
		}
		if rng.IntN(2) == 0 {
			hp := rng.IntN(100)
			must(t, r.Set(e, "health", "hp: "+strconv.Itoa(hp)))
			m.hp[e] = hp
		}
	}
	// Churn: destroy a few, so that slots are reused out of order.
	for range rng.IntN(3) {
		if len(es) > 2 {
			i := rng.IntN(len(es))
			if w.Alive(es[i]) {
				must(t, w.Destroy(es[i]))
			}
		}
	}
	for e := range m.id {
		if !w.Alive(e) {
			delete(m.id, e)
		}
	}
	m.load()
	return m
}

// refCtx is one reference evaluation: the World and the :scope entity.
type refCtx struct {
	m     *refWorld
	scope ecs.Entity // zero: the roots
	memo  map[refKey]bool
}

type refKey struct {
	cx        *selector.Complex
	k         int
	e, anchor ecs.Entity
}

func (c *refCtx) list(l *selector.SelectorList, e ecs.Entity) bool {
	for _, cx := range l.Selectors {
		if c.at(cx, len(cx.Compounds)-1, e, ecs.Entity{}) {
			return true
		}
	}
	return false
}

// at reports whether e matches compound k of cx and, through the
// combinators, some choice of entities matches the compounds before it.
func (c *refCtx) at(cx *selector.Complex, k int, e, anchor ecs.Entity) bool {
	key := refKey{cx, k, e, anchor}
	if v, ok := c.memo[key]; ok {
		return v
	}
	v := c.atSlow(cx, k, e, anchor)
	c.memo[key] = v
	return v
}

func (c *refCtx) atSlow(cx *selector.Complex, k int, e, anchor ecs.Entity) bool {
	cp := cx.Compounds[k]
	if !c.compound(cp, e) {
		return false
	}
	if k == 0 {
		if cp.Combinator == selector.NoCombinator {
			return true
		}
		return c.related(cp.Combinator, anchor, e)
	}
	for _, y := range c.m.all {
		if c.related(cp.Combinator, y, e) && c.at(cx, k-1, y, anchor) {
			return true
		}
	}
	return false
}

// related reports whether e stands in relation comb to y.
func (c *refCtx) related(comb selector.Combinator, y, e ecs.Entity) bool {
	m := c.m
	switch comb {
	case selector.Child:
		p, ok := m.parent[e]
		return ok && p == y
	case selector.Descendant:
		for p, ok := m.parent[e]; ok; p, ok = m.parent[p] {
			if p == y {
				return true
			}
		}
		return false
	case selector.NextSibling, selector.SubsequentSibling:
		sib := m.siblings[e]
		i, j := slices.Index(sib, y), slices.Index(sib, e)
		if i < 0 || j < 0 {
			return false
		}
		if comb == selector.NextSibling {
			return i == j-1
		}
		return i < j
	}
	panic("combinator")
}

func (c *refCtx) compound(cp *selector.Compound, e ecs.Entity) bool {
	for _, s := range cp.Simples {
		if !c.simple(s, e) {
			return false
		}
	}
	return true
}

func (c *refCtx) simple(s selector.Simple, e ecs.Entity) bool {
	m := c.m
	switch s := s.(type) {
	case *selector.ID:
		return m.id[e] == s.Name
	case *selector.Class:
		return slices.Contains(m.classes[e], s.Name)
	case *selector.Attr:
		switch {
		case s.Comp == "enemy" && s.Op == selector.OpExists:
			return m.enemy[e]
		case s.Comp == "health" && s.Op == selector.OpExists:
			_, ok := m.hp[e]
			return ok
		case s.Comp == "health" && s.Prop == "hp" && s.Numeric:
			hp, ok := m.hp[e]
			v, err := strconv.ParseFloat(s.Value, 64)
			if !ok || err != nil {
				return false
			}
			f := float64(hp)
			switch s.Op {
			case selector.OpEq:
				return f == v
			case selector.OpNe:
				return f != v
			case selector.OpLt:
				return f < v
			case selector.OpLe:
				return f <= v
			case selector.OpGt:
				return f > v
			case selector.OpGe:
				return f >= v
			}
		}
		panic(errUnsupported)
	case *selector.Pseudo:
		sib := m.siblings[e]
		i := slices.Index(sib, e)
		switch s.Name {
		case "not":
			return !c.list(s.List, e)
		case "is", "where":
			return c.list(s.List, e)
		case "has":
			for _, cx := range s.List.Selectors {
				for _, d := range m.all {
					if c.at(cx, len(cx.Compounds)-1, d, e) {
						return true
					}
				}
			}
			return false
		case "root":
			_, ok := m.parent[e]
			return !ok
		case "scope":
			if !c.scope.IsZero() {
				return e == c.scope
			}
			_, ok := m.parent[e]
			return !ok
		case "empty":
			return len(m.children[e]) == 0
		case "first-child":
			return i == 0
		case "last-child":
			return i == len(sib)-1
		case "only-child":
			return len(sib) == 1
		case "nth-child", "nth-last-child":
			var counted []ecs.Entity
			for _, x := range sib {
				if s.List == nil || c.list(s.List, x) {
					counted = append(counted, x)
				}
			}
			if s.Name == "nth-last-child" {
				slices.Reverse(counted)
			}
			pos := slices.Index(counted, e) + 1
			if pos == 0 {
				return false
			}
			a, b := s.Nth.A, s.Nth.B
			if a == 0 {
				return pos == b
			}
			d := pos - b
			return d%a == 0 && d/a >= 0
		}
	}
	panic(errUnsupported)
}

var errUnsupported = fmt.Errorf("the reference does not model this selector")

// refSupported reports whether the reference models every simple
// selector of l.
func refSupported(l *selector.SelectorList) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if r != errUnsupported {
				panic(r)
			}
			ok = false
		}
	}()
	var walk func(l *selector.SelectorList)
	walk = func(l *selector.SelectorList) {
		for _, cx := range l.Selectors {
			for _, cp := range cx.Compounds {
				for _, s := range cp.Simples {
					switch s := s.(type) {
					case *selector.Attr:
						if !(s.Comp == "enemy" || s.Comp == "health") || s.Op != selector.OpExists &&
							(s.Comp != "health" || s.Prop != "hp" || !s.Numeric || s.Flag != selector.FlagNone) {
							panic(errUnsupported)
						}
					case *selector.Pseudo:
						if s.List != nil {
							walk(s.List)
						}
					}
				}
			}
		}
	}
	walk(l)
	return true
}

// genSel writes a random selector list over the reference's vocabulary.
// depth bounds the nesting of pseudo-class arguments; inHas forbids
// :has inside :has.
func genSel(rng *rand.Rand, n, depth int, inHas bool) string {
	var b strings.Builder
	k := 1
	if rng.IntN(4) == 0 {
		k = 2
	}
	for i := range k {
		if i > 0 {
			b.WriteString(", ")
		}
		genComplex(&b, rng, n, depth, inHas, false)
	}
	return b.String()
}

var refCombs = []string{" ", " > ", " + ", " ~ "}

// genComplex writes a chain of compounds; relative adds a leading
// combinator. Long chains are likely, to exercise the combinators.
func genComplex(b *strings.Builder, rng *rand.Rand, n, depth int, inHas, relative bool) {
	steps := 1 + rng.IntN(4)
	if rng.IntN(4) == 0 {
		steps += rng.IntN(8)
	}
	if relative && rng.IntN(4) > 0 {
		b.WriteString(strings.TrimSpace(refCombs[rng.IntN(4)]) + " ")
	}
	for i := range steps {
		if i > 0 {
			b.WriteString(refCombs[rng.IntN(len(refCombs))])
		}
		genCompound(b, rng, n, depth, inHas)
	}
}

func genCompound(b *strings.Builder, rng *rand.Rand, n, depth int, inHas bool) {
	parts := 1
	if rng.IntN(3) == 0 {
		parts = 2
	}
	for i := range parts {
		switch r := rng.IntN(20); {
		case r < 4:
			if i == 0 {
				b.WriteString("*") // `*` only leads a compound
			} else {
				b.WriteString(".c")
			}
		case r < 10:
			b.WriteString("." + string(rune('a'+rng.IntN(3))))
		case r < 11:
			fmt.Fprintf(b, "#e%d", rng.IntN(n+1))
		case r < 12:
			b.WriteString("[enemy]")
		case r < 13:
			fmt.Fprintf(b, "[health.hp<%d]", rng.IntN(100))
		case r < 14:
			b.WriteString([]string{":first-child", ":last-child", ":only-child", ":empty", ":root", ":scope"}[rng.IntN(6)])
		case r < 15:
			fmt.Fprintf(b, ":nth-child(%dn+%d)", rng.IntN(3), rng.IntN(3))
		default:
			if depth == 0 {
				b.WriteString(".a")
				continue
			}
			switch rng.IntN(4) {
			case 0:
				b.WriteString(":not(" + genSel(rng, n, depth-1, inHas) + ")")
			case 1:
				b.WriteString(":is(" + genSel(rng, n, depth-1, inHas) + ")")
			case 2:
				if inHas {
					b.WriteString(":where(" + genSel(rng, n, depth-1, inHas) + ")")
					continue
				}
				b.WriteString(":has(")
				genComplex(b, rng, n, depth-1, true, true)
				if rng.IntN(4) == 0 {
					b.WriteString(", ")
					genComplex(b, rng, n, depth-1, true, true)
				}
				b.WriteString(")")
			case 3:
				fmt.Fprintf(b, ":nth-last-child(%dn+%d of %s)", rng.IntN(3), rng.IntN(3), genSel(rng, n, depth-1, inHas))
			}
		}
	}
}

// refBudgets are the right-to-left budgets each comparison runs under:
// the default; none at all (every plan with combinators is evaluated set
// at a time); and a few small ones, which switch in the middle of a call.
var refBudgets = []struct{ scale, slack int }{{1, 64}, {0, 0}, {0, 3}, {0, 17}, {1, 0}}

// checkRef compares every entry point of the compiled selector src with
// the reference on m, under every budget.
func checkRef(t *testing.T, m *refWorld, src string, scope ecs.Entity) {
	t.Helper()
	l, err := selector.Parse(src)
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	if !refSupported(l) {
		t.Skipf("%q: not modelled", src)
	}
	ref := &refCtx{m: m, memo: map[refKey]bool{}}
	var want []ecs.Entity
	for _, e := range m.all {
		if ref.list(l, e) {
			want = append(want, e)
		}
	}
	var wantFrom []ecs.Entity
	if !scope.IsZero() {
		rs := &refCtx{m: m, scope: scope, memo: map[refKey]bool{}}
		for d := range m.w.Descendants(scope) {
			if rs.list(l, d) {
				wantFrom = append(wantFrom, d)
			}
		}
	}
	for _, bg := range refBudgets {
		restore := selector.SetBudget(bg.scale, bg.slack)
		s, err := selector.CompileList(l, m.r)
		if err != nil {
			restore()
			t.Fatalf("%q: %v", src, err)
		}
		fail := func(what string, got, want any) {
			t.Helper()
			t.Errorf("%q (budget %v, %d entities): %s = %v, want %v", src, bg, len(m.all), what, got, want)
		}
		if got := s.QueryAll(nil); !slices.Equal(got, want) {
			fail("QueryAll", got, want)
		}
		if n := s.Count(); n != len(want) {
			fail("Count", n, len(want))
		}
		first, ok := s.QueryFirst()
		if ok != (len(want) > 0) || ok && first != want[0] {
			fail("QueryFirst", first, want)
		}
		un := s.QueryUnordered(nil)
		slices.SortFunc(un, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
		sorted := slices.Clone(want)
		slices.SortFunc(sorted, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
		if !slices.Equal(un, sorted) {
			fail("QueryUnordered", un, sorted)
		}
		for _, e := range m.all {
			if got, w := s.Matches(e), slices.Contains(want, e); got != w {
				fail("Matches("+e.String()+")", got, w)
			}
		}
		if !scope.IsZero() {
			if got := s.QueryFrom(scope, nil); !slices.Equal(got, wantFrom) {
				fail("QueryFrom("+scope.String()+")", got, wantFrom)
			}
		}
		s.Close()
		restore()
	}
}

// TestReferenceRandom compares the engine with the reference matcher on
// random small forests (random, flat, deep and wide shapes) and random
// selectors with long combinator chains, nested :not/:is/:has/:nth-child
// lists and relative :has selectors.
func TestReferenceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 7))
	worlds, sels := 120, 12
	if testing.Short() {
		worlds = 30
	}
	for wi := range worlds {
		n := 1 + rng.IntN(24)
		m := newRefWorld(t, rng, n, wi%4)
		if len(m.all) == 0 {
			continue
		}
		for range sels {
			src := genSel(rng, n, 2, false)
			scope := m.all[rng.IntN(len(m.all))]
			t.Run("", func(t *testing.T) { checkRef(t, m, src, scope) })
		}
	}
}

// TestReferenceChains compares long chains of every combinator and their
// mixes, inside :not/:is/:has and lists, on flat, deep and random worlds.
func TestReferenceChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	srcs := []string{
		strings.Repeat("* ~ ", 40) + "*",
		strings.Repeat("* + ", 40) + "*",
		strings.Repeat("* > ", 40) + "*",
		strings.Repeat("* ", 40) + "*",
		strings.Repeat(".a ~ ", 12) + ".b",
		strings.Repeat(".a + .b ~ ", 6) + ".c",
		strings.Repeat(".a > .b ", 6) + ".c",
		":not(" + strings.Repeat("* ~ ", 35) + "*)",
		":is(" + strings.Repeat(".a + ", 35) + "*)",
		"*:has(" + strings.Repeat("~ * ", 35) + ")",
		"*:has(" + strings.Repeat("+ .a ", 5) + ")",
		":has(~ .b), :has(+ .a)",
		":has(" + strings.Repeat("* ", 34) + "*)",
		":has(> .a ~ .b .c + *)",
		":nth-child(odd of " + strings.Repeat("* ~ ", 34) + "*)",
		strings.Repeat(".a ~ ", 34) + "*, " + strings.Repeat("* + ", 34) + ".c",
		":not(:is(" + strings.Repeat(".a ", 34) + "*) ~ .b)",
	}
	for shape := range 4 {
		for range 4 {
			m := newRefWorld(t, rng, 10+rng.IntN(40), shape)
			if len(m.all) == 0 {
				continue
			}
			for _, src := range srcs {
				scope := m.all[rng.IntN(len(m.all))]
				t.Run("", func(t *testing.T) { checkRef(t, m, src, scope) })
			}
		}
	}
}

// chainSeeds are long combinator chains and their mixes, inside :not,
// :is, :has and lists: the family of issue 11 (1,000 `~` steps took 17 s
// and 1.1 GB), as fuzz seeds.
var chainSeeds = []string{
	rep("*", " ~ ", 60), rep("*", " + ", 60), rep("*", "~", 200), rep("*", " > ", 60),
	rep("*", " ", 60), rep(".a ~ .b", " + ", 20), rep("* > .a ~ * + .b", " ", 10),
	":not(" + rep("*", " ~ ", 40) + ")", ":is(" + rep("*", " + ", 40) + ")",
	"*:has(" + strings.Repeat("~ * ", 40) + ")", "*:has(" + strings.Repeat("+ * ", 40) + ")",
	"*:has(" + strings.Repeat("> * ", 40) + ")", "*:has(" + rep("*", " ", 40) + ")",
	"*:has(~ .z)", "*:has(.z)", ".a:has(+ * ~ .z), .b:has(> .z)",
	rep("*", " ~ ", 30) + ", " + rep("*", " > ", 30),
	":nth-child(odd of " + rep("*", " ~ ", 40) + ")", ":not(:has(" + rep(".a", " ~ ", 40) + "))",
}

// FuzzReference compares the engine with the reference matcher, under
// every budget, on a fixed random forest of 24 entities, for every
// selector the reference models.
func FuzzReference(f *testing.F) {
	for _, s := range chainSeeds {
		f.Add(s)
	}
	for _, tt := range queryTests {
		f.Add(tt.sel)
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for range 20 {
		f.Add(genSel(rng, 24, 2, false))
	}
	m := newRefWorld(f, rand.New(rand.NewPCG(1, 1)), 24, 0)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1024 {
			return // the reference is slow on long selectors
		}
		l, err := selector.Parse(src)
		if err != nil || !refSupported(l) {
			return
		}
		if _, err := selector.CompileList(l, m.r); err != nil {
			return
		}
		checkRef(t, m, src, m.all[len(src)%len(m.all)])
	})
}
