package main

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/rooms/fleet"
)

// startHost starts "scene-run host -nats URL -id ID" on the test scenes
// of package rooms and waits for its "host ID" line.
func startHost(t *testing.T, url, id string) *exec.Cmd {
	t.Helper()
	cmd, out, errb := launchHost(t, url, id)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "host "+id+"\n") {
		if time.Now().After(deadline) {
			t.Fatalf("host %s: no \"host\" line in 20 s\nstdout:\n%s\nstderr:\n%s", id, out, errb)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return cmd
}

// launchHost starts "scene-run host -nats URL -id ID" on the test scenes
// of package rooms, with the extra flags, and returns it with its stdout
// and stderr; it is killed when the test ends.
func launchHost(t *testing.T, url, id string, extra ...string) (*exec.Cmd, *syncBuffer, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"host", "-nats", url, "-id", id, "-scenes", "rooms/testdata"}, extra...)...)
	cmd.Dir = "../.."
	out, errb := &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, out, errb
}

// TestHostProcessesFailover runs the fleet as a user does: a NATS server
// (from the Go module, in the test process), two "scene-run host"
// processes, 20 rooms created through "scene-run rooms create"; one host
// is killed with SIGKILL, and within 15 s every room is listed ("scene-run
// rooms") live on the other, at a tick not below its last snapshot's.
// The hosts run with the default heartbeat, dead-after and snapshot
// intervals.
func TestHostProcessesFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and waits for a failover")
	}
	url := natsServer(t)
	a := startHost(t, url, "hostA")
	startHost(t, url, "hostB")
	for i := 0; i < 20; i++ {
		r := runBin(t, "rooms", "-nats", url, "create", "-hz", "20", fmt.Sprintf("room%02d", i), "rain.yaml").Expect(t, 0)
		if !strings.HasPrefix(r.Stdout, fmt.Sprintf("room room%02d on host host", i)) {
			t.Fatalf("create: %q", r.Stdout)
		}
	}
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	cl, err := fleet.NewClient(context.Background(), nc, "")
	if err != nil {
		t.Fatal(err)
	}
	// Wait for a snapshot of every room past its first, then kill host A.
	snap := map[string]int64{}
	waitRooms(t, 10*time.Second, func() string {
		ls, err := cl.List(context.Background())
		if err != nil {
			return err.Error()
		}
		for _, l := range ls {
			if l.Entry.Tick == 0 {
				return "room " + l.ID + " has no snapshot past tick 0"
			}
			snap[l.ID] = l.Entry.Tick
		}
		return ""
	})
	if err := a.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	waitRooms(t, 15*time.Second, func() string {
		r := runBin(t, "rooms", "-nats", url).Expect(t, 0)
		lines := strings.Split(strings.TrimSpace(r.Stdout), "\n")
		if len(lines) != 21 {
			return "listing:\n" + r.Stdout
		}
		for _, line := range lines[1:] {
			var id, host, scene string
			var tick int64
			if n, _ := fmt.Sscanf(line, "%s %s %s %d", &id, &host, &scene, &tick); n != 4 || host != "hostB" {
				return "listing:\n" + r.Stdout
			}
			if tick < snap[id] {
				t.Fatalf("room %s resumed at tick %d, below its snapshot's %d", id, tick, snap[id])
			}
		}
		return ""
	})
	t.Logf("20 rooms listed on hostB %v after hostA's SIGKILL", time.Since(killed).Round(100*time.Millisecond))
}

// waitRooms polls cond until it returns "" or d passes.
func waitRooms(t *testing.T, d time.Duration, cond func() string) {
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
		time.Sleep(200 * time.Millisecond)
	}
}

// TestBrowserFleetPage: host A's page (scene-run host -inspect) opens,
// in Chromium, the inspector of a room running on host B, another
// process: the page comes from A, its API and streams from B through
// NATS; the tree lists the room's entities, the view draws them, and
// the event stream is live.
func TestBrowserFleetPage(t *testing.T) {
	bctx := browser(t)
	url := natsServer(t)
	startHost(t, url, "hostB")
	cmd, out, errb := launchHost(t, url, "hostA", "-inspect", "127.0.0.1:0")
	waitRooms(t, 20*time.Second, func() string {
		if !strings.Contains(out.String(), "host hostA\n") {
			return "no host line from hostA:\n" + out.String() + errb.String()
		}
		return ""
	})
	i := strings.Index(out.String(), "inspect: ")
	pageURL, _, _ := strings.Cut(out.String()[i+len("inspect: "):], "\n")
	base, token, _ := strings.Cut(pageURL, "/?token=")
	runBin(t, "rooms", "-nats", url, "create", "-host", "hostB", "-hz", "30", "r1", "rain.yaml").Expect(t, 0)

	p := &page{t: t, base: base + "/rooms/r1", token: token, cmd: cmd, out: out, errb: errb, errors: &syncBuffer{}}
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			fmt.Fprintf(p.errors, "%s (%s:%d)\n", e.ExceptionDetails.Text, e.ExceptionDetails.URL, e.ExceptionDetails.LineNumber+1)
		}
	}))
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.ctx = ctx
	p.do(chromedp.EmulateViewport(pageWidth, pageHeight), chromedp.Navigate(p.base+"/?token="+token))
	p.waitJS(`window.inspector && inspector.view.count > 0 && [...document.querySelectorAll('#tree-list .row')].some((r) => r.textContent.includes('#ground'))`)
	p.waitJS(`document.getElementById('conn').classList.contains('live')`)
	p.click("#pause")
	waitRooms(t, 10*time.Second, func() string {
		if r := runBin(t, "rooms", "-nats", url, "ask", "r1", "stats").Expect(t, 0); !strings.Contains(r.Stdout, `"paused":true`) {
			return "the page's pause did not reach r1 on hostB: " + r.Stdout
		}
		return ""
	})
	if errs := p.errors.String(); errs != "" {
		t.Errorf("the page threw:\n%s", errs)
	}
}

// natsServer starts an embedded NATS server (JetStream in a temporary
// folder) on a free loopback port for the test, shut down when it ends,
// and returns its client URL.
func natsServer(t *testing.T) string {
	t.Helper()
	s, err := fleet.RunServer("127.0.0.1", 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s.ClientURL()
}
