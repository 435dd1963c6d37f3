//go:build !unix

package regfile

// openFlags: no flags beyond reading on systems without named pipes of
// the Unix kind; the file's type is checked once it is open.
const openFlags = 0
