package inspect

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// sse is one Server-Sent Event.
type sse struct {
	id, event, data string
}

// stream opens GET /api/events and sends its events on the channel,
// which is closed when the stream ends.
func (e *env) stream() (<-chan sse, func()) {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/events", nil)
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/event-stream" {
		e.t.Fatalf("events: %d %v", res.StatusCode, res.Header)
	}
	out := make(chan sse, 1024)
	go func() {
		defer close(out)
		readEvents(res.Body, out)
	}()
	return out, func() { res.Body.Close() }
}

func readEvents(r io.Reader, out chan<- sse) {
	br := bufio.NewReader(r)
	var ev sse
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.event != "" {
				out <- ev
			}
			ev = sse{}
		case strings.HasPrefix(line, "id: "):
			ev.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			ev.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			ev.data = line[6:]
		}
	}
}

// next returns the next event named name, skipping others.
func next(t *testing.T, ch <-chan sse, name string) sse {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				t.Fatalf("stream ended waiting for %q", name)
			}
			if ev.event == name {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %q event", name)
		}
	}
}

// TestEventsReload: a client streams events while the real Reloader
// applies saves of a scene file on the simulation goroutine: each reload
// arrives with its per-property diff, a broken save with its errors
// (file:line:col), API changes as change events, stats all along.
func TestEventsReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "scene.yaml")
	if err := os.WriteFile(file, []byte(testScene), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, Options{}, func(reg *registry.Registry) (*live.Scene, error) {
		return loader.LoadFile(reg, file, loader.Options{})
	})
	e.in.statsEvery = 20 * time.Millisecond
	e.start()
	rl := &live.Reloader{Scene: e.scene, File: file, Recheck: -1}
	events, stop := e.stream()
	defer stop()

	var st Stats
	if err := json.Unmarshal([]byte(next(t, events, "stats").data), &st); err != nil || st.Entities != 6 || st.Clients != 1 {
		t.Fatalf("first stats: %+v %v", st, err)
	}
	s1 := next(t, events, "stats")
	json.Unmarshal([]byte(s1.data), &st)
	ticks := st.Ticks

	reload := func(src string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		e.sim(func() {
			d, err := rl.Reload()
			e.in.Reloaded(d, err)
		})
	}
	edited := strings.Replace(testScene, "position: 0 15 0", "position: 0 16 0", 1)
	edited = strings.Replace(edited, `health: "hp: 50"`, `health: "hp: 40; max: 60"`, 1)
	edited += "  - id: newcomer\n    enemy:\n"
	reload(edited)
	var rv reloadEvent
	ev := next(t, events, "reload")
	if err := json.Unmarshal([]byte(ev.data), &rv); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, x := range rv.Entries {
		lines = append(lines, x.String())
	}
	want := []string{"+ #newcomer", "~ #ship health.hp 50 → 40", "~ #ship health.max 100 → 60", "~ #wreck position 0 15 0 → 0 16 0"}
	if !rv.OK || rv.Summary != "+1 -0 ~2" || strings.Join(lines, "\n") != strings.Join(want, "\n") || ev.id == "" {
		t.Fatalf("reload event: %+v\n%s", rv, strings.Join(lines, "\n"))
	}
	if !strings.Contains(ev.data, `{"kind":"changed","entity":"#wreck","component":"position","old":"0 15 0","new":"0 16 0"}`) {
		t.Errorf("reload JSON: %s", ev.data)
	}

	// A broken save: errors with positions, nothing applied.
	broken := strings.Replace(edited, "position: 0 16 0", "position: 0 16 zero", 1)
	reload(broken)
	rv = reloadEvent{}
	json.Unmarshal([]byte(next(t, events, "reload").data), &rv)
	if rv.OK || len(rv.Errors) != 1 || !strings.HasPrefix(rv.Errors[0], file+":") || !strings.Contains(rv.Errors[0], `"zero"`) || len(rv.Entries) != 0 {
		t.Fatalf("broken reload event: %+v", rv)
	}
	if parts := strings.SplitN(strings.TrimPrefix(rv.Errors[0], file+":"), ":", 3); len(parts) < 3 || parts[0] == "" || parts[1] == "" {
		t.Errorf("error without line:col: %s", rv.Errors[0])
	}

	// A change through the API.
	e.call("PUT", "/api/entities/rock-1/components/velocity", "0 0 0").expect(t, http.StatusOK)
	var ch changeEvent
	json.Unmarshal([]byte(next(t, events, "change").data), &ch)
	if ch.Op != "set" || ch.Ref != "rock-1" || len(ch.Entries) != 1 || ch.Entries[0].String() != "~ #rock-1 velocity 0.5 -1 0 → 0 0 0" {
		t.Errorf("change event: %+v", ch)
	}

	// Pause, play and step are changes too.
	e.call("POST", "/api/step?n=2", "").expect(t, http.StatusOK)
	ch = changeEvent{}
	json.Unmarshal([]byte(next(t, events, "change").data), &ch)
	if ch.Op != "step" || ch.Run == nil || !ch.Run.Paused || ch.Run.Steps != 2 || ch.Ref != "" {
		t.Errorf("step event: %+v", ch)
	}
	e.call("POST", "/api/play", "").expect(t, http.StatusOK)

	// Ticks went on while all this streamed.
	json.Unmarshal([]byte(next(t, events, "stats").data), &st)
	if st.Ticks <= ticks {
		t.Errorf("ticks did not advance: %d -> %d", ticks, st.Ticks)
	}

	// Close ends the stream.
	e.in.Close()
	for range events {
	}
}

// TestEntitiesAcrossReload: entities made and destroyed through the API
// are run-time changes: a later reload keeps them as they are, like
// entities a system makes.
func TestEntitiesAcrossReload(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "scene.yaml")
	if err := os.WriteFile(file, []byte(testScene), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEnvWith(t, Options{}, func(reg *registry.Registry) (*live.Scene, error) {
		return loader.LoadFile(reg, file, loader.Options{})
	}).start()
	rl := &live.Reloader{Scene: e.scene, File: file, Recheck: -1}
	e.call("POST", "/api/entities", `{"parent": "field", "id": "made", "components": {"position": "1 1 1"}}`).expect(t, http.StatusCreated)
	e.call("POST", "/api/entities", `{"parent": "ship", "components": {"position": "2 2 2"}}`).expect(t, http.StatusCreated)
	e.call("DELETE", "/api/entities/rock-1", "").expect(t, http.StatusOK)
	edited := strings.Replace(testScene, "position: 0 15 0", "position: 0 16 0", 1)
	edited = strings.Replace(edited, "position: -5 10 0", "position: -5 11 0", 1)
	os.WriteFile(file, []byte(edited), 0o644)
	var d *live.Diff
	e.sim(func() {
		var err error
		if d, err = rl.Reload(); err != nil {
			t.Error(err)
		}
	})
	if d == nil {
		t.FailNow()
	}
	if len(d.Created) != 0 || len(d.Destroyed) != 0 || len(d.Warnings) == 0 || !strings.Contains(strings.Join(d.Warnings, " "), "destroyed at run time") {
		t.Errorf("diff: %s", d)
	}
	var q queryResult
	e.get("/api/query?selector=[position]").json(t, &q)
	if strings.Join(q.Matches, " ") != "ship ship/0 ship/1 ship/2 wreck made" {
		t.Errorf("after reload: %v", q.Matches)
	}
	var w entityInfo
	e.get("/api/entities/wreck").json(t, &w)
	for _, c := range w.Comps {
		if c.Name == "position" && c.Attr != "0 16 0" {
			t.Errorf("wreck position %s", c.Attr)
		}
	}
}

// blockingWriter is a ResponseWriter whose writes wait for release: a
// client that does not read.
type blockingWriter struct {
	mu      sync.Mutex
	h       http.Header
	buf     strings.Builder
	release chan struct{}
	started chan struct{}
	once    sync.Once
}

func (b *blockingWriter) Header() http.Header { return b.h }
func (b *blockingWriter) WriteHeader(int)     {}
func (b *blockingWriter) Flush()              {}
func (b *blockingWriter) Write(p []byte) (int, error) {
	b.once.Do(func() { close(b.started) })
	<-b.release
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.WriteString(string(p))
}

func (b *blockingWriter) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestSlowClient: a client that does not read blocks nothing: publishing
// goes on at once, its buffer overflows, and it is told how many events
// it missed when it reads again.
func TestSlowClient(t *testing.T) {
	reg := newRegistry(t, nil)
	in := New(reg, Options{Hosts: []string{"example.com"}})
	bw := &blockingWriter{h: http.Header{}, release: make(chan struct{}), started: make(chan struct{})}
	req := httptestRequest("GET", "/api/events")
	ctx, cancel := contextWithCancel()
	defer cancel()
	done := make(chan struct{})
	go func() {
		in.ServeHTTP(bw, req.WithContext(ctx))
		close(done)
	}()
	<-bw.started
	for in.hub.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	t0 := time.Now()
	const n = streamBuffer + 50
	for i := range n {
		in.hub.publish("change", map[string]int{"i": i})
	}
	// A publish that waited for the stuck client would not return until
	// it is released below: 10 s is that, with room for a loaded machine.
	if d := time.Since(t0); d > 10*time.Second {
		t.Fatalf("publishing to a stuck client took %v", d)
	}
	close(bw.release)
	waitFor(t, func() string {
		if !strings.Contains(bw.String(), "event: dropped") {
			return "no dropped event after the client reads again"
		}
		return ""
	})
	out := bw.String()
	if !strings.Contains(out, `"dropped":50`) || strings.Count(out, "event: change") != streamBuffer {
		t.Fatalf("stream after overflow (%d changes):\n%.500s", strings.Count(out, "event: change"), out)
	}
	cancel()
	<-done
	if in.hub.count() != 0 {
		t.Error("stream not unsubscribed")
	}
}
