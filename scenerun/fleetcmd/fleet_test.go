package fleetcmd

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for a command writing while the
// test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestHostAndRooms runs "host" with its own NATS server and a program's
// own component and scenes, then "rooms" against it: a room of the
// program's scene is created, answers a query of the program's
// component, is listed (and on the host's page, with its inspector),
// and is destroyed; Ctrl-C (ctx) ends the host with exit code 0.
func TestHostAndRooms(t *testing.T) {
	p := fleetProgram(Program{Name: "game", Register: registerMood, Scenes: fstest.MapFS{"mood.yaml": {Data: []byte(moodScene)}}, DefaultScene: "mood.yaml"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int)
	go func() {
		done <- p.Run(ctx, []string{"host", "-listen", "127.0.0.1:0", "-id", "t1", "-inspect", "127.0.0.1:0"}, &out, &errb)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "host t1\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no host line in 20 s:\n%s\n%s", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	url, ok := strings.CutPrefix(line, "nats: ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	run := func(want int, args ...string) string {
		t.Helper()
		var o, e bytes.Buffer
		if code := p.Run(context.Background(), append([]string{"rooms", "-nats", url}, args...), &o, &e); code != want {
			t.Fatalf("rooms %v: exit %d, want %d\n%s%s", args, code, want, o.String(), e.String())
		}
		return o.String() + e.String()
	}
	if got := run(0, "create", "-hz", "50", "r1", "mood.yaml"); got != "room r1 on host t1\n" {
		t.Errorf("create: %q", got)
	}
	if got := run(0, "ask", "r1", "query", "[mood]"); !strings.Contains(got, `"count":1`) {
		t.Errorf("query of the program's component: %q", got)
	}
	if got := run(0); !strings.Contains(got, "r1  ") || !strings.Contains(got, "t1") || !strings.Contains(got, "mood.yaml") {
		t.Errorf("listing:\n%s", got)
	}
	if got := run(1, "create", "r1", "mood.yaml"); !strings.Contains(got, "409") {
		t.Errorf("creating r1 again: %q", got)
	}
	if got := run(1, "create", "r2", "nowhere.yaml"); !strings.Contains(got, "nowhere.yaml") {
		t.Errorf("an unknown scene: %q", got)
	}
	checkPage(t, out.String())
	run(0, "destroy", "r1")
	if got := run(0); strings.Contains(got, "r1") {
		t.Errorf("listing after destroy:\n%s", got)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("host: exit %d\n%s", code, errb.String())
	}
}

// TestFleetUsage: command lines that make no sense are usage errors
// (exit 2) before anything connects or listens (a rate slower than a
// tick a day among them); a URL's password is never printed.
func TestFleetUsage(t *testing.T) {
	for _, args := range [][]string{
		{"host", "extra"},
		{"host", "-listen", "nowhere"},
		{"host", "-heartbeat", "0s"},
		{"host", "-replicas", "0"},
		{"host", "-inspect", "nowhere"},
		{"rooms", "-nats", "nats://127.0.0.1:1", "-bogus"},
		{"host", "-max-rooms", "0"},
		{"host", "-max-entities", "-5"},
		{"host", "-max-failures", "0"},
		{"host", "-nats", "nats://127.0.0.1:1", "-insecure"},
		{"rooms", "-nats", "nats://127.0.0.1:1", "create", "-hz", "1e-10", "r", "rain.yaml"},
		{"rooms", "-nats", "nats://127.0.0.1:1", "resume"},
	} {
		var o, e bytes.Buffer
		if code := fleetProgram(Program{}).Run(context.Background(), args, &o, &e); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", args, code, e.String())
		}
	}
	var o, e bytes.Buffer
	if code := fleetProgram(Program{}).Run(context.Background(), []string{"rooms", "-nats", "nats://127.0.0.1:1", "create", "-hz", "1e-10", "r", "rain.yaml"}, &o, &e); !strings.Contains(e.String(), "longer than a day") {
		t.Errorf("a rate of 1e-10: exit %d: %s", code, e.String())
	}
	o.Reset()
	e.Reset()
	if code := fleetProgram(Program{}).Run(context.Background(), []string{"rooms", "-nats", "nats://me:hunter2@127.0.0.1:1"}, &o, &e); code != ExitScene || strings.Contains(e.String(), "hunter2") || !strings.Contains(e.String(), "nats://me:xxxxx@127.0.0.1:1") {
		t.Errorf("a URL with a password: exit %d: %s", code, e.String())
	}
	o.Reset()
	e.Reset()
	if code := fleetProgram(Program{}).Run(context.Background(), []string{"rooms", "-nats", "nats://127.0.0.1:1"}, &o, &e); code != ExitScene || !strings.Contains(e.String(), "connecting to nats://127.0.0.1:1") {
		t.Errorf("rooms with no server: exit %d: %s", code, e.String())
	}
}

// checkPage checks the host's page (printed in out as "inspect: URL"):
// it lists room r1 with a link to its inspector, which answers; without
// the page's token, or under another Host, it is refused.
func checkPage(t *testing.T, out string) {
	t.Helper()
	i := strings.Index(out, "inspect: ")
	if i < 0 {
		t.Fatalf("no inspect line:\n%s", out)
	}
	pageURL, _, _ := strings.Cut(out[i+len("inspect: "):], "\n")
	base, _, _ := strings.Cut(pageURL, "/?token=")
	get := func(u, host string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", u, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	st, page := get(pageURL, "")
	link := regexp.MustCompile(`href="(rooms/r1/\?token=[0-9a-f]{32})"`).FindStringSubmatch(page)
	if st != 200 || link == nil || !strings.Contains(page, "mood.yaml") {
		t.Fatalf("page: %d\n%s", st, page)
	}
	roomURL := base + "/" + strings.Replace(link[1], "/?", "/api/stats?", 1)
	if st, body := get(roomURL, ""); st != 200 || !strings.Contains(body, `"entities":1`) {
		t.Errorf("the room's inspector through the page: %d %s", st, body)
	}
	if st, _ := get(base+"/", ""); st != http.StatusUnauthorized {
		t.Errorf("the page without its token: %d, want 401", st)
	}
	if st, _ := get(pageURL, "evil.example:80"); st != http.StatusForbidden {
		t.Errorf("the page under another Host: %d, want 403", st)
	}
	if st, _ := get(roomURL, "evil.example:80"); st != http.StatusForbidden {
		t.Errorf("a room under another Host: %d, want 403", st)
	}
}
