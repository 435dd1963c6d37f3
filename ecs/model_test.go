package ecs

import (
	"errors"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"testing"
)

// The randomized model test: random operations applied both to a World
// and to a plain map-based model of it, with full agreement checked after
// every step.

type mA struct {
	N int
	S string // a pointer, so moves of A exercise the GC-aware copies
}

type mEnt struct {
	comps  map[ID]any
	parent Entity
	kids   []Entity
}

type mFilter struct {
	f              *Filter
	all, none, any []ID
}

func (mf *mFilter) match(m *mEnt) bool {
	for _, id := range mf.all {
		if _, ok := m.comps[id]; !ok {
			return false
		}
	}
	for _, id := range mf.none {
		if _, ok := m.comps[id]; ok {
			return false
		}
	}
	if len(mf.any) == 0 {
		return true
	}
	for _, id := range mf.any {
		if _, ok := m.comps[id]; ok {
			return true
		}
	}
	return false
}

// pending is a change the model applies when the World's iteration ends.
type pending func()

type model struct {
	t       *testing.T
	rng     *rand.Rand
	w       *World
	a       Map[mA]
	b       Map[int64]
	tagT    ID
	tagU    ID
	ids     []ID
	ents    map[Entity]*mEnt
	alive   []Entity
	dead    []Entity
	roots   []Entity
	filters []*mFilter
	queue   []pending // deferred changes while locked
	locked  bool
	step    int
	op      string

	seed           maphash.Seed
	lastChanges    []uint64
	lastCompHash   []uint64
	lastVersion    uint64
	lastStructHash uint64
	builder        *Builder2[mA, int64]
	deferred       int
}

func newModel(t *testing.T, seed uint64) *model {
	w := NewWorld()
	m := &model{t: t, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), w: w, ents: map[Entity]*mEnt{}, seed: maphash.MakeSeed()}
	m.a = MustRegister[mA](w, "a")
	m.b = MustRegister[int64](w, "b")
	m.tagT, _ = w.RegisterTag("t")
	m.tagU, _ = w.RegisterTag("u")
	m.ids = []ID{m.a.ID(), m.b.ID(), m.tagT, m.tagU}
	A, B, T, U := m.ids[0], m.ids[1], m.ids[2], m.ids[3]
	// Filters made before any table exists.
	for _, spec := range []struct{ all, none, any []ID }{
		{},
		{all: []ID{A}},
		{all: []ID{A, B}},
		{none: []ID{T}},
		{any: []ID{B, U}},
		{all: []ID{T}, none: []ID{A}},
		{all: []ID{U}, any: []ID{A, B}},
		{none: []ID{A, B, T, U}},
	} {
		f := NewFilter(w, With(spec.all...), Without(spec.none...), AnyOf(spec.any...))
		m.filters = append(m.filters, &mFilter{f: f, all: spec.all, none: spec.none, any: spec.any})
	}
	m.builder = NewBuilder2(m.a, m.b, T)
	m.lastChanges = make([]uint64, len(m.ids))
	m.lastCompHash = make([]uint64, len(m.ids))
	return m
}

func (m *model) fail(format string, args ...any) {
	m.t.Helper()
	m.t.Fatalf("step %d (%s): %s", m.step, m.op, fmt.Sprintf(format, args...))
}

func (m *model) zero(id ID) any {
	switch id {
	case m.a.ID():
		return mA{}
	case m.b.ID():
		return int64(0)
	}
	return struct{}{}
}

func (m *model) randValue(id ID) any {
	switch id {
	case m.a.ID():
		n := m.rng.IntN(1000)
		return mA{n, fmt.Sprint("s", n)}
	case m.b.ID():
		return m.rng.Int64N(1 << 40)
	}
	return struct{}{}
}

func (m *model) randIDs() []ID {
	var ids []ID
	for _, id := range m.ids {
		if m.rng.IntN(2) == 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 && m.rng.IntN(4) == 0 {
		ids = append(ids, ids[0]) // a duplicate
	}
	m.rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

// pick returns an entity: usually alive, sometimes stale or zero.
func (m *model) pick() Entity {
	r := m.rng.IntN(20)
	switch {
	case r == 0:
		return Entity{}
	case r <= 2 && len(m.dead) > 0:
		return m.dead[m.rng.IntN(len(m.dead))]
	case len(m.alive) > 0:
		return m.alive[m.rng.IntN(len(m.alive))]
	}
	return Entity{}
}

func (m *model) has(e Entity, id ID) bool {
	me := m.ents[e]
	if me == nil {
		return false
	}
	_, ok := me.comps[id]
	return ok
}

// --- model mutations ---

func (m *model) mCreate(e Entity, ids []ID) {
	if _, ok := m.ents[e]; ok {
		m.fail("created %v twice", e)
	}
	me := &mEnt{comps: map[ID]any{}}
	for _, id := range ids {
		me.comps[id] = m.zero(id)
	}
	m.ents[e] = me
	m.alive = append(m.alive, e)
	m.roots = append(m.roots, e)
}

func (m *model) siblings(p Entity) *[]Entity {
	if p.IsZero() {
		return &m.roots
	}
	return &m.ents[p].kids
}

func (m *model) mDestroy(e Entity) {
	me := m.ents[e]
	if me == nil {
		return
	}
	for _, k := range slices.Clone(me.kids) {
		m.mDestroy(k)
	}
	s := m.siblings(me.parent)
	*s = slices.DeleteFunc(*s, func(x Entity) bool { return x == e })
	delete(m.ents, e)
	i := slices.Index(m.alive, e)
	m.alive = slices.Delete(m.alive, i, i+1)
	m.dead = append(m.dead, e)
}

func (m *model) isAncestor(a, e Entity) bool {
	for p := m.ents[e].parent; !p.IsZero(); p = m.ents[p].parent {
		if p == a {
			return true
		}
	}
	return false
}

// reparentErr returns the error InsertChild must give.
func (m *model) reparentErr(parent, child Entity) error {
	if m.ents[child] == nil {
		return ErrStale
	}
	if !parent.IsZero() && m.ents[parent] == nil {
		return ErrStale
	}
	if parent == child || (!parent.IsZero() && m.isAncestor(child, parent)) {
		return ErrCycle
	}
	return nil
}

func (m *model) mReparent(parent, child Entity, index int) {
	me := m.ents[child]
	s := m.siblings(me.parent)
	*s = slices.DeleteFunc(*s, func(x Entity) bool { return x == child })
	me.parent = parent
	s = m.siblings(parent)
	if index < 0 || index > len(*s) {
		index = len(*s)
	}
	*s = slices.Insert(*s, index, child)
}

func (m *model) matching(mf *mFilter) []Entity {
	var out []Entity
	for _, e := range m.alive {
		if mf.match(m.ents[e]) {
			out = append(out, e)
		}
	}
	return out
}

// --- checks ---

func errMatches(err, want error) bool {
	if want == nil {
		return err == nil
	}
	return errors.Is(err, want)
}

func (m *model) expectErr(err, want error) {
	m.t.Helper()
	if !errMatches(err, want) {
		m.fail("error %v, want %v", err, want)
	}
}

func (m *model) docOrder() []Entity {
	var out []Entity
	var walk func([]Entity)
	walk = func(es []Entity) {
		for _, e := range es {
			out = append(out, e)
			walk(m.ents[e].kids)
		}
	}
	walk(m.roots)
	return out
}

func (m *model) mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

func handleKey(e Entity) uint64 { return uint64(e.index)<<32 | uint64(e.gen) }

// check compares the whole World with the model.
func (m *model) check() {
	m.t.Helper()
	w := m.w
	if w.Locked() || w.Pending() != 0 {
		m.fail("World locked %v with %d pending", w.Locked(), w.Pending())
	}
	if w.Len() != len(m.alive) {
		m.fail("Len %d, model %d", w.Len(), len(m.alive))
	}
	compHash, structHash := m.checkEntities()
	m.checkStale()
	m.checkChildIndexes()
	structHash = m.checkOrder(structHash)
	m.checkFilters()
	m.checkTypedColumns()
	m.checkCounters(compHash, structHash)
}

// checkEntities checks every live entity's components, values, parent
// and children against the model. It returns hashes of the values, one
// per component, and of the entities' handles and component sets.
func (m *model) checkEntities() (compHash []uint64, structHash uint64) {
	m.t.Helper()
	w := m.w
	compHash = make([]uint64, len(m.ids))
	for _, e := range m.alive {
		me := m.ents[e]
		if !w.Alive(e) {
			m.fail("%v dead in World", e)
		}
		var want []ID
		for _, id := range m.ids {
			v, ok := me.comps[id]
			if w.Has(e, id) != ok {
				m.fail("%v Has(%d)=%v, model %v", e, id, !ok, ok)
			}
			if !ok {
				continue
			}
			want = append(want, id)
			got, err := w.Get(e, id)
			if err != nil || got != v {
				m.fail("%v component %d = %v (%v), model %v", e, id, got, err, v)
			}
			h := m.mix(handleKey(e))
			switch v := v.(type) {
			case mA:
				h ^= m.mix(uint64(v.N)) ^ maphash.String(m.seed, v.S)
			case int64:
				h ^= m.mix(uint64(v) + 1)
			}
			compHash[id] ^= m.mix(h)
		}
		if got := w.Components(e); !slices.Equal(got, want) {
			m.fail("%v components %v, model %v", e, got, want)
		}
		structHash ^= m.mix(handleKey(e) ^ m.mix(uint64(MaskOf(want...).w0())))
		p, ok := w.Parent(e)
		if ok != !me.parent.IsZero() || p != me.parent {
			m.fail("%v parent %v %v, model %v", e, p, ok, me.parent)
		}
		if got := w.Children(e); !slices.Equal(got, me.kids) {
			m.fail("%v children %v, model %v", e, got, me.kids)
		}
	}
	return compHash, structHash
}

// checkChildIndexes checks ChildIndex against the model's lists of
// siblings: about half of them at each step (picked by a hash of the step
// and the parent), so that the others go on changing with their indexes
// out of date, as the World keeps them lazily.
func (m *model) checkChildIndexes() {
	m.t.Helper()
	parents := append([]Entity{{}}, m.alive...) // the zero Entity: the roots
	for _, p := range parents {
		if m.mix(uint64(m.step)^handleKey(p))&1 == 0 {
			continue
		}
		for i, e := range *m.siblings(p) {
			if got := m.w.ChildIndex(e); got != i {
				m.fail("ChildIndex(%v) %d, model %d (children of %v)", e, got, i, p)
			}
		}
	}
}

// checkStale checks that stale handles reach no data.
func (m *model) checkStale() {
	m.t.Helper()
	w := m.w
	// A sample of the most recent.
	for i := max(0, len(m.dead)-16); i < len(m.dead); i++ {
		e := m.dead[i]
		if w.Alive(e) || m.a.Get(e) != nil || m.b.Has(e) || w.Components(e) != nil {
			m.fail("stale %v reaches data", e)
		}
	}
}

// checkOrder checks the World's document order and roots against the
// model's, and returns structHash updated with the order and parents.
func (m *model) checkOrder(structHash uint64) uint64 {
	m.t.Helper()
	w := m.w
	order := m.docOrder()
	got := collect(w.All())
	if !slices.Equal(got, order) {
		m.fail("All %v, model %v", got, order)
	}
	if roots := collect(w.Roots()); !slices.Equal(roots, m.roots) {
		m.fail("Roots %v, model %v", roots, m.roots)
	}
	for i, e := range order {
		structHash = m.mix(structHash ^ handleKey(e) ^ uint64(i))
		if p := m.ents[e].parent; !p.IsZero() {
			structHash ^= m.mix(handleKey(p) + 7)
		}
	}
	return structHash
}

// checkFilters checks each filter's Count and query against the model.
func (m *model) checkFilters() {
	m.t.Helper()
	for i, mf := range m.filters {
		want := m.matching(mf)
		if mf.f.Count() != len(want) {
			m.fail("filter %d Count %d, model %d", i, mf.f.Count(), len(want))
		}
		if got := queryAll(mf.f); !slices.Equal(got, sortedEntities(want)) {
			m.fail("filter %d query %v, model %v", i, got, sortedEntities(want))
		}
	}
}

// checkTypedColumns checks that a typed query by column agrees with the
// model's values.
func (m *model) checkTypedColumns() {
	m.t.Helper()
	tf := NewFilter2(m.a, m.b)
	q := tf.Query()
	n := 0
	for q.NextTable() {
		as, bs := q.Columns()
		for i := range as {
			me := m.ents[q.EntityAt(i)]
			if me == nil || me.comps[m.a.ID()] != as[i] || me.comps[m.b.ID()] != bs[i] {
				m.fail("typed column row %v", q.EntityAt(i))
			}
			n++
		}
	}
	tf.Filter().Close()
	if n != len(m.matching(m.filters[2])) {
		m.fail("typed query count %d", n)
	}
}

// checkCounters checks that Changes and Version grew whenever what they
// cover changed: the values hashed in compHash, the structure in
// structHash.
func (m *model) checkCounters(compHash []uint64, structHash uint64) {
	m.t.Helper()
	w := m.w
	for i, id := range m.ids {
		c := w.Changes(id)
		if c < m.lastChanges[i] || (compHash[i] != m.lastCompHash[i] && c == m.lastChanges[i]) {
			m.fail("Changes(%d) %d -> %d while values changed: %v", id, m.lastChanges[i], c, compHash[i] != m.lastCompHash[i])
		}
		m.lastChanges[i], m.lastCompHash[i] = c, compHash[i]
	}
	if v := w.Version(); v < m.lastVersion || (structHash != m.lastStructHash && v == m.lastVersion) {
		m.fail("Version %d -> %d while structure changed", m.lastVersion, v)
	}
	m.lastVersion, m.lastStructHash = w.Version(), structHash
}

// w0 returns the first word of a mask (all the model's IDs fit in it).
func (mk Mask) w0() uint64 {
	if len(mk.w) == 0 {
		return 0
	}
	return mk.w[0]
}

// --- operations ---

// The operations take effect at once when the World is unlocked, and are
// queued in the model when it is locked, exactly as the World defers them.

func (m *model) later(fn pending) {
	if m.locked {
		m.queue = append(m.queue, fn)
	} else {
		fn()
	}
}

func (m *model) opCreate() {
	ids := m.randIDs()
	m.op = fmt.Sprint("NewEntity", ids)
	e := m.w.NewEntity(ids...)
	if m.locked {
		m.mCreate(e, nil)
		for _, id := range MaskOf(ids...).IDs() {
			m.queue = append(m.queue, m.deferredAdd(e, id, nil))
		}
		return
	}
	m.mCreate(e, ids)
}

func (m *model) deferredAdd(e Entity, id ID, v any) pending {
	return func() {
		me := m.ents[e]
		if me == nil {
			return
		}
		if _, ok := me.comps[id]; ok {
			if v != nil {
				me.comps[id] = v
			}
			return
		}
		if v == nil {
			v = m.zero(id)
		}
		me.comps[id] = v
	}
}

func (m *model) opBatchCreate() {
	n := m.rng.IntN(5)
	if m.rng.IntN(2) == 0 {
		ids := m.randIDs()
		m.op = fmt.Sprint("NewEntities", n, ids)
		es := m.w.NewEntities(n, ids...)
		if len(es) != n {
			m.fail("NewEntities made %d", len(es))
		}
		for _, e := range es {
			if m.locked {
				m.mCreate(e, nil)
				for _, id := range MaskOf(ids...).IDs() {
					m.queue = append(m.queue, m.deferredAdd(e, id, nil))
				}
			} else {
				m.mCreate(e, ids)
			}
		}
		return
	}
	m.op = fmt.Sprint("Builder.NewBatchFn ", n)
	var made []Entity
	m.builder.NewBatchFn(n, func(e Entity, a *mA, b *int64) {
		k := m.rng.IntN(1000)
		*a = mA{k, fmt.Sprint("b", k)}
		*b = int64(k)
		made = append(made, e)
		if m.locked {
			m.mCreate(e, nil)
			m.queue = append(m.queue, m.deferredAdd(e, m.a.ID(), *a), m.deferredAdd(e, m.b.ID(), *b), m.deferredAdd(e, m.tagT, nil))
		} else {
			m.mCreate(e, []ID{m.a.ID(), m.b.ID(), m.tagT})
			m.ents[e].comps[m.a.ID()] = *a
			m.ents[e].comps[m.b.ID()] = *b
		}
	})
	if len(made) != n {
		m.fail("NewBatchFn called fn %d times", len(made))
	}
}

func (m *model) opDestroy() {
	e := m.pick()
	m.op = fmt.Sprint("Destroy ", e)
	err := m.w.Destroy(e)
	if m.ents[e] == nil {
		m.expectErr(err, ErrStale)
		return
	}
	m.expectErr(err, nil)
	m.later(func() { m.mDestroy(e) })
}

func (m *model) opAdd() {
	e := m.pick()
	ids := m.randIDs()
	if len(ids) == 0 {
		ids = []ID{m.tagU}
	}
	m.op = fmt.Sprint("Add ", e, ids)
	err := m.w.Add(e, ids...)
	switch {
	case m.ents[e] == nil:
		m.expectErr(err, ErrStale)
		return
	case slices.ContainsFunc(ids, func(id ID) bool { return m.has(e, id) }):
		m.expectErr(err, ErrHasComponent)
		return
	}
	m.expectErr(err, nil)
	for _, id := range MaskOf(ids...).IDs() {
		m.later(m.deferredAdd(e, id, nil))
	}
}

func (m *model) opRemove() {
	e := m.pick()
	ids := m.randIDs()
	m.op = fmt.Sprint("Remove ", e, ids)
	err := m.w.Remove(e, ids...)
	switch {
	case m.ents[e] == nil:
		m.expectErr(err, ErrStale)
		return
	case slices.ContainsFunc(ids, func(id ID) bool { return !m.has(e, id) }):
		m.expectErr(err, ErrNoComponent)
		return
	}
	m.expectErr(err, nil)
	for _, id := range ids {
		m.later(func() {
			if me := m.ents[e]; me != nil {
				delete(me.comps, id)
			}
		})
	}
}

func (m *model) opSet() {
	e := m.pick()
	id := m.ids[m.rng.IntN(len(m.ids))]
	v := m.randValue(id)
	m.op = fmt.Sprint("Set ", e, id, v)
	var err error
	switch m.rng.IntN(3) {
	case 0:
		err = m.w.Set(e, id, v)
	case 1:
		switch v := v.(type) {
		case mA:
			err = m.a.Set(e, v)
		case int64:
			err = m.b.Set(e, v)
		default:
			err = m.w.SetPtr(e, id, nil)
		}
	case 2:
		// Write through the pointer, then MarkChanged.
		if m.has(e, id) && id == m.a.ID() {
			*m.a.Get(e) = v.(mA)
			err = m.w.MarkChanged(e, id)
		} else {
			err = m.w.Set(e, id, v)
		}
	}
	if m.ents[e] == nil {
		m.expectErr(err, ErrStale)
		return
	}
	m.expectErr(err, nil)
	if m.has(e, id) {
		m.ents[e].comps[id] = v // value writes are immediate
		return
	}
	m.later(m.deferredAdd(e, id, v))
}

func (m *model) opReparent() {
	child := m.pick()
	var parent Entity
	if m.rng.IntN(4) != 0 {
		parent = m.pick()
	}
	index := -1
	var err error
	if m.rng.IntN(2) == 0 {
		m.op = fmt.Sprint("SetParent ", child, parent)
		err = m.w.SetParent(child, parent)
	} else {
		index = m.rng.IntN(6) - 1
		m.op = fmt.Sprint("InsertChild ", parent, child, index)
		err = m.w.InsertChild(parent, child, index)
	}
	want := m.reparentErr(parent, child)
	m.expectErr(err, want)
	if want != nil {
		return
	}
	m.later(func() {
		if m.reparentErr(parent, child) == nil {
			m.mReparent(parent, child, index)
		}
	})
}

func (m *model) opBatch() {
	mf := m.filters[m.rng.IntN(len(m.filters))]
	id := m.ids[m.rng.IntN(len(m.ids))]
	switch m.rng.IntN(3) {
	case 0:
		m.op = fmt.Sprint("AddAll ", id)
		want := 0
		for _, e := range m.matching(mf) {
			if !m.has(e, id) {
				want++
			}
		}
		n := m.w.AddAll(mf.f, id)
		m.later(func() {
			for _, e := range m.matching(mf) {
				if !m.has(e, id) {
					m.ents[e].comps[id] = m.zero(id)
				}
			}
		})
		m.batchCount(n, want)
	case 1:
		m.op = fmt.Sprint("RemoveAll ", id)
		want := 0
		for _, e := range m.matching(mf) {
			if m.has(e, id) {
				want++
			}
		}
		n := m.w.RemoveAll(mf.f, id)
		m.later(func() {
			for _, e := range m.matching(mf) {
				delete(m.ents[e].comps, id)
			}
		})
		m.batchCount(n, want)
	case 2:
		if m.rng.IntN(4) != 0 {
			// DestroyAll is strong: usually aim it at a narrow filter.
			mf = m.filters[5+m.rng.IntN(2)]
		}
		m.op = "DestroyAll"
		want := len(m.matching(mf))
		n := m.w.DestroyAll(mf.f)
		if !m.locked && n != want {
			m.fail("DestroyAll %d, model %d", n, want)
		}
		m.later(func() {
			for _, e := range m.matching(mf) {
				m.mDestroy(e)
			}
		})
	}
}

// batchCount checks AddAll/RemoveAll's result: the number of entities
// whose component set changed (0 while locked).
func (m *model) batchCount(n, want int) {
	if m.locked {
		want = 0
	}
	if n != want {
		m.fail("batch returned %d, want %d", n, want)
	}
}

func (m *model) randomOp() {
	switch r := m.rng.IntN(100); {
	case r < 20:
		m.opCreate()
	case r < 28:
		m.opBatchCreate()
	case r < 36:
		m.opDestroy()
	case r < 48:
		m.opAdd()
	case r < 58:
		m.opRemove()
	case r < 76:
		m.opSet()
	case r < 94:
		m.opReparent()
	default:
		m.opBatch()
	}
}

// opQuery iterates a filter, making random changes on the way; they are
// deferred, and the iteration sees exactly the entities that matched when
// it started.
func (m *model) opQuery() {
	mf := m.filters[m.rng.IntN(len(m.filters))]
	want := m.matching(mf)
	m.op = "query"
	q := mf.f.Query()
	m.locked = true
	var seen []Entity
	stopAt := -1
	if m.rng.IntN(4) == 0 {
		stopAt = m.rng.IntN(len(want) + 1)
	}
	for q.Next() {
		if len(seen) == stopAt {
			q.Close()
			break
		}
		e := q.Entity()
		seen = append(seen, e)
		if !slices.Contains(want, e) {
			m.fail("query visited %v, which did not match at the start", e)
		}
		if m.rng.IntN(3) == 0 {
			m.randomOp()
			m.op = "query"
		}
		if !m.w.Locked() {
			m.fail("unlocked during iteration")
		}
	}
	if stopAt < 0 && len(seen) != len(want) {
		m.fail("query visited %d, want %d", len(seen), len(want))
	}
	if len(seen) != len(slices.Compact(sortedEntities(seen))) {
		m.fail("query visited an entity twice")
	}
	m.locked = false
	q.Close()
	queue := m.queue
	m.queue = nil
	m.deferred += len(queue)
	for _, fn := range queue {
		fn()
	}
}

func runModel(t *testing.T, seed uint64, steps int) {
	m := newModel(t, seed)
	m.check()
	for m.step = 1; m.step <= steps; m.step++ {
		// Keep the population small so that the full check after every
		// step stays cheap.
		if len(m.alive) > 80 {
			m.op = "trim"
			for len(m.alive) > 40 {
				e := m.alive[m.rng.IntN(len(m.alive))]
				mustNil(t, m.w.Destroy(e))
				m.mDestroy(e)
			}
		} else if m.rng.IntN(8) == 0 {
			m.opQuery()
		} else {
			m.randomOp()
		}
		m.check()
	}
	t.Logf("%d steps: %d entities created, %d alive, %d tables, %d ops deferred",
		steps, len(m.dead)+len(m.alive), len(m.alive), len(m.w.tables), m.deferred)
}

func TestModel(t *testing.T) {
	steps := 4000
	if testing.Short() {
		steps = 500
	}
	for _, seed := range []uint64{1, 2, 3, 42, 1234, 98765} {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			runModel(t, seed, steps)
		})
	}
}
