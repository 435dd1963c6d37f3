package loader

import (
	"strconv"
	"strings"
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
//     paths of parts) count against Limits.MaxBytes, so that long names
//     repeated by nesting cannot take more memory than a scene's text
//     may.
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
func (c *compiler) prefabFits(p *PrefabSpec, sh shape) bool {
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
func (c *compiler) checkEntity(e *EntitySpec) {
	switch {
	case c.stop:
	case c.plan.Count > c.lim.MaxEntities:
		c.errs.add(e.Pos, "too many entities with the prefabs' instances expanded (limit %d)", c.lim.MaxEntities)
		c.stop = true
	case c.depth > c.lim.MaxDepth:
		c.errs.add(e.Pos, "entities nested too deeply with the prefabs' instances expanded (limit %d)", c.lim.MaxDepth)
		c.stop = true
	}
}

// addName counts the bytes of the path (the id, for a part of an
// instance with an id) made for n, a node expanded from a prefab, and
// stops the compilation once the names made pass Limits.MaxBytes.
func (c *compiler) addName(n *Node) {
	c.nameBytes += int64(len(n.Path))
	if c.nameBytes <= c.lim.MaxBytes || c.stop {
		return
	}
	name := n.Path
	if len(name) > 60 {
		name = name[:30] + "..." + name[len(name)-27:]
	}
	inst := instanceRoot(n)
	c.errs.add(inst.Src.Pos, "the ids and paths of the parts of prefabs' instances (such as %q, %d bytes) would take more than %d bytes (Limits.MaxBytes)", name, len(n.Path), c.lim.MaxBytes)
	c.stop = true
}

// overrides are an instance's changes to the parts of its prefab,
// resolved against the template.
type overrides struct {
	at      map[string]*PartSpec // the change at each path
	under   map[string]bool      // paths with changes below them
	removed []*Node              // the template nodes of the parts removed
	rmUnder map[string]bool      // paths with removed parts below them
}

// expandInstance adds to n, the node of the instance e of the template
// tmpl, its parts: the changes e makes resolved (and the paths it names
// that the prefab lacks reported), then, in the scene, the instance's
// size and depth checked against the limits before anything is copied.
func (c *compiler) expandInstance(n, tmpl *Node, e *EntitySpec) {
	ov := c.resolveParts(e, tmpl)
	if c.prefab == nil && !c.admit(e, tmpl, ov) {
		return
	}
	c.instParts(n, tmpl, ov)
}

// admit reports whether the instance e of tmpl, whose root was just
// counted at depth c.depth, fits what is left of the limits, and
// reports at its prefab value why not (and stops the compilation).
func (c *compiler) admit(e *EntitySpec, tmpl *Node, ov *overrides) bool {
	sh := c.instShape(tmpl, ov)
	total := int64(c.plan.Count) - 1 + sh.size
	deepest := c.depth - 1 + sh.depth
	switch {
	case total > int64(c.lim.MaxEntities):
		c.errs.add(e.PrefabPos(), "instance of prefab %q: its %s entities would bring the scene to %s, more than the %d it may have (Limits.MaxEntities)",
			e.Prefab(), sizeText(sh.size), sizeText(total), c.lim.MaxEntities)
	case deepest > c.lim.MaxDepth:
		c.errs.add(e.PrefabPos(), "instance of prefab %q at depth %d: its entities would nest %d deep, more than the %d allowed (Limits.MaxDepth)",
			e.Prefab(), c.depth, deepest, c.lim.MaxDepth)
	default:
		return true
	}
	c.stop = true
	return false
}

// instShape is the shape of an instance of tmpl with the parts ov
// removes taken off (children that changes add are counted as they are
// compiled).
func (c *compiler) instShape(tmpl *Node, ov *overrides) shape {
	sh := c.shapes[tmpl]
	if ov == nil || len(ov.removed) == 0 {
		return sh
	}
	if sh.size < maxSize {
		for _, t := range ov.removed {
			sh.size -= c.shapes[t].size
		}
	}
	sh.depth = c.depthWithout(tmpl, ov, "")
	return sh
}

// depthWithout is the depth of the template node t, at path, without
// the parts ov removes: it descends only towards them.
func (c *compiler) depthWithout(t *Node, ov *overrides, path string) int {
	d := 1
	for _, ch := range t.Children {
		p := joinPath(path, ch.Key())
		if r := ov.at[p]; r != nil && r.Removed {
			continue
		}
		cd := c.shapes[ch].depth
		if ov.rmUnder[p] {
			cd = c.depthWithout(ch, ov, p)
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

// resolveParts finds the template node of every part the instance e of
// tmpl changes or removes, reporting the paths the prefab does not have
// and the changes inside a part the instance removes; nil if e changes
// no part.
func (c *compiler) resolveParts(e *EntitySpec, tmpl *Node) *overrides {
	parts := e.Parts()
	if len(parts) == 0 {
		return nil
	}
	ov := &overrides{at: make(map[string]*PartSpec, len(parts)), under: map[string]bool{}}
	nodes := make(map[string]*Node, len(parts))
	for _, p := range parts {
		t, ok := c.partNode(tmpl, p.Path)
		if !ok {
			c.errs.add(p.PathPos, "prefab %q has no part %q%s", e.Prefab(), p.Path, suggest(p.Path, c.partPaths(tmpl, p.Path)))
			continue
		}
		ov.at[p.Path], nodes[p.Path] = p, t
		for i := range len(p.Path) {
			if p.Path[i] == '/' {
				ov.under[p.Path[:i]] = true
			}
		}
	}
	for _, p := range parts {
		if ov.at[p.Path] != p {
			continue // not found, or given again later
		}
		if r := removedAbove(ov, p.Path); r != "" {
			c.errs.add(p.PathPos, "part %q is inside the part %q, which this instance removes", p.Path, r)
			continue
		}
		if p.Removed {
			ov.removed = append(ov.removed, nodes[p.Path])
			if ov.rmUnder == nil {
				ov.rmUnder = map[string]bool{}
			}
			for i := range len(p.Path) {
				if p.Path[i] == '/' {
					ov.rmUnder[p.Path[:i]] = true
				}
			}
		}
	}
	return ov
}

// removedAbove returns the path of a part above path that ov removes, or
// "".
func removedAbove(ov *overrides, path string) string {
	for i := range len(path) {
		if path[i] == '/' {
			if r := ov.at[path[:i]]; r != nil && r.Removed {
				return path[:i]
			}
		}
	}
	return ""
}

// partNode returns the template node at path below t.
func (c *compiler) partNode(t *Node, path string) (*Node, bool) {
	for seg := range strings.SplitSeq(path, "/") {
		if t = c.child(t, seg); t == nil {
			return nil, false
		}
	}
	return t, true
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
		for _, ch := range at.Children {
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
		for _, ch := range it.n.Children {
			p := joinPath(it.path, ch.Key())
			out = append(out, p)
			queue = append(queue, item{ch, p})
		}
	}
	return out
}
