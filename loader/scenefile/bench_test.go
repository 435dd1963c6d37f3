package scenefile

import (
	"syscall"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
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

// genScene generates a scene with n entities (see [scenegen.Scene]).
func genScene(format string, n int) []byte { return scenegen.Scene(format, n) }

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
		if doc.Count() != n {
			b.Fatalf("read %d entities, want %d", doc.Count(), n)
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
