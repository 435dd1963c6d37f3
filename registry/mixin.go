package registry

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// Mixin is a named, reusable set of component values (A-Frame's
// <a-mixin>). An entity that lists mixins gets their components; per
// property, the entity's own value beats the right-most mixin's, which
// beats those to its left, which beat the defaults. A mixin may itself
// list mixins, expanded before it.
type Mixin struct {
	ID         string
	Mixins     []string
	Components []NamedPatch
}

// NamedPatch is a component name (or instance name) with the property
// values given for it.
type NamedPatch struct {
	Name  string
	Patch Patch
}

// DefineMixin adds or replaces a mixin.
func (r *Registry) DefineMixin(m *Mixin) { r.mixins[m.ID] = m }

// RemoveMixin forgets a mixin.
func (r *Registry) RemoveMixin(id string) { delete(r.mixins, id) }

// Mixin returns the mixin called id.
func (r *Registry) Mixin(id string) (*Mixin, bool) {
	m, ok := r.mixins[id]
	return m, ok
}

// ExpandMixins returns the mixins ids stand for, nested mixins expanded
// before the mixin that lists them, in order of increasing precedence. A
// mixin reached twice (two mixins sharing a part, or an id listed twice)
// is kept at its first place only, so that a mixin always beats the parts
// it lists. A cycle is an error naming it.
func (r *Registry) ExpandMixins(ids []string) ([]*Mixin, error) {
	var out []*Mixin
	var stack []string
	added := map[string]bool{}
	var visit func(id string) error
	visit = func(id string) error {
		for i, s := range stack {
			if s == id {
				return fmt.Errorf("mixin cycle: %s -> %s", strings.Join(stack[i:], " -> "), id)
			}
		}
		if added[id] {
			return nil
		}
		m, ok := r.mixins[id]
		if !ok {
			var known []string
			for k := range r.mixins {
				known = append(known, k)
			}
			return fmt.Errorf("unknown mixin %q%s", id, didYouMean(id, known))
		}
		stack = append(stack, id)
		for _, sub := range m.Mixins {
			if err := visit(sub); err != nil {
				return err
			}
		}
		stack = stack[:len(stack)-1]
		added[id] = true
		out = append(out, m)
		return nil
	}
	for _, id := range ids {
		if err := visit(id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Compose merges the components of mixins (by increasing precedence) and
// an entity's own components into one patch per component, in the order
// components first appear. Later values of a property win.
func (r *Registry) Compose(mixins []*Mixin, own []NamedPatch) []NamedPatch {
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
// order).
func (r *Registry) Instantiate(parent ecs.Entity, mixinIDs []string, own []NamedPatch) (ecs.Entity, error) {
	ms, err := r.ExpandMixins(mixinIDs)
	if err != nil {
		return ecs.Entity{}, err
	}
	comps := r.Compose(ms, own)
	for _, np := range comps {
		if _, _, err := r.Lookup(np.Name); err != nil {
			return ecs.Entity{}, err
		}
	}
	e := r.w.NewEntity()
	if !parent.IsZero() {
		if err := r.w.SetParent(e, parent); err != nil {
			_ = r.w.Destroy(e)
			return ecs.Entity{}, err
		}
	}
	if err := r.SetMany(e, comps); err != nil {
		_ = r.w.Destroy(e)
		return ecs.Entity{}, err
	}
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
// per component.
func (r *Registry) SetMany(e ecs.Entity, comps []NamedPatch) error {
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
		for _, pv := range np.Patch {
			if pv.Index < 0 || pv.Index >= len(c.Schema.Props) {
				return fmt.Errorf("registry: set %s: property index %d out of range", np.Name, pv.Index)
			}
		}
		items = append(items, setItem{c, id, np.Name, np.Patch})
	}
	items = depsFirst(items)
	if r.w.Locked() {
		for _, it := range items {
			if err := r.SetPatch(e, it.name, it.patch, Replace); err != nil {
				return err
			}
		}
		return nil
	}
	var idBuf [8]ecs.ID
	var valBuf [8]unsafe.Pointer
	b := adds{r: r, e: e, comps: comps, ids: idBuf[:0], vals: valBuf[:0]}
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
		v := it.c.newValue()
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
		if err := r.SetPatch(e, it.name, it.patch, Replace); err != nil {
			return err
		}
	}
	return nil
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
			b.vals = append(b.vals, dc.newValue())
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
// is kept, and a list already in order is returned as it is.
func depsFirst(items []setItem) []setItem {
	index := func(name string) int {
		for i, it := range items {
			if it.name == name {
				return i
			}
		}
		return -1
	}
	ordered := true
	for i, it := range items {
		for _, d := range it.c.Dependencies {
			if index(d) > i {
				ordered = false
			}
		}
	}
	if ordered {
		return items
	}
	out := make([]setItem, 0, len(items))
	done := make([]bool, len(items))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		done[i] = true
		for _, d := range items[i].c.Dependencies {
			if j := index(d); j >= 0 {
				visit(j)
			}
		}
		out = append(out, items[i])
	}
	for i := range items {
		visit(i)
	}
	return out
}
