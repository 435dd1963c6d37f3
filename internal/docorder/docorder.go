// Package docorder keeps the document-order index that the selectors
// over one World share: each live entity's position in a pre-order walk
// of the hierarchy (the order of ecs.World.All). The selector package
// orders query results and evaluates combinators set at a time with it;
// the registry holds the one Index all selectors compiled against it
// share. It is internal so that this plumbing between the two packages is
// not part of their API.
package docorder

import (
	"math/bits"
	"slices"

	"github.com/scenecs/scenecs/ecs"
)

// Sharer is implemented by a selector source whose selectors share one
// Index; a source that does not implement it gets one Index per selector.
type Sharer interface {
	DocOrderIndex() *Index
}

// Index is the document-order index of one World, built lazily by the
// first query that needs to order more than one result and kept until the
// World's Version changes. An Index must only be used with one World. The
// zero Index is empty and ready to use.
//
// The exported fields are valid after [Index.Refresh] (Par and Prv after
// [Index.Link]) until the World changes structurally; callers only read
// them, apart from the scratch Bits.
type Index struct {
	w       *ecs.World
	version uint64
	valid   bool
	// Pos maps an entity index to the entity's position in document
	// order; Order is the entities by position.
	Pos   []uint32
	Order []ecs.Entity
	// Mono reports that document order is entity index order (a World
	// built in document order, or flat); ByIdx then maps index → entity,
	// and results are ordered by index without the Pos lookup.
	Mono  bool
	ByIdx []ecs.Entity
	// Bits is scratch space for callers that mark entities by index.
	Bits []uint64
	keys []uint32 // scratch
	// Par and Prv give, by position, the position of the parent and of
	// the previous sibling, -1 for none; both precede the entity in
	// document order. They are built on demand by Link, for set-at-a-time
	// evaluation.
	Par, Prv []int32
	linked   bool // Par and Prv are up to date
}

// Refresh rebuilds the index if the World changed structurally.
func (c *Index) Refresh(w *ecs.World) {
	if c.valid && c.w == w && c.version == w.Version() {
		return
	}
	c.Order = c.Order[:0]
	maxIdx := uint32(0)
	for e := range w.All() {
		c.Order = append(c.Order, e)
		maxIdx = max(maxIdx, e.Index())
	}
	if n := int(maxIdx) + 1; len(c.Pos) < n {
		c.Pos = make([]uint32, n+n/4)
	}
	c.Mono = true
	for i, e := range c.Order {
		c.Pos[e.Index()] = uint32(i)
		if i > 0 && e.Index() <= c.Order[i-1].Index() {
			c.Mono = false
		}
	}
	if c.Mono {
		if n := int(maxIdx) + 1; len(c.ByIdx) < n {
			c.ByIdx = make([]ecs.Entity, n+n/4)
		}
		for _, e := range c.Order {
			c.ByIdx[e.Index()] = e
		}
	}
	c.w, c.version, c.valid = w, w.Version(), true
	c.linked = false
}

// Link brings the index up to date with its parent and previous-sibling
// positions.
func (c *Index) Link(w *ecs.World) {
	c.Refresh(w)
	if c.linked {
		return
	}
	n := len(c.Order)
	if cap(c.Par) < n {
		c.Par = make([]int32, n, n+n/4)
		c.Prv = make([]int32, n, n+n/4)
	}
	c.Par, c.Prv = c.Par[:n], c.Prv[:n]
	for i, e := range c.Order {
		c.Par[i], c.Prv[i] = -1, -1
		if p, ok := w.Parent(e); ok {
			c.Par[i] = int32(c.Pos[p.Index()])
		}
		if q, ok := w.PrevSibling(e); ok {
			c.Prv[i] = int32(c.Pos[q.Index()])
		}
	}
	c.linked = true
}

// Has reports whether e's position is set in b, a bitset by document
// position built since the last Refresh.
func (c *Index) Has(b []uint64, e ecs.Entity) bool {
	p := c.Pos[e.Index()]
	return b[p>>6]&(1<<(p&63)) != 0
}

// AppendOrdered appends ents to dst in document order, each once.
func (c *Index) AppendOrdered(w *ecs.World, dst, ents []ecs.Entity) []ecs.Entity {
	switch len(ents) {
	case 0:
		return dst
	case 1:
		return append(dst, ents[0])
	}
	c.Refresh(w)
	k, n := len(ents), len(c.Order)
	if k*bits.Len(uint(k))*4 < n/64 {
		// Few results: sort their positions.
		keys := c.keys[:0]
		for _, e := range ents {
			keys = append(keys, c.Pos[e.Index()])
		}
		slices.Sort(keys)
		prev := ^uint32(0)
		for _, p := range keys {
			if p != prev {
				dst = append(dst, c.Order[p])
				prev = p
			}
		}
		c.keys = keys
		return dst
	}
	if c.Mono {
		// Many results, document order is index order: mark indexes.
		nw := (len(c.ByIdx) + 63) / 64
		if cap(c.Bits) < nw {
			c.Bits = make([]uint64, nw)
		}
		bs := c.Bits[:nw]
		clear(bs)
		for _, e := range ents {
			i := e.Index()
			bs[i>>6] |= 1 << (i & 63)
		}
		dst = slices.Grow(dst, k)
		for i, x := range bs {
			for x != 0 {
				b := bits.TrailingZeros64(x)
				dst = append(dst, c.ByIdx[i<<6|b])
				x &= x - 1
			}
		}
		return dst
	}
	// Many results: mark positions in a bitset and scan it.
	nw := (n + 63) / 64
	if cap(c.Bits) < nw {
		c.Bits = make([]uint64, nw)
	}
	bs := c.Bits[:nw]
	clear(bs)
	for _, e := range ents {
		p := c.Pos[e.Index()]
		bs[p>>6] |= 1 << (p & 63)
	}
	dst = slices.Grow(dst, k)
	for i, x := range bs {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			dst = append(dst, c.Order[i<<6|b])
			x &= x - 1
		}
	}
	return dst
}

// First returns the entity of ents that comes first in document order.
func (c *Index) First(w *ecs.World, ents []ecs.Entity) ecs.Entity {
	if len(ents) == 1 {
		return ents[0]
	}
	c.Refresh(w)
	best := ents[0]
	bp := c.Pos[best.Index()]
	for _, e := range ents[1:] {
		if p := c.Pos[e.Index()]; p < bp {
			best, bp = e, p
		}
	}
	return best
}

// Shared holds the Index of a source whose selectors share one. A type
// that embeds it implements [Sharer]; the registry embeds it under an
// unexported alias, so the method stays out of the registry's API.
type Shared struct{ idx Index }

// DocOrderIndex returns the shared Index.
func (s *Shared) DocOrderIndex() *Index { return &s.idx }
