package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// Reloader reloads a scene file into its running [Scene].
//
// Each reload reads every file of the scene once and decides on those
// bytes: what it validates is what it applies. With a file watcher
// ([github.com/scenecs/scenecs/watch.Watcher]), [Reloader.ReloadFrom]
// takes the bytes the watcher judged a save. A reload that would destroy
// every entity of a non-empty scene (an editor caught in the middle of a
// save shows an empty or cut-off file) is looked at twice: the files are
// read again after [Reloader.Recheck], and the diff is applied only if they still
// hold the same bytes.
type Reloader struct {
	// Scene is the running scene, loaded from File.
	Scene *Scene
	// File is the scene file's path.
	File string
	// Options are used to read the file on each reload; their Context
	// interrupts a reload before it applies anything.
	Options Options
	// Recheck is how long a reload that would destroy every entity of a
	// non-empty scene waits before reading the files a second time
	// (default 50 ms, the watcher's default debounce; negative: no
	// second look).
	Recheck time.Duration

	tried []string           // files a failed attempt read or wanted to include
	last  scenefile.Snapshot // what the last attempt read
	// wait replaces the second look's wait (tests).
	wait func(ctx context.Context, d time.Duration) error
}

// ErrUnsettled is returned (wrapped) by a reload that would destroy every
// entity of the scene and whose files changed, or stopped reading,
// during the second look: nothing is applied. A watcher reports the save
// that changed them, and that save is reloaded.
var ErrUnsettled = errors.New("the files changed during a second look; nothing applied")

// defaultRecheck is Reloader.Recheck's default.
const defaultRecheck = 50 * time.Millisecond

// Files returns the paths of the scene file and every file it includes,
// as of the last successful load or reload, and, after a failed reload,
// also the files that attempt included (or tried to: a missing include
// is listed, so that creating it is noticed).
func (r *Reloader) Files() []string {
	dir := filepath.Dir(filepath.Clean(r.File))
	var out []string
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	add(filepath.Clean(r.File))
	for _, f := range r.Scene.Plan.Doc.Files {
		add(filepath.Join(dir, filepath.FromSlash(f)))
	}
	for _, f := range r.tried {
		add(f)
	}
	return out
}

// Snapshot returns the bytes the last [Reloader.Check], [Reloader.Reload]
// or their From forms read (or were given), by absolute path: the
// baseline for a file watcher's SetFilesFrom (converted to its Snapshot
// type).
func (r *Reloader) Snapshot() scenefile.Snapshot { return r.last }

// Check reads and validates the file and returns what a reload would do,
// changing nothing (a dry run).
func (r *Reloader) Check() (*Diff, error) { return r.CheckFrom(nil) }

// CheckFrom is [Reloader.Check] taking the bytes of the files in s (a
// file watcher's snapshot) instead of reading them; files not in s are read.
func (r *Reloader) CheckFrom(s scenefile.Snapshot) (*Diff, error) {
	pl, err := r.read(s)
	if err != nil {
		return nil, err
	}
	return r.Scene.Diff(pl), nil
}

// Reload reads, validates and applies the file. On any error in the file
// the running World is not touched.
func (r *Reloader) Reload() (*Diff, error) { return r.ReloadFrom(nil) }

// ReloadFrom is [Reloader.Reload] taking the bytes of the files in s (a
// file watcher's snapshot) instead of reading them; files not in s are
// read, once. A diff that would destroy every entity of a non-empty scene
// gets a second look (see [Reloader]): if the files do not hold the same
// bytes after Recheck, nothing is applied and the error wraps
// [ErrUnsettled].
func (r *Reloader) ReloadFrom(s scenefile.Snapshot) (*Diff, error) {
	pl, err := r.read(s)
	if err != nil {
		return nil, err
	}
	d := r.Scene.Diff(pl)
	if n := r.destroysAll(d); n > 0 && r.Recheck >= 0 {
		first, firstFiles := r.last, r.tried
		wait := r.Recheck
		if wait == 0 {
			wait = defaultRecheck
		}
		ctx := r.Options.ctx()
		if r.wait != nil {
			err = r.wait(ctx, wait)
		} else {
			err = sleepCtx(ctx, wait)
		}
		if err != nil {
			return nil, err
		}
		_, err := r.read(nil)
		if err != nil || !sameSnapshot(first, r.last) {
			// Watch the files of both attempts: the next save of any
			// of them reloads.
			r.tried = append(r.tried, firstFiles...)
			why := "they changed"
			if err != nil {
				why = "they no longer read"
			}
			return nil, fmt.Errorf("%s: the save would destroy all %d entities of the scene, and %s during a second look %v later: %w", r.File, n, why, wait, ErrUnsettled)
		}
	}
	if err := interrupted(r.Options.ctx()); err != nil {
		return nil, err
	}
	return d, r.Scene.Apply(d)
}

// read reads and compiles the scene, taking given bytes from s.
func (r *Reloader) read(s scenefile.Snapshot) (*plan.Plan, error) {
	pl, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, s)
	r.last = sfs.Snapshot()
	r.tried = sfs.Tried() // every file read or asked for
	return pl, err
}

// destroysAll returns the number of live entities of the scene if d
// destroys every one of them (it matches no entity of the scene), else 0.
func (r *Reloader) destroysAll(d *Diff) int {
	if d.matched > 0 || len(d.Destroyed) == 0 {
		return 0
	}
	return r.Scene.Len()
}

// sameSnapshot reports whether a and b hold the same files with the same
// bytes.
func sameSnapshot(a, b scenefile.Snapshot) bool {
	if len(a) != len(b) {
		return false
	}
	for f, x := range a {
		if y, ok := b[f]; !ok || !bytes.Equal(x, y) {
			return false
		}
	}
	return true
}

// sleepCtx waits for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return interrupted(ctx)
	}
}
