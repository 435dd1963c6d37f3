package schema

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
)

// Mixin is a named, reusable set of component values (A-Frame's
// <a-mixin>). An entity that lists mixins gets their components; per
// property, the entity's own value beats the right-most mixin's, which
// beats those to its left, which beat the defaults. A mixin may itself
// list mixins, expanded before it.
type Mixin struct {
	// ID names the mixin, as entities list it.
	ID string
	// Mixins are the mixins it lists, expanded before it.
	Mixins []string
	// Components are its own component values.
	Components []NamedPatch
}

// NamedPatch is a component name (or instance name) with the property
// values given for it.
type NamedPatch struct {
	Name  string
	Patch Patch
}

// A MixinError reports a mixin list that cannot be expanded: a mixin that
// is not defined, or a cycle.
type MixinError struct {
	// Unknown is the id of a mixin that is not defined; "" for a cycle.
	Unknown string
	// From is the mixin whose list names Unknown; "" when the list given
	// to the expansion names it.
	From string
	// Suggest is, for an unknown mixin, the nearest defined id, or "".
	// ExpandMixinsFunc and CheckMixins leave it to the caller, who knows
	// the defined ids.
	Suggest string
	// Cycle holds, for a cycle, its mixins in order, starting with the
	// one the expansion reached first; the last one lists the first.
	Cycle []string
}

// cycleShown is how many ids of a cycle an error message shows at each
// end, a longer cycle being shortened in the middle.
const cycleShown = 3

// Error returns `unknown mixin "fo" (did you mean "foo"?)`, `mixin "a":
// unknown mixin "fo"` (From set), `mixin cycle: a -> b -> a`, or for a
// cycle of more than 6 mixins `mixin cycle of 2000 mixins: m1 -> m2 -> m3
// -> ... -> m1999 -> m2000 -> m1`.
func (e *MixinError) Error() string {
	if e.Cycle == nil {
		var b strings.Builder
		if e.From != "" {
			fmt.Fprintf(&b, "mixin %q: ", e.From)
		}
		fmt.Fprintf(&b, "unknown mixin %q", e.Unknown)
		b.WriteString(didyoumean.Phrase(e.Suggest))
		return b.String()
	}
	ids := append(slices.Clip(e.Cycle), e.Cycle[0])
	if len(e.Cycle) <= 2*cycleShown {
		return "mixin cycle: " + strings.Join(ids, " -> ")
	}
	head := strings.Join(ids[:cycleShown], " -> ")
	tail := strings.Join(ids[len(ids)-cycleShown:], " -> ")
	return fmt.Sprintf("mixin cycle of %d mixins: %s -> ... -> %s", len(e.Cycle), head, tail)
}

// ExpandMixinsFunc is the expansion of a list of mixin ids over any set of mixins, lookup
// finding a mixin by id: the one expansion the registry
// (its Mixins, the spawner) and the loader (scenes, before they
// are built) share, so that both compose alike. It stops at the first problem,
// a [*MixinError] (with no Suggest). It takes time linear in the number of
// mixins reached and of the ids they list, whatever their nesting.
func ExpandMixinsFunc(ids []string, lookup func(id string) (*Mixin, bool)) ([]*Mixin, error) {
	var err *MixinError
	out := walkMixins(ids, lookup, func(e *MixinError) bool { err = e; return false })
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CheckMixins checks every mixin ids reach, each once, in time linear in
// the number of mixins and of the ids they list, and calls report for
// each problem, once: each id a reached mixin lists that lookup does not
// find (From names that mixin; an id of ids itself has From ""), and each
// cycle, found where the walk first closes it (Suggest is left empty).
// Pass every defined id to check a whole set of mixins.
func CheckMixins(ids []string, lookup func(id string) (*Mixin, bool), report func(*MixinError)) {
	walkMixins(ids, lookup, func(e *MixinError) bool { report(e); return true })
}

// mixinFrame is a mixin being expanded: the index of the next id of its
// list to visit.
type mixinFrame struct {
	id   string
	m    *Mixin
	next int
}

// walkMixins is the depth-first walk behind ExpandMixinsFunc and
// CheckMixins, without recursion (a chain of a million mixins needs no
// deep stack). It returns the mixins in post-order, each once; it calls
// report for each problem, stopping at once if report returns false (and
// returning nil). A cycle is found in O(1) per edge: each mixin's state is
// either unvisited, on the stack (with its place on it), or done.
func walkMixins(ids []string, lookup func(string) (*Mixin, bool), report func(*MixinError) bool) []*Mixin {
	const done = -1
	state := make(map[string]int) // 0 unvisited, >0 stack index+1, done
	var stack []mixinFrame
	var out []*Mixin
	enter := func(id, from string) bool {
		switch st := state[id]; {
		case st == done:
			return true
		case st > 0:
			cyc := make([]string, 0, len(stack)-st+1)
			for _, f := range stack[st-1:] {
				cyc = append(cyc, f.id)
			}
			return report(&MixinError{Cycle: cyc})
		}
		m, ok := lookup(id)
		if !ok {
			return report(&MixinError{Unknown: id, From: from})
		}
		stack = append(stack, mixinFrame{id: id, m: m})
		state[id] = len(stack)
		return true
	}
	for _, root := range ids {
		if !enter(root, "") {
			return nil
		}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.m.Mixins) {
				sub, from := top.m.Mixins[top.next], top.id
				top.next++
				if !enter(sub, from) {
					return nil
				}
				continue
			}
			state[top.id] = done
			out = append(out, top.m)
			stack = stack[:len(stack)-1]
		}
	}
	return out
}
