package live

import (
	"errors"
	"fmt"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
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
// Saver.PrepareSet and PrepareRemove do the same on a running scene's
// files, and write them.

// Errors of edits that cannot be saved. They are wrapped with a message
// that says why; match them with errors.Is.
var (
	// ErrNoSource: the entity has no place in a scene file (it was made
	// at run time: spawned, or created by a program or through the
	// inspector), or the component is not written in the file.
	ErrNoSource = edit.ErrNoSource
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
	ErrCannotEdit = edit.ErrCannotEdit
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
func EditComponent(src []byte, ent *scenefile.EntitySpec, name string, sch *registry.Schema, attr string) ([]byte, error) {
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
func editComponentChecked(src []byte, ent *scenefile.EntitySpec, name string, sch *registry.Schema, props []edit.Prop) ([]byte, error) {
	return edit.SetComponent(src, ent, name, editSchema(sch), props, setCheck(sch, props))
}

// editSchema is what the editor needs of sch.
func editSchema(sch *registry.Schema) edit.Schema {
	names := make([]string, len(sch.Props))
	for i := range sch.Props {
		names[i] = sch.Props[i].Name
	}
	return edit.Schema{Props: names, Lookup: sch.Lookup}
}

// setCheck returns the check verifyEdit makes of a component whose
// properties props were set: it is there, and every property of it reads
// as before but those set, which read as asked.
func setCheck(sch *registry.Schema, props []edit.Prop) edit.Check {
	return func(old, new []*scenefile.ComponentSpec) error {
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

// withProps returns values with the properties props set (parsed).
func withProps(values map[int]any, sch *registry.Schema, props []edit.Prop) map[int]any {
	for _, p := range props {
		if v, err := sch.Props[p.Index].Parse(p.Text); err == nil {
			values[p.Index] = v
		}
	}
	return values
}

// EditRemove returns src, the bytes of the scene file that ent was read
// from, without ent's component name (see [edit.RemoveComponent]). A
// component ent does not write is an error wrapping ErrNoSource.
func EditRemove(src []byte, ent *scenefile.EntitySpec, name string) ([]byte, error) {
	return edit.RemoveComponent(src, ent, name)
}

// attrProps returns the properties an attribute string gives, each once
// (the last value of a repeated one, at its first place), with their
// text as written, trimmed; an attribute string the schema refuses is an
// error.
func attrProps(sch *registry.Schema, name, attr string) ([]edit.Prop, error) {
	if _, err := sch.ParseAttr(name, attr); err != nil {
		return nil, err
	}
	return edit.Props(editSchema(sch), attr)
}

// parseComponents parses the values an entity writes for one component
// (several XML attributes compose, later ones winning), as compiling
// does, to property index -> value.
func parseComponents(comps []*scenefile.ComponentSpec, sch *registry.Schema) (map[int]any, error) {
	out := map[int]any{}
	for _, comp := range comps {
		p, err := plan.ParseValue(comp, sch)
		if err != nil {
			return nil, err
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
