package inspect

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// savedScene is testScene with comments, blank lines and quoting to keep.
const savedScene = `# The test scene, as an author writes it.
mixins:
  rock:
    enemy:
    spin: "axis: 0 0 1; speed: 45"   # slow
    velocity: 0 0 0

entities:
  - id: ship            # the player
    class: player
    position: 0 0 0
    health: 'hp: 50'
    children:
      - class: gun left
        position: -1 0.5 0
      - class: gun right
        position: 1 0.5 0
  - id: field
    children:
      - id: rock-1
        mixin: rock
        alive:
        position: -5 10 0
        velocity: 0.5 -1 0
      - id: wreck
        mixin: rock
        position: 0 15 0
        scale: 2 2 2
`

const savedXML = `<?xml version="1.0"?>
<!-- The test scene in XML. -->
<scene>
  <mixin id="rock" enemy="" spin="axis: 0 0 1; speed: 45" velocity="0 0 0"/>
  <entity id="ship" class="player"
          position="0 0 0"
          health.hp='50'>
    <entity class="gun left" position="-1 0.5 0"/>
    <entity class="gun right" position="1 0.5 0"/>
  </entity>
  <entity id="field">
    <entity id="rock-1" mixin="rock" alive="" position="-5 10 0" velocity="0.5 -1 0"/>
    <entity id="wreck" mixin="rock" position="0 15 0" scale="2 2 2"/>
  </entity>
</scene>
`

// newSaveEnv writes src to a file in a temp dir, loads it and serves it
// with a Reloader for the save-back. It returns the env and the file.
func newSaveEnv(t *testing.T, name, src string) (*env, string) {
	t.Helper()
	return newSaveEnvOpt(t, name, src, Options{})
}

// newSaveEnvOpt is newSaveEnv with the Inspector's options opt (its
// Reloader set).
func newSaveEnvOpt(t *testing.T, name, src string, opt Options) (*env, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rl := &live.Reloader{File: file, Recheck: -1}
	opt.Reloader = rl
	e := newEnvWith(t, opt, func(reg *registry.Registry) (*live.Scene, error) {
		s, err := loader.LoadFile(reg, file, loader.Options{})
		rl.Scene = s
		return s, err
	})
	e.updates = nil // those of the load
	return e, file
}

func readFile(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replaceOnce replaces from, which must occur once in s.
func replaceOnce(t *testing.T, s, from, to string) string {
	t.Helper()
	if n := strings.Count(s, from); n != 1 {
		t.Fatalf("%q occurs %d times", from, n)
	}
	return strings.Replace(s, from, to, 1)
}

// TestSaveRoundTripWatched: PUT ?save=1 writes the value at its place in
// the YAML file, byte for byte elsewhere; a watcher then sees the save,
// and its reload, published as an event, is empty: no second update.
func TestSaveRoundTripWatched(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", savedScene)
	e.in.statsEvery = time.Hour
	e.start()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := watch.New(ctx, []string{file}, watch.Options{Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The watcher's reloads, applied on the simulation goroutine as
	// scene-run does, with a Reloader of its own.
	wrl := &live.Reloader{Scene: e.scene, File: file, Recheck: -1}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.Changes:
				e.sim(func() {
					d, err := wrl.ReloadFrom(scenefile.Snapshot(w.Snapshot()))
					e.in.Reloaded(d, err)
				})
			}
		}
	}()
	events, stop := e.stream()
	defer stop()

	var ev changeEvent
	e.call("PUT", "/api/entities/ship/components/health?save=1", "hp: 25").expect(t, http.StatusOK).json(t, &ev)
	if !ev.Saved || ev.File != "scene.yaml" || len(ev.Entries) != 1 || ev.Entries[0].String() != "~ #ship health.hp 50 → 25" {
		t.Fatalf("answer: %+v", ev)
	}
	if got, want := readFile(t, file), replaceOnce(t, savedScene, "health: 'hp: 50'", "health: 'hp: 25'"); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	var ch changeEvent
	json.Unmarshal([]byte(next(t, events, "change").data), &ch)
	if !ch.Saved || ch.File != "scene.yaml" {
		t.Fatalf("change event: %+v", ch)
	}
	var rv reloadEvent
	json.Unmarshal([]byte(next(t, events, "reload").data), &rv)
	if !rv.OK || rv.Summary != "+0 -0 ~0" || len(rv.Entries) != 0 {
		t.Fatalf("the reload after the save: %+v", rv)
	}
	e.sim(func() {
		if strings.Join(e.updates, " ") != "50->25" {
			t.Errorf("update calls: %v, want one (50->25)", e.updates)
		}
	})

	// A property the file does not write yet, a component from the
	// mixin (added on the entity's own lines), a component removed (its
	// line deleted): each save's reload is empty.
	want := replaceOnce(t, savedScene, "health: 'hp: 50'", "health: 'hp: 25'")
	for _, c := range []struct{ method, path, body, from, to string }{
		{"PUT", "ship/components/health", "max: 80", "health: 'hp: 25'", "health: 'hp: 25; max: 80'"},
		{"PUT", "wreck/components/spin", "speed: 5", "        scale: 2 2 2\n", "        scale: 2 2 2\n        spin: \"speed: 5\"\n"},
		{"DELETE", "rock-1/components/alive", "", "        alive:\n", ""},
	} {
		e.call(c.method, "/api/entities/"+c.path+"?save=1", c.body).expect(t, http.StatusOK)
		want = replaceOnce(t, want, c.from, c.to)
		if got := readFile(t, file); got != want {
			t.Fatalf("%s %s: file:\n%s\nwant:\n%s", c.method, c.path, got, want)
		}
		rv = reloadEvent{}
		json.Unmarshal([]byte(next(t, events, "reload").data), &rv)
		if !rv.OK || len(rv.Entries) != 0 {
			t.Fatalf("the reload after %s %s: %+v", c.method, c.path, rv)
		}
	}
	e.sim(func() {
		if strings.Join(e.updates, " ") != "50->25 25->25" {
			t.Errorf("update calls: %v", e.updates)
		}
	})
}

// TestSaveXML: the save-back on an XML file, byte for byte.
func TestSaveXML(t *testing.T) {
	e, file := newSaveEnv(t, "scene.xml", savedXML)
	e.start()
	e.call("PUT", "/api/entities/ship/components/health?save=1", "hp: 7; max: 9").expect(t, http.StatusOK)
	want := replaceOnce(t, savedXML, "health.hp='50'>", "health.hp='7'\n          health.max='9'>")
	if got := readFile(t, file); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	e.call("PUT", "/api/entities/field/components/position?save=1", "1 2 3").expect(t, http.StatusOK)
	want = replaceOnce(t, want, `<entity id="field">`, `<entity id="field" position="1 2 3">`)
	e.call("DELETE", "/api/entities/wreck/components/scale?save=1", "").expect(t, http.StatusOK)
	want = replaceOnce(t, want, ` scale="2 2 2"`, "")
	e.call("PUT", "/api/entities/rock-1/components/velocity?save=1", `0 0 1`).expect(t, http.StatusOK)
	want = replaceOnce(t, want, `velocity="0.5 -1 0"`, `velocity="0 0 1"`)
	if got := readFile(t, file); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	// A component added at run time: its removal is saved as it is.
	e.call("PUT", "/api/entities/wreck/components/gravity", "0 -1 0").expect(t, http.StatusOK)
	var ev changeEvent
	e.call("DELETE", "/api/entities/wreck/components/gravity?save=1", "").expect(t, http.StatusOK).json(t, &ev)
	if !ev.Saved || ev.File != "scene.xml" {
		t.Errorf("answer: %+v", ev)
	}
	if got := readFile(t, file); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

// TestSaveRefused: what cannot be saved is refused before anything
// changes, the World and the file alike.
func TestSaveRefused(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", savedScene)
	e.start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	e.call("POST", "/api/entities", `{"id": "made", "components": {"position": "1 1 1"}}`).expect(t, http.StatusCreated)
	before := e.dump()
	refused := func(method, path, body string, status int, msg string) {
		t.Helper()
		got := e.call(method, path, body).expect(t, status).errMsg(t)
		if !strings.Contains(got, msg) {
			t.Errorf("%s %s: %q, want it to say %q", method, path, got, msg)
		}
	}
	refused("PUT", "/api/entities/made/components/position?save=1", "2 2 2", http.StatusConflict, "made at run time")
	refused("DELETE", "/api/entities/wreck/components/spin?save=1", "", http.StatusConflict, `from mixin "rock"`)
	refused("DELETE", "/api/entities/ship/components/rotation?save=1", "", http.StatusNotFound, "no component")
	refused("PUT", "/api/entities/ship/components/health?save=1", "hp: many", http.StatusBadRequest, "many")
	refused("POST", "/api/entities?save=1", `{"id": "x", "parent": "made"}`, http.StatusConflict, "save the parent first")
	refused("DELETE", "/api/entities/made?save=1", "", http.StatusConflict, "made at run time")
	refused("PUT", "/api/entities/made/parent?save=1", "field", http.StatusConflict, "made at run time")
	// The file edited and not reloaded.
	edited := replaceOnce(t, savedScene, "position: 0 15 0", "position: 0 16 0")
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	refused("PUT", "/api/entities/ship/components/health?save=1", "hp: 1", http.StatusConflict, "changed since they were loaded")
	refused("DELETE", "/api/entities/wreck?save=1", "", http.StatusConflict, "changed since they were loaded")
	refused("POST", "/api/entities?save=1", `{"id": "y", "parent": "field"}`, http.StatusConflict, "changed since they were loaded")
	refused("PUT", "/api/entities/wreck/parent?save=1", "ship", http.StatusConflict, "changed since they were loaded")
	if after := e.dump(); after != before {
		t.Fatal("a refused save changed the World")
	}
	if readFile(t, file) != edited {
		t.Fatal("a refused save wrote the file")
	}
}

// TestSaveNotAvailable: without a Reloader, ?save=1 is a 501 and nothing
// changes.
func TestSaveNotAvailable(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	before := e.dump()
	msg := e.call("PUT", "/api/entities/ship/components/health?save=1", "hp: 1").expect(t, http.StatusNotImplemented).errMsg(t)
	if !strings.Contains(msg, "Options.Reloader") {
		t.Errorf("501 message: %s", msg)
	}
	e.call("DELETE", "/api/entities/ship/components/health?save=1", "").expect(t, http.StatusNotImplemented)
	e.call("DELETE", "/api/entities/ship?save=1", "").expect(t, http.StatusNotImplemented)
	e.call("POST", "/api/entities?save=true", "{}").expect(t, http.StatusNotImplemented)
	e.call("PUT", "/api/entities/ship/components/health?save=yes", "hp: 1").expect(t, http.StatusBadRequest)
	if after := e.dump(); after != before {
		t.Fatal("a refused save changed the World")
	}
}

// probe is a component whose init hook runs a test's function: the
// moment between a save's preparation and its commit, when the change is
// made in the World.
type probe struct {
	N int `scene:"n"`
}

// TestSaveRaceUndone: an editor saves the scene file in the moment
// between a save's check and its write (here: from the hook the change
// runs). The editor's save is kept, nothing of the save is written, the
// change is undone in the World, and the answer is a 409 that says so;
// no change is published.
func TestSaveRaceUndone(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", savedScene)
	editorSave := "# saved by an editor\n" + savedScene
	if _, err := registry.Register(e.reg, "probe", registry.Definition[probe]{
		Init: func(c *registry.Context, p *probe) {
			if err := os.WriteFile(file, []byte(editorSave), 0o644); err != nil {
				t.Error(err)
			}
		},
	}); err != nil {
		t.Fatal(err)
	}
	e.start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	events, stop := e.stream()
	defer stop()
	before := e.dump()
	msg := e.call("PUT", "/api/entities/ship/components/probe?save=1", "n: 1").expect(t, http.StatusConflict).errMsg(t)
	if !strings.Contains(msg, "undone") || !strings.Contains(msg, "editor") {
		t.Errorf("answer: %s", msg)
	}
	if after := e.dump(); after != before {
		t.Fatalf("the failed save left the World changed:\n%s", after)
	}
	if got := readFile(t, file); got != editorSave {
		t.Fatalf("the editor's save was not kept:\n%s", got)
	}
	e.call("PUT", "/api/entities/ship/components/health", "hp: 3").expect(t, http.StatusOK)
	var ch changeEvent
	json.Unmarshal([]byte(next(t, events, "change").data), &ch)
	if ch.Component != "health" {
		t.Fatalf("the undone change was published: %+v", ch)
	}
}

// TestSaveFileMode: a read-only scene file is not replaced (409, saying
// so; nothing changed); a writable one keeps its mode.
func TestSaveFileMode(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", savedScene)
	e.start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	if err := os.Chmod(file, 0o444); err != nil {
		t.Fatal(err)
	}
	before := e.dump()
	msg := e.call("PUT", "/api/entities/ship/components/health?save=1", "hp: 1").expect(t, http.StatusConflict).errMsg(t)
	if !strings.Contains(msg, "read-only") || !strings.Contains(msg, "0444") {
		t.Errorf("answer: %s", msg)
	}
	e.call("DELETE", "/api/entities/ship/components/health?save=1", "").expect(t, http.StatusConflict)
	if after := e.dump(); after != before {
		t.Fatal("a refused save changed the World")
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o444 || readFile(t, file) != savedScene {
		t.Fatalf("the read-only file was touched: %v %v", fi.Mode(), err)
	}
	if err := os.Chmod(file, 0o604); err != nil {
		t.Fatal(err)
	}
	e.call("PUT", "/api/entities/ship/components/health?save=1", "hp: 2").expect(t, http.StatusOK)
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o604 {
		t.Fatalf("mode after a save: %v %v", fi.Mode(), err)
	}
	if got, want := readFile(t, file), replaceOnce(t, savedScene, "health: 'hp: 50'", "health: 'hp: 2'"); got != want {
		t.Fatalf("file:\n%s", got)
	}
}
