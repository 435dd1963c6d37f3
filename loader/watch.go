package loader

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions configure a Watcher.
type WatchOptions struct {
	// Debounce is how long a file must stay quiet after an event before
	// it counts as saved (default 50 ms): editors write in bursts.
	Debounce time.Duration
	// MaxDelay caps the wait of a file that keeps changing (default
	// 500 ms).
	MaxDelay time.Duration
	// Poll, if positive, checks the files' contents at this interval
	// instead of using file system events (for file systems that deliver
	// none, such as some network mounts).
	Poll time.Duration
}

// Watcher reports saves of a set of files. It watches the directories that
// hold them (editors save by writing a temporary file and renaming it over
// the target, which a watch on the file itself loses) and the parents of
// those directories (so a removed and re-created directory is picked up
// again), debounces bursts per file, ignores Chmod-only events and saves
// that do not change the content, and survives files being deleted and
// re-created.
type Watcher struct {
	// Changes receives, for each debounced save, the files whose content
	// changed.
	Changes <-chan []string
	// Errors receives errors of the underlying watcher.
	Errors <-chan error

	opt     WatchOptions
	changes chan []string
	errs    chan error

	mu     sync.Mutex
	files  map[string]bool // absolute paths
	hashes map[string][32]byte
	done   chan struct{}
}

// Watch starts watching files (paths; made absolute) until ctx ends.
func Watch(ctx context.Context, files []string, opt WatchOptions) (*Watcher, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = 50 * time.Millisecond
	}
	if opt.MaxDelay < opt.Debounce {
		opt.MaxDelay = 10 * opt.Debounce
	}
	w := &Watcher{
		opt:     opt,
		changes: make(chan []string, 16),
		errs:    make(chan error, 16),
		files:   map[string]bool{},
		hashes:  map[string][32]byte{},
		done:    make(chan struct{}),
	}
	w.Changes, w.Errors = w.changes, w.errs
	w.SetFiles(files)
	if opt.Poll > 0 {
		go w.poll(ctx)
		return w, nil
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	go w.run(ctx, fw)
	return w, nil
}

// Done is closed when the watcher has stopped.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// SetFiles replaces the set of watched files (after a reload changed the
// includes). Files already known keep their last content hash.
func (w *Watcher) SetFiles(files []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	nf := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		nf[abs] = true
		if _, ok := w.hashes[abs]; !ok {
			if h, ok := hashFile(abs); ok {
				w.hashes[abs] = h
			}
		}
	}
	w.files = nf
}

func (w *Watcher) fileSet() map[string]bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]bool, len(w.files))
	for f := range w.files {
		out[f] = true
	}
	return out
}

func hashFile(path string) ([32]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return [32]byte{}, false
	}
	return sha256.Sum256(data), true
}

// changed reports whether the file's content differs from the last seen,
// recording the new hash. A missing file is not a change (it is waited
// for).
func (w *Watcher) changed(path string) bool {
	h, ok := hashFile(path)
	if !ok {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	old, seen := w.hashes[path]
	w.hashes[path] = h
	return !seen || old != h
}

func (w *Watcher) emit(ctx context.Context, files []string) {
	select {
	case w.changes <- files:
	case <-ctx.Done():
	}
}

func (w *Watcher) poll(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(w.opt.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var changed []string
		for f := range w.fileSet() {
			if w.changed(f) {
				changed = append(changed, f)
			}
		}
		if len(changed) > 0 {
			w.emit(ctx, changed)
		}
	}
}

func (w *Watcher) run(ctx context.Context, fw *fsnotify.Watcher) {
	defer close(w.done)
	defer fw.Close()
	watched := map[string]bool{}
	// ensure adds watches on every needed directory that exists; missing
	// ones are retried on the next tick.
	ensure := func() {
		need := map[string]bool{}
		for f := range w.fileSet() {
			dir := filepath.Dir(f)
			need[dir] = true
			need[filepath.Dir(dir)] = true
		}
		for d := range need {
			if watched[d] {
				continue
			}
			if err := fw.Add(d); err == nil {
				watched[d] = true
			}
		}
	}
	ensure()
	type pend struct{ first, last time.Time }
	pending := map[string]*pend{}
	mark := func(f string) {
		now := time.Now()
		if p, ok := pending[f]; ok {
			p.last = now
		} else {
			pending[f] = &pend{now, now}
		}
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	retry := time.NewTicker(250 * time.Millisecond)
	defer retry.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case err, ok := <-fw.Errors:
			if !ok {
				return
			}
			select {
			case w.errs <- err:
			default:
			}
		case ev, ok := <-fw.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			files := w.fileSet()
			name := filepath.Clean(ev.Name)
			if files[name] {
				mark(name)
			}
			if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 && watched[name] {
				delete(watched, name) // a watched directory went away
			}
			if ev.Op&fsnotify.Create != 0 {
				// A directory holding watched files came (back).
				for f := range files {
					if filepath.Dir(f) == name {
						delete(watched, name)
						mark(f)
					}
				}
				ensure()
			}
		case <-retry.C:
			before := len(watched)
			ensure()
			if len(watched) > before {
				// A directory came back while unwatched: look at its files.
				for f := range w.fileSet() {
					mark(f)
				}
			}
		case <-tick.C:
			if len(pending) == 0 {
				continue
			}
			now := time.Now()
			var ready []string
			for f, p := range pending {
				if now.Sub(p.last) >= w.opt.Debounce || now.Sub(p.first) >= w.opt.MaxDelay {
					ready = append(ready, f)
					delete(pending, f)
				}
			}
			var changed []string
			for _, f := range ready {
				if w.changed(f) {
					changed = append(changed, f)
				}
			}
			if len(changed) > 0 {
				w.emit(ctx, changed)
			}
		}
	}
}

// Reloader reloads a scene file into its running Scene.
type Reloader struct {
	Scene *Scene
	// File is the scene file's path.
	File    string
	Options Options
}

// Files returns the paths of the scene file and every file it includes,
// as of the last successful load or reload.
func (r *Reloader) Files() []string {
	dir := filepath.Dir(filepath.Clean(r.File))
	var out []string
	for _, f := range r.Scene.Plan.Doc.Files {
		out = append(out, filepath.Join(dir, filepath.FromSlash(f)))
	}
	if len(out) == 0 {
		out = append(out, r.File)
	}
	return out
}

// Check reads and validates the file and returns what a reload would do,
// changing nothing (a dry run).
func (r *Reloader) Check() (*Diff, error) {
	plan, err := CheckFile(r.Scene.Registry, r.File, r.Options)
	if err != nil {
		return nil, err
	}
	return r.Scene.Diff(plan), nil
}

// Reload reads, validates and applies the file. On any error in the file
// the running World is not touched.
func (r *Reloader) Reload() (*Diff, error) {
	d, err := r.Check()
	if err != nil {
		return nil, err
	}
	return d, r.Scene.Apply(d)
}
