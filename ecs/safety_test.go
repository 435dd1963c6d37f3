package ecs

// Tests of misuse: handles of other Worlds, panics inside locked code,
// Query copies, and unregistered IDs, negative counts and bad handles
// across the whole API.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// catch runs fn and returns what it panicked with (nil if it returned).
func catch(fn func()) (v any) {
	defer func() { v = recover() }()
	fn()
	return nil
}

// mustPanicECS runs fn and fails unless it panics with a string that starts
// with "ecs: " and contains want (a runtime error is a failure too).
func mustPanicECS(t *testing.T, what, want string, fn func()) {
	t.Helper()
	v := catch(fn)
	if v == nil {
		t.Fatalf("%s: did not panic", what)
	}
	if re, ok := v.(runtime.Error); ok {
		t.Fatalf("%s: runtime error %v", what, re)
	}
	s, ok := v.(string)
	if !ok {
		t.Fatalf("%s: panicked with %T %v, want an ecs: message", what, v, v)
	}
	if !strings.HasPrefix(s, "ecs: ") || !strings.Contains(s, want) {
		t.Fatalf("%s: panic %q, want an ecs: message containing %q", what, s, want)
	}
}

// withTag creates a World whose tag is tag. Tags only ever grow, so tests
// move the counter forwards, never back (no tag is handed out twice).
func withTag(t *testing.T, tag uint64) *World {
	t.Helper()
	if cur := worldTags.Load(); cur >= tag {
		t.Fatalf("tag %d already used (counter at %d)", tag, cur)
	}
	worldTags.Store(tag - 1)
	w := NewWorld()
	if w.tag != tag {
		t.Fatalf("tag %d, want %d", w.tag, tag)
	}
	return w
}

// sameHandle builds in w an entity with the same index and generation as
// h (index 0, generation 1: the first entity of a fresh World).
func sameHandle(t *testing.T, w *World) (Map[pos], Entity) {
	t.Helper()
	p := MustRegister[pos](w, "pos")
	e := w.NewEntity(p.ID())
	mustNil(t, p.Set(e, pos{9, 9}))
	if e.Index() != 0 || e.Generation() != 1 {
		t.Fatalf("setup: %v", e)
	}
	return p, e
}

// TestWorldTagNeverWraps: the first World's handle is refused by every
// later World, past the 4,096 Worlds where a 12-bit tag wrapped, and by
// Worlds whose tags agree with its tag in the low 12, 20, 32 or 44 bits.
func TestWorldTagNeverWraps(t *testing.T) {
	first := NewWorld()
	fp, h := sameHandle(t, first)
	refused := func(w *World, p Map[pos], own Entity, what string) {
		t.Helper()
		if w.Alive(h) || p.Get(h) != nil || p.Has(h) || w.Has(h, p.ID()) {
			t.Fatalf("%s: the first World's handle is alive here", what)
		}
		if _, err := w.Get(h, p.ID()); !errors.Is(err, ErrStale) {
			t.Fatalf("%s: Get: %v", what, err)
		}
		if err := w.Destroy(h); !errors.Is(err, ErrStale) {
			t.Fatalf("%s: Destroy: %v", what, err)
		}
		if !w.Alive(own) || *p.Get(own) != (pos{9, 9}) {
			t.Fatalf("%s: own entity touched", what)
		}
	}
	for i := 0; i < 5000; i++ {
		w := NewWorld()
		p, own := sameHandle(t, w)
		refused(w, p, own, fmt.Sprintf("World #%d", i+2))
	}
	base := worldTags.Load() + 1
	for _, step := range []uint64{1 << 12, 1 << 20, 1 << 32, 1 << 44} {
		a := withTag(t, base)
		pa, ha := sameHandle(t, a)
		b := withTag(t, base+step)
		pb, hb := sameHandle(t, b)
		staleOps(t, fixtureOf(t, a, pa), hb)
		staleOps(t, fixtureOf(t, b, pb), ha)
		refused(b, pb, hb, fmt.Sprintf("tag +%#x", step))
		base += step + 1
	}
	if !first.Alive(h) || *fp.Get(h) != (pos{9, 9}) {
		t.Fatal("first World lost its entity")
	}
}

// fixtureOf completes a fixture around a World that has pos registered.
func fixtureOf(t *testing.T, w *World, p Map[pos]) fixture {
	t.Helper()
	f := fixture{w: w, pos: p}
	f.vel = MustRegister[vel](w, "vel")
	f.name = MustRegister[name](w, "name")
	var err error
	if f.enemy, err = w.RegisterTag("enemy"); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWorldTagExhausted: when the tags run out, NewWorld refuses with an
// ecs: panic instead of wrapping to a used tag.
func TestWorldTagExhausted(t *testing.T) {
	old := worldTags.Load()
	defer worldTags.Store(old) // tags above old were never handed out, but the two below
	last := withTag(t, math.MaxUint64)
	mustPanicECS(t, "NewWorld after the last tag", "World tags", func() { NewWorld() })
	mustPanicECS(t, "NewWorld again", "World tags", func() { NewWorld() })
	if worldTags.Load() != math.MaxUint64 || last.tag != math.MaxUint64 {
		t.Fatal("counter moved past its end")
	}
}

// TestHandleOutOfRange: handles with an index past the records, of this
// World or another, are stale, never an index-out-of-range panic.
func TestHandleOutOfRange(t *testing.T) {
	f := newFixture(t)
	f.w.NewEntity(f.pos.ID())
	for _, e := range []Entity{
		{index: 1 << 20, gen: 1, world: f.w.tag},
		{index: math.MaxUint32, gen: math.MaxUint32, world: f.w.tag},
		{index: 0, gen: 0, world: f.w.tag}, // generation 0 is never handed out
		{index: 0, gen: 1, world: 0},
		{index: 0, gen: 1, world: math.MaxUint64},
	} {
		staleOps(t, f, e)
	}
}

// expectUnlocked checks that w is usable after a recovered panic: not
// locked, nothing left queued, Flush allowed, and a structural change
// applied at once.
func expectUnlocked(t *testing.T, w *World, what string) {
	t.Helper()
	if w.Locked() {
		t.Fatalf("%s: World still locked after a recovered panic", what)
	}
	if n := w.Pending(); n != 0 {
		t.Fatalf("%s: %d changes still queued", what, n)
	}
	if v := catch(w.Flush); v != nil {
		t.Fatalf("%s: Flush panicked: %v", what, v)
	}
	e := w.NewEntity()
	mustNil(t, w.Destroy(e))
	if w.Alive(e) {
		t.Fatalf("%s: Destroy deferred although nothing iterates", what)
	}
}

type boom struct{}

// mustBoom runs fn and fails unless it panics with boom{}.
func mustBoom(t *testing.T, what string, fn func()) {
	t.Helper()
	if v := catch(fn); v != (boom{}) {
		t.Fatalf("%s: panic %v, want boom", what, v)
	}
}

// TestPanicInEachUnlocks: a panic in the function given to Each, at every
// arity, releases the lock on the way out, and the changes the function
// made before panicking are applied.
func TestPanicInEachUnlocks(t *testing.T) {
	w := NewWorld()
	type c struct{ V int }
	m := make([]Map[c], 8)
	for i := range m {
		m[i] = MustRegister[c](w, string(rune('a'+i)))
	}
	NewBuilder8(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).NewBatch(3, c{}, c{}, c{}, c{}, c{}, c{}, c{}, c{})
	eachs := []func(func()){
		func(fn func()) { NewFilter1(m[0]).Each(func(Entity, *c) { fn() }) },
		func(fn func()) { NewFilter2(m[0], m[1]).Each(func(Entity, *c, *c) { fn() }) },
		func(fn func()) { NewFilter3(m[0], m[1], m[2]).Each(func(Entity, *c, *c, *c) { fn() }) },
		func(fn func()) { NewFilter4(m[0], m[1], m[2], m[3]).Each(func(Entity, *c, *c, *c, *c) { fn() }) },
		func(fn func()) {
			NewFilter5(m[0], m[1], m[2], m[3], m[4]).Each(func(Entity, *c, *c, *c, *c, *c) { fn() })
		},
		func(fn func()) {
			NewFilter6(m[0], m[1], m[2], m[3], m[4], m[5]).Each(func(Entity, *c, *c, *c, *c, *c, *c) { fn() })
		},
		func(fn func()) {
			NewFilter7(m[0], m[1], m[2], m[3], m[4], m[5], m[6]).Each(func(Entity, *c, *c, *c, *c, *c, *c, *c) { fn() })
		},
		func(fn func()) {
			NewFilter8(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).Each(func(Entity, *c, *c, *c, *c, *c, *c, *c, *c) { fn() })
		},
	}
	for i, each := range eachs {
		what := fmt.Sprintf("Filter%d.Each", i+1)
		victim := w.NewEntity()
		calls := 0
		mustBoom(t, what, func() {
			each(func() {
				calls++
				if calls == 2 {
					mustNil(t, w.Destroy(victim))
					if !w.Alive(victim) {
						t.Fatalf("%s: not locked", what)
					}
					panic(boom{})
				}
			})
		})
		if w.Alive(victim) {
			t.Fatalf("%s: the change made before the panic was not applied", what)
		}
		expectUnlocked(t, w, what)
		// Each still works, and runs to the end.
		calls = 0
		each(func() { calls++ })
		if calls != 3 || w.Locked() {
			t.Fatalf("%s after the panic: %d calls, locked %v", what, calls, w.Locked())
		}
	}
}

// TestPanicInCursorLoopWithDeferClose: the documented way for loops the
// program drives.
func TestPanicInCursorLoopWithDeferClose(t *testing.T) {
	f := newFixture(t)
	w := f.w
	w.NewEntities(5, f.pos.ID(), f.vel.ID())
	victim := w.NewEntity()
	loops := []func(){
		func() {
			q := NewFilter(w, With(f.pos.ID())).Query()
			defer q.Close()
			for q.Next() {
				_ = w.Destroy(victim)
				panic(boom{})
			}
		},
		func() {
			q := NewFilter2(f.pos, f.vel).Query()
			defer q.Close()
			for q.NextTable() {
				_ = w.Destroy(victim)
				panic(boom{})
			}
		},
		func() { // nested: both deferred closes run, innermost first
			q := NewFilter1(f.pos).Query()
			defer q.Close()
			for q.Next() {
				q2 := NewFilter1(f.vel).Query()
				defer q2.Close()
				for q2.Next() {
					_ = w.Destroy(victim)
					panic(boom{})
				}
			}
		},
	}
	for i, loop := range loops {
		what := fmt.Sprintf("loop %d", i)
		mustBoom(t, what, loop)
		if w.Alive(victim) {
			t.Fatalf("%s: deferred Destroy not applied", what)
		}
		expectUnlocked(t, w, what)
		victim = w.NewEntity()
	}
}

// TestPanicInObserverUnlocks: a panicking observer, whatever operation
// and event called it, leaves the World unlocked, and the structural
// change it made before panicking is applied.
func TestPanicInObserverUnlocks(t *testing.T) {
	type op struct {
		name string
		ev   Event
		run  func(f fixture, e, child Entity)
	}
	ops := []op{
		{"NewEntity", EntityCreated, func(f fixture, _, _ Entity) { f.w.NewEntity(f.pos.ID()) }},
		{"NewEntity/added", ComponentAdded, func(f fixture, _, _ Entity) { f.w.NewEntity(f.pos.ID()) }},
		{"NewEntities", EntityCreated, func(f fixture, _, _ Entity) { f.w.NewEntities(3, f.pos.ID()) }},
		{"Builder.New", EntityCreated, func(f fixture, _, _ Entity) { NewBuilder1(f.pos).New(pos{}) }},
		{"Builder.NewBatch", ComponentAdded, func(f fixture, _, _ Entity) { NewBuilder1(f.pos).NewBatch(3, pos{}) }},
		{"Add", ComponentAdded, func(f fixture, e, _ Entity) { _ = f.w.Add(e, f.vel.ID()) }},
		{"AddPtr", ComponentAdded, func(f fixture, e, _ Entity) { _ = f.w.AddPtr(e, f.vel.ID(), nil) }},
		{"AddMany", ComponentAdded, func(f fixture, e, _ Entity) {
			_ = f.w.AddMany(e, []ID{f.vel.ID(), f.name.ID()}, nil)
		}},
		{"Map.Add", ComponentAdded, func(f fixture, e, _ Entity) { _ = f.vel.Add(e, vel{}) }},
		{"Map.Set/add", ComponentAdded, func(f fixture, e, _ Entity) { _ = f.vel.Set(e, vel{}) }},
		{"AddAll", ComponentAdded, func(f fixture, _, _ Entity) { f.w.AddAll(NewFilter(f.w, With(f.pos.ID())), f.vel.ID()) }},
		{"Set", ComponentSet, func(f fixture, e, _ Entity) { _ = f.w.Set(e, f.pos.ID(), pos{1, 1}) }},
		{"Map.Set", ComponentSet, func(f fixture, e, _ Entity) { _ = f.pos.Set(e, pos{1, 1}) }},
		{"MarkChanged", ComponentSet, func(f fixture, e, _ Entity) { _ = f.w.MarkChanged(e, f.pos.ID()) }},
		{"Remove", ComponentRemoved, func(f fixture, e, _ Entity) { _ = f.w.Remove(e, f.pos.ID()) }},
		{"Map.Remove", ComponentRemoved, func(f fixture, e, _ Entity) { _ = f.pos.Remove(e) }},
		{"RemoveAll", ComponentRemoved, func(f fixture, _, _ Entity) {
			f.w.RemoveAll(NewFilter(f.w, With(f.pos.ID())), f.pos.ID())
		}},
		{"Destroy/removed", ComponentRemoved, func(f fixture, e, _ Entity) { _ = f.w.Destroy(e) }},
		{"Destroy/destroyed", EntityDestroyed, func(f fixture, e, _ Entity) { _ = f.w.Destroy(e) }},
		{"Destroy/child", EntityDestroyed, func(f fixture, _, c Entity) {
			p, _ := f.w.Parent(c)
			_ = f.w.Destroy(p)
		}},
		{"DestroyAll", EntityDestroyed, func(f fixture, _, _ Entity) { f.w.DestroyAll(NewFilter(f.w, With(f.pos.ID()))) }},
		{"SetParent/attached", ChildAttached, func(f fixture, e, _ Entity) { _ = f.w.SetParent(f.w.NewEntity(), e) }},
		{"SetParent/detached", ChildDetached, func(f fixture, _, c Entity) { _ = f.w.SetParent(c, Entity{}) }},
		{"InsertChild", ChildAttached, func(f fixture, e, _ Entity) { _ = f.w.InsertChild(e, f.w.NewEntity(), 0) }},
	}
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			f := newFixture(t)
			w := f.w
			e := w.NewEntity(f.pos.ID())
			parent := w.NewEntity(f.pos.ID())
			child := w.NewEntity(f.pos.ID())
			mustNil(t, w.SetParent(child, parent))
			victim := w.NewEntity()
			fired := 0
			w.Observe(o.ev, func(w *World, _ Event, _ Entity, _ ID) {
				fired++
				if fired == 1 {
					mustNil(t, w.Destroy(victim))
					if !w.Alive(victim) {
						t.Fatal("observer runs unlocked")
					}
					panic(boom{})
				}
			})
			mustBoom(t, o.name, func() { o.run(f, e, child) })
			if fired == 0 {
				t.Fatal("observer not called")
			}
			if w.Alive(victim) {
				t.Fatal("the observer's change was not applied")
			}
			expectUnlocked(t, w, o.name)
			// The World still works, observers included.
			before := fired
			w.NewEntity(f.pos.ID(), f.vel.ID())
			_ = w.Destroy(w.NewEntity(f.pos.ID()))
			if o.ev <= ComponentRemoved && fired == before {
				t.Fatal("observer silent afterwards")
			}
		})
	}
}

// TestPanicWhileApplyingDeferred: an observer panics while the changes
// deferred by a loop are applied (at Close). The lock is released; the
// change being applied is abandoned as a direct call would be (the
// entity stays alive: observers of a destroy run before it is freed); the
// changes after it stay queued and Flush applies them.
func TestPanicWhileApplyingDeferred(t *testing.T) {
	f := newFixture(t)
	w := f.w
	es := w.NewEntities(3, f.pos.ID())
	victim := w.NewEntity()
	fired := 0
	w.Observe(EntityDestroyed, func(w *World, _ Event, e Entity, _ ID) {
		fired++
		if fired == 1 {
			_ = w.Destroy(victim)
			panic(boom{})
		}
	})
	mustBoom(t, "Close", func() {
		q := NewFilter1(f.pos).Query()
		defer q.Close()
		for q.Next() {
			_ = w.Destroy(q.Entity())
		}
	})
	if w.Locked() {
		t.Fatal("locked")
	}
	if !w.Alive(es[0]) || !w.Alive(es[1]) || w.Pending() != 3 {
		t.Fatalf("after the panic: alive %v %v, pending %d", w.Alive(es[0]), w.Alive(es[1]), w.Pending())
	}
	w.Flush()
	if w.Pending() != 0 || !w.Alive(es[0]) || w.Alive(es[1]) || w.Alive(es[2]) || w.Alive(victim) {
		t.Fatal("Flush did not apply the rest")
	}
	expectUnlocked(t, w, "after Flush")
}

// TestNewBatchFnPanicUndoes: a panic in the fill function takes the batch
// back: no entity of it stays, observers hear nothing, the lock is gone.
func TestNewBatchFnPanicUndoes(t *testing.T) {
	for _, hier := range []bool{false, true} {
		f := newFixture(t)
		w := f.w
		if hier {
			w.EnableHierarchy()
		}
		keep := NewBuilder2(f.pos, f.vel)
		kept := w.NewEntity(f.pos.ID(), f.vel.ID())
		keep.NewBatch(5, pos{1, 1}, vel{})
		victim := w.NewEntity()
		events := 0
		w.Observe(EntityCreated, func(*World, Event, Entity, ID) { events++ })
		before := w.Len()
		var made []Entity
		mustBoom(t, "NewBatchFn", func() {
			keep.NewBatchFn(10, func(e Entity, p *pos, _ *vel) {
				made = append(made, e)
				*p = pos{7, 7}
				if len(made) == 4 {
					_ = w.Destroy(victim)
					panic(boom{})
				}
			})
		})
		if events != 0 || w.Len() != before-1 {
			t.Fatalf("hier %v: events %d, len %d (want %d)", hier, events, w.Len(), before-1)
		}
		for _, e := range made {
			if w.Alive(e) || f.pos.Get(e) != nil {
				t.Fatalf("hier %v: batch entity %v survived", hier, e)
			}
		}
		if w.Alive(victim) || !w.Alive(kept) {
			t.Fatal("deferred change")
		}
		expectUnlocked(t, w, "NewBatchFn")
		events = 0
		if n := NewFilter2(f.pos, f.vel).Count(); n != 6 {
			t.Fatalf("table holds %d, want 6", n)
		}
		if hier && len(collect(w.Roots())) != w.Len() {
			t.Fatal("roots list keeps undone entities")
		}
		// Slots are reused with new generations; the table is sound.
		keep.NewBatch(10, pos{2, 2}, vel{})
		NewFilter1(f.pos).Each(func(e Entity, p *pos) {
			if *p == (pos{7, 7}) {
				t.Fatal("value of an undone row")
			}
		})
		if events != 10 {
			t.Fatalf("events %d", events)
		}
	}
	// Inside a loop: the entities are made and announced one by one; a
	// panic destroys those made, with the deferred changes.
	f := newFixture(t)
	w := f.w
	w.NewEntities(2, f.vel.ID())
	b := NewBuilder1(f.pos)
	var made []Entity
	q := NewFilter1(f.vel).Query()
	for q.Next() {
		if len(made) == 0 {
			mustBoom(t, "locked NewBatchFn", func() {
				b.NewBatchFn(5, func(e Entity, _ *pos) {
					made = append(made, e)
					if len(made) == 3 {
						panic(boom{})
					}
				})
			})
		}
	}
	if len(made) != 3 || w.Locked() {
		t.Fatal("setup")
	}
	for _, e := range made {
		if w.Alive(e) {
			t.Fatalf("entity %v of the failed batch alive", e)
		}
	}
	expectUnlocked(t, w, "locked NewBatchFn")
}

// TestQueryCopiesAndDoubleClose: closing twice, closing a copy or the
// original after a copy finished never releases another iteration's lock;
// a random mix of opens, copies and closes keeps Locked exact.
func TestQueryCopiesAndDoubleClose(t *testing.T) {
	f := newFixture(t)
	w := f.w
	w.NewEntities(3, f.pos.ID())
	w.NewEntities(3, f.pos.ID(), f.vel.ID())
	filt := NewFilter(w, With(f.pos.ID()))
	typed := NewFilter1(f.pos)

	a := filt.Query()
	a.Next()
	b := a // a copy
	other := typed.Query()
	a.Close()
	b.Close()
	a.Close()
	if !w.Locked() {
		t.Fatal("closing a copy released another iteration's lock")
	}
	c := other
	c.Close()
	other.Close()
	if w.Locked() {
		t.Fatal("still locked")
	}
	var zero Query
	zero.Close()
	var zero1 Query1[pos]
	zero1.Close()
	if zero.Next() || zero1.Next() || w.Locked() {
		t.Fatal("zero queries")
	}

	checkClosedCopies(t, w, filt, typed)
	checkRandomCopies(t, w, filt)
	checkLastCloseApplies(t, w, filt, typed)
}

// checkClosedCopies checks that a closed copy of a query stops, and that a
// copy that ran to its end ended the original.
func checkClosedCopies(t *testing.T, w *World, filt *Filter, typed *Filter1[pos]) {
	t.Helper()
	// A copy still inside a table stops at the next one once closed.
	a := filt.Query()
	a.Next()
	b := a
	a.Close()
	n := 0
	for b.Next() {
		n++
	}
	if n > 2 || w.Locked() {
		t.Fatalf("closed copy went on for %d rows", n)
	}
	ta := typed.Query()
	ta.Next()
	tb := ta
	ta.Close()
	n = 0
	for tb.Next() {
		n++
	}
	if n > 2 || w.Locked() {
		t.Fatalf("closed typed copy went on for %d rows", n)
	}
	// A copy that ran to the end ended the iteration for the original too.
	a = filt.Query()
	b = a
	for b.Next() {
	}
	if w.Locked() || a.Next() {
		t.Fatal("original of a finished copy")
	}
	a.Close()

}

// checkRandomCopies opens, copies and closes queries of filt at random
// against a model of open iterations.
func checkRandomCopies(t *testing.T, w *World, filt *Filter) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	type live struct {
		q  *Query
		it uint64
	}
	var qs []live
	open := map[uint64]bool{}
	for step := 0; step < 2000; step++ {
		switch rng.IntN(4) {
		case 0:
			q := filt.Query()
			qs = append(qs, live{&q, q.id})
			open[q.id] = true
		case 1:
			if len(qs) > 0 {
				l := qs[rng.IntN(len(qs))]
				cp := *l.q
				qs = append(qs, live{&cp, l.it})
			}
		case 2, 3:
			if len(qs) > 0 {
				i := rng.IntN(len(qs))
				qs[i].q.Close()
				delete(open, qs[i].it)
				if rng.IntN(2) == 0 {
					qs = append(qs[:i], qs[i+1:]...)
				}
			}
		}
		if w.Locked() != (len(open) > 0) || w.locks != len(open) || len(w.open) != len(open) {
			t.Fatalf("step %d: locks %d, open %d, model %d", step, w.locks, len(w.open), len(open))
		}
	}
	for _, l := range qs {
		l.q.Close()
	}
	if w.Locked() {
		t.Fatal("locked at the end")
	}
}

// checkLastCloseApplies checks that deferred changes wait for the last
// iteration, however closed.
func checkLastCloseApplies(t *testing.T, w *World, filt *Filter, typed *Filter1[pos]) {
	t.Helper()
	e := w.NewEntity()
	q1, q2 := filt.Query(), typed.Query()
	q1c := q1
	mustNil(t, w.Destroy(e))
	q1.Close()
	q1c.Close()
	if !w.Alive(e) {
		t.Fatal("applied while an iteration is open")
	}
	q2.Close()
	if w.Alive(e) {
		t.Fatal("not applied at the last close")
	}
}

// noBigAlloc runs fn and fails if it allocated more than 1 MiB.
func noBigAlloc(t *testing.T, what string, fn func()) {
	t.Helper()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	fn()
	runtime.ReadMemStats(&b)
	if d := b.TotalAlloc - a.TotalAlloc; d > 1<<20 {
		t.Fatalf("%s: allocated %d bytes", what, d)
	}
}

// How an API reports an ID that is not registered: an error wrapping
// ErrUnknownComponent, a panic with an ecs: message, or (documented) as
// absence.
const (
	reportsError   = "error"
	reportsPanic   = "panic"
	reportsAbsence = "absent"
)

// unregisteredCall is an API called with an unregistered id, on a live
// entity e with only pos, and how it must report the id.
type unregisteredCall struct {
	name string
	want string // reportsError, reportsPanic or reportsAbsence
	fn   func(f fixture, e Entity, id ID) error
}

// TestUnregisteredIDs runs every exported function that takes a component
// ID with IDs that are not registered: each returns an error wrapping
// ErrUnknownComponent, reports absence where documented, or panics with
// an ecs: message; never a runtime error or a large allocation.
func TestUnregisteredIDs(t *testing.T) {
	for _, c := range unregisteredCalls() {
		for _, mk := range []func(f fixture) ID{
			func(f fixture) ID { return ID(f.w.NumComponents()) }, // the next ID
			func(fixture) ID { return 1000 },
			func(fixture) ID { return MaxComponents },
			func(fixture) ID { return 1 << 31 },
			func(fixture) ID { return math.MaxUint32 },
		} {
			checkUnregistered(t, c, mk)
		}
	}
}

// checkUnregistered calls c with the id mk gives, on a fresh fixture, and
// checks that c reports it as it must, without a large allocation, and
// leaves the World and the entity as they were.
func checkUnregistered(t *testing.T, c unregisteredCall, mk func(fixture) ID) {
	t.Helper()
	f := newFixture(t)
	e := f.w.NewEntity(f.pos.ID())
	id := mk(f)
	what := fmt.Sprintf("%s(%d)", c.name, id)
	var err error
	noBigAlloc(t, what, func() {
		switch c.want {
		case reportsPanic:
			mustPanicECS(t, what, "not registered", func() { err = c.fn(f, e, id) })
		default:
			if v := catch(func() { err = c.fn(f, e, id) }); v != nil {
				t.Fatalf("%s: panicked: %v", what, v)
			}
		}
	})
	switch c.want {
	case reportsError:
		if !errors.Is(err, ErrUnknownComponent) || !strings.HasPrefix(err.Error(), "ecs: ") {
			t.Fatalf("%s: error %v, want ErrUnknownComponent", what, err)
		}
	case reportsAbsence:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if f.w.Locked() || f.w.Pending() != 0 || f.w.NumComponents() != 4 {
		t.Fatalf("%s: World left locked or changed", what)
	}
	if !f.w.Alive(e) || !reflect.DeepEqual(f.w.Components(e), []ID{f.pos.ID()}) {
		t.Fatalf("%s: entity changed", what)
	}
}

// unregisteredCalls lists the APIs that take a component ID.
func unregisteredCalls() []unregisteredCall {
	pid := func(f fixture) ID { return f.pos.ID() }
	return []unregisteredCall{
		{"World.Changes", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.Changes(id); return nil }},
		{"World.NewEntity", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.NewEntity(pid(f), id); return nil }},
		{"World.NewEntities", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.NewEntities(2, id); return nil }},
		{"World.Has", reportsPanic, func(f fixture, e Entity, id ID) error { f.w.Has(e, id); return nil }},
		{"World.Has/stale", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.Has(Entity{}, id); return nil }},
		{"World.GetPtr", reportsError, func(f fixture, e Entity, id ID) error { _, err := f.w.GetPtr(e, id); return err }},
		{"World.Get", reportsError, func(f fixture, e Entity, id ID) error { _, err := f.w.Get(e, id); return err }},
		{"World.Set", reportsError, func(f fixture, e Entity, id ID) error { return f.w.Set(e, id, 1) }},
		{"World.SetPtr", reportsError, func(f fixture, e Entity, id ID) error { return f.w.SetPtr(e, id, nil) }},
		{"World.MarkChanged", reportsError, func(f fixture, e Entity, id ID) error { return f.w.MarkChanged(e, id) }},
		{"World.Add", reportsError, func(f fixture, e Entity, id ID) error { return f.w.Add(e, f.vel.ID(), id) }},
		{"World.AddPtr", reportsError, func(f fixture, e Entity, id ID) error { return f.w.AddPtr(e, id, nil) }},
		{"World.AddMany", reportsError, func(f fixture, e Entity, id ID) error { return f.w.AddMany(e, []ID{f.vel.ID(), id}, nil) }},
		{"World.Remove", reportsError, func(f fixture, e Entity, id ID) error { return f.w.Remove(e, pid(f), id) }},
		{"World.AddAll", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.AddAll(NewFilter(f.w), id); return nil }},
		{"World.RemoveAll", reportsPanic, func(f fixture, _ Entity, id ID) error { f.w.RemoveAll(NewFilter(f.w), id); return nil }},
		{"World.ObserveComponent", reportsPanic, func(f fixture, _ Entity, id ID) error {
			f.w.ObserveComponent(ComponentAdded, id, func(*World, Event, Entity, ID) {})
			return nil
		}},
		{"World.ComponentInfo", reportsAbsence, func(f fixture, _ Entity, id ID) error {
			if _, ok := f.w.ComponentInfo(id); ok {
				return errors.New("found")
			}
			return nil
		}},
		{"World.ComponentName", reportsAbsence, func(f fixture, _ Entity, id ID) error {
			if f.w.ComponentName(id) != "" {
				return errors.New("found")
			}
			return nil
		}},
		{"NewMap", reportsPanic, func(f fixture, _ Entity, id ID) error { NewMap[pos](f.w, id); return nil }},
		{"NewFilter/With", reportsPanic, func(f fixture, _ Entity, id ID) error { NewFilter(f.w, With(pid(f), id)); return nil }},
		{"NewFilter/Without", reportsPanic, func(f fixture, _ Entity, id ID) error { NewFilter(f.w, Without(id)); return nil }},
		{"NewFilter/AnyOf", reportsPanic, func(f fixture, _ Entity, id ID) error { NewFilter(f.w, AnyOf(pid(f), id)); return nil }},
		{"NewFilter1/Without", reportsPanic, func(f fixture, _ Entity, id ID) error { NewFilter1(f.pos, Without(id)); return nil }},
		{"NewFilter2/AnyOf", reportsPanic, func(f fixture, _ Entity, id ID) error { NewFilter2(f.pos, f.vel, AnyOf(id)); return nil }},
		{"NewFilterMasks/all", reportsPanic, func(f fixture, _ Entity, id ID) error {
			NewFilterMasks(f.w, maskUnchecked(id), Mask{}, Mask{})
			return nil
		}},
		{"NewFilterMasks/none", reportsPanic, func(f fixture, _ Entity, id ID) error {
			NewFilterMasks(f.w, Mask{}, maskUnchecked(id), Mask{})
			return nil
		}},
		{"NewFilterMasks/any", reportsPanic, func(f fixture, _ Entity, id ID) error {
			NewFilterMasks(f.w, Mask{}, Mask{}, maskUnchecked(id))
			return nil
		}},
		{"NewBuilder1/extra", reportsPanic, func(f fixture, _ Entity, id ID) error { NewBuilder1(f.pos, id); return nil }},
		{"NewBuilder3/extra", reportsPanic, func(f fixture, _ Entity, id ID) error {
			NewBuilder3(f.pos, f.vel, f.name, f.enemy, id)
			return nil
		}},
		{"Query.Has", reportsPanic, func(f fixture, _ Entity, id ID) error {
			return inQuery(f, func(q *Query) { q.Has(id) })
		}},
		{"Query.Ptr", reportsPanic, func(f fixture, _ Entity, id ID) error {
			return inQuery(f, func(q *Query) { q.Ptr(id) })
		}},
		{"Query.ColumnPtr", reportsPanic, func(f fixture, _ Entity, id ID) error {
			return inQuery(f, func(q *Query) { q.ColumnPtr(id) })
		}},
		{"Column", reportsPanic, func(f fixture, _ Entity, id ID) error {
			return inQuery(f, func(q *Query) { Column[pos](q, id) })
		}},
	}
}

// maskUnchecked builds the Mask {id} for ids up to the ID range, as a
// Mask from another World could hold; Mask.With refuses ids beyond it.
func maskUnchecked(id ID) Mask {
	if id < MaxComponents {
		return MaskOf(id)
	}
	return MaskOf(MaxComponents - 1)
}

// inQuery runs fn on a query positioned on an entity with only pos.
func inQuery(f fixture, fn func(q *Query)) error {
	q := NewFilter(f.w, With(f.pos.ID())).Query()
	defer q.Close()
	if !q.Next() {
		return errors.New("no entity")
	}
	fn(&q)
	return nil
}

// TestMaskRange: Mask refuses IDs beyond MaxComponents instead of
// allocating a bitset that large; reads of such IDs allocate nothing.
func TestMaskRange(t *testing.T) {
	for _, id := range []ID{MaxComponents, MaxComponents + 1, 1 << 31, math.MaxUint32} {
		noBigAlloc(t, "Mask", func() {
			mustPanicECS(t, "MaskOf", "out of range", func() { MaskOf(id) })
			mustPanicECS(t, "Mask.With", "out of range", func() { MaskOf(1).With(id) })
			m := MaskOf(1, 2)
			if m.Has(id) || !m.Without(id).Equal(m) {
				t.Fatal("Has/Without")
			}
		})
	}
	top := MaskOf(MaxComponents - 1)
	if !top.Has(MaxComponents-1) || top.Len() != 1 {
		t.Fatal("top ID")
	}
	if id, ok := top.max(); !ok || id != MaxComponents-1 {
		t.Fatal("max")
	}
	if _, ok := (Mask{}).max(); ok {
		t.Fatal("max of empty")
	}
	if id, _ := MaskOf(0, 5, 64, 200).max(); id != 200 {
		t.Fatalf("max %d", id)
	}
}

// TestRegisterLimits: MaxComponents and MaxRuntimeSize are refused with
// errors.
func TestRegisterLimits(t *testing.T) {
	w := NewWorld()
	for i := 0; i < MaxComponents; i++ {
		if _, err := w.RegisterTag(fmt.Sprint("t", i)); err != nil {
			t.Fatalf("tag %d: %v", i, err)
		}
	}
	for _, reg := range []func() (ID, error){
		func() (ID, error) { return w.RegisterTag("one more") },
		func() (ID, error) { m, err := Register[pos](w, "one more"); return m.ID(), err },
		func() (ID, error) { return w.RegisterBytes("one more", 4, 4) },
	} {
		if _, err := reg(); err == nil || !strings.Contains(err.Error(), "MaxComponents") {
			t.Fatalf("component %d: %v", MaxComponents+1, err)
		}
	}
	if w.NumComponents() != MaxComponents {
		t.Fatal("count")
	}
	w = NewWorld()
	for _, size := range []uintptr{MaxRuntimeSize + 1, 1 << 40, math.MaxUint64} {
		noBigAlloc(t, "RegisterBytes", func() {
			if _, err := w.RegisterBytes("big", size, 8); err == nil || !strings.HasPrefix(err.Error(), "ecs: ") {
				t.Fatalf("RegisterBytes(%d): %v", size, err)
			}
		})
	}
	if _, err := w.RegisterType("big", reflect.ArrayOf(MaxRuntimeSize+1, reflect.TypeFor[byte]())); err == nil {
		t.Fatal("RegisterType over the limit")
	}
	if _, err := w.RegisterBytes("max", MaxRuntimeSize, 8); err != nil {
		t.Fatal(err)
	}
}

// TestCountsAndArguments: negative counts, counts beyond the entity limit,
// bad event kinds, nil functions and filters of another World are errors
// or ecs: panics, never runtime errors or huge allocations.
func TestCountsAndArguments(t *testing.T) {
	f := newFixture(t)
	w := f.w
	g := newFixture(t)
	b1 := NewBuilder1(f.pos)
	b2 := NewBuilder2(f.pos, f.vel)
	e := w.NewEntity(f.pos.ID())
	panics := []struct {
		name, want string
		fn         func()
	}{
		{"NewEntities(-1)", "negative count -1", func() { w.NewEntities(-1) }},
		{"NewEntities(MinInt)", "negative count", func() { w.NewEntities(math.MinInt, f.pos.ID()) }},
		{"NewEntities(MaxInt)", "at most", func() { w.NewEntities(math.MaxInt) }},
		{"NewEntities(2^32)", "at most", func() { w.NewEntities(1 << 32) }},
		{"NewBatch(-1)", "negative count", func() { b1.NewBatch(-1, pos{}) }},
		{"NewBatch(MaxInt)", "at most", func() { b2.NewBatch(math.MaxInt, pos{}, vel{}) }},
		{"NewBatchFn(-5)", "negative count", func() { b2.NewBatchFn(-5, nil) }},
		{"NewBatchFn(2^32) locked", "at most", func() {
			q := NewFilter(w).Query()
			defer q.Close()
			b1.NewBatchFn(1<<32, nil)
		}},
		{"Observe(bad event)", "unknown event", func() { w.Observe(numEvents, func(*World, Event, Entity, ID) {}) }},
		{"Observe(255)", "unknown event", func() { w.Observe(255, func(*World, Event, Entity, ID) {}) }},
		{"Observe(nil)", "nil observer", func() { w.Observe(EntityCreated, nil) }},
		{"ObserveComponent(nil)", "nil observer", func() { w.ObserveComponent(ComponentSet, f.pos.ID(), nil) }},
		{"ObserveComponent(event)", "not a component event", func() {
			w.ObserveComponent(EntityCreated, f.pos.ID(), func(*World, Event, Entity, ID) {})
		}},
		{"Defer(nil)", "nil function", func() { w.Defer(nil) }},
		{"DestroyAll(nil)", "nil filter", func() { w.DestroyAll(nil) }},
		{"DestroyAll(foreign)", "another World", func() { w.DestroyAll(NewFilter(g.w)) }},
		{"AddAll(foreign)", "another World", func() { w.AddAll(NewFilter(g.w), f.vel.ID()) }},
		{"RemoveAll(nil)", "nil filter", func() { w.RemoveAll(nil, f.vel.ID()) }},
		{"NewFilter(nil World)", "nil World", func() { NewFilter(nil) }},
		{"NewFilter(nil option)", "nil option", func() { NewFilter(w, nil) }},
		{"NewFilterMasks(nil World)", "nil World", func() { NewFilterMasks(nil, Mask{}, Mask{}, Mask{}) }},
		{"NewFilter2(two Worlds)", "another World", func() { NewFilter2(f.pos, g.vel) }},
		{"NewFilter1(zero Map)", "zero Map", func() { NewFilter1(Map[pos]{}) }},
		{"NewBuilder2(two Worlds)", "another World", func() { NewBuilder2(f.pos, g.vel) }},
		{"NewBuilder2(zero Map)", "zero Map", func() { NewBuilder2(f.pos, Map[vel]{}) }},
		{"Column(wrong type)", "holds", func() { _ = inQuery(f, func(q *Query) { Column[vel](q, f.pos.ID()) }) }},
	}
	for _, p := range panics {
		noBigAlloc(t, p.name, func() { mustPanicECS(t, p.name, p.want, p.fn) })
		if w.Locked() || w.Len() != 1 || g.w.Len() != 0 {
			t.Fatalf("%s: World changed", p.name)
		}
	}
	// Zero counts are no-ops.
	if len(w.NewEntities(0, f.pos.ID())) != 0 {
		t.Fatal("NewEntities(0)")
	}
	b1.NewBatch(0, pos{})
	b2.NewBatchFn(0, func(Entity, *pos, *vel) { t.Fatal("called") })
	if w.Len() != 1 {
		t.Fatal("zero counts created entities")
	}
	// InsertChild: an index below -1 is an error; -1 and past the end
	// append.
	c := w.NewEntity()
	for _, idx := range []int{-2, -100, math.MinInt} {
		if err := w.InsertChild(e, c, idx); err == nil || !strings.HasPrefix(err.Error(), "ecs: ") {
			t.Fatalf("InsertChild index %d: %v", idx, err)
		}
	}
	if _, ok := w.Parent(c); ok {
		t.Fatal("refused InsertChild applied")
	}
	mustNil(t, w.InsertChild(e, c, math.MaxInt))
	d := w.NewEntity()
	mustNil(t, w.InsertChild(e, d, -1))
	if kids := w.Children(e); len(kids) != 2 || kids[0] != c || kids[1] != d {
		t.Fatalf("children %v", kids)
	}
	// Column with the right type works, and a tag's column is typed too.
	_ = inQuery(f, func(q *Query) {
		if len(Column[pos](q, f.pos.ID())) != q.Len() || Column[vel](q, f.vel.ID()) != nil {
			t.Fatal("Column")
		}
	})
}

// destroyForest returns a forest: 4 roots, each with 3 children, each
// with 2 grandchildren, in the order made. The walks below destroy the
// doomed entities of it (doomedIn) as they visit them.
func destroyForest(t *testing.T) (*World, []Entity) {
	t.Helper()
	w := NewWorld()
	w.EnableHierarchy()
	var all []Entity
	for r := 0; r < 4; r++ {
		root := w.NewEntity()
		all = append(all, root)
		for c := 0; c < 3; c++ {
			ch := w.NewEntity()
			mustNil(t, w.SetParent(ch, root))
			all = append(all, ch)
			for g := 0; g < 2; g++ {
				gc := w.NewEntity()
				mustNil(t, w.SetParent(gc, ch))
				all = append(all, gc)
			}
		}
	}
	return w, all
}

// doomedIn reports whether e's number in all is divisible by 3.
func doomedIn(all []Entity, e Entity) bool { return slices.Index(all, e)%3 == 0 }

// expectWalk returns the pre-order of the forest from the entities from,
// skipping the subtrees of doomed entities (they are destroyed when
// visited, with their subtrees).
func expectWalk(w *World, all []Entity, from []Entity) []Entity {
	var out []Entity
	var walk func(es []Entity)
	walk = func(es []Entity) {
		for _, e := range es {
			out = append(out, e)
			if !doomedIn(all, e) {
				walk(w.Children(e))
			}
		}
	}
	walk(from)
	return out
}

// checkVisited fails the test if a walk visited got, not want.
func checkVisited(t *testing.T, what string, got, want []Entity) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: visited %v, want %v", what, got, want)
	}
}

// TestWalksWhileTheBodyDestroys: the common pattern of destroying entities
// from inside a hierarchy walk visits every entity outside the destroyed
// subtrees exactly once, in document order, never a runtime error.
func TestWalksWhileTheBodyDestroys(t *testing.T) {
	w, all := destroyForest(t)
	want := expectWalk(w, all, collect(w.Roots()))
	var got []Entity
	for e := range w.All() {
		got = append(got, e)
		if doomedIn(all, e) {
			mustNil(t, w.Destroy(e))
		}
	}
	checkVisited(t, "All", got, want)

	w, all = destroyForest(t)
	top := all[1] // a child of the first root, not doomed
	want = expectWalk(w, all, w.Children(top))
	got = nil
	for e := range w.Descendants(top) {
		got = append(got, e)
		if doomedIn(all, e) {
			mustNil(t, w.Destroy(e))
		}
	}
	checkVisited(t, "Descendants", got, want)

	w, all = destroyForest(t)
	want = w.Children(all[0])
	got = nil
	for e := range w.ChildrenSeq(all[0]) {
		got = append(got, e)
		mustNil(t, w.Destroy(e))
	}
	checkVisited(t, "ChildrenSeq", got, want)

	w, all = destroyForest(t)
	want = collect(w.Roots())
	got = nil
	for e := range w.Roots() {
		got = append(got, e)
		mustNil(t, w.Destroy(e))
	}
	checkVisited(t, "Roots", got, want)
	if w.Len() != 0 {
		t.Fatal("left entities")
	}

}

// Destroying the walk's own top ends the walk.
func TestWalkEndsWhenItsTopIsDestroyed(t *testing.T) {
	w, all := destroyForest(t)
	n := 0
	for range w.Descendants(all[0]) {
		n++
		mustNil(t, w.Destroy(all[0]))
	}
	if n != 1 {
		t.Fatalf("walk under a destroyed top went on for %d", n)
	}

}

// Destroying the current entity and the one after it, and creating an
// entity in the freed slot: the walk goes on after both.
func TestWalkGoesOnAfterDestroyingTheNext(t *testing.T) {
	w, _ := destroyForest(t)
	roots := collect(w.Roots())
	var got []Entity
	var fresh Entity
	for e := range w.Roots() {
		got = append(got, e)
		if e == roots[0] {
			mustNil(t, w.Destroy(roots[1]))
			mustNil(t, w.Destroy(e))
			fresh = w.NewEntity() // reuses a freed slot, appended as the last root
		}
	}
	checkVisited(t, "Roots after destroying two", got, []Entity{roots[0], roots[2], roots[3], fresh})

}

// Moving an ancestor of the current entity out of a Descendants walk: the
// walk goes on after that ancestor's old place.
func TestWalkAfterMovingAnAncestorOut(t *testing.T) {
	w, all := destroyForest(t)
	top := all[0] // first root
	kids := w.Children(top)
	var got []Entity
	for e := range w.Descendants(top) {
		got = append(got, e)
		if e == w.Children(kids[0])[0] { // first grandchild
			mustNil(t, w.SetParent(kids[0], Entity{}))
		}
	}
	want := append([]Entity{kids[0], w.Children(kids[0])[0]}, expectAll(w, kids[1:])...)
	checkVisited(t, "Descendants after moving an ancestor out", got, want)
	for _, e := range got {
		if e != kids[0] && e != w.Children(kids[0])[0] && !w.IsAncestor(top, e) {
			t.Fatalf("walk left its tree: %v", e)
		}
	}
}

// expectAll is the pre-order of the subtrees of es.
func expectAll(w *World, es []Entity) []Entity {
	var out []Entity
	for _, e := range es {
		out = append(out, e)
		out = append(out, collect(w.Descendants(e))...)
	}
	return out
}

// TestWalksWhileTheBodyChangesTheTree: random changes from inside every
// kind of walk never cause a runtime error, a dead entity or one outside
// the walked tree.
func TestWalksWhileTheBodyChangesTheTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := 0; round < 300; round++ {
		w := NewWorld()
		p := MustRegister[pos](w, "pos")
		var es []Entity
		for i := 0; i < 30; i++ {
			e := w.NewEntity()
			if len(es) > 0 && rng.IntN(4) != 0 {
				mustNil(t, w.SetParent(e, es[rng.IntN(len(es))]))
			}
			es = append(es, e)
		}
		pick := func() Entity { return es[rng.IntN(len(es))] }
		top := pick()
		kind := rng.IntN(4)
		var seq func(func(Entity) bool)
		var inTree func(e Entity) bool
		switch kind {
		case 0:
			seq, inTree = w.All(), func(Entity) bool { return true }
		case 1:
			seq, inTree = w.Descendants(top), func(e Entity) bool { return w.IsAncestor(top, e) }
		case 2:
			seq, inTree = w.ChildrenSeq(top), func(e Entity) bool { par, ok := w.Parent(e); return ok && par == top }
		case 3:
			seq, inTree = w.Roots(), func(e Entity) bool { _, ok := w.Parent(e); return !ok }
		}
		steps := 0
		v := catch(func() {
			for e := range seq {
				if !w.Alive(e) || !inTree(e) {
					t.Fatalf("round %d kind %d: yielded %v alive %v in tree %v", round, kind, e, w.Alive(e), inTree(e))
				}
				if steps++; steps > 1000 {
					break
				}
				for k := rng.IntN(3); k >= 0; k-- {
					switch rng.IntN(7) {
					case 0:
						_ = w.Destroy(e)
					case 1:
						_ = w.Destroy(pick())
					case 2:
						es = append(es, w.NewEntity())
					case 3:
						_ = w.SetParent(pick(), pick())
					case 4:
						_ = w.InsertChild(pick(), e, rng.IntN(3)-1)
					case 5:
						_ = w.SetParent(e, Entity{})
					case 6:
						_ = p.Set(pick(), pos{})
					}
				}
			}
		})
		if v != nil {
			t.Fatalf("round %d kind %d: panic %v", round, kind, v)
		}
	}
}
