package export

import (
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// EntityPath returns the path that names e in dumps and query output: its
// id if it has one, else its parent's path (or nothing, for a root)
// followed by its 0-based index among its siblings, joined by "/". It
// takes time in proportion to e's depth below the nearest entity with an
// id; to name many entities, a [Namer] remembers the parents' paths.
func EntityPath(reg *registry.Registry, e ecs.Entity) string {
	n := Namer{reg: reg, w: reg.World()}
	return n.Path(e)
}

// Namer names entities as [EntityPath] does, remembering the path of each
// parent it has named, so that naming many entities (a dump, the matches
// of a query, a whole World) takes time in proportion to their number and
// the length of their paths, however many siblings they have. A Namer is
// for one pass over a World that does not change meanwhile, in its
// hierarchy or its ids: make a new one after a change. The zero Namer is
// not usable; make one with [NewNamer].
type Namer struct {
	reg      *registry.Registry
	w        *ecs.World
	remember bool                  // keep parents' paths (false: one EntityPath)
	parents  map[ecs.Entity]string // paths of parents without an id
}

// NewNamer returns a Namer of the entities of reg's World.
func NewNamer(reg *registry.Registry) *Namer {
	return &Namer{reg: reg, w: reg.World(), remember: true}
}

// Path returns e's path, the same as EntityPath(reg, e).
func (n *Namer) Path(e ecs.Entity) string {
	if id := n.reg.EntityID(e); id != "" {
		return id
	}
	idx := strconv.Itoa(n.w.ChildIndex(e))
	p, ok := n.w.Parent(e)
	if !ok {
		return idx
	}
	return n.parentPath(p) + "/" + idx
}

// parentPath returns the path of p, which has a child, remembering it if
// n does.
func (n *Namer) parentPath(p ecs.Entity) string {
	if !n.remember {
		return n.Path(p)
	}
	if id := n.reg.EntityID(p); id != "" {
		return id
	}
	if s, ok := n.parents[p]; ok {
		return s
	}
	if n.parents == nil {
		n.parents = map[ecs.Entity]string{}
	}
	s := n.Path(p)
	n.parents[p] = s
	return s
}

// EntityPaths returns the paths of es, each as [EntityPath] gives it, with
// one [Namer].
func EntityPaths(reg *registry.Registry, es []ecs.Entity) []string {
	n := NewNamer(reg)
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = n.Path(e)
	}
	return out
}

// Find returns the live entity a reference names, as a scene writes one
// in an entity property and as dumps write it back: `#id`, or a path
// ([EntityPath]) of child indexes below an id or from the roots
// (`hangar/0`, `2/1`, `#hangar/0`). It reports false when no entity is
// so named.
func Find(reg *registry.Registry, ref string) (ecs.Entity, bool) {
	w := reg.World()
	first, rest, more := strings.Cut(ref, "/")
	e, ok := reg.EntityByID(strings.TrimPrefix(first, "#"))
	if !ok {
		i, err := strconv.Atoi(first)
		if err != nil || i < 0 || strings.HasPrefix(first, "#") {
			return ecs.Entity{}, false
		}
		if e, ok = nth(w.Roots(), i); !ok {
			return e, false
		}
	}
	for more {
		var s string
		s, rest, more = strings.Cut(rest, "/")
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 {
			return ecs.Entity{}, false
		}
		if e, ok = nth(w.ChildrenSeq(e), i); !ok {
			return e, false
		}
	}
	return e, true
}

// nth returns the i'th entity of seq.
func nth(seq iter.Seq[ecs.Entity], i int) (ecs.Entity, bool) {
	for e := range seq {
		if i == 0 {
			return e, true
		}
		i--
	}
	return ecs.Entity{}, false
}

// RefText returns how a dump writes a reference to e: `#id` for an entity
// with an id, else its path ([EntityPath]); "" for a dead or zero one.
func RefText(reg *registry.Registry, e ecs.Entity) string {
	if e.IsZero() || !reg.World().Alive(e) {
		return ""
	}
	if id := reg.EntityID(e); id != "" {
		return "#" + id
	}
	return EntityPath(reg, e)
}

// namedRefs returns vs, the values of a component of schema s, with each
// reference written as a dump writes it ([RefText]) and no handle, so
// that it compares with what a scene says (the defaults, a prefab's
// values) by its text. vs, a component's values, is copied only if it holds a reference.
func namedRefs(reg *registry.Registry, vs []any) []any {
	copied := false
	for i, v := range vs {
		var nv any
		switch r := v.(type) {
		case registry.Ref:
			nv = registry.Ref{Text: RefText(reg, r.Target)}
		case registry.Refs:
			out := make(registry.Refs, 0, len(r))
			for _, x := range r {
				if t := RefText(reg, x.Target); t != "" {
					out = append(out, registry.Ref{Text: t})
				}
			}
			nv = out
		default:
			continue
		}
		if !copied {
			vs, copied = slices.Clone(vs), true
		}
		vs[i] = nv
	}
	return vs
}
