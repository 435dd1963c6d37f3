//go:build unix

package regfile

import "syscall"

// openFlags open a file without waiting for a writer (a named pipe)
// and without following a link at its last element (the path given is
// resolved already: a link there now was put in place meanwhile).
const openFlags = syscall.O_NONBLOCK | syscall.O_NOFOLLOW
