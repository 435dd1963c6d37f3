package selector

import (
	"math/bits"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/docorder"
)

// Set-at-a-time evaluation of a complex selector.
//
// Right-to-left matching (match.go) answers for one entity at a time and
// memoises (step, entity) pairs, so a call that asks about many entities
// of a long chain keeps a memo entry per step and entity. When a call's
// right-to-left work exceeds its budget (about one unit per live entity),
// or the plan is longer than maxRTLSteps, the plan is evaluated here
// instead: one pass per step over the document-order index gives the set
// of entities matching the steps so far, as a bitset by document
// position, and only the previous step's set is kept. The time is linear
// in entities × steps, and the memory is two bitsets of one bit per
// entity, whatever the number of steps. The result stays valid for the
// rest of the call.
//
// Both passes rely on document order being a pre-order walk: an entity's
// parent and previous sibling come before it.

// bits returns a cleared bitset of nw words, reusing a spare one.
func (s *Selector) bits(nw int) []uint64 {
	if k := len(s.spare); k > 0 {
		b := s.spare[k-1]
		s.spare = s.spare[:k-1]
		if cap(b) >= nw {
			b = b[:nw]
			clear(b)
			return b
		}
	}
	return make([]uint64, nw)
}

// buildSet computes p.set: for a plan that is not relative, the entities
// that match it as its subject; for a relative plan (inside :has), the
// anchors from which it matches.
func (p *complexPlan) buildSet(x *exec) {
	s := x.s
	c := s.cache
	c.Link(x.w)
	nw := (len(c.Order) + 63) / 64
	if p.relative {
		p.set = p.backward(x, c, nw)
	} else {
		p.set = p.forward(x, c, nw)
	}
}

// forward computes the set of subjects, left to right: the entities that
// match step 0, then those related to them by combs[1] that match step 1,
// and so on.
func (p *complexPlan) forward(x *exec, c *docorder.Index, nw int) []uint64 {
	s := x.s
	cur := s.bits(nw)
	ok := p.steps[0].mark(x, c, cur)
	if len(p.steps) > 1 {
		r := s.bits(nw)
		for k := 1; k < len(p.steps) && ok; k++ {
			ok = relForward(s, c, p.combs[k], cur, r)
			if ok {
				ok = p.steps[k].keep(x, c, r, cur)
			}
		}
		s.spare = append(s.spare, r)
	}
	if !ok {
		clear(cur)
	}
	return cur
}

// backward computes the set of anchors of a relative plan, right to left:
// the entities that match the last step, then the entities they are
// related to by its combinator that match the step before, and so on; the
// anchors are the entities related to step 0's set by the leading
// combinator.
func (p *complexPlan) backward(x *exec, c *docorder.Index, nw int) []uint64 {
	s := x.s
	t := s.bits(nw)
	u := s.bits(nw)
	ok := p.steps[len(p.steps)-1].mark(x, c, t)
	for k := len(p.steps) - 1; ok; k-- {
		ok = relBackward(s, c, p.combs[k], t, u)
		if k == 0 {
			t, u = u, t
			break
		}
		if ok {
			ok = p.steps[k-1].keep(x, c, u, t)
		}
	}
	s.spare = append(s.spare, u)
	if !ok {
		clear(t)
	}
	return t
}

// relForward sets in dst the entities that stand in relation comb to some
// entity of src: the entities whose parent (Child), proper ancestor
// (Descendant), previous sibling (NextSibling) or earlier sibling
// (SubsequentSibling) is in src. It reports whether dst is not empty.
func relForward(s *Selector, c *docorder.Index, comb Combinator, src, dst []uint64) bool {
	clear(dst)
	link := c.Par
	if comb == NextSibling || comb == SubsequentSibling {
		link = c.Prv
	}
	closure := comb == Descendant || comb == SubsequentSibling
	s.ops += uint64(len(link))
	any := uint64(0)
	for i, q := range link {
		if q < 0 {
			continue
		}
		w, b := q>>6, uint64(1)<<(q&63)
		// The parent or previous sibling q precedes i, so dst[q] is final.
		if src[w]&b != 0 || closure && dst[w]&b != 0 {
			dst[i>>6] |= 1 << (i & 63)
			any = 1
		}
	}
	return any != 0
}

// relBackward sets in dst the entities to which some entity of src stands
// in relation comb: the parents (Child), proper ancestors (Descendant),
// previous siblings (NextSibling) or earlier siblings (SubsequentSibling)
// of the entities of src. It reports whether dst is not empty.
func relBackward(s *Selector, c *docorder.Index, comb Combinator, src, dst []uint64) bool {
	clear(dst)
	link := c.Par
	if comb == NextSibling || comb == SubsequentSibling {
		link = c.Prv
	}
	any := false
	if comb == Child || comb == NextSibling {
		forEach(src, func(i int) {
			s.ops++
			if q := link[i]; q >= 0 {
				dst[q>>6] |= 1 << (q & 63)
				any = true
			}
		})
		return any
	}
	// Walk backwards: every entity after i in document order is done with
	// by the time i is reached, so dst[i] is final.
	s.ops += uint64(len(link))
	for i := len(link) - 1; i >= 0; i-- {
		w, b := i>>6, uint64(1)<<(i&63)
		if src[w]&b != 0 || dst[w]&b != 0 {
			if q := link[i]; q >= 0 {
				dst[q>>6] |= 1 << (q & 63)
				any = true
			}
		}
	}
	return any
}

// forEach calls f with the position of every bit set in b, in order.
func forEach(b []uint64, f func(i int)) {
	for w, v := range b {
		for v != 0 {
			f(w<<6 | bits.TrailingZeros64(v))
			v &= v - 1
		}
	}
}

// mark sets in dst the positions of the entities that match st, picking
// the candidates as a subject does: by id, by class members when they are
// fewer than the entities, or every entity. It reports whether any did.
func (st *compoundPlan) mark(x *exec, c *docorder.Index, dst []uint64) bool {
	s := x.s
	any := false
	try := func(e ecs.Entity) {
		s.ops++
		if x.w.Alive(e) && st.matchEntity(x, e) {
			p := c.Pos[e.Index()]
			dst[p>>6] |= 1 << (p & 63)
			any = true
		}
	}
	if st.hasID {
		if e, ok := s.src.EntityByID(st.id); ok {
			try(e)
		}
		return any
	}
	if len(st.classes) > 0 {
		if cm := s.src.ClassMembers(st.classes[0]); len(cm) < len(c.Order) {
			for _, e := range cm {
				try(e)
			}
			return any
		}
	}
	if len(st.tab) == 0 && len(st.ent) == 0 {
		// `*`: every entity.
		n := len(c.Order)
		for i := range n / 64 {
			dst[i] = ^uint64(0)
		}
		if n%64 != 0 {
			dst[n/64] = 1<<(n%64) - 1
		}
		s.ops += uint64(n)
		return n > 0
	}
	s.ops += uint64(len(c.Order))
	for i, e := range c.Order {
		if st.matchEntity(x, e) {
			dst[i>>6] |= 1 << (i & 63)
			any = true
		}
	}
	return any
}

// keep sets in dst the entities of src that match st, and reports
// whether there are any.
func (st *compoundPlan) keep(x *exec, c *docorder.Index, src, dst []uint64) bool {
	if len(st.tab) == 0 && len(st.ent) == 0 {
		copy(dst, src)
		return true // src is not empty
	}
	clear(dst)
	s := x.s
	any := false
	forEach(src, func(i int) {
		s.ops++
		if st.matchEntity(x, c.Order[i]) {
			dst[i>>6] |= 1 << (i & 63)
			any = true
		}
	})
	return any
}
