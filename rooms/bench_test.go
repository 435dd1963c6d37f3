package rooms

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/cputime"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

// BenchmarkTickCrowd is the baseline of BenchmarkRoomsHeld: one tick of
// crowd.yaml (500 entities) on a Registry of the benchmark's own, no room.
func BenchmarkTickCrowd(b *testing.B) {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		b.Fatal(err)
	}
	if _, err := loader.Load(reg, rainFS, "crowd.yaml", loader.Options{}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := reg.Tick(1.0 / 30); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoomsHeld runs N rooms of crowd.yaml at 30 ticks/s for 2 s
// per iteration and reports the ticks each room ran per second (the rate
// held: 30 if every room kept its rate), the slowest room's, and the CPU
// the process used meanwhile, in cores.
func BenchmarkRoomsHeld(b *testing.B) {
	for _, n := range []int{200, 1000} {
		b.Run(fmt.Sprintf("rooms=%d", n), func(b *testing.B) {
			h := NewHost(HostOptions{})
			defer h.Close()
			rs := make([]*Room, n)
			for i := range rs {
				r, err := h.Create(context.Background(), Spec{ID: fmt.Sprintf("c%03d", i), FS: rainFS, File: "crowd.yaml", Hz: 30})
				if err != nil {
					b.Fatal(err)
				}
				rs[i] = r
			}
			time.Sleep(500 * time.Millisecond) // all rooms started
			b.ResetTimer()
			var mean, slowest, cores float64
			for i := 0; i < b.N; i++ {
				t0 := make([]int64, n)
				for j, r := range rs {
					t0[j] = r.Tick()
				}
				start, cpu0 := time.Now(), cputime.Process()
				time.Sleep(2 * time.Second)
				el := time.Since(start).Seconds()
				cores = (cputime.Process() - cpu0).Seconds() / el
				sum, low := 0.0, 1e9
				for j, r := range rs {
					rate := float64(r.Tick()-t0[j]) / el
					sum += rate
					low = min(low, rate)
				}
				mean, slowest = sum/float64(n), low
			}
			b.ReportMetric(mean, "ticks/s/room")
			b.ReportMetric(slowest, "slowest-ticks/s")
			b.ReportMetric(cores, "cores")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkSnapshot10k: a room's snapshot of the embedded cubes.yaml at
// 10,003 entities, end to end (Room.Snapshot), and the part of it on the
// room's goroutine (on-the-room: the capture of the values, between two
// ticks; the dump is written from it on the caller's goroutine), against
// the existing JSON dump of the same World written on the room's
// goroutine (export.WriteJSON, through Room.Do), in the same run.
func BenchmarkSnapshot10k(b *testing.B) {
	h := NewHost(HostOptions{})
	defer h.Close()
	r, err := h.Create(context.Background(), Spec{ID: "cubes", FS: scenes.FS, File: "cubes.yaml", Hz: 30})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("snapshot", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := r.Snapshot(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("on-the-room", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = r.Do(context.Background(), func(reg *registry.Registry) error {
				_, _, err := r.capture()
				return err
			})
		}
	})
	b.Run("json-dump", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			_ = r.Do(context.Background(), func(reg *registry.Registry) error {
				var w discard
				return export.WriteJSON(&w, reg, export.Options{})
			})
		}
	})
}

type discard struct{ n int }

func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }
