package live

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeFiles swaps the files at paths a and b in one step
// (renamex_np with RENAME_SWAP). errNoExchange if the file system
// cannot.
func exchangeFiles(a, b string) error {
	err := unix.RenamexNp(a, b, unix.RENAME_SWAP)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EINVAL) {
		return errNoExchange
	}
	return err
}
