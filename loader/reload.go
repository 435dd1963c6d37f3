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
	match    map[*Node]*Node // new node -> old node
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

// Diff computes what reloading the scene from plan would change.
func (s *Scene) Diff(plan *Plan) *Diff {
	d := &Diff{old: s.Plan, new: plan, match: map[*Node]*Node{}}
	// Match by id.
	oldByID := map[string]*Node{}
	walkNodes(s.Plan.Roots, func(n *Node) {
		if n.Src.ID != "" {
			oldByID[n.Src.ID] = n
		}
	})
	walkNodes(plan.Roots, func(n *Node) {
		if n.Src.ID != "" {
			if o, ok := oldByID[n.Src.ID]; ok {
				d.match[n] = o
			}
		}
	})
	// Match unnamed nodes by place: k-th unnamed child of matched
	// parents (or of the roots).
	positional := 0
	var byPlace func(olds, news []*Node)
	byPlace = func(olds, news []*Node) {
		var ou, nu []*Node
		for _, o := range olds {
			if o.Src.ID == "" {
				ou = append(ou, o)
			}
		}
		for _, n := range news {
			if n.Src.ID == "" {
				nu = append(nu, n)
			}
		}
		for i := 0; i < len(ou) && i < len(nu); i++ {
			d.match[nu[i]] = ou[i]
			positional++
		}
		for _, n := range news {
			if o, ok := d.match[n]; ok {
				byPlace(o.Children, n.Children)
			}
		}
	}
	byPlace(s.Plan.Roots, plan.Roots)
	if positional > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d entities without an id were matched by their place in the tree (give them an id to keep them matched when they move)", positional))
	}
	matchedOld := map[*Node]bool{}
	for _, o := range d.match {
		matchedOld[o] = true
	}
	// Created: unmatched new nodes whose parent is matched or a root (the
	// others come with their created ancestor).
	walkNodes(plan.Roots, func(n *Node) {
		if _, ok := d.match[n]; ok {
			return
		}
		if n.Parent == nil || d.match[n.Parent] != nil {
			d.Created = append(d.Created, n)
		}
	})
	// Destroyed: unmatched old nodes whose parent is matched or a root,
	// plus unmatched nodes under destroyed ones are covered by the subtree.
	walkNodes(s.Plan.Roots, func(o *Node) {
		if matchedOld[o] {
			return
		}
		if o.Parent == nil || matchedOld[o.Parent] {
			d.Destroyed = append(d.Destroyed, o)
		}
	})
	// Changes and moves of matched nodes.
	walkNodes(plan.Roots, func(n *Node) {
		o, ok := d.match[n]
		if !ok {
			return
		}
		e := s.Entities[o]
		if c := diffNode(o, n, s.Registry); c != nil {
			c.Entity = e
			d.Changed = append(d.Changed, c)
		}
		var op, np *Node = o.Parent, n.Parent
		moved := false
		if np == nil {
			moved = op != nil
		} else {
			moved = d.match[np] != op
		}
		if !moved {
			// Same parent: did its order among matched siblings change?
			moved = siblingRank(o, matchedOld, nil) != siblingRank(n, nil, d.match)
		}
		if moved {
			d.Moved = append(d.Moved, n)
		}
	})
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
		case !sameMixin(om.Mixin, m.Mixin, s.Registry):
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

// siblingRank is n's index among its siblings that are matched (old side:
// in matchedOld; new side: keys of match), for order comparison.
func siblingRank(n *Node, matchedOld map[*Node]bool, match map[*Node]*Node) int {
	var sibs []*Node
	if n.Parent != nil {
		sibs = n.Parent.Children
	}
	rank := 0
	for _, s := range sibs {
		if s == n {
			return rank
		}
		if matchedOld != nil && matchedOld[s] || match != nil && match[s] != nil {
			rank++
		}
	}
	return rank
}

func walkNodes(ns []*Node, fn func(*Node)) {
	for _, n := range ns {
		fn(n)
		walkNodes(n.Children, fn)
	}
}

func sameMixin(a, b *registry.Mixin, reg *registry.Registry) bool {
	if !slices.Equal(a.Mixins, b.Mixins) || len(a.Components) != len(b.Components) {
		return false
	}
	for i := range a.Components {
		if a.Components[i].Name != b.Components[i].Name {
			return false
		}
		c, ok := reg.Component(a.Components[i].Name)
		if !ok {
			continue
		}
		if len(patchDiff(c.Schema, a.Components[i].Patch, b.Components[i].Patch)) > 0 {
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

// diffNode compares the composed components of a matched pair.
func diffNode(o, n *Node, reg *registry.Registry) *Change {
	c := &Change{Old: o, New: n, Props: map[string][]string{}}
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
		comp, ok := reg.Component(np.Name)
		if !ok {
			// A tag declared by this very reload: nothing to compare.
			continue
		}
		for _, i := range patchDiff(comp.Schema, op, np.Patch) {
			c.Props[np.Name] = append(c.Props[np.Name], comp.Schema.Props[i].Name)
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
// tags), then system settings, new entities, reparenting and reordering,
// component changes (only the properties the edit changed are set, so
// runtime values the edit did not touch survive), and last destroying
// removed entities. The scene then refers to the new plan.
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
	// Carry the matched entities over to the new nodes.
	ents := make(map[*Node]ecs.Entity, len(s.Entities))
	nodes := make(map[ecs.Entity]*Node, len(s.Nodes))
	for n, o := range d.match {
		if e, ok := s.Entities[o]; ok {
			ents[n] = e
			nodes[e] = n
		}
	}
	// Create new subtrees (their parents exist: matched or created).
	var errs ErrorList
	ns := &Scene{Plan: d.new, Registry: reg, World: w, Entities: ents, Nodes: nodes}
	for _, n := range d.Created {
		parent := ecs.Entity{}
		if n.Parent != nil {
			parent = ents[n.Parent]
		}
		ns.createUnmatched(n, parent, d.match, &errs)
	}
	// Component changes on matched entities.
	for _, c := range d.Changed {
		e := c.Entity
		if !w.Alive(e) {
			continue
		}
		if c.Classes {
			reg.SetClasses(e, c.New.Src.Class)
		}
		newC := map[string]registry.Patch{}
		for _, np := range c.New.Comps {
			newC[np.Name] = np.Patch
		}
		oldC := map[string]registry.Patch{}
		for _, np := range c.Old.Comps {
			oldC[np.Name] = np.Patch
		}
		for _, name := range c.Removed {
			if reg.Has(e, name) {
				_ = reg.Remove(e, name)
			}
		}
		for _, name := range c.Added {
			if err := reg.SetPatch(e, name, newC[name], registry.Replace); err != nil {
				errs = append(errs, &Error{Pos: c.New.Src.Pos, Msg: err.Error()})
			}
		}
		for name := range c.Props {
			comp, _ := reg.Component(name)
			p := changedPatch(comp.Schema, oldC[name], newC[name])
			if !reg.Has(e, name) {
				// Removed at run time: the edit brings it back.
				if err := reg.SetPatch(e, name, newC[name], registry.Replace); err != nil {
					errs = append(errs, &Error{Pos: c.New.Src.Pos, Msg: err.Error()})
				}
				continue
			}
			if err := reg.SetPatch(e, name, p, registry.Merge); err != nil {
				errs = append(errs, &Error{Pos: c.New.Src.Pos, Msg: err.Error()})
			}
		}
	}
	// Structure: parents and order of the file's entities follow the
	// file; entities made at run time keep their places.
	ns.arrange(nil, d.new.Roots)
	// Destroy what the file no longer has.
	for _, o := range d.Destroyed {
		if e, ok := s.Entities[o]; ok && w.Alive(e) {
			_ = w.Destroy(e)
		}
	}
	s.Plan, s.Entities, s.Nodes = d.new, ents, nodes
	s.Roots = s.Roots[:0]
	for _, n := range d.new.Roots {
		s.Roots = append(s.Roots, ents[n])
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
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
func (s *Scene) createUnmatched(n *Node, parent ecs.Entity, match map[*Node]*Node, errs *ErrorList) {
	w, reg := s.World, s.Registry
	e := w.NewEntity()
	if !parent.IsZero() {
		_ = w.SetParent(e, parent)
	}
	s.Entities[n] = e
	s.Nodes[e] = n
	if n.Src.ID != "" {
		if err := reg.SetEntityID(e, n.Src.ID); err != nil {
			*errs = append(*errs, &Error{Pos: n.Src.IDPos, Msg: err.Error()})
		}
	}
	if len(n.Src.Class) > 0 {
		reg.SetClasses(e, n.Src.Class)
	}
	for _, np := range n.Comps {
		if err := reg.SetPatch(e, np.Name, np.Patch, registry.Replace); err != nil {
			*errs = append(*errs, &Error{Pos: n.Src.Pos, Msg: err.Error()})
		}
	}
	for _, ch := range n.Children {
		if _, ok := match[ch]; !ok {
			s.createUnmatched(ch, e, match, errs)
		}
	}
}

// arrange puts the entities of nodes under parent (nil: roots) in the
// file's order, moving only what is out of place.
func (s *Scene) arrange(parent *Node, nodes []*Node) {
	w := s.World
	var pe ecs.Entity
	if parent != nil {
		pe = s.Entities[parent]
		if !w.Alive(pe) {
			return
		}
	}
	// Current order of this parent's file entities.
	want := make([]ecs.Entity, 0, len(nodes))
	for _, n := range nodes {
		if e, ok := s.Entities[n]; ok && w.Alive(e) {
			want = append(want, e)
		}
	}
	inWant := map[ecs.Entity]bool{}
	for _, e := range want {
		inWant[e] = true
	}
	var cur []ecs.Entity
	var sibs func(func(ecs.Entity) bool)
	if parent == nil {
		sibs = w.Roots()
	} else {
		sibs = w.ChildrenSeq(pe)
	}
	for e := range sibs {
		if inWant[e] {
			cur = append(cur, e)
		}
	}
	if !slices.Equal(cur, want) {
		isSibling := func(e ecs.Entity) bool {
			p, ok := w.Parent(e)
			if parent == nil {
				return !ok
			}
			return ok && p == pe
		}
		for i, e := range want {
			var idx int
			if i == 0 {
				if len(cur) > 0 && cur[0] == e {
					continue
				}
				idx = -1
				if len(cur) > 0 {
					idx = w.ChildIndex(cur[0])
				}
			} else {
				prev := w.ChildIndex(want[i-1])
				idx = prev + 1
				if isSibling(e) && w.ChildIndex(e) < prev {
					idx = prev // detaching e shifts prev down by one
				}
			}
			_ = w.InsertChild(pe, e, idx)
		}
	}
	for _, n := range nodes {
		s.arrange(n, n.Children)
	}
}
