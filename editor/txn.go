package editor

import (
	"errors"

	"github.com/scenecs/scenecs/loader/live"
)

// One transaction for every change: a command and each undo or redo is
// a txn, which Editor.run makes in one order. The file's edit is
// prepared first (read, made and checked, nothing written), so that a
// refusal leaves the World and the files as they were; then the World
// is changed and the edit committed (written, and the scene's Plan
// brought up to date, which sets nothing in the World). A commit that
// fails rolls the World back: either both the World and the file have
// the change, or neither. Two steps move for some changes: an entity
// made or moved is saved from the World, so its edit is prepared after
// the World has it (late); putting a saved component's values back
// writes the file first (fileFirst), then puts the World's own values
// over what the file gave.

// txn is one change of the World and, when saved, of a scene file.
type txn struct {
	// what names an undo or redo ("undo set spin of #wreck") for its
	// messages; "" for a new command.
	what string
	// prepare makes the file's edit (nil: no file is changed).
	prepare func() (*live.SaveEdit, error)
	// late: prepare after apply; fileFirst: commit before apply.
	late, fileFirst bool
	// apply changes the World; nil: the commit does (a prefab's edit,
	// through the hot-reload path). An *Error it returns is the
	// answer; another error is the World's refusal of an undo or redo.
	apply func() error
	// adopt, if not nil, runs before the commit: the save learns that
	// the entity apply made is the file's.
	adopt func(*live.SaveEdit) error
	// rollback undoes apply when the save fails after it; nil: the
	// commit undoes it itself (a component's value).
	rollback func()

	// saved is the edit committed, diff what its commit applied.
	saved *live.SaveEdit
	diff  *live.Diff
}

// run makes t: prepare, apply, commit, and rolls the World back if a
// step after apply fails. The error says what happened to the World
// and the file.
func (ed *Editor) run(t *txn) error {
	var sv *live.SaveEdit
	prepare := func() error {
		if t.prepare == nil {
			return nil
		}
		var err error
		if sv, err = t.prepare(); err != nil {
			var e *Error
			if errors.As(err, &e) {
				return e // the entity is gone, say
			}
			if t.what == "" {
				return because(saveKind(err), "not saved, and nothing changed: ", err)
			}
			return because(saveKind(err), "cannot "+t.what+", nothing changed: ", err)
		}
		return nil
	}
	commit := func() error {
		d, err := sv.Commit()
		if err == nil {
			t.saved, t.diff = sv, d
		}
		return err
	}
	rollback := func() {
		if t.rollback != nil {
			t.rollback()
		}
	}
	if !t.late {
		if err := prepare(); err != nil {
			return err
		}
	}
	if t.fileFirst && sv != nil {
		if err := commit(); err != nil {
			return t.notWritten(err)
		}
	}
	if t.apply != nil {
		if err := t.apply(); err != nil {
			var e *Error
			switch {
			case t.saved != nil:
				return because(Conflict, t.what+": the file was written, but the running scene refused the value: ", err)
			case errors.As(err, &e):
				return e
			}
			return because(Conflict, "cannot "+t.what+": ", err)
		}
	}
	if t.late {
		if err := prepare(); err != nil {
			rollback()
			return err
		}
	}
	if sv == nil || t.saved != nil {
		return nil
	}
	if t.adopt != nil {
		if err := t.adopt(sv); err != nil {
			rollback()
			return because(Conflict, "cannot "+t.what+", nothing changed: ", err)
		}
	}
	if err := commit(); err != nil {
		rollback()
		return t.notWritten(err)
	}
	return nil
}

// notWritten is the error of a commit that failed (the file changed
// meanwhile, an editor's save, which is kept; or it became read-only;
// or the system failed): the World is as it was before the change,
// rolled back by the transaction or by the loader.
func (t *txn) notWritten(err error) error {
	switch {
	case t.what != "":
		return because(saveKind(err), "cannot "+t.what+": the file was not written, and nothing changed: ", err)
	case t.apply == nil:
		return because(saveKind(err), "not saved, and nothing changed: ", err)
	case errors.Is(err, live.ErrNotUndone):
		return because(Failed, "not saved, and the change made in the running scene stays: ", err)
	}
	return because(saveKind(err), "not saved, and the change was undone in the running scene: ", err)
}
