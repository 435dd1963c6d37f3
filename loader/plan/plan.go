package plan

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/internal/quote"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

// Plan is a scene document validated against a registry: every component
// value parsed, every mixin and declaration checked. Building a World from
// a Plan cannot fail on account of the document; hot reload diffs two
// Plans.
type Plan struct {
	Doc *scenefile.Document
	// Decls are the components the document declares, with their
	// schemas, in document order.
	Decls []*DeclPlan
	// Mixins are the document's mixins, parsed, by id.
	Mixins map[string]*MixinPlan
	// Prefabs are the document's prefabs, compiled, by name.
	Prefabs map[string]*PrefabPlan
	// Systems are the scene-level system settings, parsed.
	Systems []*SystemPlan
	// Schedule are the scene's settings of the schedule (see
	// [SchedulePlan]).
	Schedule []*SchedulePlan
	// Roots are the top-level entities in document order.
	Roots []*Node
	// Tags are names used as empty components that are neither registered
	// nor declared: they become tags. Sorted.
	Tags []string
	// Count is the number of entities.
	Count int
	// Nodes are the plan's nodes by Index: its entities in document
	// order (pre-order), roots and children, the parts of prefabs'
	// instances included (template nodes are not).
	Nodes []*Node
	// Lists are the array properties the scene writes as lists
	// ([scenefile.ComponentSpec.List]) anywhere (on an entity, in a
	// mixin, a prefab, a setting, or a declaration's default): an
	// export given them (export.Options.Lists) writes those properties
	// as lists. Nil if it writes none.
	Lists scenefile.Lists
	// Notes are what the scene does that works but deserves a word, at
	// file:line:col: a declaration that shadows a component of the
	// program. `scene-run validate -strict` prints them and fails.
	Notes scenefile.ErrorList
}

// DeclPlan is one declared component with its schema.
type DeclPlan struct {
	Decl   *scenefile.Decl
	Schema *registry.Schema
	// Shadows is set when the declaration names a component the program
	// registered (a built-in the scene was written before): within the
	// scene, the name is the scene's declared component (see
	// registry.Privileged.Shadow); the program's stays for other scenes.
	Shadows bool
}

// MixinPlan is one mixin with its components parsed.
type MixinPlan struct {
	Src   *scenefile.MixinSpec
	Mixin *registry.Mixin
}

// SystemPlan is one system setting, parsed.
type SystemPlan struct {
	Src   *scenefile.ComponentSpec
	Name  string
	Patch registry.Patch
}

// Node is one entity of a [Plan]: its source, its own parsed components, and
// its components composed with its mixins (what the entity gets). It
// holds nothing of a running scene: a [Scene] keeps the [ecs.Entity]
// made from each Node, by Index.
type Node struct {
	Src      *scenefile.EntitySpec
	Parent   *Node
	Children []*Node
	// Comps are the components written on the entity itself (Src's)
	// composed over its mixins (and, for an instance, its prefab's), per
	// property. It may share storage with other nodes using the same
	// mixins or prefab: treat it as read-only.
	Comps []registry.NamedPatch
	// Path locates the node for messages and matching: ids or child
	// indexes from the root joined by "/". (A node of a prefab's
	// template, which may be shared by several places, has its Key
	// there, and the prefab's name at its root.)
	Path string
	// Index is the node's place in Plan.Nodes, 0 to Count-1 in document
	// order: what a running scene indexes its entities by (one Plan can
	// be built into any number of Worlds). A template node of a prefab,
	// which is in no Plan's Nodes, has -1.
	Index int
	// ext holds what only the entities of prefabs have (nil for the
	// others); parts share their template's.
	ext *PrefabFields
}

// PrefabFields are what a node of a prefab (an instance, a part, a
// template node) has beside the fields of every node: its key, the
// prefab it instantiates and its classes (see [Node.Key], [Node.Prefab],
// [Node.Class]). The parts of instances share their template node's
// unless the instance changes them.
type PrefabFields struct {
	key    string
	prefab string
	class  []string
}

// Fields returns n's prefab fields, nil for a node that has none: nodes
// expanded from one template node, unchanged, return the same, so that
// comparing them compares them once (hot reload does).
func (n *Node) Fields() *PrefabFields { return n.ext }

// Class returns the entity's class list: Src.Class, or for an instance
// or a part, the prefab's unless the scene writes one.
func (n *Node) Class() []string {
	if n.ext != nil {
		return n.ext.class
	}
	return n.Src.Class
}

// ID returns the entity's id: Src.ID, or for a part of an instance that
// has an id, "<parent's id>/<Key>" (its Path); "" for none. (It is
// worked out rather than kept, so that nodes stay small.)
func (n *Node) ID() string {
	if n.ext == nil || n.ext.key == "" {
		return n.Src.ID
	}
	if n.Parent != nil && n.Parent.ID() != "" {
		return n.Path
	}
	return ""
}

// Prefab returns the prefab the entity is an instance of, or "".
func (n *Node) Prefab() string {
	if n.ext != nil {
		return n.ext.prefab
	}
	return ""
}

// Key returns, for a part of an instance (an entity of the prefab's
// subtree), its name inside the prefab, or its rank among the unnamed
// children of its parent there when it has none; "" for other entities. Hot reload matches
// parts by it.
func (n *Node) Key() string {
	if n.ext != nil {
		return n.ext.key
	}
	return ""
}

// schemaSource finds the schema of a component name during compilation:
// the document's declarations first, then the registry.
type schemaSource struct {
	reg   *registry.Registry
	decls map[string]*registry.Schema
	tags  map[string]bool
}

func (s *schemaSource) lookup(name string) (*registry.Schema, bool, error) {
	base, inst, isInst := strings.Cut(name, "__")
	if sc, ok := s.decls[base]; ok {
		if isInst {
			return nil, false, fmt.Errorf("component %q is declared in the scene and is not multiple: instance name %s is not allowed", base, quote.String(name))
		}
		return sc, true, nil
	}
	c, ok := s.reg.Component(base)
	if !ok {
		return nil, false, nil
	}
	if isInst {
		if !c.Multiple {
			return nil, false, fmt.Errorf("component %q is not multiple: instance name %s is not allowed", base, quote.String(name))
		}
		if inst == "" {
			return nil, false, fmt.Errorf("invalid instance name %s: expected %s__ID", quote.String(name), base)
		}
	}
	return c.Schema, true, nil
}

func (s *schemaSource) known() []string {
	names := s.reg.Names()
	for n := range s.decls {
		names = append(names, n)
	}
	return names
}

// compileCheckEvery is how many entities Compile makes (instances
// expanded) between two looks at its context.
const compileCheckEvery = 4096

// Options configure a compilation.
type Options struct {
	// Context, if not nil, interrupts a long compilation when it is
	// done: Compile looks at it every few thousand entities it makes
	// and returns an error matching its error with errors.Is.
	Context context.Context
	// Builtins are the names of the built-in components and systems the
	// program registers (components.Names): a scene that uses some that
	// the registry lacks is refused with one error saying that the
	// program must register them, rather than one unknown name per use.
	// Nil skips that check.
	Builtins []string
}

// Compile validates doc against reg and returns its [Plan]. It reports every
// problem as a [scenefile.ErrorList]; it changes neither reg nor any World.
//
// The [scenefile.Limits] doc was read with (defaults for a Document made
// in memory) bound what its prefabs expand to: each prefab's size and
// depth are worked out from the document before anything is expanded,
// and a prefab, or an instance, that would pass MaxEntities or MaxDepth
// is refused at its place, with the count it would make (see
// docs/scene-format.md, Limits and hostile input).
func Compile(doc *scenefile.Document, reg *registry.Registry, opt Options) (*Plan, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if err := scenefile.Interrupted(ctx); err != nil {
		return nil, err
	}
	c := &compiler{doc: doc, reg: reg, errs: &errorSink{max: 1000}, ctx: ctx, lim: doc.Limits()}
	if len(opt.Builtins) > 0 {
		c.builtins = make(map[string]bool, len(opt.Builtins))
		for _, n := range opt.Builtins {
			c.builtins[n] = true
		}
	}
	p := c.compile()
	if c.cancelled {
		return nil, scenefile.Interrupted(ctx)
	}
	if len(c.errs.list) > 0 {
		c.errs.list.Sort()
		return nil, c.errs.list
	}
	return p, nil
}

type compiler struct {
	doc  *scenefile.Document
	reg  *registry.Registry
	errs *errorSink
	src  schemaSource
	plan *Plan
	// composed caches, per mixin list as written on entities (ids joined
	// by spaces), the mixins' components composed, or the expansion error.
	composed map[string]composedMixins
	// unknown are components with a value whose name is neither
	// registered nor declared.
	unknown []*scenefile.ComponentSpec
	// failed are the names of declarations that did not compile: their
	// uses are not reported again.
	failed map[string]bool
	// unknownSys are scene settings of systems that are not registered.
	unknownSys []*scenefile.ComponentSpec
	// prefabs are the document's prefabs by name, as they compile;
	// prefab is the one whose body is being compiled (nil: the scene's
	// entities), prefabStack the chain of prefabs being compiled.
	prefabs     map[string]*prefabEntry
	prefab      *scenefile.PrefabSpec
	prefabStack []string
	// parts are the parts given ids (checkPartIDs).
	parts []*Node
	// What bounds the compilation (see expand.go): the document's
	// limits, the context, and the state of the walk: stop says to
	// make nothing more (interrupted, or a limit passed), depth is the
	// depth of the scene's entity being compiled (1 for a root), made
	// counts nodes between looks at ctx, nameBytes the bytes of the
	// names (paths, ids) made for the entities of instances.
	lim       scenefile.Limits
	ctx       context.Context
	stop      bool
	cancelled bool
	depth     int
	made      int
	nameBytes int64
	inParts   int // parts being expanded around the node being compiled
	// shapes are the sizes of the templates' nodes; tries the changes
	// of instances to their parts, resolved once; keys index the
	// children of wide template nodes by key; regNodes are the
	// templates' nodes converted for the registry (templates share
	// subtrees, and so do their conversions).
	shapes   map[*Node]shape
	tries    map[*scenefile.EntitySpec]*partTrie
	keys     map[*Node]map[string]*Node
	regNodes map[*Node]*registry.PrefabNode
	// strType is the registry's string type: quoted values of its
	// properties are kept exactly (see [scenefile.ComponentSpec.Exact]).
	strType *registry.Type
	// arrType is the registry's array type: only its properties take a
	// value written as a list (see lists.go).
	arrType *registry.Type
	// ids are the ids of the document's entities, gathered the first
	// time a hint needs them (see idHint).
	ids map[string]bool
	// builtins are the names of the built-in components and systems
	// (Options.Builtins), to tell a program that forgot to register them.
	builtins map[string]bool
	// Slabs the nodes and their slices are cut from, to allocate in
	// bulk: a scene has many small entities.
	nodes   []Node
	patches []registry.NamedPatch
	parsed  map[patchKey]registry.Patch // patches of attribute strings met (see maxParsed)
	needs   map[patchKey][]need         // what the values of parsed read from their entity
	reads   []entityRead                // the needs of the node being compiled (reads.go)
	own     []registry.NamedPatch       // a node's own components, while composed; reused
	kids    []*Node
}

// index gives n, a node of the scene (not of a template), the next
// Index, and counts it.
func (c *compiler) index(n *Node) {
	n.Index = len(c.plan.Nodes)
	c.plan.Nodes = append(c.plan.Nodes, n)
	c.plan.Count++
}

// newNode returns a Node cut from a slab, with no Index (a template's
// node; see index). Every
// compileCheckEvery nodes it looks at the context, and stops the
// compilation once that is done.
func (c *compiler) newNode() *Node {
	if c.made++; c.made >= compileCheckEvery {
		c.made = 0
		if c.ctx.Err() != nil {
			c.stop, c.cancelled = true, true
		}
	}
	if len(c.nodes) == 0 {
		c.nodes = make([]Node, 256)
	}
	n := &c.nodes[0]
	c.nodes = c.nodes[1:]
	n.Index = -1
	return n
}

// composedMixins is the composition of one mixin list.
type composedMixins struct {
	comps []registry.NamedPatch
	err   error
}

func (c *compiler) compile() *Plan {
	p := &Plan{Doc: c.doc, Mixins: map[string]*MixinPlan{}, Prefabs: map[string]*PrefabPlan{}}
	if n := c.doc.Count(); n > 0 {
		p.Nodes = make([]*Node, 0, n)
	}
	c.plan = p
	c.shapes = map[*Node]shape{}
	c.composed = map[string]composedMixins{}
	c.src = schemaSource{reg: c.reg, decls: map[string]*registry.Schema{}, tags: map[string]bool{}}
	c.failed = map[string]bool{}
	c.strType, _ = c.reg.Types().Lookup("string")
	c.arrType, _ = c.reg.Types().Lookup("array")
	// Declarations.
	for _, d := range c.doc.Decls {
		s, compiled := declaredSchema(d, c.reg, c.errs)
		if s == nil {
			c.failed[d.Name] = !compiled
			continue
		}
		c.src.decls[d.Name] = s
		dp := &DeclPlan{Decl: d, Schema: s}
		if rc, ok := c.reg.Component(d.Name); ok && !rc.Declared {
			dp.Shadows = true
			p.Notes = append(p.Notes, &scenefile.Error{Pos: d.Pos, Msg: fmt.Sprintf(
				"component %q shadows the program's component of that name within this scene: entities here get the scene's declaration, not the program's %s (rename it to use both)", d.Name, d.Name)})
		}
		p.Decls = append(p.Decls, dp)
		p.Lists = declLists(p.Lists, d, s)
	}
	// Systems.
	for _, sc := range c.doc.Systems {
		if sc = c.compileSchedule(sc); sc == nil {
			continue
		}
		sys, ok := c.reg.System(sc.Name)
		if !ok {
			c.unknownSys = append(c.unknownSys, sc)
			continue
		}
		patch, ok := c.parseValue(sc, sys.Schema)
		if ok {
			p.Systems = append(p.Systems, &SystemPlan{Src: sc, Name: sc.Name, Patch: patch})
		}
	}
	// Mixins.
	for _, m := range c.doc.Mixins {
		rm := &registry.Mixin{ID: m.ID, Mixins: m.Mixins}
		for _, comp := range m.Components {
			if np, ok := c.component(comp); ok {
				rm.Components = append(rm.Components, np)
			}
		}
		p.Mixins[m.ID] = &MixinPlan{Src: m, Mixin: rm}
	}
	c.reads = c.reads[:0] // a mixin's reads are checked where it is used: not yet
	c.checkMixins()
	c.checkComputed()
	c.compilePrefabs()
	if len(c.doc.Prefabs) > 0 && !c.stop {
		c.checkScene() // the instances' cost, before any is expanded
	}
	// Entities.
	for i, e := range c.doc.Entities {
		if n := c.node(e, nil, i); n != nil {
			p.Roots = append(p.Roots, n)
		}
	}
	c.checkPartIDs()
	c.reportUnknown()
	for t := range c.src.tags {
		p.Tags = append(p.Tags, t)
	}
	sort.Strings(p.Tags)
	return p
}

// checkComputed reports the keys a JSON dump writes beside an entity's
// components ([scenefile.Document.Computed]) that do not name a read-only component:
// only those are written for information and not read.
func (c *compiler) checkComputed() {
	for _, k := range c.doc.Computed {
		if rc, ok := c.reg.Component(k.Name); !ok || !rc.ReadOnly() || c.reg.Prefabs().IsMarker(rc) {
			c.errs.add(k.Pos(), "unknown entity key %q: beside %q, a dump's entity has only the values of read-only components", k.Name, "components")
		}
	}
}

// lookupMixin finds a mixin of the document by id.
func (c *compiler) lookupMixin(id string) (*registry.Mixin, bool) {
	m, ok := c.plan.Mixins[id]
	if !ok {
		return nil, false
	}
	return m.Mixin, true
}

// mixinIDs returns the ids of the document's mixins in document order,
// for suggestions (Nearest prefers the first of equally near ids).
func (c *compiler) mixinIDs() []string {
	ids := make([]string, 0, len(c.doc.Mixins))
	for _, m := range c.doc.Mixins {
		ids = append(ids, m.ID)
	}
	return ids
}

// checkMixins reports, at the mixin definitions, every unknown id a mixin
// lists and every mixin cycle, once each (schema.CheckMixins: one walk
// over all mixins, linear in their number and in the ids they list). A
// cycle is reported at the definition of the mixin where the walk, in
// document order, entered it.
func (c *compiler) checkMixins() {
	ids := c.mixinIDs()
	schema.CheckMixins(ids, c.lookupMixin, func(e *registry.MixinError) {
		if e.Cycle != nil {
			c.errs.add(c.plan.Mixins[e.Cycle[0]].Src.MixinPos, "mixin %q: %v", e.Cycle[0], e)
			return
		}
		if m, ok := c.plan.Mixins[e.From]; ok {
			c.errs.add(m.Src.MixinPos, "mixin %q: unknown mixin %q%s", e.From, e.Unknown, suggest(e.Unknown, ids))
		}
	})
}

// node compiles the entity e, the index-th child of parent (nil: a
// root), with its subtree. In a prefab's body (c.prefab set) the node
// gets no id but a Key, and its shape is recorded; elsewhere its id is
// e's, and it counts against the limits.
func (c *compiler) node(e *scenefile.EntitySpec, parent *Node, index int) *Node {
	n := c.newNode()
	n.Src, n.Parent = e, parent
	c.place(n, e.ID, parent, index)
	scene := c.prefab == nil
	if scene {
		c.index(n)
		c.depth++
		defer func() { c.depth-- }()
		c.checkEntity(e)
	}
	if c.stop {
		return n
	}
	var base []registry.NamedPatch
	if len(e.Mixins) > 0 {
		var err error
		if base, err = c.mixinComps(e.Mixins); err != nil {
			c.errs.add(e.MixinPos, "%v", err)
		}
	}
	// The components written on the entity itself: the node's own if
	// nothing is composed with them; over mixins, only read, copied into
	// the composition (from a list reused from node to node).
	mark := len(c.reads)
	var own []registry.NamedPatch
	scratch := len(base) > 0 && e.Prefab() == ""
	switch {
	case len(e.Components) == 0:
	case scratch:
		own = c.own[:0]
	default:
		own = cutSlab(&c.patches, len(e.Components))
	}
	for _, comp := range e.Components {
		if np, ok := c.component(comp); ok {
			own = append(own, np)
		}
	}
	var tmpl *Node
	if e.Prefab() != "" {
		tmpl = c.instanceOf(e)
	}
	switch {
	case tmpl != nil:
		c.setExt(n, n.Key(), e.Prefab(), e.Class)
		if len(e.Class) == 0 {
			n.ext.class = tmpl.Class()
		}
		n.Comps = Overlay(Overlay(Overlay(tmpl.Comps, base), own), c.marker(e.Prefab()))
	case len(base) == 0 && !repeats(own):
		n.Comps = own
	default:
		n.Comps = overlayInto(cutSlab(&c.patches, len(base)+len(own)), base, own)
	}
	c.checkReads(n, mark)
	if scratch {
		c.own = clearPatches(own) // copied: the children may reuse it
	}
	nk := len(e.Children)
	if tmpl != nil {
		nk += len(tmpl.Children)
	}
	if nk > 0 {
		n.Children = cutSlab(&c.kids, nk)
	}
	if tmpl != nil {
		c.expandInstance(n, tmpl, e)
	}
	for _, ch := range e.Children {
		if c.stop {
			break
		}
		if cn := c.node(ch, n, len(n.Children)); cn != nil {
			n.Children = append(n.Children, cn)
		}
	}
	if !scene {
		c.shapes[n] = c.shapeOf(n)
	}
	return n
}

// place sets the id, key and path of n, the index-th child of parent,
// written with the id id.
func (c *compiler) place(n *Node, id string, parent *Node, index int) {
	if c.prefab != nil && parent != nil {
		// Inside a prefab an id is a name: the key of a part. An
		// unnamed child is named by its rank among the unnamed: one
		// more than the last unnamed sibling's (ranks grow along the
		// children, also when an instance removes one of its parts).
		key := id
		if id == "" {
			key = "0"
			for i := len(parent.Children) - 1; i >= 0; i-- {
				if k := parent.Children[i].Key(); scenefile.IsIndex(k) {
					r, _ := strconv.Atoi(k)
					key = strconv.Itoa(r + 1)
					break
				}
			}
		}
		c.setExt(n, key, n.Src.Prefab(), n.Src.Class)
		n.Path = key // template nodes are shared: no path of their own (see part)
		return
	}
	if c.prefab != nil {
		c.setExt(n, "", n.Src.Prefab(), n.Src.Class)
		n.Path = c.prefab.Name
		return
	}
	seg := id
	if seg == "" {
		seg = strconv.Itoa(index)
	}
	if parent != nil && id == "" {
		n.Path = parent.Path + "/" + seg
		if c.inParts > 0 {
			c.addName(n)
		}
	} else {
		n.Path = seg
	}
}

// mixinComps returns the components of the mixins ids composed (see
// registry.Compose), computed once per distinct list.
func (c *compiler) mixinComps(ids []string) ([]registry.NamedPatch, error) {
	key := ids[0]
	if len(ids) > 1 {
		key = strings.Join(ids, " ")
	}
	if cm, ok := c.composed[key]; ok {
		return cm.comps, cm.err
	}
	// The expansion registry.Instantiate (and so the spawner) uses, so
	// that a scene composes exactly as spawned entities do.
	ms, err := schema.ExpandMixinsFunc(ids, c.lookupMixin)
	var cm composedMixins
	if me, ok := err.(*registry.MixinError); ok {
		// A problem inside the mixins (a cycle, an unknown id a mixin
		// lists) is reported once, at the mixin (checkMixins), not at
		// every entity using it.
		if me.Cycle == nil && me.From == "" {
			cm.err = fmt.Errorf("unknown mixin %s%s", quote.String(me.Unknown), suggest(me.Unknown, c.mixinIDs()))
		}
	} else if err != nil {
		cm.err = err
	} else {
		cm.comps = c.reg.Mixins().Compose(ms, nil)
	}
	c.composed[key] = cm
	return cm.comps, cm.err
}

// Overlay composes own over base per property, as registry.Compose does:
// components in the order they first appear, later values winning. It
// never modifies base or own, and returns own itself when base is empty
// and own names each component once, so the result may share storage
// with both (Node.Comps is read-only).
func Overlay(base, own []registry.NamedPatch) []registry.NamedPatch {
	if len(own) == 0 {
		return base
	}
	if len(base) == 0 && !repeats(own) {
		return own
	}
	return overlayInto(make([]registry.NamedPatch, 0, len(base)+len(own)), base, own)
}

// clearPatches returns nps emptied, its patches let go.
func clearPatches(nps []registry.NamedPatch) []registry.NamedPatch {
	clear(nps)
	return nps[:0]
}

// overlayInto is overlay appending to out, an empty slice with room for
// base and own.
func overlayInto(out, base, own []registry.NamedPatch) []registry.NamedPatch {
	out = append(out, base...)
	var index map[string]int // only for entities with many components
	find := func(name string) int {
		if index == nil && len(out) > 16 {
			index = make(map[string]int, len(out)+len(own))
			for i, np := range out {
				index[np.Name] = i
			}
		}
		if index != nil {
			if i, ok := index[name]; ok {
				return i
			}
			return -1
		}
		for i := range out {
			if out[i].Name == name {
				return i
			}
		}
		return -1
	}
	for _, np := range own {
		i := find(np.Name)
		if i < 0 {
			if index != nil {
				index[np.Name] = len(out)
			}
			out = append(out, np)
			continue
		}
		p := make(registry.Patch, len(out[i].Patch), len(out[i].Patch)+len(np.Patch))
		copy(p, out[i].Patch)
	values:
		for _, pv := range np.Patch {
			for j := range p {
				if p[j].Index == pv.Index {
					p[j].Value = pv.Value
					continue values
				}
			}
			p = append(p, pv)
		}
		out[i].Patch = p
	}
	return out
}

// repeats reports whether a component name occurs twice in nps.
func repeats(nps []registry.NamedPatch) bool {
	if len(nps) > 16 {
		seen := make(map[string]bool, len(nps))
		for _, np := range nps {
			if seen[np.Name] {
				return true
			}
			seen[np.Name] = true
		}
		return false
	}
	for i := range nps {
		for j := range i {
			if nps[i].Name == nps[j].Name {
				return true
			}
		}
	}
	return false
}

// component parses one component value against its schema.
func (c *compiler) component(comp *scenefile.ComponentSpec) (registry.NamedPatch, bool) {
	s, ok, err := c.src.lookup(comp.Name)
	if err != nil {
		c.errs.add(comp.Pos(), "%v", err)
		return registry.NamedPatch{}, false
	}
	if !ok {
		if base, _, _ := strings.Cut(comp.Name, "__"); c.failed[base] {
			return registry.NamedPatch{}, false // its declaration is reported
		}
		if comp.Kind == scenefile.ValueEmpty && !strings.Contains(comp.Name, "__") {
			c.src.tags[comp.Name] = true
			return registry.NamedPatch{Name: comp.Name}, true
		}
		// Reported at the end, once every tag of the scene is known, so
		// that the message does not depend on which use comes first.
		c.unknown = append(c.unknown, comp)
		return registry.NamedPatch{}, false
	}
	name := comp.Name
	rc, ok := c.src.reg.Component(comp.Name)
	if _, shadowed := c.src.decls[comp.Name]; shadowed {
		rc, ok = nil, false // the scene's own declaration of a program's name
	}
	if ok {
		if rc.ReadOnly() {
			c.errs.add(comp.Pos(), "%s", readOnlyMsg(rc, comp.Name))
			return registry.NamedPatch{}, false
		}
		if rc.Name == name {
			// The registry's string: a reload compares the names of two
			// compiles, equal at once when they share their bytes.
			name = rc.Name
		}
	}
	key := patchKey{s, comp.Text, comp.Exact}
	cached := comp.Kind == scenefile.ValueText && !comp.Axes && comp.List == nil
	if cached {
		if p, ok := c.parsed[key]; ok {
			c.noteReads(comp, rc, c.needs[key])
			return registry.NamedPatch{Name: name, Patch: p}, true
		}
	}
	patch, ok := c.parseValue(comp, s)
	var needs []need
	if rc != nil && rc.HasCheck() && (ok || len(patch) > 0) {
		if err := c.check(comp, rc, patch, &needs); err != nil && (ok || checksParsed(err, s, patch)) {
			// With parse errors too, the check of what did parse is
			// reported beside them: one error does not hide the next.
			c.errs.add(errPos(comp, err), "%v%s", err, c.idHint(err))
			return registry.NamedPatch{}, false
		}
	}
	if !ok {
		return registry.NamedPatch{}, false
	}
	if cached && len(c.parsed) < maxParsed {
		if c.parsed == nil {
			c.parsed = map[patchKey]registry.Patch{}
		}
		c.parsed[key] = patch
		if needs != nil {
			if c.needs == nil {
				c.needs = map[patchKey][]need{}
			}
			c.needs[key] = needs
		}
	}
	c.noteReads(comp, rc, needs)
	return registry.NamedPatch{Name: name, Patch: patch}, ok
}

// patchKey is what a component's attribute string parses to depends on:
// its schema, its text, and whether the text is exact.
type patchKey struct {
	s     *registry.Schema
	text  string
	exact bool
}

// maxParsed bounds the attribute strings a compilation remembers the
// patches of: the values many entities repeat ("1 1 1", "damage: 3") are
// parsed once and their patch shared (a node's patches are read-only);
// a scene of unique values stops adding once it is full.
const maxParsed = 4096

// check runs the component's Check hook (registry.Definition.Check) on a
// value parsed from comp, with the scene's declared components known;
// its error is placed in comp's text as parse errors are. What the value
// reads from its entity is appended to needs (see reads.go).
func (c *compiler) check(comp *scenefile.ComponentSpec, rc *registry.Component, patch registry.Patch, needs *[]need) error {
	cx := &registry.CheckContext{Registry: c.reg, Name: comp.Name, Names: c.src.known, Schema: func(name string) (*registry.Schema, bool) {
		s, ok, err := c.src.lookup(name)
		return s, ok && err == nil
	}}
	cx.Prefabs = c.prefabNames
	cx.Reads = func(name string, pe *registry.PropError) { *needs = append(*needs, need{name, pe}) }
	if kv, ok := checkPairs(comp, rc); ok {
		return rc.CheckMap(cx, comp.Name, kv, patch)
	}
	return rc.CheckAttr(cx, comp.Name, checkText(comp), patch)
}

// placeCheck places pe, an error of the Check hook of rc, in comp's value.
func (c *compiler) placeCheck(comp *scenefile.ComponentSpec, rc *registry.Component, pe *registry.PropError) error {
	if kv, ok := checkPairs(comp, rc); ok {
		return rc.PlaceMap(comp.Name, kv, pe)
	}
	return rc.PlaceAttr(comp.Name, checkText(comp), pe)
}

// checkPairs returns comp's key/value pairs when its Check hook sees
// them as pairs (a mapping of several properties, or one that takes a
// mapping).
func checkPairs(comp *scenefile.ComponentSpec, rc *registry.Component) ([][2]string, bool) {
	if comp.Kind != scenefile.ValueMap || rc.Schema.Single() && !rc.Schema.TakesMap() {
		return nil, false
	}
	kv := make([][2]string, len(comp.Map))
	for i, e := range comp.Map {
		kv[i] = [2]string{e.Key, e.Value}
	}
	return kv, true
}

// checkText is the text a Check hook's errors are placed in: comp's
// attribute string, or "" when there is none to point into (errors go
// to the value).
func checkText(comp *scenefile.ComponentSpec) string {
	if comp.Kind != scenefile.ValueText || comp.Axes {
		return ""
	}
	return comp.Text
}

// prefabNames returns the prefabs a component's Check may name: the
// document's and the Registry's.
func (c *compiler) prefabNames() []string {
	names := c.reg.Prefabs().Names()
	for _, p := range c.doc.Prefabs {
		names = append(names, p.Name)
	}
	return names
}

// parseValue parses a component (or system setting) value with schema s,
// reporting errors at the offending text.
func (c *compiler) parseValue(comp *scenefile.ComponentSpec, s *registry.Schema) (registry.Patch, bool) {
	var patch registry.Patch
	var err error
	if (comp.List != nil || comp.Kind == scenefile.ValueMap) && !c.checkLists(comp, s) {
		return nil, false
	}
	switch comp.Kind {
	case scenefile.ValueEmpty:
		if comp.Exact && s.Single() && c.exact(&s.Props[0]) {
			return registry.Patch{{Index: 0, Value: ""}}, true
		}
		return nil, true
	case scenefile.ValueText:
		if comp.Axes && !s.Single() {
			// A JSON object {"x": 1, "y": 2} for a component whose
			// properties are x, y, ...
			f := strings.Fields(comp.Text)
			kv := make([][2]string, len(f))
			for i := range f {
				kv[i] = [2]string{scenefile.AxisNames[i : i+1], f[i]}
			}
			patch, err = s.ParseMap(comp.Name, kv)
			break
		}
		patch, err = s.ParseAttr(comp.Name, comp.Text)
		if err == nil && comp.Exact && s.Single() && c.exact(&s.Props[0]) {
			patch[0].Value = comp.Text
		}
	case scenefile.ValueMap:
		if s.Single() && !s.TakesMap() {
			// A single-property value written as a mapping, such as
			// position: {x: 1, y: 2, z: 3} (as JSON dumps write vectors):
			// the values of the axes, which must be named in order.
			vals := make([]string, len(comp.Map))
			for i, e := range comp.Map {
				if i >= len(scenefile.AxisNames) || e.Key != scenefile.AxisNames[i:i+1] {
					c.errs.add(e.Pos(), "%s: a single-property value written as a mapping takes the axes x, y, z, w in order; found %q", comp.Name, e.Key)
					return nil, false
				}
				vals[i] = e.Value
			}
			patch, err = s.ParseAttr(comp.Name, strings.Join(vals, " "))
			break
		}
		kv := make([][2]string, len(comp.Map))
		for i, e := range comp.Map {
			kv[i] = [2]string{e.Key, e.Value}
		}
		patch, err = s.ParseMap(comp.Name, kv)
		if err == nil {
			c.keepExact(comp, s, patch)
		}
	}
	if err != nil {
		c.addAttrErrors(comp, err)
		return patch, false // what did parse, for the component's Check
	}
	return patch, true
}

// checksParsed reports whether err, a component's Check error on a
// value some of whose properties did not parse, is about a property that
// did: only then is it news (a property that failed, or that the check
// saw at its default for that reason, is reported already).
func checksParsed(err error, s *registry.Schema, patch registry.Patch) bool {
	var ae *registry.AttrError
	if !errors.As(err, &ae) || ae.Property == "" && !s.Single() {
		return false
	}
	idx := 0
	if !s.Single() {
		var ok bool
		if idx, ok = s.Lookup(ae.Property); !ok {
			return false
		}
	}
	for _, pv := range patch {
		if pv.Index == idx {
			return true
		}
	}
	return false
}

// exact reports whether quoted values of property p are kept as written:
// p is of the registry's string type and not restricted by oneOf (an
// enumerated value is a word, compared without its surrounding spaces).
func (c *compiler) exact(p *registry.Property) bool {
	return p.Type == c.strType && c.strType != nil && len(p.OneOf) == 0
}

// keepExact puts the exact text of the quoted string values of a
// mapping into patch, which ParseMap made from comp.Map (trimmed).
func (c *compiler) keepExact(comp *scenefile.ComponentSpec, s *registry.Schema, patch registry.Patch) {
	for _, kv := range comp.Map {
		if !kv.Exact {
			continue
		}
		idx, ok := s.Lookup(strings.TrimSpace(kv.Key))
		if !ok || !c.exact(&s.Props[idx]) {
			continue
		}
		for i := range patch {
			if patch[i].Index == idx {
				patch[i].Value = kv.Value
			}
		}
	}
}

// cutSlab returns an empty slice with room for n elements, cut from
// *slab (refilled when short), so that many small slices share a few
// allocations.
func cutSlab[T any](slab *[]T, n int) []T {
	if n > 64 {
		return make([]T, 0, n)
	}
	if len(*slab) < n {
		*slab = make([]T, 1024)
	}
	s := (*slab)[:0:n]
	*slab = (*slab)[n:]
	return s
}

// errorSink collects the errors of a compilation up to a limit.
type errorSink struct {
	list scenefile.ErrorList
	max  int
	full bool // max reached
}

func (s *errorSink) add(p scenefile.Pos, format string, args ...any) {
	if s.full {
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, quote.Args(args)...) // a name as long as the file is quoted briefly
	}
	if s.max > 0 && len(s.list) >= s.max {
		s.list = append(s.list, &scenefile.Error{Pos: p, Msg: fmt.Sprintf("too many errors (limit %d)", s.max)})
		s.full = true
		return
	}
	s.list = append(s.list, &scenefile.Error{Pos: p, Msg: msg})
}

// errPos finds where in the source an attribute error points.
func errPos(comp *scenefile.ComponentSpec, err error) scenefile.Pos {
	var ae *registry.AttrError
	if !errors.As(err, &ae) || comp.Axes {
		return comp.ValuePos()
	}
	switch comp.Kind {
	case scenefile.ValueText:
		return comp.TextAt(ae.Offset)
	case scenefile.ValueMap:
		if ae.Pair >= 0 && ae.Pair < len(comp.Map) {
			if ae.Kind == schema.UnknownProperty {
				return comp.KeyAt(ae.Pair, ae.Offset)
			}
			return comp.ValueAt(ae.Pair, ae.Offset)
		}
	}
	return comp.ValuePos()
}

// addAttrErrors reports every problem of a component value at its own
// position (see registry.AttrErrorList), one error per problem.
func (c *compiler) addAttrErrors(comp *scenefile.ComponentSpec, err error) {
	list := schema.AttrErrorList(err)
	if len(list) == 0 {
		c.errs.add(errPos(comp, err), "%v", err)
		return
	}
	for _, ae := range list {
		c.errs.add(errPos(comp, ae), "%v%s", ae, c.idHint(ae))
	}
}

// idHint returns, for a selector value that is a bare name which is
// the id of one of the scene's entities (`_target: light` where the
// scene has `id: light`), the note that #name selects it; "" otherwise.
func (c *compiler) idHint(err error) string {
	var se *selector.Error
	if !errors.As(err, &se) || se.Name == "" {
		return ""
	}
	if c.ids == nil {
		c.ids = map[string]bool{}
		var walk func([]*scenefile.EntitySpec)
		walk = func(es []*scenefile.EntitySpec) {
			for _, e := range es {
				if e.ID != "" {
					c.ids[e.ID] = true
				}
				walk(e.Children)
			}
		}
		walk(c.doc.Entities)
	}
	if !c.ids[se.Name] {
		return ""
	}
	return fmt.Sprintf(" (the scene has an entity with the id %q: #%s selects it)", se.Name, se.Name)
}

func suggest(name string, known []string) string {
	return didyoumean.Hint(name, known)
}

// DeclaredSchema returns the schema declaration d gives its component in
// reg, or the error Compile reports at d, a *scenefile.Error: its schema
// does not compile, or it names a read-only component of the program.
func DeclaredSchema(d *scenefile.Decl, reg *registry.Registry) (*registry.Schema, error) {
	errs := &errorSink{}
	if s, _ := declaredSchema(d, reg, errs); s != nil {
		return s, nil
	}
	return nil, errs.list[0]
}

// declaredSchema returns the schema declaration d gives its component in
// reg, or reports at d why it gives none: its schema does not compile
// (compiled is false), or it names a read-only component of the
// program (another of the program's it shadows: see DeclPlan.Shadows).
func declaredSchema(d *scenefile.Decl, reg *registry.Registry, errs *errorSink) (s *registry.Schema, compiled bool) {
	s, err := declSchema(d, reg)
	if err != nil {
		errs.add(d.Pos, "component %q: %v", d.Name, err)
		return nil, false
	}
	if !checkDeclLists(d, s, errs) {
		return nil, false
	}
	if rc, ok := reg.Component(d.Name); ok && !rc.Declared && rc.ReadOnly() {
		errs.add(d.Pos, "component %q is the program's and read-only; a scene cannot declare its own", d.Name)
		return nil, true
	}
	return s, true
}

// declSchema builds the schema of a declared component.
func declSchema(d *scenefile.Decl, reg *registry.Registry) (*registry.Schema, error) {
	specs := make([]registry.PropSpec, 0, len(d.Props))
	for _, pd := range d.Props {
		specs = append(specs, registry.PropSpec{
			Name: pd.Name, Type: declListType(pd), Default: pd.Default,
			OneOf: pd.OneOf, Min: pd.Min, Max: pd.Max, OnDelete: pd.OnDelete,
		})
	}
	s, err := schema.NewSchema(specs, reg.Types())
	if err != nil {
		var se *registry.SchemaError
		if errors.As(err, &se) {
			err = se.Err // the file's position replaces the registry's prefix
		}
		return nil, err
	}
	return s, nil
}

// readOnlyMsg is the message for a read-only component written in a
// scene: its owner writes it.
func readOnlyMsg(c *registry.Component, name string) string {
	msg := fmt.Sprintf("%q is read-only", name)
	if c.Owner() != "" {
		msg += " (" + c.Owner() + ")"
	}
	return msg + " and cannot be written in a scene"
}

// reportUnknown reports the unknown systems and components. When some are
// built-ins (Options.Builtins) that the registry lacks, the program most
// likely forgot components.Register: that is one error, naming them all,
// at the first use, instead of one per use.
func (c *compiler) reportUnknown() {
	anyMissing := c.reportMissingBuiltins()
	for _, sc := range c.unknownSys {
		if anyMissing && c.missingBuiltin(sc.Name) {
			continue
		}
		var names []string
		for _, s := range c.reg.Systems() {
			names = append(names, s.Name)
		}
		c.errs.add(sc.Pos(), "unknown system %q%s", sc.Name, suggest(sc.Name, names))
	}
	for _, comp := range c.unknown {
		if anyMissing && c.missingBuiltin(comp.Name) {
			continue
		}
		if c.src.tags[comp.Name] {
			c.errs.add(comp.ValuePos(), "%q is used as a tag elsewhere in the scene and takes no value", comp.Name)
			continue
		}
		c.errs.add(comp.Pos(), "unknown component %q%s", comp.Name, suggest(comp.Name, c.src.known()))
	}
}

// missingBuiltin reports whether name (or its base, for an instance) is a
// built-in component or system that the registry lacks.
func (c *compiler) missingBuiltin(name string) bool {
	base, _, _ := strings.Cut(name, "__")
	if !c.builtins[base] {
		return false
	}
	_, ok := c.reg.Component(base)
	_, sok := c.reg.System(base)
	return !ok && !sok
}

// reportMissingBuiltins reports, in one error at the first use, the
// built-ins the scene uses that the registry lacks, and whether there
// were any. Built-in names used without a value, which became tags, are
// built-ins too (and no longer tags).
func (c *compiler) reportMissingBuiltins() bool {
	var missing []string // in order of first use
	var first scenefile.Pos
	seen := map[string]bool{}
	use := func(name string, at scenefile.Pos) {
		if !seen[name] {
			seen[name] = true
			missing = append(missing, name)
		}
		if !first.IsValid() || at.Less(first) {
			first = at
		}
	}
	for _, sc := range c.unknownSys {
		if c.missingBuiltin(sc.Name) {
			use(sc.Name, sc.Pos())
		}
	}
	for _, comp := range c.unknown {
		if c.missingBuiltin(comp.Name) {
			base, _, _ := strings.Cut(comp.Name, "__")
			use(base, comp.Pos())
		}
	}
	if len(missing) == 0 {
		return false
	}
	var tags []string
	for t := range c.src.tags {
		if c.missingBuiltin(t) && !seen[t] {
			tags = append(tags, t)
		}
	}
	sort.Strings(tags)
	for _, t := range tags {
		missing = append(missing, t)
		delete(c.src.tags, t)
	}
	c.errs.add(first, "built-in components and systems are not registered (%s): the program must call components.Register", strings.Join(missing, ", "))
	return true
}

// IDPos returns where the id of n is written: at its own id, or for a
// part, at the id of its instance.
func (n *Node) IDPos() scenefile.Pos {
	return n.InstanceRoot().Src.IDPos
}

// SameSchema reports whether two schemas describe the same properties:
// names, types, defaults, oneOf, bounds and onDelete policies.
func SameSchema(a, b *registry.Schema) bool {
	if len(a.Props) != len(b.Props) {
		return false
	}
	for i := range a.Props {
		pa, pb := &a.Props[i], &b.Props[i]
		if pa.Name != pb.Name || pa.Type != pb.Type || !pa.Type.Equal(pa.Default, pb.Default) ||
			fmt.Sprint(pa.OneOf) != fmt.Sprint(pb.OneOf) || !sameBound(pa.Min, pb.Min) || !sameBound(pa.Max, pb.Max) || pa.OnDelete != pb.OnDelete {
			return false
		}
	}
	return true
}

func sameBound(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// ParseValue parses one component value written in a scene with the
// schema s, as Compile does (the exact text of quoted strings kept); its
// error is an ErrorList placed in the value's file.
func ParseValue(comp *scenefile.ComponentSpec, s *registry.Schema) (registry.Patch, error) {
	c := &compiler{errs: &errorSink{max: 10}}
	for i := range s.Props {
		if s.Props[i].Type.Name == "string" {
			c.strType = s.Props[i].Type
		}
	}
	p, ok := c.parseValue(comp, s)
	if !ok {
		return nil, c.errs.list
	}
	return p, nil
}
