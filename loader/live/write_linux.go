package live

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeFiles swaps the files at paths a and b in one step
// (renameat2 with RENAME_EXCHANGE): a reader, or another writer, sees
// one or the other, never neither. errNoExchange if the kernel or the
// file system cannot.
func exchangeFiles(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errNoExchange
	}
	return err
}
