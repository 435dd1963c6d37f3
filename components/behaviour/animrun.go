package behaviour

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/scenecs/scenecs/internal/easing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Animations runs the animation components of one Registry. Every
// animation instance on an entity has a state in one packed slice, and
// the behaviour system updates all the running ones in one loop per tick:
// no closure or map lookup per animation per tick. Its methods control
// one animation from Go; name is the component's name on the entity
// ("animation", "animation__open").
type Animations struct {
	reg   *registry.Registry
	w     *ecs.World
	t     *transforms
	sleep ecs.ID
	vel   ecs.ID
	comp  *registry.Component

	runs  []animRun  // hot: what the loop reads and writes
	warm  []animWarm // the rest of the state, in step with runs
	cfgs  []animCfg  // the configuration, in step with runs
	index map[animKey]int
	dt    float64 // the tick the runs' clocks count (see animRun)

	ver      uint64  // the World version the cached pointers belong to
	lastLoop float64 // the scene time of the last loop
	inLoop   bool
	queues   animQueues

	// Instances of the animation component whose states wrote
	// position (movedPos) or rotation or scale (movedAll) this tick,
	// marked with epoch, and a filter of the entities having each.
	epoch              uint32
	markPos, markAll   []uint32
	movedPos, movedAll []ecs.ID
	filters            map[ecs.ID]*ecs.Filter
}

// animKey names one animation instance: the entity's index and the
// instance's ecs ID.
type animKey struct {
	idx uint32
	id  ecs.ID
}

// Flags of a run.
const (
	rRunning   uint16 = 1 << iota // begun (or waiting for its delay), not complete
	rDelay                        // waiting for its delay
	rPaused                       // paused by pauseEvents or Pause
	rHeld                         // its entity or the scene is paused
	rDone                         // complete: the property holds the end value
	rRound                        // round the values
	rBound                        // the target is resolved
	rTransform                    // the target is position, rotation or scale
	rPosition                     // the target is position
	rAdding                       // the target component is being added
	rBody                         // a transform target of a physics body: wake it
	rFresh                        // begun in this tick before the loop: moves from the next
	rSlowWrite                    // not a whole vec3 of float64s without rounding
	rReversed                     // the current play runs from to to from
)

// timeEps is the slack of comparisons of scene times (seconds): sums of
// a tick's dt are not exact.
const timeEps = 1e-9

// animRun is the hot state of one animation, what the loop reads for a
// play under way (88 bytes: the loop's memory traffic is most of its
// cost).
type animRun struct {
	ptr unsafe.Pointer // the first lane, valid while ver is the World's
	// Elapsed time of the current play (or of the delay) is base +
	// n·Animations.dt: n ticks since base, so that 30 ticks of 1/60 s
	// are 0.5 s.
	base, n float64
	durS    float64
	// The first three lanes of from, and of to - from.
	from, delta [3]float64
	inst        ecs.ID // this animation instance
	flags       uint16
	ease, dir   uint8
}

// animWarm is the rest of an animation's state.
type animWarm struct {
	e           ecs.Entity
	from, to    [4]float64
	delayS      float64
	period      float64 // of the Elastic family
	play        int64   // plays completed
	plays       int64   // plays in all, -1: without end
	target      ecs.ID  // storage of the animated component
	kind, lanes uint8
}

// animCfg is the cold state of one animation.
type animCfg struct {
	data  Animation
	name  string // animation, animation__open
	key   animKey
	ready bool // configured once
	tgt   animTarget
	lis   []registry.ListenerID
	err   string // the last error reported, not reported again
}

// animQueues is the work the loop and the hooks leave for flush: what is
// done outside the loop (it must not change the World's structure) and
// the events, emitted once nothing is being iterated.
type animQueues struct {
	adds     []animAdd
	wakes    []ecs.Entity
	marks    []animAdd // (entity, component) written through a pointer
	events   []animEvent
	head     int
	flushing bool
}

type animAdd struct {
	e    ecs.Entity
	id   ecs.ID
	name string
}

type animEvent struct {
	e        ecs.Entity
	name     string // the animation's name
	complete bool
}

func newAnimations(reg *registry.Registry, b *Builtins) *Animations {
	return &Animations{reg: reg, w: reg.World(), t: &b.transforms, sleep: b.host.Sleeping, vel: b.host.Velocity,
		index: map[animKey]int{}, filters: map[ecs.ID]*ecs.Filter{}}
}

// elapsed returns the elapsed time of run i's current play (or delay).
func (a *Animations) elapsed(i int) float64 { return a.runs[i].base + a.runs[i].n*a.dt }

// rebase sets the elapsed time of s to el.
func (s *animRun) rebase(el float64) { s.base, s.n = el, 0 }

// setTick makes dt the tick the clocks count, rebasing them all if it
// changed (a program that changes its tick rate).
func (a *Animations) setTick(dt float64) {
	if dt == a.dt {
		return
	}
	for i := range a.runs {
		s := &a.runs[i]
		s.base += s.n * a.dt
		s.n = 0
	}
	a.dt = dt
}

// setPlay sets the plays run i has completed, and with them the
// direction of the current play.
func (a *Animations) setPlay(i int, play int64) {
	s, w := &a.runs[i], &a.warm[i]
	w.play = play
	s.flags &^= rReversed
	if s.dir == dirReverse || (s.dir == dirAlternate && play%2 == 1) {
		s.flags |= rReversed
	}
}

// setLanes sets run i's from and to.
func (a *Animations) setLanes(i int, from, to [4]float64) {
	s, w := &a.runs[i], &a.warm[i]
	w.from, w.to = from, to
	for k := range s.from {
		s.from[k], s.delta[k] = from[k], to[k]-from[k]
	}
}

// eased returns the eased progress of run i's current play at p (0 to
// 1).
func (a *Animations) eased(i int, p float64) float64 {
	s := &a.runs[i]
	if s.flags&rReversed != 0 {
		p = 1 - p
	}
	return easing.Curve(s.ease).At(p, a.warm[i].period)
}

// at returns the eased progress of run i at elapsed el of its current
// play, moving on to later plays as el passes the duration (their
// overshoot carried), and done once the last play ended (the progress
// is then its end).
func (a *Animations) at(i int, el float64) (e float64, done bool) {
	s, w := &a.runs[i], &a.warm[i]
	if el >= s.durS-timeEps {
		k := int64(1)
		if s.durS > 0 {
			k = int64(math.Floor((el + timeEps) / s.durS))
		}
		if w.plays >= 0 && w.play+k >= w.plays {
			a.setPlay(i, w.plays-1)
			s.rebase(s.durS)
			return a.eased(i, 1), true
		}
		a.setPlay(i, w.play+k)
		el = max(el-float64(k)*s.durS, 0)
		s.rebase(el)
	}
	if s.durS <= 0 {
		return a.eased(i, 1), false
	}
	return a.eased(i, min(el/s.durS, 1)), false
}

// step advances every running animation by dt: the behaviour system's
// tick. The loop writes through cached pointers into the animated
// components; what needs the World (notifying observers, adding a
// missing component, events) is queued and done after it. The common
// case (a play under way, easing linear or easeInQuad, a vec3 written
// whole) runs inline; the rest goes through slower calls.
func (a *Animations) step(dt float64) {
	a.lastLoop = a.reg.Time()
	if v := a.w.Version(); v != a.ver {
		for i := range a.runs {
			a.runs[i].ptr = nil
		}
		a.ver = v
	}
	a.setTick(dt)
	a.epoch++
	a.inLoop = true
	defer func() { a.inLoop = false }()
	runs := a.runs
	markPos, epoch := a.markPos, a.epoch
	const fast = rRunning | rPaused | rHeld | rFresh | rDelay | rSlowWrite
	for i := range runs {
		s := &runs[i]
		if s.flags&fast != rRunning || s.ptr == nil {
			if a.stepSlow(i, dt) {
				markPos = a.markPos
			}
			continue
		}
		s.n++
		el := s.base + s.n*dt
		if el >= s.durS-timeEps {
			a.stepWrite(i, el)
			markPos = a.markPos
			continue
		}
		p := el / s.durS
		if s.flags&rReversed != 0 {
			p = 1 - p
		}
		switch s.ease {
		case uint8(easing.Linear):
		case uint8(easing.InQuad):
			p *= p
		default:
			p = easing.Curve(s.ease).At(p, a.warm[i].period)
		}
		x := (*registry.Vec3)(s.ptr)
		x.X = s.from[0] + s.delta[0]*p
		x.Y = s.from[1] + s.delta[1]*p
		x.Z = s.from[2] + s.delta[2]*p
		if s.flags&(rPosition|rBody) == rPosition && int(s.inst) < len(markPos) && markPos[s.inst] == epoch {
			continue
		}
		a.notify(i)
		markPos = a.markPos
	}
}

// stepWrite writes run i at elapsed el the slow way: the end of a play,
// or a value other than a whole vec3.
func (a *Animations) stepWrite(i int, el float64) {
	e, done := a.at(i, el)
	a.write(i, e)
	a.notify(i)
	if done {
		s := &a.runs[i]
		s.flags = s.flags&^rRunning | rDone
		a.queues.events = append(a.queues.events, animEvent{a.warm[i].e, a.cfgs[i].name, true})
	}
}

// stepSlow runs a state the fast path does not: not running, paused,
// held, begun this tick before the loop (it moves from the next tick),
// waiting for its delay, not bound yet, or written the slow way. It
// reports whether it wrote.
func (a *Animations) stepSlow(i int, dt float64) bool {
	s := &a.runs[i]
	if s.flags&rFresh != 0 {
		s.flags &^= rFresh
		return false
	}
	if s.flags&(rRunning|rPaused|rHeld) != rRunning {
		return false
	}
	s.n++
	if s.flags&rDelay != 0 {
		el := a.elapsed(i)
		if el < a.warm[i].delayS-timeEps {
			return false
		}
		s.flags &^= rDelay
		s.rebase(max(el-a.warm[i].delayS, 0))
		if !a.start(i) {
			return false
		}
	}
	if s.ptr == nil && !a.bind(i) {
		return false
	}
	a.stepWrite(i, s.base+s.n*dt)
	return true
}

// setSlowWrite marks the states the loop's inline write does not
// serve: all but a whole vec3 of float64s, not rounded.
func (a *Animations) setSlowWrite(i int) {
	s, w := &a.runs[i], &a.warm[i]
	s.flags &^= rSlowWrite
	if w.kind != kindFloat || w.lanes != 3 || s.flags&rRound != 0 {
		s.flags |= rSlowWrite
	}
}

// write writes run i's value at eased progress e.
func (a *Animations) write(i int, e float64) {
	s := &a.warm[i]
	p := a.runs[i].ptr
	round := a.runs[i].flags&rRound != 0
	switch s.kind {
	case kindFloat:
		for k := 0; k < int(s.lanes); k++ {
			v := s.from[k] + (s.to[k]-s.from[k])*e
			if round {
				v = math.Floor(v + 0.5)
			}
			*(*float64)(unsafe.Add(p, 8*k)) = v
		}
	case kindInt:
		v := s.from[0] + (s.to[0]-s.from[0])*e
		if round {
			v = math.Floor(v + 0.5)
		}
		*(*int)(p) = int(v)
	case kindBool:
		*(*bool)(p) = s.from[0]+(s.to[0]-s.from[0])*e >= 1
	case kindColor:
		c := (*registry.Color)(p)
		c.R = channel(s.from[0] + (s.to[0]-s.from[0])*e)
		c.G = channel(s.from[1] + (s.to[1]-s.from[1])*e)
		c.B = channel(s.from[2] + (s.to[2]-s.from[2])*e)
		c.A = channel(s.from[3] + (s.to[3]-s.from[3])*e)
	}
}

// notify records a write of run i for the observers of its target: the
// transform system compares the entities of the animation's instance
// after the tick (as it does for physics), other components get a
// MarkChanged after the loop.
func (a *Animations) notify(i int) {
	s := &a.runs[i]
	if s.flags&rTransform == 0 {
		a.queues.marks = append(a.queues.marks, animAdd{e: a.warm[i].e, id: a.warm[i].target})
		return
	}
	if s.flags&rBody != 0 {
		// Physics may have put it to sleep since: it must see it move.
		a.queues.wakes = append(a.queues.wakes, a.warm[i].e)
	}
	id := int(s.inst)
	if id >= len(a.markPos) {
		a.markPos = append(a.markPos, make([]uint32, id+1-len(a.markPos))...)
		a.markAll = append(a.markAll, make([]uint32, id+1-len(a.markAll))...)
	}
	if s.flags&rPosition != 0 {
		if a.markPos[id] != a.epoch {
			a.markPos[id] = a.epoch
			a.movedPos = append(a.movedPos, s.inst)
		}
	} else if a.markAll[id] != a.epoch {
		a.markAll[id] = a.epoch
		a.movedAll = append(a.movedAll, s.inst)
	}
}

// readLanes reads the lanes of a target at p.
func readLanes(p unsafe.Pointer, kind, lanes uint8) (l [4]float64) {
	switch kind {
	case kindFloat:
		for k := 0; k < int(lanes); k++ {
			l[k] = *(*float64)(unsafe.Add(p, 8*k))
		}
	case kindInt:
		l[0] = float64(*(*int)(p))
	case kindBool:
		if *(*bool)(p) {
			l[0] = 1
		}
	case kindColor:
		c := *(*registry.Color)(p)
		l = [4]float64{float64(c.R), float64(c.G), float64(c.B), float64(c.A)}
	}
	return l
}

// resolve resolves the target of run i from its property path; a path
// that does not resolve is reported (once) and stops the animation.
func (a *Animations) resolve(i int) bool {
	s, c := &a.runs[i], &a.cfgs[i]
	lookup := func(n string) (*registry.Schema, bool) {
		rc, ok := a.reg.Component(n)
		if !ok {
			return nil, false
		}
		return rc.Schema, true
	}
	t, perr := resolvePath(c.data.Property, lookup, a.reg.Names())
	var id ecs.ID
	var err error
	if perr == nil {
		_, id, err = a.reg.Lookup(t.comp)
	} else {
		err = fmt.Errorf("property %q: invalid %q: expected %s", c.data.Property, perr.Text, perr.Expected)
	}
	if err != nil {
		a.fail(i, err)
		return false
	}
	c.tgt = t
	w := &a.warm[i]
	w.target, w.kind, w.lanes = id, t.kind, uint8(t.lanes)
	s.flags = s.flags&^(rTransform|rPosition) | rBound
	a.setSlowWrite(i)
	switch id {
	case a.t.posID:
		s.flags |= rTransform | rPosition
	case a.t.rotID, a.t.sclID:
		s.flags |= rTransform
	}
	return true
}

// fail reports err for run i (unless it was the last error reported)
// and stops it.
func (a *Animations) fail(i int, err error) {
	s, c := &a.runs[i], &a.cfgs[i]
	s.flags &^= rRunning | rDelay
	if msg := err.Error(); msg != c.err {
		c.err = msg
		a.reg.ReportError(behaviourError(a.reg, a.warm[i].e, c.name, err))
	}
}

// bind caches the pointer to the target's first lane. If the entity
// lacks the target component it is added (after the loop), as A-Frame's
// setAttribute adds it; if the component got new storage (a declared
// component redeclared by a reload), the path is resolved again.
func (a *Animations) bind(i int) bool {
	s, w := &a.runs[i], &a.warm[i]
	if s.flags&rBound == 0 && !a.resolve(i) {
		return false
	}
	p, err := a.w.GetPtr(w.e, w.target)
	if err != nil && errors.Is(err, ecs.ErrNoComponent) {
		if rc, id, ok := lookupExisting(a.reg, a.cfgs[i].tgt.comp); ok && rc != nil && id != w.target {
			s.flags &^= rBound
			return a.bind(i)
		}
		if s.flags&rAdding == 0 {
			s.flags |= rAdding
			a.queues.adds = append(a.queues.adds, animAdd{w.e, w.target, a.cfgs[i].tgt.comp})
		}
		return false
	}
	if err != nil {
		return false
	}
	s.flags &^= rAdding
	s.ptr = unsafe.Add(p, a.cfgs[i].tgt.off)
	return true
}
