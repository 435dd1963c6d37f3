package live

import (
	"context"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// TestSaveThenWatcherReload saves a change with a real watcher on the
// files: the watcher sees the save, and its reload applies nothing (no
// second update, run-time values kept).
func TestSaveThenWatcherReload(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	w, err := watch.New(ctx, env.rl.Files(), watch.Options{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		<-w.Done()
	}()
	// The watcher's own reloader, as scene-run has one.
	wrl := &Reloader{Scene: env.rl.Scene, File: env.rl.File}
	g := env.entity("goblin")
	if _, _, err := env.set(g, "health", "hp: 25; max: 30"); err != nil {
		t.Fatal(err)
	}
	if env.updates != 1 {
		t.Fatalf("update ran %d times for the change, want 1", env.updates)
	}
	// The simulation goes on: a run-time change after the save.
	c, _ := env.reg.Component("health")
	p, _ := c.Schema.ParseAttr("health", "hp: 24")
	if err := env.reg.SetPatch(g, "health", p, registry.Merge); err != nil {
		t.Fatal(err)
	}
	env.updates = 0
	select {
	case files := <-w.Changes:
		if len(files) != 1 {
			t.Fatalf("the watcher reports %v", files)
		}
	case err := <-w.Errors:
		t.Fatal(err)
	case <-time.After(watchTimeout):
		t.Fatal("the watcher did not see the save")
	}
	d, err := wrl.ReloadFrom(scenefile.Snapshot(w.Snapshot()))
	if err != nil {
		t.Fatal(err)
	}
	if !d.Empty() || len(d.Entries(env.reg)) != 0 {
		t.Fatalf("the watcher's reload of the save applies %s", d)
	}
	if env.updates != 0 {
		t.Fatalf("the watcher's reload ran update %d times", env.updates)
	}
	if attr, _ := env.reg.Attr(g, "health"); attr != "hp: 24; max: 30; maxHp: 1" {
		t.Fatalf("health after the reload: %q", attr)
	}
}
