package live

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// The loader does not import the watch package; its tests do, to reload
// as scene-run does: on a watcher's reports, from its snapshots.

// watchTimeout bounds every wait for a change: generous for a loaded
// machine; a passing test waits only as long as the debounce.
const watchTimeout = 5 * time.Second

// reloadFiles is a scene on disk with a Reloader, for the tests of what
// a reload reads.
type reloadFiles struct {
	t     *testing.T
	dir   string
	reg   *registry.Registry
	rl    *Reloader
	waits int // second looks
	// during runs inside the second look's wait (an editor writing).
	during func()
}

const threeEntities = "entities:\n  - id: a\n    position: 1 0 0\n  - id: b\n  - id: c\n"

func newReloadFiles(t *testing.T, files map[string]string) *reloadFiles {
	t.Helper()
	rf := &reloadFiles{t: t, dir: t.TempDir(), reg: newTestRegistry(t)}
	for name, text := range files {
		rf.write(name, text)
	}
	file := filepath.Join(rf.dir, "scene.yaml")
	scene, err := LoadFile(rf.reg, file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rf.rl = &Reloader{Scene: scene, File: file}
	rf.rl.wait = func(ctx context.Context, d time.Duration) error {
		rf.waits++
		if rf.during != nil {
			rf.during()
		}
		return nil
	}
	return rf
}

func (rf *reloadFiles) path(name string) string { return filepath.Join(rf.dir, name) }

func (rf *reloadFiles) write(name, text string) {
	rf.t.Helper()
	if err := os.MkdirAll(filepath.Dir(rf.path(name)), 0o755); err != nil {
		rf.t.Fatal(err)
	}
	if err := os.WriteFile(rf.path(name), []byte(text), 0o644); err != nil {
		rf.t.Fatal(err)
	}
}

// TestReloadReadsTheJudgedBytes: an editor truncates the file between the
// watcher's change notice and the reload. ReloadFrom parses the bytes the
// watcher judged, so the running scene keeps its entities and gets the
// edit.
func TestReloadReadsTheJudgedBytes(t *testing.T) {
	rf := newReloadFiles(t, map[string]string{"scene.yaml": threeEntities})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := watch.New(ctx, rf.rl.Files(), watch.Options{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(threeEntities, "position: 1 0 0", "position: 2 0 0", 1)
	rf.write("scene.yaml", edited)
	select {
	case <-w.Changes:
	case <-time.After(watchTimeout):
		t.Fatal("no change reported")
	}
	// The editor's next save starts: the file is empty now.
	if err := os.Truncate(rf.path("scene.yaml"), 0); err != nil {
		t.Fatal(err)
	}
	d, err := rf.rl.ReloadFrom(scenefile.Snapshot(w.Snapshot()))
	if err != nil {
		t.Fatal(err)
	}
	if d.Summary() != "+0 -0 ~1" || rf.reg.World().Len() != 3 || rf.waits != 0 {
		t.Fatalf("diff %s, %d entities, %d second looks", d, rf.reg.World().Len(), rf.waits)
	}
	a, _ := rf.reg.EntityByID("a")
	if p := builtinPos(t, rf.reg, a); p.X != 2 {
		t.Fatalf("position %v: the edit was not applied", p)
	}
	// The baseline of the watcher is what was parsed.
	w.SetFilesFrom(rf.rl.Files(), watch.Snapshot(rf.rl.Snapshot()))
	if got := string(w.Snapshot()[rf.path("scene.yaml")]); got != edited {
		t.Fatalf("snapshot %q", got)
	}
}

// TestReloadSecondLook: a reload that would destroy every entity of the
// scene reads the files again after Recheck; it applies only if they hold
// the same bytes, and leaves the World untouched (ErrUnsettled) if an
// editor was still writing. Other reloads take no second look.
func TestReloadSecondLook(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string // the scene as loaded
		save   map[string]string // the save that destroys every entity
		repair map[string]string // what the editor writes during the second look
	}{
		{"empty file",
			map[string]string{"scene.yaml": threeEntities},
			map[string]string{"scene.yaml": ""},
			map[string]string{"scene.yaml": threeEntities}},
		{"no entities left",
			map[string]string{"scene.yaml": threeEntities},
			map[string]string{"scene.yaml": "entities: []\n"},
			map[string]string{"scene.yaml": threeEntities}},
		{"cut off before the entities",
			map[string]string{"scene.yaml": "mixins:\n  m: {position: 1 1 1}\n" + threeEntities},
			map[string]string{"scene.yaml": "mixins:\n  m: {position: 1 1 1}\n"},
			map[string]string{"scene.yaml": "mixins:\n  m: {position: 1 1 1}\n" + threeEntities}},
		{"every id renamed",
			map[string]string{"scene.yaml": threeEntities},
			map[string]string{"scene.yaml": "entities:\n  - id: x\n  - id: y\n"},
			map[string]string{"scene.yaml": threeEntities + "  - id: d\n"}},
		{"included file emptied",
			map[string]string{"scene.yaml": "include: [parts/all.yaml]\n", "parts/all.yaml": threeEntities},
			map[string]string{"parts/all.yaml": ""},
			map[string]string{"parts/all.yaml": threeEntities}},
	} {
		t.Run(tc.name+"/settled", func(t *testing.T) {
			rf := newReloadFiles(t, tc.files)
			for name, text := range tc.save {
				rf.write(name, text)
			}
			d, err := rf.rl.Reload()
			if err != nil {
				t.Fatal(err)
			}
			if rf.waits != 1 || len(d.Destroyed) == 0 {
				t.Fatalf("%d second looks, diff %s", rf.waits, d)
			}
			for _, id := range []string{"a", "b", "c"} {
				if _, ok := rf.reg.EntityByID(id); ok {
					t.Fatalf("#%s survived a settled save that removes it", id)
				}
			}
		})
		t.Run(tc.name+"/still writing", func(t *testing.T) {
			rf := newReloadFiles(t, tc.files)
			before := dump(t, rf.reg)
			for name, text := range tc.save {
				rf.write(name, text)
			}
			rf.during = func() {
				for name, text := range tc.repair {
					rf.write(name, text)
				}
			}
			_, err := rf.rl.Reload()
			if !errors.Is(err, ErrUnsettled) || !strings.Contains(err.Error(), "would destroy all 3 entities") {
				t.Fatalf("error %v, want ErrUnsettled", err)
			}
			if after := dump(t, rf.reg); after != before {
				t.Fatal("an unsettled reload changed the World")
			}
			// The next reload, with the editor done, applies the file.
			rf.during = nil
			if _, err := rf.rl.Reload(); err != nil {
				t.Fatal(err)
			}
			if rf.waits != 1 && tc.name != "every id renamed" {
				t.Fatalf("%d second looks", rf.waits)
			}
		})
	}
	t.Run("no second look", func(t *testing.T) {
		rf := newReloadFiles(t, map[string]string{"scene.yaml": threeEntities})
		rf.write("scene.yaml", "entities:\n  - id: a\n")
		if d, err := rf.rl.Reload(); err != nil || d.Summary() != "+0 -2 ~1" || rf.waits != 0 {
			t.Fatalf("diff %v, err %v, %d second looks", d, err, rf.waits)
		}
		rf.rl.Recheck = -1 // none at all
		rf.write("scene.yaml", "")
		if _, err := rf.rl.Reload(); err != nil || rf.waits != 0 || rf.reg.World().Len() != 0 {
			t.Fatalf("err %v, %d second looks, %d entities", err, rf.waits, rf.reg.World().Len())
		}
	})
}

// TestReloadRapidSaves saves a scene hundreds of times the way editors
// do (truncate, pause, write), with a watcher and a reloader working as
// scene-run does, the reload coming a little after the change notice (a
// tick in progress), so that it often meets the file empty. No reload may
// destroy the scene, and the last save is what runs in the end.
func TestReloadRapidSaves(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	var b strings.Builder
	b.WriteString("entities:\n")
	for i := range 50 {
		fmt.Fprintf(&b, "  - id: e%d\n    position: %d 0 0\n", i, i)
	}
	body := b.String()
	rf := newReloadFiles(t, map[string]string{"scene.yaml": body})
	rf.rl.wait = nil // real second looks
	rf.rl.Recheck = 5 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := watch.New(ctx, rf.rl.Files(), watch.Options{Debounce: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	saved := make(chan struct{})
	version := func(i int) string { return fmt.Sprintf("# save %d\n%s", i, body) }
	go func() {
		defer close(saved)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range n {
			f, err := os.OpenFile(rf.path("scene.yaml"), os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Error(err)
				return
			}
			// Empty for a moment, sometimes longer than the debounce.
			time.Sleep(time.Duration(rng.IntN(8000)) * time.Microsecond)
			text := version(i)
			half := rng.IntN(len(text))
			f.Write([]byte(text[:half])) // some editors write in pieces
			f.Write([]byte(text[half:]))
			f.Close()
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		}
	}()
	rng := rand.New(rand.NewPCG(3, 4))
	reloads, fewest := 0, 50
	last := ""
	reload := func() {
		time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond) // a tick
		_, err := rf.rl.ReloadFrom(scenefile.Snapshot(w.Snapshot()))
		w.SetFilesFrom(rf.rl.Files(), watch.Snapshot(rf.rl.Snapshot()))
		reloads++
		fewest = min(fewest, rf.reg.World().Len())
		if err == nil {
			last = string(rf.rl.Snapshot()[rf.path("scene.yaml")])
		}
	}
	for done := false; !done; {
		select {
		case <-w.Changes:
			reload()
		case <-saved:
			done = true
		}
	}
	// The last save settles and is reloaded.
	for last != version(n-1) {
		select {
		case <-w.Changes:
			reload()
		case <-time.After(watchTimeout):
			t.Fatalf("the last save was not reloaded (last reloaded %.20q)", last)
		}
	}
	if fewest == 0 {
		t.Fatal("a reload destroyed every entity")
	}
	if got := rf.reg.World().Len(); got != 50 {
		t.Fatalf("%d entities in the end, want 50", got)
	}
	t.Logf("%d saves, %d reloads, fewest entities after a reload %d", n, reloads, fewest)
}
