package editor

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Snapshots of entities, to make them again (undo of a destruction,
// redo of a creation, a clone), and places, to put them back.

// entSnap is an entity and its subtree as undo or redo makes them again:
// id, classes, prefab part key and every component's values (the
// computed, read-only world transform left out: its owner makes it).
type entSnap struct {
	s     *slot // nil for a copy (a clone's), which gets a new slot
	id    string
	class []string
	part  string
	comps []registry.NamedPatch
	kids  []*entSnap
}

// place is where an entity stands: under parent (nil: a root), at index
// among its siblings.
type place struct {
	parent *slot
	index  int
}

// snapshot records e and its subtree (slots made for each).
func (ed *Editor) snapshot(e ecs.Entity) *entSnap {
	sn := &entSnap{s: ed.hist.slotOf(e), id: ed.reg.EntityID(e), class: ed.reg.Classes(e), part: ed.reg.Prefabs().PartKey(e)}
	for _, name := range ed.reg.EntityComponents(e) {
		c, ok := ed.reg.Component(name)
		if !ok || c.ReadOnly() && !ed.reg.Prefabs().IsMarker(c) {
			continue
		}
		if v, err := ed.reg.Values(e, name); err == nil {
			sn.comps = append(sn.comps, registry.NamedPatch{Name: name, Patch: valuesPatch(cloneValues(v))})
		}
	}
	for _, k := range ed.w.Children(e) {
		sn.kids = append(sn.kids, ed.snapshot(k))
	}
	return sn
}

// shape is a snapshot of e's subtree's shape only (for limits).
func (ed *Editor) shape(e ecs.Entity) *entSnap {
	sn := &entSnap{}
	for _, k := range ed.w.Children(e) {
		sn.kids = append(sn.kids, ed.shape(k))
	}
	return sn
}

// count returns the entities of the snapshot's subtree.
func (sn *entSnap) count() int {
	n := 1
	for _, k := range sn.kids {
		n += k.count()
	}
	return n
}

// depth is the snapshot's subtree depth (1 for a leaf).
func (sn *entSnap) depth() int {
	d := 0
	for _, k := range sn.kids {
		d = max(d, k.depth())
	}
	return d + 1
}

// ids lists the ids the subtree uses.
func (sn *entSnap) ids(out []string) []string {
	if sn.id != "" {
		out = append(out, sn.id)
	}
	for _, k := range sn.kids {
		out = k.ids(out)
	}
	return out
}

// size counts the bytes the snapshot holds (nil: none).
func (sn *entSnap) size() int64 {
	if sn == nil {
		return 0
	}
	n := int64(96 + len(sn.id) + len(sn.part))
	for _, c := range sn.class {
		n += int64(16 + len(c))
	}
	for _, np := range sn.comps {
		n += int64(40 + len(np.Name))
		for _, pv := range np.Patch {
			n += 8 + valueBytes(pv.Value)
		}
	}
	for _, k := range sn.kids {
		n += 8 + k.size()
	}
	return n
}

// eachSlot calls f with the slots of the snapshot's subtree.
func (sn *entSnap) eachSlot(f func(*slot)) {
	if sn == nil {
		return
	}
	f(sn.s)
	for _, k := range sn.kids {
		k.eachSlot(f)
	}
}

// placeOf returns where e stands.
func (ed *Editor) placeOf(e ecs.Entity) place {
	p := place{index: ed.w.ChildIndex(e)}
	if par, ok := ed.w.Parent(e); ok {
		p.parent = ed.hist.slotOf(par)
	}
	return p
}

// parentOf returns the entity p's parent slot names (zero for a root),
// or a [Conflict] if it is gone.
func (ed *Editor) parentOf(p place, what string) (ecs.Entity, error) {
	if p.parent == nil {
		return ecs.Entity{}, nil
	}
	return ed.alive(p.parent, what+" (its parent)")
}

// restore makes the snapshot's entities again at p: [Conflict] with
// nothing made if an id it uses is taken or its parent is gone.
func (ed *Editor) restore(p place, sn *entSnap, what string) (ecs.Entity, error) {
	parent, err := ed.parentOf(p, what)
	if err != nil {
		return ecs.Entity{}, err
	}
	for _, id := range sn.ids(nil) {
		if _, used := ed.reg.EntityByID(id); used {
			return ecs.Entity{}, fail(Conflict, "cannot %s: the id %q is used by another entity now", what, id)
		}
	}
	e, err := ed.build(parent, p.index, sn)
	if err != nil {
		return ecs.Entity{}, writeErr(Conflict, fmt.Errorf("cannot %s: %w", what, err))
	}
	return e, nil
}

// build makes sn under parent at index (-1: last), then its children.
func (ed *Editor) build(parent ecs.Entity, index int, sn *entSnap) (ecs.Entity, error) {
	comps := make([]registry.NamedPatch, len(sn.comps))
	for i, np := range sn.comps {
		comps[i] = registry.NamedPatch{Name: np.Name, Patch: clonePatch(np.Patch)}
	}
	// The one creation path (read-only components included: the snapshot
	// holds what the World had), then the place among the siblings.
	e, err := ed.reg.Privileged().Create(parent, registry.CreateSpec{ID: sn.id, Classes: sn.class, Components: comps, PartKey: sn.part})
	if err != nil {
		return e, err
	}
	if index >= 0 {
		if err := ed.w.InsertChild(parent, e, index); err != nil {
			_ = ed.w.Destroy(e)
			return ecs.Entity{}, err
		}
	}
	if sn.s == nil {
		sn.s = ed.hist.slotOf(e)
	} else {
		ed.hist.moved(sn.s, e)
	}
	for _, k := range sn.kids {
		if _, err := ed.build(e, -1, k); err != nil {
			_ = ed.w.Destroy(e)
			return e, err
		}
	}
	return e, nil
}

// clonePatch copies a patch's values (slices included).
func clonePatch(p registry.Patch) registry.Patch {
	vals := make([]any, len(p))
	for i, pv := range p {
		vals[i] = pv.Value
	}
	vals = cloneValues(vals)
	out := make(registry.Patch, len(p))
	for i, pv := range p {
		out[i] = registry.PropValue{Index: pv.Index, Value: vals[i]}
	}
	return out
}

// unmake snapshots and destroys the entity s names, returning the
// snapshot and place to make it again.
func (ed *Editor) unmake(s *slot, what string) (*entSnap, place, error) {
	e, err := ed.alive(s, what)
	if err != nil {
		return nil, place{}, err
	}
	sn, p := ed.snapshot(e), ed.placeOf(e)
	if err := ed.w.Destroy(e); err != nil {
		return nil, place{}, because(Failed, "", err)
	}
	return sn, p, nil
}

// moveTo puts the entity s names at p.
func (ed *Editor) moveTo(s *slot, p place, what string) error {
	e, err := ed.alive(s, what)
	if err != nil {
		return err
	}
	parent, err := ed.parentOf(p, what)
	if err != nil {
		return err
	}
	if !parent.IsZero() && (parent == e || ed.w.IsAncestor(e, parent)) {
		return fail(Conflict, "cannot %s: it would go under itself", what)
	}
	if err := ed.w.InsertChild(parent, e, p.index); err != nil {
		return because(Conflict, "cannot "+what+": ", err)
	}
	return nil
}

// withinLimits refuses ([Conflict]) a new entity under parent (a root
// if zero) that would nest deeper than a scene file may
// (Options.Limits.MaxDepth; a root has depth 1), or make the scene's
// dump hold more entities than one may (MaxEntities): the dump would not
// load back.
func (ed *Editor) withinLimits(parent ecs.Entity) error {
	lim := ed.opt.Limits
	depth := 1
	for p, ok := parent, !parent.IsZero(); ok; p, ok = ed.w.Parent(p) {
		depth++
	}
	if depth > lim.MaxDepth {
		return fail(Conflict, "parent: the new entity would be nested %d deep, deeper than a scene file may nest entities (%d, scenefile.Limits.MaxDepth): its dump would not load back", depth, lim.MaxDepth)
	}
	// A dump holds the World's entities and the prefabs' bodies, which
	// a read counts alike.
	n := ed.w.Len() + 1
	for _, name := range ed.reg.Prefabs().Names() {
		n += ed.reg.Prefabs().Size(name)
	}
	if n > lim.MaxEntities {
		return fail(Conflict, "the scene would hold %d entities (prefab bodies included), more than a scene file may (%d, scenefile.Limits.MaxEntities): its dump would not load back", n, lim.MaxEntities)
	}
	return nil
}

// fits refuses sn made under parent if it would nest deeper, or make
// the scene larger, than a scene file may (as a create).
func (ed *Editor) fits(parent ecs.Entity, sn *entSnap) error {
	if err := ed.withinLimits(parent); err != nil {
		return err
	}
	if err := ed.fitsDepth(parent, sn); err != nil {
		return err
	}
	lim := ed.opt.Limits
	if n := ed.w.Len() + sn.count(); n > lim.MaxEntities {
		return fail(Conflict, "the scene would hold %d entities, more than a scene file may (%d, scenefile.Limits.MaxEntities)", n, lim.MaxEntities)
	}
	return nil
}

// fitsDepth refuses sn under parent if it would nest deeper than a
// scene file may.
func (ed *Editor) fitsDepth(parent ecs.Entity, sn *entSnap) error {
	depth := sn.depth()
	for p, ok := parent, !parent.IsZero(); ok; p, ok = ed.w.Parent(p) {
		depth++
	}
	if lim := ed.opt.Limits; depth > lim.MaxDepth {
		return fail(Conflict, "entities would be nested %d deep, deeper than a scene file may nest them (%d, scenefile.Limits.MaxDepth): the dump would not load back", depth, lim.MaxDepth)
	}
	return nil
}
