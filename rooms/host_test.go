package rooms

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// TestManyRoomsIsolated runs 100 rooms of one scene at once (created from
// 10 goroutines) and checks that they share nothing: rooms stepped to the
// same tick hold the same dump, whatever the others did meanwhile; a
// change in one room is seen in no other; stopping half of them leaves
// the rest ticking. Under -race it also checks that nothing mutable is
// shared between rooms' goroutines.
func TestManyRoomsIsolated(t *testing.T) {
	h := NewHost(HostOptions{})
	defer h.Close()
	const n = 100
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := 0; g < 10; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 10 {
				if _, err := h.Create(context.Background(), rainSpec(fmt.Sprintf("r%03d", i), 50)); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if h.Len() != n {
		t.Fatalf("%d rooms, want %d", h.Len(), n)
	}
	rs := h.Rooms()
	// A change in room 0 only.
	if st, body := rs[0].Request("PUT", "/api/entities/ground/components/position", []byte("0 -99 0")); st != 200 {
		t.Fatalf("set: %d %s", st, body)
	}
	for _, r := range rs {
		waitTick(t, r, 3)
	}
	// Every room, paused, then stepped to the same tick: one dump.
	var at int64
	ticks := make([]int64, n)
	for i, r := range rs[1:] {
		ticks[i+1] = pause(t, r)
		at = max(at, ticks[i+1]+3)
	}
	for i, r := range rs[1:] {
		if st, body := r.Request("POST", fmt.Sprintf("/api/step?n=%d", at-ticks[i+1]), nil); st != 200 {
			t.Fatalf("step: %d %s", st, body)
		}
	}
	dumps := map[string]int{}
	for _, r := range rs[1:] {
		waitTick(t, r, at)
		s, err := r.Snapshot(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if s.Tick != at {
			t.Fatalf("room %s at tick %d, want %d", r.ID(), s.Tick, at)
		}
		dumps[string(s.Dump)]++
	}
	if len(dumps) != 1 {
		t.Errorf("rooms stepped to tick %d hold %d different dumps, want 1", at, len(dumps))
	}
	for _, r := range rs[1:] {
		var pos string
		_ = r.Do(context.Background(), func(reg *registry.Registry) error {
			e, _ := reg.EntityByID("ground")
			pos, _ = reg.Attr(e, "position")
			return nil
		})
		if pos != "0 -5 0" {
			t.Fatalf("room %s: ground at %q: room r000's change leaked", r.ID(), pos)
		}
	}
	for _, r := range rs[:n/2] {
		if err := h.Stop(r.ID()); err != nil {
			t.Fatal(err)
		}
	}
	if h.Len() != n/2 {
		t.Fatalf("%d rooms after stopping %d, want %d", h.Len(), n/2, n/2)
	}
	r := rs[n-1]
	r.Request("POST", "/api/play", nil)
	waitTick(t, r, r.Tick()+5)
}

// TestRoomPanics: a room whose tick panics, one whose Do panics and one
// whose tick fails are stopped and reported; the others run on.
func TestRoomPanics(t *testing.T) {
	var mu sync.Mutex
	stopped := map[string]error{}
	type bomb struct{ At int }
	h := NewHost(HostOptions{
		Register: func(reg *registry.Registry, _ *components.Builtins) error {
			_, err := registry.Register(reg, "bomb", registry.Definition[bomb]{
				Tick: func(c *registry.Context, b *bomb) {
					if b.At--; b.At == 0 {
						panic("boom")
					}
				},
			})
			return err
		},
		OnStop: func(r *Room, err error) {
			mu.Lock()
			stopped[r.ID()] = err
			mu.Unlock()
		},
	})
	defer h.Close()
	bombScene := []byte("entities:\n  - bomb: \"at: 5\"\n")
	okRoom, err := h.Create(context.Background(), rainSpec("ok", 200))
	if err != nil {
		t.Fatal(err)
	}
	ticking, err := h.Create(context.Background(), Spec{ID: "ticking", File: "bomb.yaml", Data: bombScene, Hz: 200})
	if err != nil {
		t.Fatal(err)
	}
	doing, err := h.Create(context.Background(), rainSpec("doing", 200))
	if err != nil {
		t.Fatal(err)
	}
	<-ticking.Done()
	err = doing.Do(context.Background(), func(*registry.Registry) error { panic("in Do") })
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "in Do") {
		t.Errorf("Do that panics: %v, want ErrStopped with the panic", err)
	}
	for _, r := range []*Room{ticking, doing} {
		if r.Err() == nil || !strings.Contains(r.Err().Error(), "panic") {
			t.Errorf("room %s stopped with %v, want the panic", r.ID(), r.Err())
		}
		if h.Room(r.ID()) != nil {
			t.Errorf("room %s still listed", r.ID())
		}
	}
	if !strings.Contains(ticking.Err().Error(), "tick 5: registry: bomb panicked: boom") {
		t.Errorf("ticking: %v", ticking.Err())
	}
	waitTick(t, okRoom, okRoom.Tick()+10)
	if okRoom.Err() != nil || h.Len() != 1 {
		t.Fatalf("the other room: err %v, %d rooms", okRoom.Err(), h.Len())
	}
	h.Stop("ok")
	mu.Lock()
	defer mu.Unlock()
	if len(stopped) != 3 || stopped["ok"] != nil || stopped["ticking"] == nil || stopped["doing"] == nil {
		t.Errorf("OnStop heard %v", stopped)
	}
}

// TestRoomCatchesUp: a room held up between ticks (here by a Do that
// takes 400 ms) runs the ticks it owes once free, up to a quarter of a
// second's worth, instead of losing them, and gives up the rest: at
// 100 Hz it falls behind its schedule by the 15 ticks beyond the
// quarter second, where a room that dropped late ticks would fall 40
// behind, and one that ran them all none.
//
// How far behind is read, not a rate over a second of wall time (which
// a loaded machine spends elsewhere): its lag, the slots of 10 ms passed
// since a moment of the test's less the ticks run, taken at its least
// before the stall, and after it once the room has caught up. A late
// reading, or the room's goroutine woken late, only adds to a lag.
func TestRoomCatchesUp(t *testing.T) {
	h := NewHost(HostOptions{})
	defer h.Close()
	const hz = 100
	r, err := h.Create(context.Background(), rainSpec("late", hz))
	if err != nil {
		t.Fatal(err)
	}
	waitTick(t, r, 1)
	step, ref := time.Second/hz, time.Now()
	lag := func() int64 {
		tick := r.Tick()
		return int64(time.Since(ref)/step) - tick
	}
	before := lag()
	for range 20 {
		time.Sleep(step / 2)
		before = min(before, lag())
	}
	var stall time.Duration
	if err := r.Do(context.Background(), func(*registry.Registry) error {
		t0 := time.Now()
		time.Sleep(400 * time.Millisecond)
		stall = time.Since(t0)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	owed, quarter := int64(stall/step), int64(hz/4)
	// Caught up: behind by what it gave up (owed less a quarter second),
	// with half the quarter to spare; never, had it dropped all it owed.
	var behind int64
	deadline := time.Now().Add(20 * time.Second)
	for behind = lag() - before; behind > owed-quarter/2; behind = lag() - before {
		if time.Now().After(deadline) {
			t.Fatalf("after a stall of %v (%d ticks owed) the room stays %d ticks further behind its schedule, want about %d: it did not run the quarter second it owed",
				stall.Round(time.Millisecond), owed, behind, owed-quarter)
		}
		time.Sleep(step / 2)
	}
	t.Logf("a stall of %v at %v Hz: %d ticks owed, %d further behind once caught up", stall.Round(time.Millisecond), hz, owed, behind)
	if behind < owed-quarter-2 {
		t.Errorf("after a stall of %v (%d ticks owed) the room is %d ticks further behind, want about %d: it ran more than a quarter second of late ticks",
			stall.Round(time.Millisecond), owed, behind, owed-quarter)
	}
}

// TestStopIsDone: once Stop returns, or a room's Done is closed, its host
// no longer lists it and OnStop has heard of it, every time (a room once
// closed Done before its host forgot it).
func TestStopIsDone(t *testing.T) {
	var heard sync.Map
	h := NewHost(HostOptions{OnStop: func(r *Room, _ error) {
		time.Sleep(2 * time.Millisecond) // a slow OnStop: Stop and Done wait for it
		heard.Store(r.ID(), true)
	}})
	defer h.Close()
	const n = 60
	for i := 0; i < n; i++ {
		if _, err := h.Create(context.Background(), rainSpec(fmt.Sprintf("s%02d", i), 100)); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range h.Rooms() {
		if i%2 == 0 {
			if err := h.Stop(r.ID()); err != nil {
				t.Fatal(err)
			}
		} else {
			_ = r.Do(context.Background(), func(*registry.Registry) error { panic("stop") })
			<-r.Done()
		}
		if _, ok := heard.Load(r.ID()); !ok || h.Room(r.ID()) != nil || h.Len() != n-i-1 {
			t.Fatalf("room %s stopped: OnStop heard %v, still listed %v, %d rooms left (want %d)", r.ID(), ok, h.Room(r.ID()) != nil, h.Len(), n-i-1)
		}
	}
}

// TestRoomsSharePlan: rooms made from the same scene files share one
// compiled plan (the host compiles the scene once), each building its
// own World from it, and a room of other bytes gets a plan of its own.
// Rooms made at once from several goroutines share it too (run with
// -race). Every other test of rooms runs rooms built so.
func TestRoomsSharePlan(t *testing.T) {
	h := NewHost(HostOptions{})
	defer h.Close()
	for i := range 5 {
		if _, err := h.Create(context.Background(), rainSpec(fmt.Sprintf("r%d", i), 100)); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.plans.Hits(); got != 4 {
		t.Errorf("5 rooms of one scene: the plan was taken from the cache %d times, want 4", got)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := h.Create(context.Background(), rainSpec(fmt.Sprintf("c%d", i), 100)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := h.plans.Hits(); got != 12 {
		t.Errorf("8 more rooms at once: %d hits in all, want 12", got)
	}
	if _, err := h.Create(context.Background(), Spec{ID: "other", Data: []byte(clockScene), File: "clock.yaml", Hz: 60}); err != nil {
		t.Fatal(err)
	}
	if got := h.plans.Hits(); got != 12 {
		t.Errorf("a room of another scene took a cached plan (%d hits)", got)
	}
}
