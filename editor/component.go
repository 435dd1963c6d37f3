package editor

import (
	"encoding/json"
	"errors"
	"reflect"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// Component commands: set and remove (and revert, prefab.go), undone by
// putting the component's values back as they were.

// Change is what a command changed: the data of a "change" event, and
// the answer of the commands that change something.
type Change struct {
	// Op is the command's op ("set", "remove", "create", "destroy",
	// "clone", "reparent", "revert", "apply", "variant").
	Op string `json:"op"`
	// Ref is the entity's reference (as query prints it), Entity its
	// label as in the entries ("#id" or path).
	Ref       string `json:"ref,omitempty"`
	Entity    string `json:"entity,omitempty"`
	Component string `json:"component,omitempty"`
	// Attr is the component's whole value after a set.
	Attr string `json:"attr,omitempty"`
	// Value is the component's typed value after a set (as the dump
	// writes it).
	Value   json.RawMessage  `json:"value,omitempty"`
	Entries []live.DiffEntry `json:"entries,omitempty"`
	// Saved reports that the change was saved: File, the scene file it
	// went to (as the scene names it), now says it.
	Saved bool   `json:"saved,omitempty"`
	File  string `json:"file,omitempty"`
}

// savedFile is the file a saved command changed, with its bytes before
// and after: undo writes before back, redo after.
type savedFile struct {
	path, name    string
	before, after []byte
}

// fileOf returns what sv wrote, or nil if it wrote nothing.
func fileOf(sv *live.SaveEdit) *savedFile {
	if sv == nil || !sv.Changed() {
		return nil
	}
	return &savedFile{path: sv.File, name: sv.Name, before: sv.Before, after: sv.After}
}

// reversed returns f the other way round (nil for nil).
func (f *savedFile) reversed() *savedFile {
	if f == nil {
		return nil
	}
	return &savedFile{path: f.path, name: f.name, before: f.after, after: f.before}
}

// size counts the file's bytes the history holds.
func (f *savedFile) size() int64 {
	if f == nil {
		return 0
	}
	return int64(len(f.path) + len(f.name) + len(f.before) + len(f.after))
}

// saved marks ch as saved by t's commit, and returns what it wrote.
func (ch *Change) saved(t *txn) *savedFile {
	if t.saved != nil {
		ch.Saved, ch.File = true, t.saved.Name
	}
	return fileOf(t.saved)
}

// noSave refuses a command asked to be saved when there are no files to
// save into (no Options.Reloader), before anything changes.
func (ed *Editor) noSave(save bool) error {
	if !save || ed.opt.Reloader != nil {
		return nil
	}
	return fail(NoFiles, "saving a change into the scene file needs the scene's Reloader (Options.Reloader), which the editor was not given; the change was not made")
}

// component finds the component name (or instance name__id) for a
// change op ("set", "remove"): [NotFound] if no such component is
// registered or declared, [Conflict] if it is read-only.
func (ed *Editor) component(op, name string) (*registry.Component, error) {
	c, ok := ed.reg.Component(name)
	if !ok {
		if _, _, err := ed.reg.Lookup(name); err != nil {
			return nil, because(NotFound, "", err)
		}
		return nil, fail(NotFound, "unknown component %q", name)
	}
	if err := ed.writable(op, name); err != nil {
		return nil, err
	}
	return c, nil
}

// writable refuses a change op ("set", "remove" or "add") of the
// component name that its definition refuses ([Conflict], saying why);
// nil if the change may go on.
func (ed *Editor) writable(op, name string) error {
	c, ok := ed.reg.Component(name)
	if !ok {
		return nil // unknown names are answered by the caller
	}
	if err := c.CheckWritable(op, name); err != nil && errors.Is(err, registry.ErrReadOnly) {
		return writeErr(Conflict, err)
	}
	return nil
}

// values returns a copy of component name of e, and whether e has it.
func (ed *Editor) values(e ecs.Entity, name string) ([]any, bool) {
	if !ed.reg.Has(e, name) {
		return nil, false
	}
	v, err := ed.reg.Values(e, name)
	if err != nil {
		return nil, true
	}
	return cloneValues(v), true
}

func (c *Set) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	comp, err := ed.component("set", c.Component)
	if err != nil {
		return nil, nil, err
	}
	name := c.Component
	old, had := ed.values(e, name)
	attr, fileAttr, shift, err := c.attrs(ed, e, comp.Schema, old)
	if err != nil {
		return nil, nil, err
	}
	p, err := comp.Schema.ParseAttr(name, attr)
	if err == nil && comp.HasCheck() {
		// What a scene file's value is checked for (an expression's
		// names, an animation's path), placed in the body.
		err = comp.CheckAttr(&registry.CheckContext{Registry: ed.reg, Name: name}, name, attr, p)
	}
	if err != nil {
		var ae *registry.AttrError
		if errors.As(err, &ae) {
			ae.Offset = max(0, ae.Offset-shift)
		}
		return nil, nil, &Error{Kind: Invalid, Msg: err.Error(), Err: err}
	}
	ch := &Change{Op: "set", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e), Component: name, Entries: []live.DiffEntry{}}
	// A set of axes writes the file first: its commit gives the World
	// the file's other axes, and the World's own go back over them.
	t := &txn{fileFirst: c.Path != "", apply: func() error {
		if err := ed.reg.SetPatch(e, name, p, registry.Merge); err != nil {
			return writeErr(Invalid, err)
		}
		ed.setEntries(ch, comp, e, had, old)
		return nil
	}}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareSet(e, name, fileAttr) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	f := ch.saved(t)
	now, _ := ed.values(e, name)
	x := ed.valuesEntry(ch, e, had, old, now, f)
	if c.Path != "" {
		x.Summary = "set " + name + "." + c.Path + " of " + ch.Entity
	}
	return &Result{Change: ch}, x, nil
}

// attrs returns the attribute strings of c: for the World (over its
// values old) and for the file (the same, but for a set of axes, over
// the file's value), and how far the World's string is shifted from
// c.Attr (an error's offset in it, less shift, is in c.Attr).
func (c *Set) attrs(ed *Editor, e ecs.Entity, sch *registry.Schema, old []any) (attr, fileAttr string, shift int, err error) {
	if c.Path == "" {
		return c.Attr, c.Attr, 0, nil
	}
	ps, err := resolvePath(c.Component, sch, c.Path)
	if err != nil {
		return "", "", 0, err
	}
	if attr, err = ps.attr(c.Attr, ps.worldFields(old)); err != nil {
		return "", "", 0, err
	}
	fileAttr = attr
	if base, ok := ps.fileFields(ed, e); ok && c.Save {
		if fileAttr, err = ps.attr(c.Attr, base); err != nil {
			return "", "", 0, err
		}
	}
	if ps.axes == nil {
		shift = len(attr) - len(c.Attr)
	}
	return attr, fileAttr, shift, nil
}

// setEntries fills in what a set of component c of e changed: its value
// now, and the entries of a diff (the component added, or each property
// changed from old).
func (ed *Editor) setEntries(ch *Change, c *registry.Component, e ecs.Entity, had bool, old []any) {
	nv, err := ed.reg.Values(e, ch.Component)
	if err != nil {
		return
	}
	ch.Attr = c.Schema.PrintAttr(nv)
	ch.Value = export.DumpEntities(ed.reg, []ecs.Entity{e})[0].Components[ch.Component]
	if !had {
		ch.Entries = append(ch.Entries, live.DiffEntry{Kind: live.ComponentAdded, Entity: ch.Entity, Component: ch.Component, New: ch.Attr})
		return
	}
	for i := range c.Schema.Props {
		pr := &c.Schema.Props[i]
		if i < len(old) && !pr.Type.Equal(old[i], nv[i]) {
			ch.Entries = append(ch.Entries, live.DiffEntry{Kind: live.PropertyChanged, Entity: ch.Entity, Component: ch.Component,
				Property: pr.Name, Old: pr.Print(old[i]), New: pr.Print(nv[i])})
		}
	}
}

func (c *Remove) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	name := c.Component
	if _, err := ed.component("remove", name); err != nil {
		return nil, nil, err
	}
	if !ed.reg.Has(e, name) {
		return nil, nil, fail(NotFound, "entity %q has no component %q", c.Ref, name)
	}
	old, _ := ed.reg.Attr(e, name)
	vals, _ := ed.values(e, name)
	ch := &Change{Op: "remove", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e), Component: name}
	t := &txn{apply: func() error {
		if err := ed.reg.Remove(e, name); err != nil {
			return writeErr(Invalid, err)
		}
		ch.Entries = []live.DiffEntry{{Kind: live.ComponentRemoved, Entity: ch.Entity, Component: name, Old: old}}
		return nil
	}}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareRemove(e, name) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	return &Result{Change: ch}, ed.valuesEntry(ch, e, true, vals, nil, ch.saved(t)), nil
}

// valuesUndo puts a component's values back: old on undo, now on redo
// (nil: no component), swapping the saved file's bytes too (f).
type valuesUndo struct {
	s        *slot
	name     string
	old, now []any
	f        *savedFile
}

// valuesEntry makes the history entry of a change of a component of e
// (ch, the change made): had and old are the component before, now
// after (nil: removed).
func (ed *Editor) valuesEntry(ch *Change, e ecs.Entity, had bool, old, now []any, f *savedFile) *Entry {
	if !had {
		old = nil
	}
	x := &Entry{Op: ch.Op, Ref: ch.Ref, Entity: ch.Entity, Component: ch.Component, Saved: ch.Saved, File: ch.File,
		edit: &valuesUndo{s: ed.hist.slotOf(e), name: ch.Component, old: old, now: now, f: f}}
	if ch.Op == "set" {
		x.Summary = "set " + ch.Component + " of " + ch.Entity
	} else {
		x.Summary = "remove " + ch.Component + " from " + ch.Entity
	}
	return x
}

func (u *valuesUndo) undo(ed *Editor, what string) error {
	return ed.putBack(u.s, u.name, u.old, u.f.reversed(), what)
}

func (u *valuesUndo) redo(ed *Editor, what string) error {
	return ed.putBack(u.s, u.name, u.now, u.f, what)
}

func (u *valuesUndo) size() int64 {
	return valuesBytes(u.old) + valuesBytes(u.now) + u.f.size() + int64(len(u.name))
}

func (u *valuesUndo) slots(f func(*slot)) { f(u.s) }

// putBack sets component name of the entity s names to vals, or removes
// it if vals is nil: the World side of undoing or redoing a component's
// change. For a saved one (f not nil: the file holds f.before, and is to
// hold f.after) the file is edited first, with the checks of save-back:
// applying it to the scene's Plan sets the component to the file's
// values, which the World's own are then put over (a value moved at run
// time is put back as it was). A refusal changes nothing.
func (ed *Editor) putBack(s *slot, name string, vals []any, f *savedFile, what string) error {
	e, err := ed.alive(s, what)
	if err != nil {
		return err
	}
	t := &txn{what: what, fileFirst: true, apply: func() error {
		switch {
		case vals == nil && ed.reg.Has(e, name):
			return ed.reg.Remove(e, name)
		case vals != nil:
			return ed.reg.SetPatch(e, name, valuesPatch(cloneValues(vals)), registry.Merge)
		}
		return nil
	}}
	if f != nil {
		if ed.opt.Reloader == nil {
			return fail(Conflict, "cannot %s: the change was saved and the scene file is no longer known", what)
		}
		t.prepare = func() (*live.SaveEdit, error) {
			return live.NewSaver(ed.opt.Reloader).PrepareSwap(e, name, f.path, f.before, f.after)
		}
	}
	return ed.run(t)
}

// cloneValues copies a component's values, slices included, so that
// later changes of the World do not reach them.
func cloneValues(vals []any) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		rv := reflect.ValueOf(v)
		if rv.Kind() == reflect.Slice && !rv.IsNil() {
			c := reflect.MakeSlice(rv.Type(), rv.Len(), rv.Len())
			reflect.Copy(c, rv)
			v = c.Interface()
		}
		out[i] = v
	}
	return out
}

// valuesPatch makes a patch setting every property to vals.
func valuesPatch(vals []any) registry.Patch {
	p := make(registry.Patch, len(vals))
	for i, v := range vals {
		p[i] = registry.PropValue{Index: i, Value: v}
	}
	return p
}
