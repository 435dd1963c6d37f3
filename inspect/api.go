package inspect

import (
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

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/loader/export"
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
					return editorError(err), true
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

// getEntity: GET /api/entities/REF.
func (in *Inspector) getEntity(w http.ResponseWriter, r *http.Request, ref string) {
	in.do(w, r, func() reply {
		e, err := in.resolve(ref)
		if err != nil {
			return editorError(err)
		}
		return okReply(in.entityInfo(e))
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
	in.hub.publish("change", changeEvent{Change: editor.Change{Op: op}, Run: &st})
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
