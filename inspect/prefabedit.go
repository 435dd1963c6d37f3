package inspect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

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

// prefabRequest is the body of POST /api/entities/REF/prefab/ACTION.
type prefabRequest struct {
	Component string `json:"component"`
	Property  string `json:"property"`
	Name      string `json:"name"`
}

// prefabActions are the actions under /api/entities/REF/prefab/.
var prefabActions = map[string]bool{"apply": true, "revert": true, "variant": true}

// splitPrefabPath cuts /api/entities/REF/prefab/ACTION into the
// unescaped reference and the action; ok is false for another path.
func splitPrefabPath(u *url.URL) (ref, action string, ok bool) {
	rest := strings.TrimPrefix(u.EscapedPath(), "/api/entities/")
	i := strings.LastIndex(rest, "/prefab/")
	if i <= 0 || !prefabActions[rest[i+len("/prefab/"):]] {
		return "", "", false
	}
	ref, err := url.PathUnescape(rest[:i])
	if err != nil || ref == "" {
		return "", "", false
	}
	return ref, rest[i+len("/prefab/"):], true
}

// postPrefab: POST /api/entities/REF/prefab/ACTION.
func (in *Inspector) postPrefab(w http.ResponseWriter, r *http.Request, ref, action string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	var req prefabRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		writeError(w, http.StatusBadRequest, `inspect: body: want {"component": "name", "property": "name"} (property optional), or {"name": "new-prefab"} for a variant`)
		return
	}
	if action == "variant" {
		if !validWord(req.Name) {
			writeError(w, http.StatusBadRequest, `inspect: body: want {"name": "new-prefab"} (no spaces or control characters)`)
			return
		}
		in.do(w, r, func() reply { return in.apply(&JournalLine{Op: "variant", Ref: ref, Name: req.Name, Save: save}) })
		return
	}
	if req.Component == "" {
		writeError(w, http.StatusBadRequest, `inspect: body: "component" is missing`)
		return
	}
	in.do(w, r, func() reply {
		return in.apply(&JournalLine{Op: action, Ref: ref, Component: req.Component, Property: req.Property, Save: save})
	})
}

// execRevert gives component l.Component (or its property l.Property) of
// instance l.Ref its prefab's value again: the values the prefab's root
// composes, defaults for the properties it does not write; a component
// the prefab does not have is removed.
func (in *Inspector) execRevert(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	name := l.Component
	c, bad := in.component("set", name)
	if bad != nil {
		return *bad
	}
	node, rep := in.prefabRoot(e)
	if rep != nil {
		return *rep
	}
	want, has := prefabValues(c.Schema, node, name)
	had := in.reg.Has(e, name)
	var old []any
	if had {
		if v, err := in.reg.Values(e, name); err == nil {
			old = cloneValues(v)
		}
	}
	var now []any
	switch {
	case l.Property != "":
		idx := propIndex(c.Schema, l.Property)
		if idx < 0 {
			return errReply(http.StatusNotFound, fmt.Sprintf("inspect: component %q has no property %q", name, l.Property))
		}
		if !had {
			return errReply(http.StatusNotFound, fmt.Sprintf("inspect: entity %q has no component %q", l.Ref, name))
		}
		now = cloneValues(old)
		now[idx] = want[idx]
	case has:
		now = want
	}
	var sv *live.SaveEdit
	if l.Save {
		saver := live.NewSaver(in.opt.Reloader)
		if l.Property != "" {
			sv, err = saver.PrepareDropProperty(e, name, l.Property)
		} else {
			sv, err = saver.PrepareDropOverride(e, name)
		}
		if err != nil {
			return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
		}
	}
	if now == nil {
		if had {
			err = in.reg.Remove(e, name)
		}
	} else {
		err = in.reg.SetPatch(e, name, valuesPatch(cloneValues(now)), registry.Merge)
	}
	if err != nil {
		return writeErrReply(http.StatusConflict, err)
	}
	ev := changeEvent{Op: "revert", Ref: in.path(e), Entity: in.label(e), Component: name}
	if attr, err := in.reg.Attr(e, name); err == nil && now != nil {
		ev.Attr = attr
	}
	if sv != nil {
		if rep := in.commitSave(sv, &ev); rep != nil {
			return *rep
		}
	}
	in.hub.publish("change", ev)
	x := in.componentEntry(&ev, e, name, had, old, now, fileOf(sv))
	x.Summary = "revert " + name + " of " + ev.Entity + " to its prefab"
	if l.Property != "" {
		x.Summary = "revert " + name + "." + l.Property + " of " + ev.Entity + " to its prefab"
	}
	in.record(x)
	return okReply(ev)
}

// prefabRoot returns the prefab node e is the root instance of, or a
// 409 saying e is not one.
func (in *Inspector) prefabRoot(e ecs.Entity) (*registry.PrefabNode, *reply) {
	name := in.reg.Prefabs().Of(e)
	p, ok := in.reg.Prefabs().Get(name)
	if name == "" || !ok || p.Root == nil || in.reg.Prefabs().PartKey(e) != "" {
		rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: %s is not the root of an instance of a prefab (a part of one is reverted through its prefab's file)", in.label(e)))
		return nil, &rep
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

// execApplyPrefab writes the value of component l.Component (or its
// property l.Property) of instance l.Ref into its prefab in the scene
// file, and applies that to the running scene: every instance that does
// not write the component itself follows. It needs ?save=1 (the prefab
// is the file's).
func (in *Inspector) execApplyPrefab(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	if !l.Save {
		return errReply(http.StatusConflict, "inspect: applying a value to a prefab writes the prefab in the scene file: ask with ?save=1; nothing changed")
	}
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	name := l.Component
	c, bad := in.component("set", name)
	if bad != nil {
		return *bad
	}
	if _, rep := in.prefabRoot(e); rep != nil {
		return *rep
	}
	vals, err := in.reg.Values(e, name)
	if err != nil || !in.reg.Has(e, name) {
		return errReply(http.StatusNotFound, fmt.Sprintf("inspect: entity %q has no component %q", l.Ref, name))
	}
	attr := c.Schema.PrintAttr(vals)
	if l.Property != "" {
		idx := propIndex(c.Schema, l.Property)
		if idx < 0 {
			return errReply(http.StatusNotFound, fmt.Sprintf("inspect: component %q has no property %q", name, l.Property))
		}
		attr = l.Property + ": " + c.Schema.Props[idx].Print(vals[idx])
	}
	prefab := in.reg.Prefabs().Of(e)
	sv, err := live.NewSaver(in.opt.Reloader).PrepareApplyPrefab(prefab, name, attr)
	if err != nil {
		return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
	}
	d, err := sv.Commit()
	if err != nil {
		return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
	}
	ev := changeEvent{Op: "apply", Ref: in.path(e), Entity: in.label(e), Component: name, Attr: attr, Saved: true, File: sv.Name}
	ev.Entries, _ = capEntries(d.Entries(in.reg))
	in.hub.publish("change", ev)
	f := fileOf(sv)
	x := &entry{Op: "apply", Ref: ev.Ref, Entity: ev.Entity, Component: name, Saved: true, File: sv.Name,
		Summary: "apply " + name + " of " + ev.Entity + " to prefab " + prefab}
	if l.Property != "" {
		x.Summary = "apply " + name + "." + l.Property + " of " + ev.Entity + " to prefab " + prefab
	}
	swap := func(from, to []byte, what string) *reply {
		if f == nil {
			return nil // the prefab already said so: nothing was written
		}
		sv, err := live.NewSaver(in.opt.Reloader).PrepareSwapPrefab(prefab, name, f.path, from, to)
		if err == nil {
			_, err = sv.Commit()
		}
		if err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
			return &rep
		}
		return nil
	}
	x.undo = func() *reply {
		if f == nil {
			return nil
		}
		return swap(f.after, f.before, "undo "+x.Summary)
	}
	x.redo = func() *reply {
		if f == nil {
			return nil
		}
		return swap(f.before, f.after, "redo "+x.Summary)
	}
	in.record(x)
	return okReply(ev)
}

// execVariant adds prefab l.Name to the scene file: a variant of the
// prefab instance l.Ref is made from, with every component the instance
// has a value of its own for (its position and rotation, which place
// the instance, aside). It needs ?save=1; the instance stays as it is.
func (in *Inspector) execVariant(l *JournalLine) reply {
	if rep := in.noSave(l.Save); rep != nil {
		return *rep
	}
	if !l.Save {
		return errReply(http.StatusConflict, "inspect: a variant is a new prefab of the scene file: ask with ?save=1; nothing changed")
	}
	e, err := in.resolve(l.Ref)
	if err != nil {
		return refError(err)
	}
	node, rep := in.prefabRoot(e)
	if rep != nil {
		return *rep
	}
	base := in.reg.Prefabs().Of(e)
	comps, rep := in.tuned(e, node)
	if rep != nil {
		return *rep
	}
	sv, err := live.NewSaver(in.opt.Reloader).PrepareVariant(l.Name, base, comps)
	if err == nil {
		_, err = sv.Commit()
	}
	if err != nil {
		return errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
	}
	ev := changeEvent{Op: "variant", Ref: in.path(e), Entity: in.label(e), Saved: true, File: sv.Name}
	in.hub.publish("change", ev)
	f := fileOf(sv)
	x := &entry{Op: "variant", Ref: ev.Ref, Entity: ev.Entity, Saved: true, File: sv.Name,
		Summary: "make prefab " + l.Name + " from " + ev.Entity + " (a variant of " + base + ")"}
	swap := func(from, to []byte, what string) *reply {
		sv, err := live.NewSaver(in.opt.Reloader).PrepareSwapVariant(l.Name, f.path, from, to)
		if err == nil {
			_, err = sv.Commit()
		}
		if err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
			return &rep
		}
		return nil
	}
	x.undo = func() *reply { return swap(f.after, f.before, "undo "+x.Summary) }
	x.redo = func() *reply { return swap(f.before, f.after, "redo "+x.Summary) }
	in.record(x)
	return okReply(ev)
}

// tuned returns e's components whose values differ from those the prefab
// node composes (or that it lacks), as name and attribute string; the
// read-only ones and position and rotation left out. A component of the
// prefab that e lacks is a 409: a variant cannot take it away.
func (in *Inspector) tuned(e ecs.Entity, node *registry.PrefabNode) ([][2]string, *reply) {
	var out [][2]string
	have := map[string]bool{}
	for _, name := range in.reg.EntityComponents(e) {
		have[name] = true
		c, ok := in.reg.Component(name)
		if !ok || c.ReadOnly() || name == "position" || name == "rotation" {
			continue
		}
		vals, err := in.reg.Values(e, name)
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
			attr, _ := in.reg.Attr(e, name)
			out = append(out, [2]string{name, attr})
		}
	}
	for _, np := range node.Components {
		if c, ok := in.reg.Component(np.Name); ok && !c.ReadOnly() && !have[np.Name] {
			rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: %s lacks %s, which its prefab has and a variant cannot take away; nothing changed", in.label(e), np.Name))
			return nil, &rep
		}
	}
	return out, nil
}
