package rooms

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// ErrStopped is returned (wrapped) by calls to a room that has stopped;
// Room.Err says why it stopped.
var ErrStopped = errors.New("room stopped")

// Room is one running room: a World, its Registry and built-ins, and an
// inspector, ticked on a goroutine of its own. Its methods may be called
// from any goroutine.
type Room struct {
	id    string
	scene string
	hz    float64
	seed  int64

	reg *registry.Registry
	b   *components.Builtins
	in  *inspect.Inspector

	inbox      chan func()
	stop       chan struct{}
	done       chan struct{}
	stopOnce   sync.Once
	finishOnce sync.Once
	err        error              // why it stopped; written before done closes
	report     func(*Room, error) // the host's: it forgets the room and tells OnStop
	cancel     context.CancelFunc // ends the Registry's context (SetContext) when the room stops

	busy      atomic.Int64 // when the goroutine began its present work (UnixNano); 0 between
	abandoned atomic.Bool  // given up as hung: the goroutine stops at its next chance

	tick     atomic.Int64 // ticks run, counting those before a snapshot it resumed from
	entities atomic.Int64
	header   []byte       // the scene's mixins and prefabs, which snapshots carry (sceneHeader)
	lastDump atomic.Int64 // the size of the last snapshot's dump
	onTick   func(*Room, *registry.Registry)
}

// Info is what a listing shows of a room.
type Info struct {
	ID          string  `json:"id"`
	Scene       string  `json:"scene"`
	Hz          float64 `json:"hz"`
	Tick        int64   `json:"tick"`
	Entities    int     `json:"entities"`
	TicksPerSec float64 `json:"ticksPerSecond"`
	Paused      bool    `json:"paused"`
}

// ID returns the room's id.
func (r *Room) ID() string { return r.id }

// Tick returns the number of ticks the room has run, counting those of
// the room it resumed from.
func (r *Room) Tick() int64 { return r.tick.Load() }

// Info returns the room's id, scene, rate, tick and entity count, and
// its measured ticks per second.
func (r *Room) Info() Info {
	st := r.in.Stats()
	return Info{ID: r.id, Scene: r.scene, Hz: r.hz, Tick: r.tick.Load(), Entities: int(r.entities.Load()),
		TicksPerSec: st.TicksPerSecond, Paused: st.Paused}
}

// Done returns a channel closed when the room has stopped.
func (r *Room) Done() <-chan struct{} { return r.done }

// Err returns why the room stopped: nil while it runs or if it was asked
// to stop; the panic or tick error that stopped it otherwise.
func (r *Room) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

// Busy returns how long the room's goroutine has been in its present
// tick or piece of work between ticks (a Do, a request); 0 while it
// waits for the next.
func (r *Room) Busy() time.Duration {
	b := r.busy.Load()
	if b == 0 {
		return 0
	}
	return time.Since(time.Unix(0, b))
}

// newRoom loads spec's scene into a fresh Registry. It starts nothing.
func newRoom(ctx context.Context, spec Spec, opt *HostOptions, plans *live.PlanCache) (*Room, error) {
	reg := registry.New(ecs.NewWorld())
	reg.Seed = uint64(spec.Seed)
	reg.Limits.MaxEntities = opt.MaxEntities
	b, err := components.Register(reg)
	if err != nil {
		return nil, err
	}
	if opt.Register != nil {
		if err := opt.Register(reg, b); err != nil {
			return nil, fmt.Errorf("room %s: registering components: %w", spec.ID, err)
		}
	}
	lopt := loader.Options{Context: ctx, Builtins: components.Names(), Plans: plans,
		Limits: scenefile.Limits{MaxEntities: opt.MaxEntities}}
	var scene *loader.Scene
	switch {
	case spec.Snapshot != nil:
		scene, err = loadSnapshot(reg, spec.ID, spec.Snapshot, lopt)
	case spec.Data != nil:
		scene, err = loader.LoadBytes(reg, spec.File, spec.Data, lopt)
	default:
		scene, err = loader.Load(reg, spec.FS, spec.File, lopt)
	}
	if err != nil {
		return nil, fmt.Errorf("room %s: %w", spec.ID, err)
	}
	r := &Room{
		id: spec.ID, scene: spec.sceneName(), hz: spec.Hz, seed: spec.Seed,
		reg: reg, b: b,
		in:     inspect.New(reg, inspect.Options{Scene: scene, Behaviour: b, Hosts: append([]string{requestHost}, opt.InspectHosts...)}),
		inbox:  make(chan func()),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
		onTick: opt.OnTick,
	}
	if spec.Snapshot != nil {
		r.header = spec.Snapshot.Header
	} else if r.header, err = sceneHeader(scene.Plan.Doc); err != nil {
		return nil, fmt.Errorf("room %s: %w", spec.ID, err)
	}
	if s := spec.Snapshot; s != nil {
		if err := r.restore(s); err != nil {
			return nil, fmt.Errorf("room %s: %w", spec.ID, err)
		}
	}
	r.entities.Store(int64(reg.World().Len()))
	// Long work of the Registry (spawners) stops once the room has.
	var rctx context.Context
	rctx, r.cancel = context.WithCancel(context.Background())
	reg.SetContext(rctx)
	return r, nil
}

// run ticks the room until it is stopped, a tick fails or something
// panics on its goroutine; report hears why.
func (r *Room) run(report func(*Room, error)) {
	r.report = report
	var err error
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("room %s: panic at tick %d: %v\n%s", r.id, r.tick.Load()+1, p, debug.Stack())
		}
		r.busy.Store(0)
		r.finish(err)
	}()
	err = r.loop()
}

// finish ends the room once, with why: its inspector closes (requests
// waiting get 503), its Registry's context ends, its host forgets it and
// OnStop hears of it, then Done closes. It is called by the room's
// goroutine when it ends, or by whoever gives the room up as hung.
func (r *Room) finish(err error) {
	r.finishOnce.Do(func() {
		r.err = err
		r.in.Close()
		r.cancel()
		// Reported (forgotten by its host, OnStop told) before Done
		// closes: whoever waited for Done sees the host without it.
		r.report(r, err)
		close(r.done)
	})
}

// abandon gives the room up as hung, with err (which wraps ErrHung): it
// is stopped and reported at once, without waiting for its goroutine,
// which stops at its next chance if it ever comes back. A room that has
// stopped already is left as it is.
func (r *Room) abandon(err error) {
	select {
	case <-r.done:
		return
	default:
	}
	r.abandoned.Store(true)
	r.stopOnce.Do(func() { close(r.stop) })
	r.finish(err)
}

// loop is the room's goroutine: between ticks it runs what Do sends and
// serves the inspector (in the time to spare before the next tick, and
// within the inspector's share of wall time when it ticks); it ticks
// every 1/hz seconds of wall time. A room
// woken late (a busy machine) runs the ticks it owes at once, to hold
// its rate; one more than a quarter of a second behind gives up the
// ticks beyond that instead of running ever later.
func (r *Room) loop() error {
	dt := 1 / r.hz
	step := time.Duration(float64(time.Second) / r.hz)
	maxBehind := max(int64(r.hz/4), 2)
	start := time.Now()
	var slot int64 // the tick slots passed since start
	timer := time.NewTimer(step)
	defer timer.Stop()
	for {
		select {
		case <-r.stop:
			return nil
		case fn := <-r.inbox:
			r.working()
			fn()
		case <-r.in.Wake():
			// Time to spare until the next tick: serve requests in it,
			// not bound by the inspector's share of wall time.
			r.working()
			r.in.DrainUntil(start.Add(time.Duration(slot+1) * step))
		case <-timer.C:
			r.working()
			r.in.Drain()
			due := int64(time.Since(start) / step)
			slot = max(slot, due-maxBehind)
			for ; slot < due; slot++ {
				if r.in.ShouldTick() {
					if err := r.tickOnce(dt); err != nil {
						return err
					}
				}
			}
			timer.Reset(time.Until(start.Add(time.Duration(slot+1) * step)))
		}
		r.busy.Store(0)
		if r.abandoned.Load() {
			return nil
		}
	}
}

// working marks the goroutine busy from now (see Busy).
func (r *Room) working() { r.busy.Store(time.Now().UnixNano()) }

// errGivenUp ends the goroutine of a room given up as hung that came
// back: its end was reported already.
var errGivenUp = errors.New("given up as hung")

// tickOnce runs one tick and what follows it.
func (r *Room) tickOnce(dt float64) error {
	t0 := time.Now()
	r.busy.Store(t0.UnixNano()) // working, with the tick's own clock reading
	err := r.reg.Tick(dt)
	r.in.Observe(time.Since(t0))
	if r.abandoned.Load() {
		return errGivenUp
	}
	r.tick.Add(1)
	r.entities.Store(int64(r.reg.World().Len()))
	if err != nil {
		return fmt.Errorf("room %s: tick %d: %w", r.id, r.tick.Load(), err)
	}
	if r.onTick != nil {
		r.onTick(r, r.reg)
	}
	return nil
}

// Do runs fn on the room's goroutine between two ticks, with the room's
// Registry, and returns its error. It returns an error wrapping
// ErrStopped if the room stops first (a panic in fn stops the room),
// and ctx's error if ctx ends before fn runs or returns.
func (r *Room) Do(ctx context.Context, fn func(reg *registry.Registry) error) error {
	res := make(chan error, 1)
	select {
	case r.inbox <- func() { res <- fn(r.reg) }:
	case <-r.done:
		return r.stoppedErr()
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-res:
		return err
	case <-r.done:
		return r.stoppedErr()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Builtins returns the room's built-in components. Use their methods
// only inside Do.
func (r *Room) Builtins() *components.Builtins { return r.b }

func (r *Room) stoppedErr() error {
	if r.err != nil {
		return fmt.Errorf("%w: %w", ErrStopped, r.err)
	}
	return fmt.Errorf("room %s: %w", r.id, ErrStopped)
}

// halt asks the room to stop and waits until it has, at most wait for
// a goroutine busy in a tick that does not come back: such a room is
// given up as hung.
func (r *Room) halt(wait time.Duration) {
	r.stopOnce.Do(func() { close(r.stop) })
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-r.done:
		return
	case <-t.C:
	}
	r.abandon(fmt.Errorf("room %s: %w: asked to stop, it did not come back from tick %d in %v", r.id, ErrHung, r.tick.Load()+1, wait))
	<-r.done
}

// loadSnapshot loads s into reg: its header (declarations and mixins), then
// its dump.
func loadSnapshot(reg *registry.Registry, id string, s *Snapshot, opt loader.Options) (*loader.Scene, error) {
	if len(s.Header) > 0 {
		if _, err := loader.LoadBytes(reg, id+".header.yaml", s.Header, opt); err != nil {
			return nil, err
		}
	}
	return loader.LoadBytes(reg, id+".snapshot.json", s.Dump, opt)
}
