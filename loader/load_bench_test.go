package loader

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/cputime"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/registry"
)

// genLoadScene generates a scene of n entities that loads against the
// built-in components (see [scenegen.LoadScene]); format "json" is the
// dump of the YAML scene loaded.
func genLoadScene(format string, n int) []byte {
	if format != "json" {
		return scenegen.LoadScene(format, n)
	}
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		panic(err)
	}
	if _, err := LoadBytes(reg, "gen.yaml", genLoadScene("yaml", n), Options{}); err != nil {
		panic(err)
	}
	var out bytes.Buffer
	if err := export.WriteJSON(&out, reg, export.Options{}); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// genFlowScene is genLoadScene's YAML scene with the entities written in
// flow style.
func genFlowScene(n int) []byte { return scenegen.FlowScene(n) }

func TestGenLoadScene(t *testing.T) {
	for _, f := range []string{"yaml", "yaml-flow", "xml", "json"} {
		reg := newTestRegistry(t)
		s, err := LoadBytes(reg, "gen."+loadExt(f), genLoadScene(f, 1000), Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n := reg.World().Len(); n != 1000 || s.Plan.Count != 1000 {
			t.Fatalf("%s: %d entities, plan %d; want 1000", f, n, s.Plan.Count)
		}
		e, _ := reg.EntityByID("e10")
		// 8 from the scene, and world, which comes with position.
		if got := reg.EntityComponents(e); len(got) != 9 || got[0] != "world" {
			t.Errorf("%s: e10 has %v, want world and 8 components", f, got)
		}
	}
}

// benchmarkLoad loads the generated scene through the whole pipeline
// (LoadBytes: read, compile, build) into a fresh Registry with the
// built-ins registered. Besides ns/op it reports entities per second of
// wall time and of CPU time (user+system, which stays meaningful on a
// shared machine) and the bytes allocated per entity.
func benchmarkLoad(b *testing.B, format string) {
	const n = 100_000
	data := genLoadScene(format, n)
	file := "bench." + loadExt(format)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var cpu, wall time.Duration
	var alloc uint64
	var ms runtime.MemStats
	for b.Loop() {
		b.StopTimer()
		reg := registry.New(ecs.NewWorld())
		if _, err := components.Register(reg); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		a0 := ms.TotalAlloc
		b.StartTimer()
		c0, t0 := cputime.Process(), time.Now()
		_, err := LoadBytes(reg, file, data, Options{})
		wall += time.Since(t0)
		cpu += cputime.Process() - c0
		b.StopTimer()
		runtime.ReadMemStats(&ms)
		alloc += ms.TotalAlloc - a0
		if err != nil {
			b.Fatal(err)
		}
		if got := reg.World().Len(); got != n {
			b.Fatalf("loaded %d entities, want %d", got, n)
		}
		b.StartTimer()
	}
	runs := float64(b.N)
	b.ReportMetric(n/(wall.Seconds()/runs), "entities/s")
	b.ReportMetric(n/(cpu.Seconds()/runs), "entities/cpu-s")
	b.ReportMetric(float64(alloc)/runs/n, "B/entity")
}

// BenchmarkLoadYAML loads a generated 100,000-entity YAML scene into a
// fresh World with the built-ins registered: read, compile and build.
func BenchmarkLoadYAML(b *testing.B) { benchmarkLoad(b, "yaml") }

// BenchmarkLoadXML is BenchmarkLoadYAML for the same scene in XML.
func BenchmarkLoadXML(b *testing.B) { benchmarkLoad(b, "xml") }

// BenchmarkLoadYAMLFlow is BenchmarkLoadYAML for the same scene with its
// entities written in flow style.
func BenchmarkLoadYAMLFlow(b *testing.B) { benchmarkLoad(b, "yaml-flow") }

// BenchmarkLoadJSON is BenchmarkLoadYAML for the JSON dump of the scene.
func BenchmarkLoadJSON(b *testing.B) { benchmarkLoad(b, "json") }

// loadExt returns the file extension of a genLoadScene format.
func loadExt(format string) string {
	if format == "yaml-flow" {
		return "yaml"
	}
	return format
}

// Memory while loading. LoadBytes (read, compile, build into a fresh
// World) allocates at most loadBytesPerEntity per entity plus
// loadBytesPerComponent per component the entities end up with, in every
// format: docs/scene-format.md documents this bound.
const (
	loadBytesPerEntity    = 1536
	loadBytesPerComponent = 800
)

// genShape generates n entities with an id and comps components each
// (from ten built-ins), in the given format ("yaml", "yaml-flow", "xml";
// JSON is the dump of the YAML).
func genShape(format string, n, comps int) []byte {
	names := []string{"position", "rotation", "scale", "velocity", "acceleration", "gravity", "visible", "spin", "lifetime", "enemy"}
	vals := []string{"1 2 3", "0 90 0", "2 2 2", "1 0 0", "0 0 1", "0 -1 0", "false", "speed: 4", "seconds: 2", ""}
	var b strings.Builder
	switch format {
	case "json":
		reg := registry.New(ecs.NewWorld())
		if _, err := components.Register(reg); err != nil {
			panic(err)
		}
		if _, err := LoadBytes(reg, "gen.yaml", genShape("yaml", n, comps), Options{}); err != nil {
			panic(err)
		}
		var out bytes.Buffer
		if err := export.WriteJSON(&out, reg, export.Options{}); err != nil {
			panic(err)
		}
		return out.Bytes()
	case "yaml":
		b.WriteString("entities:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - id: e%d\n", i)
			for c := range comps {
				fmt.Fprintf(&b, "    %s: %q\n", names[c], vals[c])
			}
		}
	case "yaml-flow":
		b.WriteString("entities: [\n")
		for i := range n {
			fmt.Fprintf(&b, "  {id: e%d", i)
			for c := range comps {
				fmt.Fprintf(&b, ", %s: %q", names[c], vals[c])
			}
			b.WriteString("},\n")
		}
		b.WriteString("]\n")
	case "xml":
		b.WriteString("<scene>\n")
		for i := range n {
			fmt.Fprintf(&b, "  <entity id=\"e%d\"", i)
			for c := range comps {
				fmt.Fprintf(&b, " %s=%q", names[c], vals[c])
			}
			b.WriteString("/>\n")
		}
		b.WriteString("</scene>\n")
	}
	return []byte(b.String())
}

// loadAlloc loads data into a fresh registry with the built-ins and
// returns the bytes LoadBytes allocated, the entities and the components
// they have.
func loadAlloc(tb testing.TB, file string, data []byte) (alloc uint64, entities, comps int) {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		tb.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	a0 := ms.TotalAlloc
	_, err := LoadBytes(reg, file, data, Options{})
	runtime.ReadMemStats(&ms)
	if err != nil {
		tb.Fatal(err)
	}
	for e := range reg.World().All() {
		entities++
		comps += len(reg.EntityComponents(e))
	}
	return ms.TotalAlloc - a0, entities, comps
}

// TestLoadMemoryBound holds every format to the documented bound, on
// scenes of 10,000 entities with no components to ten each, and on the
// benchmark scene (ids, classes, mixins, children).
func TestLoadMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MB")
	}
	const n = 10_000
	for _, f := range []string{"yaml", "yaml-flow", "xml", "json"} {
		for _, comps := range []int{0, 1, 4, 10, -1} {
			data := genLoadScene(f, n)
			name := "bench"
			if comps >= 0 {
				data = genShape(f, n, comps)
				name = fmt.Sprintf("%d components", comps)
			}
			alloc, ents, cs := loadAlloc(t, "m."+loadExt(f), data)
			bound := uint64(loadBytesPerEntity*ents + loadBytesPerComponent*cs)
			if ents != n {
				t.Fatalf("%s %s: %d entities, want %d", f, name, ents, n)
			}
			t.Logf("%s, %s: %d B/entity, %.1f components/entity, bound %d B/entity", f, name, alloc/uint64(n), float64(cs)/float64(n), bound/uint64(n))
			if alloc > bound {
				t.Errorf("%s, %s: %d bytes allocated, over the bound of %d (%d B/entity)", f, name, alloc, bound, alloc/uint64(n))
			}
		}
	}
}

// BenchmarkLoadMemory reports the bytes allocated per entity while
// loading the benchmark scene, per format (see also the B/entity metric
// of BenchmarkLoadYAML and the others, on 100,000 entities).
func BenchmarkLoadMemory(b *testing.B) {
	for _, f := range []string{"yaml", "yaml-flow", "xml", "json"} {
		data := genLoadScene(f, 20_000)
		b.Run(f, func(b *testing.B) {
			var alloc uint64
			var ents, comps int
			for b.Loop() {
				a, e, c := loadAlloc(b, "m."+loadExt(f), data)
				alloc, ents, comps = alloc+a, e, c
			}
			b.ReportMetric(float64(alloc)/float64(b.N)/float64(ents), "bytes/entity")
			b.ReportMetric(float64(comps)/float64(ents), "components/entity")
		})
	}
}
