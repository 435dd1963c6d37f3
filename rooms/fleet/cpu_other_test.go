//go:build !unix

package fleet

import "time"

// cpuTime is not measured here: BenchmarkTransformStream10k reports 0 ms of CPU.
func cpuTime() time.Duration { return 0 }
