package selector_test

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

type benchTag struct{}

// benchWorld is a flat World of n entities spread evenly over the 16
// signatures made of the tags enemy, alive, t2 and t3; every entity also
// has health with hp = index % 100 (runs of like values, as entities
// made together have) and max scattered over [0, 100) by a hash of the
// index (no runs). rare entities (spread out) carry the
// tag rare.
type benchWorld struct {
	w          *ecs.World
	r          *registry.Registry
	enemy      ecs.ID
	alive      ecs.ID
	health     ecs.ID
	rare       ecs.ID
	n, rareCnt int
}

func newBenchWorld(tb testing.TB, n, rare int) *benchWorld {
	w := ecs.NewWorld()
	r := registry.New(w)
	bw := &benchWorld{w: w, r: r, n: n, rareCnt: rare}
	var tags [4]ecs.ID
	for i, name := range []string{"enemy", "alive", "t2", "t3"} {
		c, err := registry.Register(r, name, registry.Definition[benchTag]{})
		must(tb, err)
		tags[i] = c.ID
	}
	hc, err := registry.Register(r, "health", registry.Definition[health]{})
	must(tb, err)
	rc, err := registry.Register(r, "rare", registry.Definition[benchTag]{})
	must(tb, err)
	bw.enemy, bw.alive, bw.health, bw.rare = tags[0], tags[1], hc.ID, rc.ID
	hm := ecs.NewMap[health](w, hc.ID)
	every := n
	if rare > 0 {
		every = n / rare
	}
	ids := make([]ecs.ID, 0, 6)
	for i := range n {
		ids = append(ids[:0], hc.ID)
		for b := range 4 {
			if i>>b&1 == 1 {
				ids = append(ids, tags[b])
			}
		}
		if rare > 0 && i%every == every/2 {
			ids = append(ids, rc.ID)
		}
		e := w.NewEntity(ids...)
		h := hm.Get(e)
		h.HP = i % 100
		h.Max = int(uint32(i)*2654435761>>7) % 100
	}
	return bw
}

var (
	bigOnce  sync.Once
	bigWorld *benchWorld
)

// big returns the shared 1M-entity World.
func big(b *testing.B) *benchWorld {
	bigOnce.Do(func() { bigWorld = newBenchWorld(b, 1_000_000, 10) })
	return bigWorld
}

// handEnemyNotAlive is the hand-written loop `[enemy]:not([alive])`
// compiles to: a cached filter, table by table.
func handEnemyNotAlive(f *ecs.Filter, dst []ecs.Entity) []ecs.Entity {
	q := f.Query()
	for q.NextTable() {
		n := q.Len()
		for i := range n {
			dst = append(dst, q.EntityAt(i))
		}
	}
	return dst
}

// BenchmarkEnemyNotAlive compares the selector with the hand-written loop
// over the same storage, 1M entities in 16 signatures (250k match).
func BenchmarkEnemyNotAlive(b *testing.B) {
	bw := big(b)
	s := selector.MustCompile("[enemy]:not([alive])", bw.r)
	f := ecs.NewFilter(bw.w, ecs.With(bw.enemy), ecs.Without(bw.alive))
	var dst []ecs.Entity
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			dst = handEnemyNotAlive(f, dst[:0])
		}
		b.ReportMetric(float64(len(dst)), "matches")
	})
	b.Run("QueryAll", func(b *testing.B) {
		for b.Loop() {
			dst = s.QueryAll(dst[:0])
		}
		b.ReportMetric(float64(len(dst)), "matches")
	})
	b.Run("QueryUnordered", func(b *testing.B) {
		for b.Loop() {
			dst = s.QueryUnordered(dst[:0])
		}
	})
	b.Run("Count", func(b *testing.B) {
		for b.Loop() {
			_ = s.Count()
		}
	})
	// ratio runs both in the same loop and reports selector/hand.
	b.Run("ratio", func(b *testing.B) {
		var th, ts time.Duration
		for b.Loop() {
			t0 := time.Now()
			dst = handEnemyNotAlive(f, dst[:0])
			t1 := time.Now()
			dst = s.QueryAll(dst[:0])
			ts += time.Since(t1)
			th += t1.Sub(t0)
		}
		b.ReportMetric(float64(ts)/float64(th), "selector/hand")
	})
	b.Run("ratio-unordered", func(b *testing.B) {
		var th, ts time.Duration
		for b.Loop() {
			t0 := time.Now()
			dst = handEnemyNotAlive(f, dst[:0])
			t1 := time.Now()
			dst = s.QueryUnordered(dst[:0])
			ts += time.Since(t1)
			th += t1.Sub(t0)
		}
		b.ReportMetric(float64(ts)/float64(th), "selector/hand")
	})
}

// BenchmarkFewMatches shows that when few entities match by mask the cost
// follows the matches, not the World: 10 `[rare]` entities in worlds of
// growing size (the document-order index is cached while the World does
// not change structurally).
func BenchmarkFewMatches(b *testing.B) {
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		var bw *benchWorld
		if n == 1_000_000 {
			bw = big(b)
		} else {
			bw = newBenchWorld(b, n, 10)
		}
		s := selector.MustCompile("[rare]", bw.r)
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			var dst []ecs.Entity
			for b.Loop() {
				dst = s.QueryAll(dst[:0])
			}
			if len(dst) != 10 {
				b.Fatalf("%d matches", len(dst))
			}
		})
		s2 := selector.MustCompile("[rare][health.hp>=0]", bw.r)
		b.Run(fmt.Sprintf("value/entities=%d", n), func(b *testing.B) {
			var dst []ecs.Entity
			for b.Loop() {
				dst = s2.QueryAll(dst[:0])
			}
			if len(dst) != 10 {
				b.Fatalf("%d matches", len(dst))
			}
		})
	}
}

// BenchmarkID looks an entity up by id in worlds of growing size.
func BenchmarkID(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		bw := newBenchWorld(b, n, 0)
		i := 0
		for e := range bw.w.All() {
			must(b, bw.r.SetEntityID(e, fmt.Sprint("e", i)))
			i++
		}
		s := selector.MustCompile(fmt.Sprintf("#e%d", n/2), bw.r)
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, ok := s.QueryFirst(); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}

// BenchmarkValue measures value tests per entity against a hand-written
// loop over the packed health column, on the shared World of 1M entities
// in 16 tables (200k match): `[health.hp<20]`, whose matches come in runs
// of neighbours, and under scattered/ `[health.max<20]`, whose matches
// are spread by a hash. The hand loop yields the matches table by table;
// QueryAll yields the same set in document order, QueryUnordered the
// same slice as the hand loop (both checked before timing).
func BenchmarkValue(b *testing.B) {
	bw := big(b)
	f := ecs.NewFilter(bw.w, ecs.With(bw.health))
	// The hand-written loops: the comparison written out, no call per
	// entity.
	handHP := func(dst []ecs.Entity) []ecs.Entity {
		q := f.Query()
		for q.NextTable() {
			hs := ecs.Column[health](&q, bw.health)
			for i := range hs {
				if hs[i].HP < 20 {
					dst = append(dst, q.EntityAt(i))
				}
			}
		}
		return dst
	}
	handMax := func(dst []ecs.Entity) []ecs.Entity {
		q := f.Query()
		for q.NextTable() {
			hs := ecs.Column[health](&q, bw.health)
			for i := range hs {
				if hs[i].Max < 20 {
					dst = append(dst, q.EntityAt(i))
				}
			}
		}
		return dst
	}
	s := selector.MustCompile("[health.hp<20]", bw.r)
	benchValue(b, bw, s, handHP)
	b.Run("Matches", func(b *testing.B) {
		e, _ := selector.MustCompile("[health]", bw.r).QueryFirst()
		for b.Loop() {
			_ = s.Matches(e)
		}
	})
	b.Run("scattered", func(b *testing.B) {
		benchValue(b, bw, selector.MustCompile("[health.max<20]", bw.r), handMax)
	})
}

// benchValue runs hand, QueryAll and QueryUnordered for the value test s,
// whose hand-written loop is hand.
func benchValue(b *testing.B, bw *benchWorld, s *selector.Selector, hand func([]ecs.Entity) []ecs.Entity) {
	checkSameMatches(b, hand(nil), s)
	perEntity := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bw.n), "ns/entity")
	}
	var dst []ecs.Entity
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			dst = hand(dst[:0])
		}
		perEntity(b)
	})
	b.Run("QueryAll", func(b *testing.B) {
		for b.Loop() {
			dst = s.QueryAll(dst[:0])
		}
		perEntity(b)
		b.ReportMetric(float64(len(dst)), "matches")
	})
	b.Run("QueryUnordered", func(b *testing.B) {
		for b.Loop() {
			dst = s.QueryUnordered(dst[:0])
		}
		perEntity(b)
	})
	b.Run("ratio", func(b *testing.B) {
		b.ReportMetric(blockRatio(b, func() { dst = hand(dst[:0]) }, func() { dst = s.QueryAll(dst[:0]) }), "selector/hand")
	})
	b.Run("ratio-unordered", func(b *testing.B) {
		b.ReportMetric(blockRatio(b, func() { dst = hand(dst[:0]) }, func() { dst = s.QueryUnordered(dst[:0]) }), "selector/hand")
	})
}

// blockRatio runs hand and sel in alternating blocks of calls and returns
// the CPU time sel took over the CPU time hand took. The first call of a
// block is left out (it pays for the evictions of the other's data), so
// each is timed with its own data as warm as its own loop leaves it, as
// in a benchmark of its own; the times are the thread's CPU time (see
// threadCPU), and alternating every few milliseconds makes the rest of a
// shared machine's load (its caches, its memory bus) fall on both alike.
func blockRatio(b *testing.B, hand, sel func()) float64 {
	const block = 4
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var th, ts time.Duration
	for b.Loop() {
		hand()
		t0 := threadCPU()
		for range block - 1 {
			hand()
		}
		t1 := threadCPU()
		sel()
		t2 := threadCPU()
		for range block - 1 {
			sel()
		}
		th, ts = th+t1-t0, ts+threadCPU()-t2
	}
	return float64(ts) / float64(th)
}

// checkSameMatches fails b unless QueryUnordered returns exactly want
// (the hand loop's slice, in storage order) and QueryAll the same
// entities in index order (the document order of the flat World).
func checkSameMatches(b *testing.B, want []ecs.Entity, s *selector.Selector) {
	b.Helper()
	if got := s.QueryUnordered(nil); !slices.Equal(got, want) {
		b.Fatalf("%s: QueryUnordered: %d entities, not the hand loop's %d (or not in its order)", s, len(got), len(want))
	}
	sorted := slices.SortedFunc(slices.Values(want), func(x, y ecs.Entity) int { return cmp.Compare(x.Index(), y.Index()) })
	if got := s.QueryAll(nil); !slices.Equal(got, sorted) {
		b.Fatalf("%s: QueryAll: %d entities, not the hand loop's %d in document order", s, len(got), len(sorted))
	}
}

// BenchmarkDeepChain runs `.b .a .a .a .a .a .a .a .a` on a 40-deep chain
// of `.a` entities (no `.b`), the case that is exponential when matching
// backtracks.
func BenchmarkDeepChain(b *testing.B) {
	w, r := newRegistry(b)
	var parent ecs.Entity
	for range 40 {
		e := w.NewEntity()
		if !parent.IsZero() {
			must(b, w.SetParent(e, parent))
		}
		must(b, r.SetClasses(e, []string{"a"}))
		parent = e
	}
	s := selector.MustCompile(".b .a .a .a .a .a .a .a .a", r)
	for b.Loop() {
		s.QueryAll(nil)
	}
}

// BenchmarkRebuildIndex measures the document-order index rebuild that
// the first ordered query after a structural change pays: one walk of the
// World.
func BenchmarkRebuildIndex(b *testing.B) {
	bw := big(b)
	s := selector.MustCompile("[enemy]:not([alive])", bw.r)
	var dst []ecs.Entity
	e := bw.w.NewEntity()
	for b.Loop() {
		must(b, bw.w.Add(e, bw.rare)) // a structural change
		dst = s.QueryAll(dst[:0])
		must(b, bw.w.Remove(e, bw.rare))
	}
}

// BenchmarkLongChain runs selectors of the long-chain family on 10,000
// siblings: 1,000 `~` steps (17 s and 1.1 GB per call before set-at-a-time
// evaluation), 1,000 `+` steps, and `*:has(~ .z)` (quadratic before).
func BenchmarkLongChain(b *testing.B) {
	w, r := newRegistry(b)
	root := w.NewEntity()
	for i := range 10_000 {
		e := w.NewEntity()
		must(b, w.SetParent(e, root))
		if i%2 == 0 {
			must(b, r.SetClasses(e, []string{"a"}))
		}
	}
	for _, tc := range []struct{ name, src string }{
		{"~x1000", strings.Repeat("* ~ ", 999) + "*"},
		{".a+x1000", strings.Repeat(".a + ", 799) + ".a"},
		{"has(~.z)", "*:has(~ .z)"},
	} {
		s := selector.MustCompile(tc.src, r)
		var dst []ecs.Entity
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dst = s.QueryAll(dst[:0])
			}
		})
	}
}
