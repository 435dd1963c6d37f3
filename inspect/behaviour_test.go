package inspect

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

const behaviourScene = `components:
  score: {type: int}
entities:
  - id: target
    score: 0
    position: 0 0 0
    on__hit: "if: detail.damage > 3; set: score = score + detail.damage"
    on__bad: "set: score = score + detail.nope * 1"
    animation: "property: position.x; to: 10; dur: 100000; easing: linear"
    bind: "position.y: time * 2"
    timer: "delay: 1000000; event: never"
    children:
      - id: child
`

// newBehaviourEnv serves text with an Inspector that knows the
// built-ins (Options.Behaviour).
func newBehaviourEnv(t *testing.T, text string) *env {
	t.Helper()
	e := &env{t: t, calls: make(chan func()), stop: make(chan struct{}), done: make(chan struct{})}
	e.reg = registry.New(ecs.NewWorld())
	b, err := components.Register(e.reg)
	if err != nil {
		t.Fatal(err)
	}
	if e.scene, err = loader.LoadBytes(e.reg, "scene.yaml", []byte(text), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	e.in = New(e.reg, Options{Scene: e.scene, Behaviour: b})
	e.srv = httptest.NewServer(e.in)
	t.Cleanup(func() {
		e.halt()
		e.in.Close()
		e.srv.Close()
	})
	e.tickErr = func(error) {} // the handlers' errors, reported again by the API: see TestPostEvent
	return e.start()
}

// target is the entity #target (on the simulation goroutine).
func (e *env) target() ecs.Entity {
	t, _ := e.reg.EntityByID("target")
	return t
}

// streamAt opens the event stream at path (GET /api/events?...).
func (e *env) streamAt(path string) (<-chan sse, func()) {
	e.t.Helper()
	res, err := e.srv.Client().Get(e.srv.URL + path)
	if err != nil {
		e.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		e.t.Fatalf("%s: %d", path, res.StatusCode)
	}
	out := make(chan sse, 4096)
	go func() {
		defer close(out)
		readEvents(res.Body, out)
	}()
	return out, func() { res.Body.Close() }
}

// TestPostEvent: POST /api/entities/REF/events/NAME emits the event
// with its JSON detail, through the work queue, for the token only; it
// reaches the handlers (and bubbles, unless ?bubbles=0); what they
// report comes back in the answer; bad names, details and references are
// refused with what is wrong.
func TestPostEvent(t *testing.T) {
	e := newBehaviourEnv(t, behaviourScene)
	score := func() string {
		var s string
		e.sim(func() { s, _ = e.reg.Attr(e.target(), "score") })
		return s
	}
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 5}`, "noToken: 1").expect(t, http.StatusUnauthorized)
	var got sentEvent
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 5}`).expect(t, http.StatusOK).json(t, &got)
	if got.Op != "emit" || got.Entity != "#target" || got.Event != "hit" || string(got.Detail) != `{"damage":5}` || len(got.Errors) != 0 {
		t.Errorf("answer %+v", got)
	}
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 2}`).expect(t, http.StatusOK)
	e.call("POST", "/api/entities/child/events/hit", `{"damage": 4}`).expect(t, http.StatusOK)             // bubbles to target
	e.call("POST", "/api/entities/child/events/hit?bubbles=0", `{"damage": 100}`).expect(t, http.StatusOK) // does not
	if s := score(); s != "9" {
		t.Errorf("score %s, want 9 (5, then 4 bubbling from the child)", s)
	}
	e.call("POST", "/api/entities/target/events/bad", ``).expect(t, http.StatusOK).json(t, &got)
	if len(got.Errors) != 1 || !strings.Contains(got.Errors[0], "entity #target: on__bad: set score: cannot read nope of detail: it is nil") {
		t.Errorf("the handler's error is not in the answer: %+v", got)
	}
	for _, tc := range []struct {
		path, body string
		status     int
		msg        string
	}{
		{"/api/entities/target/events/h%20it", "", 400, `event name "h it"`},
		{"/api/entities/target/events/hit", `{"damage": `, 400, "the detail is not JSON"},
		{"/api/entities/target/events/hit", `1 2`, 400, "more than one JSON value"},
		{"/api/entities/nobody/events/hit", "", 404, "nobody"},
		{"/api/entities/target/events/hit?bubbles=maybe", "", 400, `bubbles="maybe"`},
	} {
		r := e.call("POST", tc.path, tc.body)
		if r.status != tc.status || !strings.Contains(r.errMsg(t), tc.msg) {
			t.Errorf("%s %s: %d %s, want %d %s", tc.path, tc.body, r.status, r.body, tc.status, tc.msg)
		}
	}
	if r := e.call("GET", "/api/entities/target/events/hit", ""); r.status != http.StatusMethodNotAllowed {
		t.Errorf("GET of an event path: %d", r.status)
	}
}

// TestEventLog: the stream carries entity events as they fire, with
// their entity and detail, filtered by name (?events=), at most the
// burst of a name at once, the events left out counted in the next one
// shown.
func TestEventLog(t *testing.T) {
	e := newBehaviourEnv(t, behaviourScene)
	all, closeAll := e.streamAt("/api/events")
	defer closeAll()
	hits, closeHits := e.streamAt("/api/events?events=hit,pong")
	defer closeHits()
	next(t, all, "stats")
	next(t, hits, "stats")
	e.call("POST", "/api/entities/target/events/ping", `{"n": 1}`).expect(t, http.StatusOK)
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 5}`).expect(t, http.StatusOK)
	var ev entityEvent
	mustJSON(t, next(t, all, "entity-event").data, &ev)
	if ev.Name != "ping" || ev.Entity != "#target" || ev.Ref != "target" || string(ev.Detail) != `{"n":1}` {
		t.Errorf("first event %+v", ev)
	}
	// The filtered stream skips ping: its first is hit, with what the
	// handler changed after it (componentchanged is not asked for).
	mustJSON(t, next(t, hits, "entity-event").data, &ev)
	if ev.Name != "hit" || string(ev.Detail) != `{"damage":5}` {
		t.Errorf("filtered stream's first event %+v", ev)
	}
	// A burst: 500 events of one name in one go.
	e.sim(func() {
		target := e.target()
		for i := range 500 {
			e.reg.Events().Emit(target, "spam", i, false)
		}
		e.reg.Events().Emit(target, "pong", nil, false)
	})
	n := 0
	deadline := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case m := <-all:
			if m.event != "entity-event" {
				continue
			}
			mustJSON(t, m.data, &ev)
			if ev.Name == "spam" {
				n++
			}
			done = ev.Name == "pong"
		case <-deadline:
			t.Fatal("no pong")
		}
	}
	if n < 1 || n > int(logBurst)+1 {
		t.Errorf("%d spam events logged out of 500 in one go; the burst is %v", n, logBurst)
	}
	time.Sleep(200 * time.Millisecond) // the budget refills
	e.sim(func() { e.reg.Events().Emit(e.target(), "spam", -1, false) })
	for {
		mustJSON(t, next(t, all, "entity-event").data, &ev)
		if ev.Name == "spam" {
			break
		}
	}
	if string(ev.Detail) != "-1" || ev.Skipped != 500-n {
		t.Errorf("the next spam after the burst: %+v, want skipped %d", ev, 500-n)
	}
	if mustJSON(t, next(t, hits, "entity-event").data, &ev); ev.Name != "pong" {
		t.Errorf("the filtered stream got %s", ev.Name)
	}
	if r := e.get("/api/events?events=a%20b"); r.status != http.StatusBadRequest {
		t.Errorf("a bad filter: %d", r.status)
	}
}

func mustJSON(t *testing.T, data string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(data), v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
}

// TestEntityBehaviour: GET /api/entities/REF reports the entity's
// running animations (with progress), timers, handlers (with their
// firings) and bindings (with their values); PUT refuses a value that
// does not compile, where it is wrong.
func TestEntityBehaviour(t *testing.T) {
	e := newBehaviourEnv(t, behaviourScene)
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 5}`).expect(t, http.StatusOK)
	var info struct{ Behaviour *components.BehaviourInfo }
	e.get("/api/entities/target").expect(t, http.StatusOK).json(t, &info)
	b := info.Behaviour
	if b == nil || len(b.Animations) != 1 || len(b.Timers) != 1 || len(b.Handlers) != 2 || len(b.Bindings) != 1 {
		t.Fatalf("behaviour %+v", b)
	}
	if a := b.Animations[0]; a.Name != "animation" || a.Property != "position.x" || !a.Running || a.Progress <= 0 || a.Progress >= 1 {
		t.Errorf("animation %+v", a)
	}
	if h := b.Handlers[0]; h.Name != "on__bad" && h.Name != "on__hit" {
		t.Errorf("handler %+v", h)
	}
	for _, h := range b.Handlers {
		if h.Name == "on__hit" && (h.Fired != 1 || len(h.Events) != 1 || h.Events[0] != "hit") {
			t.Errorf("on__hit %+v", h)
		}
	}
	if bd := b.Bindings[0]; bd.Path != "position.y" || bd.Expression != "time * 2" || bd.Value == "" || bd.Error != "" {
		t.Errorf("binding %+v", bd)
	}
	r := e.call("PUT", "/api/entities/target/components/on__hit", "if: detail.damage > 3; set: scor = 1")
	var eb errorBody
	r.expect(t, http.StatusBadRequest).json(t, &eb)
	if eb.Offset == nil || *eb.Offset != 28 || !strings.Contains(eb.Error, `"scor": expected the name of a component (did you mean "score"?)`) {
		t.Errorf("PUT of a handler that does not compile: %s", r.body)
	}
	e.get("/api/entities/child").expect(t, http.StatusOK).json(t, &info)
	if info.Behaviour != nil {
		t.Errorf("child has behaviour %+v", info.Behaviour)
	}
}

// TestSaveBehaviour: PUT ?save=1 writes an on, a bind and an animation
// into the scene file at their values, as for any component: an
// attribute string in place (the rest of the file byte for byte), and an
// on written as a mapping too.
func TestSaveBehaviour(t *testing.T) {
	src := `components:
  score: {type: int}
entities:
  - id: a   # the target
    score: 0
    position: 0 0 0
    on__hit: "set: score = score + 1"   # one point
    bind: "position.y: time"
    animation: {property: position.x, to: 3}
    on__miss:
      event: miss
      set: score = score - 1
`
	e, file := newSaveEnv(t, "behave.yaml", src)
	e.start()
	for _, tc := range []struct{ comp, body, from, to string }{
		{"on__hit", "set: score = score + 2", `"set: score = score + 1"`, `"set: score = score + 2"`},
		{"bind", "position.y: time * 3", `"position.y: time"`, `"position.y: time * 3"`},
		{"animation", "to: 4", "to: 3}", "to: 4}"},
	} {
		e.call("PUT", "/api/entities/a/components/"+tc.comp+"?save=1", tc.body).expect(t, http.StatusOK)
		got, _ := os.ReadFile(file)
		want := strings.Replace(src, tc.from, tc.to, 1)
		if string(got) != want {
			t.Fatalf("%s saved as:\n%s\nwant\n%s", tc.comp, got, want)
		}
		src = want
	}
	// The mapping is written over by the attribute string.
	e.call("PUT", "/api/entities/a/components/on__miss?save=1", "event: miss; set: score = score - 5").expect(t, http.StatusOK)
	got, _ := os.ReadFile(file)
	want := strings.Replace(src, "on__miss:\n      event: miss\n      set: score = score - 1\n", "on__miss: \"event: miss; set: score = score - 5\"\n", 1)
	if string(got) != want {
		t.Errorf("on__miss saved as:\n%s\nwant\n%s", got, want)
	}
	reg := newRegistry(t, nil)
	sc, err := loader.LoadBytes(reg, "behave.yaml", got, loader.Options{})
	if err != nil {
		t.Fatalf("the saved file does not load: %v", err)
	}
	a, _ := sc.Entity("a")
	if s, _ := reg.Attr(a, "on__miss"); s != "event: miss; set: score = score - 5" {
		t.Errorf("on__miss loads back as %q", s)
	}
}
