package schedule

import "strings"

// SystemInfo describes one entry of the schedule: a system's tick (or
// tock), or a component's.
type SystemInfo struct {
	// Name is the system's or component's name, with ".tock" for the
	// tock of one that also ticks.
	Name string
	// Kind is "system" or "component"; Hook "tick" or "tock".
	Kind, Hook string
	// Phase is the phase it runs in; Order its place in the run order
	// (of every phase); Batch the index of its batch in its phase:
	// entries of one batch may run at the same time.
	Phase        string
	Order, Batch int
	// Before and After are its constraints as declared.
	Before, After []string
	// Declared reports declared access; Reads and Writes are it.
	// Exclusive reports one that runs alone (declared so, or
	// undeclared); Parallel one that runs under the parallel rules.
	Declared      bool
	Reads, Writes []string
	Exclusive     bool
	// Every and Interval are its rate; ChunkSize the rows per chunk of
	// a chunked one (0: not chunked).
	Every     int
	Interval  float64
	ChunkSize int
	// Enabled is false for one turned off ([Schedule.SetEnabled]).
	Enabled bool
}

// Systems returns the schedule's entries in run order (the error that
// stops it, if any, with none).
func (s *Schedule) Systems() ([]SystemInfo, error) {
	if err := s.prepare(); err != nil {
		return nil, err
	}
	out := make([]SystemInfo, 0, len(s.plan.entries))
	for _, e := range s.plan.entries {
		set := e.node.settings()
		si := SystemInfo{
			Name: e.name, Kind: e.node.kind(), Hook: "tick", Phase: phaseNames[e.phase],
			Order: e.order, Batch: e.batch,
			Before: append([]string(nil), set.Before...), After: append([]string(nil), set.After...),
			Declared: e.acc != nil, Exclusive: e.excl,
			Every: e.every, Interval: e.interval, Enabled: !e.disabled,
		}
		if e.tock {
			si.Hook = "tock"
		} else {
			si.ChunkSize = e.node.chunk
		}
		if e.acc != nil {
			si.Reads, si.Writes = append([]string(nil), e.acc.reads...), append([]string(nil), e.acc.writes...)
		}
		out = append(out, si)
	}
	return out, nil
}

// PhaseInfo describes a phase.
type PhaseInfo struct {
	// Name is the phase's name.
	Name string
	// Step is its fixed step in seconds (0: it runs once per tick, with
	// the tick's time step) and MaxSteps the most steps per tick.
	Step     float64
	MaxSteps int
	// Time is its clock (for a fixed phase, steps × step), Alpha how far
	// it is into its next step ([Schedule.Alpha]), Runs how many times it
	// ran.
	Time, Alpha float64
	Runs        uint64
}

// Phases returns the phases in order.
func (s *Schedule) Phases() []PhaseInfo {
	out := make([]PhaseInfo, len(phaseNames))
	for i, name := range phaseNames {
		ps := &s.phases[i]
		out[i] = PhaseInfo{Name: name, Step: ps.step, MaxSteps: ps.maxSteps, Time: ps.time, Alpha: s.Alpha(name), Runs: ps.runs}
		if ps.step == 0 {
			out[i].MaxSteps = 0
		}
	}
	return out
}

// String prints the schedule as a table, one line per entry in run order,
// as scene-run schedule does.
func (s *Schedule) String() string {
	var b strings.Builder
	if err := s.WriteTable(&b, 0); err != nil {
		return err.Error()
	}
	return b.String()
}
