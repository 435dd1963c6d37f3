package scenerun

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// liveScene returns a YAML scene of n entities (n a multiple of 10): n/10
// roots with an id and a mixin, each with nine children. edit sets the x
// of a middle root's position, so scenes of different edits differ in
// one property.
func liveScene(n, edit int) []byte {
	var b strings.Builder
	b.Grow(n * 80)
	b.WriteString("mixins:\n")
	for i := range 10 {
		fmt.Fprintf(&b, "  m%d: {velocity: 0 %d 0}\n", i, i)
	}
	b.WriteString("entities:\n")
	roots := n / 10
	for r := range roots {
		x := r
		if r == roots/2 {
			x = 100_000 + edit
		}
		fmt.Fprintf(&b, "  - id: r%d\n    mixin: m%d\n    position: %d 0 0\n    children:\n", r, r%10, x)
		b.WriteString("      - position: 0 1 0\n")
		for c := 1; c < 10; c++ {
			fmt.Fprintf(&b, "      - id: r%dc%d\n        position: %d 0 0\n        rotation: 0 %d 0\n", r, c, c, c*10)
		}
	}
	return []byte(b.String())
}

// BenchmarkSaveToApplied measures what a user of scene-run run -watch
// sees: from a save of a one-property edit of a 10,000-entity scene file
// (the write returned) to the edit applied, through a SceneWatcher as
// -watch makes it. Each iteration is one edit; run it with -benchtime=30x.
// It reports the median and the 95th percentile of the whole and of its
// stages: wait (save to the watcher's report) and reload (parse, diff,
// apply). fixed-50ms is the watcher as it was, judging every save after
// a fixed 50 ms of quiet (Settle = Debounce); settle is the default
// (quiet for 5 ms and looking whole; the file, 0.7 MB, is larger than
// the scenes read as a scene before they are reported); settle-check
// reads it as a scene all the same, to show what that would cost.
func BenchmarkSaveToApplied(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  watch.Options
	}{
		{"fixed-50ms", watch.Options{Settle: 50 * time.Millisecond}},
		{"settle", watch.Options{}},
		{"settle-check", watch.Options{Complete: func(path string, data []byte) bool {
			_, err := scenefile.Read(path, data, scenefile.DefaultLimits())
			return err == nil
		}}},
	} {
		b.Run(c.name, func(b *testing.B) { benchSaveToApplied(b, c.opt) })
	}
}

func benchSaveToApplied(b *testing.B, opt watch.Options) {
	const n = 10_000
	file := filepath.Join(b.TempDir(), "scene.yaml")
	if err := os.WriteFile(file, liveScene(n, 0), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		b.Fatal(err)
	}
	scene, err := loader.LoadFile(reg, file, loader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sw, err := WatchScene(ctx, scene, file, opt)
	if err != nil {
		b.Fatal(err)
	}
	var total, wait, reload []time.Duration
	edit := 0
	for b.Loop() {
		edit++
		if err := os.WriteFile(file, liveScene(n, edit), 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		select {
		case <-sw.Changes:
		case err := <-sw.Errors:
			b.Fatal(err)
		case <-time.After(10 * time.Second):
			b.Fatal("no change reported")
		}
		t1 := time.Now()
		d, err := sw.Reload()
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if len(d.Changed) != 1 {
			b.Fatalf("diff:\n%s", d)
		}
		total, wait, reload = append(total, t2.Sub(t0)), append(wait, t1.Sub(t0)), append(reload, t2.Sub(t1))
	}
	b.StopTimer()
	e, _ := reg.EntityByID(fmt.Sprintf("r%d", n/10/2))
	if vs, _ := reg.Values(e, "position"); vs[0].(registry.Vec3).X != float64(100_000+edit) {
		b.Fatalf("last edit not applied: %v", vs)
	}
	for _, s := range []struct {
		name string
		ds   []time.Duration
	}{{"total", total}, {"wait", wait}, {"reload", reload}} {
		slices.Sort(s.ds)
		med, p95 := s.ds[len(s.ds)/2], s.ds[min(len(s.ds)-1, len(s.ds)*95/100)]
		b.ReportMetric(float64(med.Microseconds())/1e3, s.name+"-median-ms")
		b.ReportMetric(float64(p95.Microseconds())/1e3, s.name+"-p95-ms")
	}
}
