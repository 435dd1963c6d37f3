package registry

import (
	"math"
	"strings"
	"testing"
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
