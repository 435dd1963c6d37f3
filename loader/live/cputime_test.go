package live

import (
	"syscall"
	"time"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
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

// compileDoc compiles doc against reg without options, as a reload does.
func compileDoc(doc *scenefile.Document, reg *registry.Registry) (*plan.Plan, error) {
	return plan.Compile(doc, reg, plan.Options{})
}
