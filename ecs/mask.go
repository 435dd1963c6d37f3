package ecs

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// Mask is a set of component IDs ([ID]): a bitset that grows with the
// highest ID it holds, up to [MaxComponents]. The zero Mask is empty.
// Masks are values; the methods that change a Mask ([Mask.With],
// [Mask.Without]) return the changed copy. A table's signature is a Mask
// ([World.Mask], [Query.Mask]); [NewFilterMasks] makes a [Filter] from
// Masks.
type Mask struct {
	w []uint64
}

// MaxComponents is how many components one [World] can register; IDs
// ([ID]) run below it. It bounds a [Mask] (at most 8 KiB), so that a stray
// ID such as 1<<31 is refused instead of allocating hundreds of megabytes.
const MaxComponents = 1 << 16

// MaskOf returns the [Mask] holding ids. It panics if an [ID] is not below
// [MaxComponents].
func MaskOf(ids ...ID) Mask {
	var m Mask
	for _, id := range ids {
		m = m.With(id)
	}
	return m
}

// Has reports whether id is in m.
func (m Mask) Has(id ID) bool {
	i := int(id >> 6)
	return i < len(m.w) && m.w[i]&(1<<(id&63)) != 0
}

// With returns a copy of m with id added. It panics if id is not below
// [MaxComponents].
func (m Mask) With(id ID) Mask {
	if id >= MaxComponents {
		panic(fmt.Sprintf("ecs: Mask.With: component ID %d is out of range (IDs are below MaxComponents = %d)", id, MaxComponents))
	}
	i := int(id >> 6)
	n := len(m.w)
	if i >= n {
		n = i + 1
	}
	w := make([]uint64, n)
	copy(w, m.w)
	w[i] |= 1 << (id & 63)
	return Mask{w}
}

// Without returns a copy of m with id removed.
func (m Mask) Without(id ID) Mask {
	if !m.Has(id) {
		return m
	}
	w := make([]uint64, len(m.w))
	copy(w, m.w)
	w[id>>6] &^= 1 << (id & 63)
	for len(w) > 0 && w[len(w)-1] == 0 {
		w = w[:len(w)-1]
	}
	return Mask{w}
}

// IsEmpty reports whether m holds no [ID].
func (m Mask) IsEmpty() bool {
	for _, x := range m.w {
		if x != 0 {
			return false
		}
	}
	return true
}

// Len returns the number of IDs in m.
func (m Mask) Len() int {
	n := 0
	for _, x := range m.w {
		n += bits.OnesCount64(x)
	}
	return n
}

// ContainsAll reports whether every [ID] of o is in m.
func (m Mask) ContainsAll(o Mask) bool {
	for i, x := range o.w {
		if x == 0 {
			continue
		}
		if i >= len(m.w) || m.w[i]&x != x {
			return false
		}
	}
	return true
}

// Intersects reports whether m and o share an [ID].
func (m Mask) Intersects(o Mask) bool {
	n := min(len(m.w), len(o.w))
	for i := 0; i < n; i++ {
		if m.w[i]&o.w[i] != 0 {
			return true
		}
	}
	return false
}

// Equal reports whether m and o hold the same IDs.
func (m Mask) Equal(o Mask) bool { return m.key() == o.key() }

// max returns the highest ID in m, and false if m is empty.
func (m Mask) max() (ID, bool) {
	for i := len(m.w) - 1; i >= 0; i-- {
		if x := m.w[i]; x != 0 {
			return ID(i*64 + 63 - bits.LeadingZeros64(x)), true
		}
	}
	return 0, false
}

// IDs returns the IDs in m in increasing order.
func (m Mask) IDs() []ID {
	var ids []ID
	for i, x := range m.w {
		for x != 0 {
			b := bits.TrailingZeros64(x)
			ids = append(ids, ID(i*64+b))
			x &= x - 1
		}
	}
	return ids
}

// key returns a string usable as a map key; trailing zero words are
// ignored so equal sets give equal keys.
func (m Mask) key() string {
	w := m.w
	for len(w) > 0 && w[len(w)-1] == 0 {
		w = w[:len(w)-1]
	}
	if len(w) == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), len(w)*8))
}
