package registry

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

// newValue allocates a component value holding the schema's defaults.
func (c *Component) newValue() unsafe.Pointer {
	p := reflect.New(c.Schema.StructType()).UnsafePointer()
	for i := range c.Schema.Props {
		c.access[i].Set(p, schema.CloneValue(c.Schema.Props[i].Default))
	}
	return p
}

// addValue returns the value of component c, of ecs component id (an
// instance of a multiple component has its own), to add to one entity,
// its defaults set: SetMany's, which the World copies into its column
// before any hook runs, so that one value per id serves every entity a
// load makes (a new one for each was most of what building allocated
// beside the columns).
func (r *Registry) addValue(c *Component, id ecs.ID) unsafe.Pointer {
	if int(id) >= len(r.adding) {
		r.adding = append(r.adding, make([]unsafe.Pointer, int(id)+1-len(r.adding))...)
	}
	p := r.adding[id]
	if p == nil {
		p = reflect.New(c.Schema.StructType()).UnsafePointer()
		r.adding[id] = p
	}
	for i := range c.Schema.Props {
		c.access[i].Set(p, schema.CloneValue(c.Schema.Props[i].Default))
	}
	return p
}

// copyValue copies a component value with the write barriers pointers in
// it need.
func (c *Component) copyValue(dst, src unsafe.Pointer) {
	st := c.Schema.StructType()
	reflect.NewAt(st, dst).Elem().Set(reflect.NewAt(st, src).Elem())
}

// clone returns a fresh copy of the value at src.
func (c *Component) clone(src unsafe.Pointer) unsafe.Pointer {
	p := reflect.New(c.Schema.StructType()).UnsafePointer()
	c.copyValue(p, src)
	return p
}

// Get returns property i of the component value at p.
func (c *Component) Get(p unsafe.Pointer, i int) any { return c.access[i].Get(p) }

// Number returns numeric property i of the value at p as a float64, with
// ok=false if the property is not numeric. It does not allocate.
func (c *Component) Number(p unsafe.Pointer, i int) (float64, bool) { return c.access[i].Num(p) }

// Values returns every property of the value at p, in schema order.
func (c *Component) Values(p unsafe.Pointer) []any {
	vs := make([]any, len(c.Schema.Props))
	for i := range vs {
		vs[i] = c.access[i].Get(p)
	}
	return vs
}

// apply writes the patch's values into the value at p.
func (c *Component) apply(p unsafe.Pointer, patch Patch) {
	for _, pv := range patch {
		// A list is copied: patches are shared (by a mixin's entities,
		// by the entities of a scene that repeat a value).
		c.access[pv.Index].Set(p, schema.CloneValue(pv.Value))
	}
	if c.rels != nil {
		c.reg.resolveRefs(c, p)
	}
}

// SetMode says how [Registry.SetPatch] treats properties the patch does not
// give.
type SetMode uint8

const (
	// Merge keeps the current values of properties the patch does not
	// give (A-Frame's setAttribute with an object); for a component the
	// entity does not have yet they take their defaults.
	Merge SetMode = iota
	// Replace resets every property the patch does not give to its
	// default.
	Replace
)

// Set parses an attribute string for the component name (or instance name__id)
// and sets it on e, merging with the current data. See [Registry.SetPatch].
func (r *Registry) Set(e ecs.Entity, name, attr string) error {
	c, _, err := r.Lookup(name)
	if err != nil {
		return err
	}
	p, err := c.Schema.ParseAttr(name, attr)
	if err != nil {
		return err
	}
	return r.SetPatch(e, name, p, Merge)
}

// SetPatch sets the properties in patch on e's component name. If e does
// not have the component, its dependencies are added first (depth-first,
// left to right, with their defaults), then the component with its
// defaults overridden by patch, and init then update(zero) run. If e has
// it, the patch is merged (or, with Replace, applied over the defaults);
// if the data actually changed, update runs with the previous data as old
// and a componentchanged event is emitted.
//
// While the World defers structural changes (during a tick pass, or in a
// hook run by an observer), adding an absent component is deferred with
// the rest: SetPatch checks what it can (the name, the patch, the entity,
// the dependencies) and returns nil, and the write happens, in order with
// the other deferred changes, when the pass ends.
//
// A read-only component is refused with a *ReadOnlyError (see
// [ErrReadOnly]).
func (r *Registry) SetPatch(e ecs.Entity, name string, patch Patch, mode SetMode) error {
	return r.setPatch(e, name, patch, mode, false)
}

// setPatch is SetPatch; priv writes read-only components too.
func (r *Registry) setPatch(e ecs.Entity, name string, patch Patch, mode SetMode, priv bool) error {
	c, id, err := r.Lookup(name)
	if err != nil {
		return err
	}
	if err := c.refuse("set", name, priv); err != nil {
		return err
	}
	if !r.w.Alive(e) {
		return fmt.Errorf("registry: set %s on %v: %w", name, e, ecs.ErrStale)
	}
	for _, pv := range patch {
		if pv.Index < 0 || pv.Index >= len(c.Schema.Props) {
			return fmt.Errorf("registry: set %s: property index %d out of range", name, pv.Index)
		}
	}
	// Ask Has first: GetPtr's error for an absent component is built with
	// fmt, which dominated loading large scenes (every component of every
	// new entity is absent at first).
	var cur unsafe.Pointer
	err = ecs.ErrNoComponent
	if r.w.Has(e, id) {
		cur, err = r.w.GetPtr(e, id)
	}
	if err != nil && r.w.Locked() {
		// Not present, and the World defers structural changes (a tick
		// pass or an observer is running). The add would be queued, so
		// a second write before it lands would find the component still
		// absent and queue a second add that replaces the first (no
		// merge, no update). Queue the whole write instead: it then sees
		// what the writes before it did.
		if err := r.checkDependencies(c, map[string]bool{c.Name: true}); err != nil {
			return err
		}
		patch = slices.Clone(patch)
		r.w.Defer(func(*ecs.World) {
			if r.w.Alive(e) {
				_ = r.setPatch(e, name, patch, mode, priv)
			}
		})
		return nil
	}
	if err != nil {
		// Not present: dependencies, then add. (Most components have no
		// dependencies: skip making the map that guards against cycles.)
		if len(c.Dependencies) > 0 {
			if err := r.addDependencies(e, c, map[string]bool{c.Name: true}); err != nil {
				return err
			}
		}
		v := c.newValue()
		c.apply(v, patch)
		return r.w.AddPtr(e, id, v)
	}
	old := c.clone(cur)
	nv := c.newValue()
	if mode == Merge {
		c.copyValue(nv, cur)
	}
	c.apply(nv, patch)
	changed := false
	for i := range c.Schema.Props {
		if !c.Schema.Props[i].Type.Equal(c.access[i].Get(old), c.access[i].Get(nv)) {
			changed = true
			break
		}
	}
	if !changed {
		return nil
	}
	if err := r.w.SetPtr(e, id, nv); err != nil {
		return err
	}
	if c.hooks.update != nil {
		if p, err := r.w.GetPtr(e, id); err == nil {
			c.hooks.update(r.hookCtx(e, id), p, old)
		}
	}
	r.emitComponent(e, "componentchanged", id)
	return nil
}

func (r *Registry) addDependencies(e ecs.Entity, c *Component, seen map[string]bool) error {
	for _, d := range c.Dependencies {
		if seen[d] {
			continue
		}
		seen[d] = true
		dc, ok := r.comps[d]
		if !ok {
			return fmt.Errorf("registry: component %q depends on unknown component %q", c.Name, d)
		}
		if r.Prefabs().IsMarker(dc) {
			// Added with its default, the marker would name no prefab
			// and make the entity match [prefab] as a fake instance.
			return fmt.Errorf("registry: component %q depends on %q, the read-only marker of prefab instances, which only instancing a prefab may add", c.Name, d)
		}
		if r.w.Has(e, dc.ID) {
			continue
		}
		if err := r.addDependencies(e, dc, seen); err != nil {
			return err
		}
		if err := r.w.AddPtr(e, dc.ID, dc.newValue()); err != nil {
			return err
		}
	}
	return nil
}

// checkDependencies reports a dependency of c, direct or not, that is not
// registered.
func (r *Registry) checkDependencies(c *Component, seen map[string]bool) error {
	for _, d := range c.Dependencies {
		if seen[d] {
			continue
		}
		seen[d] = true
		dc, ok := r.comps[d]
		if !ok {
			return fmt.Errorf("registry: component %q depends on unknown component %q", c.Name, d)
		}
		if err := r.checkDependencies(dc, seen); err != nil {
			return err
		}
	}
	return nil
}

// SetProperty sets one property of e's component from text.
func (r *Registry) SetProperty(e ecs.Entity, name, prop, text string) error {
	c, _, err := r.Lookup(name)
	if err != nil {
		return err
	}
	p, err := c.Schema.ParseMap(name, [][2]string{{prop, text}})
	if err != nil {
		return err
	}
	return r.SetPatch(e, name, p, Merge)
}

// ResetProperty sets one property of e's component back to its default.
func (r *Registry) ResetProperty(e ecs.Entity, name, prop string) error {
	c, _, err := r.Lookup(name)
	if err != nil {
		return err
	}
	i, ok := c.Schema.Lookup(prop)
	if !ok {
		return fmt.Errorf("registry: %s has no property %q", name, prop)
	}
	return r.SetPatch(e, name, Patch{{Index: i, Value: schema.CloneValue(c.Schema.Props[i].Default)}}, Merge)
}

// Remove detaches the component name from e; its remove hook runs first.
// A read-only component is refused with a *ReadOnlyError.
func (r *Registry) Remove(e ecs.Entity, name string) error {
	return r.remove(e, name, false)
}

// remove is Remove; priv removes read-only components too.
func (r *Registry) remove(e ecs.Entity, name string, priv bool) error {
	c, id, err := r.Lookup(name)
	if err != nil {
		return err
	}
	if err := c.refuse("remove", name, priv); err != nil {
		return err
	}
	return r.w.Remove(e, id)
}

// Has reports whether e has the component (or instance) name.
func (r *Registry) Has(e ecs.Entity, name string) bool {
	_, id, ok := r.lookupExisting(name)
	return ok && r.w.Has(e, id)
}

// Values returns the property values of e's component name in schema
// order.
func (r *Registry) Values(e ecs.Entity, name string) ([]any, error) {
	c, id, ok := r.lookupExisting(name)
	if !ok {
		if c == nil {
			return nil, r.unknown(name)
		}
		return nil, fmt.Errorf("registry: %v has no %s: %w", e, name, ecs.ErrNoComponent)
	}
	p, err := r.w.GetPtr(e, id)
	if err != nil {
		return nil, err
	}
	return c.Values(p), nil
}

// Attr returns e's component name printed as an attribute string.
func (r *Registry) Attr(e ecs.Entity, name string) (string, error) {
	vs, err := r.Values(e, name)
	if err != nil {
		return "", err
	}
	c, _ := r.Component(name)
	return c.Schema.PrintAttr(vs), nil
}

// EntityComponents returns the names of e's registry components (instances
// included), in ecs ID order. The registry's own paused tag is left out.
func (r *Registry) EntityComponents(e ecs.Entity) []string {
	var out []string
	for _, id := range r.w.Components(e) {
		if _, ok := r.ComponentByID(id); ok {
			out = append(out, r.nameOf(id))
		}
	}
	return out
}
