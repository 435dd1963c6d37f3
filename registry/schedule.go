package registry

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/scenecs/scenecs/internal/didyoumean"
)

// The phases of a tick, in the order they run. Every system and every
// component tick runs in one of them (its Phase; [PhaseUpdate] if it names
// none); a component's or a system's Tock runs in [PhasePostUpdate].
// Within a phase, A-Frame's order holds: system ticks, then component
// ticks, then (in post-update) system tocks, then component tocks; before
// and after constraints order them further. See docs/schedule.md.
const (
	// PhaseInput is for systems that bring input into the World (from a
	// network, a device, a replay) before anything else runs.
	PhaseInput = "input"
	// PhasePreUpdate is for what must be settled before the simulation
	// steps: commands, spawning in response to input.
	PhasePreUpdate = "pre-update"
	// PhasePhysics is the fixed-step phase: it runs as many times per
	// tick as whole steps of scene time have accumulated (Bevy's
	// FixedUpdate), so that what runs in it does not depend on the tick
	// rate. The physics system runs here.
	PhasePhysics = "physics"
	// PhaseUpdate is A-Frame's tick: systems' Tick, then components'.
	// The behaviour system (animation, timers, event-set) runs here, so
	// that an animation of position has the last word over physics.
	PhaseUpdate = "update"
	// PhasePostUpdate is A-Frame's tock, after everything ticked: the
	// transform system brings world transforms up to date as a system
	// Tock, so that components' Tocks see them.
	PhasePostUpdate = "post-update"
)

// phaseNames are the phases in order.
var phaseNames = [...]string{PhaseInput, PhasePreUpdate, PhasePhysics, PhaseUpdate, PhasePostUpdate}

// phaseIndex returns the rank of the phase name ("" is update), or -1.
func phaseIndex(name string) int {
	if name == "" {
		return slices.Index(phaseNames[:], PhaseUpdate)
	}
	return slices.Index(phaseNames[:], name)
}

// PhaseNames returns the names of the phases, in the order they run.
func PhaseNames() []string { return slices.Clone(phaseNames[:]) }

// Slots within a phase: A-Frame's order of system ticks, component
// ticks, system tocks, component tocks.
const (
	slotSystem = iota
	slotComponent
	slotSystemTock
	slotComponentTock
	numSlots
)

// Access declares what a system (or a component's tick) reads and writes:
// component names (an instance's base name stands for all its instances;
// "*" for every component). A component's tick writes its own component
// whatever it declares.
//
// A declared system that is not Exclusive runs under the parallel rules
// (see [Schedule]): the World is frozen while it runs, whatever the
// number of workers, so that it may run beside others. It reads the World
// and writes the components it declares in place (through
// [SystemContext.Query], [ecs.Map.Get], columns), and makes structural
// changes, [ecs.World.MarkChanged] and events through its
// [SystemContext.Commands] (or [Context.Commands]), applied at the end of
// its batch. An Exclusive one runs alone, with the World as a serial
// program has it; its Reads and Writes still serve the ambiguity report
// and the listings. A system or component that declares no Access is
// exclusive, and its access unknown: it conflicts with everything and
// takes no part in the ambiguity report.
type Access struct {
	// Reads and Writes name the components read and written.
	Reads, Writes []string
	// Exclusive makes the system run alone and change the World
	// directly.
	Exclusive bool
	// KeepExclusive, in a Go definition, says that Exclusive may not be
	// turned off: the system emits events or changes the World at once,
	// which the parallel rules forbid. [Schedule.Configure] (and a
	// scene's `_exclusive: false`) is then refused with
	// [ErrMustBeExclusive]. It requires Exclusive.
	KeepExclusive bool
}

// ErrMustBeExclusive is wrapped by the error of settings that would run
// a system whose Access is KeepExclusive under the parallel rules.
var ErrMustBeExclusive = errors.New("it must run alone (its Access is KeepExclusive: it emits events or changes the World at once, which the parallel rules forbid)")

// Settings place a system, or a component's tick, in the schedule. The
// fields of [SystemDefinition] and [Definition] of the same names fill
// them; [Schedule.Configure] overrides them (from a scene, say).
type Settings struct {
	// Phase is the phase its Tick runs in ([PhaseUpdate] if empty).
	Phase string
	// Before and After name systems and components (by name) whose ticks
	// this one's must precede or follow. Names of things not registered
	// are ignored.
	Before, After []string
	// Access declares what it reads and writes; nil: unknown (exclusive).
	Access *Access
	// Every runs it every Every runs of its phase (1 or 0: every run);
	// Interval at most once per run of its phase, when at least Interval
	// seconds have passed since it last ran (0: no bound; at most
	// [MaxPeriod], a day). Its Delta is the time since it last ran.
	Every    int
	Interval float64
}

// clone returns a deep copy of s.
func (s Settings) clone() Settings {
	s.Before, s.After = slices.Clone(s.Before), slices.Clone(s.After)
	if s.Access != nil {
		a := *s.Access
		a.Reads, a.Writes = slices.Clone(a.Reads), slices.Clone(a.Writes)
		s.Access = &a
	}
	return s
}

// check returns an error for settings that make no sense.
func (s Settings) check() error {
	if phaseIndex(s.Phase) < 0 {
		return fmt.Errorf("unknown phase %q (the phases are %s)%s", s.Phase, strings.Join(phaseNames[:], ", "), didyoumean.Hint(s.Phase, phaseNames[:]))
	}
	if s.Every < 0 {
		return fmt.Errorf("every %d: must be 0 or more", s.Every)
	}
	if err := checkPeriod(s.Interval); err != nil {
		return fmt.Errorf("interval %w", err)
	}
	if s.Access != nil {
		if s.Access.KeepExclusive && !s.Access.Exclusive {
			return fmt.Errorf("exclusive false: %w", ErrMustBeExclusive)
		}
		for _, n := range slices.Concat(s.Access.Reads, s.Access.Writes) {
			if n == "" {
				return fmt.Errorf("access: empty component name")
			}
		}
	}
	return nil
}

// node is one system or component in the schedule: the owner of its
// entries (a tick, a tock), with its settings.
type node struct {
	name string
	sys  *System
	comp *Component
	seq  int // registration order among nodes of its kind

	goSet Settings  // from the Go definition
	over  *Settings // from Schedule.Configure, if any
	chunk int       // rows per chunk (0: not chunked)

	entries []*entry // built
}

// settings returns the node's effective settings.
func (n *node) settings() *Settings {
	if n.over != nil {
		return n.over
	}
	return &n.goSet
}

// hasTick and hasTock report the node's hooks.
func (n *node) hasTick() bool {
	if n.sys != nil {
		return n.sys.tick != nil || n.sys.each != nil
	}
	return n.comp.hooks.tick != nil
}

func (n *node) hasTock() bool {
	if n.sys != nil {
		return n.sys.tock != nil
	}
	return n.comp.hooks.tock != nil
}

// kind names the node's kind in listings.
func (n *node) kind() string {
	if n.sys != nil {
		return "system"
	}
	return "component"
}

// Schedule is the Registry's schedule: which system and component hooks
// run, in which phase and order, at which rate, and on how many workers
// ([Registry.Schedule] returns it). The order is computed once per change
// of what is registered or configured, deterministically; an impossible
// order (a before/after cycle, or a constraint the phases contradict) is
// an error. Systems whose declared access does not conflict run at the
// same time on a pool of workers; the result is the same, bit for bit,
// for any number of workers. docs/schedule.md explains it all with an
// example.
type Schedule struct {
	r *Registry

	nodes    map[string]*node
	order    []*node // registration order
	afterOf  map[string][]*node
	beforeOf map[string][]*node
	nSys     int
	nComp    int

	dirty  bool
	builds int // schedule builds so far (tests)
	err    error
	plan   *plan

	phases [len(phaseNames)]phaseState

	workers  int
	strict   bool
	shuffle  uint64
	minSplit int64 // ns of estimated work below which a batch runs serially
	procs    int   // GOMAXPROCS when the batch running was spread
	clock    int64 // monoNow when the last batch ended (a clock read each batch saves)

	off     map[string]bool // disabled nodes and entries, by name
	running bool            // a batch or RunOnce is running
	exec    executor
}

// phaseState is a phase's clock and step.
type phaseState struct {
	step     float64 // fixed step in seconds; 0: once per tick
	maxSteps int
	acc      float64 // accumulated time not yet stepped
	time     float64 // the phase's clock: steps × step, for a fixed phase
	runs     uint64
}

// defaultFixedStep is the physics phase's step until configured.
const defaultFixedStep = 1.0 / 60

// newSchedule returns the schedule of r, with as many workers as
// GOMAXPROCS.
func newSchedule(r *Registry) *Schedule {
	s := &Schedule{
		r:        r,
		nodes:    make(map[string]*node),
		afterOf:  make(map[string][]*node),
		beforeOf: make(map[string][]*node),
		off:      make(map[string]bool),
		workers:  runtime.GOMAXPROCS(0),
		minSplit: 30_000,
	}
	s.phases[phaseIndex(PhasePhysics)] = phaseState{step: defaultFixedStep, maxSteps: 8}
	return s
}

// Schedule returns the Registry's schedule.
func (r *Registry) Schedule() *Schedule { return r.sched }

// Workers returns the number of workers parallel batches may use.
func (s *Schedule) Workers() int { return s.workers }

// SetWorkers sets the number of workers (goroutines, the calling one
// included) that run parallel batches: 1 is the serial schedule. No more
// goroutines than GOMAXPROCS share a batch (with GOMAXPROCS 1, batches
// run on the calling goroutine). The result of a tick does not depend on
// it. n below 1 means GOMAXPROCS.
func (s *Schedule) SetWorkers(n int) {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	s.workers = n
}

// SetSplitThreshold sets how much work a batch needs to be spread over
// the workers: a batch whose systems took less than d, by the average of
// their last runs, runs on the calling goroutine (handing work to other
// goroutines costs microseconds). The default is 30 µs; 0 spreads every
// batch with more than one system or chunk. The result of a tick does not
// depend on it.
func (s *Schedule) SetSplitThreshold(d time.Duration) { s.minSplit = int64(max(d, 0)) }

// SetStrict makes an ambiguity (see [Schedule.Ambiguities]) an error that
// stops the schedule (Tick returns it and runs nothing) instead of a
// warning.
func (s *Schedule) SetStrict(on bool) {
	if s.strict != on {
		s.strict = on
		s.dirty = true
	}
}

// SetShuffle orders the systems that no constraint orders (within a phase
// and slot) by a random permutation drawn from seed instead of by
// registration: a test mode that exposes hidden dependence on
// registration order (Bevy's schedule randomization). 0 turns it off.
func (s *Schedule) SetShuffle(seed uint64) {
	if s.shuffle != seed {
		s.shuffle = seed
		s.dirty = true
	}
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
	if ps.step != step {
		ps.acc = 0
	}
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

// Clock is a Registry's scene time with the clocks of its fixed-step
// phases: what a World resumed elsewhere (a room from its snapshot) needs
// to go on where it was, so that expressions reading time and the fixed
// steps continue rather than start over, with the same numbers.
type Clock struct {
	// Time is the scene time in seconds (Registry.Time): Base + Ticks ×
	// Step, as it is counted.
	Time  float64 `json:"time"`
	Base  float64 `json:"base,omitempty"`
	Ticks float64 `json:"ticks,omitempty"`
	Step  float64 `json:"step,omitempty"`
	// Fixed holds, by phase, a fixed-step phase's clock (its steps times
	// its step) and the time it accumulated not stepped yet.
	Fixed map[string][2]float64 `json:"fixed,omitempty"`
}

// advance moves the scene time on by a tick of dt seconds.
func (r *Registry) advance(dt float64) {
	if dt != r.timeStep {
		r.timeBase += r.timeTicks * r.timeStep
		r.timeTicks, r.timeStep = 0, dt
	}
	r.timeTicks++
	r.time = r.timeBase + r.timeTicks*r.timeStep
	r.delta = dt
}

// Clock returns the scene time and the fixed-step phases' clocks.
func (s *Schedule) Clock() Clock {
	r := s.r
	c := Clock{Time: r.time, Base: r.timeBase, Ticks: r.timeTicks, Step: r.timeStep}
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
	if s.r.inTick {
		return errors.New("registry: SetClock during a tick")
	}
	if math.IsNaN(c.Time) || math.IsInf(c.Time, 0) {
		return fmt.Errorf("registry: SetClock: the time %v is not a finite number of seconds", c.Time)
	}
	r := s.r
	r.time, r.timeBase, r.timeTicks, r.timeStep = c.Time, c.Time, 0, 0
	if c.Step != 0 && c.Base+c.Ticks*c.Step == c.Time {
		r.timeBase, r.timeTicks, r.timeStep = c.Base, c.Ticks, c.Step
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

// addSystem puts a registered system in the schedule.
func (s *Schedule) addSystem(sys *System, set Settings, chunk int) error {
	n := &node{name: sys.Name, sys: sys, seq: s.nSys, goSet: set.clone(), chunk: chunk}
	if err := s.addNode(n); err != nil {
		return err
	}
	s.nSys++
	return nil
}

// addComponent puts a component in the schedule if it has a tick or tock
// or orders itself against others; others have no part in it.
func (s *Schedule) addComponent(c *Component, set Settings, chunk int) error {
	if !c.HasTick() && len(set.Before) == 0 && len(set.After) == 0 {
		return nil
	}
	n := &node{name: c.Name, comp: c, seq: s.nComp, goSet: set.clone(), chunk: chunk}
	if err := s.addNode(n); err != nil {
		return err
	}
	s.nComp++
	return nil
}

// addNode checks a new node (its settings, its name, and that it closes
// no before/after cycle, so that a refused registration leaves no trace)
// and adds it.
func (s *Schedule) addNode(n *node) error {
	if err := n.goSet.check(); err != nil {
		return fmt.Errorf("registry: %s %q: %w", n.kind(), n.name, err)
	}
	if o, dup := s.nodes[n.name]; dup {
		return fmt.Errorf("registry: %s %q: a %s of that name is already in the schedule (names of systems and of components with ticks or before/after share one namespace)", n.kind(), n.name, o.kind())
	}
	if cyc := s.cycleThrough(n); cyc != "" {
		return fmt.Errorf("registry: before/after ordering has a cycle: %s", cyc)
	}
	s.nodes[n.name] = n
	s.order = append(s.order, n)
	set := n.settings()
	for _, x := range set.After {
		s.afterOf[x] = append(s.afterOf[x], n)
	}
	for _, x := range set.Before {
		s.beforeOf[x] = append(s.beforeOf[x], n)
	}
	s.dirty = true
	return nil
}

// successors returns the nodes x must run before: those its Before names
// and those whose After names it (extra, a node not added yet, counted).
func (s *Schedule) successors(x *node, extra *node, dst []*node) []*node {
	dst = dst[:0]
	find := func(name string) *node {
		if extra != nil && name == extra.name {
			return extra
		}
		return s.nodes[name]
	}
	for _, name := range x.settings().Before {
		if y := find(name); y != nil {
			dst = append(dst, y)
		}
	}
	for _, y := range s.afterOf[x.name] {
		if y != extra && s.nodes[y.name] == y {
			dst = append(dst, y)
		}
	}
	if extra != nil && slices.Contains(extra.settings().After, x.name) {
		dst = append(dst, extra) // x == extra: it names itself
	}
	return dst
}

// cycleThrough returns, printed as "a -> b -> a", a before/after cycle
// that adding n would close, or "". The nodes there have no cycle, so a
// new one runs through n, which needs n to have an edge in and an edge
// out; most have neither, and this costs O(1). Otherwise the cycle is
// looked for by a walk along "runs before" edges from n, which visits the
// nodes reachable from n. The cycle starts with its earliest node.
func (s *Schedule) cycleThrough(n *node) string {
	set := n.settings()
	known := func(names []string) bool {
		for _, x := range names {
			if _, ok := s.nodes[x]; ok || x == n.name {
				return true
			}
		}
		return false
	}
	self := slices.Contains(set.Before, n.name) || slices.Contains(set.After, n.name)
	out := known(set.Before) || len(s.afterOf[n.name]) > 0
	in := known(set.After) || len(s.beforeOf[n.name]) > 0
	if !self && (!out || !in) {
		return ""
	}
	return s.findCycle(n, n)
}

// findCycle walks from start along "runs before" edges (extra counted as
// added) and returns the cycle back to start, or "".
func (s *Schedule) findCycle(start, extra *node) string {
	parent := map[*node]*node{start: nil}
	stack := []*node{start}
	var succ []*node
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		succ = s.successors(x, extra, succ)
		for _, y := range succ {
			if y == start {
				var path []*node
				for p := x; p != nil; p = parent[p] {
					path = append(path, p)
				}
				slices.Reverse(path)
				return s.cycleText(path, extra)
			}
			if _, seen := parent[y]; !seen {
				parent[y] = x
				stack = append(stack, y)
			}
		}
	}
	return ""
}

// cycleText prints a cycle, rotated to start at its earliest node
// (registration order, components before systems... by their order in
// s.order; extra last).
func (s *Schedule) cycleText(path []*node, extra *node) string {
	rank := func(p *node) int {
		if i := slices.Index(s.order, p); i >= 0 && p != extra {
			return i
		}
		return len(s.order)
	}
	m := 0
	for i, p := range path {
		if rank(p) < rank(path[m]) {
			m = i
		}
	}
	path = slices.Concat(path[m:], path[:m])
	names := make([]string, 0, len(path)+1)
	for _, p := range path {
		names = append(names, p.name)
	}
	return strings.Join(append(names, path[0].name), " -> ")
}

// Configure overrides the settings of the system or component called
// name (a scene's schedule settings do this); nil restores those of its
// Go definition. The change takes effect at the next Tick; an order it
// makes impossible is an error there ([Schedule.Err]).
func (s *Schedule) Configure(name string, set *Settings) error {
	if err := s.Check(name, set); err != nil {
		return err
	}
	n := s.nodes[name]
	if set != nil {
		c := set.clone()
		set = &c
	}
	old := n.settings()
	for _, x := range old.After {
		s.afterOf[x] = slices.DeleteFunc(s.afterOf[x], func(y *node) bool { return y == n })
	}
	for _, x := range old.Before {
		s.beforeOf[x] = slices.DeleteFunc(s.beforeOf[x], func(y *node) bool { return y == n })
	}
	n.over = set
	cur := n.settings()
	for _, x := range cur.After {
		s.afterOf[x] = append(s.afterOf[x], n)
	}
	for _, x := range cur.Before {
		s.beforeOf[x] = append(s.beforeOf[x], n)
	}
	s.dirty = true
	return nil
}

// Check returns the error [Schedule.Configure] would return for these
// settings (nil: none), changing nothing: an unknown name, settings that
// make no sense, or an Exclusive turned off that the Go definition keeps
// ([ErrMustBeExclusive]).
func (s *Schedule) Check(name string, set *Settings) error {
	n, ok := s.nodes[name]
	if !ok {
		return fmt.Errorf("registry: schedule: no system or component tick named %q%s", name, didyoumean.Hint(name, s.Names()))
	}
	if set == nil {
		return nil
	}
	err := set.check()
	if a := n.goSet.Access; err == nil && a != nil && a.KeepExclusive && set.Access != nil && !set.Access.Exclusive {
		err = fmt.Errorf("exclusive false: %w", ErrMustBeExclusive)
	}
	if err != nil {
		return fmt.Errorf("registry: schedule: %s: %w", name, err)
	}
	return nil
}

// Settings returns the settings in force for the system or component
// called name: its Go definition's, or those [Schedule.Configure] set.
func (s *Schedule) Settings(name string) (Settings, bool) {
	n, ok := s.nodes[name]
	if !ok {
		return Settings{}, false
	}
	return n.settings().clone(), true
}

// Names returns the names of the systems and components in the schedule,
// in registration order.
func (s *Schedule) Names() []string {
	out := make([]string, len(s.order))
	for i, n := range s.order {
		out[i] = n.name
	}
	return out
}

// SetEnabled turns the system or component tick called name (every entry
// of it: its tick and tock) on or off; a disabled one is skipped by
// Tick (its time does not accumulate), and still runs with
// [Schedule.RunOnce]. An entry name ("spin.tock") turns that entry alone.
func (s *Schedule) SetEnabled(name string, on bool) error {
	_, ok := s.nodes[name]
	if !ok {
		if n, found := s.nodes[strings.TrimSuffix(name, ".tock")]; found && n.hasTick() && n.hasTock() {
			ok = true
		}
	}
	if !ok {
		return fmt.Errorf("registry: schedule: no system or component tick named %q%s", name, didyoumean.Hint(name, s.Names()))
	}
	if on {
		delete(s.off, name)
	} else {
		s.off[name] = true
	}
	if s.plan != nil {
		for _, e := range s.plan.entries {
			e.disabled = s.off[e.name] || s.off[e.node.name]
		}
	}
	return nil
}

// Enabled reports whether the system, component tick or entry called
// name runs (see [Schedule.SetEnabled]).
func (s *Schedule) Enabled(name string) bool {
	return !s.off[name] && !s.off[strings.TrimSuffix(name, ".tock")]
}

// Err returns the error that stops the schedule (a cycle or contradiction
// made by [Schedule.Configure], an ambiguity in strict mode), computing
// the order if something changed; nil if it runs.
func (s *Schedule) Err() error { return s.prepare() }

// prepare computes the plan if something changed since the last one.
func (s *Schedule) prepare() error {
	if s.dirty || s.plan == nil {
		s.build()
	}
	return s.err
}
