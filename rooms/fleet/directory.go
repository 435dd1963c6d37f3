package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Entry is a room's line in the directory (bucket PREFIX_rooms).
type Entry struct {
	ID    string  `json:"id"`
	Host  string  `json:"host"` // empty: released by a host that left, to be claimed
	Scene string  `json:"scene"`
	Hz    float64 `json:"hz"`
	Seed  int64   `json:"seed"`
	// Tick is the room's tick at its last snapshot, and Snapshot when
	// that was taken.
	Tick     int64     `json:"tick"`
	Snapshot time.Time `json:"snapshot"`
	// Moves counts the times the room was resumed on another host.
	Moves int `json:"moves"`
	// Trial, if not zero, is when the room was last started (created or
	// resumed) on its host, which it has not yet run Options.Probation
	// on: were its host to die now, the start failed.
	Trial time.Time `json:"trial,omitzero"`
	// Failures counts the room's failed starts in a row: its host died
	// while it was on trial, or it failed there. At Options.MaxFailures
	// it is quarantined.
	Failures int `json:"failures,omitempty"`
	// Quarantine, if not empty, says why the room is stopped and resumed
	// by no host until an operator resumes it (Client.Resume): it failed
	// (a panic, a failed tick, a snapshot that does not load, given up as
	// hung), or its last starts failed one after the other.
	Quarantine string `json:"quarantine,omitempty"`

	rev uint64 // the entry's revision in the bucket
}

// HostInfo is a live host's line in bucket PREFIX_hosts.
type HostInfo struct {
	ID      string    `json:"id"`
	Rooms   int       `json:"rooms"`
	Started time.Time `json:"started"`
	// Inspect is the host's page (Options.Inspect), if it serves one.
	Inspect string `json:"inspect,omitempty"`
	// MaxRooms is the most rooms the host takes (rooms.HostOptions), and
	// Hung the rooms it gave up as hung whose goroutines still run.
	MaxRooms int `json:"maxRooms,omitempty"`
	Hung     int `json:"hung,omitempty"`
	// Beat is when its last heartbeat reached the server.
	Beat time.Time `json:"-"`
}

// stores are a fleet's buckets (snaps nil for a client).
type stores struct {
	rooms, hosts jetstream.KeyValue
	snaps        jetstream.ObjectStore
	deadAfter    time.Duration
}

// openStores creates the buckets of n, or updates them to this
// configuration (a host joining).
func openStores(ctx context.Context, js jetstream.JetStream, n names, deadAfter time.Duration, replicas int) (*stores, error) {
	s := stores{deadAfter: deadAfter}
	var err error
	if s.rooms, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: n.roomsKV, History: 1, Replicas: replicas}); err != nil {
		return nil, fmt.Errorf("fleet: directory bucket %s: %w", n.roomsKV, err)
	}
	if s.hosts, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: n.hostsKV, History: 1, TTL: deadAfter, Replicas: replicas}); err != nil {
		return nil, fmt.Errorf("fleet: hosts bucket %s: %w", n.hostsKV, err)
	}
	if s.snaps, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: n.snapshots, Replicas: replicas}); err != nil {
		return nil, fmt.Errorf("fleet: snapshot store %s: %w", n.snapshots, err)
	}
	return &s, nil
}

// findStores opens the directory and the hosts' bucket of n as they are
// (a client, which needs no more: it reads them, and the hosts alone
// touch the snapshots); it fails if no host has made them.
func findStores(ctx context.Context, js jetstream.JetStream, n names) (*stores, error) {
	var s stores
	var err error
	if s.rooms, err = js.KeyValue(ctx, n.roomsKV); err != nil {
		return nil, fmt.Errorf("fleet: directory bucket %s: %w (has a host joined?)", n.roomsKV, err)
	}
	if s.hosts, err = js.KeyValue(ctx, n.hostsKV); err != nil {
		return nil, fmt.Errorf("fleet: hosts bucket %s: %w (has a host joined?)", n.hostsKV, err)
	}
	st, err := s.hosts.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: hosts bucket %s: %w", n.hostsKV, err)
	}
	s.deadAfter = st.TTL()
	return &s, nil
}

// entries returns every entry of a bucket, decoded into T. The listing
// (a watch of the bucket's last values) may leave out a key put while it
// is made: that key comes as an update after the listing's end. So with
// grace > 0 the updates arriving that long after the end are taken too,
// each key's latest value kept.
func entries[T any](ctx context.Context, kv jetstream.KeyValue, grace time.Duration, meta func(*T, jetstream.KeyValueEntry)) ([]*T, error) {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer func() { _ = w.Stop() }()
	var out []*T
	at := map[string]int{} // key -> its index in out
	var end <-chan time.Time
	for {
		select {
		case e := <-w.Updates():
			if e == nil { // the end of what the bucket held
				if grace <= 0 {
					return out, nil
				}
				end = time.After(grace)
				continue
			}
			v := new(T)
			if err := json.Unmarshal(e.Value(), v); err != nil {
				continue // not ours; a listing should not fail for it
			}
			if meta != nil {
				meta(v, e)
			}
			if i, ok := at[e.Key()]; ok {
				out[i] = v
			} else {
				at[e.Key()] = len(out)
				out = append(out, v)
			}
		case <-end:
			return out, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// listGrace is how long a listing of the directory waits, after its end,
// for the entries written while it was made. A listing may still miss
// one on a slow enough machine: nothing that must be right depends on a
// listing alone (a host's liveness and a room's loss are read key by
// key), and what a listing misses is claimed or listed the next time.
const listGrace = 50 * time.Millisecond

// roomEntries returns the directory, waiting grace after the listing's
// end (listGrace; 0 for a quick look that may miss a room).
func (s *stores) roomEntries(ctx context.Context, grace time.Duration) ([]*Entry, error) {
	return entries(ctx, s.rooms, grace, func(e *Entry, kve jetstream.KeyValueEntry) { e.rev = kve.Revision() })
}

// liveHosts returns the live hosts, by id: those whose last heartbeat
// is younger than deadAfter. The bucket's TTL removes the others' keys
// too, but JetStream expires messages on a timer of its own, seconds
// late; the heartbeat's time, stamped by the server, says it at once
// (given clocks in step with the server's, to well within deadAfter).
//
// A listing of a bucket (a watch of its last values) may miss a key put
// while it is made: it comes after the listing's end. So each host that
// also names (the hosts of the directory's rooms) is read by itself:
// a host is never taken for dead for being busy beating.
//
// grace is the listing's, as for roomEntries.
func (s *stores) liveHosts(ctx context.Context, grace time.Duration, also ...string) (map[string]*HostInfo, error) {
	ids := map[string]bool{}
	for _, id := range also {
		if id != "" {
			ids[id] = true
		}
	}
	hs, err := entries[HostInfo](ctx, s.hosts, grace, nil)
	if err != nil {
		return nil, err
	}
	for _, h := range hs {
		ids[h.ID] = true
	}
	m := make(map[string]*HostInfo, len(ids))
	for id := range ids {
		kve, err := s.hosts.Get(ctx, id)
		if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var h HostInfo
		if json.Unmarshal(kve.Value(), &h) != nil {
			continue
		}
		h.Beat = kve.Created()
		if time.Since(h.Beat) < s.deadAfter {
			m[id] = &h
		}
	}
	return m, nil
}

// getEntry returns room id's entry; nil, nil if there is none.
func (s *stores) getEntry(ctx context.Context, id string) (*Entry, error) {
	kve, err := s.rooms.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var e Entry
	if err := json.Unmarshal(kve.Value(), &e); err != nil {
		return nil, fmt.Errorf("fleet: directory entry %s: %w", id, err)
	}
	e.rev = kve.Revision()
	return &e, nil
}

// update writes e over the revision it was read at (compare-and-set),
// and keeps its new revision.
func (s *stores) update(ctx context.Context, e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	rev, err := s.rooms.Update(ctx, e.ID, b, e.rev)
	if err != nil {
		return err
	}
	e.rev = rev
	return nil
}

// rewrite writes change(e) over e's revision and keeps the result in e.
// When another write came first (a snapshot's, its answer lost to a
// timeout), it reads the entry again and, if it still names e's host,
// applies change to that and tries again, three times in all.
func (s *stores) rewrite(ctx context.Context, e *Entry, change func(*Entry)) error {
	for try := 1; ; try++ {
		n := *e
		change(&n)
		err := s.update(ctx, &n)
		if err == nil {
			*e = n
			return nil
		}
		if try == 3 {
			return err
		}
		cur, gerr := s.getEntry(ctx, e.ID)
		if gerr != nil || cur == nil || cur.Host != e.Host {
			return err
		}
		*e = *cur
	}
}

// create writes e as a new entry; it fails if the room is in the
// directory already.
func (s *stores) create(ctx context.Context, e *Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	rev, err := s.rooms.Create(ctx, e.ID, b)
	if err != nil {
		return err
	}
	e.rev = rev
	return nil
}
