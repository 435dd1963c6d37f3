package editor

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// Entity references
//
// An entity is named the way scene-run query prints it (export.EntityPath):
// its id, or its path, 0-based child indexes from the nearest ancestor with
// an id or from the roots, joined by "/" ("ship/0", "2/1"). A reference may
// also be "#id" (as reload and change events name entities), "#id/0/1",
// or the entity's handle ("e12v0"), which stays valid while the entity
// lives even if its path changes. When a reference could mean several
// entities, an id wins.

// Resolve finds the live entity ref names in reg's World; an error is a
// [NotFound] [*Error] (an [Invalid] one for an empty reference).
func Resolve(reg *registry.Registry, ref string) (ecs.Entity, error) {
	if ref == "" {
		return ecs.Entity{}, fail(Invalid, "empty entity reference")
	}
	if e, ok := reg.EntityByID(strings.TrimPrefix(ref, "#")); ok {
		return e, nil
	}
	w := reg.World()
	segs := strings.Split(ref, "/")
	first := segs[0]
	var e ecs.Entity
	switch {
	case strings.HasPrefix(first, "#"):
		var ok bool
		if e, ok = reg.EntityByID(first[1:]); !ok {
			return e, notFound(ref, fmt.Sprintf("no entity has the id %q", first[1:]))
		}
	default:
		if x, ok := reg.EntityByID(first); ok {
			e = x
		} else if x, ok := byHandle(w, first); ok {
			e = x
		} else if i, err := strconv.Atoi(first); err == nil && i >= 0 && isIndex(first) {
			if e, ok = nth(w.Roots(), i); !ok {
				return e, notFound(ref, fmt.Sprintf("there is no root entity %d", i))
			}
		} else {
			return e, notFound(ref, fmt.Sprintf("%q is neither an entity id nor an index", first))
		}
	}
	for k, s := range segs[1:] {
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || !isIndex(s) {
			return e, notFound(ref, fmt.Sprintf("%q is not a child index", s))
		}
		c, ok := nth(w.ChildrenSeq(e), i)
		if !ok {
			return e, notFound(ref, fmt.Sprintf("%s has no child %d", strings.Join(segs[:k+1], "/"), i))
		}
		e = c
	}
	return e, nil
}

// isIndex reports whether s is written as a plain decimal index.
func isIndex(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// notFound is the error of a reference that names no entity.
func notFound(ref, why string) error { return fail(NotFound, "no entity %q: %s", ref, why) }

// nth returns the i-th entity of seq.
func nth(seq func(func(ecs.Entity) bool), i int) (ecs.Entity, bool) {
	k := 0
	for e := range seq {
		if k == i {
			return e, true
		}
		k++
	}
	return ecs.Entity{}, false
}

// byHandle finds a live entity by its handle, written as ecs.Entity's
// String does ("e12v0"). It walks the World: references by id or path are
// the fast ones.
func byHandle(w *ecs.World, s string) (ecs.Entity, bool) {
	idx, gen, ok := parseHandle(s)
	if !ok {
		return ecs.Entity{}, false
	}
	for e := range w.All() {
		if e.Index() == idx && e.Generation() == gen {
			return e, true
		}
	}
	return ecs.Entity{}, false
}

func parseHandle(s string) (idx, gen uint32, ok bool) {
	if len(s) < 4 || s[0] != 'e' {
		return 0, 0, false
	}
	a, b, found := strings.Cut(s[1:], "v")
	if !found || !isIndex(a) || !isIndex(b) {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 10, 32)
	y, err2 := strconv.ParseUint(b, 10, 32)
	return uint32(x), uint32(y), err1 == nil && err2 == nil
}

// Path returns the reference scene-run query prints for e
// ([export.EntityPath]).
func Path(reg *registry.Registry, e ecs.Entity) string { return export.EntityPath(reg, e) }

// Label names e as events do: "#id", or its path.
func Label(reg *registry.Registry, e ecs.Entity) string {
	if id := reg.EntityID(e); id != "" {
		return "#" + id
	}
	return export.EntityPath(reg, e)
}

// Labels returns the labels of many entities, the same as [Label] gives
// each, naming each parent once ([export.EntityPaths]).
func Labels(reg *registry.Registry, es []ecs.Entity) []string {
	out := export.EntityPaths(reg, es)
	for i, e := range es {
		if id := reg.EntityID(e); id != "" {
			out[i] = "#" + id
		}
	}
	return out
}
