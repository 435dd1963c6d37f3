package scenerun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRatesWhosePeriodDoesNotFit: a -hz whose period is longer than a day
// is a flag error of every command that takes one, before anything runs
// (issue 32: -hz 1e-10 overflowed time.Duration, and run -realtime -hz
// 1e-12 ran all its ticks at once); a rate a little above one tick a day
// is taken. A journal whose header says such a rate is refused by replay.
func TestRatesWhosePeriodDoesNotFit(t *testing.T) {
	scene := sceneFile(t, "s.yaml", "entities: [{id: a}]\n")
	for _, args := range [][]string{
		{"run", "-ticks", "2"},
		{"run", "-realtime", "-ticks", "2"},
		{"query", "-ticks", "2"},
		{"dump", "-ticks", "2"},
		{"schedule", "-ticks", "2"},
	} {
		for _, hz := range []string{"1e-10", "1e-12", "1e-5", "1e-300"} {
			a := append(append([]string{}, args...), "-hz", hz, scene)
			if args[0] == "query" {
				a = append(a, "#a")
			}
			code, _, stderr := runProg(Program{}, a...)
			want := `invalid value "` + hz + `" for flag -hz: tick rate `
			if code != ExitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "longer than a day") {
				t.Errorf("%v: exit %d\n%s\nwant exit 2 and %q", a, code, stderr, want)
			}
		}
	}
	if code, out, stderr := runProg(Program{}, "query", "-ticks", "2", "-hz", "1.2e-5", scene, "#a"); code != ExitOK {
		t.Errorf("-hz 1.2e-5 (a period of 23 hours): exit %d\n%s%s", code, out, stderr)
	}
	j := filepath.Join(t.TempDir(), "j.jsonl")
	if err := os.WriteFile(j, []byte(`{"journal":1,"hz":1e-10}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runProg(Program{}, "replay", scene, j); code != ExitScene || !strings.Contains(stderr, "j.jsonl:1: tick rate 1e-10: its period") {
		t.Errorf("replay of a journal at 1e-10 Hz: exit %d\n%s", code, stderr)
	}
}

// TestSceneRatesWhosePeriodDoesNotFit: a scene's physics step and a
// schedule entry's _interval longer than a day are refused where they
// are written.
func TestSceneRatesWhosePeriodDoesNotFit(t *testing.T) {
	scene := sceneFile(t, "s.yaml", "scene:\n  physics: \"step: 1e6\"\n  behaviour: {_interval: 1e6}\nentities: []\n")
	code, _, stderr := runProg(Program{}, "validate", scene)
	for _, want := range []string{
		scene + `:2:19: physics: property "step": invalid value "1e6": expected a number between 0.000001 and 86400`,
		scene + `:3:26: scene: behaviour: _interval: "1e6" is not a number of seconds from 0 to 86400 (a day)`,
	} {
		if code != ExitScene || !strings.Contains(stderr, want) {
			t.Errorf("validate: exit %d\n%s\nwant %s", code, stderr, want)
		}
	}
}
