package inspect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/registry"
)

// Changes through the API. Each handler reads and checks its request on
// the HTTP goroutine, then queues a command of package editor for the
// simulation goroutine (edit), where apply makes it through the
// Inspector's Editor (the transaction with the scene's files, the
// history, the journal) and answers what it did. apply is the one place
// the API's changes, undo, redo and a replay's lines are applied.

// JournalLine is one line of a journal file (JSON lines, see
// docs/inspector.md): a change made through the API, as the request
// asked for it, stamped with the ticks that had run when it was applied
// ([editor.Line]).
type JournalLine = editor.Line

// changeEvent is the data of a "change" event: a change the editor made
// ([editor.Change]), or one of the run (pause, play, step; a system's).
type changeEvent struct {
	editor.Change
	// Run is the run's state after pause, play or step.
	Run *runState `json:"run,omitempty"`
}

// edit queues the command c for the simulation goroutine and writes
// what apply answers.
func (in *Inspector) edit(w http.ResponseWriter, r *http.Request, c editor.Command) {
	in.do(w, r, func() reply { return in.apply(c) })
}

// apply makes c through the Editor and answers it: the change made, the
// entity made (201, with its Location) or moved, the event sent, or the
// entry undone or redone. Call on the simulation goroutine.
func (in *Inspector) apply(c editor.Command) reply {
	res, err := in.ed.Apply(c)
	if err != nil {
		return editorError(err)
	}
	switch {
	case res.Step != nil:
		return okReply(res.Step)
	case res.Sent != nil:
		return okReply(res.Sent)
	case res.Entity.IsZero():
		return okReply(changeEvent{Change: *res.Change})
	}
	rep := okReply(in.entityInfo(res.Entity))
	if res.Created {
		rep.status = http.StatusCreated
		rep.header = map[string]string{"Location": "/api/entities/" + url.PathEscape(res.Change.Ref)}
	}
	return rep
}

// kindStatus is the answer's status of each kind of editor.Error.
var kindStatus = map[editor.Kind]int{
	editor.Invalid:  http.StatusBadRequest,
	editor.NotFound: http.StatusNotFound,
	editor.Conflict: http.StatusConflict,
	editor.NoFiles:  http.StatusNotImplemented,
	editor.Failed:   http.StatusInternalServerError,
	editor.Nothing:  http.StatusConflict,
}

// editorError answers a command the editor refused, or an entity
// reference that names nothing: the status of its kind, its message
// after "inspect: " (an attribute string's error as the parser words it,
// with the property and the byte offset in the body; "nothing to undo"
// as it is).
func editorError(err error) reply {
	var ee *editor.Error
	if !errors.As(err, &ee) {
		return errReply(http.StatusInternalServerError, "inspect: "+err.Error())
	}
	body := errorBody{Error: "inspect: " + ee.Msg}
	var ae *registry.AttrError
	switch {
	case ee.Kind == editor.Nothing:
		body.Error = ee.Msg
	case ee.Kind == editor.NoFiles:
		body.Error = "inspect: saving changes to the scene file (?save=1) needs the scene's file, and this program did not give it (inspect.Options.Reloader); the change was not made"
	case ee.Kind == editor.Invalid && errors.As(ee.Err, &ae):
		off := ae.Offset
		body.Error, body.Property, body.Offset = ee.Msg, ae.Property, &off
	}
	return reply{status: kindStatus[ee.Kind], body: body}
}

// Apply runs the change a journal line describes, as the API would have
// (recording it in the history and, with Options.Journal, the journal),
// but never saving it into a file: a replay reproduces a run's World,
// not its saves. It returns an error saying why the change was refused,
// which means the replay no longer follows the run that wrote the line.
// Call it on the goroutine that ticks the Registry, between ticks.
func (in *Inspector) Apply(l JournalLine) error {
	l.Save = false
	c, err := editor.Decode(l)
	var rep reply
	if err != nil {
		rep = editorError(err)
	} else {
		rep = in.apply(c)
	}
	if rep.status < 300 {
		return nil
	}
	if eb, ok := rep.body.(errorBody); ok {
		return fmt.Errorf("%s %s: %d: %s", l.Op, l.Ref, rep.status, eb.Error)
	}
	return fmt.Errorf("%s %s: %d", l.Op, l.Ref, rep.status)
}

// putComponent: PUT /api/entities/REF/components/NAME with an attribute
// string as the body (editor.Set); NAME.PATH (position.x, spin.speed,
// spin.axis.y) with the value of that part alone.
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
	name, path, dot := strings.Cut(name, ".")
	if dot && path == "" {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: %q: expected a property or axes after the dot (position.x, spin.speed, spin.axis.y)", name+"."))
		return
	}
	in.edit(w, r, &editor.Set{Ref: ref, Component: name, Path: path, Attr: strings.TrimRight(string(body), " \t\r\n"), Save: save})
}

// deleteComponent: DELETE /api/entities/REF/components/NAME.
func (in *Inspector) deleteComponent(w http.ResponseWriter, r *http.Request, ref, name string) {
	if strings.Contains(name, ".") {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: %q: a component is removed whole (DELETE .../components/%s)", name, name[:strings.IndexByte(name, '.')]))
		return
	}
	if save, ok := in.wantSave(w, r); ok {
		in.edit(w, r, &editor.Remove{Ref: ref, Component: name, Save: save})
	}
}

// postEntity: POST /api/entities. The body is checked here
// (editor.CheckCreate), then against the World; a bad request changes
// nothing.
func (in *Inspector) postEntity(w http.ResponseWriter, r *http.Request) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	if err := editor.CheckCreate(body); err != nil {
		editorError(err).write(w)
		return
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, body); err != nil {
		writeError(w, http.StatusBadRequest, "inspect: body: "+err.Error())
		return
	}
	in.edit(w, r, &editor.Create{Body: compact.Bytes(), Save: save})
}

// deleteEntity: DELETE /api/entities/REF destroys the entity and its
// subtree.
func (in *Inspector) deleteEntity(w http.ResponseWriter, r *http.Request, ref string) {
	if save, ok := in.wantSave(w, r); ok {
		in.edit(w, r, &editor.Destroy{Ref: ref, Save: save})
	}
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
	var req struct {
		ID string `json:"id"`
	}
	if len(bytes.TrimSpace(body)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || dec.More() {
			writeError(w, http.StatusBadRequest, `inspect: body: want nothing, or {"id": "the copy's id"}`)
			return
		}
		if req.ID != "" && !editor.ValidWord(req.ID) {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: invalid id %q (no spaces or control characters)", req.ID))
			return
		}
	}
	in.edit(w, r, &editor.Clone{Ref: ref, ID: req.ID, Save: save})
}

// putParent: PUT /api/entities/REF/parent[?save=1], the body the new
// parent's reference (id or path), or empty for the root.
func (in *Inspector) putParent(w http.ResponseWriter, r *http.Request, ref string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	if body, ok := in.readBody(w, r); ok {
		in.edit(w, r, &editor.Reparent{Ref: ref, Parent: strings.TrimSpace(string(body)), Save: save})
	}
}

// postPrefab: POST /api/entities/REF/prefab/ACTION (revert, apply,
// variant), the body {"component": "name", "property": "name"}, or
// {"name": "new-prefab"} for a variant.
func (in *Inspector) postPrefab(w http.ResponseWriter, r *http.Request, ref, action string) {
	save, ok := in.wantSave(w, r)
	if !ok {
		return
	}
	body, ok := in.readBody(w, r)
	if !ok {
		return
	}
	var req struct{ Component, Property, Name string }
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		writeError(w, http.StatusBadRequest, `inspect: body: want {"component": "name", "property": "name"} (property optional), or {"name": "new-prefab"} for a variant`)
		return
	}
	switch {
	case action == "variant" && !editor.ValidWord(req.Name):
		writeError(w, http.StatusBadRequest, `inspect: body: want {"name": "new-prefab"} (no spaces or control characters)`)
	case action == "variant":
		in.edit(w, r, &editor.Variant{Ref: ref, Name: req.Name, Save: save})
	case req.Component == "":
		writeError(w, http.StatusBadRequest, `inspect: body: "component" is missing`)
	case action == "revert":
		in.edit(w, r, &editor.Revert{Ref: ref, Component: req.Component, Property: req.Property, Save: save})
	default:
		in.edit(w, r, &editor.ApplyPrefab{Ref: ref, Component: req.Component, Property: req.Property, Save: save})
	}
}

// getHistory: GET /api/history.
func (in *Inspector) getHistory(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { return okReply(in.ed.History()) })
}
