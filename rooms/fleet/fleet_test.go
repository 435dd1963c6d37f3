package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/rooms"
)

// testFleet is a NATS server in the test process and hosts on it.
type testFleet struct {
	t      *testing.T
	url    string
	hosts  []*Host
	conns  []*nats.Conn
	client *Client
}

// fastOptions beat, expire and snapshot quickly, for tests.
func fastOptions(id string) Options {
	return Options{ID: id, Scenes: os.DirFS("../testdata"), Heartbeat: 100 * time.Millisecond,
		DeadAfter: 2 * time.Second, SnapshotEvery: 200 * time.Millisecond, StateEvery: 5,
		Rooms: rooms.HostOptions{Register: registerBomb}}
}

// bomb panics when its count reaches zero: a room that panics.
type bomb struct{ At int }

func registerBomb(reg *registry.Registry, _ *components.Builtins) error {
	_, err := registry.Register(reg, "bomb", registry.Definition[bomb]{
		Tick: func(c *registry.Context, b *bomb) {
			if b.At--; b.At == 0 {
				panic("boom")
			}
		},
	})
	return err
}

func newFleet(t *testing.T, hosts int) *testFleet {
	t.Helper()
	opts := make([]Options, hosts)
	for i := range opts {
		opts[i] = fastOptions(fmt.Sprintf("h%d", i))
	}
	return newFleetOf(t, opts...)
}

// newFleetOf starts a NATS server and joins a host of each of opts (at
// least one), and a client.
func newFleetOf(t *testing.T, opts ...Options) *testFleet {
	t.Helper()
	s, err := RunServer("127.0.0.1", 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &testFleet{t: t, url: s.ClientURL()}
	t.Cleanup(func() {
		for _, h := range f.hosts {
			h.Close()
		}
		for _, nc := range f.conns {
			nc.Close()
		}
		s.Shutdown()
		s.WaitForShutdown()
	})
	for _, opt := range opts {
		f.join(opt)
	}
	f.client, err = NewClient(context.Background(), f.conn(), "")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *testFleet) conn() *nats.Conn {
	nc, err := nats.Connect(f.url)
	if err != nil {
		f.t.Fatal(err)
	}
	f.conns = append(f.conns, nc)
	return nc
}

func (f *testFleet) join(opt Options) *Host {
	h, err := Join(context.Background(), f.conn(), opt)
	if err != nil {
		f.t.Fatal(err)
	}
	f.hosts = append(f.hosts, h)
	return h
}

// where returns, for each room id, the hosts whose rooms.Host runs it.
func (f *testFleet) where() map[string][]string {
	m := map[string][]string{}
	for _, h := range f.hosts {
		for _, r := range h.Local().Rooms() {
			m[r.ID()] = append(m[r.ID()], h.ID())
		}
	}
	return m
}

// ctx returns a context that ends after 10 s or with the test.
func (f *testFleet) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	f.t.Cleanup(cancel)
	return ctx
}

// createRooms creates rooms id0..id{n-1} of rain.yaml at hz, from 5
// goroutines at once.
func (f *testFleet) createRooms(prefix string, n int, hz float64) {
	f.t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := 0; g < 5; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += 5 {
				if _, err := f.client.Create(f.ctx(), CreateRequest{ID: fmt.Sprintf("%s%03d", prefix, i), Scene: "rain.yaml", Hz: hz}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		f.t.Fatal(err)
	}
}

// eventually polls cond every 50 ms until it returns "" or d passes; then
// it fails the test with cond's last complaint.
func eventually(t *testing.T, d time.Duration, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", d, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitUpkeeps waits until each of hosts has run n more rounds of its
// upkeep than when called (n >= 2: the round under way may have read
// the directory before the call). A check that nothing was claimed, or
// lost, waits on it rather than on time: the hosts have looked.
func waitUpkeeps(t *testing.T, n int64, hosts ...*Host) {
	t.Helper()
	from := make([]int64, len(hosts))
	for i, h := range hosts {
		from[i] = h.upkeeps.Load()
	}
	eventually(t, 20*time.Second, func() string {
		for i, h := range hosts {
			if got := h.upkeeps.Load() - from[i]; got < n {
				return fmt.Sprintf("host %s ran %d rounds of upkeep, want %d", h.ID(), got, n)
			}
		}
		return ""
	})
}

// TestFleet100Rooms: 100 rooms over 3 hosts in one process, placed evenly;
// every room answers through NATS, from a connection of its own, with
// the same JSON as its HTTP API; inputs sent without waiting apply; a
// room's state arrives on its subject; an id is taken once in the fleet.
func TestFleet100Rooms(t *testing.T) {
	f := newFleet(t, 3)
	f.createRooms("r", 100, 10)
	where := f.where()
	if len(where) != 100 {
		t.Fatalf("%d rooms running, want 100", len(where))
	}
	per := map[string]int{}
	for id, hs := range where {
		if len(hs) != 1 {
			t.Errorf("room %s runs on %v", id, hs)
		}
		per[hs[0]]++
	}
	for _, h := range f.hosts {
		if per[h.ID()] < 25 || per[h.ID()] > 42 {
			t.Errorf("placement: %v, want about 33 rooms per host", per)
			break
		}
	}
	for _, h := range f.hosts {
		for _, r := range h.Local().Rooms() {
			if _, err := f.client.Ask(f.ctx(), r.ID(), "pause", nil); err != nil {
				t.Fatal(err)
			}
			got, err := f.client.Ask(f.ctx(), r.ID(), "get", []byte("rain"))
			if err != nil {
				t.Fatal(err)
			}
			st, want := r.Request("GET", "/api/entities/rain", nil)
			if st != http.StatusOK || string(got) != string(want) {
				t.Fatalf("room %s: get over NATS:\n%s\nover its API (%d):\n%s", r.ID(), got, st, want)
			}
		}
	}
	_, err := f.client.Create(f.ctx(), CreateRequest{ID: "r007", Scene: "rain.yaml"})
	var fe *Error
	if !errors.As(err, &fe) || fe.Status != http.StatusConflict {
		t.Errorf("creating r007 again: %v, want a 409", err)
	}
	if _, err := f.client.Ask(f.ctx(), "r000", "bogus", nil); !errors.As(err, &fe) || fe.Status != http.StatusBadRequest {
		t.Errorf("an unknown verb: %v, want a 400", err)
	}
}

// TestFleetInputsAndState: a client follows a room's state and sends it
// inputs (set, emit) without waiting for answers; they apply, in order.
func TestFleetInputsAndState(t *testing.T) {
	f := newFleet(t, 2)
	f.createRooms("s", 2, 50)
	states := make(chan State, 100)
	sub, err := f.client.Follow("s001", func(s State) {
		select {
		case states <- s:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	select {
	case s := <-states:
		if s.ID != "s001" || s.Tick <= 0 || s.Tick%5 != 0 || s.Entities < 2 || s.Host == "" {
			t.Errorf("state %+v", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no state in 5 s")
	}
	for _, y := range []string{"1", "2", "3"} {
		b, _ := json.Marshal(SetRequest{Entity: "ground", Component: "position", Value: "0 " + y + " 0"})
		if err := f.client.Send("s001", "set", b); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 5*time.Second, func() string {
		got, err := f.client.Ask(f.ctx(), "s001", "query", []byte("#ground[position.y=3]"))
		if err != nil {
			return err.Error()
		}
		if !strings.Contains(string(got), `"count":1`) {
			return "the inputs did not apply: " + string(got)
		}
		return ""
	})
	got, err := f.client.Ask(f.ctx(), "s000", "query", []byte("#ground[position.y=3]"))
	if err != nil || strings.Contains(string(got), `"count":1`) {
		t.Errorf("room s000 saw s001's input: %s %v", got, err)
	}
}
