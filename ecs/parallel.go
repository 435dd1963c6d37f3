package ecs

import (
	"fmt"
	"unsafe"
)

// Parallel work on one World.
//
// A World is single-threaded: its structural changes, observers, command
// buffer and the lock bookkeeping of open queries are plain fields. A
// frozen World ([World.Freeze]) is one whose structure nothing may change,
// so that several goroutines may read it at the same time, and write
// component values in place, each in memory no other goroutine touches
// (its own columns, or its own rows of a column). While the World is
// frozen:
//
//   - reads are allowed from any goroutine: [World.Alive], [World.Has],
//     [World.GetPtr], [World.Get], [Map.Get], [World.Components],
//     [World.Mask], [World.Len], the hierarchy's links and walks
//     ([World.Parent], [World.Children], [World.ChildrenSeq],
//     [World.Descendants], [World.All], [World.Roots]), and queries:
//     [Filter.Query] (and the typed filters' queries), [Filter.Chunks],
//     [Chunk.Query], which do not touch the lock bookkeeping while the
//     World is frozen (the freeze holds the World locked for them);
//   - writes go through pointers and columns only ([Map.Get], [Column],
//     [Query.Ptr]): which goroutine may write what is the caller's to
//     arrange (a scheduler gives each system its declared columns);
//   - everything that changes the World panics with a message naming the
//     call: creating or destroying entities, adding or removing
//     components, [World.Set], [World.SetPtr], [Map.Set], [Map.Add],
//     [World.MarkChanged] (which notifies observers), [World.Defer],
//     [World.Flush], reparenting, registering components, filters and
//     observers, [Filter.Close], and [World.ChildIndex] (which numbers
//     siblings lazily). Record such changes in a [Commands] buffer, one
//     per goroutine, and [World.Apply] the buffers after [World.Thaw], in
//     a fixed order: then the result does not depend on how the work was
//     spread over goroutines.

// sharedIter is the serial number of a query opened while the World is
// frozen: it holds no lock of its own (the freeze does) and ends when the
// World thaws.
const sharedIter = ^uint64(0)

// Freeze makes the World read-only to structural changes so that several
// goroutines may read it at once and write component values in place, as
// the package's section on parallel work says. It panics if the World is
// already frozen. Deferred changes already queued stay queued.
func (w *World) Freeze() {
	if w.frozen {
		panic("ecs: Freeze: the World is already frozen")
	}
	w.frozen = true
}

// Thaw ends a [World.Freeze]. Queries opened while the World was frozen
// end too (their next step returns false). It panics if the World is not
// frozen.
func (w *World) Thaw() {
	if !w.frozen {
		panic("ecs: Thaw: the World is not frozen")
	}
	w.frozen = false
}

// Frozen reports whether the World is frozen ([World.Freeze]).
func (w *World) Frozen() bool { return w.frozen }

// mutable panics if the World is frozen; op names the call.
func (w *World) mutable(op string) {
	if w.frozen {
		w.frozenPanic(op)
	}
}

//go:noinline
func (w *World) frozenPanic(op string) {
	panic(fmt.Sprintf("ecs: %s while the World is frozen for parallel work: "+
		"a parallel system may read the World and write its own columns in place; "+
		"record structural changes, Set and MarkChanged in its Commands buffer instead", op))
}

// Commands is a buffer of changes to a [World] recorded now and applied
// later, in order, by [World.Apply]: the form in which parallel work on a
// frozen World ([World.Freeze]) makes structural changes. Each goroutine
// needs a buffer of its own; recording touches only the buffer. The zero
// Commands is an empty buffer, ready to use.
type Commands struct {
	cmds []command
}

// Destroy records the destruction of e (and its subtree, as
// [World.Destroy]); an entity gone by then is skipped.
func (c *Commands) Destroy(e Entity) {
	c.cmds = append(c.cmds, command{op: opDestroy, e: e})
}

// Add records the addition of the components ids to e with zero values;
// one e already has by then is left as it is (its value counted as
// changed), and a stale e is skipped.
func (c *Commands) Add(e Entity, ids ...ID) {
	for _, id := range ids {
		c.cmds = append(c.cmds, command{op: opAdd, e: e, id: id})
	}
}

// Remove records the removal of the components ids from e; one e lacks by
// then is skipped.
func (c *Commands) Remove(e Entity, ids ...ID) {
	for _, id := range ids {
		c.cmds = append(c.cmds, command{op: opRemove, e: e, id: id})
	}
}

// MarkChanged records a [World.MarkChanged] of e's component id, for a
// value written through a pointer or a column; skipped if e is gone or
// lacks id by then.
func (c *Commands) MarkChanged(e Entity, id ID) {
	c.cmds = append(c.cmds, command{op: opMark, e: e, id: id})
}

// Defer records a call of fn with the [World], made in order with the other
// changes. fn must not be nil.
func (c *Commands) Defer(fn func(*World)) {
	if fn == nil {
		panic("ecs: Commands.Defer: nil function")
	}
	c.cmds = append(c.cmds, command{op: opFunc, fn: fn})
}

// Len returns the number of changes recorded.
func (c *Commands) Len() int { return len(c.cmds) }

// Reset forgets the changes recorded.
func (c *Commands) Reset() {
	clear(c.cmds)
	c.cmds = c.cmds[:0]
}

// Apply applies the changes recorded in c, in order, and empties c. They
// are queued with the World's deferred changes and applied at once if the
// World is not locked ([World.Locked]), else when the last lock is
// released. Component IDs are checked here: Apply panics if one is not
// registered, or if the World is frozen.
func (w *World) Apply(c *Commands) {
	w.mutable("Apply")
	if len(c.cmds) == 0 {
		return
	}
	for i := range c.cmds {
		if op := c.cmds[i].op; op != opDestroy && op != opFunc {
			w.checkID("Apply", c.cmds[i].id)
		}
	}
	w.cmds = append(w.cmds, c.cmds...)
	c.Reset()
	w.settle()
}

// Chunk is a part of the entities a [Filter] matches: a range of rows of
// one of its tables ([Filter.Chunks]). Chunks of one filter never
// overlap, so goroutines may each walk one and write its rows.
type Chunk struct {
	w      *World
	tables []*table // the one table
	lo, n  int
}

// Len returns the number of entities in the chunk.
func (c Chunk) Len() int { return c.n }

// Chunks appends to dst the entities f matches now, cut into chunks of at
// most size rows: each table in turn (in the filter's order), cut at
// multiples of size from its first row; empty tables are skipped. The
// chunks depend only on the [World]'s tables, not on how many goroutines
// walk them. It panics if size is not positive.
func (f *Filter) Chunks(size int, dst []Chunk) []Chunk {
	if size <= 0 {
		panic(fmt.Sprintf("ecs: Filter.Chunks: size %d must be positive", size))
	}
	for i, t := range f.tables {
		n := t.len()
		for lo := 0; lo < n; lo += size {
			dst = append(dst, Chunk{w: f.w, tables: f.tables[i : i+1 : i+1], lo: lo, n: min(size, n-lo)})
		}
	}
	return dst
}

// Query iterates over the chunk's rows: one table ([Query.NextTable]
// once), whose [Query.Len], [Column], [Query.EntityAt] and the rest are
// the chunk's rows, numbered from 0. allowed, if not nil, limits the
// components whose values the query hands out ([Filter.QueryOnly]). The
// [World] must not have changed structure since [Filter.Chunks]; the query
// locks it as [Filter.Query] does.
func (c Chunk) Query(allowed *Mask) Query {
	if len(c.tables) == 0 {
		return Query{ti: -1, row: -1} // the zero Chunk: nothing
	}
	w := c.w
	return Query{w: w, tables: c.tables, ti: -1, row: -1, id: w.openIter(), off: c.lo, cnt: c.n, chunk: true, allow: allowed}
}

// QueryOnly is [Filter.Query] for code that may use only some components'
// values: [Column], [Query.ColumnPtr] and [Query.Ptr] panic for a
// component outside allowed (a scheduler hands each parallel system
// queries limited to the components it declared).
func (f *Filter) QueryOnly(allowed Mask) Query {
	q := f.Query()
	q.allow = &allowed
	return q
}

// denied panics: the query may not hand out id's values.
//
//go:noinline
func (q *Query) denied(op string, id ID) {
	q.w.checkID(op, id)
	panic(fmt.Sprintf("ecs: %s: component %q is not among the components this query may use "+
		"(a parallel system's query allows the components it declares it reads or writes)", op, q.w.comps[id].Name))
}

// colAt returns the column of id in the current table with the row offset
// of a chunk applied, or nil.
func (q *Query) colBase(op string, id ID) (unsafe.Pointer, uintptr, *column) {
	if q.allow != nil && !q.allow.Has(id) {
		q.denied(op, id)
	}
	c := q.t.col(id)
	if c == nil {
		return nil, 0, nil
	}
	return unsafe.Add(c.base, uintptr(q.off)*c.size), c.size, c
}
