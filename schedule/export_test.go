package schedule

// FixedLoopTick is [Schedule.fixedLoopTick] for the external benchmarks: a
// function, not a method, so that it stays out of the Schedule's API.
var FixedLoopTick = (*Schedule).fixedLoopTick

// fixedLoopTick is a tick without the schedule's machinery, the baseline
// of the overhead benchmarks: the loop before the schedule (every hook,
// in the same order, run directly on the calling goroutine, with the
// World as it is), keeping only what the same result needs (the clock,
// the phases' fixed steps, the rates, each unit's command buffer applied
// after it). No host calls but TakeErrors, no batches, no frozen World,
// no timings.
func (s *Schedule) fixedLoopTick(dt float64) error {
	if err := s.prepare(); err != nil {
		return err
	}
	s.busy = true
	defer s.endTick()
	s.clock.advance(dt)
	for i := range phaseNames {
		ps := &s.phases[i]
		if ps.step == 0 {
			ps.time = s.clock.now
			s.fixedLoopPhase(i, dt, ps.time, 0, 1)
			continue
		}
		ps.acc += dt
		steps := 0
		for ps.acc >= ps.step*(1-1e-9) && steps < ps.maxSteps {
			ps.acc -= ps.step
			steps++
		}
		if steps == ps.maxSteps || ps.acc < 0 {
			ps.acc = 0
		}
		for k := range steps {
			ps.time += ps.step
			s.fixedLoopPhase(i, ps.step, ps.time, k, steps)
		}
	}
	return s.host.TakeErrors()
}

// fixedLoopPhase runs the due entries of phase i one by one.
func (s *Schedule) fixedLoopPhase(i int, delta, now float64, k, n int) {
	x := &s.exec
	for _, b := range s.plan.phases[i] {
		for _, e := range b.entries {
			d, ok := e.due(delta)
			if !ok {
				continue
			}
			x.units = x.units[:0]
			s.addUnits(e, d, now, k, n)
			for j := range x.units {
				u := &x.units[j]
				u.Parallel = false
				e.node.n.Run(&u.Unit)
				s.w.Apply(u.Commands)
			}
		}
	}
}
