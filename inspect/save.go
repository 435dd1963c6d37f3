package inspect

import (
	"errors"
	"net/http"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
)

// Save-back: a change asked with ?save=1 is prepared before the World is
// touched (loader.Reloader.PrepareSet, PrepareRemove: the scene's files
// read, the edit made and checked, nothing written), so that a refusal
// leaves the World and the files as they were; then the change is made in
// the World, and the edit committed (written, and the scene's Plan
// brought up to date, which sets nothing in the World).

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
// mixin, files edited and not reloaded, a place the editor cannot edit);
// nothing has changed then.
func (in *Inspector) prepareSave(e ecs.Entity, name, attr string, remove bool) (*loader.SaveEdit, *reply) {
	rl := in.opt.Reloader
	var sv *loader.SaveEdit
	var err error
	if remove {
		sv, err = rl.PrepareRemove(e, name)
	} else {
		sv, err = rl.PrepareSet(e, name, attr)
	}
	if err == nil {
		return sv, nil
	}
	status := http.StatusInternalServerError
	for _, want := range []error{loader.ErrNoSource, loader.ErrFromMixin, loader.ErrFileChanged, loader.ErrCannotEdit} {
		if errors.Is(err, want) {
			status = http.StatusConflict
		}
	}
	rep := errReply(status, "inspect: not saved, and nothing changed: "+err.Error())
	return nil, &rep
}
