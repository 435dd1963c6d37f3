package components

import (
	"math/bits"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/expr"
)

// Bindings of a value that reads no component (sin(time * 2) * 3), on a
// position, rotation or scale, are written in batches: the runs that
// share a compiled program (and so its value) are gathered into a group,
// the list of their fields' addresses, which the tick writes in a tight
// loop after computing the value once; the transform system is told once
// per bind instance. Bindings of a value that reads the entity's own
// components (sin(time * 2 + position.x) * 3), when the program has a
// batch form (expr.Batch), are gathered likewise by program into a
// batch, with the addresses of the components they read: the tick
// computes their values expr.BatchSize at a time, one loop per node of
// the expression, then writes them. The other runs (loose) go through
// the per-run loop. Groups and batches are a cache of the runs: rebuilt
// after any change of the runs or of the World's structure (which moves
// the addresses).

// bindGroup is the batch of the runs sharing one program's memo.
type bindGroup struct {
	memo  *bindMemo
	num   func(*expr.Frame) float64
	first int              // a run of the group, for its errors
	pos   bool             // it writes positions (else rotations or scales)
	dsts  []unsafe.Pointer // the fields written
	insts []ecs.ID         // the bind instances of its runs
}

// permScratch holds the buffers regroup reorders the runs with.
type permScratch struct {
	order []int
	runs  []bindRun
	srcs  [][expr.MaxComps]unsafe.Pointer
	cold  []bindCold
}

// bindBatch is the batch of the runs that share one program whose value
// reads components and has a batch form ([expr.Batch]): the tick
// evaluates it for up to expr.BatchSize runs at a time, from the
// addresses of their components, and writes the values in a tight loop.
type bindBatch struct {
	prog  *bindProg
	pos   bool                            // it writes positions (else rotations or scales)
	runs  []int                           // the runs, for their errors
	dsts  []unsafe.Pointer                // the fields written
	ptrs  [expr.MaxComps][]unsafe.Pointer // the components read, by slot
	insts []ecs.ID                        // the bind instances of its runs
	tmp   []float64                       // the batch's scratch
}

// groupable reports whether run i goes in a group or a batch: a number
// written in place on a transform, whose value reads no component (a
// group) or has a batch form (a batch).
func (bs *Bindings) groupable(i int) bool {
	r := &bs.runs[i]
	return (r.memo != nil || bs.cold[i].prog.bat != nil) && r.flags&(bReady|bTransform) == bReady|bTransform
}

// regroup puts the loose runs first and the grouped ones after, each in
// their order (a stable partition: the loose loop is then a plain loop
// over runs[:nLoose]), and rebuilds the groups.
func (bs *Bindings) regroup() {
	bs.dirty = false
	ps := &bs.perm
	ps.order = ps.order[:0]
	for pass := range 2 {
		for i := range bs.runs {
			if bs.groupable(i) == (pass == 1) {
				ps.order = append(ps.order, i)
			}
		}
		if pass == 0 {
			bs.nLoose = len(ps.order)
		}
	}
	bs.permute(ps.order)
	for _, g := range bs.groups {
		g.dsts, g.insts, g.first = g.dsts[:0], g.insts[:0], -1
	}
	bs.rebatch()
	for i := bs.nLoose; i < len(bs.runs); i++ {
		r := &bs.runs[i]
		if r.memo == nil {
			continue // in a batch
		}
		g := bs.byMemo[r.memo]
		if g == nil {
			g = &bindGroup{memo: r.memo, num: r.num, first: -1}
			bs.byMemo[r.memo] = g
			bs.groups = append(bs.groups, g)
		}
		if g.first < 0 {
			g.first, g.pos = i, r.flags&bPosition != 0
		}
		g.dsts = append(g.dsts, r.dst)
		g.insts = appendOnce(g.insts, r.inst)
	}
	keep := bs.groups[:0]
	for _, g := range bs.groups {
		if g.first >= 0 {
			keep = append(keep, g)
		} else {
			delete(bs.byMemo, g.memo)
		}
	}
	clear(bs.groups[len(keep):])
	bs.groups = keep
}

// permute reorders the runs (and their sources and cold states) so that
// run i is the old run order[i], and renumbers the instances' runs.
func (bs *Bindings) permute(order []int) {
	moved := false
	for i, j := range order {
		moved = moved || i != j
	}
	if !moved {
		return
	}
	ps := &bs.perm
	ps.runs, ps.srcs, ps.cold = ps.runs[:0], ps.srcs[:0], ps.cold[:0]
	for _, j := range order {
		ps.runs, ps.srcs, ps.cold = append(ps.runs, bs.runs[j]), append(ps.srcs, bs.srcs[j]), append(ps.cold, bs.cold[j])
	}
	bs.runs, ps.runs = ps.runs, bs.runs
	bs.srcs, ps.srcs = ps.srcs, bs.srcs
	bs.cold, ps.cold = ps.cold, bs.cold
	clear(ps.runs)
	clear(ps.srcs)
	clear(ps.cold)
	for _, in := range bs.insts {
		in.runs = in.runs[:0]
	}
	for i := range bs.cold {
		in := bs.cold[i].inst
		in.runs = append(in.runs, i)
	}
}

// appendOnce appends id unless ids holds it.
func appendOnce(ids []ecs.ID, id ecs.ID) []ecs.ID {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

// stepGroups writes every group's value: computed once, written to every
// field of the group. A value that fails (or is not finite) is reported
// once, against the group's first run, and nothing is written.
func (bs *Bindings) stepGroups() {
	f := &bs.frame
	for _, g := range bs.groups {
		x := g.num(f)
		if f.Err() != nil || x-x != 0 {
			bs.refuse(g.first, x)
			continue
		}
		for _, p := range g.dsts {
			*(*float64)(p) = x
		}
		for _, id := range g.insts {
			if g.pos {
				bs.t.MovedPositions(bs.filter(id))
			} else {
				bs.t.Moved(bs.filter(id))
			}
		}
	}
}

// rebatch rebuilds the batches from the grouped runs that have no memo.
func (bs *Bindings) rebatch() {
	for _, b := range bs.batches {
		b.runs, b.dsts, b.insts = b.runs[:0], b.dsts[:0], b.insts[:0]
		for k := range b.ptrs {
			b.ptrs[k] = b.ptrs[k][:0]
		}
	}
	for i := bs.nLoose; i < len(bs.runs); i++ {
		r := &bs.runs[i]
		if r.memo != nil {
			continue
		}
		bp := bs.cold[i].prog
		b := bs.byProg[bp]
		if b == nil {
			b = &bindBatch{prog: bp, tmp: bp.bat.Scratch()}
			bs.byProg[bp] = b
			bs.batches = append(bs.batches, b)
		}
		if len(b.runs) == 0 {
			b.pos = r.flags&bPosition != 0
		}
		b.runs, b.dsts = append(b.runs, i), append(b.dsts, r.dst)
		for m := bp.bat.Slots(); m != 0; m &= m - 1 {
			k := bits.TrailingZeros8(m)
			b.ptrs[k] = append(b.ptrs[k], bs.srcs[i][k])
		}
		b.insts = appendOnce(b.insts, r.inst)
	}
	keep := bs.batches[:0]
	for _, b := range bs.batches {
		if len(b.runs) > 0 {
			keep = append(keep, b)
		} else {
			delete(bs.byProg, b.prog)
		}
	}
	clear(bs.batches[len(keep):])
	bs.batches = keep
}

// stepBatches evaluates every batch and writes its values. An error is
// every run's (only what does not depend on the entity can fail): it is
// reported once, against the batch's first run, and nothing is written;
// a value that is not finite is refused for its run alone.
func (bs *Bindings) stepBatches() {
	f, view := &bs.frame, &bs.view
	defer clear(view[:]) // keep no component storage alive
	for _, b := range bs.batches {
		slots := b.prog.bat.Slots()
		for lo := 0; lo < len(b.dsts); lo += expr.BatchSize {
			hi := min(lo+expr.BatchSize, len(b.dsts))
			for m := slots; m != 0; m &= m - 1 {
				k := bits.TrailingZeros8(m)
				view[k] = b.ptrs[k][lo:hi]
			}
			out := bs.vals[:hi-lo]
			b.prog.bat.Eval(f, view, out, b.tmp)
			if f.Err() != nil {
				bs.refuse(b.runs[0], 0)
				break
			}
			dsts := b.dsts[lo:hi]
			for j, x := range out {
				if x-x != 0 {
					bs.refuse(b.runs[lo+j], x)
					continue
				}
				*(*float64)(dsts[j]) = x
			}
		}
		for _, id := range b.insts {
			if b.pos {
				bs.t.MovedPositions(bs.filter(id))
			} else {
				bs.t.Moved(bs.filter(id))
			}
		}
	}
}
