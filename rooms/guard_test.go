package rooms

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// TestRateWhosePeriodDoesNotFit: a tick rate whose period is longer than
// a day (1e-10 Hz: 317 years, which time.Duration cannot hold: the room
// spun a core) is refused, saying so, as are rates that are no number;
// CheckRate says the same for any caller. A rate of one tick a day is
// the slowest taken.
func TestRateWhosePeriodDoesNotFit(t *testing.T) {
	h := NewHost(HostOptions{})
	defer h.Close()
	for _, hz := range []float64{1e-10, 1.0 / 86401, math.NaN(), math.Inf(1), -1, MaxHz + 1} {
		_, err := h.Create(context.Background(), rainSpec("r", hz))
		if err == nil {
			t.Fatalf("a room at %v Hz was made", hz)
		}
		if !strings.Contains(err.Error(), "tick rate") {
			t.Errorf("%v Hz: %v", hz, err)
		}
		if hz > 0 && hz < 1 && !strings.Contains(err.Error(), "longer than a day") {
			t.Errorf("%v Hz: %v, want it to say the period is longer than a day", hz, err)
		}
		if cerr := CheckRate(hz, MaxHz); cerr == nil {
			t.Errorf("CheckRate(%v) took it", hz)
		}
	}
	if h.Len() != 0 {
		t.Fatalf("%d rooms made", h.Len())
	}
	if err := CheckRate(1.0/86400, MaxHz); err != nil {
		t.Errorf("one tick a day: %v", err)
	}
	r, err := h.Create(context.Background(), rainSpec("daily", 1.0/86400))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Do(context.Background(), func(*registry.Registry) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if r.Tick() != 0 {
		t.Errorf("a room of one tick a day ran %d ticks at once", r.Tick())
	}
}

// TestSnapshotChecked: a snapshot whose tick, clock, step or rate make no
// sense is refused before anything of it loads, with the field named; the
// same snapshot with sane fields resumes.
func TestSnapshotChecked(t *testing.T) {
	h := NewHost(HostOptions{})
	defer h.Close()
	orig, err := h.Create(context.Background(), rainSpec("orig", 100))
	if err != nil {
		t.Fatal(err)
	}
	waitTick(t, orig, 5)
	good, err := orig.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for _, c := range []struct {
		field string
		spoil func(s *Snapshot)
	}{
		{"tick", func(s *Snapshot) { s.Tick = -1 }},
		{"time", func(s *Snapshot) { s.Time, s.Clock = math.Inf(1), nil }},
		{"clock", func(s *Snapshot) { s.Clock.Time = nan }},
		{"clock", func(s *Snapshot) { s.Clock.Ticks = -3 }},
		{"step", func(s *Snapshot) { s.Clock.Step = -0.5 }},
		{"step", func(s *Snapshot) { s.Clock.Step = 1e10 }},
		{"clock", func(s *Snapshot) { s.Clock.Fixed = map[string][2]float64{"physics": {0, nan}} }},
		{"tick rate", func(s *Snapshot) { s.Hz = 1e-10 }},
	} {
		s := *good
		c2 := *good.Clock
		s.Clock = &c2
		c.spoil(&s)
		_, err := h.Create(context.Background(), Spec{ID: "bad", Snapshot: &s, Hz: s.Hz})
		if err == nil {
			t.Errorf("a snapshot with a bad %s resumed", c.field)
			_ = h.Stop("bad")
			continue
		}
		if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), "snapshot") {
			t.Errorf("bad %s: %v", c.field, err)
		}
	}
	if _, err := h.Create(context.Background(), Spec{ID: "fine", Snapshot: good, Hz: good.Hz}); err != nil {
		t.Errorf("the good snapshot: %v", err)
	}
}

// TestMaxRooms: a host takes at most HostOptions.MaxRooms rooms; a
// create beyond is refused with ErrFull and makes nothing. The default
// is finite.
func TestMaxRooms(t *testing.T) {
	h := NewHost(HostOptions{MaxRooms: 3})
	defer h.Close()
	for i := range 3 {
		if _, err := h.Create(context.Background(), rainSpec(fmt.Sprintf("r%d", i), 30)); err != nil {
			t.Fatal(err)
		}
	}
	_, err := h.Create(context.Background(), rainSpec("r3", 30))
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "3 rooms") {
		t.Fatalf("a fourth room on a host of 3: %v, want ErrFull", err)
	}
	if h.Len() != 3 {
		t.Fatalf("%d rooms", h.Len())
	}
	_ = h.Stop("r0")
	if _, err := h.Create(context.Background(), rainSpec("r3", 30)); err != nil {
		t.Errorf("a room once one stopped: %v", err)
	}
	if d := NewHost(HostOptions{}); d.MaxRooms() != DefaultMaxRooms || DefaultMaxRooms > 10_000 {
		t.Errorf("default MaxRooms %d", d.MaxRooms())
	}
}

// TestMaxEntities: each room's scene, snapshot and spawners are held to
// HostOptions.MaxEntities: a scene of more entities is refused, so is a
// spawner that would pass the budget at once, and one that spawns as
// the room runs waits at the budget.
func TestMaxEntities(t *testing.T) {
	h := NewHost(HostOptions{MaxEntities: 50})
	defer h.Close()
	var big strings.Builder
	big.WriteString("entities:\n")
	for i := range 60 {
		fmt.Fprintf(&big, "  - id: e%d\n    position: 0 0 0\n", i)
	}
	_, err := h.Create(context.Background(), Spec{ID: "big", File: "big.yaml", Data: []byte(big.String()), Hz: 30})
	if err == nil || !strings.Contains(err.Error(), "50") {
		t.Errorf("a scene of 60 entities on a host of 50 per room: %v", err)
	}
	burst := "entities:\n  - id: tap\n    spawner: \"count: 200\"\n"
	_, err = h.Create(context.Background(), Spec{ID: "burst", File: "burst.yaml", Data: []byte(burst), Hz: 100})
	if err == nil || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "50") {
		t.Errorf("a spawner of 200 at once in a room of 50: %v, want the limit", err)
	}
	flood := "entities:\n  - id: tap\n    spawner: \"rate: 2000\"\n"
	r, err := h.Create(context.Background(), Spec{ID: "flood", File: "flood.yaml", Data: []byte(flood), Hz: 100})
	if err != nil {
		t.Fatal(err)
	}
	for r.Info().Entities < 50 && r.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	waitTick(t, r, r.Tick()+20)
	if n := r.Info().Entities; n > 50 || r.Err() != nil {
		t.Errorf("a spawner of 2,000 a second in a room of 50: %d entities, err %v", n, r.Err())
	}
	if d := NewHost(HostOptions{}); d.MaxEntities() != DefaultMaxEntities {
		t.Errorf("default MaxEntities %d", d.MaxEntities())
	}
}

// spin (registered as hang) is a component whose tick never comes back while its room's test
// lasts: a room that hangs its goroutine, as a bug in a program's own
// component would. It ignores the room's context on purpose.
type spin struct{ After int }

// registerSpin registers spin; the ticks spin until release is closed.
func registerSpin(release <-chan struct{}) func(*registry.Registry, *components.Builtins) error {
	return func(reg *registry.Registry, _ *components.Builtins) error {
		_, err := registry.Register(reg, "hang", registry.Definition[spin]{
			Tick: func(c *registry.Context, s *spin) {
				if s.After--; s.After > 0 {
					return
				}
				for !closed(release) {
					// spins: the tick does not come back
				}
			},
		})
		return err
	}
}

// TestHungRoom: a room whose tick does not come back is given up after
// HangAfter: stopped with ErrHung, reported (OnStop), no longer listed;
// the other rooms tick on at their rate meanwhile, and Close returns at
// once though the hung tick still runs.
func TestHungRoom(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var mu sync.Mutex
	stopped := map[string]error{}
	h := NewHost(HostOptions{Register: registerSpin(release), HangAfter: 300 * time.Millisecond,
		OnStop: func(r *Room, err error) { mu.Lock(); stopped[r.ID()] = err; mu.Unlock() }})
	ok, err := h.Create(context.Background(), rainSpec("ok", 100))
	if err != nil {
		t.Fatal(err)
	}
	hung, err := h.Create(context.Background(), Spec{ID: "hung", File: "hang.yaml", Data: []byte("entities:\n  - hang: \"after: 3\"\n"), Hz: 100})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-hung.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("the hung room is still running, busy %v", hung.Busy())
	}
	if !errors.Is(hung.Err(), ErrHung) || h.Room("hung") != nil || h.Hung() != 1 {
		t.Errorf("hung room: err %v, listed %v, host's hung count %d", hung.Err(), h.Room("hung") != nil, h.Hung())
	}
	mu.Lock()
	if !errors.Is(stopped["hung"], ErrHung) {
		t.Errorf("OnStop heard %v", stopped["hung"])
	}
	mu.Unlock()
	// A room held up by the hung one would not tick at all; a third of
	// its rate leaves room for a loaded machine of two cores, one of
	// which the hung tick still spins on.
	t0, start := ok.Tick(), time.Now()
	waitTick(t, ok, t0+50)
	if rate := float64(ok.Tick()-t0) / time.Since(start).Seconds(); rate < 30 {
		t.Errorf("the other room ran %.0f ticks/s beside the hung one, want about 100", rate)
	}
	if st, _ := hung.Request("GET", "/api/query?selector=*", nil); st != 503 {
		t.Errorf("a request to the hung room: %d, want 503", st)
	}
	closed := make(chan struct{})
	go func() { h.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waits for the hung room")
	}
}

// TestStopHungRoom: Stop of a room busy in a tick that does not come back
// gives it up within HangAfter instead of waiting for ever.
func TestStopHungRoom(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	h := NewHost(HostOptions{Register: registerSpin(release), HangAfter: time.Hour})
	defer h.Close()
	r, err := h.Create(context.Background(), Spec{ID: "hung", File: "hang.yaml", Data: []byte("entities:\n  - hang: \"after: 1\"\n"), Hz: 100})
	if err != nil {
		t.Fatal(err)
	}
	for r.Busy() == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if err := h.Stop("hung"); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second || !errors.Is(r.Err(), ErrHung) { // Stop waits 2 s; an hour would be HangAfter
		t.Errorf("Stop of a hung room took %v; it stopped with %v", d, r.Err())
	}
}

// closed reports whether c is closed, without waiting.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
