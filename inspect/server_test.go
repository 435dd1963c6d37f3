package inspect

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/inspect/internal/slots"
)

// listenEnv serves newEnv's scene with Listen (the real server and its
// timeouts) and ticks it; it returns the env and the host:port.
func listenEnv(t *testing.T, opt Options) (*env, string) {
	t.Helper()
	e := newEnv(t, opt).start()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	u, err := e.in.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return e, pu.Host
}

// rawRequest opens a TCP connection to addr and sends head (a request's
// line and headers, "\r\n" added), and no body.
func rawRequest(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	head = strings.ReplaceAll(head, "HOST", addr)
	if _, err := io.WriteString(c, strings.ReplaceAll(head, "\n", "\r\n")+"\r\n"); err != nil {
		t.Fatal(err)
	}
	return c
}

// answer reads an answer's status line and headers from c within d, and
// then how long the server takes to close the connection (up to d);
// closing reports Connection: close.
func answer(c net.Conn, d time.Duration) (status int, closing bool, closedAfter time.Duration, err error) {
	_ = c.SetReadDeadline(time.Now().Add(d))
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, false, 0, err
	}
	t0 := time.Now()
	_, err = io.Copy(io.Discard, br) // the body, then EOF when the server closes
	return res.StatusCode, res.Close, time.Since(t0), err
}

// TestSlowBodies: a request whose body never comes is answered at once
// when it is refused (no token, another host or origin, no such
// endpoint or method, a GET with a body), with Connection: close, and
// its connection closed Timeouts.UnreadBody later; many of them at once
// included. One the server must read (it has the token) is answered
// when Timeouts.Read expires, and closed. Headers that never end are cut
// at Timeouts.ReadHeader, an idle connection at Timeouts.Idle.
//
// The bounds tell what happens at once (a refusal answered, and its
// connection closed after UnreadBody, each within half of Read: 2 s)
// from what a timeout makes (Read, 4 s), and a connection cut at
// ReadHeader or Idle (1 s) from one left open, with room for a loaded
// machine (220 connections at once on two cores).
func TestSlowBodies(t *testing.T) {
	to := Timeouts{ReadHeader: time.Second, Read: 4 * time.Second, Idle: time.Second, UnreadBody: 200 * time.Millisecond}
	e, addr := listenEnv(t, Options{Timeouts: to})
	tok := e.in.Token()
	refused := []struct {
		head   string
		status int
	}{
		{"POST /api/pause HTTP/1.1\nHost: HOST\nContent-Length: 100\n", http.StatusUnauthorized},
		{"POST /api/entities HTTP/1.1\nHost: HOST\nContent-Length: 5000\nContent-Type: application/json\n", http.StatusUnauthorized},
		{"PUT /api/entities/ship/components/position HTTP/1.1\nHost: HOST\nTransfer-Encoding: chunked\n", http.StatusUnauthorized},
		{"DELETE /api/entities/ship HTTP/1.1\nHost: HOST\nContent-Length: 10\nExpect: 100-continue\n", http.StatusUnauthorized},
		{"POST /api/pause HTTP/1.1\nHost: HOST\nContent-Length: 100\nAuthorization: Bearer wrong\n", http.StatusUnauthorized},
		{"POST /api/pause HTTP/1.1\nHost: evil.example\nContent-Length: 100\nAuthorization: Bearer " + tok + "\n", http.StatusForbidden},
		{"POST /api/pause HTTP/1.1\nHost: HOST\nOrigin: http://evil.example\nContent-Length: 100\nAuthorization: Bearer " + tok + "\n", http.StatusForbidden},
		{"POST /api/nothing HTTP/1.1\nHost: HOST\nContent-Length: 100\n", http.StatusNotFound},
		{"PATCH /api/pause HTTP/1.1\nHost: HOST\nContent-Length: 100\n", http.StatusMethodNotAllowed},
		{"GET /api/stats HTTP/1.1\nHost: HOST\nContent-Length: 100\n", http.StatusOK},
		{"POST /api/step?n=0 HTTP/1.1\nHost: HOST\nContent-Length: 100\nAuthorization: Bearer " + tok + "\n", http.StatusBadRequest},
	}
	const copies = 20 // of each, at once
	var wg sync.WaitGroup
	errs := make(chan string, len(refused)*copies)
	for _, tt := range refused {
		for range copies {
			c := rawRequest(t, addr, tt.head)
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				status, closing, closed, err := answer(c, 10*time.Second)
				took := time.Since(t0) - closed
				switch {
				case err != nil:
					errs <- fmt.Sprintf("%q: %v", tt.head, err)
				case status != tt.status || !closing:
					errs <- fmt.Sprintf("%q: %d (closing %v), want %d and Connection: close", tt.head, status, closing, tt.status)
				case took > to.Read/2:
					errs <- fmt.Sprintf("%q: answered after %v", tt.head, took)
				case closed > to.Read/2:
					errs <- fmt.Sprintf("%q: closed %v after the answer", tt.head, closed)
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}

	// A body the server waits for: the read timeout answers it.
	c := rawRequest(t, addr, "PUT /api/entities/ship/components/position HTTP/1.1\nHost: HOST\nContent-Length: 100\nAuthorization: Bearer "+tok+"\n")
	t0 := time.Now()
	if status, _, _, err := answer(c, 10*time.Second); err != nil || status != http.StatusBadRequest || time.Since(t0) > to.Read+2*time.Second {
		t.Errorf("a body that never comes, with the token: %d %v after %v", status, err, time.Since(t0))
	}
	// Headers that never end; an idle connection after an answer.
	for _, head := range []string{"GET /api/stats HTTP/1.1\nHost: HOST", "GET /api/stats HTTP/1.1\nHost: HOST\n"} {
		c := rawRequest(t, addr, head)
		t0 := time.Now()
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.Copy(io.Discard, c)
		if took := time.Since(t0); err != nil || took > 4*time.Second {
			t.Errorf("%q: closed after %v (%v)", head, took, err)
		}
	}
}

// TestStreamsOutliveTimeouts: the event and transform streams go on for
// longer than the server's read and write timeouts (they lift them and
// bound each write instead).
func TestStreamsOutliveTimeouts(t *testing.T) {
	to := Timeouts{Read: 300 * time.Millisecond, Write: 300 * time.Millisecond}
	_, addr := listenEnv(t, Options{Timeouts: to})
	for _, path := range []string{"/api/events", "/api/transforms/stream?fps=10"} {
		res, err := http.Get("http://" + addr + path)
		if err != nil {
			t.Fatal(err)
		}
		n, t0 := 0, time.Now()
		buf := make([]byte, 4096)
		for time.Since(t0) < 4*to.Read {
			k, err := res.Body.Read(buf)
			if err != nil {
				t.Fatalf("%s ended after %v: %v", path, time.Since(t0), err)
			}
			n += k
		}
		res.Body.Close()
		if n == 0 {
			t.Errorf("%s: nothing received", path)
		}
	}
}

// TestStreamSlots: clients that open streams and never read cannot keep
// a new stream out: while every slot is taken by streams younger than
// slots.MinAge a new one is refused with 503 saying how many are open and
// the limit; after that, a new stream takes the oldest one's slot and is
// served. Both kinds of stream.
func TestStreamSlots(t *testing.T) {
	_, addr := listenEnv(t, Options{})
	for _, k := range []struct {
		path string
		max  int
	}{{"/api/events", maxStreams}, {"/api/transforms/stream?fps=1", maxTransformStreams}} {
		for range k.max {
			rawRequest(t, addr, "GET "+k.path+" HTTP/1.1\nHost: HOST\n") // never read
		}
		var res *http.Response
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) { // until the idle ones hold every slot
			r, err := http.Get("http://" + addr + k.path)
			if err != nil {
				t.Fatal(err)
			}
			if r.StatusCode == http.StatusServiceUnavailable {
				res = r
				break
			}
			r.Body.Close()
		}
		if res == nil {
			t.Fatalf("%s: never refused", k.path)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if want := fmt.Sprintf("%d open, at most %d", k.max, k.max); !strings.Contains(string(b), want) || res.Header.Get("Retry-After") == "" {
			t.Errorf("%s: 503 %s, want it to say %q", k.path, b, want)
		}
		time.Sleep(slots.MinAge)
		r, err := http.Get("http://" + addr + k.path)
		if err != nil {
			t.Fatal(err)
		}
		one := make([]byte, 1)
		if _, err := io.ReadFull(r.Body, one); err != nil || r.StatusCode != http.StatusOK {
			t.Errorf("%s after %v: %d %v", k.path, slots.MinAge, r.StatusCode, err)
		}
		r.Body.Close()
	}
}

// TestStreamWriteDeadline: a stream whose client stops reading loses its
// slot once a write has waited Timeouts.StreamWrite, while a client that
// reads keeps its stream.
func TestStreamWriteDeadline(t *testing.T) {
	e, addr := listenEnv(t, Options{Timeouts: Timeouts{StreamWrite: 300 * time.Millisecond}})
	for range 2 {
		c := rawRequest(t, addr, "GET /api/events HTTP/1.1\nHost: HOST\n")
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetReadBuffer(4096)
		}
	}
	res, err := http.Get("http://" + addr + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	go io.Copy(io.Discard, res.Body) // reads
	for e.in.eventSlots.Count() != 3 {
		time.Sleep(time.Millisecond)
	}
	big := strings.Repeat("x", 64<<10)
	deadline := time.Now().Add(20 * time.Second)
	for e.in.eventSlots.Count() > 1 && time.Now().Before(deadline) {
		e.in.hub.publish("change", map[string]string{"pad": big})
		time.Sleep(2 * time.Millisecond)
	}
	if n := e.in.eventSlots.Count(); n != 1 {
		t.Fatalf("%d streams open, want the reading one only", n)
	}
	if e.in.hub.count() != 1 {
		t.Errorf("%d subscribers", e.in.hub.count())
	}
}
