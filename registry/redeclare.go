package registry

import (
	"fmt"

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
// example when a scene file's components section changes during hot
// reload. Existing data is migrated property by property, by name: a
// property kept with the same type keeps its value; one whose type changed
// is converted through its text form when the new type accepts it; one
// that is new takes its default. What could not be migrated is returned as
// a list of readable notes (one per property and reason, not per entity).
//
// The component gets new storage (a new ecs ID); selectors compiledSelector
// before should be compiled again.
func (r *Registry) Redeclare(name string, s *Schema) (notes []string, err error) {
	old, ok := r.comps[name]
	if !ok || !old.Declared {
		return nil, fmt.Errorf("registry: %q is not a declared component", name)
	}
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
	c.access = makeAccess(s)
	id, err := r.w.RegisterType(fmt.Sprintf("%s@%d", name, version), st)
	if err != nil {
		return nil, err
	}
	c.ID = id
	c.newStore = func(n string) (ecs.ID, error) { return r.w.RegisterType(n, st) }
	// Property mapping.
	type mapping struct {
		from, to int
		convert  bool
	}
	var maps []mapping
	noted := map[string]bool{}
	for i := range s.Props {
		np := &s.Props[i]
		j, ok := old.Schema.Lookup(np.Name)
		if !ok || (np.Name == "" && !old.Schema.Single()) {
			continue
		}
		op := &old.Schema.Props[j]
		maps = append(maps, mapping{from: j, to: i, convert: op.Type != np.Type})
	}
	for j := range old.Schema.Props {
		if _, ok := s.Lookup(old.Schema.Props[j].Name); !ok {
			notes = append(notes, fmt.Sprintf("%s: property %q was removed; its values are dropped", name, old.Schema.Props[j].Name))
		}
	}
	// Collect entities first: migrating moves rows.
	f := ecs.NewFilter(r.w, ecs.With(old.ID))
	var es []ecs.Entity
	q := f.Query()
	for q.Next() {
		es = append(es, q.Entity())
	}
	f.Close()
	values := make([][]any, len(es))
	for k, e := range es {
		p, _ := r.w.GetPtr(e, old.ID)
		values[k] = old.Values(p)
	}
	// Switch the name over, then move the data.
	r.comps[name] = c
	for i, o := range r.order {
		if o == old {
			r.order[i] = c
			c.seq = i
		}
	}
	r.bind(c, id)
	r.names[id] = name
	r.byID[old.ID] = nil
	r.selCache = map[string]compiledSelector{}
	r.dirty = true
	for k, e := range es {
		v := c.newValue()
		for _, m := range maps {
			val := values[k][m.from]
			if m.convert {
				text := old.Schema.Props[m.from].Type.Print(val)
				nv, err := s.Props[m.to].Parse(text)
				if err != nil {
					key := s.Props[m.to].Name
					if !noted[key] {
						noted[key] = true
						notes = append(notes, fmt.Sprintf("%s: property %q changed type from %s to %s; values that do not convert (such as %q) take the default",
							name, key, old.Schema.Props[m.from].Type.Name, s.Props[m.to].Type.Name, text))
					}
					continue
				}
				val = nv
			} else if err := s.Props[m.to].Check(val); err != nil {
				key := s.Props[m.to].Name
				if !noted[key] {
					noted[key] = true
					notes = append(notes, fmt.Sprintf("%s: property %q: %v; such values take the default", name, key, err))
				}
				continue
			}
			c.access[m.to].set(v, val)
		}
		_ = r.w.Remove(e, old.ID)
		_ = r.w.AddPtr(e, id, v)
	}
	return notes, nil
}
