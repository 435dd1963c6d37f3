package ecs

import (
	"fmt"
	"iter"
)

// link holds an entity's place in the hierarchy. Fields are entity index
// + 1, so that 0 means none.
type link struct {
	parent, first, last, prev, next uint32
}

// hierarchy is allocated the first time a World uses parents; a World that
// never does pays nothing for it. Entities without a parent are roots,
// kept in a list in creation order (document order).
type hierarchy struct {
	links     []link
	rootFirst uint32
	rootLast  uint32
}

func (h *hierarchy) grow(n int) {
	for len(h.links) < n {
		h.links = append(h.links, link{})
	}
}

func (h *hierarchy) appendRoot(idx uint32) {
	l := &h.links[idx]
	*l = link{prev: h.rootLast}
	if h.rootLast != 0 {
		h.links[h.rootLast-1].next = idx + 1
	} else {
		h.rootFirst = idx + 1
	}
	h.rootLast = idx + 1
}

// detach takes idx out of its sibling list (its parent's, or the roots).
func (h *hierarchy) detach(idx uint32) {
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
		l.prev, l.next = *last, 0
		if *last != 0 {
			h.links[*last-1].next = idx + 1
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
// hierarchy function; calling it right after NewWorld also keeps the roots
// in exact creation order, because entities created before the hierarchy
// exists become roots in index order, and indexes are reused after
// destroys. A World that never needs hierarchy or document order should
// not call it: the hierarchy costs 20 bytes per entity and slows create
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

// Parent returns e's parent, or ok=false if e is a root or stale.
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
// among the roots), or ok=false if e is the last.
func (w *World) NextSibling(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.next })
}

// PrevSibling returns the entity before e among its siblings, or ok=false
// if e is the first.
func (w *World) PrevSibling(e Entity) (Entity, bool) {
	return w.linked(e, func(l *link) uint32 { return l.prev })
}

// Children returns e's children in order.
func (w *World) Children(e Entity) []Entity {
	var out []Entity
	for c := range w.ChildrenSeq(e) {
		out = append(out, c)
	}
	return out
}

// ChildrenSeq iterates over e's children in order without allocating.
// The loop body may change the hierarchy (see All); the walk stays among
// e's children and ends if e is destroyed.
func (w *World) ChildrenSeq(e Entity) iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		if w.rec(e) == nil || w.h == nil {
			return
		}
		w.siblings(w.h.links[e.index].first, e, yield)
	}
}

// Roots iterates over the entities without a parent, in document order:
// creation order, as moved by SetParent and InsertChild. Entities that
// existed before the hierarchy was first used come first, in index order;
// call EnableHierarchy right after NewWorld for exact creation order. The
// loop body may change the hierarchy (see All).
func (w *World) Roots() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		h := w.hier()
		w.siblings(h.rootFirst, Entity{}, yield)
	}
}

// All iterates over every live entity in document order: a pre-order walk
// of the hierarchy, roots in order (see Roots).
//
// The walks (All, Descendants, Roots, ChildrenSeq) do not lock the World.
// The loop body may change the hierarchy: the walk reads the links as it
// goes, so it sees those changes when it gets to them. If the body
// destroys the entity the walk is at, or moves it out of the walked tree,
// the walk goes on after that entity's place as it was (with its next
// sibling, or the next one up); it ends early only if that place is gone
// too (say the body also destroyed the next sibling). A walk never yields
// a dead entity or one outside its tree. To change the tree wholesale,
// collect the entities first (slices.Collect).
func (w *World) All() iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		h := w.hier()
		w.preorder(h.rootFirst, Entity{}, yield)
	}
}

// Descendants iterates over e's descendants in document order. The loop
// body may change the hierarchy (see All); the walk stays below e and ends
// if e is destroyed.
func (w *World) Descendants(e Entity) iter.Seq[Entity] {
	return func(yield func(Entity) bool) {
		if w.rec(e) == nil || w.h == nil {
			return
		}
		w.preorder(w.h.links[e.index].first, e, yield)
	}
}

// linkAlive reports whether the link value c names a live entity.
func (w *World) linkAlive(c uint32) bool {
	return c != 0 && w.records[c-1].row != freeRow
}

// siblings yields c (a link value) and the siblings after it, children of
// parent (the zero Entity: the roots), until yield returns false. If the
// body changed the World and the entity yielded is no longer among them,
// the walk goes on from the sibling that followed it, if that one still
// is.
func (w *World) siblings(c uint32, parent Entity, yield func(Entity) bool) {
	h := w.h
	var p uint32
	if !parent.IsZero() {
		p = parent.index + 1
	}
	for c != 0 {
		e := w.handle(c - 1)
		next, v := h.links[c-1].next, w.version
		if !yield(e) {
			return
		}
		if w.version != v {
			if !parent.IsZero() && w.rec(parent) == nil {
				return
			}
			if w.rec(e) == nil || h.links[c-1].parent != p {
				if !w.linkAlive(next) || h.links[next-1].parent != p {
					return
				}
				c = next
				continue
			}
		}
		c = h.links[c-1].next
	}
}

// preorder walks the hierarchy in pre-order from c (a link value) and its
// following siblings, staying below top (the zero Entity: the whole
// forest), until yield returns false. See All for changes made by the
// loop body.
func (w *World) preorder(c uint32, top Entity, yield func(Entity) bool) {
	h := w.h
	var t uint32 // top as a link value
	if !top.IsZero() {
		t = top.index + 1
	}
	for c != 0 {
		e := w.handle(c - 1)
		next, parent, v := h.links[c-1].next, h.links[c-1].parent, w.version
		if !yield(e) {
			return
		}
		if w.version != v {
			if !top.IsZero() && w.rec(top) == nil {
				return
			}
			if w.rec(e) == nil || !h.within(c, t) {
				c = w.resume(next, parent, t)
				continue
			}
		}
		if f := h.links[c-1].first; f != 0 {
			c = f
			continue
		}
		c = h.after(c, t)
	}
}

// within reports whether the live entity at link c is t or below it (t 0:
// anywhere).
func (h *hierarchy) within(c, t uint32) bool {
	if t == 0 {
		return true
	}
	for ; c != 0; c = h.links[c-1].parent {
		if c == t {
			return true
		}
	}
	return false
}

// after returns the entity that follows c's subtree in a pre-order walk
// below t (0: the walk is over). c must be alive and within t.
func (h *hierarchy) after(c, t uint32) uint32 {
	for c != t && h.links[c-1].next == 0 {
		c = h.links[c-1].parent
	}
	if c == t {
		return 0
	}
	return h.links[c-1].next
}

// resume returns where a pre-order walk below t goes on after an entity
// that the loop body destroyed or moved away, given the next sibling and
// parent it had when it was yielded (0: the walk is over).
func (w *World) resume(next, parent, t uint32) uint32 {
	h := w.h
	parentOK := parent == 0 || w.linkAlive(parent) && h.within(parent, t)
	if !parentOK {
		return 0
	}
	if w.linkAlive(next) && h.links[next-1].parent == parent {
		return next
	}
	if parent == 0 || parent == t {
		return 0
	}
	return h.after(parent, t)
}

// IsAncestor reports whether a is a proper ancestor of e.
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
// its own ancestor is an error (ErrCycle). While the World is locked (a
// query iterates, or an observer runs) the reparenting is checked at once
// but applied with the other deferred changes, in order; it is skipped
// then if it has become invalid.
func (w *World) SetParent(child, parent Entity) error {
	return w.InsertChild(parent, child, -1)
}

// InsertChild makes child the index-th child of parent (0 is the first;
// -1 or an index past the end appends). A zero parent means the roots.
// An index below -1 is an error.
func (w *World) InsertChild(parent, child Entity, index int) error {
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
// e is stale.
func (w *World) ChildIndex(e Entity) int {
	if w.rec(e) == nil {
		return -1
	}
	h := w.hier()
	n := 0
	for c := h.links[e.index].prev; c != 0; c = h.links[c-1].prev {
		n++
	}
	return n
}
