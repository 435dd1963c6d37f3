package scenefile

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"strings"
)

// The scene model: what the readers produce and Compile consumes. The
// readers check syntax and structure only: which keys and elements
// exist, that names are well formed, that ids are unique, and that
// hostile input stays within Limits. Whether a component is registered
// and whether its values parse is checked later, against a registry.

// AxisNames names the properties of a vector written as a mapping, in order:
// x, y, z, w (position: {x: 1, y: 2, z: 3}; JSON dumps write vectors so).
const AxisNames = "xyzw"

// ValueKind tells how a component value was written.
type ValueKind uint8

const (
	// ValueEmpty is a component without a value: `enemy:` or `enemy: ""`
	// or `enemy: {}` in YAML, `enemy=""` in XML. It attaches the component
	// with its defaults (a tag if it has no properties).
	ValueEmpty ValueKind = iota
	// ValueText is an attribute string such as "0 1 -5" or "hp: 100; max: 200",
	// in ComponentSpec.Text.
	ValueText
	// ValueMap is a YAML mapping of property names to values, in ComponentSpec.Map.
	ValueMap
)

// String returns "empty", "text" or "map".
func (k ValueKind) String() string {
	switch k {
	case ValueEmpty:
		return "empty"
	case ValueText:
		return "text"
	case ValueMap:
		return "map"
	}
	return "ValueKind(?)"
}

// Document is one scene as read from a file. After [ReadFile] it also holds
// everything its includes contributed, merged in include order before the
// including file's own content; each node keeps the position (and so the
// file) it was written at.
type Document struct {
	File     string           // file the document was read from (the root file after ReadFile)
	Files    []string         // the file and every file it included, in load order
	Systems  []*ComponentSpec // scene-level system settings (the "scene" section): system name -> value
	Decls    []*Decl          // data-only component declarations
	Mixins   []*MixinSpec     // named bundles of components
	Prefabs  []*PrefabSpec    // named entity subtrees, instanced by `prefab`
	Includes []*Include       // include directives written in File itself
	Entities []*EntitySpec    // top-level entities in source order
	Pos      Pos              // position of the root mapping or <scene> element
	// Computed are the keys beside an entity's components in a JSON
	// dump that are not the format's own: the values of read-only
	// components, which their owners compute (the world transform),
	// written for information and not read. Compile checks that each
	// names a read-only component of the registry. Each name is kept
	// once, at its first place.
	Computed []*ComponentSpec

	nEntities int      // entities in the tree, including children
	lim       Limits   // the limits it was read with, which bound its compilation too (zero: defaults)
	read      [][]byte // the bytes of Files as read (of the file alone from memory)
}

// Digest returns the SHA-256 of what the document was read from: the
// names of its files and their bytes, in the order read; ok is false for
// a Document built in memory. Two reads of the same files give the same
// digest: a cache of compiled plans keys them by it.
func (d *Document) Digest() (sum [32]byte, ok bool) {
	if len(d.read) == 0 {
		return sum, false
	}
	h := sha256.New()
	for i, b := range d.read {
		name := d.File
		if i < len(d.Files) {
			name = d.Files[i]
		}
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(name)))
		h.Write(n[:])
		h.Write([]byte(name))
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	copy(sum[:], h.Sum(nil))
	return sum, true
}

// Limits returns the limits the document was read with, which bound its
// compilation too: what its prefabs may expand to (defaults for a
// Document built in memory).
func (d *Document) Limits() Limits { return d.lim.WithDefaults() }

// SetLimits sets the limits the document's compilation is bounded by
// (see [Document.Limits]), as if it had been read with them.
func (d *Document) SetLimits(l Limits) { d.lim = l.WithDefaults() }

// Count returns the number of entities the readers read in the document
// (children and includes counted; the entities of prefabs' instances
// are not, as they are not expanded yet); 0 for a Document built in
// memory.
func (d *Document) Count() int { return d.nEntities }

// EntitySpec is an entity as a scene file specifies it: its id, classes,
// mixins, components and children, with their positions. (The entity
// made from it is an [ecs.Entity]; [Scene.Entity] finds it by id.)
type EntitySpec struct {
	ID         string           // optional, unique across the scene
	IDPos      Pos              // position of the id value
	Class      []string         // class names, from a space-separated string or a list
	Mixins     []string         // mixin ids in application order
	MixinPos   Pos              // position of the mixin value
	Components []*ComponentSpec // components in source order
	Children   []*EntitySpec    // child entities in source order
	Pos        Pos              // position of the entity (first key, or the start tag)
	File       string           // file the entity was written in (same as Pos.File)
	// Instance makes the entity an instance of a prefab (nil for none;
	// see Prefab and Parts). It is a pointer so that the many entities
	// that are not instances stay small.
	Instance *InstanceSpec
}

// InstanceSpec is what makes an entity an instance of a prefab.
type InstanceSpec struct {
	// Prefab names the prefab the entity is an instance of: it gets the
	// prefab's components and whole subtree, its own components, classes
	// and mixins written over them (see docs/scene-format.md, Prefabs).
	// In a prefab's body, it makes the prefab a variant of another.
	Prefab    string
	PrefabPos Pos // position of the prefab value
	// Parts change parts of the prefab's subtree in this instance, each
	// addressed by its path inside the prefab.
	Parts []*PartSpec
}

// Prefab returns the prefab e is an instance of (Instance.Prefab), or "".
func (e *EntitySpec) Prefab() string {
	if e.Instance == nil {
		return ""
	}
	return e.Instance.Prefab
}

// PrefabPos returns the position of e's prefab value (Instance.PrefabPos).
func (e *EntitySpec) PrefabPos() Pos {
	if e.Instance == nil {
		return Pos{}
	}
	return e.Instance.PrefabPos
}

// Parts returns the changes e makes to parts of its prefab
// (Instance.Parts).
func (e *EntitySpec) Parts() []*PartSpec {
	if e.Instance == nil {
		return nil
	}
	return e.Instance.Parts
}

// instance returns e.Instance, made if e has none.
func (e *EntitySpec) instance() *InstanceSpec {
	if e.Instance == nil {
		e.Instance = &InstanceSpec{}
	}
	return e.Instance
}

// PrefabSpec is a prefab as a scene file defines it: a name and the
// body of its root entity (components, classes, mixins, children, and
// `prefab` for a variant). Inside a prefab, an `id` names a child
// within the prefab (its instances' children get the id
// "<instance id>/<name>").
type PrefabSpec struct {
	Name string
	Pos  Pos // position of the name
	Body *EntitySpec
}

// PartSpec overrides one part of an instance's prefab subtree: the
// child at Path (names inside the prefab joined by "/"; an unnamed
// child is its 0-based rank among the unnamed children of its parent).
// Body gives components, classes and mixins written over the part's, and
// children added after the part's own; it has no id, prefab or parts.
// A part that is Removed is not created, nor anything under it (its
// Body is empty): `path: removed` in YAML and JSON, <removed
// path="..."/> in XML.
type PartSpec struct {
	Path    string
	PathPos Pos
	Body    *EntitySpec
	Removed bool
}

// ComponentSpec is a component (or, in Document.Systems, a system setting)
// as written on an entity or mixin: a name and an unparsed value. (The
// component it names is a [registry.Component].)
//
// Where it is written (Pos, ValuePos) is computed from the byte spans
// its reader kept, with the file's line table: a record per component
// is a large part of what reading a big scene allocates.
type ComponentSpec struct {
	Name string    // component name, possibly "name__instance"
	Kind ValueKind // how the value was written
	// Exact says Text (or each KV.Value) is the value exactly as the
	// file's syntax gives it: any YAML scalar but null (a quoted one with
	// its spaces), any XML attribute value, any JSON string. A property
	// of type string keeps an exact value as it is, white space
	// included, and an exact empty value (`label: ""`, label="") sets it
	// to the empty string instead of leaving its default. Other types
	// parse as usual. Without Exact (a Document built in memory) values
	// are trimmed, as attribute strings are.
	Exact bool
	// Axes says Text holds the values of a JSON object {"x", "y", "z",
	// "w"}, in that order (a dump writes vectors so).
	Axes bool
	Text string // the attribute string if Kind == ValueText
	Map  []*KV  // property values in source order if Kind == ValueMap
	// List is the value written as a list (a YAML sequence, a JSON
	// array), nil for a value written otherwise: Kind is then ValueText,
	// even for an empty list (which is an empty array, not the
	// defaults), and Text is the items joined by ", ", A-Frame's text of
	// an array, which is what is parsed. Only a property of type array
	// takes a list (see [ListValue]).
	List *ListValue

	src      *Source // the file it was read from, to place errors in values
	key, val span    // where the key (attribute name) and the value are written in it
}

// keyVals are the positions of a key and its value, kept where no span
// gives them.
type keyVals struct{ key, val Pos }

// Pos returns the position of the component's key or attribute name.
func (c *ComponentSpec) Pos() Pos { return c.src.at(c.key, c, false) }

// ValuePos returns the position of the component's value (inside the
// quotes in XML).
func (c *ComponentSpec) ValuePos() Pos { return c.src.at(c.val, c, true) }

// SetPos sets the positions of the component's key and value, for a
// component that was not read with its spans (built in memory, or read
// by yaml.v3).
func (c *ComponentSpec) SetPos(key, value Pos) { c.src = c.src.keep(c, key, value) }

// KV is one property of a component value written as a mapping.
type KV struct {
	Key, Value string
	Exact      bool // the value is exact (see ComponentSpec.Exact)
	// List is the value written as a list, nil for a scalar; Value is
	// then its items joined by ", " (see [ComponentSpec.List]).
	List *ListValue

	src      *Source // the file it was read from
	key, val span    // where the key and the value are written
}

// Pos returns the position of the property's key.
func (kv *KV) Pos() Pos { return kv.src.at(kv.key, kv, false) }

// ValuePos returns the position of the property's value.
func (kv *KV) ValuePos() Pos { return kv.src.at(kv.val, kv, true) }

// SetPos sets the positions of the property's key and value, for one
// that was not read with its spans.
func (kv *KV) SetPos(key, value Pos) { kv.src = kv.src.keep(kv, key, value) }

// at returns the position sp starts at in the source, or else the one
// kept for owner (its value's if val), or the zero Pos.
func (s *Source) at(sp span, owner any, val bool) Pos {
	switch {
	case s == nil:
		return Pos{}
	case sp.ok() && !s.detached:
		return s.Pos(int(sp.off))
	}
	kv, ok := s.kept[owner]
	switch {
	case !ok:
		return Pos{}
	case val:
		return kv.val
	}
	return kv.key
}

// keep records the positions of owner's key and value where no span
// gives them (rare: records read by yaml.v3, or built in memory), in s
// or, for a record of no file, in a detached source of its own; it
// returns the source that keeps them.
func (s *Source) keep(owner any, key, value Pos) *Source {
	if s == nil {
		s = &Source{detached: true}
	}
	if s.kept == nil {
		s.kept = map[any]keyVals{}
	}
	s.kept[owner] = keyVals{key, value}
	return s
}

// span is where a key or a value is written in its file: the bytes
// [off, end), as the parser found them (a YAML value with its quotes; an
// XML value between its quotes). The zero span is none: a Document
// built in memory, or a YAML file read by yaml.v3, which gives no spans.
type span struct{ off, end int32 }

// mkSpan returns the span [off, end), or none past 32-bit offsets.
func mkSpan(off, end int) span {
	if end > math.MaxInt32 {
		return span{}
	}
	return span{int32(off), int32(end)}
}

// ok reports whether the span is known (a value's end is past the key
// before it, so never 0).
func (s span) ok() bool { return s.end > 0 }

// ListValue is a value written as a list of scalars: `[x, "y z"]` or a
// block sequence in YAML, an array of strings (or numbers, booleans) in
// JSON. It is the spelling A-Frame users give arrays in YAML; its text,
// what it parses as, is A-Frame's: the items joined by ", " (see
// [ListValue.Text]). An item that text cannot say (one holding a ',' or
// with white space at an end) is refused when the value is compiled.
type ListValue struct {
	Items []ListItem
	// Implied says the list is how its place writes every array (the
	// entities of a JSON dump): it tells nothing of how the scene writes
	// the property, and the plan does not record it (see [Lists]).
	Implied bool
}

// ListItem is one item of a [ListValue].
type ListItem struct {
	Text string // the item, as the file's syntax gives it
	Pos  Pos    // where it is written
	at   span   // its bytes in the file (none for a Document built in memory)
}

// ListKey names a property of a component (or a system): Property is ""
// for the one property of a single-property component, and Component
// the base name of a multiple component's instances ("sound" for
// sound__2).
type ListKey struct{ Component, Property string }

// Lists are the array properties a scene writes as lists, as its plan
// records them, so that an export of the scene writes them as lists
// again (see [github.com/scenecs/scenecs/loader/export.Options]).
type Lists map[ListKey]bool

// ListSep is what joins the items of a [ListValue] in its text: the
// separator of A-Frame's arrays ("a, b, c").
const ListSep = ", "

// NewList returns a list of the given items, without positions (a
// Document built in memory, such as an export).
func NewList(items []string) *ListValue {
	l := &ListValue{Items: make([]ListItem, len(items))}
	for i, t := range items {
		l.Items[i].Text = t
	}
	return l
}

// Texts returns the items' texts.
func (l *ListValue) Texts() []string {
	out := make([]string, len(l.Items))
	for i := range l.Items {
		out[i] = l.Items[i].Text
	}
	return out
}

// Text returns the list's text: its items joined by ListSep, "" for an
// empty list.
func (l *ListValue) Text() string {
	n := 0
	for i := range l.Items {
		n += len(l.Items[i].Text) + len(ListSep)
	}
	var b strings.Builder
	b.Grow(n)
	for i := range l.Items {
		if i > 0 {
			b.WriteString(ListSep)
		}
		b.WriteString(l.Items[i].Text)
	}
	return b.String()
}

// Equal reports whether two lists have the same items (nil being no
// list, unequal to an empty one).
func (l *ListValue) Equal(m *ListValue) bool {
	if l == nil || m == nil {
		return l == m
	}
	if len(l.Items) != len(m.Items) {
		return false
	}
	for i := range l.Items {
		if l.Items[i].Text != m.Items[i].Text {
			return false
		}
	}
	return true
}

// item returns the index of the item byte off of the list's text falls
// in (a separator counting with the item after it) and off inside it.
func (l *ListValue) item(off int) (int, int) {
	start := 0
	for i := range l.Items {
		end := start + len(l.Items[i].Text)
		if off <= end || i == len(l.Items)-1 {
			return i, min(max(off-start, 0), len(l.Items[i].Text))
		}
		start = end + len(ListSep)
		if off < start {
			return i + 1, 0 // in the separator: the next item's start
		}
	}
	return -1, 0
}

// MixinSpec is a mixin as a scene file specifies it: a named bundle of
// components, applied to entities that list it in `mixin`. A mixin may
// itself list mixins. ([Compile] makes a [registry.Mixin] of it.)
type MixinSpec struct {
	ID         string
	Mixins     []string // mixins this mixin builds on, in application order
	MixinPos   Pos      // position of the mixin value
	Components []*ComponentSpec
	Pos        Pos // position of the mixin id
}

// Include is an include directive: another scene file (YAML or XML) whose
// declarations, mixins, settings and entities are merged into this scene.
type Include struct {
	Path     string // as written, relative to the including file
	Resolved string // slash-separated path within the file system, set by ReadFile
	Pos      Pos    // position of the path
}

// Decl declares a data-only component: a schema without behaviour.
// A declaration with no properties is a tag.
type Decl struct {
	Name   string
	Single bool        // single-property component: Props has one entry with Name ""
	Props  []*PropDecl // properties in source order
	Pos    Pos         // position of the component name
}

// PropDecl declares one property of a data-only component. An empty Type is
// left to the registry (which may infer it from the default).
type PropDecl struct {
	Name       string // "" for a single-property component
	Type       string
	Default    string
	HasDefault bool
	// DefaultList is the default written as a list (`default: [a, b]`),
	// nil for one written otherwise; Default is then its items joined
	// by ", " (see [ComponentSpec.List]). A property declared with no
	// type and a list default is an array.
	DefaultList *ListValue
	DefaultPos  Pos      // position of the default value
	OneOf       []string // allowed values, nil if unrestricted
	Min, Max    *float64 // numeric bounds, nil if absent
	// OnDelete is the policy of a reference property (types entity and
	// entities) when its target is destroyed: clear, destroy or remove;
	// "" if not written. OnDeletePos is where its value is.
	OnDelete    string
	OnDeletePos Pos
	Pos         Pos // position of the property name (of the component name if Single)
}
