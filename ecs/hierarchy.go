package ecs

import (
	"fmt"
	"iter"
	"slices"
)

// link holds an entity's place in the hierarchy. The fields but index are
// entity index + 1, so that 0 means none.
//
// index is the entity's place among its siblings, kept lazily: a list of
// siblings (a parent's children, or the roots) is numbered if its first
// entity's index is not unnumbered. Appending to a list, or taking its
// last entity out, keeps it numbered; a change that shifts places marks
// its first entity unnumbered, and ChildIndex numbers the list again. So
// the upkeep is a store per change, and naming every one of many siblings
// takes time linear in their number.
type link struct {
	parent, first, last, prev, next uint32
	index                           uint32
}

// unnumbered marks the first entity of a list of siblings whose indexes
// are out of date.
const unnumbered = ^uint32(0)

// hierarchy is allocated the first time a World uses parents; a World that
// never does pays nothing for it. Entities without a parent are roots,
// kept in a list in creation order (document order).
type hierarchy struct {
	links     []link
	rootFirst uint32
	rootLast  uint32
	// walks are the walks in progress (see walk), spare walks for reuse.
	walks, spare []*walk
}

// grow makes room for links of n entities (doubling, as the World's
// records grow).
func (h *hierarchy) grow(n int) {
	if n <= len(h.links) {
		return
	}
	if n > cap(h.links) {
		h.links = append(make([]link, 0, max(n, 2*cap(h.links), 64)), h.links...)
	}
	h.links = h.links[:n]
}

func (h *hierarchy) appendRoot(idx uint32) {
	l := &h.links[idx]
	*l = link{prev: h.rootLast}
	if h.rootLast != 0 {
		last := &h.links[h.rootLast-1]
		last.next = idx + 1
		l.index = last.index + 1 // wraps if unnumbered: the list is anyway
	} else {
		h.rootFirst = idx + 1
	}
	h.rootLast = idx + 1
}

// detach takes idx out of its sibling list (its parent's, or the roots).
func (h *hierarchy) detach(idx uint32) {
	if len(h.walks) > 0 {
		h.moveWalks(idx)
	}
	l := &h.links[idx]
	first, last := &h.rootFirst, &h.rootLast
	if l.parent != 0 {
		p := &h.links[l.parent-1]
		first, last = &p.first, &p.last
	}
	if l.prev != 0 {
		h.links[l.prev-1].next = l.next
	} else {
		*first = l.next
	}
	if l.next != 0 {
		h.links[l.next-1].prev = l.prev
		h.links[*first-1].index = unnumbered // the places after idx shift
	} else {
		*last = l.prev
	}
	l.parent, l.prev, l.next = 0, 0, 0
}

// insertBefore puts idx into parent's children (parent 0: the roots) before
// sibling before (0: at the end).
func (h *hierarchy) insertBefore(idx, parent, before uint32) {
	l := &h.links[idx]
	first, last := &h.rootFirst, &h.rootLast
	if parent != 0 {
		p := &h.links[parent-1]
		first, last = &p.first, &p.last
	}
	l.parent = parent
	if before == 0 {
		l.prev, l.next, l.index = *last, 0, 0
		if *last != 0 {
			p := &h.links[*last-1]
			p.next = idx + 1
			l.index = p.index + 1 // wraps if unnumbered: the list is anyway
		} else {
			*first = idx + 1
		}
		*last = idx + 1
		return
	}
	b := &h.links[before-1]
	l.prev, l.next = b.prev, before
	if b.prev != 0 {
		h.links[b.prev-1].next = idx + 1
	} else {
		*first = idx + 1
	}
	b.prev = idx + 1
	h.links[*first-1].index = unnumbered // the places from idx on shift
}

// unlink removes a dying entity from the hierarchy; its children must be
// gone already.
func (h *hierarchy) unlink(w *World, idx uint32) {
	h.detach(idx)
	h.links[idx] = link{}
}

// hier returns the hierarchy, creating it on first use: every live entity
// becomes a root, in index order (which is creation order only until a
// slot is reused; EnableHierarchy early keeps exact creation order).
func (w *World) hier() *hierarchy {
	if w.h != nil {
		return w.h
	}
	w.mutable("starting the hierarchy")
	h := &hierarchy{}
	h.grow(len(w.records))
	for i := range w.records {
		if w.records[i].row != freeRow {
			h.appendRoot(uint32(i))
		}
	}
	w.h = h
	return h
}

// EnableHierarchy makes the World track parents, children and document
// order from now on. Every World does so from its first use of a
// hierarchy function; calling it right after [NewWorld] also keeps the
// roots ([World.Roots]) in exact creation order, because entities created before the hierarchy
// exists become roots in index order, and indexes are reused after
// destroys. A World that never needs hierarchy or document order should
// not call it: the hierarchy costs 24 bytes per entity and slows create
// and destroy a little.
func (w *World) EnableHierarchy() { w.hier() }

// linked returns the entity one of e's links (picked by field) points to,
// or ok=false if e is stale, has no hierarchy, or the link is empty.
func (w *World) linked(e Entity, field func(*link) uint32) (Entity, bool) {
	if w.rec(e) == nil || w.h == nil {
		return Entity{}, false
	}
	v := field(&w.h.links[e.index])
	return w.entityAt(v), v != 0
}

func (w *World) entityAt(v uint32) Entity {
	if v == 0 {
		return Entity{}
	}
	return w.handle(v - 1)
}

// Parent returns e's parent, or ok=false if e is a root or stale. See
// [World.SetParent].
func (w *World) Parent(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.parent })
}

// FirstChild returns e's first child, or ok=false if it has none.
func (w *World) FirstChild(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.first })
}

// LastChild returns e's last child, or ok=false if it has none.
func (w *World) LastChild(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.last })
}

// NextSibling returns the entity after e among its parent's children (or
// among the roots, [World.Roots]), or ok=false if e is the last.
func (w *World) NextSibling(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.next })
}

// PrevSibling returns the entity before e among its siblings, or ok=false
// if e is the first.
func (w *World) PrevSibling(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.prev })
}

// Children returns e's children in order. [World.ChildrenSeq] iterates
// over them without allocating.
func (w *World) Children(e Entity) []Entity {
	var out []Entity
	for c := range w.ChildrenSeq(e) {
		out = append(out, c)
	}
	return out
}

// ChildrenSeq iterates over e's children in order without allocating.
// The loop body may change the hierarchy (see [World.All]); the walk stays
// among e's children.
func (w *World) ChildrenSeq(e Entity) iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		if w.rec(e) == nil || w.h == nil {
			return
		}
		w.siblings(w.h.links[e.index].first, yield)
	}
}

// Roots iterates over the entities without a parent, in document order:
// creation order, as moved by [World.SetParent] and [World.InsertChild].
// Entities that existed before the hierarchy was first used come first,
// in index order; call [World.EnableHierarchy] right after [NewWorld] for
// exact creation order. The loop body may change the hierarchy (see
// [World.All]).
func (w *World) Roots() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		h := w.hier()
		w.siblings(h.rootFirst, yield)
	}
}

// All iterates over every live entity in document order: a pre-order walk
// of the hierarchy, roots in order (see [World.Roots]).
//
// The walks (All, [World.Descendants], [World.Roots],
// [World.ChildrenSeq]) do not lock the World ([World.Locked]),
// and the loop body may change the hierarchy. The walk reads the links as
// it goes, so it sees entities added ahead of it. If the body destroys or
// moves the entity the walk is at (or, for All and Descendants, one of
// its ancestors below the walk's top), the walk goes on from where that
// entity was: with what followed its subtree at that moment. So
// destroying entities as they are visited visits every other entity once,
// in order. A walk never yields a dead entity, nor one outside its tree.
func (w *World) All() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		h := w.hier()
		w.preorder(h.rootFirst, 0, yield)
	}
}

// Descendants iterates over e's descendants in document order. The loop
// body may change the hierarchy (see [World.All]); the walk stays below e.
func (w *World) Descendants(e Entity) iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		if w.rec(e) == nil || w.h == nil {
			return
		}
		w.preorder(w.h.links[e.index].first, e.index+1, yield)
	}
}

// walk is a hierarchy walk in progress. detach keeps it valid: when the
// loop body detaches the entity at c (or, for a pre-order walk, one of
// its ancestors below t), c moves on to what followed that entity's
// subtree, and jumped says that c is the next entity to yield.
type walk struct {
	c      uint32 // link value of the entity being yielded (or the next one)
	t      uint32 // pre-order walks stay below t (0: the whole forest)
	flat   bool   // a walk along one list of siblings
	jumped bool
	loose  bool // not registered: started while the World was frozen
}

// startWalk starts a walk from c, registered with the hierarchy so that
// changes move it, unless the World is frozen (nothing changes then, and
// walks run on several goroutines); endWalk must follow.
func (w *World) startWalk(c, t uint32, flat bool) *walk {
	if w.frozen {
		return &walk{c: c, t: t, flat: flat, loose: true}
	}
	return w.h.startWalk(c, t, flat)
}

// endWalk ends a walk started by startWalk.
func (w *World) endWalk(wk *walk) {
	if !wk.loose {
		w.h.endWalk(wk)
	}
}

// startWalk registers a walk from c; endWalk must follow.
func (h *hierarchy) startWalk(c, t uint32, flat bool) *walk {
	var wk *walk
	if n := len(h.spare); n > 0 {
		wk = h.spare[n-1]
		h.spare = h.spare[:n-1]
	} else {
		wk = new(walk)
	}
	*wk = walk{c: c, t: t, flat: flat}
	h.walks = append(h.walks, wk)
	return wk
}

// endWalk unregisters a walk and keeps it for reuse.
func (h *hierarchy) endWalk(wk *walk) {
	if i := slices.Index(h.walks, wk); i >= 0 {
		h.walks = slices.Delete(h.walks, i, i+1)
	}
	h.spare = append(h.spare, wk)
}

// moveWalks moves the walks that idx's detachment would strand: those at
// idx, and pre-order walks below idx. The links are still intact.
func (h *hierarchy) moveWalks(idx uint32) {
	x := idx + 1
	for _, wk := range h.walks {
		if wk.c == 0 {
			continue
		}
		if wk.flat {
			if wk.c == x {
				wk.c, wk.jumped = h.links[idx].next, true
			}
			continue
		}
		for a := wk.c; a != 0 && a != wk.t; a = h.links[a-1].parent {
			if a == x {
				wk.c, wk.jumped = h.after(x, wk.t), true
				break
			}
		}
	}
}

// siblings yields c (a link value) and the siblings after it until yield
// returns false.
func (w *World) siblings(c uint32, yield func(Entity) bool) {
	h := w.h
	wk := w.startWalk(c, 0, true)
	defer w.endWalk(wk)
	for wk.c != 0 {
		c := wk.c
		if !yield(w.handle(c - 1)) {
			return
		}
		if wk.jumped {
			wk.jumped = false
			continue
		}
		wk.c = h.links[c-1].next
	}
}

// preorder walks the hierarchy in pre-order from c (a link value) and its
// following siblings, staying below t (a link value; 0 for the whole
// forest), until yield returns false.
func (w *World) preorder(c, t uint32, yield func(Entity) bool) {
	h := w.h
	wk := w.startWalk(c, t, false)
	defer w.endWalk(wk)
	for wk.c != 0 {
		c := wk.c
		if !yield(w.handle(c - 1)) {
			return
		}
		if wk.jumped {
			wk.jumped = false
			continue
		}
		if f := h.links[c-1].first; f != 0 {
			wk.c = f
			continue
		}
		wk.c = h.after(c, t)
	}
}

// after returns the entity that follows c's subtree in a pre-order walk
// below t (0: the walk is over). c must be below t (or t 0).
func (h *hierarchy) after(c, t uint32) uint32 {
	for c != t && h.links[c-1].next == 0 {
		c = h.links[c-1].parent
	}
	if c == t {
		return 0
	}
	return h.links[c-1].next
}

// IsAncestor reports whether a is a proper ancestor of e (its parent, the
// parent's parent, ...; see [World.Parent]).
func (w *World) IsAncestor(a, e Entity) bool {
	if w.rec(a) == nil || w.rec(e) == nil || w.h == nil {
		return false
	}
	for p := w.h.links[e.index].parent; p != 0; p = w.h.links[p-1].parent {
		if p == a.index+1 {
			return true
		}
	}
	return false
}

// SetParent makes child the last child of parent. A zero parent makes
// child a root again (appended at the end of the roots). Making an entity
// its own ancestor is an error ([ErrCycle]). While the World is locked
// ([World.Locked]: a query iterates, or an observer runs) the reparenting
// is checked at once but applied with the other deferred changes, in
// order; it is skipped then if it has become invalid. Observers see
// [ChildDetached] and [ChildAttached], as [Event] tells.
// [World.InsertChild] puts child at a given place.
func (w *World) SetParent(child, parent Entity) error {
	return w.InsertChild(parent, child, -1)
}

// InsertChild makes child the index-th child of parent (0 is the first;
// -1 or an index past the end appends). A zero parent means the roots.
// An index below -1 is an error. Otherwise it is [World.SetParent] with a
// place.
func (w *World) InsertChild(parent, child Entity, index int) error {
	w.mutable("SetParent")
	if index < -1 {
		return fmt.Errorf("ecs: InsertChild %v: index %d (want -1 to append, or 0 and up)", child, index)
	}
	if w.rec(child) == nil {
		return staleErr("SetParent", child)
	}
	if !parent.IsZero() && w.rec(parent) == nil {
		return fmt.Errorf("ecs: SetParent %v: parent %v: %w", child, parent, ErrStale)
	}
	if parent == child || (!parent.IsZero() && w.IsAncestor(child, parent)) {
		return fmt.Errorf("ecs: SetParent %v under %v: %w", child, parent, ErrCycle)
	}
	if w.locks > 0 {
		// Reparenting in the middle of a Destroy's subtree walk, or of
		// another reparenting, would corrupt the links: defer it.
		w.cmds = append(w.cmds, command{op: opFunc, fn: func(w *World) { _ = w.InsertChild(parent, child, index) }})
		return nil
	}
	h := w.hier()
	var p uint32
	if !parent.IsZero() {
		p = parent.index + 1
	}
	old := h.links[child.index].parent
	if w.nobs > 0 && old != 0 {
		w.emitLocked(ChildDetached, child, 0)
	}
	h.detach(child.index)
	// Find the sibling to insert before.
	var before uint32
	if index >= 0 {
		first := h.rootFirst
		if p != 0 {
			first = h.links[p-1].first
		}
		before = first
		for i := 0; i < index && before != 0; i++ {
			before = h.links[before-1].next
		}
	}
	h.insertBefore(child.index, p, before)
	w.version++
	if w.nobs > 0 && p != 0 {
		w.emitLocked(ChildAttached, child, 0)
	}
	w.settle()
	return nil
}

// ChildIndex returns e's position among its siblings (0-based), or -1 if
// e is stale. It takes constant time, except the first call after a change
// that shifted places among e's siblings (an insertion before the last, or
// a removal but of the last), which numbers them all again: naming each
// of many siblings takes time linear in their number. As that numbering
// writes to the World, ChildIndex must not run beside other calls on it,
// reads included.
func (w *World) ChildIndex(e Entity) int {
	w.mutable("ChildIndex")
	if w.rec(e) == nil {
		return -1
	}
	h := w.hier()
	l := &h.links[e.index]
	first := h.rootFirst
	if l.parent != 0 {
		first = h.links[l.parent-1].first
	}
	if h.links[first-1].index == unnumbered {
		h.number(first)
	}
	return int(l.index)
}

// number numbers the list of siblings that starts at first (a link value).
func (h *hierarchy) number(first uint32) {
	i := uint32(0)
	for c := first; c != 0; c = h.links[c-1].next {
		h.links[c-1].index = i
		i++
	}
}
