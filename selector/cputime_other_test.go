//go:build !linux

package selector_test

import "time"

var cpuStart = time.Now()

// threadCPU returns the time since the test binary started: where
// threads' CPU times are not read, the ratio benchmarks time with the
// clock.
func threadCPU() time.Duration { return time.Since(cpuStart) }
