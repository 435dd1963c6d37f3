package editor

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
)

// The history: every command is recorded with what it replaced, so that
// it can be undone and redone in order. It is bounded in entries
// (Options.MaxHistory) and in the bytes they hold
// (Options.MaxHistoryBytes): the oldest entries go first, and undo
// stops where the dropped history begins, saying so.
//
// Entities are held by slots, not handles: undoing the destruction of an
// entity makes a new one (another handle), and the slot follows it, so
// that the entries before and after still name the right entity.

// slot names an entity across its destruction and re-creation by undo
// and redo.
type slot struct{ e ecs.Entity }

// Entry is one command of the history: what [Editor.History] lists, and
// how to undo and redo it.
type Entry struct {
	Seq       int    `json:"seq"`
	Op        string `json:"op"`
	Ref       string `json:"ref,omitempty"`
	Entity    string `json:"entity,omitempty"`
	Component string `json:"component,omitempty"`
	Summary   string `json:"summary"`
	// Saved: the change was also written into the scene file (File);
	// undo and redo then edit the file back and forth.
	Saved  bool   `json:"saved"`
	File   string `json:"file,omitempty"`
	Undone bool   `json:"undone"`

	// edit undoes and redoes the command; bytes is what the entry holds
	// as the history counts it.
	edit  undoer
	bytes int64
}

// undoer is the World side (and the file side, for a saved command) of
// an entry. undo and redo change nothing when they return an error;
// what names the step in messages ("undo set spin of #wreck").
type undoer interface {
	undo(ed *Editor, what string) error
	redo(ed *Editor, what string) error
	// size counts the bytes the entry holds (values, snapshots, files'
	// bytes), as its undo and redo left them.
	size() int64
	// slots calls f with every slot the entry names.
	slots(f func(*slot))
}

// entryBytes is what the history counts for an entry besides what its
// undoer holds: the Entry, its strings and its place in the list.
func entryBytes(x *Entry) int64 {
	return 160 + int64(len(x.Op)+len(x.Ref)+len(x.Entity)+len(x.Component)+len(x.Summary)+len(x.File))
}

// history is an Editor's list of entries.
type history struct {
	entries []*Entry
	// cursor counts the entries applied: entries[:cursor] are, the rest
	// were undone and can be redone.
	cursor int
	// seq is the last seq given; applied the seq of the last entry
	// applied (the entries with a seq up to it are).
	seq, applied int
	// bytes sums the entries' bytes; dropped counts the oldest entries
	// dropped to keep within the bounds since the history was last
	// cleared, droppedRedo the undone ones dropped since the last
	// command.
	bytes                int64
	dropped, droppedRedo int
	slots                map[ecs.Entity]*slot
	// slotsKept is the number of slots the last pruning kept.
	slotsKept int
}

// slotOf returns e's slot, making one if it has none.
func (h *history) slotOf(e ecs.Entity) *slot {
	if s, ok := h.slots[e]; ok {
		return s
	}
	if h.slots == nil {
		h.slots = map[ecs.Entity]*slot{}
	}
	s := &slot{e: e}
	h.slots[e] = s
	return s
}

// moved records that s now names e (undo or redo made it anew).
func (h *history) moved(s *slot, e ecs.Entity) {
	delete(h.slots, s.e)
	s.e = e
	if h.slots == nil {
		h.slots = map[ecs.Entity]*slot{}
	}
	h.slots[e] = s
}

// HistoryEvent is the data of a "history" event.
type HistoryEvent struct {
	// Op is "do" (a new command: the entries from its seq on were
	// dropped first), "undo", "redo" or "clear" (the history was
	// emptied: a hot reload changed the scene).
	Op     string `json:"op"`
	Cursor int    `json:"cursor"`
	Entry  *Entry `json:"entry,omitempty"`
	// Reason says why the history was cleared.
	Reason string `json:"reason,omitempty"`
	// Dropped is [History].Dropped after the change: a client that
	// keeps its own list learns that its oldest entries are gone.
	Dropped int `json:"dropped,omitempty"`
}

// History is the history as [Editor.History] lists it.
type History struct {
	// Cursor is the seq of the last entry applied: entries with a seq
	// up to it are applied, the others undone.
	Cursor  int      `json:"cursor"`
	Entries []*Entry `json:"entries"`
	// Bytes is what the entries hold, as the history counts it against
	// Options.MaxHistoryBytes; Dropped the oldest entries dropped to keep
	// within the bounds since the history was last cleared.
	Bytes   int64 `json:"bytes"`
	Dropped int   `json:"dropped,omitempty"`
}

// Step is what [Undo] and [Redo] did: the entry, and the new cursor.
type Step struct {
	Entry  *Entry `json:"entry"`
	Cursor int    `json:"cursor"`
}

// History returns the history, oldest first (copies of the entries).
func (ed *Editor) History() History {
	h := &ed.hist
	out := History{Cursor: h.applied, Entries: make([]*Entry, len(h.entries)), Bytes: h.bytes, Dropped: h.dropped}
	for i, x := range h.entries {
		c := *x
		out.Entries[i] = &c
	}
	return out
}

// record adds a command done just now: the undone entries after the
// cursor are dropped (they can no longer be redone), then the oldest
// beyond the bounds; every stream is told.
func (ed *Editor) record(x *Entry) {
	h := &ed.hist
	for _, u := range h.entries[h.cursor:] {
		h.bytes -= u.bytes
	}
	clear(h.entries[h.cursor:])
	h.entries = h.entries[:h.cursor]
	h.seq++
	x.Seq = h.seq
	x.bytes = entryBytes(x) + x.edit.size()
	h.entries = append(h.entries, x)
	h.bytes += x.bytes
	h.cursor, h.applied, h.droppedRedo = len(h.entries), x.Seq, 0
	ed.trim()
	ed.publish("history", HistoryEvent{Op: "do", Cursor: h.applied, Entry: x, Dropped: h.dropped})
}

// resize counts x's bytes again (its undo or redo took a snapshot, or
// let one go) and keeps the history within its bounds.
func (ed *Editor) resize(x *Entry) {
	n := entryBytes(x) + x.edit.size()
	ed.hist.bytes += n - x.bytes
	x.bytes = n
	ed.trim()
}

// trim drops entries until the history is within its bounds: the
// oldest applied ones first, then, if every entry left is undone, the
// newest undone ones (so that redo goes on in order as far as it can).
func (ed *Editor) trim() {
	h := &ed.hist
	n := 0
	for len(h.entries) > 0 && (len(h.entries) > ed.opt.MaxHistory || h.bytes > ed.opt.MaxHistoryBytes) {
		var x *Entry
		if h.cursor > 0 {
			x = h.entries[0]
			h.entries[0] = nil
			h.entries = h.entries[1:]
			h.cursor--
			h.dropped++
		} else {
			last := len(h.entries) - 1
			x = h.entries[last]
			h.entries[last] = nil
			h.entries = h.entries[:last]
			h.droppedRedo++
		}
		h.bytes -= x.bytes
		n++
	}
	if n > 0 && len(h.slots) >= 2*h.slotsKept+1024 {
		ed.pruneSlots()
	}
}

// pruneSlots forgets the slots no entry names any more (the entries
// that named them were dropped).
func (ed *Editor) pruneSlots() {
	h := &ed.hist
	kept := map[ecs.Entity]*slot{}
	for _, x := range h.entries {
		x.edit.slots(func(s *slot) {
			if s != nil && h.slots[s.e] == s {
				kept[s.e] = s
			}
		})
	}
	h.slots, h.slotsKept = kept, len(kept)
}

// clear empties the history (a hot reload changed the scene: the values
// the entries would put back are no longer what they replaced) and
// tells every stream why.
func (ed *Editor) clear(reason string) {
	h := &ed.hist
	if len(h.entries) == 0 {
		return
	}
	clear(h.entries)
	h.entries, h.cursor, h.slots, h.slotsKept = h.entries[:0], 0, nil, 0
	h.applied, h.bytes, h.dropped, h.droppedRedo = h.seq, 0, 0, 0
	ed.publish("history", HistoryEvent{Op: "clear", Cursor: h.applied, Reason: reason})
}

func (Undo) do(ed *Editor) (*Result, *Entry, error) {
	h := &ed.hist
	if h.cursor == 0 {
		return nil, nil, ed.nothing("undo", h.dropped, "oldest")
	}
	x := h.entries[h.cursor-1]
	if err := x.edit.undo(ed, "undo "+x.Summary); err != nil {
		return nil, nil, err
	}
	h.cursor--
	h.applied = x.Seq - 1
	x.Undone = true
	return ed.stepped("undo", x), nil, nil
}

func (Redo) do(ed *Editor) (*Result, *Entry, error) {
	h := &ed.hist
	if h.cursor == len(h.entries) {
		return nil, nil, ed.nothing("redo", h.droppedRedo, "newest undone")
	}
	x := h.entries[h.cursor]
	if err := x.edit.redo(ed, "redo "+x.Summary); err != nil {
		return nil, nil, err
	}
	h.cursor++
	h.applied = x.Seq
	x.Undone = false
	return ed.stepped("redo", x), nil, nil
}

// nothing is the error of an undo or redo with no entry left: when
// entries were dropped to keep the history within its bounds, it says
// so.
func (ed *Editor) nothing(op string, dropped int, which string) *Error {
	if dropped == 0 {
		return fail(Nothing, "nothing to %s", op)
	}
	return fail(Nothing, "nothing to %s: the history dropped its %d %s changes, keeping at most %d changes (MaxHistory) and %s of what they hold (MaxHistoryBytes)",
		op, dropped, which, ed.opt.MaxHistory, byteSize(ed.opt.MaxHistoryBytes))
}

// stepped counts x again after its undo or redo, publishes the step and
// returns it.
func (ed *Editor) stepped(op string, x *Entry) *Result {
	ed.resize(x)
	c := *x
	ed.publish("history", HistoryEvent{Op: op, Cursor: ed.hist.applied, Entry: &c, Dropped: ed.hist.dropped})
	return &Result{Step: &Step{Entry: &c, Cursor: ed.hist.applied}}
}

// alive returns the entity slot s names, or a [Conflict] saying it is
// gone (the simulation destroyed it since the command).
func (ed *Editor) alive(s *slot, what string) (ecs.Entity, error) {
	if s != nil && ed.w.Alive(s.e) {
		return s.e, nil
	}
	return ecs.Entity{}, fail(Conflict, "cannot %s: the entity no longer exists (destroyed since, not through the API)", what)
}

// byteSize writes n bytes for people: "64 MiB", "1.5 KiB", "100 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<20))) + " MiB"
	case n >= 1<<10:
		return trimZero(fmt.Sprintf("%.1f", float64(n)/(1<<10))) + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

// trimZero drops a ".0" ending.
func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
