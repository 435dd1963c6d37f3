package schedule

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// The phases of a tick, in the order they run. Every node runs its tick in
// one of them (its Phase; [PhaseUpdate] if it names none) and its tock in
// [PhasePostUpdate]. Within a phase, A-Frame's order holds: system ticks,
// then component ticks, then (in post-update) system tocks, then
// component tocks; before and after constraints order them further. See
// docs/schedule.md.
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

// Access declares what a node (a system, or a component's tick) reads
// and writes: component names (an instance's base name stands for all
// its instances; "*" for every component). A component's tick writes its
// own component whatever it declares.
//
// A declared node that is not Exclusive runs under the parallel rules
// (see [Schedule]): the World is frozen while it runs, whatever the
// number of workers, so that it may run beside others. It reads the World
// and writes the components it declares in place, and makes structural
// changes, [ecs.World.MarkChanged] and events through its unit's
// [Unit].Commands (a registry's hooks: their context's Commands),
// applied at the end of its batch. An Exclusive one runs alone, with the
// World as a serial program has it; its Reads and Writes still serve the
// ambiguity report and the listings. A node that declares no Access is
// exclusive, and its access unknown: it conflicts with everything and
// takes no part in the ambiguity report.
type Access struct {
	// Reads and Writes name the components read and written.
	Reads, Writes []string
	// Exclusive makes the node run alone and change the World
	// directly.
	Exclusive bool
	// KeepExclusive, in a Go definition, says that Exclusive may not be
	// turned off: the node emits events or changes the World at once,
	// which the parallel rules forbid. [Schedule.Configure] (and a
	// scene's `_exclusive: false`) is then refused with
	// [ErrMustBeExclusive]. It requires Exclusive.
	KeepExclusive bool
}

// ErrMustBeExclusive is wrapped by the error of settings that would run
// a node whose Access is KeepExclusive under the parallel rules.
var ErrMustBeExclusive = errors.New("it must run alone (its Access is KeepExclusive: it emits events or changes the World at once, which the parallel rules forbid)")

// Settings place a node (a system, or a component's tick) in the
// schedule. Its Go definition's come with it ([Info].Settings);
// [Schedule.Configure] overrides them (from a scene, say).
type Settings struct {
	// Phase is the phase its Tick runs in ([PhaseUpdate] if empty).
	Phase string
	// Before and After name nodes (systems and components, by name)
	// whose ticks this one's must precede or follow. Names of things not
	// in the schedule are ignored.
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

// Kind is what a node is, which places its hooks within a phase: a
// system's before the components'.
type Kind uint8

const (
	// KindSystem is a system: its tick runs before the component ticks
	// of its phase, its tock before the component tocks.
	KindSystem Kind = iota
	// KindComponent is a component's tick and tock, over the entities
	// that hold it.
	KindComponent
)

// String returns "system" or "component", as listings name the kinds.
func (k Kind) String() string {
	if k == KindSystem {
		return "system"
	}
	return "component"
}

// Info says what a node is. The schedule asks a [Node] for it once, when
// the node is added ([Schedule.Add]).
type Info struct {
	// Name names the node: systems and components share one namespace.
	Name string
	// Kind places its hooks in a phase.
	Kind Kind
	// Tick and Tock report the hooks it has. A node with neither is
	// still in the schedule: its before/after constraints order others
	// through it.
	Tick, Tock bool
	// Settings are the node's own (its Go definition's).
	Settings Settings
	// ChunkSize, if above 0, splits each run of its tick into units of
	// that many rows ([Node.Split]), which run on the workers at once.
	ChunkSize int
}

// Node is what a schedule runs: a system, or a component's tick and
// tock. A registry registers one per system and per component that
// ticks ([Schedule.Add]); the schedule places it by its [Info], runs it
// by units ([Node.Run]) and knows nothing else of it.
type Node interface {
	// Info says what the node is (asked once, when it is added).
	Info() Info
	// Ready reports whether the node runs now: a registry's system does
	// once it started. One that is not ready is skipped, as a disabled
	// one is, and RunOnce refuses it.
	Ready() bool
	// Split appends to dst the chunks of one run of a chunked node's
	// tick, of size rows each, in order; each becomes a unit of its own.
	// It is called on the calling goroutine, before any of the units
	// runs.
	Split(size int, dst []Chunk) []Chunk
	// Run runs one unit of the node's work: its whole tick or tock, or
	// one chunk. Units of one batch may run at the same time on several
	// goroutines; one unit runs on one.
	Run(u *Unit)
}

// Host is what a schedule needs of the program whose nodes it runs (a
// registry.Registry is one, through a type of its own): the components
// that nodes' access names, where the errors of a run go, and the work
// that brackets a tick.
type Host interface {
	// ComponentIDs returns the ecs IDs that store the component called
	// name (its base name, then its instances'), or false if no
	// component has that name.
	ComponentIDs(name string) ([]ecs.ID, bool)
	// ComponentNames returns the names of every component, for the
	// hints of warnings.
	ComponentNames() []string
	// Report takes an error a run cannot return (a hook's [*PanicError]),
	// for TakeErrors.
	Report(err error)
	// TakeErrors returns the errors reported since it last did, joined
	// (nil: none), and forgets them: [Schedule.Tick] returns them.
	TakeErrors() error
	// Begin is called when a Tick or a RunOnce starts, with what runs
	// ("tick", "run of spin"), and End when it ends, also when a hook
	// panicked out of it (a registry opens and closes a window of event
	// deliveries there).
	Begin(what string)
	End()
	// Start is called by Tick, inside it, before the clock moves: it
	// starts what must start before the phases run (a registry's
	// systems) and reports whether they run (false: the scene is
	// paused), with the errors of what could not start.
	Start() (run bool, err error)
}

// node is one node in the schedule: the owner of its entries (a tick, a
// tock), with its settings.
type node struct {
	name       string
	n          Node
	sys        bool // a system (KindSystem)
	tick, tock bool
	seq        int // registration order among nodes of its kind

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

// kind names the node's kind in listings.
func (n *node) kind() string {
	if n.sys {
		return KindSystem.String()
	}
	return KindComponent.String()
}

// Schedule runs nodes: which system and component hooks run, in which
// phase and order, at which rate, and on how many workers. It holds the
// scene clock ([Schedule.Time], [Schedule.Clock]), which its ticks move
// ([Schedule.Tick]). The order is computed once per change of the nodes
// or their settings, deterministically; an impossible order (a
// before/after cycle, or a constraint the phases contradict) is an
// error. Nodes whose declared access does not conflict run at the same
// time on a pool of workers; the result is the same, bit for bit, for
// any number of workers. A registry's is its Schedule method's;
// docs/schedule.md explains it all with an example.
type Schedule struct {
	w    *ecs.World
	host Host

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

	clock  clock
	phases [len(phaseNames)]phaseState

	workers  int
	strict   bool
	shuffle  uint64
	minSplit int64 // ns of estimated work below which a batch runs serially
	procs    int   // GOMAXPROCS when the batch running was spread
	lastEnd  int64 // monoNow when the last batch ended (a clock read each batch saves)

	off     map[string]bool // disabled nodes and entries, by name
	busy    bool            // a Tick or RunOnce is running
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

// New returns a schedule of no nodes over w, whose host is h, with as
// many workers as GOMAXPROCS.
func New(w *ecs.World, h Host) *Schedule {
	s := &Schedule{
		w:        w,
		host:     h,
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
// the workers: a batch whose nodes took less than d, by the average of
// their last runs, runs on the calling goroutine (handing work to other
// goroutines costs microseconds). The default is 30 µs; 0 spreads every
// batch with more than one unit. The result of a tick does not depend on
// it.
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

// SetShuffle orders the nodes that no constraint orders (within a phase
// and slot) by a random permutation drawn from seed instead of by
// registration: a test mode that exposes hidden dependence on
// registration order (Bevy's schedule randomization). 0 turns it off.
func (s *Schedule) SetShuffle(seed uint64) {
	if s.shuffle != seed {
		s.shuffle = seed
		s.dirty = true
	}
}

// Invalidate makes the schedule compute its order and its nodes' access
// again before it next runs: a registry calls it when its components
// change (a new instance of a component widens what a declared access
// allows). It is cheap: the work waits for the next run.
func (s *Schedule) Invalidate() { s.dirty = true }

// Add puts a node in the schedule, after checking its settings, its name
// (systems and components share one namespace) and that its constraints
// close no before/after cycle; a refused node leaves no trace. Its place
// is computed once, before the next run, so that adding N nodes costs
// O(N log N).
func (s *Schedule) Add(n Node) error {
	in := n.Info()
	x := &node{name: in.Name, n: n, sys: in.Kind == KindSystem, tick: in.Tick, tock: in.Tock,
		goSet: in.Settings.clone(), chunk: in.ChunkSize}
	count := &s.nComp
	if x.sys {
		count = &s.nSys
	}
	x.seq = *count
	if err := s.addNode(x); err != nil {
		return err
	}
	*count++
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

// Configure overrides the settings of the node called name (a scene's
// schedule settings do this); nil restores those of its Go definition.
// The change takes effect at the next Tick; an order it makes impossible
// is an error there ([Schedule.Err]).
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

// Settings returns the settings in force for the node called name: its
// Go definition's, or those [Schedule.Configure] set.
func (s *Schedule) Settings(name string) (Settings, bool) {
	n, ok := s.nodes[name]
	if !ok {
		return Settings{}, false
	}
	return n.settings().clone(), true
}

// Names returns the names of the nodes in the schedule, in registration
// order.
func (s *Schedule) Names() []string {
	out := make([]string, len(s.order))
	for i, n := range s.order {
		out[i] = n.name
	}
	return out
}

// SetEnabled turns the node called name (every entry of it: its tick and
// tock) on or off; a disabled one is skipped by Tick (its time does not
// accumulate), and still runs with [Schedule.RunOnce]. An entry name
// ("spin.tock") turns that entry alone.
func (s *Schedule) SetEnabled(name string, on bool) error {
	_, ok := s.nodes[name]
	if !ok {
		if n, found := s.nodes[strings.TrimSuffix(name, ".tock")]; found && n.tick && n.tock {
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

// Enabled reports whether the node or entry called name runs (see
// [Schedule.SetEnabled]).
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
