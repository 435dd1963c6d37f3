package registry

import (
	"fmt"
	"strings"

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
	for _, np := range r.dependenciesFirst(comps) {
		if err := r.SetPatch(e, np.Name, np.Patch, Replace); err != nil {
			_ = r.w.Destroy(e)
			return ecs.Entity{}, err
		}
	}
	return e, nil
}

// dependenciesFirst orders comps so that each component's dependencies
// that comps also gives come before it (depth-first, left to right);
// otherwise the order is kept.
func (r *Registry) dependenciesFirst(comps []NamedPatch) []NamedPatch {
	index := make(map[string]int, len(comps))
	for i, np := range comps {
		index[np.Name] = i
	}
	out := make([]NamedPatch, 0, len(comps))
	done := make([]bool, len(comps))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		done[i] = true
		if c, ok := r.Component(comps[i].Name); ok {
			for _, d := range c.Dependencies {
				if j, ok := index[d]; ok {
					visit(j)
				}
			}
		}
		out = append(out, comps[i])
	}
	for i := range comps {
		visit(i)
	}
	return out
}
