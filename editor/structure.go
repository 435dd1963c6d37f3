package editor

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// Structure commands: create, destroy, clone and reparent, each undone
// and redone through snapshots of the entities they made or destroyed
// (entSnap) and of where they stood (place).

func (c *Create) do(ed *Editor) (*Result, *Entry, error) {
	req, err := parseCreate(c.Body)
	if err != nil {
		return nil, nil, err
	}
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	if req.IDBase != "" {
		// The id is picked now, and the journal gets it: a replay makes
		// the same entity whatever its files say.
		req.ID, req.IDBase = ed.numberedID(req.IDBase), ""
		if c.Body, err = withID(c.Body, req.ID); err != nil {
			return nil, nil, err
		}
	}
	var e ecs.Entity
	ch := &Change{Op: "create"}
	t := &txn{late: true, apply: func() error {
		var err error
		if e, err = ed.create(req); err != nil {
			return err
		}
		ch.Ref, ch.Entity = Path(ed.reg, e), Label(ed.reg, e)
		ch.Entries = []live.DiffEntry{{Kind: live.EntityCreated, Entity: ch.Entity}}
		return nil
	}, rollback: func() { _ = ed.w.Destroy(e) }}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareCreate(e) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	f := ch.saved(t)
	return &Result{Change: ch, Entity: e, Created: true}, ed.lifeEntry("create", "create "+ch.Entity, e, ch, f, true), nil
}

// create makes the entity req describes, everything checked first: a
// bad request makes nothing.
func (ed *Editor) create(req *createRequest) (ecs.Entity, error) {
	var parent ecs.Entity
	if req.Parent != "" {
		p, err := Resolve(ed.reg, req.Parent)
		if err != nil {
			return ecs.Entity{}, because(Invalid, "parent: ", err)
		}
		parent = p
	}
	if err := ed.withinLimits(parent); err != nil {
		return ecs.Entity{}, err
	}
	if req.ID != "" {
		if _, used := ed.reg.EntityByID(req.ID); used {
			return ecs.Entity{}, fail(Conflict, "the id %q is already used", req.ID)
		}
	}
	mixins, err := ed.reg.Mixins().Expand(req.Mixin)
	if err != nil {
		return ecs.Entity{}, because(Invalid, "mixin: ", err)
	}
	own := make([]registry.NamedPatch, 0, len(req.Components))
	for _, kv := range req.Components {
		c, _, err := ed.reg.Lookup(kv[0])
		if err != nil {
			return ecs.Entity{}, because(Invalid, "components: ", err)
		}
		p, err := c.Schema.ParseAttr(kv[0], kv[1])
		if err != nil {
			return ecs.Entity{}, &Error{Kind: Invalid, Msg: err.Error(), Err: err}
		}
		own = append(own, registry.NamedPatch{Name: kv[0], Patch: p})
	}
	comps := ed.reg.Mixins().Compose(mixins, own)
	for _, np := range comps { // own components and the mixins'
		if err := ed.writable("add", np.Name); err != nil {
			return ecs.Entity{}, err
		}
	}
	e, err := ed.reg.Create(parent, registry.CreateSpec{ID: req.ID, Classes: req.Class, Components: comps})
	if err != nil {
		return ecs.Entity{}, writeErr(Invalid, err)
	}
	return e, nil
}

func (c *Destroy) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	ch := &Change{Op: "destroy", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e)}
	ch.Entries = append(ch.Entries, live.DiffEntry{Kind: live.EntityDestroyed, Entity: ch.Entity})
	var sub []ecs.Entity
	for d := range ed.w.Descendants(e) {
		sub = append(sub, d)
	}
	for _, l := range Labels(ed.reg, sub) {
		ch.Entries = append(ch.Entries, live.DiffEntry{Kind: live.EntityDestroyed, Entity: l})
	}
	u := &lifeUndo{s: ed.hist.slotOf(e)}
	t := u.unmakeTxn(ed, "destroy "+ch.Entity)
	t.what = ""
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareDestroy(e) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	u.f = ch.saved(t)
	summary := "destroy " + ch.Entity
	if n := u.sn.count(); n > 1 {
		summary += " and " + strconv.Itoa(n-1) + " below it"
	}
	x := &Entry{Op: "destroy", Ref: ch.Ref, Entity: ch.Entity, Summary: summary, Saved: ch.Saved, File: ch.File, edit: u}
	return &Result{Change: ch}, x, nil
}

// lifeUndo makes an entity again from its snapshot and destroys it: a
// destruction is undone by making it (made false), a creation or clone
// by destroying it (made true). For a saved one, f is the file with the
// entity's block (before) and without it (after), swapped alike.
type lifeUndo struct {
	s    *slot
	made bool
	sn   *entSnap // the snapshot, while the entity is destroyed
	at   place
	f    *savedFile
}

// lifeEntry is the history entry of a command that made the entity e
// (create or clone): f is the file without the block, then with it.
func (ed *Editor) lifeEntry(op, summary string, e ecs.Entity, ch *Change, f *savedFile, made bool) *Entry {
	u := &lifeUndo{s: ed.hist.slotOf(e), made: made, f: f.reversed()}
	return &Entry{Op: op, Ref: ch.Ref, Entity: ch.Entity, Summary: summary, Saved: ch.Saved, File: ch.File, edit: u}
}

func (u *lifeUndo) undo(ed *Editor, what string) error { return u.step(ed, u.made, what) }
func (u *lifeUndo) redo(ed *Editor, what string) error { return u.step(ed, !u.made, what) }

// step destroys the entity (unmake) or makes it again.
func (u *lifeUndo) step(ed *Editor, unmake bool, what string) error {
	if unmake {
		return ed.run(u.unmakeTxn(ed, what))
	}
	if err := ed.run(u.remakeTxn(ed, what)); err != nil {
		return err
	}
	u.sn = nil // the entity lives again: destroying it snapshots it anew
	return nil
}

// unmakeTxn destroys the entity, keeping its snapshot and place; for a
// saved one its block is taken out of the file again.
func (u *lifeUndo) unmakeTxn(ed *Editor, what string) *txn {
	t := &txn{what: what, apply: func() error {
		sn, at, err := ed.unmake(u.s, what)
		if err == nil {
			u.sn, u.at = sn, at
		}
		return err
	}, rollback: func() { _, _ = ed.restore(u.at, u.sn, "put the entity back") }}
	if f := u.f; f != nil {
		t.prepare = func() (*live.SaveEdit, error) {
			if _, err := ed.alive(u.s, what); err != nil {
				return nil, err
			}
			return live.NewSaver(ed.opt.Reloader).PrepareSwapEntity(u.s.e, f.path, f.before, f.after)
		}
	}
	return t
}

// remakeTxn makes the entity again from its snapshot; for a saved one,
// its block goes back into the file, checked, and the scene's Plan
// learns the entity made is the file's.
func (u *lifeUndo) remakeTxn(ed *Editor, what string) *txn {
	var e ecs.Entity
	t := &txn{what: what, apply: func() error {
		var err error
		e, err = ed.restore(u.at, u.sn, what)
		return err
	}, rollback: func() {
		if ed.w.Alive(e) {
			_ = ed.w.Destroy(e)
		}
	}}
	if f := u.f; f != nil {
		t.prepare = func() (*live.SaveEdit, error) {
			return live.NewSaver(ed.opt.Reloader).PrepareSwapEntity(u.s.e, f.path, f.after, f.before)
		}
		t.adopt = func(sv *live.SaveEdit) error { return sv.Adopt(e) }
	}
	return t
}

func (u *lifeUndo) size() int64 { return u.sn.size() + u.f.size() }

func (u *lifeUndo) slots(f func(*slot)) {
	f(u.s)
	f(u.at.parent)
	u.sn.eachSlot(f)
}

func (c *Clone) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	src, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	if c.ID != "" {
		if _, used := ed.reg.EntityByID(c.ID); used {
			return nil, nil, fail(Conflict, "the id %q is already used", c.ID)
		}
	}
	sn := ed.copySnap(ed.snapshot(src), c.ID, map[string]bool{})
	p := ed.placeOf(src)
	p.index++
	parent, _ := ed.w.Parent(src)
	if err := ed.fits(parent, sn); err != nil {
		return nil, nil, err
	}
	label := Label(ed.reg, src)
	var e ecs.Entity
	ch := &Change{Op: "clone"}
	t := &txn{late: true, apply: func() error {
		var err error
		if e, err = ed.restore(p, sn, "clone "+label); err != nil {
			return err
		}
		ch.Ref, ch.Entity = Path(ed.reg, e), Label(ed.reg, e)
		ch.Entries = []live.DiffEntry{{Kind: live.EntityCreated, Entity: ch.Entity}}
		for d := range ed.w.Descendants(e) {
			ch.Entries = append(ch.Entries, live.DiffEntry{Kind: live.EntityCreated, Entity: Label(ed.reg, d)})
		}
		return nil
	}, rollback: func() { _ = ed.w.Destroy(e) }}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareCreate(e) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	f := ch.saved(t)
	return &Result{Change: ch, Entity: e, Created: true}, ed.lifeEntry("clone", "clone "+label+" as "+ch.Entity, e, ch, f, true), nil
}

// copySnap returns a copy of sn without slots, its ids replaced by free
// ones (taken: the ids the copy already uses), the root's by id if not
// "". A part of a prefab's instance named after its instance
// ("<instance id>/<key>", as Prefabs.Instantiate names them) is named
// after the copy of the instance alike, or has no id if the copy has
// none.
func (ed *Editor) copySnap(sn *entSnap, id string, taken map[string]bool) *entSnap {
	if id == "" {
		return ed.copySnapUnder(sn, "", "", taken)
	}
	taken[id] = true
	c := &entSnap{id: id, class: sn.class, part: sn.part, comps: sn.comps}
	for _, k := range sn.kids {
		c.kids = append(c.kids, ed.copySnapUnder(k, sn.id, id, taken))
	}
	return c
}

// copySnapUnder is copySnap for sn whose parent's id was oldParent and
// whose parent's copy has the id newParent.
func (ed *Editor) copySnapUnder(sn *entSnap, oldParent, newParent string, taken map[string]bool) *entSnap {
	c := &entSnap{class: sn.class, part: sn.part, comps: sn.comps}
	switch {
	case sn.part != "" && oldParent != "" && sn.id == oldParent+"/"+sn.part:
		if newParent != "" {
			c.id = newParent + "/" + sn.part
		}
	case sn.id != "":
		c.id = ed.freeID(sn.id, taken)
	}
	if c.id != "" {
		taken[c.id] = true
	}
	for _, k := range sn.kids {
		c.kids = append(c.kids, ed.copySnapUnder(k, sn.id, c.id, taken))
	}
	return c
}

// numberedID returns base-N for the smallest N from 1 that names no
// entity of the World and no entity the scene's files write (one
// destroyed at run time included: a save would make two of that id).
func (ed *Editor) numberedID(base string) string {
	inFiles := map[string]bool{}
	if r := ed.opt.Reloader; r != nil && r.Scene != nil && r.Scene.Plan != nil {
		for _, n := range r.Scene.Plan.Nodes {
			if id := n.ID(); strings.HasPrefix(id, base+"-") {
				inFiles[id] = true
			}
		}
	}
	for n := 1; ; n++ {
		id := base + "-" + strconv.Itoa(n)
		if _, used := ed.reg.EntityByID(id); !used && !inFiles[id] {
			return id
		}
	}
}

// withID returns the JSON body of a create with "id" set to id and
// without "idBase" (the other fields as they were).
func withID(body []byte, id string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fail(Invalid, "body: %s", err)
	}
	delete(m, "idBase")
	b, _ := json.Marshal(id)
	m["id"] = b
	out, err := json.Marshal(m)
	if err != nil {
		return nil, fail(Invalid, "body: %s", err)
	}
	return out, nil
}

// freeID returns id-N for the first N from 2 that names no entity.
func (ed *Editor) freeID(id string, taken map[string]bool) string {
	base := id
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		if _, err := strconv.Atoi(id[i+1:]); err == nil && isIndex(id[i+1:]) {
			base = id[:i]
		}
	}
	for n := 2; ; n++ {
		c := base + "-" + strconv.Itoa(n)
		if _, used := ed.reg.EntityByID(c); !used && !taken[c] {
			return c
		}
	}
}

func (c *Reparent) do(ed *Editor) (*Result, *Entry, error) {
	if err := ed.noSave(c.Save); err != nil {
		return nil, nil, err
	}
	e, err := Resolve(ed.reg, c.Ref)
	if err != nil {
		return nil, nil, err
	}
	var parent ecs.Entity
	if c.Parent != "" {
		if parent, err = Resolve(ed.reg, c.Parent); err != nil {
			return nil, nil, because(Invalid, "parent: ", err)
		}
		if parent == e || ed.w.IsAncestor(e, parent) {
			return nil, nil, fail(Conflict, "cannot move %s under %s: it is %s", Label(ed.reg, e), Label(ed.reg, parent), map[bool]string{true: "itself", false: "one of its descendants"}[parent == e])
		}
	}
	if err := ed.fitsDepth(parent, ed.shape(e)); err != nil {
		return nil, nil, err
	}
	label, oldRef := Label(ed.reg, e), Path(ed.reg, e)
	u := &moveUndo{s: ed.hist.slotOf(e), from: ed.placeOf(e)}
	t := &txn{late: true, apply: func() error {
		if err := ed.w.InsertChild(parent, e, -1); err != nil {
			return because(Conflict, "", err)
		}
		return nil
	}, rollback: func() { _ = ed.moveTo(u.s, u.from, "move it back") }}
	if c.Save {
		t.prepare = func() (*live.SaveEdit, error) { return live.NewSaver(ed.opt.Reloader).PrepareReparent(e) }
	}
	if err := ed.run(t); err != nil {
		return nil, nil, err
	}
	u.to = ed.placeOf(e)
	ch := &Change{Op: "reparent", Ref: Path(ed.reg, e), Entity: Label(ed.reg, e),
		Entries: []live.DiffEntry{{Kind: live.EntityMoved, Entity: Label(ed.reg, e), Old: oldRef, New: Path(ed.reg, e)}}}
	u.f = ch.saved(t)
	where := "the root"
	if !parent.IsZero() {
		where = Label(ed.reg, parent)
	}
	x := &Entry{Op: "reparent", Ref: oldRef, Entity: label, Summary: "move " + label + " under " + where, Saved: ch.Saved, File: ch.File, edit: u}
	return &Result{Change: ch, Entity: e}, x, nil
}

// moveUndo moves an entity back (from) and again (to); for a saved one,
// its block moves in the file too (f: before and after the move).
type moveUndo struct {
	s        *slot
	from, to place
	f        *savedFile
}

func (u *moveUndo) undo(ed *Editor, what string) error {
	return ed.moveSaved(u.s, u.from, u.f.reversed(), what)
}
func (u *moveUndo) redo(ed *Editor, what string) error { return ed.moveSaved(u.s, u.to, u.f, what) }
func (u *moveUndo) size() int64                        { return u.f.size() }

func (u *moveUndo) slots(f func(*slot)) {
	f(u.s)
	f(u.from.parent)
	f(u.to.parent)
}

// moveSaved moves the entity s names to p, its block moved in the file
// too for a saved one (f: the file holds f.before and is to hold
// f.after).
func (ed *Editor) moveSaved(s *slot, p place, f *savedFile, what string) error {
	var old place
	t := &txn{what: what, apply: func() error {
		if e, err := ed.alive(s, what); err == nil {
			old = ed.placeOf(e)
		}
		return ed.moveTo(s, p, what)
	}, rollback: func() { _ = ed.moveTo(s, old, what) }}
	if f != nil {
		t.prepare = func() (*live.SaveEdit, error) {
			e, err := ed.alive(s, what)
			if err != nil {
				return nil, err
			}
			return live.NewSaver(ed.opt.Reloader).PrepareSwapMove(e, f.path, f.before, f.after)
		}
	}
	return ed.run(t)
}
