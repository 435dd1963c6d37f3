package ecs

import "testing"

// The typed API exists once per arity, 1 to 8 (typed_gen.go). These tests
// check every arity with one body of checks, through adapters of each
// arity's filters, queries and builders to slices; ecs/internal/gen writes
// the adapters (typed_gen_test.go) with the API, so that they cannot drift
// apart.

// typedArity adapts the typed API of one arity: builder is NewBuilderN and
// filter NewFilterN, over ms[0] to ms[n-1].
type typedArity[T any] struct {
	n       int
	builder func(ms []Map[T], extra ...ID) typedBuilder[T]
	filter  func(ms []Map[T], opts ...FilterOption) typedFilter[T]
}

// typedBuilder is a BuilderN, its values as slices of n. newBatchFn
// passes a nil fn on as nil.
type typedBuilder[T any] struct {
	new        func(vs []T) Entity
	newBatch   func(n int, vs []T)
	newBatchFn func(n int, fn func(Entity, []*T))
}

// typedFilter is a FilterN: untyped is its Filter method, count its
// Count, each its Each with the pointers as a slice.
type typedFilter[T any] struct {
	untyped func() *Filter
	count   func() int
	query   func() typedQuery[T]
	each    func(fn func(Entity, []*T))
}

// typedQuery is a QueryN: the methods whose signatures do not depend on
// the arity, Get and Columns with slices, and the current row.
type typedQuery[T any] struct {
	typedIter
	get     func() []*T
	columns func() [][]T
	row     func() int
}

// typedIter is the part of a QueryN that is the same for every N.
type typedIter interface {
	Next() bool
	NextTable() bool
	Entity() Entity
	EntityAt(i int) Entity
	Len() int
	Close()
}

// arityVal is the component of the arity tests: the n components of an
// arity are n Maps of it.
type arityVal struct{ V int }

// arityWorld returns a World with 8 components of type arityVal and a
// tag.
func arityWorld() (*World, []Map[arityVal], ID) {
	w := NewWorld()
	ms := make([]Map[arityVal], 8)
	for i := range ms {
		ms[i] = MustRegister[arityVal](w, string(rune('a'+i)))
	}
	tag, _ := w.RegisterTag("tag")
	return w, ms, tag
}

func TestTypedArities(t *testing.T) {
	as := typedArities[arityVal]()
	for i, a := range as {
		if a.n != i+1 {
			t.Fatalf("adapter %d is of arity %d", i, a.n)
		}
	}
	if len(as) != 8 {
		t.Fatalf("%d arities", len(as))
	}
}

func TestTypedArityMethods(t *testing.T) {
	w, all, tag := arityWorld()
	lock := NewFilter(w, With(tag))
	w.NewEntity(tag)
	for _, a := range typedArities[arityVal]() {
		w.DestroyAll(NewFilter(w, With(all[0].ID())))
		ms := all[:a.n]
		buildArityTwice(t, a, ms, tag, lock)
		f := a.filter(ms, With(tag))
		if f.untyped().NumTables() != 1 {
			t.Fatalf("arity %d: tables", a.n)
		}
		checkArityNext(t, a.n, ms, f)
		rows := checkArityColumns(t, a.n, ms, f)
		q := f.query()
		q.Next()
		q.Close()
		q.Close()
		each := 0
		f.each(func(Entity, []*arityVal) { each++ })
		if rows != 10 || each != 10 || w.Locked() || f.count() != 10 {
			t.Fatalf("arity %d: rows %d each %d", a.n, rows, each)
		}
	}
}

// buildArityTwice makes 5 entities with the components ms and tag, with
// each builder call (New, NewBatch of 2, NewBatchFn of 2 and of 0 with a
// nil fn): first with the World unlocked, then while a query of lock
// holds it, when they must wait for the query's end. New and NewBatch
// give component i the value i+1, NewBatchFn i+100.
func buildArityTwice(t *testing.T, a typedArity[arityVal], ms []Map[arityVal], tag ID, lock *Filter) {
	t.Helper()
	b := a.builder(ms, tag)
	vals := make([]arityVal, a.n)
	for i := range vals {
		vals[i].V = i + 1
	}
	for round := 0; round < 2; round++ {
		var q Query
		if round == 1 {
			q = lock.Query()
			q.Next()
		}
		b.new(vals)
		b.newBatch(2, vals)
		b.newBatchFn(2, func(_ Entity, ps []*arityVal) {
			for i, p := range ps {
				p.V = i + 100
			}
		})
		b.newBatchFn(0, nil)
		if round == 1 {
			if a.filter(ms).count() != 5 {
				t.Fatalf("arity %d: locked builder applied early", a.n)
			}
			q.Close()
		}
	}
}

// checkArityNext checks f entity by entity: the 10 entities
// buildArityTwice made, each with its values.
func checkArityNext(t *testing.T, n int, ms []Map[arityVal], f typedFilter[arityVal]) {
	t.Helper()
	count, sum := 0, 0
	q := f.query()
	for q.Next() {
		ps := q.get()
		if q.Entity() != q.EntityAt(q.row()) || !ms[0].Has(q.Entity()) {
			t.Fatalf("arity %d: entity", n)
		}
		if len(ps) != n {
			t.Fatalf("arity %d: Get gave %d pointers", n, len(ps))
		}
		for i, p := range ps {
			if p.V%100 != i+1 && p.V%100 != i {
				t.Fatalf("arity %d: component %d value %d", n, i, p.V)
			}
			sum += p.V
		}
		count++
	}
	// 1 New + 2 NewBatch + 2 NewBatchFn, twice (unlocked and locked).
	if count != 10 {
		t.Fatalf("arity %d: %d entities", n, count)
	}
	if sum <= 0 {
		t.Fatalf("arity %d: sum %d", n, sum)
	}
}

// checkArityColumns checks f table by table: every row of every column
// is the component of the row's entity. It returns the number of rows.
func checkArityColumns(t *testing.T, n int, ms []Map[arityVal], f typedFilter[arityVal]) int {
	t.Helper()
	q := f.query()
	rows := 0
	for q.NextTable() {
		cols := q.columns()
		if len(cols) != n {
			t.Fatalf("arity %d: Columns gave %d columns", n, len(cols))
		}
		for i := range cols[0] {
			for j, s := range cols {
				if &s[i] != ms[j].Get(q.EntityAt(i)) {
					t.Fatalf("arity %d: column row", n)
				}
			}
			rows++
		}
		if q.Len() != len(cols[0]) {
			t.Fatalf("arity %d: Len", n)
		}
	}
	return rows
}

func TestTypedQueriesAllArities(t *testing.T) {
	w, ms, tag := arityWorld()
	const n = 10
	b8 := NewBuilder8(ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6], ms[7], tag)
	for i := 0; i < n; i++ {
		b8.New(arityVal{i}, arityVal{i + 1}, arityVal{i + 2}, arityVal{i + 3}, arityVal{i + 4}, arityVal{i + 5}, arityVal{i + 6}, arityVal{i + 7})
	}
	w.NewEntities(3, ms[0].ID()) // matches only arity 1 without tag
	cnt, rows, each := 0, 0, 0
	for _, a := range typedArities[arityVal]() {
		var opts []FilterOption
		if a.n == 1 {
			opts = append(opts, With(tag))
		}
		f := a.filter(ms[:a.n], opts...)
		cnt += checkConsecutive(t, a.n, f)
		rows += checkConsecutiveColumns(t, a.n, f)
		f.each(func(_ Entity, ps []*arityVal) {
			if ps[a.n-1].V == ps[0].V+a.n-1 {
				each++
			}
		})
	}
	if cnt != 8*n {
		t.Fatalf("count %d", cnt)
	}
	if rows != 8*n || each != 8*n || w.Locked() {
		t.Fatalf("rows %d each %d", rows, each)
	}
	if NewFilter1(ms[0]).Count() != n+3 || NewFilter1(ms[0], Without(tag)).Count() != 3 {
		t.Fatal("Count")
	}
}

// checkConsecutive checks that component k of every entity f matches is
// the first plus k, entity by entity, and returns how many there are.
func checkConsecutive(t *testing.T, n int, f typedFilter[arityVal]) int {
	t.Helper()
	cnt := 0
	q := f.query()
	for q.Next() {
		ps := q.get()
		for k := 1; k < len(ps); k++ {
			if ps[k].V != ps[0].V+k {
				t.Fatalf("arity %d: values %d %d", n, ps[0].V, ps[k].V)
			}
		}
		if q.Entity() != q.EntityAt(q.row()) {
			t.Fatalf("arity %d: EntityAt", n)
		}
		cnt++
	}
	return cnt
}

// checkConsecutiveColumns is checkConsecutive table by table, through the
// first and last columns.
func checkConsecutiveColumns(t *testing.T, n int, f typedFilter[arityVal]) int {
	t.Helper()
	rows := 0
	q := f.query()
	for q.NextTable() {
		cols := q.columns()
		first, last := cols[0], cols[n-1]
		for i := range first {
			if last[i].V != first[i].V+n-1 {
				t.Fatalf("arity %d: Columns", n)
			}
			rows++
		}
	}
	return rows
}
