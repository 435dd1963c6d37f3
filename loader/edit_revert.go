package loader

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/regfile"
)

// Undoing and redoing a saved change (the inspector's journal): the file
// a save-back wrote is put back to the bytes it held before the save
// (undo), or to those the save wrote (redo), as a whole: the save made a
// minimal edit from one to the other, so swapping them back is the same
// minimal edit reversed, and everything else stays byte for byte. The
// swap is prepared and committed as a save-back is (SaveEdit), with the
// same checks and the same safe write.
//
// This file belongs with the scene-file editing code (scenefile/edit
// once loader is split into layers); it uses the Reloader only through
// checkFile, Scene.Diff and the SaveEdit it returns.

// PrepareSwap prepares writing to into the scene file at path, which
// must hold from now: the undo (from: the bytes a save wrote, to: those
// before) or redo of a save-back of component name of entity e. Call it
// on the simulation goroutine before making the same change in the
// World, and Commit right after, as for PrepareSet.
//
// It is refused, with nothing written, when the file no longer holds
// from (edited since, by an editor or another save: ErrFileChanged), the
// scene's other files are edited and not reloaded (ErrFileChanged), the
// file is read-only (ErrReadOnly), or the file with to would change
// anything but component name of e in the running scene (ErrCannotEdit).
func (r *Reloader) PrepareSwap(e ecs.Entity, name, path string, from, to []byte) (*SaveEdit, error) {
	s, d, err := r.prepareSwap(path, from, to)
	if err != nil {
		return nil, err
	}
	if err := onlyComponent(d, e, name); err != nil {
		return nil, fmt.Errorf("putting %s back would change more than %s of that entity (%v): the scene's files were edited and not reloaded, or reloaded since; nothing written: %w", path, name, err, ErrFileChanged)
	}
	s.world = r.recordWorld(e, name)
	if n := matchedNode(d, e); n != nil && n.Src != nil {
		s.Pos = n.Src.Pos
	}
	return s, nil
}

// prepareSwap checks that the file at path holds from and may be
// written, and compiles the scene with to in its place: the SaveEdit
// that writes to, and its diff with the running scene, for the caller
// to check.
func (r *Reloader) prepareSwap(path string, from, to []byte) (*SaveEdit, *Diff, error) {
	if _, _, err := checkWritable(path); err != nil {
		return nil, nil, err
	}
	lim := r.Options.Limits.withDefaults()
	cur, _, err := regfile.Read(path, lim.MaxBytes, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if !bytes.Equal(cur, from) {
		return nil, nil, fmt.Errorf("%s has been edited since the change was saved (edit it back by hand): %w", path, ErrFileChanged)
	}
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, Snapshot{path: to})
	if err != nil {
		return nil, nil, fmt.Errorf("the scene's files do not load with %s put back; nothing written:\n%v\n%w", path, err, ErrCannotEdit)
	}
	d := r.Scene.Diff(plan)
	rel := path
	if dir, err := filepath.Abs(filepath.Dir(r.File)); err == nil {
		if x, err := filepath.Rel(dir, path); err == nil {
			rel = filepath.ToSlash(x)
		}
	}
	return &SaveEdit{File: path, Name: rel, Before: from, After: to, r: r, diff: d, snap: sfs.read}, d, nil
}

// onlyComponent checks that d changes nothing but component name of
// entity e (added, removed or any of its properties).
func onlyComponent(d *Diff, e ecs.Entity, name string) error {
	if len(d.Created)+len(d.Destroyed)+len(d.Moved)+len(d.Decls)+len(d.Systems)+len(d.Mixins)+len(d.Prefabs) > 0 || !d.spawned.empty() {
		return errors.New(d.String())
	}
	for _, c := range d.Changed {
		if c.Entity != e || c.Classes {
			return errors.New(d.String())
		}
		for _, a := range c.Added {
			if a != name {
				return errors.New(d.String())
			}
		}
		for _, x := range c.Removed {
			if x != name {
				return errors.New(d.String())
			}
		}
		for k := range c.Props {
			if k != name {
				return errors.New(d.String())
			}
		}
	}
	return nil
}
