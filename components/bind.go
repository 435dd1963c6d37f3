package components

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/registry"
)

// The bind component (multiple: bind__bob): bindings that keep
// properties equal to expressions, every tick. Its value is a
// [BindSpec].

// Bindings runs the bind components of one Registry: every binding of
// every entity has a state in one packed slice, and the behaviour system
// evaluates them all each tick (in batches of bindings that share a
// program where it can: bindgroup.go), writing through cached pointers. Reads: the components the expressions name, on each bound
// entity; the scene time. Writes: the bound properties (position,
// rotation and scale reported to the transform system as the animations
// report theirs; other components marked changed; a component with an
// update hook, or a property with a constraint, set through
// Registry.SetPatch instead).
type Bindings struct {
	reg   *registry.Registry
	w     *ecs.World
	t     *Transforms
	runs  []bindRun                       // hot: what the loop reads
	srcs  [][expr.MaxComps]unsafe.Pointer // the slots' components, in step with runs
	cold  []bindCold                      // the rest, in step with runs
	progs map[string]*cachedBind          // compiled values, by text
	// The batches of runs whose value reads no component (bindgroup.go),
	// the other runs' indexes, and whether they must be rebuilt.
	groups []*bindGroup
	byMemo map[*bindMemo]*bindGroup
	// The batches of runs whose value reads components and has a batch
	// form (bindgroup.go), and the values of one batch.
	batches []*bindBatch
	byProg  map[*bindProg]*bindBatch
	vals    [expr.BatchSize]float64
	view    [expr.MaxComps][]unsafe.Pointer // one batch's component pointers (kept here: Eval's argument escapes)
	nLoose  int                             // runs[:nLoose] are loose, runs[nLoose:] in groups
	dirty   bool
	perm    permScratch
	edits   uint64 // configures and removals, to notice those a hook makes
	insts   map[animKey]*bindInst
	frame   expr.Frame
	ver     uint64 // the World version the cached pointers belong to
	clock   *sceneClock

	// Instances whose runs wrote position (movedPos), or rotation or
	// scale (movedAll), this tick, marked with epoch; the filters of
	// their entities; the other writes, marked changed after the loop.
	epoch              uint32
	markPos, markAll   []uint32
	movedPos, movedAll []ecs.ID
	filters            map[ecs.ID]*ecs.Filter
	changed            []animAdd
}

// Flags of a binding's run.
const (
	bPosition  uint8 = 1 << iota // the target is position
	bTransform                   // the target is position, rotation or scale
	bPatch                       // written through SetPatch
	bReady                       // the loop's inline path: a number written in place, pointers cached
)

// bindRun is the hot state of one binding (48 bytes: the loop's
// memory traffic is a good part of its cost).
type bindRun struct {
	dst  unsafe.Pointer // the written field, valid while ver is the World's
	num  func(*expr.Frame) float64
	memo *bindMemo      // the program's value this tick, if it reads no component
	src0 unsafe.Pointer // the first slot's component (srcs[i][0])
	inst ecs.ID
	// nsrc is the number of slots whose pointers (Bindings.srcs[i])
	// the expression's frame gets.
	nsrc, write, flags uint8
}

// bindMemo is the value of a number binding that reads no component
// (sin(time * 2) * 3): the same for every entity in a tick, so computed
// once per tick for all the runs that share its program.
type bindMemo struct {
	epoch uint32
	x     float64
}

// bindCold is the rest of a binding's state.
type bindCold struct {
	e     ecs.Entity
	key   animKey
	prog  *bindProg
	inst  *bindInst
	tgtID ecs.ID
	comp  *registry.Component
	err   string // the last error reported, not reported again
}

// bindInst is one bind instance: its program, the components of its
// slots, the indexes of its runs.
type bindInst struct {
	e     ecs.Entity
	id    ecs.ID
	name  string
	spec  BindSpec
	prog  *bindProgram
	slots []ecs.ID
	runs  []int
	err   string
}

func registerBind(reg *registry.Registry, b *Builtins) error {
	if err := registerType(reg, bindType()); err != nil {
		return err
	}
	bs := &Bindings{reg: reg, w: reg.World(), t: b.Transforms, insts: map[animKey]*bindInst{}, filters: map[ecs.ID]*ecs.Filter{},
		clock: &b.clock, progs: map[string]*cachedBind{}, byMemo: map[*bindMemo]*bindGroup{}, byProg: map[*bindProg]*bindBatch{}}
	_, err := registry.Register(reg, "bind", registry.Definition[BindSpec]{
		Multiple: true,
		Update:   func(cx *registry.Context, v, _ *BindSpec) { bs.configure(cx.Entity, cx.ID, cx.Name, *v) },
		Remove:   func(cx *registry.Context, _ *BindSpec) { bs.remove(cx.Entity, cx.ID) },
		Check:    checkBind,
	})
	b.Bindings = bs
	return err
}

// configure compiles an instance's new value and replaces its runs. A
// value that does not compile is reported (a scene's are checked when it
// loads) and leaves the instance without bindings.
func (bs *Bindings) configure(e ecs.Entity, id ecs.ID, name string, spec BindSpec) {
	key := animKey{e.Index(), id}
	bs.remove(e, id)
	bs.edits++
	bs.dirty = true
	in := &bindInst{e: e, id: id, name: name, spec: spec}
	bs.insts[key] = in
	prog, err := bs.compile(spec)
	if err == nil {
		for _, n := range prog.slots {
			_, sid, lerr := bs.reg.Lookup(n)
			if lerr != nil {
				err = lerr
				break
			}
			in.slots = append(in.slots, sid)
		}
	}
	if err != nil {
		bs.fail(in, err)
		return
	}
	in.prog = prog
	for i := range prog.items {
		bp := &prog.items[i]
		c, tid, lerr := bs.reg.Lookup(bp.tgt.comp)
		if lerr != nil {
			bs.fail(in, lerr)
			continue
		}
		flags := uint8(0)
		if bp.tgt.write > wVec4 || bp.tgt.check || c.HasUpdate() {
			flags |= bPatch
		}
		switch tid {
		case bs.t.posID:
			flags |= bPosition | bTransform
		case bs.t.rotID, bs.t.sclID:
			flags |= bTransform
		}
		in.runs = append(in.runs, len(bs.runs))
		bs.runs = append(bs.runs, bindRun{num: bp.num, memo: bp.memo, nsrc: uint8(len(in.slots)), write: bp.tgt.write, flags: flags, inst: id})
		bs.srcs = append(bs.srcs, [expr.MaxComps]unsafe.Pointer{})
		bs.cold = append(bs.cold, bindCold{e: e, key: key, prog: bp, inst: in, tgtID: tid, comp: c})
	}
}

// remove forgets an instance's runs (its Remove, and before a new
// value): each is replaced by the last run.
func (bs *Bindings) remove(e ecs.Entity, id ecs.ID) {
	key := animKey{e.Index(), id}
	in := bs.insts[key]
	if in == nil {
		return
	}
	delete(bs.insts, key)
	bs.edits++
	bs.dirty = true
	for len(in.runs) > 0 {
		i := in.runs[len(in.runs)-1]
		in.runs = in.runs[:len(in.runs)-1]
		last := len(bs.runs) - 1
		if i != last {
			bs.runs[i], bs.srcs[i], bs.cold[i] = bs.runs[last], bs.srcs[last], bs.cold[last]
			for k, j := range bs.cold[i].inst.runs {
				if j == last {
					bs.cold[i].inst.runs[k] = i
				}
			}
		}
		bs.runs[last], bs.srcs[last], bs.cold[last] = bindRun{}, [expr.MaxComps]unsafe.Pointer{}, bindCold{}
		bs.runs, bs.srcs, bs.cold = bs.runs[:last], bs.srcs[:last], bs.cold[:last]
	}
}

// fail reports err for instance in, unless it was the last error
// reported.
func (bs *Bindings) fail(in *bindInst, err error) {
	if msg := err.Error(); msg != in.err {
		in.err = msg
		bs.reg.ReportError(behaviourError(bs.reg, in.e, in.name, err))
	}
}

// failRun reports err for run i, unless it was the run's last error
// reported.
func (bs *Bindings) failRun(i int, err error) {
	c := &bs.cold[i]
	if msg := err.Error(); msg != c.err {
		c.err = msg
		bs.reg.ReportError(behaviourError(bs.reg, c.e, c.inst.name, fmt.Errorf("%s: %w", c.prog.path, err)))
	}
}

// invalidate drops every cached pointer (a structural change moved
// component values).
func (bs *Bindings) invalidate() {
	for i := range bs.runs {
		bs.runs[i].dst = nil
		bs.runs[i].flags &^= bReady
	}
	bs.ver = bs.w.Version()
	bs.dirty = true
}

// step evaluates every binding and writes its value: the behaviour
// system's tick. The common case (pointers cached, a number written in
// place) runs inline; the rest goes through stepSlow.
func (bs *Bindings) step() {
	if len(bs.runs) == 0 {
		return
	}
	if bs.w.Version() != bs.ver {
		bs.invalidate()
	}
	bs.epoch++
	f := &bs.frame
	f.Reset()
	f.Time, f.Dt, f.Event, f.Detail = bs.clock.now(), bs.clock.dt, "", nil
	if bs.dirty {
		bs.regroup()
	}
	bs.stepGroups()
	bs.stepBatches()
	bs.stepLoose()
	bs.flush()
}

// stepLoose runs the loose runs (those of no group). A hook the slow
// path runs may edit the bindings: then the runs are regrouped and the
// loop starts again (a run then evaluated twice writes the same value),
// at most a few times a tick.
func (bs *Bindings) stepLoose() {
	f := &bs.frame
	for restarts := 0; ; restarts++ {
		if bs.stepLooseOnce(f) || restarts == 3 {
			return
		}
		bs.regroup()
	}
}

// stepLooseOnce is one pass of stepLoose; it reports false if the runs
// were edited meanwhile.
func (bs *Bindings) stepLooseOnce(f *expr.Frame) bool {
	runs, srcs, epoch, markPos, edits := bs.runs[:bs.nLoose], bs.srcs, bs.epoch, bs.markPos, bs.edits
	for i := 0; i < len(runs); i++ {
		r := &runs[i]
		if r.flags&bReady == 0 {
			bs.stepSlow(i)
			if bs.edits != edits {
				return false
			}
			runs, srcs, markPos = bs.runs[:bs.nLoose], bs.srcs, bs.markPos
			continue
		}
		var x float64
		if m := r.memo; m != nil && m.epoch == epoch {
			x = m.x
		} else {
			if r.nsrc > 0 {
				f.Comp[0] = r.src0
				for k := uint8(1); k < r.nsrc; k++ {
					f.Comp[k] = srcs[i][k]
				}
			}
			x = r.num(f)
			if f.Err() != nil || x-x != 0 {
				bs.refuse(i, x)
				continue
			}
			if m != nil {
				m.epoch, m.x = epoch, x
			}
		}
		p := (*float64)(r.dst)
		if *p == x {
			continue
		}
		*p = x
		if r.flags&bPosition != 0 && int(r.inst) < len(markPos) && markPos[r.inst] == epoch {
			continue // its instance is marked already
		}
		bs.mark(i)
		markPos = bs.markPos
	}
	return true
}

// refuse reports the error of run i's evaluation (or its value that is
// not finite); the property keeps its value.
func (bs *Bindings) refuse(i int, x float64) {
	err := bs.frame.Err()
	if err == nil {
		err = finite(x)
	}
	bs.frame.Reset()
	bs.failRun(i, err)
}

// mark records a write of run i for the observers of its target.
func (bs *Bindings) mark(i int) {
	r := &bs.runs[i]
	if r.flags&bTransform == 0 {
		bs.changed = append(bs.changed, animAdd{e: bs.cold[i].e, id: bs.cold[i].tgtID})
		return
	}
	id := int(r.inst)
	if id >= len(bs.markPos) {
		bs.markPos = append(bs.markPos, make([]uint32, id+1-len(bs.markPos))...)
		bs.markAll = append(bs.markAll, make([]uint32, id+1-len(bs.markAll))...)
	}
	if r.flags&bPosition != 0 {
		if bs.markPos[id] != bs.epoch {
			bs.markPos[id] = bs.epoch
			bs.movedPos = append(bs.movedPos, r.inst)
		}
	} else if bs.markAll[id] != bs.epoch {
		bs.markAll[id] = bs.epoch
		bs.movedAll = append(bs.movedAll, r.inst)
	}
}

// flush does what the loop left for after it: the changes marked, the
// transforms told.
func (bs *Bindings) flush() {
	for _, m := range bs.changed {
		_ = bs.w.MarkChanged(m.e, m.id)
	}
	bs.changed = bs.changed[:0]
	for _, id := range bs.movedPos {
		bs.t.MovedPositions(bs.filter(id))
	}
	for _, id := range bs.movedAll {
		bs.t.Moved(bs.filter(id))
	}
	bs.movedPos, bs.movedAll = bs.movedPos[:0], bs.movedAll[:0]
}

// filter returns the filter of the entities with bind instance id and a
// world transform.
func (bs *Bindings) filter(id ecs.ID) *ecs.Filter {
	f := bs.filters[id]
	if f == nil {
		f = ecs.NewFilter(bs.w, ecs.With(id, bs.t.worldID))
		bs.filters[id] = f
	}
	return f
}

// stepSlow runs a binding the loop's inline path does not: its pointers
// not cached, a value other than a number, a write through SetPatch.
func (bs *Bindings) stepSlow(i int) {
	if bs.w.Version() != bs.ver {
		bs.invalidate()
	}
	r, c := &bs.runs[i], &bs.cold[i]
	if r.dst == nil && !bs.bindPtrs(i) {
		return
	}
	f := &bs.frame
	copy(f.Comp[:r.nsrc], bs.srcs[i][:r.nsrc])
	var val setValue
	tg, bp := &c.prog.tgt, c.prog
	switch tg.kind {
	case expr.Number:
		val.num = bp.num(f)
	case expr.Bool:
		val.b = bp.b(f)
	case expr.String:
		val.s = bp.s(f)
	default:
		val.v = bp.v(f)
	}
	if f.Err() != nil {
		bs.refuse(i, 0)
		return
	}
	if r.flags&bPatch == 0 {
		changed, err := writeInPlace(r.dst, r.write, &val)
		if err != nil {
			bs.failRun(i, err)
		} else if changed {
			bs.mark(i)
		}
		return
	}
	e, in, path := c.e, c.inst, bp.path
	patch, err := patchOf(bs.reg, tg, c.comp, e, &val)
	if err == nil {
		err = bs.reg.SetPatch(e, tg.comp, patch, registry.Merge)
	}
	if err != nil {
		if i < len(bs.cold) && bs.cold[i].inst == in {
			bs.failRun(i, err)
		} else {
			bs.fail(in, fmt.Errorf("%s: %w", path, err))
		}
	}
	if bs.w.Version() != bs.ver {
		bs.invalidate() // the update hook changed the World's structure
	}
}

// current reports whether the components run c reads and writes are
// still those it was bound to (a declared component redeclared gets new
// storage).
func (bs *Bindings) current(c *bindCold) bool {
	if now, ok := bs.reg.ComponentByID(c.tgtID); !ok || now != c.comp {
		return false
	}
	for _, id := range c.inst.slots {
		if _, ok := bs.reg.ComponentByID(id); !ok {
			return false
		}
	}
	return true
}

// bindPtrs caches the pointers of run i: the components its expression
// reads and its target. A missing target component is added now, with
// its defaults (every cached pointer is then fetched again); a missing
// component the expression reads is an error.
func (bs *Bindings) bindPtrs(i int) bool {
	c := &bs.cold[i]
	e := c.e
	if !bs.w.Alive(e) {
		return false
	}
	if !bs.current(c) {
		// A component it names was declared anew (a reload changed the
		// scene's components section): compile against the new schema.
		in := c.inst
		bs.configure(in.e, in.id, in.name, in.spec)
		return false
	}
	if !bs.w.Has(e, c.tgtID) {
		if err := bs.reg.SetPatch(e, c.prog.tgt.comp, nil, registry.Merge); err != nil {
			bs.failRun(i, err)
			return false
		}
		if bs.w.Version() != bs.ver {
			bs.invalidate()
		}
		if i >= len(bs.runs) || bs.cold[i].e != e || !bs.w.Has(e, bs.cold[i].tgtID) {
			return false // a hook changed the bindings, or the add was deferred
		}
		c = &bs.cold[i]
	}
	r := &bs.runs[i]
	for m := c.prog.mask; m != 0; m &= m - 1 {
		k := bits.TrailingZeros8(m)
		p, err := bs.w.GetPtr(e, c.inst.slots[k])
		if err != nil {
			bs.failRun(i, fmt.Errorf("the expression reads %s, which %s does not have", c.inst.prog.slots[k], entityLabel(bs.reg, e)))
			return false
		}
		bs.srcs[i][k] = p
	}
	r.src0 = bs.srcs[i][0]
	p, err := bs.w.GetPtr(e, c.tgtID)
	if err != nil {
		return false
	}
	r.dst = unsafe.Add(p, c.prog.tgt.off)
	if r.write == wNumber && r.flags&bPatch == 0 {
		r.flags |= bReady
		if r.memo != nil || c.prog.bat != nil {
			bs.dirty = true // it joins its group from the next tick
		}
	}
	return true
}

// cachedBind is a compiled bind value, shared by the instances that
// have the same text, with the schemas it was compiled against.
type cachedBind struct {
	prog    *bindProgram
	schemas []*registry.Schema // of its slots' components, then of its targets'
}

// maxCachedBinds bounds the compiled values kept; beyond, the cache
// starts again.
const maxCachedBinds = 4096

// compile compiles spec, or returns the program compiled for the same
// text against the same schemas: 10,000 entities bound alike share one
// program (and its memo).
func (bs *Bindings) compile(spec BindSpec) (*bindProgram, error) {
	if c := bs.progs[spec.text]; c != nil && bs.sameSchemas(c) {
		return c.prog, nil
	}
	prog, err := compileBind(spec, regEnv(bs.reg))
	if err != nil {
		return nil, err
	}
	c := &cachedBind{prog: prog}
	for _, n := range prog.slots {
		rc, _ := bs.reg.Component(n)
		c.schemas = append(c.schemas, rc.Schema)
	}
	for _, it := range prog.items {
		rc, _ := bs.reg.Component(it.tgt.comp)
		c.schemas = append(c.schemas, rc.Schema)
	}
	if len(bs.progs) >= maxCachedBinds {
		clear(bs.progs)
	}
	bs.progs[spec.text] = c
	return prog, nil
}

// sameSchemas reports whether the components c names still have the
// schemas it was compiled against (a scene may declare them anew).
func (bs *Bindings) sameSchemas(c *cachedBind) bool {
	names := append(append([]string(nil), c.prog.slots...), make([]string, len(c.prog.items))...)
	for i, it := range c.prog.items {
		names[len(c.prog.slots)+i] = it.tgt.comp
	}
	for i, n := range names {
		rc, ok := bs.reg.Component(n)
		if !ok || rc.Schema != c.schemas[i] {
			return false
		}
	}
	return true
}
