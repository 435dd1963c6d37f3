package cputime

import (
	"runtime"
	"testing"
)

// TestProcessGrows: busy work moves the process's CPU time forward.
func TestProcessGrows(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("not measured on", runtime.GOOS)
	}
	t0 := Process()
	x := 0
	for Process()-t0 < 5e6 { // 5 ms of CPU
		for i := range 1_000_000 {
			x += i
		}
	}
	if Process() <= t0 || x == 0 {
		t.Fatalf("CPU time %v then %v", t0, Process())
	}
}
