package components

import (
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/expr"
)

// Bindings of a value that reads no component (sin(time * 2) * 3), on a
// position, rotation or scale, are written in batches: the runs that
// share a compiled program (and so its value) are gathered into a group,
// the list of their fields' addresses, which the tick writes in a tight
// loop after computing the value once; the transform system is told once
// per bind instance. The other runs (loose) go through the per-run loop.
// Groups are a cache of the runs: rebuilt after any change of the runs
// or of the World's structure (which moves the addresses).

// bindGroup is the batch of the runs sharing one program's memo.
type bindGroup struct {
	memo  *bindMemo
	num   func(*expr.Frame) float64
	first int              // a run of the group, for its errors
	pos   bool             // it writes positions (else rotations or scales)
	dsts  []unsafe.Pointer // the fields written
	insts []ecs.ID         // the bind instances of its runs
}

// regroup rebuilds the groups and the list of loose runs.
func (bs *Bindings) regroup() {
	bs.dirty = false
	for _, g := range bs.groups {
		g.dsts, g.insts, g.first = g.dsts[:0], g.insts[:0], -1
	}
	bs.loose = bs.loose[:0]
	for i := range bs.runs {
		r := &bs.runs[i]
		if r.memo == nil || r.flags&(bReady|bTransform) != bReady|bTransform {
			bs.loose = append(bs.loose, int32(i))
			continue
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
		if len(g.insts) == 0 || g.insts[len(g.insts)-1] != r.inst {
			g.insts = appendOnce(g.insts, r.inst)
		}
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
