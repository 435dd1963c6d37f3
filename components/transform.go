package components

import (
	"reflect"
	"slices"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// WorldTransform is the value of the read-only `world` component: an
// entity's position, rotation (degrees) and scale in world space, kept by
// the transform system (see [Transforms]) for every entity with position,
// rotation or scale. Selectors test it (`[world.position.y<0]`), dumps in
// JSON write it, the inspection API serves it. It is registered
// read-only ([registry.ErrReadOnly]): scene files, the inspection API and
// the Registry's public writes cannot set or remove it; the transform
// system writes it through the World (an ecs.Map). A value written to it
// by Go code below the Registry (the World, [registry.Registry.Privileged])
// is replaced by the next update.
//
// For an entity with no ancestor that has a transform, it holds its own
// position, rotation and scale as they are. For the others the values
// are decomposed from the world matrix as three.js does (rotation in
// order YXZ, x in [-90, 90], y and z in [-180, 180]); [Transforms.Matrix]
// gives the matrix itself, which keeps a shear that the decomposition
// cannot say.
type WorldTransform struct {
	Position registry.Vec3 `scene:"position"`
	Rotation registry.Vec3 `scene:"rotation"`
	Scale    registry.Vec3 `scene:"scale,default=1 1 1"`
}

// WorldName is the name of the read-only world transform component.
const WorldName = "world"

// IsWorld reports whether c is the `world` component that [Register]
// registers: computed from position, rotation and scale, never written by
// exports (JSON dumps write it apart, as "world"). Whether a component
// may be written is the Registry's to say ([registry.Component.ReadOnly]),
// not this name's.
func IsWorld(c *registry.Component) bool {
	return c != nil && c.Name == WorldName && c.Schema.StructType() == reflect.TypeFor[WorldTransform]()
}

// Per-entity flags of the transform system.
const (
	fWorld  uint8 = 1 << iota // has the world component
	fNested                   // an ancestor has world: world = parent world × local
	fKids                     // has children
	fNode                     // has a node (a world matrix)
)

// tnode is the world matrix of an entity that needs one: an entity with
// children, or one below an ancestor with a transform.
type tnode struct {
	m          affine        // world matrix
	ll         linear3       // local rotation × scale, made from lr and ls
	lp, lr, ls registry.Vec3 // local values m was made from
	pslot      int32         // node of the transform parent m was made with; -1: none
	plv        uint64        // that parent's lv then
	lv         uint64        // a new value whenever the linear part of m changes
	ok         bool          // m and ll are valid
}

// tframe is one entity of an update's walk and the node of its transform
// parent (-1: none).
type tframe struct {
	e     ecs.Entity
	pslot int32
}

// Transforms keeps the world transform of every entity that has position,
// rotation or scale: the `world` component, and a world matrix where one
// is needed. Position, rotation and scale are relative to the parent (the
// nearest ancestor that has a transform; entities without one in between
// count as the identity), as in A-Frame and three.js: world = parent's
// world × translation × rotation (Euler YXZ, degrees) × scale.
//
// Updates are incremental: only entities whose own local transform
// changed, that were reparented, or whose transform parent changed are
// recomputed, and an entity whose parent has no transform costs one copy.
// Changes are seen this way:
//
//   - writes through the World (Registry.Set and the other registry
//     writes, ecs Set, Map.Set, Add, Remove, MarkChanged), reparenting,
//     and entities created or destroyed: at once, right after the
//     operation (when the World is unlocked: at the end of the tick pass
//     or observer that made it);
//   - writes to position, rotation or scale through pointers (ecs
//     Map.Get, Query.Ptr) or packed columns (ecs.Column, a TickColumn
//     hook): not seen unless the writer says so, with
//     World.MarkChanged(e, id) for one entity or [Transforms.Moved] for
//     every entity of a filter; they are then applied by the next
//     [Transforms.Update], which the transform system runs every tick
//     after all systems and components have ticked (as the system's Tock;
//     component Tocks see this tick's world transforms). The physics
//     system calls Moved for the entities it moves, and spin marks the
//     rotations it turns.
type Transforms struct {
	w                            *ecs.World
	world                        ecs.Map[WorldTransform]
	pos, rot, scl                ecs.Map[registry.Vec3]
	worldID, posID, rotID, sclID ecs.ID

	// By entity index.
	flags  []uint8
	parent []uint32 // index + 1 of the parent, 0 for none
	kids   []uint32 // number of children
	slot   []int32  // node + 1, 0 for none
	mark   []uint32 // epoch in which the entity was marked dirty

	nodes []tnode
	free  []int32

	dirty    []ecs.Entity
	epoch    uint32
	queued   bool // a flush is deferred
	moved    []*ecs.Filter
	movedPos []*ecs.Filter
	leaves   []leafMove
	stack    []tframe
	lvSeq    uint64

	recomputed uint64
	nNested    int // entities with fNested
	flushFn    func(*ecs.World)
}

// setNested sets or clears fNested on entity idx, keeping the count.
func (t *Transforms) setNested(idx uint32, on bool) {
	switch had := t.flags[idx]&fNested != 0; {
	case on && !had:
		t.flags[idx] |= fNested
		t.nNested++
	case !on && had:
		t.flags[idx] &^= fNested
		t.nNested--
	}
}

// plain reports whether no entity has a transform parent or a node: then
// every world transform is a copy of the local one, and scans need no
// flags.
func (t *Transforms) plain() bool { return t.nNested == 0 && len(t.nodes) == len(t.free) }

// newTransforms makes the transform state of reg and starts observing
// the World.
func newTransforms(reg *registry.Registry, b *Builtins) *Transforms {
	w := reg.World()
	t := &Transforms{
		w: w, world: b.World, pos: b.Position, rot: b.Rotation, scl: b.Scale,
		worldID: b.World.ID(), posID: b.Position.ID(), rotID: b.Rotation.ID(), sclID: b.Scale.ID(),
		epoch: 1,
	}
	t.flushFn = func(*ecs.World) { t.flush() }
	local := func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) { t.markDirty(e) }
	for _, id := range []ecs.ID{t.posID, t.rotID, t.sclID} {
		w.ObserveComponent(ecs.ComponentAdded, id, local)
		w.ObserveComponent(ecs.ComponentSet, id, local)
		w.ObserveComponent(ecs.ComponentRemoved, id, local)
	}
	// A value written to world is replaced at once.
	w.ObserveComponent(ecs.ComponentSet, t.worldID, local)
	w.ObserveComponent(ecs.ComponentAdded, t.worldID, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		t.grow(e.Index())
		t.flags[e.Index()] |= fWorld
		t.markDirty(e)
	})
	w.ObserveComponent(ecs.ComponentRemoved, t.worldID, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		idx := e.Index()
		t.grow(idx)
		t.setNested(idx, false)
		t.flags[idx] &^= fWorld
		t.freeNode(idx)
		t.markDirty(e) // its descendants now hang from its transform parent
	})
	w.Observe(ecs.ChildAttached, func(w *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		if p, ok := w.Parent(e); ok {
			t.link(e.Index(), p.Index())
		}
		t.markDirty(e)
	})
	w.Observe(ecs.ChildDetached, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		t.unlink(e.Index())
		t.markDirty(e)
	})
	w.Observe(ecs.EntityDestroyed, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		idx := e.Index()
		t.grow(idx)
		t.unlink(idx)
		t.freeNode(idx)
		t.setNested(idx, false)
		t.flags[idx], t.kids[idx], t.mark[idx] = 0, 0, 0
	})
	// Entities the World had before: their places and components.
	for e := range w.All() {
		idx := e.Index()
		t.grow(idx)
		if p, ok := w.Parent(e); ok {
			t.link(idx, p.Index())
		}
		if w.Has(e, t.worldID) {
			t.flags[idx] |= fWorld
			t.markDirty(e)
		}
	}
	return t
}

// grow makes room for entity index idx.
func (t *Transforms) grow(idx uint32) {
	if int(idx) < len(t.flags) {
		return
	}
	n := max(int(idx)+1, 2*len(t.flags), 64, t.w.Cap()) // Cap: room a load made
	t.flags = append(t.flags, make([]uint8, n-len(t.flags))...)
	t.parent = append(t.parent, make([]uint32, n-len(t.parent))...)
	t.kids = append(t.kids, make([]uint32, n-len(t.kids))...)
	t.slot = append(t.slot, make([]int32, n-len(t.slot))...)
	t.mark = append(t.mark, make([]uint32, n-len(t.mark))...)
}

// link records that entity idx is a child of entity p.
func (t *Transforms) link(idx, p uint32) {
	t.grow(max(idx, p))
	t.unlink(idx)
	t.parent[idx] = p + 1
	t.kids[p]++
	t.flags[p] |= fKids
}

// unlink records that entity idx has no parent.
func (t *Transforms) unlink(idx uint32) {
	t.grow(idx)
	if p := t.parent[idx]; p != 0 {
		t.parent[idx] = 0
		if t.kids[p-1]--; t.kids[p-1] == 0 {
			t.flags[p-1] &^= fKids
		}
	}
	t.setNested(idx, false)
}

// nodeOf returns the node slot of entity idx, making it if needed.
func (t *Transforms) nodeOf(idx uint32) int32 {
	if s := t.slot[idx]; s != 0 {
		return s - 1
	}
	var s int32
	if n := len(t.free); n > 0 {
		s = t.free[n-1]
		t.free = t.free[:n-1]
		t.nodes[s] = tnode{}
	} else {
		s = int32(len(t.nodes))
		if len(t.nodes) == cap(t.nodes) {
			// Double, as the World's records grow.
			t.nodes = append(make([]tnode, 0, max(2*cap(t.nodes), 64)), t.nodes...)
		}
		t.nodes = append(t.nodes, tnode{})
	}
	t.nodes[s].pslot = -1
	t.slot[idx] = s + 1
	t.flags[idx] |= fNode
	return s
}

// freeNode forgets the node of entity idx.
func (t *Transforms) freeNode(idx uint32) {
	if s := t.slot[idx]; s != 0 {
		t.nodes[s-1] = tnode{}
		t.free = append(t.free, s-1)
		t.slot[idx] = 0
		t.flags[idx] &^= fNode
	}
}

// markDirty records that e's world transform must be recomputed, with
// its descendants', and arranges for that to happen when the World is
// unlocked.
func (t *Transforms) markDirty(e ecs.Entity) {
	idx := e.Index()
	t.grow(idx)
	if t.mark[idx] == t.epoch {
		return
	}
	t.mark[idx] = t.epoch
	t.dirty = append(t.dirty, e)
	if !t.queued {
		t.queued = true
		t.w.Defer(t.flushFn)
	}
}

// Moved records that the entities of f may have had their position,
// rotation or scale written through pointers or packed columns. The next
// [Transforms.Update] compares each of them with the values its world
// transform was made from, and recomputes those that changed (a
// comparison costs a few nanoseconds per entity; a filter given several
// times before an update is compared once).
func (t *Transforms) Moved(f *ecs.Filter) { t.moved = addFilter(t.moved, f) }

// MovedPositions is [Transforms.Moved] for writers that change only
// positions (as the physics system does): the next update compares
// positions only, which costs about a third of a full comparison.
func (t *Transforms) MovedPositions(f *ecs.Filter) { t.movedPos = addFilter(t.movedPos, f) }

// addFilter adds f to fs unless it is there.
func addFilter(fs []*ecs.Filter, f *ecs.Filter) []*ecs.Filter {
	for _, g := range fs {
		if g == f {
			return fs
		}
	}
	return append(fs, f)
}

// Update brings every world transform up to date now: it compares the
// entities of the filters given to [Transforms.Moved] and
// [Transforms.MovedPositions] since the last Update, then recomputes what
// changed. The transform system calls it at the end of every tick; call
// it yourself after writing through pointers or columns outside a tick,
// before reading world transforms. It must not be called while a query
// iterates.
func (t *Transforms) Update() {
	// No flush while scanning: the leaves moved in place are decided
	// once every dirty mark of the scans is known.
	t.queued = true
	for _, f := range t.moved {
		t.scan(f, false)
	}
	for _, f := range t.movedPos {
		if !slices.Contains(t.moved, f) {
			t.scan(f, true)
		}
	}
	clear(t.moved)
	t.moved = t.moved[:0]
	clear(t.movedPos)
	t.movedPos = t.movedPos[:0]
	t.moveLeaves()
	t.flush()
}

// leafMove is a leaf below a transform parent whose position alone
// changed: its world position is its parent's matrix applied to p,
// unless an ancestor is dirty (then the ancestor's walk recomputes it).
type leafMove struct {
	e ecs.Entity
	p registry.Vec3
}

// moveLeaves moves the leaves the scans found, where no ancestor is
// dirty.
func (t *Transforms) moveLeaves() {
	for _, lm := range t.leaves {
		idx := lm.e.Index()
		covered := false
		for a := t.parent[idx]; a != 0; a = t.parent[a-1] {
			if t.mark[a-1] == t.epoch {
				covered = true
				break
			}
		}
		if covered {
			// The ancestor's walk recomputes it, from its own new
			// values: marked, so that the walk reads them.
			t.markDirty(lm.e)
			continue
		}
		if t.mark[idx] == t.epoch {
			continue
		}
		w := t.world.Get(lm.e)
		n := &t.nodes[t.slot[idx]-1]
		tr := t.nodes[n.pslot].m.apply(lm.p)
		n.m[3], n.m[7], n.m[11] = tr.X, tr.Y, tr.Z
		w.Position, n.lp = tr, lm.p
		t.recomputed++
	}
	clear(t.leaves)
	t.leaves = t.leaves[:0]
}

// Recomputed returns the number of world transforms computed since the
// Registry was made: a count for tests and benchmarks of how much work
// updates do.
func (t *Transforms) Recomputed() uint64 { return t.recomputed }

// Children returns the number of children of e.
func (t *Transforms) Children(e ecs.Entity) int {
	if idx := e.Index(); int(idx) < len(t.kids) && t.w.Alive(e) {
		return int(t.kids[idx])
	}
	return 0
}

// World returns e's world transform as of the last update, and false if
// e has no `world` component.
func (t *Transforms) World(e ecs.Entity) (WorldTransform, bool) {
	if p := t.world.Get(e); p != nil {
		return *p, true
	}
	return WorldTransform{}, false
}

// Matrix returns e's world matrix as of the last update (column-major, as
// three.js's Matrix4.elements), and false if e has no `world` component.
func (t *Transforms) Matrix(e ecs.Entity) (Mat4, bool) {
	p := t.world.Get(e)
	if p == nil {
		return Mat4{}, false
	}
	if idx := e.Index(); int(idx) < len(t.flags) && t.flags[idx]&fNode != 0 {
		if n := &t.nodes[t.slot[idx]-1]; n.ok {
			return n.m.mat4(), true
		}
	}
	m := compose(p.Position, p.Rotation, p.Scale)
	return m.mat4(), true
}

// local returns e's position, rotation and scale (0 0 0, 0 0 0 and 1 1 1
// for those it lacks).
func (t *Transforms) local(e ecs.Entity) (p, r, s registry.Vec3) {
	s = registry.Vec3{X: 1, Y: 1, Z: 1}
	if v := t.pos.Get(e); v != nil {
		p = *v
	}
	if v := t.rot.Get(e); v != nil {
		r = *v
	}
	if v := t.scl.Get(e); v != nil {
		s = *v
	}
	return p, r, s
}

// scan compares the entities of f with the values their world transforms
// were made from (positions only if posOnly) and brings them up to date:
// an entity without a transform parent or a node by a copy; one whose
// position alone changed, below a parent whose matrix is up to date and
// without children, by moving its world position; the others that
// changed are marked dirty, for the flush.
func (t *Transforms) scan(f *ecs.Filter, posOnly bool) {
	one := registry.Vec3{X: 1, Y: 1, Z: 1}
	plain := t.plain()
	n := uint64(0)
	q := f.Query()
	for q.NextTable() {
		ws := ecs.Column[WorldTransform](&q, t.worldID)
		if ws == nil {
			continue
		}
		ps := ecs.Column[registry.Vec3](&q, t.posID)
		var rs, ss []registry.Vec3
		if !posOnly {
			rs = ecs.Column[registry.Vec3](&q, t.rotID)
			ss = ecs.Column[registry.Vec3](&q, t.sclID)
		}
		if plain && posOnly {
			if ps == nil {
				continue
			}
			ps = ps[:len(ws)]
			for i := range ws {
				if ws[i].Position != ps[i] {
					ws[i].Position = ps[i]
					n++
				}
			}
			continue
		}
		for i := range ws {
			var p, r registry.Vec3
			s := one
			if ps != nil {
				p = ps[i]
			}
			if rs != nil {
				r = rs[i]
			}
			if ss != nil {
				s = ss[i]
			}
			w := &ws[i]
			var fl uint8
			if !plain {
				fl = t.flags[q.IndexAt(i)]
			}
			if fl&(fNode|fNested) == 0 {
				if posOnly {
					if w.Position != p {
						w.Position = p
						n++
					}
				} else if w.Position != p || w.Rotation != r || w.Scale != s {
					w.Position, w.Rotation, w.Scale = p, r, s
					n++
				}
				continue
			}
			n += t.check(&q, i, fl, w, p, r, s, posOnly)
		}
	}
	t.recomputed += n
}

// check brings the entity in row i of q (flags fl, world transform w,
// local values p, r and s; r and s unknown if posOnly) up to date if its
// node was made from other values, when only its position changed and
// it has no children: at once without a transform parent, else (if that
// parent's linear part is the one its own was made with) as a leaf move
// after the scans; otherwise it marks it dirty. It returns the number
// of world transforms it recomputed.
func (t *Transforms) check(q *ecs.Query, i int, fl uint8, w *WorldTransform, p, r, s registry.Vec3, posOnly bool) uint64 {
	idx := q.IndexAt(i)
	if fl&fNode != 0 {
		n := &t.nodes[t.slot[idx]-1]
		same := n.ok && (posOnly || n.lr == r && n.ls == s)
		if same && n.lp == p {
			return 0
		}
		if same && fl&fKids == 0 {
			if n.pslot < 0 && fl&fNested == 0 {
				n.m[3], n.m[7], n.m[11] = p.X, p.Y, p.Z
				w.Position, n.lp = p, p
				return 1
			}
			if n.pslot >= 0 {
				if pn := &t.nodes[n.pslot]; pn.ok && pn.lv == n.plv {
					t.leaves = append(t.leaves, leafMove{q.EntityAt(i), p})
					return 0
				}
			}
		}
	}
	t.markDirty(q.EntityAt(i))
	return 0
}

// nextEpoch starts a new round of dirty marks.
func (t *Transforms) nextEpoch() {
	t.epoch++
	if t.epoch == 0 {
		clear(t.mark)
		t.epoch = 1
	}
}

// flush recomputes the dirty entities and their descendants, each once:
// an entity with a dirty ancestor is recomputed in that ancestor's walk.
func (t *Transforms) flush() {
	t.queued = false
	if len(t.dirty) == 0 {
		return
	}
	list := t.dirty
	for _, e := range list {
		if !t.w.Alive(e) {
			continue
		}
		idx := e.Index()
		covered := false
		for a := t.parent[idx]; a != 0; a = t.parent[a-1] {
			if t.mark[a-1] == t.epoch {
				covered = true
				break
			}
		}
		if !covered {
			t.walk(e, t.parentSlot(e))
		}
	}
	clear(list)
	t.dirty = list[:0]
	t.nextEpoch()
}

// parentSlot returns the node of e's transform parent (the nearest
// ancestor with a `world` component), up to date, or -1 if there is none.
func (t *Transforms) parentSlot(e ecs.Entity) int32 {
	if t.flags[e.Index()]&fNested == 0 && t.parent[e.Index()] == 0 {
		return -1 // a root
	}
	for a, ok := t.w.Parent(e); ok; a, ok = t.w.Parent(a) {
		idx := a.Index()
		if t.flags[idx]&fWorld == 0 {
			continue
		}
		if t.flags[idx]&fNode != 0 && t.nodes[t.slot[idx]-1].ok {
			return t.slot[idx] - 1
		}
		// A parent without a matrix yet (it had no children when it
		// was last computed): make it.
		t.compute(a, idx, t.parentSlot(a), true)
		return t.slot[idx] - 1
	}
	return -1
}

// walk recomputes top, whose transform parent has node pslot (-1: none),
// and every entity below it.
func (t *Transforms) walk(top ecs.Entity, pslot int32) {
	st := append(t.stack[:0], tframe{top, pslot})
	for len(st) > 0 {
		f := st[len(st)-1]
		st = st[:len(st)-1]
		idx := f.e.Index()
		fl := t.flags[idx]
		cslot := f.pslot
		if fl&fWorld != 0 {
			t.compute(f.e, idx, f.pslot, fl&fKids != 0)
			cslot = t.slot[idx] - 1
		} else {
			t.setNested(idx, false)
		}
		if fl&fKids != 0 {
			for c, ok := t.w.FirstChild(f.e); ok; c, ok = t.w.NextSibling(c) {
				st = append(st, tframe{c, cslot})
			}
		}
	}
	t.stack = st[:0]
}

// compute recomputes the world transform of e (entity index idx, with a
// `world` component) from its local transform and the world matrix of
// node pslot (-1: no transform parent). An entity that needs a matrix
// (one with a transform parent, children, or a node already) gets it
// kept in its node; the linear part is remade only when its own rotation
// or scale, or its parent's linear part, changed.
func (t *Transforms) compute(e ecs.Entity, idx uint32, pslot int32, needNode bool) {
	w := t.world.Get(e)
	if w == nil {
		return
	}
	t.recomputed++
	var lp, lr, ls registry.Vec3
	if sl := t.slot[idx]; sl != 0 && t.mark[idx] != t.epoch && t.nodes[sl-1].ok {
		// Reached only because an ancestor changed: its own values are
		// those its node was made from (a change of its own would have
		// marked it).
		n := &t.nodes[sl-1]
		lp, lr, ls = n.lp, n.lr, n.ls
	} else {
		lp, lr, ls = t.local(e)
	}
	nested := pslot >= 0
	t.setNested(idx, nested)
	if !nested && !needNode && t.flags[idx]&fNode == 0 {
		w.Position, w.Rotation, w.Scale = lp, lr, ls
		return
	}
	s := t.nodeOf(idx)
	n := &t.nodes[s]
	newLin := !n.ok
	if newLin || lr != n.lr || ls != n.ls {
		n.ll = rotScale(lr, ls)
		n.lr, n.ls = lr, ls
		newLin = true
	}
	if !nested {
		if newLin || n.pslot != -1 {
			n.m.setLinear(&n.ll)
			n.pslot, n.plv = -1, 0
			t.lvSeq++
			n.lv = t.lvSeq
		}
		n.m[3], n.m[7], n.m[11] = lp.X, lp.Y, lp.Z
		w.Position, w.Rotation, w.Scale = lp, lr, ls
	} else {
		p := &t.nodes[pslot]
		if newLin || n.pslot != pslot || n.plv != p.lv {
			n.m.mulLinear(&p.m, &n.ll)
			n.pslot, n.plv = pslot, p.lv
			t.lvSeq++
			n.lv = t.lvSeq
			w.Rotation, w.Scale = n.m.decompose()
		}
		tr := p.m.apply(lp)
		n.m[3], n.m[7], n.m[11] = tr.X, tr.Y, tr.Z
		w.Position = tr
	}
	n.lp = lp
	n.ok = true
}
