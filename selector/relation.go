package selector

import (
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/ecs"
)

// This file plans the relations of issue 34: `:to(REL, S)`,
// `:from(REL, S)`, `[REL=#id]` and `[REL=$host]`, through the [Relations]
// of the Source, without variables (vars.go joins those).
//
// A relNode answers for the entity it is asked about in one of two ways,
// chosen once per call:
//
//   - check: walk the entity's targets (for :to) or holders (for :from,
//     through the Source's reverse index) and test each against S;
//   - set: collect S's matches first, then walk their holders (:to) or
//     targets (:from): the entities that pass, kept as a set for the call
//     and, when the relation is on the subject, used as its candidates.
//
// Set is chosen when S is expected to match no more entities than the
// compound holding the node has candidates (an #id, a fixed target, a rare
// component); check otherwise, and always for [Selector.Matches], which
// asks about one entity.

type relMode uint8

const (
	relUndecided relMode = iota
	relCheck
	relSet
)

// relNode is a relation test on one entity.
type relNode struct {
	sel     *Selector
	from    bool // :from: e is a target, S is tested on its holders
	name    string
	rel     Relation
	members []*complexPlan // S; nil for a fixed target
	id      string         // [REL=#id]: the target's id
	host    int            // [REL=$name] for a host variable: its slot; 0 otherwise
	holder  *compoundPlan  // the compound the node is in

	// Per call.
	mode relMode
	set  idxSet
	ents []ecs.Entity // the set, as a list
	buf  []ecs.Entity
	tmp  []ecs.Entity
	rows []int32 // the Selector's scratch, swapped in while S is collected
	rb   []uint64
	rt   []uint64
}

// relation resolves REL through the Source's [Relations].
func (c *compiler) relation(name string, col int) (Relation, error) {
	rs, ok := c.sel.src.(Relations)
	if !ok {
		return Relation{}, errorf(col-1, "relation %q: the Source has no relations (no property holds references to entities)", name)
	}
	r, err := rs.Relation(name)
	if err != nil {
		return Relation{}, &Error{Col: col, Msg: err.Error(), Err: err}
	}
	return r, nil
}

// addRel puts n among st's entity tests; the first relation of a compound
// may pick its candidates.
func (c *compiler) addRel(st *compoundPlan, n *relNode) {
	n.sel, n.holder = c.sel, st
	st.ent = append(st.ent, n)
	if st.anchor == nil {
		st.anchor = n
	}
	c.sel.rels = append(c.sel.rels, n)
	c.sel.subs = append(c.sel.subs, n.members...)
}

// relPseudo compiles :to(REL, S) and :from(REL, S). The holder of a :to
// must have REL's component, a table test.
func (c *compiler) relPseudo(st *compoundPlan, ps *Pseudo) (*relNode, error) {
	rel, err := c.relation(ps.Rel, ps.RelPos.Col)
	if err != nil {
		return nil, err
	}
	ms, err := c.list(ps.List)
	if err != nil {
		return nil, err
	}
	n := &relNode{from: ps.Name == "from", name: ps.Rel, rel: rel, members: ms}
	if !n.from {
		comp, _, _ := strings.Cut(ps.Rel, ".")
		pn, err := c.presence(comp, ps.RelPos.Col)
		if err != nil {
			return nil, err
		}
		st.tab = append(st.tab, pn)
	}
	c.addRel(st, n)
	return n, nil
}

// attrRel is the relation an attribute names: comp or comp.prop.
func attrRel(a *Attr) string {
	if a.Prop == "" {
		return a.Comp
	}
	return a.Comp + "." + a.Prop
}

// walk appends e's targets (for :to) or holders (for :from) to dst.
func (n *relNode) walk(e ecs.Entity, dst []ecs.Entity) []ecs.Entity {
	if n.from {
		return n.rel.Holders(e, dst)
	}
	return n.rel.Targets(e, dst)
}

// back is walk the other way: from an entity of S to the entities it makes
// pass.
func (n *relNode) back(t ecs.Entity, dst []ecs.Entity) []ecs.Entity {
	if n.from {
		return n.rel.Targets(t, dst)
	}
	return n.rel.Holders(t, dst)
}

// fixed returns the target of [REL=#id] or [REL=$host].
func (n *relNode) fixed() (ecs.Entity, bool) {
	if n.id != "" {
		e, ok := n.sel.src.EntityByID(n.id)
		return e, ok && n.sel.w.Alive(e)
	}
	v := n.sel.hostVals[n.host-1]
	return v.ent, v.kind == vEntity && n.sel.w.Alive(v.ent)
}

func (n *relNode) match(x *exec, e ecs.Entity) bool {
	if n.mode == relUndecided {
		n.decide(x)
	}
	if n.mode == relSet {
		return n.set.has(e.Index())
	}
	n.buf = n.walk(e, n.buf[:0])
	if n.members == nil {
		t, ok := n.fixed()
		return ok && containsEntity(n.buf, t)
	}
	for _, t := range n.buf {
		if anyMatch(x, n.members, t) {
			return true
		}
	}
	return false
}

func containsEntity(es []ecs.Entity, e ecs.Entity) bool {
	for _, x := range es {
		if x == e {
			return true
		}
	}
	return false
}

// estimate is how many entities S is expected to match.
func (n *relNode) estimate() int {
	if n.members == nil {
		return 1
	}
	return n.sel.estimate(n.members)
}

// candidates is how many entities the node is expected to be asked about.
func (n *relNode) candidates() int {
	st := n.holder
	switch {
	case st.hasID:
		return 1
	case st.filter != nil:
		return st.filter.Count()
	}
	return n.sel.w.Len()
}

// decide picks the node's way for this call (see the file comment) and,
// for set, builds the set.
func (n *relNode) decide(x *exec) {
	n.mode = relCheck
	if x.one || n.estimate() > n.candidates() {
		return
	}
	n.mode = relSet
	n.set.reset()
	n.ents = n.ents[:0]
	if n.members == nil {
		if t, ok := n.fixed(); ok {
			n.addBack(t)
		}
		return
	}
	s := x.s
	s.rows, n.rows = n.rows, s.rows
	s.rbits, n.rb = n.rb, s.rbits
	s.rtmp, n.rt = n.rt, s.rtmp
	n.tmp = s.collectMembers(x, n.members, n.tmp[:0])
	s.rows, n.rows = n.rows, s.rows
	s.rbits, n.rb = n.rb, s.rbits
	s.rtmp, n.rt = n.rt, s.rtmp
	for _, t := range n.tmp {
		n.addBack(t)
	}
	clear(n.tmp)
}

// addBack adds to the set the entities t makes pass.
func (n *relNode) addBack(t ecs.Entity) {
	n.buf = n.back(t, n.buf[:0])
	for _, h := range n.buf {
		if !n.set.has(h.Index()) {
			n.set.add(h.Index())
			n.ents = append(n.ents, h)
		}
	}
}

func (n *relNode) dump(b *strings.Builder) {
	kind := "to"
	if n.from {
		kind = "from"
	}
	how := "check-targets"
	if n.from {
		how = "check-holders"
	}
	if n.estimate() <= n.candidates() {
		how = "set-from-matches"
	}
	fmt.Fprintf(b, "%s(%q %s est %d/%d ", kind, n.name, how, n.estimate(), n.candidates())
	switch {
	case n.id != "":
		fmt.Fprintf(b, "=#%s)", n.id)
	case n.members == nil:
		fmt.Fprintf(b, "=$%s)", n.sel.hostNames[n.host-1])
	default:
		dumpList(b, n.members)
		b.WriteString(")")
	}
}

// estimate is how many entities the plans are expected to match: the
// rows of their subjects' filters, fewer for an id or a class.
func (s *Selector) estimate(ms []*complexPlan) int {
	n := 0
	for _, m := range ms {
		st := m.subject()
		switch {
		case st.never:
		case st.hasID:
			n++
		case st.filter != nil:
			c := st.filter.Count()
			if len(st.classes) > 0 {
				c = min(c, len(s.src.ClassMembers(st.classes[0])))
			}
			n += c
		default:
			n += s.w.Len()
		}
	}
	return n
}

// idxSet is a set of entity indexes (of live entities: one per index).
type idxSet []uint64

func (b *idxSet) add(i uint32) {
	w := int(i >> 6)
	if w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b))...)
	}
	(*b)[w] |= 1 << (i & 63)
}

func (b idxSet) has(i uint32) bool {
	w := int(i >> 6)
	return w < len(b) && b[w]&(1<<(i&63)) != 0
}

func (b idxSet) reset() { clear(b) }
