package ecs

import "unsafe"

// absentColumn marks a component that is not in a table.
const absentColumn = -1

// column is the packed storage of one component in one table.
type column struct {
	id    ID
	info  *compInfo
	base  unsafe.Pointer
	size  uintptr
	noPtr bool // values hold no pointers: copy and clear as plain bytes
	keep  any  // the slice that owns base, for the garbage collector
}

// copyRow copies row src of column from into row dst of c (same type).
func (c *column) copyRow(dst uint32, from *column, src uint32) {
	if c.size == 0 {
		return
	}
	if c.noPtr {
		copy(unsafe.Slice((*byte)(c.ptr(dst)), c.size), unsafe.Slice((*byte)(from.ptr(src)), c.size))
		return
	}
	c.info.copyN(c.ptr(dst), from.ptr(src), 1)
}

// clearRow zeroes one row.
func (c *column) clearRow(row uint32) {
	if c.size == 0 {
		return
	}
	if c.noPtr {
		clear(unsafe.Slice((*byte)(c.ptr(row)), c.size))
		return
	}
	c.info.zeroN(c.ptr(row), 1)
}

func (c *column) ptr(row uint32) unsafe.Pointer {
	return unsafe.Add(c.base, uintptr(row)*c.size)
}

// table holds all entities that have exactly one set of components.
type table struct {
	id       uint32
	mask     Mask
	ids      []ID     // components, increasing
	entities []uint32 // entity index per row
	cols     []column // one per component, increasing ID; tags have size 0
	colIndex []int32  // by component ID: column index or absentColumn
	cap      int
	// edges cache the table reached by adding or removing one component.
	addEdge    map[ID]uint32
	removeEdge map[ID]uint32
}

func newTable(w *World, id uint32, mask Mask) *table {
	t := &table{id: id, mask: mask, ids: mask.IDs()}
	t.colIndex = make([]int32, len(w.comps))
	for i := range t.colIndex {
		t.colIndex[i] = absentColumn
	}
	for _, cid := range t.ids {
		ci := &w.comps[cid]
		t.colIndex[cid] = int32(len(t.cols))
		c := column{id: cid, info: ci, size: ci.Size, noPtr: !ci.hasPtr}
		if ci.Size == 0 {
			// A tag: every row's value is the same zero bytes.
			c.base = unsafe.Pointer(&zeroBase)
		}
		t.cols = append(t.cols, c)
	}
	return t
}

func (t *table) len() int { return len(t.entities) }

// col returns the column of id, or nil if the table does not have id.
func (t *table) col(id ID) *column {
	if int(id) >= len(t.colIndex) {
		return nil
	}
	i := t.colIndex[id]
	if i < 0 {
		return nil
	}
	return &t.cols[i]
}

func (t *table) has(id ID) bool {
	return int(id) < len(t.colIndex) && t.colIndex[id] >= 0
}

// reserve makes room for n more rows, doubling the capacity.
func (t *table) reserve(n int) {
	need := len(t.entities) + n
	if need <= t.cap {
		return
	}
	c := t.cap * 2
	if c < 8 {
		c = 8
	}
	for c < need {
		c *= 2
	}
	t.grow(c)
}

// grow gives the table a capacity of c rows (c above its rows).
func (t *table) grow(c int) {
	for i := range t.cols {
		col := &t.cols[i]
		if col.size == 0 {
			continue
		}
		keep, base := col.info.makeSlice(c)
		if l := len(t.entities); l > 0 {
			col.info.copyN(base, col.base, l)
		}
		col.keep, col.base = keep, base
	}
	if cap(t.entities) < c {
		e := make([]uint32, len(t.entities), c)
		copy(e, t.entities)
		t.entities = e
	}
	t.cap = c
}

// appendRow adds a zeroed row for entity index and returns its row number.
func (t *table) appendRow(index uint32) uint32 {
	t.reserve(1)
	row := uint32(len(t.entities))
	t.entities = append(t.entities, index)
	return row
}

// removeRow removes row by moving the last row into it. It returns the
// entity index that moved into row, and whether one did.
func (t *table) removeRow(row uint32) (moved uint32, ok bool) {
	last := uint32(len(t.entities) - 1)
	if row != last {
		for i := range t.cols {
			c := &t.cols[i]
			c.copyRow(row, c, last)
		}
		moved, ok = t.entities[last], true
		t.entities[row] = moved
	}
	// Rows past the end stay zeroed, so appendRow hands out zero values
	// and the garbage collector sees no stale pointers.
	for i := range t.cols {
		t.cols[i].clearRow(last)
	}
	t.entities = t.entities[:last]
	return moved, ok
}
