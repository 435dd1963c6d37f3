package registry

import (
	"context"
	"errors"
	"fmt"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/events"
)

// This file holds the machinery the Registry offers work it defers, such
// as the spawner of package components: limits, a context to stop by, and
// a list of the errors to report later.

// Limits bound the work a scene makes a Registry do: the entities spawns
// create, the event deliveries of a tick. A zero field takes its value
// from [DefaultLimits]. They are per Registry, so per scene: a host of
// many scenes (rooms) gives each its share.
type Limits struct {
	// MaxEntities is the most live entities (in the Registry's World)
	// a spawn may bring the World to: a spawner, on's spawn action,
	// [Prefabs.Instantiate] and [Mixins.Instantiate] count the entities
	// they would make (a prefab's whole instance) before making any, and
	// fail, making nothing, if the count would pass it (an error
	// wrapping [ErrLimit]). Match it to the loader's entity limit; a
	// host running many scenes in one process sets it far lower.
	MaxEntities int
	// MaxSpawnDepth bounds how deeply spawners nest: a spawner on an
	// entity with no spawner among its ancestors has depth 0, one on an
	// entity spawned by it (a mixin that spawns, used by a spawner) depth
	// 1, and so on. A spawner at MaxSpawnDepth or deeper spawns nothing
	// and fails, so a mixin that spawns itself stops.
	MaxSpawnDepth int
	// MaxDeliveries bounds the event deliveries (listener calls) of one
	// tick, and of one call made between ticks (an inspector's command,
	// a hot reload, or one Emit of the program's): see
	// [events.Events.OpenWindow]. When it runs out, the first delivery
	// refused is reported once (a [*BudgetError], returned by
	// [Registry.TakeErrors] and Tick) and the rest of the window's are
	// dropped, so that handlers that emit their own event twice (2³²
	// deliveries, nested 32 deep) end after the budget's worth.
	MaxDeliveries int
}

// DefaultLimits returns the limits used for zero fields of
// [Registry.Limits]: 1,000,000 entities (the loader's default entity
// limit), a spawn depth of 16 and 100,000 event deliveries per tick
// ([events.DefaultBudget]).
func DefaultLimits() Limits {
	return Limits{MaxEntities: 1_000_000, MaxSpawnDepth: 16, MaxDeliveries: events.DefaultBudget}
}

// WithDefaults returns l with its zero (or negative) fields replaced by
// those of [DefaultLimits]: the limits in force.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.MaxEntities <= 0 {
		l.MaxEntities = d.MaxEntities
	}
	if l.MaxSpawnDepth <= 0 {
		l.MaxSpawnDepth = d.MaxSpawnDepth
	}
	if l.MaxDeliveries <= 0 {
		l.MaxDeliveries = d.MaxDeliveries
	}
	return l
}

// ErrLimit is wrapped by the errors of work refused because it would pass
// one of the Registry's [Limits].
var ErrLimit = errors.New("registry limit reached")

// SetContext sets the context long work of the Registry checks (spawners
// check it before each spawn and every few hundred entities): once ctx is
// done, spawning stops with ctx's error (see [Registry.TakeErrors]). A nil
// ctx is never done. It returns the previous context, so that a caller
// can restore it:
//
//	defer reg.SetContext(reg.SetContext(ctx))
func (r *Registry) SetContext(ctx context.Context) (prev context.Context) {
	prev, r.cancel = r.cancel, ctx
	if prev == nil {
		prev = context.Background()
	}
	return prev
}

// ContextErr returns the error of the context set with
// [Registry.SetContext] once it is done, and nil before (or when none was
// set). Long work checks it to stop early.
func (r *Registry) ContextErr() error {
	if r.cancel == nil {
		return nil
	}
	return r.cancel.Err()
}

// roomFor returns an error, unless n more entities (a spawn: a prefab's
// instance, a mixin's) fit under Limits.MaxEntities and the context set
// with SetContext is not done.
func (r *Registry) roomFor(n int) error {
	if err := r.ContextErr(); err != nil {
		return err
	}
	lim := r.Limits.WithDefaults().MaxEntities
	if live := r.w.Len(); n > lim-live {
		return fmt.Errorf("%w: %d more entities with %d live would pass Limits.MaxEntities (%d)", ErrLimit, n, live, lim)
	}
	return nil
}

// A SpawnError reports that a spawner could not spawn (or stopped): past
// a limit (it wraps [ErrLimit]), cancelled (it wraps the context's error),
// or with an unknown mixin. [Registry.TakeErrors] and [Registry.Tick]
// return these, joined; find them with errors.As:
//
//	registry: entity #nest: spawner: registry limit reached: 100 more entities with 1 live would pass Limits.MaxEntities (50)
type SpawnError struct {
	// Entity is the entity whose spawner failed.
	Entity ecs.Entity
	// EntityID is the entity's scene id when it failed, or "".
	EntityID string
	// Err is the spawner's error, such as
	// `spawner: unknown mixin "egg"`. Spawners that fail the same way
	// have errors with the same text.
	Err error
}

// Error formats the error as described on [SpawnError]: the entity by its
// id (or handle), then Err.
func (e *SpawnError) Error() string {
	who := e.Entity.String()
	if e.EntityID != "" {
		who = "#" + e.EntityID
	}
	return "registry: entity " + who + ": " + e.Err.Error()
}

// Unwrap returns Err.
func (e *SpawnError) Unwrap() error { return e.Err }

// maxPendingErrors bounds the errors kept for TakeErrors; beyond, they are
// counted.
const maxPendingErrors = 100

// ReportError records err, the failure of work deferred to a later time
// (a spawner runs once the World is unlocked, so its failure cannot be
// returned by the call that added it), for [Registry.TakeErrors] and the
// next [Registry.Tick] to return.
func (r *Registry) ReportError(err error) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if len(r.errs) >= maxPendingErrors {
		r.dropped++
		return
	}
	r.errs = append(r.errs, err)
}

// TakeErrors returns the errors reported with [Registry.ReportError] since
// the last call (the failures of spawners, each a [*SpawnError], among them),
// joined with errors.Join, and forgets them; nil if there were none. Tick
// returns them too. The loader calls it after building a scene. At most
// 100 are kept between calls; the rest are counted in a last error.
func (r *Registry) TakeErrors() error {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if r.errs == nil {
		return nil
	}
	errs := r.errs
	if r.dropped > 0 {
		errs = append(errs, fmt.Errorf("registry: %d more errors", r.dropped))
	}
	r.errs, r.dropped = nil, 0
	return errors.Join(errs...)
}
