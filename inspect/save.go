package inspect

import (
	"errors"
	"net/http"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
)

// Save-back: a change asked with ?save=1 is prepared before the World is
// touched (live.Saver.PrepareSet, PrepareRemove: the scene's files
// read, the edit made and checked, nothing written), so that a refusal
// leaves the World and the files as they were; then the change is made in
// the World, and the edit committed (written, and the scene's Plan
// brought up to date, which sets nothing in the World). A commit that
// fails (an editor saved the file meanwhile) undoes the change in the
// World: either both the World and the file have it, or neither.

// noSave answers a change asked to be saved when there is no save-back
// (no Options.Reloader): 501, before anything changes. nil when the
// change may go ahead.
func (in *Inspector) noSave(save bool) *reply {
	if !save || in.opt.Reloader != nil {
		return nil
	}
	rep := errReply(http.StatusNotImplemented, "inspect: saving changes to the scene file (?save=1) needs the scene's file, and this program did not give it (inspect.Options.Reloader); the change was not made")
	return &rep
}

// noEntitySave answers the creation or destruction of an entity asked to
// be saved: 501, before anything changes.
func noEntitySave(save bool, what string) *reply {
	if !save {
		return nil
	}
	rep := errReply(http.StatusNotImplemented, "inspect: saving the "+what+" of entities into the scene file (?save=1) is not supported; nothing was changed (make the change without ?save=1, or edit the file)")
	return &rep
}

// prepareSave prepares saving the change of component name of e (set from
// attr, or removed) into the scene's files. A refusal is a 409 whose
// message says why (an entity made at run time, a component from a
// mixin or a prefab, a removal the file cannot write, files edited and
// not reloaded, a read-only file, a place the editor cannot edit);
// nothing has changed then.
func (in *Inspector) prepareSave(e ecs.Entity, name, attr string, remove bool) (*live.SaveEdit, *reply) {
	rl := in.opt.Reloader
	var sv *live.SaveEdit
	var err error
	if remove {
		sv, err = live.NewSaver(rl).PrepareRemove(e, name)
	} else {
		sv, err = live.NewSaver(rl).PrepareSet(e, name, attr)
	}
	if err == nil {
		return sv, nil
	}
	rep := errReply(saveStatus(err), "inspect: not saved, and nothing changed: "+err.Error())
	return nil, &rep
}

// saveStatus is the status of a save refused or failed with err: 409 for
// what the scene or its files make impossible, 500 for anything else.
func saveStatus(err error) int {
	for _, want := range []error{live.ErrNoSource, live.ErrFromMixin, live.ErrFromPrefab, live.ErrFileChanged, live.ErrReadOnly, live.ErrCannotEdit} {
		if errors.Is(err, want) {
			return http.StatusConflict
		}
	}
	return http.StatusInternalServerError
}

// commitSave commits the save sv of the change ev just made in the World.
// Saved, it marks ev so. Not (the file changed meanwhile, an editor's
// save, which is kept; or it became read-only; or the system failed),
// the loader has undone the change in the World, and the answer says so
// (409, or 500 for a failure of the system); the change is not
// published, since it did not happen.
func (in *Inspector) commitSave(sv *live.SaveEdit, ev *changeEvent) *reply {
	if _, err := sv.Commit(); err != nil {
		if errors.Is(err, live.ErrNotUndone) {
			rep := errReply(http.StatusInternalServerError, "inspect: not saved, and the change made in the running scene stays: "+err.Error())
			return &rep
		}
		rep := errReply(saveStatus(err), "inspect: not saved, and the change was undone in the running scene: "+err.Error())
		return &rep
	}
	ev.Saved, ev.File = true, sv.Name
	return nil
}
