package registry

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/relations"
	"github.com/scenecs/scenecs/selector"
)

// The registry's part of references between entities (properties of
// types entity and entities): one relations.Rel per such property, which
// the reverse index and the onDelete policies live in (package
// relations); here, reading and writing the values.

// watchRefs makes the reference properties of c follow ecs component id.
func (r *Registry) watchRefs(c *Component, id ecs.ID) {
	for i := range c.Schema.Props {
		p := &c.Schema.Props[i]
		if !schema.IsRef(p.Type) {
			continue
		}
		if c.rels == nil {
			c.rels = make([]*relations.Rel, len(c.Schema.Props))
		}
		if c.rels[i] == nil {
			c.rels[i] = r.newRel(c, p)
		}
		c.rels[i].Watch(id)
	}
}

// newRel makes the relation of property p of c.
func (r *Registry) newRel(c *Component, p *schema.Property) *relations.Rel {
	if r.refs == nil {
		r.refs = relations.New(r.w)
	}
	name := c.Name
	if p.Name != "" {
		name += "." + p.Name
	}
	list, off := p.Type.Name == "entities", p.Offset
	return r.refs.Add(relations.Spec{
		Name:   name,
		Policy: relations.Policy(p.OnDelete),
		Read: func(h ecs.Entity, id ecs.ID, dst []ecs.Entity) []ecs.Entity {
			v, err := r.w.GetPtr(h, id)
			if err != nil {
				return dst
			}
			if !list {
				if t := (*Ref)(unsafe.Add(v, off)).Target; !t.IsZero() {
					dst = append(dst, t)
				}
				return dst
			}
			for _, ref := range *(*Refs)(unsafe.Add(v, off)) {
				if !ref.Target.IsZero() {
					dst = append(dst, ref.Target)
				}
			}
			return dst
		},
		Drop: func(h ecs.Entity, id ecs.ID, target ecs.Entity) {
			v, err := r.w.GetPtr(h, id)
			if err != nil {
				return
			}
			if !list {
				*(*Ref)(unsafe.Add(v, off)) = Ref{}
			} else {
				// A new list: the old one may be shared with a copy
				// (an undo's snapshot, an update hook's old value).
				rs := (*Refs)(unsafe.Add(v, off))
				*rs = slices.DeleteFunc(slices.Clone(*rs), func(x Ref) bool { return x.Target == target })
			}
			_ = r.w.MarkChanged(h, id)
			r.emitComponent(h, "componentchanged", id)
		},
	})
}

// resolveRefs fills in, in the component value at p, the handle of each
// reference written `#id` whose entity exists. Paths, and ids of
// entities not made yet, are left to whoever made the value (the loader
// resolves them once a scene's entities all exist).
func (r *Registry) resolveRefs(c *Component, p unsafe.Pointer) {
	for i, rel := range c.rels {
		if rel == nil {
			continue
		}
		v := unsafe.Add(p, c.Schema.Props[i].Offset)
		if c.Schema.Props[i].Type.Name == "entity" {
			r.resolveRef((*Ref)(v))
			continue
		}
		for j := range *(*Refs)(v) {
			r.resolveRef(&(*(*Refs)(v))[j])
		}
	}
}

func (r *Registry) resolveRef(ref *Ref) {
	if ref.Target.IsZero() && strings.HasPrefix(ref.Text, "#") {
		ref.Target, _ = r.EntityByID(ref.Text[1:])
	}
}

// rel finds the relation named as selectors write it: a component whose
// one reference property it is (`docked`), or `comp.prop`.
func (r *Registry) rel(name string) (*Component, int, error) {
	comp, prop, dotted := strings.Cut(name, ".")
	c, ok := r.Component(comp)
	if !ok {
		return nil, 0, r.unknown(comp)
	}
	found := -1
	for i := range c.Schema.Props {
		p := &c.Schema.Props[i]
		if dotted && p.Name != prop {
			continue
		}
		if !schema.IsRef(p.Type) {
			if dotted {
				return nil, 0, fmt.Errorf("%s is a %s property, not a reference (entity or entities)", name, p.Type.Name)
			}
			continue
		}
		if found >= 0 {
			return nil, 0, fmt.Errorf("component %q has several reference properties: name one as %s.PROPERTY", comp, comp)
		}
		found = i
	}
	if found < 0 {
		if dotted {
			return nil, 0, fmt.Errorf("component %q has no property %q", comp, prop)
		}
		return nil, 0, fmt.Errorf("component %q holds no reference (a property of type entity or entities)", comp)
	}
	return c, found, nil
}

// Relation resolves a relation as a selector writes it (`docked`, or
// `comp.prop` for one property of several) to the functions that read it
// both ways, from the reverse index the registry keeps: it implements
// [selector.Relations]. Handles are checked as everywhere: a reference to
// a destroyed entity is never returned.
func (r *Registry) Relation(rel string) (selector.Relation, error) {
	c, i, err := r.rel(rel)
	if err != nil {
		return selector.Relation{}, err
	}
	rr := c.rels[i]
	return selector.Relation{
		IDs:     slices.Clone(rr.IDs()),
		Targets: rr.Targets,
		Holders: rr.Holders,
	}, nil
}

// SetRef sets e's relation rel (`docked`, `comp.prop`) in r to point at
// targets, through [Registry.SetPatch] (adding the component if e lacks
// it): an entity property takes one target or none (empty), a list any
// number. A target must be alive.
func SetRef(r *Registry, e ecs.Entity, rel string, targets ...ecs.Entity) error {
	c, i, err := r.rel(rel)
	if err != nil {
		return fmt.Errorf("registry: SetRef: %w", err)
	}
	refs := make(Refs, len(targets))
	for j, t := range targets {
		if !r.w.Alive(t) {
			return fmt.Errorf("registry: SetRef %s: target %v: %w", rel, t, ecs.ErrStale)
		}
		refs[j] = schema.RefTo(t)
	}
	var v any = refs
	if c.Schema.Props[i].Type.Name == "entity" {
		if len(targets) > 1 {
			return fmt.Errorf("registry: SetRef %s: %d targets for an entity property (one or none)", rel, len(targets))
		}
		ref := Ref{}
		if len(refs) == 1 {
			ref = refs[0]
		}
		v = ref
	}
	return r.SetPatch(e, c.Name, Patch{{Index: i, Value: v}}, Merge)
}
