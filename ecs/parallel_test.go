package ecs

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

type pvec struct{ X, Y float64 }

// parallelWorld returns a World with n entities carrying a and b (every
// third also c, in another table), and a filter over a.
func parallelWorld(t *testing.T, n int) (*World, Map[pvec], Map[pvec], ID, *Filter) {
	t.Helper()
	w := NewWorld()
	w.EnableHierarchy()
	a := MustRegister[pvec](w, "a")
	b := MustRegister[pvec](w, "b")
	c, err := w.RegisterTag("c")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ids := []ID{a.ID(), b.ID()}
		if i%3 == 0 {
			ids = append(ids, c)
		}
		e := w.NewEntity(ids...)
		a.Get(e).X = float64(i)
	}
	return w, a, b, c, NewFilter(w, With(a.ID()))
}

// TestFrozenWorldRefusesChanges: while frozen, every call that changes
// the World panics with a message naming it and saying what to do, and
// the World is unchanged afterwards.
func TestFrozenWorldRefusesChanges(t *testing.T) {
	w, a, b, c, f := parallelWorld(t, 10)
	e := w.NewEntity(a.ID())
	kid := w.NewEntity()
	before := w.Version()
	w.Freeze()
	ops := []struct {
		name string
		fn   func()
	}{
		{"creating an entity", func() { w.NewEntity() }},
		{"creating an entity", func() { w.NewEntities(3, a.ID()) }},
		{"creating an entity", func() { NewBuilder1(a).New(pvec{}) }},
		{"Destroy", func() { _ = w.Destroy(e) }},
		{"DestroyAll", func() { w.DestroyAll(f) }},
		{"AddAll/RemoveAll", func() { w.AddAll(f, c) }},
		{"AddAll/RemoveAll", func() { w.RemoveAll(f, c) }},
		{"Add", func() { _ = w.Add(e, b.ID()) }},
		{"AddPtr", func() { _ = w.AddPtr(e, b.ID(), nil) }},
		{"AddMany", func() { _ = w.AddMany(e, []ID{b.ID()}, nil) }},
		{"Remove", func() { _ = w.Remove(e, a.ID()) }},
		{"Set", func() { _ = w.Set(e, a.ID(), pvec{}) }},
		{"SetPtr", func() { _ = w.SetPtr(e, a.ID(), nil) }},
		{"Map.Set", func() { _ = a.Set(e, pvec{}) }},
		{"Map.Add", func() { _ = b.Add(e, pvec{}) }},
		{"MarkChanged", func() { _ = w.MarkChanged(e, a.ID()) }},
		{"Defer", func() { w.Defer(func(*World) {}) }},
		{"Flush", func() { w.Flush() }},
		{"Apply", func() { w.Apply(&Commands{}) }},
		{"SetParent", func() { _ = w.SetParent(kid, e) }},
		{"SetParent", func() { _ = w.InsertChild(e, kid, 0) }},
		{"ChildIndex", func() { w.ChildIndex(kid) }},
		{"registering a component", func() { _, _ = w.RegisterTag("late") }},
		{"NewFilter", func() { NewFilter(w, With(a.ID())) }},
		{"Filter.Close", func() { f.Close() }},
		{"Observe", func() { w.Observe(EntityCreated, func(*World, Event, Entity, ID) {}) }},
		{"ObserveComponent", func() { w.ObserveComponent(ComponentSet, a.ID(), func(*World, Event, Entity, ID) {}) }},
		{"Unobserve", func() { w.Unobserve(1) }},
		{"Freeze", func() { w.Freeze() }},
	}
	for _, op := range ops {
		want := op.name + " while the World is frozen"
		if op.name == "Freeze" {
			want = "already frozen"
		}
		mustPanicECS(t, op.name, want, op.fn)
	}
	w.Thaw()
	if w.Version() != before || !w.Alive(e) || w.Has(e, b.ID()) || w.Pending() != 0 {
		t.Errorf("the frozen World changed: version %d -> %d", before, w.Version())
	}
	mustPanicECS(t, "Thaw", "not frozen", w.Thaw)
	// Thawed, the same calls work again.
	if err := w.Add(e, b.ID()); err != nil {
		t.Fatal(err)
	}
}

// TestFrozenQueriesShareTheLock: queries opened while frozen leave the
// lock bookkeeping alone (so goroutines can open them at once), may be
// closed in any order, and end when the World thaws.
func TestFrozenQueriesShareTheLock(t *testing.T) {
	w, _, _, _, f := parallelWorld(t, 6)
	w.Freeze()
	q1, q2 := f.Query(), f.Query()
	if w.Locked() && len(w.open) != 0 {
		t.Errorf("frozen queries took locks: open %v", w.open)
	}
	if !q1.Next() || !q2.Next() {
		t.Fatal("frozen queries see nothing")
	}
	q1.Close()
	q1.Close()
	if !q2.Next() {
		t.Error("closing one frozen query ended another")
	}
	w.Thaw()
	if q2.Next() {
		t.Error("a frozen query ran on after Thaw")
	}
	q2.Close()
	if w.Locked() {
		t.Error("World locked after frozen queries")
	}
	// A query opened before the freeze keeps its own lock through it.
	q := f.Query()
	w.Freeze()
	w.Thaw()
	if !w.Locked() || !q.Next() {
		t.Error("freeze disturbed an open query")
	}
	q.Close()
}

// TestParallelChunksAndReads: goroutines walk the chunks of a filter at
// once, each writing its rows and reading the World (Map.Get, Has,
// hierarchy walks) (run with -race), and every row is written once.
func TestParallelChunksAndReads(t *testing.T) {
	w, a, b, c, f := parallelWorld(t, 1000)
	root := w.NewEntity()
	for range 5 {
		e := w.NewEntity(a.ID())
		if err := w.SetParent(e, root); err != nil {
			t.Fatal(err)
		}
	}
	chunks := f.Chunks(64, nil)
	total := 0
	for _, ch := range chunks {
		if ch.Len() <= 0 || ch.Len() > 64 {
			t.Fatalf("chunk of %d rows", ch.Len())
		}
		total += ch.Len()
	}
	if total != f.Count() {
		t.Fatalf("chunks hold %d rows, filter matches %d", total, f.Count())
	}
	allowed := MaskOf(a.ID())
	w.Freeze()
	var wg sync.WaitGroup
	var next sync.Mutex
	k := 0
	for range 4 {
		wg.Go(func() {
			for {
				next.Lock()
				i := k
				k++
				next.Unlock()
				if i >= len(chunks) {
					return
				}
				q := chunks[i].Query(&allowed)
				for q.NextTable() {
					as := Column[pvec](&q, a.ID())
					for j := range as {
						as[j].Y++
						e := q.EntityAt(j)
						if a.Get(e) != &as[j] || !w.Has(e, a.ID()) {
							panic("chunk row and entity disagree")
						}
					}
				}
				n := 0
				for range w.ChildrenSeq(root) {
					n++
				}
				for range w.Descendants(root) {
					n++
				}
				if n != 10 || len(w.Children(root)) != 5 {
					panic(fmt.Sprintf("walks saw %d", n))
				}
			}
		})
	}
	wg.Wait()
	w.Thaw()
	q := f.Query()
	for q.Next() {
		if got := (*pvec)(q.Ptr(a.ID())).Y; got != 1 {
			t.Fatalf("row written %v times", got)
		}
	}
	_, _ = b, c
	if len(w.h.walks) != 0 {
		t.Errorf("frozen walks left %d registered", len(w.h.walks))
	}
}

// TestChunkQueryRows: a chunk's query numbers its rows from 0 in every
// accessor, and a limited query refuses other components' values.
func TestChunkQueryRows(t *testing.T) {
	w, a, b, _, f := parallelWorld(t, 30)
	chunks := f.Chunks(4, nil)
	var seen []float64
	for _, ch := range chunks {
		q := ch.Query(nil)
		for q.Next() {
			e := q.Entity()
			p := (*pvec)(q.Ptr(a.ID()))
			if p != a.Get(e) {
				t.Fatalf("Ptr and Entity disagree in a chunk")
			}
			seen = append(seen, p.X)
		}
		q = ch.Query(nil)
		for q.NextTable() {
			base, size := q.ColumnPtr(a.ID())
			for i := 0; i < q.Len(); i++ {
				if a.Get(q.EntityAt(i)) != (*pvec)(unsafeAdd(base, i, size)) || q.IndexAt(i) != q.EntityAt(i).Index() {
					t.Fatalf("ColumnPtr row %d", i)
				}
			}
		}
	}
	slices.Sort(seen)
	for i, x := range seen {
		if x != float64(i) {
			t.Fatalf("chunks saw rows %v", seen)
		}
	}
	q := f.QueryOnly(MaskOf(a.ID()))
	q.NextTable()
	_ = Column[pvec](&q, a.ID())
	mustPanicECS(t, "Column", `component "b" is not among`, func() { Column[pvec](&q, b.ID()) })
	mustPanicECS(t, "ColumnPtr", `component "b" is not among`, func() { q.ColumnPtr(b.ID()) })
	mustPanicECS(t, "Ptr", `component "b" is not among`, func() { q.Ptr(b.ID()) })
	q.Close()
	mustPanicECS(t, "Chunks", "must be positive", func() { f.Chunks(0, nil) })
	var zero Chunk
	zq := zero.Query(nil)
	if zq.Next() || zq.NextTable() {
		t.Error("the zero Chunk has rows")
	}
	_ = w
}

// TestCommandsApplyInOrder: recorded changes apply in order at Apply,
// skip what is gone, notify observers (MarkChanged), and wait for the
// World's lock like its own deferred changes.
func TestCommandsApplyInOrder(t *testing.T) {
	w, a, b, c, _ := parallelWorld(t, 0)
	e1, e2 := w.NewEntity(a.ID()), w.NewEntity(a.ID())
	var log []string
	w.ObserveComponent(ComponentSet, a.ID(), func(_ *World, _ Event, e Entity, _ ID) { log = append(log, "set "+e.String()) })
	var cmds Commands
	cmds.Add(e1, b.ID(), c)
	cmds.MarkChanged(e1, a.ID())
	cmds.Destroy(e2)
	cmds.MarkChanged(e2, a.ID()) // gone by then: skipped
	cmds.Remove(e2, a.ID())      // likewise
	cmds.Defer(func(*World) { log = append(log, "fn") })
	cmds.Remove(e1, c)
	if cmds.Len() != 8 {
		t.Fatalf("Len %d", cmds.Len())
	}
	changes := w.Changes(a.ID())
	w.Apply(&cmds)
	if cmds.Len() != 0 {
		t.Error("Apply left the buffer full")
	}
	if !w.Has(e1, b.ID()) || w.Has(e1, c) || w.Alive(e2) {
		t.Errorf("after Apply: b %v c %v e2 alive %v", w.Has(e1, b.ID()), w.Has(e1, c), w.Alive(e2))
	}
	if want := []string{"set " + e1.String(), "fn"}; !slices.Equal(log, want) || w.Changes(a.ID()) == changes {
		t.Errorf("log %v, want %v", log, want)
	}
	// Under a lock they wait for it.
	cmds.Destroy(e1)
	q := NewFilter(w, With(a.ID())).Query()
	w.Apply(&cmds)
	if !w.Alive(e1) || w.Pending() != 1 {
		t.Error("Apply under a lock did not wait")
	}
	q.Close()
	if w.Alive(e1) {
		t.Error("the lock's release did not apply the commands")
	}
	cmds.Add(e1, ID(999))
	mustPanicECS(t, "Apply unknown", "not registered", func() { w.Apply(&cmds) })
	mustPanicECS(t, "Defer nil", "nil function", func() { cmds.Defer(nil) })
}

func unsafeAdd(base unsafe.Pointer, i int, size uintptr) unsafe.Pointer {
	return unsafe.Add(base, uintptr(i)*size)
}
