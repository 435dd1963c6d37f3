package registry

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// Mixin is a named, reusable set of component values (A-Frame's
// <a-mixin>). An entity that lists mixins gets their components; per
// property, the entity's own value beats the right-most mixin's, which
// beats those to its left, which beat the defaults. A mixin may itself
// list mixins, expanded before it.
type Mixin struct {
	// ID names the mixin, as entities list it.
	ID string
	// Mixins are the mixins it lists, expanded before it.
	Mixins []string
	// Components are its own component values.
	Components []NamedPatch
}

// NamedPatch is a component name (or instance name) with the property
// values given for it.
type NamedPatch struct {
	Name  string
	Patch Patch
}

// Define adds or replaces a mixin.
func (mxs *Mixins) Define(m *Mixin) {
	r := mxs.r
	r.mixins[m.ID] = m
}

// Remove forgets a mixin.
func (mxs *Mixins) Remove(id string) {
	r := mxs.r
	delete(r.mixins, id)
}

// Get returns the mixin called id.
func (mxs *Mixins) Get(id string) (*Mixin, bool) {
	r := mxs.r
	m, ok := r.mixins[id]
	return m, ok
}

// Expand returns the mixins ids stand for, nested mixins expanded
// before the mixin that lists them, in order of increasing precedence. A
// mixin reached twice (two mixins sharing a part, or an id listed twice)
// is kept at its first place only, so that a mixin always beats the parts
// it lists. A cycle or an unknown id is a [*MixinError] (an unknown id with
// the nearest defined one suggested). See [ExpandMixinsFunc].
func (mxs *Mixins) Expand(ids []string) ([]*Mixin, error) {
	r := mxs.r
	ms, err := ExpandMixinsFunc(ids, r.lookupMixin)
	if me, ok := err.(*MixinError); ok && me.Unknown != "" {
		known := make([]string, 0, len(r.mixins))
		for k := range r.mixins {
			known = append(known, k)
		}
		slices.Sort(known) // ties in Nearest go to the first
		me.Suggest = didyoumean.Nearest(me.Unknown, known)
	}
	return ms, err
}

func (r *Registry) lookupMixin(id string) (*Mixin, bool) {
	m, ok := r.mixins[id]
	return m, ok
}

// A MixinError reports a mixin list that cannot be expanded: a mixin that
// is not defined, or a cycle.
type MixinError struct {
	// Unknown is the id of a mixin that is not defined; "" for a cycle.
	Unknown string
	// From is the mixin whose list names Unknown; "" when the list given
	// to the expansion names it.
	From string
	// Suggest is, for an unknown mixin, the nearest defined id, or "".
	// ExpandMixinsFunc and CheckMixins leave it to the caller, who knows
	// the defined ids.
	Suggest string
	// Cycle holds, for a cycle, its mixins in order, starting with the
	// one the expansion reached first; the last one lists the first.
	Cycle []string
}

// cycleShown is how many ids of a cycle an error message shows at each
// end, a longer cycle being shortened in the middle.
const cycleShown = 3

// Error returns `unknown mixin "fo" (did you mean "foo"?)`, `mixin "a":
// unknown mixin "fo"` (From set), `mixin cycle: a -> b -> a`, or for a
// cycle of more than 6 mixins `mixin cycle of 2000 mixins: m1 -> m2 -> m3
// -> ... -> m1999 -> m2000 -> m1`.
func (e *MixinError) Error() string {
	if e.Cycle == nil {
		var b strings.Builder
		if e.From != "" {
			fmt.Fprintf(&b, "mixin %q: ", e.From)
		}
		fmt.Fprintf(&b, "unknown mixin %q", e.Unknown)
		b.WriteString(didyoumean.Phrase(e.Suggest))
		return b.String()
	}
	ids := append(slices.Clip(e.Cycle), e.Cycle[0])
	if len(e.Cycle) <= 2*cycleShown {
		return "mixin cycle: " + strings.Join(ids, " -> ")
	}
	head := strings.Join(ids[:cycleShown], " -> ")
	tail := strings.Join(ids[len(ids)-cycleShown:], " -> ")
	return fmt.Sprintf("mixin cycle of %d mixins: %s -> ... -> %s", len(e.Cycle), head, tail)
}

// ExpandMixinsFunc is [Mixins.Expand] over any set of mixins, lookup
// finding a mixin by id: the one expansion the Registry
// ([Mixins.Instantiate], the spawner) and the loader (scenes, before they
// are built) share, so that both compose alike. It stops at the first problem,
// a [*MixinError] (with no Suggest). It takes time linear in the number of
// mixins reached and of the ids they list, whatever their nesting.
func ExpandMixinsFunc(ids []string, lookup func(id string) (*Mixin, bool)) ([]*Mixin, error) {
	var err *MixinError
	out := walkMixins(ids, lookup, func(e *MixinError) bool { err = e; return false })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CheckMixins checks every mixin ids reach, each once, in time linear in
// the number of mixins and of the ids they list, and calls report for
// each problem, once: each id a reached mixin lists that lookup does not
// find (From names that mixin; an id of ids itself has From ""), and each
// cycle, found where the walk first closes it (Suggest is left empty).
// Pass every defined id to check a whole set of mixins.
func CheckMixins(ids []string, lookup func(id string) (*Mixin, bool), report func(*MixinError)) {
	walkMixins(ids, lookup, func(e *MixinError) bool { report(e); return true })
}

// mixinFrame is a mixin being expanded: the index of the next id of its
// list to visit.
type mixinFrame struct {
	id   string
	m    *Mixin
	next int
}

// walkMixins is the depth-first walk behind ExpandMixinsFunc and
// CheckMixins, without recursion (a chain of a million mixins needs no
// deep stack). It returns the mixins in post-order, each once; it calls
// report for each problem, stopping at once if report returns false (and
// returning nil). A cycle is found in O(1) per edge: each mixin's state is
// either unvisited, on the stack (with its place on it), or done.
func walkMixins(ids []string, lookup func(string) (*Mixin, bool), report func(*MixinError) bool) []*Mixin {
	const done = -1
	state := make(map[string]int) // 0 unvisited, >0 stack index+1, done
	var stack []mixinFrame
	var out []*Mixin
	enter := func(id, from string) bool {
		switch st := state[id]; {
		case st == done:
			return true
		case st > 0:
			cyc := make([]string, 0, len(stack)-st+1)
			for _, f := range stack[st-1:] {
				cyc = append(cyc, f.id)
			}
			return report(&MixinError{Cycle: cyc})
		}
		m, ok := lookup(id)
		if !ok {
			return report(&MixinError{Unknown: id, From: from})
		}
		stack = append(stack, mixinFrame{id: id, m: m})
		state[id] = len(stack)
		return true
	}
	for _, root := range ids {
		if !enter(root, "") {
			return nil
		}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.m.Mixins) {
				sub, from := top.m.Mixins[top.next], top.id
				top.next++
				if !enter(sub, from) {
					return nil
				}
				continue
			}
			state[top.id] = done
			out = append(out, top.m)
			stack = stack[:len(stack)-1]
		}
	}
	return out
}

// Compose merges the components of mixins (by increasing precedence) and
// an entity's own components into one patch per component, in the order
// components first appear. Later values of a property win.
func (mxs *Mixins) Compose(mixins []*Mixin, own []NamedPatch) []NamedPatch {
	var out []NamedPatch
	index := map[string]int{}
	add := func(np NamedPatch) {
		i, ok := index[np.Name]
		if !ok {
			index[np.Name] = len(out)
			out = append(out, NamedPatch{Name: np.Name, Patch: append(Patch(nil), np.Patch...)})
			return
		}
		for _, pv := range np.Patch {
			out[i].Patch = out[i].Patch.set(0, pv.Index, pv.Value)
		}
	}
	for _, m := range mixins {
		for _, np := range m.Components {
			add(np)
		}
	}
	for _, np := range own {
		add(np)
	}
	return out
}

// Instantiate creates an entity (a child of parent unless parent is the
// zero Entity) with the components of the mixins ids and then own,
// composed per property. Components are added in the order they first
// appear, except that a dependency given among them is added before the
// component that depends on it, with its given data (as A-Frame
// initialises a dependency with its markup data whatever the attribute
// order). A read-only component among them is refused (*ReadOnlyError)
// before anything is made.
func (mxs *Mixins) Instantiate(parent ecs.Entity, mixinIDs []string, own []NamedPatch) (ecs.Entity, error) {
	r := mxs.r
	e, err := r.Create(parent, CreateSpec{Mixins: mixinIDs, Components: own})
	if err != nil {
		return ecs.Entity{}, err
	}
	r.Events().EmitLoaded(e)
	return e, nil
}

// indexOfName returns the index of the component name in comps, or -1.
func indexOfName(comps []NamedPatch, name string) int {
	for i, np := range comps {
		if np.Name == name {
			return i
		}
	}
	return -1
}

// SetMany sets several components on e as a load does: each component e
// does not have yet is added with its defaults overridden by its patch
// (the Replace form), all of them in one storage move, dependencies that
// comps does not give added with their defaults, and the init and update
// hooks run in dependency order (depth-first, left to right), each
// component seeing its final data at init. Components e already has are
// set with SetPatch(Replace). On an unknown name or a bad patch nothing
// is changed. While the World is locked, it falls back to one SetPatch
// per component. A read-only component among comps is refused with a
// *ReadOnlyError, and nothing is changed.
func (r *Registry) SetMany(e ecs.Entity, comps []NamedPatch) error {
	return r.setMany(e, comps, false)
}

// setMany is SetMany; priv writes read-only components too.
func (r *Registry) setMany(e ecs.Entity, comps []NamedPatch, priv bool) error {
	if !r.w.Alive(e) {
		return fmt.Errorf("registry: set on %v: %w", e, ecs.ErrStale)
	}
	var itemBuf [8]setItem
	items := itemBuf[:0]
	for _, np := range comps {
		c, id, err := r.Lookup(np.Name)
		if err != nil {
			return err
		}
		if err := c.refuse("set", np.Name, priv); err != nil {
			return err
		}
		for _, pv := range np.Patch {
			if pv.Index < 0 || pv.Index >= len(c.Schema.Props) {
				return fmt.Errorf("registry: set %s: property index %d out of range", np.Name, pv.Index)
			}
		}
		items = append(items, setItem{c, id, np.Name, np.Patch})
	}
	var orderBuf [8]setItem
	items = depsFirst(items, orderBuf[:0])
	if r.w.Locked() {
		for _, it := range items {
			if err := r.setPatch(e, it.name, it.patch, Replace, priv); err != nil {
				return err
			}
		}
		return nil
	}
	b := adds{r: r, e: e, comps: comps}
	if s := &r.addScratch; !s.busy {
		// The lists of the last call, reused: a World's load makes an
		// entity at a time. A hook that sets components while these
		// are in use gets lists of its own.
		s.busy = true
		defer func() { s.ids, s.vals, s.busy = b.ids[:0], clearPtrs(b.vals), false }()
		b.ids, b.vals = s.ids, s.vals
	}
	var present []setItem
	for _, it := range items {
		if r.w.Has(e, it.id) || b.scheduled(it.id) {
			present = append(present, it)
			continue
		}
		if len(it.c.Dependencies) > 0 {
			if err := b.deps(it.c, 0); err != nil {
				return err
			}
		}
		v := r.addValue(it.c, it.id)
		it.c.apply(v, it.patch)
		b.ids = append(b.ids, it.id)
		b.vals = append(b.vals, v)
	}
	if len(b.ids) > 0 {
		if err := r.w.AddMany(e, b.ids, b.vals); err != nil {
			return err
		}
	}
	for _, it := range present {
		if err := r.setPatch(e, it.name, it.patch, Replace, priv); err != nil {
			return err
		}
	}
	return nil
}

// addScratch holds the lists of SetMany's adds between calls.
type addScratch struct {
	ids  []ecs.ID
	vals []unsafe.Pointer
	busy bool
}

// clearPtrs returns vals emptied, its pointers cleared so that the values
// they held can be collected.
func clearPtrs(vals []unsafe.Pointer) []unsafe.Pointer {
	clear(vals)
	return vals[:0]
}

// adds collects the components a SetMany adds in one move.
type adds struct {
	r     *Registry
	e     ecs.Entity
	comps []NamedPatch
	ids   []ecs.ID
	vals  []unsafe.Pointer
}

func (b *adds) scheduled(id ecs.ID) bool {
	for _, x := range b.ids {
		if x == id {
			return true
		}
	}
	return false
}

// deps schedules c's dependencies that the entity lacks and the SetMany
// does not give, depth-first, with their defaults.
func (b *adds) deps(c *Component, depth int) error {
	if depth > 64 {
		return fmt.Errorf("registry: component %q: dependencies nest too deep", c.Name)
	}
	for _, d := range c.Dependencies {
		dc, ok := b.r.comps[d]
		if !ok {
			return fmt.Errorf("registry: component %q depends on unknown component %q", c.Name, d)
		}
		if b.r.w.Has(b.e, dc.ID) || b.scheduled(dc.ID) || indexOfName(b.comps, d) >= 0 {
			continue
		}
		if err := b.deps(dc, depth+1); err != nil {
			return err
		}
		if !b.scheduled(dc.ID) {
			b.ids = append(b.ids, dc.ID)
			b.vals = append(b.vals, b.r.addValue(dc, dc.ID))
		}
	}
	return nil
}

// setItem is one component of a SetMany, looked up.
type setItem struct {
	c     *Component
	id    ecs.ID
	name  string
	patch Patch
}

// depsFirst orders items so that each one's dependencies that items also
// holds come before it (depth-first, left to right); otherwise the order
// is kept, and a list already in order is returned as it is. The
// reordered list is appended to out (a caller's buffer, so that a load
// allocates nothing here for entities of a few components).
func depsFirst(items, out []setItem) []setItem {
	ordered := true
	for i, it := range items {
		for _, d := range it.c.Dependencies {
			if itemIndex(items, d) > i {
				ordered = false
			}
		}
	}
	if ordered {
		return items
	}
	var doneBuf [8]bool
	var done []bool
	if len(items) > len(doneBuf) {
		done = make([]bool, len(items))
	} else {
		done = doneBuf[:len(items)]
	}
	for i := range items {
		out = visitDeps(items, i, done, out)
	}
	return out
}

// itemIndex returns the index of the item named name, or -1.
func itemIndex(items []setItem, name string) int {
	for i, it := range items {
		if it.name == name {
			return i
		}
	}
	return -1
}

// visitDeps appends items[i] to out after its dependencies among items
// (depth-first), unless done says it is there already.
func visitDeps(items []setItem, i int, done []bool, out []setItem) []setItem {
	if done[i] {
		return out
	}
	done[i] = true
	for _, d := range items[i].c.Dependencies {
		if j := itemIndex(items, d); j >= 0 {
			out = visitDeps(items, j, done, out)
		}
	}
	return append(out, items[i])
}
