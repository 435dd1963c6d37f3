package ecs

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// World holds entities ([Entity]), their components ([Map], [ID]),
// filters ([Filter]) and observers ([Observer]). The zero World is not
// usable; call [NewWorld].
//
// Methods that return an error report a handle that is stale, zero or of
// another World with [ErrStale], and a component [ID] that is not
// registered in this World with [ErrUnknownComponent]. Methods without an
// error result panic with an "ecs:" message on an unregistered ID, as each
// one's documentation says.
type World struct {
	tag     uint64
	records []record
	// promised is the room Reserve made for entities not made yet.
	promised int
	free     []uint32
	alive    int

	comps  []compInfo
	byName map[string]ID

	tables     []*table
	tableByKey map[string]uint32
	filters    []*Filter

	changes []uint64
	version uint64
	// compCols[id][table] is component id's column in that table (nil if
	// the table lacks it): one lookup for Map.Get.
	compCols [][]*column

	observers
	// locks counts what holds the World locked: open query iterations
	// and the library's own calls into user code (observers, batch fill
	// functions). open lists the serial numbers of the open iterations,
	// so that closing one twice (or through a copy) is harmless.
	locks    int
	iterSeq  uint64
	open     []uint64
	flushing bool
	cmds     []command
	frozen   bool // see Freeze

	h *hierarchy
}

// NewWorld returns an empty [World].
func NewWorld() *World {
	w := &World{
		tag:        nextWorldTag(),
		byName:     make(map[string]ID),
		tableByKey: make(map[string]uint32),
	}
	w.tableFor(Mask{}) // table 0: entities without components
	return w
}

// Len returns the number of live entities.
func (w *World) Len() int { return w.alive }

// Version returns a counter that grows with every structural change
// (entity created or destroyed, component added or removed, reparenting).
// [World.Changes] counts the changes of one component.
func (w *World) Version() uint64 { return w.version }

// Changes returns a counter that grows every time component id is added,
// removed or set through the World ([World.Set], [World.SetPtr], [Map.Set],
// [World.MarkChanged]). Comparing it with an earlier reading tells whether
// any value of that component may have changed. Writes through pointers
// (from [Map.Get], [World.GetPtr] or a query) are not seen unless followed
// by [World.MarkChanged]. It panics if id is not registered.
func (w *World) Changes(id ID) uint64 {
	w.checkID("Changes", id)
	return w.changes[id]
}

// Reserve makes room for n more entities with exactly the components
// ids (storage for their values, and their records): adding them
// afterwards grows no storage, where adding one at a time doubles it
// as it fills. A loader that knows what it is about to create calls it
// first; a guess that does not come true leaves room unused.
func (w *World) Reserve(n int, ids ...ID) {
	w.mutable("Reserve")
	if n <= 0 {
		return
	}
	for _, id := range ids {
		w.checkID("Reserve", id)
	}
	w.promised += n // room for entities made by earlier calls counts too
	if need := len(w.records) + w.promised - len(w.free); need > cap(w.records) {
		w.records = append(make([]record, 0, need), w.records...)
		if w.h != nil && need > cap(w.h.links) {
			w.h.links = append(make([]link, 0, need), w.h.links...)
		}
	}
	t := w.tableFor(MaskOf(ids...))
	if need := len(t.entities) + n; need > t.cap {
		t.grow(need)
	}
}

// Cap returns the number of entity slots the World has room for before
// its records grow (see Reserve): a size for arrays kept beside the
// World, indexed by entity index, to grow to at once.
func (w *World) Cap() int { return cap(w.records) }

// tableFor returns the table for mask, creating it if needed.
func (w *World) tableFor(mask Mask) *table {
	k := mask.key()
	if i, ok := w.tableByKey[k]; ok {
		return w.tables[i]
	}
	t := newTable(w, uint32(len(w.tables)), mask)
	w.tables = append(w.tables, t)
	w.tableByKey[k] = t.id
	for i := range t.cols {
		id := t.cols[i].id
		cc := w.compCols[id]
		for len(cc) <= int(t.id) {
			cc = append(cc, nil)
		}
		cc[t.id] = &t.cols[i]
		w.compCols[id] = cc
	}
	for _, f := range w.filters {
		if f.matches(t.mask) {
			f.tables = append(f.tables, t)
		}
	}
	return t
}

// tableWith returns the table reached from t by adding id.
func (w *World) tableWith(t *table, id ID) *table {
	if t.mask.Has(id) {
		return t // never cache an edge from a table to itself
	}
	if i, ok := t.addEdge[id]; ok {
		return w.tables[i]
	}
	to := w.tableFor(t.mask.With(id))
	if t.addEdge == nil {
		t.addEdge = make(map[ID]uint32)
	}
	t.addEdge[id] = to.id
	if to.removeEdge == nil {
		to.removeEdge = make(map[ID]uint32)
	}
	to.removeEdge[id] = t.id
	return to
}

// tableWithout returns the table reached from t by removing id.
func (w *World) tableWithout(t *table, id ID) *table {
	if !t.mask.Has(id) {
		return t // never cache an edge from a table to itself
	}
	if i, ok := t.removeEdge[id]; ok {
		return w.tables[i]
	}
	to := w.tableFor(t.mask.Without(id))
	if t.removeEdge == nil {
		t.removeEdge = make(map[ID]uint32)
	}
	t.removeEdge[id] = to.id
	if to.addEdge == nil {
		to.addEdge = make(map[ID]uint32)
	}
	to.addEdge[id] = t.id
	return to
}

func (w *World) checkID(op string, id ID) {
	if int(id) >= len(w.comps) {
		panic(fmt.Sprintf("ecs: %s: component ID %d is not registered in this World", op, id))
	}
}

// rec returns e's record, or nil if e is stale or made by another World
// (the zero Entity carries tag 0, which no World has).
func (w *World) rec(e Entity) *record {
	if e.index >= uint32(len(w.records)) || e.world != w.tag {
		return nil
	}
	r := &w.records[e.index]
	if r.gen != e.gen {
		return nil
	}
	return r
}

func staleErr(op string, e Entity) error {
	return fmt.Errorf("ecs: %s %v: %w", op, e, ErrStale)
}

// Alive reports whether e names a live entity of this World.
func (w *World) Alive(e Entity) bool { return w.rec(e) != nil }

// alloc takes a free entity slot and returns its handle.
func (w *World) alloc() Entity {
	w.mutable("creating an entity")
	if w.promised > 0 {
		w.promised--
	}
	if n := len(w.free); n > 0 {
		idx := w.free[n-1]
		w.free = w.free[:n-1]
		w.alive++
		return w.handle(idx)
	}
	idx := uint32(len(w.records))
	if idx == ^uint32(0) {
		panic("ecs: too many entities")
	}
	if len(w.records) == cap(w.records) {
		// Double: append grows a large slice by a quarter, which
		// allocates five times the final size over a big load.
		w.records = append(make([]record, 0, max(2*cap(w.records), 64)), w.records...)
	}
	w.records = append(w.records, record{row: freeRow, gen: 1})
	w.alive++
	if w.h != nil {
		w.h.grow(len(w.records))
	}
	return w.handle(idx)
}

// release frees e's slot: its generation moves on so that old handles go
// stale; a slot whose generation counter is exhausted is never reused.
func (w *World) release(idx uint32) {
	r := &w.records[idx]
	g := r.gen + 1
	r.gen = g // 0 after 2³²-1 reuses: retired
	r.table, r.row = 0, freeRow
	w.alive--
	if g != 0 {
		w.free = append(w.free, idx)
	}
}

// NewEntity creates an entity with zero values of the components ids. While
// a query iterates ([World.Locked]), the entity is created at once but its
// components are added when the iteration ends. It panics if an [ID] is not
// registered. [Builder1] to [Builder8] create entities with values.
func (w *World) NewEntity(ids ...ID) Entity {
	for _, id := range ids {
		w.checkID("NewEntity", id)
	}
	if w.locks > 0 {
		e := w.createIn(w.tables[0])
		// Once each, in increasing ID order, as when not deferred.
		for _, id := range MaskOf(ids...).IDs() {
			w.cmds = append(w.cmds, command{op: opAdd, e: e, id: id})
		}
		return e
	}
	t := w.tables[0]
	if len(ids) > 0 {
		t = w.tableFor(MaskOf(ids...))
	}
	e := w.createIn(t)
	w.settle()
	return e
}

// createIn creates an entity in t with zero values and emits its events.
func (w *World) createIn(t *table) Entity {
	e := w.alloc()
	row := t.appendRow(e.index)
	r := &w.records[e.index]
	r.table, r.row = t.id, row
	w.version++
	if w.h != nil {
		w.h.appendRoot(e.index)
	}
	for _, id := range t.ids {
		w.changes[id]++
	}
	if w.nobs > 0 {
		w.emitCreated(e, t)
	}
	return e
}

// created finishes the creation of e in t when no observer is registered
// and nothing is deferred: the counters and the hierarchy.
func (w *World) created(t *table, e Entity) {
	w.version++
	for _, id := range t.ids {
		w.changes[id]++
	}
	if w.h != nil {
		w.h.appendRoot(e.index)
	}
}

// emitCreated tells observers about a new entity and its components.
func (w *World) emitCreated(e Entity, t *table) {
	w.enter()
	done := false
	defer w.leave(&done)
	w.emit(EntityCreated, e, 0)
	for _, id := range t.ids {
		if w.rec(e) == nil {
			break
		}
		w.emit(ComponentAdded, e, id)
	}
	done = true
}

// Destroy destroys e and its whole subtree of children (children first;
// see [World.SetParent]). Observers see [ComponentRemoved] for each
// component, then [EntityDestroyed], while the data is still readable.
// While a query iterates, the destroy is deferred and e stays alive until
// the iteration ends. [World.DestroyAll] destroys every entity a [Filter]
// matches.
func (w *World) Destroy(e Entity) error {
	w.mutable("Destroy")
	if w.rec(e) == nil {
		return staleErr("Destroy", e)
	}
	if w.locks > 0 {
		w.cmds = append(w.cmds, command{op: opDestroy, e: e})
		return nil
	}
	w.destroyNow(e)
	w.settle()
	return nil
}

func (w *World) destroyNow(e Entity) {
	if w.h != nil && w.h.links[e.index].first != 0 {
		// Children first, last child first, so each sees its parent alive.
		for c := w.h.links[e.index].last; c != 0; {
			prev := w.h.links[c-1].prev
			ch := w.handle(c - 1)
			if w.rec(ch) != nil {
				w.destroyNow(ch)
			}
			c = prev
		}
	}
	r := w.rec(e)
	if r == nil {
		return // destroyed by an observer of a child
	}
	t := w.tables[r.table]
	if w.nobs > 0 {
		w.emitDestroyed(e, t)
		r = w.rec(e)
		t = w.tables[r.table]
	}
	for _, id := range t.ids {
		w.changes[id]++
	}
	if w.h != nil {
		w.h.unlink(w, e.index)
	}
	if moved, ok := t.removeRow(r.row); ok {
		w.records[moved].row = r.row
	}
	w.release(e.index)
	w.version++
}

// emitDestroyed tells observers that e and its components (those of t)
// are about to go.
func (w *World) emitDestroyed(e Entity, t *table) {
	w.enter()
	done := false
	defer w.leave(&done)
	for _, id := range t.ids {
		w.emit(ComponentRemoved, e, id)
	}
	w.emit(EntityDestroyed, e, 0)
	done = true
}

// emitAdded tells observers that e got the components ids, skipping those
// an earlier observer took away.
func (w *World) emitAdded(e Entity, ids []ID) {
	w.enter()
	done := false
	defer w.leave(&done)
	for _, id := range ids {
		if r := w.rec(e); r == nil || !w.tables[r.table].has(id) {
			continue
		}
		w.emit(ComponentAdded, e, id)
	}
	done = true
}

// Has reports whether e is alive and has component id. It panics if id is
// not registered.
func (w *World) Has(e Entity, id ID) bool {
	if r := w.rec(e); r != nil && w.tables[r.table].has(id) {
		return true
	}
	w.checkID("Has", id)
	return false
}

// Components returns the IDs ([ID]) of e's components in increasing order,
// or nil if e is stale.
func (w *World) Components(e Entity) []ID {
	r := w.rec(e)
	if r == nil {
		return nil
	}
	return append([]ID(nil), w.tables[r.table].ids...)
}

// Mask returns the set of e's components (its signature), the empty
// [Mask] if e is stale.
func (w *World) Mask(e Entity) Mask {
	r := w.rec(e)
	if r == nil {
		return Mask{}
	}
	return w.tables[r.table].mask
}

// GetPtr returns a pointer to e's value of component id. For a tag it
// returns a non-nil pointer to zero bytes. The error wraps [ErrStale],
// [ErrNoComponent] or [ErrUnknownComponent]. [Map.Get] is the typed,
// faster form.
func (w *World) GetPtr(e Entity, id ID) (unsafe.Pointer, error) {
	r := w.rec(e)
	if r == nil {
		return nil, staleErr("Get", e)
	}
	t := w.tables[r.table]
	if !t.has(id) {
		return nil, w.noComp("Get", e, id)
	}
	return t.col(id).ptr(r.row), nil
}

func (w *World) noComp(op string, e Entity, id ID) error {
	if int(id) >= len(w.comps) {
		return fmt.Errorf("ecs: %s %v: component %d: %w", op, e, id, ErrUnknownComponent)
	}
	return fmt.Errorf("ecs: %s %v %s: %w", op, e, w.comps[id].Name, ErrNoComponent)
}

// Get returns a copy of e's value of component id as an interface value.
// It is the convenient, slower form of [World.GetPtr] for code that only
// knows a component by [ID].
func (w *World) Get(e Entity, id ID) (any, error) {
	p, err := w.GetPtr(e, id)
	if err != nil {
		return nil, err
	}
	return reflect.NewAt(w.comps[id].Type, p).Elem().Interface(), nil
}

// Set sets e's value of component id from v, whose dynamic type must be
// the component's type ([Info.Type]). Like [World.SetPtr] it adds the
// component if absent. [Map.Set] is the typed, faster form.
func (w *World) Set(e Entity, id ID, v any) error {
	w.mutable("Set")
	if int(id) >= len(w.comps) {
		return w.noComp("Set", e, id)
	}
	ci := &w.comps[id]
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type() != ci.Type {
		return fmt.Errorf("ecs: Set %v %s: value of type %T, want %v", e, ci.Name, v, ci.Type)
	}
	p := ci.alloc()
	reflect.NewAt(ci.Type, p).Elem().Set(rv)
	return w.SetPtr(e, id, p)
}

// SetPtr copies the value at src into e's component id, adding the
// component if e does not have it (an add is deferred while a query
// iterates). src must point to a value of the component's type; for a tag
// it may be nil. Observers see [ComponentSet], or [ComponentAdded] for an
// add.
func (w *World) SetPtr(e Entity, id ID, src unsafe.Pointer) error {
	w.mutable("SetPtr")
	r := w.rec(e)
	if r == nil {
		return staleErr("Set", e)
	}
	if int(id) >= len(w.comps) {
		return w.noComp("Set", e, id)
	}
	t := w.tables[r.table]
	if !t.has(id) {
		return w.add(e, r, id, src)
	}
	if c := t.col(id); c != nil && src != nil {
		c.info.copyN(c.ptr(r.row), src, 1)
	}
	w.changes[id]++
	if w.nobs > 0 {
		w.emitLocked(ComponentSet, e, id)
		w.settle() // what the observers deferred, right after the operation
	}
	return nil
}

// MarkChanged records that e's component id was changed through a pointer
// (from [Map.Get], [World.GetPtr] or a query): it counts the change (see
// [World.Changes]) and notifies [ComponentSet] observers.
func (w *World) MarkChanged(e Entity, id ID) error {
	w.mutable("MarkChanged")
	r := w.rec(e)
	if r == nil {
		return staleErr("MarkChanged", e)
	}
	if !w.tables[r.table].has(id) {
		return w.noComp("MarkChanged", e, id)
	}
	w.changes[id]++
	if w.nobs > 0 {
		w.emitLocked(ComponentSet, e, id)
		w.settle() // what the observers deferred, right after the operation
	}
	return nil
}

// Add adds components ids to e with zero values. It is an error
// ([ErrHasComponent]) if e already has one of them; then none is added.
// Each is added in turn, as [World.AddPtr] adds one; [World.AddMany] adds
// several in one move.
func (w *World) Add(e Entity, ids ...ID) error {
	w.mutable("Add")
	r := w.rec(e)
	if r == nil {
		return staleErr("Add", e)
	}
	t := w.tables[r.table]
	for _, id := range ids {
		if int(id) >= len(w.comps) {
			return w.noComp("Add", e, id)
		}
		if t.has(id) {
			return fmt.Errorf("ecs: Add %v %s: %w", e, w.comps[id].Name, ErrHasComponent)
		}
	}
	for i, id := range ids {
		if slices.Contains(ids[:i], id) {
			continue // listed twice: add it once
		}
		r = w.rec(e)
		if r == nil {
			return nil // destroyed by an observer
		}
		if err := w.add(e, r, id, nil); err != nil {
			return err
		}
	}
	return nil
}

// AddPtr adds component id to e with the value at src (nil means the zero
// value). It is an error ([ErrHasComponent]) if e already has it.
// [Map.Add] is the typed form.
func (w *World) AddPtr(e Entity, id ID, src unsafe.Pointer) error {
	w.mutable("AddPtr")
	r := w.rec(e)
	if r == nil {
		return staleErr("Add", e)
	}
	if int(id) >= len(w.comps) {
		return w.noComp("Add", e, id)
	}
	if w.tables[r.table].has(id) {
		return fmt.Errorf("ecs: Add %v %s: %w", e, w.comps[id].Name, ErrHasComponent)
	}
	return w.add(e, r, id, src)
}

// add adds id to e (which does not have it), now or deferred.
func (w *World) add(e Entity, r *record, id ID, src unsafe.Pointer) error {
	if w.locks > 0 {
		c := command{op: opAdd, e: e, id: id}
		if src != nil && w.comps[id].Size > 0 {
			c.val = w.comps[id].alloc()
			w.comps[id].copyN(c.val, src, 1)
		}
		w.cmds = append(w.cmds, c)
		return nil
	}
	w.addNow(e, r, id, src)
	w.settle()
	return nil
}

func (w *World) addNow(e Entity, r *record, id ID, src unsafe.Pointer) {
	from := w.tables[r.table]
	to := w.tableWith(from, id)
	w.move(e, r, from, to)
	if src != nil {
		if c := to.col(id); c != nil {
			c.info.copyN(c.ptr(r.row), src, 1)
		}
	}
	w.changes[id]++
	w.version++
	if w.nobs > 0 {
		w.emitLocked(ComponentAdded, e, id)
	}
}

// move moves e's row from one table to another, keeping the values of the
// components both have.
func (w *World) move(e Entity, r *record, from, to *table) {
	row := to.appendRow(e.index)
	old := r.row
	for i := range from.cols {
		src := &from.cols[i]
		if dst := to.col(src.id); dst != nil {
			dst.copyRow(row, src, old)
		}
	}
	if moved, ok := from.removeRow(old); ok {
		w.records[moved].row = old
	}
	r.table, r.row = to.id, row
}

// Remove removes components ids from e. It is an error ([ErrNoComponent])
// if e lacks one of them; then none is removed. Observers see
// [ComponentRemoved] before each removal, with the value still readable.
func (w *World) Remove(e Entity, ids ...ID) error {
	w.mutable("Remove")
	r := w.rec(e)
	if r == nil {
		return staleErr("Remove", e)
	}
	t := w.tables[r.table]
	for _, id := range ids {
		if !t.has(id) {
			return w.noComp("Remove", e, id)
		}
	}
	if w.locks > 0 {
		for _, id := range ids {
			w.cmds = append(w.cmds, command{op: opRemove, e: e, id: id})
		}
		return nil
	}
	for _, id := range ids {
		w.removeNow(e, id)
	}
	w.settle()
	return nil
}

func (w *World) removeNow(e Entity, id ID) {
	r := w.rec(e)
	if r == nil || !w.tables[r.table].has(id) {
		return
	}
	if w.nobs > 0 {
		w.emitLocked(ComponentRemoved, e, id)
		if r = w.rec(e); r == nil || !w.tables[r.table].has(id) {
			return
		}
	}
	from := w.tables[r.table]
	w.move(e, r, from, w.tableWithout(from, id))
	w.changes[id]++
	w.version++
}

// AddMany adds the components ids to e in one move, with the values at
// srcs (srcs may be nil, or hold nil for a zero value). It is an error if
// e already has one of them ([ErrHasComponent]) or one is listed twice;
// then none is added. Observers see [ComponentAdded] for each, in the
// order of ids, after every value is written. While a query iterates, the
// adds are deferred one by one, like [World.AddPtr].
func (w *World) AddMany(e Entity, ids []ID, srcs []unsafe.Pointer) error {
	w.mutable("AddMany")
	r := w.rec(e)
	if r == nil {
		return staleErr("Add", e)
	}
	from := w.tables[r.table]
	for i, id := range ids {
		if int(id) >= len(w.comps) {
			return w.noComp("Add", e, id)
		}
		if from.has(id) {
			return fmt.Errorf("ecs: Add %v %s: %w", e, w.comps[id].Name, ErrHasComponent)
		}
		for _, x := range ids[:i] {
			if x == id {
				return fmt.Errorf("ecs: Add %v %s: listed twice", e, w.comps[id].Name)
			}
		}
	}
	src := func(i int) unsafe.Pointer {
		if i < len(srcs) {
			return srcs[i]
		}
		return nil
	}
	if w.locks > 0 {
		for i, id := range ids {
			if err := w.add(e, r, id, src(i)); err != nil {
				return err
			}
		}
		return nil
	}
	to := from
	for _, id := range ids {
		to = w.tableWith(to, id)
	}
	w.move(e, r, from, to)
	for i, id := range ids {
		if p := src(i); p != nil {
			if c := to.col(id); c.size > 0 {
				c.info.copyN(c.ptr(r.row), p, 1)
			}
		}
		w.changes[id]++
	}
	w.version++
	if w.nobs > 0 {
		w.emitAdded(e, ids)
	}
	w.settle()
	return nil
}
