package fleet

import (
	"fmt"
	"strings"
	"testing"
	"time"
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
		es, err := f.client.st.roomEntries(f.ctx())
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
				t.Fatalf("room %s runs on %v", id, hs)
			}
		}
		if len(where) != 30 {
			return fmt.Sprintf("%d rooms running, want 30", len(where))
		}
		return ""
	})
	t.Logf("%d rooms back %v after their host died (heartbeat 100 ms, dead after 500 ms)", len(moved), time.Since(killed).Round(time.Millisecond))
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
// once, with a snapshot taken as it left (no tick lost).
func TestFleetLeave(t *testing.T) {
	f := newFleet(t, 2)
	f.createRooms("l", 6, 20)
	h := f.hosts[0]
	var mine []string
	for _, r := range h.Local().Rooms() {
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
		if e == nil || !strings.Contains(e.Error, "boom") {
			return fmt.Sprintf("bomb's entry: %+v", e)
		}
		return ""
	})
	time.Sleep(500 * time.Millisecond) // five heartbeats: time to claim it, were it claimable
	where := f.where()
	if len(where["bomb"]) != 0 || len(where) != 2 {
		t.Errorf("rooms running: %v; want p000 and p001 only", where)
	}
}
