package live

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/regfile"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
	"github.com/scenecs/scenecs/registry"
)

// Structure edits saved into a scene file, prefab apply, revert and
// variant, and the swaps that undo and redo them: the textual edit is
// made by loader/scenefile/edit on the bytes the scene was read from,
// then the scene is compiled with it and diffed with the running scene:
// the diff must change what was asked and nothing else, or the edit is
// refused rather than written.

// nodeOf returns the node of the scene's Plan e was made of, or nil.
func (r *Reloader) nodeOf(e ecs.Entity) *plan.Node {
	n, _ := r.Scene.NodeOf(e)
	return n
}

// Structure edits saved into a scene file: an entity's whole block taken
// out of its file (PrepareDestroy), and put back by undo (PrepareSwapEntity
// and SaveEdit.Adopt). As for a component's save-back, the edit is made
// on the bytes the scene was read from, then the scene is compiled with
// it and diffed with the running scene: the diff must destroy that one
// entity (with its subtree) and change nothing else, or the edit is
// refused rather than written.
//
// This file belongs with the scene-file editing code (scenefile/edit
// once loader is split into layers): EditRemoveEntity works on bytes and
// an EntitySpec alone; the Prepare functions use the Reloader only
// through checkFile, Scene.Diff and the SaveEdit they return.

// PrepareDestroy prepares taking entity e's block (with its children)
// out of the scene file it was read from. Call it on the simulation
// goroutine before destroying e in the World, and Commit after: the
// scene's Plan then no longer has it, and a reload keeps it gone.
//
// Refused: an entity no file wrote (spawned, or made at run time:
// ErrNoSource), a part of a prefab's instance (its place is the
// prefab's: ErrFromPrefab), a file edited since it was read
// (ErrFileChanged), a read-only file (ErrReadOnly), a JSON file or an
// entity written in a way the editor does not take apart, and an edit
// that would change more than that entity, such as an entity without an
// id whose later siblings are matched by their place and would shift
// (ErrCannotEdit: give it an id, or edit the file).
func (sv *Saver) PrepareDestroy(e ecs.Entity) (*SaveEdit, error) {
	r := sv.r
	n := r.nodeOf(e)
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	if r.Scene.Registry.Prefabs().PartKey(e) != "" {
		return nil, fmt.Errorf("the entity is a part of an instance of a prefab: its place is the prefab's: %w", ErrFromPrefab)
	}
	ent := n.Src
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := edit.RemoveEntity(src, ent)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyDestroyed(d, n); err != nil {
		return nil, fmt.Errorf("%s: taking the entity out would change more than that (%v); nothing saved: %w", ent.Pos, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot()}, nil
}

// currentBytes returns the bytes of the file at path, which must be those
// the running scene (and ent's position) was read from.
func (r *Reloader) currentBytes(path string, ent *scenefile.EntitySpec) ([]byte, error) {
	src := r.last[path]
	if src == nil {
		src = entitySource(ent)
	}
	if src == nil { // an entity without components: another one's
		walkNodes(r.Scene.Plan.Roots, func(n *plan.Node) {
			if src == nil && n.Src != nil && n.Src.File == ent.File {
				src = entitySource(n.Src)
			}
		})
	}
	cur, _, err := regfile.Read(path, r.Options.Limits.WithDefaults().MaxBytes, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if src == nil || !bytes.Equal(cur, src) {
		return nil, fmt.Errorf("%s: %w and are not reloaded yet; nothing saved (save again once the watcher has reloaded them)", ent.File, ErrFileChanged)
	}
	return src, nil
}

// onlyDestroyed checks that d destroys node n (with its subtree) and
// changes nothing else.
func onlyDestroyed(d *Diff, n *plan.Node) error {
	if len(d.Destroyed) != 1 || d.Destroyed[0] != n {
		return errors.New(d.String())
	}
	if d.changesBeyond(partDestroyed) {
		return errors.New(d.String())
	}
	return nil
}

// PrepareSwapEntity prepares writing to into the scene file at path,
// which must hold from now: the undo (to: the bytes before) or redo of a
// saved destruction of an entity. Undo's diff creates one entity, which
// the caller makes in the World (as it was) and gives to Adopt before
// Commit, so that the scene's Plan knows it as the file's; redo's diff
// destroys entity e, which the caller destroys in the World before
// Commit. Anything else is refused as PrepareSwap refuses it.
func (sv *Saver) PrepareSwapEntity(e ecs.Entity, path string, from, to []byte) (*SaveEdit, error) {
	r := sv.r
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	n := r.nodeOf(e)
	isCreated := len(d.Created) == 1 && len(d.Destroyed) == 0
	isDestroyed := n != nil && onlyDestroyed(d, n) == nil
	if !(isCreated || isDestroyed) || d.changesBeyond(partCreated, partDestroyed) {
		return nil, fmt.Errorf("putting %s back would change more than that entity (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, d, ErrFileChanged)
	}
	return s, nil
}

// Adopt makes the entity the prepared swap creates (PrepareSwapEntity
// for an undo) the entity e the caller made in the World for it, with
// its subtree, child by child: Commit then creates nothing. e's subtree
// must have the shape of the file's.
func (s *SaveEdit) Adopt(e ecs.Entity) error {
	d := s.diff
	if d == nil || len(d.Created) != 1 {
		return errors.New("loader: Adopt: the edit creates no entity")
	}
	w := s.r.Scene.World
	pairs := map[*plan.Node]ecs.Entity{}
	var walk func(n *plan.Node, e ecs.Entity) error
	walk = func(n *plan.Node, e ecs.Entity) error {
		kids := w.Children(e)
		if len(kids) != len(n.Children) {
			return fmt.Errorf("loader: Adopt: %s has %d children in the file and %d in the World", n.Path, len(n.Children), len(kids))
		}
		pairs[n] = e
		for i, c := range n.Children {
			if err := walk(c, kids[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(d.Created[0], e); err != nil {
		return err
	}
	for n, x := range pairs {
		d.ents[n.Index] = x
	}
	d.Created = nil
	return nil
}

// PrepareCreate prepares writing entity e, made at run time (through the
// inspector: created or cloned), with its subtree into the scene file of
// its parent (the main scene file for a root), as a block of its own
// right after its previous sibling that a file wrote (or before the
// first), at that sibling's indentation. Call it on the simulation
// goroutine after making e, and Commit: the scene's Plan then knows e as
// the file's, so that a reload keeps it as it is.
//
// The block writes e's id, classes and every component as its attribute
// string (the values e has, mixins composed: the file gets no "mixin:");
// an instance of a prefab is written as "prefab: NAME" with what it and
// its parts have over the prefab (parts: changed or removed; see
// blockOf). The edited scene is compiled and diffed with the running
// scene: it must create that one entity under the right parent, with
// every component and value e has, and change nothing else. Refused: a
// parent no file wrote (save it first: ErrNoSource), a part of an
// instance alone or a parent that is one (ErrFromPrefab), and what
// PrepareDestroy refuses.
func (sv *Saver) PrepareCreate(e ecs.Entity) (*SaveEdit, error) {
	r := sv.r
	sc := r.Scene
	if n := r.nodeOf(e); n != nil {
		return nil, fmt.Errorf("the entity is already in the scene's files: %w", ErrCannotEdit)
	}
	if err := r.writable(e); err != nil {
		return nil, err
	}
	ins, err := r.insertPlace(e)
	if err != nil {
		return nil, err
	}
	path := scenePath(r.File, ins.File)
	src, err := r.currentBytes(path, placeSpec(ins))
	if err != nil {
		return nil, err
	}
	out, err := edit.InsertEntity(src, ins, r.blockOf(e).Lines(ins.XML))
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := r.onlyCreated(d, e); err != nil {
		return nil, fmt.Errorf("%s: writing the entity would not give what the running scene has (%v); nothing saved: %w", ins.File, err, ErrCannotEdit)
	}
	s := &SaveEdit{File: path, Name: ins.File, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot()}
	if err := s.Adopt(e); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	return s, nil
}

// writable refuses an entity (or subtree) a file cannot write as it is:
// a part of a prefab's instance outside an instance written with it (an
// instance's root is written as "prefab: NAME" with what it sets over
// the prefab, its parts being the prefab's).
func (r *Reloader) writable(e ecs.Entity) error {
	reg, w := r.Scene.Registry, r.Scene.World
	if reg.Prefabs().PartKey(e) != "" {
		return fmt.Errorf("the entity is a part of an instance of a prefab, which this save does not write alone: %w", ErrFromPrefab)
	}
	inst := reg.Prefabs().Of(e) != ""
	for _, c := range w.Children(e) {
		if inst && reg.Prefabs().PartKey(c) != "" {
			continue // the prefab's
		}
		if err := r.writable(c); err != nil {
			return err
		}
	}
	return nil
}

// insertPlace finds where e's block goes.
func (r *Reloader) insertPlace(e ecs.Entity) (*edit.Place, error) {
	sc, w := r.Scene, r.Scene.World
	ins := &edit.Place{File: filepath.Base(r.File)}
	if p, ok := w.Parent(e); ok {
		pn := r.nodeOf(p)
		if pn == nil || pn.Src == nil || !pn.Src.Pos.IsValid() {
			return nil, fmt.Errorf("the entity's parent was made at run time: save the parent first: %w", ErrNoSource)
		}
		if r.Scene.Registry.Prefabs().Of(p) != "" || r.Scene.Registry.Prefabs().PartKey(p) != "" {
			return nil, fmt.Errorf("the entity's parent is (a part of) an instance of a prefab: %w", ErrFromPrefab)
		}
		ins.Parent, ins.File = pn.Src, pn.Src.File
	} else if len(sc.Plan.Roots) > 0 && sc.Plan.Roots[0].Src != nil {
		ins.File = sc.Plan.Roots[0].Src.File
	}
	for x, ok := w.PrevSibling(e); ok; x, ok = w.PrevSibling(x) {
		if n := r.nodeOf(x); n != nil && n.Src != nil && n.Src.File == ins.File {
			ins.After = n.Src
			break
		}
	}
	if ins.After == nil {
		for x, ok := w.NextSibling(e); ok; x, ok = w.NextSibling(x) {
			if n := r.nodeOf(x); n != nil && n.Src != nil && n.Src.File == ins.File {
				ins.Before = n.Src
				break
			}
		}
	}
	ins.XML = scenefile.FormatOf(ins.File) == scenefile.FormatXML
	if !ins.XML && scenefile.FormatOf(ins.File) != scenefile.FormatYAML {
		return nil, fmt.Errorf("%s: the editor edits YAML and XML files only: %w", ins.File, ErrCannotEdit)
	}
	return ins, nil
}

// onlyCreated checks that d creates one entity, e's counterpart (its
// parent's node, every component and value of e and its subtree), and
// changes nothing else.
func (r *Reloader) onlyCreated(d *Diff, e ecs.Entity) error {
	if len(d.Created) != 1 || d.changesBeyond(partCreated) {
		return errors.New(d.String())
	}
	n := d.Created[0]
	if p, ok := r.Scene.World.Parent(e); ok != (n.Parent != nil) || ok && d.ents[n.Parent.Index] != p {
		return errors.New("it would be under another parent")
	}
	return r.sameAsWorld(n, e)
}

// sameAsWorld checks that node n composes exactly what entity e has (id,
// classes, components and values; the computed world transform aside),
// and so for their children in order.
func (r *Reloader) sameAsWorld(n *plan.Node, e ecs.Entity) error {
	reg, w := r.Scene.Registry, r.Scene.World
	if n.ID() != reg.EntityID(e) || !slices.Equal(n.Class(), reg.Classes(e)) {
		return fmt.Errorf("%s: its id or classes differ", n.Path)
	}
	if n.Prefab() != reg.Prefabs().Of(e) {
		return fmt.Errorf("%s: it would be an instance of %q, not %q", n.Path, n.Prefab(), reg.Prefabs().Of(e))
	}
	want := map[string]bool{}
	for _, name := range reg.EntityComponents(e) {
		if c, ok := reg.Component(name); ok && !c.ReadOnly() {
			want[name] = true
		}
	}
	for _, np := range n.Comps {
		if c, ok := reg.Component(np.Name); ok && c.ReadOnly() {
			continue // the prefab marker: Plan and World agree on the prefab (Prefabs().Of)
		}
		if !want[np.Name] {
			return fmt.Errorf("%s: it would get %s", n.Path, np.Name)
		}
		delete(want, np.Name)
		vals, err := reg.Values(e, np.Name)
		sch := schemaOf(reg, np.Name)
		if err != nil || sch == nil {
			return fmt.Errorf("%s: %s: %v", n.Path, np.Name, err)
		}
		for _, pv := range np.Patch {
			if pv.Index >= len(vals) || !sch.Props[pv.Index].Type.Equal(pv.Value, vals[pv.Index]) {
				return fmt.Errorf("%s: %s would not read back as the running scene has it", n.Path, np.Name)
			}
		}
	}
	for name := range want {
		return fmt.Errorf("%s: it would lose %s", n.Path, name)
	}
	kids := w.Children(e)
	if len(kids) != len(n.Children) {
		return fmt.Errorf("%s: %d children, want %d", n.Path, len(n.Children), len(kids))
	}
	for i, c := range n.Children {
		if err := r.sameAsWorld(c, kids[i]); err != nil {
			return err
		}
	}
	return nil
}

// blockOf writes e and its subtree as a scene file block: its id,
// classes and every component but the read-only ones, as attribute
// strings. An instance of a prefab is written as "prefab: NAME" with the
// classes and components it has over the prefab's root (a component
// whose values all equal the root's is left to the prefab), and the
// children that are not parts of it; the compile check (sameAsWorld)
// refuses what this does not give back.
func (r *Reloader) blockOf(e ecs.Entity) *edit.Block {
	reg, w := r.Scene.Registry, r.Scene.World
	b := &edit.Block{}
	if id := reg.EntityID(e); id != "" {
		b.Keys = append(b.Keys, [2]string{"id", id})
	}
	var root *registry.PrefabNode
	if name := reg.Prefabs().Of(e); name != "" {
		b.Keys = append(b.Keys, [2]string{"prefab", name})
		if p, ok := reg.Prefabs().Get(name); ok {
			root = p.Root
		}
	}
	if cl := reg.Classes(e); len(cl) > 0 && (root == nil || !slices.Equal(cl, root.Class)) {
		b.Keys = append(b.Keys, [2]string{"class", strings.Join(cl, " ")})
	}
	b.Keys = append(b.Keys, r.overKeys(e, root)...)
	if root != nil {
		b.Parts = r.partsOf(e, root, "", nil)
	}
	for _, k := range w.Children(e) {
		if root != nil && reg.Prefabs().PartKey(k) != "" {
			continue
		}
		b.Children = append(b.Children, r.blockOf(k))
	}
	return b
}

// overKeys returns e's components (but the read-only ones) as keys,
// those whose values node t gives left out (t nil: all).
func (r *Reloader) overKeys(e ecs.Entity, t *registry.PrefabNode) [][2]string {
	reg := r.Scene.Registry
	var keys [][2]string
	for _, name := range reg.EntityComponents(e) {
		c, ok := reg.Component(name)
		if !ok || c.ReadOnly() || t != nil && r.asPrefab(e, name, t) {
			continue
		}
		keys = append(keys, [2]string{name, r.overAttr(e, name, t)})
	}
	return keys
}

// overAttr returns e's component name as an attribute string of the
// properties whose values differ from what the entity gets without
// writing them: the values of template node t if it has the component,
// else the defaults. A single-property component, or one whose values
// are all those, is written whole.
func (r *Reloader) overAttr(e ecs.Entity, name string, t *registry.PrefabNode) string {
	reg := r.Scene.Registry
	attr, _ := reg.Attr(e, name)
	vals, err := reg.Values(e, name)
	sch := schemaOf(reg, name)
	if err != nil || sch == nil || sch.Single() || sch.IsTag() {
		return attr
	}
	base, _ := templateValues(sch, t, name)
	var p registry.Patch
	for i, pr := range sch.Props {
		if i < len(vals) && !pr.Type.Equal(base[i], vals[i]) {
			p = append(p, registry.PropValue{Index: i, Value: vals[i]})
		}
	}
	if len(p) == 0 {
		return attr
	}
	return sch.PrintPatch(p)
}

// partsOf appends to out what the parts of instance e (below path
// prefix) have over their template nodes, children of t: classes and
// components, by the part's path.
func (r *Reloader) partsOf(e ecs.Entity, t *registry.PrefabNode, prefix string, out []*edit.Part) []*edit.Part {
	reg, w := r.Scene.Registry, r.Scene.World
	byKey := map[string]ecs.Entity{}
	for _, k := range w.Children(e) {
		if key := reg.Prefabs().PartKey(k); key != "" {
			byKey[key] = k
		}
	}
	for _, tk := range t.Children {
		k, ok := byKey[tk.Key]
		if !ok {
			out = append(out, &edit.Part{Path: prefix + tk.Key, Removed: true})
			continue
		}
		var keys [][2]string
		if cl := reg.Classes(k); !slices.Equal(cl, tk.Class) {
			keys = append(keys, [2]string{"class", strings.Join(cl, " ")})
		}
		keys = append(keys, r.overKeys(k, tk)...)
		if len(keys) > 0 {
			out = append(out, &edit.Part{Path: prefix + tk.Key, Keys: keys})
		}
		out = r.partsOf(k, tk, prefix+tk.Key+"/", out)
	}
	return out
}

// asPrefab reports whether component name of instance e has the values
// the prefab's root gives it (so the instance need not write it).
func (r *Reloader) asPrefab(e ecs.Entity, name string, root *registry.PrefabNode) bool {
	reg := r.Scene.Registry
	vals, err := reg.Values(e, name)
	sch := schemaOf(reg, name)
	if err != nil || sch == nil {
		return false
	}
	base, ok := templateValues(sch, root, name)
	if !ok {
		return false
	}
	for i, pr := range sch.Props {
		if i >= len(vals) || !pr.Type.Equal(base[i], vals[i]) {
			return false
		}
	}
	return true
}

// templateValues returns the values template node t composes for
// component name (its patch over the schema's defaults; the defaults for
// a nil t), and whether t has the component.
func templateValues(sch *registry.Schema, t *registry.PrefabNode, name string) ([]any, bool) {
	vals := sch.Defaults()
	if t == nil {
		return vals, false
	}
	for _, np := range t.Components {
		if np.Name != name {
			continue
		}
		for _, pv := range np.Patch {
			if pv.Index < len(vals) {
				vals[pv.Index] = pv.Value
			}
		}
		return vals, true
	}
	return vals, false
}

// placeSpec is an entity of the file the block goes into.
func placeSpec(ins *edit.Place) *scenefile.EntitySpec {
	for _, x := range []*scenefile.EntitySpec{ins.After, ins.Before, ins.Parent} {
		if x != nil {
			return x
		}
	}
	return &scenefile.EntitySpec{File: ins.File}
}

// PrepareReparent prepares moving entity e's block in its file to where
// e now stands in the World (moved there just before, under another
// parent, last among its siblings): its lines are taken out and put
// back after the new previous sibling's block (or as the parent's first
// child), shifted to that indentation, comments and layout kept. Call it
// on the simulation goroutine right after the move, and Commit. The
// edited scene must move that entity and change nothing else, so an
// entity without an id (matched by its place) is refused: give it an id.
// Refused too: a move between files, an entity made at run time or a
// part of a prefab instance, as PrepareDestroy refuses them.
func (sv *Saver) PrepareReparent(e ecs.Entity) (*SaveEdit, error) {
	r := sv.r
	n := r.nodeOf(e)
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	if r.Scene.Registry.Prefabs().PartKey(e) != "" {
		return nil, fmt.Errorf("the entity is a part of an instance of a prefab: its place is the prefab's: %w", ErrFromPrefab)
	}
	ins, err := r.insertPlace(e)
	if err != nil {
		return nil, err
	}
	if ins.After == n.Src || ins.Before == n.Src {
		return nil, fmt.Errorf("loader: PrepareReparent: the entity is its own sibling")
	}
	ent := n.Src
	if ins.File != ent.File {
		return nil, fmt.Errorf("the entity is written in %s and its new parent in %s: the editor does not move blocks between files: %w", ent.File, ins.File, ErrCannotEdit)
	}
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := edit.MoveEntity(src, ent, ins)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyMoved(d, e); err != nil {
		return nil, fmt.Errorf("%s: moving the entity's block would change more than its place (%v); nothing saved (an entity without an id is matched by its place: give it an id): %w", ent.Pos, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot()}, nil
}

// onlyMoved checks that d moves entity e and changes nothing else.
func onlyMoved(d *Diff, e ecs.Entity) error {
	if len(d.Moved) != 1 || d.ents[d.Moved[0].Index] != e {
		return errors.New(d.String())
	}
	if d.changesBeyond(partMoved) {
		return errors.New(d.String())
	}
	return nil
}

// PrepareSwapMove prepares writing to into the scene file at path, which
// must hold from now: the undo or redo of a saved move of entity e
// (PrepareReparent). The caller moves e in the World and Commits.
func (sv *Saver) PrepareSwapMove(e ecs.Entity, path string, from, to []byte) (*SaveEdit, error) {
	r := sv.r
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyMoved(d, e); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than the entity's place (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, err, ErrFileChanged)
	}
	return s, nil
}

// Undoing and redoing a saved change (the inspector's journal): the file
// a save-back wrote is put back to the bytes it held before the save
// (undo), or to those the save wrote (redo), as a whole: the save made a
// minimal edit from one to the other, so swapping them back is the same
// minimal edit reversed, and everything else stays byte for byte. The
// swap is prepared and committed as a save-back is (SaveEdit), with the
// same checks and the same safe write.
//
// This file belongs with the scene-file editing code (scenefile/edit
// once loader is split into layers); it uses the Reloader only through
// checkFile, Scene.Diff and the SaveEdit it returns.

// PrepareSwap prepares writing to into the scene file at path, which
// must hold from now: the undo (from: the bytes a save wrote, to: those
// before) or redo of a save-back of component name of entity e. Call it
// on the simulation goroutine before making the same change in the
// World, and Commit right after, as for PrepareSet.
//
// It is refused, with nothing written, when the file no longer holds
// from (edited since, by an editor or another save: ErrFileChanged), the
// scene's other files are edited and not reloaded (ErrFileChanged), the
// file is read-only (ErrReadOnly), or the file with to would change
// anything but component name of e in the running scene (ErrCannotEdit).
func (sv *Saver) PrepareSwap(e ecs.Entity, name, path string, from, to []byte) (*SaveEdit, error) {
	r := sv.r
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyComponent(d, e, name); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than %s of that entity (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, name, err, ErrFileChanged)
	}
	s.world = r.recordWorld(e, name)
	if n := matchedNode(d, e); n != nil && n.Src != nil {
		s.Pos = n.Src.Pos
	}
	return s, nil
}

// prepareSwap checks that the file at path holds from and may be
// written, and compiles the scene with to in its place: the SaveEdit
// that writes to, and its diff with the running scene, for the caller
// to check.
func (r *Reloader) prepareSwap(path string, from, to []byte) (*SaveEdit, *Diff, error) {
	if _, _, err := checkWritable(path); err != nil {
		return nil, nil, err
	}
	lim := r.Options.Limits.WithDefaults()
	cur, _, err := regfile.Read(path, lim.MaxBytes, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !bytes.Equal(cur, from) {
		return nil, nil, fmt.Errorf("%s has been edited since the change was saved (edit it back by hand): %w", path, ErrFileChanged)
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, scenefile.Snapshot{path: to})
	if err != nil {
		return nil, nil, fmt.Errorf("the scene's files do not load with %s put back; nothing written:\n%v\n%w", path, err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	rel := path
	if dir, err := filepath.Abs(filepath.Dir(r.File)); err == nil {
		if x, err := filepath.Rel(dir, path); err == nil {
			rel = filepath.ToSlash(x)
		}
	}
	return &SaveEdit{File: path, Name: rel, Before: from, After: to, r: r, diff: d, snap: sfs.Snapshot()}, d, nil
}

// onlyComponent checks that d changes nothing but component name of
// entity e (added, removed or any of its properties).
func onlyComponent(d *Diff, e ecs.Entity, name string) error {
	if d.changesBeyond(partChanged) {
		return errors.New(d.String())
	}
	for _, c := range d.Changed {
		if c.Entity != e || c.Classes {
			return errors.New(d.String())
		}
		for _, a := range c.Added {
			if a != name {
				return errors.New(d.String())
			}
		}
		for _, x := range c.Removed {
			if x != name {
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
func (sv *Saver) PrepareApplyPrefab(prefab, name, attr string) (*SaveEdit, error) {
	r := sv.r
	sc := r.Scene
	var body *scenefile.EntitySpec
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
	props, err := attrProps(c.Schema, name, attr)
	if err != nil {
		return nil, err
	}
	out, err := edit.SetPrefabComponent(src, body, prefab, name, editSchema(c.Schema), props, setCheck(c.Schema, props))
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := onlyPrefabComponent(d, prefab, name); err != nil {
		return nil, fmt.Errorf("%s: the edit of prefab %s would change more than its %s (%v); nothing saved: %w", body.Pos, prefab, name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: body.File, Pos: body.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot()}, nil
}

// PrepareSwapPrefab prepares writing to into the file at path, which must
// hold from now: the undo or redo of PrepareApplyPrefab. Commit writes it
// and the instances follow.
func (sv *Saver) PrepareSwapPrefab(prefab, name, path string, from, to []byte) (*SaveEdit, error) {
	r := sv.r
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
	if !slices.Contains(d.Prefabs, prefab+" (changed)") || d.changesBeyond(partPrefabs, partChanged, partSpawned) {
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

// PrepareDropOverride prepares taking instance e's own key for component
// name out of its file, so that the instance gets the prefab's value
// again (a revert of its override, saved). Call it before giving e the
// prefab's values in the World, and Commit right after, as for
// PrepareSet. An instance that does not write the component itself has
// nothing to write (the SaveEdit does not change the file). Refused:
// what PrepareSet refuses, and an edit that would change anything but
// that component of e.
func (sv *Saver) PrepareDropOverride(e ecs.Entity, name string) (*SaveEdit, error) {
	ent, err := sv.r.sourceOf(e)
	if err != nil {
		return nil, err
	}
	if len(edit.Owns(ent, name)) == 0 {
		return &SaveEdit{Name: ent.File, Pos: ent.Pos, r: sv.r}, nil
	}
	return sv.r.prepareOwnEdit(e, name, ent, "the override", func(src []byte) ([]byte, error) {
		return EditRemove(src, ent, name)
	})
}

// PrepareDropProperty prepares taking property prop of component name
// out of what instance e writes in its file, so that e gets that
// property from its prefab again (the revert of one property, saved);
// the other properties it writes stay as they are written. If e writes
// no other property of the component, the component's key goes
// (PrepareDropOverride); if it does not write that one, there is nothing
// to write. Call it as PrepareDropOverride. Refused: what that refuses,
// and an edit that would change anything but that component of e.
func (sv *Saver) PrepareDropProperty(e ecs.Entity, name, prop string) (*SaveEdit, error) {
	r := sv.r
	ent, err := r.sourceOf(e)
	if err != nil {
		return nil, err
	}
	sch := schemaOf(r.Scene.Registry, name)
	if sch == nil {
		return nil, fmt.Errorf("no component %q", name)
	}
	index, ok := sch.Lookup(prop)
	if !ok {
		return nil, fmt.Errorf("component %s has no property %q", name, prop)
	}
	es := editSchema(sch)
	written := edit.Written(ent, name, es)
	if _, ok := written[index]; !ok {
		return &SaveEdit{Name: ent.File, Pos: ent.Pos, r: r}, nil
	}
	if len(written) == 1 || sch.Single() {
		return sv.PrepareDropOverride(e, name)
	}
	return r.prepareOwnEdit(e, name, ent, name+"."+prop, func(src []byte) ([]byte, error) {
		return edit.DropProperty(src, ent, name, es, index)
	})
}

// sourceOf returns the file's entity e was made from, or ErrNoSource for
// one made at run time.
func (r *Reloader) sourceOf(e ecs.Entity) (*scenefile.EntitySpec, error) {
	n := r.nodeOf(e)
	if n == nil || n.Src == nil || !n.Src.Pos.IsValid() {
		return nil, fmt.Errorf("the entity was made at run time (spawned, or by the program or the inspector): %w", ErrNoSource)
	}
	return n.Src, nil
}

// prepareOwnEdit prepares an edit of what entity e (read as ent) writes
// of component name in its file: change turns the file's bytes into the
// edited ones, which must load and change that component of e alone
// (what names the edit in the message if not).
func (r *Reloader) prepareOwnEdit(e ecs.Entity, name string, ent *scenefile.EntitySpec, what string, change func(src []byte) ([]byte, error)) (*SaveEdit, error) {
	path := scenePath(r.File, ent.File)
	src, err := r.currentBytes(path, ent)
	if err != nil {
		return nil, err
	}
	out, err := change(src)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	if err := onlyComponent(d, e, name); err != nil {
		return nil, fmt.Errorf("%s: dropping %s would change more than %s of that entity (%v); nothing saved: %w", ent.Pos, what, name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: ent.File, Pos: ent.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot(),
		world: r.recordWorld(e, name)}, nil
}

// PrepareVariant prepares adding prefab name to the scene file, a variant
// of prefab base with comps (component name and attribute string, in
// order) written over it: after the last prefab of the scene's main
// file, at its indentation. Commit writes it and defines the prefab in
// the running scene; no entity changes. Refused: a name a prefab or
// mixin already has, a base written in an included file, and an edit
// that would change anything but add that prefab (ErrCannotEdit).
func (sv *Saver) PrepareVariant(name, base string, comps [][2]string) (*SaveEdit, error) {
	r := sv.r
	sc := r.Scene
	var last *scenefile.PrefabSpec
	for _, ps := range sc.Plan.Doc.Prefabs {
		if ps.Name == name {
			return nil, fmt.Errorf("a prefab named %q is already there: %w", name, ErrCannotEdit)
		}
		last = ps
	}
	if _, ok := sc.Registry.Prefabs().Get(base); !ok || last == nil || !last.Pos.IsValid() {
		return nil, fmt.Errorf("prefab %q is not written in the scene's main file: %w", base, ErrNoSource)
	}
	path := scenePath(r.File, last.Body.File)
	src, err := r.currentBytes(path, last.Body)
	if err != nil {
		return nil, err
	}
	out, err := edit.AddPrefab(src, last, name, base, comps)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkWritable(path); err != nil {
		return nil, err
	}
	plan, sfs, err := checkFile(sc.Registry, r.File, r.Options, scenefile.Snapshot{path: out})
	if err != nil {
		return nil, fmt.Errorf("the edited file does not load; nothing saved:\n%v\n%w", err, ErrCannotEdit)
	}
	d := sc.Diff(plan)
	if err := onlyPrefabs(d, name); err != nil {
		return nil, fmt.Errorf("adding prefab %s would change more than that (%v); nothing saved: %w", name, err, ErrCannotEdit)
	}
	return &SaveEdit{File: path, Name: last.Body.File, Pos: last.Pos, Before: src, After: out, r: r, diff: d, snap: sfs.Snapshot()}, nil
}

// PrepareSwapVariant prepares writing to into the file at path, which
// must hold from now: the undo or redo of PrepareVariant (prefab name
// removed or added again, nothing else).
func (sv *Saver) PrepareSwapVariant(name, path string, from, to []byte) (*SaveEdit, error) {
	r := sv.r
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
	if len(d.Prefabs) != 1 || !strings.HasPrefix(d.Prefabs[0], name+" (") || d.changesBeyond(partPrefabs) {
		return errors.New(d.String())
	}
	return nil
}
