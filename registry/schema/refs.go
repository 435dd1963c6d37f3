package schema

import (
	"reflect"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
)

// Ref is the value of an entity property: a reference to one entity. In a
// scene it is written as a selector that names one entity, `#p1`, or as
// a path such as `hangar/0` (see loader/export's EntityPath); the loader
// resolves the text to a handle once every entity of the scene exists.
// In memory it is the handle, so a tick reads it without a lookup; Text
// keeps what was written (empty when set from Go).
//
// The handle carries its generation: a reference to an entity that has
// been destroyed is never followed ([Ref.Get] reports it empty). The
// registry keeps references valid when their target is destroyed, by the
// property's [OnDelete] policy, as long as they are set through it
// (SetPatch and its helpers), not written into a component's storage
// directly.
type Ref struct {
	// Target is the entity referred to; the zero Entity when the
	// reference is empty or not yet resolved.
	Target ecs.Entity
	// Text is the reference as written in the scene (`#p1`,
	// `hangar/0`), or empty.
	Text string
}

// Refs is the value of an entities property: a list of references, in
// the order written (`"#crate1, #crate2"` or a YAML list).
type Refs []Ref

// RefTo returns a reference to e.
func RefTo(e ecs.Entity) Ref { return Ref{Target: e} }

// IsZero reports whether r neither refers to an entity nor names one.
func (r Ref) IsZero() bool { return r.Target.IsZero() && r.Text == "" }

// Get returns r's target if it is alive in w, with the same generation
// check as every handle: a stale reference reads as empty.
func (r Ref) Get(w *ecs.World) (ecs.Entity, bool) {
	if r.Target.IsZero() || !w.Alive(r.Target) {
		return ecs.Entity{}, false
	}
	return r.Target, true
}

// String returns the reference as written (its Text).
func (r Ref) String() string { return r.Text }

// Live appends to dst the targets of rs that are alive in w, in order,
// and returns dst.
func (rs Refs) Live(w *ecs.World, dst []ecs.Entity) []ecs.Entity {
	for _, r := range rs {
		if e, ok := r.Get(w); ok {
			dst = append(dst, e)
		}
	}
	return dst
}

// String returns the references as written, joined by ", ".
func (rs Refs) String() string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.Text
	}
	return strings.Join(parts, ", ")
}

// OnDelete is what happens to a reference property's holder when the
// entity it refers to is destroyed: the `onDelete` of a declaration, the
// `onDelete=` option of a `scene` struct tag.
type OnDelete uint8

// The policies. Clear is the default.
const (
	// Clear empties the reference (a list loses the entity).
	Clear OnDelete = iota
	// Destroy destroys the holder too.
	Destroy
	// Remove removes the holding component from the holder.
	Remove
)

var onDeleteNames = [...]string{"clear", "destroy", "remove"}

// String returns the policy as a scene writes it.
func (d OnDelete) String() string {
	if int(d) < len(onDeleteNames) {
		return onDeleteNames[d]
	}
	return "?"
}

// ParseOnDelete parses a policy's name: clear, destroy or remove.
func ParseOnDelete(s string) (OnDelete, bool) {
	i := slices.Index(onDeleteNames[:], s)
	return OnDelete(max(i, 0)), i >= 0
}

// IsRef reports whether t is one of the reference types, entity or
// entities.
func IsRef(t *Type) bool {
	return t != nil && (t.GoType == refGo || t.GoType == refsGo)
}

var (
	refGo  = reflect.TypeFor[Ref]()
	refsGo = reflect.TypeFor[Refs]()
)

var (
	entityType = Type{
		Name: "entity", GoType: refGo, Default: Ref{},
		Parse: parseRefValue, Print: printStringer, Equal: equalComparable,
	}
	entitiesType = Type{
		Name: "entities", GoType: refsGo, Default: Refs{},
		Parse: parseRefsValue, Print: printStringer, Equal: equalRefs,
	}
)

const refExpected = "a reference to one entity: #id or a path such as hangar/0"

// parseRefValue parses one reference: empty, `#id`, or a path.
func parseRefValue(text string, _ any) (any, error) {
	start, end := trimBounds(text)
	s := text[start:end]
	if s == "" {
		return Ref{}, nil
	}
	if off, ok := checkRefText(s); !ok {
		return nil, &ValueError{Text: s[off:], Offset: start + off, Expected: refExpected}
	}
	return Ref{Text: s}, nil
}

// parseRefsValue parses a comma-separated list of references.
func parseRefsValue(text string, _ any) (any, error) {
	start, end := trimBounds(text)
	if start == end {
		return Refs{}, nil
	}
	out := make(Refs, 0, strings.Count(text, ",")+1)
	pos := 0
	for {
		i := strings.IndexByte(text[pos:], ',')
		item := text[pos:]
		if i >= 0 {
			item = text[pos : pos+i]
		}
		s, e := trimBounds(item)
		one := item[s:e]
		if one == "" {
			return nil, &ValueError{Text: text[start:end], Offset: start, Expected: "references separated by commas, none empty"}
		}
		if off, ok := checkRefText(one); !ok {
			return nil, &ValueError{Text: one[off:], Offset: pos + s + off, Expected: refExpected}
		}
		out = append(out, Ref{Text: one})
		if i < 0 {
			return out, nil
		}
		pos += i + 1
	}
}

// checkRefText reports whether s (trimmed, not empty) is `#id` or a path:
// segments joined by "/", the first an id or a number, the others
// numbers. A path of one segment must be a number (a root's index): a
// bare name would be a tag selector, not one entity. On failure it gives
// the offset of the offending byte.
func checkRefText(s string) (int, bool) {
	if s[0] == '#' {
		if len(s) == 1 {
			return 0, false
		}
		for i := 1; i < len(s); i++ {
			if !idByte(s[i]) {
				return i, false
			}
		}
		return 0, true
	}
	segStart, digits := 0, true
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '/' {
			if i == segStart || (!digits && (segStart > 0 || i == len(s))) {
				return segStart, false
			}
			segStart, digits = i+1, true
			continue
		}
		if !idByte(s[i]) {
			return i, false
		}
		if s[i] < '0' || s[i] > '9' {
			digits = false
		}
	}
	return 0, true
}

// idByte reports whether c may appear in an entity id written in a
// reference: not a space, a comma, a slash or a selector's punctuation.
func idByte(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', '/', '#', '.', '[', ']', '(', ')', ':', '>', '+', '~', '*', '=', '"', '\'', ';':
		return false
	}
	return c >= 0x20 && c != 0x7f
}

func equalRefs(a, b any) bool {
	x, ok1 := a.(Refs)
	y, ok2 := b.(Refs)
	if !ok1 || !ok2 {
		return reflect.DeepEqual(a, b)
	}
	return slices.Equal(x, y)
}
