package ecs

import "unsafe"

type opKind uint8

const (
	opAdd opKind = iota
	opRemove
	opDestroy
	opFunc
)

// command is one deferred structural change.
type command struct {
	op  opKind
	e   Entity
	id  ID
	val unsafe.Pointer // value for opAdd, owned by the command
	fn  func(*World)
}

// Locked reports whether a query iteration is open, so that structural
// changes are being deferred.
func (w *World) Locked() bool { return w.locks > 0 }

// Defer runs fn when no query iteration is open: at once if none is, else
// when the last one ends, in order with the other deferred changes.
func (w *World) Defer(fn func(*World)) {
	if w.locks > 0 {
		w.cmds = append(w.cmds, command{op: opFunc, fn: fn})
		return
	}
	fn(w)
	w.settle()
}

// Flush applies the deferred structural changes now. It panics if a query
// iteration is still open, because applying them then could move rows
// under the iterating cursor: finish the iteration, or call Close on a
// query you broke out of, first.
func (w *World) Flush() {
	if w.locks > 0 {
		panic("ecs: Flush called while a query iteration is open; " +
			"end the loop (or call Close on a query you broke out of) before flushing")
	}
	w.flush()
}

// Pending returns the number of deferred structural changes waiting for
// the open iterations to end.
func (w *World) Pending() int { return len(w.cmds) }

// settle applies deferred changes if nothing holds the World locked.
func (w *World) settle() {
	if w.locks == 0 && len(w.cmds) > 0 {
		w.flush()
	}
}

func (w *World) lock() { w.locks++ }

func (w *World) unlock() {
	w.locks--
	if w.locks < 0 {
		panic("ecs: query closed more often than opened")
	}
	w.settle()
}

func (w *World) flush() {
	if w.flushing {
		return
	}
	w.flushing = true
	defer func() { w.flushing = false }()
	for i := 0; i < len(w.cmds); i++ {
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
		}
	}
	w.cmds = w.cmds[:0]
}
