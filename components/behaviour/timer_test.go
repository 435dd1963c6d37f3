package behaviour_test

import (
	"fmt"
	"strings"
	"testing"

	. "github.com/scenecs/scenecs/components/behaviour"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// fires runs n ticks and returns, per tick with events, "tick:detail".
func fires(t *testing.T, r *registry.Registry, e ecs.Entity, event string, n int) string {
	t.Helper()
	var got []string
	tick := 0
	id := r.Events().On(e, event, func(ev *registry.Event) {
		d := ev.Detail.(TimerEvent)
		got = append(got, fmt.Sprintf("%d:%s#%d", tick, d.Name, d.Count))
	})
	defer r.Events().Off(id)
	for tick = 1; tick <= n; tick++ {
		ticks(t, r, 1)
	}
	return strings.Join(got, " ")
}

// TestTimer checks one-shot, repeating, interval and endless timers in
// scene time (ticks of 1/60 s).
func TestTimer(t *testing.T) {
	for _, tc := range []struct{ attr, want string }{
		{"delay: 100", "6:timer#1"},
		{"delay: 100; repeat: 2", "6:timer#1 12:timer#2 18:timer#3"},
		{"delay: 50; interval: 200; repeat: 1", "3:timer#1 15:timer#2"},
		{"delay: 250; repeat: true", "15:timer#1 30:timer#2 45:timer#3"},
		{"delay: 0; repeat: 2", "1:timer#1 2:timer#2 3:timer#3"},                            // a zero period: once a tick
		{"delay: 10; repeat: 3", "1:timer#1 2:timer#2 2:timer#3 3:timer#4"},                 // shorter than a tick: every firing, in order
		{"delay: 100; autoplay: false", ""},                                                 // never started
		{"delay: 100; startEvents: go", ""},                                                 // waits for go
		{"event: ping; delay: 100", ""},                                                     // another event
		{"delay: 1000", ""},                                                                 // too late for 60 ticks
		{"delay: 1000; repeat: true; interval: 1000", ""},                                   // first at 60
		{"delay: 20; interval: 40; repeat: 2", "2:timer#1 4:timer#2 6:timer#3"},             // 20, 60, 100 ms
		{"delay: 100; repeat: 0; interval: 5", "6:timer#1"},                                 // one shot
		{"delay: 100; repeat: 1; interval: 100; pauseEvents: x", "6:timer#1 12:timer#2"},    // events not sent
		{"delay: 16.666666666666668; repeat: 3", "1:timer#1 2:timer#2 3:timer#3 4:timer#4"}, // exactly a tick
	} {
		r, _ := animRegistry(t)
		e := entityWith(t, r, "timer="+tc.attr)
		if got := fires(t, r, e, "timer", 59); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.attr, got, tc.want)
		}
	}
	r, b := animRegistry(t)
	e := entityWith(t, r, "timer=delay: 1000")
	if got := fires(t, r, e, "timer", 60); got != "60:timer#1" {
		t.Errorf("delay 1000 over 60 ticks: %q", got)
	}
	// A period far shorter than a tick: at most MaxFiresPerTick events
	// a tick; the others due by the tick's time are dropped (counted).
	// 166 are due in the first tick (at 0.1 to 16.6 ms), 333 by the
	// second's end.
	e = entityWith(t, r, "timer=delay: 0.1; repeat: true")
	got := fires(t, r, e, "timer", 2)
	if n := strings.Count(got, ":timer#"); n != 2*MaxFiresPerTick ||
		!strings.Contains(got, fmt.Sprintf("1:timer#%d 2:timer#167 ", MaxFiresPerTick)) ||
		!strings.HasSuffix(got, fmt.Sprintf("2:timer#%d", 166+MaxFiresPerTick)) {
		t.Errorf("0.1 ms period: %d events: %q", n, got)
	}
	if n, running := b.Timers.Fired(e, "timer"); !running || n != 333 {
		t.Errorf("fired %d, running %v", n, running)
	}
}

// TestTimerEvents: start events (re)start from zero, stop events stop,
// pause and resume hold the timer's time; instances are independent; a
// paused entity's timer waits; edits keep the elapsed time.
func TestTimerEvents(t *testing.T) {
	r, b := animRegistry(t)
	e := entityWith(t, r,
		"timer__a=delay: 100; repeat: true; startEvents: go; stopEvents: halt; pauseEvents: hold; resumeEvents: free",
		"timer__b=delay: 50; event: beat")
	var got []string
	tick := 0
	for _, n := range []string{"timer", "beat"} {
		r.Events().On(e, n, func(ev *registry.Event) {
			got = append(got, fmt.Sprintf("%d:%s:%s", tick, ev.Name, ev.Detail.(TimerEvent).Name))
		})
	}
	step := func(n int) {
		for range n {
			tick++
			ticks(t, r, 1)
		}
	}
	step(5)
	r.Events().Emit(e, "go", nil, false)
	step(8) // fires 6 ticks after go
	r.Events().Emit(e, "hold", nil, false)
	step(20)
	r.Events().Emit(e, "free", nil, false)
	step(6) // had run 2 of 6 ticks when held: fires at 4 more
	r.Events().Emit(e, "halt", nil, false)
	step(20)
	want := "3:beat:timer__b 11:timer:timer__a 37:timer:timer__a"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
	if n, running := b.Timers.Fired(e, "timer__a"); running || n != 2 {
		t.Errorf("after halt: fired %d, running %v", n, running)
	}
	got = nil
	if !b.Timers.Start(e, "timer__a") {
		t.Fatal("Start failed")
	}
	step(3)
	must(t, r.Set(e, "timer__a", "delay: 50")) // an edit keeps the elapsed time: due now
	step(1)
	must(t, r.PauseEntity(e))
	step(30)
	must(t, r.PlayEntity(e))
	step(3)
	// Started at 59: 3 ticks (50 ms) in, the delay becomes 50 ms: due
	// at once (63); then every 50 ms (3 ticks) of the timer's time,
	// which stops while the entity is paused (64 to 93).
	if s := strings.Join(got, " "); s != "63:timer:timer__a 95:timer:timer__a" {
		t.Errorf("after Start, an edit and a pause: %s", s)
	}
	if b.Timers.Start(e, "animation") || b.Timers.Start(r.World().NewEntity(), "timer") {
		t.Error("Start of what is not a timer succeeded")
	}
}
