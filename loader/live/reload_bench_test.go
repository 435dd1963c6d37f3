package live

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
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/watch"
)

// genReloadScene returns a YAML scene of n entities (n a multiple of 10):
// n/10 roots with an id, each with nine children, the first of which has
// no id (matched by place). Every root uses one of 10 mixins. edit
// sets the x of a middle root's position, so scenes of different edits
// differ in one property.
func genReloadScene(n, edit int) []byte {
	var b strings.Builder
	b.Grow(n * 90)
	b.WriteString("mixins:\n")
	for i := range 10 {
		fmt.Fprintf(&b, "  m%d: {velocity: 0 %d 0, health: \"hp: %d\"}\n", i, i, 50+i)
	}
	b.WriteString("entities:\n")
	roots := n / 10
	for r := range roots {
		x := r
		if r == roots/2 {
			x = 100_000 + edit
		}
		fmt.Fprintf(&b, "  - id: r%d\n    mixin: m%d\n    position: %d 0 0\n    children:\n", r, r%10, x)
		b.WriteString("      - position: 0 1 0\n        health: \"hp: 5\"\n")
		for c := 1; c < 10; c++ {
			fmt.Fprintf(&b, "      - id: r%dc%d\n        position: %d 0 0\n        rotation: 0 %d 0\n", r, c, c, c*10)
		}
	}
	return []byte(b.String())
}

// newBenchRegistry returns a registry with the built-in components and
// the health component of the reload tests.
func newBenchRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		tb.Fatal(err)
	}
	if _, err := registry.Register[hp](reg, "health", registry.Definition[hp]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

const benchEntities = 10_000

// benchPlan reads and compiles the YAML scene src, as a reload does
// before its diff.
func benchPlan(b *testing.B, reg *registry.Registry, src []byte) *plan.Plan {
	b.Helper()
	doc, err := scenefile.Read("scene.yaml", src, scenefile.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	plan, err := compileDoc(doc, reg)
	if err != nil {
		b.Fatal(err)
	}
	return plan
}

// BenchmarkReload measures the stages of reloading a one-property edit in
// a 10,000-entity scene: parse (read and compile the file), diff, and
// diff plus apply.
func BenchmarkReload(b *testing.B) {
	reg := newBenchRegistry(b)
	scene, err := LoadBytes(reg, "scene.yaml", genReloadScene(benchEntities, 0), Options{})
	if err != nil {
		b.Fatal(err)
	}
	compile := func(edit int) *plan.Plan {
		return benchPlan(b, reg, genReloadScene(benchEntities, edit))
	}
	b.Run("parse", func(b *testing.B) {
		data := genReloadScene(benchEntities, 1)
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			doc, err := scenefile.Read("scene.yaml", data, scenefile.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := compileDoc(doc, reg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("diff", func(b *testing.B) {
		plan := compile(1)
		for b.Loop() {
			if d := scene.Diff(plan); len(d.Changed) != 1 {
				b.Fatalf("diff:\n%s", d)
			}
		}
	})
	b.Run("diff+apply", func(b *testing.B) {
		edit := 0
		for b.Loop() {
			b.StopTimer()
			edit++
			plan := compile(edit) // Apply keeps the plan: one per edit
			b.StartTimer()
			d := scene.Diff(plan)
			if err := scene.Apply(d); err != nil {
				b.Fatal(err)
			}
			if len(d.Changed) != 1 || len(d.Moved)+len(d.Created)+len(d.Destroyed) != 0 {
				b.Fatalf("diff:\n%s", d)
			}
		}
	})
}

// BenchmarkSaveToApplied measures what a user sees: from a save of a
// one-property edit of a 10,000-entity scene file (the write returned) to
// the edit applied in the World, through a real Watcher with the default
// debounce. Each iteration is one edit; run it with -benchtime=50x for 50
// edits. It reports the median and the 95th percentile of the whole and
// of its stages: debounce (save to the watcher's report), parse (read and
// compile the file), diff and apply.
func BenchmarkSaveToApplied(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "scene.yaml")
	if err := os.WriteFile(file, genReloadScene(benchEntities, 0), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := newBenchRegistry(b)
	scene, err := LoadFile(reg, file, Options{})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rl := &Reloader{Scene: scene, File: file}
	w, err := watch.New(ctx, rl.Files(), watch.Options{})
	if err != nil {
		b.Fatal(err)
	}
	stages := []string{"total", "debounce", "parse", "diff", "apply"}
	samples := make([][]time.Duration, len(stages))
	edit := 0
	for b.Loop() {
		edit++
		data := genReloadScene(benchEntities, edit)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		select {
		case <-w.Changes:
		case err := <-w.Errors:
			b.Fatal(err)
		case <-time.After(10 * time.Second):
			b.Fatal("no change reported")
		}
		t1 := time.Now()
		plan, err := CheckFile(reg, file, Options{})
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		d := scene.Diff(plan)
		t3 := time.Now()
		if err := scene.Apply(d); err != nil {
			b.Fatal(err)
		}
		t4 := time.Now()
		if len(d.Changed) != 1 {
			b.Fatalf("diff:\n%s", d)
		}
		for i, v := range []time.Duration{t4.Sub(t0), t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3)} {
			samples[i] = append(samples[i], v)
		}
	}
	b.StopTimer()
	e, _ := reg.EntityByID(fmt.Sprintf("r%d", benchEntities/10/2))
	if vs, _ := reg.Values(e, "position"); vs[0].(registry.Vec3).X != float64(100_000+edit) {
		b.Fatalf("last edit not applied: %v", vs)
	}
	for i, name := range stages {
		med, p95 := percentiles(samples[i])
		b.ReportMetric(float64(med.Microseconds())/1e3, name+"-median-ms")
		b.ReportMetric(float64(p95.Microseconds())/1e3, name+"-p95-ms")
	}
}

// percentiles returns the median and the 95th percentile (nearest rank)
// of ds.
func percentiles(ds []time.Duration) (median, p95 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return rank(0.5), rank(0.95)
}
