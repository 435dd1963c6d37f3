package loader

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Diff is what a reload changes in a running scene: the difference
// between the Plan the scene was last built or reloaded from and a new
// Plan. It can be printed (a readable summary), inspected by tests, and
// applied with Scene.Apply. Computing it changes nothing.
type Diff struct {
	// Created are the new plan's nodes that get new entities (each with
	// the subtree of its unmatched children).
	Created []*Node
	// Destroyed are the old plan's nodes whose entities are destroyed.
	Destroyed []*Node
	// Changed lists, per matched entity, what changes on it.
	Changed []*Change
	// Moved are matched nodes whose parent or place among siblings
	// changes.
	Moved []*Node
	// Decls lists declared components added or whose schema changed;
	// Systems the system settings that change.
	Decls   []string
	Systems []string
	// Mixins lists mixins added, changed or removed.
	Mixins []string
	// Warnings are notes for the user, such as entities matched by their
	// place in the tree because they have no id.
	Warnings []string

	old, new *Plan
	ents     map[*Node]ecs.Entity // matched new node -> its entity (maybe dead)
}

// Change is what changes on one entity that exists before and after.
type Change struct {
	Old, New *Node
	Entity   ecs.Entity
	// Added and Removed are component names attached and detached.
	Added, Removed []string
	// Props maps a component name to the names of its properties that
	// are set ("" for a single-property component's value).
	Props map[string][]string
	// Classes reports a change of the class list.
	Classes bool

	set map[string]registry.Patch // component -> values to set (new schema)
}

// Empty reports whether the diff changes nothing.
func (d *Diff) Empty() bool {
	return len(d.Created) == 0 && len(d.Destroyed) == 0 && len(d.Changed) == 0 &&
		len(d.Moved) == 0 && len(d.Decls) == 0 && len(d.Systems) == 0 && len(d.Mixins) == 0
}

// Summary returns "+created -destroyed ~changed", counting entities (a
// created or destroyed subtree counts each entity in it).
func (d *Diff) Summary() string {
	return fmt.Sprintf("+%d -%d ~%d", countNodes(d.Created), countNodes(d.Destroyed), len(d.Changed)+len(d.Moved))
}

func countNodes(ns []*Node) int {
	n := 0
	var walk func(*Node)
	walk = func(x *Node) {
		n++
		for _, c := range x.Children {
			walk(c)
		}
	}
	for _, x := range ns {
		walk(x)
	}
	return n
}

// String returns the summary followed by one line per change.
func (d *Diff) String() string {
	var b strings.Builder
	b.WriteString(d.Summary())
	for _, n := range d.Created {
		fmt.Fprintf(&b, "\n+ %s", nodeLabel(n))
	}
	for _, n := range d.Destroyed {
		fmt.Fprintf(&b, "\n- %s", nodeLabel(n))
	}
	for _, c := range d.Changed {
		var parts []string
		for _, a := range c.Added {
			parts = append(parts, "+"+a)
		}
		for _, r := range c.Removed {
			parts = append(parts, "-"+r)
		}
		names := make([]string, 0, len(c.Props))
		for k := range c.Props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			ps := c.Props[k]
			if len(ps) == 1 && ps[0] == "" {
				parts = append(parts, "~"+k)
			} else {
				parts = append(parts, "~"+k+"."+strings.Join(ps, ","))
			}
		}
		if c.Classes {
			parts = append(parts, "~class")
		}
		fmt.Fprintf(&b, "\n~ %s: %s", nodeLabel(c.New), strings.Join(parts, " "))
	}
	for _, n := range d.Moved {
		fmt.Fprintf(&b, "\n> %s", nodeLabel(n))
	}
	for _, s := range d.Decls {
		fmt.Fprintf(&b, "\n~ components: %s", s)
	}
	for _, s := range d.Mixins {
		fmt.Fprintf(&b, "\n~ mixin %s", s)
	}
	for _, s := range d.Systems {
		fmt.Fprintf(&b, "\n~ scene: %s", s)
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(&b, "\nwarning: %s", w)
	}
	return b.String()
}

func nodeLabel(n *Node) string {
	if n.Src.ID != "" {
		return "#" + n.Src.ID
	}
	return n.Path + " (" + n.Src.Pos.String() + ")"
}

// Diff computes what reloading the scene from plan would change. It reads
// the registry and the World but changes neither.
//
// Nodes are matched by id first, then, among the unnamed children of
// matched parents (and the unnamed roots), by their rank: the k-th
// unnamed child before and after. A matched node keeps its entity; only
// what its composed components say differently is set (per property).
// An entity destroyed at run time is not brought back, and nothing is
// created under it.
func (s *Scene) Diff(plan *Plan) *Diff {
	d := &Diff{old: s.Plan, new: plan, ents: make(map[*Node]ecs.Entity, len(s.Entities))}
	df := &differ{s: s, d: d, sc: &schemas{reg: s.Registry, decls: map[string]*registry.Schema{}}}
	for _, dp := range plan.Decls {
		df.sc.decls[dp.Decl.Name] = dp.Schema
	}
	df.children(plan.Roots, nil, s.Plan.Roots, nil, true, false)
	if df.positional > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d entities without an id were matched by their place in the tree (give them an id to keep them matched when they move)", df.positional))
	}
	// Destroyed: unmatched old nodes whose parent is matched or a root
	// (unmatched nodes under them go with the subtree).
	if len(d.ents) < s.Plan.Count {
		kept := make(map[ecs.Entity]bool, len(d.ents))
		for _, e := range d.ents {
			kept[e] = true
		}
		var destroyed func(ns []*Node, parentMatched bool)
		destroyed = func(ns []*Node, parentMatched bool) {
			for _, o := range ns {
				e, ok := s.Entities[o]
				ok = ok && kept[e]
				if !ok && parentMatched {
					d.Destroyed = append(d.Destroyed, o)
				}
				if len(o.Children) > 0 {
					destroyed(o.Children, ok)
				}
			}
		}
		destroyed(s.Plan.Roots, true)
	}
	if df.deadEdits+df.deadAdds > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d edited and %d added entities are not applied: they are, or are under, entities destroyed at run time", df.deadEdits, df.deadAdds))
	}
	sc := df.sc
	// Declarations, mixins, systems.
	oldDecls := map[string]*DeclPlan{}
	for _, dp := range s.Plan.Decls {
		oldDecls[dp.Decl.Name] = dp
	}
	for _, dp := range plan.Decls {
		if od, ok := oldDecls[dp.Decl.Name]; !ok {
			if c, ok := s.Registry.Component(dp.Decl.Name); !ok || !c.Declared || !sameSchema(c.Schema, dp.Schema) {
				d.Decls = append(d.Decls, dp.Decl.Name+" (new)")
			}
		} else if !sameSchema(od.Schema, dp.Schema) {
			d.Decls = append(d.Decls, dp.Decl.Name+" (schema changed)")
		}
	}
	for id, m := range plan.Mixins {
		om, ok := s.Plan.Mixins[id]
		switch {
		case !ok:
			d.Mixins = append(d.Mixins, id+" (new)")
		case !sameMixin(om.Mixin, m.Mixin, sc):
			d.Mixins = append(d.Mixins, id+" (changed)")
		}
	}
	for id := range s.Plan.Mixins {
		if _, ok := plan.Mixins[id]; !ok {
			d.Mixins = append(d.Mixins, id+" (removed)")
		}
	}
	sort.Strings(d.Mixins)
	oldSys := map[string]registry.Patch{}
	for _, sp := range s.Plan.Systems {
		oldSys[sp.Name] = sp.Patch
	}
	newSys := map[string]registry.Patch{}
	for _, sp := range plan.Systems {
		newSys[sp.Name] = sp.Patch
	}
	for _, sys := range s.Registry.Systems() {
		if props := patchDiff(sys.Schema, oldSys[sys.Name], newSys[sys.Name]); len(props) > 0 {
			d.Systems = append(d.Systems, sys.Name)
		}
	}
	return d
}

// differ holds the state of one Scene.Diff walk.
type differ struct {
	s       *Scene
	d       *Diff
	sc      *schemas
	oldByID map[string]*Node // built on first need
	stay    []*Node          // scratch: pairs of new and old stayers

	positional, deadEdits, deadAdds int
}

// byID returns the old node with the given id.
func (df *differ) byID(id string) *Node {
	if df.oldByID == nil {
		df.oldByID = make(map[string]*Node, len(df.s.Entities))
		walkNodes(df.s.Plan.Roots, func(n *Node) {
			if n.Src.ID != "" {
				df.oldByID[n.Src.ID] = n
			}
		})
	}
	return df.oldByID[id]
}

// children matches nodes, the children of the new node parent (nil: the
// roots), with old nodes: by id anywhere, and the unnamed ones with the
// unnamed olds (the children of parent's match, or the old roots) by
// rank. It records creations, changes and moves, and recurses. matched
// says whether parent has a match (the roots count as matched); dead
// whether parent's entity is gone (destroyed at run time, or not created
// because an ancestor's is).
func (df *differ) children(nodes []*Node, parent *Node, olds []*Node, oldParent *Node, matched, dead bool) {
	d, w := df.d, df.s.World
	// Siblings that keep their parent are checked for order as they come:
	// olds[sj-1] is the old node of the last one.
	inOrder, stayers, sj := true, 0, 0
	oi := 0
	for i, n := range nodes {
		var o *Node
		if id := n.Src.ID; id != "" {
			if i < len(olds) && olds[i].Src.ID == id {
				o = olds[i] // the common case: same place
			} else {
				o = df.byID(id)
			}
		} else if matched {
			for oi < len(olds) && olds[oi].Src.ID != "" {
				oi++
			}
			if oi < len(olds) {
				o = olds[oi]
				oi++
				df.positional++
			}
		}
		gone := dead
		if o == nil {
			if dead {
				df.deadAdds++
			} else if matched {
				d.Created = append(d.Created, n)
			}
		} else {
			e, ok := df.s.Entities[o]
			d.ents[n] = e
			gone = !ok || !w.Alive(e)
			c := diffNode(o, n, df.sc)
			moved := !matched || o.Parent != oldParent
			if c != nil {
				if gone {
					df.deadEdits++
				} else {
					c.Entity = e
					d.Changed = append(d.Changed, c)
				}
			}
			switch {
			case moved:
				if !gone {
					d.Moved = append(d.Moved, n)
				}
			default:
				stayers++
				df.stay = append(df.stay, n, o)
				if inOrder {
					for sj < len(olds) && olds[sj] != o {
						sj++
					}
					if sj == len(olds) {
						inOrder = false
					} else {
						sj++
					}
				}
			}
		}
		if len(n.Children) > 0 {
			var oc []*Node
			if o != nil {
				oc = o.Children
			}
			df.children(n.Children, n, oc, o, o != nil, gone)
		}
	}
	// Stayers whose order changed: the fewest, those outside a longest
	// run that keeps its old order.
	pairs := df.stay[len(df.stay)-2*stayers:]
	defer func() { df.stay = df.stay[:len(df.stay)-2*stayers] }()
	if inOrder || stayers < 2 {
		return
	}
	stay, stayOld := make([]*Node, stayers), make([]*Node, stayers)
	for i := range stayers {
		stay[i], stayOld[i] = pairs[2*i], pairs[2*i+1]
	}
	idx := make(map[*Node]int, len(olds))
	for i, o := range olds {
		idx[o] = i
	}
	ranks := make([]int, len(stayOld))
	for i, o := range stayOld {
		ranks[i] = idx[o]
	}
	for i, keep := range longestIncreasing(ranks) {
		if keep {
			continue
		}
		if e, ok := df.s.Entities[stayOld[i]]; ok && w.Alive(e) {
			d.Moved = append(d.Moved, stay[i])
		}
	}
}

// longestIncreasing marks the elements of a longest strictly increasing
// subsequence of xs.
func longestIncreasing(xs []int) []bool {
	// tails[k] is the index in xs of the smallest tail of an increasing
	// run of length k+1; prev links each element to its predecessor.
	var tails []int
	prev := make([]int, len(xs))
	for i, x := range xs {
		k := sort.Search(len(tails), func(k int) bool { return xs[tails[k]] >= x })
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	keep := make([]bool, len(xs))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}

func walkNodes(ns []*Node, fn func(*Node)) {
	for _, n := range ns {
		fn(n)
		walkNodes(n.Children, fn)
	}
}

// schemas finds the schemas a diff compares patches with: old patches
// were parsed with the registry's current schema, new ones with the
// new plan's declaration when the plan declares the component.
type schemas struct {
	reg   *registry.Registry
	decls map[string]*registry.Schema // the new plan's declarations
	cache []schemaPair                // the few component names seen
}

type schemaPair struct {
	name     string
	old, new *registry.Schema
}

// pair returns the old and the new schema of the component name (nil when
// unknown: a tag or a component declared by this very reload).
func (sc *schemas) pair(name string) (old, new *registry.Schema) {
	for i := range sc.cache {
		if sc.cache[i].name == name {
			return sc.cache[i].old, sc.cache[i].new
		}
	}
	defer func() {
		if len(sc.cache) < 32 {
			sc.cache = append(sc.cache, schemaPair{name, old, new})
		}
	}()
	base, _, _ := strings.Cut(name, "__")
	if c, ok := sc.reg.Component(base); ok {
		old = c.Schema
	}
	if s, ok := sc.decls[base]; ok {
		new = s
	} else {
		new = old
	}
	return old, new
}

// propDiff compares the old and new given values of the component name.
// It returns the names of the properties that change and the patch (in
// the new schema) that sets them: new values, or the default for a
// property no longer given. Values of a declared component whose schema
// changes are compared by property name, after converting the old value
// to the new type through its text form (as Registry.Redeclare migrates
// the data).
func (sc *schemas) propDiff(name string, old, new registry.Patch) ([]string, registry.Patch) {
	os, ns := sc.pair(name)
	if ns == nil {
		return nil, nil
	}
	if os != nil && os != ns && !sameSchema(os, ns) {
		old = translatePatch(os, ns, old)
	} else if quickEqual(ns, old, new) {
		return nil, nil
	}
	idx := patchDiff(ns, old, new)
	if len(idx) == 0 {
		return nil, nil
	}
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = ns.Props[i].Name
	}
	return names, changedPatch(ns, old, new)
}

// quickEqual reports whether two patches give the same values in the same
// order (the common case of an unedited component), without allocating.
func quickEqual(s *registry.Schema, a, b registry.Patch) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Index != b[i].Index || a[i].Index < 0 || a[i].Index >= len(s.Props) ||
			!s.Props[a[i].Index].Type.Equal(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// translatePatch maps a patch of schema from onto schema to, by property
// name; values of a property whose type changed go through their text
// form, and are dropped when the new type does not accept them.
func translatePatch(from, to *registry.Schema, p registry.Patch) registry.Patch {
	var out registry.Patch
	for _, pv := range p {
		if pv.Index < 0 || pv.Index >= len(from.Props) {
			continue
		}
		fp := &from.Props[pv.Index]
		j := -1
		for k := range to.Props {
			if to.Props[k].Name == fp.Name {
				j = k
				break
			}
		}
		if j < 0 {
			continue
		}
		v := pv.Value
		if fp.Type != to.Props[j].Type {
			nv, err := to.Props[j].Parse(fp.Type.Print(v))
			if err != nil {
				continue
			}
			v = nv
		}
		out = append(out, registry.PropValue{Index: j, Value: v})
	}
	return out
}

func sameMixin(a, b *registry.Mixin, sc *schemas) bool {
	if !slices.Equal(a.Mixins, b.Mixins) || len(a.Components) != len(b.Components) {
		return false
	}
	for i := range a.Components {
		if a.Components[i].Name != b.Components[i].Name {
			return false
		}
		if names, _ := sc.propDiff(a.Components[i].Name, a.Components[i].Patch, b.Components[i].Patch); len(names) > 0 {
			return false
		}
	}
	return true
}

// patchDiff returns the indexes of the properties whose given value
// differs between two patches (given in one only, or given differently).
func patchDiff(s *registry.Schema, a, b registry.Patch) []int {
	va := make(map[int]any, len(a))
	for _, pv := range a {
		va[pv.Index] = pv.Value
	}
	vb := make(map[int]any, len(b))
	for _, pv := range b {
		vb[pv.Index] = pv.Value
	}
	var out []int
	for i := range s.Props {
		x, okA := va[i]
		y, okB := vb[i]
		if okA != okB || okA && !s.Props[i].Type.Equal(x, y) {
			out = append(out, i)
		}
	}
	return out
}

// diffNode compares the composed components of a matched pair; nil if
// nothing changes.
func diffNode(o, n *Node, sc *schemas) *Change {
	if len(o.Comps) == len(n.Comps) && slices.Equal(o.Src.Class, n.Src.Class) {
		same := true
		for i := range o.Comps {
			if o.Comps[i].Name != n.Comps[i].Name {
				same = false
				break
			}
			if names, _ := sc.propDiff(n.Comps[i].Name, o.Comps[i].Patch, n.Comps[i].Patch); len(names) > 0 {
				same = false
				break
			}
		}
		if same {
			return nil
		}
	}
	c := &Change{Old: o, New: n, Props: map[string][]string{}, set: map[string]registry.Patch{}}
	oldC := map[string]registry.Patch{}
	for _, np := range o.Comps {
		oldC[np.Name] = np.Patch
	}
	newC := map[string]bool{}
	for _, np := range n.Comps {
		newC[np.Name] = true
		op, ok := oldC[np.Name]
		if !ok {
			c.Added = append(c.Added, np.Name)
			continue
		}
		if names, p := sc.propDiff(np.Name, op, np.Patch); len(names) > 0 {
			c.Props[np.Name] = names
			c.set[np.Name] = p
		}
	}
	for _, np := range o.Comps {
		if !newC[np.Name] {
			c.Removed = append(c.Removed, np.Name)
		}
	}
	c.Classes = !slices.Equal(o.Src.Class, n.Src.Class)
	if len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Props) == 0 && !c.Classes {
		return nil
	}
	return c
}

// Reload validates doc against the scene's registry and applies the
// difference to the running World. If anything is wrong, nothing is
// changed and the error is an ErrorList.
func (s *Scene) Reload(doc *Document) (*Diff, error) {
	plan, err := Compile(doc, s.Registry)
	if err != nil {
		return nil, err
	}
	d := s.Diff(plan)
	return d, s.Apply(d)
}

// Apply carries out a diff computed by Diff on this scene: definitions
// first (declared components, with migration of changed schemas; mixins;
// tags), then system settings, new entities, component changes (only the
// properties the edit changed are set, so runtime values the edit did not
// touch survive), reparenting and reordering, and last destroying removed
// entities. The scene then refers to the new plan. Call it between ticks,
// not from a system or hook.
func (s *Scene) Apply(d *Diff) error {
	if d.old != s.Plan {
		return fmt.Errorf("loader: diff was computed against another version of the scene")
	}
	reg, w := s.Registry, s.World
	// Declarations: new ones declared, changed ones migrated.
	for _, dp := range d.new.Decls {
		c, ok := reg.Component(dp.Decl.Name)
		switch {
		case !ok:
			if _, err := reg.Declare(dp.Decl.Name, dp.Schema); err != nil {
				return err
			}
		case c.Declared && !sameSchema(c.Schema, dp.Schema):
			notes, err := reg.Redeclare(dp.Decl.Name, dp.Schema)
			if err != nil {
				return err
			}
			d.Warnings = append(d.Warnings, notes...)
		}
	}
	sort.Strings(d.new.Tags)
	for _, t := range d.new.Tags {
		if _, ok := reg.Component(t); !ok {
			sch, _ := registry.NewSchema(nil, reg.Types())
			if _, err := reg.Declare(t, sch); err != nil {
				return err
			}
		}
	}
	for id := range d.old.Mixins {
		if _, ok := d.new.Mixins[id]; !ok {
			reg.RemoveMixin(id)
		}
	}
	for _, m := range d.new.Mixins {
		reg.DefineMixin(m.Mixin)
	}
	// Systems: set the properties whose given value changed.
	oldSys := map[string]registry.Patch{}
	for _, sp := range d.old.Systems {
		oldSys[sp.Name] = sp.Patch
	}
	newSys := map[string]registry.Patch{}
	for _, sp := range d.new.Systems {
		newSys[sp.Name] = sp.Patch
	}
	for _, name := range d.Systems {
		sys, _ := reg.System(name)
		p := changedPatch(sys.Schema, oldSys[name], newSys[name])
		if err := reg.ConfigureSystemPatch(name, p, registry.Merge); err != nil {
			return err
		}
	}
	// Carry the matched entities over to the new nodes. The entity ->
	// node map is updated in place (cheaper than a new one).
	ents := d.ents
	nodes := s.Nodes
	for _, o := range d.Destroyed {
		walkNodes([]*Node{o}, func(o *Node) {
			if e, ok := s.Entities[o]; ok && nodes[e] == o {
				delete(nodes, e)
			}
		})
	}
	for n, e := range ents {
		nodes[e] = n
	}
	// Create new subtrees (their parents exist: matched or created).
	var errs ErrorList
	ns := &Scene{Plan: d.new, Registry: reg, World: w, Entities: ents, Nodes: nodes}
	for _, n := range d.Created {
		parent := ecs.Entity{}
		if n.Parent != nil {
			parent = ents[n.Parent]
		}
		ns.createUnmatched(n, parent, &errs)
	}
	// Component changes on matched entities.
	for _, c := range d.Changed {
		e := c.Entity
		if !w.Alive(e) {
			continue
		}
		if c.Classes {
			_ = reg.SetClasses(e, c.New.Src.Class)
		}
		newC := map[string]registry.Patch{}
		for _, np := range c.New.Comps {
			newC[np.Name] = np.Patch
		}
		fail := func(err error) {
			errs = append(errs, &Error{Pos: c.New.Src.Pos, Msg: err.Error()})
		}
		for _, name := range c.Removed {
			if !reg.Has(e, name) {
				continue
			}
			if dep := dependent(reg, name, c.New.Comps); dep != "" {
				// Still needed by a component the entity keeps: keep
				// it, with what the file gave for it reset (as a fresh
				// load would add it with its defaults).
				var old registry.Patch
				for _, np := range c.Old.Comps {
					if np.Name == name {
						old = np.Patch
					}
				}
				if comp, ok := reg.Component(name); ok {
					if err := reg.SetPatch(e, name, changedPatch(comp.Schema, old, nil), registry.Merge); err != nil {
						fail(err)
					}
				}
				continue
			}
			if err := reg.Remove(e, name); err != nil {
				fail(err)
			}
		}
		for _, name := range c.Added {
			// Already there (added at run time): the file's values win,
			// other properties keep their runtime values.
			mode := registry.Replace
			if reg.Has(e, name) {
				mode = registry.Merge
			}
			if err := reg.SetPatch(e, name, newC[name], mode); err != nil {
				fail(err)
			}
		}
		for name, p := range c.set {
			if !reg.Has(e, name) {
				// Removed at run time: the edit brings it back.
				if err := reg.SetPatch(e, name, newC[name], registry.Replace); err != nil {
					fail(err)
				}
				continue
			}
			if err := reg.SetPatch(e, name, p, registry.Merge); err != nil {
				fail(err)
			}
		}
	}
	// Structure: where the edit moves entities or adds some, parents and
	// order follow the file; other entities keep their places.
	if len(d.Moved)+len(d.Created) > 0 {
		ar := &arranger{Scene: ns, parents: map[*Node]bool{}, movers: map[ecs.Entity]bool{}}
		for _, list := range [][]*Node{d.Moved, d.Created} {
			for _, n := range list {
				ar.parents[n.Parent] = true
				if e, ok := ents[n]; ok {
					ar.movers[e] = true
				}
			}
		}
		ar.arrange(nil, d.new.Roots)
	}
	// Destroy what the file no longer has.
	for _, o := range d.Destroyed {
		if e, ok := s.Entities[o]; ok && w.Alive(e) {
			_ = w.Destroy(e)
		}
	}
	s.Plan, s.Entities, s.Nodes = d.new, ents, nodes
	roots := make([]ecs.Entity, 0, len(d.new.Roots))
	for _, n := range d.new.Roots {
		roots = append(roots, ents[n])
	}
	s.Roots = roots
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// dependent returns the name of a component among comps that depends on
// the component name, or "".
func dependent(reg *registry.Registry, name string, comps []registry.NamedPatch) string {
	for _, np := range comps {
		base, _, _ := strings.Cut(np.Name, "__")
		if c, ok := reg.Component(base); ok && slices.Contains(c.Dependencies, name) {
			return np.Name
		}
	}
	return ""
}

// changedPatch returns the new values of the properties whose given value
// changed between two patches; a property no longer given goes back to
// its default.
func changedPatch(s *registry.Schema, old, new registry.Patch) registry.Patch {
	nv := map[int]any{}
	for _, pv := range new {
		nv[pv.Index] = pv.Value
	}
	var p registry.Patch
	for _, i := range patchDiff(s, old, new) {
		v, ok := nv[i]
		if !ok {
			v = s.Props[i].Default
		}
		p = append(p, registry.PropValue{Index: i, Value: v})
	}
	return p
}

// createUnmatched creates n and its unmatched descendants; matched
// descendants are moved under it by arrange.
func (s *Scene) createUnmatched(n *Node, parent ecs.Entity, errs *ErrorList) {
	e := s.newEntity(n, parent, -1, errs)
	for _, ch := range n.Children {
		if _, ok := s.Entities[ch]; !ok {
			s.createUnmatched(ch, e, errs)
		}
	}
}

// arranger puts entities where the file says after an edit that moves or
// adds some.
type arranger struct {
	*Scene
	parents map[*Node]bool      // nodes (nil: the roots) whose children to arrange
	movers  map[ecs.Entity]bool // entities the edit moves or adds
}

// arrange walks nodes, the children of parent (nil: the roots), in
// document order, and puts the children of the parents to arrange in the
// file's order. Only the file's entities already under the parent and
// those the edit moves or adds there take part; an entity moved away at
// run time stays away, and entities made at run time keep their places:
// the file's entities fill, in file order, the places such entities
// occupy, and a newcomer goes right after the file entity before it (or
// right before the one after it). Only entities out of place are moved.
func (ar *arranger) arrange(parent *Node, nodes []*Node) {
	w := ar.World
	var pe ecs.Entity
	if parent != nil {
		pe = ar.Entities[parent]
		if !w.Alive(pe) {
			return
		}
	}
	if ar.parents[parent] {
		ar.reorder(parent, pe, nodes)
	}
	for _, n := range nodes {
		if len(n.Children) > 0 {
			ar.arrange(n, n.Children)
		}
	}
}

// siblings iterates over pe's children, or the roots if parent is nil.
func (ar *arranger) siblings(parent *Node, pe ecs.Entity) func(func(ecs.Entity) bool) {
	if parent == nil {
		return ar.World.Roots()
	}
	return ar.World.ChildrenSeq(pe)
}

func (ar *arranger) reorder(parent *Node, pe ecs.Entity, nodes []*Node) {
	w := ar.World
	var cur []ecs.Entity
	here := map[ecs.Entity]bool{}
	for e := range ar.siblings(parent, pe) {
		cur = append(cur, e)
		here[e] = true
	}
	// The file's entities that take part, in file order; those already
	// here (present) occupy places (slots) among cur.
	var want, present []ecs.Entity
	for _, n := range nodes {
		e, ok := ar.Entities[n]
		if !ok || !w.Alive(e) {
			continue
		}
		if here[e] {
			want = append(want, e)
			present = append(present, e)
		} else if ar.movers[e] {
			want = append(want, e)
		}
	}
	isSlot := func(e ecs.Entity) bool {
		n, ok := ar.Nodes[e]
		return ok && n.Parent == parent
	}
	// The target order: other entities stay; the slots get the present
	// entities in file order; newcomers go next to their neighbours in
	// the file.
	target := make([]ecs.Entity, 0, len(cur)+len(want)-len(present))
	k, wi := 0, 0
	for _, e := range cur {
		if !isSlot(e) {
			target = append(target, e)
			continue
		}
		p := present[k]
		k++
		for want[wi] != p {
			target = append(target, want[wi])
			wi++
		}
		target = append(target, p)
		wi++
		if k == len(present) {
			target = append(target, want[wi:]...)
			wi = len(want)
		}
	}
	target = append(target, want[wi:]...)
	if slices.Equal(target, cur) {
		return
	}
	// Move the fewest: keep the entities already here that form a
	// longest run in target order, and put each other one right after
	// its predecessor in target.
	pos := make(map[ecs.Entity]int, len(cur))
	for i, e := range cur {
		pos[e] = i
	}
	var ranks, at []int // old places, and places in target, of those here
	for i, e := range target {
		if p, ok := pos[e]; ok {
			ranks = append(ranks, p)
			at = append(at, i)
		}
	}
	stays := make(map[ecs.Entity]bool, len(ranks))
	for j, keep := range longestIncreasing(ranks) {
		if keep {
			stays[target[at[j]]] = true
		}
	}
	for i, e := range target {
		if stays[e] {
			continue
		}
		idx := 0
		if i > 0 {
			idx = w.ChildIndex(target[i-1]) + 1
			if here[e] && w.ChildIndex(e) < idx {
				idx-- // detaching e shifts its predecessor down by one
			}
		}
		_ = w.InsertChild(pe, e, idx)
	}
}
