package scenerun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// mood is a program's own component.
type mood struct {
	Level int `scene:"level,default=5,min=0,max=10"`
}

func registerMood(reg *registry.Registry, b *components.Builtins) error {
	if b == nil || b.Transforms == nil {
		return errors.New("no built-ins given")
	}
	_, err := registry.Register(reg, "mood", registry.Definition[mood]{
		Tick: func(c *registry.Context, m *mood) { m.Level = min(m.Level+1, 10) },
	})
	return err
}

const moodScene = `entities:
  - id: hero
    position: 0 1 0
    mood: "level: 2"
`

func sceneFile(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runProg(p Program, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = p.Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestProgramComponents: every command knows the program's components;
// the zero Program (scene-run) does not.
func TestProgramComponents(t *testing.T) {
	scene := sceneFile(t, "s.yaml", moodScene)
	game := Program{Name: "game", Register: registerMood}

	if code, _, errOut := runProg(Program{}, "validate", scene); code != ExitScene || !strings.Contains(errOut, `unknown component "mood"`) {
		t.Errorf("scene-run validate: %d %s", code, errOut)
	}
	if code, out, errOut := runProg(game, "validate", scene); code != ExitOK || out+errOut != "" {
		t.Errorf("game validate: %d %s%s", code, out, errOut)
	}
	if code, out, errOut := runProg(game, "query", "-ticks", "3", "-json", scene, "[mood.level=5]"); code != ExitOK || !strings.Contains(out, `"mood": {`) || !strings.Contains(out, `"level": 5`) {
		t.Errorf("game query: %d %s%s", code, out, errOut)
	}
	if code, out, _ := runProg(game, "dump", scene); code != ExitOK || !strings.Contains(out, `mood: "level: 2"`) {
		t.Errorf("game dump: %d\n%s", code, out)
	}
	if code, out, _ := runProg(game, "components"); code != ExitOK || !strings.Contains(out, "\n  mood  (ticks)\n    level      int      default \"5\" min 0 max 10\n") {
		t.Errorf("game components: %d\n%s", code, out)
	}
	if code, out, _ := runProg(game, "run", "-ticks", "5", "-query", "[mood]", scene); code != ExitOK || !strings.Contains(out, "query     [mood]: 1 match\n") || !strings.Contains(out, "inspect it live: game run -inspect") {
		t.Errorf("game run: %d\n%s", code, out)
	}
	for _, format := range []string{"json", "xsd"} {
		if code, out, _ := runProg(game, "schema", "-format", format); code != ExitOK || !strings.Contains(out, "mood") {
			t.Errorf("game schema -format %s: %d, mood missing", format, code)
		}
	}
}

// TestProgramNameAndErrors: the program's name is in its usage and
// messages; a failing Register is a scene error (exit 1).
func TestProgramNameAndErrors(t *testing.T) {
	game := Program{Name: "game", Register: registerMood}
	if code, out, _ := runProg(game, "help"); code != ExitOK || !strings.HasPrefix(out, "game runs, watches") || strings.Contains(out, "scene-run") {
		t.Errorf("help: %d\n%s", code, out)
	}
	game.Help = "  game play            play the game\n"
	if code, out, _ := runProg(game, "-h"); code != ExitOK || !strings.Contains(out, "  game schema [-format json|xsd] [SCENE]\n  game schedule [-json] [-ticks N] [SCENE]\n  game play            play the game\n\nRun \"game COMMAND -h\"") {
		t.Errorf("help with the program's own commands: %d\n%s", code, out)
	}
	if code, _, errOut := runProg(game, "query", "x.yaml"); code != ExitUsage || errOut != "game query: expected SCENE and SELECTOR, got 1 arguments\n" {
		t.Errorf("usage error: %d %q", code, errOut)
	}
	if code, _, errOut := runProg(game, "dump", "-h"); code != ExitOK || !strings.HasPrefix(errOut, "Usage: game dump") {
		t.Errorf("dump -h: %d %q", code, errOut)
	}
	bad := Program{Name: "game", Register: func(*registry.Registry, *components.Builtins) error { return errors.New("no sound card") }}
	if code, _, errOut := runProg(bad, "components"); code != ExitScene || errOut != "game: registering components: no sound card\n" {
		t.Errorf("failing Register: %d %q", code, errOut)
	}
	dup := Program{Register: func(reg *registry.Registry, _ *components.Builtins) error {
		_, err := registry.Register(reg, "position", registry.Definition[mood]{})
		return err
	}}
	if code, _, errOut := runProg(dup, "validate", sceneFile(t, "s.yaml", moodScene)); code != ExitScene || !strings.Contains(errOut, `"position" is already registered`) {
		t.Errorf("Register of a built-in's name: %d %q", code, errOut)
	}
}

// TestProgramDefaultScene: run without SCENE plays the program's own
// default scene.
func TestProgramDefaultScene(t *testing.T) {
	game := Program{Name: "game", Register: registerMood,
		Scenes: fstest.MapFS{"level.yaml": {Data: []byte(moodScene)}}, DefaultScene: "level.yaml"}
	code, out, errOut := runProg(game, "run", "-ticks", "2", "-query", "#hero")
	if code != ExitOK || !strings.HasPrefix(out, "scene     level.yaml (embedded)\nentities  1\n") || !strings.Contains(out, "#hero: 1 match") {
		t.Errorf("run: %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runProg(game, "-h"); code != ExitOK || !strings.Contains(out, "(default: the embedded level.yaml)") {
		t.Errorf("help: %s", out)
	}
}

// TestSchemaScene: schema SCENE knows the components SCENE declares;
// without SCENE, a schema does not list them; a broken SCENE gives no
// schema.
func TestSchemaScene(t *testing.T) {
	scene := sceneFile(t, "decl.yaml", "components:\n  treasure:\n    gold: {type: int, default: 3}\nentities:\n  - treasure: \"gold: 9\"\n")
	code, out, errOut := runProg(Program{}, "schema", scene)
	if code != ExitOK || !strings.Contains(out, `"treasure"`) || !strings.Contains(out, `"gold"`) {
		t.Errorf("schema SCENE: %d %s", code, errOut)
	}
	if _, out, _ := runProg(Program{}, "schema"); strings.Contains(out, `"treasure"`) {
		t.Errorf("schema without SCENE lists the scene's declaration")
	}
	if code, out, _ := runProg(Program{}, "schema", "-format", "xsd", scene); code != ExitOK || !strings.Contains(out, `"treasure"`) {
		t.Errorf("schema -format xsd SCENE: %d", code)
	}
	broken := sceneFile(t, "broken.yaml", "components:\n  treasure:\n    gold: {type: money}\n")
	if code, out, errOut := runProg(Program{}, "schema", broken); code != ExitScene || out != "" || !strings.Contains(errOut, "broken.yaml:2:3: ") || !strings.Contains(errOut, `unknown property type "money"`) {
		t.Errorf("schema of a broken scene: %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runProg(Program{}, "schema", filepath.Join(t.TempDir(), "none.yaml")); code != ExitScene || errOut == "" {
		t.Errorf("schema of a missing scene: %d %q", code, errOut)
	}
}

// TestWatchScene: a SceneWatcher reports a save and applies it when
// asked, keeping run-time state the edit did not touch; a broken save
// changes nothing.
func TestWatchScene(t *testing.T) {
	path := sceneFile(t, "s.yaml", moodScene+"  - id: villain\n    mood: \"level: 1\"\n")
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	if err != nil {
		t.Fatal(err)
	}
	if err := registerMood(reg, b); err != nil {
		t.Fatal(err)
	}
	scene, err := loader.LoadFile(reg, path, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sw, err := WatchScene(ctx, scene, path, watch.Options{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if sw.Scene() != scene {
		t.Error("Scene() is not the watched scene")
	}
	for range 3 {
		if err := reg.Tick(1.0 / 60); err != nil {
			t.Fatal(err)
		}
	}
	attr := func(id, comp string) string {
		t.Helper()
		e, ok, err := reg.Resolve(registry.SelectorText("#" + id))
		if err != nil || !ok {
			t.Fatalf("#%s: %v", id, err)
		}
		a, err := reg.Attr(e, comp)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	save := func(src string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		select {
		case <-sw.Changes:
		case <-time.After(10 * time.Second):
			t.Fatal("no change reported")
		}
	}
	// The edit changes the villain; the hero's mood, raised by its ticks
	// from 2 to 5, is run-time state the edit does not touch.
	save(moodScene + "  - id: villain\n    mood: \"level: 0\"\n")
	if d, err := sw.Check(); err != nil || d.Summary() != "+0 -0 ~1" || attr("villain", "mood") != "level: 4" {
		t.Fatalf("Check: %v %v, villain %s", d, err, attr("villain", "mood"))
	}
	d, err := sw.Reload()
	if err != nil || d.Summary() != "+0 -0 ~1" {
		t.Fatalf("Reload: %v %v", d, err)
	}
	if got := attr("villain", "mood"); got != "level: 0" {
		t.Errorf("villain after reload: %s", got)
	}
	if got := attr("hero", "mood"); got != "level: 5" {
		t.Errorf("hero after reload: %s, want its run-time level 5", got)
	}
	save("entities:\n  - id: [broken\n")
	if _, err := sw.Reload(); err == nil || !strings.Contains(err.Error(), "s.yaml:2:") {
		t.Errorf("broken save: %v", err)
	}
	if got := attr("villain", "mood"); got != "level: 0" {
		t.Errorf("villain after a broken save: %s", got)
	}
	// A save whose prefabs would expand past the limits (10^8 entities
	// from 1.5 KB) is refused like a broken one, at once.
	var bomb strings.Builder
	bomb.WriteString("prefabs:\n")
	for i := range 8 {
		fmt.Fprintf(&bomb, "  p%d: {children: [%s]}\n", i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("{prefab: p%d}, ", i+1), 10), ", "))
	}
	bomb.WriteString("  p8: {}\n" + moodScene + "  - prefab: p0\n")
	save(bomb.String())
	start := time.Now()
	if _, err := sw.Reload(); err == nil || !strings.Contains(err.Error(), "s.yaml:") || !strings.Contains(err.Error(), "(Limits.MaxEntities)") {
		t.Errorf("prefab bomb: %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("the prefab bomb was refused in %v", took)
	}
	if got := attr("villain", "mood"); got != "level: 0" {
		t.Errorf("villain after a refused save: %s", got)
	}
}
