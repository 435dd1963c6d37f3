package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// Commands: every change the API makes goes through apply, which runs it
// on the simulation goroutine, records it in the history with what it
// replaced (journal.go) and writes it into the journal file
// (Options.Journal), one JSON line per command. A replay (Replay) feeds
// the same lines to apply on a fresh run.

// JournalLine is one line of a journal file (JSON lines, see
// docs/inspector.md): a change made through the API, as the request
// asked for it, stamped with the ticks that had run when it was applied.
// Only changes that succeeded are written.
type JournalLine struct {
	// Tick counts the ticks run before the change was applied.
	Tick uint64 `json:"tick"`
	// Op is "set", "remove", "create", "destroy", "clone", "reparent",
	// "emit", "revert" (a prefab instance's override dropped), "apply"
	// (an instance's value pushed into its prefab), "variant", "undo" or
	// "redo"; "reload" marks a hot reload that changed
	// the scene (a replay cannot make it again).
	Op string `json:"op"`
	// Ref is the entity's reference when the change was made.
	Ref       string `json:"ref,omitempty"`
	Component string `json:"component,omitempty"`
	// Property is the property a revert names ("": the whole component).
	Property string `json:"property,omitempty"`
	// Attr is the attribute string of a set.
	Attr string `json:"attr,omitempty"`
	// Save: the change was asked with ?save=1 (a replay never writes
	// files: it makes the change without saving).
	Save bool `json:"save,omitempty"`
	// Body is the JSON body of a create (as POST /api/entities took it).
	Body json.RawMessage `json:"body,omitempty"`
	// ID is the id asked for a clone.
	ID string `json:"id,omitempty"`
	// Name is the new prefab's name of a variant.
	Name string `json:"name,omitempty"`
	// Parent is the new parent of a reparent ("" for the root); Root
	// says the reparent made the entity a root.
	Parent string `json:"parent,omitempty"`
	// Event, Detail and NoBubbles describe an event sent (emit).
	Event     string          `json:"event,omitempty"`
	Detail    json.RawMessage `json:"detail,omitempty"`
	NoBubbles bool            `json:"noBubbles,omitempty"`
}

// apply runs the command l and, if it succeeded, writes it into the
// journal file. Call on the simulation goroutine.
func (in *Inspector) apply(l *JournalLine) reply {
	// A command's event deliveries share one budget (registry.Limits.MaxDeliveries).
	defer in.reg.Events().CloseWindow(in.reg.Events().OpenWindow("inspector call"))
	var rep reply
	switch l.Op {
	case "set":
		rep = in.execSet(l)
	case "remove":
		rep = in.execRemove(l)
	case "create":
		rep = in.execCreate(l)
	case "destroy":
		rep = in.execDestroy(l)
	case "clone":
		rep = in.execClone(l)
	case "reparent":
		rep = in.execReparent(l)
	case "emit":
		rep = in.execEmit(l)
	case "revert":
		rep = in.execRevert(l)
	case "apply":
		rep = in.execApplyPrefab(l)
	case "variant":
		rep = in.execVariant(l)
	case "undo":
		rep = in.undo()
	case "redo":
		rep = in.redo()
	default:
		return errReply(http.StatusBadRequest, fmt.Sprintf("inspect: unknown command %q", l.Op))
	}
	if rep.status < 300 {
		c := *l
		in.journalNote(&c)
	}
	return rep
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

// putBack sets component name of the entity s names to vals, or removes
// it if vals is nil: the World side of undoing or redoing a set or a
// remove. For a saved command (f not nil) the file is edited back first
// (to is the bytes it must hold after, from those it holds now), with
// the checks of save-back; a refusal changes nothing.
func (in *Inspector) putBack(s *slot, name string, vals []any, f *savedFile, from, to []byte, what string) *reply {
	e, bad := in.alive(s, what)
	if bad != nil {
		return bad
	}
	var sv *live.SaveEdit
	if f != nil {
		rl := in.opt.Reloader
		if rl == nil {
			rep := errReply(http.StatusConflict, "inspect: cannot "+what+": the change was saved and the scene file is no longer known")
			return &rep
		}
		var err error
		if sv, err = live.NewSaver(rl).PrepareSwap(e, name, f.path, from, to); err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+", nothing changed: "+err.Error())
			return &rep
		}
	}
	if sv != nil {
		// The file first: applying it to the scene's Plan sets the
		// component to the file's values, which the World's own are then
		// put over (a value moved at run time is put back as it was).
		if _, err := sv.Commit(); err != nil {
			rep := errReply(saveStatus(err), "inspect: cannot "+what+": the file was not written, and nothing changed: "+err.Error())
			return &rep
		}
	}
	var err error
	switch {
	case vals == nil && in.reg.Has(e, name):
		err = in.reg.Remove(e, name)
	case vals != nil:
		err = in.reg.SetPatch(e, name, valuesPatch(cloneValues(vals)), registry.Merge)
	}
	if err != nil {
		msg := "inspect: cannot " + what + ": "
		if sv != nil {
			msg = "inspect: " + what + ": the file was written, but the running scene refused the value: "
		}
		rep := errReply(http.StatusConflict, msg+err.Error())
		return &rep
	}
	return nil
}

// componentEntry makes the history entry of a set or remove of component
// name of e (ev, the change made): had and old are the component before,
// now after (nil: removed).
func (in *Inspector) componentEntry(ev *changeEvent, e ecs.Entity, name string, had bool, old, now []any, f *savedFile) *entry {
	s := in.hist.slotOf(e)
	if !had {
		old = nil
	}
	x := &entry{Op: ev.Op, Ref: ev.Ref, Entity: ev.Entity, Component: name, Saved: ev.Saved, File: ev.File}
	if ev.Op == "set" {
		x.Summary = "set " + name + " of " + ev.Entity
	} else {
		x.Summary = "remove " + name + " from " + ev.Entity
	}
	var before, after []byte
	if f != nil {
		before, after = f.before, f.after
	}
	x.undo = func() *reply { return in.putBack(s, name, old, f, after, before, "undo "+x.Summary) }
	x.redo = func() *reply { return in.putBack(s, name, now, f, before, after, "redo "+x.Summary) }
	return x
}

// Apply runs the change a journal line describes, as the API would have
// (recording it in the history and, with Options.Journal, the journal),
// but never saving it into a file: a replay reproduces a run's World,
// not its saves. It returns an error saying why the change was refused,
// which means the replay no longer follows the run that wrote the line.
// Call it on the goroutine that ticks the Registry, between ticks.
func (in *Inspector) Apply(l JournalLine) error {
	l.Save = false
	rep := in.apply(&l)
	if rep.status < 300 {
		return nil
	}
	if eb, ok := rep.body.(errorBody); ok {
		return fmt.Errorf("%s %s: %d: %s", l.Op, l.Ref, rep.status, eb.Error)
	}
	return fmt.Errorf("%s %s: %d", l.Op, l.Ref, rep.status)
}
