package schedule

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// recorder logs what test nodes ran, from any goroutine.
type recorder struct {
	mu  sync.Mutex
	log []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, s)
}

// take returns the log so far, " | "-joined, and empties it.
func (r *recorder) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := strings.Join(r.log, " | ")
	r.log = nil
	return s
}

// testNode is a node of the tests: it logs its name (name.tock for its
// tock) when it runs, or calls run.
type testNode struct {
	info     Info
	rec      *recorder
	notReady bool
	run      func(u *Unit)
	rows     *ecs.Filter // what a chunked node splits
}

func (n *testNode) Info() Info  { return n.info }
func (n *testNode) Ready() bool { return !n.notReady }

func (n *testNode) Split(size int, dst []Chunk) []Chunk {
	for _, c := range n.rows.Chunks(size, nil) {
		dst = append(dst, Chunk{Rows: c})
	}
	return dst
}

func (n *testNode) Run(u *Unit) {
	if n.run != nil {
		n.run(u)
		return
	}
	name := n.info.Name
	if u.Tock {
		name += ".tock"
	}
	n.rec.add(name)
}

// testHost is the host of the tests: the World's components, errors
// kept, Begin and End logged, Start as set.
type testHost struct {
	w        *ecs.World
	mu       sync.Mutex
	errs     []error
	calls    []string
	paused   bool
	startErr error
}

func (h *testHost) ComponentIDs(name string) ([]ecs.ID, bool) {
	id, ok := h.w.ComponentID(name)
	if !ok {
		return nil, false
	}
	return []ecs.ID{id}, true
}

func (h *testHost) ComponentNames() []string {
	var out []string
	for id := range ecs.ID(64) {
		if n := h.w.ComponentName(id); n != "" {
			out = append(out, n)
		}
	}
	return out
}

func (h *testHost) Report(err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.errs = append(h.errs, err)
}

func (h *testHost) TakeErrors() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	err := errors.Join(h.errs...)
	h.errs = nil
	return err
}

func (h *testHost) Begin(what string) { h.calls = append(h.calls, "begin "+what) }
func (h *testHost) End()              { h.calls = append(h.calls, "end") }

func (h *testHost) Start() (bool, error) {
	h.calls = append(h.calls, "start")
	return !h.paused, h.startErr
}

// newTest returns a schedule over a new World with the components
// comps registered, its host and a recorder.
func newTest(t testing.TB, comps ...string) (*Schedule, *testHost, *recorder) {
	t.Helper()
	w := ecs.NewWorld()
	for _, c := range comps {
		if _, err := ecs.Register[float64](w, c); err != nil {
			t.Fatal(err)
		}
	}
	h := &testHost{w: w}
	return New(w, h), h, &recorder{}
}

// add adds a logging node: a system (or a component, comp) that ticks,
// and tocks if tock.
func add(t testing.TB, s *Schedule, rec *recorder, name string, comp, tock bool, set Settings) *testNode {
	t.Helper()
	n := &testNode{info: Info{Name: name, Tick: true, Tock: tock, Settings: set}, rec: rec}
	if comp {
		n.info.Kind = KindComponent
	}
	must(t, s.Add(n))
	return n
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// entryNames returns the schedule's entry names in run order.
func entryNames(t *testing.T, s *Schedule) string {
	t.Helper()
	infos, err := s.Systems()
	must(t, err)
	var out []string
	for _, si := range infos {
		out = append(out, si.Name)
	}
	return strings.Join(out, " ")
}
