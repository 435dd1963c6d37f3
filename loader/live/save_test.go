package live

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Components of the save tests, besides the built-ins.
type editHealth struct {
	HP    int `scene:"hp,default=100"`
	Max   int `scene:"max,default=100"`
	MaxHP int `scene:"maxHp,default=1"`
}

type editLabel struct {
	Text string `scene:"text"`
	Font string `scene:"font,default=sans"`
}

type editTag struct{}

// saveEnv is a scene loaded from files in a temp dir, with a Reloader and
// a count of health's update hook calls.
type saveEnv struct {
	t       *testing.T
	dir     string
	reg     *registry.Registry
	rl      *Reloader
	updates int
}

const saveMain = `# main scene
include: parts/enemies.yaml
mixins:
  tough:
    health: "hp: 500"
    enemy:
entities:
  - id: hero
    position: 0 1 -5   # start
    health: "hp: 100; max: 100"
  - id: brute
    mixin: tough
    position: 1 1 1
`

const saveInclude = `entities:
  # included enemies
  - id: goblin
    health:
      hp: 40
`

func newSaveEnv(t *testing.T, files map[string]string, main string) *saveEnv {
	t.Helper()
	env := &saveEnv{t: t, dir: t.TempDir()}
	for name, text := range files {
		p := filepath.Join(env.dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	env.reg = registry.New(ecs.NewWorld())
	if _, err := components.Register(env.reg); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(env.reg, "health", registry.Definition[editHealth]{
		Update: func(c *registry.Context, v, old *editHealth) { env.updates++ },
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(env.reg, "label", registry.Definition[editLabel]{}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(env.reg, "enemy", registry.Definition[editTag]{}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(env.dir, main)
	sc, err := LoadFile(env.reg, file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	env.rl = &Reloader{Scene: sc, File: file}
	env.updates = 0 // those of the load
	return env
}

func (env *saveEnv) read(name string) string {
	env.t.Helper()
	b, err := os.ReadFile(filepath.Join(env.dir, filepath.FromSlash(name)))
	if err != nil {
		env.t.Fatal(err)
	}
	return string(b)
}

func (env *saveEnv) entity(id string) ecs.Entity {
	env.t.Helper()
	e, ok := env.rl.Scene.Entity(id)
	if !ok {
		env.t.Fatalf("no entity %q", id)
	}
	return e
}

// set makes the change in the World as the inspector does (parse, then
// SetPatch with merge), between PrepareSet and Commit.
func (env *saveEnv) set(e ecs.Entity, name, attr string) (*SaveEdit, *Diff, error) {
	env.t.Helper()
	s, err := NewSaver(env.rl).PrepareSet(e, name, attr)
	if err != nil {
		return nil, nil, err
	}
	c, _ := env.reg.Component(name)
	p, err := c.Schema.ParseAttr(name, attr)
	if err != nil {
		env.t.Fatal(err)
	}
	if err := env.reg.SetPatch(e, name, p, registry.Merge); err != nil {
		env.t.Fatal(err)
	}
	d, err := s.Commit()
	return s, d, err
}

// quiet checks that reloading the files now changes nothing and runs no
// hook.
func (env *saveEnv) quiet() {
	env.t.Helper()
	before := env.updates
	d, err := env.rl.Reload()
	if err != nil {
		env.t.Fatal(err)
	}
	if !d.Empty() {
		env.t.Fatalf("the reload after the save changes something: %s", d)
	}
	if env.updates != before {
		env.t.Fatalf("the reload after the save ran update %d times", env.updates-before)
	}
}

func TestSaveSetIntoInclude(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	g := env.entity("goblin")
	s, d, err := env.set(g, "health", "hp: 25")
	if err != nil {
		t.Fatal(err)
	}
	if env.updates != 1 {
		t.Fatalf("update ran %d times, want once (the change itself)", env.updates)
	}
	if s.Name != "parts/enemies.yaml" || d.Summary() != "+0 -0 ~1" {
		t.Fatalf("saved %s with %s", s.Name, d.Summary())
	}
	if got, want := env.read("parts/enemies.yaml"), strings.Replace(saveInclude, "hp: 40", "hp: 25", 1); got != want {
		t.Fatalf("include:\n%s\nwant:\n%s", got, want)
	}
	if got := env.read("main.yaml"); got != saveMain {
		t.Fatalf("the main file changed:\n%s", got)
	}
	fi, err := os.Stat(filepath.Join(env.dir, "parts", "enemies.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(env.dir, "parts", ".*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
	env.quiet()
}

func TestSaveKeepsRuntimeState(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	hero := env.entity("hero")
	// A run-time change of max, not saved.
	c, _ := env.reg.Component("health")
	p, _ := c.Schema.ParseAttr("health", "max: 7")
	if err := env.reg.SetPatch(hero, "health", p, registry.Merge); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.set(hero, "health", "hp: 3"); err != nil {
		t.Fatal(err)
	}
	if got, want := env.read("main.yaml"), strings.Replace(saveMain, `"hp: 100; max: 100"`, `"hp: 3; max: 100"`, 1); got != want {
		t.Fatalf("main:\n%s\nwant:\n%s", got, want)
	}
	env.quiet()
	attr, _ := env.reg.Attr(hero, "health")
	if attr != "hp: 3; max: 7; maxHp: 1" {
		t.Fatalf("health after the save: %q (max 7 set at run time must stay)", attr)
	}
}

func TestSaveComponentFromMixin(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	brute := env.entity("brute")
	if _, _, err := env.set(brute, "health", "max: 9"); err != nil {
		t.Fatal(err)
	}
	// The entity's own line, never the mixin.
	want := strings.Replace(saveMain, "    position: 1 1 1\n", "    position: 1 1 1\n    health: \"max: 9\"\n", 1)
	if got := env.read("main.yaml"); got != want {
		t.Fatalf("main:\n%s\nwant:\n%s", got, want)
	}
	env.quiet()
	attr, _ := env.reg.Attr(brute, "health")
	if attr != "hp: 500; max: 9; maxHp: 1" {
		t.Fatalf("health: %q", attr)
	}
	// Removing it: the mixin still gives it.
	if _, err := NewSaver(env.rl).PrepareRemove(brute, "health"); !errors.Is(err, ErrFromMixin) || !strings.Contains(err.Error(), `"tough"`) {
		t.Fatalf("remove a component a mixin gives: %v", err)
	}
	if _, err := NewSaver(env.rl).PrepareRemove(brute, "enemy"); !errors.Is(err, ErrFromMixin) {
		t.Fatalf("remove a mixin's tag: %v", err)
	}
	// A tag the mixin gives, set with no value: nothing to write.
	s, err := NewSaver(env.rl).PrepareSet(brute, "enemy", "")
	if err != nil || s.Changed() {
		t.Fatalf("set a mixin's tag: %v", err)
	}
}

func TestSaveRemove(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	hero := env.entity("hero")
	s, err := NewSaver(env.rl).PrepareRemove(hero, "position")
	if err != nil {
		t.Fatal(err)
	}
	if err := env.reg.Remove(hero, "position"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); err == nil {
		t.Fatal("a second commit succeeded")
	}
	if got, want := env.read("main.yaml"), strings.Replace(saveMain, "    position: 0 1 -5   # start\n", "", 1); got != want {
		t.Fatalf("main:\n%s\nwant:\n%s", got, want)
	}
	env.quiet()
	if env.reg.Has(hero, "position") {
		t.Fatal("position came back")
	}
	// A component added at run time: nothing to write.
	if err := env.reg.SetPatch(hero, "label", nil, registry.Merge); err != nil {
		t.Fatal(err)
	}
	if s, err := NewSaver(env.rl).PrepareRemove(hero, "label"); err != nil || s.Changed() {
		t.Fatalf("remove a component added at run time: %v", err)
	} else if d, err := s.Commit(); err != nil || !d.Empty() {
		t.Fatalf("commit: %v %v", d, err)
	}
	// A dependency of a component the file gives: the next load would
	// add it again.
	brute := env.entity("brute")
	spin := "speed: 5"
	if _, _, err := env.set(brute, "spin", spin); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSaver(env.rl).PrepareRemove(brute, "rotation"); !errors.Is(err, ErrNoSource) || !strings.Contains(err.Error(), "dependency of spin") {
		t.Fatalf("remove a dependency: %v", err)
	}
}

func TestSaveRefusals(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	// An entity made at run time.
	e := env.reg.World().NewEntity()
	if _, err := NewSaver(env.rl).PrepareSet(e, "health", "hp: 1"); !errors.Is(err, ErrNoSource) || !strings.Contains(err.Error(), "run time") {
		t.Fatalf("run-time entity: %v", err)
	}
	// A bad value.
	if _, err := NewSaver(env.rl).PrepareSet(env.entity("hero"), "health", "hp: x"); err == nil {
		t.Fatal("bad value accepted")
	}
	// Files edited by hand and not reloaded.
	main := filepath.Join(env.dir, "main.yaml")
	edited := strings.Replace(saveMain, "position: 1 1 1", "position: 2 2 2", 1)
	if err := os.WriteFile(main, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSaver(env.rl).PrepareSet(env.entity("hero"), "health", "hp: 1"); !errors.Is(err, ErrFileChanged) {
		t.Fatalf("stale files: %v", err)
	}
	// The entity's own file unchanged, another one edited.
	if _, err := NewSaver(env.rl).PrepareSet(env.entity("goblin"), "health", "hp: 1"); !errors.Is(err, ErrFileChanged) {
		t.Fatalf("stale other file: %v", err)
	}
	if env.read("parts/enemies.yaml") != saveInclude {
		t.Fatal("the include was written")
	}
	// Comments edited only: the running scene still matches, and the
	// edit lands at the place the new bytes give.
	commented := "# a new first line\n" + saveMain
	if err := os.WriteFile(main, []byte(commented), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.set(env.entity("hero"), "position", "3 3 3"); err != nil {
		t.Fatal(err)
	}
	if got, want := env.read("main.yaml"), strings.Replace(commented, "position: 0 1 -5", "position: 3 3 3", 1); got != want {
		t.Fatalf("main:\n%s\nwant:\n%s", got, want)
	}
	// A change between prepare and commit: nothing written.
	s, err := NewSaver(env.rl).PrepareSet(env.entity("hero"), "position", "4 4 4")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(main, []byte(saveMain), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); !errors.Is(err, ErrFileChanged) {
		t.Fatalf("commit over a changed file: %v", err)
	}
	if env.read("main.yaml") != saveMain {
		t.Fatal("the file was written")
	}
}

func TestSaveXMLThroughSymlink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	xml := `<scene>
  <!-- keep me -->
  <entity id="a" position="0 0 0" health="hp: 1"/>
</scene>
`
	env := newSaveEnv(t, map[string]string{"real/scene.xml": xml}, "real/scene.xml")
	link := filepath.Join(env.dir, "link.xml")
	if err := os.Symlink(filepath.Join(env.dir, "real", "scene.xml"), link); err != nil {
		t.Fatal(err)
	}
	sc := env.rl.Scene
	env.rl = &Reloader{Scene: sc, File: link}
	if _, _, err := env.set(env.entity("a"), "health", "max: 3"); err != nil {
		t.Fatal(err)
	}
	if got, want := env.read("real/scene.xml"), strings.Replace(xml, `"hp: 1"`, `"hp: 1; max: 3"`, 1); got != want {
		t.Fatalf("scene:\n%s\nwant:\n%s", got, want)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	env.quiet()
}

// TestSavePrefabInstance: save-back writes an instance's own value at
// the instance (over its prefab's), and refuses a part of an instance
// (its values come from the prefab), writing nothing.
func TestSavePrefabInstance(t *testing.T) {
	src := "prefabs:\n  ship:\n    position: 0 0 0\n    children:\n      - id: gun\n        position: 1 0 0\nentities:\n  - id: f1\n    prefab: ship\n"
	env := newSaveEnv(t, map[string]string{"main.yaml": src}, "main.yaml")
	_, err := NewSaver(env.rl).PrepareSet(env.entity("f1/gun"), "position", "5 5 5")
	if !errors.Is(err, ErrCannotEdit) || !strings.Contains(err.Error(), `entity #f1/gun is the part "gun" of an instance of the prefab "ship" (f1)`) {
		t.Errorf("a part: %v", err)
	}
	if got := env.read("main.yaml"); got != src {
		t.Errorf("the file changed:\n%s", got)
	}
	s, err := NewSaver(env.rl).PrepareSet(env.entity("f1"), "position", "5 5 5")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, want := env.read("main.yaml"), src+"    position: 5 5 5\n"; got != want {
		t.Errorf("file:\n%s\nwant\n%s", got, want)
	}
}

// removalScene has components an entity gets in every way but its own
// key: from a prefab, a variant's base, a prefab's mixin, as a
// dependency (directly, or through another dependency, or of a
// component the prefab gives), and the prefab marker.
const removalScene = `mixins:
  armoured: {label: "font: iron"}
prefabs:
  ship:
    mixin: armoured
    health: "hp: 100"
    velocity: 1 0 0
  big:
    prefab: ship
    scale: 2 2 2
entities:
  - id: f1
    prefab: ship
  - id: f2
    prefab: big
    health: "hp: 5"
  - id: mover
    position: 1 1 1
    velocity: 1 0 0
  - id: rider
    acceleration: 0 1 0
  - id: plain
    position: 2 2 2
`

// TestSaveRemovalsRefused: a removal the file cannot write is refused
// with the reason (and the sentinel the inspector answers 409 for),
// before anything is written; never a "saved" that wrote nothing. The
// removals the file can write are written, and one of a component added
// at run time writes nothing, truthfully.
func TestSaveRemovalsRefused(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": removalScene}, "main.yaml")
	for _, c := range []struct {
		id, name string
		want     error
		msg      string
	}{
		{"f1", "health", ErrFromPrefab, `gets health from prefab "ship"`},
		{"f1", "label", ErrFromPrefab, `gets label from prefab "ship"`},
		{"f1", "velocity", ErrFromPrefab, `from prefab "ship"`},
		{"f2", "scale", ErrFromPrefab, `gets scale from prefab "big"`},
		{"f2", "velocity", ErrFromPrefab, `prefab "ship", the base of variant "big"`},
		{"f2", "health", ErrFromPrefab, `prefab "ship", the base of variant "big"`}, // its own too: the prefab's stays
		{"f1", "prefab", ErrFromPrefab, "marker"},
		{"f1", "position", ErrNoSource, "dependency of velocity"},
		{"mover", "position", ErrNoSource, "dependency of velocity"},
		{"rider", "position", ErrNoSource, "dependency of acceleration"},
		{"rider", "velocity", ErrNoSource, "dependency of acceleration"},
		{"plain", "world", ErrNoSource, "computed"},
	} {
		_, err := NewSaver(env.rl).PrepareRemove(env.entity(c.id), c.name)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("remove %s from %s: %v; want %v saying %q", c.name, c.id, err, c.want, c.msg)
		}
	}
	if _, err := NewSaver(env.rl).PrepareSet(env.entity("f1"), "prefab", "big"); !errors.Is(err, ErrFromPrefab) {
		t.Errorf("set the marker: %v", err)
	}
	if got := env.read("main.yaml"); got != removalScene {
		t.Fatalf("a refused removal wrote the file:\n%s", got)
	}
	// What the file can say is saved: mover's velocity (its own, and
	// nothing needs it), and a component added at run time (nothing to
	// write: the file already says "without").
	mover := env.entity("mover")
	s, err := NewSaver(env.rl).PrepareRemove(mover, "velocity")
	if err != nil || !s.Changed() {
		t.Fatalf("remove mover's velocity: %v", err)
	}
	if err := env.reg.Remove(mover, "velocity"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, want := env.read("main.yaml"), strings.Replace(removalScene, "    position: 1 1 1\n    velocity: 1 0 0\n", "    position: 1 1 1\n", 1); got != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	plain := env.entity("plain")
	if err := env.reg.SetPatch(plain, "spin", nil, registry.Merge); err != nil {
		t.Fatal(err)
	}
	if s, err := NewSaver(env.rl).PrepareRemove(plain, "spin"); err != nil || s.Changed() {
		t.Fatalf("remove a component added at run time: %v", err)
	}
	env.quiet()
}

// TestSaveReadOnly: a read-only file is refused when the save is
// prepared, and when it became read-only since, at commit, with the
// change undone in the World. A writable file keeps its mode, and a
// symbolic link stays a link to the file written.
func TestSaveReadOnly(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	main := filepath.Join(env.dir, "main.yaml")
	hero := env.entity("hero")
	if err := os.Chmod(main, 0o444); err != nil {
		t.Fatal(err)
	}
	if _, err := NewSaver(env.rl).PrepareSet(hero, "health", "hp: 1"); !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "0444") {
		t.Fatalf("prepare on a read-only file: %v", err)
	}
	if err := os.Chmod(main, 0o640); err != nil {
		t.Fatal(err)
	}
	s, err := NewSaver(env.rl).PrepareSet(hero, "health", "hp: 1")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := env.reg.Attr(hero, "health")
	if err := env.reg.SetPatch(hero, "health", registry.Patch{{Index: 0, Value: 1}}, registry.Merge); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(main, 0o440); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("commit on a file made read-only: %v", err)
	}
	if after, _ := env.reg.Attr(hero, "health"); after != before {
		t.Fatalf("health after the failed save: %q, was %q", after, before)
	}
	if got := env.read("main.yaml"); got != saveMain {
		t.Fatalf("the read-only file was written:\n%s", got)
	}
	// Writable again, through a link: the mode stays, the link too.
	if err := os.Chmod(main, 0o604); err != nil {
		t.Fatal(err)
	}
	inc := filepath.Join(env.dir, "parts", "enemies.yaml")
	target := filepath.Join(env.dir, "parts", "real-enemies.yaml")
	if err := os.Rename(inc, target); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real-enemies.yaml", inc); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, _, err := env.set(hero, "health", "hp: 2"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(main); err != nil || fi.Mode().Perm() != 0o604 {
		t.Fatalf("mode after a save: %v %v", fi.Mode(), err)
	}
	if _, _, err := env.set(env.entity("goblin"), "health", "hp: 3"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(inc); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "hp: 3") {
		t.Fatalf("the file behind the link:\n%s", b)
	}
}

// TestSaveWithoutExchange: where the system cannot swap two files in one
// step, a save renames over the file after checking, right before, that
// it is still the file it compared; a file changed in between is refused
// and the change undone.
func TestSaveWithoutExchange(t *testing.T) {
	old := exchange
	defer func() { exchange = old }()
	exchange = func(a, b string) error { return errNoExchange }
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	hero := env.entity("hero")
	if _, _, err := env.set(hero, "health", "hp: 5"); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(saveMain, `"hp: 100; max: 100"`, `"hp: 5; max: 100"`, 1)
	if got := env.read("main.yaml"); got != want {
		t.Fatalf("file:\n%s", got)
	}
	// Replaced by an editor between the check and the rename: the stat
	// check sees another file.
	s, err := NewSaver(env.rl).PrepareSet(hero, "health", "hp: 6")
	if err != nil {
		t.Fatal(err)
	}
	exchange = func(a, b string) error {
		edited := []byte("# an editor's save\n" + want)
		if err := os.WriteFile(b+".ed", edited, 0o644); err != nil {
			return err
		}
		if err := os.Rename(b+".ed", b); err != nil {
			return err
		}
		return errNoExchange
	}
	if err := env.reg.SetPatch(hero, "health", registry.Patch{{Index: 0, Value: 6}}, registry.Merge); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); !errors.Is(err, ErrFileChanged) {
		t.Fatalf("commit over an editor's save: %v", err)
	}
	if got := env.read("main.yaml"); got != "# an editor's save\n"+want {
		t.Fatalf("the editor's save was lost:\n%s", got)
	}
	if attr, _ := env.reg.Attr(hero, "health"); !strings.HasPrefix(attr, "hp: 5;") {
		t.Fatalf("health after the failed save: %q", attr)
	}
}

// TestSaveFileGone: a file deleted between the save's preparation and
// its commit (an editor that saves by deleting and creating) is not
// created again by the save; the change is undone.
func TestSaveFileGone(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveMain, "parts/enemies.yaml": saveInclude}, "main.yaml")
	hero := env.entity("hero")
	before, _ := env.reg.Attr(hero, "health")
	s, err := NewSaver(env.rl).PrepareSet(hero, "health", "hp: 1")
	if err != nil {
		t.Fatal(err)
	}
	if err := env.reg.SetPatch(hero, "health", registry.Patch{{Index: 0, Value: 1}}, registry.Merge); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(env.dir, "main.yaml")
	if err := os.Remove(main); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Commit(); !errors.Is(err, ErrFileChanged) || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("commit into a deleted file: %v", err)
	}
	if _, err := os.Stat(main); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the save created the file again: %v", err)
	}
	if after, _ := env.reg.Attr(hero, "health"); after != before {
		t.Fatalf("health after the failed save: %q, was %q", after, before)
	}
}
