package scenerun

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bigTick finds the ticks a fuzzed journal asks for.
var bigTick = regexp.MustCompile(`"tick"\s*:\s*[0-9.eE+]+`)

const journalScene = `entities:
  - id: a
    position: 0 0 0
    velocity: 1 0 0
  - id: b
    children:
      - position: 1 1 1
`

// TestReplayJournal: a journal written by hand replays (the changes land
// after their ticks); a journal that is not one, out of order, or with a
// reload line stops with the line; -journal needs -inspect.
func TestReplayJournal(t *testing.T) {
	scene := sceneFile(t, "s.yaml", journalScene)
	write := func(text string) string {
		p := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write(`{"journal":1,"scene":"s.yaml","hz":4}
{"tick":2,"op":"set","ref":"a","component":"velocity","attr":"0 0 0"}
{"tick":2,"op":"reparent","ref":"b/0","parent":"a"}
{"tick":3,"op":"set","ref":"a/0","component":"position","attr":"5 5 5","save":true}
{"tick":3,"op":"undo"}
{"tick":4,"op":"end"}
`)
	code, out, errOut := runProg(Program{}, "replay", "-format", "yaml", scene, good)
	if code != ExitOK {
		t.Fatalf("replay: %d %s", code, errOut)
	}
	// a moves for two ticks (as dump -ticks 2 says), then stops; the
	// child moved under a; its set undone.
	_, moved, _ := runProg(Program{}, "dump", "-ticks", "2", "-hz", "4", scene)
	pos := moved[strings.Index(moved, "position: "):]
	pos = pos[:strings.IndexByte(pos, '\n')]
	if pos == "position: 0 0 0" || !strings.Contains(out, "    "+pos+"\n") || !strings.Contains(out, "position: 1 1 1") || strings.Contains(out, "5 5 5") {
		t.Errorf("replay's World:\n%s", out)
	}
	for _, c := range []struct{ text, want string }{
		{``, "empty: not a journal"},
		{`{"tick":1}`, ":1: not a journal of version 1"},
		{`{"journal":1,"hz":0}`, ":1: hz 0"},
		{"{\"journal\":1,\"hz\":60}\n{\"tick\":5,\"op\":\"set\",\"ref\":\"a\",\"component\":\"velocity\",\"attr\":\"1 1 1\"}\n{\"tick\":2,\"op\":\"undo\"}\n", "j.jsonl:3: tick 2 comes after tick 5"},
		{"{\"journal\":1,\"hz\":60}\n{\"tick\":1,\"op\":\"reload\"}\n", "j.jsonl:2: the run hot-reloaded its files after 1 tick"},
		{"{\"journal\":1,\"hz\":60}\n{\"tick\":1,\"op\":\"undo\"}\n", "j.jsonl:2: after 1 tick: undo : 409: nothing to undo"},
		{"{\"journal\":1,\"hz\":60}\nnot json\n", "j.jsonl:2: invalid character"},
		{"{\"journal\":1,\"hz\":60}\n{\"tick\":1,\"op\":\"explode\"}\n", `unknown command "explode"`},
	} {
		code, _, errOut := runProg(Program{}, "replay", scene, write(c.text))
		if code != ExitScene || !strings.Contains(errOut, c.want) {
			t.Errorf("replay of %q: %d %s, want %q", c.text, code, errOut, c.want)
		}
	}
	if code, _, errOut := runProg(Program{}, "run", "-journal", "x.jsonl", scene); code != ExitUsage || !strings.Contains(errOut, "-journal goes with -inspect") {
		t.Errorf("-journal without -inspect: %d %s", code, errOut)
	}
	if code, _, errOut := runProg(Program{}, "replay", scene); code != ExitUsage || !strings.Contains(errOut, "expected SCENE and JOURNAL") {
		t.Errorf("replay without a journal: %d %s", code, errOut)
	}
}

// FuzzReplayJournal: whatever a journal file holds, replay applies what
// it can and stops with an error naming a line, never a panic.
func FuzzReplayJournal(f *testing.F) {
	for _, s := range []string{
		"{\"journal\":1,\"hz\":60}\n{\"tick\":1,\"op\":\"set\",\"ref\":\"a\",\"component\":\"velocity\",\"attr\":\"1 1 1\"}\n{\"tick\":2,\"op\":\"end\"}\n",
		"{\"journal\":1,\"hz\":60}\n{\"tick\":0,\"op\":\"create\",\"body\":{\"parent\":\"b\",\"id\":\"n\",\"components\":{\"position\":\"1 2 3\"}}}\n{\"tick\":0,\"op\":\"clone\",\"ref\":\"n\"}\n{\"tick\":0,\"op\":\"destroy\",\"ref\":\"b\"}\n{\"tick\":0,\"op\":\"undo\"}\n{\"tick\":0,\"op\":\"redo\"}\n",
		"{\"journal\":1,\"hz\":60}\n{\"tick\":0,\"op\":\"emit\",\"ref\":\"a\",\"event\":\"hit\",\"detail\":{\"x\":[1,2]}}\n{\"tick\":0,\"op\":\"reparent\",\"ref\":\"a\",\"parent\":\"b/0\"}\n",
		"{\"journal\":1,\"hz\":60}\n{\"tick\":0,\"op\":\"remove\",\"ref\":\"a\",\"component\":\"world\"}\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	scene := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(scene, []byte(journalScene), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, m := range bigTick.FindAllString(text, -1) {
			if len(m) > len(`"tick":999`) {
				return // long runs of ticks are not what this looks for
			}
		}
		p := filepath.Join(t.TempDir(), "j.jsonl")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runProg(Program{}, "replay", scene, p)
		if code == ExitScene && !strings.Contains(errOut, "j.jsonl") && !strings.Contains(errOut, "tick") {
			t.Errorf("error without the journal's name: %s", errOut)
		}
	})
}
