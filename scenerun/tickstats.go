package scenerun

import (
	"math"
	"time"
)

// tickStats summarises the durations of a run's ticks in constant memory,
// however long the run (run -realtime=false ticks tens of thousands of
// times a second): their count and sum exactly, and their percentiles
// from a histogram of logarithmic buckets, each tickBucketGrowth wider
// than the one before, so that a percentile is within half a bucket
// (0.5%) of the exact one, and exact at the ends (the shortest and
// longest tick are kept as they are).
type tickStats struct {
	n        uint64
	busy     time.Duration
	min, max time.Duration
	last     time.Duration
	counts   [tickBuckets]uint64
}

// The histogram: bucket 0 holds durations up to tickBucketBase, bucket i
// those up to tickBucketBase × tickBucketGrowth^i; the last holds every
// longer one. 2,400 buckets reach from 100 ns to 40 minutes (19 KB).
const (
	tickBuckets      = 2400
	tickBucketBase   = 100 * time.Nanosecond
	tickBucketGrowth = 1.01
)

var logTickGrowth = math.Log(tickBucketGrowth)

// add records one tick's duration.
func (s *tickStats) add(d time.Duration) {
	if s.n == 0 || d < s.min {
		s.min = d
	}
	if d > s.max {
		s.max = d
	}
	s.n++
	s.busy += d
	s.last = d
	s.counts[tickBucket(d)]++
}

// tickBucket returns the bucket of d.
func tickBucket(d time.Duration) int {
	if d <= tickBucketBase {
		return 0
	}
	i := int(math.Ceil(math.Log(float64(d)/float64(tickBucketBase)) / logTickGrowth))
	return min(max(i, 0), tickBuckets-1)
}

// percentile returns the p-th percentile (nearest rank) of the ticks
// recorded: the geometric middle of the bucket that holds it, clamped to
// the shortest and longest tick. Zero when none was recorded.
func (s *tickStats) percentile(p int) time.Duration {
	if s.n == 0 {
		return 0
	}
	rank := (s.n*uint64(p) + 99) / 100
	rank = max(rank, 1)
	var seen uint64
	for i, c := range s.counts {
		seen += c
		if seen < rank {
			continue
		}
		hi := float64(tickBucketBase) * math.Pow(tickBucketGrowth, float64(i))
		mid := time.Duration(hi / math.Sqrt(tickBucketGrowth))
		if i == 0 || i == tickBuckets-1 {
			mid = time.Duration(hi)
		}
		return min(max(mid, s.min), s.max)
	}
	return s.max
}
