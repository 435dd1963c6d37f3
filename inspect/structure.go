package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// Structure edits as commands: create, destroy, clone and reparent, each
// undone and redone through snapshots of the entities they made or
// destroyed (entSnap) and of where they stood (place).

// entSnap is an entity and its subtree as undo or redo makes them again:
// id, classes, prefab part key and every component's values (the
// computed, read-only world transform left out: its owner makes it).
type entSnap struct {
	s     *slot // nil for a copy (a clone's), which gets a new slot
	id    string
	class []string
	part  string
	comps []registry.NamedPatch
	kids  []*entSnap
}

// place is where an entity stands: under parent (nil: a root), at index
// among its siblings.
type place struct {
	parent *slot
	index  int
}

// snapshot records e and its subtree (slots made for each).
func (in *Inspector) snapshot(e ecs.Entity) *entSnap {
	sn := &entSnap{s: in.hist.slotOf(e), id: in.reg.EntityID(e), class: in.reg.Classes(e), part: in.reg.Prefabs().PartKey(e)}
	for _, name := range in.reg.EntityComponents(e) {
		c, ok := in.reg.Component(name)
		if !ok || c.ReadOnly() && !in.reg.Prefabs().IsMarker(c) {
			continue
		}
		if v, err := in.reg.Values(e, name); err == nil {
			sn.comps = append(sn.comps, registry.NamedPatch{Name: name, Patch: valuesPatch(cloneValues(v))})
		}
	}
	for _, k := range in.w.Children(e) {
		sn.kids = append(sn.kids, in.snapshot(k))
	}
	return sn
}

// size counts the entities of the snapshot's subtree.
func (sn *entSnap) size() int {
	n := 1
	for _, k := range sn.kids {
		n += k.size()
	}
	return n
}

// depth is the snapshot's subtree depth (1 for a leaf).
func (sn *entSnap) depth() int {
	d := 0
	for _, k := range sn.kids {
		d = max(d, k.depth())
	}
	return d + 1
}

// ids lists the ids the subtree uses.
func (sn *entSnap) ids(out []string) []string {
	if sn.id != "" {
		out = append(out, sn.id)
	}
	for _, k := range sn.kids {
		out = k.ids(out)
	}
	return out
}

// placeOf returns where e stands.
func (in *Inspector) placeOf(e ecs.Entity) place {
	p := place{index: in.w.ChildIndex(e)}
	if par, ok := in.w.Parent(e); ok {
		p.parent = in.hist.slotOf(par)
	}
	return p
}

// parentOf returns the entity p's parent slot names (zero for a root),
// or a 409 if it is gone.
func (in *Inspector) parentOf(p place, what string) (ecs.Entity, *reply) {
	if p.parent == nil {
		return ecs.Entity{}, nil
	}
	return in.alive(p.parent, what+" (its parent)")
}

// restore makes the snapshot's entities again at p: 409 with nothing
// made if an id it uses is taken or its parent is gone.
func (in *Inspector) restore(p place, sn *entSnap, what string) (ecs.Entity, *reply) {
	parent, bad := in.parentOf(p, what)
	if bad != nil {
		return ecs.Entity{}, bad
	}
	for _, id := range sn.ids(nil) {
		if _, used := in.reg.EntityByID(id); used {
			rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: cannot %s: the id %q is used by another entity now", what, id))
			return ecs.Entity{}, &rep
		}
	}
	e, err := in.build(parent, p.index, sn)
	if err != nil {
		rep := writeErrReply(http.StatusConflict, fmt.Errorf("cannot %s: %w", what, err))
		return ecs.Entity{}, &rep
	}
	return e, nil
}

// build makes sn under parent at index (-1: last), then its children.
func (in *Inspector) build(parent ecs.Entity, index int, sn *entSnap) (ecs.Entity, error) {
	comps := make([]registry.NamedPatch, len(sn.comps))
	for i, np := range sn.comps {
		comps[i] = registry.NamedPatch{Name: np.Name, Patch: clonePatch(np.Patch)}
	}
	// The one creation path (read-only components included: the snapshot
	// holds what the World had), then the place among the siblings.
	e, err := in.reg.Privileged().Create(parent, registry.CreateSpec{ID: sn.id, Classes: sn.class, Components: comps, PartKey: sn.part})
	if err != nil {
		return e, err
	}
	if index >= 0 {
		if err := in.w.InsertChild(parent, e, index); err != nil {
			_ = in.w.Destroy(e)
			return ecs.Entity{}, err
		}
	}
	if sn.s == nil {
		sn.s = in.hist.slotOf(e)
	} else {
		in.hist.moved(sn.s, e)
	}
	for _, k := range sn.kids {
		if _, err := in.build(e, -1, k); err != nil {
			_ = in.w.Destroy(e)
			return e, err
		}
	}
	return e, nil
}

// clonePatch copies a patch's values (slices included).
func clonePatch(p registry.Patch) registry.Patch {
	vals := make([]any, len(p))
	for i, pv := range p {
		vals[i] = pv.Value
	}
	vals = cloneValues(vals)
	out := make(registry.Patch, len(p))
	for i, pv := range p {
		out[i] = registry.PropValue{Index: pv.Index, Value: vals[i]}
	}
	return out
}

// unmake snapshots and destroys the entity s names (undo of a creation
// or clone, redo of a destruction), returning the snapshot and place to
// make it again.
func (in *Inspector) unmake(s *slot, what string) (*entSnap, place, *reply) {
	e, bad := in.alive(s, what)
	if bad != nil {
		return nil, place{}, bad
	}
	sn, p := in.snapshot(e), in.placeOf(e)
	if err := in.w.Destroy(e); err != nil {
		rep := errReply(http.StatusInternalServerError, "inspect: "+err.Error())
		return nil, place{}, &rep
	}
	return sn, p, nil
}

// madeEntry is the history entry of a command that made the entity e
// (create or clone): undo destroys it, redo makes it again as it was
// when undone. For a saved one (f: the file without the block, then
// with it), undo takes the block out of the file and redo puts it back.
func (in *Inspector) madeEntry(op, summary string, e ecs.Entity, ev *changeEvent, f *savedFile) *entry {
	s := in.hist.slotOf(e)
	x := &entry{Op: op, Ref: ev.Ref, Entity: ev.Entity, Summary: summary, Saved: ev.Saved, File: ev.File}
	var rev *savedFile // the other way round: from with the block to without
	if f != nil {
		rev = &savedFile{path: f.path, name: f.name, before: f.after, after: f.before}
	}
	var sn *entSnap
	var at place
	x.undo = func() *reply {
		var bad *reply
		sn, at, bad = in.unmakeSaved(s, rev, "undo "+summary)
		return bad
	}
	x.redo = func() *reply { return in.remake(s, &sn, &at, rev, "redo "+summary) }
	return x
}

// saveMade writes e, just made in the World (created or cloned), into
// the scene file (?save=1); on a refusal or failure e is destroyed again
// and the answer says why.
func (in *Inspector) saveMade(e ecs.Entity, ev *changeEvent) (*savedFile, *reply) {
	sv, err := live.NewSaver(in.opt.Reloader).PrepareCreate(e)
	if err != nil {
		_ = in.w.Destroy(e)
		rep := errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
		return nil, &rep
	}
	if rep := in.commitStructure(sv, in.hist.slotOf(e), nil, place{}, false); rep != nil {
		return nil, rep
	}
	ev.Saved, ev.File = true, sv.Name
	return fileOf(sv), nil
}

// execCreate creates the entity the JSON body l.Body describes (as POST
// /api/entities takes it) and records it.
func (in *Inspector) execCreate(l *JournalLine) reply {
	var req createRequest
	dec := json.NewDecoder(bytes.NewReader(l.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return errReply(http.StatusBadRequest, "inspect: body: "+err.Error()+` (want {"parent": REF, "id": ID, "class": "a b", "mixin": "m", "components": {"name": "attribute string"}})`)
	}
	if dec.More() {
		return errReply(http.StatusBadRequest, "inspect: body: more than one JSON value")
	}
	if req.ID != "" && !validWord(req.ID) {
		return errReply(http.StatusBadRequest, fmt.Sprintf("inspect: invalid id %q (no spaces or control characters)", req.ID))
	}
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	e, rep := in.create(&req)
	if rep != nil {
		return *rep
	}
	ev := changeEvent{Op: "create", Ref: in.path(e), Entity: in.label(e),
		Entries: []live.DiffEntry{{Kind: live.EntityCreated, Entity: in.label(e)}}}
	var f *savedFile
	if l.Save {
		if f, rep = in.saveMade(e, &ev); rep != nil {
			return *rep
		}
	}
	out := in.changed(ev, nil)
	if out.status == http.StatusCreated {
		out.body = in.entityInfo(e)
		out.header = map[string]string{"Location": "/api/entities/" + url.PathEscape(ev.Ref)}
		in.record(in.madeEntry("create", "create "+ev.Entity, e, &ev, f))
	}
	return out
}

// execDestroy destroys entity l.Ref and its subtree (taking its block
// out of the scene file if l.Save), and records it: undo makes them
// again, at the same place, as they were (and puts the block back).
func (in *Inspector) execDestroy(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	var sv *live.SaveEdit
	if l.Save {
		if sv, err = live.NewSaver(in.opt.Reloader).PrepareDestroy(e); err != nil {
			return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
		}
	}
	ev := changeEvent{Op: "destroy", Ref: in.path(e), Entity: in.label(e)}
	ev.Entries = append(ev.Entries, live.DiffEntry{Kind: live.EntityDestroyed, Entity: ev.Entity})
	var sub []ecs.Entity
	for d := range in.w.Descendants(e) {
		sub = append(sub, d)
	}
	for _, l := range in.labels(sub) {
		ev.Entries = append(ev.Entries, live.DiffEntry{Kind: live.EntityDestroyed, Entity: l})
	}
	s := in.hist.slotOf(e)
	sn, at, bad := in.unmake(s, "destroy "+ev.Entity)
	if bad != nil {
		return *bad
	}
	if sv != nil {
		if rep := in.commitStructure(sv, s, sn, at, true); rep != nil {
			return *rep
		}
		ev.Saved, ev.File = true, sv.Name
	}
	in.hub.publish("change", ev)
	summary := "destroy " + ev.Entity
	if n := sn.size(); n > 1 {
		summary += " and " + strconv.Itoa(n-1) + " below it"
	}
	x := &entry{Op: "destroy", Ref: ev.Ref, Entity: ev.Entity, Summary: summary, Saved: ev.Saved, File: ev.File}
	f := fileOf(sv)
	x.undo = func() *reply { return in.remake(s, &sn, &at, f, "undo "+summary) }
	x.redo = func() *reply {
		var bad *reply
		sn, at, bad = in.unmakeSaved(s, f, "redo "+summary)
		return bad
	}
	in.record(x)
	return reply{status: http.StatusOK, body: ev}
}

// commitStructure commits sv, the save of a structure change just made
// in the World: on failure the change is undone there (the snapshot sn
// made again at at if destroyed, else the entity s names destroyed) and
// the answer says why.
func (in *Inspector) commitStructure(sv *live.SaveEdit, s *slot, sn *entSnap, at place, destroyed bool) *reply {
	if _, err := sv.Commit(); err != nil {
		if destroyed {
			_, _ = in.restore(at, sn, "put the entity back")
		} else if in.w.Alive(s.e) {
			_ = in.w.Destroy(s.e)
		}
		rep := errReply(saveStatus(err), "inspect: not saved, and the change was undone in the running scene: "+err.Error())
		return &rep
	}
	return nil
}

// remake makes the destroyed entity again from its snapshot (undo of a
// destruction); for a saved one (f), its block goes back into the file
// first checked, and the scene's Plan learns the entity made is the
// file's.
func (in *Inspector) remake(s *slot, sn **entSnap, at *place, f *savedFile, what string) *reply {
	var sv *live.SaveEdit
	if f != nil {
		var err error
		if sv, err = live.NewSaver(in.opt.Reloader).PrepareSwapEntity(s.e, f.path, f.after, f.before); err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
			return &rep
		}
	}
	e, bad := in.restore(*at, *sn, what)
	if bad != nil {
		return bad
	}
	if sv != nil {
		if err := sv.Adopt(e); err != nil {
			_ = in.w.Destroy(e)
			rep := errReply(http.StatusConflict, "inspect: cannot "+what+", nothing changed: "+err.Error())
			return &rep
		}
		if rep := in.commitStructure(sv, s, nil, place{}, false); rep != nil {
			return rep
		}
	}
	return nil
}

// unmakeSaved is unmake (redo of a destruction), taking the entity's
// block out of the file again for a saved one (f).
func (in *Inspector) unmakeSaved(s *slot, f *savedFile, what string) (*entSnap, place, *reply) {
	var sv *live.SaveEdit
	if f != nil {
		if _, bad := in.alive(s, what); bad != nil {
			return nil, place{}, bad
		}
		var err error
		if sv, err = live.NewSaver(in.opt.Reloader).PrepareSwapEntity(s.e, f.path, f.before, f.after); err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
			return nil, place{}, &rep
		}
	}
	sn, at, bad := in.unmake(s, what)
	if bad != nil || sv == nil {
		return sn, at, bad
	}
	if rep := in.commitStructure(sv, s, sn, at, true); rep != nil {
		return nil, place{}, rep
	}
	return sn, at, nil
}

// cloneRequest is the optional body of POST /api/entities/REF/clone.
type cloneRequest struct {
	ID string `json:"id"`
}

// postClone: POST /api/entities/REF/clone[?save=1], optional body
// {"id": "..."}.
func (in *Inspector) postClone(w http.ResponseWriter, r *http.Request, ref string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	var req cloneRequest
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || dec.More() {
			writeError(w, http.StatusBadRequest, `inspect: body: want nothing, or {"id": "the copy's id"}`)
			return
		}
		if req.ID != "" && !validWord(req.ID) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: invalid id %q (no spaces or control characters)", req.ID))
			return
		}
	}
	in.do(w, r, func() reply {
		return in.apply(&JournalLine{Op: "clone", Ref: ref, ID: req.ID, Save: save})
	})
}

// execClone copies entity l.Ref and its subtree right after it among its
// siblings: the copy gets the id l.ID, or none if the original has none,
// or the original's id with the first free suffix -2, -3, ...; ids below
// it get free suffixes alike.
func (in *Inspector) execClone(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	src, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	if l.ID != "" {
		if _, used := in.reg.EntityByID(l.ID); used {
			return errReply(http.StatusConflict, fmt.Sprintf("inspect: the id %q is already used", l.ID))
		}
	}
	sn := in.copySnap(in.snapshot(src), l.ID, map[string]bool{})
	p := in.placeOf(src)
	p.index++
	parent, _ := in.w.Parent(src)
	if rep := in.fits(parent, sn); rep != nil {
		return *rep
	}
	e, bad := in.restore(p, sn, "clone "+in.label(src))
	if bad != nil {
		return *bad
	}
	ev := changeEvent{Op: "clone", Ref: in.path(e), Entity: in.label(e)}
	for d := range in.w.Descendants(e) {
		ev.Entries = append(ev.Entries, live.DiffEntry{Kind: live.EntityCreated, Entity: in.label(d)})
	}
	ev.Entries = append([]live.DiffEntry{{Kind: live.EntityCreated, Entity: ev.Entity}}, ev.Entries...)
	var f *savedFile
	if l.Save {
		if f, bad = in.saveMade(e, &ev); bad != nil {
			return *bad
		}
	}
	in.hub.publish("change", ev)
	in.record(in.madeEntry("clone", "clone "+in.label(src)+" as "+ev.Entity, e, &ev, f))
	return reply{status: http.StatusCreated, body: in.entityInfo(e),
		header: map[string]string{"Location": "/api/entities/" + url.PathEscape(ev.Ref)}}
}

// copySnap returns a copy of sn without slots, its ids replaced by free
// ones (taken: the ids the copy already uses), the root's by id if not
// "". A part of a prefab's
// instance named after its instance ("<instance id>/<key>", as
// Prefabs.Instantiate names them) is named after the copy of the
// instance alike, or has no id if the copy has none.
func (in *Inspector) copySnap(sn *entSnap, id string, taken map[string]bool) *entSnap {
	if id == "" {
		return in.copySnapUnder(sn, "", "", taken)
	}
	taken[id] = true
	c := &entSnap{id: id, class: sn.class, part: sn.part, comps: sn.comps}
	for _, k := range sn.kids {
		c.kids = append(c.kids, in.copySnapUnder(k, sn.id, id, taken))
	}
	return c
}

// copySnapUnder is copySnap for sn whose parent's id was oldParent and
// whose parent's copy has the id newParent.
func (in *Inspector) copySnapUnder(sn *entSnap, oldParent, newParent string, taken map[string]bool) *entSnap {
	c := &entSnap{class: sn.class, part: sn.part, comps: sn.comps}
	switch {
	case sn.part != "" && oldParent != "" && sn.id == oldParent+"/"+sn.part:
		if newParent != "" {
			c.id = newParent + "/" + sn.part
		}
	case sn.id != "":
		c.id = in.freeID(sn.id, taken)
	}
	if c.id != "" {
		taken[c.id] = true
	}
	for _, k := range sn.kids {
		c.kids = append(c.kids, in.copySnapUnder(k, sn.id, c.id, taken))
	}
	return c
}

// freeID returns id-N for the first N from 2 that names no entity.
func (in *Inspector) freeID(id string, taken map[string]bool) string {
	base := id
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		if _, err := strconv.Atoi(id[i+1:]); err == nil && isIndex(id[i+1:]) {
			base = id[:i]
		}
	}
	for n := 2; ; n++ {
		c := base + "-" + strconv.Itoa(n)
		if _, used := in.reg.EntityByID(c); !used && !taken[c] {
			return c
		}
	}
}

// fits answers 409 if sn made under parent would nest deeper, or make
// the scene larger, than a scene file may (as POST /api/entities).
func (in *Inspector) fits(parent ecs.Entity, sn *entSnap) *reply {
	if rep := in.withinLimits(parent); rep != nil {
		return rep
	}
	if rep := in.fitsDepth(parent, sn); rep != nil {
		return rep
	}
	lim := in.opt.Limits
	if n := in.w.Len() + sn.size(); n > lim.MaxEntities {
		rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: the scene would hold %d entities, more than a scene file may (%d, loader.Limits.MaxEntities)", n, lim.MaxEntities))
		return &rep
	}
	return nil
}

// fitsDepth answers 409 if sn under parent would nest deeper than a
// scene file may.
func (in *Inspector) fitsDepth(parent ecs.Entity, sn *entSnap) *reply {
	depth := sn.depth()
	for p, ok := parent, !parent.IsZero(); ok; p, ok = in.w.Parent(p) {
		depth++
	}
	lim := in.opt.Limits
	if depth > lim.MaxDepth {
		rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: entities would be nested %d deep, deeper than a scene file may nest them (%d, loader.Limits.MaxDepth): the dump would not load back", depth, lim.MaxDepth))
		return &rep
	}
	return nil
}

// putParent: PUT /api/entities/REF/parent[?save=1], the body the new
// parent's reference (id or path), or empty for the root.
func (in *Inspector) putParent(w http.ResponseWriter, r *http.Request, ref string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	parent := strings.TrimSpace(string(body))
	in.do(w, r, func() reply {
		return in.apply(&JournalLine{Op: "reparent", Ref: ref, Parent: parent, Save: save})
	})
}

// execReparent moves entity l.Ref under l.Parent ("" for the root), last
// among its new siblings, keeping its own (local) position, rotation and
// scale. 409 for a move under itself or one of its descendants.
func (in *Inspector) execReparent(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	var parent ecs.Entity
	if l.Parent != "" {
		if parent, err = in.resolve(l.Parent); err != nil {
			return errReply(http.StatusBadRequest, "inspect: parent: "+err.Error())
		}
		if parent == e || in.w.IsAncestor(e, parent) {
			return errReply(http.StatusConflict, fmt.Sprintf("inspect: cannot move %s under %s: it is %s", in.label(e), in.label(parent), map[bool]string{true: "itself", false: "one of its descendants"}[parent == e]))
		}
	}
	if rep := in.fitsDepth(parent, in.snapshotShape(e)); rep != nil {
		return *rep
	}
	label, oldRef := in.label(e), in.path(e)
	from := in.placeOf(e)
	if err := in.w.InsertChild(parent, e, -1); err != nil {
		return errReply(http.StatusConflict, "inspect: "+err.Error())
	}
	to := in.placeOf(e)
	s := in.hist.slotOf(e)
	ev := changeEvent{Op: "reparent", Ref: in.path(e), Entity: in.label(e),
		Entries: []live.DiffEntry{{Kind: live.EntityMoved, Entity: in.label(e), Old: oldRef, New: in.path(e)}}}
	var f *savedFile
	if l.Save {
		sv, err := live.NewSaver(in.opt.Reloader).PrepareReparent(e)
		if err == nil {
			_, err = sv.Commit()
		}
		if err != nil {
			_ = in.moveTo(s, from, "move it back")
			return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
		}
		ev.Saved, ev.File, f = true, sv.Name, fileOf(sv)
	}
	in.hub.publish("change", ev)
	where := "the root"
	if !parent.IsZero() {
		where = in.label(parent)
	}
	x := &entry{Op: "reparent", Ref: oldRef, Entity: label, Summary: "move " + label + " under " + where, Saved: ev.Saved, File: ev.File}
	x.undo = func() *reply { return in.moveSaved(s, from, f, true, "undo "+x.Summary) }
	x.redo = func() *reply { return in.moveSaved(s, to, f, false, "redo "+x.Summary) }
	in.record(x)
	return okReply(in.entityInfo(e))
}

// snapshotShape is a snapshot of e's subtree shape only (for limits).
func (in *Inspector) snapshotShape(e ecs.Entity) *entSnap {
	sn := &entSnap{}
	for _, k := range in.w.Children(e) {
		sn.kids = append(sn.kids, in.snapshotShape(k))
	}
	return sn
}

// moveTo puts the entity s names back at p.
func (in *Inspector) moveTo(s *slot, p place, what string) *reply {
	e, bad := in.alive(s, what)
	if bad != nil {
		return bad
	}
	parent, bad := in.parentOf(p, what)
	if bad != nil {
		return bad
	}
	if !parent.IsZero() && (parent == e || in.w.IsAncestor(e, parent)) {
		rep := errReply(http.StatusConflict, "inspect: cannot "+what+": it would go under itself")
		return &rep
	}
	if err := in.w.InsertChild(parent, e, p.index); err != nil {
		rep := errReply(http.StatusConflict, "inspect: cannot "+what+": "+err.Error())
		return &rep
	}
	return nil
}

// entityActions are the endpoints under /api/entities/REF/ other than
// components and events: what they take.
var entityActions = map[string]string{"clone": "POST", "parent": "PUT"}

// splitActionPath cuts /api/entities/REF/ACTION (clone, parent) into the
// unescaped reference and the action; ok is false for another path.
func splitActionPath(u *url.URL) (ref, action string, ok bool) {
	rest := strings.TrimPrefix(u.EscapedPath(), "/api/entities/")
	i := strings.LastIndexByte(rest, '/')
	if i <= 0 {
		return "", "", false
	}
	action = rest[i+1:]
	if _, known := entityActions[action]; !known {
		return "", "", false
	}
	ref, err := url.PathUnescape(rest[:i])
	if err != nil || ref == "" {
		return "", "", false
	}
	return ref, action, true
}

// entityAction serves /api/entities/REF/ACTION.
func (in *Inspector) entityAction(w http.ResponseWriter, r *http.Request, ref, action string) {
	switch action {
	case "clone":
		in.methods(w, r, handlers{"POST": func(w http.ResponseWriter, r *http.Request) { in.postClone(w, r, ref) }})
	case "parent":
		in.methods(w, r, handlers{"PUT": func(w http.ResponseWriter, r *http.Request) { in.putParent(w, r, ref) }})
	}
}

// moveSaved is moveTo for undo (back) or redo of a reparenting, the
// entity's block moved in the file too for a saved one (f).
func (in *Inspector) moveSaved(s *slot, p place, f *savedFile, back bool, what string) *reply {
	if f == nil {
		return in.moveTo(s, p, what)
	}
	e, bad := in.alive(s, what)
	if bad != nil {
		return bad
	}
	from, to := f.before, f.after
	if back {
		from, to = to, from
	}
	sv, err := live.NewSaver(in.opt.Reloader).PrepareSwapMove(e, f.path, from, to)
	if err != nil {
		rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
		return &rep
	}
	old := in.placeOf(e)
	if bad := in.moveTo(s, p, what); bad != nil {
		return bad
	}
	if _, err := sv.Commit(); err != nil {
		_ = in.moveTo(s, old, what)
		rep := errReply(saveStatus(err), "inspect: cannot "+what+": the file was not written, and nothing changed: "+err.Error())
		return &rep
	}
	return nil
}
