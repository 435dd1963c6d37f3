// Package cputime reads the CPU time the process has used, for the
// benchmarks that report work per CPU-second: on a shared machine that
// figure stays meaningful when wall time is not.
package cputime

import "time"

// Process returns the user and system CPU time the process has used so
// far, or 0 where the platform does not say.
func Process() time.Duration { return process() }
