package scenerun

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// TestTickStatsBounded: a run's tick statistics hold a fixed number of
// elements however many ticks are recorded (run -realtime=false ticks
// tens of thousands of times a second: a slice of every duration grew to
// gigabytes), and count and sum every tick.
func TestTickStatsBounded(t *testing.T) {
	var s tickStats
	size := reflect.TypeOf(s).Size()
	elems := countElements(reflect.ValueOf(&s).Elem())
	if elems > tickBuckets+10 {
		t.Fatalf("%d elements, want the %d counters and a few fields", elems, tickBuckets)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 2_000_000
	var sum time.Duration
	for range n {
		d := time.Duration(rng.ExpFloat64() * float64(30*time.Microsecond))
		sum += d
		s.add(d)
	}
	if got := countElements(reflect.ValueOf(&s).Elem()); got != elems || reflect.TypeOf(s).Size() != size {
		t.Errorf("after %d ticks: %d elements, want %d", n, got, elems)
	}
	var total uint64
	for _, c := range s.counts {
		total += c
	}
	if s.n != n || total != n || s.busy != sum {
		t.Errorf("count %d, histogram %d, busy %v; want %d, %d, %v", s.n, total, s.busy, n, n, sum)
	}
}

// countElements counts the values v holds: 1 for a scalar, the elements
// of arrays, slices and maps (recursively), the fields of structs.
func countElements(v reflect.Value) int {
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		n := 0
		for i := range v.Len() {
			n += countElements(v.Index(i))
		}
		return n
	case reflect.Map:
		return v.Len() * 2
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			n += countElements(v.Field(i))
		}
		return n
	}
	return 1 // a scalar
}

// TestTickStatsPercentiles: the percentiles are within 1% of the exact
// ones (nearest rank) for durations spread over the whole range, a
// constant (exact), and a few outliers (p99 finds them); none recorded
// gives zero.
func TestTickStatsPercentiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := map[string]func(i int) time.Duration{
		"log-uniform": func(int) time.Duration { return time.Duration(100 * math.Pow(10, 9*rng.Float64())) },
		"constant":    func(int) time.Duration { return 1234567 },
		"outliers": func(i int) time.Duration {
			if i%50 == 0 {
				return 80 * time.Millisecond
			}
			return 16*time.Millisecond + time.Duration(rng.IntN(1000))*time.Microsecond
		},
		"tiny":  func(int) time.Duration { return time.Duration(rng.IntN(150)) },
		"huge":  func(int) time.Duration { return time.Hour + time.Duration(rng.IntN(1000))*time.Second },
		"one":   nil,
		"empty": nil,
	}
	for name, gen := range cases {
		var s tickStats
		var all []time.Duration
		n := 20000
		switch name {
		case "one":
			n, gen = 1, func(int) time.Duration { return 42 * time.Microsecond }
		case "empty":
			n = 0
		}
		for i := range n {
			d := gen(i)
			all = append(all, d)
			s.add(d)
		}
		slices.Sort(all)
		for _, p := range []int{0, 1, 50, 90, 99, 100} {
			got := s.percentile(p)
			if n == 0 {
				if got != 0 {
					t.Errorf("%s p%d: %v, want 0", name, p, got)
				}
				continue
			}
			want := all[max((n*p+99)/100-1, 0)]
			if name == "huge" { // beyond the last bucket: only clamped to the shortest and longest
				if got < s.min || got > s.max {
					t.Errorf("%s p%d: %v outside [%v, %v]", name, p, got, s.min, s.max)
				}
				continue
			}
			tol := float64(want)*0.01 + float64(tickBucketBase) // the first bucket holds everything below its bound
			if math.Abs(float64(got-want)) > tol {
				t.Errorf("%s p%d: %v, want %v within 1%%", name, p, got, want)
			}
		}
	}
}
