package ecs

import (
	"slices"
	"unsafe"
)

type opKind uint8

const (
	opAdd opKind = iota
	opRemove
	opDestroy
	opFunc
	opMark
)

// command is one deferred structural change.
type command struct {
	op  opKind
	e   Entity
	id  ID
	val unsafe.Pointer // value for opAdd, owned by the command
	fn  func(*World)
}

// Locked reports whether the World is locked (a query iteration is open,
// or an observer or a batch fill function runs), so that structural
// changes are being deferred: see [World.Pending] and [World.Defer].
func (w *World) Locked() bool { return w.locks > 0 }

// Defer runs fn when the World is not locked ([World.Locked]): at once if
// it is not, else when the last lock is released, in order with the other
// deferred changes. fn must not be nil.
func (w *World) Defer(fn func(*World)) {
	w.mutable("Defer")
	if fn == nil {
		panic("ecs: Defer: nil function")
	}
	if w.locks > 0 {
		w.cmds = append(w.cmds, command{op: opFunc, fn: fn})
		return
	}
	fn(w)
	w.settle()
}

// Flush applies the deferred structural changes now. It panics if a query
// iteration is still open, because applying them then could move rows
// under the iterating cursor: finish the iteration, or close a query you
// broke out of ([Query.Close]; "defer q.Close()" right after starting it),
// first.
//
// Flush is only needed after a panic in an observer that was applying
// deferred changes (see [World.Locked]); otherwise the changes are applied
// as soon as the last lock is released.
func (w *World) Flush() {
	w.mutable("Flush")
	if w.locks > 0 {
		panic("ecs: Flush called while a query iteration is open; " +
			"end the loop (or call Close on a query you broke out of; defer q.Close() does it on every way out) before flushing")
	}
	w.flush()
}

// Pending returns the number of deferred structural changes waiting for
// the World to be unlocked ([World.Locked]).
func (w *World) Pending() int { return len(w.cmds) }

// settle applies deferred changes if nothing holds the World locked.
func (w *World) settle() {
	if w.locks == 0 && len(w.cmds) > 0 {
		w.flush()
	}
}

// openIter locks the World for a new query iteration and returns the
// iteration's serial number (never 0).
func (w *World) openIter() uint64 {
	if w.frozen {
		return sharedIter
	}
	w.iterSeq++
	w.open = append(w.open, w.iterSeq)
	w.locks++
	return w.iterSeq
}

// iterOpen reports whether iteration id is still open.
func (w *World) iterOpen(id uint64) bool {
	if id == sharedIter {
		return w.frozen
	}
	o := w.open
	if n := len(o); n > 0 && o[n-1] == id {
		return true
	}
	return slices.Contains(o, id)
}

// closeIter ends iteration id, if it is still open, and releases its lock;
// the last lock released applies the deferred changes. Closing an
// iteration that is already closed (through a copy of its Query, or
// twice) does nothing, so it can never release another iteration's lock.
func (w *World) closeIter(id uint64) {
	if id == sharedIter {
		return // opened while frozen: no lock of its own
	}
	if n := len(w.open); n > 0 && w.open[n-1] == id {
		// The innermost iteration: the usual case.
		w.open = w.open[:n-1]
		w.locks--
		if w.locks == 0 && len(w.cmds) > 0 {
			w.flush()
		}
		return
	}
	w.closeIterSlow(id)
}

// closeIterSlow is closeIter for an iteration that is not the innermost
// one, or no longer open.
func (w *World) closeIterSlow(id uint64) {
	i := slices.Index(w.open, id)
	if i < 0 {
		return
	}
	w.open = slices.Delete(w.open, i, i+1)
	w.locks--
	w.settle()
}

// enter locks the World around a call into user code (an observer, a batch
// fill function). The caller must defer leave with the address of a flag
// it sets once the call returned normally.
func (w *World) enter() { w.locks++ }

// leave releases the lock taken by enter. On the way out of a panic
// (*done false) it also applies the deferred changes if that was the last
// lock, so that a panic recovered by the program never leaves changes
// queued behind an unlocked World. On a normal return it does not: the
// operation that called the user code applies them when it is complete.
func (w *World) leave(done *bool) {
	w.locks--
	if !*done {
		w.settle()
	}
}

func (w *World) flush() {
	if w.flushing {
		return
	}
	w.flushing = true
	i := 0
	defer func() {
		w.flushing = false
		if i < len(w.cmds) {
			// Applying command i panicked: drop it and those before it;
			// the rest stay queued for the next Flush or unlock.
			n := copy(w.cmds, w.cmds[i+1:])
			clear(w.cmds[n:])
			w.cmds = w.cmds[:n]
		}
	}()
	for ; i < len(w.cmds); i++ {
		c := w.cmds[i]
		w.cmds[i] = command{}
		switch c.op {
		case opAdd:
			r := w.rec(c.e)
			if r == nil {
				continue
			}
			if w.tables[r.table].has(c.id) {
				// Added twice while deferred: the later value wins.
				_ = w.SetPtr(c.e, c.id, c.val)
				continue
			}
			w.addNow(c.e, r, c.id, c.val)
		case opRemove:
			w.removeNow(c.e, c.id)
		case opDestroy:
			if w.rec(c.e) != nil {
				w.destroyNow(c.e)
			}
		case opFunc:
			c.fn(w)
		case opMark:
			if r := w.rec(c.e); r != nil && w.tables[r.table].has(c.id) {
				_ = w.MarkChanged(c.e, c.id)
			}
		}
	}
	w.cmds = w.cmds[:0]
}
