package loader

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Applying an instance's value to its prefab, saved: the prefab's body
// in the scene file gets the value (EditComponent on the prefab's own
// entity spec, the same minimal edit as a component's save-back), and
// the edit is applied to the running scene through the hot-reload path
// (Commit applies the diff): every instance that does not write that
// component itself follows. Undo swaps the bytes back the same way.
//
// This file belongs with the scene-file editing code (scenefile/edit
// once loader is split into layers).

// PrepareApplyPrefab prepares setting the properties attr gives on
// component name of prefab's body in the scene file. Commit writes it
// and applies the diff to the running scene: the prefab and its
// instances change (their hooks run). The edited scene must change that
// prefab (and the prefabs and instances made from it), that component
// alone; anything else is refused (ErrCannotEdit), as are files edited
// and not reloaded (ErrFileChanged) and read-only ones (ErrReadOnly).
func (r *Reloader) PrepareApplyPrefab(prefab, name, attr string) (*SaveEdit, error) {
	sc := r.Scene
	var body *EntitySpec
	for _, ps := range sc.Plan.Doc.Prefabs {
		if ps.Name == prefab {
			body = ps.Body
		}
	}
	if body == nil || !body.Pos.IsValid() {
		return nil, fmt.Errorf("prefab %q is not written in the scene's main file (an included file's prefab is not edited): %w", prefab, ErrNoSource)
	}
	c, _, err := sc.Registry.Lookup(name)
	if err != nil {
		return nil, err
	}
	path := scenePath(r.File, body.File)
	src, err := r.currentBytes(path, body)
	if err != nil {
		return nil, err
	}
	out, err := editPrefabComponent(src, body, prefab, name, c.Schema, attr)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := onlyPrefabComponent(d, prefab, name); err != nil {
		return nil, fmt.Errorf("%s: the edit of prefab %s would change more than its %s (%v); nothing saved: %w", body.Pos, prefab, name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: body.File, Pos: body.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.read}, nil
}

// PrepareSwapPrefab prepares writing to into the file at path, which must
// hold from now: the undo or redo of PrepareApplyPrefab. Commit writes it
// and the instances follow.
func (r *Reloader) PrepareSwapPrefab(prefab, name, path string, from, to []byte) (*SaveEdit, error) {
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyPrefabComponent(d, prefab, name); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than prefab %s's %s (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, prefab, name, err, ErrFileChanged)
	}
	return s, nil
}

// onlyPrefabComponent checks that d changes prefab (and what is made from
// it: Diff.Prefabs lists "NAME (changed)") and, on entities, component
// name alone.
func onlyPrefabComponent(d *Diff, prefab, name string) error {
	if !slices.Contains(d.Prefabs, prefab+" (changed)") || len(d.Created)+len(d.Destroyed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins) > 0 {
		return errors.New(d.String())
	}
	for _, c := range d.Changed {
		if c.Classes {
			return errors.New(d.String())
		}
		for _, a := range append(slices.Clone(c.Added), c.Removed...) {
			if a != name {
				return errors.New(d.String())
			}
		}
		for k := range c.Props {
			if k != name {
				return errors.New(d.String())
			}
		}
	}
	return nil
}

// editPrefabComponent is EditComponent on a prefab's body: the same
// minimal edit, read back to check that the file says what it said but
// for the properties asked of that component of that prefab.
func editPrefabComponent(src []byte, body *EntitySpec, prefab, name string, sch *registry.Schema, attr string) ([]byte, error) {
	props, err := attrProps(sch, name, attr)
	if err != nil {
		return nil, err
	}
	out, err := editComponent(src, body, name, sch, props)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: the edit of %s of prefab %s did not read back as intended (%s); nothing written: %w",
			body.Pos, name, prefab, fmt.Sprintf(format, args...), ErrCannotEdit)
	}
	lim := Limits{MaxBytes: int64(max(len(src), len(out))) + 1, MaxDepth: 1 << 20, MaxEntities: 1 << 30, MaxErrors: 10}
	od, err := Read(body.File, src, lim)
	if err != nil {
		return nil, fail("the file does not read: %v", err)
	}
	nd, err := Read(body.File, out, lim)
	if err != nil {
		return nil, fail("%v", err)
	}
	if len(od.Prefabs) != len(nd.Prefabs) {
		return nil, fail("the prefabs changed")
	}
	oh, nh := *od, *nd
	nh.Prefabs = slices.Clone(nd.Prefabs)
	found := false
	for i, p := range od.Prefabs {
		if p.Name != prefab || nd.Prefabs[i].Name != prefab {
			continue
		}
		found = true
		c := &docCompare{target: p.Body.Pos, name: name, check: setCheck(sch, props)}
		if msg := c.entity(p.Body, nd.Prefabs[i].Body, true); msg != "" {
			return nil, fail("%s", msg)
		}
		nh.Prefabs[i] = p // judged above
	}
	if !found {
		return nil, fail("the prefab is not in the file")
	}
	if msg := docHeadDiff(&oh, &nh); msg != "" {
		return nil, fail("%s changed", msg)
	}
	if msg := (&docCompare{}).entities(od.Entities, nd.Entities); msg != "" {
		return nil, fail("%s", msg)
	}
	return out, nil
}

// PrepareDropOverride prepares taking instance e's own key for component
// name out of its file, so that the instance gets the prefab's value
// again (a revert of its override, saved). Call it before giving e the
// prefab's values in the World, and Commit right after, as for
// PrepareSet. An instance that does not write the component itself has
// nothing to write (the SaveEdit does not change the file). Refused:
// what PrepareSet refuses, and an edit that would change anything but
// that component of e.
func (r *Reloader) PrepareDropOverride(e ecs.Entity, name string) (*SaveEdit, error) {
	n := r.Scene.Nodes[e]
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	ent := n.Src
	if len(ownComponents(ent, name)) == 0 {
		return &SaveEdit{Name: ent.File, Pos: ent.Pos, r: r}, nil
	}
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := EditRemove(src, ent, name)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyComponent(d, e, name); err != nil {
		return nil, fmt.Errorf("%s: dropping the override would change more than %s of that entity (%v); nothing saved: %w", ent.Pos, name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.read,
		world: r.recordWorld(e, name)}, nil
}

// PrepareVariant prepares adding prefab name to the scene file, a variant
// of prefab base with comps (component name and attribute string, in
// order) written over it: after the last prefab of the scene's main
// file, at its indentation. Commit writes it and defines the prefab in
// the running scene; no entity changes. Refused: a name a prefab or
// mixin already has, a base written in an included file, and an edit
// that would change anything but add that prefab (ErrCannotEdit).
func (r *Reloader) PrepareVariant(name, base string, comps [][2]string) (*SaveEdit, error) {
	sc := r.Scene
	var last *PrefabSpec
	for _, ps := range sc.Plan.Doc.Prefabs {
		if ps.Name == name {
			return nil, fmt.Errorf("a prefab named %q is already there: %w", name, ErrCannotEdit)
		}
		last = ps
	}
	if _, ok := sc.Registry.Prefab(base); !ok || last == nil || !last.Pos.IsValid() {
		return nil, fmt.Errorf("prefab %q is not written in the scene's main file: %w", base, ErrNoSource)
	}
	path := scenePath(r.File, last.Body.File)
	src, err := r.currentBytes(path, last.Body)
	if err != nil {
		return nil, err
	}
	xml := FormatOf(last.Body.File) == FormatXML
	start, ok := lineColOffset(src, last.Pos.Line, last.Pos.Col)
	if !ok {
		return nil, fmt.Errorf("%s: the prefab's position is not in the file: %w", last.Pos, ErrCannotEdit)
	}
	if xml && src[start] != '<' { // the name attribute's value: back to the tag's '<'
		start = bytes.LastIndexByte(src[:start], '<')
	}
	end, err := blockEnd(src, start, xml, last.Body)
	if err != nil {
		return nil, err
	}
	ls, _ := lineAt(src, start)
	ind, _ := indentOf(src[ls:start])
	pad := strings.Repeat(" ", ind)
	var b strings.Builder
	if xml {
		b.WriteString(pad + `<prefab name="` + xmlEscape(name, '"') + `" prefab="` + xmlEscape(base, '"') + `"`)
		for _, c := range comps {
			b.WriteString(" " + c[0] + `="` + xmlEscape(c[1], '"') + `"`)
		}
		b.WriteString("/>\n")
	} else {
		b.WriteString(pad + yamlValue(name, false) + ":\n" + pad + "  prefab: " + yamlValue(base, false) + "\n")
		for _, c := range comps {
			b.WriteString(pad + "  " + c[0] + ":")
			if c[1] != "" {
				b.WriteString(" " + yamlValue(c[1], false))
			}
			b.WriteString("\n")
		}
	}
	out := append(append(append([]byte{}, src[:end]...), b.String()...), src[end:]...)
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := onlyPrefabs(d, name); err != nil {
		return nil, fmt.Errorf("adding prefab %s would change more than that (%v); nothing saved: %w", name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: last.Body.File, Pos: last.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.read}, nil
}

// PrepareSwapVariant prepares writing to into the file at path, which
// must hold from now: the undo or redo of PrepareVariant (prefab name
// removed or added again, nothing else).
func (r *Reloader) PrepareSwapVariant(name, path string, from, to []byte) (*SaveEdit, error) {
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyPrefabs(d, name); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than prefab %s (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, name, err, ErrFileChanged)
	}
	return s, nil
}

// onlyPrefabs checks that d adds or removes prefab name and changes
// nothing else.
func onlyPrefabs(d *Diff, name string) error {
	if len(d.Prefabs) != 1 || !strings.HasPrefix(d.Prefabs[0], name+" (") || len(d.Created)+len(d.Destroyed)+len(d.Changed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins) > 0 || !d.spawned.empty() {
		return errors.New(d.String())
	}
	return nil
}
