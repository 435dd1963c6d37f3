package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchTimeout bounds every wait for a change: generous for a loaded
// machine; a passing test waits only as long as the debounce.
const watchTimeout = 5 * time.Second

type watchEnv struct {
	t   *testing.T
	dir string
	w   *Watcher
}

// newWatchEnv writes the files (name -> content) in a temp dir and
// watches them.
func newWatchEnv(t *testing.T, opt Options, files map[string]string) *watchEnv {
	t.Helper()
	env := &watchEnv{t: t, dir: t.TempDir()}
	var paths []string
	for name, text := range files {
		env.write(name, text)
		paths = append(paths, env.path(name))
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := New(ctx, paths, opt)
	if err != nil {
		t.Fatal(err)
	}
	env.w = w
	t.Cleanup(func() {
		cancel()
		select {
		case <-w.Done():
		case <-time.After(watchTimeout):
			t.Error("watcher did not stop")
		}
	})
	return env
}

func (env *watchEnv) path(name string) string { return filepath.Join(env.dir, name) }

func (env *watchEnv) write(name, text string) {
	env.t.Helper()
	p := env.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		env.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		env.t.Fatal(err)
	}
}

// expect waits for the next change and checks it names exactly the files.
func (env *watchEnv) expect(names ...string) {
	env.t.Helper()
	var want []string
	for _, n := range names {
		want = append(want, env.path(n))
	}
	slices.Sort(want)
	select {
	case got := <-env.w.Changes:
		got = slices.Clone(got)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			env.t.Fatalf("change %v, want %v", got, want)
		}
	case err := <-env.w.Errors:
		env.t.Fatalf("watch error: %v", err)
	case <-time.After(watchTimeout):
		env.t.Fatalf("no change reported for %v", names)
	}
}

// expectNothingThen proves that what was done before reported nothing:
// it saves the sentinel file and requires the next change to name only
// it. A change caused earlier would be due first (debounce is per file,
// and the events of one directory arrive in order), or merged with it.
func (env *watchEnv) expectNothingThen(sentinel string) {
	env.t.Helper()
	env.write(sentinel, "entities: [] # "+time.Now().String()+"\n")
	env.expect(sentinel)
}

const scene1 = "entities:\n  - id: a\n    position: 1 0 0\n"
const scene2 = "entities:\n  - id: a\n    position: 2 0 0\n"

func twoFiles() map[string]string {
	return map[string]string{"scene.yaml": scene1, "other.yaml": "entities: []\n"}
}

func TestWatchWriteInPlace(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	f, err := os.OpenFile(env.path("scene.yaml"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Same length, overwritten without truncating.
	if _, err := f.WriteAt([]byte(scene2), 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	env.expect("scene.yaml")
}

func TestWatchTruncateThenWrite(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 20 * time.Millisecond}, twoFiles())
	f, err := os.OpenFile(env.path("scene.yaml"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The empty file stays longer than the debounce: it must not count
	// as a save (an empty scene would destroy everything).
	time.Sleep(60 * time.Millisecond)
	if _, err := f.Write([]byte(scene2)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	env.expect("scene.yaml")
	env.expectNothingThen("other.yaml")
}

func TestWatchTempAndRename(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	tmp := env.path(".scene.yaml.tmp123")
	if err := os.WriteFile(tmp, []byte(scene2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, env.path("scene.yaml")); err != nil {
		t.Fatal(err)
	}
	env.expect("scene.yaml")
	// The watch survives the replacement: a second save is seen too.
	tmp2 := env.path("scene.yaml~")
	if err := os.WriteFile(tmp2, []byte(scene1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp2, env.path("scene.yaml")); err != nil {
		t.Fatal(err)
	}
	env.expect("scene.yaml")
}

func TestWatchVimStyleSave(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	// Probe file, original renamed to a backup, new file written, backup
	// removed.
	probe := env.path("4913")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(probe)
	if err := os.Rename(env.path("scene.yaml"), env.path("scene.yaml~")); err != nil {
		t.Fatal(err)
	}
	env.write("scene.yaml", scene2)
	if err := os.Chmod(env.path("scene.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(env.path("scene.yaml~"))
	env.expect("scene.yaml")
}

func TestWatchDeleteThenCreate(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 20 * time.Millisecond}, twoFiles())
	if err := os.Remove(env.path("scene.yaml")); err != nil {
		t.Fatal(err)
	}
	// Gone for longer than the debounce: the missing file is waited for.
	time.Sleep(60 * time.Millisecond)
	env.write("scene.yaml", scene2)
	env.expect("scene.yaml")
}

func TestWatchBurstIsOneSave(t *testing.T) {
	// Settle longer than its default, which a loaded machine's pauses
	// between two writes reach.
	opt := Options{Settle: 30 * time.Millisecond, Debounce: 100 * time.Millisecond}
	env := newWatchEnv(t, opt, twoFiles())
	start := time.Now()
	var gap time.Duration // the longest pause between two writes
	last := start
	for i := range 20 {
		env.write("scene.yaml", strings.Repeat("#", i)+"\n"+scene2)
		gap = max(gap, time.Since(last))
		last = time.Now()
		time.Sleep(500 * time.Microsecond)
	}
	if d := time.Since(start); d > 90*time.Millisecond || gap >= opt.Settle {
		// A pause as long as Settle ends the burst: what follows is
		// another save.
		t.Skipf("machine too loaded: 20 writes took %v, with a pause of %v", d, gap)
	}
	env.expect("scene.yaml")
	env.expectNothingThen("other.yaml") // exactly one
}

func TestWatchDirectoryVanishesAndReturns(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 20 * time.Millisecond}, map[string]string{
		"sub/scene.yaml": scene1, "other.yaml": "entities: []\n",
	})
	if err := os.RemoveAll(env.path("sub")); err != nil {
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml") // a vanished file is no save
	env.write("sub/scene.yaml", scene2)
	env.expect("sub/scene.yaml")
	// The new directory is watched: a later save is seen.
	env.write("sub/scene.yaml", scene1)
	env.expect("sub/scene.yaml")
}

func TestWatchDirectoryRenamedAway(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 20 * time.Millisecond}, map[string]string{
		"sub/scene.yaml": scene1, "other.yaml": "entities: []\n",
	})
	if err := os.Rename(env.path("sub"), env.path("sub.old")); err != nil {
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
	// Edits in the renamed directory are not the watched file.
	if err := os.WriteFile(env.path("sub.old/scene.yaml"), []byte(scene2), 0o644); err != nil {
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
	env.write("sub/scene.yaml", scene2)
	env.expect("sub/scene.yaml")
	env.write("sub/scene.yaml", scene1)
	env.expect("sub/scene.yaml")
}

func TestWatchChmodOnly(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	for _, mode := range []os.FileMode{0o600, 0o644, 0o640} {
		if err := os.Chmod(env.path("scene.yaml"), mode); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := os.Chtimes(env.path("scene.yaml"), now, now); err != nil { // touch
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
}

func TestWatchIdenticalSave(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	env.write("scene.yaml", scene1) // same bytes
	tmp := env.path("x.tmp")
	if err := os.WriteFile(tmp, []byte(scene1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, env.path("scene.yaml")); err != nil { // same bytes, by rename
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
	// A real change after identical ones is seen, and going back to the
	// first content is a change again.
	env.write("scene.yaml", scene2)
	env.expect("scene.yaml")
	env.write("scene.yaml", scene1)
	env.expect("scene.yaml")
}

func TestWatchPoll(t *testing.T) {
	env := newWatchEnv(t, Options{Poll: 20 * time.Millisecond, Debounce: 10 * time.Millisecond}, twoFiles())
	env.write("scene.yaml", scene2)
	env.expect("scene.yaml")
	env.write("scene.yaml", scene2) // identical
	if err := os.Chmod(env.path("scene.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
	if err := os.Remove(env.path("scene.yaml")); err != nil {
		t.Fatal(err)
	}
	env.expectNothingThen("other.yaml")
	env.write("scene.yaml", scene1)
	env.expect("scene.yaml")
}

func TestWatchMergesUnreadSaves(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 10 * time.Millisecond}, twoFiles())
	env.write("scene.yaml", scene2)
	env.write("other.yaml", "entities: [] # 2\n")
	// The reader is busy (a long tick) well past both debounces: the
	// watcher keeps both saves and hands them over at once.
	time.Sleep(300 * time.Millisecond)
	env.expect("scene.yaml", "other.yaml")
}

func TestWatchSetFilesNewDirectory(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 10 * time.Millisecond}, twoFiles())
	env.write("parts/inc.yaml", "entities: []\n")
	env.w.SetFiles([]string{env.path("scene.yaml"), env.path("other.yaml"), env.path("parts/inc.yaml")})
	// SetFiles has added the watch when it returns.
	env.write("parts/inc.yaml", "entities: [] # 2\n")
	env.expect("parts/inc.yaml")
	// Dropped files are no longer reported.
	env.w.SetFiles([]string{env.path("other.yaml")})
	env.write("scene.yaml", scene2)
	env.expectNothingThen("other.yaml")
}

// waitError waits for an error on the watcher's Errors that is a
// FileError for the file name, matches is (errors.Is) and contains want.
func (env *watchEnv) waitError(name string, is error, want string) {
	env.t.Helper()
	deadline := time.After(watchTimeout)
	for {
		select {
		case err := <-env.w.Errors:
			var fe *FileError
			if errors.As(err, &fe) && fe.Path == env.path(name) && errors.Is(err, is) &&
				strings.Contains(err.Error(), want) {
				return
			}
		case got := <-env.w.Changes:
			env.t.Fatalf("change %v, want an error %q", got, want)
		case <-deadline:
			env.t.Fatalf("no error %q reported", want)
		}
	}
}

// TestWatchFileReplacedByPipe: a watched file replaced by a named pipe (or
// a directory) does not block the watcher: it is reported on Errors and
// waited for, and the save that brings a regular file back is seen. In
// both modes, events and polling.
func TestWatchFileReplacedByPipe(t *testing.T) {
	for _, mode := range []struct {
		name string
		opt  Options
	}{
		{"events", Options{Debounce: 10 * time.Millisecond}},
		{"poll", Options{Poll: 20 * time.Millisecond, Debounce: 10 * time.Millisecond}},
	} {
		for _, kind := range []string{"pipe", "directory"} {
			t.Run(mode.name+"/"+kind, func(t *testing.T) {
				env := newWatchEnv(t, mode.opt, twoFiles())
				tmp := env.path("odd")
				want := "a named pipe"
				if kind == "pipe" {
					mkfifo(t, tmp)
				} else {
					want = "a directory"
					if err := os.Mkdir(tmp, 0o755); err != nil {
						t.Fatal(err)
					}
					// A directory cannot be renamed over a file.
					if err := os.Remove(env.path("scene.yaml")); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.Rename(tmp, env.path("scene.yaml")); err != nil {
					t.Fatal(err)
				}
				env.waitError("scene.yaml", ErrNotRegular, want)
				// The loop is not blocked: another file's save is seen.
				env.expectNothingThen("other.yaml")
				// Nor is SetFiles, which reads new files' baseline.
				done := make(chan struct{})
				go func() {
					env.w.SetFiles([]string{env.path("scene.yaml"), env.path("other.yaml")})
					close(done)
				}()
				select {
				case <-done:
				case <-time.After(watchTimeout):
					t.Fatal("SetFiles blocked on the named pipe")
				}
				if err := os.Remove(env.path("scene.yaml")); err != nil {
					t.Fatal(err)
				}
				env.write("scene.yaml", scene2)
				env.expect("scene.yaml")
				if got := string(env.w.Snapshot()[env.path("scene.yaml")]); got != scene2 {
					t.Fatalf("snapshot %q", got)
				}
			})
		}
	}
}

// TestWatchSaveWhileUnreadable: a save made while the file cannot be read
// is seen once it can be read again, although the only event left is a
// Chmod. The read is made to fail by a hook (root reads any file);
// TestWatchSaveWhileUnreadableChmod does it with real permissions.
func TestWatchSaveWhileUnreadable(t *testing.T) {
	var mu sync.Mutex
	deny := ""
	opt := Options{Debounce: 10 * time.Millisecond}
	opt.read = func(path string, max int64) ([]byte, error) {
		mu.Lock()
		d := deny
		mu.Unlock()
		if path == d {
			return nil, &fs.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
		}
		return readFile(path, max)
	}
	env := newWatchEnv(t, opt, twoFiles())
	mu.Lock()
	deny = env.path("scene.yaml")
	mu.Unlock()
	env.write("scene.yaml", scene2) // saved while unreadable
	env.waitError("scene.yaml", fs.ErrPermission, "permission denied")
	env.expectNothingThen("other.yaml")
	mu.Lock()
	deny = ""
	mu.Unlock()
	if err := os.Chmod(env.path("scene.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	env.expect("scene.yaml")
}

func TestWatchSaveWhileUnreadableChmod(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files without read permission; TestWatchSaveWhileUnreadable covers this")
	}
	env := newWatchEnv(t, Options{Debounce: 10 * time.Millisecond}, twoFiles())
	p := env.path("scene.yaml")
	if err := os.Chmod(p, 0o200); err != nil { // write only
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(scene2), 0o200); err != nil {
		t.Fatal(err)
	}
	env.waitError("scene.yaml", fs.ErrPermission, "permission denied")
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	env.expect("scene.yaml")
}

// TestWatchUnwatchesDroppedDirectories: the directories of includes that
// are no longer watched are unwatched, so watches do not grow with every
// include edit.
func TestWatchUnwatchesDroppedDirectories(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: 10 * time.Millisecond}, twoFiles())
	start := len(env.w.watchedDirs())
	if start != 2 {
		t.Fatalf("watching %v, want the directory and its parent", env.w.watchedDirs())
	}
	for i := range 20 {
		inc := filepath.Join(fmt.Sprintf("inc%d", i), "deep", "part.yaml")
		env.write(inc, "entities: []\n")
		env.w.SetFiles([]string{env.path("scene.yaml"), env.path(inc)})
		// The scene's directory and its parent; the include's directory
		// and its parent.
		if got := env.w.watchedDirs(); len(got) != 4 {
			t.Fatalf("after %d include edits, watching %d directories: %v", i+1, len(got), got)
		}
	}
	env.w.SetFiles([]string{env.path("scene.yaml"), env.path("other.yaml")})
	if got := env.w.watchedDirs(); len(got) != start {
		t.Fatalf("watching %v", got)
	}
	// What is still watched still works.
	env.write("scene.yaml", scene2)
	env.expect("scene.yaml")
}

// TestWatchFileTooLarge: a file larger than MaxBytes is no save: it is
// reported once, as a FileError wrapping ErrTooLarge that says the sizes,
// and waited for; the save that brings it under the limit is seen.
func TestWatchFileTooLarge(t *testing.T) {
	for _, mode := range []struct {
		name string
		opt  Options
	}{
		{"events", Options{Debounce: 10 * time.Millisecond, MaxBytes: 128}},
		{"poll", Options{Poll: 20 * time.Millisecond, Debounce: 10 * time.Millisecond, MaxBytes: 128}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			env := newWatchEnv(t, mode.opt, twoFiles())
			big := scene1 + strings.Repeat("#", 128) + "\n"
			env.write("scene.yaml", big)
			want := fmt.Sprintf("watch: %s: file too large: %d bytes (limit 128) (waiting until it can be read)",
				env.path("scene.yaml"), len(big))
			env.waitError("scene.yaml", ErrTooLarge, want)
			env.expectNothingThen("other.yaml")
			env.write("scene.yaml", scene2)
			env.expect("scene.yaml")
			if got := string(env.w.Snapshot()[env.path("scene.yaml")]); got != scene2 {
				t.Fatalf("snapshot %q", got)
			}
		})
	}
}

// TestWatchEmptySave: a file saved empty (0 bytes) is not a save, and once
// it has stayed empty past MaxDelay it is reported, once, as a FileError
// wrapping ErrEmpty; the next save with content is a save, and the next
// empty one is reported again. In both modes, events and polling, and for
// a file emptied in place or replaced by an empty one.
func TestWatchEmptySave(t *testing.T) {
	for _, mode := range []struct {
		name string
		opt  Options
	}{
		{"events", Options{Debounce: 10 * time.Millisecond}},
		{"poll", Options{Poll: 20 * time.Millisecond, Debounce: 10 * time.Millisecond}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			env := newWatchEnv(t, mode.opt, twoFiles())
			env.write("scene.yaml", "")
			env.waitError("scene.yaml", ErrEmpty, "scene.yaml: the file is empty (0 bytes) (waiting for a save with content)")
			env.write("scene.yaml", scene2)
			env.expect("scene.yaml")
			// Replaced by an empty file, as a rename save does.
			tmp := env.path(".scene.yaml.tmp")
			env.write(".scene.yaml.tmp", "")
			if err := os.Rename(tmp, env.path("scene.yaml")); err != nil {
				t.Fatal(err)
			}
			env.waitError("scene.yaml", ErrEmpty, "the file is empty")
			// Reported once: nothing more while it stays empty.
			time.Sleep(3 * retryInterval)
			env.expectNothingThen("other.yaml")
			// Back to the content judged last: no change to report.
			env.write("scene.yaml", scene2)
			env.expectNothingThen("other.yaml")
		})
	}
}

// TestWatchEmptyNotReported: an empty file is not reported when it was
// empty from the start (nothing saved it so), nor when an editor
// truncates it and writes the save within MaxDelay.
func TestWatchEmptyNotReported(t *testing.T) {
	for _, mode := range []struct {
		name string
		opt  Options
	}{
		{"events", Options{Debounce: 10 * time.Millisecond, MaxDelay: time.Second}},
		{"poll", Options{Poll: 20 * time.Millisecond, Debounce: 10 * time.Millisecond, MaxDelay: time.Second}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			files := twoFiles()
			files["blank.yaml"] = ""
			env := newWatchEnv(t, mode.opt, files)
			env.write("scene.yaml", "")
			time.Sleep(300 * time.Millisecond) // judged empty, not yet MaxDelay
			env.write("scene.yaml", scene2)
			env.expect("scene.yaml")
			time.Sleep(time.Second + 2*retryInterval)
			env.expectNothingThen("other.yaml")
		})
	}
}
