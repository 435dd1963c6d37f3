package watch

import (
	"bytes"
	"os"
)

// Judging a save early. A file quiet for Settle is read at once if its
// save looks whole (quick); one that does not is looked at again after its
// next event, or judged as it is once quiet for Debounce (changed).

// quick looks at a pending file quiet for Settle. judged is true when the
// file was judged: missing, empty or unreadable (not a save, as after
// Debounce), or read whole, and then changed says whether its content is
// a new save. judged is false when the content read does not look whole:
// nothing is recorded and the file stays pending.
func (w *Watcher) quick(path string) (judged, changed bool) {
	before, errBefore := os.Stat(path)
	data, empty := w.look(path)
	if empty {
		w.judgedEmpty(path)
	}
	if data == nil {
		return true, false
	}
	after, errAfter := os.Stat(path)
	if errBefore != nil || errAfter != nil || !steady(before, after, len(data)) {
		return false, false // written while read
	}
	if old, _ := w.lastJudged(path); !looksWhole(old, data) {
		return false, false
	}
	if w.opt.Complete != nil && !w.opt.Complete(path, data) {
		return false, false
	}
	return true, w.record(path, data)
}

// steady reports whether a file's size and modification time, looked at
// before and after it was read, did not change and are those of the n
// bytes read.
func steady(before, after os.FileInfo, n int) bool {
	return before.Size() == after.Size() && after.Size() == int64(n) &&
		before.ModTime().Equal(after.ModTime())
}

// looksWhole reports whether data, read from a file whose last save was
// old, looks like a whole save rather than one caught while written: it
// ends with a newline if old did (editors keep a file's ending; a write
// cut at an arbitrary byte seldom ends a line), and it is not more than a
// quarter shorter than old (an edit seldom removes that much; a file
// written in two halves shows its first half first).
func looksWhole(old, data []byte) bool {
	if len(old) == 0 {
		return true
	}
	if bytes.HasSuffix(old, []byte("\n")) && !bytes.HasSuffix(data, []byte("\n")) {
		return false
	}
	return 4*len(data) >= 3*len(old)
}
