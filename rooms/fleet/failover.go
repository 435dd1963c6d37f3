package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"sort"

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
	e := *o.e
	e.Tick, e.Snapshot = s.Tick, s.Taken
	if err := h.st.update(ctx, &e); err != nil {
		if cur, gerr := h.st.getEntry(ctx, s.ID); gerr == nil && (cur == nil || cur.Host != h.opt.ID) {
			o.e.Host = "" // not ours: checkOwned stops it
		}
		return fmt.Errorf("fleet: room %s: directory: %w", s.ID, err)
	}
	o.e = &e
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
func (h *Host) claim(ctx context.Context, es []*Entry, live map[string]*HostInfo) {
	var orphans []*Entry
	for _, e := range es {
		if e.Error == "" && h.orphan(e, live) {
			orphans = append(orphans, e)
		}
	}
	if len(orphans) == 0 {
		return
	}
	hosts := max(len(live), 1)
	quota := (len(orphans) + hosts - 1) / hosts
	// Each host starts at a place of its own in the list, so that hosts
	// claiming at once mostly reach for different rooms.
	sort.Slice(orphans, func(i, j int) bool { return orphans[i].ID < orphans[j].ID })
	f := fnv.New32a()
	f.Write([]byte(h.opt.ID))
	start := int(f.Sum32() % uint32(len(orphans)))
	for i := 0; i < len(orphans) && quota > 0; i++ {
		e := orphans[(start+i)%len(orphans)]
		e.Host = h.opt.ID
		e.Moves++
		if h.st.update(ctx, e) != nil {
			continue // another host claimed it first
		}
		quota--
		if err := h.resume(ctx, e); err != nil {
			e.Error = err.Error()
			_ = h.st.update(ctx, e)
		}
	}
}

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

// resume starts room e, just claimed, from its last snapshot.
func (h *Host) resume(ctx context.Context, e *Entry) error {
	b, err := h.st.snaps.GetBytes(ctx, e.ID)
	if err != nil {
		return fmt.Errorf("fleet: room %s: reading its snapshot: %w", e.ID, err)
	}
	var s rooms.Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("fleet: room %s: its snapshot: %w", e.ID, err)
	}
	r, err := h.local.Create(ctx, rooms.Spec{ID: e.ID, Snapshot: &s, Hz: s.Hz, Seed: s.Seed})
	if err != nil {
		return err
	}
	_, err = h.adopt(r, e)
	return err
}
