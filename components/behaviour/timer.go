package behaviour

import (
	"fmt"
	"math"
	"reflect"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Timer is the timer component (multiple: timer__wave): it emits Event
// on its entity Delay milliseconds of scene time after it starts, then,
// if Repeat asks, again every Interval milliseconds. The Detail of the
// event is a [TimerEvent].
type Timer struct {
	// Event is the name of the event emitted.
	Event string `scene:"event,default=timer"`
	// Delay is the time from the start to the first event, in
	// milliseconds.
	Delay float64 `scene:"delay,default=1000,min=0"`
	// Interval is the time between two events after the first, in
	// milliseconds; 0 takes Delay.
	Interval float64 `scene:"interval,min=0"`
	// Repeat is how many events follow the first: 0 (a one-shot timer),
	// a count, or true: without end.
	Repeat Loop `scene:"repeat"`
	// Autoplay starts the timer when it is added, unless StartEvents are
	// given.
	Autoplay bool `scene:"autoplay,default=true"`
	// StartEvents (re)start the timer from zero; StopEvents stop it;
	// PauseEvents and ResumeEvents pause it and resume it where it was.
	StartEvents  []string `scene:"startEvents"`
	StopEvents   []string `scene:"stopEvents"`
	PauseEvents  []string `scene:"pauseEvents"`
	ResumeEvents []string `scene:"resumeEvents"`
}

// TimerEvent is the Detail of a timer's event: the timer's name on the
// entity (timer, timer__wave) and how many times it has fired, this one
// included (1 for the first). Expressions read detail.name and
// detail.count.
type TimerEvent struct {
	Name  string `expr:"name"`
	Count int64  `expr:"count"`
}

// maxFiresPerTick bounds the events one timer emits in one tick; the
// firings beyond are dropped (the timer keeps its schedule).
const maxFiresPerTick = 64

// Timers runs the timer components of one Registry, in one loop per tick
// over a packed slice of their states (the behaviour system's).
type Timers struct {
	reg    *registry.Registry
	runs   []timerRun
	cfgs   []timerCfg
	index  map[animKey]int
	events []timerFire
}

// timerRun is the hot state of one timer; its clock is the animations'
// (see animRun).
type timerRun struct {
	e           ecs.Entity
	base, n, dt float64
	delayS      float64
	periodS     float64
	begunAt     float64
	fired       int64
	total       int64 // events in all, -1: without end
	flags       uint16
}

type timerCfg struct {
	data  Timer
	name  string
	key   animKey
	ready bool
	lis   []registry.ListenerID
}

type timerFire struct {
	e     ecs.Entity
	event string
	name  string
	count int64
}

func registerTimer(reg *registry.Registry, b *Builtins) error {
	s, err := schema.SchemaOf(reflect.TypeFor[Timer](), reg.Types())
	if err != nil {
		return err
	}
	ts := &Timers{reg: reg, index: map[animKey]int{}}
	_, err = registry.Register(reg, "timer", registry.Definition[Timer]{
		Schema: s, Multiple: true,
		Init:   func(cx *registry.Context, _ *Timer) { ts.add(cx.Entity, cx.ID, cx.Name) },
		Update: func(cx *registry.Context, v, _ *Timer) { ts.configure(cx.Entity, cx.ID, v) },
		Remove: func(cx *registry.Context, _ *Timer) { ts.remove(cx.Entity, cx.ID) },
		Pause:  func(cx *registry.Context, _ *Timer) { ts.hold(cx.Entity, cx.ID, true) },
		Play:   func(cx *registry.Context, _ *Timer) { ts.hold(cx.Entity, cx.ID, false) },
	})
	b.Timers = ts
	return err
}

func (ts *Timers) add(e ecs.Entity, id ecs.ID, name string) {
	key := animKey{e.Index(), id}
	if i, ok := ts.index[key]; ok {
		ts.drop(i)
	}
	ts.index[key] = len(ts.runs)
	ts.runs = append(ts.runs, timerRun{e: e})
	ts.cfgs = append(ts.cfgs, timerCfg{name: name, key: key})
}

func (ts *Timers) remove(e ecs.Entity, id ecs.ID) {
	if i, ok := ts.index[animKey{e.Index(), id}]; ok {
		ts.drop(i)
	}
}

func (ts *Timers) drop(i int) {
	for _, l := range ts.cfgs[i].lis {
		ts.reg.Events().Off(l)
	}
	delete(ts.index, ts.cfgs[i].key)
	last := len(ts.runs) - 1
	if i != last {
		ts.runs[i], ts.cfgs[i] = ts.runs[last], ts.cfgs[last]
		ts.index[ts.cfgs[i].key] = i
	}
	ts.runs[last], ts.cfgs[last] = timerRun{}, timerCfg{}
	ts.runs, ts.cfgs = ts.runs[:last], ts.cfgs[:last]
}

func (ts *Timers) hold(e ecs.Entity, id ecs.ID, on bool) {
	if i, ok := ts.index[animKey{e.Index(), id}]; ok {
		if on {
			ts.runs[i].flags |= rHeld
		} else {
			ts.runs[i].flags &^= rHeld
		}
	}
}

// configure applies new data: the first update starts an autoplaying
// timer; later edits keep its elapsed time and count (the next event
// follows the new delay and interval).
func (ts *Timers) configure(e ecs.Entity, id ecs.ID, v *Timer) {
	i, ok := ts.index[animKey{e.Index(), id}]
	if !ok {
		return
	}
	s, c := &ts.runs[i], &ts.cfgs[i]
	first := !c.ready
	c.data, c.ready = *v, true
	s.delayS, s.periodS = v.Delay/1000, v.Interval/1000
	if v.Interval == 0 {
		s.periodS = s.delayS
	}
	n, forever := v.Repeat.Count()
	s.total = int64(n) + 1
	if forever {
		s.total = -1
	}
	ts.listen(i)
	if first && v.Autoplay && len(v.StartEvents) == 0 {
		ts.start(i)
	}
}

// start starts timer i from zero.
func (ts *Timers) start(i int) {
	s := &ts.runs[i]
	s.flags = s.flags&^(rPaused|rDone) | rRunning
	s.fired = 0
	s.base, s.n = 0, 0
	s.begunAt = ts.reg.Time()
}

func (ts *Timers) listen(i int) {
	c := &ts.cfgs[i]
	for _, l := range c.lis {
		ts.reg.Events().Off(l)
	}
	c.lis = c.lis[:0]
	e, key := ts.runs[i].e, c.key
	on := func(names []string, act func(s *timerRun, j int)) {
		for _, n := range names {
			if n == "" {
				continue
			}
			c.lis = append(c.lis, ts.reg.Events().OnAs(e, n, c.name, func(*registry.Event) {
				if j, ok := ts.index[key]; ok && ts.runs[j].flags&rHeld == 0 {
					act(&ts.runs[j], j)
				}
			}))
		}
	}
	d := &c.data
	on(d.StartEvents, func(_ *timerRun, j int) { ts.start(j) })
	on(d.StopEvents, func(s *timerRun, _ int) { s.flags &^= rRunning | rPaused })
	on(d.PauseEvents, func(s *timerRun, _ int) {
		if s.flags&rRunning != 0 {
			s.flags |= rPaused
		}
	})
	on(d.ResumeEvents, func(s *timerRun, _ int) { s.flags &^= rPaused })
}

// step advances every running timer by dt and emits the events due, in
// the order of the timers' states, each timer's in order.
func (ts *Timers) step(dt float64) {
	now := ts.reg.Time()
	for i := range ts.runs {
		s := &ts.runs[i]
		if s.flags&(rRunning|rPaused|rHeld) != rRunning || s.begunAt == now {
			continue
		}
		if s.total >= 0 && s.fired >= s.total { // an edit lowered repeat
			s.flags = s.flags&^rRunning | rDone
			continue
		}
		if s.dt != dt {
			s.base += s.n * s.dt
			s.n, s.dt = 0, dt
		}
		s.n++
		el := s.base + s.n*dt
		for k := 0; k < maxFiresPerTick; k++ {
			next := s.delayS + float64(s.fired)*s.periodS
			if el < next-timeEps {
				break
			}
			s.fired++
			ts.events = append(ts.events, timerFire{s.e, ts.cfgs[i].data.Event, ts.cfgs[i].name, s.fired})
			if s.total >= 0 && s.fired >= s.total {
				s.flags = s.flags&^rRunning | rDone
				break
			}
			if s.periodS <= 0 {
				break // a zero period fires once per tick
			}
		}
		if s.flags&rRunning != 0 && s.periodS > 0 && el >= s.delayS+float64(s.fired)*s.periodS-timeEps {
			// Beyond the bound: the firings due by now are dropped (counted,
			// not emitted), and the schedule goes on.
			s.fired = int64(math.Floor((el-s.delayS)/s.periodS+timeEps)) + 1
			if s.total >= 0 && s.fired >= s.total {
				s.fired = s.total
				s.flags = s.flags&^rRunning | rDone
			}
		}
	}
	for k := 0; k < len(ts.events); k++ {
		f := ts.events[k]
		ts.reg.Events().Emit(f.e, f.event, TimerEvent{Name: f.name, Count: f.count}, false)
	}
	clear(ts.events)
	ts.events = ts.events[:0]
}

// Start starts e's timer name from zero (as its start events do).
func (ts *Timers) Start(e ecs.Entity, name string) bool {
	c, id, ok := lookupExisting(ts.reg, name)
	if !ok || c.Name != "timer" {
		return false
	}
	i, ok := ts.index[animKey{e.Index(), id}]
	if ok && ts.runs[i].e == e {
		ts.start(i)
	}
	return ok
}

// Fired returns how many times e's timer name has fired since it last
// started, and whether it is running.
func (ts *Timers) Fired(e ecs.Entity, name string) (n int64, running bool) {
	_, id, ok := lookupExisting(ts.reg, name)
	if !ok {
		return 0, false
	}
	i, ok := ts.index[animKey{e.Index(), id}]
	if !ok || ts.runs[i].e != e {
		return 0, false
	}
	return ts.runs[i].fired, ts.runs[i].flags&rRunning != 0
}

// find returns the state index of e's timer name.
func (ts *Timers) find(e ecs.Entity, name string) (int, error) {
	c, id, ok := lookupExisting(ts.reg, name)
	if ok && c.Name == "timer" {
		if i, ok := ts.index[animKey{e.Index(), id}]; ok && ts.runs[i].e == e {
			return i, nil
		}
	}
	return 0, fmt.Errorf("components: %s has no timer %q", entityLabel(ts.reg, e), name)
}

// Restart starts e's timer name again from zero, whatever its state (as
// its start events do).
func (ts *Timers) Restart(e ecs.Entity, name string) error {
	i, err := ts.find(e, name)
	if err == nil {
		ts.start(i)
	}
	return err
}

// Pause pauses e's running timer name where it is (as its pause events
// do); Resume resumes it.
func (ts *Timers) Pause(e ecs.Entity, name string) error {
	i, err := ts.find(e, name)
	if err == nil && ts.runs[i].flags&rRunning != 0 {
		ts.runs[i].flags |= rPaused
	}
	return err
}

// Resume resumes e's timer name paused by Pause or its pause events.
func (ts *Timers) Resume(e ecs.Entity, name string) error {
	i, err := ts.find(e, name)
	if err == nil {
		ts.runs[i].flags &^= rPaused
	}
	return err
}

// Stop stops e's timer name (as its stop events do); Restart starts it
// again.
func (ts *Timers) Stop(e ecs.Entity, name string) error {
	i, err := ts.find(e, name)
	if err == nil {
		ts.runs[i].flags &^= rRunning | rPaused
	}
	return err
}
