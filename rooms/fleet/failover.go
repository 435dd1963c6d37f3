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

// checkOwned stops this host's copy of every room the directory no
// longer gives it (destroyed, or claimed by another host while this one
// was cut off).
func (h *Host) checkOwned(ctx context.Context) {
	for _, o := range h.ownedRooms() {
		cur, err := h.st.getEntry(ctx, o.room.ID())
		if err != nil {
			continue // cannot tell: keep it
		}
		o.mu.Lock()
		lost := cur == nil || cur.Host != h.opt.ID || o.e.Host != h.opt.ID
		o.mu.Unlock()
		if lost {
			h.drop(o)
			_ = h.local.Stop(o.room.ID())
		}
	}
}

// claim resumes this host's share of the orphaned rooms: those of hosts
// no longer alive, and those released by hosts that left. Each is
// claimed by compare-and-set on its entry, so exactly one host gets it.
func (h *Host) claim(ctx context.Context) {
	live, err := h.st.liveHosts(ctx)
	if err != nil {
		return
	}
	es, err := h.st.roomEntries(ctx)
	if err != nil {
		return
	}
	var orphans []*Entry
	for _, e := range es {
		if e.Error == "" && (e.Host == "" || live[e.Host] == nil) && h.local.Room(e.ID) == nil {
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
