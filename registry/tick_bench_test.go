package registry

import (
	"runtime"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
)

// The tick benchmarks compare the registry's tick paths with a hand-written
// loop over the same packed data, in the same run, and report ns/entity.
// The work per entity is the same everywhere: a semi-implicit Euler step
// of a small body.

type benchBody struct {
	Pos Vec3 `scene:"pos"`
	Vel Vec3 `scene:"vel"`
}

const benchDT = 1.0 / 60

func stepBody(b *benchBody, dt float64) {
	b.Vel.Y -= 9.8 * dt
	b.Pos.X += b.Vel.X * dt
	b.Pos.Y += b.Vel.Y * dt
	b.Pos.Z += b.Vel.Z * dt
}

// benchWorld returns a Registry with n entities carrying the component
// "body", registered with d.
func benchWorld(b *testing.B, n int, d Definition[benchBody]) (*Registry, *Component) {
	b.Helper()
	w := ecs.NewWorld()
	r := New(w)
	c, err := Register(r, "body", d)
	if err != nil {
		b.Fatal(err)
	}
	es := w.NewEntities(n, c.ID)
	m := ecs.NewMap[benchBody](w, c.ID)
	for i, e := range es {
		m.Get(e).Vel = Vec3{X: float64(i % 7), Y: 0, Z: 1}
	}
	r.Tick(0) // start systems outside the timed loop
	return r, c
}

// handLoop is the peer: a loop over the packed column written by hand.
func handLoop(f *ecs.Filter, id ecs.ID, dt float64) {
	q := f.Query()
	for q.NextTable() {
		vs := ecs.Column[benchBody](&q, id)
		for i := range vs {
			stepBody(&vs[i], dt)
		}
	}
}

const benchN = 1_000_000

// compare runs the registry's tick and the hand-written loop alternately,
// b.N times each, so that both see the same data and the same machine
// load. It reports ns/entity for both, their ratio and the registry's
// overhead per entity, from the fastest run of each: on a shared machine
// the minimum is the figure least disturbed by other processes (the mean
// is reported too, as mean-ratio).
func compare(b *testing.B, n int, reg, hand func()) {
	runtime.GC()
	var sumR, sumH time.Duration
	minR, minH := time.Duration(1<<62), time.Duration(1<<62)
	timed := func(fn func(), sum, min *time.Duration) {
		t0 := time.Now()
		fn()
		d := time.Since(t0)
		*sum += d
		if d < *min {
			*min = d
		}
	}
	for i := 0; b.Loop(); i++ {
		// Alternate which goes first, so neither always finds the
		// data warmed by the other.
		if i%2 == 0 {
			timed(reg, &sumR, &minR)
			timed(hand, &sumH, &minH)
		} else {
			timed(hand, &sumH, &minH)
			timed(reg, &sumR, &minR)
		}
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(n) }
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(per(minR), "registry-ns/entity")
	b.ReportMetric(per(minH), "hand-ns/entity")
	b.ReportMetric(per(minR)/per(minH), "ratio")
	b.ReportMetric(per(minR)-per(minH), "overhead-ns/entity")
	b.ReportMetric(float64(sumR)/float64(sumH), "mean-ratio")
}

// BenchmarkTickColumn ticks 1M entities through Definition.TickColumn and
// with a hand-written loop over the same packed data. Target: ratio <= 1.2.
func BenchmarkTickColumn(b *testing.B) {
	r, c := benchWorld(b, benchN, Definition[benchBody]{
		TickColumn: func(c *Context, vs []benchBody) {
			dt := c.Delta
			for i := range vs {
				stepBody(&vs[i], dt)
			}
		},
	})
	f := ecs.NewFilter(r.World(), ecs.With(c.ID))
	compare(b, benchN, func() { r.Tick(benchDT) }, func() { handLoop(f, c.ID, benchDT) })
}

// BenchmarkTickPerEntity ticks 1M entities through Definition.Tick and
// with a hand-written loop over the same data. Target: overhead <= 3
// ns/entity.
func BenchmarkTickPerEntity(b *testing.B) {
	r, c := benchWorld(b, benchN, Definition[benchBody]{
		Tick: func(c *Context, v *benchBody) { stepBody(v, c.Delta) },
	})
	f := ecs.NewFilter(r.World(), ecs.With(c.ID))
	compare(b, benchN, func() { r.Tick(benchDT) }, func() { handLoop(f, c.ID, benchDT) })
}
