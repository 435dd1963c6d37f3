package schedule

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// entry is one hook of a node in the schedule: a tick or a tock.
type entry struct {
	name  string // the node's name, + ".tock" for the tock of a node that also ticks
	node  *node
	tock  bool
	phase int
	slot  int
	key   int // tie-break within its group: registration order, or shuffled

	acc  *accessSet // nil: undeclared
	excl bool       // runs alone, unfrozen
	mask *ecs.Mask  // the columns its queries may use; nil: any

	every    int
	interval float64

	order, batch int // place in the run order, batch in its phase

	// Run time, kept across rebuilds (by name).
	disabled bool
	count    int
	since    float64
	est      int64 // estimated ns per run (moving average)
	stats    timings
}

// accessSet is a declared access: sorted, without duplicates; "*" for
// every component.
type accessSet struct {
	reads, writes []string
}

// batch is a run of consecutive entries of one phase that may run at the
// same time: their access does not conflict and no constraint orders
// them. An exclusive entry is a batch alone.
type batch struct {
	entries []*entry
	excl    bool
}

// plan is a computed schedule.
type plan struct {
	entries     []*entry                 // run order, all phases
	phases      [len(phaseNames)][]batch // batches per phase
	groups      [len(phaseNames) * numSlots][]*entry
	ambiguities []Ambiguity
	warnings    []string
}

// Ambiguity is a pair of systems (or component ticks) that use a
// component, at least one of them writing it, with no order between them
// but registration order: the order they run in is an accident of the
// program's layout, which the next refactor may change. Declare a
// before/after between them (or, if their order truly does not matter,
// nothing: the schedule still runs them one after the other, in
// registration order).
type Ambiguity struct {
	// A and B are the two, in the order they run.
	A, B string
	// Phase is the phase both run in.
	Phase string
	// Components are the components behind the conflict.
	Components []string
}

// String says what the ambiguity is.
func (a Ambiguity) String() string {
	return fmt.Sprintf("%s and %s (%s) both use %s, one writing, with no before/after between them: they run in registration order (%s first)",
		a.A, a.B, a.Phase, strings.Join(a.Components, ", "), a.A)
}

// Ambiguities returns the ambiguities of the current order (see
// [Ambiguity]), computing it if something changed: a warning, unless the
// schedule is strict ([Schedule.SetStrict]), when they stop it.
func (s *Schedule) Ambiguities() []Ambiguity {
	_ = s.prepare()
	if s.plan == nil {
		return nil
	}
	return slices.Clone(s.plan.ambiguities)
}

// Warnings returns what the last computed order found doubtful: its
// ambiguities, and access declarations that name components nobody
// registered. Each is one line.
func (s *Schedule) Warnings() []string {
	_ = s.prepare()
	if s.plan == nil {
		return nil
	}
	var out []string
	for _, a := range s.plan.ambiguities {
		out = append(out, "ambiguous order: "+a.String())
	}
	return append(out, s.plan.warnings...)
}

// slotOf returns the slot of a node's tick or tock.
func slotOf(n *node, tock bool) int {
	switch {
	case n.sys && !tock:
		return slotSystem
	case n.sys:
		return slotSystemTock
	case !tock:
		return slotComponent
	}
	return slotComponentTock
}

// build computes the plan: the entries, their order, batches and
// ambiguities. An impossible order sets s.err and leaves no plan.
func (s *Schedule) build() {
	s.builds++
	s.dirty = false
	s.err = nil
	old := s.plan
	s.plan = nil
	if cyc := s.anyCycle(); cyc != "" {
		s.err = fmt.Errorf("registry: schedule: before/after ordering has a cycle: %s", cyc)
		return
	}
	p := &plan{}
	s.makeEntries(p, old)
	edges, errs := s.edges(p)
	if len(errs) > 0 {
		s.err = errors.Join(errs...)
		return
	}
	for g, es := range p.groups {
		if len(es) == 0 {
			continue
		}
		p.groups[g] = s.sortGroup(es, edges)
		p.entries = append(p.entries, p.groups[g]...)
	}
	for i, e := range p.entries {
		e.order = i
	}
	for g, es := range p.groups {
		ph := g / numSlots
		p.phases[ph] = appendBatches(p.phases[ph], es, edges)
		p.ambiguities = append(p.ambiguities, ambiguities(es, edges)...)
	}
	for ph := range p.phases {
		for bi := range p.phases[ph] {
			for _, e := range p.phases[ph][bi].entries {
				e.batch = bi
			}
		}
	}
	if s.strict && len(p.ambiguities) > 0 {
		for _, a := range p.ambiguities {
			errs = append(errs, fmt.Errorf("registry: schedule (strict): ambiguous order: %s", a))
		}
		s.err = errors.Join(errs...)
		return
	}
	s.plan = p
}

// anyCycle returns a before/after cycle among the nodes (one that
// Configure made; registration refuses them), or "".
func (s *Schedule) anyCycle() string {
	indeg := make(map[*node]int, len(s.order))
	var succ []*node
	for _, x := range s.order {
		succ = s.successors(x, nil, succ)
		for _, y := range succ {
			indeg[y]++
		}
	}
	var ready []*node
	for _, x := range s.order {
		if indeg[x] == 0 {
			ready = append(ready, x)
		}
	}
	done := 0
	for len(ready) > 0 {
		x := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		succ = s.successors(x, nil, succ)
		for _, y := range succ {
			if indeg[y]--; indeg[y] == 0 {
				ready = append(ready, y)
			}
		}
	}
	if done == len(s.order) {
		return ""
	}
	for _, x := range s.order {
		if indeg[x] > 0 {
			if c := s.findCycle(x, nil); c != "" {
				return c
			}
		}
	}
	return "?"
}

// makeEntries makes the entries of every node, in groups by phase and
// slot, carrying over the run time state of the old plan's.
func (s *Schedule) makeEntries(p *plan, old *plan) {
	prev := map[string]*entry{}
	if old != nil {
		for _, e := range old.entries {
			prev[e.name] = e
		}
	}
	var rng *rand.Rand
	if s.shuffle != 0 {
		rng = rand.New(rand.NewPCG(s.shuffle, 0x5c4ed))
	}
	for _, n := range s.order {
		n.entries = n.entries[:0]
		set := n.settings()
		acc, mask, warn := s.accessOf(n, set.Access)
		p.warnings = append(p.warnings, warn...)
		for _, tock := range []bool{false, true} {
			if (!tock && !n.tick) || (tock && !n.tock) {
				continue
			}
			e := &entry{name: n.name, node: n, tock: tock, phase: phaseIndex(set.Phase), slot: slotOf(n, tock),
				key: n.seq, acc: acc, mask: mask, every: set.Every, interval: set.Interval}
			if tock {
				e.phase = phaseIndex(PhasePostUpdate)
				if n.tick {
					e.name += ".tock"
				}
			}
			e.excl = acc == nil || set.Access.Exclusive
			if o := prev[e.name]; o != nil {
				e.count, e.since, e.est, e.stats = o.count, o.since, o.est, o.stats
			}
			e.disabled = s.off[e.name] || s.off[n.name]
			n.entries = append(n.entries, e)
			g := e.phase*numSlots + e.slot
			p.groups[g] = append(p.groups[g], e)
		}
	}
	if rng != nil {
		for _, es := range p.groups {
			for i, k := range rng.Perm(len(es)) {
				es[i].key = k
			}
		}
	}
}

// accessOf returns a node's declared access (nil if undeclared), the
// mask of the columns its queries may use (nil: any), and warnings for
// names of components nobody registered.
func (s *Schedule) accessOf(n *node, a *Access) (*accessSet, *ecs.Mask, []string) {
	if a == nil {
		return nil, nil, nil
	}
	var warn []string
	norm := func(names []string) []string {
		var out []string
		for _, x := range names {
			base, _, _ := strings.Cut(x, "__")
			if base != "*" {
				if _, ok := s.host.ComponentIDs(base); !ok {
					warn = append(warn, fmt.Sprintf("%s %s declares unknown component %q%s",
						n.kind(), n.name, base, didyoumean.Phrase(didyoumean.Nearest(base, s.host.ComponentNames()))))
				}
			}
			out = append(out, base)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	as := &accessSet{reads: norm(a.Reads), writes: norm(a.Writes)}
	if !n.sys && !slices.Contains(as.writes, n.name) {
		as.writes = append(as.writes, n.name)
		slices.Sort(as.writes)
	}
	if slices.Contains(as.reads, "*") || slices.Contains(as.writes, "*") {
		return as, nil, warn
	}
	var m ecs.Mask
	for _, x := range slices.Concat(as.reads, as.writes) {
		ids, _ := s.host.ComponentIDs(x)
		for _, id := range ids {
			m = m.With(id)
		}
	}
	return as, &m, warn
}

// conflict returns the components through which two entries conflict
// (one writes what the other reads or writes), nil if none; ok is false
// for no conflict. An undeclared entry conflicts with everything.
func conflict(a, b *entry) (comps []string, ok bool) {
	if a.acc == nil || b.acc == nil {
		return nil, true
	}
	touch := func(w []string, o *accessSet) {
		for _, x := range w {
			for _, y := range slices.Concat(o.reads, o.writes) {
				switch {
				case x == y, y == "*":
					comps = append(comps, x)
				case x == "*":
					comps = append(comps, y)
				}
			}
		}
	}
	touch(a.acc.writes, b.acc)
	touch(b.acc.writes, a.acc)
	if len(comps) == 0 {
		return nil, false
	}
	slices.Sort(comps)
	return slices.Compact(comps), true
}

// edgeSet holds the constraint edges between entries of the same group.
type edgeSet map[*entry][]*entry

// edges turns the before/after constraints into edges between entries of
// the same phase and slot, and reports those the phases contradict.
func (s *Schedule) edges(p *plan) (edgeSet, []error) {
	edges := edgeSet{}
	var errs []error
	main := func(n *node) *entry {
		if len(n.entries) == 0 {
			return nil
		}
		return n.entries[0]
	}
	tockOf := func(n *node) *entry {
		for _, e := range n.entries {
			if e.tock {
				return e
			}
		}
		return nil
	}
	add := func(a, b *entry) {
		if !slices.Contains(edges[a], b) {
			edges[a] = append(edges[a], b)
		}
	}
	for _, c := range s.constraints() {
		ea, eb := main(c.a), main(c.b)
		ka, kb := ea.phase*numSlots+ea.slot, eb.phase*numSlots+eb.slot
		switch {
		case ka == kb:
			add(ea, eb)
		case ka > kb:
			errs = append(errs, fmt.Errorf("registry: schedule: %s must run before %s (%s), but %s runs in %s and %s in %s, earlier",
				c.a.name, c.b.name, strings.Join(c.path, " -> "), ea.name, placeText(ea), eb.name, placeText(eb)))
			continue
		}
		if ta, tb := tockOf(c.a), tockOf(c.b); ta != nil && tb != nil && ta != ea && tb != eb {
			add(ta, tb)
		}
	}
	return edges, errs
}

// placeText says where an entry runs: "update (component ticks)".
func placeText(e *entry) string {
	slot := [...]string{"system ticks", "component ticks", "system tocks", "component tocks"}[e.slot]
	return phaseNames[e.phase] + " (" + slot + ")"
}

// constraint says that node a runs before node b, along path (node
// names, through nodes without hooks that carry constraints).
type constraint struct {
	a, b *node
	path []string
}

// constraints returns the before/after constraints between nodes that
// have entries, following chains through those that have none (a before
// x, x before b puts a before b when x does not tick).
func (s *Schedule) constraints() []constraint {
	var out []constraint
	var succ []*node
	type step struct {
		n    *node
		path []string
	}
	for _, a := range s.order {
		if len(a.entries) == 0 {
			continue
		}
		seen := map[*node]bool{a: true}
		stack := []step{{a, []string{a.name}}}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			succ = s.successors(x.n, nil, succ)
			for _, y := range slices.Clone(succ) {
				if seen[y] {
					continue
				}
				seen[y] = true
				path := append(slices.Clone(x.path), y.name)
				if len(y.entries) > 0 {
					out = append(out, constraint{a, y, path})
					continue
				}
				stack = append(stack, step{y, path})
			}
		}
	}
	return out
}

// sortGroup orders the entries of one group (phase and slot): a
// topological order of the edges, taking among the free entries the one
// with the lowest key (registration order, or the shuffled one).
func (s *Schedule) sortGroup(es []*entry, edges edgeSet) []*entry {
	indeg := make(map[*entry]int, len(es))
	for _, a := range es {
		for _, b := range edges[a] {
			indeg[b]++
		}
	}
	less := func(a, b *entry) int { return cmp.Compare(a.key, b.key) }
	var ready []*entry
	for _, e := range es {
		if indeg[e] == 0 {
			ready = append(ready, e)
		}
	}
	out := make([]*entry, 0, len(es))
	for len(ready) > 0 {
		// A linear scan: groups are small, except chains, where ready
		// holds one entry at a time.
		m := 0
		for i := range ready {
			if less(ready[i], ready[m]) < 0 {
				m = i
			}
		}
		e := ready[m]
		ready = slices.Delete(ready, m, m+1)
		out = append(out, e)
		for _, b := range edges[e] {
			if indeg[b]--; indeg[b] == 0 {
				ready = append(ready, b)
			}
		}
	}
	return out
}

// appendBatches cuts a group's ordered entries into batches: consecutive
// entries that do not conflict and that no edge joins; an exclusive entry
// alone. (An edge path between two entries of a batch would run through
// an entry between them, which would have closed the batch, so direct
// edges suffice.)
func appendBatches(dst []batch, es []*entry, edges edgeSet) []batch {
	var cur []*entry
	flush := func() {
		if len(cur) > 0 {
			dst = append(dst, batch{entries: cur})
			cur = nil
		}
	}
	for _, e := range es {
		if e.excl {
			flush()
			dst = append(dst, batch{entries: []*entry{e}, excl: true})
			continue
		}
		for _, x := range cur {
			if _, c := conflict(x, e); c || slices.Contains(edges[x], e) {
				flush()
				break
			}
		}
		cur = append(cur, e)
	}
	flush()
	return dst
}

// ambiguities returns the pairs of declared entries of a group (in
// order) that conflict with no path of edges between them; entries that
// declare "*" take no part.
func ambiguities(es []*entry, edges edgeSet) []Ambiguity {
	var declared []*entry
	for _, e := range es {
		// One that declares "*" conflicts with everything by design, as
		// an undeclared one does: pairs with it say nothing.
		if e.acc != nil && !slices.Contains(e.acc.reads, "*") && !slices.Contains(e.acc.writes, "*") {
			declared = append(declared, e)
		}
	}
	if len(declared) < 2 {
		return nil
	}
	reach := func(from *entry) map[*entry]bool {
		seen := map[*entry]bool{}
		stack := []*entry{from}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range edges[x] {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		return seen
	}
	var out []Ambiguity
	for i, a := range declared {
		ra := reach(a)
		for _, b := range declared[i+1:] {
			comps, c := conflict(a, b)
			if !c || ra[b] {
				continue
			}
			out = append(out, Ambiguity{A: a.name, B: b.name, Phase: phaseNames[a.phase], Components: comps})
		}
	}
	return out
}
