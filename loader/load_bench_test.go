package loader

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// genLoadScene generates a scene of n entities that loads against the
// built-in components: it declares health, weapon and enemy, defines 20
// mixins (each building on a base mixin), and gives every entity an id,
// classes, a mixin and four components of its own; every tenth entity has
// two children (counted in n) with four components each.
func genLoadScene(format string, n int) []byte {
	var b strings.Builder
	b.Grow(n * 200)
	yaml := format == "yaml"
	if yaml {
		b.WriteString("scene:\n  physics: \"step: 0.02\"\ncomponents:\n" +
			"  health: {hp: {type: int, default: 100, min: 0}, max: {type: int, default: 100, min: 1}}\n" +
			"  weapon: {damage: {type: number, default: 1}, range: {type: number, default: 10}}\n" +
			"  enemy: {}\nmixins:\n  base:\n    enemy:\n    visible: \"true\"\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  m%d: {mixin: base, velocity: \"0 %d 0\", scale: \"1 %d 1\"}\n", i, i, i+1)
		}
		b.WriteString("entities:\n")
	} else {
		b.WriteString("<scene physics=\"step: 0.02\">\n  <components>\n" +
			"    <component name=\"health\"><property name=\"hp\" type=\"int\" default=\"100\" min=\"0\"/><property name=\"max\" type=\"int\" default=\"100\" min=\"1\"/></component>\n" +
			"    <component name=\"weapon\"><property name=\"damage\" type=\"number\" default=\"1\"/><property name=\"range\" type=\"number\" default=\"10\"/></component>\n" +
			"    <component name=\"enemy\"/>\n  </components>\n  <mixin id=\"base\" enemy=\"\" visible=\"true\"/>\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  <mixin id=\"m%d\" mixin=\"base\" velocity=\"0 %d 0\" scale=\"1 %d 1\"/>\n", i, i, i+1)
		}
	}
	for i := 0; i < n; {
		kids := 0
		if i%10 == 0 && n-i >= 3 {
			kids = 2
		}
		if yaml {
			fmt.Fprintf(&b, "  - id: e%d\n    class: enemy c%d\n    mixin: m%d\n    position: %d 1 -5\n    rotation: 0 %d 0\n    health: {hp: %d, max: 200}\n    acceleration: 0 0 1\n",
				i, i%7, i%20, i, i%360, i%100)
			if kids > 0 {
				b.WriteString("    children:\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(&b, "      - id: e%d\n        position: 0.5 %d 0\n        scale: 1 1 1\n        weapon: \"damage: 3\"\n        visible: false\n", i+k, k)
				}
			}
		} else {
			fmt.Fprintf(&b, "  <entity id=\"e%d\" class=\"enemy c%d\" mixin=\"m%d\" position=\"%d 1 -5\" rotation=\"0 %d 0\" health=\"hp: %d; max: 200\" acceleration=\"0 0 1\"",
				i, i%7, i%20, i, i%360, i%100)
			if kids == 0 {
				b.WriteString("/>\n")
			} else {
				b.WriteString(">\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(&b, "    <entity id=\"e%d\" position=\"0.5 %d 0\" scale=\"1 1 1\" weapon=\"damage: 3\" visible=\"false\"/>\n", i+k, k)
				}
				b.WriteString("  </entity>\n")
			}
		}
		i += 1 + kids
	}
	if !yaml {
		b.WriteString("</scene>\n")
	}
	return []byte(b.String())
}

func TestGenLoadScene(t *testing.T) {
	for _, f := range []string{"yaml", "xml"} {
		reg := newTestRegistry(t)
		s, err := LoadBytes(reg, "gen."+f, genLoadScene(f, 1000), Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if n := reg.World().Len(); n != 1000 || s.Plan.Count != 1000 {
			t.Fatalf("%s: %d entities, plan %d; want 1000", f, n, s.Plan.Count)
		}
		e, _ := reg.EntityByID("e10")
		if got := reg.EntityComponents(e); len(got) != 8 {
			t.Errorf("%s: e10 has %v, want 8 components", f, got)
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
	file := "bench." + format
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
		c0, t0 := cpuTime(), time.Now()
		_, err := LoadBytes(reg, file, data, Options{})
		wall += time.Since(t0)
		cpu += cpuTime() - c0
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
