package scenefile

import (
	"testing"

	"github.com/scenecs/scenecs/internal/cputime"
	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// genScene generates a scene with n entities (see [scenegen.Scene]).
func genScene(format string, n int) []byte { return scenegen.Scene(format, n) }

func benchmarkRead(b *testing.B, format string) {
	const n = 100_000
	data := genScene(format, n)
	file := "bench." + format
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for b.Loop() {
		doc, err := Read(file, data, Limits{})
		if err != nil {
			b.Fatal(err)
		}
		if doc.Count() != n {
			b.Fatalf("read %d entities, want %d", doc.Count(), n)
		}
	}
	b.StopTimer()
	cpu := (cputime.Process() - cpu0).Seconds() / float64(b.N)
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(n/sec, "entities/s")
	b.ReportMetric(n/cpu, "entities/cpu-s")
	b.ReportMetric(cpu*1e3, "cpu-ms/op")
}

// BenchmarkReadYAML reads a generated 100,000-entity YAML scene.
func BenchmarkReadYAML(b *testing.B) { benchmarkRead(b, "yaml") }

// BenchmarkReadXML reads a generated 100,000-entity XML scene.
func BenchmarkReadXML(b *testing.B) { benchmarkRead(b, "xml") }
