package live

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/internal/cputime"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// prefabBenchInstances is the number of instances in the prefab
// benchmarks, of a prefab of prefabBenchSize entities.
const (
	prefabBenchInstances = 10_000
	prefabBenchSize      = 5
)

// genPrefabScene returns a YAML scene of n instances of a 5-entity
// prefab (a ship: its root and four named parts), each instance with an
// id and a position of its own, one in eight changing a part. speed is
// the radar's spin speed in the prefab, so that scenes of different
// speeds differ in one property of the prefab.
func genPrefabScene(n, speed int) []byte {
	var b strings.Builder
	b.Grow(n * 60)
	fmt.Fprintf(&b, `prefabs:
  ship:
    class: ship
    velocity: 0 1 0
    health: "hp: 50; max: 100"
    children:
      - id: gun-left
        class: gun
        position: -1 0 0
        rotation: 0 0 10
      - id: gun-right
        class: gun
        position: 1 0 0
        rotation: 0 0 -10
      - id: radar
        position: 0 -1 0
        spin: "axis: 0 1 0; speed: %d"
      - id: engine
        position: 0 -2 0
        scale: 0.5 0.5 0.5
entities:
`, speed)
	for i := range n {
		fmt.Fprintf(&b, "  - id: s%d\n    prefab: ship\n    position: %d 0 %d\n", i, i%100, i/100)
		if i%8 == 0 {
			b.WriteString("    parts:\n      gun-left: {rotation: 0 0 20}\n")
		}
	}
	return []byte(b.String())
}

// genFlatScene returns the scene of genPrefabScene written flat: the
// same entities, ids, classes and components, without the prefab (the
// loader's own flat export of the loaded scene).
func genFlatScene(tb testing.TB, n int) []byte {
	tb.Helper()
	reg := newBenchRegistry(tb)
	if _, err := LoadBytes(reg, "prefab.yaml", genPrefabScene(n, 90), Options{}); err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	if err := scenefile.WriteYAML(&out, export.Export(reg, export.Options{Flat: true})); err != nil {
		tb.Fatal(err)
	}
	return out.Bytes()
}

// TestPrefabBenchScenes: the two scenes of BenchmarkPrefabLoad load to
// the same World (compared flat), with the entities counted.
func TestPrefabBenchScenes(t *testing.T) {
	const n = 200
	dumps := make([]string, 2)
	for i, src := range [][]byte{genPrefabScene(n, 90), genFlatScene(t, n)} {
		reg := newBenchRegistry(t)
		s, err := LoadBytes(reg, "s.yaml", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if reg.World().Len() != n*prefabBenchSize || s.Plan.Count != n*prefabBenchSize {
			t.Fatalf("scene %d: %d entities, plan %d", i, reg.World().Len(), s.Plan.Count)
		}
		var b strings.Builder
		if err := export.WriteJSON(&b, reg, export.Options{Flat: true}); err != nil {
			t.Fatal(err)
		}
		dumps[i] = b.String()
	}
	if dumps[0] != dumps[1] {
		t.Error("the prefab scene and the flat one load to different Worlds")
	}
	if strings.Contains(string(genFlatScene(t, 2)), "prefab") {
		t.Error("the flat scene names the prefab")
	}
}

// BenchmarkPrefabLoad loads a scene of 10,000 instances of a 5-entity
// prefab (50,000 entities) and the same scene written flat, alternately
// in the same loop, through LoadBytes into fresh Registries. It reports
// the time per entity of each and their ratio (prefab / flat: below 1,
// the prefab scene loads faster per entity).
func BenchmarkPrefabLoad(b *testing.B) {
	const n = prefabBenchInstances * prefabBenchSize
	scenes := [2][]byte{genPrefabScene(prefabBenchInstances, 90), genFlatScene(b, prefabBenchInstances)}
	var took [2]time.Duration
	for b.Loop() {
		for i, src := range scenes {
			b.StopTimer()
			reg := newBenchRegistry(b)
			b.StartTimer()
			t0 := time.Now()
			_, err := LoadBytes(reg, "s.yaml", src, Options{})
			took[i] += time.Since(t0)
			if err != nil {
				b.Fatal(err)
			}
			if reg.World().Len() != n {
				b.Fatalf("%d entities", reg.World().Len())
			}
		}
	}
	runs := float64(b.N)
	b.ReportMetric(float64(took[0].Nanoseconds())/runs/n, "prefab-ns/entity")
	b.ReportMetric(float64(took[1].Nanoseconds())/runs/n, "flat-ns/entity")
	b.ReportMetric(float64(took[0])/float64(took[1]), "ratio")
	b.ReportMetric(float64(len(scenes[0]))/float64(len(scenes[1])), "size-ratio")
}

// BenchmarkPrefabEdit reloads a one-property edit of the prefab (the
// radar's spin speed) into the running 50,000-entity scene of
// BenchmarkPrefabLoad: every instance's radar changes. It measures the
// diff, and the diff plus its application, in ms per edit.
func BenchmarkPrefabEdit(b *testing.B) {
	reg := newBenchRegistry(b)
	scene, err := LoadBytes(reg, "scene.yaml", genPrefabScene(prefabBenchInstances, 90), Options{})
	if err != nil {
		b.Fatal(err)
	}
	compile := func(speed int) *plan.Plan {
		return benchPlan(b, reg, genPrefabScene(prefabBenchInstances, speed))
	}
	// ms/edit is wall time; cpu-ms/edit (user+system) stays meaningful
	// on a shared machine.
	report := func(b *testing.B, took, cpu time.Duration) {
		b.ReportMetric(float64(took.Nanoseconds())/float64(b.N)/1e6, "ms/edit")
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/edit")
	}
	b.Run("diff", func(b *testing.B) {
		plan := compile(91)
		var took, cpu time.Duration
		runtime.GC()
		for b.Loop() {
			c0, t0 := cputime.Process(), time.Now()
			d := scene.Diff(plan)
			took += time.Since(t0)
			cpu += cputime.Process() - c0
			if len(d.Changed) != prefabBenchInstances {
				b.Fatalf("%d changed", len(d.Changed))
			}
		}
		report(b, took, cpu)
	})
	b.Run("diff+apply", func(b *testing.B) {
		speed, radar := 90, scene.Roots[0]
		radar = reg.World().Children(radar)[2]
		var took, cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			speed++
			plan := compile(speed) // Apply keeps the plan: one per edit
			runtime.GC()           // the compile's garbage is not the edit's
			b.StartTimer()
			c0, t0 := cputime.Process(), time.Now()
			d := scene.Diff(plan)
			err := scene.Apply(d)
			took += time.Since(t0)
			cpu += cputime.Process() - c0
			if err != nil {
				b.Fatal(err)
			}
			if len(d.Changed) != prefabBenchInstances || len(d.Created)+len(d.Destroyed)+len(d.Moved) != 0 {
				b.Fatalf("diff: %s", d.Summary())
			}
		}
		b.StopTimer()
		if got, _ := reg.Attr(radar, "spin"); got != fmt.Sprintf("axis: 0 1 0; speed: %d", speed) {
			b.Fatalf("radar spin %q after the edits", got)
		}
		report(b, took, cpu)
	})
}
