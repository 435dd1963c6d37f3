package schedule

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
)

// timeLog adds a node that logs "time/delta" of each of its runs into
// logs[name].
func timeLog(t *testing.T, s *Schedule, logs map[string][]string, name string, set Settings) {
	t.Helper()
	must(t, s.Add(&testNode{info: Info{Name: name, Tick: true, Settings: set}, run: func(u *Unit) {
		logs[name] = append(logs[name], fmt.Sprintf("%.2f/%.2f", u.Time, u.Delta))
	}}))
}

// TestRates: Every N runs a node on every Nth run of its phase, Interval
// when that much time has passed; Delta is the time since the last run.
// Disabled, a node is skipped (its time does not pile up); RunOnce runs
// it anyway. Bad rates are refused.
func TestRates(t *testing.T) {
	s, _, _ := newTest(t)
	logs := map[string][]string{}
	timeLog(t, s, logs, "every3", Settings{Every: 3})
	timeLog(t, s, logs, "half", Settings{Interval: 0.25})
	timeLog(t, s, logs, "each", Settings{})
	for range 7 {
		must(t, s.Tick(0.1))
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
	must(t, s.SetEnabled("each", false))
	if s.Enabled("each") {
		t.Error("Enabled after SetEnabled false")
	}
	must(t, s.Tick(0.1))
	must(t, s.Tick(0.1))
	if len(logs["each"]) != 0 {
		t.Errorf("disabled node ran: %v", logs["each"])
	}
	must(t, s.RunOnce("each"))
	must(t, s.SetEnabled("each", true))
	must(t, s.Tick(0.1))
	if got := strings.Join(logs["each"], " "); got != "0.90/0.10 1.00/0.10" {
		t.Errorf("RunOnce then enabled: %s", got)
	}
	if err := s.RunOnce("eahc"); err == nil || !strings.Contains(err.Error(), `(did you mean "each"?)`) {
		t.Errorf("RunOnce unknown: %v", err)
	}
	if err := s.SetEnabled("nope", false); err == nil {
		t.Error("SetEnabled of an unknown name")
	}
	for _, bad := range []Settings{{Every: -1}, {Interval: -1}, {Interval: math.Inf(1)}} {
		if err := s.Add(&testNode{info: Info{Name: "bad", Tick: true, Settings: bad}}); err == nil {
			t.Errorf("bad rate %+v accepted", bad)
		}
	}
}

// TestNotReadyNodes: a node that is not ready is skipped as a disabled
// one is, its time not piling up, and RunOnce refuses it.
func TestNotReadyNodes(t *testing.T) {
	s, _, rec := newTest(t)
	n := add(t, s, rec, "late", false, false, Settings{Every: 2})
	n.notReady = true
	must(t, s.Tick(0.1))
	must(t, s.Tick(0.1))
	if err := s.RunOnce("late"); err == nil || !strings.Contains(err.Error(), `system "late" has not started`) {
		t.Errorf("RunOnce of a node not ready: %v", err)
	}
	n.notReady = false
	must(t, s.Tick(0.1))
	if got := rec.take(); got != "" {
		t.Errorf("ran %q on its first ready run of every 2", got)
	}
	must(t, s.Tick(0.1))
	if got := rec.take(); got != "late" {
		t.Errorf("second ready run: %q", got)
	}
}

// TestRunOnceInsideTickRefused: RunOnce, Tick and SetClock from a node's
// run are refused as reentrant.
func TestRunOnceInsideTickRefused(t *testing.T) {
	s, _, _ := newTest(t)
	var errs []error
	must(t, s.Add(&testNode{info: Info{Name: "a", Tick: true}, run: func(*Unit) {
		errs = append(errs, s.RunOnce("a"), s.Tick(1), s.SetClock(Clock{Time: 3}))
	}}))
	must(t, s.Tick(0.1))
	if len(errs) != 3 || !errors.Is(errs[0], ErrReentrantTick) || !errors.Is(errs[1], ErrReentrantTick) || errs[2] == nil {
		t.Errorf("inside Tick: %v", errs)
	}
	if s.Time() != 0.1 {
		t.Errorf("time %v after one tick of 0.1", s.Time())
	}
}

// TestScheduleStats: every run is timed; Stats gives the runs, and the
// median and 99th percentile of those in the window, in run order.
func TestScheduleStats(t *testing.T) {
	s, _, _ := newTest(t)
	for _, name := range []string{"slow", "fast"} {
		sleep := time.Duration(0)
		if name == "slow" {
			// 20 ms: the no-op "fast" is slower only if descheduled for
			// longer than that in most of its runs, which a busy machine
			// does not do.
			sleep = 20 * time.Millisecond
		}
		must(t, s.Add(&testNode{info: Info{Name: name, Tick: true}, run: func(*Unit) { time.Sleep(sleep) }}))
	}
	for range 5 {
		must(t, s.Tick(0.1))
	}
	st := s.Stats(time.Minute)
	if len(st) != 2 || st[0].Name != "slow" || st[1].Name != "fast" {
		t.Fatalf("Stats %+v", st)
	}
	if st[0].Runs != 5 || st[0].Samples != 5 || st[0].P50 < 20*time.Millisecond || st[0].P99 < st[0].P50 || st[0].Max < st[0].P99 || st[0].Last <= 0 {
		t.Errorf("slow: %+v", st[0])
	}
	if st[1].P50 >= st[0].P50 {
		t.Errorf("fast %v not faster than slow %v", st[1].P50, st[0].P50)
	}
	time.Sleep(20 * time.Millisecond) // time passing, not a wait on anything: the last run is 20 ms old at least
	if st := s.Stats(10 * time.Millisecond); st[0].Samples != 0 || st[0].Runs != 5 || st[0].Last <= 0 {
		t.Errorf("a window with no runs: %+v", st[0])
	}
	table := s.String()
	for _, want := range []string{"workers:", "physics", "every fixed step of 0.01667 s (60 Hz)", "slow", "exclusive (undeclared)"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestFixedStepBacklog: a tick longer than MaxSteps steps runs MaxSteps
// and drops the rest; a variable phase made fixed steps too, and back.
func TestFixedStepBacklog(t *testing.T) {
	s, _, _ := newTest(t)
	var deltas []float64
	must(t, s.Add(&testNode{info: Info{Name: "u", Tick: true}, run: func(u *Unit) { deltas = append(deltas, u.Delta) }}))
	must(t, s.SetStep(PhaseUpdate, 0.1, 3))
	must(t, s.Tick(1))
	if len(deltas) != 3 || s.Alpha(PhaseUpdate) != 0 {
		t.Errorf("a 1 s tick ran %d steps of 0.1 (alpha %v), want 3 and the rest dropped", len(deltas), s.Alpha(PhaseUpdate))
	}
	must(t, s.Tick(0.25))
	if len(deltas) != 5 || math.Abs(s.Alpha(PhaseUpdate)-0.5) > 1e-9 {
		t.Errorf("0.25 s: %d steps, alpha %v", len(deltas), s.Alpha(PhaseUpdate))
	}
	must(t, s.SetStep(PhaseUpdate, 0, 0))
	must(t, s.Tick(0.25))
	if len(deltas) != 6 || deltas[5] != 0.25 {
		t.Errorf("back to once per tick: %v", deltas)
	}
}

// TestClock: the scene time is counted as ticks of a step since a base,
// so 30 ticks of 1/60 s are 0.5 s exactly; Clock returns it with the
// fixed-step phases' clocks, and SetClock on another schedule goes on
// with the very same numbers. A clock that is not finite is refused, and
// so are non-finite ticks, which leave it as it was.
func TestClock(t *testing.T) {
	a, _, _ := newTest(t)
	for range 30 {
		must(t, a.Tick(1.0/60))
	}
	if a.Time() != 0.5 || a.Delta() != 1.0/60 {
		t.Errorf("30 ticks of 1/60 s: time %v, delta %v", a.Time(), a.Delta())
	}
	must(t, a.Tick(1.0/120))
	c := a.Clock()
	f := c.Fixed[PhasePhysics]
	if c.Time != a.Time() || c.Base != 0.5 || c.Ticks != 1 || c.Step != 1.0/120 || math.Abs(f[0]-0.5) > 1e-9 || f[1] != 1.0/120 {
		t.Errorf("Clock %+v", c)
	}
	b, _, _ := newTest(t)
	must(t, b.SetClock(c))
	for range 7 {
		must(t, a.Tick(1.0/120))
		must(t, b.Tick(1.0/120))
	}
	if ca, cb := a.Clock(), b.Clock(); ca.Time != cb.Time || ca.Fixed[PhasePhysics] != cb.Fixed[PhasePhysics] || ca.Base != cb.Base {
		t.Errorf("resumed clock %+v, original %+v", cb, ca)
	}
	if err := b.SetClock(Clock{Time: math.NaN()}); err == nil {
		t.Error("SetClock NaN accepted")
	}
	before := b.Time()
	for _, dt := range []float64{math.NaN(), math.Inf(1)} {
		if err := b.Tick(dt); err == nil || !strings.Contains(err.Error(), "must be a finite number of seconds") {
			t.Errorf("Tick(%v): %v", dt, err)
		}
	}
	if b.Time() != before {
		t.Errorf("refused ticks moved the clock: %v -> %v", before, b.Time())
	}
}

// TestHostBracketsRuns: a Tick asks the host to begin, start and end it
// (end also when a node panics); a host that does not run (paused)
// leaves the clock as it was, and Start's error is Tick's; a RunOnce
// begins and ends without starting anything.
func TestHostBracketsRuns(t *testing.T) {
	s, h, rec := newTest(t)
	add(t, s, rec, "a", false, false, Settings{})
	must(t, s.Tick(0.1))
	h.paused, h.startErr = true, errors.New("a system did not start")
	if err := s.Tick(0.1); !errors.Is(err, h.startErr) {
		t.Errorf("paused Tick: %v", err)
	}
	if s.Time() != 0.1 || rec.take() != "a" {
		t.Errorf("a paused tick ran or moved the clock: %v", s.Time())
	}
	h.paused, h.startErr = false, nil
	must(t, s.RunOnce("a"))
	if got, want := strings.Join(h.calls, ", "), "begin tick, start, end, begin tick, start, end, begin run of a, end"; got != want {
		t.Errorf("host calls\n got %s\nwant %s", got, want)
	}
}

// TestParallelBatchRunsAtOnce: two nodes of one batch wait for each
// other, which only works if they run at the same time (on two
// processors: with GOMAXPROCS 1 a batch runs on the calling goroutine).
func TestParallelBatchRunsAtOnce(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS 1: batches run on the calling goroutine")
	}
	s, _, _ := newTest(t)
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	met := [2]bool{}
	for i := range 2 {
		must(t, s.Add(&testNode{info: Info{Name: fmt.Sprintf("s%d", i), Tick: true, Settings: Settings{Access: &Access{}}}, run: func(u *Unit) {
			if !u.Parallel || !s.w.Frozen() {
				t.Errorf("s%d: a declared node ran with parallel %v, frozen %v", i, u.Parallel, s.w.Frozen())
			}
			close(started[i])
			select {
			case <-started[1-i]:
				met[i] = true
			case <-time.After(10 * time.Second):
			}
		}}))
	}
	s.SetWorkers(2)
	s.SetSplitThreshold(0)
	must(t, s.Tick(0.1))
	if !met[0] || !met[1] {
		t.Errorf("the two nodes did not run at once: %v", met)
	}
}

// TestParallelPanicIsAnError: a panic in one node of a parallel batch is
// reported to the host as a *PanicError naming it once the others
// finished, and Tick returns it; its commands are dropped, the others'
// applied, whatever the workers, and the World is thawed.
func TestParallelPanicIsAnError(t *testing.T) {
	for _, workers := range []int{1, 3} {
		s, _, _ := newTest(t, "v")
		w := s.w
		id, _ := w.ComponentID("v")
		var es []ecs.Entity
		for i := range 3 {
			e := w.NewEntity(id)
			es = append(es, e)
			must(t, s.Add(&testNode{info: Info{Name: fmt.Sprintf("s%d", i), Tick: true, Settings: Settings{Access: &Access{}}}, run: func(u *Unit) {
				u.Commands.Destroy(e)
				if i == 1 {
					panic("boom in s1")
				}
			}}))
		}
		s.SetWorkers(workers)
		s.SetSplitThreshold(0)
		var pe *PanicError
		if err := s.Tick(0.1); !errors.As(err, &pe) || pe.Name != "s1" || pe.Value != "boom in s1" || pe.Error() != "registry: s1 panicked: boom in s1" {
			t.Errorf("%d workers: Tick: %v", workers, err)
		}
		if w.Alive(es[0]) || !w.Alive(es[1]) || w.Alive(es[2]) || w.Frozen() {
			t.Errorf("%d workers: after the panic: alive %v %v %v, frozen %v", workers, w.Alive(es[0]), w.Alive(es[1]), w.Alive(es[2]), w.Frozen())
		}
	}
}

// TestChunkedNodeUnits: a chunked node's run is split into units of at
// most ChunkSize rows, indexed in order, each with its own commands,
// applied in unit order whatever the workers; its tock is one whole
// unit; an exclusive node's unit is not parallel and sees the World
// unfrozen.
func TestChunkedNodeUnits(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s, _, rec := newTest(t, "v")
		w := s.w
		id, _ := w.ComponentID("v")
		w.NewEntities(10, id)
		var units []string
		var order []int
		n := &testNode{info: Info{Name: "chunky", Kind: KindComponent, Tick: true, Tock: true, ChunkSize: 4,
			Settings: Settings{Access: &Access{Writes: []string{"v"}}}}, rows: ecs.NewFilter(w, ecs.With(id))}
		n.run = func(u *Unit) {
			rec.add(fmt.Sprintf("%d:%v:%v:%d", u.Index, u.Whole, u.Tock, u.Chunk.Rows.Len()))
			i := u.Index
			u.Commands.Defer(func(*ecs.World) { order = append(order, i) })
		}
		must(t, s.Add(n))
		must(t, s.Add(&testNode{info: Info{Name: "alone", Tick: true}, run: func(u *Unit) {
			if u.Parallel || w.Frozen() || !u.Whole {
				t.Errorf("exclusive unit: parallel %v, frozen %v, whole %v", u.Parallel, w.Frozen(), u.Whole)
			}
		}}))
		s.SetWorkers(workers)
		s.SetSplitThreshold(0)
		must(t, s.Tick(0.1))
		units = strings.Split(rec.take(), " | ")
		slices.Sort(units)
		if got, want := strings.Join(units, " "), "0:false:false:4 0:true:true:0 1:false:false:4 2:false:false:2"; got != want {
			t.Errorf("%d workers: units %s, want %s", workers, got, want)
		}
		if !slices.Equal(order, []int{0, 1, 2, 0}) {
			t.Errorf("%d workers: commands applied in order %v", workers, order)
		}
	}
}

// TestSetStepKeepsAccumulated: a step set after SetClock (a resumed
// room's physics system starts after its clock is restored) keeps the
// time the clock accumulated but had not stepped; only a phase made to
// run once per tick drops it, and one of more than a step keeps its part
// of a step.
func TestSetStepKeepsAccumulated(t *testing.T) {
	s, _, _ := newTest(t)
	must(t, s.SetClock(Clock{Time: 1, Fixed: map[string][2]float64{PhasePhysics: {0.99, 0.01}}}))
	must(t, s.SetStep(PhasePhysics, 0.015, 8))
	if got := s.Clock().Fixed[PhasePhysics][1]; got != 0.01 {
		t.Errorf("accumulated %v after SetStep, want the clock's 0.01", got)
	}
	must(t, s.SetStep(PhasePhysics, 0.004, 8))
	if got := s.Clock().Fixed[PhasePhysics][1]; math.Abs(got-0.002) > 1e-12 {
		t.Errorf("accumulated %v under a step of 0.004, want its part of a step, 0.002", got)
	}
	must(t, s.SetStep(PhasePhysics, 0, 0))
	must(t, s.SetStep(PhasePhysics, 0.015, 8))
	if got := s.Clock().Fixed[PhasePhysics][1]; got != 0 {
		t.Errorf("accumulated %v after a once-per-tick spell, want 0", got)
	}
}
