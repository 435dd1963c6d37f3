package ecs

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"unsafe"
)

func sortedEntities(es []Entity) []Entity {
	out := slices.Clone(es)
	sort.Slice(out, func(i, j int) bool { return out[i].index < out[j].index })
	return out
}

func queryAll(f *Filter) []Entity {
	var out []Entity
	q := f.Query()
	for q.Next() {
		out = append(out, q.Entity())
	}
	return sortedEntities(out)
}

func TestFilterConditions(t *testing.T) {
	f := newFixture(t)
	w := f.w
	P, V, N, E := f.pos.ID(), f.vel.ID(), f.name.ID(), f.enemy
	sets := [][]ID{{}, {P}, {V}, {P, V}, {P, E}, {V, E}, {P, V, E}, {N}, {N, E}}
	byMask := map[int][]Entity{}
	var all []Entity
	for i, ids := range sets {
		es := w.NewEntities(i+1, ids...)
		byMask[i] = es
		all = append(all, es...)
	}
	has := func(ids []ID, id ID) bool { return slices.Contains(ids, id) }
	cases := []struct {
		name string
		f    *Filter
		pred func([]ID) bool
	}{
		{"all", NewFilter(w), func([]ID) bool { return true }},
		{"with P", NewFilter(w, With(P)), func(s []ID) bool { return has(s, P) }},
		{"with P V", NewFilter(w, With(P, V)), func(s []ID) bool { return has(s, P) && has(s, V) }},
		{"with P, with V", NewFilter(w, With(P), With(V)), func(s []ID) bool { return has(s, P) && has(s, V) }},
		{"without E", NewFilter(w, Without(E)), func(s []ID) bool { return !has(s, E) }},
		{"with P without E", NewFilter(w, With(P), Without(E)), func(s []ID) bool { return has(s, P) && !has(s, E) }},
		{"without P V", NewFilter(w, Without(P, V)), func(s []ID) bool { return !has(s, P) && !has(s, V) }},
		{"anyof P N", NewFilter(w, AnyOf(P, N)), func(s []ID) bool { return has(s, P) || has(s, N) }},
		{"E anyof P N", NewFilter(w, With(E), AnyOf(P, N)), func(s []ID) bool { return has(s, E) && (has(s, P) || has(s, N)) }},
		{"anyof V without P", NewFilter(w, AnyOf(V), Without(P)), func(s []ID) bool { return has(s, V) && !has(s, P) }},
		{"masks", NewFilterMasks(w, MaskOf(E), MaskOf(N), Mask{}), func(s []ID) bool { return has(s, E) && !has(s, N) }},
		{"masks any", NewFilterMasks(w, Mask{}, Mask{}, MaskOf(N, V)), func(s []ID) bool { return has(s, N) || has(s, V) }},
		{"contradiction", NewFilter(w, With(P), Without(P)), func([]ID) bool { return false }},
	}
	for _, c := range cases {
		var want []Entity
		tables := 0
		for i, ids := range sets {
			if c.pred(ids) {
				want = append(want, byMask[i]...)
				tables++
			}
			if c.f.Matches(MaskOf(ids...)) != c.pred(ids) {
				t.Errorf("%s: Matches(%v) wrong", c.name, ids)
			}
		}
		want = sortedEntities(want)
		if got := queryAll(c.f); !slices.Equal(got, want) {
			t.Errorf("%s: got %v want %v", c.name, got, want)
		}
		if c.f.Count() != len(want) || c.f.NumTables() != tables {
			t.Errorf("%s: count %d tables %d, want %d %d", c.name, c.f.Count(), c.f.NumTables(), len(want), tables)
		}
		for _, e := range all {
			if c.f.MatchesEntity(e) != slices.Contains(want, e) {
				t.Errorf("%s: MatchesEntity(%v)", c.name, e)
			}
		}
	}
}

func TestFilterSeesLaterTables(t *testing.T) {
	f := newFixture(t)
	w := f.w
	early := NewFilter(w, With(f.pos.ID()), Without(f.enemy))
	typed := NewFilter2(f.pos, f.vel)
	if early.Count() != 0 || early.NumTables() != 0 {
		t.Fatal("empty world")
	}
	e1 := w.NewEntity(f.pos.ID())
	e2 := w.NewEntity(f.pos.ID(), f.vel.ID())
	w.NewEntity(f.pos.ID(), f.enemy)
	late := MustRegister[int](w, "late")
	e4 := w.NewEntity(f.pos.ID(), late.ID(), f.vel.ID())
	if got := queryAll(early); !slices.Equal(got, []Entity{e1, e2, e4}) {
		t.Fatalf("early %v", got)
	}
	if typed.Count() != 2 || typed.Filter().NumTables() != 2 {
		t.Fatalf("typed %d", typed.Count())
	}
	// Closing stops tracking new tables.
	early.Close()
	early.Close()
	w.NewEntity(f.pos.ID(), f.name.ID())
	if early.Count() != 3 {
		t.Fatalf("closed filter count %d", early.Count())
	}
}

func TestQueryByEntityAndByColumn(t *testing.T) {
	f := newFixture(t)
	w := f.w
	b := NewBuilder2(f.pos, f.vel)
	var es []Entity
	for i := 0; i < 30; i++ {
		e := b.New(pos{float64(i), 0}, vel{1, float64(i)})
		if i%3 == 0 {
			mustNil(t, w.Add(e, f.enemy))
		}
		if i%5 == 0 {
			mustNil(t, f.name.Set(e, name{"n"}))
		}
		es = append(es, e)
	}
	filt := NewFilter(w, With(f.pos.ID(), f.vel.ID()))
	checkUntypedByEntity(t, f, filt)
	checkUntypedByColumn(t, f, filt)
	checkTypedByEntityAndColumn(t, f, es)
}

// checkUntypedByEntity walks filt (30 entities with pos and vel) entity
// by entity, checking Ptr, Has and Mask, and adds 1000 to every pos.X.
func checkUntypedByEntity(t *testing.T, f fixture, filt *Filter) {
	t.Helper()
	w := f.w
	q := filt.Query()
	seen := 0
	for q.Next() {
		e := q.Entity()
		p := (*pos)(q.Ptr(f.pos.ID()))
		if p != f.pos.Get(e) {
			t.Fatal("Ptr differs from Map.Get")
		}
		if q.Has(f.enemy) != w.Has(e, f.enemy) || !q.Mask().Equal(w.Mask(e)) {
			t.Fatal("Has/Mask")
		}
		if q.Has(f.name.ID()) != (q.Ptr(f.name.ID()) != nil) {
			t.Fatal("Ptr of absent")
		}
		if q.Has(f.enemy) && q.Ptr(f.enemy) == nil {
			t.Fatal("Ptr of tag")
		}
		p.X += 1000
		seen++
	}
	if seen != 30 || w.Locked() {
		t.Fatalf("seen %d locked %v", seen, w.Locked())
	}
}

// checkUntypedByColumn walks filt table by table, after
// checkUntypedByEntity, checking Column and ColumnPtr.
func checkUntypedByColumn(t *testing.T, f fixture, filt *Filter) {
	t.Helper()
	q := filt.Query()
	tables, total := 0, 0
	for q.NextTable() {
		tables++
		ps := Column[pos](&q, f.pos.ID())
		if len(ps) != q.Len() {
			t.Fatal("column length")
		}
		base, size := q.ColumnPtr(f.vel.ID())
		if size != unsafe.Sizeof(vel{}) {
			t.Fatal("ColumnPtr size")
		}
		for i := range ps {
			e := q.EntityAt(i)
			if &ps[i] != f.pos.Get(e) || (*vel)(unsafe.Add(base, uintptr(i)*size)) != f.vel.Get(e) {
				t.Fatal("column row mismatch")
			}
			if ps[i].X < 1000 {
				t.Fatal("write through Ptr lost")
			}
		}
		if b, s := q.ColumnPtr(f.enemy); (b != nil) != q.Has(f.enemy) || s != 0 {
			t.Fatal("ColumnPtr of tag: want a zero-size column where the tag is")
		}
		if Column[name](&q, f.name.ID()) != nil && !q.Has(f.name.ID()) {
			t.Fatal("Column of absent")
		}
		total += q.Len()
	}
	if tables != filt.NumTables() || total != 30 {
		t.Fatalf("tables %d total %d", tables, total)
	}
}

// checkTypedByEntityAndColumn walks the 20 entities of es that are not
// enemies with a typed query, entity by entity and by column, after
// checkUntypedByEntity.
func checkTypedByEntityAndColumn(t *testing.T, f fixture, es []Entity) {
	t.Helper()
	w := f.w
	tf := NewFilter2(f.pos, f.vel, Without(f.enemy))
	tq := tf.Query()
	n := 0
	for tq.Next() {
		p, v := tq.Get()
		e := tq.Entity()
		if p != f.pos.Get(e) || v != f.vel.Get(e) || w.Has(e, f.enemy) {
			t.Fatal("typed Get")
		}
		n++
	}
	if n != 20 || tf.Count() != 20 {
		t.Fatalf("typed n %d", n)
	}
	tq = tf.Query()
	n = 0
	for tq.NextTable() {
		ps, vs := tq.Columns()
		if len(ps) != tq.Len() || len(vs) != tq.Len() {
			t.Fatal("typed columns length")
		}
		for i := range ps {
			if vs[i].Y != ps[i].X-1000 || tq.EntityAt(i) != es[int(vs[i].Y)] {
				t.Fatal("typed columns rows")
			}
			n++
		}
	}
	if n != 20 {
		t.Fatal("typed by column count")
	}
}

func TestQueryEmptyAndClose(t *testing.T) {
	f := newFixture(t)
	w := f.w
	filt := NewFilter(w, With(f.pos.ID()))
	q := filt.Query()
	if q.Next() {
		t.Fatal("empty query yields an entity")
	}
	if q.Next() || w.Locked() {
		t.Fatal("an ended empty query yields again or keeps the World locked")
	}
	q.Close() // after the end: no double unlock
	if w.Locked() {
		t.Fatal("locked")
	}
	// Empty tables are skipped.
	e := w.NewEntity(f.pos.ID())
	mustNil(t, w.Destroy(e))
	w.NewEntity(f.pos.ID(), f.vel.ID())
	q = filt.Query()
	n := 0
	for q.Next() {
		n++
	}
	if n != 1 {
		t.Fatal("empty table not skipped")
	}
	// Early Close, then twice.
	q = filt.Query()
	if !q.Next() || !w.Locked() {
		t.Fatal("not locked while iterating")
	}
	q.Close()
	q.Close()
	if w.Locked() || q.Next() || q.NextTable() {
		t.Fatal("Close")
	}
	tq := NewFilter1(f.pos).Query()
	tq.Next()
	tq.Close()
	tq.Close()
	if w.Locked() || tq.Next() {
		t.Fatal("typed Close")
	}
}

func TestChangesDuringIterationDeferred(t *testing.T) {
	f := newFixture(t)
	w := f.w
	P, V := f.pos.ID(), f.vel.ID()
	es := w.NewEntities(10, P)
	for i, e := range es {
		mustNil(t, f.pos.Set(e, pos{float64(i), 0}))
	}
	other := w.NewEntity(V)
	filt := NewFilter(w, With(P))
	var created []Entity
	visited := 0
	q := filt.Query()
	for q.Next() {
		e := q.Entity()
		visited++
		i := int(f.pos.Get(e).X)
		switch i % 5 {
		case 0:
			mustNil(t, w.Destroy(e))
			if !w.Alive(e) {
				t.Fatal("destroy not deferred")
			}
			// A second destroy of the same entity is accepted and harmless.
			mustNil(t, w.Destroy(e))
		case 1:
			mustNil(t, f.vel.Set(e, vel{float64(i), 1}))
			if f.vel.Has(e) {
				t.Fatal("add not deferred")
			}
		case 2:
			mustNil(t, w.Remove(e, P))
			if !f.pos.Has(e) {
				t.Fatal("remove not deferred")
			}
		case 3:
			// Value writes happen at once.
			mustNil(t, f.pos.Set(e, pos{-1, 0}))
			if f.pos.Get(e).X != -1 {
				t.Fatal("set not immediate")
			}
		case 4:
			c := w.NewEntity(P, V)
			if !w.Alive(c) || w.Has(c, P) {
				t.Fatal("NewEntity while locked: components should be pending")
			}
			created = append(created, c)
			b := NewBuilder1(f.name).New(name{"built"})
			created = append(created, b)
			created = append(created, w.NewEntities(2, V)...)
		}
		if w.Pending() == 0 && i%5 != 3 {
			t.Fatal("nothing pending")
		}
	}
	if visited != 10 {
		t.Fatalf("visited %d: iteration saw deferred changes", visited)
	}
	if w.Pending() != 0 {
		t.Fatal("not flushed at end")
	}
	for i, e := range es {
		switch i % 5 {
		case 0:
			if w.Alive(e) {
				t.Fatal("deferred destroy lost")
			}
		case 1:
			if f.vel.Get(e) == nil || *f.vel.Get(e) != (vel{float64(i), 1}) {
				t.Fatal("deferred add value lost")
			}
		case 2:
			if f.pos.Has(e) {
				t.Fatal("deferred remove lost")
			}
		case 3:
			if f.pos.Get(e).X != -1 {
				t.Fatal("set lost")
			}
		}
	}
	for k := 0; k < len(created); k += 4 {
		if !f.pos.Has(created[k]) || !f.vel.Has(created[k]) {
			t.Fatal("deferred NewEntity components")
		}
		if f.name.Get(created[k+1]) == nil || f.name.Get(created[k+1]).S != "built" {
			t.Fatal("deferred Builder.New")
		}
		if !f.vel.Has(created[k+2]) || !f.vel.Has(created[k+3]) {
			t.Fatal("deferred NewEntities")
		}
	}
	if !w.Alive(other) {
		t.Fatal("other")
	}
}

func TestDeferredOrderAndCollapse(t *testing.T) {
	f := newFixture(t)
	w := f.w
	e := w.NewEntity()
	q := NewFilter(w).Query()
	mustNil(t, f.pos.Set(e, pos{1, 0}))
	mustNil(t, f.pos.Set(e, pos{2, 0})) // still absent: a second deferred add
	mustNil(t, f.pos.Add(e, pos{3, 0})) // the last value wins
	mustNil(t, w.AddPtr(e, f.vel.ID(), nil))
	d := w.NewEntity()
	mustNil(t, w.Destroy(d))
	mustNil(t, f.pos.Set(d, pos{})) // add to an entity destroyed before it: skipped
	if w.Pending() != 6 {
		t.Fatalf("pending %d", w.Pending())
	}
	q.Close()
	if *f.pos.Get(e) != (pos{3, 0}) || !f.vel.Has(e) || w.Alive(d) || w.Len() != 1 {
		t.Fatal("deferred order")
	}
	// Destroy then add, in that order: the add is dropped.
	q = NewFilter(w).Query()
	mustNil(t, w.Destroy(e))
	mustNil(t, f.name.Set(e, name{"x"}))
	q.Close()
	if w.Alive(e) || w.Len() != 0 {
		t.Fatal("destroy then add")
	}
}

func TestNestedQueriesAndFlush(t *testing.T) {
	f := newFixture(t)
	w := f.w
	w.NewEntities(3, f.pos.ID())
	outer := NewFilter(w, With(f.pos.ID()))
	q := outer.Query()
	q.Next()
	inner := NewFilter1(f.pos).Query()
	for inner.Next() {
		mustNil(t, w.Destroy(inner.Entity()))
	}
	if w.Len() != 3 || !w.Locked() {
		t.Fatal("inner end applied changes while outer open")
	}
	func() {
		defer func() {
			r := recover()
			msg, _ := r.(string)
			if !strings.Contains(msg, "Flush") || !strings.Contains(msg, "Close") {
				t.Fatalf("Flush panic message %q", msg)
			}
		}()
		w.Flush()
	}()
	if w.Len() != 3 {
		t.Fatal("Flush applied")
	}
	q.Close()
	if w.Len() != 0 || w.Locked() {
		t.Fatalf("after close: len %d", w.Len())
	}
	w.Flush() // nothing pending, not locked: fine
}

func TestDeferFromFlushOpensQuery(t *testing.T) {
	f := newFixture(t)
	w := f.w
	es := w.NewEntities(3, f.pos.ID())
	q := NewFilter(w).Query()
	w.Defer(func(w *World) {
		// A query inside a flush: its changes are queued behind.
		inner := NewFilter1(f.pos).Query()
		for inner.Next() {
			mustNil(t, w.Add(inner.Entity(), f.enemy))
		}
		if w.Has(es[0], f.enemy) {
			t.Fatal("inner change applied inside locked query")
		}
	})
	w.Defer(func(w *World) {
		// Queued before the inner query's adds: runs before them.
		if w.Has(es[0], f.enemy) {
			t.Fatal("deferred changes applied out of order")
		}
	})
	q.Close()
	for _, e := range es {
		if !w.Has(e, f.enemy) {
			t.Fatal("lost")
		}
	}
}

// TestTypedArityMethods exercises every generated method of every arity:
// builders (New, NewBatch, NewBatchFn, unlocked and while locked),
// queries entity by entity and by column, Each, EntityAt and Close.
