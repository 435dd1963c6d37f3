package loader

import (
	"context"
	"crypto/sha256"
	"errors"
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
	// MaxDelay caps the wait of a file that keeps changing (default ten
	// times Debounce, 500 ms with the default Debounce).
	MaxDelay time.Duration
	// Poll, if positive, reads the files at this interval instead of
	// using file system events (for file systems that deliver none, such
	// as network mounts, WSL2's /mnt/c or bind mounts from another OS);
	// a change seen is then debounced as above.
	Poll time.Duration
}

// Watcher reports saves of a set of files. It watches the directories that
// hold them (editors save by writing a temporary file and renaming it over
// the target, which a watch on the file itself loses) and the parents of
// those directories (so a removed and re-created directory is picked up
// again; directories that are missing are retried every 250 ms). It
// debounces bursts per file, ignores Chmod-only events, saves that do not
// change the content and empty files (an editor that truncates before
// writing shows one for a moment), and survives files being deleted and
// re-created. When the event queue overflows, every file is checked.
//
// The event loop never blocks on the reader: saves not yet received are
// merged into the next value sent on Changes.
type Watcher struct {
	// Changes receives, for each debounced save, the files whose content
	// changed (absolute paths).
	Changes <-chan []string
	// Errors receives errors of the underlying watcher (dropped when
	// nobody reads them).
	Errors <-chan error

	opt     WatchOptions
	changes chan []string
	errs    chan error

	mu     sync.Mutex
	files  map[string]bool // absolute paths
	hashes map[string][32]byte
	done   chan struct{}

	wmu     sync.Mutex        // guards fw's watch list and watched
	fw      *fsnotify.Watcher // nil when polling
	watched map[string]bool   // directories watched
}

// retryInterval is how often missing directories are looked for.
const retryInterval = 250 * time.Millisecond

// Watch starts watching files (paths; made absolute) until ctx ends. The
// files' current contents are the baseline: only later changes are
// reported.
func Watch(ctx context.Context, files []string, opt WatchOptions) (*Watcher, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = 50 * time.Millisecond
	}
	if opt.MaxDelay < opt.Debounce {
		opt.MaxDelay = 10 * opt.Debounce
	}
	w := &Watcher{
		opt:     opt,
		changes: make(chan []string),
		errs:    make(chan error, 16),
		files:   map[string]bool{},
		hashes:  map[string][32]byte{},
		done:    make(chan struct{}),
	}
	w.Changes, w.Errors = w.changes, w.errs
	w.SetFiles(files)
	w.watched = map[string]bool{}
	if opt.Poll <= 0 {
		var err error
		if w.fw, err = fsnotify.NewWatcher(); err != nil {
			return nil, err
		}
		// Watch before returning: a save right after Watch returns
		// must not be missed.
		w.ensure()
	}
	go w.run(ctx)
	return w, nil
}

// ensure adds watches on the directories of the files and on their
// parents, those that exist and are not watched yet. It reports whether
// a watch was added.
func (w *Watcher) ensure() bool {
	files := w.fileSet()
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.fw == nil {
		return false // polling, or stopped
	}
	added := false
	for f := range files {
		dir := filepath.Dir(f)
		for _, d := range []string{dir, filepath.Dir(dir)} {
			if w.watched[d] {
				continue
			}
			if err := w.fw.Add(d); err == nil {
				w.watched[d] = true
				added = true
			}
		}
	}
	return added
}

// forget records that the directory dir is no longer watched (it was
// removed or renamed); it reports whether it was.
func (w *Watcher) forget(dir string) bool {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	was := w.watched[dir]
	delete(w.watched, dir)
	return was
}

// Done is closed when the watcher has stopped.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// SetFiles replaces the set of watched files (after a reload changed the
// includes). Files already known keep their last content hash; new ones
// take their current content as the baseline.
func (w *Watcher) SetFiles(files []string) {
	w.mu.Lock()
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
	w.mu.Unlock()
	// Watch new directories before returning, like Watch.
	w.ensure()
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

// hashFile hashes the file's content; ok is false if it cannot be read or
// is empty.
func hashFile(path string) ([32]byte, bool) {
	data, err := os.ReadFile(path)
	if err != nil || len(data) == 0 {
		return [32]byte{}, false
	}
	return sha256.Sum256(data), true
}

// changed reports whether the file's content differs from the last seen,
// recording the new hash. A missing or empty file is not a change (the
// rest of the save is waited for).
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

// run is the watcher's loop: with fw, on file system events; without, by
// polling.
func (w *Watcher) run(ctx context.Context) {
	defer close(w.done)
	fw := w.fw
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fw != nil {
		defer func() {
			w.wmu.Lock()
			defer w.wmu.Unlock()
			fw.Close()
			w.fw = nil
		}()
		events, errs = fw.Events, fw.Errors
	}
	ensure := w.ensure

	// Debouncing: a pending file is read once it has been quiet for
	// Debounce, or has waited MaxDelay.
	type pend struct{ first, last time.Time }
	pending := map[string]*pend{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	rearm := func() {
		if len(pending) == 0 {
			timer.Stop()
			return
		}
		var next time.Time
		for _, p := range pending {
			due := p.last.Add(w.opt.Debounce)
			if limit := p.first.Add(w.opt.MaxDelay); limit.Before(due) {
				due = limit
			}
			if next.IsZero() || due.Before(next) {
				next = due
			}
		}
		timer.Reset(time.Until(next))
	}
	mark := func(f string) {
		now := time.Now()
		if p, ok := pending[f]; ok {
			p.last = now
		} else {
			pending[f] = &pend{now, now}
		}
	}
	markAll := func() {
		for f := range w.fileSet() {
			mark(f)
		}
	}

	// Saves not yet received by the reader.
	var out []string
	inOut := map[string]bool{}

	var retry, poll <-chan time.Time
	if fw != nil {
		t := time.NewTicker(retryInterval)
		defer t.Stop()
		retry = t.C
	} else {
		t := time.NewTicker(w.opt.Poll)
		defer t.Stop()
		poll = t.C
	}
	polled := map[string][32]byte{} // poll mode: content last seen
	for {
		var send chan<- []string
		if len(out) > 0 {
			send = w.changes
		}
		select {
		case <-ctx.Done():
			return
		case send <- out:
			out, inOut = nil, map[string]bool{}
			continue
		case err, ok := <-errs:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				markAll() // events were lost: look at every file
			}
			select {
			case w.errs <- err:
			default:
			}
		case ev, ok := <-events:
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
			if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
				w.forget(name) // if a watched directory went away
			}
			if ev.Op&fsnotify.Create != 0 {
				// A directory holding watched files came (back): watch
				// it, and look at its files (written before the watch).
				back := false
				for f := range files {
					if filepath.Dir(f) == name {
						back = true
						mark(f)
					}
				}
				if back {
					w.forget(name)
					ensure()
				}
			}
		case <-retry:
			if ensure() {
				// A directory came back while unwatched: look at its
				// files.
				markAll()
			}
		case <-poll:
			for f := range w.fileSet() {
				h, ok := hashFile(f)
				if !ok {
					continue
				}
				if old, seen := polled[f]; !seen || old != h {
					polled[f] = h
					w.mu.Lock()
					last, known := w.hashes[f]
					w.mu.Unlock()
					if !known || last != h {
						mark(f)
					}
				}
			}
		case <-timer.C:
			now := time.Now()
			for f, p := range pending {
				if now.Sub(p.last) >= w.opt.Debounce || now.Sub(p.first) >= w.opt.MaxDelay {
					delete(pending, f)
					if w.changed(f) && !inOut[f] {
						inOut[f] = true
						out = append(out, f)
					}
				}
			}
		}
		rearm()
	}
}

// Reloader reloads a scene file into its running Scene.
type Reloader struct {
	// Scene is the running scene, loaded from File.
	Scene *Scene
	// File is the scene file's path.
	File string
	// Options are used to read the file on each reload.
	Options Options

	tried []string // files a failed attempt read or wanted to include
}

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

// Check reads and validates the file and returns what a reload would do,
// changing nothing (a dry run).
func (r *Reloader) Check() (*Diff, error) {
	plan, err := CheckFile(r.Scene.Registry, r.File, r.Options)
	if err != nil {
		r.tried = includeClosure(r.File, r.Options.Limits)
		return nil, err
	}
	r.tried = nil
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

// includeClosure returns the paths of file and of the files its includes
// name, recursively, as far as they can be read: the files a broken scene
// is made of.
func includeClosure(file string, lim Limits) []string {
	dir, base := filepath.Split(filepath.Clean(file))
	if dir == "" {
		dir = "."
	}
	seen := map[string]bool{}
	var out []string
	var visit func(name string)
	visit = func(name string) {
		if seen[name] || len(seen) > 1000 {
			return
		}
		seen[name] = true
		path := filepath.Join(dir, filepath.FromSlash(name))
		out = append(out, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return
		}
		doc, _ := Read(name, data, lim)
		if doc == nil {
			return
		}
		for _, inc := range doc.Includes {
			if target, msg := resolveInclude(name, inc.Path); msg == "" {
				visit(target)
			}
		}
	}
	visit(base)
	return out
}
