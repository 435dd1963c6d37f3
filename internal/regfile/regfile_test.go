package regfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead covers what Read takes and refuses: a regular file, read
// whole or reported too large; a directory, a named pipe and a link loop
// refused with an error that says what they are; allow's veto.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, size, err := Read(file, 10, nil)
	if err != nil || string(data) != "0123456789" || size != 10 {
		t.Fatalf("read %q, size %d, err %v", data, size, err)
	}
	if data, size, err = Read(file, 4, nil); err != nil || size != 10 || len(data) > 5 {
		t.Fatalf("over the limit: %d bytes, size %d, err %v", len(data), size, err)
	}
	veto := errors.New("veto")
	if _, _, err := Read(file, 10, func(real string) error { return veto }); err != veto {
		t.Fatalf("allow: %v", err)
	}
	if _, _, err := Read(dir, 10, nil); !errors.Is(err, ErrNotRegular) || err.Error() != "not a regular file (a directory)" {
		t.Fatalf("directory: %v", err)
	}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if os.Symlink(b, a) == nil && os.Symlink(a, b) == nil {
		if _, _, err := Read(a, 10, nil); err != ErrLinkLoop {
			t.Fatalf("link loop: %v", err)
		}
	}
	if _, _, err := Read(filepath.Join(dir, "missing"), 10, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
}

func TestNotRegularError(t *testing.T) {
	for mode, kind := range map[fs.FileMode]string{
		fs.ModeDir:                        "a directory",
		fs.ModeNamedPipe:                  "a named pipe",
		fs.ModeSocket:                     "a socket",
		fs.ModeDevice:                     "a device",
		fs.ModeDevice | fs.ModeCharDevice: "a device",
		fs.ModeSymlink:                    "a symbolic link",
		fs.ModeIrregular:                  "an irregular file",
	} {
		err := error(NotRegularError{mode})
		if !errors.Is(err, ErrNotRegular) || !strings.HasSuffix(err.Error(), "("+kind+")") {
			t.Errorf("%v: %v", mode, err)
		}
	}
}

func TestReadBounded(t *testing.T) {
	for _, tc := range []struct {
		in        string
		size, max int64
		want      string
		wantSize  int64
	}{
		{"abc", 3, 10, "abc", 3},
		{"abc", -1, 10, "abc", 3},   // size unknown
		{"abcdef", 2, 3, "abcd", 4}, // grew: max+1 read, the larger size
	} {
		data, size, err := ReadBounded(strings.NewReader(tc.in), tc.size, tc.max)
		if err != nil || string(data) != tc.want || size != tc.wantSize {
			t.Errorf("%q size %d max %d: %q, %d, %v", tc.in, tc.size, tc.max, data, size, err)
		}
	}
}
