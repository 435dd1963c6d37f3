//go:build !unix

package live

import "testing"

// mkfifo skips: no named pipes of the Unix kind here.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	t.Skip("no named pipes on this system")
}
