package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// docConfig returns the nats-server configuration docs/scale.md gives
// for a fleet's users (the block that starts "# fleet.conf"), written to
// a file, with the users' passwords set in the environment.
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
	for _, v := range []string{"SCENECS_HOST_PASSWORD", "SCENECS_OPERATOR_PASSWORD", "SCENECS_OBSERVER_PASSWORD"} {
		t.Setenv(v, strings.ToLower(v)+"-secret")
	}
	file := filepath.Join(t.TempDir(), "fleet.conf")
	if err := os.WriteFile(file, []byte("# fleet.conf"+block), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// roleConn is a connection as one of the users, which hears of the
// permission violations the server reports.
type roleConn struct {
	t          *testing.T
	role       string
	nc         *nats.Conn
	mu         sync.Mutex
	violations []string
	heard      chan struct{}
}

func connectAs(t *testing.T, url, role string) *roleConn {
	t.Helper()
	c := &roleConn{t: t, role: role, heard: make(chan struct{}, 100)}
	pass := "scenecs_" + role + "_password-secret"
	nc, err := nats.Connect(url, nats.UserInfo(role, pass), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			c.mu.Lock()
			c.violations = append(c.violations, err.Error())
			c.mu.Unlock()
			c.heard <- struct{}{}
		}
	}))
	if err != nil {
		t.Fatalf("connecting as %s: %v", role, err)
	}
	t.Cleanup(nc.Close)
	c.nc = nc
	return c
}

// clean fails the test if the server refused the role anything so far.
func (c *roleConn) clean(what string) {
	c.t.Helper()
	if err := c.nc.Flush(); err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.violations) > 0 {
		c.t.Errorf("%s: %s was refused: %q", c.role, what, c.violations)
		c.violations = nil
	}
}

// denied runs try and fails the test unless the server refuses the role
// a subject starting with subject (a permission violation, which comes
// asynchronously) and try fails; once refused, try is cancelled, not
// waited for to its timeout.
func (c *roleConn) denied(what, subject string, try func(ctx context.Context) error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- try(ctx) }()
	deadline := time.After(10 * time.Second) // the refusal comes asynchronously: generous for a loaded machine
	for {
		c.mu.Lock()
		for i, v := range c.violations {
			if strings.Contains(v, `"`+subject) {
				c.violations = append(c.violations[:i], c.violations[i+1:]...)
				c.mu.Unlock()
				cancel()
				if err := <-errc; err == nil {
					c.t.Errorf("%s: %s: refused (%s), yet it succeeded", c.role, what, v)
				}
				return
			}
		}
		c.mu.Unlock()
		select {
		case <-c.heard:
		case <-deadline:
			c.t.Errorf("%s may %s: no permission violation on %s in 10 s (heard %q)", c.role, what, subject, c.violations)
			return
		}
	}
}

// TestFleetPermissions starts a NATS server with the users and
// permissions docs/scale.md gives, a host joined as "host", and shows
// what the operator and the observer may and may not do.
func TestFleetPermissions(t *testing.T) {
	e, err := StartServer(ServerOptions{Config: docConfig(t), Host: "127.0.0.1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Shutdown()
	if e.Open {
		t.Fatal("the documented configuration lets anyone in")
	}
	url := e.ClientURL()
	if _, err := nats.Connect(url); err == nil || !strings.Contains(err.Error(), "Authorization") {
		t.Errorf("an anonymous client: %v", err)
	}
	host := connectAs(t, url, "host")
	h, err := Join(context.Background(), host.nc, fastOptions("h0"))
	if err != nil {
		host.clean("joining the fleet")
		t.Fatal(err)
	}
	defer h.Close()
	host.clean("joining the fleet")
	op := connectAs(t, url, "operator")
	operatorMay(t, op, h)
	obs := connectAs(t, url, "observer")
	observerMay(t, obs)
	for _, c := range []*roleConn{op, obs} {
		mayNot(t, c, h)
	}
	hostAtWork(t, h)
	host.clean("running rooms")
}

// hostAtWork waits until h has done its rounds since the call: three
// rounds of upkeep, a heartbeat stored and a snapshot of room r1.
func hostAtWork(t *testing.T, h *Host) {
	t.Helper()
	since := time.Now()
	waitUpkeeps(t, 3, h)
	eventually(t, 10*time.Second, func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		beat, err := h.st.hosts.Get(ctx, h.ID())
		if err != nil {
			return "host h0's heartbeat: " + err.Error()
		}
		e, err := h.st.getEntry(ctx, "r1")
		if err != nil || e == nil {
			return fmt.Sprintf("room r1's entry: %+v %v", e, err)
		}
		if !beat.Created().After(since) || !e.Snapshot.After(since) {
			return fmt.Sprintf("since %v: last heartbeat %v, last snapshot of r1 %v", since, beat.Created(), e.Snapshot)
		}
		return ""
	})
}

// operatorMay: the operator creates rooms, asks them anything (streams
// through a Proxy too), lists them, follows their state, resumes and
// destroys them.
func operatorMay(t *testing.T, op *roleConn, h *Host) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := NewClient(ctx, op.nc, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"r1", "r2"} {
		if _, err := cl.Create(ctx, CreateRequest{ID: id, Scene: "rain.yaml", Hz: 30}); err != nil {
			t.Fatal(err)
		}
	}
	states := make(chan State, 1)
	sub, err := cl.Follow("r1", func(s State) {
		select {
		case states <- s:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	waitState(t, states)
	for _, v := range []struct{ verb, payload string }{{"query", "#ground"}, {"step", "1"}, {"snapshot", ""},
		{"set", `{"entity":"ground","component":"position","value":"0 1 0"}`}, {"http", `{"method":"GET","path":"/api/stats"}`}, {"play", ""}} {
		if _, err := cl.Ask(ctx, "r1", v.verb, []byte(v.payload)); err != nil {
			t.Errorf("operator: %s: %v", v.verb, err)
		}
	}
	if ls, err := cl.List(ctx); err != nil || len(ls) != 2 || !ls[0].Live {
		t.Errorf("operator: list: %+v %v", ls, err)
	}
	if hs, err := cl.Hosts(ctx); err != nil || len(hs) != 1 {
		t.Errorf("operator: hosts: %+v %v", hs, err)
	}
	p, err := NewProxy(op.nc, "", ProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	chunkLimit = 1024 // the scene in parts: a stream, acknowledged on its control subject
	defer func() { chunkLimit = 0 }()
	if body := proxyGet(t, p, "r1", "/api/scene"); !strings.Contains(body, "ground") {
		t.Errorf("operator: the scene through a proxy: %.200s", body)
	}
	// r2 quarantined (as after a failure), then resumed by the operator.
	o := h.owned["r2"]
	o.mu.Lock()
	h.quarantine(ctx, o.e, "a test")
	o.mu.Unlock()
	_ = h.local.Stop("r2")
	if _, err := cl.Resume(ctx, "r2"); err != nil {
		t.Errorf("operator: resume: %v", err)
	}
	eventually(t, 10*time.Second, func() string { // the host resumes it from its snapshot
		if _, err := cl.Ask(ctx, "r2", "info", nil); err != nil {
			return "r2 after its resume: " + err.Error()
		}
		return ""
	})
	if err := cl.Destroy(ctx, "r2"); err != nil {
		t.Errorf("operator: destroy: %v", err)
	}
	op.clean("creating, asking, listing, following, resuming and destroying rooms")
}

// observerMay: the observer lists the rooms and hosts, asks them what
// reads, follows their state.
func observerMay(t *testing.T, obs *roleConn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cl, err := NewClient(ctx, obs.nc, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct{ verb, payload string }{{"info", ""}, {"query", "#ground"}, {"get", "ground"}, {"scene", ""}, {"stats", ""}, {"components", ""}} {
		if _, err := cl.Ask(ctx, "r1", v.verb, []byte(v.payload)); err != nil {
			t.Errorf("observer: %s: %v", v.verb, err)
		}
	}
	if ls, err := cl.List(ctx); err != nil || len(ls) == 0 || !ls[0].Live {
		t.Errorf("observer: list: %+v %v", ls, err)
	}
	got := make(chan State, 1)
	sub, err := cl.Follow("r1", func(s State) {
		select {
		case got <- s:
		default:
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	waitState(t, got)
	obs.clean("listing, reading and following rooms")
}

// mayNot: what neither the operator nor the observer may do: write the
// directory, the hosts' heartbeats or the snapshots, delete the buckets,
// publish a room's state, answer for a room or a host. The observer may
// not change rooms either.
func mayNot(t *testing.T, c *roleConn, h *Host) {
	t.Helper()
	js, err := jetstream.New(c.nc)
	if err != nil {
		t.Fatal(err)
	}
	entry, _ := json.Marshal(Entry{ID: "r1", Host: "elsewhere"})
	c.denied("write the directory", "$KV.scenecs_rooms", func(ctx context.Context) error {
		_, err := js.Publish(ctx, "$KV.scenecs_rooms.r1", entry)
		return err
	})
	c.denied("beat as a host", "$KV.scenecs_hosts", func(ctx context.Context) error {
		_, err := js.Publish(ctx, "$KV.scenecs_hosts.fake", []byte(`{"id":"fake"}`))
		return err
	})
	c.denied("write a snapshot", "$O.scenecs_snapshots", func(ctx context.Context) error {
		_, err := js.Publish(ctx, "$O.scenecs_snapshots.C.poison", []byte("{}"))
		return err
	})
	c.denied("read a snapshot", "$JS.API.CONSUMER", func(ctx context.Context) error {
		_, err := js.CreateConsumer(ctx, "OBJ_scenecs_snapshots", jetstream.ConsumerConfig{})
		return err
	})
	c.denied("delete the directory", "$JS.API.STREAM.DELETE", func(ctx context.Context) error {
		return js.DeleteStream(ctx, "KV_scenecs_rooms")
	})
	c.denied("publish a room's state", "scenecs.state", func(ctx context.Context) error {
		if err := c.nc.Publish("scenecs.state.r1", []byte(`{"id":"r1","tick":-1}`)); err != nil {
			return err
		}
		<-ctx.Done() // a publish is refused asynchronously
		return ctx.Err()
	})
	for _, subj := range []string{"scenecs.room.r1.query", "scenecs.rooms.create", "scenecs.host.h0.create"} {
		c.denied("answer on "+subj, subj, func(ctx context.Context) error {
			if _, err := c.nc.Subscribe(subj, func(*nats.Msg) {}); err != nil {
				return err
			}
			err := c.nc.FlushWithContext(ctx)
			if err == nil {
				<-ctx.Done() // the refusal comes asynchronously
				err = ctx.Err()
			}
			return err
		})
	}
	if c.role != "observer" {
		return
	}
	cl, err := NewClient(context.Background(), c.nc, "")
	if err != nil {
		t.Fatal(err)
	}
	c.denied("create a room", "scenecs.rooms.create", func(ctx context.Context) error {
		_, err := cl.Create(ctx, CreateRequest{ID: "mine", Scene: "rain.yaml"})
		return err
	})
	c.denied("resume a room", "scenecs.rooms.resume", func(ctx context.Context) error {
		_, err := cl.Resume(ctx, "r1")
		return err
	})
	for _, verb := range []string{"set", "emit", "step", "pause", "play", "http", "serve", "snapshot", "destroy"} {
		c.denied(verb+" a room", "scenecs.room.r1."+verb, func(ctx context.Context) error {
			_, err := cl.Ask(ctx, "r1", verb, []byte("{}"))
			return err
		})
	}
	if h.Local().Room("r1") == nil {
		t.Error("room r1 is gone")
	}
}

// waitState waits for a state on c.
func waitState(t *testing.T, c <-chan State) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatal("no state in 10 s")
	}
}

// proxyGet answers GET target of room id through p.
func proxyGet(t *testing.T, p *Proxy, id, target string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	p.ServeRoom(rec, httptest.NewRequest("GET", target, nil), id)
	if rec.Code != 200 {
		t.Fatalf("GET %s of %s through a proxy: %d %s", target, id, rec.Code, rec.Body.String())
	}
	return rec.Body.String()
}
