package live

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// stormDuration is how long TestSaveStorm runs: SCENECS_STORM (a Go
// duration) or a few seconds.
func stormDuration(t *testing.T) time.Duration {
	if s := os.Getenv("SCENECS_STORM"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if testing.Short() {
		return 500 * time.Millisecond
	}
	return 3 * time.Second
}

// stormEditor rewrites a scene file as an editor does, over and over:
// each save writes the file as it last read it with its first line, a
// comment, counting its saves. It saves in place (truncating the file)
// and by renaming a new file over it, in turn. Before each save it reads
// the file, which must show its last save (with whatever the save-back
// wrote since). A lower count means a save of its was lost, unless the
// file shows its save again within staleFor: a save-back that finds an
// editor's save swapped out puts it back, and an editor that saves again
// in the microseconds between the check and that swap sees its older
// save there until the next round swaps the newer one back (no scheme
// of names can close that window without the editor's cooperation).
type stormEditor struct {
	path         string
	saves, lost  int
	firstLostAt  string
	renamedSaves int
	stale        int // reads that showed an older save for a moment
}

// staleFor bounds how long a save-back's rounds may show an editor's
// older save: a few swaps and reads of a small file.
const staleFor = 200 * time.Millisecond

// editorLine returns the count of the editor's first line in b.
func editorLine(b []byte) int {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	n, _ := strconv.Atoi(strings.TrimPrefix(string(line), "# editor: "))
	return n
}

// settled reads the file again until it shows the editor's last save,
// for staleFor at most, and returns the last read.
func (ed *stormEditor) settled(b []byte) []byte {
	for end := time.Now().Add(staleFor); editorLine(b) != ed.saves && time.Now().Before(end); {
		time.Sleep(50 * time.Microsecond)
		if nb, err := os.ReadFile(ed.path); err == nil {
			b = nb
		}
	}
	return b
}

func (ed *stormEditor) run(t *testing.T, until time.Time, rng *rand.Rand) {
	for time.Now().Before(until) {
		b, err := os.ReadFile(ed.path)
		if err != nil {
			t.Errorf("editor: %v", err)
			return
		}
		if got := editorLine(b); got != ed.saves {
			b = ed.settled(b)
			if now := editorLine(b); now != ed.saves {
				ed.lost++
				if ed.firstLostAt == "" {
					ed.firstLostAt = fmt.Sprintf("save %d: the file shows save %d, and %d after %v", ed.saves, got, now, staleFor)
				}
			} else {
				ed.stale++
			}
		}
		_, rest, _ := bytes.Cut(b, []byte("\n"))
		ed.saves++
		next := append([]byte("# editor: "+strconv.Itoa(ed.saves)+"\n"), rest...)
		if ed.saves%2 == 0 {
			err = os.WriteFile(ed.path, next, 0o644)
		} else {
			tmp := ed.path + ".editor~"
			if err = os.WriteFile(tmp, next, 0o644); err == nil {
				err = os.Rename(tmp, ed.path)
			}
			ed.renamedSaves++
		}
		if err != nil {
			t.Errorf("editor: %v", err)
			return
		}
		if d := rng.IntN(400); d > 0 {
			time.Sleep(time.Duration(d) * time.Microsecond)
		}
	}
}

// TestSaveStorm: an editor saves the scene file over and over while
// save-backs run on the simulation goroutine (and reload the file when
// the editor's saves undid one, as a watcher would). No save of the
// editor is ever lost, and every save-back that fails leaves the World
// as it was before the change it was saving.
func TestSaveStorm(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": "# editor: 0\n" + saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	ed := &stormEditor{path: filepath.Join(env.dir, "main.yaml")}
	until := time.Now().Add(stormDuration(t))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ed.run(t, until, rand.New(rand.NewPCG(1, 2)))
	}()
	hero := env.entity("hero")
	rng := rand.New(rand.NewPCG(3, 4))
	var saved, failed, refused, reloads int
	for k := 0; time.Now().Before(until); k++ {
		time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		s, err := NewSaver(env.rl).PrepareSet(hero, "health", "hp: "+strconv.Itoa(k%1000))
		if err != nil {
			refused++
			if !errors.Is(err, ErrFileChanged) {
				t.Fatalf("a save refused but not for a change of the file: %v", err)
			}
			if stormReload(t, env, ed.path) {
				reloads++
			}
			continue
		}
		before, _ := env.reg.Values(hero, "health")
		before = append([]any(nil), before...)
		c, _ := env.reg.Component("health")
		patch, _ := c.Schema.ParseAttr("health", "hp: "+strconv.Itoa(k%1000))
		if err := env.reg.SetPatch(hero, "health", patch, registry.Merge); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Commit(); err != nil {
			failed++
			if !errors.Is(err, ErrFileChanged) {
				t.Errorf("a save failed but not for a change of the file: %v", err)
			}
			if after, _ := env.reg.Values(hero, "health"); !reflect.DeepEqual(after, before) {
				t.Errorf("a failed save left the World changed: health %v, was %v (%v)", after, before, err)
			}
			continue
		}
		saved++
	}
	wg.Wait()
	t.Logf("editor: %d saves (%d by rename), %d lost, %d read an older save for a moment; save-back: %d saved, %d failed at commit, %d refused at prepare, %d reloads",
		ed.saves, ed.renamedSaves, ed.lost, ed.stale, saved, failed, refused, reloads)
	if ed.lost > 0 {
		t.Errorf("%d of the editor's %d saves were lost (first: %s)", ed.lost, ed.saves, ed.firstLostAt)
	}
	if b, _ := os.ReadFile(ed.path); editorLine(b) != ed.saves {
		t.Errorf("the file ends with the editor's save %d, not its last, %d", editorLine(b), ed.saves)
	}
	if saved == 0 {
		t.Error("no save-back succeeded")
	}
	matches, _ := filepath.Glob(filepath.Join(env.dir, ".main.yaml.save-*"))
	if len(matches) > 0 {
		t.Errorf("temporary files left: %v", matches)
	}
}

// stormReload reloads the scene from the editor's last whole save, as a
// watcher would once the file is stable (an editor writing in place
// shows a part of the file meanwhile).
func stormReload(t *testing.T, env *saveEnv, path string) bool {
	for range 100 {
		a, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
		b, _ := os.ReadFile(path)
		if bytes.Equal(a, b) && bytes.HasSuffix(a, []byte("    position: 1 1 1\n")) {
			_, err := env.rl.ReloadFrom(scenefile.Snapshot{path: a})
			return err == nil
		}
	}
	return false
}
