package loader

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the user+system CPU time of the process, which stays
// meaningful when the machine is shared and wall time is not.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// genScene generates a scene with n entities in the given format: 20 mixins,
// about four components per entity, and every tenth entity with two
// children (which count towards n).
func genScene(format string, n int) []byte {
	var b strings.Builder
	b.Grow(n * 160)
	yaml := format == "yaml"
	if yaml {
		b.WriteString("scene:\n  physics: \"gravity: 0 -9.8 0\"\nmixins:\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  m%d: {geometry: \"primitive: box\", material: \"color: #%06x\"}\n", i, i*4242)
		}
		b.WriteString("entities:\n")
	} else {
		b.WriteString("<scene physics=\"gravity: 0 -9.8 0\">\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  <mixin id=\"m%d\" geometry=\"primitive: box\" material=\"color: #%06x\"/>\n", i, i*4242)
		}
	}
	for i := 0; i < n; {
		kids := 0
		if i%10 == 0 && n-i >= 3 {
			kids = 2
		}
		if yaml {
			fmt.Fprintf(&b, "  - id: e%d\n    class: enemy c%d\n    mixin: m%d\n    position: %d 1 -5\n    rotation: 0 %d 0\n    health: {hp: %d, max: 200}\n    enemy:\n",
				i, i%7, i%20, i, i%360, i%100)
			if kids > 0 {
				b.WriteString("    children:\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(&b, "      - id: e%d\n        position: 0.5 %d 0\n        scale: 1 1 1\n        weapon: \"damage: 3\"\n        visible: true\n", i+k, k)
				}
			}
		} else {
			fmt.Fprintf(&b, "  <entity id=\"e%d\" class=\"enemy c%d\" mixin=\"m%d\" position=\"%d 1 -5\" rotation=\"0 %d 0\" health=\"hp: %d; max: 200\" enemy=\"\"",
				i, i%7, i%20, i, i%360, i%100)
			if kids == 0 {
				b.WriteString("/>\n")
			} else {
				b.WriteString(">\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(&b, "    <entity id=\"e%d\" position=\"0.5 %d 0\" scale=\"1 1 1\" weapon=\"damage: 3\" visible=\"true\"/>\n", i+k, k)
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

func benchmarkRead(b *testing.B, format string) {
	const n = 100_000
	data := genScene(format, n)
	file := "bench." + format
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		doc, err := Read(file, data, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if doc.nEntities != n {
			b.Fatalf("read %d entities, want %d", doc.nEntities, n)
		}
	}
	b.StopTimer()
	cpu := (cpuTime() - cpu0).Seconds() / float64(b.N)
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(n/sec, "entities/s")
	b.ReportMetric(n/cpu, "entities/cpu-s")
	b.ReportMetric(cpu*1e3, "cpu-ms/op")
}

// BenchmarkReadYAML reads a generated 100,000-entity YAML scene.
func BenchmarkReadYAML(b *testing.B) { benchmarkRead(b, "yaml") }

// BenchmarkReadXML reads a generated 100,000-entity XML scene.
func BenchmarkReadXML(b *testing.B) { benchmarkRead(b, "xml") }
