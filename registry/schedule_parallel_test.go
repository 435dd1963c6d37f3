package registry

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

type pval struct {
	X float64 `scene:"x"`
	N int     `scene:"n"`
}

// parallelScene is a Registry with components a, b, c, d, e (pval) and
// a tag t on n entities, four declared systems that each write one of a
// to d and make structural changes and events through their Commands, a
// chunked system over e and a chunked component tick: a tick's outcome
// must not depend on the number of workers.
func parallelScene(t testing.TB, n, workers int) (*Registry, *[]string) {
	t.Helper()
	w := ecs.NewWorld()
	r := New(w)
	ids := map[string]ecs.ID{}
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		c, err := Register(r, name, Definition[pval]{})
		must(t, err)
		ids[name] = c.ID
	}
	tag, err := r.Declare("t", mustSchema(t, r))
	must(t, err)
	log := &[]string{}
	var mu sync.Mutex // listeners run at sync points, one at a time; the lock proves nothing races
	for i := range n {
		e := w.NewEntity(ids["a"], ids["b"], ids["c"], ids["d"], ids["e"])
		for _, name := range []string{"a", "b", "c", "d", "e"} {
			p := ecs.NewMap[pval](w, ids[name]).Get(e)
			p.X, p.N = float64(i%97)/7, i
		}
		if i%5 == 0 {
			must(t, w.Add(e, tag.ID))
		}
		r.Events().On(e, "ping", func(ev *Event) {
			mu.Lock()
			*log = append(*log, fmt.Sprintf("ping %d %v", ev.Target.Index(), ev.Detail))
			mu.Unlock()
		})
	}
	for k, name := range []string{"a", "b", "c", "d"} {
		id := ids[name]
		var f *ecs.Filter
		_, err := RegisterSystem(r, "sys-"+name, SystemDefinition[struct{}]{
			Access: &Access{Reads: []string{"e"}, Writes: []string{name}},
			Init:   func(s *SystemContext, _ *struct{}) { f = ecs.NewFilter(s.World, ecs.With(id)) },
			Tick: func(s *SystemContext, _ *struct{}) {
				q := s.Query(f)
				for q.NextTable() {
					vs := ecs.Column[pval](&q, id)
					es := ecs.Column[pval](&q, ids["e"])
					for i := range vs {
						vs[i].X = math.Sin(vs[i].X+es[i].X) * float64(k+1)
						vs[i].N++
						switch {
						case k == 0 && vs[i].N%251 == 0:
							s.Commands().Destroy(q.EntityAt(i))
						case k == 1 && vs[i].N%173 == 0:
							s.Emit(q.EntityAt(i), "ping", vs[i].N, false)
						case k == 2 && vs[i].N%311 == 0:
							s.Commands().Add(q.EntityAt(i), tag.ID)
						case k == 3 && vs[i].N%199 == 0:
							x := vs[i].X
							s.Commands().Defer(func(w *ecs.World) {
								ne := w.NewEntity(ids["a"], ids["e"])
								ecs.NewMap[pval](w, ids["a"]).Get(ne).X = x
							})
						}
					}
				}
			},
		})
		must(t, err)
	}
	eID := ids["e"]
	_, err = RegisterSystem(r, "chunked-e", SystemDefinition[struct{}]{
		Phase:     PhasePreUpdate,
		Access:    &Access{Writes: []string{"e"}},
		ChunkSize: 512,
		Query:     func(s *SystemContext, _ *struct{}) *ecs.Filter { return ecs.NewFilter(s.World, ecs.With(eID)) },
		Each: func(s *SystemContext, _ *struct{}, q *ecs.Query) {
			for q.NextTable() {
				es := ecs.Column[pval](q, eID)
				for i := range es {
					es[i].X = math.Cos(es[i].X) + s.Delta
					if es[i].N++; es[i].N%401 == 0 {
						s.Emit(q.EntityAt(i), "ping", "e", false)
					}
				}
			}
		},
	})
	must(t, err)
	r.Schedule().SetWorkers(workers)
	r.Schedule().SetSplitThreshold(0) // parallel whatever the work
	return r, log
}

func mustSchema(t testing.TB, r *Registry) *Schema {
	s, err := schema.NewSchema(nil, r.Types())
	must(t, err)
	return s
}

// worldDigest hashes every live entity (in document order) with its
// components' values.
func worldDigest(r *Registry) string {
	h := fnv.New64a()
	for e := range r.World().All() {
		fmt.Fprintf(h, "%d:", e.Index())
		for _, name := range r.EntityComponents(e) {
			vs, _ := r.Values(e, name)
			fmt.Fprintf(h, "%s=%v;", name, vs)
		}
	}
	return fmt.Sprintf("%x/%d", h.Sum64(), r.World().Len())
}

// TestParallelScheduleIsDeterministic: the same ticks with 1, 2 and 4
// workers give the same World and the same events, bit for bit, while the
// batches really run in parallel (go test -race checks that they do not
// share what they write).
func TestParallelScheduleIsDeterministic(t *testing.T) {
	var want, wantLog string
	for _, workers := range []int{1, 2, 4} {
		r, log := parallelScene(t, 3000, workers)
		for range 20 {
			must(t, r.Tick(1.0/60))
		}
		got, gotLog := worldDigest(r), strings.Join(*log, "\n")
		if workers == 1 {
			want, wantLog = got, gotLog
			if len(*log) < 10 || r.World().Len() == 3000 {
				t.Fatalf("the scene does too little: %d events, %d entities", len(*log), r.World().Len())
			}
			infos, err := r.Schedule().Systems()
			must(t, err)
			if infos[1].Batch != infos[4].Batch || infos[1].Phase != PhaseUpdate {
				t.Fatalf("the four systems are not one batch: %+v", infos)
			}
			continue
		}
		if got != want {
			t.Errorf("%d workers: World %s, 1 worker %s", workers, got, want)
		}
		if gotLog != wantLog {
			t.Errorf("%d workers: events differ", workers)
		}
	}
}

// TestParallelBatchRunsAtOnce: two systems of one batch wait for each
// other, which only works if they run at the same time (on two
// processors: with GOMAXPROCS 1 a batch runs on the calling goroutine).
func TestParallelBatchRunsAtOnce(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS 1: batches run on the calling goroutine")
	}
	_, r := newTestRegistry(t)
	started := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	met := [2]bool{}
	for i := range 2 {
		_, err := RegisterSystem(r, fmt.Sprintf("s%d", i), SystemDefinition[struct{}]{
			Access: &Access{},
			Tick: func(*SystemContext, *struct{}) {
				close(started[i])
				select {
				case <-started[1-i]:
					met[i] = true
				case <-time.After(10 * time.Second):
				}
			},
		})
		must(t, err)
	}
	r.Schedule().SetWorkers(2)
	r.Schedule().SetSplitThreshold(0)
	must(t, r.Tick(0.1))
	if !met[0] || !met[1] {
		t.Errorf("the two systems did not run at once: %v", met)
	}
}

// TestParallelMisuseIsRefused: a system under the parallel rules that
// changes the World, emits directly, queries by selector, or reads a
// column it did not declare panics with a message saying so, which Tick
// returns as a *PanicError naming the system, with one worker as with
// several; the World is usable afterwards.
func TestParallelMisuseIsRefused(t *testing.T) {
	for _, workers := range []int{1, 2} {
		for _, c := range []struct {
			name, want string
			fn         func(s *SystemContext, e ecs.Entity, other ecs.ID, f *ecs.Filter)
		}{
			{"Add", "ecs: Add while the World is frozen", func(s *SystemContext, e ecs.Entity, other ecs.ID, _ *ecs.Filter) { _ = s.World.Add(e, other) }},
			{"Destroy", "ecs: Destroy while the World is frozen", func(s *SystemContext, e ecs.Entity, _ ecs.ID, _ *ecs.Filter) { _ = s.World.Destroy(e) }},
			{"Set", "ecs: SetPtr while the World is frozen", func(s *SystemContext, e ecs.Entity, _ ecs.ID, _ *ecs.Filter) { _ = s.Registry.Set(e, "mine", "n: 3") }},
			{"Emit", "events: Events.Emit from a system running under the parallel rules", func(s *SystemContext, e ecs.Entity, _ ecs.ID, _ *ecs.Filter) {
				s.Registry.Events().Emit(e, "x", nil, false)
			}},
			{"QueryAll", "registry: a selector query from a system running under the parallel rules", func(s *SystemContext, _ ecs.Entity, _ ecs.ID, _ *ecs.Filter) { _, _ = s.Registry.QueryAll("[mine]") }},
			{"Column", `component "other" is not among the components this query may use`, func(s *SystemContext, _ ecs.Entity, other ecs.ID, f *ecs.Filter) {
				q := s.Query(f)
				defer q.Close()
				q.NextTable()
				_ = ecs.Column[pval](&q, other)
			}},
		} {
			w, r := newTestRegistry(t)
			mine, err := Register(r, "mine", Definition[pval]{})
			must(t, err)
			other, err := Register(r, "other", Definition[pval]{})
			must(t, err)
			e := w.NewEntity(mine.ID, other.ID)
			f := ecs.NewFilter(w, ecs.With(mine.ID))
			once := true
			for i := range 2 {
				_, err := RegisterSystem(r, fmt.Sprintf("s%d", i), SystemDefinition[struct{}]{
					Access: &Access{Writes: []string{"mine"}[i:]},
					Tick: func(s *SystemContext, _ *struct{}) {
						if i == 0 && once {
							once = false
							c.fn(s, e, other.ID, f)
						}
					},
				})
				must(t, err)
			}
			r.Schedule().SetWorkers(workers)
			r.Schedule().SetSplitThreshold(0)
			var pe *PanicError
			if err := r.Tick(0.1); !errors.As(err, &pe) || pe.Name != "s0" || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%d workers, %s: Tick: %v, want s0's panic %q", workers, c.name, err, c.want)
			}
			if w.Frozen() || w.Locked() {
				t.Errorf("%s: World left frozen or locked", c.name)
			}
			if err := r.Tick(0.1); err != nil || !w.Has(e, other.ID) {
				t.Errorf("%s: next tick: %v", c.name, err)
			}
		}
	}
}

// TestParallelPanicIsAnError: a panic in one system of a parallel batch
// is Tick's error (a *PanicError naming it) once the others finished;
// its commands are dropped, the others' applied, whatever the workers,
// and the World is thawed.
func TestParallelPanicIsAnError(t *testing.T) {
	for _, workers := range []int{1, 3} {
		w, r := newTestRegistry(t)
		c, err := Register(r, "v", Definition[pval]{})
		must(t, err)
		var es []ecs.Entity
		for i := range 3 {
			e := w.NewEntity(c.ID)
			es = append(es, e)
			_, err := RegisterSystem(r, fmt.Sprintf("s%d", i), SystemDefinition[struct{}]{
				Access: &Access{},
				Tick: func(s *SystemContext, _ *struct{}) {
					s.Commands().Destroy(e)
					if i == 1 {
						panic("boom in s1")
					}
				},
			})
			must(t, err)
		}
		r.Schedule().SetWorkers(workers)
		r.Schedule().SetSplitThreshold(0)
		var pe *PanicError
		if err := r.Tick(0.1); !errors.As(err, &pe) || pe.Name != "s1" || pe.Value != "boom in s1" {
			t.Errorf("%d workers: Tick: %v", workers, err)
		}
		if w.Alive(es[0]) || !w.Alive(es[1]) || w.Alive(es[2]) || w.Frozen() {
			t.Errorf("%d workers: after the panic: alive %v %v %v, frozen %v", workers, w.Alive(es[0]), w.Alive(es[1]), w.Alive(es[2]), w.Frozen())
		}
	}
}

// TestChunkedSystemsAndTicks: a chunked system's Each and a chunked
// component tick see every row once, in chunks of at most ChunkSize; the
// chunks' commands apply in chunk order, so the result does not depend
// on the workers; bad definitions are refused.
func TestChunkedSystemsAndTicks(t *testing.T) {
	run := func(workers int) (string, []int) {
		w, r := newTestRegistry(t)
		c, err := Register(r, "v", Definition[pval]{
			Access:    &Access{},
			ChunkSize: 64,
			TickColumn: func(cx *Context, vs []pval) {
				if len(vs) > 64 {
					panic("chunk too big")
				}
				for i := range vs {
					vs[i].N += 10
					if vs[i].N%7 == 0 {
						cx.Commands().MarkChanged(cx.EntityAt(i), cx.ID)
					}
				}
			},
		})
		must(t, err)
		var order []int
		var mu sync.Mutex
		sizes := map[int]bool{}
		_, err = RegisterSystem(r, "each", SystemDefinition[struct{}]{
			Phase:     PhasePreUpdate,
			Access:    &Access{Writes: []string{"v"}},
			ChunkSize: 100,
			Query:     func(s *SystemContext, _ *struct{}) *ecs.Filter { return ecs.NewFilter(s.World, ecs.With(c.ID)) },
			Each: func(s *SystemContext, _ *struct{}, q *ecs.Query) {
				for q.NextTable() {
					mu.Lock()
					sizes[q.Len()] = true
					mu.Unlock()
					vs := ecs.Column[pval](q, c.ID)
					for i := range vs {
						vs[i].N++
						n := vs[i].N
						s.Commands().Defer(func(*ecs.World) { order = append(order, n) })
					}
				}
			},
		})
		must(t, err)
		for i := range 1050 {
			e := w.NewEntity(c.ID)
			ecs.NewMap[pval](w, c.ID).Get(e).N = i * 100
		}
		r.Schedule().SetWorkers(workers)
		r.Schedule().SetSplitThreshold(0)
		must(t, r.Tick(0.1))
		if len(order) != 1050 || len(sizes) != 2 || !sizes[100] || !sizes[50] {
			t.Fatalf("%d workers: %d rows, chunk sizes %v", workers, len(order), sizes)
		}
		return worldDigest(r), order
	}
	d1, o1 := run(1)
	d3, o3 := run(3)
	if d1 != d3 || fmt.Sprint(o1) != fmt.Sprint(o3) {
		t.Error("chunked runs differ between 1 and 3 workers")
	}
	for i, n := range o1 {
		if n != i*100+1 {
			t.Fatalf("commands out of chunk order at %d: %d", i, n)
		}
	}
	_, r := newTestRegistry(t)
	each := func(*SystemContext, *struct{}, *ecs.Query) {}
	query := func(*SystemContext, *struct{}) *ecs.Filter { return nil }
	for _, bad := range []SystemDefinition[struct{}]{
		{Each: each, Query: query},
		{Each: each, Query: query, Access: &Access{Exclusive: true}},
		{Each: each, Access: &Access{}},
		{Each: each, Query: query, Access: &Access{}, Tick: func(*SystemContext, *struct{}) {}},
		{Each: each, Query: query, Access: &Access{}, ChunkSize: -1},
	} {
		if _, err := RegisterSystem(r, "bad", bad); err == nil {
			t.Errorf("accepted %+v", bad)
		}
	}
	if _, err := Register(r, "badc", Definition[pval]{ChunkSize: 8}); err == nil {
		t.Error("a chunked tick without Access accepted")
	}
}

// TestShuffleExposesOrderDependence: two undeclared systems, the second
// reading what the first writes, give another result when a shuffle seed
// reorders them: the test mode's purpose.
func TestShuffleExposesOrderDependence(t *testing.T) {
	results := map[string]bool{}
	for seed := range uint64(8) {
		_, r := newTestRegistry(t)
		x, log := 0, ""
		_, err := RegisterSystem(r, "writer", SystemDefinition[struct{}]{Tick: func(*SystemContext, *struct{}) { x++ }})
		must(t, err)
		_, err = RegisterSystem(r, "reader", SystemDefinition[struct{}]{Tick: func(*SystemContext, *struct{}) { log += fmt.Sprint(x) }})
		must(t, err)
		r.Schedule().SetShuffle(seed)
		must(t, r.Tick(0.1))
		results[log] = true
	}
	if !results["1"] || !results["0"] {
		t.Errorf("shuffles gave %v, want both orders", results)
	}
}
