package scenerun

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// flowScene is a scene of entities a to j in a flow sequence, one a
// line, a at x: a file cut at the end of one of its lines does not parse.
func flowScene(x int) string {
	var b strings.Builder
	b.WriteString("entities: [\n")
	for i, id := range "abcdefghij" {
		if i > 0 {
			b.WriteString(",\n")
		}
		px := i
		if id == 'a' {
			px = x
		}
		fmt.Fprintf(&b, "  {id: %c, position: %d 0 0}", id, px)
	}
	b.WriteString("\n]\n")
	return b.String()
}

// liveEnv is a scene loaded from path and watched by sw.
type liveEnv struct {
	t    *testing.T
	path string
	reg  *registry.Registry
	sw   *SceneWatcher
}

func newLiveEnv(t *testing.T, src string, opt watch.Options) *liveEnv {
	t.Helper()
	path := sceneFile(t, "s.yaml", src)
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	scene, err := loader.LoadFile(reg, path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sw, err := WatchScene(ctx, scene, path, opt)
	if err != nil {
		t.Fatal(err)
	}
	return &liveEnv{t: t, path: path, reg: reg, sw: sw}
}

// x returns the x of entity a's position.
func (env *liveEnv) x() float64 {
	env.t.Helper()
	e, ok := env.reg.EntityByID("a")
	if !ok {
		env.t.Fatal("no entity a")
	}
	vs, err := env.reg.Values(e, "position")
	if err != nil {
		env.t.Fatal(err)
	}
	return vs[0].(registry.Vec3).X
}

// next waits for the next save, failing on an error; it returns how long
// it waited.
func (env *liveEnv) next() time.Duration {
	env.t.Helper()
	start := time.Now()
	select {
	case <-env.sw.Changes:
	case err := <-env.sw.Errors:
		env.t.Fatalf("watch error: %v", err)
	case <-time.After(10 * time.Second):
		env.t.Fatal("no save reported")
	}
	return time.Since(start)
}

// quiet checks that no save is reported for d.
func (env *liveEnv) quiet(d time.Duration, why string) {
	env.t.Helper()
	select {
	case <-env.sw.Changes:
		env.t.Fatalf("a save reported %s", why)
	case err := <-env.sw.Errors:
		env.t.Fatalf("watch error %s: %v", why, err)
	case <-time.After(d):
	}
}

// TestWatchSceneHalfWritten: a scene saved in place in two chunks, with a
// pause between, whose first chunk ends a line and is most of the file
// (it looks whole but for not parsing) is not reported half written; it
// is reported once whole, long before the debounce, and applied.
func TestWatchSceneHalfWritten(t *testing.T) {
	const debounce = 2 * time.Second
	env := newLiveEnv(t, flowScene(1), watch.Options{Debounce: debounce})
	text := flowScene(5)
	f, err := os.OpenFile(env.path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	if _, err := f.WriteString(text[:len(text)-2]); err != nil { // all but "]\n"
		t.Fatal(err)
	}
	env.quiet(100*time.Millisecond, "while half written")
	if _, err := f.WriteString(text[len(text)-2:]); err != nil {
		t.Fatal(err)
	}
	env.next()
	if d := time.Since(start); d >= debounce/2 {
		t.Errorf("whole save reported after %v, not before the debounce (%v)", d, debounce)
	}
	if d, err := env.sw.Reload(); err != nil || d.Summary() != "+0 -0 ~1" || env.x() != 5 {
		t.Fatalf("reload: %v %v, x %v", d, err, env.x())
	}
}

// TestWatchSceneBrokenSaveOnce: a save that does not parse and is not
// followed by more is still reported, once the debounce is over, and
// once: its reload fails and changes nothing; the save that fixes it is
// applied.
func TestWatchSceneBrokenSaveOnce(t *testing.T) {
	const debounce = 150 * time.Millisecond
	env := newLiveEnv(t, flowScene(1), watch.Options{Debounce: debounce})
	broken := strings.Replace(flowScene(2), "\n]\n", "\n}\n", 1)
	// Timed from before the write: the watcher's wait starts at the
	// write's event, which may come before WriteFile returns.
	saved := time.Now()
	if err := os.WriteFile(env.path, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if env.next(); time.Since(saved) < debounce {
		d := time.Since(saved)
		t.Errorf("broken save reported after %v, before the debounce (%v)", d, debounce)
	}
	if _, err := env.sw.Reload(); err == nil || !strings.Contains(err.Error(), "s.yaml:") || env.x() != 1 {
		t.Fatalf("broken reload: %v, x %v", err, env.x())
	}
	env.quiet(3*debounce, "again for the broken save")
	if err := os.WriteFile(env.path, []byte(flowScene(3)), 0o644); err != nil {
		t.Fatal(err)
	}
	env.next()
	if _, err := env.sw.Reload(); err != nil || env.x() != 3 {
		t.Fatalf("fixed reload: %v, x %v", err, env.x())
	}
}

// TestWatchSceneRenameSave: an editor's atomic save, a temporary file
// renamed over the scene, is applied long before the debounce.
func TestWatchSceneRenameSave(t *testing.T) {
	const debounce = 2 * time.Second
	env := newLiveEnv(t, flowScene(1), watch.Options{Debounce: debounce})
	tmp := env.path + ".tmp~"
	if err := os.WriteFile(tmp, []byte(flowScene(7)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, env.path); err != nil {
		t.Fatal(err)
	}
	if d := env.next(); d >= debounce/2 {
		t.Errorf("rename save reported after %v, not before the debounce (%v)", d, debounce)
	}
	if _, err := env.sw.Reload(); err != nil || env.x() != 7 {
		t.Fatalf("reload: %v, x %v", err, env.x())
	}
}

// TestWatchSceneBurst: a burst of 20 saves a few milliseconds apart ends
// with the last one applied; every reload on the way succeeds (none saw
// a save half written), and nothing follows the last.
func TestWatchSceneBurst(t *testing.T) {
	env := newLiveEnv(t, flowScene(0), watch.Options{})
	for i := 1; i <= 20; i++ {
		if err := os.WriteFile(env.path, []byte(flowScene(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%4) * 3 * time.Millisecond)
	}
	for env.x() != 20 {
		env.next()
		if _, err := env.sw.Reload(); err != nil {
			t.Fatalf("reload during the burst: %v", err)
		}
	}
	select {
	case <-env.sw.Changes: // the last save's report, if its reload came first
		if d, err := env.sw.Reload(); err != nil || !d.Empty() {
			t.Fatalf("reload after the last: %v %v", d, err)
		}
	case <-time.After(200 * time.Millisecond):
	}
	env.quiet(200*time.Millisecond, "after the last save")
	if env.x() != 20 {
		t.Errorf("x = %v after the burst, want 20", env.x())
	}
}

// TestReadsAsScene: WatchScene's check of a save reads it as a scene
// file, in its format; a save larger than sceneCheckMax is not read.
func TestReadsAsScene(t *testing.T) {
	big := "entities:\n" + strings.Repeat("  - {position: 1 2 3}\n", sceneCheckMax/20)
	for _, c := range []struct {
		path, data string
		want       bool
	}{
		{"s.yaml", flowScene(1), true},
		{"s.yaml", flowScene(1)[:len(flowScene(1))-2], false}, // no "]"
		{"s.json", `{"entities": [{"id": "a"}]}`, true},
		{"s.json", "{\"entities\": [{\"id\": \"a\"},\n", false},
		{"s.xml", `<scene><entity id="a"/></scene>`, true},
		{"s.xml", "<scene><entity id=\"a\"/>\n", false},
		{"s.yaml", big + "  - {position: [\n", true}, // too large to read
	} {
		if got := readsAsScene(c.path, []byte(c.data)); got != c.want {
			t.Errorf("readsAsScene(%s, %.40q) = %v, want %v", c.path, c.data, got, c.want)
		}
	}
}
