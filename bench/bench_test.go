package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// Sizes of the workloads.
var querySizes = []int{1_000, 100_000, 1_000_000}

const (
	createN   = 1_000_000
	changeN   = 100_000 // add+remove, destroy, random get
	overheadN = 1_000_000
)

// sink keeps results alive so the compiler cannot drop the work.
var sink float64

func label(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000 && n%1_000 == 0:
		return fmt.Sprintf("%dk", n/1_000)
	}
	return fmt.Sprint(n)
}

// perEntity reports the timed duration per loop iteration divided by n
// entities. Call it after the b.Loop loop.
func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

// lib is one library's implementation of the workloads. Each function runs
// the whole benchmark (setup untimed, then a b.Loop loop) and reports
// ns/entity.
type lib struct {
	name           string
	queryEntity    func(b *testing.B, n int)
	queryColumn    func(b *testing.B, n int)
	create         func(b *testing.B, n int)
	createBatch    func(b *testing.B, n int)
	addRemove      func(b *testing.B, n int)
	addRemoveBatch func(b *testing.B, n int)
	destroy        func(b *testing.B, n int)
	destroyBatch   func(b *testing.B, n int)
	randomGet      func(b *testing.B, n int)
	// setup makes a fresh world with Pos and Vel registered (and, if
	// churn, one entity created and destroyed, so that its slot is free
	// for reuse) and returns build, which creates n entities with Pos and
	// Vel one by one and returns something that keeps the world alive.
	// Setup runs before the first heap reading.
	setup func(churn bool) (build func(n int) any)
}

var libs = []lib{scenecsLib, arkLib}

// run runs workload fn of every library at every size, libraries
// interleaved so that drift on a noisy machine hits both alike.
func run(b *testing.B, sizes []int, fn func(l lib) func(*testing.B, int)) {
	for _, n := range sizes {
		for _, l := range libs {
			f := fn(l)
			b.Run(l.name+"/"+label(n), func(b *testing.B) { f(b, n) })
		}
	}
}

func BenchmarkQueryEntity(b *testing.B) {
	run(b, querySizes, func(l lib) func(*testing.B, int) { return l.queryEntity })
}

func BenchmarkQueryColumn(b *testing.B) {
	run(b, querySizes, func(l lib) func(*testing.B, int) { return l.queryColumn })
}

func BenchmarkCreate(b *testing.B) {
	run(b, []int{createN}, func(l lib) func(*testing.B, int) { return l.create })
}

func BenchmarkCreateBatch(b *testing.B) {
	run(b, []int{createN}, func(l lib) func(*testing.B, int) { return l.createBatch })
}

func BenchmarkAddRemove(b *testing.B) {
	run(b, []int{changeN}, func(l lib) func(*testing.B, int) { return l.addRemove })
}

func BenchmarkAddRemoveBatch(b *testing.B) {
	run(b, []int{changeN}, func(l lib) func(*testing.B, int) { return l.addRemoveBatch })
}

func BenchmarkDestroy(b *testing.B) {
	run(b, []int{changeN}, func(l lib) func(*testing.B, int) { return l.destroy })
}

func BenchmarkDestroyBatch(b *testing.B) {
	run(b, []int{changeN}, func(l lib) func(*testing.B, int) { return l.destroyBatch })
}

func BenchmarkRandomGet(b *testing.B) {
	run(b, []int{changeN}, func(l lib) func(*testing.B, int) { return l.randomGet })
}

// BenchmarkOverhead measures the heap bytes per entity beyond the 32 bytes
// of component data: HeapAlloc after a full GC, before and after creating
// n entities with Pos and Vel one by one in a world whose components are
// already registered. It reports B/entity, averaged over b.N rounds.
func BenchmarkOverhead(b *testing.B) { benchOverhead(b, false) }

// BenchmarkOverheadChurn is Overhead in a world that has destroyed one
// entity before the n are created, as any world with churn has.
func BenchmarkOverheadChurn(b *testing.B) { benchOverhead(b, true) }

func benchOverhead(b *testing.B, churn bool) {
	run(b, []int{overheadN}, func(l lib) func(*testing.B, int) {
		return func(b *testing.B, n int) {
			var total float64
			for i := 0; i < b.N; i++ {
				total += overhead(l.setup, churn, n)
			}
			b.ReportMetric(total/float64(b.N), "B/entity")
		}
	})
}

func overhead(setup func(bool) func(int) any, churn bool, n int) float64 {
	build := setup(churn)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := build(n)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	runtime.KeepAlive(build)
	return (float64(after.HeapAlloc) - float64(before.HeapAlloc) - float64(n*ComponentBytes)) / float64(n)
}

// shuffled returns a shuffled copy of es, the same permutation for every
// library.
func shuffled[E any](es []E) []E {
	out := append([]E(nil), es...)
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}
