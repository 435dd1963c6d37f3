package loader

import (
	"syscall"
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
