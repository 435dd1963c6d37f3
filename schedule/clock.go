package schedule

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/scenecs/scenecs/internal/didyoumean"
)

// MaxPeriod is the longest period, in seconds, that a tick may have: a
// day. It bounds a fixed step ([Schedule.SetStep]) and an interval
// ([Settings].Interval) from above, and a tick rate from below (see
// registry.CheckTickRate). A longer period means nothing for a scene,
// and in nanoseconds it would soon overflow a time.Duration.
const MaxPeriod = 86400.0

// checkPeriod returns an error unless seconds is 0 or more and at most
// MaxPeriod: a fixed step or an interval.
func checkPeriod(seconds float64) error {
	if !(seconds >= 0) || seconds > MaxPeriod {
		return fmt.Errorf("%v: must be a number of seconds from 0 to %v (a day)", seconds, MaxPeriod)
	}
	return nil
}

// clock is the scene time: the one clock of a schedule, which its ticks
// move and every hook reads. It is counted as ticks of a step since a
// base (base + ticks·step, rebased when the step changes), so that 30
// ticks at 60 Hz are 0.5 s exactly, as the animations count, and a World
// resumed from its Clock goes on with the very same numbers.
type clock struct {
	now               float64 // the scene time
	delta             float64 // the last tick's time step
	base, ticks, step float64
}

// advance moves the scene time on by a tick of dt seconds.
func (c *clock) advance(dt float64) {
	if dt != c.step {
		c.base += c.ticks * c.step
		c.ticks, c.step = 0, dt
	}
	c.ticks++
	c.now = c.base + c.ticks*c.step
	c.delta = dt
}

// Time returns the scene time in seconds: the sum of the time steps
// given to Tick (registry.Registry.Time is this).
func (s *Schedule) Time() float64 { return s.clock.now }

// Delta returns the time step of the last tick in seconds (0 before
// any): the Delta of hooks that run outside the schedule's runs.
func (s *Schedule) Delta() float64 { return s.clock.delta }

// Clock is a schedule's scene time with the clocks of its fixed-step
// phases: what a World resumed elsewhere (a room from its snapshot) needs
// to go on where it was, so that expressions reading time and the fixed
// steps continue rather than start over, with the same numbers.
type Clock struct {
	// Time is the scene time in seconds ([Schedule.Time]): Base + Ticks ×
	// Step, as it is counted.
	Time  float64 `json:"time"`
	Base  float64 `json:"base,omitempty"`
	Ticks float64 `json:"ticks,omitempty"`
	Step  float64 `json:"step,omitempty"`
	// Fixed holds, by phase, a fixed-step phase's clock (its steps times
	// its step) and the time it accumulated not stepped yet.
	Fixed map[string][2]float64 `json:"fixed,omitempty"`
}

// Clock returns the scene time and the fixed-step phases' clocks.
func (s *Schedule) Clock() Clock {
	k := &s.clock
	c := Clock{Time: k.now, Base: k.base, Ticks: k.ticks, Step: k.step}
	for i, ps := range s.phases {
		if ps.step != 0 {
			if c.Fixed == nil {
				c.Fixed = map[string][2]float64{}
			}
			c.Fixed[phaseNames[i]] = [2]float64{ps.time, ps.acc}
		}
	}
	return c
}

// SetClock sets the scene time and the fixed-step phases' clocks, as
// Clock returned them (a Clock of a Time alone counts on from it; a
// phase c does not name starts its clock at c.Time with nothing
// accumulated). Not during a tick.
func (s *Schedule) SetClock(c Clock) error {
	if s.busy {
		return errors.New("registry: SetClock during a tick")
	}
	if math.IsNaN(c.Time) || math.IsInf(c.Time, 0) {
		return fmt.Errorf("registry: SetClock: the time %v is not a finite number of seconds", c.Time)
	}
	k := &s.clock
	k.now, k.base, k.ticks, k.step = c.Time, c.Time, 0, 0
	if c.Step != 0 && c.Base+c.Ticks*c.Step == c.Time {
		k.base, k.ticks, k.step = c.Base, c.Ticks, c.Step
	}
	for i := range s.phases {
		ps := &s.phases[i]
		ps.time, ps.acc = c.Time, 0
		if f, ok := c.Fixed[phaseNames[i]]; ok {
			ps.time, ps.acc = f[0], max(f[1], 0)
		}
	}
	return nil
}

// SetStep makes phase a fixed-step phase that runs once per step of step
// seconds of accumulated scene time, at most maxSteps times per tick (the
// backlog beyond is dropped), or, with step 0, a phase that runs once per
// tick with the tick's time step. The physics phase has a step of 1/60 s
// and 8 steps at most until configured (the physics system sets it from
// its configuration). A step longer than [MaxPeriod] (a day) is refused.
func (s *Schedule) SetStep(phase string, step float64, maxSteps int) error {
	i := slices.Index(phaseNames[:], phase)
	if i < 0 {
		return fmt.Errorf("registry: SetStep: unknown phase %q%s", phase, didyoumean.Hint(phase, phaseNames[:]))
	}
	if err := checkPeriod(step); err != nil {
		return fmt.Errorf("registry: SetStep %s: step %w", phase, err)
	}
	if step > 0 && maxSteps < 1 {
		return fmt.Errorf("registry: SetStep %s: maxSteps %d must be at least 1", phase, maxSteps)
	}
	ps := &s.phases[i]
	switch {
	case step == 0:
		ps.acc = 0 // a phase that runs once per tick accumulates nothing
	case ps.acc >= step:
		ps.acc = math.Mod(ps.acc, step)
	}
	// Otherwise the time accumulated and not stepped yet carries over: a
	// resumed room's clock (SetClock) is set before its physics system
	// starts and sets its step, and the snapshot's part of a step must
	// survive that (it was dropped, and the resumed room ran a step
	// behind).
	ps.step, ps.maxSteps = step, maxSteps
	return nil
}

// Step returns the fixed step of phase and the most steps it takes per
// tick (0, 0 for a phase that runs once per tick or an unknown one).
func (s *Schedule) Step(phase string) (step float64, maxSteps int) {
	i := slices.Index(phaseNames[:], phase)
	if i < 0 || s.phases[i].step == 0 {
		return 0, 0
	}
	return s.phases[i].step, s.phases[i].maxSteps
}

// Alpha returns how far a fixed-step phase is into its next step: the
// accumulated time not yet stepped over the step, in [0, 1). A renderer
// interpolates between the last two steps' states with it; the state
// itself (dumps, queries) is always the last step's. 0 for a phase that
// is not fixed-step.
func (s *Schedule) Alpha(phase string) float64 {
	i := slices.Index(phaseNames[:], phase)
	if i < 0 || s.phases[i].step == 0 {
		return 0
	}
	return s.phases[i].acc / s.phases[i].step
}
