package editor

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// Prefab workflows on an instance of a prefab. Revert (drop an
// instance's override: its component, or one property, goes back to the
// prefab's value) is a command like a set. Apply (push the instance's
// value into the prefab, saved into the file: every instance follows
// through the hot-reload path) is a command whose undo swaps the file
// back the same way. Variant writes a new prefab, a variant of the
// instance's, with what the instance tunes.

func (c *Revert) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	name := c.Component
	comp, err := ed.component("set", name)
	if err != nil {
		return nil, nil, err
	}
	node, err := ed.prefabRoot(e)
	if err != nil {
		return nil, nil, err
	}
	want, has := prefabValues(comp.Schema, node, name)
	old, had := ed.values(e, name)
	var now []any
	switch {
	case c.Property != "":
		idx := propIndex(comp.Schema, c.Property)
		if idx < 0 {
			return nil, nil, fail(NotFound, "component %q has no property %q", name, c.Property)
		}
		if !had {
			return nil, nil, fail(NotFound, "entity %q has no component %q", c.Ref, name)
		}
		now = cloneValues(old)
		now[idx] = want[idx]
	case has:
		now = want
	}
	ch := &Change{Op: "revert", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e), Component: name}
	t := &txn{apply: func() error {
		var err error
		switch {
		case now != nil:
			err = ed.reg.SetPatch(e, name, valuesPatch(cloneValues(now)), registry.Merge)
		case had:
			err = ed.reg.Remove(e, name)
		}
		if err != nil {
			return writeErr(Conflict, err)
		}
		if attr, err := ed.reg.Attr(e, name); err == nil && now != nil {
			ch.Attr = attr
		}
		return nil
	}}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) {
			if c.Property != "" {
				return live.NewSaver(ed.opt.Reloader).PrepareDropProperty(e, name, c.Property)
			}
			return live.NewSaver(ed.opt.Reloader).PrepareDropOverride(e, name)
		}
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	x := ed.valuesEntry(ch, e, had, old, now, ch.saved(t))
	x.Summary = "revert " + name + " of " + ch.Entity + " to its prefab"
	if c.Property != "" {
		x.Summary = "revert " + name + "." + c.Property + " of " + ch.Entity + " to its prefab"
	}
	return &Result{Change: ch}, x, nil
}

// prefabRoot returns the prefab node e is the root instance of, or a
// [Conflict] saying e is not one.
func (ed *Editor) prefabRoot(e ecs.Entity) (*registry.PrefabNode, error) {
	name := ed.reg.Prefabs().Of(e)
	p, ok := ed.reg.Prefabs().Get(name)
	if name == "" || !ok || p.Root == nil || ed.reg.Prefabs().PartKey(e) != "" {
		return nil, fail(Conflict, "%s is not the root of an instance of a prefab (a part of one is reverted through its prefab's file)", Label(ed.reg, e))
	}
	return p.Root, nil
}

// prefabValues returns the values node composes for component name over
// the schema's defaults, and whether the node has the component.
func prefabValues(s *registry.Schema, node *registry.PrefabNode, name string) ([]any, bool) {
	vals := cloneValues(s.Defaults())
	for _, np := range node.Components {
		if np.Name != name {
			continue
		}
		for _, pv := range np.Patch {
			if pv.Index < len(vals) {
				vals[pv.Index] = pv.Value
			}
		}
		return cloneValues(vals), true
	}
	return vals, false
}

// propIndex returns the index of property name in s, or -1.
func propIndex(s *registry.Schema, name string) int {
	for i := range s.Props {
		if s.Props[i].Name == name {
			return i
		}
	}
	return -1
}

func (c *ApplyPrefab) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	if !c.Save {
		return nil, nil, fail(Conflict, "applying a value to a prefab writes the prefab in the scene file: ask with ?save=1; nothing changed")
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	name := c.Component
	comp, err := ed.component("set", name)
	if err != nil {
		return nil, nil, err
	}
	if _, err := ed.prefabRoot(e); err != nil {
		return nil, nil, err
	}
	vals, err := ed.reg.Values(e, name)
	if err != nil || !ed.reg.Has(e, name) {
		return nil, nil, fail(NotFound, "entity %q has no component %q", c.Ref, name)
	}
	attr := comp.Schema.PrintAttr(vals)
	if c.Property != "" {
		idx := propIndex(comp.Schema, c.Property)
		if idx < 0 {
			return nil, nil, fail(NotFound, "component %q has no property %q", name, c.Property)
		}
		attr = c.Property + ": " + comp.Schema.Props[idx].Print(vals[idx])
	}
	prefab := ed.reg.Prefabs().Of(e)
	t := &txn{prepare: func() (*live.SaveEdit, error) {
		return live.NewSaver(ed.opt.Reloader).PrepareApplyPrefab(prefab, name, attr)
	}}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	ch := &Change{Op: "apply", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e), Component: name, Attr: attr}
	u := &swapUndo{f: ch.saved(t), prepare: func(f *savedFile) (*live.SaveEdit, error) {
		return live.NewSaver(ed.opt.Reloader).PrepareSwapPrefab(prefab, name, f.path, f.before, f.after)
	}}
	ch.Entries = t.diff.Entries(ed.reg)
	if len(ch.Entries) > maxEntries {
		ch.Entries = ch.Entries[:maxEntries]
	}
	x := &Entry{Op: "apply", Ref: ch.Ref, Entity: ch.Entity, Component: name, Saved: true, File: ch.File,
		Summary: "apply " + name + " of " + ch.Entity + " to prefab " + prefab, edit: u}
	if c.Property != "" {
		x.Summary = "apply " + name + "." + c.Property + " of " + ch.Entity + " to prefab " + prefab
	}
	return &Result{Change: ch}, x, nil
}

// maxEntries bounds the diff entries one Change carries.
const maxEntries = 10000

func (c *Variant) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	if !c.Save {
		return nil, nil, fail(Conflict, "a variant is a new prefab of the scene file: ask with ?save=1; nothing changed")
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	node, err := ed.prefabRoot(e)
	if err != nil {
		return nil, nil, err
	}
	base := ed.reg.Prefabs().Of(e)
	comps, err := ed.tuned(e, node)
	if err != nil {
		return nil, nil, err
	}
	t := &txn{prepare: func() (*live.SaveEdit, error) {
		return live.NewSaver(ed.opt.Reloader).PrepareVariant(c.Name, base, comps)
	}}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	ch := &Change{Op: "variant", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e)}
	u := &swapUndo{f: ch.saved(t), prepare: func(f *savedFile) (*live.SaveEdit, error) {
		return live.NewSaver(ed.opt.Reloader).PrepareSwapVariant(c.Name, f.path, f.before, f.after)
	}}
	x := &Entry{Op: "variant", Ref: ch.Ref, Entity: ch.Entity, Saved: true, File: ch.File,
		Summary: "make prefab " + c.Name + " from " + ch.Entity + " (a variant of " + base + ")", edit: u}
	return &Result{Change: ch}, x, nil
}

// swapUndo swaps a saved file's bytes back and forth (f: before and
// after the command; nil: the command wrote nothing, and its undo and
// redo change nothing), through the hot-reload path.
type swapUndo struct {
	f       *savedFile
	prepare func(f *savedFile) (*live.SaveEdit, error)
}

func (u *swapUndo) undo(ed *Editor, what string) error { return u.swap(ed, u.f.reversed(), what) }
func (u *swapUndo) redo(ed *Editor, what string) error { return u.swap(ed, u.f, what) }
func (u *swapUndo) size() int64                        { return u.f.size() }
func (u *swapUndo) slots(func(*slot))                  {}

// swap makes the file hold f.after again.
func (u *swapUndo) swap(ed *Editor, f *savedFile, what string) error {
	if f == nil {
		return nil
	}
	return ed.run(&txn{what: what, prepare: func() (*live.SaveEdit, error) { return u.prepare(f) }})
}

// tuned returns e's components whose values differ from those the prefab
// node composes (or that it lacks), as name and attribute string; the
// read-only ones and position and rotation left out. A component of the
// prefab that e lacks is a [Conflict]: a variant cannot take it away.
func (ed *Editor) tuned(e ecs.Entity, node *registry.PrefabNode) ([][2]string, error) {
	var out [][2]string
	have := map[string]bool{}
	for _, name := range ed.reg.EntityComponents(e) {
		have[name] = true
		c, ok := ed.reg.Component(name)
		if !ok || c.ReadOnly() || name == "position" || name == "rotation" {
			continue
		}
		vals, err := ed.reg.Values(e, name)
		if err != nil {
			continue
		}
		want, has := prefabValues(c.Schema, node, name)
		same := has
		for i := range c.Schema.Props {
			if same && !c.Schema.Props[i].Type.Equal(want[i], vals[i]) {
				same = false
			}
		}
		if !same {
			attr, _ := ed.reg.Attr(e, name)
			out = append(out, [2]string{name, attr})
		}
	}
	for _, np := range node.Components {
		if c, ok := ed.reg.Component(np.Name); ok && !c.ReadOnly() && !have[np.Name] {
			return nil, fail(Conflict, "%s lacks %s, which its prefab has and a variant cannot take away; nothing changed", Label(ed.reg, e), np.Name)
		}
	}
	return out, nil
}
