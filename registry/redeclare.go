package registry

import (
	"fmt"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// nameOf returns the scene name of the ecs component id: the component's
// name, or name__instance for an instance of a multiple component.
func (r *Registry) nameOf(id ecs.ID) string {
	if int(id) < len(r.names) && r.names[id] != "" {
		return r.names[id]
	}
	return r.w.ComponentName(id)
}

// Redeclare replaces the schema of a declared (data-only) component, for
// the code that owns the declaration: the loader, when a scene file's
// components section changes during hot reload. Existing data is migrated property by property, by name: a
// property kept with the same type keeps its value; one whose type changed
// is converted through its text form when the new type accepts it; one
// that is new takes its default. What could not be migrated is returned as
// a list of readable notes (one per property and reason, not per entity).
//
// The component gets new storage (a new ecs ID); selectors compiledSelector
// before should be compiled again.
func (p Privileged) Redeclare(name string, s *Schema) (notes []string, err error) {
	r := p.r
	old, ok := r.comps[name]
	if !ok || !old.Declared {
		return nil, fmt.Errorf("registry: %q is not a declared component", name)
	}
	c, err := r.newStorage(name, s)
	if err != nil {
		return nil, err
	}
	maps, notes := propMappings(name, old.Schema, s)
	es, values := r.dataOf(old)
	r.switchOver(old, c)
	m := migration{name: name, from: old.Schema, to: c, noted: map[string]bool{}, notes: notes}
	for k, e := range es {
		v := m.value(values[k], maps)
		_ = r.w.Remove(e, old.ID)
		_ = r.w.AddPtr(e, c.ID, v)
	}
	return m.notes, nil
}

// newStorage makes the component that replaces the declared component
// name with schema s, registered in the World under a new internal name
// (name@2, name@3, ...).
func (r *Registry) newStorage(name string, s *Schema) (*Component, error) {
	version := 2
	for {
		if _, taken := r.w.ComponentID(fmt.Sprintf("%s@%d", name, version)); !taken {
			break
		}
		version++
	}
	st := s.StructType()
	c := &Component{Name: name, Schema: s, Declared: true, reg: r}
	c.instances = map[string]ecs.ID{}
	c.access = s.Accessors()
	id, err := r.w.RegisterType(fmt.Sprintf("%s@%d", name, version), st)
	if err != nil {
		return nil, err
	}
	c.ID = id
	c.newStore = func(n string) (ecs.ID, error) { return r.w.RegisterType(n, st) }
	return c, nil
}

// A propMapping carries a property of the old schema over to the new one.
type propMapping struct {
	from, to int
	convert  bool // the type changed: go through the text form
}

// propMappings pairs the properties of from and to by name, and notes the
// properties of from that to drops.
func propMappings(name string, from, to *Schema) (maps []propMapping, notes []string) {
	for i := range to.Props {
		np := &to.Props[i]
		j, ok := from.Lookup(np.Name)
		if !ok || (np.Name == "" && !from.Single()) {
			continue
		}
		op := &from.Props[j]
		maps = append(maps, propMapping{from: j, to: i, convert: op.Type != np.Type})
	}
	for j := range from.Props {
		if _, ok := to.Lookup(from.Props[j].Name); !ok {
			notes = append(notes, fmt.Sprintf("%s: property %q was removed; its values are dropped", name, from.Props[j].Name))
		}
	}
	return maps, notes
}

// dataOf returns the entities that have component c and their values,
// collected before any is migrated (migrating moves rows).
func (r *Registry) dataOf(c *Component) ([]ecs.Entity, [][]any) {
	f := ecs.NewFilter(r.w, ecs.With(c.ID))
	var es []ecs.Entity
	q := f.Query()
	for q.Next() {
		es = append(es, q.Entity())
	}
	f.Close()
	values := make([][]any, len(es))
	for k, e := range es {
		p, _ := r.w.GetPtr(e, c.ID)
		values[k] = c.Values(p)
	}
	return es, values
}

// switchOver makes c the component called old.Name, in old's place in the
// registration order; compiled selectors are dropped and the tick order
// is sorted again.
func (r *Registry) switchOver(old, c *Component) {
	r.comps[c.Name] = c
	for i, o := range r.order {
		if o == old {
			r.order[i] = c
			c.seq = i
		}
	}
	r.bind(c, c.ID)
	r.names[c.ID] = c.Name
	r.byID[old.ID] = nil
	r.selCache = map[string]compiledSelector{}
	r.sched.Invalidate()
}

// A migration converts the values of entities from one schema of a
// declared component to its new one, noting once per property what it
// could not carry over.
type migration struct {
	name  string
	from  *Schema
	to    *Component
	noted map[string]bool
	notes []string
}

// value returns the new component value for the old values vals: mapped
// properties carried over (converted through text when their type
// changed), the others at their defaults.
func (m *migration) value(vals []any, maps []propMapping) unsafe.Pointer {
	s := m.to.Schema
	v := m.to.newValue()
	for _, pm := range maps {
		val := vals[pm.from]
		if pm.convert {
			text := m.from.Props[pm.from].Type.Print(val)
			nv, err := s.Props[pm.to].Parse(text)
			if err != nil {
				m.note(s.Props[pm.to].Name, "%s: property %q changed type from %s to %s; values that do not convert (such as %q) take the default",
					m.name, s.Props[pm.to].Name, m.from.Props[pm.from].Type.Name, s.Props[pm.to].Type.Name, text)
				continue
			}
			val = nv
		} else if err := s.Props[pm.to].Check(val); err != nil {
			m.note(s.Props[pm.to].Name, "%s: property %q: %v; such values take the default", m.name, s.Props[pm.to].Name, err)
			continue
		}
		m.to.access[pm.to].Set(v, val)
	}
	return v
}

// note adds a note, formatted as by fmt.Sprintf, unless property key has
// one already.
func (m *migration) note(key, format string, args ...any) {
	if !m.noted[key] {
		m.noted[key] = true
		m.notes = append(m.notes, fmt.Sprintf(format, args...))
	}
}
