package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/scenecs/scenecs/rooms"
)

// snapshot writes o's snapshot to the store, then its tick to the
// directory (compare-and-set: a host that lost the room to another
// learns it here and stops its copy).
func (h *Host) snapshot(ctx context.Context, o *owned) error {
	s, err := o.room.Snapshot(ctx)
	if err != nil {
		return err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.e.Host != h.opt.ID {
		return fmt.Errorf("fleet: room %s is no longer this host's", s.ID)
	}
	if _, err := h.st.snaps.PutBytes(ctx, s.ID, b); err != nil {
		return fmt.Errorf("fleet: room %s: storing its snapshot: %w", s.ID, err)
	}
	// Over the entry as the directory has it, while it still names this
	// host: an earlier write whose answer was lost (its timeout, the
	// host leaving) changed its revision, not its owner.
	err = h.st.rewrite(ctx, o.e, func(e *Entry) {
		e.Tick, e.Snapshot = s.Tick, s.Taken
		if !e.Trial.IsZero() && time.Since(e.Trial) >= h.opt.Probation {
			e.Trial, e.Failures = time.Time{}, 0 // it ran its probation here: a good start
		}
	})
	if err != nil {
		if cur, gerr := h.st.getEntry(ctx, s.ID); gerr == nil && (cur == nil || cur.Host != h.opt.ID) {
			o.e.Host = "" // not ours: checkOwned stops it
		}
		return fmt.Errorf("fleet: room %s: directory: %w", s.ID, err)
	}
	return nil
}

// upkeep reads the directory and the live hosts once, stops this
// host's copy of every room the directory no longer gives it
// (destroyed, or claimed by another host while this one was cut off),
// and claims this host's share of the orphaned rooms.
func (h *Host) upkeep(ctx context.Context) {
	es, err := h.st.roomEntries(ctx, listGrace)
	if err != nil {
		return
	}
	named := make([]string, len(es))
	for i, e := range es {
		named[i] = e.Host
	}
	live, err := h.st.liveHosts(ctx, 0, named...)
	if err != nil {
		return
	}
	h.checkOwned(es)
	h.claim(ctx, es, live)
}

// lostTo says who has room id now, for the log line of a room lost.
func lostTo(cur *Entry) string {
	switch {
	case cur == nil:
		return "its entry has left the directory"
	case cur.Quarantine != "":
		return "the directory has it quarantined"
	case cur.Host == "":
		return "the directory has it released"
	}
	return "the directory gives it to host " + cur.Host
}

// checkOwned stops this host's copy of every room es does not give it.
func (h *Host) checkOwned(es []*Entry) {
	byID := make(map[string]*Entry, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	for _, o := range h.ownedRooms() {
		cur := byID[o.room.ID()]
		o.mu.Lock()
		// An entry older than ours (read before our last write) proves
		// nothing; one at or past our revision that names another host,
		// or none, does.
		lost := o.e.Host != h.opt.ID || cur != nil && cur.rev >= o.e.rev && cur.Host != h.opt.ID
		if cur == nil {
			lost = lost || h.gone(o)
		}
		o.mu.Unlock()
		if lost {
			h.drop(o)
			_ = h.local.Stop(o.room.ID())
			h.opt.Logf("lost room %s: %s; its copy here stopped at tick %d", o.room.ID(), lostTo(cur), o.room.Tick())
		}
	}
}

// gone reports whether o's entry has left the directory for good (not
// merely missing from a listing read before it was made).
func (h *Host) gone(o *owned) bool {
	ctx, cancel := h.ctx()
	defer cancel()
	cur, err := h.st.getEntry(ctx, o.room.ID())
	return err == nil && cur == nil
}

// claim resumes this host's share of the orphaned rooms of es: those of
// hosts no longer alive, and those released by hosts that left. Each is
// claimed by compare-and-set on its entry, so exactly one host gets it.
// No more are claimed than the host has room for (MaxRooms). A room
// still on trial when its host died failed its start; one whose last
// MaxFailures starts failed is quarantined instead of resumed, so that a
// room that crashes or hangs its hosts stops going from one to the next.
func (h *Host) claim(ctx context.Context, es []*Entry, live map[string]*HostInfo) {
	var orphans []*Entry
	for _, e := range es {
		if e.Quarantine == "" && h.orphan(e, live) {
			orphans = append(orphans, e)
		}
	}
	if len(orphans) == 0 {
		return
	}
	hosts := max(len(live), 1)
	quota := min((len(orphans)+hosts-1)/hosts, h.free())
	// Each host starts at a place of its own in the list, so that hosts
	// claiming at once mostly reach for different rooms.
	sort.Slice(orphans, func(i, j int) bool { return orphans[i].ID < orphans[j].ID })
	f := fnv.New32a()
	f.Write([]byte(h.opt.ID))
	start := int(f.Sum32() % uint32(len(orphans)))
	for i := 0; i < len(orphans) && quota > 0; i++ {
		e := orphans[(start+i)%len(orphans)]
		prev, why := *e, h.orphanWhy(e, live)
		if !e.Trial.IsZero() {
			e.Failures++ // its host died while it was on trial
		}
		if e.Failures >= h.opt.MaxFailures {
			h.quarantine(ctx, e, fmt.Sprintf("its last %d starts failed: each host that ran it stopped within %v of starting it (the last: %s)",
				e.Failures, h.opt.Probation, why))
			continue
		}
		e.Host, e.Trial = h.opt.ID, time.Now()
		e.Moves++
		if h.st.update(ctx, e) != nil {
			continue // another host claimed it first
		}
		quota--
		// Each resume has a timeout of its own: many rooms to resume at
		// once on a slow machine do not run one upkeep's out.
		rctx, cancel := context.WithTimeout(h.life, h.opt.Timeout)
		err := h.resume(rctx, e)
		if err != nil {
			h.resumeFailed(rctx, e, &prev, err)
		}
		cancel()
		if err != nil {
			continue
		}
		h.opt.Logf("took over room %s (%s): resumed at tick %d from its snapshot of %v ago, start %d on trial",
			e.ID, why, e.Tick, time.Since(e.Snapshot).Round(time.Millisecond), e.Failures+1)
	}
}

// free returns how many more rooms the host has room for.
func (h *Host) free() int {
	h.mu.Lock()
	pending := len(h.pending)
	h.mu.Unlock()
	return max(h.local.MaxRooms()-h.local.Len()-pending, 0)
}

// orphanWhy says why room e, an orphan, has no host, for the log.
func (h *Host) orphanWhy(e *Entry, live map[string]*HostInfo) string {
	switch {
	case e.Host == "":
		return "released by the host that left it"
	case e.Host == h.opt.ID:
		return "this host's own, run again under its id"
	case live[e.Host] == nil:
		return "host " + e.Host + " is dead"
	}
	return "host " + e.Host
}

// resumeFailed writes back room e, claimed but not resumed: a host with
// no room left gives it back as it was (prev); a snapshot that cannot be
// read now (the store's trouble, or this host's) is given back released,
// the failed start its last host's death made counted, this one not; a
// snapshot that does not resume (missing, refused, or does not load)
// will not resume anywhere, and the room is quarantined.
func (h *Host) resumeFailed(ctx context.Context, e, prev *Entry, err error) {
	var unread snapshotUnread
	switch {
	case errors.Is(err, rooms.ErrFull):
		back := *prev
		back.rev = e.rev
		_ = h.st.update(ctx, &back)
	case errors.As(err, &unread) && !errors.Is(err, jetstream.ErrObjectNotFound):
		e.Host, e.Trial = "", time.Time{}
		_ = h.st.update(ctx, e)
		h.opt.Logf("room %s: not taken over: %v", e.ID, err)
	default:
		h.quarantine(ctx, e, "its snapshot does not resume: "+reason(err))
	}
}

// snapshotUnread is resume's error for a snapshot it could not read.
type snapshotUnread struct{ err error }

func (e snapshotUnread) Error() string { return e.err.Error() }
func (e snapshotUnread) Unwrap() error { return e.err }

// orphan reports whether room e has no host running it: its host left
// it, died, or is this host run again (the same id) without it.
func (h *Host) orphan(e *Entry, live map[string]*HostInfo) bool {
	h.mu.Lock()
	_, creating := h.pending[e.ID]
	h.mu.Unlock()
	if creating || h.local.Room(e.ID) != nil {
		return false
	}
	return e.Host == "" || e.Host == h.opt.ID || live[e.Host] == nil
}

// resume starts room e, just claimed, from its last snapshot, once its
// fields make sense (rooms.Snapshot.Check, and its id is the room's).
func (h *Host) resume(ctx context.Context, e *Entry) error {
	b, err := h.st.snaps.GetBytes(ctx, e.ID)
	if err != nil {
		return snapshotUnread{fmt.Errorf("fleet: room %s: reading its snapshot: %w", e.ID, err)}
	}
	var s rooms.Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("fleet: room %s: its snapshot: %w", e.ID, err)
	}
	if s.ID != e.ID {
		return fmt.Errorf("fleet: room %s: its snapshot is room %q's", e.ID, s.ID)
	}
	r, err := h.local.Create(ctx, rooms.Spec{ID: e.ID, Snapshot: &s, Hz: s.Hz, Seed: s.Seed})
	if err != nil {
		return err
	}
	_, err = h.adopt(r, e)
	return err
}
