package behaviour

import (
	"fmt"

	"github.com/scenecs/scenecs/internal/easing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// This file holds what changes an animation's state outside the loop:
// the component's hooks, its events, the Go methods, and flush, which
// does the work the loop queued.

// add makes the state of a new animation instance (its Init).
func (a *Animations) add(e ecs.Entity, id ecs.ID, name string) {
	key := animKey{e.Index(), id}
	if i, ok := a.index[key]; ok { // re-added before its removal was seen
		a.drop(i)
	}
	a.index[key] = len(a.runs)
	a.runs = append(a.runs, animRun{inst: id})
	a.warm = append(a.warm, animWarm{e: e})
	a.cfgs = append(a.cfgs, animCfg{name: name, key: key})
}

// remove forgets an animation instance (its Remove).
func (a *Animations) remove(e ecs.Entity, id ecs.ID) {
	if i, ok := a.index[animKey{e.Index(), id}]; ok {
		a.drop(i)
	}
}

// drop removes state i: its listeners go, the last state takes its
// place.
func (a *Animations) drop(i int) {
	for _, l := range a.cfgs[i].lis {
		a.reg.Events().Off(l)
	}
	delete(a.index, a.cfgs[i].key)
	last := len(a.runs) - 1
	if i != last {
		a.runs[i], a.warm[i], a.cfgs[i] = a.runs[last], a.warm[last], a.cfgs[last]
		a.index[a.cfgs[i].key] = i
	}
	a.runs[last], a.warm[last], a.cfgs[last] = animRun{}, animWarm{}, animCfg{}
	a.runs, a.warm, a.cfgs = a.runs[:last], a.warm[:last], a.cfgs[:last]
}

// hold pauses (or plays) an animation with its entity or the scene.
func (a *Animations) hold(e ecs.Entity, id ecs.ID, on bool) {
	if i, ok := a.index[animKey{e.Index(), id}]; ok {
		if on {
			a.runs[i].flags |= rHeld
		} else {
			a.runs[i].flags &^= rHeld
		}
	}
}

// configure applies new data (the Update hook). The first update, one
// that enables a disabled animation and one that gives a property to an
// animation that had not begun begin it if it autoplays; an edit of
// property or from restarts one that had begun; any other
// edit keeps its elapsed time (a hot reload that changes dur or to does
// not send it back to the start).
func (a *Animations) configure(e ecs.Entity, id ecs.ID, v *Animation) {
	i, ok := a.index[animKey{e.Index(), id}]
	if !ok {
		return
	}
	s, w, c := &a.runs[i], &a.warm[i], &a.cfgs[i]
	first := !c.ready
	propChanged := first || v.Property != c.data.Property
	fromChanged := v.From != c.data.From
	toChanged := v.To != c.data.To
	enabling := first || !c.data.Enabled
	c.data, c.ready, c.err = *v, true, ""
	ez, _ := easing.ByName(v.Easing) // the schema's oneOf lists the easings
	s.ease = uint8(ez)
	w.period = easing.ElasticPeriod(v.Elasticity)
	s.durS, w.delayS = v.Dur/1000, v.Delay/1000
	s.dir = dirOf(v.Dir)
	w.plays = playsOf(v.Loop, s.dir)
	a.setPlay(i, w.play)
	s.flags &^= rRound
	if v.Round {
		s.flags |= rRound
	}
	a.setSlowWrite(i)
	if propChanged {
		s.flags &^= rBound
		s.ptr = nil
	}
	a.listen(i)
	begun := s.flags&(rRunning|rDone) != 0
	switch {
	case !v.Enabled || v.Property == "":
		s.flags &^= rRunning | rDelay
	case enabling || (propChanged && !begun):
		if v.Autoplay && len(v.StartEvents) == 0 {
			a.begin(i)
		}
	case propChanged || fromChanged:
		if begun {
			a.begin(i)
		}
	case begun && toChanged && s.flags&rDelay == 0:
		a.retarget(i)
	}
	a.flush()
}

// begin begins animation i now, from the start: its delay, then its
// first play.
func (a *Animations) begin(i int) {
	s := &a.runs[i]
	if a.cfgs[i].data.Property == "" {
		return
	}
	s.flags = s.flags&^(rDone|rPaused|rDelay|rFresh) | rRunning
	if a.lastLoop != a.reg.Time() {
		// Begun during a tick, before the loop ran: it moves from the
		// next tick, as if begun when that tick's time began.
		s.flags |= rFresh
	}
	a.setPlay(i, 0)
	s.rebase(0)
	if a.warm[i].delayS > 0 {
		s.flags |= rDelay
		return
	}
	a.start(i)
}

// start starts the first play of animation i, once its delay is over:
// from is sampled (or parsed), to parsed over it, the other animations
// of the entity playing the same target stop (as A-Frame's do), and
// animationbegin is queued. It reports whether the animation runs.
func (a *Animations) start(i int) bool {
	s, c := &a.runs[i], &a.cfgs[i]
	cur, ok := a.current(i)
	if !ok {
		return false
	}
	types := a.reg.Types()
	from := cur
	var err error
	if c.data.From != "" {
		if from, err = c.tgt.parseLanes(types, c.data.From, cur); err != nil {
			a.fail(i, fmt.Errorf("from: %w", err))
			return false
		}
	}
	to, err := c.tgt.parseLanes(types, c.data.To, from)
	if err != nil {
		a.fail(i, fmt.Errorf("to: %w", err))
		return false
	}
	a.setLanes(i, from, to)
	e := a.warm[i].e
	s.flags &^= rBody
	if s.flags&rTransform != 0 && a.w.Has(e, a.vel) {
		s.flags |= rBody
	}
	a.stopRelated(i)
	a.queues.events = append(a.queues.events, animEvent{e, c.name, false})
	return true
}

// current returns the target's value now (its default if the entity
// lacks the component, which is then added).
func (a *Animations) current(i int) ([4]float64, bool) {
	s := &a.runs[i]
	if s.flags&rBound == 0 && !a.resolve(i) {
		return [4]float64{}, false
	}
	if s.ptr != nil || a.bind(i) {
		return readLanes(s.ptr, a.warm[i].kind, a.warm[i].lanes), true
	}
	t := &a.cfgs[i].tgt
	rc, _ := a.reg.Component(t.comp)
	return t.lanesOf(axisValue(rc.Schema.Props[t.prop].Default, t.axis)), true
}

// retarget takes a new to for animation i, which has begun: its elapsed
// time is kept; a complete one gets its new end value at once.
func (a *Animations) retarget(i int) {
	s, c := &a.runs[i], &a.cfgs[i]
	if s.flags&rBound == 0 && !a.resolve(i) {
		return
	}
	from := a.warm[i].from
	to, err := c.tgt.parseLanes(a.reg.Types(), c.data.To, from)
	if err != nil {
		a.fail(i, fmt.Errorf("to: %w", err))
		return
	}
	a.setLanes(i, from, to)
	if s.flags&rDone != 0 && (s.ptr != nil || a.bind(i)) {
		e, _ := a.at(i, a.elapsed(i))
		a.write(i, e)
		a.notify(i)
	}
}

// stopRelated stops the other animations of the entity that play the
// same target (or an overlapping one), as A-Frame stops those animating
// the same property when one begins. Those waiting for their delay go
// on.
func (a *Animations) stopRelated(i int) {
	s, e := &a.runs[i], a.warm[i].e
	for _, id := range a.w.Components(e) {
		if id == s.inst {
			continue
		}
		if c, ok := a.reg.ComponentByID(id); !ok || c != a.comp {
			continue
		}
		j, ok := a.index[animKey{e.Index(), id}]
		if !ok {
			continue
		}
		o := &a.runs[j]
		if o.flags&(rRunning|rDelay) == rRunning && a.overlap(i, j) {
			o.flags &^= rRunning
		}
	}
}

// overlap reports whether animations i and j write the same bytes.
func (a *Animations) overlap(i, j int) bool {
	s, o := &a.runs[i], &a.runs[j]
	if s.flags&o.flags&rBound == 0 {
		return a.cfgs[i].data.Property == a.cfgs[j].data.Property
	}
	if a.warm[i].target != a.warm[j].target {
		return false
	}
	span := func(t *animTarget) (uintptr, uintptr) {
		n := uintptr(t.lanes) * 8
		switch t.kind {
		case kindBool:
			n = 1
		case kindColor:
			n = 4
		}
		return t.off, t.off + n
	}
	s0, s1 := span(&a.cfgs[i].tgt)
	o0, o1 := span(&a.cfgs[j].tgt)
	return s0 < o1 && o0 < s1
}

// listen (re)registers the listeners of animation i's events.
func (a *Animations) listen(i int) {
	c := &a.cfgs[i]
	for _, l := range c.lis {
		a.reg.Events().Off(l)
	}
	c.lis = c.lis[:0]
	e, key := a.warm[i].e, c.key
	on := func(names []string, act func(j int)) {
		for _, n := range names {
			if n == "" {
				continue
			}
			c.lis = append(c.lis, a.reg.Events().OnAs(e, n, c.name, func(*registry.Event) {
				if j, ok := a.index[key]; ok && a.runs[j].flags&rHeld == 0 && a.cfgs[j].data.Enabled {
					act(j)
					a.flush()
				}
			}))
		}
	}
	d := &c.data
	on(d.StartEvents, a.begin)
	on(d.RestartEvents, a.begin)
	on(d.PauseEvents, func(j int) {
		if a.runs[j].flags&rRunning != 0 {
			a.runs[j].flags |= rPaused
		}
	})
	on(d.ResumeEvents, func(j int) { a.runs[j].flags &^= rPaused })
}

// flush does the work the loop and the hooks queued, in order: missing
// target components added, sleeping bodies woken, observers told of the
// writes, then the events emitted (their listeners may queue more, done
// in the same flush).
func (a *Animations) flush() {
	q := &a.queues
	if q.flushing || a.inLoop {
		return
	}
	q.flushing = true
	defer func() { q.flushing = false }()
	for len(q.adds)+len(q.marks)+len(q.wakes)+len(a.movedPos)+len(a.movedAll) > 0 || q.head < len(q.events) {
		for k := 0; k < len(q.adds); k++ {
			ad := q.adds[k]
			if a.w.Alive(ad.e) && !a.w.Has(ad.e, ad.id) {
				_ = a.reg.SetPatch(ad.e, ad.name, nil, registry.Merge)
			}
		}
		q.adds = q.adds[:0]
		for k := 0; k < len(q.marks); k++ {
			_ = a.w.MarkChanged(q.marks[k].e, q.marks[k].id)
		}
		q.marks = q.marks[:0]
		a.reportMoved()
		for q.head < len(q.events) {
			ev := q.events[q.head]
			q.head++
			a.emit(ev)
		}
		q.events, q.head = q.events[:0], 0
	}
}

// reportMoved hands the transform system the instances whose states
// wrote position (compared by position only), rotation or scale (and
// wakes the sleeping bodies animations began on).
func (a *Animations) reportMoved() {
	for _, id := range a.movedPos {
		a.t.MovedPositions(a.filter(id))
	}
	for _, id := range a.movedAll {
		a.t.Moved(a.filter(id))
	}
	a.movedPos, a.movedAll = a.movedPos[:0], a.movedAll[:0]
	for _, e := range a.queues.wakes {
		if a.w.Alive(e) && a.w.Has(e, a.sleep) {
			_ = a.w.Remove(e, a.sleep)
		}
	}
	a.queues.wakes = a.queues.wakes[:0]
}

// filter returns the filter of the entities with animation instance id
// and a world transform, which the transform system compares.
func (a *Animations) filter(id ecs.ID) *ecs.Filter {
	f := a.filters[id]
	if f == nil {
		f = ecs.NewFilter(a.w, ecs.With(id, a.t.worldID))
		a.filters[id] = f
	}
	return f
}

// emit emits an animation event: animationbegin, or animationcomplete
// and animationcomplete__ID (A-Frame's, not bubbling).
func (a *Animations) emit(ev animEvent) {
	d := AnimationEvent{Name: ev.name}
	if !ev.complete {
		a.reg.Events().Emit(ev.e, "animationbegin", d, false)
		return
	}
	a.reg.Events().Emit(ev.e, "animationcomplete", d, false)
	if _, id, ok := cutInstance(ev.name); ok {
		a.reg.Events().Emit(ev.e, "animationcomplete__"+id, d, false)
	}
}

// cutInstance splits name__id.
func cutInstance(name string) (base, id string, ok bool) {
	for i := 0; i+1 < len(name); i++ {
		if name[i] == '_' && name[i+1] == '_' {
			return name[:i], name[i+2:], true
		}
	}
	return name, "", false
}

// AnimationState is what [Animations.State] reports of one animation.
type AnimationState struct {
	// Running is true from a begin to the end of the last play (Delaying
	// while it waits for its delay); Paused while paused by its
	// pauseEvents or Pause; Done once the last play ended.
	Running, Delaying, Paused, Done bool
	// Play counts the plays completed; Elapsed is the time into the
	// current play (or delay), in seconds; Progress is Elapsed over the
	// duration (0 to 1).
	Play     int64
	Elapsed  float64
	Progress float64
}

// find returns the state index of e's animation name.
func (a *Animations) find(e ecs.Entity, name string) (int, error) {
	c, id, ok := lookupExisting(a.reg, name)
	if !ok || c != a.comp || !a.w.Has(e, id) {
		return 0, fmt.Errorf("components: %s has no animation %q", entityLabel(a.reg, e), name)
	}
	i, ok := a.index[animKey{e.Index(), id}]
	if !ok || a.warm[i].e != e {
		return 0, fmt.Errorf("components: %s has no animation %q", entityLabel(a.reg, e), name)
	}
	return i, nil
}

// State returns the state of e's animation name ("animation",
// "animation__open").
func (a *Animations) State(e ecs.Entity, name string) (AnimationState, bool) {
	i, err := a.find(e, name)
	if err != nil {
		return AnimationState{}, false
	}
	s := &a.runs[i]
	st := AnimationState{
		Running: s.flags&rRunning != 0, Delaying: s.flags&rDelay != 0,
		Paused: s.flags&rPaused != 0, Done: s.flags&rDone != 0,
		Play: a.warm[i].play, Elapsed: a.elapsed(i),
	}
	switch {
	case st.Done:
		st.Play, st.Progress = a.warm[i].play+1, 1
	case st.Delaying:
	case s.durS > 0:
		st.Progress = min(st.Elapsed/s.durS, 1)
	}
	return st, true
}

// Restart begins e's animation name again from the start (its delay,
// then from sampled or parsed again), whatever its state: what A-Frame
// cannot do by setting the same data again. A disabled animation is not
// restarted.
func (a *Animations) Restart(e ecs.Entity, name string) error {
	i, err := a.find(e, name)
	if err != nil {
		return err
	}
	if a.cfgs[i].data.Enabled {
		a.begin(i)
		a.flush()
	}
	return nil
}

// Pause pauses e's running animation name where it is; Resume resumes
// it.
func (a *Animations) Pause(e ecs.Entity, name string) error {
	i, err := a.find(e, name)
	if err == nil && a.runs[i].flags&rRunning != 0 {
		a.runs[i].flags |= rPaused
	}
	return err
}

// Resume resumes e's animation name paused by Pause or its pauseEvents.
func (a *Animations) Resume(e ecs.Entity, name string) error {
	i, err := a.find(e, name)
	if err == nil {
		a.runs[i].flags &^= rPaused
	}
	return err
}

// Stop stops e's animation name where it is, without an event; a start
// event or Restart begins it again.
func (a *Animations) Stop(e ecs.Entity, name string) error {
	i, err := a.find(e, name)
	if err == nil {
		a.runs[i].flags &^= rRunning | rDelay | rPaused
	}
	return err
}

// Running returns the number of animations running (waiting for their
// delay included).
func (a *Animations) Running() int {
	n := 0
	for i := range a.runs {
		if a.runs[i].flags&rRunning != 0 {
			n++
		}
	}
	return n
}
