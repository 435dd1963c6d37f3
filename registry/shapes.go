package registry

import "github.com/scenecs/scenecs/ecs"

// A shape is what SetMany works out for a list of component names set on
// an entity that has no component yet: each name looked up, and the
// order the components are added in (dependencies first, with missing
// dependencies added with their defaults). A load creates many entities
// of a few shapes, so SetMany on a fresh entity ([Registry.Create], the
// loader's builder) works a shape out once and replays it: a name is
// looked up once per shape instead of once per entity.
type shape struct {
	names []string
	steps []shapeStep
	bad   bool // the work done could not be replayed (a present component, a locked World)
}

// shapeStep is one component a shape adds: with the patch of the item
// from of the list given, or with its defaults (from < 0).
type shapeStep struct {
	c    *Component
	id   ecs.ID
	from int
}

// shapeMemo holds the shapes seen, by a hash of their names. It is
// emptied whenever a component is bound (registered, redeclared), and
// holds at most maxShapes, so that no input makes it grow without bound.
type shapeMemo struct {
	byHash map[uint64]*shape
}

// maxShapes bounds the shapes a Registry remembers.
const maxShapes = 512

func (m *shapeMemo) reset() { m.byHash = nil }

// hashNames hashes the names of comps (FNV-1a, names separated by 0).
func hashNames(comps []NamedPatch) uint64 {
	h := uint64(14695981039346656037)
	for _, np := range comps {
		for i := 0; i < len(np.Name); i++ {
			h = (h ^ uint64(np.Name[i])) * 1099511628211
		}
		h *= 1099511628211 // the separator, 0
	}
	return h
}

// get returns the shape of comps' names, or nil.
func (m *shapeMemo) get(h uint64, comps []NamedPatch) *shape {
	sh := m.byHash[h]
	if sh == nil || len(sh.names) != len(comps) {
		return nil
	}
	for i, np := range comps {
		if sh.names[i] != np.Name {
			return nil
		}
	}
	return sh
}

// setManyFresh is setMany for e, an entity that has no component yet:
// it replays the shape of comps' names if it knows it, and otherwise
// records it for the next entity of that shape.
func (r *Registry) setManyFresh(e ecs.Entity, comps []NamedPatch, priv bool) error {
	if r.w.Locked() || r.addScratch.busy || len(comps) == 0 {
		return r.setMany(e, comps, priv, nil)
	}
	h := hashNames(comps)
	sh := r.shapes.get(h, comps)
	if sh == nil {
		rec := &shape{}
		err := r.setMany(e, comps, priv, rec)
		if err == nil && !rec.bad && len(r.shapes.byHash) < maxShapes {
			if r.shapes.byHash == nil {
				r.shapes.byHash = make(map[uint64]*shape)
			}
			rec.names = make([]string, len(comps))
			for i, np := range comps {
				rec.names[i] = np.Name
			}
			r.shapes.byHash[h] = rec
		}
		return err
	}
	return r.replay(e, comps, priv, sh)
}

// replay adds the components of shape sh to e, with comps' patches: what
// setMany would do, without looking anything up.
func (r *Registry) replay(e ecs.Entity, comps []NamedPatch, priv bool, sh *shape) error {
	for _, st := range sh.steps {
		if st.from < 0 {
			continue
		}
		np := &comps[st.from]
		if err := st.c.refuse("set", np.Name, priv); err != nil {
			return err
		}
		if err := checkIndexes(st.c, np); err != nil {
			return err
		}
	}
	s := &r.addScratch
	s.busy = true
	ids, vals := s.ids[:0], s.vals[:0]
	defer func() { s.ids, s.vals, s.busy = ids[:0], clearPtrs(vals), false }()
	for _, st := range sh.steps {
		v := r.addValue(st.c, st.id)
		if st.from >= 0 {
			st.c.apply(v, comps[st.from].Patch)
		}
		ids = append(ids, st.id)
		vals = append(vals, v)
	}
	return r.w.AddMany(e, ids, vals)
}
