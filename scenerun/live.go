package scenerun

import (
	"context"
	"path/filepath"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/watch"
)

// SceneWatcher hot-reloads a running scene when its files are saved: the
// scene file and every file it includes. It joins a file watcher
// (package watch) to the scene's [live.Reloader]; a game loop selects
// on Changes beside its ticker and calls Reload between ticks, on the
// goroutine that ticks the World:
//
//	sw, err := scenerun.WatchScene(ctx, scene, "level.yaml", watch.Options{})
//	...
//	for {
//		select {
//		case <-sw.Changes:
//			d, err := sw.Reload() // err: the scene runs on unchanged
//			...
//		case err := <-sw.Errors:
//			log.Print(err)
//		case <-ticker.C:
//			reg.Tick(dt)
//		case <-ctx.Done():
//			return
//		}
//	}
//
// Each reload applies exactly the bytes the watcher judged a save, and
// the files an attempt includes are watched from then on, failed or not
// (fixing a broken include reloads). A save is reported once it has
// been quiet for the watcher's Settle and looks whole: among the rules,
// its file reads as a scene (up to 256 KiB); a save caught half written
// waits for the rest, or for the Debounce.
// A save that would destroy every entity of the scene is applied only
// if the files hold the same bytes one debounce later.
type SceneWatcher struct {
	// Changes receives, for each save, the files whose content changed
	// (absolute paths). Nothing is applied until Reload is called.
	Changes <-chan []string
	// Errors receives the watcher's errors, such as a watched file that
	// cannot be read, or that was saved empty (watch.ErrEmpty: not a
	// save; it is waited for). They are dropped when nobody reads them.
	Errors <-chan error

	rl *live.Reloader
	w  *watch.Watcher
}

// WatchScene starts watching the files of scene, loaded from file, until
// ctx ends. ctx also interrupts a reload's reading. opt configures the
// watcher (debounce, polling); its Debounce is also how long a reload
// that would empty the scene waits for its second look. Unless
// opt.Complete is set, a save of up to 256 KiB counts as whole only if
// it reads as a scene file (scenefile.Read).
func WatchScene(ctx context.Context, scene *loader.Scene, file string, opt watch.Options) (*SceneWatcher, error) {
	rl := &live.Reloader{Scene: scene, File: filepath.Clean(file), Options: loader.Options{Context: ctx}, Recheck: opt.Debounce}
	if opt.Complete == nil {
		opt.Complete = readsAsScene
	}
	w, err := watch.New(ctx, rl.Files(), opt)
	if err != nil {
		return nil, err
	}
	return &SceneWatcher{Changes: w.Changes, Errors: w.Errors, rl: rl, w: w}, nil
}

// Reload applies the last save to the running scene and returns what
// changed (see [live.Reloader.ReloadFrom]). On an error nothing was
// applied and the scene runs on as it was; the error lists every problem
// as file:line:col.
func (sw *SceneWatcher) Reload() (*live.Diff, error) {
	d, err := sw.rl.ReloadFrom(scenefile.Snapshot(sw.w.Snapshot()))
	sw.follow()
	return d, err
}

// Check returns what Reload would change, without changing anything (a
// dry run).
func (sw *SceneWatcher) Check() (*live.Diff, error) {
	d, err := sw.rl.CheckFrom(scenefile.Snapshot(sw.w.Snapshot()))
	sw.follow()
	return d, err
}

// follow watches the files the last attempt read or tried to include.
func (sw *SceneWatcher) follow() {
	sw.w.SetFilesFrom(sw.rl.Files(), watch.Snapshot(sw.rl.Snapshot()))
}

// Scene returns the running scene.
func (sw *SceneWatcher) Scene() *loader.Scene { return sw.rl.Scene }

// sceneCheckMax bounds the saves that WatchScene reads as a scene
// before they are reported. Reading costs about 1 ms per 60 KB (more on
// a loaded machine), on top of the reload's own read, so the check of a
// larger file (a generated scene) would cost more than the quiet time it
// follows: such a file relies on the watcher's own rules (it ends as its
// last save did, it is not much shorter).
const sceneCheckMax = 256 << 10

// readsAsScene reports whether data, a save of the scene file or an
// include at path, reads as a scene file: one caught half-written seldom
// does, and is then waited for. A save larger than sceneCheckMax is not
// read, and counts as whole.
func readsAsScene(path string, data []byte) bool {
	if len(data) > sceneCheckMax {
		return true
	}
	_, err := scenefile.Read(path, data, scenefile.DefaultLimits())
	return err == nil
}
