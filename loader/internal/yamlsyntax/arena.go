package yamlsyntax

// arena hands out zeroed values and small slices of T cut from large
// chunks, so that a reader allocates in bulk; and it can be rewound to a
// mark, so that a reader that is done with what it parsed (one entity of
// a long list, say) reuses the memory for the next instead of keeping a
// tree of the whole file. Values handed out after a mark must not be used
// once the arena is rewound to it.
type arena[T any] struct {
	chunks [][]T
	ci, i  int // current chunk, and the next free index in it
}

// arenaChunk is the number of values in a chunk.
const arenaChunk = 512

// arenaMark is a point an arena can be rewound to.
type arenaMark struct{ ci, i int }

func (a *arena[T]) mark() arenaMark { return arenaMark{a.ci, a.i} }

// reset rewinds the arena to m: what was handed out since is reused.
func (a *arena[T]) reset(m arenaMark) { a.ci, a.i = m.ci, m.i }

// room makes sure the current chunk has n free values.
func (a *arena[T]) room(n int) []T {
	for {
		if a.ci == len(a.chunks) {
			a.chunks = append(a.chunks, make([]T, arenaChunk))
		}
		if c := a.chunks[a.ci]; len(c)-a.i >= n {
			return c
		}
		a.ci++
		a.i = 0
	}
}

// alloc returns a pointer to a zeroed value.
func (a *arena[T]) alloc() *T {
	c := a.room(1)
	p := &c[a.i]
	a.i++
	var zero T
	*p = zero
	return p
}

// slice returns a zeroed slice of length and capacity n (appending to it
// reallocates, so slices never overlap). A large one gets its own
// allocation.
func (a *arena[T]) slice(n int) []T {
	if n == 0 {
		return nil
	}
	if n > arenaChunk/8 {
		return make([]T, n)
	}
	c := a.room(n)
	s := c[a.i : a.i+n : a.i+n]
	clear(s)
	a.i += n
	return s
}
