package ecs

import (
	"fmt"
	"sync/atomic"
)

// Entity is a handle to an entity of one World: an index into the World's
// entity records and a generation. The zero Entity is never alive.
//
// The generation's top 12 bits carry a tag of the World that made the
// handle, so that a handle from another World is refused rather than
// silently reaching an unrelated entity. The low 20 bits count reuses of
// the index; an index whose count is exhausted is retired, never reused,
// so a stale handle stays stale forever.
type Entity struct {
	index uint32
	gen   uint32
}

const (
	genBits   = 20
	genMask   = 1<<genBits - 1
	worldBits = 32 - genBits
)

// worldTags hands out the World tags carried in handles. It is the only
// package-level state: it holds no data of any World.
var worldTags atomic.Uint32

func nextWorldTag() uint32 {
	for {
		t := worldTags.Add(1) & (1<<worldBits - 1)
		if t != 0 {
			return t
		}
	}
}

// Index returns the entity's slot index. Indices are reused after an
// entity is destroyed; only Index and Generation together identify an
// entity.
func (e Entity) Index() uint32 { return e.index }

// Generation returns the entity's generation counter (without the World
// tag).
func (e Entity) Generation() uint32 { return e.gen & genMask }

// IsZero reports whether e is the zero Entity, which never names an entity.
func (e Entity) IsZero() bool { return e.gen == 0 }

// String formats e as "e<index>v<generation>", or "e-" for the zero Entity.
func (e Entity) String() string {
	if e.IsZero() {
		return "e-"
	}
	return fmt.Sprintf("e%dv%d", e.index, e.gen&genMask)
}

// record is where an entity lives: its table and row, and the generation
// its handles must carry. A free record has table 0 (so that reading it
// never goes out of range) and row freeRow.
type record struct {
	table uint32
	row   uint32
	gen   uint32
}

const (
	freeRow = ^uint32(0) // row of a free record
)
