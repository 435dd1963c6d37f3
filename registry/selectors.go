package registry

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/internal/docorder"
	"github.com/scenecs/scenecs/selector"
)

// This file plugs the selector package into the Registry: *Registry is a
// [selector.Source] (component names, properties, ids and classes), and
// the default selectorEngine compiles selectors against it. The engine
// also holds the Registry's id and class store.

// selEngine is the default selectorEngine: it compiles with the selector
// package and keeps the id/class store.
type selEngine struct {
	r     *Registry
	store *entityStore
}

// newSelectorEngine makes the default engine for r and registers the
// observer that forgets a destroyed entity's id and classes.
func newSelectorEngine(r *Registry) *selEngine {
	e := &selEngine{r: r, store: newEntityStore()}
	e.store.room = r.w.Cap
	st := e.store
	r.w.Observe(ecs.EntityDestroyed, func(_ *ecs.World, _ ecs.Event, ent ecs.Entity, _ ecs.ID) {
		st.forget(ent)
	})
	return e
}

// Compile compiles src against the Registry. The result is a
// [*selector.Selector].
func (e *selEngine) Compile(src string) (compiledSelector, error) {
	s, err := selector.Compile(src, e.r)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Compile compiles a selector against the Registry with the selector
// package, whatever engine is plugged in: the result has the full
// selector API (QueryAll, QueryFrom, Count, ...).
func (r *Registry) Compile(src string) (*selector.Selector, error) {
	return selector.Compile(src, r)
}

var errNoStore = errors.New("registry: no id/class store: the selector engine was replaced")

func (r *Registry) store() *entityStore {
	if e, ok := r.sel.(*selEngine); ok && e.r == r {
		return e.store
	}
	return nil
}

// SetEntityID gives e the id used by `#id` selectors; "" removes it. Ids
// are unique among live entities: an id held by another entity is an
// error. A destroyed entity's id is forgotten.
func (r *Registry) SetEntityID(e ecs.Entity, id string) error {
	if !r.w.Alive(e) {
		return fmt.Errorf("registry: SetEntityID %v: %w", e, ecs.ErrStale)
	}
	st := r.store()
	if st == nil {
		return errNoStore
	}
	if id != "" {
		if o, ok := st.byID[id]; ok && o != e {
			return fmt.Errorf("registry: duplicate id %q: already used by entity %v", id, o)
		}
	}
	info := st.slot(e)
	if info.id != "" {
		delete(st.byID, info.id)
	}
	info.id = id
	if id != "" {
		st.byID[id] = e
	}
	return nil
}

// EntityID returns e's id, or "" if it has none.
func (r *Registry) EntityID(e ecs.Entity) string {
	if st := r.store(); st != nil {
		if info := st.get(e); info != nil {
			return info.id
		}
	}
	return ""
}

// EntityByID returns the live entity whose id is id.
func (r *Registry) EntityByID(id string) (ecs.Entity, bool) {
	if st := r.store(); st != nil {
		e, ok := st.byID[id]
		return e, ok
	}
	return ecs.Entity{}, false
}

// SetClasses replaces e's class list (used by `.class` selectors). Empty
// names and duplicates are dropped; names containing whitespace are an
// error. A destroyed entity's classes are forgotten.
func (r *Registry) SetClasses(e ecs.Entity, classes []string) error {
	if !r.w.Alive(e) {
		return fmt.Errorf("registry: SetClasses %v: %w", e, ecs.ErrStale)
	}
	st := r.store()
	if st == nil {
		return errNoStore
	}
	var cs []string
	for _, c := range classes {
		if strings.ContainsAny(c, " \t\n\r\f") {
			return fmt.Errorf("registry: class name %q contains whitespace", c)
		}
		if c != "" && !contains(cs, c) {
			cs = append(cs, c)
		}
	}
	st.setClasses(e, cs)
	return nil
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// Classes returns e's class list (a copy).
func (r *Registry) Classes(e ecs.Entity) []string {
	if st := r.store(); st != nil {
		var cs []classSlot
		if info := st.get(e); info != nil {
			cs = info.classes
		}
		if len(cs) == 0 {
			return nil
		}
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.name
		}
		return out
	}
	return nil
}

// HasClass reports whether e's class list contains class.
func (r *Registry) HasClass(e ecs.Entity, class string) bool {
	if st := r.store(); st != nil {
		if info := st.get(e); info != nil {
			for _, c := range info.classes {
				if c.name == class {
					return true
				}
			}
		}
	}
	return false
}

// ClassMembers returns the entities whose class list contains class, in
// no particular order. The slice belongs to the Registry: read it, do not
// keep it.
func (r *Registry) ClassMembers(class string) []ecs.Entity {
	if st := r.store(); st != nil {
		return st.members[class]
	}
	return nil
}

// entityStore maps entities to ids and classes, with the reverse indexes
// `#id` and `.class` selectors use.
type entityStore struct {
	ents    []entInfo // by entity index
	byID    map[string]ecs.Entity
	members map[string][]ecs.Entity
	slab    []classSlot // where the next entities' class lists are cut
	room    func() int  // the World's room for entities (World.Cap), or nil
}

// entInfo is the id and classes of the entity e; an entry whose e is not
// the entity asked about belongs to an earlier occupant of the slot.
type entInfo struct {
	e       ecs.Entity
	id      string
	classes []classSlot
}

// classSlot is one class of an entity and the entity's index in the
// class's member list.
type classSlot struct {
	name string
	i    int
}

func newEntityStore() *entityStore {
	return &entityStore{
		byID:    make(map[string]ecs.Entity),
		members: make(map[string][]ecs.Entity),
	}
}

// get returns e's entry, or nil if it has none.
func (st *entityStore) get(e ecs.Entity) *entInfo {
	if i := int(e.Index()); i < len(st.ents) && st.ents[i].e == e && !e.IsZero() {
		return &st.ents[i]
	}
	return nil
}

// slot returns e's entry, making it if needed.
func (st *entityStore) slot(e ecs.Entity) *entInfo {
	i := int(e.Index())
	if n := len(st.ents); i >= n {
		// Grow by doubling (append grows a large slice by a quarter,
		// which allocates five times the final size over a big load).
		if i >= cap(st.ents) {
			c := max(i+1, 2*cap(st.ents), 64)
			if st.room != nil {
				c = max(c, st.room()) // the World made room for a load
			}
			st.ents = append(make([]entInfo, 0, c), st.ents...)
		}
		st.ents = st.ents[:i+1]
		clear(st.ents[n:])
	}
	info := &st.ents[i]
	if info.e != e {
		*info = entInfo{e: e}
	}
	return info
}

func (st *entityStore) setClasses(e ecs.Entity, cs []string) {
	info := st.get(e)
	if info != nil {
		for _, c := range info.classes {
			ms := st.members[c.name]
			last := len(ms) - 1
			if c.i != last {
				moved := ms[last]
				ms[c.i] = moved
				if mi := st.get(moved); mi != nil {
					for k := range mi.classes {
						if mi.classes[k].name == c.name {
							mi.classes[k].i = c.i
							break
						}
					}
				}
			}
			ms[last] = ecs.Entity{}
			if last == 0 {
				delete(st.members, c.name)
			} else {
				st.members[c.name] = ms[:last]
			}
		}
		info.classes = nil
	}
	if len(cs) == 0 {
		return
	}
	if len(st.slab) < len(cs) {
		// Entities' class lists are cut from a shared block: a scene
		// loads many entities with a class or two.
		st.slab = make([]classSlot, max(256, len(cs)))
	}
	slots := st.slab[:len(cs):len(cs)]
	st.slab = st.slab[len(cs):]
	for k, c := range cs {
		ms := st.members[c]
		if len(ms) == cap(ms) {
			// Double, as the entity entries grow.
			ms = append(make([]ecs.Entity, 0, max(2*cap(ms), 8)), ms...)
		}
		slots[k] = classSlot{c, len(ms)}
		st.members[c] = append(ms, e)
	}
	st.slot(e).classes = slots
}

func (st *entityStore) forget(e ecs.Entity) {
	info := st.get(e)
	if info == nil {
		return
	}
	if info.id != "" {
		delete(st.byID, info.id)
	}
	st.setClasses(e, nil)
	*info = entInfo{}
}

// ComponentIDs resolves a component name for selector presence tests (it
// implements [selector.Source]): a base name of a multiple component stands
// for the base and every instance so far; an instance never used gives no
// IDs. A name the Registry does not know but the World does (such as the
// "paused" tag) resolves to its ecs component.
func (r *Registry) ComponentIDs(name string) ([]ecs.ID, error) {
	base, inst, isInst := strings.Cut(name, "__")
	c, ok := r.comps[base]
	if !ok {
		if id, ok := r.w.ComponentID(name); ok && !isInst {
			return []ecs.ID{id}, nil
		}
		return nil, r.unknown(base)
	}
	if !isInst {
		if c.Multiple {
			return c.InstanceIDs(), nil
		}
		return []ecs.ID{c.ID}, nil
	}
	if !c.Multiple {
		return nil, fmt.Errorf("component %q is not multiple: instance name %q is not allowed", c.Name, name)
	}
	if id, ok := c.instances[inst]; ok {
		return []ecs.ID{id}, nil
	}
	return nil, nil
}

// PropertyReader resolves `comp.prop` (prop "" for the one property of a
// single-property component) for selector value tests (it implements
// [selector.Source]). The axes x, y, z, w of a vector component and r, g,
// b, a of a colour component are numbers, and so are those of a vector
// or colour property, named `prop.axis` (`[world.position.y<0]`).
func (r *Registry) PropertyReader(comp, prop string) (selector.PropertyReader, error) {
	base, _, _ := strings.Cut(comp, "__")
	c, ok := r.comps[base]
	if !ok {
		return selector.PropertyReader{}, r.unknown(base)
	}
	s := c.Schema
	if s.IsTag() {
		return selector.PropertyReader{}, fmt.Errorf("component %q is a tag: it has no value to compare", c.Name)
	}
	if prop == "" {
		if !s.Single() {
			return selector.PropertyReader{}, fmt.Errorf("component %q has several properties (%s): compare one, as in [%s.%s=...]", c.Name, strings.Join(s.Names(), ", "), comp, s.Props[0].Name)
		}
		return s.Props[0].Reader(0), nil
	}
	if i, ok := s.Lookup(prop); ok {
		p := &s.Props[i]
		return p.Reader(p.Offset), nil
	}
	if name, axis, ok := strings.Cut(prop, "."); ok {
		i, found := s.Lookup(name)
		if !found {
			return selector.PropertyReader{}, r.noProperty(c, name)
		}
		p := &s.Props[i]
		if rd, ok := p.AxisReader(axis); ok {
			return rd, nil
		}
		return selector.PropertyReader{}, fmt.Errorf("property %q of component %q (a %s) has no axis %q", name, c.Name, p.Type.Name, axis)
	}
	if s.Single() {
		p := &s.Props[0]
		if rd, ok := p.AxisReader(prop); ok {
			return rd, nil
		}
		return selector.PropertyReader{}, fmt.Errorf("component %q (a %s) has no property %q", c.Name, p.Type.Name, prop)
	}
	return selector.PropertyReader{}, r.noProperty(c, prop)
}

// noProperty is the error for a property c does not have.
func (r *Registry) noProperty(c *Component, prop string) error {
	return fmt.Errorf("component %q has no property %q%s", c.Name, prop, didyoumean.Hint(prop, c.Schema.Names()))
}

var _ selector.Source = (*Registry)(nil)
var _ docorder.Sharer = (*Registry)(nil)
var _ compiledSelector = (*selector.Selector)(nil)
