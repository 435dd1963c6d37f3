package registry

import (
	"context"
	"errors"
	"fmt"
)

// Limits bound the work a Registry does on its own behalf: the entities
// spawners create. A zero field takes its value from DefaultLimits.
type Limits struct {
	// MaxEntities is the most live entities a spawner may bring the
	// World to. A spawner whose count would pass it spawns nothing and
	// fails (see TakeErrors). Match it to the loader's entity limit.
	MaxEntities int
	// MaxSpawnDepth bounds how deeply spawners nest: a spawner on an
	// entity with no spawner among its ancestors has depth 0, one on an
	// entity spawned by it (a mixin that spawns, used by a spawner) depth
	// 1, and so on. A spawner at MaxSpawnDepth or deeper spawns nothing
	// and fails, so a mixin that spawns itself stops.
	MaxSpawnDepth int
}

// DefaultLimits returns the limits used for zero fields of
// Registry.Limits: 1,000,000 entities (the loader's default entity limit)
// and a spawn depth of 16.
func DefaultLimits() Limits {
	return Limits{MaxEntities: 1_000_000, MaxSpawnDepth: 16}
}

// limits returns r.Limits with zero (or negative) fields defaulted.
func (r *Registry) limits() Limits {
	l, d := r.Limits, DefaultLimits()
	if l.MaxEntities <= 0 {
		l.MaxEntities = d.MaxEntities
	}
	if l.MaxSpawnDepth <= 0 {
		l.MaxSpawnDepth = d.MaxSpawnDepth
	}
	return l
}

// ErrLimit is wrapped by the errors of work refused because it would pass
// one of the Registry's Limits.
var ErrLimit = errors.New("registry limit reached")

// SetContext sets the context long work of the Registry checks (spawners
// check it before each spawn and every few hundred entities): once ctx is
// done, spawning stops with ctx's error (see TakeErrors). A nil ctx is
// never done. It returns the previous context, so that a caller can
// restore it:
//
//	defer reg.SetContext(reg.SetContext(ctx))
func (r *Registry) SetContext(ctx context.Context) (prev context.Context) {
	prev, r.cancel = r.cancel, ctx
	if prev == nil {
		prev = context.Background()
	}
	return prev
}

// cancelled returns the error of the Registry's context, if it is done.
func (r *Registry) cancelled() error {
	if r.cancel == nil {
		return nil
	}
	return r.cancel.Err()
}

// maxPendingErrors bounds the errors kept for TakeErrors; beyond, they are
// counted.
const maxPendingErrors = 100

// addError records an error of deferred work for TakeErrors.
func (r *Registry) addError(err error) {
	if len(r.errs) >= maxPendingErrors {
		r.dropped++
		return
	}
	r.errs = append(r.errs, err)
}

// TakeErrors returns the errors of work the Registry deferred and ran
// later since the last call (a spawner runs once the World is unlocked,
// so that its failure cannot be returned by the call that added it), joined
// with errors.Join, and forgets them; nil if there were none. Tick returns
// them too. The loader calls it after building a scene. At most 100 are
// kept between calls; the rest are counted in a last error.
func (r *Registry) TakeErrors() error {
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
