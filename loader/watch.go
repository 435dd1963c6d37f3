package loader

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
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
	// MaxBytes bounds the size of a watched file (default
	// DefaultLimits().MaxBytes, 64 MiB). A larger file is not a save: it
	// is reported on Errors and waited for, like an unreadable one.
	MaxBytes int64

	read func(path string, max int64) ([]byte, error) // tests: replaces readFile
}

// Watcher reports saves of a set of files. It watches the directories that
// hold them (editors save by writing a temporary file and renaming it over
// the target, which a watch on the file itself loses) and the parents of
// those directories (so a removed and re-created directory is picked up
// again; directories that are missing are retried every 250 ms); it stops
// watching directories that no file needs any more. It debounces bursts
// per file, ignores Chmod-only events, saves that do not change the
// content and empty files (an editor that truncates before writing shows
// one for a moment), and survives files being deleted and re-created.
// When the event queue overflows, every file is checked.
//
// A file is read without blocking, bounded by MaxBytes, and only if it is
// a regular file: one replaced by a named pipe, a device or a directory,
// or that cannot be read (permissions), is reported on Errors once and
// waited for. Such a file is read again on every Chmod event and every
// 250 ms, so a save made while it was unreadable is seen once it is
// readable again.
//
// The content of each save is kept: Snapshot returns the bytes judged,
// which Reloader.ReloadFrom parses, so that what is reloaded is exactly
// what was judged a save (not a second read that an editor may have
// truncated meanwhile).
//
// The event loop never blocks on the reader: saves not yet received are
// merged into the next value sent on Changes.
type Watcher struct {
	// Changes receives, for each debounced save, the files whose content
	// changed (absolute paths).
	Changes <-chan []string
	// Errors receives errors of the underlying watcher and notes about
	// files that cannot be read (dropped when nobody reads them).
	Errors <-chan error

	opt     WatchOptions
	changes chan []string
	errs    chan error

	mu    sync.Mutex
	files map[string]bool   // absolute paths
	seen  map[string][]byte // content last judged, of files in files
	bad   map[string]bool   // files that exist but could not be read
	done  chan struct{}

	wmu     sync.Mutex        // guards fw's watch list and watched
	fw      *fsnotify.Watcher // nil when polling
	watched map[string]bool   // directories watched
}

// retryInterval is how often missing directories and unreadable files
// are looked for.
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
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultLimits().MaxBytes
	}
	if opt.read == nil {
		opt.read = readFile
	}
	w := &Watcher{
		opt:     opt,
		changes: make(chan []string),
		errs:    make(chan error, 16),
		files:   map[string]bool{},
		seen:    map[string][]byte{},
		bad:     map[string]bool{},
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

// readFile reads a watched file: bounded, without blocking, a regular
// file only.
func readFile(path string, max int64) ([]byte, error) {
	data, size, err := readRegular(path, max, nil)
	if err != nil {
		return nil, err
	}
	if size > max {
		return nil, fmt.Errorf("file too large: %d bytes (limit %d)", size, max)
	}
	return data, nil
}

// ensure watches the directories of the files and their parents, those
// that exist and are not watched yet, and stops watching directories no
// file needs any more (the directory of a removed include). It reports
// whether a watch was added.
func (w *Watcher) ensure() bool {
	files := w.fileSet()
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.fw == nil {
		return false // polling, or stopped
	}
	want := make(map[string]bool, 2*len(files))
	for f := range files {
		dir := filepath.Dir(f)
		want[dir] = true
		want[filepath.Dir(dir)] = true
	}
	for d := range w.watched {
		if !want[d] {
			_ = w.fw.Remove(d) // fails if the directory is gone: fine
			delete(w.watched, d)
		}
	}
	added := false
	for d := range want {
		if w.watched[d] {
			continue
		}
		if err := w.fw.Add(d); err == nil {
			w.watched[d] = true
			added = true
		}
	}
	return added
}

// watchedDirs returns the directories watched (for tests).
func (w *Watcher) watchedDirs() []string {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	if w.fw == nil {
		return nil
	}
	return w.fw.WatchList()
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
// includes). Files already known keep their last content; new ones take
// their current content as the baseline.
func (w *Watcher) SetFiles(files []string) { w.SetFilesFrom(files, nil) }

// SetFilesFrom is SetFiles taking the baseline of new files from base
// where it holds them (Reloader.Snapshot after a reload: the bytes that
// reload parsed), so that a save made between the reload's read and this
// call is reported.
func (w *Watcher) SetFilesFrom(files []string, base Snapshot) {
	nf := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			continue
		}
		nf[abs] = true
	}
	w.mu.Lock()
	for f := range w.files {
		if !nf[f] {
			delete(w.seen, f)
			delete(w.bad, f)
		}
	}
	var fresh []string
	for f := range nf {
		if _, ok := w.seen[f]; ok {
			continue
		}
		if data := base[f]; len(data) > 0 {
			w.seen[f] = data
		} else {
			fresh = append(fresh, f)
		}
	}
	w.files = nf
	w.mu.Unlock()
	for _, f := range fresh {
		if data := w.look(f); data != nil {
			w.mu.Lock()
			if _, ok := w.seen[f]; !ok && w.files[f] {
				w.seen[f] = data
			}
			w.mu.Unlock()
		}
	}
	// Watch new directories before returning, like Watch.
	w.ensure()
}

// Snapshot returns the content last judged of each watched file: the
// bytes of the saves reported on Changes (or the baseline). A file never
// read whole and non-empty is absent. The slices must not be modified.
func (w *Watcher) Snapshot() Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := make(Snapshot, len(w.files))
	for f := range w.files {
		if data, ok := w.seen[f]; ok {
			s[f] = data
		}
	}
	return s
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

// badFiles returns the files that could not be read when last looked at.
func (w *Watcher) badFiles() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for f := range w.bad {
		out = append(out, f)
	}
	return out
}

// isBad reports whether the file could not be read when last looked at.
func (w *Watcher) isBad(f string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bad[f]
}

// look reads the file; it returns nil if the file is missing, empty or
// cannot be read. A file that exists but cannot be read is remembered,
// to be looked at again, and reported on Errors when it becomes so.
func (w *Watcher) look(path string) []byte {
	data, err := w.opt.read(path, w.opt.MaxBytes)
	unreadable := err != nil && !errors.Is(err, fs.ErrNotExist)
	w.mu.Lock()
	was := w.bad[path]
	if unreadable {
		w.bad[path] = true
	} else {
		delete(w.bad, path)
	}
	w.mu.Unlock()
	if unreadable && !was {
		select {
		case w.errs <- fmt.Errorf("watch: %s: %v (waiting until it can be read)", path, unwrapPath(err)):
		default:
		}
	}
	if err != nil || len(data) == 0 {
		return nil
	}
	return data
}

// changed reports whether the file's content differs from the last
// judged, recording the new content. A missing, empty or unreadable file
// is not a change (the rest of the save is waited for).
func (w *Watcher) changed(path string) bool {
	data := w.look(path)
	if data == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.files[path] {
		return false // dropped meanwhile
	}
	old, seen := w.seen[path]
	w.seen[path] = data
	return !seen || !bytes.Equal(old, data)
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

	// retry looks for missing directories (with events) and at files
	// that could not be read (both modes: a chmod makes no poll change
	// visible before the file is read again).
	retryT := time.NewTicker(retryInterval)
	defer retryT.Stop()
	var poll <-chan time.Time
	if fw == nil {
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
			name := filepath.Clean(ev.Name)
			if ev.Op == fsnotify.Chmod {
				// A file that could not be read may be readable now,
				// with a save made meanwhile.
				if w.isBad(name) {
					mark(name)
					break
				}
				continue
			}
			files := w.fileSet()
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
		case <-retryT.C:
			if ensure() {
				// A directory came back while unwatched: look at its
				// files.
				markAll()
			}
			for _, f := range w.badFiles() {
				if _, ok := pending[f]; !ok {
					mark(f)
				}
			}
		case <-poll:
			for f := range w.fileSet() {
				data := w.look(f)
				if data == nil {
					continue
				}
				h := sha256.Sum256(data)
				if old, seen := polled[f]; !seen || old != h {
					polled[f] = h
					w.mu.Lock()
					last, known := w.seen[f]
					w.mu.Unlock()
					if !known || !bytes.Equal(last, data) {
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
//
// Each reload reads every file of the scene once and decides on those
// bytes: what it validates is what it applies. With a Watcher, ReloadFrom
// takes the bytes the watcher judged a save. A reload that would destroy
// every entity of a non-empty scene (an editor caught in the middle of a
// save shows an empty or cut-off file) is looked at twice: the files are
// read again after Recheck, and the diff is applied only if they still
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

	tried []string // files a failed attempt read or wanted to include
	last  Snapshot // what the last attempt read
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

// Snapshot returns the bytes the last Check, Reload or their From forms
// read (or were given), by absolute path: the baseline for
// Watcher.SetFilesFrom.
func (r *Reloader) Snapshot() Snapshot { return r.last }

// Check reads and validates the file and returns what a reload would do,
// changing nothing (a dry run).
func (r *Reloader) Check() (*Diff, error) { return r.CheckFrom(nil) }

// CheckFrom is Check taking the bytes of the files in s (a Watcher's
// Snapshot) instead of reading them; files not in s are read.
func (r *Reloader) CheckFrom(s Snapshot) (*Diff, error) {
	plan, err := r.read(s)
	if err != nil {
		return nil, err
	}
	return r.Scene.Diff(plan), nil
}

// Reload reads, validates and applies the file. On any error in the file
// the running World is not touched.
func (r *Reloader) Reload() (*Diff, error) { return r.ReloadFrom(nil) }

// ReloadFrom is Reload taking the bytes of the files in s (a Watcher's
// Snapshot) instead of reading them; files not in s are read, once. A
// diff that would destroy every entity of a non-empty scene gets a second
// look (see Reloader): if the files do not hold the same bytes after
// Recheck, nothing is applied and the error wraps ErrUnsettled.
func (r *Reloader) ReloadFrom(s Snapshot) (*Diff, error) {
	plan, err := r.read(s)
	if err != nil {
		return nil, err
	}
	d := r.Scene.Diff(plan)
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
func (r *Reloader) read(s Snapshot) (*Plan, error) {
	plan, sfs, err := checkFile(r.Scene.Registry, r.File, r.Options, s)
	r.last = sfs.read
	r.tried = sfs.tried() // every file read or asked for
	return plan, err
}

// destroysAll returns the number of live entities of the scene if d
// destroys every one of them (it matches no entity of the scene), else 0.
func (r *Reloader) destroysAll(d *Diff) int {
	if len(d.ents) > 0 || len(d.Destroyed) == 0 {
		return 0
	}
	n := 0
	for _, e := range r.Scene.Entities {
		if r.Scene.World.Alive(e) {
			n++
		}
	}
	return n
}

// sameSnapshot reports whether a and b hold the same files with the same
// bytes.
func sameSnapshot(a, b Snapshot) bool {
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
