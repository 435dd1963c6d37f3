package fleet

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/rooms"
)

// proxyServer serves room id's API through a Proxy on a connection of
// its own, on a loopback HTTP server; it returns the server's URL.
func (f *testFleet) proxyServer(id string, opt ProxyOptions) (string, *Proxy) {
	f.t.Helper()
	p, err := NewProxy(f.conn(), "", opt)
	if err != nil {
		f.t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.ServeRoom(w, r, id) }))
	f.t.Cleanup(srv.Close)
	return srv.URL, p
}

// do sends a request and returns the status and body.
func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestProxy: a room on one host answers through a Proxy on another
// connection with the same JSON as its own API, changes reach it, and
// an answer larger than a message comes in parts (so does none through
// the verb http, which says so); a room no host serves is a 503 after
// the wait.
func TestProxy(t *testing.T) {
	f := newFleet(t, 2)
	if _, err := f.client.Create(f.ctx(), CreateRequest{ID: "p1", Scene: "rain.yaml", Host: "h1"}); err != nil {
		t.Fatal(err)
	}
	room := f.hosts[1].Local().Room("p1")
	// Keep-alives every 500 ms: a stream ends after five missed (2.5 s),
	// which a loaded machine does not stall for (at 50 ms, a stall of
	// 250 ms would end a live stream).
	url, _ := f.proxyServer("p1", ProxyOptions{KeepAlive: 500 * time.Millisecond})
	if st, body := do(t, "POST", url+"/api/pause", ""); st != 200 {
		t.Fatalf("pause: %d %s", st, body)
	}
	for _, target := range []string{"/api/scene", "/api/query?selector=%5Bdrop%5D", "/api/entities/ground", "/api/tree"} {
		_, want := room.Request("GET", target, nil)
		if st, got := do(t, "GET", url+target, ""); st != 200 || got != string(want) {
			t.Errorf("GET %s through the proxy: %d\n%s\nthe room's own:\n%s", target, st, got, want)
		}
	}
	if st, body := do(t, "PUT", url+"/api/entities/ground/components/position", "0 7 0"); st != 200 {
		t.Fatalf("PUT: %d %s", st, body)
	}
	if _, got := room.Request("GET", "/api/query?selector=%23ground%5Bposition.y%3D7%5D", nil); !strings.Contains(string(got), `"count":1`) {
		t.Errorf("the PUT did not reach the room: %s", got)
	}
	if st, body := do(t, "GET", url+"/api/nothing", ""); st != 404 || !strings.Contains(body, "no endpoint") {
		t.Errorf("an unknown endpoint: %d %s", st, body)
	}

	chunkLimit = 1024 // the dump (about 9 KB) in 1 KB parts, 4 KB in flight at most
	defer func() { chunkLimit = 0 }()
	_, want := room.Request("GET", "/api/scene", nil)
	if st, got := do(t, "GET", url+"/api/scene", ""); st != 200 || got != string(want) || len(want) < 4096 {
		t.Errorf("a dump of %d bytes in parts: %d, %d bytes, equal %v", len(want), st, len(got), got == string(want))
	}
	var fe *Error
	if _, err := f.client.Ask(f.ctx(), "p1", "scene", nil); !errors.As(err, &fe) || fe.Status != http.StatusBadGateway || !strings.Contains(fe.Msg, "serve") {
		t.Errorf("a dump too large for the verb scene: %v", err)
	}
	eventually(t, 10*time.Second, func() string {
		if n := f.hosts[1].Streams(); n != 0 {
			return strconv.Itoa(n) + " answers in parts still open"
		}
		return ""
	})

	// A room the directory does not have is not waited for, nor one that
	// stopped (a room moving to another host is: TestPageRemoteRoom).
	// Not waited for: answered well before the proxy's Wait of 10 s, with
	// room to spare for a loaded machine.
	nowhere, _ := f.proxyServer("nowhere", ProxyOptions{Wait: 10 * time.Second})
	start := time.Now()
	if st, body := do(t, "GET", nowhere+"/api/stats", ""); st != http.StatusNotFound || !strings.Contains(body, "no such room: nowhere") || time.Since(start) > 5*time.Second {
		t.Errorf("a room the directory lacks: %d %s after %v", st, body, time.Since(start))
	}
	if err := f.client.st.create(f.ctx(), &Entry{ID: "broken", Scene: "rain.yaml", Quarantine: "tick 3: boom"}); err != nil {
		t.Fatal(err)
	}
	broken, _ := f.proxyServer("broken", ProxyOptions{Wait: 5 * time.Second})
	if st, body := do(t, "GET", broken+"/api/stats", ""); st != http.StatusGone || !strings.Contains(body, "room broken is quarantined: tick 3: boom") {
		t.Errorf("a room that stopped: %d %s", st, body)
	}
}

// TestProxyStreams: the event stream and the transform stream of a room
// on another host come through the Proxy; a stream whose client goes,
// and one whose proxy dies without a word, end on the room's host.
func TestProxyStreams(t *testing.T) {
	f := newFleet(t, 2)
	if _, err := f.client.Create(f.ctx(), CreateRequest{ID: "p1", Scene: "rain.yaml", Host: "h1", Hz: 30}); err != nil {
		t.Fatal(err)
	}
	h, room := f.hosts[1], f.hosts[1].Local().Room("p1")
	// Keep-alives every 500 ms: a stream ends after five missed (2.5 s),
	// which a loaded machine does not stall for (at 50 ms, a stall of
	// 250 ms would end a live stream).
	url, _ := f.proxyServer("p1", ProxyOptions{KeepAlive: 500 * time.Millisecond})
	open := func(u string) (*http.Response, *bufio.Reader) {
		t.Helper()
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", u, resp.Status)
		}
		return resp, bufio.NewReader(resp.Body)
	}
	events, rd := open(url + "/api/events")
	if ct := events.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	waitLine(t, rd, "event: stats")
	if st, body := do(t, "PUT", url+"/api/entities/ground/components/position", "0 3 0"); st != 200 {
		t.Fatalf("PUT: %d %s", st, body)
	}
	waitLine(t, rd, "event: change")

	frames, fr := open(url + "/api/transforms/stream?fps=20")
	for i := 0; i < 3; i++ {
		var size uint32
		if err := binary.Read(fr, binary.LittleEndian, &size); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, size)
		if _, err := io.ReadFull(fr, b); err != nil {
			t.Fatal(err)
		}
		n, stride := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:])
		if stride != 9 || int(size) != 16+4*int(n*stride) || n < 2 {
			t.Fatalf("frame %d: %d bytes, %d entities of %d floats", i, size, n, stride)
		}
	}
	if n := h.Streams(); n != 2 {
		t.Errorf("%d streams open on the room's host, want 2", n)
	}
	events.Body.Close()
	frames.Body.Close()
	streamsEnd(t, h, room)

	// A proxy that dies (its connection closed, no cancel sent).
	p, err := NewProxy(f.conn(), "", ProxyOptions{KeepAlive: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.ServeRoom(w, r, "p1") }))
	defer srv.Close()
	dead, rd := open(srv.URL + "/api/events")
	defer dead.Body.Close()
	waitLine(t, rd, "event: stats")
	p.nc.Close()
	streamsEnd(t, h, room)
}

// waitLine reads rd until a line equal to want.
func waitLine(t *testing.T, rd *bufio.Reader, want string) {
	t.Helper()
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

// streamsEnd waits until the host sends no stream and the room has no
// event stream open.
func streamsEnd(t *testing.T, h *Host, room *rooms.Room) {
	t.Helper()
	eventually(t, 20*time.Second, func() string {
		_, stats := room.Request("GET", "/api/stats", nil)
		if n := h.Streams(); n != 0 || !strings.Contains(string(stats), `"clients":0`) {
			return "streams still open: " + strconv.Itoa(n) + " on the host; the room's stats: " + string(stats)
		}
		return ""
	})
}
