// Package regfile reads files that may be hostile: regular files only,
// opened without blocking (a named pipe does not wait for a writer) and
// read bounded (a device such as /dev/zero never ends). The loader reads
// scene files with it and the watch package the files it watches, so
// both refuse the same files with the same messages.
package regfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is the error for a file that is not a regular file (a
// named pipe, a device, a socket or a directory). The errors Read
// returns for such a file are a [NotRegularError], which matches
// ErrNotRegular with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// ErrLinkLoop is the error for a path whose symbolic links do not end.
var ErrLinkLoop = errors.New("too many levels of symbolic links")

// NotRegularError says what kind of file was refused.
type NotRegularError struct {
	Mode fs.FileMode // the refused file's mode
}

// Error returns "not a regular file (KIND)", KIND saying what the file
// is ("a named pipe", "a directory", ...).
func (e NotRegularError) Error() string {
	kind := "an irregular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeDir != 0:
		kind = "a directory"
	case t&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case t&fs.ModeSocket != 0:
		kind = "a socket"
	case t&fs.ModeDevice != 0:
		kind = "a device"
	case t&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	}
	return "not a regular file (" + kind + ")"
}

// Is reports whether target is [ErrNotRegular].
func (e NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Read reads the file at path, a path of the operating system: symbolic
// links are resolved first, and allow, if not nil, approves the resolved
// path. The file is opened without blocking (a named pipe does not wait
// for a writer) and without following a link put in its place
// meanwhile, and it must be a regular file. At most max+1 bytes are
// read; size is the file's size (the larger of what the file system
// reports and what was read): size > max means too large, and then data
// may be short or nil.
func Read(path string, max int64, allow func(real string) error) (data []byte, size int64, err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = ErrLinkLoop // the only error EvalSymlinks makes itself
		}
		return nil, 0, err
	}
	if allow != nil {
		if err := allow(real); err != nil {
			return nil, 0, err
		}
	}
	// Stat first: a socket cannot be opened, and the message should say
	// what it is; the open file is checked again below.
	if fi, err := os.Stat(real); err != nil {
		return nil, 0, err
	} else if !fi.Mode().IsRegular() {
		return nil, 0, NotRegularError{fi.Mode()}
	}
	f, err := os.OpenFile(real, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, NotRegularError{fi.Mode()}
	}
	if fi.Size() > max {
		return nil, fi.Size(), nil // too large: not read
	}
	return ReadBounded(f, fi.Size(), max)
}

// ReadBounded reads r, of reported size (negative: unknown), up to max+1
// bytes. It returns what was read and the larger of size and its length.
func ReadBounded(r io.Reader, size, max int64) ([]byte, int64, error) {
	hint := size
	if hint < 0 || hint > max {
		hint = max
	}
	buf := bytes.NewBuffer(make([]byte, 0, hint+1))
	if _, err := buf.ReadFrom(io.LimitReader(r, max+1)); err != nil {
		return nil, 0, err
	}
	data := buf.Bytes()
	if int64(len(data)) > size {
		size = int64(len(data))
	}
	return data, size, nil
}
