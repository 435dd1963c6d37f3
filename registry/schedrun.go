package registry

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// unit is one piece of a batch's work: an entry's whole run, or one chunk
// of a chunked entry's query. Each has its own context and command
// buffer, so that units may run on any worker and their changes apply in
// unit order, whatever ran where.
type unit struct {
	e     *entry
	chunk ecs.Chunk
	id    ecs.ID // the instance a component chunk belongs to
	whole bool   // not a chunk
	cmds  *ecs.Commands
	cx    Context
	sc    SystemContext
	dur   int64
	pv    any // what it panicked with, and where (see runSafe)
	stack []byte
	panic bool
}

// executor holds the buffers of batch runs, reused from tick to tick.
type executor struct {
	units  []unit
	chunks []ecs.Chunk
	cmds   []*ecs.Commands // the units' buffers, by unit index
}

// run runs every phase of one tick of dt seconds (r.time already moved).
func (s *Schedule) run(dt float64) {
	p := s.plan
	s.clock = monoNow()
	for i := range phaseNames {
		ps := &s.phases[i]
		if ps.step == 0 {
			ps.time = s.r.time
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
	if e.disabled || (e.node.sys != nil && !e.node.sys.started) {
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
// previous batch's end (s.clock: one clock read per batch, the
// schedule's bookkeeping between them counted in) to the end of its
// commands.
func (s *Schedule) runExclusive(u *unit) {
	t0 := s.clock
	s.runSafe(u)
	s.reportPanic(u)
	s.r.w.Apply(u.cmds)
	s.clock = monoNow()
	u.dur = s.clock - t0
	s.record(s.exec.units, t0)
}

// runFrozen runs units with the World frozen, in parallel when worth it,
// and applies their commands in unit order. A unit that panics is
// reported once every unit is done and the World thawed (see
// reportPanics); its commands are dropped, the others' applied.
func (s *Schedule) runFrozen(units []unit) {
	w := s.r.w
	t0 := s.clock // see runExclusive
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
		if units[i].whole || i == 0 || units[i].e != units[i-1].e {
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
		w.Apply(units[i].cmds)
	}
	s.clock = monoNow()
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
// one clock read (time.Now reads the wall clock too), the schedule's
// timings' clock.
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
	r := s.r
	restricted := !e.excl
	newUnit := func() *unit {
		i := len(x.units)
		if i == len(x.cmds) {
			x.cmds = append(x.cmds, new(ecs.Commands))
		}
		x.cmds[i].Reset() // left full by a panic
		x.units = append(x.units, unit{e: e, whole: true, cmds: x.cmds[i]})
		u := &x.units[i]
		if sys := e.node.sys; sys != nil {
			u.sc = SystemContext{Registry: r, World: r.w, System: sys, Time: now, Delta: delta, Step: k, Steps: steps,
				cmds: u.cmds, entry: e, restricted: restricted}
		} else {
			u.cx = Context{Registry: r, World: r.w, Time: now, Delta: delta, cmds: u.cmds, restricted: restricted}
		}
		return u
	}
	chunk := e.node.chunk
	if chunk <= 0 || e.tock {
		newUnit()
		return
	}
	if sys := e.node.sys; sys != nil {
		if sys.filter == nil {
			return
		}
		x.chunks = sys.filter.Chunks(chunk, x.chunks[:0])
		for _, c := range x.chunks {
			u := newUnit()
			u.chunk, u.whole = c, false
		}
		return
	}
	for _, tf := range e.node.comp.filters {
		x.chunks = tf.f.Chunks(chunk, x.chunks[:0])
		for _, c := range x.chunks {
			u := newUnit()
			u.chunk, u.id, u.whole = c, tf.id, false
		}
	}
}

// runUnit runs one unit on the calling goroutine.
func (s *Schedule) runUnit(u *unit) {
	e := u.e
	if sys := e.node.sys; sys != nil {
		switch {
		case e.tock:
			sys.tock(&u.sc, sys.data)
		case sys.each != nil && !u.whole:
			q := u.chunk.Query(e.mask)
			defer q.Close()
			sys.each(&u.sc, sys.data, &q)
		case sys.each != nil:
			q := sys.filter.Query()
			if e.mask != nil && !e.excl {
				q.Close()
				q = sys.filter.QueryOnly(*e.mask)
			}
			defer q.Close()
			sys.each(&u.sc, sys.data, &q)
		default:
			sys.tick(&u.sc, sys.data)
		}
		return
	}
	c := e.node.comp
	hook := c.hooks.tick
	if e.tock {
		hook = c.hooks.tock
	}
	if !u.whole {
		q := u.chunk.Query(nil)
		u.cx.ID, u.cx.Name = u.id, s.r.nameOf(u.id)
		runHook(hook, &u.cx, u.id, &q)
		return
	}
	for _, tf := range c.filters {
		q := tf.f.Query()
		u.cx.ID, u.cx.Name = tf.id, s.r.nameOf(tf.id)
		runHook(hook, &u.cx, tf.id, &q)
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
	s.runUnit(u)
}

// reportPanic reports u's panic, if it had one, as a *PanicError (Tick
// returns it) and drops its commands.
func (s *Schedule) reportPanic(u *unit) {
	if u.panic {
		u.cmds.Reset()
		s.r.ReportError(&PanicError{Name: u.e.name, Value: u.pv, Stack: u.stack, Locked: s.r.w.Locked()})
		u.pv, u.stack, u.panic = nil, nil, false
	}
}

// runHook calls a component's tick or tock hook over q and closes q on
// the way out, also when the hook panics.
func runHook(hook func(*Context, ecs.ID, *ecs.Query), cx *Context, id ecs.ID, q *ecs.Query) {
	defer func() { q.Close(); cx.q = nil }()
	cx.q, cx.Entity = q, ecs.Entity{}
	hook(cx, id, q)
}

// RunOnce runs the system or component tick called name (or one entry of
// it, "spin.tock") once now, as one run of its phase would, enabled or
// not and whatever its rate, with the phase's fixed step (or the last
// tick's time step, or 1/60 s before any) as its delta; the scene's time
// does not move. The inspector's "step one system" is this. It may not be
// called from inside a Tick.
func (s *Schedule) RunOnce(name string) error {
	if s.r.inTick || s.running {
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
	if sys := es[0].node.sys; sys != nil && !sys.started {
		return fmt.Errorf("registry: schedule: system %q has not started", name)
	}
	s.r.inTick = true
	defer s.r.endTick()
	defer s.r.events.CloseWindow(s.r.events.OpenWindow("run of " + name))
	for _, e := range es {
		ps := &s.phases[e.phase]
		delta := ps.step
		if delta == 0 {
			delta = s.r.delta
		}
		if delta == 0 {
			delta = defaultFixedStep
		}
		now := ps.time
		if ps.step == 0 {
			now = s.r.time
		}
		s.exec.units = s.exec.units[:0]
		s.clock = monoNow()
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
