package live

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/scenecs/scenecs/internal/regfile"
)

// Writing a saved edit into its file, next to the editors that write it
// too.
//
// An editor saves a file by writing it in place (truncating it first)
// or by writing another file and renaming it over the scene file. A save
// that read the file, checked it and then renamed its own bytes over it
// would throw away an editor's save that landed in between. So the new
// bytes go to a temporary file in the same directory, which is then
// swapped with the scene file in one step (renameat2 RENAME_EXCHANGE on
// Linux, renamex_np RENAME_SWAP on macOS): afterwards the temporary name
// holds exactly what the scene file held at the instant of the swap,
// which is compared with what the save was made from. If it is
// something else, an editor saved in between: the two are swapped back,
// so that the editor's save is in place again, and the save is refused.
// The swap back happens only while the scene file is still the file
// this save put there, with its bytes: an editor that saved yet again
// since holds the newest save, which stays (swapping back then would
// show its older save for a moment). Should it save in the instant
// between that check and the swap, the newest save is brought back in
// the next round; if it keeps saving through a few rounds, the bytes
// left under the temporary name are kept in a file beside the scene
// file, named in the error. A file the editor writes in place is never
// truncated by a save: the swap changes names, not contents. No scheme
// of names closes the instants between a check and a swap without the
// editor's cooperation; these keep them to a system call or two, and
// the editor's newest save is what the file holds at the end.

// ErrReadOnly is the error for a save into a file that is read-only (no
// write permission for anyone, or not for this process) or whose
// directory is: save-back respects the mode and does not replace it.
var ErrReadOnly = errors.New("the scene file is read-only")

// errNoExchange: the system cannot swap two files in one step.
var errNoExchange = errors.New("cannot exchange files")

// exchange swaps two files (exchangeFiles; a variable for the tests).
var exchange = exchangeFiles

// swapRounds bounds the rounds of swapping an editor's saves back.
const swapRounds = 8

// checkWritable returns ErrReadOnly (wrapped, with the reason) if the
// file at path, after following symbolic links, is one save-back must
// not replace; and its real path and information.
func checkWritable(path string) (string, fs.FileInfo, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", nil, err
	}
	if perm := fi.Mode().Perm(); perm&0o222 == 0 {
		return "", nil, fmt.Errorf("%s is read-only (mode %04o): save-back does not replace a read-only file; make it writable (chmod u+w) to save into it: %w", path, perm, ErrReadOnly)
	}
	if err := canWrite(real); err != nil {
		return "", nil, fmt.Errorf("%s is not writable by this program (mode %04o: %v): save-back does not replace it: %w", path, fi.Mode().Perm(), err, ErrReadOnly)
	}
	return real, fi, nil
}

// replaceFile replaces the file at path (following symbolic links) with
// after, if it holds before (see the comment above): written to a
// temporary file in the same directory, synced, given the file's mode
// (and owner, where this process may), then swapped in. max bounds what
// is read back. It returns ErrFileChanged (wrapped) if the file did not
// hold before, or an editor saved it meanwhile, ErrReadOnly for a file
// save-back must not replace; in both cases the file holds what it held.
func replaceFile(path string, before, after []byte, max int64) error {
	real, fi, err := checkWritable(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w while saving (it is gone: an editor may be saving it); nothing saved", path, ErrFileChanged)
	}
	if err != nil {
		return err
	}
	tmp, err := writeTemp(real, fi, after)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("%s: cannot write beside it (%v): save-back writes a new file in the directory and swaps it in: %w", path, err, ErrReadOnly)
		}
		return err
	}
	swapped := false
	defer func() {
		if !swapped {
			_ = os.Remove(tmp)
		}
	}()
	read, err := os.Lstat(real) // the file about to be read
	if err != nil {
		return fmt.Errorf("%s: %w while saving (it is gone: an editor may be saving it); nothing saved", path, ErrFileChanged)
	}
	if cur, _, err := regfile.Read(real, max, nil); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	} else if !bytes.Equal(cur, before) {
		return fmt.Errorf("%s: %w while saving (an editor saved it); nothing saved", path, ErrFileChanged)
	}
	placedFI, err := os.Lstat(tmp)
	if err != nil {
		return err
	}
	if now, err := os.Lstat(real); err == nil && !sameState(now, read) {
		return fmt.Errorf("%s: %w while saving (an editor saved it); nothing saved", path, ErrFileChanged)
	}
	switch err := exchange(tmp, real); {
	case errors.Is(err, errNoExchange):
		return renameChecked(path, real, tmp, fi)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: %w while saving (it is gone: an editor may be saving it); nothing saved", path, ErrFileChanged)
	case err != nil:
		return err
	}
	swapped = true
	return settle(path, real, tmp, placedFI, before, after, max)
}

// writeTemp writes data to a new file beside real, synced, with fi's
// mode and (where this process may) owner, and returns its path.
func writeTemp(real string, fi fs.FileInfo, data []byte) (tmp string, err error) {
	f, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".save-*")
	if err != nil {
		return "", err
	}
	tmp = f.Name()
	defer func() {
		if err != nil {
			_ = os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if err = os.Chmod(tmp, fi.Mode().Perm()); err != nil {
		return "", err
	}
	sameOwner(tmp, fi)
	return tmp, nil
}

// settle finishes a swap of the new bytes into real, whose old bytes are
// now at tmp: if they are before, the save is done. Otherwise an editor
// saved in between, and its save goes back in place: but only while the
// file still holds what this save put there (the same file, the same
// bytes). An editor that saved again since (renaming its file over it,
// or writing into it) holds the newest save, which stays; the older one
// swapped out to tmp is dropped. Each swap back is checked the same way
// (an editor's save landing in the microseconds between the check and
// the swap is brought back in the next round). The save is refused.
func settle(path, real, tmp string, placedFI fs.FileInfo, before, after []byte, max int64) error {
	old, _, err := regfile.Read(tmp, max, nil)
	if err == nil && bytes.Equal(old, before) {
		_ = os.Remove(tmp)
		return nil
	}
	// real holds placed (the file placedFI), tmp an editor's save.
	placed := after
	for range swapRounds {
		if !holds(real, placedFI, placed, max) {
			// An editor saved after the swap: its save is the newest.
			_ = os.Remove(tmp)
			return fmt.Errorf("%s: %w while saving (an editor saved it at that moment); its save is kept, and this one is not written", path, ErrFileChanged)
		}
		outFI, serr := os.Lstat(tmp)
		if serr != nil {
			err = serr
			break
		}
		if err = exchange(tmp, real); err != nil {
			break
		}
		got, _, rerr := regfile.Read(tmp, max, nil)
		if rerr != nil {
			err = rerr
			break
		}
		if now, serr := os.Lstat(tmp); serr == nil && os.SameFile(now, placedFI) && bytes.Equal(got, placed) {
			// No save since the check: the file holds the editor's
			// save, and tmp what this save had put there.
			_ = os.Remove(tmp)
			return fmt.Errorf("%s: %w while saving (an editor saved it at that moment); its save is kept, and this one is not written", path, ErrFileChanged)
		}
		// An editor saved between the check and the swap: its newer
		// save is at tmp now, and real holds the older one.
		placed, placedFI, old = old, outFI, got
	}
	keep := filepath.Join(filepath.Dir(real), filepath.Base(real)+".save-conflict-"+strconv.FormatInt(time.Now().UnixNano(), 36))
	if rerr := os.Rename(tmp, keep); rerr != nil {
		keep = tmp
	}
	if err == nil {
		err = errors.New("an editor kept saving it")
	}
	return fmt.Errorf("%s: %w while saving (%v); this save is not written, and the bytes swapped out of the file last are kept in %s",
		path, ErrFileChanged, err, keep)
}

// holds reports whether the file at real is still the file fi, with the
// bytes want (an editor that renames its save over it makes it another
// file; one that writes into it changes its bytes).
func holds(real string, fi fs.FileInfo, want []byte, max int64) bool {
	got, _, err := regfile.Read(real, max, nil)
	if err != nil || !bytes.Equal(got, want) {
		return false
	}
	now, err := os.Lstat(real)
	return err == nil && os.SameFile(now, fi)
}

// renameChecked renames tmp over real where the system cannot swap two
// files: right before the rename it checks that real is still the file
// (same inode, size and time) whose bytes replaceFile compared, so that
// only an editor's save landing in the microseconds between that check
// and the rename can be lost.
func renameChecked(path, real, tmp string, fi fs.FileInfo) error {
	now, err := os.Stat(real)
	if err != nil || !sameState(now, fi) {
		return fmt.Errorf("%s: %w while saving (an editor saved it); nothing saved", path, ErrFileChanged)
	}
	return os.Rename(tmp, real)
}

// sameState reports whether now is the file fi still, with the same size
// and modification time: a file renamed over it, or one written into
// since, differs (a write within the file system's clock tick that keeps
// the size may not).
func sameState(now, fi fs.FileInfo) bool {
	return os.SameFile(fi, now) && now.Size() == fi.Size() && now.ModTime().Equal(fi.ModTime())
}
