//go:build unix

package live

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// canWrite reports whether this process may write the file at path (its
// permissions and owner, as the system judges them: access(2)).
func canWrite(path string) error { return unix.Access(path, unix.W_OK) }

// sameOwner gives the file at path the owner and group of fi, where this
// process may (a file edited by its owner keeps them anyway).
func sameOwner(path string, fi fs.FileInfo) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		_ = os.Lchown(path, int(st.Uid), int(st.Gid))
	}
}
