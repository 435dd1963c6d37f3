package selector

import (
	"math/bits"
	"slices"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// exec is the state of one call.
type exec struct {
	s        *Selector
	w        *ecs.World
	scope    ecs.Entity
	hasScope bool
	one      bool // the call asks about one entity (Matches)
}

// budgetSlack and budgetScale set the per-call budget of right-to-left
// combinator work: budgetScale units per live entity plus budgetSlack.
// Tests change them to force set-at-a-time evaluation.
var (
	budgetSlack = 64
	budgetScale = 1
)

// begin prepares a call: re-resolves component IDs if the World has new
// components, resets the work budget and clears the per-call memo tables
// and sets.
func (s *Selector) begin(x *exec) {
	x.s, x.w = s, s.w
	s.resolve()
	s.budget = budgetScale*s.w.Len() + budgetSlack
	for _, p := range s.memos {
		if len(p.memo) > 0 {
			clear(p.memo)
		}
		p.over = false
		if p.set != nil {
			s.spare = append(s.spare, p.set)
			p.set = nil
		}
	}
	for _, n := range s.nths {
		if len(n.pos) > 0 {
			clear(n.pos)
		}
	}
	for _, n := range s.rels {
		n.mode = relUndecided
	}
	if s.hier {
		for range s.w.Roots() { // makes sure the World tracks the hierarchy
			break
		}
	}
}

// resolve maps component names to IDs again when the World's component
// count changed (a multiple component got a new instance), and rebuilds
// the cached filters of the top-level subjects.
func (s *Selector) resolve() {
	n := s.w.NumComponents()
	if n == s.ncomp {
		return
	}
	if s.ncomp >= 0 {
		for _, p := range s.pres {
			ids, err := s.src.ComponentIDs(p.name)
			if err != nil {
				ids = nil
			}
			p.set(ids)
		}
	}
	s.ncomp = n
	for _, ms := range [2][]*complexPlan{s.members, s.subs} {
		for _, m := range ms {
			st := m.subject()
			if st.filter != nil {
				st.filter.Close()
			}
			st.filter, st.never = st.buildFilter(s.w)
		}
	}
}

// Close releases the ecs filters the Selector keeps registered in the
// World. The Selector stays usable: the next call registers them again.
func (s *Selector) Close() {
	for _, ms := range [2][]*complexPlan{s.members, s.subs} {
		for _, m := range ms {
			st := m.subject()
			if st.filter != nil {
				st.filter.Close()
				st.filter = nil
			}
		}
	}
	s.ncomp = -1
}

func (p *complexPlan) subject() *compoundPlan { return p.steps[len(p.steps)-1] }

// buildFilter turns the compound's simple table tests into a cached ecs
// filter (all of, none of, any of); the rest of the table tests run once
// per matching table.
func (st *compoundPlan) buildFilter(w *ecs.World) (*ecs.Filter, bool) {
	var all, none, anyOf ecs.Mask
	never := false
	for _, n := range st.tab {
		switch n := n.(type) {
		case *presNode:
			switch len(n.ids) {
			case 0:
				never = true
			case 1:
				all = all.With(n.ids[0])
			default:
				if anyOf.IsEmpty() {
					anyOf = n.mask
				}
			}
		case *listMask:
			if !n.neg {
				continue
			}
			for _, m := range n.members {
				if t := m.steps[0].tab; len(t) == 1 {
					if pn, ok := t[0].(*presNode); ok {
						for _, id := range pn.ids {
							none = none.With(id)
						}
					}
				}
			}
		}
	}
	return ecs.NewFilterMasks(w, all, none, anyOf), never
}

// matchMask reports whether a signature passes every table test.
func (st *compoundPlan) matchMask(m ecs.Mask) bool {
	for _, n := range st.tab {
		if !n.matchMask(m) {
			return false
		}
	}
	return true
}

// matchEntity reports whether e satisfies the compound.
func (st *compoundPlan) matchEntity(x *exec, e ecs.Entity) bool {
	if len(st.tab) > 0 && !st.matchMask(x.w.Mask(e)) {
		return false
	}
	for _, n := range st.ent {
		if !n.match(x, e) {
			return false
		}
	}
	return true
}

func idx1(e ecs.Entity) uint32 {
	if e.IsZero() {
		return 0
	}
	return e.Index() + 1
}

// match reports whether e matches the complex selector p (not relative)
// as its subject.
func (p *complexPlan) match(x *exec, e ecs.Entity) bool {
	if !p.multi {
		return p.steps[0].matchEntity(x, e)
	}
	if p.set == nil {
		if !p.long && !p.over {
			v := p.at(x, len(p.steps)-1, e, ecs.Entity{})
			if !p.over {
				return v
			}
		}
		if !p.subject().matchEntity(x, e) {
			return false // no need for the set
		}
		p.buildSet(x)
	}
	return x.s.cache.Has(p.set, e)
}

// matchRel reports whether the combinators of p (not relative) hold for
// e, which passes the subject's own tests.
func (p *complexPlan) matchRel(x *exec, e ecs.Entity) bool {
	if p.set == nil {
		if !p.long && !p.over {
			v := p.rel(x, len(p.steps)-1, e, ecs.Entity{})
			if !p.over {
				return v
			}
		}
		p.buildSet(x)
	}
	return x.s.cache.Has(p.set, e)
}

// spend takes one unit of right-to-left work from the call's budget. When
// the budget is spent it marks p as over and returns false: p's
// right-to-left evaluation then unwinds without memoising, and p is
// evaluated set at a time for the rest of the call.
func (x *exec) spend(p *complexPlan) bool {
	x.s.ops++
	x.s.budget--
	if x.s.budget < 0 {
		p.over = true
		return false
	}
	return true
}

// at reports whether e matches step k and, through the combinators, the
// steps before it. Results are memoised per call. The answer is
// meaningless once p.over is set.
func (p *complexPlan) at(x *exec, k int, e, anchor ecs.Entity) bool {
	if p.over {
		return false
	}
	key := memoKey{anchor: idx1(anchor), step: uint16(k), e: e.Index()}
	if v, ok := p.memo[key]; ok {
		return v
	}
	if !x.spend(p) {
		return false
	}
	v := p.steps[k].matchEntity(x, e) && p.rel(x, k, e, anchor)
	if p.over {
		return false
	}
	p.memo[key] = v
	return v
}

// rel checks the combinator before step k, e matching step k.
func (p *complexPlan) rel(x *exec, k int, e, anchor ecs.Entity) bool {
	w := x.w
	c := p.combs[k]
	if k == 0 {
		if !p.relative {
			return true
		}
		return p.related(x, c, anchor, e)
	}
	switch c {
	case Child:
		par, ok := w.Parent(e)
		return ok && p.at(x, k-1, par, anchor)
	case Descendant:
		par, ok := w.Parent(e)
		return ok && p.scan(x, 1, k-1, par, anchor)
	case NextSibling:
		s, ok := w.PrevSibling(e)
		return ok && p.at(x, k-1, s, anchor)
	case SubsequentSibling:
		s, ok := w.PrevSibling(e)
		return ok && p.scan(x, 2, k-1, s, anchor)
	}
	return false
}

// scan reports whether a or one of its ancestors (kind 1) or previous
// siblings (kind 2) matches step j, memoising the answer for every entity
// it passes so that no chain is walked twice in one call.
func (p *complexPlan) scan(x *exec, kind uint8, j int, a, anchor ecs.Entity) bool {
	var buf [32]uint32
	path := buf[:0]
	an := idx1(anchor)
	res := false
	for {
		key := memoKey{anchor: an, kind: kind, step: uint16(j), e: a.Index()}
		if v, ok := p.memo[key]; ok {
			res = v
			break
		}
		if !x.spend(p) {
			return false
		}
		path = append(path, a.Index())
		if p.at(x, j, a, anchor) {
			res = true
			break
		}
		if p.over {
			return false
		}
		var ok bool
		if kind == 1 {
			a, ok = x.w.Parent(a)
		} else {
			a, ok = x.w.PrevSibling(a)
		}
		if !ok {
			break
		}
	}
	for _, i := range path {
		p.memo[memoKey{anchor: an, kind: kind, step: uint16(j), e: i}] = res
	}
	return res
}

// related reports whether e stands in relation c to anchor (the leading
// combinator of a relative selector). Walks spend budget.
func (p *complexPlan) related(x *exec, c Combinator, anchor, e ecs.Entity) bool {
	w := x.w
	switch c {
	case Descendant:
		for a, ok := w.Parent(e); ok; a, ok = w.Parent(a) {
			if a == anchor {
				return true
			}
			if !x.spend(p) {
				return false
			}
		}
	case Child:
		par, ok := w.Parent(e)
		return ok && par == anchor
	case NextSibling:
		s, ok := w.PrevSibling(e)
		return ok && s == anchor
	case SubsequentSibling:
		for s, ok := w.PrevSibling(e); ok; s, ok = w.PrevSibling(s) {
			if s == anchor {
				return true
			}
			if !x.spend(p) {
				return false
			}
		}
	}
	return false
}

func (n *hasNode) match(x *exec, s ecs.Entity) bool {
	for _, p := range n.members {
		if p.hasAt(x, s) {
			return true
		}
	}
	return false
}

// hasAt reports whether the relative plan p matches from anchor s.
func (p *complexPlan) hasAt(x *exec, s ecs.Entity) bool {
	if p.set == nil {
		if !p.long && !p.over {
			v := p.hasFrom(x, s)
			if !p.over {
				return v
			}
		}
		p.buildSet(x)
	}
	return x.s.cache.Has(p.set, s)
}

// hasFrom evaluates the relative plan p right to left for anchor s: it
// tries as subject every entity the combinators can reach from s.
func (p *complexPlan) hasFrom(x *exec, s ecs.Entity) bool {
	w := x.w
	last := len(p.steps) - 1
	try := func(e ecs.Entity) bool {
		return x.spend(p) && p.at(x, last, e, s)
	}
	switch lead := p.combs[0]; lead {
	case Child, Descendant:
		if lead == Child && !p.down {
			for c := range w.ChildrenSeq(s) {
				if try(c) || p.over {
					return !p.over
				}
			}
			return false
		}
		for d := range w.Descendants(s) {
			if try(d) || p.over {
				return !p.over
			}
		}
	case NextSibling, SubsequentSibling:
		for f, ok := w.NextSibling(s); ok; f, ok = w.NextSibling(f) {
			if try(f) || p.over {
				return !p.over
			}
			if p.down {
				for d := range w.Descendants(f) {
					if try(d) || p.over {
						return !p.over
					}
				}
			}
			if lead == NextSibling && !p.sideways() {
				break
			}
		}
	}
	return false
}

// sideways reports whether a combinator after the leading one is a
// sibling combinator.
func (p *complexPlan) sideways() bool {
	for _, c := range p.combs[1:] {
		if c == NextSibling || c == SubsequentSibling {
			return true
		}
	}
	return false
}

func (n structNode) match(x *exec, e ecs.Entity) bool {
	w := x.w
	switch n.kind {
	case sRoot:
		_, ok := w.Parent(e)
		return !ok
	case sEmpty:
		_, ok := w.FirstChild(e)
		return !ok
	case sFirst:
		_, ok := w.PrevSibling(e)
		return !ok
	case sLast:
		_, ok := w.NextSibling(e)
		return !ok
	case sOnly:
		_, ok1 := w.PrevSibling(e)
		_, ok2 := w.NextSibling(e)
		return !ok1 && !ok2
	case sScope:
		if x.hasScope {
			return e == x.scope
		}
		_, ok := w.Parent(e)
		return !ok
	}
	return false
}

func anyMatch(x *exec, ps []*complexPlan, e ecs.Entity) bool {
	for _, p := range ps {
		if p.match(x, e) {
			return true
		}
	}
	return false
}

func (n *nthNode) match(x *exec, e ecs.Entity) bool {
	if n.of != nil && !anyMatch(x, n.of, e) {
		return false
	}
	pos, ok := n.pos[e.Index()]
	if !ok {
		n.fill(x, e)
		pos = n.pos[e.Index()]
	}
	if pos <= 0 {
		return false
	}
	a, b, p := int64(n.a), int64(n.b), int64(pos)
	if a == 0 {
		return p == b
	}
	d := p - b
	return d%a == 0 && d/a >= 0
}

// fill numbers e's sibling group (the roots, for a root), counting only
// the siblings that match the "of S" list.
func (n *nthNode) fill(x *exec, e ecs.Entity) {
	w := x.w
	var group []ecs.Entity
	add := func(c ecs.Entity) {
		if n.of == nil || anyMatch(x, n.of, c) {
			group = append(group, c)
		} else {
			n.pos[c.Index()] = 0
		}
	}
	if par, ok := w.Parent(e); ok {
		for c := range w.ChildrenSeq(par) {
			add(c)
		}
	} else {
		for c := range w.Roots() {
			add(c)
		}
	}
	for i, c := range group {
		p := i + 1
		if n.last {
			p = len(group) - i
		}
		n.pos[c.Index()] = int32(p)
	}
}

// collect appends the entities matching any member to dst, in no
// particular order; an entity may appear once per member it matches.
func (s *Selector) collect(x *exec, dst []ecs.Entity) []ecs.Entity {
	return s.collectMembers(x, s.members, dst)
}

// collectMembers is collect for the plans ms (the top-level list or the
// list of a relation), whose subjects have filters.
func (s *Selector) collectMembers(x *exec, ms []*complexPlan, dst []ecs.Entity) []ecs.Entity {
	for _, m := range ms {
		st := m.subject()
		if st.never {
			continue
		}
		if st.hasID {
			if e, ok := s.src.EntityByID(st.id); ok && s.w.Alive(e) && m.match(x, e) {
				dst = append(dst, e)
			}
			continue
		}
		if n := st.anchor; n != nil {
			if n.mode == relUndecided {
				n.decide(x)
			}
			if n.mode == relSet && len(n.ents) < st.filter.Count() {
				for _, e := range n.ents {
					if s.w.Alive(e) && m.match(x, e) {
						dst = append(dst, e)
					}
				}
				continue
			}
		}
		if len(st.classes) > 0 {
			if cm := s.src.ClassMembers(st.classes[0]); len(cm) < st.filter.Count() {
				for _, e := range cm {
					if s.w.Alive(e) && m.match(x, e) {
						dst = append(dst, e)
					}
				}
				continue
			}
		}
		dst = s.walkTables(x, m, dst)
	}
	return dst
}

// walkTables walks the rows of the tables the subject's filter matches:
// table tests once per table, attribute predicates on the packed
// columns, then the remaining entity tests and the combinators.
func (s *Selector) walkTables(x *exec, m *complexPlan, dst []ecs.Entity) []ecs.Entity {
	st := m.subject()
	last := len(m.steps) - 1
	simple := len(st.ent) == 0 && last == 0
	q := st.filter.Query()
	defer q.Close()
	for q.NextTable() {
		if !st.matchMask(q.Mask()) {
			continue
		}
		n := q.Len()
		if simple {
			dst = slices.Grow(dst, n)
			for i := range n {
				dst = append(dst, q.EntityAt(i))
			}
			continue
		}
		if len(st.other) == 0 && last == 0 && len(st.attrs) > 0 {
			// Only value tests: the rows their kernels mark, straight
			// from the bits.
			for w, rb := range s.tableBits(&q, st) {
				dst = slices.Grow(dst, bits.OnesCount64(rb))
				for rb != 0 {
					dst = append(dst, q.EntityAt(w<<6|bits.TrailingZeros64(rb)))
					rb &= rb - 1
				}
			}
			continue
		}
		rows := s.tableRows(&q, st)
		if len(st.other) == 0 && last == 0 {
			dst = slices.Grow(dst, len(rows))
			for _, i := range rows {
				dst = append(dst, q.EntityAt(int(i)))
			}
			continue
		}
	rows:
		for _, i := range rows {
			e := q.EntityAt(int(i))
			for _, nd := range st.other {
				if !nd.match(x, e) {
					continue rows
				}
			}
			if last > 0 && !m.matchRel(x, e) {
				continue
			}
			dst = append(dst, e)
		}
	}
	return dst
}

// QueryAll appends the matching entities to dst in document order
// (pre-order over the hierarchy, roots in order), each once, and returns
// the extended slice.
func (s *Selector) QueryAll(dst []ecs.Entity) []ecs.Entity {
	var x exec
	s.begin(&x)
	if s.tableOnly() {
		s.cache.Refresh(s.w)
		// Marking costs a pass over a bitset of every entity index: worth
		// it only when the candidates are not few.
		if s.cache.Mono && s.candidates()*16 >= len(s.cache.ByIdx)/64 {
			return s.queryMarked(dst)
		}
	}
	s.buf = s.collect(&x, s.buf[:0])
	dst = s.cache.AppendOrdered(s.w, dst, s.buf)
	clear(s.buf) // drop references for a long-lived buffer
	return dst
}

// QueryFirst returns the first matching entity in document order.
func (s *Selector) QueryFirst() (ecs.Entity, bool) {
	var x exec
	s.begin(&x)
	s.buf = s.collect(&x, s.buf[:0])
	if len(s.buf) == 0 {
		return ecs.Entity{}, false
	}
	return s.cache.First(s.w, s.buf), true
}

// Count returns the number of matching entities. A selector made only of
// component tests is counted table by table, without visiting entities;
// one that adds value tests on the subject's own components counts the
// bits its kernels mark.
func (s *Selector) Count() int {
	var x exec
	s.begin(&x)
	if len(s.members) == 1 {
		m := s.members[0]
		st := m.subject()
		if len(m.steps) == 1 && len(st.ent) == len(st.attrs) {
			if st.never {
				return 0
			}
			n := 0
			q := st.filter.Query()
			for q.NextTable() {
				if !st.matchMask(q.Mask()) {
					continue
				}
				if len(st.attrs) == 0 {
					n += q.Len()
					continue
				}
				for _, rb := range s.tableBits(&q, st) {
					n += bits.OnesCount64(rb)
				}
			}
			return n
		}
	}
	s.buf = s.collect(&x, s.buf[:0])
	n := len(s.buf)
	if len(s.members) > 1 && n > 1 {
		slices.SortFunc(s.buf, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
		n = len(slices.Compact(s.buf))
	}
	return n
}

// Matches reports whether e is alive and matches the selector. Like
// every call, it runs in time linear in entities × compounds; it looks at
// the entities e's combinators lead to, unless the selector needs
// set-at-a-time evaluation (see [Selector.QueryFrom]).
func (s *Selector) Matches(e ecs.Entity) bool {
	if !s.w.Alive(e) {
		return false
	}
	x := exec{one: true}
	s.begin(&x)
	return anyMatch(&x, s.members, e)
}

// QueryFrom appends to dst, in document order, the descendants of scope
// that match, as Element.querySelectorAll does in the DOM: the whole
// selector must match (ancestors above scope included), and `:scope`
// stands for scope. Its cost grows with the size of scope's subtree,
// unless its combinators need set-at-a-time evaluation (a complex
// selector of more than 32 compounds, or more right-to-left work than
// there are entities), which passes over the whole World once per step.
func (s *Selector) QueryFrom(scope ecs.Entity, dst []ecs.Entity) []ecs.Entity {
	if !s.w.Alive(scope) {
		return dst
	}
	x := exec{scope: scope, hasScope: true}
	s.begin(&x)
	for d := range s.w.Descendants(scope) {
		if anyMatch(&x, s.members, d) {
			dst = append(dst, d)
		}
	}
	return dst
}

// QueryUnordered appends the matching entities to dst in storage order (table
// by table), each once. It skips the document-order sort of
// [Selector.QueryAll]: use it when order does not matter, as in a system's
// per-frame loop.
func (s *Selector) QueryUnordered(dst []ecs.Entity) []ecs.Entity {
	var x exec
	s.begin(&x)
	if len(s.members) == 1 {
		return s.collect(&x, dst)
	}
	start := len(dst)
	dst = s.collect(&x, dst)
	res := dst[start:]
	slices.SortFunc(res, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	return dst[:start+len(slices.Compact(res))]
}

// tableOnly reports whether every member is decided by table tests and
// value predicates on the subject's own columns: no id or class lookup,
// no per-entity pseudo-classes, no combinators.
func (s *Selector) tableOnly() bool {
	for _, m := range s.members {
		st := m.subject()
		if st.never {
			continue
		}
		if len(m.steps) != 1 || st.hasID || len(st.classes) > 0 || len(st.other) > 0 || len(st.ent) > len(st.attrs) {
			return false
		}
	}
	return true
}

// queryMarked is QueryAll for table-only selectors when document order is
// entity index order: matching rows set bits by entity index straight
// from the tables, and a scan of the bits yields the entities in order,
// each once, with no per-match sort or generation lookup.
func (s *Selector) queryMarked(dst []ecs.Entity) []ecs.Entity {
	c := s.cache
	nw := (len(c.ByIdx) + 63) / 64
	if cap(c.Bits) < nw {
		c.Bits = make([]uint64, nw)
	}
	bs := c.Bits[:nw]
	clear(bs)
	k := 0
	for _, m := range s.members {
		st := m.subject()
		if st.never {
			continue
		}
		q := st.filter.Query()
		for q.NextTable() {
			if !st.matchMask(q.Mask()) {
				continue
			}
			// The entities of a table are often close in index: gather the
			// bits of one word of bs in cur/acc and store them once, rather
			// than read-modify-write the same word (each store chained to
			// the one before) for each entity.
			cur, acc := uint32(0), uint64(0)
			if len(st.attrs) == 0 {
				n := q.Len()
				for i := range n {
					idx := q.IndexAt(i)
					if idx>>6 != cur {
						bs[cur] |= acc
						cur, acc = idx>>6, 0
					}
					acc |= 1 << (idx & 63)
				}
				bs[cur] |= acc
				k += n
				continue
			}
			for w, rb := range s.tableBits(&q, st) {
				k += bits.OnesCount64(rb)
				for rb != 0 {
					idx := q.IndexAt(w<<6 | bits.TrailingZeros64(rb))
					rb &= rb - 1
					if idx>>6 != cur {
						bs[cur] |= acc
						cur, acc = idx>>6, 0
					}
					acc |= 1 << (idx & 63)
				}
			}
			bs[cur] |= acc
		}
	}
	// k bounds the marks (an entity matching two members counts twice).
	start := len(dst)
	dst = slices.Grow(dst, k)
	j := gatherRuns(dst[start:start+k], c.ByIdx, bs)
	return dst[:start+j]
}

// gatherRuns copies to out, in order, by[i] for each bit i set in bs, and
// returns how many it copied. Set bits come in runs when neighbours in
// index order match together (entities made together, with like values):
// a word whose runs are two bits long or more on average is copied run
// by run, with one bit scan per run rather than per entity; a word of
// scattered bits, one bit at a time.
func gatherRuns(out, by []ecs.Entity, bs []uint64) int {
	j := 0
	for i, x := range bs {
		if bits.OnesCount64(x) < 2*bits.OnesCount64(x&^(x<<1)) { // set bits over run starts
			for x != 0 {
				out[j] = by[i<<6|bits.TrailingZeros64(x)]
				j++
				x &= x - 1
			}
			continue
		}
		for x != 0 {
			t := bits.TrailingZeros64(x)
			r := bits.TrailingZeros64(^(x >> t)) // the run's length (64-t at most)
			base := i<<6 | t
			o, b := out[j:j+r], by[base:base+r]
			for k := range o {
				o[k] = b[k]
			}
			j += r
			x &^= (1<<r - 1) << t // r == 64: 1<<64 is 0 and the mask all ones
		}
	}
	return j
}

// tableRows returns the rows of the current table of q whose values
// satisfy the subject's attribute predicates (every row if it has none),
// testing the packed columns only.
func (s *Selector) tableRows(q *ecs.Query, st *compoundPlan) []int32 {
	rows := s.rows[:0]
	if len(st.attrs) == 0 {
		for i := range q.Len() {
			rows = append(rows, int32(i))
		}
	} else {
		for w, rb := range s.tableBits(q, st) {
			for rb != 0 {
				rows = append(rows, int32(w<<6|bits.TrailingZeros64(rb)))
				rb &= rb - 1
			}
		}
	}
	s.rows = rows
	return rows
}

// tableBits returns, as a bitset over the rows of the current table of q,
// the rows whose values satisfy every attribute predicate of st (which has
// some). Each predicate's kernel marks the rows of each column of its
// component that the table has (one satisfying instance is enough), and
// the predicates' sets are intersected. The bitset is scratch space of s,
// valid until the next call.
func (s *Selector) tableBits(q *ecs.Query, st *compoundPlan) []uint64 {
	n := q.Len()
	nw := (n + 63) / 64
	if cap(s.rbits) < nw {
		s.rbits = make([]uint64, nw)
		s.rtmp = make([]uint64, nw)
	}
	acc, tmp := s.rbits[:nw], s.rtmp[:nw]
	for ai, a := range st.attrs {
		dst := acc
		if ai > 0 {
			dst = tmp
		}
		clear(dst)
		for _, id := range a.comp.ids {
			if !q.Has(id) {
				continue
			}
			if base, size := q.ColumnPtr(id); base != nil {
				a.kern.mark(dst, unsafe.Add(base, a.kern.off), size, n)
			}
		}
		if ai > 0 {
			for i := range acc {
				acc[i] &= tmp[i]
			}
		}
	}
	return acc
}

// candidates returns how many rows the members' filters match: an upper
// bound of the results of a table-only selector.
func (s *Selector) candidates() int {
	n := 0
	for _, m := range s.members {
		if st := m.subject(); !st.never {
			n += st.filter.Count()
		}
	}
	return n
}
