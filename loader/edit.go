package loader

import (
	"errors"
	"fmt"
	"slices"

	"github.com/scenecs/scenecs/registry"
)

// Editing scene files in place.
//
// EditComponent and EditRemove change one component of one entity in the
// bytes of the scene file the entity was read from, as a minimal textual
// edit at that component's own place: one property's value inside an
// attribute string, a mapping or an XML attribute is rewritten, a missing
// property or component is added next to its siblings in their style, a
// removed component's key or attribute is deleted. Comments, key order,
// quoting and layout of everything else stay byte for byte as they were.
// Reloader.PrepareSet and PrepareRemove do the same on a running scene's
// files, and write them.

// Errors of edits that cannot be saved. They are wrapped with a message
// that says why; match them with errors.Is.
var (
	// ErrNoSource: the entity has no place in a scene file (it was made
	// at run time: spawned, or created by a program or through the
	// inspector), or the component is not written in the file.
	ErrNoSource = errors.New("not written in a scene file")
	// ErrFromMixin: the component comes from a mixin, and a file cannot
	// say "this entity, without it".
	ErrFromMixin = errors.New("the component comes from a mixin")
	// ErrFromPrefab: the component comes from the entity's prefab (or a
	// variant's base), or is the prefab marker itself, and a file cannot
	// say "this instance, without it".
	ErrFromPrefab = errors.New("the component comes from a prefab")
	// ErrFileChanged: the scene's files no longer hold what the running
	// scene was loaded or reloaded from.
	ErrFileChanged = errors.New("the scene's files changed since they were loaded")
	// ErrCannotEdit: the file writes the value in a way the editor does
	// not edit (a JSON dump, YAML that the parser leaves to yaml.v3), or
	// the edit did not read back as intended; nothing is written.
	ErrCannotEdit = errors.New("cannot edit the file there")
	// ErrNotUndone: a save failed, and the change it was saving could
	// not be undone in the World (see SaveEdit.Commit).
	ErrNotUndone = errors.New("the change could not be undone in the running scene")
)

// EditComponent returns src, the bytes of the scene file (YAML or XML)
// that ent was read from, with the properties attr gives written into
// ent's component name, whose schema is sch. attr is an attribute string
// as a scene file or the inspector's PUT takes it ("hp: 5", "1 2 3", ""
// for a tag or to add the component with its defaults). Where ent writes
// the component, each property is written at its place: inside its
// attribute string, as its mapping entry or XML attribute, or added to
// them in their style; properties attr does not give are left as
// written. Where ent does not write it (it comes from a mixin or a
// default, or is new), it is added to ent's own components, in ent's
// style: a key at ent's indentation after its last component (YAML), an
// attribute after the last one (XML).
//
// The edit is checked by reading the result back: it must read, give the
// component the values asked for, and leave every other value of the file
// as it was; otherwise the error wraps ErrCannotEdit and nothing is
// returned. Values are quoted and escaped for their place (YAML plain
// scalars that would need quotes get double quotes, an existing quote
// style is kept where it can write the value; XML escapes &, <, and the
// attribute's quote).
func EditComponent(src []byte, ent *EntitySpec, name string, sch *registry.Schema, attr string) ([]byte, error) {
	if ent == nil || sch == nil {
		return nil, fmt.Errorf("loader: EditComponent: no entity or schema")
	}
	props, err := attrProps(sch, name, attr)
	if err != nil {
		return nil, err
	}
	return editComponentChecked(src, ent, name, sch, props)
}

// editComponentChecked is EditComponent with the properties parsed.
func editComponentChecked(src []byte, ent *EntitySpec, name string, sch *registry.Schema, props []propEdit) ([]byte, error) {
	out, err := editComponent(src, ent, name, sch, props)
	if err != nil {
		return nil, err
	}
	if err := verifyEdit(src, out, ent, name, setCheck(sch, props)); err != nil {
		return nil, err
	}
	return out, nil
}

// setCheck returns the check verifyEdit makes of a component whose
// properties props were set: it is there, and every property of it reads
// as before but those set, which read as asked.
func setCheck(sch *registry.Schema, props []propEdit) func(old, new []*ComponentSpec) error {
	return func(old, new []*ComponentSpec) error {
		if len(new) == 0 {
			return fmt.Errorf("the component is missing")
		}
		want, err := parseComponents(old, sch)
		if err != nil {
			return err
		}
		got, err := parseComponents(new, sch)
		if err != nil {
			return err
		}
		return sameValues(sch, withProps(want, sch, props), got)
	}
}

// editComponent is EditComponent without the check.
func editComponent(src []byte, ent *EntitySpec, name string, sch *registry.Schema, props []propEdit) ([]byte, error) {
	comps := ownComponents(ent, name)
	var ops []rawOp
	var err error
	switch FormatOf(ent.File) {
	case FormatYAML:
		if len(comps) > 1 {
			return nil, fmt.Errorf("%s: %s is written twice: %w", comps[1].Pos, name, ErrCannotEdit)
		}
		var c *ComponentSpec
		if len(comps) == 1 {
			c = comps[0]
		}
		var y *yamlEditor
		if y, err = newYAMLEditor(ent.File, src); err == nil {
			ops, err = y.setComponent(ent, name, c, sch, props)
		}
	case FormatXML:
		ops, err = newXMLEditor(ent.File, src).setComponent(ent, name, comps, sch, props)
	default:
		return nil, fmt.Errorf("%s: saving into %s files is not supported: %w", ent.Pos, formatName(ent.File), ErrCannotEdit)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	return applyEdit(src, ent, ops)
}

// withProps returns values with the properties props set (parsed).
func withProps(values map[int]any, sch *registry.Schema, props []propEdit) map[int]any {
	for _, p := range props {
		if v, err := sch.Props[p.index].Parse(p.text); err == nil {
			values[p.index] = v
		}
	}
	return values
}

// EditRemove returns src, the bytes of the scene file that ent was read
// from, without ent's component name: its key and value (YAML, with the
// lines they take) or its attributes (XML: name and name.prop), with the
// white space before them. The result is checked as EditComponent's is.
// A component ent does not write is an error wrapping ErrNoSource.
func EditRemove(src []byte, ent *EntitySpec, name string) ([]byte, error) {
	if ent == nil {
		return nil, fmt.Errorf("loader: EditRemove: no entity")
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

// removeCheck is the check verifyEdit makes of a removed component.
func removeCheck(old, new []*ComponentSpec) error {
	if len(new) > 0 {
		return fmt.Errorf("the component is still there")
	}
	return nil
}

// editRemove is EditRemove without the check.
func editRemove(src []byte, ent *EntitySpec, name string) ([]byte, error) {
	comps := ownComponents(ent, name)
	if len(comps) == 0 {
		return nil, fmt.Errorf("%s: the entity does not write %s: %w", ent.Pos, name, ErrNoSource)
	}
	var ops []rawOp
	switch FormatOf(ent.File) {
	case FormatYAML:
		y, err := newYAMLEditor(ent.File, src)
		if err == nil {
			ops, err = y.removeComponent(ent, name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
		}
	case FormatXML:
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
func applyEdit(src []byte, ent *EntitySpec, ops []rawOp) ([]byte, error) {
	out, err := applyRaw(src, ops)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	return out, nil
}

func formatName(file string) string {
	switch FormatOf(file) {
	case FormatJSON:
		return "JSON"
	case FormatYAML:
		return "YAML"
	case FormatXML:
		return "XML"
	}
	return "unknown"
}

// ownComponents returns the components ent writes under name, in order
// (several in XML: name and name.prop attributes).
func ownComponents(ent *EntitySpec, name string) []*ComponentSpec {
	var out []*ComponentSpec
	for _, c := range ent.Components {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// attrProps returns the properties an attribute string gives, each once
// (the last value of a repeated one, at its first place), with their
// text as written, trimmed.
func attrProps(sch *registry.Schema, name, attr string) ([]propEdit, error) {
	if _, err := sch.ParseAttr(name, attr); err != nil {
		return nil, err
	}
	switch {
	case sch.IsTag():
		return nil, nil
	case sch.Single():
		// Even empty: the empty string for a string, the default for
		// other types.
		a, b := trimSpan(attr, 0, len(attr))
		return []propEdit{{0, attr[a:b]}}, nil
	}
	pairs, err := splitAttrPairs(attr)
	if err != nil {
		return nil, err
	}
	var out []propEdit
	for _, p := range pairs {
		idx, _ := sch.Lookup(p.key)
		v := attr[p.valStart:p.valEnd]
		if i := slices.IndexFunc(out, func(q propEdit) bool { return q.index == idx }); i >= 0 {
			out[i].text = v
			continue
		}
		out = append(out, propEdit{idx, v})
	}
	return out, nil
}

// parseComponents parses the values an entity writes for one component
// (several XML attributes compose, later ones winning), as compiling
// does, to property index -> value.
func parseComponents(comps []*ComponentSpec, sch *registry.Schema) (map[int]any, error) {
	c := &compiler{errs: &errorSink{max: 10}}
	for i := range sch.Props {
		if sch.Props[i].Type.Name == "string" {
			c.strType = sch.Props[i].Type
		}
	}
	out := map[int]any{}
	for _, comp := range comps {
		p, ok := c.parseValue(comp, sch)
		if !ok {
			return nil, c.errs.list
		}
		for _, pv := range p {
			out[pv.Index] = pv.Value
		}
	}
	return out, nil
}

// sameValues reports whether two parsed components are equal, a
// property not given counting as its default.
func sameValues(sch *registry.Schema, want, got map[int]any) error {
	for i := range sch.Props {
		p := &sch.Props[i]
		w, ok := want[i]
		if !ok {
			w = p.Default
		}
		g, ok := got[i]
		if !ok {
			g = p.Default
		}
		if !p.Type.Equal(w, g) {
			return fmt.Errorf("property %q reads back as %q, want %q", p.Name, p.Print(g), p.Print(w))
		}
	}
	return nil
}

// verifyEdit reads the file before and after an edit of ent's component
// name and checks that they differ only there: every other entity (its
// id, classes, mixins, prefab and parts, components and children),
// component of ent, mixin, prefab, declaration, setting and include
// reads the same, and check accepts the component's values before and
// after.
func verifyEdit(before, after []byte, ent *EntitySpec, name string, check func(old, new []*ComponentSpec) error) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s: the edit of %s did not read back as intended (%s); nothing written: %w",
			ent.Pos, ent.File, name, fmt.Sprintf(format, args...), ErrCannotEdit)
	}
	lim := Limits{MaxBytes: int64(max(len(before), len(after))) + 1, MaxDepth: 1 << 20, MaxEntities: 1 << 30, MaxErrors: 10}
	od, err := Read(ent.File, before, lim)
	if err != nil {
		return fail("the file does not read: %v", err)
	}
	nd, err := Read(ent.File, after, lim)
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
	target Pos
	name   string
	check  func(old, new []*ComponentSpec) error
	found  bool
}

// entities returns what differs between two lists of entities, or "".
func (c *docCompare) entities(a, b []*EntitySpec) string {
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
func (c *docCompare) entity(x, y *EntitySpec, scene bool) string {
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
func docHeadDiff(a, b *Document) string {
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
func sameDecls(a, b []*Decl) bool {
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
			if p.Name != q.Name || p.Type != q.Type || p.Default != q.Default || p.HasDefault != q.HasDefault ||
				!slices.Equal(p.OneOf, q.OneOf) || !sameBound(p.Min, q.Min) || !sameBound(p.Max, q.Max) {
				return false
			}
		}
	}
	return true
}

// sameComponents reports whether two lists of components are written
// the same, those named skip left out.
func sameComponents(a, b []*ComponentSpec, skip string) bool {
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
		if x.Name != y.Name || x.Kind != y.Kind || x.Exact != y.Exact || x.Text != y.Text || len(x.Map) != len(y.Map) {
			return false
		}
		for k, kv := range x.Map {
			lv := y.Map[k]
			if kv.Key != lv.Key || kv.Value != lv.Value || kv.Exact != lv.Exact {
				return false
			}
		}
		i++
		j++
	}
}
