package schedule

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// Chunk is one chunk of a chunked node's tick ([Node.Split]): rows of
// one of its queries.
type Chunk struct {
	// Rows are the chunk's rows.
	Rows ecs.Chunk
	// Part says which of the node's queries the rows are of (a
	// component's instance, say), for the node's Run.
	Part int
}

// Unit is one piece of a batch's work that a [Node] runs ([Node.Run]):
// a node's whole tick or tock, or one chunk of a chunked node's tick.
// Each has its own command buffer, so that units may run on any worker
// and their changes apply in unit order, whatever ran where.
type Unit struct {
	// Time is the scene time (for a fixed-step phase, its clock: steps ×
	// step) and Delta the time since the node last ran (the tick's time
	// step, or the fixed step), in seconds.
	Time, Delta float64
	// Step counts the runs of the node's phase in this tick from 0, and
	// Steps says how many there are: 0 and 1 except in a fixed-step phase
	// that steps several times per tick.
	Step, Steps int
	// Tock reports the node's tock; else its tick runs.
	Tock bool
	// Whole reports a unit of the whole tick or tock; else it is Chunk,
	// the Index-th chunk of this run (a node that keeps state per unit,
	// such as a context for its hooks, keeps one per Index: units of
	// one run may run at the same time).
	Whole bool
	Chunk Chunk
	Index int
	// Commands is the unit's buffer of structural changes, applied at
	// the end of its batch, in unit order.
	Commands *ecs.Commands
	// Mask holds the columns the node's declared access lets its queries
	// use (nil: any).
	Mask *ecs.Mask
	// Parallel reports a unit that runs under the parallel rules (see
	// [Access]): the World is frozen, the node's changes go through
	// Commands. Else the node runs alone, with the World as a serial
	// program has it.
	Parallel bool
}

// unit is a Unit with what the schedule keeps of its run.
type unit struct {
	Unit
	e     *entry
	dur   int64
	pv    any // what it panicked with, and where (see runSafe)
	stack []byte
	panic bool
}

// executor holds the buffers of batch runs, reused from tick to tick.
type executor struct {
	units  []unit
	chunks []Chunk
	cmds   []*ecs.Commands // the units' buffers, by unit index
}

// ErrReentrantTick is returned by a Tick called while a Tick is running,
// from a tick or tock hook of a node (or a hook the Tick's
// [Host].Start ran, such as a system's Init or Update), and by RunOnce
// and SetClock there.
var ErrReentrantTick = errors.New("registry: Tick called from inside a Tick (a tick hook cannot tick the scene)")

// A PanicError is a panic recovered during [Schedule.Tick] (or
// [Schedule.RunOnce]): a node's hook that panicked. Tick returns it with
// the tick's other errors; find it with errors.As. For example:
//
//	registry: behaviour panicked: events: Events.Emit from a system running under the parallel rules ...
type PanicError struct {
	// Name is the schedule entry that panicked (a system's or
	// component's name, "spin.tock" for a tock), or "Tick" for a panic
	// outside any (a hook run while a batch's changes were applied).
	Name string
	// Value is what it panicked with; Stack the goroutine's stack then.
	Value any
	Stack []byte
	// Locked reports that the World was left locked: the hook opened a
	// query and did not close it (see [ecs.Query.Close]); structural
	// changes wait until it is.
	Locked bool
}

// Error formats the error as described on [PanicError]; the stack is
// left out.
func (e *PanicError) Error() string {
	msg := fmt.Sprintf("registry: %s panicked: %v", e.Name, e.Value)
	if e.Locked {
		msg += " (the World was left locked: a query it opened was not closed)"
	}
	return msg
}

// Unwrap returns what it panicked with, if that was an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Tick advances the scene by dt seconds (a registry's Tick is this): inside it, the host starts what must start ([Host].Start); then
// the clock moves on by dt and every phase runs (a fixed-step phase as
// many times as whole steps have accumulated), each phase's nodes in
// their order, those whose access does not conflict side by side on the
// workers. It returns, joined, the errors of Start, the error that stops
// the schedule ([Schedule.Err]: nothing runs, the clock stays), and the
// host's errors ([Host].TakeErrors), among them a [*PanicError] for each
// hook that panicked (its commands dropped; the other nodes run on). A
// panic elsewhere in the tick ends it with a PanicError named "Tick". A
// dt that is NaN or infinite is refused, as is a Tick from inside a
// running one ([ErrReentrantTick]).
func (s *Schedule) Tick(dt float64) (err error) {
	if s.busy || s.running {
		return ErrReentrantTick
	}
	if math.IsNaN(dt) || math.IsInf(dt, 0) {
		return fmt.Errorf("registry: Tick(%v): the time step must be a finite number of seconds", dt)
	}
	s.busy = true
	defer s.endTick()
	s.host.Begin("tick")
	defer s.host.End()
	defer func() {
		if v := recover(); v != nil {
			err = errors.Join(err, &PanicError{Name: "Tick", Value: v, Stack: debug.Stack(), Locked: s.w.Locked()}, s.host.TakeErrors())
		}
	}()
	run, err := s.host.Start()
	if !run {
		return errors.Join(err, s.host.TakeErrors())
	}
	if serr := s.prepare(); serr != nil {
		return errors.Join(err, serr, s.host.TakeErrors())
	}
	s.clock.advance(dt)
	s.run(dt)
	return errors.Join(err, s.host.TakeErrors())
}

// endTick ends a Tick or RunOnce, also one a hook panicked out of.
func (s *Schedule) endTick() { s.busy = false }

// run runs every phase of one tick of dt seconds (the clock already
// moved).
func (s *Schedule) run(dt float64) {
	p := s.plan
	s.lastEnd = monoNow()
	for i := range phaseNames {
		ps := &s.phases[i]
		if ps.step == 0 {
			ps.time = s.clock.now
			ps.runs++
			s.runPhase(p.phases[i], dt, ps.time, 0, 1)
			continue
		}
		ps.acc += dt
		steps := 0
		for ps.acc >= ps.step*(1-1e-9) && steps < ps.maxSteps {
			ps.acc -= ps.step
			steps++
		}
		if steps == ps.maxSteps {
			ps.acc = 0 // too far behind: drop the backlog
		}
		if ps.acc < 0 {
			ps.acc = 0
		}
		for k := 0; k < steps; k++ {
			ps.time += ps.step
			ps.runs++
			s.runPhase(p.phases[i], ps.step, ps.time, k, steps)
		}
	}
}

// runPhase runs one run of a phase: its batches in order.
func (s *Schedule) runPhase(bs []batch, delta, now float64, k, n int) {
	for bi := range bs {
		s.runBatch(&bs[bi], delta, now, k, n)
	}
}

// due reports whether e runs in this run of its phase, and with which
// delta (the time since it last ran).
func (e *entry) due(delta float64) (float64, bool) {
	if e.disabled || (e.node.sys && !e.node.n.Ready()) {
		e.since, e.count = 0, 0
		return 0, false
	}
	e.since += delta
	e.count++
	if e.every > 1 && e.count < e.every {
		return 0, false
	}
	if e.interval > 0 && e.since < e.interval*(1-1e-9) {
		return 0, false
	}
	d := e.since
	e.since, e.count = 0, 0
	return d, true
}

// runBatch runs the due entries of a batch: an exclusive one as it is;
// the others with the World frozen, on the workers if the batch has
// enough work for more than one, then applies their commands in order.
func (s *Schedule) runBatch(b *batch, delta, now float64, k, n int) {
	x := &s.exec
	x.units = x.units[:0]
	for _, e := range b.entries {
		if d, ok := e.due(delta); ok {
			s.addUnits(e, d, now, k, n)
		}
	}
	if len(x.units) == 0 {
		return
	}
	if b.excl {
		s.runExclusive(&x.units[0])
		return
	}
	s.runFrozen(x.units)
}

// runExclusive runs an exclusive entry on the calling goroutine, with the
// World as it is, then applies its commands. Its time runs from the
// previous batch's end (s.lastEnd: one clock read per batch, the
// schedule's bookkeeping between them counted in) to the end of its
// commands.
func (s *Schedule) runExclusive(u *unit) {
	t0 := s.lastEnd
	s.runSafe(u)
	s.reportPanic(u)
	s.w.Apply(u.Commands)
	s.lastEnd = monoNow()
	u.dur = s.lastEnd - t0
	s.record(s.exec.units, t0)
}

// runFrozen runs units with the World frozen, in parallel when worth it,
// and applies their commands in unit order. A unit that panics is
// reported once every unit is done and the World thawed (see
// reportPanic); its commands are dropped, the others' applied.
func (s *Schedule) runFrozen(units []unit) {
	w := s.w
	t0 := s.lastEnd // see runExclusive
	w.Freeze()
	s.running = true
	thaw := func() {
		if w.Frozen() {
			w.Thaw()
		}
		s.running = false
	}
	defer thaw()
	var est int64
	for i := range units {
		if units[i].Whole || i == 0 || units[i].e != units[i-1].e {
			est += units[i].e.est
		}
	}
	if len(units) > 1 && est >= s.minSplit && s.spread() {
		s.runParallel(units)
	} else {
		// One clock read per unit: each ends when the next starts (the
		// first when the batch did, its freeze counted in).
		t := t0
		for i := range units {
			u := &units[i]
			s.runSafe(u)
			now := monoNow()
			u.dur = now - t
			t = now
		}
	}
	thaw()
	for i := range units {
		s.reportPanic(&units[i])
	}
	for i := range units {
		w.Apply(units[i].Commands)
	}
	s.lastEnd = monoNow()
	s.record(units, t0)
}

// spread reports whether batches may go to other goroutines: more than
// one worker, and more than one processor to run them (with GOMAXPROCS
// 1, other goroutines would only take turns with the calling one).
func (s *Schedule) spread() bool {
	if s.workers <= 1 {
		return false
	}
	s.procs = runtime.GOMAXPROCS(0)
	return s.procs > 1
}

// runParallel runs units on min(workers, GOMAXPROCS, len(units))
// goroutines, the calling one among them, each taking the next unit in
// order.
func (s *Schedule) runParallel(units []unit) {
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(units) {
				return
			}
			u := &units[i]
			t := monoNow()
			s.runSafe(u)
			u.dur = monoNow() - t
		}
	}
	var wg sync.WaitGroup
	for range min(s.workers, s.procs, len(units)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// monoEpoch is the origin of monoNow.
var monoEpoch = time.Now()

// monoNow returns the nanoseconds since monoEpoch by the monotonic clock:
// one clock read (time.Now reads the wall clock too), the clock of the
// schedule's timings (not the scene's: see [Schedule.Time]).
func monoNow() int64 { return int64(time.Since(monoEpoch)) }

// record adds the time of each entry of units (the sum of its units') to
// its statistics.
func (s *Schedule) record(units []unit, now int64) {
	for i := 0; i < len(units); {
		e := units[i].e
		var d int64
		j := i
		for ; j < len(units) && units[j].e == e; j++ {
			d += units[j].dur
		}
		e.est = (e.est*3 + d) / 4
		e.stats.add(now, d)
		i = j
	}
}

// addUnits adds the units of one run of e (run k of steps of its phase
// in this tick): one, or one per chunk of a chunked entry's query.
func (s *Schedule) addUnits(e *entry, delta, now float64, k, steps int) {
	x := &s.exec
	newUnit := func() *unit {
		i := len(x.units)
		if i == len(x.cmds) {
			x.cmds = append(x.cmds, new(ecs.Commands))
		}
		x.cmds[i].Reset() // left full by a panic
		x.units = append(x.units, unit{e: e, Unit: Unit{Time: now, Delta: delta, Step: k, Steps: steps, Tock: e.tock,
			Whole: true, Commands: x.cmds[i], Mask: e.mask, Parallel: !e.excl}})
		return &x.units[i]
	}
	chunk := e.node.chunk
	if chunk <= 0 || e.tock {
		newUnit()
		return
	}
	x.chunks = e.node.n.Split(chunk, x.chunks[:0])
	for i, c := range x.chunks {
		u := newUnit()
		u.Chunk, u.Index, u.Whole = c, i, false
	}
}

// runSafe runs u, recording a panic in it instead of letting it unwind
// the schedule (the hooks close their queries on the way out).
func (s *Schedule) runSafe(u *unit) {
	defer func() {
		if v := recover(); v != nil {
			u.pv, u.stack, u.panic = v, debug.Stack(), true
		}
	}()
	u.e.node.n.Run(&u.Unit)
}

// reportPanic reports u's panic, if it had one, as a *PanicError (Tick
// returns it) and drops its commands.
func (s *Schedule) reportPanic(u *unit) {
	if u.panic {
		u.Commands.Reset()
		s.host.Report(&PanicError{Name: u.e.name, Value: u.pv, Stack: u.stack, Locked: s.w.Locked()})
		u.pv, u.stack, u.panic = nil, nil, false
	}
}

// RunOnce runs the node called name (or one entry of it, "spin.tock")
// once now, as one run of its phase would, enabled or not and whatever
// its rate, with the phase's fixed step (or the last tick's time step,
// or 1/60 s before any) as its delta; the scene's time does not move.
// The inspector's "step one system" is this. It may not be called from
// inside a Tick.
func (s *Schedule) RunOnce(name string) error {
	if s.busy || s.running {
		return ErrReentrantTick
	}
	if err := s.prepare(); err != nil {
		return err
	}
	var es []*entry
	for _, e := range s.plan.entries {
		if e.name == name || e.node.name == name {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return fmt.Errorf("registry: schedule: no system or component tick named %q%s", name, didyoumean.Hint(name, s.Names()))
	}
	if n := es[0].node; n.sys && !n.n.Ready() {
		return fmt.Errorf("registry: schedule: system %q has not started", name)
	}
	s.busy = true
	defer s.endTick()
	s.host.Begin("run of " + name)
	defer s.host.End()
	for _, e := range es {
		ps := &s.phases[e.phase]
		delta := ps.step
		if delta == 0 {
			delta = s.clock.delta
		}
		if delta == 0 {
			delta = defaultFixedStep
		}
		now := ps.time
		if ps.step == 0 {
			now = s.clock.now
		}
		s.exec.units = s.exec.units[:0]
		s.lastEnd = monoNow()
		s.addUnits(e, delta, now, 0, 1)
		if len(s.exec.units) == 0 {
			continue
		}
		if e.excl {
			s.runExclusive(&s.exec.units[0])
		} else {
			s.runFrozen(s.exec.units)
		}
	}
	return nil
}
