package inspect

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/inspect/internal/slots"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Options configure an Inspector. Zero fields take defaults.
type Options struct {
	// Token is the secret that requests changing anything must carry
	// (Authorization: Bearer TOKEN, or ?token=TOKEN). Empty: a random
	// 128-bit hex token, made once per Inspector.
	Token string
	// Budget is how long one Drain may spend serving requests, and how
	// much of its allowance (see Share) it may save up. Default 2 ms.
	Budget time.Duration
	// Share is the part of wall time Drain may spend serving requests,
	// averaged: its allowance grows by Share of the time that passes (up
	// to Budget), and what it serves is taken from it (a request that
	// costs more than what is left is still finished, and repaid by the
	// Drains after). So a flood of requests costs the simulation at most
	// Share of its time, however long each takes. DrainUntil, for a loop
	// with time to spare until its next tick, is not bound by it.
	// Default 0.05.
	Share float64
	// MaxBody bounds the size of a request body in bytes; larger bodies
	// are refused with 413. Default 1 MiB.
	MaxBody int64
	// MaxQueue bounds the number of requests waiting for the simulation
	// goroutine; beyond it requests are refused at once with 503.
	// Default 1024.
	MaxQueue int
	// Scene, if not nil, is the loaded scene the Registry runs: entities
	// then report the file position they come from. Optional; default
	// Reloader.Scene.
	Scene *live.Scene
	// Reloader, if not nil, is the scene's Reloader: changes made with
	// ?save=1 are then also written into the scene's files (see
	// docs/inspector.md, "Save-back"), and the scene is brought up to
	// date with them. It is used on the simulation goroutine only (in
	// Drain), as the program's own reloads are. Without it ?save=1 is
	// answered 501.
	Reloader *live.Reloader
	// Limits are the limits scene files are read with (zero fields take
	// scenefile.DefaultLimits; default: Reloader.Options.Limits). POST
	// /api/entities refuses to nest entities deeper than MaxDepth or to
	// make the World hold more than MaxEntities, so that whatever the API
	// builds dumps to a file that loads back.
	Limits scenefile.Limits
	// Timeouts bound how long a client may hold a connection (see
	// Timeouts); zero fields take DefaultTimeouts. Listen's server uses
	// them, and so do the streams' per-write deadlines.
	Timeouts Timeouts
	// Behaviour, if not nil, tells entities' running behaviour (the
	// built-ins of package components the Registry runs do:
	// *components.Builtins): GET /api/entities/REF then reports the
	// entity's running animations, timers, handlers (on) and bindings
	// (bind).
	Behaviour Behaviours
	// Hosts are extra Host header values accepted besides the server's
	// own address and the loopback names with its port: "name:port" for
	// exactly that, or "name" for any port. Needed when a program
	// mounts the Inspector on a server reached under another name.
	Hosts []string
	// Journal, if not nil, receives every change made through the API
	// as a JSON line (JournalLine), for Replay: see docs/inspector.md.
	// It is written on the simulation goroutine.
	Journal io.Writer
	// MaxHistoryBytes bounds what the history of changes (undo, redo)
	// holds: the values the changes replaced, the snapshots of the
	// entities they destroyed, the bytes of the files they saved. The
	// oldest changes go first; it also keeps at most
	// editor.DefaultMaxHistory of them. Default
	// editor.DefaultMaxHistoryBytes (64 MiB).
	MaxHistoryBytes int64
}

// Defaults of Options.
const (
	DefaultBudget   = 2 * time.Millisecond
	DefaultShare    = 0.05
	DefaultMaxBody  = 1 << 20
	DefaultMaxQueue = 1024
)

// maxStreams bounds the number of event streams open at once.
const maxStreams = 64

// Inspector serves one Registry over HTTP. Create it with New. ServeHTTP,
// Listen, Stats, Wake and Close may be called from any goroutine; Drain,
// Tick, ShouldTick, Observe and Reloaded only from the goroutine that
// runs the simulation, between ticks.
type Inspector struct {
	reg   *registry.Registry
	w     *ecs.World
	opt   Options
	token string

	mux       *http.ServeMux // the endpoints (routes), behind ServeHTTP's checks
	queue     chan *work
	wake      chan struct{}
	closed    chan struct{}
	closeOnce sync.Once

	mu          sync.Mutex
	listenHosts []string // "name:port" of Listen addresses given by name

	stats    statsRing
	hub      hub
	timeouts Timeouts // Options.Timeouts with defaults
	// The slots of the open event and transform streams (slots.go).
	eventSlots, transformSlots *slots.Set
	// statsEvery is the interval of stats events on a stream.
	statsEvery time.Duration
	// sysTimesAt is when Observe last refreshed the per-system times.
	sysTimesAt time.Time

	// encoders bounds the large answers (dumps) being formatted at once,
	// off the simulation goroutine, so that they leave a core to it.
	encoders chan struct{}
	// shared are the reads waiting in the queue, not yet begun, by key
	// (work.key): an identical read joins one instead of queueing.
	shareMu sync.Mutex
	shared  map[string]*work

	// The simulation goroutine's own state.
	paused bool
	steps  int
	allow  allowance // Drain's (Options.Share)
	cur    *work     // a request served in steps, begun and not done
	log    eventLog  // the event log's budgets, and its tap

	// ed makes the changes asked through the API (edit.go), keeps
	// their history and writes the journal.
	ed *editor.Editor
}

// New returns an Inspector serving reg. It starts no goroutine and
// listens nowhere: mount it, or call Listen.
func New(reg *registry.Registry, opt Options) *Inspector {
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	if opt.Share <= 0 || opt.Share > 1 {
		opt.Share = DefaultShare
	}
	if opt.MaxBody <= 0 {
		opt.MaxBody = DefaultMaxBody
	}
	if opt.MaxQueue <= 0 {
		opt.MaxQueue = DefaultMaxQueue
	}
	if opt.Scene == nil && opt.Reloader != nil {
		opt.Scene = opt.Reloader.Scene
	}
	if opt.Limits == (scenefile.Limits{}) && opt.Reloader != nil {
		opt.Limits = opt.Reloader.Options.Limits
	}
	def := scenefile.DefaultLimits()
	if opt.Limits.MaxDepth <= 0 {
		opt.Limits.MaxDepth = def.MaxDepth
	}
	if opt.Limits.MaxEntities <= 0 {
		opt.Limits.MaxEntities = def.MaxEntities
	}
	tok := opt.Token
	if tok == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			panic("inspect: no randomness for the token: " + err.Error())
		}
		tok = hex.EncodeToString(b[:])
	}
	in := &Inspector{
		reg: reg, w: reg.World(), opt: opt, token: tok,
		queue:      make(chan *work, opt.MaxQueue),
		wake:       make(chan struct{}, 1),
		closed:     make(chan struct{}),
		statsEvery: 250 * time.Millisecond,
		timeouts:   opt.Timeouts.withDefaults(),
		encoders:   make(chan struct{}, 1),
		shared:     map[string]*work{},
	}
	in.eventSlots = slots.NewSet("event streams", maxStreams)
	in.transformSlots = slots.NewSet("transform streams", maxTransformStreams)
	in.stats.init(reg.World().Len())
	in.tapEvents()
	in.ed = editor.New(reg, editor.Options{
		Reloader: opt.Reloader, Limits: opt.Limits, Journal: opt.Journal, MaxHistoryBytes: opt.MaxHistoryBytes,
		Ticks: in.stats.ticksNow, Publish: in.hub.publish,
	})
	in.mux = in.routes()
	return in
}

// Token returns the token requests that change anything must carry.
func (in *Inspector) Token() string { return in.token }

// ShouldTick reports whether the program should tick now: true unless the
// inspector is paused; while paused, true once per step asked for with
// /api/step. Call it on the simulation goroutine, after Drain; a program
// that ticks itself calls Drain, then ShouldTick, then ticks and reports
// the tick's duration to Observe.
func (in *Inspector) ShouldTick() bool {
	if !in.paused {
		return true
	}
	if in.steps > 0 {
		in.steps--
		return true
	}
	return false
}

// Observe records that a tick took d, for the statistics. Call it on the
// simulation goroutine after each tick.
func (in *Inspector) Observe(d time.Duration) {
	now := time.Now()
	in.stats.record(now, d, in.w.Len(), in.reg.Time())
	in.observeSystems(now)
}

// Tick drains waiting requests, then ticks the Registry by dt unless the
// inspector is paused, timing the tick for the statistics. It returns
// what Registry.Tick returns (nil when it did not tick). A loop calling
// Tick should pace itself (a paused Tick returns at once); Wake helps.
func (in *Inspector) Tick(dt float64) error {
	in.Drain()
	if !in.ShouldTick() {
		return nil
	}
	t0 := time.Now()
	err := in.reg.Tick(dt)
	in.Observe(time.Since(t0))
	return err
}

// Wake returns a channel that receives a value after a request was
// queued: a loop that sleeps between ticks can select on it and Drain at
// once instead of at its next tick.
func (in *Inspector) Wake() <-chan struct{} { return in.wake }

// Reloaded publishes a hot reload to the event streams: its per-entity,
// per-property diff (d.Entries) or its errors (each file:line:col:
// message). Call it on the simulation goroutine right after the reload
// (or the failed attempt) with what Reloader.Reload or Scene.Apply
// returned; d may be nil when err is not.
func (in *Inspector) Reloaded(d *live.Diff, err error) {
	ev := reloadEvent{OK: err == nil}
	if d != nil {
		ev.Summary = d.Summary()
		ev.Entries, ev.More = capEntries(d.Entries(in.reg))
		ev.Warnings = d.Warnings
	}
	if err != nil {
		ev.Errors = editor.ErrorLines(err)
	}
	in.stats.setWorld(in.w.Len(), in.reg.Time())
	in.hub.publish("reload", ev)
	in.ed.Reloaded(d, err)
}

// reloadEvent is the data of a "reload" event.
type reloadEvent struct {
	OK       bool             `json:"ok"`
	Summary  string           `json:"summary,omitempty"`
	Entries  []live.DiffEntry `json:"entries,omitempty"`
	More     int              `json:"more,omitempty"`
	Warnings []string         `json:"warnings,omitempty"`
	Errors   []string         `json:"errors,omitempty"`
}

// maxEventEntries bounds the entries one event carries; More counts the
// others.
const maxEventEntries = 10000

func capEntries(es []live.DiffEntry) ([]live.DiffEntry, int) {
	if len(es) > maxEventEntries {
		return es[:maxEventEntries], len(es) - maxEventEntries
	}
	return es, 0
}

// Stats returns the current tick statistics. Safe from any goroutine.
func (in *Inspector) Stats() Stats {
	s := in.stats.snapshot(time.Now())
	s.Queue = in.waiting()
	s.Clients = in.hub.count()
	return s
}

// Close stops the Inspector: requests waiting or arriving get 503, event
// streams end. The World is left as it is. Listen closes the Inspector
// when its context ends.
func (in *Inspector) Close() {
	in.closeOnce.Do(func() { close(in.closed) })
}

// Listen serves the Inspector on addr (host:port; empty: 127.0.0.1:0, a
// free loopback port) until ctx ends, then closes the Inspector and shuts
// the server down. The server is NewServer's, with Options.Timeouts. It returns the URL to open, with the token:
// http://HOST:PORT/?token=TOKEN. A host left out or unspecified (":8080",
// "0.0.0.0:8080") listens on every interface and is shown as 127.0.0.1.
func (in *Inspector) Listen(ctx context.Context, addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("inspect: listen address %q: %v", addr, err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("inspect: %v", err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	shown := host
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		shown = "127.0.0.1"
	} else if ip == nil {
		in.mu.Lock()
		in.listenHosts = append(in.listenHosts, strings.ToLower(net.JoinHostPort(host, port)))
		in.mu.Unlock()
	}
	srv := NewServer(in, in.timeouts)
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		in.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			_ = srv.Close()
		}
	}()
	return "http://" + net.JoinHostPort(shown, port) + "/?token=" + url.QueryEscape(in.token), nil
}
