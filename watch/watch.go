package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/scenecs/scenecs/internal/regfile"
)

// Options configure a [Watcher].
type Options struct {
	// Settle is how long a file must stay quiet after an event before a
	// save that looks whole is read and reported (default 5 ms, at most
	// Debounce): a save looks whole when its size and modification time
	// did not change while it was read, it ends the way the last save
	// did (with a newline or without), it is not a quarter or more
	// shorter than the last save, and Complete, if set, accepts it.
	Settle time.Duration
	// Debounce is how long a file must stay quiet after an event before
	// it counts as saved even though it does not look whole (default
	// 50 ms): such a save is judged as it is then, and a broken one is
	// reported to the reader like any other.
	Debounce time.Duration
	// MaxDelay caps the wait of a file that keeps changing (default ten
	// times Debounce, 500 ms with the default Debounce).
	MaxDelay time.Duration
	// Poll, if positive, reads the files at this interval instead of
	// using file system events (for file systems that deliver none, such
	// as network mounts, WSL2's /mnt/c or bind mounts from another OS);
	// a change seen is then judged as above.
	Poll time.Duration
	// MaxBytes bounds the size of a watched file (default 64 MiB, the
	// loader's default limit). A larger file is not a save: it is
	// reported on Errors as a [FileError] and waited for, like an
	// unreadable one.
	MaxBytes int64
	// Complete, if set, says whether data, read from the watched file
	// path, is a whole save (for a scene: whether it parses). It is
	// asked only of saves that look whole otherwise, on the watcher's
	// goroutine, and must not keep data. A save it refuses is looked at
	// again after the next event, or judged as it is after Debounce.
	Complete func(path string, data []byte) bool

	read func(path string, max int64) ([]byte, error) // tests: replaces readFile
}

// Option defaults.
const (
	defaultSettle   = 5 * time.Millisecond
	defaultDebounce = 50 * time.Millisecond
	defaultMaxBytes = 64 << 20
)

// Snapshot holds the content of watched files by absolute path: see
// [Watcher.Snapshot]. It converts to the loader's Snapshot.
type Snapshot map[string][]byte

// Watcher reports saves of a set of files. It watches the directories that
// hold them (editors save by writing a temporary file and renaming it over
// the target, which a watch on the file itself loses) and the parents of
// those directories (so a removed and re-created directory is picked up
// again; directories that are missing are retried every 250 ms); it stops
// watching directories that no file needs any more. A file is read once
// it has been quiet for Settle, and its save judged then if it looks
// whole (see [Options.Settle]); one that does not is looked at again
// after its next event, or judged as it is once quiet for Debounce. So a
// burst of writes closer than Settle is one save, and a save written in
// two chunks is not reported after the first unless that looks whole. It
// ignores Chmod-only events, saves that do not change the
// content and empty files (an editor that truncates before writing shows
// one for a moment), and survives files being deleted and re-created.
// A file with content that is saved empty (0 bytes), and stays empty for
// MaxDelay after it was judged, is not an editor caught mid-save: it is
// reported once on Errors, as a [FileError] wrapping [ErrEmpty], and
// still not counted as a save.
// When the event queue overflows, every file is checked.
//
// A file is read without blocking, bounded by [Options.MaxBytes], and
// only if it is a regular file: one replaced by a named pipe, a device or
// a directory, or that cannot be read (permissions), is reported on
// Errors once, as a [FileError], and waited for. Such a file is read
// again on every Chmod event and every 250 ms, so a save made while it
// was unreadable is seen once it is readable again.
//
// The content of each save is kept: [Watcher.Snapshot] returns the bytes
// judged, which the loader's Reloader.ReloadFrom parses, so that what is
// reloaded is exactly what was judged a save (not a second read that an
// editor may have truncated meanwhile).
//
// The event loop never blocks on the reader: saves not yet received are
// merged into the next value sent on Changes.
type Watcher struct {
	// Changes receives, for each save judged, the files whose content
	// changed (absolute paths).
	Changes <-chan []string
	// Errors receives errors of the underlying watcher and a [FileError]
	// for each file that cannot be read or was saved empty (dropped when
	// nobody reads them).
	Errors <-chan error

	opt     Options
	changes chan []string
	errs    chan error

	mu    sync.Mutex
	files map[string]bool   // absolute paths
	seen  map[string][]byte // content last judged, of files in files
	bad   map[string]bool   // files that exist but could not be read
	empty map[string]*emptyFile
	done  chan struct{}

	wmu     sync.Mutex        // guards fw's watch list and watched
	fw      *fsnotify.Watcher // nil when polling
	watched map[string]bool   // directories watched
}

// retryInterval is how often missing directories and unreadable files
// are looked for.
const retryInterval = 250 * time.Millisecond

// ErrTooLarge is wrapped by the [FileError] of a file larger than
// [Options.MaxBytes].
var ErrTooLarge = errors.New("file too large")

// ErrEmpty is wrapped by the [FileError] of a file saved empty: judged
// empty (0 bytes), and still empty MaxDelay later. Its content is not a
// save; the watcher waits for one with content.
var ErrEmpty = errors.New("the file is empty (0 bytes)")

// emptyFile is a watched file judged empty: since when, and whether that
// was reported.
type emptyFile struct {
	since    time.Time
	reported bool
}

// ErrNotRegular is wrapped by the [FileError] of a path that is not a
// regular file (a named pipe, a device, a socket or a directory). It is
// the loader's ErrNotRegular too.
var ErrNotRegular = regfile.ErrNotRegular

// A FileError reports a watched file that exists but cannot be read: it
// is not a regular file ([ErrNotRegular]), it is too large
// ([ErrTooLarge]), or reading it failed (fs.ErrPermission, ...); or one
// that was saved empty ([ErrEmpty]). It is sent on [Watcher.Errors] when
// the file becomes so; the file is then waited for.
type FileError struct {
	Path string // absolute
	Err  error  // why, without the path
}

// Error returns "watch: PATH: WHY (waiting until it can be read)", or for
// an empty file "watch: PATH: the file is empty (0 bytes) (waiting for a
// save with content)".
func (e *FileError) Error() string {
	wait := "waiting until it can be read"
	if errors.Is(e.Err, ErrEmpty) {
		wait = "waiting for a save with content"
	}
	return fmt.Sprintf("watch: %s: %v (%s)", e.Path, e.Err, wait)
}

// Unwrap returns e.Err.
func (e *FileError) Unwrap() error { return e.Err }

// New starts watching files (paths; made absolute) until ctx ends. The
// files' current contents are the baseline: only later changes are
// reported.
func New(ctx context.Context, files []string, opt Options) (*Watcher, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = defaultDebounce
	}
	if opt.Settle <= 0 {
		opt.Settle = min(defaultSettle, opt.Debounce)
	}
	opt.Settle = min(opt.Settle, opt.Debounce)
	if opt.MaxDelay < opt.Debounce {
		opt.MaxDelay = 10 * opt.Debounce
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = defaultMaxBytes
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
		empty:   map[string]*emptyFile{},
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
		// Watch before returning: a save right after New returns must
		// not be missed.
		w.ensure()
	}
	go w.run(ctx)
	return w, nil
}

// readFile reads a watched file: bounded, without blocking, a regular
// file only.
func readFile(path string, max int64) ([]byte, error) {
	data, size, err := regfile.Read(path, max, nil)
	if err != nil {
		return nil, err
	}
	if size > max {
		return nil, fmt.Errorf("%w: %d bytes (limit %d)", ErrTooLarge, size, max)
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

// stopEvents closes the file system watcher fw when the loop ends.
func (w *Watcher) stopEvents(fw *fsnotify.Watcher) {
	w.wmu.Lock()
	defer w.wmu.Unlock()
	fw.Close()
	w.fw = nil
}

// Done is closed when the watcher has stopped.
func (w *Watcher) Done() <-chan struct{} { return w.done }

// SetFiles replaces the set of watched files (after a reload changed the
// includes). Files already known keep their last content; new ones take
// their current content as the baseline.
func (w *Watcher) SetFiles(files []string) { w.SetFilesFrom(files, nil) }

// SetFilesFrom is [Watcher.SetFiles] taking the baseline of new files
// from base where it holds them (the loader's Reloader.Snapshot after a
// reload: the bytes that reload parsed), so that a save made between the
// reload's read and this call is reported.
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
			delete(w.empty, f)
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
		if data, _ := w.look(f); data != nil {
			w.mu.Lock()
			if _, ok := w.seen[f]; !ok && w.files[f] {
				w.seen[f] = data
			}
			w.mu.Unlock()
		}
	}
	// Watch new directories before returning, like New.
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

// lastJudged returns the content last judged of the file.
func (w *Watcher) lastJudged(f string) ([]byte, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, ok := w.seen[f]
	return data, ok
}

// look reads the file; it returns nil if the file is missing, empty or
// cannot be read, and empty true if it is empty. A file that exists but
// cannot be read is remembered, to be looked at again, and reported on
// Errors when it becomes so. A file that is not empty is no longer
// remembered as judged empty.
func (w *Watcher) look(path string) (data []byte, empty bool) {
	data, err := w.opt.read(path, w.opt.MaxBytes)
	unreadable := err != nil && !errors.Is(err, fs.ErrNotExist)
	empty = err == nil && len(data) == 0
	w.mu.Lock()
	was := w.bad[path]
	if unreadable {
		w.bad[path] = true
	} else {
		delete(w.bad, path)
	}
	if !empty {
		delete(w.empty, path)
	}
	w.mu.Unlock()
	if unreadable && !was {
		select {
		case w.errs <- &FileError{Path: path, Err: unwrapPath(err)}:
		default:
		}
	}
	if err != nil || empty {
		return nil, empty
	}
	return data, false
}

// judgedEmpty records that the file was judged empty, if it had content
// before (a file empty from the start was not saved so), the first time
// only: the report waits from then.
func (w *Watcher) judgedEmpty(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.empty[path]; !ok && w.files[path] && len(w.seen[path]) > 0 {
		w.empty[path] = &emptyFile{since: time.Now()}
	}
}

// emptyDue returns the files judged empty at least d ago and not
// reported yet.
func (w *Watcher) emptyDue(d time.Duration) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for f, e := range w.empty {
		if !e.reported && time.Since(e.since) >= d {
			out = append(out, f)
		}
	}
	return out
}

// isEmpty reports whether the file was judged empty and has not been
// read with content since.
func (w *Watcher) isEmpty(path string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.empty[path]
	return ok
}

// reportEmpty reports the file, still empty, on Errors, once.
func (w *Watcher) reportEmpty(path string) {
	w.mu.Lock()
	e := w.empty[path]
	send := e != nil && !e.reported
	if send {
		e.reported = true
	}
	w.mu.Unlock()
	if send {
		select {
		case w.errs <- &FileError{Path: path, Err: ErrEmpty}:
		default:
		}
	}
}

// unwrapPath drops the operating system's path from err: a FileError
// names the file once.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// changed reports whether the file's content differs from the last
// judged, recording the new content. A missing, empty or unreadable file
// is not a change (the rest of the save is waited for); an empty one is
// recorded as judged empty.
func (w *Watcher) changed(path string) bool {
	data, empty := w.look(path)
	if empty {
		w.judgedEmpty(path)
	}
	if data == nil {
		return false
	}
	return w.record(path, data)
}

// record makes data the content last judged of the file, and reports
// whether it differs from the one before.
func (w *Watcher) record(path string, data []byte) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.files[path] {
		return false // dropped meanwhile
	}
	old, seen := w.seen[path]
	w.seen[path] = data
	return !seen || !bytes.Equal(old, data)
}
