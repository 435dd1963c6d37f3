//go:build !unix

package rooms

import "time"

// cpuTime is not measured here: BenchmarkRoomsHeld reports 0 cores.
func cpuTime() time.Duration { return 0 }
