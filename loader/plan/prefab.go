package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Prefabs: how a scene's prefabs compile (see docs/scene-format.md,
// Prefabs). A prefab's body compiles once, into a template: a tree of
// Nodes (not in the Plan's roots) whose components are composed (base
// prefab, mixins, own, per property) and whose children have Keys, their
// names inside the prefab. Templates share their subtrees: a nested
// instance (or a variant) in a prefab's body is a node of its own whose
// children are the nested prefab's template nodes themselves, except
// along the paths of the parts it changes, which are copied. So a
// template costs what its prefab's text says, however many entities an
// instance of it has (a prefab of ten instances of a prefab of ten
// instances ... is a chain of small nodes), and every template node
// knows the size and depth of its subtree (shape, see expand.go) before
// anything is expanded. An instance in the scene copies the template's
// tree into the Plan, sharing the composed components of every part the
// instance does not change, so that an instance costs no parsing.

// PrefabPlan is one prefab compiled.
type PrefabPlan struct {
	Src *scenefile.PrefabSpec
	// Root is the template: the prefab's body compiled, with its whole
	// subtree (variants and nested prefabs included). Its nodes have no
	// ids and no entities; their Keys are names inside the prefab. It is
	// a graph, not a tree: a nested prefab's nodes are shared by every
	// template that uses them unchanged (their Parent is the one of
	// their own template), so walk it from the root, and treat it as
	// read-only.
	Root *Node
	// Prefab is the template as the registry keeps it, for
	// Prefabs.Instantiate.
	Prefab *registry.Prefab
}

// prefabEntry is the state of one prefab while the document compiles.
type prefabEntry struct {
	spec     *scenefile.PrefabSpec
	plan     *PrefabPlan
	marker   []registry.NamedPatch // the instances' marker, shared by all of them
	state    uint8                 // 0: not compiled, 1: compiling, 2: compiled (plan nil if it failed)
	visit    uint8                 // orderPrefabs: 0 not seen, 1 on the walk's stack, 2 done
	reported bool                  // a cycle through it was reported
	refused  bool                  // it, or a prefab it uses, passes a limit (reported once, at the first)
}

// markerPatch is the PrefabComponent marker of an instance of name.
func markerPatch(name string) registry.NamedPatch {
	return registry.NamedPatch{Name: registry.PrefabComponent, Patch: registry.Patch{{Index: 0, Value: registry.PrefabRef(name)}}}
}

// marker returns the PrefabComponent marker of the instances of the
// prefab name, one slice for all of them (so that hot reload compares it
// once per prefab, see schemas.propDiff).
func (c *compiler) marker(name string) []registry.NamedPatch {
	pe := c.prefabs[name]
	if pe.marker == nil {
		pe.marker = []registry.NamedPatch{markerPatch(name)}
	}
	return pe.marker
}

// compilePrefabs compiles every prefab of the document, each after the
// prefabs it uses (see orderPrefabs), so that compiling one never
// compiles another: a chain of a million nested prefabs costs no deeper
// a stack than one.
func (c *compiler) compilePrefabs() {
	c.prefabs = make(map[string]*prefabEntry, len(c.doc.Prefabs))
	for _, p := range c.doc.Prefabs {
		if _, dup := c.prefabs[p.Name]; !dup {
			c.prefabs[p.Name] = &prefabEntry{spec: p}
		}
	}
	for _, name := range c.orderPrefabs() {
		c.template(name)
	}
}

// orderPrefabs returns the document's prefabs, each after the prefabs
// its body uses (a variant's base, nested instances, instances that
// parts' changes add), and reports every cycle once: it walks the uses
// depth first from each prefab in document order, with a stack of its
// own, so that a cycle is reported at the first of its prefabs the
// document defines.
func (c *compiler) orderPrefabs() []string {
	type frame struct {
		name string
		uses []string
	}
	order := make([]string, 0, len(c.prefabs))
	var stack []frame
	push := func(name string) {
		pe := c.prefabs[name]
		pe.visit = 1
		c.prefabStack = append(c.prefabStack, name)
		stack = append(stack, frame{name, prefabUses(pe.spec.Body, nil)})
	}
	for _, p := range c.doc.Prefabs {
		if c.prefabs[p.Name].visit != 0 {
			continue
		}
		push(p.Name)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if len(f.uses) == 0 {
				c.prefabs[f.name].visit = 2
				order = append(order, f.name)
				stack = stack[:len(stack)-1]
				c.prefabStack = c.prefabStack[:len(c.prefabStack)-1]
				continue
			}
			use := f.uses[0]
			f.uses = f.uses[1:]
			switch pe := c.prefabs[use]; {
			case pe == nil: // unknown: reported at the use
			case pe.visit == 0:
				push(use)
			case pe.visit == 1:
				c.reportPrefabCycle(use)
			}
		}
	}
	return order
}

// prefabUses appends to out the prefabs the entity e of a prefab's
// body uses, in the order compiling it meets them: its own, those of
// the children its parts' changes add, those of its children.
func prefabUses(e *scenefile.EntitySpec, out []string) []string {
	if e.Prefab() != "" {
		out = append(out, e.Prefab())
	}
	for _, p := range e.Parts() {
		for _, ch := range p.Body.Children {
			out = prefabUses(ch, out)
		}
	}
	for _, ch := range e.Children {
		out = prefabUses(ch, out)
	}
	return out
}

// template returns the compiled template of the prefab name, compiling
// it on first use; nil if it is unknown, in a cycle, broken (reported
// elsewhere) or beyond the limits (reported here, at its name).
func (c *compiler) template(name string) *PrefabPlan {
	pe := c.prefabs[name]
	if pe == nil {
		return nil
	}
	switch {
	case pe.state == 2:
		return pe.plan
	case pe.state == 1 || pe.reported && c.prefab != nil:
		return nil // in a cycle (reported by orderPrefabs)
	}
	pe.state = 1
	saved, savedDepth := c.prefab, c.depth
	c.prefab, c.depth = pe.spec, 0
	c.prefabStack = append(c.prefabStack, name)
	// What an instance would cost first, from the text and the
	// templates it uses; the template is built only if that fits.
	var root *Node
	sh := c.specShape(pe.spec.Body) // sets pe.refused if it uses a refused prefab
	if !pe.refused && !pe.reported && !c.stop {
		if pe.refused = !c.prefabFits(pe.spec, sh); !pe.refused {
			root = c.node(pe.spec.Body, nil, 0)
		}
	}
	c.prefabStack = c.prefabStack[:len(c.prefabStack)-1]
	c.prefab, c.depth = saved, savedDepth
	pe.state = 2
	if root == nil || pe.reported || c.stop {
		return nil // its instances get nothing from it
	}
	pe.plan = &PrefabPlan{Src: pe.spec, Root: root, Prefab: &registry.Prefab{Name: name, Root: c.registryNode(root)}}
	c.plan.Prefabs[name] = pe.plan
	return pe.plan
}

// reportPrefabCycle reports the cycle that closes at name, once, at the
// first prefab of the cycle.
func (c *compiler) reportPrefabCycle(name string) {
	i := slices.Index(c.prefabStack, name)
	cycle := c.prefabStack[i:]
	for _, n := range cycle {
		if c.prefabs[n].reported {
			return
		}
	}
	c.errs.add(c.prefabs[cycle[0]].spec.Pos, "prefab %q: %s", cycle[0], chainText("prefab cycle", "prefabs", cycle))
	for _, n := range cycle {
		c.prefabs[n].reported = true
	}
}

// chainText writes a cycle as "kind: a -> b -> a", a cycle of more than
// six shortened to its first and last three ("kind of 9 plural: a -> b
// -> c -> ... -> g -> h -> a"), as mixin cycles are.
func chainText(kind, plural string, cycle []string) string {
	ids := append(slices.Clip(cycle), cycle[0])
	if len(cycle) <= 6 {
		return kind + ": " + strings.Join(ids, " -> ")
	}
	return fmt.Sprintf("%s of %d %s: %s -> ... -> %s", kind, len(cycle), plural,
		strings.Join(ids[:3], " -> "), strings.Join(ids[len(ids)-3:], " -> "))
}

// instanceOf returns the template of the prefab e instantiates, or
// reports why there is none (unknown prefab; a cycle is reported by
// template).
func (c *compiler) instanceOf(e *scenefile.EntitySpec) *Node {
	if _, ok := c.prefabs[e.Prefab()]; !ok {
		names := make([]string, 0, len(c.doc.Prefabs))
		for _, p := range c.doc.Prefabs {
			names = append(names, p.Name)
		}
		c.errs.add(e.PrefabPos(), "unknown prefab %q%s", e.Prefab(), suggest(e.Prefab(), names))
		return nil
	}
	pp := c.template(e.Prefab())
	if pp == nil {
		return nil
	}
	return pp.Root
}

// instParts adds to n, an instance of the template tmpl, the copies of
// tmpl's children (its parts), with the instance's changes tr applied
// (nil: none).
func (c *compiler) instParts(n, tmpl *Node, tr *partTrie) {
	for _, t := range tmpl.Children {
		if c.stop {
			return
		}
		if ch := c.part(t, n, tr.below(t.Key())); ch != nil {
			n.Children = append(n.Children, ch)
		}
	}
}

// part copies the template node t as a child of parent, with the
// changes tr makes at and below it (nil: none), and its subtree; nil if
// the instance removes it. In a prefab's body a node without changes
// is not copied at all: the template shares it.
func (c *compiler) part(t, parent *Node, tr *partTrie) *Node {
	var p *scenefile.PartSpec
	if tr != nil {
		if p = tr.part; p != nil && p.Removed {
			return nil
		}
	}
	scene := c.prefab == nil
	if !scene && tr == nil {
		return t
	}
	n := c.newNode()
	n.Src, n.Parent, n.ext, n.Comps = t.Src, parent, t.ext, t.Comps
	if scene {
		c.index(n)
		if pid := parent.ID(); pid != "" {
			n.Path = pid + "/" + t.Key() // its id, see Node.ID
			c.parts = append(c.parts, n)
		} else {
			n.Path = parent.Path + "/" + strconv.Itoa(len(parent.Children))
		}
		c.addName(n)
		c.depth++
		c.inParts++
		defer func() { c.depth--; c.inParts-- }()
	} else {
		n.Path = t.Key()
	}
	if c.stop {
		return n
	}
	if p != nil {
		c.override(n, p.Body)
	}
	nk := len(t.Children)
	if p != nil {
		nk += len(p.Body.Children)
	}
	if nk > 0 {
		n.Children = cutSlab(&c.kids, nk)
	}
	for _, tc := range t.Children {
		if c.stop {
			break
		}
		if ch := c.part(tc, n, tr.below(tc.Key())); ch != nil {
			n.Children = append(n.Children, ch)
		}
	}
	if p != nil {
		for _, ch := range p.Body.Children {
			if c.stop {
				break
			}
			if cn := c.node(ch, n, len(n.Children)); cn != nil {
				n.Children = append(n.Children, cn)
			}
		}
	}
	if !scene {
		c.shapes[n] = c.shapeOf(n)
	}
	return n
}

// override writes the part body b over n, a copy of a template node:
// its mixins, then its components, per property; its classes, if it
// gives any, replace n's.
func (c *compiler) override(n *Node, b *scenefile.EntitySpec) {
	mark := len(c.reads)
	var own []registry.NamedPatch
	for _, comp := range b.Components {
		if np, ok := c.component(comp); ok {
			own = append(own, np)
		}
	}
	var base []registry.NamedPatch
	if len(b.Mixins) > 0 {
		var err error
		if base, err = c.mixinComps(b.Mixins); err != nil {
			c.errs.add(b.MixinPos, "%v", err)
		}
	}
	n.Comps = Overlay(Overlay(n.Comps, base), own)
	c.checkReads(n, mark)
	if len(b.Class) > 0 {
		c.setExt(n, n.Key(), n.Prefab(), b.Class)
	}
}

// checkPartIDs reports the ids given to parts that another entity of
// the scene has too. Only an id with a "/" can repeat a part's, so the
// check costs nothing in a scene whose own ids have none.
func (c *compiler) checkPartIDs() {
	if len(c.parts) == 0 {
		return
	}
	var own map[string]*scenefile.EntitySpec
	scenefile.WalkEntities(c.doc.Entities, func(e *scenefile.EntitySpec) {
		if strings.Contains(e.ID, "/") {
			if own == nil {
				own = map[string]*scenefile.EntitySpec{}
			}
			own[e.ID] = e
		}
	})
	if own == nil {
		return
	}
	seen := map[string]*Node{}
	for _, n := range c.parts {
		inst := n.InstanceRoot()
		id := n.ID()
		if e, ok := own[id]; ok {
			c.errs.add(inst.Src.IDPos, "instance %q of prefab %q gives its part %q the id %q, which the entity at %s has too", inst.ID(), inst.Prefab(), n.Key(), id, e.IDPos)
		} else if o, ok := seen[id]; ok {
			c.errs.add(inst.Src.IDPos, "instance %q of prefab %q gives a part the id %q, which a part of %q has too", inst.ID(), inst.Prefab(), id, o.InstanceRoot().ID())
		}
		seen[id] = n
	}
}

// InstanceRoot returns the instance a part belongs to: its nearest
// ancestor that is not itself a part (n itself for a node that is not a
// part).
func (n *Node) InstanceRoot() *Node {
	for n.Key() != "" && n.Parent != nil {
		n = n.Parent
	}
	return n
}

// registryNode converts a template to the registry's form, once per
// node: the registry's prefabs share subtrees as the templates do. The
// root's marker (a variant's base) is left out: InstantiatePrefab sets
// the prefab's own.
func (c *compiler) registryNode(n *Node) *registry.PrefabNode {
	if c.regNodes == nil {
		c.regNodes = map[*Node]*registry.PrefabNode{}
	}
	return registryNodeIn(n, c.regNodes)
}

// RegistryNode converts a template node (and its subtree) to the
// registry's form, for Prefabs.InstantiatePart.
func RegistryNode(n *Node) *registry.PrefabNode {
	return registryNodeIn(n, map[*Node]*registry.PrefabNode{})
}

// registryNodeIn is registryNode with the conversions made so far.
func registryNodeIn(n *Node, done map[*Node]*registry.PrefabNode) *registry.PrefabNode {
	if rn, ok := done[n]; ok {
		return rn
	}
	rn := &registry.PrefabNode{Key: n.Key(), Prefab: n.Prefab(), Class: n.Class(), Components: n.Comps}
	if n.Parent == nil && n.Prefab() != "" {
		rn.Components = slices.DeleteFunc(slices.Clone(n.Comps), func(np registry.NamedPatch) bool { return np.Name == registry.PrefabComponent })
	}
	if len(n.Children) > 0 {
		rn.Children = make([]*registry.PrefabNode, len(n.Children))
		for i, ch := range n.Children {
			rn.Children[i] = registryNodeIn(ch, done)
		}
	}
	done[n] = rn
	return rn
}

// setExt gives n its own prefab fields.
func (c *compiler) setExt(n *Node, key, prefab string, class []string) {
	n.ext = &PrefabFields{key: key, prefab: prefab, class: class}
}
