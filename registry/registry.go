package registry

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/events"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/internal/docorder"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/relations"
	"github.com/scenecs/scenecs/schedule"
)

// Registry binds component and system definitions to one [ecs.World]: it
// knows every component by name and schema, parses attribute strings into
// component data, runs lifecycle hooks in A-Frame's order and ticks
// components and systems. A program may hold several Registries, one per
// World; there is no package-level registry.
type Registry struct {
	addScratch addScratch       // SetMany's lists, reused
	shapes     shapeMemo        // what SetMany worked out for fresh entities (see shape)
	adding     []unsafe.Pointer // the values SetMany adds, by ecs id (see addValue)
	// Seed is mixed into the random streams of built-ins that draw
	// numbers (the spawner), so one scene can be run with several seeds.
	// Zero keeps each spawner's own seed as it is.
	Seed uint64

	w     *ecs.World
	types *Types

	// Limits bound what the Registry creates on its own (spawners).
	// Zero fields take the values of DefaultLimits.
	Limits Limits

	comps    map[string]*Component // base names
	byID     []*Component          // by ecs.ID, instances included
	names    []string              // scene name by ecs.ID
	order    []*Component          // registration order
	sched    *Schedule
	systems  []*System
	sysNames map[string]*System
	waiting  int // systems registered but not started

	mixins  map[string]*Mixin
	prefabs prefabStore

	sel      selectorEngine
	selCache map[string]compiledSelector

	events *events.Events
	// compDetails are the ComponentEvent details by component ID, boxed
	// once (componentDetail).
	compDetails []any

	pausedTag ecs.ID
	refs      *relations.Index // made with the first reference property
	groups    groups           // Prefabs, Mixins
	started   bool
	paused    bool
	window    events.Window // of the Tick or RunOnce running (schedHost)

	// The document-order index the selectors compiled against the
	// Registry share: embedded so that *Registry implements
	// docorder.Sharer with a method that is not part of this package's
	// API (see docShare).
	docShare

	cancel  context.Context // checked by long spawns; nil: never cancelled
	errMu   sync.Mutex      // guards errs and dropped: parallel systems report too
	errs    []error         // errors of deferred work, see TakeErrors
	dropped int             // errors not kept beyond maxPendingErrors
}

// docShare names docorder.Shared with an unexported name, so that the
// embedded field and its promoted method stay out of the Registry's
// documented API.
type docShare = docorder.Shared

// New returns a Registry over w with the built-in property types and no
// components. Call RegisterBuiltins to add the built-in components.
func New(w *ecs.World) *Registry {
	// Scenes need document order (selectors, dumps) to be creation order.
	w.EnableHierarchy()
	r := &Registry{
		w:        w,
		types:    schema.NewTypes(),
		comps:    make(map[string]*Component),
		sysNames: make(map[string]*System),
		mixins:   make(map[string]*Mixin),
		prefabs:  prefabStore{defs: make(map[string]*Prefab)},
		selCache: make(map[string]compiledSelector),
	}
	r.sched = schedule.New(w, (*schedHost)(r))
	id, err := w.RegisterTag(PausedTag)
	if err != nil {
		panic(fmt.Sprintf("registry.New: %v (the World already has a component named paused)", err))
	}
	r.pausedTag = id
	r.groups = groups{Prefabs{r}, Mixins{r}}
	r.sel = newSelectorEngine(r)
	r.events = r.newEvents()
	w.Observe(ecs.ChildAttached, func(w *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		if p, ok := w.Parent(e); ok {
			r.events.Emit(p, "child-attached", ChildEvent{El: e}, true)
		}
	})
	w.Observe(ecs.ChildDetached, func(w *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		if p, ok := w.Parent(e); ok {
			r.events.Emit(p, "child-detached", ChildEvent{El: e}, true)
		}
	})
	return r
}

// World returns the World the Registry works on.
func (r *Registry) World() *ecs.World { return r.w }

// Types returns the property types schemas of this Registry use; register
// custom types there before registering components that use them.
func (r *Registry) Types() *Types { return r.types }

// Time returns the scene time in seconds: the sum of the deltas given to
// Tick. It is the schedule's clock ([Schedule.Time]), the only one.
func (r *Registry) Time() float64 { return r.sched.Time() }

// Component returns the component registered (or declared) under name. A
// name of the form base__instance returns the base component.
func (r *Registry) Component(name string) (*Component, bool) {
	base, _, _ := strings.Cut(name, "__")
	c, ok := r.comps[base]
	return c, ok
}

// ComponentByID returns the component stored under ecs ID id (a base
// component or one instance of a multiple component).
func (r *Registry) ComponentByID(id ecs.ID) (*Component, bool) {
	if int(id) >= len(r.byID) || r.byID[id] == nil {
		return nil, false
	}
	return r.byID[id], true
}

// Components returns every registered component in registration order.
func (r *Registry) Components() []*Component { return slices.Clone(r.order) }

// Names returns the names of every registered component, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.comps))
	for n := range r.comps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Component is a registered component: a name, a schema, its storage in
// the World and its lifecycle hooks.
type Component struct {
	// Name is the component's name, as written in scenes.
	Name string
	// Schema describes the component's properties.
	Schema *Schema
	// ID is the ecs component ID of the base name.
	ID ecs.ID
	// Multiple reports whether an entity may hold several instances,
	// named name__instance.
	Multiple bool
	// Dependencies are components initialised before this one (and added
	// with their defaults if absent).
	Dependencies []string
	// Before and After order this component's tick relative to others.
	Before, After []string
	// Declared reports a data-only component declared at run time (for
	// example in a scene file's components section), with no Go type and
	// no hooks.
	Declared bool

	readOnly  bool   // Definition.ReadOnly (see readonly.go)
	owner     string // Definition.Owner
	sched     Settings
	chunk     int
	reg       *Registry
	seq       int // registration index, for the tick order
	instances map[string]ecs.ID
	newStore  func(name string) (ecs.ID, error)
	hooks     hooks
	access    []schema.Accessor
	filters   []tickFilter
	rels      []*relations.Rel // by property index, nil for other types (see relations.go)
}

// hooks are the type-erased lifecycle functions of a component; the typed
// Definition fields are wrapped once at registration.
type hooks struct {
	init, remove, pause, play func(c *Context, p unsafe.Pointer)
	update                    func(c *Context, p, old unsafe.Pointer)
	tick, tock                func(c *Context, id ecs.ID, q *ecs.Query)
	check                     func(c *CheckContext, p unsafe.Pointer) error
}

// HasTick reports whether the component has a tick or tock hook.
func (c *Component) HasTick() bool { return c.hooks.tick != nil || c.hooks.tock != nil }

// HasUpdate reports whether the component has an update hook: a write
// of its data that goes around [Registry.SetPatch] (through a pointer)
// would not run it.
func (c *Component) HasUpdate() bool { return c.hooks.update != nil }

// Definition describes a component backed by the Go type T. Every field is
// optional. Hooks receive a Context naming the entity and instance, and a
// pointer to the entity's packed data, valid during the call.
type Definition[T any] struct {
	// Schema, if set, describes T's properties; otherwise it is derived
	// from T with SchemaOf (struct fields and `scene` tags).
	Schema *Schema
	// Multiple allows several instances per entity (name__instance).
	Multiple bool
	// Dependencies are initialised first, depth-first, left to right,
	// and added with their defaults if absent.
	Dependencies []string
	// Before and After order the tick of this component before or after
	// the named components' or systems' (see [Settings]).
	Before, After []string
	// Phase names the phase the component's Tick (or TickColumn) runs
	// in: [PhaseUpdate] if empty. Its Tock runs in [PhasePostUpdate].
	Phase string
	// Access declares what the tick reads and writes, beside its own
	// component, which it always writes; nil leaves it unknown, and the
	// tick exclusive (see [Access]). A declared tick that is not
	// exclusive makes its structural changes through [Context.Commands].
	Access *Access
	// Every and Interval set the tick's rate (see [Settings]).
	Every    int
	Interval float64
	// ChunkSize, if not 0, splits the tick's work into chunks of that
	// many rows, run on the workers at once: for ticks whose per-entity
	// work is independent (it needs a declared Access, not exclusive).
	ChunkSize int
	// ReadOnly makes the component writable only by the code that owns
	// it: the Registry's public writes refuse it with a *ReadOnlyError,
	// and its owner writes through the World or [Registry.Privileged]
	// (see [ErrReadOnly]).
	ReadOnly bool
	// Owner says what writes a read-only component, for the messages of
	// refused writes: "computed by the transform system from position,
	// rotation and scale: set those instead".
	Owner string

	// Init runs when the component is attached, before the first Update.
	Init func(c *Context, v *T)
	// Update runs after Init with old the zero value, then after every
	// change that actually changes the data, with old the previous data.
	Update func(c *Context, v *T, old *T)
	// Remove runs when the component is detached or its entity destroyed.
	Remove func(c *Context, v *T)
	// Tick runs every frame for every entity that has the component and
	// is not paused (the convenient form).
	Tick func(c *Context, v *T)
	// TickColumn runs every frame once per storage table with the packed
	// values of the component (the fast form); c.EntityAt(i) names the
	// entity of vs[i]. If both are set, TickColumn is used.
	TickColumn func(c *Context, vs []T)
	// Tock runs every frame after all ticks, per entity.
	Tock func(c *Context, v *T)
	// Pause and Play run when the entity (or the scene) pauses and plays.
	Pause, Play func(c *Context, v *T)
	// Check, if set, checks data where it is parsed from a scene file,
	// beyond what each property's type checks alone (a property naming
	// another component's property, say), so that a bad value is a load
	// error at its place in the file. It gets the value written (over
	// the defaults) and returns nil, or a [*PropError] naming the
	// property and the offending text. See [Component.CheckAttr].
	Check func(c *CheckContext, v *T) error
}

// Register registers the Go type T as the component name. The name must
// be usable in selectors: letters, digits, '-' and '_', not starting with
// a digit, without "__" (which separates instance names).
func Register[T any](r *Registry, name string, d Definition[T]) (*Component, error) {
	if err := checkComponentName(name); err != nil {
		return nil, err
	}
	if _, dup := r.comps[name]; dup {
		return nil, fmt.Errorf("registry: component %q is already registered", name)
	}
	gt := reflect.TypeFor[T]()
	s := d.Schema
	if s == nil {
		var err error
		if s, err = schema.SchemaOf(gt, r.types); err != nil {
			return nil, fmt.Errorf("registry: component %q: %w", name, err)
		}
	} else if s.StructType() != gt {
		return nil, fmt.Errorf("registry: component %q: schema describes %v, not %v", name, s.StructType(), gt)
	}
	if d.ChunkSize < 0 || d.ChunkSize > 0 && (d.Access == nil || d.Access.Exclusive) {
		return nil, fmt.Errorf("registry: component %q: a chunked tick needs a declared Access, not exclusive (its chunks run in parallel), and a positive ChunkSize", name)
	}
	c := &Component{
		Name: name, Schema: s, Multiple: d.Multiple,
		Dependencies: slices.Clone(d.Dependencies),
		Before:       slices.Clone(d.Before), After: slices.Clone(d.After),
		readOnly: d.ReadOnly, owner: d.Owner,
		sched: Settings{Phase: d.Phase, Before: d.Before, After: d.After, Access: d.Access, Every: d.Every, Interval: d.Interval},
		chunk: d.ChunkSize,
	}
	c.newStore = func(n string) (ecs.ID, error) {
		m, err := ecs.Register[T](r.w, n)
		return m.ID(), err
	}
	h := &c.hooks
	if d.Init != nil {
		h.init = func(cx *Context, p unsafe.Pointer) { d.Init(cx, (*T)(p)) }
	}
	if d.Update != nil {
		h.update = func(cx *Context, p, old unsafe.Pointer) { d.Update(cx, (*T)(p), (*T)(old)) }
	}
	if d.Remove != nil {
		h.remove = func(cx *Context, p unsafe.Pointer) { d.Remove(cx, (*T)(p)) }
	}
	if d.Pause != nil {
		h.pause = func(cx *Context, p unsafe.Pointer) { d.Pause(cx, (*T)(p)) }
	}
	if d.Play != nil {
		h.play = func(cx *Context, p unsafe.Pointer) { d.Play(cx, (*T)(p)) }
	}
	if d.Check != nil {
		h.check = func(cx *CheckContext, p unsafe.Pointer) error { return d.Check(cx, (*T)(p)) }
	}
	switch {
	case d.TickColumn != nil:
		tc := d.TickColumn
		h.tick = func(cx *Context, id ecs.ID, q *ecs.Query) {
			for q.NextTable() {
				base, _ := q.ColumnPtr(id)
				if base == nil {
					base = unsafe.Pointer(&zeroT)
				}
				tc(cx, unsafe.Slice((*T)(base), q.Len()))
			}
		}
	case d.Tick != nil:
		h.tick = perEntity(d.Tick)
	}
	if d.Tock != nil {
		h.tock = perEntity(d.Tock)
	}
	if err := r.add(c); err != nil {
		return nil, err
	}
	return c, nil
}

var zeroT struct{}

// tickFilter is the tick query of one instance of a component.
type tickFilter struct {
	id ecs.ID
	f  *ecs.Filter
}

// perEntity wraps a per-entity hook into a loop over packed storage: no
// allocation, map lookup or reflection per entity. The caller opens the
// query and closes it on the way out, also when the hook panics.
func perEntity[T any](fn func(c *Context, v *T)) func(cx *Context, id ecs.ID, q *ecs.Query) {
	return func(cx *Context, id ecs.ID, q *ecs.Query) {
		for q.NextTable() {
			base, size := q.ColumnPtr(id)
			if base == nil {
				base = unsafe.Pointer(&zeroT)
			}
			n := q.Len()
			for i := 0; i < n; i++ {
				cx.Entity = q.EntityAt(i)
				fn(cx, (*T)(unsafe.Add(base, uintptr(i)*size)))
			}
		}
	}
}

// Declare registers a data-only component from a schema built at run time
// ([NewSchema]): no Go type and no hooks, stored packed like any other.
func (r *Registry) Declare(name string, s *Schema) (*Component, error) {
	if err := checkComponentName(name); err != nil {
		return nil, err
	}
	if _, dup := r.comps[name]; dup {
		return nil, fmt.Errorf("registry: component %q is already registered", name)
	}
	if s == nil {
		return nil, fmt.Errorf("registry: component %q: nil schema", name)
	}
	c := &Component{Name: name, Schema: s, Declared: true}
	st := s.StructType()
	c.newStore = func(n string) (ecs.ID, error) { return r.w.RegisterType(n, st) }
	if err := r.add(c); err != nil {
		return nil, err
	}
	return c, nil
}

func checkComponentName(name string) error {
	if name == "" {
		return fmt.Errorf("registry: empty component name")
	}
	if strings.Contains(name, "__") {
		return fmt.Errorf("registry: component name %q: \"__\" is reserved for instance names (name__instance)", name)
	}
	for i := 0; i < len(name); i++ {
		ch := name[i]
		ok := ch == '_' || ch == '-' || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || i > 0 && '0' <= ch && ch <= '9'
		if !ok {
			return fmt.Errorf("registry: component name %q: only letters, digits, '-' and '_' are allowed, not starting with a digit", name)
		}
	}
	if name == "id" || name == "class" || name == "mixin" || name == "children" || name == "paused" {
		return fmt.Errorf("registry: component name %q is reserved", name)
	}
	return nil
}

func (r *Registry) add(c *Component) error {
	// Put it in the schedule first, so that a refusal (a before/after
	// cycle) leaves no trace: the name stays free in the World and can
	// be registered again, fixed. The order itself is computed once,
	// before the next Tick, so that registering N components costs
	// O(N log N).
	if c.HasTick() || len(c.sched.Before) > 0 || len(c.sched.After) > 0 {
		if err := r.sched.Add(&compNode{c: c, ctx: make([]Context, 1)}); err != nil {
			return err
		}
	}
	c.reg = r
	c.instances = make(map[string]ecs.ID)
	c.access = c.Schema.Accessors()
	id, err := c.newStore(c.Name)
	if err != nil {
		return fmt.Errorf("registry: component %q: %w", c.Name, err)
	}
	c.ID = id
	c.seq = len(r.order)
	r.comps[c.Name] = c
	r.order = append(r.order, c)
	r.bind(c, id)
	return nil
}

// bind makes the ecs component id an instance of c: lifecycle observers and
// the tick filter.
func (r *Registry) bind(c *Component, id ecs.ID) {
	r.shapes.reset()
	for int(id) >= len(r.byID) {
		r.byID = append(r.byID, nil)
		r.names = append(r.names, "")
	}
	r.byID[id] = c
	r.names[id] = r.w.ComponentName(id)
	if int(id) < len(r.compDetails) {
		r.compDetails[id] = nil // its name may be new
	}
	// Observed even without init or update hooks: componentinitialized is
	// emitted for every component.
	r.w.ObserveComponent(ecs.ComponentAdded, id, func(w *ecs.World, _ ecs.Event, e ecs.Entity, id ecs.ID) {
		r.runInit(c, e, id)
	})
	r.w.ObserveComponent(ecs.ComponentRemoved, id, func(w *ecs.World, _ ecs.Event, e ecs.Entity, id ecs.ID) {
		if c.hooks.remove != nil {
			if p, err := w.GetPtr(e, id); err == nil {
				cx := r.hookCtx(e, id)
				c.hooks.remove(cx, p)
			}
		}
		r.emitComponent(e, "componentremoved", id)
	})
	r.watchRefs(c, id)
	if c.HasTick() {
		c.filters = append(c.filters, tickFilter{id, ecs.NewFilter(r.w, ecs.With(id), ecs.Without(r.pausedTag))})
	}
	// A new instance widens what declared access allows.
	r.sched.Invalidate()
}

func (r *Registry) runInit(c *Component, e ecs.Entity, id ecs.ID) {
	p, err := r.w.GetPtr(e, id)
	if err != nil {
		return
	}
	// Make the Context only for hooks: most components have none, and
	// loading a large scene adds millions of components.
	var cx *Context
	if c.hooks.init != nil || c.hooks.update != nil {
		cx = r.hookCtx(e, id)
	}
	if c.hooks.init != nil {
		c.hooks.init(cx, p)
	}
	if c.hooks.update != nil {
		if p, err = r.w.GetPtr(e, id); err == nil {
			old := reflect.New(c.Schema.StructType()).UnsafePointer()
			c.hooks.update(cx, p, old)
		}
	}
	r.emitComponent(e, "componentinitialized", id)
}

// hookCtx returns a Context for a hook call on e's instance id.
func (r *Registry) hookCtx(e ecs.Entity, id ecs.ID) *Context {
	return &Context{Registry: r, World: r.w, Entity: e, ID: id, Name: r.nameOf(id), Time: r.sched.Time(), Delta: r.sched.Delta()}
}

// storeID returns the ecs ID for name (base or base__instance) of c,
// registering a new instance of a multiple component on first use.
func (c *Component) storeID(name string) (ecs.ID, error) {
	base, inst, isInst := strings.Cut(name, "__")
	if !isInst {
		return c.ID, nil
	}
	if base != c.Name {
		return 0, fmt.Errorf("registry: %q is not an instance of %q", name, c.Name)
	}
	if !c.Multiple {
		return 0, fmt.Errorf("registry: component %q is not multiple: instance name %q is not allowed", c.Name, name)
	}
	if inst == "" || strings.Contains(inst, "__") {
		return 0, fmt.Errorf("registry: invalid instance name %q: expected %s__ID", name, c.Name)
	}
	for i := 0; i < len(inst); i++ {
		ch := inst[i]
		if !(ch == '_' || ch == '-' || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9') {
			return 0, fmt.Errorf("registry: invalid instance name %q: only letters, digits, '-' and '_' may follow __", name)
		}
	}
	if id, ok := c.instances[inst]; ok {
		return id, nil
	}
	id, err := c.newStore(name)
	if err != nil {
		return 0, fmt.Errorf("registry: instance %q: %w", name, err)
	}
	c.instances[inst] = id
	c.reg.bind(c, id)
	return id, nil
}

// InstanceIDs returns the ecs IDs of the component's base name and every
// instance registered so far, base first.
func (c *Component) InstanceIDs() []ecs.ID {
	ids := []ecs.ID{c.ID}
	names := make([]string, 0, len(c.instances))
	for n := range c.instances {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ids = append(ids, c.instances[n])
	}
	return ids
}

// Lookup resolves a component name as written in a scene or selector
// ("health", "sound__1") to its component and ecs ID, registering the
// instance of a multiple component on first use.
func (r *Registry) Lookup(name string) (*Component, ecs.ID, error) {
	c, ok := r.Component(name)
	if !ok {
		return nil, 0, r.unknown(name)
	}
	id, err := c.storeID(name)
	return c, id, err
}

// lookupExisting is like Lookup but never registers a new instance: an
// instance never used so far reports ok=false (c is then the component,
// or nil for an unknown name).
func (r *Registry) lookupExisting(name string) (*Component, ecs.ID, bool) {
	c, ok := r.Component(name)
	if !ok {
		return nil, 0, false
	}
	id, ok := c.ExistingID(name)
	return c, id, ok
}

// ExistingID returns the ecs ID that stores name, the component's own
// name or one of its instances' ("sound__b"), if that storage exists: it
// never registers an instance (see [Registry.Lookup], which does).
func (c *Component) ExistingID(name string) (ecs.ID, bool) {
	base, inst, isInst := strings.Cut(name, "__")
	if !isInst {
		return c.ID, base == c.Name
	}
	id, ok := c.instances[inst]
	return id, ok
}

// UnknownComponentError reports a component name that is neither
// registered nor declared. Selectors naming one fail with a
// [*selector.Error] that wraps it.
type UnknownComponentError struct {
	// Name is the name that is unknown.
	Name string
	// Suggestion is the nearest registered name, or "".
	Suggestion string
}

// Error returns `unknown component "helth" (did you mean "health"?)`.
func (e *UnknownComponentError) Error() string {
	return fmt.Sprintf("unknown component %q%s", e.Name, didyoumean.Phrase(e.Suggestion))
}

func (r *Registry) unknown(name string) error {
	return &UnknownComponentError{Name: name, Suggestion: didyoumean.Nearest(name, r.Names())}
}
