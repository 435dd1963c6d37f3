package fleet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrHostIDTaken is wrapped by Join's error for an id a live host beats
// under.
var ErrHostIDTaken = errors.New("host id taken")

// checkID waits until no live host beats under this host's id, and
// returns the revision of its key then (0 if there is none): a host
// whose last heartbeat is live may be one restarted at once (the same
// process, which died) or a second host under a live one's id, which
// would take the first's rooms as orphans and run them twice. So a live
// heartbeat is watched until it would be dead: a new beat meanwhile
// proves another host is alive, and the id is refused.
func (h *Host) checkID(ctx context.Context) (uint64, error) {
	kve, err := h.st.hosts.Get(ctx, h.opt.ID)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("fleet: reading host %s's heartbeat: %w", h.opt.ID, err)
	}
	dead := kve.Created().Add(h.opt.DeadAfter)
	poll := min(max(h.opt.Heartbeat/4, 20*time.Millisecond), 250*time.Millisecond)
	for time.Now().Before(dead) {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(min(poll, time.Until(dead))):
		}
		cur, err := h.st.hosts.Get(ctx, h.opt.ID)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted):
			return 0, nil // it left, or its key expired
		case err != nil:
			return 0, fmt.Errorf("fleet: reading host %s's heartbeat: %w", h.opt.ID, err)
		case cur.Revision() != kve.Revision():
			return 0, fmt.Errorf("fleet: host id %s: %w: a host beats under it (its last heartbeat %v ago): two hosts with one id would run the same rooms twice; stop it, or choose another id",
				h.opt.ID, ErrHostIDTaken, time.Since(cur.Created()).Round(time.Millisecond))
		}
	}
	return kve.Revision(), nil
}

// firstBeat puts the host's first heartbeat over the revision checkID
// saw (none: a new key), so that of two hosts joining under one id at
// once, one gets it.
func (h *Host) firstBeat(ctx context.Context, rev uint64) error {
	var err error
	if rev == 0 {
		_, err = h.st.hosts.Create(ctx, h.opt.ID, h.info())
	} else {
		_, err = h.st.hosts.Update(ctx, h.opt.ID, h.info(), rev)
	}
	if err == nil {
		return nil
	}
	_, gerr := h.st.hosts.Get(ctx, h.opt.ID)
	if errors.Is(gerr, jetstream.ErrKeyNotFound) || errors.Is(gerr, jetstream.ErrKeyDeleted) {
		// The stale key expired meanwhile: a new one.
		if _, err = h.st.hosts.Create(ctx, h.opt.ID, h.info()); err == nil {
			return nil
		}
		_, gerr = h.st.hosts.Get(ctx, h.opt.ID)
	}
	if gerr == nil {
		return fmt.Errorf("fleet: host id %s: %w: another host took it while this one joined", h.opt.ID, ErrHostIDTaken)
	}
	return fmt.Errorf("fleet: heartbeat: %w", err)
}
