package fleetcmd

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/rooms/fleet"
	"github.com/scenecs/scenecs/scenes"
)

// pageFleet is a NATS server in the test process, hosts a and b on it,
// and host a's page.
type pageFleet struct {
	a, b    *fleet.Host
	base    string // the page's URL, without a slash
	token   string // the page's token
	clients *fleet.Client
}

func newPageFleet(t *testing.T) *pageFleet {
	t.Helper()
	s, err := fleet.RunServer("127.0.0.1", 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	conn := func() *nats.Conn {
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	ln, pageURL, hosts, err := listenPage("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	join := func(id string) *fleet.Host {
		opt := fleet.Options{ID: id, Scenes: scenes.FS, Heartbeat: 100 * time.Millisecond, DeadAfter: time.Second,
			SnapshotEvery: 200 * time.Millisecond, StateEvery: -1}
		opt.Rooms.InspectHosts = hosts
		h, err := fleet.Join(context.Background(), conn(), opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(h.Close)
		return h
	}
	f := &pageFleet{a: join("a"), b: join("b"), base: pageURL}
	nc := conn()
	if f.clients, err = fleet.NewClient(context.Background(), nc, ""); err != nil {
		t.Fatal(err)
	}
	proxy, err := fleet.NewProxy(nc, "", fleet.ProxyOptions{KeepAlive: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var out strings.Builder
	(&cmd{}).servePage(ctx, ln, pageURL, hosts, f.a, f.clients, proxy, &out)
	_, f.token, _ = strings.Cut(strings.TrimSpace(out.String()), "?token=")
	return f
}

// call sends a request to the page and returns the status and body;
// header is "Name: value" lines.
func (f *pageFleet) call(t *testing.T, method, path, body string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, _ := http.NewRequest(method, f.base+path, strings.NewReader(body))
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		if k == "Host" {
			req.Host = v
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// TestPageRemoteRoom: host a's page opens room r1, which runs on host b,
// through NATS: its link, the inspector's page and files (served by a),
// the API's answers (the JSON of r1's own API), a change (with the
// page's token only), the event stream, which ends on b when the client
// goes; the Host and Origin checks; and after b leaves (r1 resumed on a),
// the same link still works.
func TestPageRemoteRoom(t *testing.T) {
	f := newPageFleet(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := f.clients.Create(ctx, fleet.CreateRequest{ID: "r1", Scene: "asteroids.yaml", Host: "b", Hz: 30}); err != nil {
		t.Fatal(err)
	}
	room := f.b.Local().Room("r1")
	_, _, list := f.call(t, "GET", "/?token="+f.token, "")
	link := regexp.MustCompile(`href="rooms/r1/\?token=` + f.token + `"`).FindString(list)
	if link == "" || !strings.Contains(list, "<td>b</td>") {
		t.Fatalf("the page:\n%s", list)
	}
	auth := "Authorization: Bearer " + f.token
	st, h, body := f.call(t, "GET", "/rooms/r1/?token="+f.token, "", "Accept: text/html")
	if st != 200 || h.Get("Content-Security-Policy") == "" || !strings.Contains(body, `<script type="importmap">`) {
		t.Fatalf("the inspector's page: %d %v\n%.300s", st, h, body)
	}
	if st, h, _ := f.call(t, "GET", "/rooms/r1/main.js", ""); st != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/javascript") {
		t.Errorf("main.js: %d %v", st, h)
	}
	if st, _, body := f.call(t, "POST", "/rooms/r1/api/pause", ""); st != http.StatusUnauthorized {
		t.Errorf("a change without the page's token: %d %s", st, body)
	}
	if st, _, body := f.call(t, "POST", "/rooms/r1/api/pause", "", "Authorization: Bearer "+room.Token()); st != http.StatusUnauthorized {
		t.Errorf("a change with the room's own token, through NATS: %d %s", st, body)
	}
	if st, _, body := f.call(t, "POST", "/rooms/r1/api/pause", "", auth); st != 200 {
		t.Fatalf("pause: %d %s", st, body)
	}
	for _, target := range []string{"/api/scene", "/api/query?selector=%5Benemy%5D", "/api/tree", "/api/entities/ship"} {
		_, want := room.Request("GET", target, nil)
		if st, _, got := f.call(t, "GET", "/rooms/r1"+target, ""); st != 200 || got != string(want) {
			t.Errorf("GET %s: %d\n%s\nthe room's own:\n%s", target, st, got, want)
		}
	}
	if st, _, body := f.call(t, "PUT", "/rooms/r1/api/entities/ship/components/position", "1 2 3", auth); st != 200 {
		t.Fatalf("PUT: %d %s", st, body)
	}
	if _, got := room.Request("GET", "/api/query?selector=%23ship%5Bposition.y%3D2%5D", nil); !strings.Contains(string(got), `"count":1`) {
		t.Errorf("the PUT did not reach the room: %s", got)
	}
	checkPageStream(t, f)
	for _, h := range []string{"Host: evil.example:80", "Origin: http://evil.example"} {
		if st, _, _ := f.call(t, "POST", "/rooms/r1/api/play", "", auth, h); st != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", h, st)
		}
	}

	// Host b leaves: r1 is resumed on a, and the link goes on working.
	lctx, lcancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer lcancel()
	if err := f.b.Leave(lctx); err != nil {
		t.Fatal(err)
	}
	if st, _, body := f.call(t, "GET", "/rooms/r1/api/entities/ship", ""); st != 200 || !strings.Contains(body, `"name":"scale","attr":"2 2 2"`) {
		t.Errorf("r1 after its host left: %d %s", st, body)
	}
	if st, _, body := f.call(t, "PUT", "/rooms/r1/api/entities/ship/components/position", "4 5 6", auth); st != 200 || f.a.Local().Room("r1") == nil {
		t.Errorf("a change to r1 resumed on a, with the page's token: %d %s", st, body)
	}
}

// checkPageStream opens r1's event stream through the page, sees a
// change arrive on it, and closes it: no stream is left on host b.
func checkPageStream(t *testing.T, f *pageFleet) {
	t.Helper()
	resp, err := http.Get(f.base + "/rooms/r1/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %s %v", resp.Status, resp.Header)
	}
	rd := bufio.NewReader(resp.Body)
	readUntil := func(want string) {
		for {
			line, err := rd.ReadString('\n')
			if err != nil {
				t.Fatalf("reading for %q: %v", want, err)
			}
			if strings.TrimSpace(line) == want {
				return
			}
		}
	}
	readUntil("event: stats")
	if st, _, body := f.call(t, "POST", "/rooms/r1/api/step?n=1", "", "Authorization: Bearer "+f.token); st != 200 {
		t.Fatalf("step: %d %s", st, body)
	}
	if st, _, body := f.call(t, "PUT", "/rooms/r1/api/entities/ship/components/scale", "2 2 2", "Authorization: Bearer "+f.token); st != 200 {
		t.Fatalf("PUT: %d %s", st, body)
	}
	readUntil("event: change")
	if n := f.b.Streams(); n != 1 {
		t.Errorf("%d streams on host b, want 1", n)
	}
	resp.Body.Close()
	deadline := time.Now().Add(5 * time.Second)
	for f.b.Streams() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams still open on host b 5 s after the client went", f.b.Streams())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
