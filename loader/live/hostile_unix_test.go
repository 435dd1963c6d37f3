//go:build unix

package live

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("named pipes: %v", err)
	}
}
