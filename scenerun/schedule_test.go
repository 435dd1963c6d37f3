package scenerun

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/registry"
)

// determinismTicks is how many ticks the determinism test runs (fewer
// under the race detector, see race_test.go).
var determinismTicks = 600

// TestDumpsSameForAnyWorkers: the default scene, asteroids and a scene
// with spawners and events, run 600 ticks with 1, 2 and 4 workers, dump
// to the same bytes. Every batch with more than one system is spread over
// the workers (a split threshold of 0), so that parallel runs really
// happen.
func TestDumpsSameForAnyWorkers(t *testing.T) {
	split := Program{Register: func(reg *registry.Registry, _ *components.Builtins) error {
		reg.Schedule().SetSplitThreshold(0)
		return nil
	}}
	ticks := itoa(determinismTicks)
	for _, scene := range []string{"", "../scenes/asteroids.yaml", "testdata/spawn-events.yaml"} {
		var want string
		for _, workers := range []string{"1", "2", "4"} {
			args := []string{"dump", "-format", "json", "-ticks", ticks, "-workers", workers}
			if scene != "" {
				args = append(args, scene)
			} else {
				args = append(args, "../scenes/cubes.yaml")
			}
			code, out, errs := runProg(split, args...)
			if code != ExitOK {
				t.Fatalf("%s -workers %s: exit %d: %s", scene, workers, code, errs)
			}
			if workers == "1" {
				want = out
				if len(out) < 1000 {
					t.Fatalf("%s: dump too short: %s", scene, out)
				}
				continue
			}
			if out != want {
				t.Errorf("%s: -workers %s dumps differently from -workers 1", scene, workers)
			}
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestScheduleCommand: scene-run schedule prints the phases and the
// systems in run order (with times after -ticks), and -json what GET
// /api/schedule answers; -workers is checked.
func TestScheduleCommand(t *testing.T) {
	code, out, errs := runProg(Program{}, "schedule", "-workers", "3")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 3 && f[0] >= "0" && f[0] <= "9" {
			lines = append(lines, f[3])
		}
	}
	if got := strings.Join(lines, " "); got != "physics behaviour spin lifetime spawner transform" {
		t.Errorf("systems %q in:\n%s", got, out)
	}
	for _, want := range []string{"workers: 3", "physics      every fixed step of 0.01667 s (60 Hz), at most 8 per tick", "post-update  once per tick"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "P50") {
		t.Error("times without -ticks")
	}
	_, out, _ = runProg(Program{}, "schedule", "-ticks", "3", "../scenes/asteroids.yaml")
	if !strings.Contains(out, "P50") || !strings.Contains(out, "µs") {
		t.Errorf("-ticks 3: no times:\n%s", out)
	}
	_, out, _ = runProg(Program{}, "schedule", "-json")
	var si inspect.ScheduleInfo
	if err := json.Unmarshal([]byte(out), &si); err != nil || len(si.Systems) != 6 || si.Systems[2].Name != "spin" || len(si.Phases) != 5 {
		t.Errorf("-json: %v %+v", err, si)
	}
	for _, bad := range []string{"0", "-1", "x", "5000"} {
		if code, _, errs := runProg(Program{}, "schedule", "-workers", bad); code != ExitUsage || !strings.Contains(errs, "-workers") {
			t.Errorf("-workers %s: exit %d %s", bad, code, errs)
		}
	}
	if code, _, errs := runProg(Program{}, "schedule", "a.yaml", "b.yaml"); code != ExitUsage {
		t.Errorf("two scenes: exit %d %s", code, errs)
	}
}

// TestFixedStepSameForAnyHz: the physics phase steps at its own rate, so
// that the same scene time at -hz 30, 60 and 120 gives the same bodies
// (positions and velocities, as printed: every digit of a float64).
func TestFixedStepSameForAnyHz(t *testing.T) {
	var want string
	for _, c := range []struct{ hz, ticks string }{{"60", "180"}, {"30", "90"}, {"120", "360"}} {
		code, out, errs := runProg(Program{}, "query", "-json", "-hz", c.hz, "-ticks", c.ticks, "testdata/fixed-step.yaml", "[velocity]")
		if code != ExitOK {
			t.Fatalf("-hz %s: exit %d: %s", c.hz, code, errs)
		}
		if want == "" {
			want = out
			if strings.Count(out, `"velocity"`) != 4 {
				t.Fatalf("4 bodies expected:\n%s", out)
			}
			continue
		}
		if out != want {
			t.Errorf("-hz %s -ticks %s: the bodies differ from -hz 60 -ticks 180:\n%s\nwant\n%s", c.hz, c.ticks, out, want)
		}
	}
	// A run at a rate without a fixed step would differ: the test can
	// fail.
	_, out, _ := runProg(Program{}, "query", "-json", "-hz", "60", "-ticks", "179", "testdata/fixed-step.yaml", "[velocity]")
	if out == want {
		t.Error("179 ticks give the same bodies as 180")
	}
}

// registerRivals registers two systems that write position with no order
// between them: an ambiguity.
func registerRivals(reg *registry.Registry, _ *components.Builtins) error {
	for _, name := range []string{"push", "pull"} {
		_, err := registry.RegisterSystem(reg, name, registry.SystemDefinition[struct{}]{
			Access: &registry.Access{Writes: []string{"position"}},
			Tick:   func(*registry.SystemContext, *struct{}) {},
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// TestScheduleStrictAndShuffle: an ambiguous order is a warning in
// scene-run schedule and run, an error with -strict; -shuffle SEED
// reorders the systems no constraint orders.
func TestScheduleStrictAndShuffle(t *testing.T) {
	p := Program{Register: registerRivals}
	code, out, errs := runProg(p, "schedule")
	if code != ExitOK || !strings.Contains(out, "push") || !strings.Contains(out, "pull") || !strings.Contains(out, "warning: ") {
		t.Fatalf("schedule: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runProg(p, "run", "-ticks", "2"); code != ExitOK || !strings.Contains(errs, "schedule: warning:") || !strings.Contains(errs, "push") {
		t.Errorf("run: exit %d, stderr %s", code, errs)
	}
	if code, _, errs := runProg(p, "dump", "-strict", "-ticks", "2", "../scenes/cubes.yaml"); code != ExitScene || !strings.Contains(errs, "push") || !strings.Contains(errs, "pull") {
		t.Errorf("dump -strict: exit %d, stderr %s", code, errs)
	}
	order := func(args ...string) string {
		_, out, _ := runProg(p, append([]string{"schedule"}, args...)...)
		return strings.Join(strings.Fields(out[strings.Index(out, "#"):]), " ")
	}
	base := order()
	moved := false
	for seed := 1; seed <= 20 && !moved; seed++ {
		moved = order("-shuffle", itoa(seed)) != base
	}
	if !moved {
		t.Errorf("no seed of 20 reorders the unordered systems:\n%s", base)
	}
	first, again := order("-shuffle", "7"), order("-shuffle", "7")
	if first != again {
		t.Error("the same seed gives different orders")
	}
}

// TestValidateFindsScheduleCycles: scene-run validate reports an order a
// scene's schedule settings make impossible, at the file.
func TestValidateFindsScheduleCycles(t *testing.T) {
	code, _, errs := runProg(Program{}, "validate", "testdata/schedule-cycle.yaml", "testdata/fixed-step.yaml")
	want := "testdata/schedule-cycle.yaml:4:10: scene: spin: registry: schedule: before/after ordering has a cycle: spin -> lifetime -> spin"
	if code != ExitScene || !strings.Contains(errs, want) || strings.Contains(errs, "fixed-step") {
		t.Errorf("exit %d: %s\nwant %s", code, errs, want)
	}
}
