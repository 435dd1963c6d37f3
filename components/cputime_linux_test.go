package components

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used (Linux's
// CLOCK_THREAD_CPUTIME_ID, in nanoseconds). The ratio benchmarks time
// with it, the goroutine locked to its thread, so that the time the
// thread waits for a core on a loaded machine counts for neither side.
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}
