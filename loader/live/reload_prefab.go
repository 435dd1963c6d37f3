package live

import (
	"fmt"
	"slices"
	"sort"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Hot reload of prefabs. The scene's instances are expanded into the
// Plan, so the differ matches, creates and destroys their parts like any
// entity (parts by their names inside the prefab, see matchKey). What
// this file adds: the list of prefabs that changed, and instances spawned
// at run time (Prefabs.Instantiate, spawners), which have no node
// in the Plan: each follows its prefab's edit, compared template to
// template, part by part by key, the root with what the instance was
// made with written over both templates (Prefabs.Overrides).

// spawnedEdits are the parts of instances spawned at run time that a
// reload creates or destroys.
type spawnedEdits struct {
	adds     []spawnedAdd
	destroys []spawnedDestroy
	follow   int // instances spawned at run time that follow an edit
}

// spawnedDestroy is a part to destroy, and its name in entries.
type spawnedDestroy struct {
	e     ecs.Entity
	label string
}

// spawnedAdd is a part to create: the template node n under parent
// (ecs.Entity), with the id given, after the entity after (zero: first).
type spawnedAdd struct {
	parent, after ecs.Entity
	n             *plan.Node
	id            string
}

func (s *spawnedEdits) empty() bool { return len(s.adds) == 0 && len(s.destroys) == 0 }

// prefabs records the prefabs added, changed or removed, and what a
// changed prefab does to the instances spawned at run time.
func (df *differ) prefabs() {
	d, old := df.d, df.s.Plan.Prefabs
	for name, p := range d.new.Prefabs {
		op, ok := old[name]
		switch {
		case !ok:
			d.Prefabs = append(d.Prefabs, name+" (new)")
		case !df.sameTemplate(op.Root, p.Root):
			before := d.spawned.follow
			df.followSpawned(name, op.Root, p.Root)
			note := "changed"
			if k := d.spawned.follow - before; k > 0 {
				note = fmt.Sprintf("changed; %d instances spawned at run time follow", k)
			}
			d.Prefabs = append(d.Prefabs, name+" ("+note+")")
		}
	}
	for name := range old {
		if _, ok := d.new.Prefabs[name]; !ok {
			d.Prefabs = append(d.Prefabs, name+" (removed)")
		}
	}
	sort.Strings(d.Prefabs)
}

// sameTemplate reports whether two templates give the same keys,
// classes and components everywhere. Templates share subtrees (a
// nested prefab's nodes), so each pair of nodes is compared once.
func (df *differ) sameTemplate(a, b *plan.Node) bool {
	if df.sameNodes == nil {
		df.sameNodes = map[[2]*plan.Node]bool{}
	}
	k := [2]*plan.Node{a, b}
	if same, ok := df.sameNodes[k]; ok {
		return same
	}
	same := a.Key() == b.Key() && len(a.Children) == len(b.Children) && diffNode(a, b, df.sc) == nil
	for i := 0; same && i < len(a.Children); i++ {
		same = df.sameTemplate(a.Children[i], b.Children[i])
	}
	df.sameNodes[k] = same
	return same
}

// followSpawned records, for every live instance of the prefab name that
// the scene did not make (spawned at run time), what the edit from the
// template o to n changes on it.
func (df *differ) followSpawned(name string, o, n *plan.Node) {
	reg := df.s.Registry
	for _, e := range reg.Prefabs().Spawned() {
		if reg.Prefabs().Of(e) != name {
			continue
		}
		if _, mine := df.s.indexOf(e); mine {
			continue
		}
		df.d.spawned.follow++
		wo, wn := withoutMarker(o), withoutMarker(n)
		if over := reg.Prefabs().Overrides(e); len(over) > 0 {
			wo, wn = withOverrides(wo, over), withOverrides(wn, over)
		}
		df.syncSpawned(e, wo, wn)
	}
}

// withOverrides returns a template root with what an instance made at
// run time wrote over it (Prefabs.Overrides): the properties it
// gives are then the same before and after any edit, so that the edit
// leaves them to the instance, as it does for an instance in the scene.
func withOverrides(t *plan.Node, over []registry.NamedPatch) *plan.Node {
	c := *t
	c.Comps = plan.Overlay(t.Comps, over)
	return &c
}

// withoutMarker returns a template root whose components leave out the
// marker (a variant's base): a spawned instance's marker is its own
// prefab's, which the edit does not touch.
func withoutMarker(t *plan.Node) *plan.Node {
	if !slices.ContainsFunc(t.Comps, isMarker) {
		return t
	}
	c := *t
	c.Comps = slices.DeleteFunc(slices.Clone(t.Comps), isMarker)
	return &c
}

func isMarker(np registry.NamedPatch) bool { return np.Name == registry.PrefabComponent }

// syncSpawned records the changes from the template node o to n on the
// entity e of a spawned instance, and recurses into the parts by key:
// a part the edit adds is created, one it removes destroyed (a part
// destroyed at run time stays destroyed).
func (df *differ) syncSpawned(e ecs.Entity, o, n *plan.Node) {
	d, reg, w := df.d, df.s.Registry, df.s.World
	if c := diffNode(o, n, df.sc); c != nil {
		c.Entity = e
		d.Changed = append(d.Changed, c)
	}
	parts := map[string]ecs.Entity{}
	for ch := range w.ChildrenSeq(e) {
		if k := reg.Prefabs().PartKey(ch); k != "" {
			parts[k] = ch
		}
	}
	olds := map[string]*plan.Node{}
	for _, oc := range o.Children {
		olds[oc.Key()] = oc
	}
	var after ecs.Entity
	for _, nc := range n.Children {
		oc, had := olds[nc.Key()]
		delete(olds, nc.Key())
		ce, alive := parts[nc.Key()]
		switch {
		case had && alive:
			df.syncSpawned(ce, oc, nc)
			after = ce
		case !had:
			id := ""
			if pid := reg.EntityID(e); pid != "" {
				id = pid + "/" + nc.Key()
			}
			d.spawned.adds = append(d.spawned.adds, spawnedAdd{parent: e, after: after, n: nc, id: id})
		}
	}
	for k := range olds {
		if ce, ok := parts[k]; ok {
			d.spawned.destroys = append(d.spawned.destroys, spawnedDestroy{ce, entityLabel(reg, ce)})
		}
	}
}

// applySpawned creates the parts an edit adds to instances spawned at
// run time (their changes are applied with the others, and the parts
// removed are destroyed in the destroy phase).
func (s *Scene) applySpawned(d *Diff, errs *scenefile.ErrorList) {
	w := s.World
	for _, a := range d.spawned.adds {
		if !w.Alive(a.parent) {
			continue
		}
		e, err := s.Registry.Prefabs().InstantiatePart(a.parent, plan.RegistryNode(a.n), a.id)
		if err != nil {
			*errs = append(*errs, &scenefile.Error{Pos: a.n.Src.Pos, Msg: err.Error()})
			continue
		}
		idx := 0
		if w.Alive(a.after) {
			if p, ok := w.Parent(a.after); ok && p == a.parent {
				idx = w.ChildIndex(a.after) + 1
			}
		}
		_ = w.InsertChild(a.parent, e, idx)
	}
	for _, x := range d.spawned.destroys {
		if w.Alive(x.e) {
			_ = w.Destroy(x.e)
		}
	}
}

// spawnedEntries adds the entries of parts of spawned instances created
// and destroyed.
func (d *Diff) spawnedEntries(out []DiffEntry, el entryLabels) []DiffEntry {
	for _, a := range d.spawned.adds {
		name := a.id
		if name == "" {
			name = el.label(a.n, ecs.Entity{})
		} else {
			name = "#" + name
		}
		out = append(out, DiffEntry{Kind: EntityCreated, Entity: name, Pos: a.n.Src.Pos})
	}
	for _, x := range d.spawned.destroys {
		out = append(out, DiffEntry{Kind: EntityDestroyed, Entity: x.label})
	}
	return out
}
