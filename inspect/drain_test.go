package inspect

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// sleepWork queues n work items that each take d on the simulation
// goroutine (a request as long as a large answer), and returns the
// channel they answer on.
func sleepWork(in *Inspector, n int, d time.Duration) chan reply {
	done := make(chan reply, n)
	for range n {
		in.queue <- &work{ctx: context.Background(), name: "slow", fn: func() reply { time.Sleep(d); return okReply(nil) }, done: done}
	}
	return done
}

// TestDrainShare: however long each request takes, Drain spends on
// requests at most Options.Share of the wall time (plus what it saved
// up, Budget, and the request it finished last): called in a loop for
// 600 ms over requests of 5 ms each, Share 10% serves about 12 of them,
// not 120. DrainUntil, for time a loop has to spare, is not bound by the
// share: it serves until its deadline.
func TestDrainShare(t *testing.T) {
	in := New(newRegistry(t, nil), Options{Share: 0.1, Budget: 2 * time.Millisecond, MaxQueue: 1000})
	const cost = 5 * time.Millisecond
	done := sleepWork(in, 500, cost)
	// At least 600 ms, and until three are served: a loaded machine may
	// spend the window elsewhere (the allowance saved up while the loop
	// waits to run is capped at Budget, and each request's sleep may
	// last longer than asked), so that "at least three" is a condition
	// waited for, not a count within a time.
	t0 := time.Now()
	for time.Since(t0) < 600*time.Millisecond || len(done) < 3 {
		if time.Since(t0) > 20*time.Second {
			t.Fatalf("Drain served %d requests of %v in 20 s with a 10%% share, want 3", len(done), cost)
		}
		in.Drain()
		time.Sleep(50 * time.Microsecond) // a tick
	}
	wall := time.Since(t0)
	served := len(done)
	// share × wall, plus the budget saved up and the request that
	// overdraws it, each at least cost long.
	most := int((time.Duration(0.1*float64(wall))+2*time.Millisecond)/cost) + 2
	if served > most {
		t.Errorf("Drain served %d requests of %v in %v with a 10%% share, want at most %d", served, cost, wall, most)
	}
	// DrainUntil serves until its deadline less Budget, then stops: the
	// requests it starts all start before that, and the last of them
	// ends past it (read from the requests' own clock readings, not
	// from a bound on the call's length a loaded machine can outlast).
	var starts, ends []time.Time
	for range 100 {
		in.queue <- &work{ctx: context.Background(), name: "timed", fn: func() reply {
			starts = append(starts, time.Now())
			time.Sleep(cost)
			ends = append(ends, time.Now())
			return okReply(nil)
		}, done: make(chan reply, 1)}
	}
	for len(in.queue) > 100 { // the slow ones left from the share's part go first
		<-in.queue
	}
	deadline := time.Now().Add(100 * time.Millisecond)
	n := in.DrainUntil(deadline)
	until := deadline.Add(-2 * time.Millisecond) // less Budget
	switch {
	case n < 2 || n != len(starts):
		t.Errorf("DrainUntil 100 ms: %d requests of %v, %d started", n, cost, len(starts))
	case starts[n-1].After(until):
		t.Errorf("DrainUntil started a request %v past its deadline less Budget", starts[n-1].Sub(until))
	case ends[n-1].Before(until):
		t.Errorf("DrainUntil stopped %v before its deadline less Budget, with %d requests waiting", until.Sub(ends[n-1]), len(in.queue))
	}
	if in.DrainUntil(time.Now().Add(-time.Second)) != 0 || in.DrainUntil(time.Now().Add(time.Millisecond)) != 0 {
		t.Error("DrainUntil served past its deadline, or within Budget of it")
	}
}

// TestSceneInSteps: GET /api/scene of a large scene is captured over
// several Drains (each a slice, within its budget) while the World ticks
// in between, and formatted off the simulation goroutine; the answer is
// a dump that reads back, with every entity, and X-Scene-Ticks names
// the ticks it spans. So does GET /api/query?full=1.
func TestSceneInSteps(t *testing.T) {
	var src strings.Builder
	src.WriteString("entities:\n")
	for i := range 3000 {
		fmt.Fprintf(&src, "  - id: e%d\n    position: %d 0 0\n    velocity: 1 0 0\n", i, i)
	}
	e := newEnvWith(t, Options{Budget: 50 * time.Microsecond, Share: 1}, func(reg *registry.Registry) (*live.Scene, error) {
		return loader.LoadBytes(reg, "big.yaml", []byte(src.String()), loader.Options{})
	})
	for _, target := range []string{"/api/scene", "/api/query?full=1&selector=*"} {
		got := make(chan resp, 1)
		go func() { got <- e.get(target) }()
		drains := 0
		var r resp
	wait:
		for {
			select {
			case r = <-got:
				break wait
			default:
			}
			if e.in.Drain() == 0 && e.in.cur != nil {
				drains++
			}
			if err := e.in.Tick(1.0 / 60); err != nil { // serves nothing more: the same allowance
				t.Fatal(err)
			}
			time.Sleep(100 * time.Microsecond)
		}
		r.expect(t, http.StatusOK)
		if drains < 3 {
			t.Errorf("%s: served in %d unfinished drains, want it in slices", target, drains)
		}
		if target != "/api/scene" {
			var q queryResult
			r.json(t, &q)
			if q.Count != 3000 || len(q.Entities) != 3000 {
				t.Errorf("query: %d matches, %d entities", q.Count, len(q.Entities))
			}
			continue
		}
		doc, err := scenefile.ReadJSON("dump.json", r.body, scenefile.Limits{})
		if err != nil || len(doc.Entities) != 3000 {
			t.Fatalf("the dump does not read back whole: %v", err)
		}
		a, b, ok := strings.Cut(r.header.Get("X-Scene-Ticks"), "-")
		first, err1 := strconv.Atoi(a)
		last, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || last <= first {
			t.Errorf("X-Scene-Ticks %q, want a range of ticks", r.header.Get("X-Scene-Ticks"))
		}
	}
}

// TestStepsOfGoneClients: a request served in steps stops being served
// once its client has gone, and the next request is served.
func TestStepsOfGoneClients(t *testing.T) {
	in := New(newRegistry(t, nil), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	steps := 0
	in.queue <- &work{ctx: ctx, name: "dump", step: func(time.Time) (reply, bool) { steps++; return reply{}, false }, done: make(chan reply, 1)}
	next := sleepWork(in, 1, 0)
	in.DrainUntil(time.Now().Add(time.Second))
	if steps != 1 || in.cur == nil {
		t.Fatalf("%d steps, in progress: %v", steps, in.cur != nil)
	}
	cancel()
	in.DrainUntil(time.Now().Add(time.Second))
	if steps != 1 || in.cur != nil || len(next) != 1 {
		t.Errorf("after its client went: %d steps, in progress %v, next served %v", steps, in.cur != nil, len(next) == 1)
	}
}
