package registry

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// TestFixedStepPhase: the physics phase runs once per whole step of
// accumulated time, whatever the tick rate: ticks of 1/30 s run it twice,
// ticks of 1/120 s every other tick, with the step as Delta and the
// phase's clock as Time; the same scene time gives the same runs. A
// backlog beyond MaxSteps is dropped; Alpha is the part of a step left.
func TestFixedStepPhase(t *testing.T) {
	run := func(hz float64, ticks int) (runs int, deltas []float64, times []float64, r *Registry) {
		_, r = newTestRegistry(t)
		_, err := RegisterSystem(r, "phys", SystemDefinition[struct{}]{
			Phase: PhasePhysics,
			Tick: func(s *SystemContext, _ *struct{}) {
				runs++
				deltas = append(deltas, s.Delta)
				times = append(times, s.Time)
				if s.Steps < 1 || s.Step >= s.Steps {
					t.Errorf("step %d of %d", s.Step, s.Steps)
				}
			},
		})
		must(t, err)
		for range ticks {
			must(t, r.Tick(1/hz))
		}
		return runs, deltas, times, r
	}
	n30, d30, t30, _ := run(30, 60)
	n120, d120, t120, r := run(120, 240)
	n60, _, _, _ := run(60, 120)
	if n30 != 120 || n120 != 120 || n60 != 120 {
		t.Errorf("2 s of scene time: %d, %d, %d steps, want 120", n30, n120, n60)
	}
	for i := range d30 {
		if d30[i] != 1.0/60 || d120[i] != 1.0/60 || t30[i] != t120[i] {
			t.Fatalf("step %d: delta %v / %v, time %v / %v", i, d30[i], d120[i], t30[i], t120[i])
		}
	}
	if a := r.Schedule().Alpha(PhasePhysics); a != 0 {
		t.Errorf("Alpha after whole steps %v", a)
	}
	must(t, r.Tick(1.0/120))
	if a := r.Schedule().Alpha(PhasePhysics); math.Abs(a-0.5) > 1e-9 {
		t.Errorf("Alpha half a step in: %v", a)
	}
	if r.Schedule().Alpha(PhaseUpdate) != 0 {
		t.Error("Alpha of a variable phase")
	}
	must(t, r.Schedule().SetStep(PhasePhysics, 0.01, 3))
	if step, maxSteps := r.Schedule().Step(PhasePhysics); step != 0.01 || maxSteps != 3 {
		t.Errorf("Step = %v, %d", step, maxSteps)
	}
	for _, bad := range []struct {
		phase string
		step  float64
		max   int
		want  string
	}{
		{"physic", 0.1, 1, `unknown phase "physic"`},
		{PhaseUpdate, -1, 1, "step -1: must be a number of seconds from 0 to 86400 (a day)"},
		{PhaseUpdate, math.NaN(), 1, "step NaN: must be a number of seconds from 0 to 86400"},
		{PhaseUpdate, 0.1, 0, "maxSteps 0 must be at least 1"},
	} {
		if err := r.Schedule().SetStep(bad.phase, bad.step, bad.max); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("SetStep(%s, %v, %d): %v", bad.phase, bad.step, bad.max, err)
		}
	}
}

// TestFixedStepBacklog: a tick longer than MaxSteps steps runs MaxSteps
// and drops the rest; a variable phase made fixed steps too.
func TestFixedStepBacklog(t *testing.T) {
	_, r := newTestRegistry(t)
	var deltas []float64
	_, err := RegisterSystem(r, "u", SystemDefinition[struct{}]{
		Tick: func(s *SystemContext, _ *struct{}) { deltas = append(deltas, s.Delta) },
	})
	must(t, err)
	must(t, r.Schedule().SetStep(PhaseUpdate, 0.1, 3))
	must(t, r.Tick(1))
	if len(deltas) != 3 || r.Schedule().Alpha(PhaseUpdate) != 0 {
		t.Errorf("a 1 s tick ran %d steps of 0.1 (alpha %v), want 3 and the rest dropped", len(deltas), r.Schedule().Alpha(PhaseUpdate))
	}
	must(t, r.Tick(0.25))
	if len(deltas) != 5 || math.Abs(r.Schedule().Alpha(PhaseUpdate)-0.5) > 1e-9 {
		t.Errorf("0.25 s: %d steps, alpha %v", len(deltas), r.Schedule().Alpha(PhaseUpdate))
	}
	must(t, r.Schedule().SetStep(PhaseUpdate, 0, 0))
	must(t, r.Tick(0.25))
	if len(deltas) != 6 || deltas[5] != 0.25 {
		t.Errorf("back to once per tick: %v", deltas)
	}
}

// TestRates: Every N runs a system on every Nth run of its phase,
// Interval when that much time has passed; Delta is the time since the
// last run. Disabled, a system is skipped (its time does not pile up);
// RunOnce runs it anyway.
func TestRates(t *testing.T) {
	_, r := newTestRegistry(t)
	logs := map[string][]string{}
	reg := func(name string, d SystemDefinition[struct{}]) {
		d.Tick = func(s *SystemContext, _ *struct{}) {
			logs[name] = append(logs[name], fmt.Sprintf("%.2f/%.2f", s.Time, s.Delta))
		}
		_, err := RegisterSystem(r, name, d)
		must(t, err)
	}
	reg("every3", SystemDefinition[struct{}]{Every: 3})
	reg("half", SystemDefinition[struct{}]{Interval: 0.25})
	reg("each", SystemDefinition[struct{}]{})
	for range 7 {
		must(t, r.Tick(0.1))
	}
	want := map[string]string{
		"every3": "0.30/0.30 0.60/0.30",
		"half":   "0.30/0.30 0.60/0.30",
		"each":   "0.10/0.10 0.20/0.10 0.30/0.10 0.40/0.10 0.50/0.10 0.60/0.10 0.70/0.10",
	}
	for name, w := range want {
		if got := strings.Join(logs[name], " "); got != w {
			t.Errorf("%s ran at %s, want %s", name, got, w)
		}
	}
	clear(logs)
	s := r.Schedule()
	must(t, s.SetEnabled("each", false))
	if s.Enabled("each") {
		t.Error("Enabled after SetEnabled false")
	}
	must(t, r.Tick(0.1))
	must(t, r.Tick(0.1))
	if len(logs["each"]) != 0 {
		t.Errorf("disabled system ran: %v", logs["each"])
	}
	must(t, s.RunOnce("each"))
	must(t, s.SetEnabled("each", true))
	must(t, r.Tick(0.1))
	if got := strings.Join(logs["each"], " "); got != "0.90/0.10 1.00/0.10" {
		t.Errorf("RunOnce then enabled: %s", got)
	}
	if err := s.RunOnce("eahc"); err == nil || !strings.Contains(err.Error(), `(did you mean "each"?)`) {
		t.Errorf("RunOnce unknown: %v", err)
	}
	if err := s.SetEnabled("nope", false); err == nil {
		t.Error("SetEnabled of an unknown name")
	}
	for _, bad := range []SystemDefinition[struct{}]{{Every: -1}, {Interval: -1}, {Interval: math.Inf(1)}} {
		if _, err := RegisterSystem(r, "bad", bad); err == nil {
			t.Errorf("bad rate %+v accepted", bad)
		}
	}
}

// TestRunOnceInsideTickRefused: RunOnce from a hook is a reentrant tick.
func TestRunOnceInsideTickRefused(t *testing.T) {
	_, r := newTestRegistry(t)
	var got error
	_, err := RegisterSystem(r, "a", SystemDefinition[struct{}]{
		Tick: func(s *SystemContext, _ *struct{}) { got = s.Registry.Schedule().RunOnce("a") },
	})
	must(t, err)
	must(t, r.Tick(0.1))
	if !errors.Is(got, ErrReentrantTick) {
		t.Errorf("RunOnce inside Tick: %v", got)
	}
}

// TestScheduleStats: every run is timed; Stats gives the runs, and the
// median and 99th percentile of those in the window, in run order.
func TestScheduleStats(t *testing.T) {
	_, r := newTestRegistry(t)
	for _, name := range []string{"slow", "fast"} {
		sleep := time.Duration(0)
		if name == "slow" {
			sleep = 2 * time.Millisecond
		}
		_, err := RegisterSystem(r, name, SystemDefinition[struct{}]{
			Tick: func(*SystemContext, *struct{}) { time.Sleep(sleep) },
		})
		must(t, err)
	}
	for range 5 {
		must(t, r.Tick(0.1))
	}
	st := r.Schedule().Stats(time.Minute)
	if len(st) != 2 || st[0].Name != "slow" || st[1].Name != "fast" {
		t.Fatalf("Stats %+v", st)
	}
	if st[0].Runs != 5 || st[0].Samples != 5 || st[0].P50 < 2*time.Millisecond || st[0].P99 < st[0].P50 || st[0].Max < st[0].P99 || st[0].Last <= 0 {
		t.Errorf("slow: %+v", st[0])
	}
	if st[1].P50 >= st[0].P50 {
		t.Errorf("fast %v not faster than slow %v", st[1].P50, st[0].P50)
	}
	time.Sleep(20 * time.Millisecond)
	if st := r.Schedule().Stats(10 * time.Millisecond); st[0].Samples != 0 || st[0].Runs != 5 || st[0].Last <= 0 {
		t.Errorf("a window with no runs: %+v", st[0])
	}
	table := r.Schedule().String()
	for _, want := range []string{"workers:", "physics", "every fixed step of 0.01667 s (60 Hz)", "slow", "exclusive (undeclared)"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestPeriodsFit: tick rates, fixed steps and intervals whose period is
// longer than a day are refused, with why (issue 32: -hz 1e-10
// overflowed time.Duration); CheckTickRate is the one check of a rate.
func TestPeriodsFit(t *testing.T) {
	for _, c := range []struct {
		hz   float64
		want string
	}{
		{60, ""}, {1e6, ""}, {MinTickRate, ""}, {1.2e-5, ""},
		{1e-10, "tick rate 1e-10: its period, 317 years, is longer than a day (the lowest rate is one tick a day, 1.15741e-05 per second)"},
		{1e-5, "tick rate 1e-05: its period, 1.16 days, is longer than a day"},
		{0, "tick rate 0: must be above 0 ticks per second"},
		{-3, "tick rate -3: must be above 0 ticks per second"},
		{math.NaN(), "tick rate NaN: not a finite number of ticks per second"},
		{math.Inf(1), "tick rate +Inf: not a finite number of ticks per second"},
	} {
		err := CheckTickRate(c.hz)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)) {
			t.Errorf("CheckTickRate(%v) = %v, want %q", c.hz, err, c.want)
		}
	}
	_, r := newTestRegistry(t)
	_, err := RegisterSystem(r, "slow", SystemDefinition[struct{}]{Tick: func(*SystemContext, *struct{}) {}})
	must(t, err)
	for _, step := range []float64{MaxPeriod, 0.5, 0} {
		if err := r.Schedule().SetStep(PhasePhysics, step, 1); err != nil {
			t.Errorf("SetStep %v: %v", step, err)
		}
	}
	if err := r.Schedule().SetStep(PhasePhysics, 1e7, 1); err == nil || !strings.Contains(err.Error(), "step 1e+07: must be a number of seconds from 0 to 86400 (a day)") {
		t.Errorf("SetStep of 1e7 s: %v", err)
	}
	if err := r.Schedule().Configure("slow", &Settings{Interval: MaxPeriod}); err != nil {
		t.Errorf("an interval of a day: %v", err)
	}
	if err := r.Schedule().Configure("slow", &Settings{Interval: 1e8}); err == nil || !strings.Contains(err.Error(), "interval 1e+08: must be a number of seconds from 0 to 86400") {
		t.Errorf("an interval of 1e8 s: %v", err)
	}
}
