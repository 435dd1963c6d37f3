package plan

import (
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// A component's Check hook reports the components its data reads from
// its own entity (registry.CheckContext.Reads: an on's or a bind's
// expressions). Once an entity's components are known (its own, its
// mixins', its prefab's, and what they depend on), those it lacks are
// errors where they are read: the scene would fail at its first tick.

// need is a component a value reads from its entity, with the error
// should the entity lack it.
type need struct {
	comp string
	pe   *registry.PropError
}

// entityRead is a need of a component value of the node being compiled.
type entityRead struct {
	spec *scenefile.ComponentSpec
	rc   *registry.Component
	need
}

// noteReads records the needs of the value spec of the component rc.
func (c *compiler) noteReads(spec *scenefile.ComponentSpec, rc *registry.Component, needs []need) {
	for _, nd := range needs {
		c.reads = append(c.reads, entityRead{spec, rc, nd})
	}
}

// checkReads reports the needs recorded since mark that n's components
// do not meet, and forgets them.
func (c *compiler) checkReads(n *Node, mark int) {
	if len(c.reads) == mark {
		return
	}
	for _, r := range c.reads[mark:] {
		if !c.hasComp(n.Comps, r.comp) {
			err := c.placeCheck(r.spec, r.rc, r.pe)
			c.errs.add(errPos(r.spec, err), "%v", err)
		}
	}
	c.reads = c.reads[:mark]
}

// hasComp reports whether an entity of the components comps has the
// component name: one of them, or one they depend on.
func (c *compiler) hasComp(comps []registry.NamedPatch, name string) bool {
	for _, np := range comps {
		if np.Name == name {
			return true
		}
	}
	seen := map[string]bool{}
	var walk func(n string) bool
	walk = func(n string) bool {
		if n == name {
			return true
		}
		if seen[n] {
			return false
		}
		seen[n] = true
		if _, shadowed := c.src.decls[n]; shadowed {
			return false // the scene's own: no dependencies
		}
		if rc, ok := c.reg.Component(n); ok {
			for _, d := range rc.Dependencies {
				if walk(d) {
					return true
				}
			}
		}
		return false
	}
	for _, np := range comps {
		if walk(np.Name) {
			return true
		}
	}
	return false
}
