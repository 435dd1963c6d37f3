package live

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Diff is what a reload changes in a running scene: the difference
// between the [plan.Plan] the scene was last built or reloaded from and a new
// Plan. It can be printed (a readable summary), inspected by tests, and
// applied with [Scene.Apply]. Computing it changes nothing.
type Diff struct {
	// Created are the new plan's nodes that get new entities (each with
	// the subtree of its unmatched children).
	Created []*plan.Node
	// Destroyed are the old plan's nodes whose entities are destroyed.
	Destroyed []*plan.Node
	// Changed lists, per matched entity, what changes on it.
	Changed []*Change
	// Moved are matched nodes whose parent or place among siblings
	// changes.
	Moved []*plan.Node
	// Decls lists declared components added or whose schema changed;
	// Systems the system settings that change.
	Decls   []string
	Systems []string
	// Schedule lists the systems and component ticks whose schedule
	// settings in the scene (_phase, _after, ...) change.
	Schedule []string
	// Mixins lists mixins added, changed or removed.
	Mixins []string
	// Prefabs lists prefabs added, changed or removed. The entities of
	// the scene's instances are matched, created and destroyed like any
	// other (their parts by their names inside the prefab); instances
	// spawned at run time follow a changed prefab too (their changes are
	// among Changed).
	Prefabs []string
	// Warnings are notes for the user, such as entities matched by their
	// place in the tree because they have no id.
	Warnings []string

	old, new *plan.Plan
	// ents holds, by the new plan's node Index, the entity each matched
	// node keeps (maybe dead); zero for the others. matched counts them.
	ents    []ecs.Entity
	matched int
	spawned spawnedEdits // parts of instances spawned at run time to create or destroy
	// applied is, once Apply carried the diff out, the new plan's
	// entities by node Index (the created ones too).
	applied []ecs.Entity
}

// Change is what changes on one entity that exists before and after.
type Change struct {
	Old, New *plan.Node
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
	return !d.changesBeyond()
}

// diffPart names one kind of change a Diff holds, for the checks that an
// edit changed only what it was meant to.
type diffPart int

const (
	partCreated diffPart = iota
	partDestroyed
	partChanged
	partMoved
	partDecls
	partSystems
	partSchedule
	partMixins
	partPrefabs
	partSpawned // instances made at run time that a prefab's edit reaches
	nParts
)

// changesBeyond reports whether d changes anything of a kind not among
// allowed.
func (d *Diff) changesBeyond(allowed ...diffPart) bool {
	n := [nParts]int{len(d.Created), len(d.Destroyed), len(d.Changed), len(d.Moved), len(d.Decls),
		len(d.Systems), len(d.Schedule), len(d.Mixins), len(d.Prefabs), 0}
	if !d.spawned.empty() {
		n[partSpawned] = 1
	}
	for _, k := range allowed {
		n[k] = 0
	}
	return n != [nParts]int{}
}

// Summary returns "+created -destroyed ~changed", counting entities (a
// created or destroyed subtree counts each entity in it).
func (d *Diff) Summary() string {
	return fmt.Sprintf("+%d -%d ~%d", countNodes(d.Created), countNodes(d.Destroyed), len(d.Changed)+len(d.Moved))
}

func countNodes(ns []*plan.Node) int {
	n := 0
	var walk func(*plan.Node)
	walk = func(x *plan.Node) {
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
	for _, s := range d.Prefabs {
		fmt.Fprintf(&b, "\n~ prefab %s", s)
	}
	for _, s := range d.Systems {
		fmt.Fprintf(&b, "\n~ scene: %s", s)
	}
	for _, s := range d.Schedule {
		fmt.Fprintf(&b, "\n~ scene: %s (schedule)", s)
	}
	for _, w := range d.Warnings {
		fmt.Fprintf(&b, "\nwarning: %s", w)
	}
	return b.String()
}

func nodeLabel(n *plan.Node) string {
	if n.ID() != "" {
		return "#" + n.ID()
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
func (s *Scene) Diff(pl *plan.Plan) *Diff {
	d := &Diff{old: s.Plan, new: pl, ents: make([]ecs.Entity, len(pl.Nodes))}
	df := &differ{s: s, d: d, sc: &schemas{reg: s.Registry, decls: map[string]*registry.Schema{}},
		oldMatched: make([]bool, len(s.Plan.Nodes))}
	for _, dp := range pl.Decls {
		df.sc.decls[dp.Decl.Name] = dp.Schema
	}
	df.children(pl.Roots, nil, s.Plan.Roots, nil, true, false)
	if df.positional > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d entities without an id were matched by their place in the tree (give them an id to keep them matched when they move)", df.positional))
	}
	if d.matched < s.Plan.Count {
		df.destroyed()
	}
	if df.deadEdits+df.deadAdds > 0 {
		d.Warnings = append(d.Warnings, fmt.Sprintf("%d edited and %d added entities are not applied: they are, or are under, entities destroyed at run time", df.deadEdits, df.deadAdds))
	}
	df.declarations()
	df.mixins()
	df.prefabs()
	df.settings()
	return d
}

// differ holds the state of one Scene.Diff walk.
type differ struct {
	s       *Scene
	d       *Diff
	sc      *schemas
	oldByID map[string]*plan.Node // built on first need
	stay    []*plan.Node          // scratch: pairs of new and old stayers
	shared  [64]sharedDiff        // diffNode's results for parts, see differ.diffNode
	// oldMatched says, by the old plan's node Index, which old nodes are
	// matched.
	oldMatched []bool
	// sameNodes are the pairs of template nodes sameTemplate compared.
	sameNodes map[[2]*plan.Node]bool

	positional, deadEdits, deadAdds int
}

// byID returns the old node with the given id.
func (df *differ) byID(id string) *plan.Node {
	if df.oldByID == nil {
		df.oldByID = make(map[string]*plan.Node, len(df.s.Plan.Nodes))
		walkNodes(df.s.Plan.Roots, func(n *plan.Node) {
			if n.ID() != "" {
				df.oldByID[n.ID()] = n
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
func (df *differ) children(nodes []*plan.Node, parent *plan.Node, olds []*plan.Node, oldParent *plan.Node, matched, dead bool) {
	st := stayers{inOrder: true}
	oi := 0 // the next unnamed old to match by rank
	for i, n := range nodes {
		o := df.match(n, i, olds, &oi, matched)
		gone := dead
		switch {
		case o == nil && dead:
			df.deadAdds++
		case o == nil && matched:
			df.d.Created = append(df.d.Created, n)
		case o != nil:
			var stays bool
			gone, stays = df.pair(n, o, oldParent, matched)
			if stays {
				st.add(df, n, o, olds)
			}
		}
		if len(n.Children) > 0 {
			var oc []*plan.Node
			if o != nil {
				oc = o.Children
			}
			df.children(n.Children, n, oc, o, o != nil, gone)
		}
	}
	if !st.inOrder && st.n >= 2 {
		df.reordered(olds, df.stay[len(df.stay)-2*st.n:])
	}
	df.stay = df.stay[:len(df.stay)-2*st.n]
}

// match returns the old node of n, the i-th of its siblings: for a part
// of an instance, the part with its name inside the prefab under the
// instance's match (a part's id, if it has one, is made of the
// instance's and that name); else the node with its id (most often at
// the same place), or, for an unnamed node under a matched parent, the
// next unnamed one of olds from *oi on (nil if none is left).
func (df *differ) match(n *plan.Node, i int, olds []*plan.Node, oi *int, matched bool) *plan.Node {
	if n.Key() != "" {
		if !matched {
			return nil
		}
		return matchKey(n, i, olds)
	}
	if id := n.Src.ID; id != "" { // not a part: its id is its own
		if i < len(olds) && olds[i].Key() == "" && olds[i].Src.ID == id {
			return olds[i] // the common case: same place
		}
		return df.byID(id)
	}
	if !matched {
		return nil
	}
	for *oi < len(olds) && (olds[*oi].Key() != "" || olds[*oi].Src.ID != "") {
		*oi++
	}
	if *oi == len(olds) {
		return nil
	}
	o := olds[*oi]
	*oi++
	df.positional++
	return o
}

// matchKey returns the old node of n, a part of an instance, the i-th of
// its siblings: the part of olds with the same key (most often at the
// same place), or nil.
func matchKey(n *plan.Node, i int, olds []*plan.Node) *plan.Node {
	if i < len(olds) && olds[i].Key() == n.Key() {
		return olds[i]
	}
	for _, o := range olds {
		if o.Key() == n.Key() {
			return o
		}
	}
	return nil
}

// pair records what changes on the entity of o, the old node matched
// with n: its components, and its parent if that changes (matched says
// whether n's parent has a match, oldParent is o's expected parent). It
// reports whether the entity is gone (destroyed at run time), and
// whether n stays under its parent, its order among its siblings to be
// checked.
func (df *differ) pair(n, o, oldParent *plan.Node, matched bool) (gone, stays bool) {
	d := df.d
	e, ok := df.s.entityOf(o)
	d.ents[n.Index] = e
	d.matched++
	df.oldMatched[o.Index] = true
	gone = !ok || !df.s.World.Alive(e)
	if c := df.diffNode(o, n); c != nil {
		if gone {
			df.deadEdits++
		} else {
			c.Entity = e
			d.Changed = append(d.Changed, c)
		}
	}
	if matched && o.Parent == oldParent {
		return gone, true
	}
	if !gone {
		d.Moved = append(d.Moved, n)
	}
	return gone, false
}

// stayers follows the siblings that keep their parent, as they come: how
// many there are (pushed on differ.stay as new and old pairs), and
// whether they are still in their old order (olds[sj-1] is the old node
// of the last one).
type stayers struct {
	n, sj   int
	inOrder bool
}

// add records that n, matched with o, stays under its parent; olds are
// the old siblings.
func (st *stayers) add(df *differ, n, o *plan.Node, olds []*plan.Node) {
	st.n++
	df.stay = append(df.stay, n, o)
	if !st.inOrder {
		return
	}
	for st.sj < len(olds) && olds[st.sj] != o {
		st.sj++
	}
	if st.sj == len(olds) {
		st.inOrder = false
	} else {
		st.sj++
	}
}

// reordered records the moves of stayers whose order changed: the
// fewest, those outside a longest run that keeps its old order. pairs
// holds the new and old node of each stayer, olds the old siblings.
func (df *differ) reordered(olds, pairs []*plan.Node) {
	n := len(pairs) / 2
	stay, stayOld := make([]*plan.Node, n), make([]*plan.Node, n)
	for i := range n {
		stay[i], stayOld[i] = pairs[2*i], pairs[2*i+1]
	}
	idx := make(map[*plan.Node]int, len(olds))
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
		if e, ok := df.s.entityOf(stayOld[i]); ok && df.s.World.Alive(e) {
			df.d.Moved = append(df.d.Moved, stay[i])
		}
	}
}

// destroyed records the unmatched old nodes whose parent is matched or
// who are roots (unmatched nodes under them go with the subtree).
func (df *differ) destroyed() {
	s, d := df.s, df.d
	var walk func(ns []*plan.Node, parentMatched bool)
	walk = func(ns []*plan.Node, parentMatched bool) {
		for _, o := range ns {
			_, ok := s.entityOf(o)
			ok = ok && df.oldMatched[o.Index]
			if !ok && parentMatched {
				d.Destroyed = append(d.Destroyed, o)
			}
			if len(o.Children) > 0 {
				walk(o.Children, ok)
			}
		}
	}
	walk(s.Plan.Roots, true)
}

// declarations records the declared components that are new or whose
// schema changes.
func (df *differ) declarations() {
	s, d := df.s, df.d
	oldDecls := map[string]*plan.DeclPlan{}
	for _, dp := range s.Plan.Decls {
		oldDecls[dp.Decl.Name] = dp
	}
	for _, dp := range d.new.Decls {
		if od, ok := oldDecls[dp.Decl.Name]; !ok {
			if c, ok := s.Registry.Component(dp.Decl.Name); !ok || !c.Declared || !plan.SameSchema(c.Schema, dp.Schema) {
				d.Decls = append(d.Decls, dp.Decl.Name+" (new)")
			}
		} else if !plan.SameSchema(od.Schema, dp.Schema) {
			d.Decls = append(d.Decls, dp.Decl.Name+" (schema changed)")
		}
	}
}

// mixins records the mixins added, changed or removed.
func (df *differ) mixins() {
	d, old := df.d, df.s.Plan.Mixins
	for id, m := range d.new.Mixins {
		om, ok := old[id]
		switch {
		case !ok:
			d.Mixins = append(d.Mixins, id+" (new)")
		case !sameMixin(om.Mixin, m.Mixin, df.sc):
			d.Mixins = append(d.Mixins, id+" (changed)")
		}
	}
	for id := range old {
		if _, ok := d.new.Mixins[id]; !ok {
			d.Mixins = append(d.Mixins, id+" (removed)")
		}
	}
	sort.Strings(d.Mixins)
}

// settings records the systems whose settings in the scene change.
func (df *differ) settings() {
	d := df.d
	oldSys, newSys := systemPatches(d.old), systemPatches(d.new)
	for _, sys := range df.s.Registry.Systems() {
		if props := patchDiff(sys.Schema, oldSys[sys.Name], newSys[sys.Name]); len(props) > 0 {
			d.Systems = append(d.Systems, sys.Name)
		}
	}
	d.Schedule = scheduleChanges(d.old.Schedule, d.new.Schedule)
}

// systemPatches returns the system settings of plan by system name.
func systemPatches(pl *plan.Plan) map[string]registry.Patch {
	out := make(map[string]registry.Patch, len(pl.Systems))
	for _, sp := range pl.Systems {
		out[sp.Name] = sp.Patch
	}
	return out
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

func walkNodes(ns []*plan.Node, fn func(*plan.Node)) {
	for _, n := range ns {
		fn(n)
		walkNodes(n.Children, fn)
	}
}

// schemas finds the schemas a diff compares patches with: old patches
// were parsed with the registry's current schema, new ones with the
// new plan's declaration when the plan declares the component.
type schemas struct {
	reg     *registry.Registry
	decls   map[string]*registry.Schema // the new plan's declarations
	cache   []schemaPair                // the few component names seen
	patches [256]patchDiffSlot          // propDiff's results by patch, see propDiff
}

// patchKey identifies a pair of patches by their storage: the entities
// of a prefab's instances (and the users of a mixin) share the patches
// of the components they do not change.
type patchKey struct {
	o, n   *registry.PropValue
	ol, nl int
}

// patchDiffSlot is one slot of the direct-mapped cache of propDiff.
type patchDiffSlot struct {
	k     patchKey
	names []string
	p     registry.Patch
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
// to the new type through its text form (as Privileged.Redeclare migrates
// the data).
//
// Its results are kept by the storage of the two patches (a cache of
// recent pairs), so that the parts of many instances, which share their
// prefab's patches, are compared once; the results are shared: nothing
// may modify them.
func (sc *schemas) propDiff(name string, old, new registry.Patch) ([]string, registry.Patch) {
	if len(old) == 0 || len(new) == 0 {
		return sc.propDiffOf(name, old, new)
	}
	k := patchKey{o: &old[0], n: &new[0], ol: len(old), nl: len(new)}
	slot := &sc.patches[(uintptr(unsafe.Pointer(k.n))>>4)%uintptr(len(sc.patches))]
	if slot.k != k {
		names, p := sc.propDiffOf(name, old, new)
		*slot = patchDiffSlot{k: k, names: names, p: p}
	}
	return slot.names, slot.p
}

// propDiffOf computes propDiff.
func (sc *schemas) propDiffOf(name string, old, new registry.Patch) ([]string, registry.Patch) {
	os, ns := sc.pair(name)
	if ns == nil {
		return nil, nil
	}
	if os != nil && os != ns && !plan.SameSchema(os, ns) {
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
func diffNode(o, n *plan.Node, sc *schemas) *Change {
	if len(o.Comps) == len(n.Comps) && slices.Equal(o.Class(), n.Class()) {
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
	c.Classes = !slices.Equal(o.Class(), n.Class())
	if len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Props) == 0 && !c.Classes {
		return nil
	}
	return c
}

// sharedKey is what diffNode reads of a pair of prefab nodes: their
// components (the slices, which parts of instances share with their
// template unless the instance changes them) and their prefab fields
// (classes), shared the same way.
type sharedKey struct {
	oc, nc *registry.NamedPatch
	ol, nl int
	oe, ne *plan.PrefabFields
}

// sharedDiff is one slot of the differ's cache of diffNode results.
type sharedDiff struct {
	k sharedKey
	c *Change
}

// diffNode is diffNode(o, n), computed once for the pairs of parts that
// share their components and classes: a prefab edit changes the same
// part of every instance the same way, so the Changes of those parts
// share their maps (which nothing modifies after the diff). The cache is
// direct-mapped by the new node's prefab fields: a prefab's parts are
// few, and a miss only computes again.
func (df *differ) diffNode(o, n *plan.Node) *Change {
	if o.Fields() == nil || n.Fields() == nil || n.Key() == "" || len(o.Comps) == 0 || len(n.Comps) == 0 {
		return diffNode(o, n, df.sc) // not a part: its own components
	}
	k := sharedKey{oc: &o.Comps[0], nc: &n.Comps[0], ol: len(o.Comps), nl: len(n.Comps), oe: o.Fields(), ne: n.Fields()}
	slot := &df.shared[(uintptr(unsafe.Pointer(n.Fields()))>>6)%uintptr(len(df.shared))]
	if slot.k != k {
		c := diffNode(o, n, df.sc)
		*slot = sharedDiff{k: k, c: c}
		return c
	}
	if slot.c == nil {
		return nil
	}
	cp := *slot.c
	cp.Old, cp.New, cp.Entity = o, n, ecs.Entity{}
	return &cp
}

// Reload validates doc against the scene's registry and applies the
// difference to the running World. If anything is wrong, nothing is
// changed and the error is a [scenefile.ErrorList].
func (s *Scene) Reload(doc *scenefile.Document) (*Diff, error) {
	pl, err := plan.Compile(doc, s.Registry, plan.Options{})
	if err != nil {
		return nil, err
	}
	d := s.Diff(pl)
	return d, s.Apply(d)
}

// Apply carries out a diff computed by [Scene.Diff] on this scene, in phases:
// declarations (declared components, with migration of changed schemas;
// tags; mixins), system settings, new entities, component changes (only
// the properties the edit changed are set, so runtime values the edit did
// not touch survive), rearranging (reparenting and reordering), and last
// destroying removed entities. The scene then refers to the new plan.
// Call it between ticks, not from a system or hook.
func (s *Scene) Apply(d *Diff) error {
	if d.old != s.Plan {
		return fmt.Errorf("loader: diff was computed against another version of the scene")
	}
	// The reload's event deliveries share one budget (Limits.MaxDeliveries).
	defer s.Registry.Events().CloseWindow(s.Registry.Events().OpenWindow("reload"))
	if err := s.checkShadows(d); err != nil {
		return err
	}
	// The schedule first: an order it makes impossible is refused
	// before anything changes.
	if len(d.Schedule) > 0 {
		if err := plan.ApplySchedule(s.Registry, d.old.Schedule, d.new.Schedule); err != nil {
			return err
		}
	}
	if err := s.applyDeclarations(d); err != nil {
		return err
	}
	if err := s.applySettings(d); err != nil {
		return err
	}
	ns := s.carryOver(d)
	var errs scenefile.ErrorList
	made := ns.applyCreate(d, &errs)
	ns.applyChanges(d, &errs)
	ns.applySpawned(d, &errs)
	ns.applyRearrange(d)
	s.applyDestroy(d)
	s.Plan, s.ents, s.index = d.new, ns.ents, ns.index
	d.applied = ns.ents
	roots := make([]ecs.Entity, 0, len(d.new.Roots))
	for _, n := range d.new.Roots {
		roots = append(roots, s.ents[n.Index])
	}
	s.Roots = roots
	// References once every entity the reload makes exists (a created
	// entity may name another created after it).
	errs = append(errs, s.resolveReloaded(d)...)
	for _, e := range made {
		if s.World.Alive(e) {
			s.Registry.Events().Emit(e, "loaded", nil, false) // A-Frame's, as Build emits it
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// checkShadows refuses, before anything changes, the new declarations
// of the program's component names that the Registry cannot shadow
// (entities hold the program's component), at the declaration.
func (s *Scene) checkShadows(d *Diff) error {
	var errs scenefile.ErrorList
	for _, dp := range d.new.Decls {
		if c, ok := s.Registry.Component(dp.Decl.Name); ok && !c.Declared {
			if err := s.Registry.Privileged().CheckShadow(dp.Decl.Name); err != nil {
				errs = append(errs, &scenefile.Error{Pos: dp.Decl.Pos, Msg: strings.TrimPrefix(err.Error(), "registry: ")})
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// applyDeclarations is Apply's first phase: new components declared,
// changed ones migrated (their notes become the diff's warnings), tags
// declared, mixins removed and defined.
func (s *Scene) applyDeclarations(d *Diff) error {
	reg := s.Registry
	for _, dp := range d.new.Decls {
		c, ok := reg.Component(dp.Decl.Name)
		switch {
		case !ok:
			if _, err := reg.Declare(dp.Decl.Name, dp.Schema); err != nil {
				return err
			}
		case !c.Declared:
			if _, err := reg.Privileged().Shadow(dp.Decl.Name, dp.Schema); err != nil {
				return err
			}
		case c.Declared && !plan.SameSchema(c.Schema, dp.Schema):
			notes, err := reg.Privileged().Redeclare(dp.Decl.Name, dp.Schema)
			if err != nil {
				return err
			}
			d.Warnings = append(d.Warnings, notes...)
		}
	}
	sort.Strings(d.new.Tags)
	for _, t := range d.new.Tags {
		if _, ok := reg.Component(t); !ok {
			sch, _ := schema.NewSchema(nil, reg.Types())
			if _, err := reg.Declare(t, sch); err != nil {
				return err
			}
		}
	}
	for id := range d.old.Mixins {
		if _, ok := d.new.Mixins[id]; !ok {
			reg.Mixins().Remove(id)
		}
	}
	for _, m := range d.new.Mixins {
		reg.Mixins().Define(m.Mixin)
	}
	for name := range d.old.Prefabs {
		if _, ok := d.new.Prefabs[name]; !ok {
			reg.Prefabs().Remove(name)
		}
	}
	return definePrefabs(d.new, reg)
}

// applySettings is Apply's settings phase: of each system whose settings
// changed, the properties whose given value changed are set.
func (s *Scene) applySettings(d *Diff) error {
	oldSys, newSys := systemPatches(d.old), systemPatches(d.new)
	for _, name := range d.Systems {
		sys, _ := s.Registry.System(name)
		p := changedPatch(sys.Schema, oldSys[name], newSys[name])
		if err := sys.Configure(p, registry.Merge); err != nil {
			return err
		}
	}
	return nil
}

// entityOf returns the entity of o, a node of s.Plan.
func (s *Scene) entityOf(o *plan.Node) (ecs.Entity, bool) {
	e := s.ents[o.Index]
	return e, !e.IsZero()
}

// carryOver returns the scene as the rest of Apply builds it: the new
// plan, with the matched entities carried over to the new nodes' Index.
// The entity -> node index is updated in place (only where a node's
// Index changes), so the old scene's is no longer valid.
func (s *Scene) carryOver(d *Diff) *Scene {
	ns := &Scene{Plan: d.new, Registry: s.Registry, World: s.World, ents: slices.Clone(d.ents), index: s.index}
	for i, e := range ns.ents {
		if e.IsZero() {
			continue
		}
		if x := e.Index(); int(x) >= len(ns.index) || ns.index[x] != int32(i+1) {
			ns.setEntity(i, e)
		}
	}
	return ns
}

// applyCreate is Apply's create phase, on the new scene: the new
// subtrees are created (their parents exist: matched or created). It
// returns the entities made, each after its descendants.
func (s *Scene) applyCreate(d *Diff, errs *scenefile.ErrorList) (made []ecs.Entity) {
	for _, n := range d.Created {
		parent := ecs.Entity{}
		if n.Parent != nil {
			parent = s.ents[n.Parent.Index]
		}
		made = s.createUnmatched(n, parent, errs, made)
	}
	return made
}

// applyChanges is Apply's change phase: the component changes on the
// matched entities that are alive.
func (s *Scene) applyChanges(d *Diff, errs *scenefile.ErrorList) {
	for _, c := range d.Changed {
		if s.World.Alive(c.Entity) {
			s.change(c, errs)
		}
	}
}

// change applies the changes of one entity: classes, components removed
// and added, and the properties the edit set.
func (s *Scene) change(c *Change, errs *scenefile.ErrorList) {
	// Privileged, as the build: the scene gives instances their read-only
	// prefab markers (and the diff never holds another read-only
	// component: a scene cannot write one).
	reg, own, e := s.Registry, s.Registry.Privileged(), c.Entity
	if c.Classes {
		_ = reg.SetClasses(e, c.New.Class())
	}
	newC := func(name string) registry.Patch {
		for _, np := range c.New.Comps {
			if np.Name == name {
				return np.Patch
			}
		}
		return nil
	}
	fail := func(err error) {
		*errs = append(*errs, &scenefile.Error{Pos: c.New.Src.Pos, Msg: err.Error()})
	}
	for _, name := range c.Removed {
		s.removeComponent(c, name, fail)
	}
	for _, name := range c.Added {
		// Already there (added at run time): the file's values win,
		// other properties keep their runtime values.
		mode := registry.Replace
		if reg.Has(e, name) {
			mode = registry.Merge
		}
		if err := own.SetPatch(e, name, newC(name), mode); err != nil {
			fail(err)
		}
	}
	for name, p := range c.set {
		if !reg.Has(e, name) {
			// Removed at run time: the edit brings it back.
			if err := own.SetPatch(e, name, newC(name), registry.Replace); err != nil {
				fail(err)
			}
			continue
		}
		if err := own.SetPatch(e, name, p, registry.Merge); err != nil {
			fail(err)
		}
	}
}

// removeComponent removes the component name the file no longer gives
// from the entity of c, unless a component the entity keeps depends on
// it: then it stays, with what the file gave for it reset (as a fresh
// load would add it with its defaults).
func (s *Scene) removeComponent(c *Change, name string, fail func(error)) {
	reg, own, e := s.Registry, s.Registry.Privileged(), c.Entity
	if !reg.Has(e, name) {
		return
	}
	if dependent(reg, name, c.New.Comps) == "" {
		if err := own.Remove(e, name); err != nil {
			fail(err)
		}
		return
	}
	var old registry.Patch
	for _, np := range c.Old.Comps {
		if np.Name == name {
			old = np.Patch
		}
	}
	if comp, ok := reg.Component(name); ok {
		if err := own.SetPatch(e, name, changedPatch(comp.Schema, old, nil), registry.Merge); err != nil {
			fail(err)
		}
	}
}

// applyRearrange is Apply's rearrange phase: where the edit moves
// entities or adds some, parents and order follow the file; other
// entities keep their places.
func (s *Scene) applyRearrange(d *Diff) {
	if len(d.Moved)+len(d.Created) == 0 {
		return
	}
	ar := &arranger{Scene: s, parents: map[*plan.Node]bool{}, movers: map[ecs.Entity]bool{}}
	for _, list := range [][]*plan.Node{d.Moved, d.Created} {
		for _, n := range list {
			ar.parents[n.Parent] = true
			if e := s.ents[n.Index]; !e.IsZero() {
				ar.movers[e] = true
			}
		}
	}
	ar.arrange(nil, d.new.Roots)
}

// applyDestroy is Apply's last phase, on the scene before the edit: what
// the file no longer has is destroyed.
func (s *Scene) applyDestroy(d *Diff) {
	for _, o := range d.Destroyed {
		if e := s.ents[o.Index]; !e.IsZero() && s.World.Alive(e) {
			_ = s.World.Destroy(e)
		}
	}
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

// createUnmatched creates n and its unmatched descendants, appending them
// to made, each after its descendants; matched descendants are moved
// under it by arrange.
func (s *Scene) createUnmatched(n *plan.Node, parent ecs.Entity, errs *scenefile.ErrorList, made []ecs.Entity) []ecs.Entity {
	e := s.newEntity(n, parent, errs)
	if e.IsZero() {
		return made
	}
	for _, ch := range n.Children {
		if s.ents[ch.Index].IsZero() {
			made = s.createUnmatched(ch, e, errs, made)
		}
	}
	return append(made, e)
}

// arranger puts entities where the file says after an edit that moves or
// adds some.
type arranger struct {
	*Scene
	parents map[*plan.Node]bool // nodes (nil: the roots) whose children to arrange
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
func (ar *arranger) arrange(parent *plan.Node, nodes []*plan.Node) {
	w := ar.World
	var pe ecs.Entity
	if parent != nil {
		pe = ar.ents[parent.Index]
		if pe.IsZero() || !w.Alive(pe) {
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
func (ar *arranger) siblings(parent *plan.Node, pe ecs.Entity) func(func(ecs.Entity) bool) {
	if parent == nil {
		return ar.World.Roots()
	}
	return ar.World.ChildrenSeq(pe)
}

// reorder puts the children of parent (entity pe; nil and zero: the
// roots) in the file's order, nodes, moving the fewest entities.
func (ar *arranger) reorder(parent *plan.Node, pe ecs.Entity, nodes []*plan.Node) {
	var cur []ecs.Entity
	here := map[ecs.Entity]bool{}
	for e := range ar.siblings(parent, pe) {
		cur = append(cur, e)
		here[e] = true
	}
	want, present := ar.taking(nodes, here)
	target := ar.target(parent, cur, want, present)
	if slices.Equal(target, cur) {
		return
	}
	ar.moveFewest(pe, cur, here, target)
}

// taking returns the file's entities that take part in the order of
// nodes, in file order (want), and among them those already here
// (present), which occupy places (slots) among the current children.
func (ar *arranger) taking(nodes []*plan.Node, here map[ecs.Entity]bool) (want, present []ecs.Entity) {
	for _, n := range nodes {
		e := ar.ents[n.Index]
		if e.IsZero() || !ar.World.Alive(e) {
			continue
		}
		if here[e] {
			want = append(want, e)
			present = append(present, e)
		} else if ar.movers[e] {
			want = append(want, e)
		}
	}
	return want, present
}

// target returns the order the children of parent, now cur, should
// have: other entities stay; the slots get the present entities in file
// order; newcomers go next to their neighbours in the file.
func (ar *arranger) target(parent *plan.Node, cur, want, present []ecs.Entity) []ecs.Entity {
	isSlot := func(e ecs.Entity) bool {
		n, ok := ar.NodeOf(e)
		return ok && n.Parent == parent
	}
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
	return append(target, want[wi:]...)
}

// moveFewest puts the children of pe (now cur; here holds them) in the
// order target, moving the fewest: it keeps the entities already here
// that form a longest run in target order, and puts each other one right
// after its predecessor in target.
func (ar *arranger) moveFewest(pe ecs.Entity, cur []ecs.Entity, here map[ecs.Entity]bool, target []ecs.Entity) {
	w := ar.World
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
