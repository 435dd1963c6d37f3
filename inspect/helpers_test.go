package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// health is a Go component with hooks, to see them run through the API.
type health struct {
	HP  int `scene:"hp,default=100,min=0"`
	Max int `scene:"max,default=100"`
}

const testScene = `mixins:
  rock:
    enemy:
    spin: "axis: 0 0 1; speed: 45"
    velocity: 0 0 0
entities:
  - id: ship
    class: player
    position: 0 0 0
    health: "hp: 50"
    children:
      - class: gun left
        position: -1 0.5 0
      - class: gun right
        position: 1 0.5 0
  - id: field
    children:
      - id: rock-1
        mixin: rock
        alive:
        position: -5 10 0
        velocity: 0.5 -1 0
      - id: wreck
        mixin: rock
        position: 0 15 0
        scale: 2 2 2
`

// env is a scene served by an Inspector and ticked by a goroutine (the
// simulation goroutine); tests touch the World only through sim.
type env struct {
	t       *testing.T
	reg     *registry.Registry
	scene   *live.Scene
	in      *Inspector
	srv     *httptest.Server
	calls   chan func()
	stop    chan struct{}
	done    chan struct{}
	started bool
	// updates records "old->new" per health update hook (sim goroutine).
	updates []string
	// tickErr, if set, takes the errors ticks return (else they fail
	// the test).
	tickErr func(error)
	// rounds counts the simulation goroutine's calls of Tick (each
	// drains, then ticks unless paused).
	rounds atomic.Int64
}

func newRegistry(t testing.TB, e *env) *registry.Registry {
	t.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	_, err := registry.Register[health](reg, "health", registry.Definition[health]{
		Update: func(c *registry.Context, v, old *health) {
			if v.HP == 13 {
				panic("unlucky hp")
			}
			if e != nil {
				e.updates = append(e.updates, fmt.Sprintf("%d->%d", old.HP, v.HP))
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// newEnv loads testScene, makes an Inspector with opt (Scene set unless
// given) and serves it with httptest. It does not tick: call start.
func newEnv(t *testing.T, opt Options) *env {
	t.Helper()
	return newEnvWith(t, opt, func(reg *registry.Registry) (*live.Scene, error) {
		return loader.LoadBytes(reg, "scene.yaml", []byte(testScene), loader.Options{})
	})
}

// newEnvWith is newEnv loading the scene with load.
func newEnvWith(t *testing.T, opt Options, load func(*registry.Registry) (*live.Scene, error)) *env {
	t.Helper()
	e := &env{t: t, calls: make(chan func()), stop: make(chan struct{}), done: make(chan struct{})}
	e.reg = newRegistry(t, e)
	s, err := load(e.reg)
	if err != nil {
		t.Fatal(err)
	}
	e.scene = s
	if opt.Scene == nil {
		opt.Scene = s
	}
	e.in = New(e.reg, opt)
	e.srv = httptest.NewServer(e.in)
	t.Cleanup(func() {
		e.halt()
		e.in.Close()
		e.srv.Close()
	})
	return e
}

// start runs the simulation goroutine: Tick at most every millisecond,
// at once when a request arrives, and the functions given to sim.
func (e *env) start() *env {
	e.started = true
	go func() {
		defer close(e.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-e.stop:
				return
			case f := <-e.calls:
				f()
				continue
			case <-e.in.Wake():
			case <-t.C:
			}
			if err := e.in.Tick(1.0 / 60); err != nil && e.tickErr != nil {
				e.tickErr(err)
			} else if err != nil {
				e.t.Errorf("tick: %v", err)
			}
			e.rounds.Add(1)
		}
	}()
	return e
}

// waitFor polls cond until it returns "", failing the test with its
// last complaint after 20 s (generous: a loaded machine is slow, and
// a condition that holds comes at once on a quiet one).
func waitFor(t testing.TB, cond func() string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		msg := cond()
		if msg == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %s", msg)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitRounds waits until the simulation goroutine has called Tick n
// more times: what it would have ticked, unless paused, it has. A check
// that something does not happen on its ticks waits on this, not on
// time a loaded machine may spend elsewhere.
func (e *env) waitRounds(n int64) {
	e.t.Helper()
	from := e.rounds.Load()
	waitFor(e.t, func() string {
		if got := e.rounds.Load() - from; got < n {
			return fmt.Sprintf("the simulation goroutine called Tick %d times, want %d", got, n)
		}
		return ""
	})
}

// ticks returns the ticks the inspector has observed.
func (e *env) ticks() uint64 { return e.in.Stats().Ticks }

// halt stops the simulation goroutine if it runs (on the test's
// goroutine, once).
func (e *env) halt() {
	if !e.started {
		return
	}
	e.started = false
	close(e.stop)
	select {
	case <-e.done:
	case <-time.After(10 * time.Second):
		e.t.Error("simulation goroutine did not stop")
	}
}

// sim runs f on the simulation goroutine, between ticks, and waits.
func (e *env) sim(f func()) {
	e.t.Helper()
	ok := make(chan struct{})
	select {
	case e.calls <- func() { f(); close(ok) }:
	case <-time.After(10 * time.Second):
		e.t.Fatal("simulation goroutine not running")
	}
	<-ok
}

// dump returns the JSON dump of the World, taken on the simulation
// goroutine.
func (e *env) dump() string {
	var b bytes.Buffer
	e.sim(func() {
		if err := export.WriteJSON(&b, e.reg, export.Options{}); err != nil {
			e.t.Error(err)
		}
	})
	return b.String()
}

// resp is an answer.
type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	reflect.ValueOf(v).Elem().SetZero() // fields the answer leaves out are zero
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("answer %d is not JSON: %v\n%s", r.status, err, r.body)
	}
}

// errMsg returns the "error" of a JSON error answer.
func (r resp) errMsg(t *testing.T) string {
	t.Helper()
	var eb errorBody
	r.json(t, &eb)
	if eb.Error == "" {
		t.Fatalf("answer %d has no error: %s", r.status, r.body)
	}
	return eb.Error
}

// expect checks the status.
func (r resp) expect(t *testing.T, status int) resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// call makes a request with the token (as a Bearer header) unless
// noToken; hdr are extra headers as "Name: value".
func (e *env) call(method, path, body string, hdr ...string) resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	token := true
	for _, h := range hdr {
		k, v, _ := strings.Cut(h, ": ")
		if k == "noToken" {
			token = false
			continue
		}
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	if token {
		req.Header.Set("Authorization", "Bearer "+e.in.Token())
	}
	res, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{res.StatusCode, res.Header, b}
}

func (e *env) get(path string) resp {
	e.t.Helper()
	return e.call("GET", path, "", "noToken: 1")
}

func httptestRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

// httptestRequest makes a server-side request for ServeHTTP called
// directly (Host example.com, no local address).
func httptestRequest(method, target string) *http.Request {
	return httptest.NewRequest(method, target, nil)
}

func contextWithCancel() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}

// status makes a GET from any goroutine and returns its status (-1 on a
// transport error).
func (e *env) status(path string) int {
	res, err := e.srv.Client().Get(e.srv.URL + path)
	if err != nil {
		return -1
	}
	res.Body.Close()
	return res.StatusCode
}
