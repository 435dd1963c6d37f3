package inspect

import (
	"bufio"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

func loadCubes(b testing.TB) *registry.Registry {
	b.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		b.Fatal(err)
	}
	if _, err := loader.Load(reg, scenes.FS, "cubes.yaml", loader.Options{}); err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkInspectedCubes ticks two copies of the 10,000-cube scene in
// turn: one bare (Registry.Tick), one through an Inspector (Tick: drain,
// tick, observe) with one client streaming events over HTTP. Interleaving
// the two in one run (alternating which goes first) exposes both to the
// same machine load. It reports the ticks per second of each, from the
// median tick time (robust against a tick descheduled on a busy machine),
// and their ratio, inspected / bare: 1 means no cost.
func BenchmarkInspectedCubes(b *testing.B) {
	bare, inspected := loadCubes(b), loadCubes(b)
	in := New(inspected, Options{})
	srv := httptest.NewServer(in)
	defer srv.Close()
	defer in.Close()
	res, err := srv.Client().Get(srv.URL + "/api/events")
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	first := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(res.Body)
		seen := false
		for sc.Scan() {
			if !seen && strings.HasPrefix(sc.Text(), "event: stats") {
				close(first)
				seen = true
			}
		}
	}()
	select {
	case <-first:
	case <-time.After(10 * time.Second):
		b.Fatal("the client received no stats event")
	}
	const dt = 1.0 / 60
	tBare := make([]time.Duration, 0, b.N)
	tInsp := make([]time.Duration, 0, b.N)
	tick := func(inspect bool) {
		t0 := time.Now()
		var err error
		if inspect {
			err = in.Tick(dt)
		} else {
			err = bare.Tick(dt)
		}
		d := time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if inspect {
			tInsp = append(tInsp, d)
		} else {
			tBare = append(tBare, d)
		}
	}
	b.ResetTimer()
	for i := range b.N {
		// Alternate which goes first, against order effects (caches).
		tick(i%2 == 1)
		tick(i%2 == 0)
	}
	b.StopTimer()
	if s := in.Stats(); s.Ticks != uint64(b.N) || s.Entities != inspected.World().Len() {
		b.Fatalf("stats %+v after %d ticks", s, b.N)
	}
	slices.Sort(tBare)
	slices.Sort(tInsp)
	mb, mi := tBare[len(tBare)/2], tInsp[len(tInsp)/2]
	b.ReportMetric(1/mb.Seconds(), "bare-ticks/s")
	b.ReportMetric(1/mi.Seconds(), "inspected-ticks/s")
	b.ReportMetric(mb.Seconds()/mi.Seconds(), "ratio")
	b.ReportMetric(0, "ns/op")
}
