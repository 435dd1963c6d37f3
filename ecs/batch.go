package ecs

import (
	"fmt"
	"slices"
	"unsafe"
)

// colBase returns the base pointer and element size of id's column in t;
// for a tag, a pointer to zero bytes and size 0.
func (t *table) colBase(id ID) (unsafe.Pointer, uintptr) {
	if c := t.col(id); c != nil {
		return c.base, c.size
	}
	return unsafe.Pointer(&zeroBase), 0
}

// batchCreate appends n zeroed rows of new entities to t and returns the
// first row. The caller fills the values, then calls batchCreated.
func (w *World) batchCreate(t *table, n int) uint32 {
	t.reserve(n)
	start := uint32(len(t.entities))
	for i := 0; i < n; i++ {
		e := w.alloc()
		r := &w.records[e.index]
		r.table, r.row = t.id, start+uint32(i)
		t.entities = append(t.entities, e.index)
		if w.h != nil {
			w.h.appendRoot(e.index)
		}
	}
	w.version++
	return start
}

// batchCreated counts the changes of n new rows from start and tells
// observers. It returns the first new entity.
func (w *World) batchCreated(t *table, start uint32, n int) Entity {
	for _, id := range t.ids {
		w.changes[id] += uint64(n)
	}
	first := t.entities[start]
	e0 := w.handle(first)
	if w.nobs > 0 {
		es := make([]Entity, n)
		for i := range es {
			idx := t.entities[int(start)+i]
			es[i] = w.handle(idx)
		}
		for _, e := range es {
			if r := w.rec(e); r != nil {
				w.emitCreated(e, w.tables[r.table])
			}
		}
	}
	w.settle()
	return e0
}

// NewEntities creates n entities with zero values of the components ids
// and returns them: the batch form of [World.NewEntity]. It panics if n
// is negative or more than the World has room for, or if an [ID] is not
// registered. [Builder2.NewBatch] and its kin create entities with
// values.
func (w *World) NewEntities(n int, ids ...ID) []Entity {
	for _, id := range ids {
		w.checkID("NewEntities", id)
	}
	w.checkCount("NewEntities", n)
	out := make([]Entity, 0, n)
	if n == 0 {
		return out
	}
	if w.locks > 0 {
		for i := 0; i < n; i++ {
			out = append(out, w.NewEntity(ids...))
		}
		return out
	}
	t := w.tableFor(MaskOf(ids...))
	start := w.batchCreate(t, n)
	for i := 0; i < n; i++ {
		idx := t.entities[int(start)+i]
		out = append(out, w.handle(idx))
	}
	w.batchCreated(t, start, n)
	return out
}

// checkCount panics unless n entities can be created: n is not negative
// and the World has that many slots left.
func (w *World) checkCount(op string, n int) {
	if n < 0 {
		panic(fmt.Sprintf("ecs: %s: negative count %d", op, n))
	}
	if room := maxEntities - int64(len(w.records)) + int64(len(w.free)); int64(n) > room {
		panic(fmt.Sprintf("ecs: %s: %d entities: a World holds at most %d", op, n, maxEntities))
	}
}

// sameWorld returns the World of the Maps given to a typed constructor,
// and panics if one is the zero Map or they belong to different Worlds.
func sameWorld(op string, ws ...*World) *World {
	for i, w := range ws {
		if w == nil {
			panic(fmt.Sprintf("ecs: %s: component %d is the zero Map (not registered)", op, i+1))
		}
		if w != ws[0] {
			panic(fmt.Sprintf("ecs: %s: component %d belongs to another World than component 1", op, i+1))
		}
	}
	return ws[0]
}

// leaveBatch releases the lock a batch fill function ran under. If the
// function panicked (*done false), the batch's rows, never announced to
// observers, are taken back first, and the deferred changes are applied.
func (w *World) leaveBatch(done *bool, t *table, start uint32, n int) {
	if !*done {
		w.undoBatch(t, start, n)
	}
	w.leave(done)
}

// undoBatch takes back the n rows of t from start that batchCreate made:
// their entities are freed (their handles go stale) without any event.
// While the fill function ran, the World was locked, so nothing else can
// have been appended to t (entities created while locked go to table 0,
// and a builder's table is never table 0): the rows are still t's last.
func (w *World) undoBatch(t *table, start uint32, n int) {
	if int(start)+n != t.len() {
		panic("ecs: internal error: a batch's rows moved while it was filled")
	}
	for i := n - 1; i >= 0; i-- {
		row := start + uint32(i)
		idx := t.entities[row]
		if w.h != nil {
			w.h.unlink(w, idx)
		}
		t.removeRow(row)
		w.release(idx)
	}
	w.version++
}

// undoLocked destroys, with the deferred changes, the entities a batch
// made one by one in a locked World, if its fill function panicked.
func (w *World) undoLocked(done *bool, made *[]Entity) {
	if *done {
		return
	}
	for _, e := range *made {
		if w.rec(e) != nil {
			w.cmds = append(w.cmds, command{op: opDestroy, e: e})
		}
	}
}

// snapshot returns a snapshot of the tables f matches.
func (f *Filter) snapshot() []*table {
	return append([]*table(nil), f.tables...)
}

// DestroyAll destroys every entity that matches f (with their subtrees,
// as [World.Destroy]) and returns how many matched. Without observers or a
// hierarchy it frees whole tables at a time. While a query iterates it is
// deferred and returns 0. It panics if f is nil or a [Filter] of another
// World.
func (w *World) DestroyAll(f *Filter) int {
	w.mutable("DestroyAll")
	w.checkFilter("DestroyAll", f)
	if w.locks > 0 {
		w.cmds = append(w.cmds, command{op: opFunc, fn: func(w *World) { w.DestroyAll(f) }})
		return 0
	}
	total := 0
	if w.nobs > 0 || w.h != nil {
		var es []Entity
		for _, t := range f.snapshot() {
			for _, idx := range t.entities {
				es = append(es, w.handle(idx))
			}
		}
		for _, e := range es {
			// An entity may already be gone with an earlier one's subtree;
			// it matched all the same.
			if w.rec(e) != nil {
				w.destroyNow(e)
			}
		}
		w.settle()
		return len(es)
	}
	for _, t := range f.snapshot() {
		n := t.len()
		if n == 0 {
			continue
		}
		total += n
		for _, idx := range t.entities {
			w.release(idx)
		}
		for i := range t.cols {
			c := &t.cols[i]
			c.info.zeroN(c.base, n)
		}
		for _, id := range t.ids {
			w.changes[id] += uint64(n)
		}
		t.entities = t.entities[:0]
	}
	w.version++
	return total
}

// AddAll adds component id (zero-valued) to every entity that matches f
// and lacks it, moving whole tables at a time. It returns how many
// entities changed. Observers see [ComponentAdded] for each. While a query
// iterates it is deferred and returns 0. It panics if f is nil or a
// [Filter] of another World, or if id is not registered.
func (w *World) AddAll(f *Filter, id ID) int {
	w.checkFilter("AddAll", f)
	w.checkID("AddAll", id)
	return w.moveAll(f, id, true)
}

// RemoveAll removes component id from every entity that matches f and has
// it, moving whole tables at a time (one entity at a time, as
// [World.Remove], when observers are registered). It returns how many
// entities changed. While a query iterates it is deferred and returns 0.
// It panics if f is nil or a [Filter] of another World, or if id is not
// registered.
func (w *World) RemoveAll(f *Filter, id ID) int {
	w.checkFilter("RemoveAll", f)
	w.checkID("RemoveAll", id)
	return w.moveAll(f, id, false)
}

func (w *World) moveAll(f *Filter, id ID, add bool) int {
	w.mutable("AddAll/RemoveAll")
	if w.locks > 0 {
		w.cmds = append(w.cmds, command{op: opFunc, fn: func(w *World) { w.moveAll(f, id, add) }})
		return 0
	}
	total := 0
	for _, from := range f.snapshot() {
		if from.has(id) == add || from.len() == 0 {
			continue
		}
		n := from.len()
		if w.nobs > 0 && !add {
			es := make([]Entity, n)
			for i, idx := range from.entities {
				es[i] = w.handle(idx)
			}
			for _, e := range es {
				w.removeNow(e, id)
			}
			total += n
			continue
		}
		var to *table
		if add {
			to = w.tableWith(from, id)
		} else {
			to = w.tableWithout(from, id)
		}
		to.reserve(n)
		start := uint32(to.len())
		for i := range from.cols {
			src := &from.cols[i]
			if dst := to.col(src.id); dst != nil {
				dst.info.copyN(dst.ptr(start), src.base, n)
			}
			src.info.zeroN(src.base, n)
		}
		for i, idx := range from.entities {
			r := &w.records[idx]
			r.table, r.row = to.id, start+uint32(i)
		}
		to.entities = append(to.entities, from.entities...)
		moved := from.entities
		if w.nobs > 0 {
			// Observers may create entities, which go to table 0 at once
			// and would overwrite moved if from is table 0.
			moved = slices.Clone(moved)
		}
		from.entities = from.entities[:0]
		w.changes[id] += uint64(n)
		w.version++
		total += n
		if w.nobs > 0 && add {
			w.emitAddedAll(moved[:n:n], id)
		}
	}
	w.version++
	w.settle()
	return total
}

// emitAddedAll tells observers that the entities in slots idxs got id.
func (w *World) emitAddedAll(idxs []uint32, id ID) {
	w.enter()
	done := false
	defer w.leave(&done)
	for _, idx := range idxs {
		w.emit(ComponentAdded, w.handle(idx), id)
	}
	done = true
}
