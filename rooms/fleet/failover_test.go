package fleet

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestFleetFailover: a host stopped without warning (its rooms and its
// connection gone, the directory not told); once its heartbeats expire,
// its rooms run again on the two others, each exactly once, from their
// snapshots (tick not below the snapshot's), and the rooms of the
// surviving hosts stay where they were.
func TestFleetFailover(t *testing.T) {
	f := newFleet(t, 3)
	f.createRooms("f", 30, 20)
	dead := f.hosts[1]
	before := f.where()
	snapTick := map[string]int64{}
	// Let every room snapshot at least once after its creation.
	eventually(t, 5*time.Second, func() string {
		es, err := f.client.st.roomEntries(f.ctx(), listGrace)
		if err != nil {
			return err.Error()
		}
		for _, e := range es {
			if e.Tick == 0 {
				return fmt.Sprintf("room %s has no snapshot past tick 0", e.ID)
			}
			snapTick[e.ID] = e.Tick
		}
		return ""
	})
	var moved []string
	for id, hs := range before {
		if hs[0] == dead.ID() {
			moved = append(moved, id)
		}
	}
	if len(moved) == 0 {
		t.Fatal("the host to kill runs no room")
	}
	dead.Close()
	f.conns[1].Close()
	killed := time.Now()
	f.hosts = append(f.hosts[:1], f.hosts[2:]...)
	eventually(t, 10*time.Second, func() string {
		where := f.where()
		for id, hs := range where {
			if len(hs) > 1 {
				e, _ := f.client.st.getEntry(f.ctx(), id)
				t.Fatalf("room %s runs on %v; its entry %+v; it ran on %v before", id, hs, e, before[id])
			}
		}
		if len(where) != 30 {
			return fmt.Sprintf("%d rooms running, want 30", len(where))
		}
		return ""
	})
	t.Logf("%d rooms back %v after their host died (heartbeat 100 ms, dead after 2 s)", len(moved), time.Since(killed).Round(time.Millisecond))
	where := f.where()
	for id, hs := range before {
		if hs[0] != dead.ID() && where[id][0] != hs[0] {
			t.Errorf("room %s moved from %s, a live host, to %s", id, hs[0], where[id][0])
		}
	}
	for _, id := range moved {
		ls, err := f.client.List(f.ctx())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			if l.ID == id && (!l.Live || l.Tick < snapTick[id] || l.Moves != 1 || l.Host == dead.ID()) {
				t.Errorf("room %s after failover: %+v; its snapshot before: tick %d", id, l, snapTick[id])
			}
		}
	}
}

// TestFleetLeave: a host that leaves in good order hands its rooms over at
// once, each paused and snapshotted as it left: no tick is lost.
func TestFleetLeave(t *testing.T) {
	f := newFleet(t, 2)
	f.createRooms("l", 6, 20)
	h := f.hosts[0]
	var mine []string
	old := h.Local().Rooms()
	for _, r := range old {
		mine = append(mine, r.ID())
	}
	if len(mine) == 0 {
		t.Fatal("host h0 runs no room")
	}
	if err := h.Leave(f.ctx()); err != nil {
		t.Fatal(err)
	}
	left := time.Now()
	f.hosts = f.hosts[1:]
	eventually(t, 5*time.Second, func() string {
		if n := f.hosts[0].Local().Len(); n != 6 {
			return fmt.Sprintf("host h1 runs %d rooms, want 6", n)
		}
		return ""
	})
	t.Logf("%d rooms moved %v after their host left", len(mine), time.Since(left).Round(time.Millisecond))
	// Each room goes on from the last tick it ran on the host that left
	// (were it snapshotted running, a tick between its snapshot and its
	// stop would be lost).
	for _, o := range old {
		<-o.Done()
		r := f.hosts[0].Local().Room(o.ID())
		if r == nil {
			t.Fatalf("room %s did not move", o.ID())
		}
		if r.Tick() < o.Tick() {
			t.Errorf("room %s resumed at tick %d, below its last tick %d on the host that left", o.ID(), r.Tick(), o.Tick())
		}
	}
	hs, err := f.client.Hosts(f.ctx())
	if err != nil || len(hs) != 1 || hs[0].ID != "h1" {
		t.Errorf("live hosts after h0 left: %v %v", hs, err)
	}
}

// TestFleetRoomPanics: a room that panics is stopped, marked failed in
// the directory with the panic, and not resumed by any host; the others
// run on.
func TestFleetRoomPanics(t *testing.T) {
	f := newFleet(t, 2)
	f.createRooms("p", 2, 20)
	if _, err := f.client.Create(f.ctx(), CreateRequest{ID: "bomb", Scene: "bomb.yaml", Data: []byte("entities:\n  - bomb: \"at: 30\"\n"), Hz: 20}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, func() string {
		e, err := f.client.st.getEntry(f.ctx(), "bomb")
		if err != nil {
			return err.Error()
		}
		if e == nil || !strings.Contains(e.Quarantine, "boom") {
			return fmt.Sprintf("bomb's entry: %+v", e)
		}
		return ""
	})
	waitUpkeeps(t, 3, f.hosts...) // each host has read the directory since, and claimed what it would
	where := f.where()
	if len(where["bomb"]) != 0 || len(where) != 2 {
		t.Errorf("rooms running: %v; want p000 and p001 only", where)
	}
	if e, err := f.client.st.getEntry(f.ctx(), "bomb"); err != nil || e == nil || e.Moves != 0 {
		t.Errorf("bomb's entry after its quarantine: %+v %v; want it never moved", e, err)
	}
}

// TestFleetRestart: a host that dies and comes back under the same id
// before its heartbeats expire (a process restarted at once) resumes its
// own rooms: the directory names it, but it runs none of them.
func TestFleetRestart(t *testing.T) {
	f := newFleet(t, 1)
	f.createRooms("re", 4, 20)
	eventually(t, 5*time.Second, func() string {
		es, err := f.client.st.roomEntries(f.ctx(), listGrace)
		if err != nil {
			return err.Error()
		}
		for _, e := range es {
			if e.Tick == 0 {
				return "room " + e.ID + " has no snapshot past tick 0"
			}
		}
		return ""
	})
	f.hosts[0].Close()
	f.hosts = nil
	h := f.join(fastOptions("h0"))
	eventually(t, 5*time.Second, func() string {
		if n := h.Local().Len(); n != 4 {
			return fmt.Sprintf("the restarted host runs %d rooms, want 4", n)
		}
		return ""
	})
}

// TestClientWithoutFleet: a client of a NATS server no host has joined
// says so, instead of making the fleet's buckets itself.
func TestClientWithoutFleet(t *testing.T) {
	s, err := RunServer("127.0.0.1", 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	nc, err := nats.Connect(s.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if _, err := NewClient(context.Background(), nc, ""); err == nil || !strings.Contains(err.Error(), "has a host joined?") {
		t.Errorf("a client with no fleet: %v", err)
	}
}

// putAlways puts each key of keys in kv, its value of value, every
// millisecond from a goroutine of its own, until the test ends; it
// returns once every key's first put is stored, so that what reads the
// bucket next may expect every key. Each put has a deadline of its own:
// one whose answer is lost on a loaded machine holds up no key for long.
func putAlways(t *testing.T, kv jetstream.KeyValue, keys []string, value func(key string) []byte) {
	t.Helper()
	stop := make(chan struct{})
	var wg, first sync.WaitGroup
	for _, key := range keys {
		wg.Add(1)
		first.Add(1)
		go func() {
			defer wg.Done()
			stored := false
			defer func() {
				if !stored {
					first.Done()
				}
			}()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				_, err := kv.Put(ctx, key, value(key))
				cancel()
				if err == nil && !stored {
					stored = true
					first.Done()
				}
				time.Sleep(time.Millisecond)
			}
		}()
	}
	t.Cleanup(func() { close(stop); wg.Wait() })
	all := make(chan struct{})
	go func() { first.Wait(); close(all) }()
	select {
	case <-all:
	case <-time.After(20 * time.Second):
		t.Fatalf("the first puts of %v not all stored after 20 s", keys)
	}
}

// TestBusyHostsAlive: hosts that beat all the time (here every
// millisecond, so that beats land while others read the hosts bucket)
// are always found alive by liveHosts when the directory names them. A
// listing alone misses a key put while it is read, which made a host
// claim the rooms of a live one.
//
// What is tested is that a key being put is never missed, not how fast
// a busy machine beats: the reads start once every busy host's first
// beat is stored (before, the first read could come before a busy
// host's first beat on a loaded machine), and the hosts count as dead
// only a minute after their last beat, so that no pause of the beating
// goroutines (a loaded scheduler, a slow acknowledgement) ages a beat
// past it. A read that fails (a request lost on a loaded machine) is
// made again, each under a deadline of its own.
func TestBusyHostsAlive(t *testing.T) {
	opt := fastOptions("h0")
	opt.DeadAfter = time.Minute
	f := newFleetOf(t, opt)
	st := f.hosts[0].st
	ids := []string{"busy1", "busy2", "busy3"}
	putAlways(t, st.hosts, ids, func(id string) []byte { return []byte(`{"id":"` + id + `"}`) })
	failed := 0
	for i := 0; i < 100; {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		live, err := st.liveHosts(ctx, 0, ids...)
		cancel()
		if err != nil {
			if failed++; failed > 10 {
				t.Fatalf("read %d: %v (%d reads failed)", i, err, failed)
			}
			continue
		}
		for _, id := range ids {
			if live[id] == nil {
				t.Fatalf("read %d: host %s, beating every millisecond, taken for dead", i, id)
			}
		}
		i++
	}
}

// TestListingWhileWritten: a listing of the directory holds every room,
// even while their entries are rewritten all the time (as snapshots
// do): a room missing from a listing is not listed by "scene-run rooms"
// and not claimed. The listings start once every room's first entry is
// stored (a 20 ms sleep stood for it, which a loaded machine outlasts).
func TestListingWhileWritten(t *testing.T) {
	f := newFleet(t, 1)
	st := f.hosts[0].st
	var ids []string
	for i := 0; i < 10; i++ {
		ids = append(ids, fmt.Sprintf("w%d", i))
	}
	putAlways(t, st.rooms, ids, func(id string) []byte { return []byte(`{"id":"` + id + `","host":"elsewhere"}`) })
	for i := 0; i < 50; i++ {
		es, err := st.roomEntries(f.ctx(), listGrace)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 10 {
			t.Fatalf("listing %d holds %d rooms, want 10", i, len(es))
		}
	}
}
