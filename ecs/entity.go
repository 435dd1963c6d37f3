package ecs

import (
	"fmt"
	"sync/atomic"
)

// Entity is a handle to an entity of one [World]: an index into the
// World's entity records ([Entity.Index]), a generation
// ([Entity.Generation]), and the tag of the World that made it. The zero
// Entity is never alive ([Entity.IsZero], [World.Alive]).
//
// The World tag is a 64-bit number unique to each World of the process,
// never reused: a handle made by another World is always refused (as
// stale, [ErrStale]), however many Worlds the process creates. The
// generation counts reuses of the index; an index whose counter is
// exhausted (after 2³²-1 reuses) is retired, never reused, so a stale
// handle stays stale forever.
type Entity struct {
	index uint32
	gen   uint32
	world uint64
}

// worldTags is the last World tag handed out. It is the only
// package-level state: it holds no data of any World.
var worldTags atomic.Uint64

// nextWorldTag returns a World tag never handed out before. Tags are never
// reused, so one is refused (with a panic) rather than wrap around if the
// 2⁶⁴-1 tags are ever exhausted: at a billion Worlds a second that takes
// over 500 years.
func nextWorldTag() uint64 {
	for {
		t := worldTags.Load()
		if t == ^uint64(0) {
			panic("ecs: NewWorld: the process has used up all World tags")
		}
		if worldTags.CompareAndSwap(t, t+1) {
			return t + 1
		}
	}
}

// Index returns the entity's slot index. Indices are reused after an
// entity is destroyed; only Index and [Entity.Generation] together
// identify an entity within its [World].
func (e Entity) Index() uint32 { return e.index }

// Generation returns the entity's generation counter.
func (e Entity) Generation() uint32 { return e.gen }

// IsZero reports whether e is the zero Entity, which never names an entity.
func (e Entity) IsZero() bool { return e.world == 0 }

// String formats e as "e<index>v<generation>", or "e-" for the zero Entity.
// Handles of different Worlds may print alike.
func (e Entity) String() string {
	if e.IsZero() {
		return "e-"
	}
	return fmt.Sprintf("e%dv%d", e.index, e.gen)
}

// record is where an entity lives: its table and row, and the generation
// its handles must carry. A free record has table 0 (so that reading it
// never goes out of range) and row freeRow; a retired one has generation
// 0, which no handle carries.
type record struct {
	table uint32
	row   uint32
	gen   uint32
}

const (
	freeRow = ^uint32(0) // row of a free record
	// maxEntities is how many entity slots a World can have: indices are
	// uint32, and ^uint32(0) is never an index.
	maxEntities = int64(^uint32(0))
)

// handle returns the handle of the entity in slot idx.
func (w *World) handle(idx uint32) Entity {
	return Entity{idx, w.records[idx].gen, w.tag}
}
