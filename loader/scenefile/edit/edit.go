package edit

import (
	"errors"
	"fmt"
	"slices"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// Errors of edits that cannot be made. They are wrapped with a message
// that says why; match them with errors.Is.
var (
	// ErrNoSource: the entity does not write the component (it comes
	// from a mixin or a default, or is not there).
	ErrNoSource = errors.New("not written in a scene file")
	// ErrCannotEdit: the file writes the value in a way the editor does
	// not edit (a JSON dump, YAML that the parser leaves to yaml.v3), or
	// the edit did not read back as intended; nothing is returned.
	ErrCannotEdit = errors.New("cannot edit the file there")
)

// Schema is what an edit knows of a component's schema: the names of
// its properties by index ("" for the one property of a single-property
// component, whose value is written bare: "1 2 3"; none for a tag), and
// how a name as written finds its property (nil: the exact name).
type Schema struct {
	Props  []string
	Lookup func(name string) (int, bool)
}

// Single reports whether the component has one unnamed property.
func (s Schema) Single() bool { return len(s.Props) == 1 && s.Props[0] == "" }

// IsTag reports whether the component has no properties.
func (s Schema) IsTag() bool { return len(s.Props) == 0 }

// lookup finds the property a name as written names.
func (s Schema) lookup(name string) (int, bool) {
	if s.Lookup != nil {
		return s.Lookup(name)
	}
	i := slices.Index(s.Props, name)
	return i, i >= 0
}

// Prop is one property to write: its index in the Schema and its value
// as text (as an attribute string writes it, trimmed).
type Prop struct {
	Index int
	Text  string
}

// Check judges an edited component: old and new are what the entity
// writes for it before and after the edit (several XML attributes, or
// none), as read back; a non-nil error refuses the edit.
type Check func(old, new []*scenefile.ComponentSpec) error

// SetComponent returns src, the bytes of the scene file (YAML or XML)
// that ent was read from, with props written into ent's component name,
// whose schema is sch. Where ent writes the component, each property is
// written at its place: inside its attribute string, as its mapping
// entry or XML attribute, or added to them in their style; properties
// props does not give are left as written. Where ent does not write it
// (it comes from a mixin or a default, or is new), it is added to ent's
// own components, in ent's style: a key at ent's indentation after its
// last component (YAML), an attribute after the last one (XML). No
// props, for a component ent writes: nothing changes.
//
// The edit is checked by reading the result back: it must read, leave
// every other value of the file as it was, and check must accept the
// component before and after; otherwise the error wraps ErrCannotEdit
// (or check's error) and nothing is returned. Values are quoted and
// escaped for their place (YAML plain scalars that would need quotes get
// double quotes, an existing quote style is kept where it can write the
// value; XML escapes &, <, and the attribute's quote).
func SetComponent(src []byte, ent *scenefile.EntitySpec, name string, sch Schema, props []Prop, check Check) ([]byte, error) {
	if ent == nil {
		return nil, fmt.Errorf("edit: SetComponent: no entity")
	}
	out, err := editComponent(src, ent, name, sch, props)
	if err != nil {
		return nil, err
	}
	if err := verifyEdit(src, out, ent, name, check); err != nil {
		return nil, err
	}
	return out, nil
}

// RemoveComponent returns src, the bytes of the scene file that ent was
// read from, without ent's component name: its key and value (YAML, with
// the lines they take) or its attributes (XML: name and name.prop), with
// the white space before them. The result is checked as SetComponent's
// is. A component ent does not write is an error wrapping ErrNoSource.
func RemoveComponent(src []byte, ent *scenefile.EntitySpec, name string) ([]byte, error) {
	if ent == nil {
		return nil, fmt.Errorf("edit: RemoveComponent: no entity")
	}
	out, err := editRemove(src, ent, name)
	if err != nil {
		return nil, err
	}
	if err := verifyEdit(src, out, ent, name, removeCheck); err != nil {
		return nil, err
	}
	return out, nil
}

// Verify reads before and after, the bytes of ent's file before and
// after an edit of its component name, and checks that they say the
// same but for that component, which check judges: every other entity
// (its id, classes, mixins, prefab and parts, components and children),
// component of ent, mixin, prefab, declaration, setting and include
// reads the same. Otherwise the error wraps ErrCannotEdit.
func Verify(before, after []byte, ent *scenefile.EntitySpec, name string, check Check) error {
	return verifyEdit(before, after, ent, name, check)
}

// Owns returns the components ent writes under name, in order (several
// in XML: name and name.prop attributes).
func Owns(ent *scenefile.EntitySpec, name string) []*scenefile.ComponentSpec {
	return ownComponents(ent, name)
}

// editComponent is EditComponent without the check.
func editComponent(src []byte, ent *scenefile.EntitySpec, name string, sch Schema, props []Prop) ([]byte, error) {
	comps := ownComponents(ent, name)
	var ops []rawOp
	var err error
	switch scenefile.FormatOf(ent.File) {
	case scenefile.FormatYAML:
		if len(comps) > 1 {
			return nil, fmt.Errorf("%s: %s is written twice: %w", comps[1].Pos(), name, ErrCannotEdit)
		}
		var c *scenefile.ComponentSpec
		if len(comps) == 1 {
			c = comps[0]
		}
		var y *yamlEditor
		if y, err = newYAMLEditor(ent.File, src); err == nil {
			ops, err = y.setComponent(ent, name, c, sch, props)
		}
	case scenefile.FormatXML:
		ops, err = newXMLEditor(ent.File, src).setComponent(ent, name, comps, sch, props)
	default:
		return nil, fmt.Errorf("%s: saving into %s files is not supported: %w", ent.Pos, formatName(ent.File), ErrCannotEdit)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	return applyEdit(src, ent, ops)
}

// removeCheck is the check verifyEdit makes of a removed component.
func removeCheck(old, new []*scenefile.ComponentSpec) error {
	if len(new) > 0 {
		return fmt.Errorf("the component is still there")
	}
	return nil
}

// editRemove is EditRemove without the check.
func editRemove(src []byte, ent *scenefile.EntitySpec, name string) ([]byte, error) {
	comps := ownComponents(ent, name)
	if len(comps) == 0 {
		return nil, fmt.Errorf("%s: the entity does not write %s: %w", ent.Pos, name, ErrNoSource)
	}
	var ops []rawOp
	switch scenefile.FormatOf(ent.File) {
	case scenefile.FormatYAML:
		y, err := newYAMLEditor(ent.File, src)
		if err == nil {
			ops, err = y.removeComponent(ent, name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
		}
	case scenefile.FormatXML:
		var err error
		ops, err = newXMLEditor(ent.File, src).removeComponent(ent, name)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
		}
	default:
		return nil, fmt.Errorf("%s: saving into %s files is not supported: %w", ent.Pos, formatName(ent.File), ErrCannotEdit)
	}
	return applyEdit(src, ent, ops)
}

// applyEdit applies the ops of an edit of ent.
func applyEdit(src []byte, ent *scenefile.EntitySpec, ops []rawOp) ([]byte, error) {
	out, err := applyRaw(src, ops)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	return out, nil
}

func formatName(file string) string {
	switch scenefile.FormatOf(file) {
	case scenefile.FormatJSON:
		return "JSON"
	case scenefile.FormatYAML:
		return "YAML"
	case scenefile.FormatXML:
		return "XML"
	}
	return "unknown"
}

// ownComponents returns the components ent writes under name, in order
// (several in XML: name and name.prop attributes).
func ownComponents(ent *scenefile.EntitySpec, name string) []*scenefile.ComponentSpec {
	var out []*scenefile.ComponentSpec
	for _, c := range ent.Components {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// verifyEdit reads the file before and after an edit of ent's component
// name and checks that they differ only there: every other entity (its
// id, classes, mixins, prefab and parts, components and children),
// component of ent, mixin, prefab, declaration, setting and include
// reads the same, and check accepts the component's values before and
// after.
func verifyEdit(before, after []byte, ent *scenefile.EntitySpec, name string, check func(old, new []*scenefile.ComponentSpec) error) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s: the edit of %s did not read back as intended (%s); nothing written: %w",
			ent.Pos, ent.File, name, fmt.Sprintf(format, args...), ErrCannotEdit)
	}
	lim := scenefile.Limits{MaxBytes: int64(max(len(before), len(after))) + 1, MaxDepth: 1 << 20, MaxEntities: 1 << 30, MaxErrors: 10}
	od, err := scenefile.Read(ent.File, before, lim)
	if err != nil {
		return fail("the file does not read: %v", err)
	}
	nd, err := scenefile.Read(ent.File, after, lim)
	if err != nil {
		return fail("%v", err)
	}
	if msg := docHeadDiff(od, nd); msg != "" {
		return fail("%s changed", msg)
	}
	c := &docCompare{target: ent.Pos, name: name, check: check}
	if msg := c.entities(od.Entities, nd.Entities); msg != "" {
		return fail("%s", msg)
	}
	if !c.found {
		return fail("the entity is not in the file")
	}
	return nil
}

// docCompare compares the entities of two readings of a file, but for
// component name of the entity at target, which check judges.
type docCompare struct {
	target scenefile.Pos
	name   string
	check  func(old, new []*scenefile.ComponentSpec) error
	found  bool
}

// entities returns what differs between two lists of entities, or "".
func (c *docCompare) entities(a, b []*scenefile.EntitySpec) string {
	if len(a) != len(b) {
		return "the entities changed"
	}
	for i := range a {
		if msg := c.entity(a[i], b[i], true); msg != "" {
			return msg
		}
	}
	return ""
}

// entity returns what differs between two readings of an entity (or a
// prefab's or part's body, which is never the target: scene entities
// only), or "".
func (c *docCompare) entity(x, y *scenefile.EntitySpec, scene bool) string {
	skip := ""
	if scene && x.Pos == c.target {
		c.found = true
		skip = c.name
		if err := c.check(ownComponents(x, c.name), ownComponents(y, c.name)); err != nil {
			return err.Error()
		}
	}
	if x.ID != y.ID || !slices.Equal(x.Class, y.Class) || !slices.Equal(x.Mixins, y.Mixins) ||
		x.Prefab() != y.Prefab() || len(x.Parts()) != len(y.Parts()) || !sameComponents(x.Components, y.Components, skip) {
		return fmt.Sprintf("entity at %s changed", x.Pos)
	}
	for i, p := range x.Parts() {
		q := y.Parts()[i]
		if p.Path != q.Path {
			return fmt.Sprintf("part %q of the entity at %s changed", p.Path, x.Pos)
		}
		if msg := c.entity(p.Body, q.Body, false); msg != "" {
			return msg
		}
	}
	if len(x.Children) != len(y.Children) {
		return fmt.Sprintf("the children of the entity at %s changed", x.Pos)
	}
	for i := range x.Children {
		if msg := c.entity(x.Children[i], y.Children[i], scene); msg != "" {
			return msg
		}
	}
	return ""
}

// docHeadDiff returns what differs between the settings, declarations,
// mixins, prefabs and includes of two documents ("the settings", ...),
// or "".
func docHeadDiff(a, b *scenefile.Document) string {
	switch {
	case !sameComponents(a.Systems, b.Systems, ""):
		return "the settings"
	case !sameDecls(a.Decls, b.Decls):
		return "the declarations"
	case len(a.Mixins) != len(b.Mixins):
		return "the mixins"
	case len(a.Prefabs) != len(b.Prefabs):
		return "the prefabs"
	case len(a.Includes) != len(b.Includes):
		return "the includes"
	}
	for i, m := range a.Mixins {
		n := b.Mixins[i]
		if m.ID != n.ID || !slices.Equal(m.Mixins, n.Mixins) || !sameComponents(m.Components, n.Components, "") {
			return fmt.Sprintf("mixin %q", m.ID)
		}
	}
	c := &docCompare{}
	for i, p := range a.Prefabs {
		q := b.Prefabs[i]
		if p.Name != q.Name || c.entity(p.Body, q.Body, false) != "" {
			return fmt.Sprintf("prefab %q", p.Name)
		}
	}
	for i, inc := range a.Includes {
		if inc.Path != b.Includes[i].Path {
			return "the includes"
		}
	}
	return ""
}

// sameDecls reports whether two lists of declarations say the same.
func sameDecls(a, b []*scenefile.Decl) bool {
	if len(a) != len(b) {
		return false
	}
	for i, d := range a {
		e := b[i]
		if d.Name != e.Name || d.Single != e.Single || len(d.Props) != len(e.Props) {
			return false
		}
		for j, p := range d.Props {
			q := e.Props[j]
			if p.Name != q.Name || p.Type != q.Type || p.Default != q.Default || p.HasDefault != q.HasDefault || !p.DefaultList.Equal(q.DefaultList) ||
				!slices.Equal(p.OneOf, q.OneOf) || !sameBoundPtr(p.Min, q.Min) || !sameBoundPtr(p.Max, q.Max) {
				return false
			}
		}
	}
	return true
}

// sameComponents reports whether two lists of components are written
// the same, those named skip left out.
func sameComponents(a, b []*scenefile.ComponentSpec, skip string) bool {
	i, j := 0, 0
	for {
		for i < len(a) && a[i].Name == skip && skip != "" {
			i++
		}
		for j < len(b) && b[j].Name == skip && skip != "" {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		x, y := a[i], b[j]
		if x.Name != y.Name || x.Kind != y.Kind || x.Exact != y.Exact || x.Text != y.Text || !x.List.Equal(y.List) || len(x.Map) != len(y.Map) {
			return false
		}
		for k, kv := range x.Map {
			lv := y.Map[k]
			if kv.Key != lv.Key || kv.Value != lv.Value || kv.Exact != lv.Exact || !kv.List.Equal(lv.List) {
				return false
			}
		}
		i++
		j++
	}
}

// sameBoundPtr reports whether two optional bounds are equal.
func sameBoundPtr(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
