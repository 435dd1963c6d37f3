package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/internal/clitest"
)

// The example's commands, run as a user runs them: the program is built
// once, and each test runs it from the repository's root on
// examples/chase/level.yaml.

const levelPath = "examples/chase/level.yaml"

// chase runs the example with args from the repository's root.
func chase(t *testing.T, args ...string) clitest.Result {
	t.Helper()
	return clitest.Run(t, clitest.Build(t, "."), "../..", args...)
}

// TestValidate: the tools know the game's component; a misspelt one is
// an error at its place, with a suggestion.
func TestValidate(t *testing.T) {
	r := chase(t, "validate", levelPath).Expect(t, 0)
	if r.Stdout != "" || r.Stderr != "" {
		t.Errorf("validate printed:\n%s%s", r.Stdout, r.Stderr)
	}
	src, err := os.ReadFile("level.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	text := strings.Replace(string(src), `    chase: "speed: 3"`, `    chsae: "speed: 3"`, 1)
	if text == string(src) {
		t.Fatal("the level no longer has the line this test misspells")
	}
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(text[:strings.Index(text, "chsae")], "\n")
	r = chase(t, "validate", bad).Expect(t, 1)
	want := regexp.MustCompile(regexp.QuoteMeta(bad) + `:` + strconv.Itoa(line) + `:5: .*unknown component "chsae" \(did you mean "chase"\?\)`)
	if !want.MatchString(r.Stderr) {
		t.Errorf("validate of a misspelt component:\n%s\nwant a match of %s", r.Stderr, want)
	}
	// scene-run itself does not know chase: the tools are the game's.
	r = chase(t, "components").Expect(t, 0)
	if !strings.Contains(r.Stdout, "\n  chase  (depends on position; ticks)\n    target     selector default \"#player\"") {
		t.Errorf("components does not list chase with its schema:\n%s", r.Stdout)
	}
}

// TestQuery: the chase component's Tick reads the player's world position
// (the player rides a turntable) and the chasers close in.
func TestQuery(t *testing.T) {
	r := chase(t, "query", levelPath, "[chase]").Expect(t, 0)
	if r.Stdout != "goblin-1\ngoblin-2\ntroll\n" {
		t.Errorf("query [chase]:\n%s", r.Stdout)
	}
	r = chase(t, "query", "-ticks", "600", levelPath, "[chase.caught=true]").Expect(t, 0)
	if r.Stdout != "goblin-2\n" {
		t.Errorf("caught after 10 s:\n%s", r.Stdout)
	}
	r = chase(t, "run", "-ticks", "60", "-query", "[chase]", levelPath).Expect(t, 0)
	if !strings.Contains(r.Stdout, "query     [chase]: 3 matches\n") {
		t.Errorf("run -query:\n%s", r.Stdout)
	}
	dist := func(ticks string) float64 {
		var es []struct {
			ID    string `json:"id"`
			World struct {
				Position struct{ X, Z float64 } `json:"position"`
			} `json:"world"`
		}
		out := chase(t, "query", "-json", "-ticks", ticks, levelPath, "#player, #goblin-2").Expect(t, 0).Stdout
		if err := json.Unmarshal([]byte(out), &es); err != nil || len(es) != 2 {
			t.Fatalf("query -json: %v\n%s", err, out)
		}
		dx, dz := es[0].World.Position.X-es[1].World.Position.X, es[0].World.Position.Z-es[1].World.Position.Z
		return dx*dx + dz*dz
	}
	if before, after := dist("0"), dist("120"); after >= before {
		t.Errorf("goblin-2 did not close in: squared distance %g, after 2 s %g", before, after)
	}
}

// TestDumpAndSchema: a dump of the running game reads back with the
// game's components, and the schemas name them, with SCENE's
// declarations too.
func TestDumpAndSchema(t *testing.T) {
	r := chase(t, "dump", "-ticks", "30", levelPath).Expect(t, 0)
	if !strings.Contains(r.Stdout, `chase: "speed: 1; reach: 2"`) {
		t.Errorf("dump has no chase of the troll:\n%s", r.Stdout)
	}
	file := filepath.Join(t.TempDir(), "dump.yaml")
	if err := os.WriteFile(file, []byte(r.Stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	chase(t, "validate", file).Expect(t, 0)

	var schema struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	out := chase(t, "schema", levelPath).Expect(t, 0).Stdout
	if err := json.Unmarshal([]byte(out), &schema); err != nil {
		t.Fatalf("schema: %v", err)
	}
	if !strings.Contains(out, `"chase"`) || !strings.Contains(out, `"enemy"`) {
		t.Errorf("schema of the level names neither chase nor the declared enemy")
	}
	if r := chase(t, "schema", "-format", "xsd").Expect(t, 0); !strings.Contains(r.Stdout, `name="chase"`) {
		t.Errorf("XSD without chase")
	}
}

// TestPlayReloadInspect: the game's own loop reloads a saved edit between
// ticks, keeps what the edit did not touch, and serves the inspector.
func TestPlayReloadInspect(t *testing.T) {
	src, err := os.ReadFile("level.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "level.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(clitest.Build(t, "."), "play", "-inspect", "127.0.0.1:0", file)
	var out, errb clitest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	url := waitFor(t, &out, regexp.MustCompile(`inspect: (http://\S+)/\?token=`))[1]

	get := func(ref string) map[string]any {
		t.Helper()
		res, err := http.Get(url + "/api/entities/" + ref)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	attr := func(ref, comp string) string {
		for _, c := range get(ref)["components"].([]any) {
			if c := c.(map[string]any); c["name"] == comp {
				return c["attr"].(string)
			}
		}
		return ""
	}
	// The chasers move.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		moved := attr("goblin-1", "position")
		if moved != "-8 0.5 -8" && moved != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("goblin-1 has not moved in 10 s: %q", moved)
		}
	}

	edited := strings.Replace(string(src), `chase: "speed: 1; reach: 2"`, `chase: "speed: 4; reach: 2"`, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &out, regexp.MustCompile(`reload: \+0 -0 ~1\n  ~ #troll chase.speed 1 → 4\n`))
	if got := attr("troll", "chase"); !strings.Contains(got, "speed: 4") {
		t.Errorf("troll's chase after the reload: %q", got)
	}
	// The edit did not touch goblin-1: it is where the game took it, not
	// back at its start.
	if p := attr("goblin-1", "position"); p == "-8 0.5 -8" {
		t.Errorf("goblin-1 back at its start after an edit of the troll")
	}

	if err := os.WriteFile(file, []byte(edited+"  - id: [broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &errb, regexp.MustCompile(`reload failed; the level plays on unchanged:\n.*level\.yaml:\d+:\d+: `))
	if got := attr("troll", "chase"); !strings.Contains(got, "speed: 4") {
		t.Errorf("troll's chase after a broken save: %q", got)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil {
		t.Errorf("play after an interrupt: %v\n%s", err, errb.String())
	}
}

// TestPlayEmbedded: with no level, the game plays the embedded one.
func TestPlayEmbedded(t *testing.T) {
	r := chase(t, "play", "-ticks", "120").Expect(t, 0)
	if !strings.HasSuffix(r.Stdout, "t=2.0s  1 of 3 chasers caught the player\n") {
		t.Errorf("play:\n%s", r.Stdout)
	}
	chase(t, "play", "-ticks", "-1").Expect(t, 2)
	chase(t, "play", "no-such-level.yaml").Expect(t, 1)
}

// waitFor waits until re matches what b holds and returns the match.
func waitFor(t *testing.T, b *clitest.Buffer, re *regexp.Regexp) []string {
	t.Helper()
	return clitest.WaitFor(t, b, re, 20*time.Second)
}

var update = flag.Bool("update", false, "rewrite level.schema.json")

// TestSchemaFile: level.schema.json, which level.yaml names in its
// modeline for editors, is what "chase schema level.yaml" prints (go
// test ./examples/chase -run SchemaFile -update rewrites it).
func TestSchemaFile(t *testing.T) {
	var want, errb bytes.Buffer
	if code := program.Run(context.Background(), []string{"schema", "level.yaml"}, &want, &errb); code != 0 {
		t.Fatalf("schema: exit %d\n%s", code, errb.String())
	}
	if *update {
		if err := os.WriteFile("level.schema.json", want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("level.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("level.schema.json is stale: run go test ./examples/chase -run SchemaFile -update")
	}
	level, err := os.ReadFile("level.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(level, []byte("# yaml-language-server: $schema=level.schema.json\n")) {
		t.Error("level.yaml does not name level.schema.json in a modeline")
	}
}
