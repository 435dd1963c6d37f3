package ecs

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Filter selects the entities whose components include all of one set,
// none of another and, if given, at least one of a third ([With],
// [Without], [AnyOf]). A Filter is cached: it is matched once per table,
// keeps the list of matching tables and extends it as new tables appear.
// Create filters once ([NewFilter], [NewFilterMasks]) and reuse them;
// [Filter.Close] unregisters one. [Filter.Query] iterates over the
// matching entities. The typed [Filter1] to [Filter8] wrap a Filter.
type Filter struct {
	w               *World
	all, none, any_ Mask
	tables          []*table
	registered      bool
}

// FilterOption adds a condition to a filter: [With], [Without] or [AnyOf].
// The IDs an option names are checked when the filter is made: [NewFilter]
// (and [NewFilter1] to [NewFilter8]) panics if one is not registered in
// the filter's [World].
type FilterOption func(*Filter)

// With requires the components ids.
func With(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.w.checkID("NewFilter: With", id)
			f.all = f.all.With(id)
		}
	}
}

// Without excludes entities that have any of ids.
func Without(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.w.checkID("NewFilter: Without", id)
			f.none = f.none.With(id)
		}
	}
}

// AnyOf requires at least one of ids.
func AnyOf(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.w.checkID("NewFilter: AnyOf", id)
			f.any_ = f.any_.With(id)
		}
	}
}

// NewFilter returns a cached [Filter] over w built from the options. It
// panics if w is nil or an option names a component [ID] that is not
// registered in w.
func NewFilter(w *World, opts ...FilterOption) *Filter {
	if w == nil {
		panic("ecs: NewFilter: nil World")
	}
	f := &Filter{w: w}
	for _, o := range opts {
		if o == nil {
			panic("ecs: NewFilter: nil option")
		}
		o(f)
	}
	return w.registerFilter(f)
}

// NewFilterMasks returns a cached [Filter] from ready-made masks ([Mask]):
// all of all, none of none, and at least one of any (unless any is empty).
// It panics if w is nil or a mask holds an [ID] that is not registered in
// w.
func NewFilterMasks(w *World, all, none, any Mask) *Filter {
	if w == nil {
		panic("ecs: NewFilterMasks: nil World")
	}
	w.checkMask("NewFilterMasks: all", all)
	w.checkMask("NewFilterMasks: none", none)
	w.checkMask("NewFilterMasks: any", any)
	return w.registerFilter(&Filter{w: w, all: all, none: none, any_: any})
}

// checkMask panics if m holds an ID that is not registered in w. IDs are
// dense, so only the highest one needs a look.
func (w *World) checkMask(op string, m Mask) {
	if top, ok := m.max(); ok {
		w.checkID(op, top)
	}
}

// checkFilter panics unless f is a filter of w.
func (w *World) checkFilter(op string, f *Filter) {
	if f == nil {
		panic(fmt.Sprintf("ecs: %s: nil filter", op))
	}
	if f.w != w {
		panic(fmt.Sprintf("ecs: %s: the filter belongs to another World", op))
	}
}

func (w *World) registerFilter(f *Filter) *Filter {
	w.mutable("NewFilter")
	w.checkMask("NewFilter", f.all)
	for _, t := range w.tables {
		if f.matches(t.mask) {
			f.tables = append(f.tables, t)
		}
	}
	f.registered = true
	w.filters = append(w.filters, f)
	return f
}

// Close unregisters the filter: it stops tracking new tables. Queries
// already running are unaffected; the filter must not be used afterwards.
func (f *Filter) Close() {
	if !f.registered {
		return
	}
	f.w.mutable("Filter.Close")
	fs := f.w.filters
	for i, g := range fs {
		if g == f {
			f.w.filters = append(fs[:i:i], fs[i+1:]...)
			break
		}
	}
	f.registered = false
}

func (f *Filter) matches(m Mask) bool {
	if !m.ContainsAll(f.all) || m.Intersects(f.none) {
		return false
	}
	return f.any_.IsEmpty() || m.Intersects(f.any_)
}

// Matches reports whether the signature m (see [World.Mask]) satisfies
// the filter.
func (f *Filter) Matches(m Mask) bool { return f.matches(m) }

// MatchesEntity reports whether e is alive and satisfies the filter.
func (f *Filter) MatchesEntity(e Entity) bool {
	r := f.w.rec(e)
	return r != nil && f.matches(f.w.tables[r.table].mask)
}

// Count returns the number of entities that match.
func (f *Filter) Count() int {
	n := 0
	for _, t := range f.tables {
		n += t.len()
	}
	return n
}

// NumTables returns the number of tables (distinct signatures, [Mask])
// that match, empty ones included.
func (f *Filter) NumTables() int { return len(f.tables) }

// Query starts an iteration over the matching entities. The [World] is
// locked until [Query.Next] or [Query.NextTable] returns false or
// [Query.Close] is called; see [Query] for how to make sure it is unlocked
// on every way out.
func (f *Filter) Query() Query {
	return Query{w: f.w, tables: f.tables, ti: -1, row: -1, id: f.w.openIter()}
}

// Query is an iteration over the entities of a [Filter], entity by entity
// ([Query.Next]) or table by table ([Query.NextTable]). It must be used by
// one goroutine. The typed [Query1] to [Query8] do the same for typed
// filters.
//
// The [World] stays locked (structural changes deferred, see
// [World.Locked]) until the iteration ends: when Next or NextTable returns
// false, or at [Query.Close]. A loop that may break out early, or in which
// a panic may be recovered, should close the query on every way out:
//
//	q := f.Query()
//	defer q.Close()
//	for q.Next() { ... }
//
// Close is cheap and idempotent: after the loop ran to the end, or a
// second time, it does nothing. A copy of a Query shares its iteration:
// closing either closes it for both (a copy still inside a table stops at
// the next one), and closing it again through the other does nothing.
// Closing a query never releases another iteration's lock.
type Query struct {
	w      *World
	tables []*table
	t      *table
	ti     int
	row, n int
	id     uint64 // serial of the open iteration; 0 once closed
	// A chunk's query (Chunk.Query) walks rows off to off+cnt of its
	// table; off is 0 otherwise.
	off, cnt int
	chunk    bool
	allow    *Mask // if set, the only components whose values it hands out
}

// Next advances to the next entity and reports whether there is one.
func (q *Query) Next() bool {
	q.row++
	if q.row < q.n {
		return true
	}
	return q.nextTable()
}

func (q *Query) nextTable() bool {
	for {
		q.ti++
		if q.ti >= len(q.tables) || !q.w.iterOpen(q.id) {
			q.Close()
			return false
		}
		t := q.tables[q.ti]
		n := t.len()
		if q.chunk {
			n = min(q.cnt, n-q.off)
		}
		if n > 0 {
			q.t, q.row, q.n = t, 0, n
			return true
		}
	}
}

// NextTable advances to the next non-empty table and reports whether there
// is one. Use [Query.Len], [Column] (or [Query.ColumnPtr]) and
// [Query.EntityAt] to walk it.
func (q *Query) NextTable() bool {
	q.row = q.n - 1
	ok := q.nextTable()
	if ok {
		q.row = q.n - 1
	}
	return ok
}

// Len returns the number of entities in the current table.
func (q *Query) Len() int { return q.n }

// Entity returns the current entity (after [Query.Next]).
func (q *Query) Entity() Entity {
	idx := q.t.entities[q.off+q.row]
	return q.w.handle(idx)
}

// IndexAt returns the index ([Entity.Index]) of the entity in row i of the
// current table, without looking up its generation.
func (q *Query) IndexAt(i int) uint32 { return q.t.entities[q.off+i] }

// EntityAt returns the entity in row i of the current table.
func (q *Query) EntityAt(i int) Entity {
	idx := q.t.entities[q.off+i]
	return q.w.handle(idx)
}

// Mask returns the signature ([Mask]) of the current table.
func (q *Query) Mask() Mask { return q.t.mask }

// Has reports whether the current table has component id. It panics if
// id is not registered.
func (q *Query) Has(id ID) bool {
	if q.t.has(id) {
		return true
	}
	q.w.checkID("Query.Has", id)
	return false
}

// Ptr returns a pointer to the current entity's value of component id, or
// nil if its table lacks id. It panics if id is not registered. It is the
// untyped form of a typed query's Get ([Query1.Get]).
func (q *Query) Ptr(id ID) unsafe.Pointer {
	if q.allow != nil && !q.allow.Has(id) {
		q.denied("Query.Ptr", id)
	}
	if !q.t.has(id) {
		q.w.checkID("Query.Ptr", id)
		return nil
	}
	c := q.t.col(id)
	if c == nil {
		return unsafe.Pointer(&zeroBase)
	}
	return c.ptr(uint32(q.off + q.row))
}

// ColumnPtr returns the base pointer and element size of component id's
// packed column in the current table (nil, 0 if there is none, or if id
// is a tag). Row i's value is at base + i*size. It panics if id is not
// registered. [Column] is the typed form.
func (q *Query) ColumnPtr(id ID) (base unsafe.Pointer, size uintptr) {
	base, size, c := q.colBase("Query.ColumnPtr", id)
	if c == nil {
		q.w.checkID("Query.ColumnPtr", id)
		return nil, 0
	}
	return base, size
}

// Close ends the iteration and unlocks the [World]; deferred changes are
// applied if no other lock is held. It does nothing if the iteration has
// ended already (through this Query or a copy), so "defer q.Close()" is
// always safe. Close on the zero Query does nothing.
func (q *Query) Close() {
	if q.id == 0 {
		return
	}
	id := q.id
	q.id = 0
	q.n, q.row = 0, 0
	q.ti = len(q.tables)
	q.w.closeIter(id)
}

// Column returns the packed values of component id in the current table
// of q (see [Query.NextTable]) as a slice of T, or nil if the table lacks
// id. T must be the component's Go type ([Info.Type]; for
// [World.RegisterBytes] components an array type, or use
// [Query.ColumnPtr]). It panics if id is not registered or T is not its
// type.
func Column[T any](q *Query, id ID) []T {
	base, _, c := q.colBase("Column", id)
	if c == nil {
		q.w.checkID("Column", id)
		return nil
	}
	if want := reflect.TypeFor[T](); c.info.Type != want {
		panic(fmt.Sprintf("ecs: Column: component %q holds %v, not %v", c.info.Name, c.info.Type, want))
	}
	return unsafe.Slice((*T)(base), q.n)
}
