package inspect

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/live"
)

// The journal: every change made through the API (a component set or
// removed, an entity created, destroyed, cloned or reparented, an event
// sent) is a command recorded with what it replaced, so that it can be
// undone and redone (POST /api/undo, /api/redo) in order. GET
// /api/history lists it; a "history" event tells every event stream of
// each change of it. The journal lives on the simulation goroutine, as
// the World does: only work items touch it.
//
// Entities are held by slots, not handles: undoing the destruction of an
// entity makes a new one (another handle), and the slot follows it, so
// that the commands before and after still name the right entity.

// maxHistory bounds the entries kept; the oldest go first.
const maxHistory = 1000

// slot names an entity across its destruction and re-creation by undo
// and redo.
type slot struct{ e ecs.Entity }

// entry is one command of the journal: what GET /api/history lists, and
// how to undo and redo it.
type entry struct {
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

	// undo and redo change the World (and the file, for a saved entry)
	// and return nil, or the reply that says why they could not (nothing
	// changed then).
	undo, redo func() *reply
}

// journal is the Inspector's history of commands.
type journal struct {
	entries []*entry
	// cursor counts the entries applied: entries[:cursor] are, the rest
	// were undone and can be redone.
	cursor int
	seq    int
	slots  map[ecs.Entity]*slot
}

// historyEvent is the data of a "history" event.
type historyEvent struct {
	// Op is "do" (a new command: the entries from its seq on were
	// dropped first), "undo", "redo" or "clear" (the history was
	// emptied: a hot reload changed the scene).
	Op     string `json:"op"`
	Cursor int    `json:"cursor"`
	Entry  *entry `json:"entry,omitempty"`
	// Reason says why the history was cleared.
	Reason string `json:"reason,omitempty"`
}

// historyList is the answer of GET /api/history.
type historyList struct {
	Cursor  int      `json:"cursor"`
	Entries []*entry `json:"entries"`
}

// cursorSeq is the seq of the last applied entry: entries with a seq up
// to it are applied, the others undone.
func (j *journal) cursorSeq() int {
	switch {
	case j.cursor > 0:
		return j.entries[j.cursor-1].Seq
	case len(j.entries) > 0:
		return j.entries[0].Seq - 1
	default:
		return j.seq
	}
}

// slotOf returns e's slot, making one if it has none.
func (j *journal) slotOf(e ecs.Entity) *slot {
	if s, ok := j.slots[e]; ok {
		return s
	}
	if j.slots == nil {
		j.slots = map[ecs.Entity]*slot{}
	}
	s := &slot{e: e}
	j.slots[e] = s
	return s
}

// moved records that s now names e (undo or redo made it anew).
func (j *journal) moved(s *slot, e ecs.Entity) {
	delete(j.slots, s.e)
	s.e = e
	if j.slots == nil {
		j.slots = map[ecs.Entity]*slot{}
	}
	j.slots[e] = s
}

// record adds a command done just now: the undone entries after the
// cursor are dropped (they can no longer be redone), the oldest beyond
// maxHistory too; every stream is told.
func (in *Inspector) record(x *entry) {
	j := &in.hist
	j.entries = j.entries[:j.cursor]
	j.seq++
	x.Seq = j.seq
	j.entries = append(j.entries, x)
	if len(j.entries) > maxHistory {
		n := len(j.entries) - maxHistory
		clear(j.entries[:n])
		j.entries = j.entries[n:]
	}
	j.cursor = len(j.entries)
	in.hub.publish("history", historyEvent{Op: "do", Cursor: j.cursorSeq(), Entry: x})
}

// clearHistory empties the history (a hot reload changed the scene:
// the values the entries would put back are no longer what they
// replaced) and tells every stream why.
func (in *Inspector) clearHistory(reason string) {
	j := &in.hist
	if len(j.entries) == 0 {
		return
	}
	clear(j.entries)
	j.entries, j.cursor, j.slots = j.entries[:0], 0, nil
	in.hub.publish("history", historyEvent{Op: "clear", Cursor: j.cursorSeq(), Reason: reason})
}

// historyOf answers GET /api/history.
func (in *Inspector) historyOf() historyList {
	j := &in.hist
	out := historyList{Cursor: j.cursorSeq(), Entries: make([]*entry, len(j.entries))}
	for i, x := range j.entries {
		c := *x
		out.Entries[i] = &c
	}
	return out
}

// getHistory: GET /api/history.
func (in *Inspector) getHistory(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { return okReply(in.historyOf()) })
}

// stepAnswer is the answer of POST /api/undo and /api/redo.
type stepAnswer struct {
	Entry  *entry `json:"entry"`
	Cursor int    `json:"cursor"`
}

// postUndo: POST /api/undo.
func (in *Inspector) postUndo(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { return in.apply(&JournalLine{Op: "undo"}) })
}

// postRedo: POST /api/redo.
func (in *Inspector) postRedo(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { return in.apply(&JournalLine{Op: "redo"}) })
}

// undo undoes the last applied entry: 409 if there is none, or if it
// cannot be undone (the entity is gone, the file changed since it was
// saved, ...), with nothing changed.
func (in *Inspector) undo() reply {
	j := &in.hist
	if j.cursor == 0 {
		return errReply(http.StatusConflict, "nothing to undo")
	}
	x := j.entries[j.cursor-1]
	if rep := x.undo(); rep != nil {
		return *rep
	}
	j.cursor--
	x.Undone = true
	return in.stepped("undo", x)
}

// redo applies again the first undone entry: 409 if there is none or it
// cannot be redone, with nothing changed.
func (in *Inspector) redo() reply {
	j := &in.hist
	if j.cursor == len(j.entries) {
		return errReply(http.StatusConflict, "nothing to redo")
	}
	x := j.entries[j.cursor]
	if rep := x.redo(); rep != nil {
		return *rep
	}
	j.cursor++
	x.Undone = false
	return in.stepped("redo", x)
}

// stepped publishes and answers an undo or redo of x.
func (in *Inspector) stepped(op string, x *entry) reply {
	c := *x
	cur := in.hist.cursorSeq()
	in.hub.publish("history", historyEvent{Op: op, Cursor: cur, Entry: &c})
	return okReply(stepAnswer{Entry: &c, Cursor: cur})
}

// alive returns the entity slot s names, or a 409 saying it is gone (the
// simulation destroyed it since the command).
func (in *Inspector) alive(s *slot, what string) (ecs.Entity, *reply) {
	if s != nil && in.w.Alive(s.e) {
		return s.e, nil
	}
	rep := errReply(http.StatusConflict, fmt.Sprintf("inspect: cannot %s: the entity no longer exists (destroyed since, not through the API)", what))
	return ecs.Entity{}, &rep
}

// reloadedHistory is what a hot reload does to the history: one that
// changed the scene clears it (the entries' old values may no longer be
// what a reload left); one that changed nothing (the watcher reading a
// save-back the inspector just wrote) or failed keeps it.
func (in *Inspector) reloadedHistory(d *live.Diff, err error) {
	if err != nil || d == nil || d.Empty() {
		return
	}
	in.clearHistory("the scene's files were reloaded (" + d.Summary() + "): changes made before cannot be undone")
	in.journalNote(&JournalLine{Op: "reload"})
}

// journalNote writes l into the journal file, if there is one, stamped
// with the ticks run so far. A write error stops the journal and is
// reported once as the run's error.
func (in *Inspector) journalNote(l *JournalLine) {
	if in.opt.Journal == nil || in.journalErr != nil {
		return
	}
	l.Tick = in.stats.ticksNow()
	b, err := json.Marshal(l)
	if err == nil {
		_, err = in.opt.Journal.Write(append(b, '\n'))
	}
	if err != nil {
		in.journalErr = err
		in.reg.ReportError(fmt.Errorf("inspect: writing the journal: %w (it stops here)", err))
	}
}
