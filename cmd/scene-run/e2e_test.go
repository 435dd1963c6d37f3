package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/internal/clitest"
)

// binary builds scene-run once for all end-to-end tests.
func binary(t *testing.T) string { return clitest.Build(t, ".") }

// result is what a run printed, and its exit code.
type result = clitest.Result

// runBin runs scene-run from the repository's root, so scenes/... paths
// work.
func runBin(t *testing.T, args ...string) result {
	t.Helper()
	return clitest.Run(t, binary(t), "../..", args...)
}

var exampleScenes = []string{"scenes/cubes.yaml", "scenes/cubes.xml", "scenes/asteroids.yaml", "scenes/authoring.yaml", "scenes/behaviour.yaml"}

func TestRunDefaultScene(t *testing.T) {
	r := runBin(t, "-ticks", "30").Expect(t, 0)
	for _, want := range []string{"scene     cubes.yaml (embedded)", "entities  10003", "ticks     30", "ticks/s", "ms/tick   p50"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.Stdout)
		}
	}
	// Run by its path, scene-run names itself by that path.
	if !strings.HasSuffix(r.Stdout, "\ninspect it live: "+binary(t)+" run -inspect 127.0.0.1:8080\n") {
		t.Errorf("the last line does not say how to inspect the scene:\n%s", r.Stdout)
	}
}

// TestRunInspectHint: a plain run's last line is the command that opens
// the same scene in the inspector; runs with -watch or -inspect have none.
func TestRunInspectHint(t *testing.T) {
	r := runBin(t, "run", "-ticks", "5", "-query", "[enemy]", "scenes/asteroids.yaml").Expect(t, 0)
	if !strings.HasSuffix(r.Stdout, "query     [enemy]: 3 matches\ninspect it live: "+binary(t)+" run -inspect 127.0.0.1:8080 scenes/asteroids.yaml\n") {
		t.Errorf("last lines:\n%s", r.Stdout)
	}
	r = runBin(t, "run", "-ticks", "5", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml").Expect(t, 0)
	if strings.Contains(r.Stdout, "inspect it live") {
		t.Errorf("-inspect run with the hint:\n%s", r.Stdout)
	}
}

func TestRunEveryScene(t *testing.T) {
	for _, s := range exampleScenes {
		r := runBin(t, "run", "-ticks", "10", "-query", "*", s).Expect(t, 0)
		if !strings.Contains(r.Stdout, "ticks     10") || !strings.Contains(r.Stdout, "query     *: ") {
			t.Errorf("%s: summary:\n%s", s, r.Stdout)
		}
	}
}

func TestRunQueryCount(t *testing.T) {
	r := runBin(t, "run", "-ticks", "5", "-query", "[cube]", "scenes/cubes.xml").Expect(t, 0)
	if !strings.Contains(r.Stdout, "query     [cube]: 10000 matches") {
		t.Fatalf("summary:\n%s", r.Stdout)
	}
}

func TestQuery(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"scenes/asteroids.yaml", "[enemy]:not([alive])"}, "wreck\n"},
		{[]string{"scenes/asteroids.yaml", "#ship > .gun"}, "ship/0\nship/1\n"},
		{[]string{"-ticks", "90", "scenes/asteroids.yaml", "[bullet]"}, "ship/1/0\n"},
		{[]string{"scenes/asteroids.yaml", "[bullet]"}, "ship/0/0\nship/1/0\n"},
		// World positions: the bullets leave the turned ship's guns
		// towards world -x.
		{[]string{"scenes/asteroids.yaml", "[bullet][world.position.x<-5]"}, ""},
		{[]string{"-ticks", "30", "scenes/asteroids.yaml", "[bullet][world.position.x<-5]"}, "ship/0/0\nship/1/0\n"},
		{[]string{"-ticks", "600", "scenes/cubes.yaml", "[cube]:not([sleeping])"}, ""},
		{[]string{"scenes/authoring.yaml", "[health.hp<20]"}, "elder\n"},
		{[]string{"scenes/authoring.yaml", "[mode=run]"}, "hero\nchild\n"},
		{[]string{"scenes/cubes.yaml", "#ground, #camera"}, "camera\nground\n"},
		{[]string{"scenes/cubes.yaml", "[acceleration]"}, ""},
	}
	for _, c := range cases {
		r := runBin(t, append([]string{"query"}, c.args...)...).Expect(t, 0)
		if r.Stdout != c.want {
			t.Errorf("query %v = %q, want %q", c.args, r.Stdout, c.want)
		}
	}
}

func TestQueryJSON(t *testing.T) {
	r := runBin(t, "query", "-json", "scenes/authoring.yaml", "#elder").Expect(t, 0)
	var out []struct {
		ID         string                     `json:"id"`
		Path       string                     `json:"path"`
		Parent     *string                    `json:"parent"`
		Class      []string                   `json:"class"`
		Components map[string]json.RawMessage `json:"components"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	if len(out) != 1 || out[0].ID != "elder" || out[0].Parent != nil {
		t.Fatalf("%+v", out)
	}
	var h map[string]int
	if err := json.Unmarshal(out[0].Components["health"], &h); err != nil || h["hp"] != 12 || h["max"] != 50 {
		t.Fatalf("health %s (%v)", out[0].Components["health"], err)
	}
	var pos map[string]float64
	if err := json.Unmarshal(out[0].Components["position"], &pos); err != nil || pos["x"] != 3 || pos["z"] != 1 {
		t.Fatalf("position %s", out[0].Components["position"])
	}
	if string(out[0].Components["npc"]) != "{}" {
		t.Fatalf("tag npc = %s", out[0].Components["npc"])
	}
}

func TestQueryBadSelector(t *testing.T) {
	r := runBin(t, "query", "scenes/authoring.yaml", "[health.hp<").Expect(t, 2)
	if r.Stderr != "selector:1:12: expected value after '<', found end of input\n" {
		t.Fatalf("stderr %q", r.Stderr)
	}
	r = runBin(t, "query", "scenes/authoring.yaml", "[enemy]:hover").Expect(t, 2)
	if !strings.HasPrefix(r.Stderr, "selector:1:8: ") || !strings.Contains(r.Stderr, "hover") {
		t.Fatalf("stderr %q", r.Stderr)
	}
}

func TestDumpRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, s := range exampleScenes {
		for _, f := range []string{"yaml", "xml", "json"} {
			r := runBin(t, "dump", "-format", f, "-ticks", "3", s).Expect(t, 0)
			file := filepath.Join(dir, strings.ReplaceAll(filepath.Base(s), ".", "_")+"."+f)
			if err := os.WriteFile(file, []byte(r.Stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			// The dump loads back to the same state.
			want := runBin(t, "dump", "-format", "json", "-ticks", "3", s).Expect(t, 0).Stdout
			got := runBin(t, "dump", "-format", "json", file).Expect(t, 0).Stdout
			if got != want {
				t.Errorf("%s via %s does not round-trip", s, f)
			}
		}
	}
}

func TestValidate(t *testing.T) {
	r := runBin(t, append([]string{"validate"}, exampleScenes...)...).Expect(t, 0)
	if r.Stdout != "" || r.Stderr != "" {
		t.Fatalf("validate printed %q %q", r.Stdout, r.Stderr)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("components:\n  health: {hp: {type: int, default: 100}}\nentities:\n  - id: a\n    helth: \"hp: 5\"\n    position: 1 2 x\n  - id: a\n"), 0o644)
	badXML := filepath.Join(dir, "bad.xml")
	os.WriteFile(badXML, []byte("<scene>\n  <entity id=\"b\"\n          position=\"1 2 3 4\"/>\n</scene>\n"), 0o644)
	r = runBin(t, "validate", bad, badXML).Expect(t, 1)
	for _, w := range []string{
		bad + `:5:5: unknown component "helth" (did you mean "health"?)`,
		bad + ":6:19: position: invalid value \"x\"",
		bad + `:7:9: duplicate entity id "a"`,
		badXML + `:3:27: position: invalid value "4"`,
	} {
		if !strings.Contains(r.Stderr, w) {
			t.Errorf("validate output lacks %q:\n%s", w, r.Stderr)
		}
	}
	runBin(t, "validate").Expect(t, 2)
	runBin(t, "validate", filepath.Join(dir, "missing.yaml")).Expect(t, 1)
}

func TestUsageErrors(t *testing.T) {
	runBin(t, "run", "-ticks", "-1").Expect(t, 2)
	runBin(t, "run", "-nosuchflag").Expect(t, 2)
	runBin(t, "dump", "-format", "toml", "scenes/cubes.yaml").Expect(t, 2)
	runBin(t, "query", "scenes/cubes.yaml").Expect(t, 2)
	runBin(t, "run", "scenes/cubes.txt").Expect(t, 2)
	for _, c := range []string{"run", "query", "dump", "validate", "components", "schema"} {
		r := runBin(t, c, "-h").Expect(t, 0)
		if !strings.Contains(r.Stderr, "Usage: scene-run") {
			t.Errorf("%s -h: %q", c, r.Stderr)
		}
	}
}

func TestSceneErrorsExitOne(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("entities:\n  - position: [1\n"), 0o644)
	r := runBin(t, "run", "-ticks", "1", bad).Expect(t, 1)
	if !strings.HasPrefix(r.Stderr, bad+":") {
		t.Fatalf("stderr %q", r.Stderr)
	}
}

func TestComponents(t *testing.T) {
	r := runBin(t, "components").Expect(t, 0)
	for _, want := range []string{"position", "velocity", "gravity", "spawner", "lifetime", "spin", "systems:", "physics"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("components output lacks %q", want)
		}
	}
}

// TestWatch runs a scene copy with -watch, applies an edit, survives a
// broken edit, and applies the next good one.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../scenes/asteroids.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "asteroids.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary(t), "run", "-watch", "-ticks", "0", file)
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor := func(buf *syncBuffer, want string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			if strings.Contains(buf.String(), want) {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("timed out waiting for %q\nstdout:\n%s\nstderr:\n%s", want, out.String(), errb.String())
	}
	waitFor(&errb, "watching ")
	time.Sleep(200 * time.Millisecond)
	edit := strings.Replace(string(src), "position: 0 15 0", "position: 0 16 0", 1)
	os.WriteFile(file, []byte(edit), 0o644)
	waitFor(&out, "reload asteroids.yaml: +0 -0 ~1 (")
	waitFor(&out, "  ~ #wreck position 0 15 0 → 0 16 0\n")
	broken := strings.Replace(edit, "position: 0 16 0", "position: 0 16 zero", 1)
	os.WriteFile(file, []byte(broken), 0o644)
	waitFor(&errb, "asteroids.yaml:")
	waitFor(&errb, "the running scene is unchanged")
	// A save whose prefabs would make 10^8 entities is refused at once,
	// and the process keeps running the scene.
	bomb := "prefabs:\n"
	for i := range 8 {
		bomb += fmt.Sprintf("  p%d: {children: [%s]}\n", i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("{prefab: p%d}, ", i+1), 10), ", "))
	}
	os.WriteFile(file, []byte(bomb+"  p8: {}\nentities:\n  - prefab: p0\n"), 0o644)
	waitFor(&errb, "(Limits.MaxEntities)")
	added := edit + "  - id: newcomer\n    enemy:\n"
	os.WriteFile(file, []byte(added), 0o644)
	waitFor(&out, "reload asteroids.yaml: +1 -0 ~")
	waitFor(&out, "  + #newcomer\n")
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("scene-run did not stop on interrupt")
	}
	if !strings.Contains(out.String(), "entities  ") {
		t.Fatalf("no summary after interrupt:\n%s", out.String())
	}
}

// syncBuffer is written by a running process while a test reads it.
type syncBuffer = clitest.Buffer

// TestWatchDryRun prints what a save would change and leaves the scene as
// it was.
func TestWatchDryRun(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../scenes/asteroids.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "asteroids.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary(t), "run", "-watch", "-dry-run", "-ticks", "0", "-query", "[position.y>15.5]", file)
	var out, errb syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(errb.String(), "watching ") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	os.WriteFile(file, []byte(strings.Replace(string(src), "position: 0 15 0", "position: 0 16 0", 1)), 0o644)
	for !strings.Contains(out.String(), "would reload asteroids.yaml: +0 -0 ~1\n  ~ #wreck position 0 15 0 → 0 16 0\n") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "would reload asteroids.yaml: +0 -0 ~1\n  ~ #wreck position 0 15 0 → 0 16 0\n") {
		t.Fatalf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	}
	// The wreck is still at y=15: the summary's query finds nothing.
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("scene-run did not stop on interrupt")
	}
	if !strings.Contains(out.String(), "query     [position.y>15.5]: 0 matches") {
		t.Fatalf("dry run applied the edit, or no summary:\n%s", out.String())
	}
}

// TestRunSeed: -seed changes what the spawner draws, and the same seed
// gives the same scene.
func TestRunSeed(t *testing.T) {
	count := func(seed string) string {
		r := runBin(t, "run", "-ticks", "1", "-seed", seed, "-query", "[position.x>0]", "scenes/cubes.yaml").Expect(t, 0)
		i := strings.Index(r.Stdout, "query     ")
		if i < 0 {
			t.Fatalf("no query line:\n%s", r.Stdout)
		}
		return r.Stdout[i:]
	}
	a, b, c := count("0"), count("7"), count("7")
	if b != c {
		t.Fatalf("same seed, different scenes: %q %q", b, c)
	}
	if a == b {
		t.Fatalf("seed made no difference: %q", a)
	}
}
