package main

import (
	"flag"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var flood = flag.Bool("flood", false, "TestFloodMeasure measures the ticks/s of the cube scene with and without clients flooding the inspector")

// TestFloodMeasure measures, with -flood, what four clients looping on
// the inspector's reads cost the simulation of the 10,000-cube scene run
// by `scene-run run -inspect` (paced at 60 ticks a second, the default,
// then flat out): ticks/s in windows alternating without and with the
// flood, in one run, their medians and ratio. The floods: GET /api/scene
// (5 MB of JSON each), and every read endpoint in turn. It fails if a
// flood keeps less than 90% of the ticks/s.
//
//	go test ./cmd/scene-run -run TestFloodMeasure -v -args -flood
func TestFloodMeasure(t *testing.T) {
	if !*flood {
		t.Skip("measures only with -args -flood")
	}
	floods := map[string][]string{
		"scene": {"/api/scene"},
		"reads": {"/api/scene", "/api/tree", "/api/query?selector=*&full=1", "/api/transforms", "/api/colors", "/api/query?selector=%5Bcube%5D", "/api/components", "/api/entities/cubes"},
	}
	for _, realtime := range []string{"-realtime=true", "-realtime=false"} {
		for _, name := range []string{"scene", "reads"} {
			t.Run(name+realtime, func(t *testing.T) {
				quiet, flooded, answers := measureFlood(t, []string{"run", "-inspect", "127.0.0.1:0", realtime}, floods[name], 5, 3*time.Second)
				mq, mf := median(quiet), median(flooded)
				t.Logf("%s %s: ticks/s without flood %.0f, with 4 clients looping on %v %.0f (%d answers)", name, realtime, quiet, floods[name], flooded, answers)
				t.Logf("%s %s: medians %.1f and %.1f ticks/s, ratio %.3f", name, realtime, mq, mf, mf/mq)
				if mf/mq < 0.9 {
					t.Errorf("the flood keeps %.0f%% of the ticks/s, want at least 90%%", 100*mf/mq)
				}
				if answers == 0 {
					t.Error("the flood got no answer")
				}
			})
		}
	}
}

// measureFlood starts scene-run with args and measures rounds windows of
// d without and then with the flood (four clients, each looping over
// paths); it returns the ticks/s of each window and how many answers the
// flood got.
func measureFlood(t *testing.T, args, paths []string, rounds int, d time.Duration) (quiet, flooded []float64, answers int64) {
	base, _, _, _, _ := startInspected(t, args...)
	rate := func() float64 { return tickRate(t, base, d) }
	var served atomic.Int64
	time.Sleep(2 * time.Second) // the scene settles
	for range rounds {
		quiet = append(quiet, rate())
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for c := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := c; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					res, err := http.Get(base + paths[i%len(paths)])
					if err != nil {
						continue
					}
					if n, _ := io.Copy(io.Discard, res.Body); n > 0 && res.StatusCode == http.StatusOK {
						served.Add(1)
					}
					res.Body.Close()
				}
			}()
		}
		time.Sleep(200 * time.Millisecond) // the flood is on
		flooded = append(flooded, rate())
		close(stop)
		wg.Wait()
	}
	return quiet, flooded, served.Load()
}
