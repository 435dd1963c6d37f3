package plan

import (
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// What expanding prefabs may cost. A prefab's template shares its
// subtrees (see prefab.go), so compiling it costs what its text says;
// what an instance would cost is known from the template before the
// instance is expanded: every template node records its shape, the
// number of entities of its subtree and how deep they nest, summed from
// its children's as it is built (memoised arithmetic over the prefab
// graph: a 10-way tree of 8 levels is 8 small nodes whose sizes reach
// 111,111,111). So every limit is checked up front:
//
//   - a prefab whose instance alone would pass Limits.MaxEntities or
//     Limits.MaxDepth is refused at its name, used or not (a spawner or
//     a program may instance it by name at run time);
//   - an instance is expanded only if its entities (its parts removed
//     taken off) fit what is left of MaxEntities, and its depth below
//     the place it is written at fits MaxDepth; else it is refused at
//     its `prefab` value, and nothing more is expanded;
//   - the names expansion makes (the ids "f2/gun-left/muzzle" and
//     paths of parts) count against Limits.MaxNameBytes as they are
//     made, so that long names repeated by nesting cannot take more
//     memory than that.
//
// Compilation looks at its context every compileCheckEvery nodes it
// makes, and stops when it is done.

// shape is the size of a template node's subtree: its entities and how
// deep they nest, the node itself counting 1 in both.
type shape struct {
	size  int64
	depth int
}

// maxSize caps the sizes shapes add up, so that no prefab graph, however
// it multiplies, overflows them; every limit is far below it.
const maxSize = 1 << 61

// addSize adds two sizes, capped at maxSize.
func addSize(a, b int64) int64 {
	if s := a + b; s < maxSize {
		return s
	}
	return maxSize
}

// shapeOf works out the shape of the template node n from its
// children's.
func (c *compiler) shapeOf(n *Node) shape {
	sh := shape{size: 1, depth: 1}
	for _, ch := range n.Children {
		cs := c.shapes[ch]
		sh.size = addSize(sh.size, cs.size)
		sh.depth = max(sh.depth, cs.depth+1)
	}
	return sh
}

// prefabFits reports whether one instance of the prefab p, whose
// template has the shape sh, fits the limits, and reports at p's name
// why not.
func (c *compiler) prefabFits(p *scenefile.PrefabSpec, sh shape) bool {
	switch {
	case sh.size > int64(c.lim.MaxEntities):
		c.errs.add(p.Pos, "prefab %q: an instance would have %s entities, more than the %d a scene may have (Limits.MaxEntities)", p.Name, sizeText(sh.size), c.lim.MaxEntities)
	case sh.depth > c.lim.MaxDepth:
		c.errs.add(p.Pos, "prefab %q: its entities nest %d deep, more than the %d a scene allows (Limits.MaxDepth)", p.Name, sh.depth, c.lim.MaxDepth)
	default:
		return true
	}
	return false
}

// sizeText writes a size, "more than 2305843009213693952" when it is
// capped.
func sizeText(n int64) string {
	if n >= maxSize {
		return "more than " + strconv.FormatInt(maxSize-1, 10)
	}
	return strconv.FormatInt(n, 10)
}

// checkEntity checks the limits at the scene's entity e, just counted
// at depth c.depth: the expansion of instances before it may have used
// them up, and parts may add children below the depth the file shows.
func (c *compiler) checkEntity(e *scenefile.EntitySpec) {
	switch {
	case c.stop:
	case c.plan.Count > c.lim.MaxEntities:
		c.errs.add(e.Pos, "with its prefabs' instances the scene would have more than the %d entities it may have (Limits.MaxEntities)", c.lim.MaxEntities)
		c.stop = true
	case c.depth > c.lim.MaxDepth:
		c.errs.add(e.Pos, "entities nested %d deep, more than the %d allowed (Limits.MaxDepth)", c.depth, c.lim.MaxDepth)
		c.stop = true
	}
}

// addName counts the bytes of the path (the id, for a part of an
// instance with an id) made for n, a node expanded from a prefab, and
// stops the compilation once the names made pass Limits.MaxNameBytes.
func (c *compiler) addName(n *Node) {
	c.nameBytes += int64(len(n.Path))
	if c.nameBytes <= c.lim.MaxNameBytes || c.stop {
		return
	}
	name := n.Path
	if len(name) > 60 {
		name = name[:30] + "..." + name[len(name)-27:]
	}
	inst := n.InstanceRoot()
	c.errs.add(inst.Src.Pos, "the ids and paths of the parts of prefabs' instances (such as %q, %d bytes) would take more than %d bytes (Limits.MaxNameBytes)", name, len(n.Path), c.lim.MaxNameBytes)
	c.stop = true
}

// partTrie is an instance's changes to the parts of its prefab,
// resolved against the template, by path segment: the root is the
// instance's root, each node the part at a path with a change at or
// below it.
type partTrie struct {
	node    *Node                // the template node at the path
	part    *scenefile.PartSpec  // the change at the path (nil: none)
	kids    map[string]*partTrie // the changes below, by key
	removes bool                 // a part at or below the path is removed
}

// below returns the trie of the part whose key is key, or nil.
func (tr *partTrie) below(key string) *partTrie {
	if tr == nil || tr.kids == nil {
		return nil
	}
	return tr.kids[key]
}

// expandInstance adds to n, the node of the instance e of the template
// tmpl, its parts (checkScene has checked the limits).
func (c *compiler) expandInstance(n, tmpl *Node, e *scenefile.EntitySpec) {
	c.instParts(n, tmpl, c.resolveParts(e, tmpl))
}

// checkScene works out, before anything of the scene is compiled, the
// entities and depth its prefabs' instances would make, in document
// order, and reports the first instance (or entity) that would pass
// Limits.MaxEntities or Limits.MaxDepth, with the counts; then nothing
// is compiled. It reports whether the scene fits.
func (c *compiler) checkScene() bool {
	var count int64
	var walk func(es []*scenefile.EntitySpec, depth int) bool
	walk = func(es []*scenefile.EntitySpec, depth int) bool {
		for _, e := range es {
			sh := shape{size: 1, depth: 1}
			pe := c.prefabs[e.Prefab()]
			if pe != nil && pe.plan != nil {
				tr := c.resolveParts(e, pe.plan.Root)
				sh = c.instShape(pe.plan.Root, tr)
				c.addedShape(&sh, tr, 1)
			}
			count = addSize(count, sh.size)
			deepest := depth - 1 + sh.depth
			switch {
			case count > int64(c.lim.MaxEntities) && pe != nil:
				c.errs.add(e.PrefabPos(), "instance of prefab %q: its %s entities would bring the scene to %s, more than the %d it may have (Limits.MaxEntities)",
					e.Prefab(), sizeText(sh.size), sizeText(count), c.lim.MaxEntities)
			case count > int64(c.lim.MaxEntities):
				c.errs.add(e.Pos, "with its prefabs' instances the scene would have more than the %d entities it may have (Limits.MaxEntities)", c.lim.MaxEntities)
			case deepest > c.lim.MaxDepth && pe != nil:
				c.errs.add(e.PrefabPos(), "instance of prefab %q at depth %d: its entities would nest %d deep, more than the %d allowed (Limits.MaxDepth)",
					e.Prefab(), depth, deepest, c.lim.MaxDepth)
			case deepest > c.lim.MaxDepth:
				c.errs.add(e.Pos, "entities nested %d deep, more than the %d allowed (Limits.MaxDepth)", deepest, c.lim.MaxDepth)
			default:
				if walk(e.Children, depth+1) {
					continue
				}
			}
			return false
		}
		return true
	}
	if !walk(c.doc.Entities, 1) {
		c.stop = true
		return false
	}
	return true
}

// specShape works out the shape of the entity e of a prefab's body (or
// a child a part's change adds) from the text and the templates it
// instances, compiling those, but building nothing of e.
func (c *compiler) specShape(e *scenefile.EntitySpec) shape {
	sh := shape{size: 1, depth: 1}
	if pe := c.prefabs[e.Prefab()]; pe != nil {
		if pp := c.template(e.Prefab()); pp != nil {
			tr := c.resolveParts(e, pp.Root)
			sh = c.instShape(pp.Root, tr)
			c.addedShape(&sh, tr, 1)
		} else if pe.refused && c.prefab != nil {
			// It passes a limit, and so does the prefab using it:
			// reported once, at the first.
			c.prefabs[c.prefab.Name].refused = true
		}
	}
	for _, ch := range e.Children {
		cs := c.specShape(ch)
		sh.size = addSize(sh.size, cs.size)
		sh.depth = max(sh.depth, cs.depth+1)
	}
	return sh
}

// addedShape adds to sh what the children that the changes of tr add
// make, tr's part being at depth d of the instance.
func (c *compiler) addedShape(sh *shape, tr *partTrie, d int) {
	if tr == nil {
		return
	}
	if p := tr.part; p != nil && !p.Removed {
		for _, ch := range p.Body.Children {
			cs := c.specShape(ch)
			sh.size = addSize(sh.size, cs.size)
			sh.depth = max(sh.depth, d+cs.depth)
		}
	}
	for _, k := range tr.kids {
		c.addedShape(sh, k, d+1)
	}
}

// instShape is the shape of an instance of tmpl with the parts tr
// removes taken off (not counting the children changes add).
func (c *compiler) instShape(tmpl *Node, tr *partTrie) shape {
	sh := c.shapes[tmpl]
	if tr == nil || !tr.removes {
		return sh
	}
	if sh.size < maxSize {
		sh.size -= c.removedSize(tr)
	}
	sh.depth = c.depthWithout(tmpl, tr)
	return sh
}

// removedSize is the number of entities of the parts tr removes.
func (c *compiler) removedSize(tr *partTrie) int64 {
	if tr.part != nil && tr.part.Removed {
		return c.shapes[tr.node].size
	}
	var n int64
	for _, k := range tr.kids {
		if k.removes {
			n += c.removedSize(k)
		}
	}
	return n
}

// depthWithout is the depth of the template node t without the parts
// tr (t's trie) removes: it descends only towards them.
func (c *compiler) depthWithout(t *Node, tr *partTrie) int {
	d := 1
	for _, ch := range t.Children {
		k := tr.below(ch.Key())
		if k != nil && k.part != nil && k.part.Removed {
			continue
		}
		cd := c.shapes[ch].depth
		if k != nil && k.removes {
			cd = c.depthWithout(ch, k)
		}
		d = max(d, cd+1)
	}
	return d
}

// joinPath joins a part's path and the key of one of its children.
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "/" + key
}

// resolveParts returns the trie of the changes the instance e of tmpl
// makes to its parts (nil if none), made once per instance: it reports
// the paths the prefab does not have, and changes inside a part the
// instance removes (which are left out). A path given twice takes the
// last change.
func (c *compiler) resolveParts(e *scenefile.EntitySpec, tmpl *Node) *partTrie {
	parts := e.Parts()
	if len(parts) == 0 {
		return nil
	}
	if tr, ok := c.tries[e]; ok {
		return tr
	}
	root := &partTrie{node: tmpl}
	at := make(map[*scenefile.PartSpec]*partTrie, len(parts))
	for _, p := range parts {
		if tr := c.insertPart(root, p.Path); tr != nil {
			tr.part, at[p] = p, tr
		} else {
			c.errs.add(p.PathPos, "prefab %q has no part %q%s", e.Prefab(), p.Path, suggest(p.Path, c.partPaths(tmpl, p.Path)))
		}
	}
	for _, p := range parts {
		tr := at[p]
		if tr == nil || tr.part != p {
			continue
		}
		if r := removedAbove(root, p.Path); r != "" {
			c.errs.add(p.PathPos, "part %q is inside the part %q, which this instance removes", p.Path, r)
			tr.part = nil
		}
	}
	for _, p := range parts {
		if tr := at[p]; tr != nil && tr.part == p && p.Removed {
			markRemoves(root, p.Path)
		}
	}
	if c.tries == nil {
		c.tries = map[*scenefile.EntitySpec]*partTrie{}
	}
	c.tries[e] = root
	return root
}

// insertPart returns the trie node of the part at path below root,
// made if need be; nil if the template has no such part.
func (c *compiler) insertPart(root *partTrie, path string) *partTrie {
	tr := root
	for seg := range strings.SplitSeq(path, "/") {
		if k := tr.below(seg); k != nil {
			tr = k
			continue
		}
		ch := c.child(tr.node, seg)
		if ch == nil {
			return nil
		}
		if tr.kids == nil {
			tr.kids = map[string]*partTrie{}
		}
		k := &partTrie{node: ch}
		tr.kids[seg] = k
		tr = k
	}
	return tr
}

// removedAbove returns the path of a part above path (in root's trie)
// that is removed, or "".
func removedAbove(root *partTrie, path string) string {
	tr, off := root, 0
	for seg := range strings.SplitSeq(path, "/") {
		if tr.part != nil && tr.part.Removed && tr != root {
			return path[:off-1]
		}
		tr = tr.below(seg)
		off += len(seg) + 1
	}
	return ""
}

// markRemoves marks the trie nodes from root to the part at path as
// having a removed part at or below them.
func markRemoves(root *partTrie, path string) {
	tr := root
	tr.removes = true
	for seg := range strings.SplitSeq(path, "/") {
		tr = tr.below(seg)
		tr.removes = true
	}
}

// wideNode is the number of children from which a template node's
// children are indexed by key (child).
const wideNode = 16

// child returns the child of the template node t whose key is key, or
// nil.
func (c *compiler) child(t *Node, key string) *Node {
	if len(t.Children) <= wideNode {
		for _, ch := range t.Children {
			if ch.Key() == key {
				return ch
			}
		}
		return nil
	}
	idx := c.keys[t]
	if idx == nil {
		idx = make(map[string]*Node, len(t.Children))
		for _, ch := range t.Children {
			idx[ch.Key()] = ch
		}
		if c.keys == nil {
			c.keys = map[*Node]map[string]*Node{}
		}
		c.keys[t] = idx
	}
	return idx[key]
}

// maxSuggest bounds the parts' paths a suggestion is chosen from: a
// prefab's parts may be more than any list should hold.
const maxSuggest = 2000

// partPaths returns paths of parts of tmpl to suggest instead of path:
// the children of the deepest part path names, then the parts of tmpl
// breadth first, maxSuggest in all.
func (c *compiler) partPaths(tmpl *Node, path string) []string {
	var out []string
	at, prefix := tmpl, ""
	for seg := range strings.SplitSeq(path, "/") {
		ch := c.child(at, seg)
		if ch == nil {
			break
		}
		at, prefix = ch, joinPath(prefix, seg)
	}
	if at != tmpl {
		for _, ch := range at.Children[:min(len(at.Children), maxSuggest)] {
			out = append(out, joinPath(prefix, ch.Key()))
		}
	}
	type item struct {
		n    *Node
		path string
	}
	queue := []item{{tmpl, ""}}
	for len(queue) > 0 && len(out) < maxSuggest {
		it := queue[0]
		queue = queue[1:]
		for _, ch := range it.n.Children[:min(len(it.n.Children), maxSuggest-len(out))] {
			p := joinPath(it.path, ch.Key())
			out = append(out, p)
			queue = append(queue, item{ch, p})
		}
	}
	return out
}
