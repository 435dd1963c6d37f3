package export

import (
	"slices"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Exporting prefabs and their instances. An export (Options.Flat
// unset) writes the registry's prefabs, and each instance as `prefab:`
// plus what differs from the prefab: its own values and classes where
// they differ, parts (by their path inside the prefab) where theirs
// differ, the parts it lost (destroyed at run time) as removed, and its
// own children. An instance whose structure the format cannot say (a
// component of the prefab removed at run time, or its classes emptied)
// is written whole, without `prefab:`.

// xnode is an entity or a prefab's node, as an export compares them.
type xnode struct {
	id, key, prefab string
	class           []string
	comps           []xcomp
	kids            []*xnode
}

// xcomp is one component of an xnode with all its values.
type xcomp struct {
	name   string
	schema *registry.Schema
	vs     []any
}

// exporter writes entities and prefabs as a Document.
type exporter struct {
	reg   *registry.Registry
	flat  bool
	lists scenefile.Lists   // see Options.Lists
	tmpls map[string]*xnode // prefab templates, by name, built on first use
	// pnodes are the prefabs' nodes converted: prefabs share subtrees
	// (see prefab.go), and so do their xnodes.
	pnodes map[*registry.PrefabNode]*xnode
	// bodies says prefabs' bodies are being written: children there
	// are named by their keys (templateSpec), not by ids.
	bodies bool
}

// child writes k, a child of an instance that is not one of its parts.
func (x *exporter) child(k *xnode) *scenefile.EntitySpec {
	if x.bodies {
		return x.templateSpec(k)
	}
	return x.spec(k)
}

// entityX returns the xnode of e and its subtree.
func (x *exporter) entityX(e ecs.Entity) *xnode {
	reg := x.reg
	n := &xnode{id: reg.EntityID(e), key: reg.Prefabs().PartKey(e), prefab: reg.Prefabs().Of(e), class: reg.Classes(e)}
	for _, name := range reg.EntityComponents(e) {
		c, _ := reg.Component(name)
		if c.ReadOnly() {
			continue // computed, or written as prefab:
		}
		vs, err := reg.Values(e, name)
		if err != nil {
			continue
		}
		n.comps = append(n.comps, xcomp{name, c.Schema, vs})
	}
	for ch := range reg.World().ChildrenSeq(e) {
		n.kids = append(n.kids, x.entityX(ch))
	}
	return n
}

// template returns the xnode of the prefab name's root (nil if it is not
// defined).
func (x *exporter) template(name string) *xnode {
	if t, ok := x.tmpls[name]; ok {
		return t
	}
	var t *xnode
	if p, ok := x.reg.Prefabs().Get(name); ok {
		t = x.prefabX(p.Root)
	}
	if x.tmpls == nil {
		x.tmpls = map[string]*xnode{}
	}
	x.tmpls[name] = t
	return t
}

// prefabX returns the xnode of a prefab's node and its subtree, one per
// node.
func (x *exporter) prefabX(pn *registry.PrefabNode) *xnode {
	if n, ok := x.pnodes[pn]; ok {
		return n
	}
	n := &xnode{key: pn.Key, prefab: pn.Prefab, class: pn.Class}
	if x.pnodes == nil {
		x.pnodes = map[*registry.PrefabNode]*xnode{}
	}
	x.pnodes[pn] = n
	for _, np := range pn.Components {
		c, ok := x.reg.Component(np.Name)
		if !ok || x.reg.Prefabs().IsMarker(c) {
			continue
		}
		vs := make([]any, len(c.Schema.Props))
		for i := range c.Schema.Props {
			vs[i] = c.Schema.Props[i].Default
		}
		for _, pv := range np.Patch {
			if pv.Index >= 0 && pv.Index < len(vs) {
				vs[pv.Index] = pv.Value
			}
		}
		n.comps = append(n.comps, xcomp{np.Name, c.Schema, vs})
	}
	for _, ch := range pn.Children {
		n.kids = append(n.kids, x.prefabX(ch))
	}
	return n
}

// spec writes n as an entity: an instance as prefab: plus differences
// (unless flat, or not expressible), anything else whole.
func (x *exporter) spec(n *xnode) *scenefile.EntitySpec {
	if !x.flat && n.prefab != "" {
		if s := x.instanceSpec(n); s != nil {
			return s
		}
	}
	out := &scenefile.EntitySpec{ID: n.id, Class: n.class}
	for _, c := range n.comps {
		out.Components = append(out.Components, exportValue(x.reg, x.lists, c.name, c.schema, c.vs))
	}
	for _, k := range n.kids {
		out.Children = append(out.Children, x.spec(k))
	}
	return out
}

// instanceSpec writes the instance n as prefab: plus differences, or
// returns nil if they cannot be said.
func (x *exporter) instanceSpec(n *xnode) *scenefile.EntitySpec {
	t := x.template(n.prefab)
	if t == nil {
		return nil
	}
	out := &scenefile.EntitySpec{ID: n.id, Instance: &scenefile.InstanceSpec{Prefab: n.prefab}}
	if !x.overBody(out, n, t) {
		return nil
	}
	if !x.partsOf(out, n, t, "") {
		return nil
	}
	return out
}

// overBody writes into out what n says over the template node t:
// classes and component values that differ, and n's children that are
// not parts of t. It reports false when that cannot be said.
func (x *exporter) overBody(out *scenefile.EntitySpec, n, t *xnode) bool {
	if !slices.Equal(n.class, t.class) {
		if len(n.class) == 0 {
			return false
		}
		out.Class = n.class
	}
	for _, tc := range t.comps {
		if !slices.ContainsFunc(n.comps, func(c xcomp) bool { return c.name == tc.name }) {
			return false // removed at run time
		}
	}
	for _, c := range n.comps {
		i := slices.IndexFunc(t.comps, func(tc xcomp) bool { return tc.name == c.name })
		if i < 0 {
			out.Components = append(out.Components, exportValue(x.reg, x.lists, c.name, c.schema, c.vs))
		} else if cs := exportOver(x.reg, x.lists, c.name, c.schema, c.vs, t.comps[i].vs); cs != nil {
			out.Components = append(out.Components, cs)
		}
	}
	return true
}

// partsOf writes the parts of the instance n (or of its part at path
// prefix) that differ from the template node t, into inst's parts, the
// parts n lacks as removed, and n's other children into inst's (or the
// part's) children.
func (x *exporter) partsOf(inst *scenefile.EntitySpec, n, t *xnode, prefix string) bool {
	if n == t {
		return true // a prefab's node shared by another: nothing differs
	}
	used := make([]bool, len(t.kids))
	body := inst
	for _, k := range n.kids {
		j := -1
		if k.key != "" {
			j = slices.IndexFunc(t.kids, func(tk *xnode) bool { return tk.key == k.key })
		}
		if j < 0 || used[j] || k.prefab != t.kids[j].prefab {
			body.Children = append(body.Children, x.child(k))
			continue
		}
		used[j] = true
		if k == t.kids[j] {
			continue // shared: nothing differs
		}
		path := prefix + k.key
		p := &scenefile.PartSpec{Path: path, Body: &scenefile.EntitySpec{}}
		if !x.overBody(p.Body, k, t.kids[j]) {
			return false
		}
		in := instanceSpec(inst)
		n := len(in.Parts)
		in.Parts = append(in.Parts, p)
		if !x.partsOf(inst, k, t.kids[j], path+"/") {
			return false
		}
		if len(p.Body.Class) == 0 && len(p.Body.Components) == 0 && len(p.Body.Children) == 0 {
			in.Parts = slices.Delete(in.Parts, n, n+1) // nothing to say
		}
	}
	for j, u := range used {
		if !u {
			in := instanceSpec(inst)
			in.Parts = append(in.Parts, &scenefile.PartSpec{Path: prefix + t.kids[j].key, Body: &scenefile.EntitySpec{}, Removed: true})
		}
	}
	return true
}

// exportOver is exportValue over base values instead of the defaults:
// the properties whose value differs from base, or nil if none does.
func exportOver(reg *registry.Registry, lists scenefile.Lists, name string, s *registry.Schema, vs, base []any) *scenefile.ComponentSpec {
	vs = namedRefs(reg, vs)
	var p registry.Patch
	for i := range s.Props {
		if !s.Props[i].Type.Equal(vs[i], base[i]) {
			p = append(p, registry.PropValue{Index: i, Value: vs[i]})
		}
	}
	if len(p) == 0 {
		return nil
	}
	return patchSpec(reg, lists, name, s, p)
}

// prefabSpecs writes the registry's prefabs: each template's root as the
// body (a variant as prefab: plus differences), children named by their
// keys.
func (x *exporter) prefabSpecs() []*scenefile.PrefabSpec {
	x.bodies = true
	defer func() { x.bodies = false }()
	var out []*scenefile.PrefabSpec
	for _, name := range x.reg.Prefabs().Names() {
		t := x.template(name)
		out = append(out, &scenefile.PrefabSpec{Name: name, Body: x.templateSpec(t)})
	}
	return out
}

// templateSpec writes a prefab's node: a nested instance as prefab: plus
// differences, anything else whole, with the key as the id of a named
// child.
func (x *exporter) templateSpec(t *xnode) *scenefile.EntitySpec {
	var out *scenefile.EntitySpec
	if t.prefab != "" {
		out = x.instanceSpec(t)
	}
	if out == nil {
		out = &scenefile.EntitySpec{Class: t.class}
		for _, c := range t.comps {
			out.Components = append(out.Components, exportValue(x.reg, x.lists, c.name, c.schema, c.vs))
		}
		for _, k := range t.kids {
			out.Children = append(out.Children, x.templateSpec(k))
		}
	}
	if !scenefile.IsIndex(t.key) {
		out.ID = t.key
	}
	return out
}

// jsonInstances is what a JSON dump writes of instances (see
// exporter.instancesJSON).
type jsonInstances struct {
	noPrefab, noPart map[ecs.Entity]bool
	removed          map[ecs.Entity][]string
}

// of returns whether the dump writes e without "prefab" and without
// "part", and the parts it writes e lacks.
func (ji *jsonInstances) of(e ecs.Entity) (noPrefab, noPart bool, removed []string) {
	return ji.noPrefab[e], ji.noPart[e], ji.removed[e]
}

// instancesJSON tells, for the dumped entities es, which a JSON dump
// writes without "prefab" and without "part": all if flat; else, as
// spec does, an instance that cannot be said as one (see instanceSpec)
// is written whole: no "prefab" on it, no "part" below it, down to the
// nested instances that can be said. It also gives the parts that each
// instance the dump writes lacks (its "parts": {"path": "removed"}).
func (x *exporter) instancesJSON(es []ecs.Entity) *jsonInstances {
	ji := &jsonInstances{}
	all := func(m *map[ecs.Entity]bool) map[ecs.Entity]bool {
		if *m == nil {
			*m = map[ecs.Entity]bool{}
		}
		return *m
	}
	if x.flat {
		ji.noPrefab, ji.noPart = all(&ji.noPrefab), all(&ji.noPart)
		for _, e := range es {
			ji.noPrefab[e], ji.noPart[e] = true, true
		}
		return ji
	}
	said := func(e ecs.Entity) bool {
		spec := x.instanceSpec(x.entityX(e))
		if spec == nil {
			return false
		}
		for _, p := range spec.Parts() {
			if p.Removed {
				if ji.removed == nil {
					ji.removed = map[ecs.Entity][]string{}
				}
				ji.removed[e] = append(ji.removed[e], p.Path)
			}
		}
		return true
	}
	var walk func(e ecs.Entity)
	walk = func(e ecs.Entity) {
		all(&ji.noPart)[e] = true
		if x.reg.Prefabs().Of(e) != "" {
			if said(e) {
				return
			}
			all(&ji.noPrefab)[e] = true
		}
		for c := range x.reg.World().ChildrenSeq(e) {
			walk(c)
		}
	}
	for _, e := range es {
		if ji.noPart[e] || x.reg.Prefabs().Of(e) == "" || x.reg.Prefabs().PartKey(e) != "" || said(e) {
			continue
		}
		all(&ji.noPrefab)[e] = true
		for c := range x.reg.World().ChildrenSeq(e) {
			walk(c)
		}
	}
	return ji
}

// instanceSpec returns e.Instance, made if e has none.
func instanceSpec(e *scenefile.EntitySpec) *scenefile.InstanceSpec {
	if e.Instance == nil {
		e.Instance = &scenefile.InstanceSpec{}
	}
	return e.Instance
}
