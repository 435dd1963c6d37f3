package registry

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry/schema"
)

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
// the nearest defined one suggested). See [schema.ExpandMixinsFunc].
func (mxs *Mixins) Expand(ids []string) ([]*Mixin, error) {
	r := mxs.r
	ms, err := schema.ExpandMixinsFunc(ids, r.lookupMixin)
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
			out[i].Patch = out[i].Patch.Set(pv.Index, pv.Value)
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
// before anything is made, and so is an entity past Limits.MaxEntities
// (an error wrapping [ErrLimit]) or after the context set with
// [Registry.SetContext] is done.
func (mxs *Mixins) Instantiate(parent ecs.Entity, mixinIDs []string, own []NamedPatch) (ecs.Entity, error) {
	r := mxs.r
	if err := r.roomFor(1); err != nil {
		return ecs.Entity{}, fmt.Errorf("registry: instance of mixins %s: %w", strings.Join(mixinIDs, " "), err)
	}
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
	return r.setMany(e, comps, false, nil)
}

// setMany is SetMany; priv writes read-only components too. If rec is
// set, the components added are recorded in it, and rec.bad says whether
// something else was done that a shape cannot replay.
func (r *Registry) setMany(e ecs.Entity, comps []NamedPatch, priv bool, rec *shape) error {
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
		if err := checkIndexes(c, &np); err != nil {
			return err
		}
		items = append(items, setItem{c, id, np.Name, np.Patch, len(items)})
	}
	var orderBuf [8]setItem
	items = depsFirst(items, orderBuf[:0])
	if r.w.Locked() {
		if rec != nil {
			rec.bad = true
		}
		for _, it := range items {
			if err := r.setPatch(e, it.name, it.patch, Replace, priv); err != nil {
				return err
			}
		}
		return nil
	}
	b := adds{r: r, e: e, comps: comps, rec: rec}
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
		b.record(it.c, it.id, it.from)
	}
	if len(b.ids) > 0 {
		if err := r.w.AddMany(e, b.ids, b.vals); err != nil {
			return err
		}
	}
	if len(present) > 0 && rec != nil {
		rec.bad = true
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
	rec   *shape // if set, what is added is recorded in it (see setManyFresh)
}

// record notes in b.rec, if set, that c was added, with the patch of the
// given list's item from (-1: a dependency, with its defaults).
func (b *adds) record(c *Component, id ecs.ID, from int) {
	if b.rec != nil {
		b.rec.steps = append(b.rec.steps, shapeStep{c: c, id: id, from: from})
	}
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
			b.record(dc, dc.ID, -1)
		}
	}
	return nil
}

// checkIndexes checks that np's patch names properties c has.
func checkIndexes(c *Component, np *NamedPatch) error {
	for _, pv := range np.Patch {
		if pv.Index < 0 || pv.Index >= len(c.Schema.Props) {
			return fmt.Errorf("registry: set %s: property index %d out of range", np.Name, pv.Index)
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
	from  int // its index in the list given
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
