package scenerun

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/internal/clitest"
)

// watchRun runs `run -watch` on file in the background until the test
// ends; it returns the run's outputs once it watches.
func watchRun(t *testing.T, file string, flags ...string) (stdout, stderr *clitest.Buffer) {
	t.Helper()
	stdout, stderr = &clitest.Buffer{}, &clitest.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		args := append(append([]string{"run", "-watch", "-debounce", "10ms"}, flags...), file)
		done <- Program{}.Run(ctx, args, stdout, stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != ExitOK {
				t.Errorf("run -watch ended with %d:\n%s", code, stderr)
			}
		case <-time.After(10 * time.Second):
			t.Error("run -watch did not stop")
		}
	})
	clitest.WaitFor(t, stderr, regexp.MustCompile(`watching `), 10*time.Second)
	return stdout, stderr
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestWatchEmptySave: under run -watch, a save that empties the scene file
// (0 bytes) is held back, and the run says so, with the file's name, the
// entities a reload would destroy and what to do; doing it works (the
// content again reloads; a scene without entities empties the scene).
// In each format, and for an emptied include.
func TestWatchEmptySave(t *testing.T) {
	for _, c := range []struct {
		name, scene, edit, none string
		flags                   []string
	}{
		{"level.yaml", "entities:\n  - id: a\n  - id: b\n", "entities:\n  - id: a\n  - id: c\n", "entities: []", nil},
		{"level.yaml", "entities:\n  - id: a\n  - id: b\n", "entities:\n  - id: a\n  - id: c\n", "entities: []", []string{"-poll", "20ms"}},
		{"level.xml", "<scene>\n  <entity id=\"a\"/>\n  <entity id=\"b\"/>\n</scene>\n", "<scene>\n  <entity id=\"a\"/>\n  <entity id=\"c\"/>\n</scene>\n", "<scene/>", nil},
		{"level.json", `{"entities": [{"id": "a"}, {"id": "b"}]}`, `{"entities": [{"id": "a"}, {"id": "c"}]}`, `{"entities": []}`, nil},
	} {
		t.Run(strings.Join(append([]string{c.name}, c.flags...), " "), func(t *testing.T) {
			file := filepath.Join(t.TempDir(), c.name)
			write(t, file, c.scene)
			stdout, stderr := watchRun(t, file, c.flags...)
			write(t, file, "")
			want := "reload " + c.name + " held back: " + c.name + " is empty (0 bytes), and a reload would destroy all 2 entities of the scene; the running scene is unchanged.\n" +
				"  Save " + c.name + " with its content again (undo the save in your editor) to reload,\n" +
				"  or save it as " + c.none + " to remove every entity it holds\n"
			clitest.WaitFor(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
			write(t, file, c.edit)
			clitest.WaitFor(t, stdout, regexp.MustCompile(regexp.QuoteMeta("reload "+c.name+": +1 -1 ~0 (")), 10*time.Second)
			write(t, file, c.none+"\n")
			clitest.WaitFor(t, stdout, regexp.MustCompile(regexp.QuoteMeta("reload "+c.name+": +0 -2 ~0 (")), 10*time.Second)
		})
	}
	t.Run("include", func(t *testing.T) {
		dir := t.TempDir()
		file := filepath.Join(dir, "level.yaml")
		inc := filepath.Join(dir, "parts", "rocks.yaml")
		if err := os.Mkdir(filepath.Dir(inc), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, inc, "entities:\n  - id: rock\n")
		write(t, file, "include: parts/rocks.yaml\nentities:\n  - id: ship\n")
		_, stderr := watchRun(t, file)
		write(t, inc, "")
		rel := filepath.Join("parts", "rocks.yaml")
		want := "reload level.yaml held back: its include " + rel + " is empty (0 bytes); the running scene is unchanged.\n" +
			"  Save " + rel + " with its content again (undo the save in your editor) to reload,\n" +
			"  or save it as entities: [] to remove every entity it holds\n"
		clitest.WaitFor(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
	})
}

// TestWatchUnreadableFile: a watched file that cannot be read (here a
// directory put in its place) is reported once, as "watch: PATH: why",
// and the save that brings the file back reloads.
func TestWatchUnreadableFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "level.yaml")
	write(t, file, "entities:\n  - id: a\n")
	stdout, stderr := watchRun(t, file)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(file, 0o755); err != nil {
		t.Fatal(err)
	}
	clitest.WaitFor(t, stderr, regexp.MustCompile(`(?m)^watch: .*level\.yaml: not a regular file \(a directory\) \(waiting until it can be read\)\n`), 10*time.Second)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	write(t, file, "entities:\n  - id: b\n")
	clitest.WaitFor(t, stdout, regexp.MustCompile(regexp.QuoteMeta("reload level.yaml: +1 -1 ~0 (")), 10*time.Second)
	if n := len(regexp.MustCompile(`watch: `).FindAllString(stderr.String(), -1)); n != 1 {
		t.Errorf("%d watch: prefixes, want one line with one:\n%s", n, stderr)
	}
}

// TestWatchEmptySaveInspector: with -inspect, the held-back empty save is
// in the inspector's reload log too, as a failed reload with the message.
func TestWatchEmptySaveInspector(t *testing.T) {
	file := filepath.Join(t.TempDir(), "level.yaml")
	write(t, file, "entities:\n  - id: a\n")
	stdout, _ := watchRun(t, file, "-inspect", "127.0.0.1:0")
	m := clitest.WaitFor(t, stdout, regexp.MustCompile(`inspect: (http://[^/]+)/\?token=(\w+)`), 10*time.Second)
	req, err := http.NewRequest("GET", m[1]+"/api/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+m[2])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := &clitest.Buffer{}
	go io.Copy(events, resp.Body)
	clitest.WaitFor(t, events, regexp.MustCompile(`event: stats`), 10*time.Second) // the stream is open
	write(t, file, "")
	clitest.WaitFor(t, events, regexp.MustCompile(`event: reload\ndata: \{"ok":false,"errors":\["reload level.yaml held back: level.yaml is empty \(0 bytes\)`), 10*time.Second)
}

// TestWatchBehaviourEdits: under run -watch, a save of an on or a bind
// whose expression does not compile fails at file:line:col inside the
// string, the running scene unchanged; the next good save applies the
// new expression.
func TestWatchBehaviourEdits(t *testing.T) {
	file := filepath.Join(t.TempDir(), "level.yaml")
	const scene = "components:\n  score: {type: int}\nentities:\n  - id: a\n    score: 0\n    on__hit: \"set: score = score + 1\"\n    bind: \"position.y: time\"\n"
	write(t, file, scene)
	stdout, stderr := watchRun(t, file)
	write(t, file, strings.Replace(scene, "score + 1", "scor + 1", 1))
	want := "reload level.yaml failed; the running scene is unchanged:\n" + file + ":6:28: on__hit: set score: unknown name \"scor\" (did you mean \"score\"?)"
	clitest.WaitFor(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
	write(t, file, strings.Replace(scene, "position.y: time", "position.y: sin(tim)", 1))
	want = file + ":7:28: bind: position.y: unknown name \"tim\" (did you mean \"time\"?)"
	clitest.WaitFor(t, stderr, regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
	write(t, file, strings.Replace(scene, "score + 1", "score + 2", 1))
	want = "reload level.yaml: +0 -0 ~1 ("
	clitest.WaitFor(t, stdout, regexp.MustCompile(regexp.QuoteMeta(want)), 10*time.Second)
	clitest.WaitFor(t, stdout, regexp.MustCompile(regexp.QuoteMeta(`~ #a on__hit set: score = score + 1 → set: score = score + 2`)), 10*time.Second)
}
