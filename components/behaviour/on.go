package behaviour

import (
	"fmt"
	"math/bits"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

// The on component (multiple: on__hit): when one of its events reaches
// the entity (emitted on it, or bubbling up from a descendant), from a
// source its from clause matches, if its condition holds, it runs its
// actions in order. Its value is an [OnSpec]; docs/components.md
// describes the clauses.

// maxOnDepth bounds the nesting of handlers (an action that emits an
// event another handler, or the same, handles at once): deeper
// deliveries are dropped and reported.
const maxOnDepth = 32

// Handlers runs the on components of one Registry. It has no tick: a
// handler runs inside the Emit that delivers its event. What it reads:
// the handler's entity's components its expressions name, the event, the
// scene time; what it writes: the components its sets, adds and removes
// name, on its targets, and the entities it spawns and destroys.
type Handlers struct {
	reg    *registry.Registry
	w      *ecs.World
	paused ecs.ID // the registry's paused tag
	b      *Builtins
	hs     map[animKey]*handler
	// sels are the compiled selectors of from and target clauses, shared
	// by the handlers that write the same text.
	sels map[string]*selRef
	// One frame and target list per nesting level.
	frames  [maxOnDepth]expr.Frame
	targets [maxOnDepth][]ecs.Entity
	depth   int
	clock   *sceneClock
}

// handler is one on instance.
type handler struct {
	e     ecs.Entity
	key   animKey
	name  string
	spec  OnSpec // the value it was configured with
	bound *boundOn
	lis   []registry.ListenerID
	evs   []string // the events lis listen to
	fired int64
	err   string // the last error reported, not reported again
}

// boundOn is a handler's program with what it names resolved in the
// World: the component of each slot and of each step, the selectors.
type boundOn struct {
	prog  *onProgram
	slots []ecs.ID
	ids   []ecs.ID              // per step: the component a set, add or remove names
	comps []*registry.Component // per step
	from  *selRef
	sels  []*selRef // per step: a target clause's selector
}

// selRef is a compiled selector and the number of handlers using it.
type selRef struct {
	src string
	sel *selector.Selector
	n   int
}

// fillState tracks which slots of a frame hold valid pointers.
type fillState struct {
	filled uint8
	ver    uint64
}

func registerOn(reg *registry.Registry, b *Builtins) error {
	if err := registerType(reg, onType()); err != nil {
		return err
	}
	hs := &Handlers{reg: reg, w: reg.World(), paused: pausedID(reg), b: b, hs: map[animKey]*handler{}, sels: map[string]*selRef{}, clock: &b.clock}
	_, err := registry.Register(reg, "on", registry.Definition[OnSpec]{
		Multiple: true,
		Update:   func(cx *registry.Context, v, _ *OnSpec) { hs.configure(cx.Entity, cx.ID, cx.Name, *v) },
		Remove:   func(cx *registry.Context, _ *OnSpec) { hs.remove(cx.Entity, cx.ID) },
		Check:    checkOn,
	})
	b.Handlers = hs
	return err
}

// configure compiles a handler's new value and (re)listens to its
// events; the listeners stay when the events did not change, and so does
// the count of firings. A value that does not compile is reported (a
// scene's are checked when it loads) and leaves the handler inert.
func (hs *Handlers) configure(e ecs.Entity, id ecs.ID, name string, spec OnSpec) {
	key := animKey{e.Index(), id}
	h := hs.hs[key]
	if h == nil || h.e != e {
		h = &handler{e: e, key: key, name: name}
		hs.hs[key] = h
	}
	h.spec, h.err = spec, ""
	old := h.bound
	h.bound = nil
	defer hs.release(old)
	prog, err := compileOn(spec, name, regEnv(hs.reg))
	if err == nil {
		h.bound, err = hs.bind(prog)
	}
	if err != nil {
		hs.listen(h, nil)
		hs.fail(h, err)
		return
	}
	hs.listen(h, prog.events)
}

// bind resolves a program's names in the World.
func (hs *Handlers) bind(prog *onProgram) (*boundOn, error) {
	b := &boundOn{prog: prog, ids: make([]ecs.ID, len(prog.steps)), comps: make([]*registry.Component, len(prog.steps)),
		sels: make([]*selRef, len(prog.steps))}
	for _, n := range prog.slots {
		_, id, err := hs.reg.Lookup(n)
		if err != nil {
			hs.release(b)
			return nil, err
		}
		b.slots = append(b.slots, id)
	}
	var err error
	if prog.from != "" {
		if b.from, err = hs.selector(prog.from); err != nil {
			hs.release(b)
			return nil, fmt.Errorf("from: %w", err)
		}
	}
	for i, st := range prog.steps {
		switch st.kind {
		case onTarget:
			if st.name != "" {
				if b.sels[i], err = hs.selector(st.name); err != nil {
					hs.release(b)
					return nil, fmt.Errorf("target: %w", err)
				}
			}
		case onSet, onAdd, onRemove:
			name := st.name
			if st.kind == onSet {
				name = st.tgt.comp
			} else if err = hs.declareTag(name); err != nil {
				hs.release(b)
				return nil, err
			}
			if b.comps[i], b.ids[i], err = hs.reg.Lookup(name); err != nil {
				hs.release(b)
				return nil, err
			}
		}
	}
	return b, nil
}

// declareTag declares name as a tag unless a component has it (add and
// remove take any name, as a scene's "name:" does).
func (hs *Handlers) declareTag(name string) error {
	base, _, _ := cutInstance(name)
	if _, ok := hs.reg.Component(base); ok {
		return nil
	}
	s, err := schema.NewSchema(nil, hs.reg.Types())
	if err == nil {
		_, err = hs.reg.Declare(base, s)
	}
	return err
}

// selector returns the shared compiled selector of src.
func (hs *Handlers) selector(src string) (*selRef, error) {
	if r := hs.sels[src]; r != nil {
		r.n++
		return r, nil
	}
	s, err := hs.reg.Compile(src)
	if err != nil {
		return nil, err
	}
	r := &selRef{src: src, sel: s, n: 1}
	hs.sels[src] = r
	return r, nil
}

// release gives back the selectors of b.
func (hs *Handlers) release(b *boundOn) {
	if b == nil {
		return
	}
	for _, r := range append([]*selRef{b.from}, b.sels...) {
		if r == nil {
			continue
		}
		if r.n--; r.n == 0 {
			r.sel.Close()
			delete(hs.sels, r.src)
		}
	}
}

// listen makes h listen to evs (none: stop listening), keeping its
// listeners if they are the same events.
func (hs *Handlers) listen(h *handler, evs []string) {
	if len(evs) == len(h.evs) && len(h.lis) == len(evs) {
		same := true
		for i := range evs {
			same = same && evs[i] == h.evs[i]
		}
		if same {
			return
		}
	}
	for _, l := range h.lis {
		hs.reg.Events().Off(l)
	}
	h.lis, h.evs = h.lis[:0], append(h.evs[:0], evs...)
	key, e := h.key, h.e
	for _, ev := range evs {
		h.lis = append(h.lis, hs.reg.Events().OnAs(e, ev, h.name, func(ev *registry.Event) { hs.deliver(key, e, ev) }))
	}
}

// remove forgets a handler (its Remove).
func (hs *Handlers) remove(e ecs.Entity, id ecs.ID) {
	key := animKey{e.Index(), id}
	h := hs.hs[key]
	if h == nil {
		return
	}
	for _, l := range h.lis {
		hs.reg.Events().Off(l)
	}
	hs.release(h.bound)
	delete(hs.hs, key)
}

// fail reports err for h, unless it was the last error reported.
func (hs *Handlers) fail(h *handler, err error) {
	if msg := err.Error(); msg != h.err {
		h.err = msg
		hs.reg.ReportError(behaviourError(hs.reg, h.e, h.name, err))
	}
}

// deliver runs handler key, on entity e, for ev.
func (hs *Handlers) deliver(key animKey, e ecs.Entity, ev *registry.Event) {
	h := hs.hs[key]
	if h == nil || h.e != e || h.bound == nil || ev.Current != e {
		return
	}
	if hs.reg.Paused() || hs.w.Has(e, hs.paused) {
		return // as A-Frame removes a component's event listeners on pause
	}
	b := h.bound
	if !hs.current(b) {
		// A component it names was declared anew (a reload changed the
		// scene's components section): compile against the new schema.
		hs.configure(e, key.id, h.name, h.spec)
		if b = h.bound; b == nil {
			return
		}
	}
	if b.from != nil && !b.from.sel.Matches(ev.Target) {
		return
	}
	if hs.depth == maxOnDepth {
		hs.fail(h, fmt.Errorf("%s: handlers nested more than %d deep (an action emits an event that comes back to a handler?): dropped", ev.Name, maxOnDepth))
		return
	}
	d := hs.depth
	hs.depth++
	defer func() { hs.depth-- }()
	f := &hs.frames[d]
	f.Reset()
	f.Entity, f.Time, f.Dt, f.Event, f.Detail = e, hs.clock.now(), hs.clock.dt, ev.Name, ev.Detail
	defer func() { f.Detail = nil }()
	var fs fillState
	if c := b.prog.cond; c != nil {
		if !hs.fill(h, b, f, b.prog.condMask, &fs) {
			return
		}
		ok := c(f)
		if err := f.Err(); err != nil {
			hs.fail(h, fmt.Errorf("if: %w", err))
			return
		}
		if !ok {
			return
		}
	}
	h.fired++
	hs.run(h, b, f, &fs, d)
}

// current reports whether the components b names are still those it
// was bound to (a declared component redeclared gets new storage).
func (hs *Handlers) current(b *boundOn) bool {
	for _, id := range b.slots {
		if _, ok := hs.reg.ComponentByID(id); !ok {
			return false
		}
	}
	for i, c := range b.comps {
		if c != nil {
			if now, ok := hs.reg.ComponentByID(b.ids[i]); !ok || now != c {
				return false
			}
		}
	}
	return true
}

// fill puts in f the pointers to the components of the slots of mask,
// fetching again those a structural change may have moved. An entity
// without one of them fails the handler.
func (hs *Handlers) fill(h *handler, b *boundOn, f *expr.Frame, mask uint8, fs *fillState) bool {
	if v := hs.w.Version(); v != fs.ver {
		fs.filled, fs.ver = 0, v
	}
	for need := mask &^ fs.filled; need != 0; need &= need - 1 {
		slot := bits.TrailingZeros8(need)
		if !hs.w.Has(h.e, b.slots[slot]) {
			hs.fail(h, fmt.Errorf("an expression reads %s, which %s does not have", b.prog.slots[slot], entityLabel(hs.reg, h.e)))
			return false
		}
		p, _ := hs.w.GetPtr(h.e, b.slots[slot])
		f.Comp[slot] = p
		fs.filled |= 1 << slot
	}
	return true
}

// run runs the steps of h's program. Steps that may run other code
// (events, hooks) are followed by a check that h is still there, as it
// was: an action may remove the handler, destroy its entity or edit it.
func (hs *Handlers) run(h *handler, b *boundOn, f *expr.Frame, fs *fillState, d int) {
	targets := append(hs.targets[d][:0], h.e)
	defer func() { hs.targets[d] = targets[:0] }()
	for i := range b.prog.steps {
		st := &b.prog.steps[i]
		if st.kind == onTarget {
			targets = targets[:0]
			if st.name == "" {
				targets = append(targets, h.e)
			} else {
				targets = b.sels[i].sel.QueryAll(targets)
			}
			continue
		}
		if st.mask != 0 && !hs.fill(h, b, f, st.mask, fs) {
			return
		}
		if !hs.act(h, b, i, f, targets) {
			return
		}
		if hs.hs[h.key] != h || h.bound != b || !hs.w.Alive(h.e) {
			return
		}
	}
}

// act runs step i on every target; false stops the handler.
func (hs *Handlers) act(h *handler, b *boundOn, i int, f *expr.Frame, targets []ecs.Entity) bool {
	st := &b.prog.steps[i]
	switch st.kind {
	case onSet:
		var val setValue
		if !hs.eval(h, st, f, &val) {
			return false
		}
		for _, t := range targets {
			if err := hs.set(st, b.comps[i], b.ids[i], t, &val); err != nil {
				hs.fail(h, fmt.Errorf("set %s on %s: %w", st.tgt.comp, entityLabel(hs.reg, t), err))
			}
		}
	case onEmit:
		var detail any
		if st.prog != nil {
			v, err := st.prog.Eval(f)
			if err != nil {
				hs.fail(h, fmt.Errorf("emit %s: %w", st.name, err))
				return false
			}
			detail = v
		}
		for _, t := range targets {
			hs.reg.Events().Emit(t, st.name, detail, true)
		}
	case onSpawn:
		hs.spawn(h, st, f, targets)
	default:
		hs.structural(h, st, b.ids[i], targets)
	}
	return true
}

// structural runs add, remove, destroy and the animation and timer
// controls on the targets.
func (hs *Handlers) structural(h *handler, st *onStep, id ecs.ID, targets []ecs.Entity) {
	for _, t := range targets {
		if !hs.w.Alive(t) {
			continue
		}
		var err error
		switch st.kind {
		case onAdd:
			if !hs.w.Has(t, id) {
				err = hs.reg.SetPatch(t, st.name, nil, registry.Merge)
			}
		case onRemove:
			if hs.w.Has(t, id) {
				err = hs.reg.Remove(t, st.name)
			}
		case onDestroy:
			err = hs.w.Destroy(t)
		default:
			err = hs.control(st, t)
		}
		if err != nil {
			hs.fail(h, fmt.Errorf("%s %s: %w", onKeywords[st.kind], st.name, err))
		}
	}
}

// control runs start, pause, resume, restart or stop on t's animation
// or timer.
func (hs *Handlers) control(st *onStep, t ecs.Entity) error {
	if st.anim {
		a := hs.b.Animations
		switch st.kind {
		case onPause:
			return a.Pause(t, st.name)
		case onResume:
			return a.Resume(t, st.name)
		case onStop:
			return a.Stop(t, st.name)
		}
		return a.Restart(t, st.name)
	}
	ts := hs.b.Timers
	switch st.kind {
	case onPause:
		return ts.Pause(t, st.name)
	case onResume:
		return ts.Resume(t, st.name)
	case onStop:
		return ts.Stop(t, st.name)
	}
	return ts.Restart(t, st.name)
}

// spawn makes an instance of a prefab under each target, at the
// position its expression gives (else the prefab's), once the World is
// unlocked. Prefabs.InstantiateOver counts the instance's entities
// against the Registry's Limits.MaxEntities (and looks at its context)
// before making any: a handler that spawns its own prefab twice stops
// at the limit, its error reported.
func (hs *Handlers) spawn(h *handler, st *onStep, f *expr.Frame, targets []ecs.Entity) {
	var own []registry.NamedPatch
	if st.at != nil {
		v := st.at(f)
		if err := f.Err(); err != nil {
			hs.fail(h, fmt.Errorf("spawn %s: %w", st.name, err))
			return
		}
		own = []registry.NamedPatch{{Name: "position", Patch: registry.Patch{{Index: 0, Value: registry.Vec3{X: v[0], Y: v[1], Z: v[2]}}}}}
	}
	for _, t := range targets {
		t := t
		hs.w.Defer(func(*ecs.World) {
			if !hs.w.Alive(t) {
				return
			}
			if _, err := hs.reg.Prefabs().InstantiateOver(t, st.name, "", nil, own); err != nil {
				hs.fail(h, fmt.Errorf("spawn %s: %w", st.name, err))
			}
		})
	}
}

// setValue is the value a set computed, in the field of its kind.
type setValue struct {
	num float64
	b   bool
	s   string
	v   expr.Vec
}

// eval computes a set's value.
func (hs *Handlers) eval(h *handler, st *onStep, f *expr.Frame, val *setValue) bool {
	switch st.tgt.kind {
	case expr.Number:
		val.num = st.num(f)
	case expr.Bool:
		val.b = st.b(f)
	case expr.String:
		val.s = st.s(f)
	default:
		val.v = st.v(f)
	}
	if err := f.Err(); err != nil {
		hs.fail(h, fmt.Errorf("set %s: %w", st.name, err))
		return false
	}
	return true
}
