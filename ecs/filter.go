package ecs

import "unsafe"

// Filter selects the entities whose components include all of one set,
// none of another and, if given, at least one of a third. A Filter is
// cached: it is matched once per table, keeps the list of matching tables
// and extends it as new tables appear. Create filters once and reuse them.
type Filter struct {
	w               *World
	all, none, any_ Mask
	tables          []*table
	registered      bool
}

// FilterOption adds a condition to a filter.
type FilterOption func(*Filter)

// With requires the components ids.
func With(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.all = f.all.With(id)
		}
	}
}

// Without excludes entities that have any of ids.
func Without(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.none = f.none.With(id)
		}
	}
}

// AnyOf requires at least one of ids.
func AnyOf(ids ...ID) FilterOption {
	return func(f *Filter) {
		for _, id := range ids {
			f.any_ = f.any_.With(id)
		}
	}
}

// NewFilter returns a cached filter over w built from the options.
func NewFilter(w *World, opts ...FilterOption) *Filter {
	f := &Filter{w: w}
	for _, o := range opts {
		o(f)
	}
	return w.registerFilter(f)
}

// NewFilterMasks returns a cached filter from ready-made masks: all of all,
// none of none, and at least one of any (unless any is empty).
func NewFilterMasks(w *World, all, none, any Mask) *Filter {
	return w.registerFilter(&Filter{w: w, all: all, none: none, any_: any})
}

func (w *World) registerFilter(f *Filter) *Filter {
	for _, id := range f.all.IDs() {
		w.checkID("NewFilter", id)
	}
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

// Matches reports whether the signature m satisfies the filter.
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

// NumTables returns the number of tables (distinct signatures) that match.
func (f *Filter) NumTables() int { return len(f.tables) }

// Query starts an iteration over the matching entities. The World is
// locked until Next returns false or Close is called.
func (f *Filter) Query() Query {
	f.w.lock()
	return Query{w: f.w, tables: f.tables, ti: -1, row: -1}
}

// Query is an iteration over the entities of a Filter, entity by entity
// (Next) or table by table (NextTable). It must be used by one goroutine
// and either run to the end or be closed.
type Query struct {
	w      *World
	tables []*table
	t      *table
	ti     int
	row, n int
	done   bool
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
		if q.ti >= len(q.tables) {
			q.Close()
			return false
		}
		t := q.tables[q.ti]
		if n := t.len(); n > 0 {
			q.t, q.row, q.n = t, 0, n
			return true
		}
	}
}

// NextTable advances to the next non-empty table and reports whether there
// is one. Use Len, Column and EntityAt to walk it.
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

// Entity returns the current entity.
func (q *Query) Entity() Entity {
	idx := q.t.entities[q.row]
	return Entity{idx, q.w.records[idx].gen}
}

// IndexAt returns the index (Entity.Index) of the entity in row i of the
// current table, without looking up its generation.
func (q *Query) IndexAt(i int) uint32 { return q.t.entities[i] }

// EntityAt returns the entity in row i of the current table.
func (q *Query) EntityAt(i int) Entity {
	idx := q.t.entities[i]
	return Entity{idx, q.w.records[idx].gen}
}

// Mask returns the signature of the current table.
func (q *Query) Mask() Mask { return q.t.mask }

// Has reports whether the current table has component id.
func (q *Query) Has(id ID) bool { return q.t.has(id) }

// Ptr returns a pointer to the current entity's value of component id, or
// nil if its table lacks id.
func (q *Query) Ptr(id ID) unsafe.Pointer {
	if !q.t.has(id) {
		return nil
	}
	c := q.t.col(id)
	if c == nil {
		return unsafe.Pointer(&zeroBase)
	}
	return c.ptr(uint32(q.row))
}

// ColumnPtr returns the base pointer and element size of component id's
// packed column in the current table (nil, 0 if there is none). Row i's
// value is at base + i*size.
func (q *Query) ColumnPtr(id ID) (base unsafe.Pointer, size uintptr) {
	c := q.t.col(id)
	if c == nil {
		return nil, 0
	}
	return c.base, c.size
}

// Close ends the iteration early and unlocks the World; deferred changes
// are applied if no other iteration is open. It is safe to call twice.
func (q *Query) Close() {
	if q.done {
		return
	}
	q.done = true
	q.n, q.row = 0, 0
	q.ti = len(q.tables)
	q.w.unlock()
}

// Column returns the packed values of component id in the current table
// of q as a slice of T. T must be the component's type.
func Column[T any](q *Query, id ID) []T {
	c := q.t.col(id)
	if c == nil {
		return nil
	}
	return unsafe.Slice((*T)(c.base), q.n)
}
