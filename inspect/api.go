package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// The endpoint handlers. Each reads and checks the request on the HTTP
// goroutine, then queues a function for the simulation goroutine (do):
// only that function touches the Registry and the World.

// getScene: GET /api/scene[?root=REF]. The dump is captured in steps
// (export.JSONCapture), within each Drain's budget, and formatted off the
// simulation goroutine; X-Scene-Ticks says the tick (or first-last ticks)
// the capture saw.
func (in *Inspector) getScene(w http.ResponseWriter, r *http.Request) {
	root := r.URL.Query().Get("root")
	var c *export.JSONCapture
	var hdr map[string]string
	var first uint64
	in.doSteps(w, r, func(until time.Time) (reply, bool) {
		if c == nil {
			var opt export.Options
			if root != "" {
				e, err := in.resolve(root)
				if err != nil {
					return refError(err), true
				}
				opt.Root = e
			}
			c, hdr, first = export.NewJSONCapture(in.reg, opt), in.versionHeader(), in.stats.ticksNow()
		}
		if !c.Capture(until) {
			return reply{}, false
		}
		hdr["X-Scene-Ticks"] = ticksRange(first, in.stats.ticksNow())
		return reply{status: http.StatusOK, header: hdr, encode: func(w io.Writer) error {
			_, err := c.WriteTo(w)
			return err
		}}, true
	})
}

// ticksRange prints the ticks a capture saw: "T", or "FIRST-LAST".
func ticksRange(first, last uint64) string {
	if first == last {
		return strconv.FormatUint(first, 10)
	}
	return strconv.FormatUint(first, 10) + "-" + strconv.FormatUint(last, 10)
}

func (in *Inspector) versionHeader() map[string]string {
	return map[string]string{"X-Scene-Version": strconv.FormatUint(in.w.Version(), 10)}
}

// queryResult is the answer of GET /api/query.
type queryResult struct {
	Selector string   `json:"selector"`
	Count    int      `json:"count"`
	Matches  []string `json:"matches"`
	// Version is the World's structural version (ecs.World.Version)
	// when the query ran.
	Version  uint64               `json:"version"`
	Entities []*export.DumpEntity `json:"entities,omitempty"`
}

// getQuery: GET /api/query?selector=S[&full=1].
func (in *Inspector) getQuery(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sel := q.Get("selector")
	if strings.TrimSpace(sel) == "" {
		writeError(w, http.StatusBadRequest, "inspect: missing selector (GET /api/query?selector=...)")
		return
	}
	full, ok := boolParam(w, q, "full")
	if !ok {
		return
	}
	var out *queryResult
	var c *export.DumpCapture // full=1: the matches' dump, in steps
	in.doSteps(w, r, func(until time.Time) (reply, bool) {
		if out == nil {
			es, err := in.query(sel)
			if err != nil {
				return selectorReply(err), true
			}
			out = &queryResult{Selector: sel, Count: len(es), Matches: in.paths(es), Version: in.w.Version()}
			if !full {
				return okReply(out), true
			}
			c = export.NewDumpCapture(in.reg, es)
		}
		if !c.Capture(until) {
			return reply{}, false
		}
		return reply{status: http.StatusOK, encode: func(w io.Writer) error {
			out.Entities = c.Entities()
			b, err := json.Marshal(out)
			if err == nil {
				_, err = w.Write(append(b, '\n'))
			}
			return err
		}}, true
	})
}

// query runs a selector compiled for this request only: selectors the
// clients type are not kept (the Registry's own cache would keep every
// one, with its filters in the World).
func (in *Inspector) query(src string) ([]ecs.Entity, error) {
	s, err := in.reg.Compile(src)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.QueryAll(nil), nil
}

// selectorReply answers a selector that does not compile: 400 with the
// message "selector:1:COL: ..." and the column.
func selectorReply(err error) reply {
	var se *selector.Error
	if errors.As(err, &se) {
		return reply{status: http.StatusBadRequest, body: errorBody{Error: se.Error(), Col: se.Col}}
	}
	return errReply(http.StatusBadRequest, err.Error())
}

func boolParam(w http.ResponseWriter, q url.Values, name string) (v, ok bool) {
	switch s := q.Get(name); s {
	case "", "0", "false":
		return false, true
	case "1", "true":
		return true, true
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: %s=%q: want 1 or 0", name, s))
		return false, false
	}
}

// componentInfo describes one component for editors.
type componentInfo struct {
	Name string `json:"name"`
	// Single: written as a bare value (one unnamed property).
	Single bool `json:"single"`
	// Tag: no properties, written with an empty value.
	Tag bool `json:"tag"`
	// Multiple: an entity may hold several instances, name__id.
	Multiple bool `json:"multiple"`
	// Declared: declared by a scene (data only, no Go type or hooks).
	Declared bool `json:"declared"`
	// ReadOnly: only its owner writes it (registry.Component.ReadOnly);
	// the API refuses to set, remove or add it (409). Owner says what
	// writes it.
	ReadOnly     bool       `json:"readOnly"`
	Owner        string     `json:"owner,omitempty"`
	Dependencies []string   `json:"dependencies,omitempty"`
	Properties   []propInfo `json:"properties"`
}

// propInfo describes one property.
type propInfo struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Default string   `json:"default"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
	OneOf   []string `json:"oneOf,omitempty"`
}

// systemInfo describes one system and its current settings.
type systemInfo struct {
	Name       string     `json:"name"`
	Properties []propInfo `json:"properties"`
	// Value is the current settings as an attribute string.
	Value string `json:"value"`
}

func propInfos(s *registry.Schema) []propInfo {
	out := make([]propInfo, len(s.Props))
	for i := range s.Props {
		p := &s.Props[i]
		out[i] = propInfo{Name: p.Name, Type: p.Type.Name, Default: p.Print(p.Default), Min: p.Min, Max: p.Max, OneOf: p.OneOf}
	}
	return out
}

// getComponents: GET /api/components.
func (in *Inspector) getComponents(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply {
		var out struct {
			Components []componentInfo `json:"components"`
			Systems    []systemInfo    `json:"systems"`
		}
		for _, c := range in.reg.Components() {
			out.Components = append(out.Components, componentInfo{
				Name: c.Name, Single: c.Schema.Single(), Tag: c.Schema.IsTag(), Multiple: c.Multiple,
				Declared: c.Declared, ReadOnly: c.ReadOnly(), Owner: c.Owner(),
				Dependencies: c.Dependencies, Properties: propInfos(c.Schema),
			})
		}
		sort.Slice(out.Components, func(i, j int) bool { return out.Components[i].Name < out.Components[j].Name })
		out.Systems = []systemInfo{}
		for _, s := range in.reg.Systems() {
			out.Systems = append(out.Systems, systemInfo{Name: s.Name, Properties: propInfos(s.Schema), Value: s.Schema.PrintAttr(s.Values())})
		}
		sort.Slice(out.Systems, func(i, j int) bool { return out.Systems[i].Name < out.Systems[j].Name })
		return okReply(out)
	})
}

// entityInfo is the answer of GET /api/entities/REF.
type entityInfo struct {
	// Ref is the reference scene-run query prints (id or path).
	Ref string `json:"ref"`
	ID  string `json:"id,omitempty"`
	// Handle is the entity's handle ("e12v0"), also a valid reference.
	Handle   string           `json:"handle"`
	Class    []string         `json:"class"`
	Parent   *string          `json:"parent"`
	Children []string         `json:"children"`
	Comps    []componentValue `json:"components"`
	// World is the entity's world transform (position, rotation and
	// scale in world space), as dumps write it; absent for an entity
	// without a transform.
	World json.RawMessage `json:"world,omitempty"`
	// Source is where the scene file writes the entity, when the
	// Inspector knows the scene and the entity comes from it.
	Source string `json:"source,omitempty"`
	// Behaviour is the entity's running behaviour (animations with their
	// progress, timers, handlers, bindings with their values), when the
	// Inspector knows it (Options.Behaviour) and it has some.
	Behaviour any `json:"behaviour,omitempty"`
}

// componentValue is one component of an entity: as an attribute string
// and as the typed value of the JSON dump.
type componentValue struct {
	Name  string          `json:"name"`
	Attr  string          `json:"attr"`
	Value json.RawMessage `json:"value"`
}

func (in *Inspector) entityInfo(e ecs.Entity) *entityInfo {
	d := export.DumpEntities(in.reg, []ecs.Entity{e})[0]
	out := &entityInfo{Ref: d.Path, ID: d.ID, Handle: e.String(), Class: d.Class, Parent: d.Parent, Children: []string{}, Comps: []componentValue{}, World: d.Computed[worldName]}
	out.Children = append(out.Children, in.paths(in.w.Children(e))...)
	for _, name := range in.reg.EntityComponents(e) {
		v, ok := d.Components[name]
		if !ok {
			continue // read-only components: apart, as in dumps
		}
		attr, err := in.reg.Attr(e, name)
		if err != nil {
			continue
		}
		out.Comps = append(out.Comps, componentValue{Name: name, Attr: attr, Value: v})
	}
	if s := in.opt.Scene; s != nil {
		if n, ok := s.NodeOf(e); ok && n.Src != nil && n.Src.Pos.IsValid() {
			out.Source = n.Src.Pos.String()
		}
	}
	out.Behaviour = in.behaviourOf(e)
	return out
}

// refError answers an entity reference that names nothing (404).
func refError(err error) reply {
	var nf *notFoundError
	if errors.As(err, &nf) {
		return errReply(http.StatusNotFound, err.Error())
	}
	return errReply(http.StatusBadRequest, err.Error())
}

// getEntity: GET /api/entities/REF.
func (in *Inspector) getEntity(w http.ResponseWriter, r *http.Request, ref string) {
	in.do(w, r, func() reply {
		e, err := in.resolve(ref)
		if err != nil {
			return refError(err)
		}
		return okReply(in.entityInfo(e))
	})
}

// changeEvent is the data of a "change" event, and the answer of the
// requests that change something.
type changeEvent struct {
	// Op is "set", "remove", "create" or "destroy"; for changes of the
	// run, "pause", "play" or "step".
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
	// Saved reports that the change was saved (?save=1): File, the scene
	// file it went to (as the scene names it), now says it.
	Saved bool   `json:"saved,omitempty"`
	File  string `json:"file,omitempty"`
	// Run is the run's state after pause, play or step.
	Run *runState `json:"run,omitempty"`
}

// attrErrorReply answers an attribute string the parser refuses: 400
// with its message, the property and the byte offset in the body.
func attrErrorReply(err error) reply {
	body := errorBody{Error: err.Error()}
	var ae *registry.AttrError
	if errors.As(err, &ae) {
		off := ae.Offset
		body.Property, body.Offset = ae.Property, &off
	}
	return reply{status: http.StatusBadRequest, body: body}
}

// component finds the component name (or instance name__id) for a change
// op ("set", "remove"): 404 if no such component is registered or
// declared, 409 if it is read-only.
func (in *Inspector) component(op, name string) (*registry.Component, *reply) {
	c, ok := in.reg.Component(name)
	if !ok {
		var msg string
		if _, _, err := in.reg.Lookup(name); err != nil {
			msg = "inspect: " + err.Error()
		} else {
			msg = fmt.Sprintf("inspect: unknown component %q", name)
		}
		rep := errReply(http.StatusNotFound, msg)
		return nil, &rep
	}
	if rep := in.writable(op, name); rep != nil {
		return nil, rep
	}
	return c, nil
}

// putComponent: PUT /api/entities/REF/components/NAME with an attribute
// string as the body. It sets the component as a scene file would
// (merged with the current data; init on add, update(old) on change).
func (in *Inspector) putComponent(w http.ResponseWriter, r *http.Request, ref, name string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	if !utf8.Valid(body) {
		writeError(w, http.StatusBadRequest, "inspect: the attribute string is not valid UTF-8")
		return
	}
	attr := strings.TrimRight(string(body), " \t\r\n")
	in.do(w, r, func() reply {
		if rep := in.noSave(save); rep != nil {
			return *rep
		}
		e, err := in.resolve(ref)
		if err != nil {
			return refError(err)
		}
		c, bad := in.component("set", name)
		if bad != nil {
			return *bad
		}
		p, err := c.Schema.ParseAttr(name, attr)
		if err == nil && c.HasCheck() {
			// What a scene file's value is checked for (an expression's
			// names, an animation's path), placed in the body.
			err = c.CheckAttr(&registry.CheckContext{Registry: in.reg, Name: name}, name, attr, p)
		}
		if err != nil {
			return attrErrorReply(err)
		}
		var sv *live.SaveEdit
		if save {
			if sv, bad = in.prepareSave(e, name, attr, false); bad != nil {
				return *bad
			}
		}
		had := in.reg.Has(e, name)
		var old []any
		if had {
			old, _ = in.reg.Values(e, name)
		}
		if err := in.reg.SetPatch(e, name, p, registry.Merge); err != nil {
			return writeErrReply(http.StatusBadRequest, err)
		}
		ev := changeEvent{Op: "set", Ref: in.path(e), Entity: in.label(e), Component: name, Entries: []live.DiffEntry{}}
		if nv, err := in.reg.Values(e, name); err == nil {
			ev.Attr = c.Schema.PrintAttr(nv)
			ev.Value = export.DumpEntities(in.reg, []ecs.Entity{e})[0].Components[name]
			if !had {
				ev.Entries = append(ev.Entries, live.DiffEntry{Kind: live.ComponentAdded, Entity: ev.Entity, Component: name, New: ev.Attr})
			} else {
				for i := range c.Schema.Props {
					pr := &c.Schema.Props[i]
					if i < len(old) && !pr.Type.Equal(old[i], nv[i]) {
						ev.Entries = append(ev.Entries, live.DiffEntry{Kind: live.PropertyChanged, Entity: ev.Entity, Component: name,
							Property: pr.Name, Old: pr.Print(old[i]), New: pr.Print(nv[i])})
					}
				}
			}
		}
		return in.changed(ev, sv)
	})
}

// changed publishes a change made through the API, commits its save to
// the scene file if one was prepared (sv), and answers it.
func (in *Inspector) changed(ev changeEvent, sv *live.SaveEdit) reply {
	status := http.StatusOK
	if ev.Op == "create" {
		status = http.StatusCreated
	}
	if sv != nil {
		if rep := in.commitSave(sv, &ev); rep != nil {
			return *rep
		}
	}
	in.hub.publish("change", ev)
	return reply{status: status, body: ev}
}

// deleteComponent: DELETE /api/entities/REF/components/NAME.
func (in *Inspector) deleteComponent(w http.ResponseWriter, r *http.Request, ref, name string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	in.do(w, r, func() reply {
		if rep := in.noSave(save); rep != nil {
			return *rep
		}
		e, err := in.resolve(ref)
		if err != nil {
			return refError(err)
		}
		if _, bad := in.component("remove", name); bad != nil {
			return *bad
		}
		if !in.reg.Has(e, name) {
			return errReply(http.StatusNotFound, fmt.Sprintf("inspect: entity %q has no component %q", ref, name))
		}
		var sv *live.SaveEdit
		if save {
			var bad *reply
			if sv, bad = in.prepareSave(e, name, "", true); bad != nil {
				return *bad
			}
		}
		old, _ := in.reg.Attr(e, name)
		ev := changeEvent{Op: "remove", Ref: in.path(e), Entity: in.label(e), Component: name}
		if err := in.reg.Remove(e, name); err != nil {
			return writeErrReply(http.StatusBadRequest, err)
		}
		ev.Entries = []live.DiffEntry{{Kind: live.ComponentRemoved, Entity: ev.Entity, Component: name, Old: old}}
		return in.changed(ev, sv)
	})
}

// createRequest is the body of POST /api/entities.
type createRequest struct {
	// Parent is the parent's reference; empty: a root.
	Parent string `json:"parent"`
	ID     string `json:"id"`
	// Class and Mixin are a space-separated string or an array.
	Class words `json:"class"`
	Mixin words `json:"mixin"`
	// Components maps component names to attribute strings, in order.
	Components attrList `json:"components"`
}

// words is a JSON string of space-separated words or an array of them.
type words []string

// UnmarshalJSON reads a string or an array of strings.
func (ws *words) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*ws = strings.Fields(s)
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("want a string or an array of strings")
	}
	for _, x := range list {
		if !validWord(x) {
			return fmt.Errorf("%q: no spaces or control characters allowed", x)
		}
	}
	*ws = list
	return nil
}

// attrList is a JSON object of component name -> attribute string, kept
// in order.
type attrList [][2]string

// UnmarshalJSON reads the object keeping its order; null stands for the
// empty attribute string (a tag).
func (al *attrList) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t == nil {
		return nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want an object of component name to attribute string")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		k := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return err
		}
		var v string
		switch x := vt.(type) {
		case string:
			v = x
		case nil:
		default:
			return fmt.Errorf("components.%s: want an attribute string (such as \"hp: 5\" or \"1 2 3\")", k)
		}
		*al = append(*al, [2]string{k, v})
	}
	_, err = dec.Token()
	return err
}

// validWord reports whether s can be an id or class name: not empty, no
// white space or control characters (as scene files require).
func validWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// postEntity: POST /api/entities. Everything is checked before the
// entity is made; a bad request changes nothing.
func (in *Inspector) postEntity(w http.ResponseWriter, r *http.Request) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	var req createRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "inspect: body: "+err.Error()+` (want {"parent": REF, "id": ID, "class": "a b", "mixin": "m", "components": {"name": "attribute string"}})`)
		return
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, "inspect: body: more than one JSON value")
		return
	}
	if req.ID != "" && !validWord(req.ID) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: invalid id %q (no spaces or control characters)", req.ID))
		return
	}
	in.do(w, r, func() reply {
		if rep := noEntitySave(save, "creation"); rep != nil {
			return *rep
		}
		var parent ecs.Entity
		if req.Parent != "" {
			p, err := in.resolve(req.Parent)
			if err != nil {
				return errReply(http.StatusBadRequest, "inspect: parent: "+err.Error())
			}
			parent = p
		}
		if rep := in.withinLimits(parent); rep != nil {
			return *rep
		}
		if req.ID != "" {
			if _, used := in.reg.EntityByID(req.ID); used {
				return errReply(http.StatusConflict, fmt.Sprintf("inspect: the id %q is already used", req.ID))
			}
		}
		mixins, err := in.reg.Mixins().Expand(req.Mixin)
		if err != nil {
			return errReply(http.StatusBadRequest, "inspect: mixin: "+err.Error())
		}
		own := make([]registry.NamedPatch, 0, len(req.Components))
		for _, kv := range req.Components {
			c, _, err := in.reg.Lookup(kv[0])
			if err != nil {
				return errReply(http.StatusBadRequest, "inspect: components: "+err.Error())
			}
			p, err := c.Schema.ParseAttr(kv[0], kv[1])
			if err != nil {
				return attrErrorReply(err)
			}
			own = append(own, registry.NamedPatch{Name: kv[0], Patch: p})
		}
		comps := in.reg.Mixins().Compose(mixins, own)
		for _, np := range comps { // own components and the mixins'
			if rep := in.writable("add", np.Name); rep != nil {
				return *rep
			}
		}
		e, err := in.reg.Create(parent, registry.CreateSpec{ID: req.ID, Classes: req.Class, Components: comps})
		if err != nil {
			return writeErrReply(http.StatusBadRequest, err)
		}
		ev := changeEvent{Op: "create", Ref: in.path(e), Entity: in.label(e),
			Entries: []live.DiffEntry{{Kind: live.EntityCreated, Entity: in.label(e)}}}
		rep := in.changed(ev, nil)
		if rep.status == http.StatusCreated {
			rep.body = in.entityInfo(e)
			rep.header = map[string]string{"Location": "/api/entities/" + url.PathEscape(ev.Ref)}
		}
		return rep
	})
}

// withinLimits answers 409 when a new entity under parent (a root if
// zero) would nest deeper than a scene file may (Options.Limits.MaxDepth;
// a root has depth 1), or make the scene's dump hold more entities than
// one may (MaxEntities): the dump would not load back. Nil if it fits.
func (in *Inspector) withinLimits(parent ecs.Entity) *reply {
	lim := in.opt.Limits
	depth := 1
	for p, ok := parent, !parent.IsZero(); ok; p, ok = in.w.Parent(p) {
		depth++
	}
	if depth > lim.MaxDepth {
		rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: parent: the new entity would be nested %d deep, deeper than a scene file may nest entities (%d, loader.Limits.MaxDepth): its dump would not load back", depth, lim.MaxDepth))
		return &rep
	}
	// A dump holds the World's entities and the prefabs' bodies, which
	// a read counts alike.
	n := in.w.Len() + 1
	for _, name := range in.reg.Prefabs().Names() {
		n += in.reg.Prefabs().Size(name)
	}
	if n > lim.MaxEntities {
		rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: the scene would hold %d entities (prefab bodies included), more than a scene file may (%d, loader.Limits.MaxEntities): its dump would not load back", n, lim.MaxEntities))
		return &rep
	}
	return nil
}

// deleteEntity: DELETE /api/entities/REF destroys the entity and its
// subtree.
func (in *Inspector) deleteEntity(w http.ResponseWriter, r *http.Request, ref string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	in.do(w, r, func() reply {
		if rep := noEntitySave(save, "removal"); rep != nil {
			return *rep
		}
		e, err := in.resolve(ref)
		if err != nil {
			return refError(err)
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
		if err := in.w.Destroy(e); err != nil {
			return errReply(http.StatusInternalServerError, "inspect: "+err.Error())
		}
		return in.changed(ev, nil)
	})
}

// runState is the answer of pause, play and step.
type runState struct {
	Paused bool `json:"paused"`
	// Steps is the number of ticks still to run while paused.
	Steps int `json:"steps"`
	// Ticks counts the ticks observed so far.
	Ticks uint64 `json:"ticks"`
}

// runChanged publishes and answers a change of the run (op: pause, play
// or step).
func (in *Inspector) runChanged(op string) reply {
	st := runState{Paused: in.paused, Steps: in.steps, Ticks: in.stats.ticksNow()}
	in.hub.publish("change", changeEvent{Op: op, Run: &st})
	return okReply(st)
}

// setPaused pauses or plays; either cancels the steps still to run.
func (in *Inspector) setPaused(p bool) {
	in.paused, in.steps = p, 0
	in.stats.setPaused(p)
}

// postPause: POST /api/pause stops ticking (Tick and ShouldTick) and
// cancels the steps a step request left to run.
func (in *Inspector) postPause(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { in.setPaused(true); return in.runChanged("pause") })
}

// postPlay: POST /api/play resumes ticking.
func (in *Inspector) postPlay(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { in.setPaused(false); return in.runChanged("play") })
}

// maxSteps bounds /api/step?n=N.
const maxSteps = 1_000_000

// postStep: POST /api/step?n=N pauses and runs N more ticks (default 1).
func (in *Inspector) postStep(w http.ResponseWriter, r *http.Request) {
	n := 1
	if s := r.URL.Query().Get("n"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > maxSteps {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: n=%q: want a number of ticks from 1 to %d", s, maxSteps))
			return
		}
		n = v
	}
	in.do(w, r, func() reply {
		steps := in.steps // a step adds to the steps still to run
		in.setPaused(true)
		in.steps = min(steps+n, maxSteps)
		return in.runChanged("step")
	})
}
