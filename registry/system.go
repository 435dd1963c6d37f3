package registry

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

// System is a registered system: named, with a schema configured from the
// scene root, and hooks that run once per tick before the components'.
type System struct {
	// Name is the system's name, as written in a scene's scene section.
	Name string
	// Schema describes the system's configuration.
	Schema *Schema
	// Selector, if set, names the entities the system serves.
	Selector string

	reg     *Registry
	comp    *Component // carries the schema's accessors
	data    unsafe.Pointer
	matcher compiledSelector
	started bool
	init    func(s *SystemContext, p unsafe.Pointer)
	update  func(s *SystemContext, p, old unsafe.Pointer)
	tick    func(s *SystemContext, p unsafe.Pointer)
	tock    func(s *SystemContext, p unsafe.Pointer)
	// A chunked system: query makes its filter when it starts; each
	// runs over its chunks.
	query  func(s *SystemContext, p unsafe.Pointer) *ecs.Filter
	each   func(s *SystemContext, p unsafe.Pointer, q *ecs.Query)
	filter *ecs.Filter
}

// SystemDefinition describes a system configured by the Go type T.
type SystemDefinition[T any] struct {
	// Schema, if set, describes T; otherwise it is derived from T.
	Schema *Schema
	// Selector, if set, is compiled (by the selector engine) into the
	// set of entities the system serves: SystemContext.Entities.
	Selector string
	// Init runs once, when the Registry starts.
	Init func(s *SystemContext, cfg *T)
	// Update runs after Init and whenever the configuration changes.
	Update func(s *SystemContext, cfg *T, old *T)
	// Tick runs once per run of its phase (every tick, or every fixed
	// step of a fixed-step phase), before the component ticks of that
	// phase; Tock once per tick in the post-update phase, after all
	// component ticks, before component tocks.
	Tick, Tock func(s *SystemContext, cfg *T)

	// Phase names the phase Tick runs in: [PhaseUpdate] if empty (see
	// [PhaseNames]).
	Phase string
	// Before and After name systems and components whose ticks this
	// system's Tick must precede or follow (see [Settings]).
	Before, After []string
	// Access declares what the system reads and writes; nil leaves it
	// unknown, and the system exclusive (see [Access]).
	Access *Access
	// Every and Interval set the system's rate (see [Settings]).
	Every    int
	Interval float64

	// Query and Each make a chunked system, whose work over a large
	// query is split into chunks of ChunkSize rows (4096 if 0) that run
	// on the workers at once: for systems whose per-entity work is
	// independent. Query returns the filter, once, when the system
	// starts; Each then runs, instead of Tick, once per chunk of it per
	// run, with a query over the chunk's rows. A chunked system must
	// declare its Access (and not be Exclusive): its chunks run under the
	// parallel rules, each with its own Commands, applied in chunk order.
	Query     func(s *SystemContext, cfg *T) *ecs.Filter
	Each      func(s *SystemContext, cfg *T, q *ecs.Query)
	ChunkSize int
}

// DefaultChunkSize is the rows per chunk of a chunked system or component
// tick that sets none.
const DefaultChunkSize = 4096

// SystemContext is what a system hook receives.
type SystemContext struct {
	Registry *Registry
	World    *ecs.World
	System   *System
	// Time is the scene time (for a fixed-step phase, its clock: steps ×
	// step) and Delta the time since the hook last ran (the tick's time
	// step, or the fixed step), in seconds.
	Time, Delta float64
	// Step counts the runs of the hook's phase in this tick from 0, and
	// Steps says how many there are: 0 and 1 except in a fixed-step phase
	// that steps several times per tick.
	Step, Steps int

	cmds       *ecs.Commands
	mask       *ecs.Mask // the columns its declared access allows; nil: any
	restricted bool
}

// Commands returns the buffer of structural changes of this run of the
// hook: applied, in order, at the end of its batch (see [Access]). It
// panics outside Tick, Tock and Each.
func (s *SystemContext) Commands() *ecs.Commands {
	if s.cmds == nil {
		panic("registry: SystemContext.Commands outside a system's Tick, Tock or Each: change the World directly there")
	}
	return s.cmds
}

// Query starts an iteration of f for the hook: for a system that runs
// under the parallel rules, limited to the components it declares
// ([ecs.Filter.QueryOnly]: others' values panic); else f.Query().
func (s *SystemContext) Query(f *ecs.Filter) ecs.Query {
	if s.restricted && s.mask != nil {
		return f.QueryOnly(*s.mask)
	}
	return f.Query()
}

// Emit emits an entity event (see [Events.Emit]): at once from an
// exclusive system, at the end of the batch (with its commands, in order)
// from one that runs under the parallel rules.
func (s *SystemContext) Emit(e ecs.Entity, name string, detail any, bubbles bool) {
	if s.restricted {
		r := s.Registry
		s.cmds.Defer(func(*ecs.World) { r.Events().Emit(e, name, detail, bubbles) })
		return
	}
	s.Registry.Events().Emit(e, name, detail, bubbles)
}

// Entities returns the entities the system's selector matches now, in
// document order (nil if it has no selector).
func (s *SystemContext) Entities() []ecs.Entity {
	if s.System.matcher == nil {
		return nil
	}
	s.Registry.notFrozen("SystemContext.Entities")
	return s.System.matcher.QueryAll(nil)
}

// RegisterSystem registers a system named name whose configuration is a
// value of T. It takes its place in the schedule ([Registry.Schedule]):
// its Phase, before/after its constraints, registration order otherwise;
// a constraint that closes a cycle is an error, and nothing is
// registered.
//
// A selector that is not valid selector syntax is an error here. One that
// is valid but does not compile yet (it names a component nobody has
// registered so far) is compiled when the Registry starts
// ([Registry.Start]); after Start, RegisterSystem starts the system at once
// and returns the error of a selector that does not compile, registering
// nothing.
func RegisterSystem[T any](r *Registry, name string, d SystemDefinition[T]) (*System, error) {
	if err := checkComponentName(name); err != nil {
		return nil, err
	}
	if _, dup := r.sysNames[name]; dup {
		return nil, fmt.Errorf("registry: system %q is already registered", name)
	}
	gt := reflect.TypeFor[T]()
	s := d.Schema
	if s == nil {
		var err error
		if s, err = schema.SchemaOf(gt, r.types); err != nil {
			return nil, fmt.Errorf("registry: system %q: %w", name, err)
		}
	} else if s.StructType() != gt {
		return nil, fmt.Errorf("registry: system %q: schema describes %v, not %v", name, s.StructType(), gt)
	}
	if d.Selector != "" {
		if _, ok := r.sel.(*selEngine); ok {
			if _, err := selector.Parse(d.Selector); err != nil {
				return nil, fmt.Errorf("registry: system %q: %w", name, err)
			}
		}
	}
	if d.Each != nil && d.Tick != nil {
		return nil, fmt.Errorf("registry: system %q: Each replaces Tick: set one of them", name)
	}
	if (d.Each == nil) != (d.Query == nil) {
		return nil, fmt.Errorf("registry: system %q: a chunked system sets both Query and Each", name)
	}
	if d.Each != nil && (d.Access == nil || d.Access.Exclusive) {
		return nil, fmt.Errorf("registry: system %q: a chunked system must declare its Access, not exclusive (its chunks run in parallel)", name)
	}
	if d.ChunkSize < 0 {
		return nil, fmt.Errorf("registry: system %q: ChunkSize %d must not be negative", name, d.ChunkSize)
	}
	c := &Component{Name: name, Schema: s}
	c.access = s.Accessors()
	sys := &System{Name: name, Schema: s, Selector: d.Selector, comp: c, data: c.newValue(), reg: r}
	if d.Init != nil {
		sys.init = func(sc *SystemContext, p unsafe.Pointer) { d.Init(sc, (*T)(p)) }
	}
	if d.Update != nil {
		sys.update = func(sc *SystemContext, p, old unsafe.Pointer) { d.Update(sc, (*T)(p), (*T)(old)) }
	}
	if d.Tick != nil {
		sys.tick = func(sc *SystemContext, p unsafe.Pointer) { d.Tick(sc, (*T)(p)) }
	}
	if d.Tock != nil {
		sys.tock = func(sc *SystemContext, p unsafe.Pointer) { d.Tock(sc, (*T)(p)) }
	}
	chunk := 0
	if d.Each != nil {
		sys.query = func(sc *SystemContext, p unsafe.Pointer) *ecs.Filter { return d.Query(sc, (*T)(p)) }
		sys.each = func(sc *SystemContext, p unsafe.Pointer, q *ecs.Query) { d.Each(sc, (*T)(p), q) }
		chunk = cmp.Or(d.ChunkSize, DefaultChunkSize)
	}
	if r.started {
		if err := r.compileSystem(sys); err != nil {
			return nil, err
		}
	}
	set := Settings{Phase: d.Phase, Before: d.Before, After: d.After, Access: d.Access, Every: d.Every, Interval: d.Interval}
	if err := r.sched.Add(newSysNode(sys, set, chunk)); err != nil {
		return nil, err
	}
	r.systems = append(r.systems, sys)
	r.sysNames[name] = sys
	r.waiting++
	if r.started {
		r.runStart(sys)
	}
	return sys, nil
}

// System returns the system registered under name.
func (r *Registry) System(name string) (*System, bool) {
	s, ok := r.sysNames[name]
	return s, ok
}

// Systems returns the registered systems in registration order (the
// schedule's order is [Schedule.Systems]).
func (r *Registry) Systems() []*System { return append([]*System(nil), r.systems...) }

// Values returns the system's configuration, in schema order.
func (s *System) Values() []any { return s.comp.Values(s.data) }

// Data returns a pointer to the system's configuration value (a *T for a
// system registered with RegisterSystem[T]).
func (s *System) Data() unsafe.Pointer { return s.data }

func (r *Registry) sysCtx(s *System) *SystemContext {
	return &SystemContext{Registry: r, World: r.w, System: s, Time: r.sched.Time(), Delta: r.sched.Delta()}
}

// ConfigureAttr sets the system's configuration from an attribute string
// ("scale: 2"), merged with the current one, as a scene's systems: entry
// does. After [Registry.Start], Update runs if the data changed.
func (s *System) ConfigureAttr(attr string) error {
	p, err := s.Schema.ParseAttr(s.Name, attr)
	if err != nil {
		return err
	}
	return s.Configure(p, Merge)
}

// Configure sets the system's configuration from parsed values, merged
// with the current one or replacing it (mode), as
// [System.ConfigureAttr] does from an attribute string. After
// [Registry.Start], Update runs if the data changed.
func (s *System) Configure(p Patch, mode SetMode) error {
	r, name, c := s.reg, s.Name, s.comp
	for _, pv := range p {
		if pv.Index < 0 || pv.Index >= len(c.Schema.Props) {
			return fmt.Errorf("registry: configure %s: property index %d out of range", name, pv.Index)
		}
	}
	old := c.clone(s.data)
	nv := c.newValue()
	if mode == Merge {
		c.copyValue(nv, s.data)
	}
	c.apply(nv, p)
	changed := false
	for i := range c.Schema.Props {
		if !c.Schema.Props[i].Type.Equal(c.access[i].Get(old), c.access[i].Get(nv)) {
			changed = true
		}
	}
	if !changed {
		return nil
	}
	s.data = nv
	if s.started && s.update != nil {
		s.update(r.sysCtx(s), s.data, old)
	}
	return nil
}

// compileSystem compiles the system's selector, if it has one, into its
// matcher.
func (r *Registry) compileSystem(s *System) error {
	if s.Selector == "" || s.matcher != nil {
		return nil
	}
	if r.sel == nil {
		return fmt.Errorf("registry: system %q has a selector but no selector engine is set", s.Name)
	}
	m, err := r.sel.Compile(s.Selector)
	if err != nil {
		return fmt.Errorf("registry: system %q: %w", s.Name, err)
	}
	s.matcher = m
	return nil
}

// runStart marks a compiled system started and runs its Init, then Update
// with zero old data.
func (r *Registry) runStart(s *System) {
	if s.started {
		return
	}
	s.started = true
	r.waiting--
	sc := r.sysCtx(s)
	if s.init != nil {
		s.init(sc, s.data)
	}
	if s.update != nil {
		zero := reflect.New(s.Schema.StructType()).UnsafePointer()
		s.update(sc, s.data, zero)
	}
	if s.query != nil {
		s.filter = s.query(sc, s.data)
	}
}

// Start initialises the systems (Init, then Update with zero old data), in
// registration order. It is called by every Tick; calling it before the
// first Tick reports problems earlier. A system whose selector does not
// compile (or that has a selector and no selector engine is set) is not
// started and does not tick; the others start and tick all the same.
// Start returns the errors of the systems it could not start, joined
// (nil once every system has started), and tries them again on each call,
// so that a selector naming a component declared later (by a scene, say)
// starts the system once that component exists.
func (r *Registry) Start() error {
	r.started = true
	if r.waiting == 0 {
		return nil
	}
	var errs []error
	for _, s := range r.systems {
		if s.started {
			continue
		}
		if err := r.compileSystem(s); err != nil {
			errs = append(errs, err)
			continue
		}
		r.runStart(s)
	}
	return errors.Join(errs...)
}

// Tick advances the scene by dt seconds: it runs the schedule
// ([Registry.Schedule]), phase by phase (a fixed-step phase as many times
// as whole steps have accumulated), each phase's systems and component
// ticks in their order (A-Frame's within a phase: system ticks, component
// ticks, then in post-update system tocks and component tocks; before and
// after constraints; registration order otherwise), component hooks over
// their packed storage with paused entities skipped. Systems whose access
// does not conflict run at the same time on the schedule's workers, with
// the same result as one after the other. A paused Registry does nothing
// but start systems.
//
// Tick first calls [Registry.Start]. It returns, joined: the errors of systems
// that could not start (they do not tick; the others do), and the errors of
// work deferred since the last Tick or [Registry.TakeErrors] (a spawner that
// could not spawn). A nil error means every system ticked and nothing failed.
// A dt that is NaN or infinite is refused (nothing runs), as is a Tick called
// from inside a hook of a running Tick ([ErrReentrantTick]), and so is a
// Tick while the schedule has no possible order ([Schedule.Err]).
//
// A hook that panics does not take the program down: the panic is
// recovered and returned, as a [*PanicError] naming the system or
// component; its commands are dropped and the other systems run on (a
// panic elsewhere in the tick, such as in a hook run while changes are
// applied, ends the tick). Hooks run by the library close their queries
// on the way out, so the World stays unlocked; a hook that opens its
// own should close them in a defer (see [ecs.Query.Close]).
//
// The event deliveries of one Tick share a budget,
// Limits.MaxDeliveries: past it, they are dropped and the first refused
// is reported (a [*BudgetError]).
//
// Tick is [schedule.Schedule.Tick] of [Registry.Schedule], with the
// Registry as its host: the scene clock it moves is the schedule's.
func (r *Registry) Tick(dt float64) error { return r.sched.Tick(dt) }

// Pause stops ticking the whole scene and runs every component's pause
// hook; Play resumes.
func (r *Registry) Pause() {
	if r.paused {
		return
	}
	r.paused = true
	r.eachHook(func(c *Component) func(*Context, unsafe.Pointer) { return c.hooks.pause })
}

// Play resumes a paused scene and runs every component's play hook.
func (r *Registry) Play() {
	if !r.paused {
		return
	}
	r.paused = false
	r.eachHook(func(c *Component) func(*Context, unsafe.Pointer) { return c.hooks.play })
}

// Paused reports whether the scene is paused.
func (r *Registry) Paused() bool { return r.paused }

func (r *Registry) eachHook(pick func(*Component) func(*Context, unsafe.Pointer)) {
	for id, c := range r.byID {
		if c == nil || pick(c) == nil {
			continue
		}
		// Entities paused on their own are already paused, and stay so
		// when the scene plays.
		f := ecs.NewFilter(r.w, ecs.With(ecs.ID(id)), ecs.Without(r.pausedTag))
		var es []ecs.Entity
		q := f.Query()
		for q.Next() {
			es = append(es, q.Entity())
		}
		f.Close()
		for _, e := range es {
			if p, err := r.w.GetPtr(e, ecs.ID(id)); err == nil {
				pick(c)(r.hookCtx(e, ecs.ID(id)), p)
			}
		}
	}
}

// PauseEntity pauses e: its components stop ticking and their pause hooks
// run. The entity gets the paused tag, so selectors can see it.
func (r *Registry) PauseEntity(e ecs.Entity) error {
	return r.setEntityPaused(e, true)
}

// PlayEntity resumes a paused entity; play hooks run.
func (r *Registry) PlayEntity(e ecs.Entity) error {
	return r.setEntityPaused(e, false)
}

// PausedTag is the name of the tag that [Registry.PauseEntity] adds to an
// entity (reserved: [New] registers it in the World). A system that walks
// the World with its own [ecs.Filter] leaves paused entities out with
// ecs.Without of its ID (World.ComponentID(PausedTag)), as the
// Registry's tick filters do; the selector [paused] finds them.
const PausedTag = "paused"

func (r *Registry) setEntityPaused(e ecs.Entity, pause bool) error {
	if !r.w.Alive(e) {
		return fmt.Errorf("registry: pause %v: %w", e, ecs.ErrStale)
	}
	if r.w.Has(e, r.pausedTag) == pause {
		return nil
	}
	// While the scene is paused every component is paused already: the
	// entity's state changes, its hooks do not run (Play runs play for
	// the entities not paused on their own).
	for _, id := range r.w.Components(e) {
		if r.paused {
			break
		}
		c, ok := r.ComponentByID(id)
		if !ok {
			continue
		}
		h := c.hooks.play
		if pause {
			h = c.hooks.pause
		}
		if h != nil {
			if p, err := r.w.GetPtr(e, id); err == nil {
				h(r.hookCtx(e, id), p)
			}
		}
	}
	if pause {
		return r.w.Add(e, r.pausedTag)
	}
	return r.w.Remove(e, r.pausedTag)
}

// selectorEngine compiles selector strings for the Registry: system
// selectors, selector-typed properties and Query. selEngine, over the
// selector package, is the one every Registry uses; tests plug in others
// with setSelectorEngine to check the Registry's side alone.
type selectorEngine interface {
	Compile(src string) (compiledSelector, error)
}

// compiledSelector is a compiled selector: the methods the Registry uses
// of *selector.Selector.
type compiledSelector interface {
	// QueryAll appends the matching entities, in document order, to dst.
	QueryAll(dst []ecs.Entity) []ecs.Entity
	// QueryFirst returns the first matching entity in document order.
	QueryFirst() (ecs.Entity, bool)
	// Matches reports whether e matches.
	Matches(e ecs.Entity) bool
}

// setSelectorEngine plugs in the engine that compiles selectors (nil for
// none).
func (r *Registry) setSelectorEngine(s selectorEngine) {
	r.sel = s
	r.selCache = make(map[string]compiledSelector)
}

func (r *Registry) compile(src string) (compiledSelector, error) {
	r.notFrozen("a selector query")
	if r.sel == nil {
		return nil, fmt.Errorf("registry: no selector engine set")
	}
	if m, ok := r.selCache[src]; ok {
		return m, nil
	}
	m, err := r.sel.Compile(src)
	if err != nil {
		return nil, err
	}
	r.selCache[src] = m
	return m, nil
}

// QueryAll returns the entities matching selector, in document order.
func (r *Registry) QueryAll(selector string) ([]ecs.Entity, error) {
	m, err := r.compile(selector)
	if err != nil {
		return nil, err
	}
	return m.QueryAll(nil), nil
}

// Resolve resolves a selector-typed property now: the first matching
// entity in document order ("" matches none). Resolution is lazy, so a
// target created after the property was set is found. A selector held as
// a string resolves the same way: Resolve(SelectorText(s)).
func (r *Registry) Resolve(s SelectorText) (ecs.Entity, bool, error) {
	if s == "" {
		return ecs.Entity{}, false, nil
	}
	m, err := r.compile(string(s))
	if err != nil {
		return ecs.Entity{}, false, err
	}
	e, ok := m.QueryFirst()
	return e, ok, nil
}
