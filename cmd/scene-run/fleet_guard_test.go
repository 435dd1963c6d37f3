package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/rooms/fleet"
	"github.com/scenecs/scenecs/scenerun"
	"github.com/scenecs/scenecs/scenerun/fleetcmd"
)

// The test binary run with SCENE_RUN_POISON=1 is scene-run with two
// components of the tests' own, which make rooms that bring their host
// down: crash (after "after" ticks a goroutine of the room panics, and
// the process dies) and hang (after "after" ticks its tick never comes
// back). Its arguments are scene-run's.
func init() {
	if os.Getenv("SCENE_RUN_POISON") == "1" {
		scenerun.Program{Register: registerPoison, Commands: fleetcmd.Commands()}.Main()
	}
}

// poison is the data of crash and hang.
type poison struct{ After int }

func registerPoison(reg *registry.Registry, _ *components.Builtins) error {
	_, err := registry.Register(reg, "crash", registry.Definition[poison]{
		Tick: func(c *registry.Context, p *poison) {
			if p.After--; p.After == 0 {
				go panic("poison: this room crashes its host")
			}
		},
	})
	if err != nil {
		return err
	}
	_, err = registry.Register(reg, "hang", registry.Definition[poison]{
		Tick: func(c *registry.Context, p *poison) {
			for p.After--; p.After <= 0; p.After-- {
				// spins: the tick never comes back
			}
		},
	})
	return err
}

// proc is a process a test started, waited for on a goroutine of its
// own.
type proc struct {
	cmd       *exec.Cmd
	out, errb *syncBuffer
	done      chan struct{} // closed once it has exited
}

// start starts cmd from the repository's root, with its output kept; it
// is killed when the test ends.
func start(t *testing.T, cmd *exec.Cmd) *proc {
	t.Helper()
	p := &proc{cmd: cmd, out: &syncBuffer{}, errb: &syncBuffer{}, done: make(chan struct{})}
	cmd.Dir = "../.."
	cmd.Stdout, cmd.Stderr = p.out, p.errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

// exited waits until p has exited (at most d) and returns its exit
// code, or -1 if it is still running.
func (p *proc) exited(d time.Duration) int {
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(d):
		return -1
	}
}

// waitLine waits until p has printed a line starting with prefix, and
// returns the line's rest.
func (p *proc) waitLine(t *testing.T, prefix string) string {
	t.Helper()
	var rest string
	waitRooms(t, 20*time.Second, func() string {
		for _, line := range strings.Split(p.out.String(), "\n") {
			if r, ok := strings.CutPrefix(line, prefix); ok {
				rest = r
				return ""
			}
		}
		return fmt.Sprintf("no %q line\nstdout:\n%s\nstderr:\n%s", prefix, p.out, p.errb)
	})
	return rest
}

// launchPoisonHost starts this test binary as "scene-run host -nats URL
// -id ID" with crash and hang registered (see init), on the test scenes
// of package rooms, with the extra flags, and waits for its "host" line.
func launchPoisonHost(t *testing.T, url, id string, extra ...string) *proc {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"host", "-nats", url, "-id", id, "-scenes", "rooms/testdata"}, extra...)...)
	cmd.Env = append(os.Environ(), "SCENE_RUN_POISON=1")
	p := start(t, cmd)
	p.waitLine(t, "host "+id)
	return p
}

// fleetClient connects a fleet.Client to url.
func fleetClient(t *testing.T, url string) *fleet.Client {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	cl, err := fleet.NewClient(context.Background(), nc, "")
	if err != nil {
		t.Fatal(err)
	}
	return cl
}

// entry returns room id's line of the fleet's listing, or nil.
func entry(t *testing.T, cl *fleet.Client, id string) *fleet.Listing {
	t.Helper()
	ls, err := cl.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := range ls {
		if ls[i].ID == id {
			return &ls[i]
		}
	}
	return nil
}

// TestHostPoisonRoomQuarantined: a room that crashes its host process
// ("scene-run host", killed by a panic of the room's) would crash every
// host that resumes it, one after the other. Each host's death while the
// room is on probation counts a failed start in the directory; with
// -max-failures 2 the third host quarantines it instead of resuming it,
// and runs on, with the room that shared the crashed hosts. The listing
// says why; an operator destroys it. The hosts log each room taken over
// and quarantined.
func TestHostPoisonRoomQuarantined(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes that crash")
	}
	url := natsServer(t)
	fast := []string{"-heartbeat", "200ms", "-dead-after", "1s", "-snapshot", "200ms", "-probation", "2s", "-max-failures", "2"}
	a := launchPoisonHost(t, url, "hostA", fast...)
	cl := fleetClient(t, url)
	runBin(t, "rooms", "-nats", url, "create", "-host", "hostA", "-hz", "20", "good", "rain.yaml").Expect(t, 0)
	waitRooms(t, 10*time.Second, func() string { // good runs its probation on hostA
		if l := entry(t, cl, "good"); l == nil || !l.Trial.IsZero() {
			return fmt.Sprintf("good: %+v", l)
		}
		return ""
	})
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("entities:\n  - crash: \"after: 20\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := launchPoisonHost(t, url, "hostB", fast...)
	runBin(t, "rooms", "-nats", url, "create", "-host", "hostA", "-hz", "20", "bad", bad).Expect(t, 0)
	for _, h := range []*proc{a, b} {
		if code := h.exited(20 * time.Second); code != 2 || !strings.Contains(h.errb.String(), "poison: this room crashes its host") {
			t.Fatalf("a host running bad: exit %d\n%s", code, h.errb)
		}
	}
	c := launchPoisonHost(t, url, "hostC", fast...)
	cErr := c.errb
	var l *fleet.Listing
	waitRooms(t, 15*time.Second, func() string {
		if l = entry(t, cl, "bad"); l == nil || l.Quarantine == "" {
			return fmt.Sprintf("bad: %+v\nhostC:\n%s", l, cErr)
		}
		if g := entry(t, cl, "good"); g == nil || !g.Live || g.Host != "hostC" {
			return fmt.Sprintf("good: %+v", g)
		}
		return ""
	})
	if l.Failures != 2 || !strings.Contains(l.Quarantine, "its last 2 starts failed") {
		t.Errorf("bad quarantined as %+v", l)
	}
	r := runBin(t, "rooms", "-nats", url).Expect(t, 0)
	if !strings.Contains(r.Stdout, "bad is quarantined: its last 2 starts failed") || !strings.Contains(r.Stdout, "quarantined") {
		t.Errorf("listing:\n%s", r.Stdout)
	}
	waitRooms(t, 5*time.Second, func() string { // logged once written
		for _, want := range []string{"room bad quarantined: its last 2 starts failed", "took over room good (host hostB is dead)"} {
			if !strings.Contains(cErr.String(), want) {
				return fmt.Sprintf("hostC's log lacks %q:\n%s", want, cErr)
			}
		}
		return ""
	})
	if r := runBin(t, "rooms", "-nats", url, "ask", "bad", "info").Expect(t, 1); !strings.Contains(r.Stderr, "room bad is quarantined") {
		t.Errorf("asking bad: %s", r.Stderr)
	}
	runBin(t, "rooms", "-nats", url, "destroy", "bad").Expect(t, 0)
	if r := runBin(t, "rooms", "-nats", url, "ask", "bad", "info").Expect(t, 1); !strings.Contains(r.Stderr, "no such room: bad") {
		t.Errorf("asking bad once destroyed: %s", r.Stderr)
	}
}

// TestHostHungRoom: 20 healthy rooms on a "scene-run host" process (the
// default 2 s snapshots), then a room whose tick never comes back. The
// healthy rooms keep their tick rate and their snapshot interval (their
// snapshots' ages, sampled before and after the hung room arrives, are
// logged: docs/scale.md has the figures), the host its heartbeat; after
// -hang-after the hung room is quarantined, and a SIGTERM stops the host
// within a few seconds though its tick still spins, and another room
// hangs, not yet given up (the host leaves it to the other hosts, on
// trial, and releases the healthy rooms).
func TestHostHungRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and measures for seconds")
	}
	url := natsServer(t)
	// -max-entities 10000: the spawn bomb stops at 10,000 eggs, not
	// 100,000 (seconds of CPU on a slow machine, where its last tick
	// outlasts -hang-after and the bomb is quarantined as hung instead).
	h := launchPoisonHost(t, url, "hostA", "-hang-after", "3s", "-max-entities", "10000")
	hErr := h.errb
	cl := fleetClient(t, url)
	ctx := context.Background()
	var ids []string
	for i := range 20 {
		id := fmt.Sprintf("room%02d", i)
		if _, err := cl.Create(ctx, fleet.CreateRequest{ID: id, Scene: "rain.yaml", Hz: 30}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	// A baseline once the rooms have settled (past their first snapshot
	// interval): a time, for a measurement, with nothing to assert on.
	time.Sleep(3 * time.Second)
	before := sampleRooms(t, cl, ids, 6*time.Second)
	if _, err := cl.Create(ctx, fleet.CreateRequest{ID: "poison", Scene: "hang.yaml", Data: []byte("entities:\n  - hang: \"after: 30\"\n"), Hz: 30}); err != nil {
		t.Fatal(err)
	}
	// And issue 32's hostile scenes, written as anyone could: an event
	// that fans out, a spawn bomb, a string grown past memory.
	for id, src := range hostileRooms {
		if _, err := cl.Create(ctx, fleet.CreateRequest{ID: id, Scene: id + ".yaml", Data: []byte(src), Hz: 30}); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	after := sampleRooms(t, cl, ids, 6*time.Second)
	t.Logf("20 rooms at 30 Hz, snapshots every 2 s; over 6 s before the hostile rooms: %s", before)
	t.Logf("over 6 s after them: %s", after)
	// The fanning room's first error is its handlers' depth (the first
	// branch goes 32 deep before the breadth passes the budget).
	for id, want := range map[string]string{"fanning": "on__a: a:", "bomb": "MaxEntities", "strings": "budget"} {
		waitRooms(t, 10*time.Second, func() string {
			if l := entry(t, cl, id); l == nil || !strings.Contains(l.Quarantine, want) {
				return fmt.Sprintf("the %s room is not quarantined for %q: %+v", id, want, l)
			}
			return ""
		})
	}
	if after.maxAge > stalledAge() || after.meanRate < 0.8*before.meanRate || after.maxBeat > 2*time.Second {
		t.Errorf("beside a hung room the healthy rooms slipped: %s (before: %s)", after, before)
	}
	waitRooms(t, 10*time.Second, func() string {
		if l := entry(t, cl, "poison"); l == nil || !strings.Contains(l.Quarantine, "hung") {
			return fmt.Sprintf("the hung room: %+v", l)
		}
		if !strings.Contains(hErr.String(), "room poison quarantined") {
			return "the host's log:\n" + hErr.String()
		}
		return ""
	})
	t.Logf("the host's log: %s", strings.TrimSpace(hErr.String()))
	// A second hung room, not yet given up when the host is told to go.
	if _, err := cl.Create(ctx, fleet.CreateRequest{ID: "poison2", Scene: "hang.yaml", Data: []byte("entities:\n  - hang: \"after: 15\"\n"), Hz: 30}); err != nil {
		t.Fatal(err)
	}
	waitHanging(t, cl, "poison2", 15)
	stopped := time.Now()
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Exit 1 says some room could not be paused and snapshotted within
	// the 2 s each has: with both cores spinning (the race detector's
	// host, a loaded machine), that may happen; the host still goes.
	code := h.exited(30 * time.Second)
	took := time.Since(stopped)
	if code != 0 && (code != 1 || !strings.Contains(hErr.String(), "fleet: leaving:")) {
		t.Fatalf("SIGTERM: exit %d after %v\n%s", code, took, hErr)
	}
	t.Logf("SIGTERM to exit, with two rooms spinning in a tick, one not yet given up: %v (exit %d)", took.Round(10*time.Millisecond), code)
	bound := 8 * time.Second
	if raceDetector {
		bound = 20 * time.Second
	}
	if took > bound {
		t.Errorf("the host took %v to stop", took)
	}
	// Left to the other hosts on trial; or, if the leave outlasted the
	// rest of its -hang-after (the race detector's slow host), given up
	// as hung by the watchdog meanwhile: either way not run on.
	l := entry(t, cl, "poison2")
	left := l != nil && l.Host == "hostA" && !l.Trial.IsZero() && strings.Contains(hErr.String(), "room poison2 did not stop")
	if hung := l != nil && strings.Contains(l.Quarantine, "hung") && took > 2500*time.Millisecond; !left && !hung {
		t.Errorf("the room hung when its host left: %+v\n%s", l, hErr)
	}
	if l := entry(t, cl, "room00"); code == 0 && (l == nil || l.Host != "" || l.Quarantine != "") {
		t.Errorf("a healthy room once its host left: %+v", l)
	}
}

// waitHanging waits until room id, whose tick number after hangs, has
// run the ticks before it (the listing reads its tick live), or has
// stopped answering once it ran (it is in the tick that hangs, which the
// listing, asking it, cannot see: under the race detector the ticks
// before it may pass between two looks); the next tick spins, and half a
// second more is for it to begin. (A time of the clock alone, for the
// room to be made and to run them, a loaded machine outlasts.)
func waitHanging(t *testing.T, cl *fleet.Client, id string, after int64) {
	t.Helper()
	ran := false
	waitRooms(t, 30*time.Second, func() string {
		l := entry(t, cl, id)
		switch {
		case l == nil:
		case l.Live && l.Tick >= after-1:
			return ""
		case l.Live:
			ran = ran || l.Tick > 0
		case (ran || l.Entry.Tick > 0) && l.Quarantine == "":
			return "" // ran, and no longer answers: hanging, not yet given up
		}
		return fmt.Sprintf("room %s has not run the %d ticks before the one that hangs: %+v", id, after-1, l)
	})
	time.Sleep(500 * time.Millisecond)
}

// stalledAge is the snapshot age past which TestHostHungRoom takes a
// healthy room for stalled (a stalled room's snapshot ages without end).
// Three intervals (6 s) leave room for a slow, shared machine (CI saw
// 5.6 s once while the bomb spawned 100,000 eggs), six under the race
// detector (CI saw 6.5 s with a hung room spinning one of two cores):
// the figures of docs/scale.md are measured without it.
func stalledAge() time.Duration {
	if raceDetector {
		return 12 * time.Second
	}
	return 6 * time.Second
}

// hostileRooms are issue 32's hostile scenes by room id: each stops at
// a budget (event deliveries, entities, an expression's text) and its
// room is quarantined, without touching the others.
var hostileRooms = map[string]string{
	"fanning": "entities:\n  - id: a\n    timer: \"delay: 0; event: a\"\n    on__a: \"emit: a, a\"\n",
	"bomb":    "prefabs:\n  egg:\n    timer: \"delay: 0; event: hatch\"\n    on__hatch: \"spawn: egg, egg\"\nentities:\n  - id: nest\n    prefab: egg\n",
	"strings": "entities:\n  - id: s\n    position: 0 0 0\n    bind: \"position.x: (let s = '" + strings.Repeat("x", 64) + "'; let t = replace(s, 'x', s); let u = replace(t, 'x', t); len(replace(u, 'x', u)))\"\n",
}

// roomSamples sums up samples of rooms: their snapshots' ages and their
// tick rates, and the age of their host's heartbeat.
type roomSamples struct {
	medianAge, maxAge time.Duration
	minRate, meanRate float64
	n                 int
	maxBeat           time.Duration
}

func (s roomSamples) String() string {
	return fmt.Sprintf("snapshot age median %v, max %v; ticks/s mean %.1f, min %.1f (%d samples); heartbeat age max %v",
		s.medianAge.Round(10*time.Millisecond), s.maxAge.Round(10*time.Millisecond), s.meanRate, s.minRate, s.n, s.maxBeat.Round(10*time.Millisecond))
}

// sampleRooms lists the rooms every 250 ms for d and sums up the ages of
// ids' snapshots and their tick rates.
func sampleRooms(t *testing.T, cl *fleet.Client, ids []string, d time.Duration) roomSamples {
	t.Helper()
	var ages []time.Duration
	s := roomSamples{minRate: 1e9}
	var rates float64
	for start := time.Now(); time.Since(start) < d; time.Sleep(250 * time.Millisecond) {
		ls, err := cl.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hs, err := cl.Hosts(context.Background())
		if err != nil || len(hs) != 1 {
			t.Fatalf("live hosts: %+v %v", hs, err)
		}
		s.maxBeat = max(s.maxBeat, time.Since(hs[0].Beat))
		for _, l := range ls {
			if !slices.Contains(ids, l.ID) {
				continue
			}
			if !l.Live {
				t.Fatalf("room %s does not answer: %+v", l.ID, l)
			}
			age := time.Since(l.Snapshot)
			ages = append(ages, age)
			s.maxAge = max(s.maxAge, age)
			s.minRate = min(s.minRate, l.TicksPerSec)
			rates += l.TicksPerSec
		}
	}
	slices.Sort(ages)
	s.n = len(ages)
	s.medianAge = ages[len(ages)/2]
	s.meanRate = rates / float64(len(ages))
	return s
}

// TestHostNATSSecurity: the NATS server "scene-run host" starts refuses
// to listen beyond loopback without authorization (and says why and what
// to do), starts open with -insecure only, saying so loudly. Started from
// the configuration docs/scale.md gives (-nats-config), it lets in its
// users alone, with their permissions: the host joins as "host", a second
// host as "host" over -nats, the operator creates a room (and is told
// the fleet is full beyond -max-rooms), the observer lists the rooms but
// is refused a create at once, and an anonymous client is refused.
func TestHostNATSSecurity(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	r := runBin(t, "host", "-listen", "0.0.0.0:0", "-id", "open").Expect(t, 2)
	for _, want := range []string{"beyond loopback without authorization", "-nats-config", "-insecure"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("an open server beyond loopback: stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	open := start(t, exec.Command(binary(t), "host", "-listen", "0.0.0.0:0", "-insecure", "-id", "open"))
	open.waitLine(t, "host open")
	if !strings.Contains(open.errb.String(), "WARNING: -insecure") {
		t.Errorf("-insecure said nothing:\n%s", open.errb)
	}
	_ = open.cmd.Process.Kill()

	conf := filepath.Join(t.TempDir(), "fleet.conf")
	if err := os.WriteFile(conf, []byte(docConfig(t)), 0o600); err != nil {
		t.Fatal(err)
	}
	pw := func(role string) string { return "scenecs_" + role + "_password-secret" }
	a := start(t, exec.Command(binary(t), "host", "-nats-config", conf, "-listen", "127.0.0.1:0", "-nats", "nats://host:"+pw("host")+"@",
		"-id", "hostA", "-scenes", "rooms/testdata", "-max-rooms", "1"))
	url := a.waitLine(t, "nats: ")
	a.waitLine(t, "host hostA")
	if strings.Contains(a.errb.String(), "no authorization") {
		t.Errorf("a secured server said to be open:\n%s", a.errb)
	}
	as := func(role string) string { return strings.Replace(url, "nats://", "nats://"+role+":"+pw(role)+"@", 1) }
	b := start(t, exec.Command(binary(t), "host", "-nats", as("host"), "-id", "hostB", "-scenes", "rooms/testdata", "-max-rooms", "1"))
	b.waitLine(t, "host hostB")
	runBin(t, "rooms", "-nats", as("operator"), "create", "r1", "rain.yaml").Expect(t, 0)
	runBin(t, "rooms", "-nats", as("operator"), "create", "r2", "rain.yaml").Expect(t, 0)
	if r := runBin(t, "rooms", "-nats", as("operator"), "create", "r3", "rain.yaml").Expect(t, 1); !strings.Contains(r.Stderr, "every host is full") {
		t.Errorf("a third room on two hosts of one: %s", r.Stderr)
	}
	if r := runBin(t, "rooms", "-nats", as("observer")).Expect(t, 0); !strings.Contains(r.Stdout, "r1 ") || !strings.Contains(r.Stdout, "r2 ") {
		t.Errorf("the observer's listing:\n%s", r.Stdout)
	}
	begun := time.Now()
	if r := runBin(t, "rooms", "-nats", as("observer"), "create", "r4", "rain.yaml").Expect(t, 1); !strings.Contains(r.Stderr, "ermissions violation") || time.Since(begun) > 10*time.Second {
		t.Errorf("the observer creating a room: %s after %v", r.Stderr, time.Since(begun))
	}
	if r := runBin(t, "rooms", "-nats", url).Expect(t, 1); !strings.Contains(r.Stderr, "Authorization Violation") {
		t.Errorf("an anonymous client: %s", r.Stderr)
	}
}

// docConfig returns the nats-server configuration docs/scale.md gives for
// a fleet's users (the ```conf block starting "# fleet.conf"), with the
// users' passwords set in the environment.
func docConfig(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/scale.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```conf\n# fleet.conf")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/scale.md has no ```conf block starting \"# fleet.conf\"")
	}
	for _, role := range []string{"host", "operator", "observer"} {
		t.Setenv("SCENECS_"+strings.ToUpper(role)+"_PASSWORD", "scenecs_"+role+"_password-secret")
	}
	return "# fleet.conf" + block
}

// TestHostIDTaken: a second "scene-run host -id hostA" while hostA runs
// is refused (it would take hostA's rooms as orphans: two live copies
// snapshotting into one key); hostA keeps its room.
func TestHostIDTaken(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	url := natsServer(t)
	startHost(t, url, "hostA")
	runBin(t, "rooms", "-nats", url, "create", "r1", "rain.yaml").Expect(t, 0)
	r := runBin(t, "host", "-nats", url, "-id", "hostA", "-scenes", "rooms/testdata").Expect(t, 1)
	if !strings.Contains(r.Stderr, "host id hostA: host id taken: a host beats under it") || strings.Contains(r.Stdout, "host hostA") {
		t.Errorf("a second hostA:\nstdout:\n%s\nstderr:\n%s", r.Stdout, r.Stderr)
	}
	if l := entry(t, fleetClient(t, url), "r1"); l == nil || l.Host != "hostA" || l.Moves != 0 || !l.Live {
		t.Errorf("r1 after a second hostA tried: %+v", l)
	}
}
