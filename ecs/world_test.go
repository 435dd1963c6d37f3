package ecs

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

type pos struct{ X, Y float64 }
type vel struct{ X, Y float64 }
type name struct{ S string }

// fixture is a World with a few components of each kind.
type fixture struct {
	w     *World
	pos   Map[pos]
	vel   Map[vel]
	name  Map[name]
	enemy ID // tag
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	w := NewWorld()
	f := fixture{w: w}
	f.pos = MustRegister[pos](w, "pos")
	f.vel = MustRegister[vel](w, "vel")
	f.name = MustRegister[name](w, "name")
	var err error
	if f.enemy, err = w.RegisterTag("enemy"); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustNil(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustIs(t testing.TB, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v, want %v", err, target)
	}
}

func collect[T any](seq func(func(T) bool)) []T {
	var out []T
	for v := range seq {
		out = append(out, v)
	}
	return out
}

func TestEntityHandle(t *testing.T) {
	var z Entity
	if !z.IsZero() || z.String() != "e-" {
		t.Fatalf("zero entity: %v", z)
	}
	w := NewWorld()
	if w.Alive(z) {
		t.Fatal("zero entity alive")
	}
	e := w.NewEntity()
	if e.IsZero() || e.Index() != 0 || e.Generation() != 1 || e.String() != "e0v1" {
		t.Fatalf("first entity %v index %d gen %d", e, e.Index(), e.Generation())
	}
	mustNil(t, w.Destroy(e))
	e2 := w.NewEntity()
	if e2.Index() != e.Index() || e2.Generation() != 2 || e2 == e {
		t.Fatalf("recycled %v after %v", e2, e)
	}
	if w.Alive(e) || !w.Alive(e2) {
		t.Fatal("old handle alive or new dead")
	}
}

func TestNewEntityAndComponents(t *testing.T) {
	f := newFixture(t)
	w := f.w
	v0 := w.Version()
	e := w.NewEntity(f.vel.ID(), f.pos.ID(), f.enemy, f.pos.ID())
	if w.Len() != 1 || w.Version() == v0 {
		t.Fatalf("len %d version %d", w.Len(), w.Version())
	}
	want := []ID{f.pos.ID(), f.vel.ID(), f.enemy}
	if got := w.Components(e); !slices.Equal(got, want) {
		t.Fatalf("components %v want %v", got, want)
	}
	if m := w.Mask(e); !m.Equal(MaskOf(want...)) || m.Len() != 3 {
		t.Fatalf("mask %v", m.IDs())
	}
	if p := f.pos.Get(e); p == nil || *p != (pos{}) {
		t.Fatalf("pos %v", p)
	}
	if f.name.Get(e) != nil || f.name.Has(e) || w.Has(e, f.name.ID()) {
		t.Fatal("name present")
	}
	if !f.pos.Has(e) || !w.Has(e, f.enemy) {
		t.Fatal("pos/enemy absent")
	}
}

func TestSetGetAddRemove(t *testing.T) {
	f := newFixture(t)
	w := f.w
	e := w.NewEntity()
	// Set adds when absent.
	mustNil(t, f.pos.Set(e, pos{1, 2}))
	if got := *f.pos.Get(e); got != (pos{1, 2}) {
		t.Fatalf("pos %v", got)
	}
	// Set on present overwrites, no move.
	mustNil(t, f.pos.Set(e, pos{3, 4}))
	if got := *f.pos.Get(e); got != (pos{3, 4}) {
		t.Fatalf("pos %v", got)
	}
	// Add of present fails, value kept.
	mustIs(t, f.pos.Add(e, pos{9, 9}), ErrHasComponent)
	mustIs(t, w.Add(e, f.vel.ID(), f.pos.ID()), ErrHasComponent)
	if w.Has(e, f.vel.ID()) {
		t.Fatal("failed Add added a component")
	}
	mustNil(t, f.vel.Add(e, vel{5, 6}))
	mustNil(t, w.Add(e, f.name.ID(), f.enemy))
	// Values survive moves.
	if *f.pos.Get(e) != (pos{3, 4}) || *f.vel.Get(e) != (vel{5, 6}) || f.name.Get(e).S != "" {
		t.Fatal("values lost in move")
	}
	// Interface forms.
	v, err := w.Get(e, f.vel.ID())
	mustNil(t, err)
	if v.(vel) != (vel{5, 6}) {
		t.Fatalf("Get %v", v)
	}
	mustNil(t, w.Set(e, f.name.ID(), name{"hi"}))
	if f.name.Get(e).S != "hi" {
		t.Fatal("Set by ID")
	}
	if err := w.Set(e, f.name.ID(), "hi"); err == nil || !strings.Contains(err.Error(), "want") {
		t.Fatalf("Set with wrong type: %v", err)
	}
	if err := w.Set(e, f.name.ID(), nil); err == nil {
		t.Fatal("Set nil accepted")
	}
	tag, err := w.Get(e, f.enemy)
	mustNil(t, err)
	if tag != (struct{}{}) {
		t.Fatalf("tag value %v", tag)
	}
	p, err := w.GetPtr(e, f.pos.ID())
	mustNil(t, err)
	if (*pos)(p) != f.pos.Get(e) {
		t.Fatal("GetPtr differs from Map.Get")
	}
	// Remove: misuse first.
	mustIs(t, w.Remove(e, f.pos.ID(), ID(99)), ErrUnknownComponent)
	absent, _ := w.RegisterTag("absent")
	mustIs(t, w.Remove(e, f.pos.ID(), f.enemy, absent), ErrNoComponent)
	if !f.pos.Has(e) {
		t.Fatal("failed Remove removed")
	}
	mustNil(t, w.Remove(e, f.pos.ID(), f.enemy))
	if f.pos.Has(e) || w.Has(e, f.enemy) || *f.vel.Get(e) != (vel{5, 6}) || f.name.Get(e).S != "hi" {
		t.Fatal("remove broke values")
	}
	mustIs(t, f.pos.Remove(e), ErrNoComponent)
	mustNil(t, f.vel.Remove(e))
	mustNil(t, f.name.Remove(e))
	if len(w.Components(e)) != 0 {
		t.Fatalf("components left %v", w.Components(e))
	}
	// AddPtr with nil is zero value; SetPtr of a tag with nil.
	mustNil(t, w.AddPtr(e, f.pos.ID(), nil))
	if *f.pos.Get(e) != (pos{}) {
		t.Fatal("AddPtr nil not zero")
	}
	mustNil(t, w.SetPtr(e, f.enemy, nil))
	if !w.Has(e, f.enemy) {
		t.Fatal("SetPtr tag")
	}
}

func TestGetAbsent(t *testing.T) {
	f := newFixture(t)
	w := f.w
	e := w.NewEntity(f.pos.ID())
	if _, err := w.Get(e, f.vel.ID()); !errors.Is(err, ErrNoComponent) || !strings.Contains(err.Error(), "vel") {
		t.Fatalf("Get absent: %v", err)
	}
	if _, err := w.GetPtr(e, ID(1000)); !errors.Is(err, ErrUnknownComponent) {
		t.Fatalf("GetPtr unknown: %v", err)
	}
	if f.vel.Get(e) != nil {
		t.Fatal("Map.Get absent not nil")
	}
	mustIs(t, w.MarkChanged(e, f.vel.ID()), ErrNoComponent)
	mustIs(t, w.Set(e, ID(1000), 1), ErrUnknownComponent)
	mustIs(t, w.SetPtr(e, ID(1000), nil), ErrUnknownComponent)
	mustIs(t, w.AddPtr(e, ID(1000), nil), ErrUnknownComponent)
	mustIs(t, w.Add(e, ID(1000)), ErrUnknownComponent)
}

// staleOps runs every operation that takes an entity on e and checks
// each refuses it.
func staleOps(t *testing.T, f fixture, e Entity) {
	t.Helper()
	w := f.w
	if w.Alive(e) || w.Has(e, f.pos.ID()) || f.pos.Has(e) || f.pos.Get(e) != nil {
		t.Fatal("stale handle seen as alive")
	}
	if w.Components(e) != nil || !w.Mask(e).IsEmpty() {
		t.Fatal("stale components")
	}
	_, err := w.Get(e, f.pos.ID())
	mustIs(t, err, ErrStale)
	_, err = w.GetPtr(e, f.pos.ID())
	mustIs(t, err, ErrStale)
	mustIs(t, w.Set(e, f.pos.ID(), pos{}), ErrStale)
	mustIs(t, f.pos.Set(e, pos{1, 1}), ErrStale)
	mustIs(t, f.pos.Add(e, pos{1, 1}), ErrStale)
	mustIs(t, w.AddPtr(e, f.vel.ID(), nil), ErrStale)
	mustIs(t, w.Add(e, f.vel.ID()), ErrStale)
	mustIs(t, w.Remove(e, f.pos.ID()), ErrStale)
	mustIs(t, f.pos.Remove(e), ErrStale)
	mustIs(t, w.MarkChanged(e, f.pos.ID()), ErrStale)
	mustIs(t, w.Destroy(e), ErrStale)
	mustIs(t, w.SetParent(e, Entity{}), ErrStale)
	live := w.NewEntity()
	if !e.IsZero() { // a zero parent means the roots
		mustIs(t, w.SetParent(live, e), ErrStale)
		mustIs(t, w.InsertChild(e, live, 0), ErrStale)
	}
	mustNil(t, w.Destroy(live))
	if _, ok := w.Parent(e); ok {
		t.Fatal("stale Parent")
	}
	for _, fn := range []func(Entity) (Entity, bool){w.FirstChild, w.LastChild, w.NextSibling, w.PrevSibling} {
		if _, ok := fn(e); ok {
			t.Fatal("stale navigation")
		}
	}
	if w.Children(e) != nil || len(collect(w.Descendants(e))) != 0 || w.ChildIndex(e) != -1 {
		t.Fatal("stale children")
	}
	if w.IsAncestor(e, e) {
		t.Fatal("stale ancestor")
	}
	if NewFilter(w).MatchesEntity(e) {
		t.Fatal("stale matches")
	}
}

func TestStaleHandles(t *testing.T) {
	f := newFixture(t)
	w := f.w
	// A destroyed entity whose slot has been recycled: the new entity's
	// data must never be reached through the old handle.
	old := w.NewEntity(f.pos.ID())
	mustNil(t, f.pos.Set(old, pos{1, 1}))
	mustNil(t, w.Destroy(old))
	recycled := w.NewEntity(f.pos.ID(), f.vel.ID())
	mustNil(t, f.pos.Set(recycled, pos{7, 7}))
	if recycled.Index() != old.Index() {
		t.Fatalf("slot not recycled: %v %v", old, recycled)
	}
	staleOps(t, f, old)
	if *f.pos.Get(recycled) != (pos{7, 7}) || !f.vel.Has(recycled) || !w.Alive(recycled) {
		t.Fatal("recycled entity touched through stale handle")
	}
	if w.Len() != 1 {
		t.Fatalf("len %d", w.Len())
	}
	// The zero handle.
	staleOps(t, f, Entity{})
	// A handle from another World with the same index and generation.
	g := newFixture(t)
	foreign := g.w.NewEntity(g.pos.ID())
	if foreign.Index() != recycled.Index() && foreign.Index() != 0 {
		t.Fatal("setup")
	}
	w2 := newFixture(t)
	other := w2.w.NewEntity(w2.pos.ID()) // index 0, generation 1
	mine := w.NewEntity(f.pos.ID())      // index 1, generation 1
	_ = mine
	staleOps(t, f, other)
	// Conversely a handle of w in w2.
	w2.w.NewEntity()
	staleOps(t, w2, mine)
	// Double destroy.
	e := w.NewEntity()
	mustNil(t, w.Destroy(e))
	mustIs(t, w.Destroy(e), ErrStale)
	if w.Len() != 2 {
		t.Fatalf("len %d after double destroy", w.Len())
	}
}

func TestGenerationExhaustion(t *testing.T) {
	w := NewWorld()
	e := w.NewEntity()
	idx := e.Index()
	// Jump the generation counter near its end.
	w.records[idx].gen = ^uint32(0) - 1
	e = w.handle(idx)
	if !w.Alive(e) {
		t.Fatal("setup")
	}
	mustNil(t, w.Destroy(e))
	e2 := w.NewEntity()
	if e2.Index() != idx || e2.Generation() != ^uint32(0) {
		t.Fatalf("e2 %v", e2)
	}
	mustNil(t, w.Destroy(e2))
	// The slot's counter is exhausted: it is retired, never reused.
	e3 := w.NewEntity()
	if e3.Index() == idx {
		t.Fatalf("retired slot reused: %v", e3)
	}
	if w.Alive(e) || w.Alive(e2) || !w.Alive(e3) || w.Len() != 1 {
		t.Fatal("liveness after retirement")
	}
}

func TestRegistration(t *testing.T) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	if _, err := Register[vel](w, "pos"); !errors.Is(err, ErrDuplicateName) {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := w.RegisterTag("pos"); !errors.Is(err, ErrDuplicateName) {
		t.Fatalf("duplicate tag: %v", err)
	}
	if _, err := Register[pos](w, ""); err == nil {
		t.Fatal("empty name accepted")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("MustRegister duplicate did not panic")
			}
		}()
		MustRegister[pos](w, "pos")
	}()
	// The same Go type under two names: distinct components.
	v := MustRegister[pos](w, "vel")
	if v.ID() == p.ID() || v.World() != w {
		t.Fatal("second registration of a type")
	}
	if id, ok := w.ComponentID("vel"); !ok || id != v.ID() {
		t.Fatal("ComponentID")
	}
	if _, ok := w.ComponentID("nope"); ok {
		t.Fatal("ComponentID unknown")
	}
	info, ok := w.ComponentInfo(p.ID())
	if !ok || info.Name != "pos" || info.Type != reflect.TypeOf(pos{}) || info.Size != 16 || info.IsTag() || info.ID != p.ID() {
		t.Fatalf("info %+v", info)
	}
	if _, ok := w.ComponentInfo(99); ok {
		t.Fatal("info of unknown")
	}
	tag, _ := w.RegisterTag("t")
	if info, _ := w.ComponentInfo(tag); !info.IsTag() {
		t.Fatal("tag not a tag")
	}
	if w.NumComponents() != 3 {
		t.Fatalf("NumComponents %d", w.NumComponents())
	}
	if _, err := w.RegisterType("nil", nil); err == nil {
		t.Fatal("nil type accepted")
	}
	if _, err := w.RegisterBytes("b3", 3, 3); err == nil {
		t.Fatal("align 3 accepted")
	}
	// NewMap.
	m := NewMap[pos](w, v.ID())
	e := w.NewEntity()
	mustNil(t, m.Set(e, pos{1, 2}))
	if *v.Get(e) != (pos{1, 2}) || p.Has(e) {
		t.Fatal("NewMap accessor")
	}
	for _, bad := range []func(){
		func() { NewMap[vel](w, v.ID()) },
		func() { NewMap[pos](w, 99) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Fatal("NewMap misuse did not panic")
				}
			}()
			bad()
		}()
	}
	// Components registered after tables exist work in old tables' moves.
	late := MustRegister[int](w, "late")
	mustNil(t, late.Set(e, 5))
	if *late.Get(e) != 5 || *v.Get(e) != (pos{1, 2}) {
		t.Fatal("late component")
	}
	if !NewFilter(w, With(late.ID())).MatchesEntity(e) {
		t.Fatal("late filter")
	}
}

func TestRegisterTypeWithPointersGC(t *testing.T) {
	w := NewWorld()
	st := reflect.StructOf([]reflect.StructField{
		{Name: "Name", Type: reflect.TypeOf("")},
		{Name: "N", Type: reflect.TypeOf(0)},
		{Name: "Tags", Type: reflect.TypeOf([]string(nil))},
	})
	id, err := w.RegisterType("dyn", st)
	mustNil(t, err)
	other := MustRegister[int](w, "other")
	tag, _ := w.RegisterTag("tag")
	mk := func(i int) any {
		v := reflect.New(st).Elem()
		// Strings built at run time so they live on the heap.
		v.Field(0).SetString(strings.Repeat(fmt.Sprint(i), 3))
		v.Field(1).SetInt(int64(i))
		v.Field(2).Set(reflect.ValueOf([]string{fmt.Sprint("t", i)}))
		return v.Interface()
	}
	check := func(e Entity, i int) {
		t.Helper()
		got, err := w.Get(e, id)
		mustNil(t, err)
		rv := reflect.ValueOf(got)
		if rv.Field(0).String() != strings.Repeat(fmt.Sprint(i), 3) || rv.Field(1).Int() != int64(i) ||
			rv.Field(2).Index(0).String() != fmt.Sprint("t", i) {
			t.Fatalf("entity %v value %v want %d", e, got, i)
		}
	}
	const n = 200
	es := make([]Entity, n)
	for i := range es {
		es[i] = w.NewEntity()
		mustNil(t, w.Set(es[i], id, mk(i)))
	}
	runtime.GC()
	for round := 0; round < 4; round++ {
		for i, e := range es {
			// Move the row back and forth between tables, forcing GC in
			// between so any pointer the collector missed gets freed.
			switch (i + round) % 3 {
			case 0:
				mustNil(t, other.Set(e, i))
			case 1:
				mustNil(t, w.Add(e, tag))
			case 2:
				if w.Has(e, tag) {
					mustNil(t, w.Remove(e, tag))
				}
				if other.Has(e) {
					mustNil(t, other.Remove(e))
				}
			}
		}
		runtime.GC()
		// Churn the heap so freed memory gets reused.
		junk := make([][]byte, 0, 1000)
		for k := 0; k < 1000; k++ {
			junk = append(junk, []byte(strings.Repeat("x", 64)))
		}
		_ = junk
		runtime.GC()
		for i, e := range es {
			check(e, i)
		}
		// Destroy some (swap-remove moves the last row in) and recreate.
		for i := round; i < n; i += 7 {
			mustNil(t, w.Destroy(es[i]))
			es[i] = w.NewEntity(id)
			mustNil(t, w.Set(es[i], id, mk(i)))
		}
		runtime.GC()
		for i, e := range es {
			check(e, i)
		}
	}
	// Batch moves too.
	w.AddAll(NewFilter(w, With(id)), tag)
	runtime.GC()
	w.RemoveAll(NewFilter(w, With(id)), tag)
	runtime.GC()
	for i, e := range es {
		check(e, i)
	}
	// Deferred add of a pointerful value survives GC before the flush.
	q := NewFilter(w, With(id)).Query()
	fresh := w.NewEntity()
	mustNil(t, w.Set(fresh, id, mk(1234)))
	runtime.GC()
	q.Close()
	runtime.GC()
	check(fresh, 1234)
}

func TestRegisterBytes(t *testing.T) {
	w := NewWorld()
	id, err := w.RegisterBytes("raw", 6, 2)
	mustNil(t, err)
	info, _ := w.ComponentInfo(id)
	if info.Size != 6 || info.Type != reflect.TypeOf([3]uint16{}) {
		t.Fatalf("info %+v", info)
	}
	id8, err := w.RegisterBytes("raw8", 12, 8)
	mustNil(t, err)
	if info, _ := w.ComponentInfo(id8); info.Size != 16 || info.Type.Align() != 8 {
		t.Fatalf("raw8 %+v", info)
	}
	tag, err := w.RegisterBytes("none", 0, 1)
	mustNil(t, err)
	if info, _ := w.ComponentInfo(tag); !info.IsTag() {
		t.Fatal("size 0 not a tag")
	}
	es := w.NewEntities(50, id, tag)
	for i, e := range es {
		p, err := w.GetPtr(e, id)
		mustNil(t, err)
		b := unsafe.Slice((*byte)(p), 6)
		for k := range b {
			if b[k] != 0 {
				t.Fatal("not zeroed")
			}
			b[k] = byte(i + k)
		}
	}
	for i := 0; i < len(es); i += 3 {
		mustNil(t, w.Add(es[i], id8))
	}
	mustNil(t, w.Destroy(es[1]))
	for i, e := range es {
		if i == 1 {
			continue
		}
		p, err := w.GetPtr(e, id)
		mustNil(t, err)
		b := unsafe.Slice((*byte)(p), 6)
		for k := range b {
			if b[k] != byte(i+k) {
				t.Fatalf("entity %d byte %d = %d", i, k, b[k])
			}
		}
	}
	mustNil(t, w.Set(es[0], id, [3]uint16{1, 2, 3}))
	if v, _ := w.Get(es[0], id); v.([3]uint16) != [3]uint16{1, 2, 3} {
		t.Fatalf("Set bytes %v", v)
	}
}

func TestThousandComponentTypes(t *testing.T) {
	w := NewWorld()
	const n = 1000
	ids := make([]ID, n)
	for i := range ids {
		var err error
		if i%2 == 0 {
			ids[i], err = w.RegisterBytes(fmt.Sprint("c", i), 4, 4)
		} else {
			ids[i], err = w.RegisterTag(fmt.Sprint("c", i))
		}
		mustNil(t, err)
	}
	if w.NumComponents() != n || ids[n-1] != n-1 {
		t.Fatal("ids")
	}
	// Filter created before any of the tables exist.
	last := NewFilter(w, With(ids[998], ids[999]))
	es := w.NewEntities(10)
	for k, e := range es {
		for i := k; i < n; i += 10 {
			mustNil(t, w.Add(e, ids[i]))
			if i%2 == 0 {
				mustNil(t, w.Set(e, ids[i], [1]uint32{uint32(i)}))
			}
		}
	}
	for k, e := range es {
		if got := len(w.Components(e)); got != n/10 {
			t.Fatalf("entity %d has %d components", k, got)
		}
		for i := k; i < n; i += 10 {
			if i%2 == 0 {
				v, err := w.Get(e, ids[i])
				mustNil(t, err)
				if v.([1]uint32)[0] != uint32(i) {
					t.Fatalf("value %v", v)
				}
			}
		}
	}
	if last.Count() != 0 {
		t.Fatal("last")
	}
	mustNil(t, w.Add(es[8], ids[999]))
	if last.Count() != 1 || !last.MatchesEntity(es[8]) {
		t.Fatalf("last count %d", last.Count())
	}
	mustNil(t, w.Remove(es[8], ids[998]))
	if last.Count() != 0 {
		t.Fatal("last after remove")
	}
	m := MaskOf(ids[5], ids[700])
	if !m.Has(700) || m.Has(699) || m.Len() != 2 || !slices.Equal(m.IDs(), []ID{5, 700}) {
		t.Fatal("mask")
	}
	if !m.Without(700).Equal(MaskOf(5)) || !m.Without(3).Equal(m) {
		t.Fatal("mask without")
	}
}

func TestTagsTakeNoStorage(t *testing.T) {
	f := newFixture(t)
	w := f.w
	t2, _ := w.RegisterTag("t2")
	es := w.NewEntities(100, f.pos.ID(), f.enemy, t2)
	r := w.rec(es[0])
	tb := w.tables[r.table]
	// Tags have zero-size columns that never allocate storage.
	storage := func(tb *table) (n int) {
		for _, c := range tb.cols {
			if c.size != 0 || c.keep != nil {
				n++
			}
		}
		return n
	}
	if storage(tb) != 1 || tb.col(f.pos.ID()).keep == nil {
		t.Fatalf("table has %d columns with storage", storage(tb))
	}
	tagOnly := w.NewEntity(f.enemy, t2)
	if tb := w.tables[w.rec(tagOnly).table]; storage(tb) != 0 {
		t.Fatal("tag-only table has storage")
	}
	p, err := w.GetPtr(tagOnly, f.enemy)
	if err != nil || p == nil {
		t.Fatal("tag pointer")
	}
	// Typed access to a tag registered from a zero-size type.
	type marker struct{}
	mk := MustRegister[marker](w, "marker")
	mustNil(t, mk.Set(tagOnly, marker{}))
	if mk.Get(tagOnly) == nil || mk.Get(es[0]) != nil {
		t.Fatal("zero-size Map.Get")
	}
	if info, _ := w.ComponentInfo(mk.ID()); !info.IsTag() {
		t.Fatal("zero-size type not a tag")
	}
	n := 0
	fq := NewFilter1(mk)
	fq.Each(func(e Entity, _ *marker) { n++ })
	if n != 1 {
		t.Fatal("tag query")
	}
}

func TestChangesAndVersion(t *testing.T) {
	f := newFixture(t)
	w := f.w
	pid := f.pos.ID()
	if w.Changes(pid) != 0 {
		t.Fatal("initial changes")
	}
	step := func(what string, fn func(), dChanges uint64, versionGrows bool) {
		t.Helper()
		c, v := w.Changes(pid), w.Version()
		fn()
		if got := w.Changes(pid) - c; got != dChanges {
			t.Fatalf("%s: changes +%d want +%d", what, got, dChanges)
		}
		if (w.Version() > v) != versionGrows {
			t.Fatalf("%s: version %d -> %d", what, v, w.Version())
		}
	}
	var e Entity
	step("NewEntity", func() { e = w.NewEntity(pid) }, 1, true)
	step("Set", func() { mustNil(t, f.pos.Set(e, pos{1, 1})) }, 1, false)
	step("MarkChanged", func() { mustNil(t, w.MarkChanged(e, pid)) }, 1, false)
	step("ptr write", func() { f.pos.Get(e).X = 5 }, 0, false)
	step("other comp", func() { mustNil(t, f.vel.Set(e, vel{})) }, 0, true)
	step("Remove", func() { mustNil(t, f.pos.Remove(e)) }, 1, true)
	step("Add", func() { mustNil(t, f.pos.Add(e, pos{})) }, 1, true)
	step("failed Add", func() { _ = f.pos.Add(e, pos{}) }, 0, false)
	step("Destroy", func() { mustNil(t, w.Destroy(e)) }, 1, true)
	step("NewEntities", func() { w.NewEntities(5, pid) }, 5, true)
	step("builder", func() { NewBuilder1(f.pos).NewBatch(3, pos{}) }, 3, true)
	step("AddAll", func() { w.AddAll(NewFilter(w, With(pid)), f.enemy) }, 0, true)
	step("RemoveAll", func() { w.RemoveAll(NewFilter(w), pid) }, 8, true)
	step("DestroyAll", func() { w.DestroyAll(NewFilter(w)) }, 0, true)
	a, b := w.NewEntity(), w.NewEntity()
	step("SetParent", func() { mustNil(t, w.SetParent(a, b)) }, 0, true)
}

func TestBatchCreate(t *testing.T) {
	f := newFixture(t)
	w := f.w
	if es := w.NewEntities(0, f.pos.ID()); len(es) != 0 {
		t.Fatal("NewEntities(0)")
	}
	es := w.NewEntities(20, f.pos.ID(), f.enemy)
	seen := map[Entity]bool{}
	for _, e := range es {
		if seen[e] || !w.Alive(e) || !f.pos.Has(e) || !w.Has(e, f.enemy) || *f.pos.Get(e) != (pos{}) {
			t.Fatal("NewEntities entity")
		}
		seen[e] = true
	}
	b := NewBuilder2(f.pos, f.vel, f.enemy)
	e := b.New(pos{1, 2}, vel{3, 4})
	if *f.pos.Get(e) != (pos{1, 2}) || *f.vel.Get(e) != (vel{3, 4}) || !w.Has(e, f.enemy) {
		t.Fatal("Builder.New")
	}
	b.NewBatch(0, pos{}, vel{})
	b.NewBatch(10, pos{5, 5}, vel{6, 6})
	var made []Entity
	b.NewBatchFn(10, func(e Entity, p *pos, v *vel) {
		if !w.Alive(e) {
			t.Fatal("entity not alive in NewBatchFn")
		}
		made = append(made, e)
		p.X = float64(len(made))
		v.Y = -float64(len(made))
	})
	b.NewBatchFn(2, nil)
	for i, e := range made {
		if f.pos.Get(e).X != float64(i+1) || f.vel.Get(e).Y != -float64(i+1) {
			t.Fatal("NewBatchFn values")
		}
	}
	ff := NewFilter2(f.pos, f.vel, With(f.enemy))
	if ff.Count() != 23 {
		t.Fatalf("count %d", ff.Count())
	}
	n55 := 0
	ff.Each(func(e Entity, p *pos, v *vel) {
		if *p == (pos{5, 5}) && *v == (vel{6, 6}) {
			n55++
		}
	})
	if n55 != 10 {
		t.Fatalf("NewBatch values: %d", n55)
	}
	// Builders for every arity.
	type c3 struct{ A int }
	type c4 struct{ A int }
	type c5 struct{ A int }
	type c6 struct{ A int }
	type c7 struct{ A int }
	type c8 struct{ A int }
	m3 := MustRegister[c3](w, "c3")
	m4 := MustRegister[c4](w, "c4")
	m5 := MustRegister[c5](w, "c5")
	m6 := MustRegister[c6](w, "c6")
	m7 := MustRegister[c7](w, "c7")
	m8 := MustRegister[c8](w, "c8")
	e1 := NewBuilder1(f.pos).New(pos{1, 0})
	e3 := NewBuilder3(f.pos, f.vel, m3).New(pos{3, 0}, vel{}, c3{3})
	e4 := NewBuilder4(f.pos, f.vel, m3, m4).New(pos{4, 0}, vel{}, c3{}, c4{4})
	e5 := NewBuilder5(f.pos, f.vel, m3, m4, m5).New(pos{5, 0}, vel{}, c3{}, c4{}, c5{5})
	e6 := NewBuilder6(f.pos, f.vel, m3, m4, m5, m6).New(pos{6, 0}, vel{}, c3{}, c4{}, c5{}, c6{6})
	e7 := NewBuilder7(f.pos, f.vel, m3, m4, m5, m6, m7).New(pos{7, 0}, vel{}, c3{}, c4{}, c5{}, c6{}, c7{7})
	e8 := NewBuilder8(f.pos, f.vel, m3, m4, m5, m6, m7, m8).New(pos{8, 0}, vel{}, c3{}, c4{}, c5{}, c6{}, c7{}, c8{8})
	if f.pos.Get(e1).X != 1 || m3.Get(e3).A != 3 || m4.Get(e4).A != 4 || m5.Get(e5).A != 5 ||
		m6.Get(e6).A != 6 || m7.Get(e7).A != 7 || m8.Get(e8).A != 8 || len(w.Components(e8)) != 8 {
		t.Fatal("builder arities")
	}
	NewBuilder8(f.pos, f.vel, m3, m4, m5, m6, m7, m8).NewBatchFn(3, func(_ Entity, _ *pos, _ *vel, _ *c3, _ *c4, _ *c5, _ *c6, _ *c7, c *c8) { c.A = 88 })
	cnt := 0
	NewFilter1(m8).Each(func(_ Entity, c *c8) {
		if c.A == 88 {
			cnt++
		}
	})
	if cnt != 3 {
		t.Fatal("builder8 batch")
	}
}

// Regression: NewBatchFn's callback may make structural changes, including
// ones that grow the builder's own table, without losing the batch's values.
func TestNewBatchFnStructuralChangeInCallback(t *testing.T) {
	f := newFixture(t)
	w := f.w
	b := NewBuilder1(f.pos)
	victim := b.New(pos{-1, -1})
	var inner []Entity
	b.NewBatchFn(8, func(e Entity, p *pos) {
		*p = pos{7, 7}
		inner = append(inner, b.New(pos{9, 9}))
		if !w.Locked() {
			t.Fatal("World not locked in NewBatchFn")
		}
		_ = w.Destroy(victim)
	})
	if w.Alive(victim) {
		t.Fatal("deferred destroy not applied")
	}
	n7, n9 := 0, 0
	NewFilter1(f.pos).Each(func(e Entity, p *pos) {
		switch *p {
		case pos{7, 7}:
			n7++
		case pos{9, 9}:
			n9++
		default:
			t.Fatalf("entity %v value %v", e, *p)
		}
	})
	if n7 != 8 || n9 != 8 {
		t.Fatalf("n7=%d n9=%d", n7, n9)
	}
}

// Regression: Add(e, a, a) once cached a table's self-edge, after which
// Remove(a) silently did nothing for every entity of that table.
func TestAddDuplicateIDs(t *testing.T) {
	f := newFixture(t)
	w := f.w
	e := w.NewEntity()
	added := 0
	w.ObserveComponent(ComponentAdded, f.pos.ID(), func(*World, Event, Entity, ID) { added++ })
	mustNil(t, w.Add(e, f.pos.ID(), f.pos.ID()))
	if added != 1 {
		t.Fatalf("ComponentAdded %d times", added)
	}
	g := w.NewEntity(f.pos.ID())
	mustNil(t, w.Remove(g, f.pos.ID()))
	if f.pos.Has(g) {
		t.Fatal("Remove did nothing")
	}
	// Duplicates in NewEntity, locked or not.
	e2 := w.NewEntity(f.vel.ID(), f.vel.ID())
	q := NewFilter(w).Query()
	e3 := w.NewEntity(f.vel.ID(), f.pos.ID(), f.vel.ID())
	sets := 0
	w.Observe(ComponentSet, func(*World, Event, Entity, ID) { sets++ })
	q.Close()
	if sets != 0 || !slices.Equal(w.Components(e3), []ID{f.pos.ID(), f.vel.ID()}) || len(w.Components(e2)) != 1 {
		t.Fatalf("deferred duplicates: sets=%d %v", sets, w.Components(e3))
	}
	mustNil(t, w.Remove(e3, f.pos.ID(), f.pos.ID()))
	if f.pos.Has(e3) || !f.vel.Has(e3) {
		t.Fatal("Remove duplicates")
	}
}

func TestBatchDestroyAddRemoveAll(t *testing.T) {
	for _, withObs := range []bool{false, true} {
		t.Run(fmt.Sprint("observers=", withObs), func(t *testing.T) {
			f := newFixture(t)
			w := f.w
			var events []Event
			if withObs {
				w.Observe(ComponentAdded, func(_ *World, ev Event, _ Entity, _ ID) { events = append(events, ev) })
				w.Observe(ComponentRemoved, func(_ *World, ev Event, _ Entity, _ ID) { events = append(events, ev) })
			}
			a := w.NewEntities(10, f.pos.ID())
			b := w.NewEntities(10, f.pos.ID(), f.vel.ID())
			c := w.NewEntities(5, f.vel.ID())
			for i, e := range a {
				mustNil(t, f.pos.Set(e, pos{float64(i), 0}))
			}
			for i, e := range b {
				mustNil(t, f.pos.Set(e, pos{float64(100 + i), 0}))
			}
			events = nil
			withPos := NewFilter(w, With(f.pos.ID()))
			if n := w.AddAll(withPos, f.enemy); n != 20 {
				t.Fatalf("AddAll %d", n)
			}
			if withObs && len(events) != 20 {
				t.Fatalf("AddAll events %d", len(events))
			}
			if n := w.AddAll(withPos, f.enemy); n != 0 {
				t.Fatalf("AddAll again %d", n)
			}
			if n := w.AddAll(NewFilter(w), f.name.ID()); n != 25 {
				t.Fatalf("AddAll name %d", n)
			}
			for i, e := range a {
				if !w.Has(e, f.enemy) || f.pos.Get(e).X != float64(i) || f.name.Get(e) == nil {
					t.Fatal("AddAll lost values")
				}
			}
			for _, e := range c {
				if w.Has(e, f.enemy) || !f.name.Has(e) {
					t.Fatal("AddAll filter")
				}
			}
			events = nil
			if n := w.RemoveAll(NewFilter(w, With(f.vel.ID())), f.pos.ID()); n != 10 {
				t.Fatalf("RemoveAll %d", n)
			}
			if withObs && len(events) != 10 {
				t.Fatalf("RemoveAll events %d", len(events))
			}
			for _, e := range b {
				if f.pos.Has(e) || !f.vel.Has(e) || !w.Has(e, f.enemy) {
					t.Fatal("RemoveAll")
				}
			}
			for i, e := range a {
				if f.pos.Get(e).X != float64(i) {
					t.Fatal("RemoveAll touched others")
				}
			}
			if n := w.DestroyAll(NewFilter(w, With(f.vel.ID()), Without(f.enemy))); n != 5 {
				t.Fatalf("DestroyAll %d", n)
			}
			for _, e := range c {
				if w.Alive(e) {
					t.Fatal("DestroyAll left one")
				}
			}
			if w.Len() != 20 {
				t.Fatalf("len %d", w.Len())
			}
			// Recycled slots after a table-at-a-time destroy.
			again := w.NewEntities(5, f.vel.ID())
			for _, e := range again {
				if !f.vel.Has(e) || *f.vel.Get(e) != (vel{}) {
					t.Fatal("recycled not zero")
				}
			}
			for _, e := range c {
				staleOps(t, f, e)
			}
			if n := w.DestroyAll(NewFilter(w)); n != 25 || w.Len() != 0 {
				t.Fatalf("DestroyAll all %d len %d", n, w.Len())
			}
		})
	}
}

// Regression: DestroyAll returned fewer than matched when a match was
// destroyed with an earlier match's subtree.
func TestDestroyAllSubtreeCount(t *testing.T) {
	f := newFixture(t)
	w := f.w
	p := w.NewEntity(f.pos.ID())
	c := w.NewEntity(f.pos.ID())
	g := w.NewEntity(f.vel.ID())
	mustNil(t, w.SetParent(c, p))
	mustNil(t, w.SetParent(g, c))
	other := w.NewEntity()
	if n := w.DestroyAll(NewFilter(w, With(f.pos.ID()))); n != 2 {
		t.Fatalf("DestroyAll returned %d", n)
	}
	if w.Alive(p) || w.Alive(c) || w.Alive(g) || !w.Alive(other) || w.Len() != 1 {
		t.Fatal("subtree")
	}
}

func TestBatchOpsDeferredWhileLocked(t *testing.T) {
	f := newFixture(t)
	w := f.w
	w.NewEntities(4, f.pos.ID())
	all := NewFilter(w, With(f.pos.ID()))
	q := all.Query()
	if w.AddAll(all, f.enemy) != 0 || w.RemoveAll(all, f.pos.ID()) != 0 || w.DestroyAll(all) != 0 {
		t.Fatal("batch ops while locked returned non-zero")
	}
	if w.Pending() != 3 || all.Count() != 4 {
		t.Fatal("not deferred")
	}
	q.Close()
	if w.Len() != 4 || NewFilter(w, With(f.enemy)).Count() != 4 || all.Count() != 0 {
		t.Fatalf("after flush: len %d", w.Len())
	}
	// The deferred DestroyAll ran after the RemoveAll, so it matched nothing.
	if w.Pending() != 0 {
		t.Fatal("pending left")
	}
}

func TestPanicsOnUnknownIDs(t *testing.T) {
	f := newFixture(t)
	w := f.w
	for name, fn := range map[string]func(){
		"NewEntity":        func() { w.NewEntity(77) },
		"NewEntities":      func() { w.NewEntities(2, 77) },
		"AddAll":           func() { w.AddAll(NewFilter(w), 77) },
		"RemoveAll":        func() { w.RemoveAll(NewFilter(w), 77) },
		"NewFilter":        func() { NewFilter(w, With(77)) },
		"ObserveComponent": func() { w.ObserveComponent(ComponentAdded, 77, nil) },
		"ObserveComponent event": func() {
			w.ObserveComponent(EntityCreated, f.pos.ID(), nil)
		},
		"NewBuilder": func() { NewBuilder1(f.pos, 77) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			fn()
		}()
	}
	if w.Len() != 0 {
		t.Fatal("a panicking call created entities")
	}
}

func TestDefer(t *testing.T) {
	f := newFixture(t)
	w := f.w
	ran := 0
	w.Defer(func(*World) { ran++ })
	if ran != 1 {
		t.Fatal("Defer unlocked did not run at once")
	}
	q := NewFilter(w).Query()
	w.Defer(func(w *World) {
		ran++
		if w.Locked() {
			t.Fatal("deferred fn ran locked")
		}
	})
	if ran != 1 || w.Pending() != 1 {
		t.Fatal("Defer locked ran")
	}
	q.Close()
	if ran != 2 {
		t.Fatal("Defer not run at Close")
	}
}

// TestReserve: after Reserve, making that many entities with those
// components moves no storage: the table's columns and the records stay
// where Reserve put them, sized for exactly that many.
func TestReserve(t *testing.T) {
	w := NewWorld()
	w.EnableHierarchy()
	pos, err := Register[[3]float64](w, "pos")
	if err != nil {
		t.Fatal(err)
	}
	vel, _ := Register[[3]float64](w, "vel")
	w.NewEntity(pos.ID()) // another table, and an entity before
	w.Reserve(1000, pos.ID(), vel.ID())
	w.Reserve(500, pos.ID()) // the room for records adds up
	tb := w.tableFor(MaskOf(pos.ID(), vel.ID()))
	base, records := tb.cols[0].base, &w.records[:1][0]
	for range 1000 {
		w.NewEntity(pos.ID(), vel.ID())
	}
	for range 500 {
		w.NewEntity(pos.ID())
	}
	if tb.cap != 1000 || tb.cols[0].base != base || &w.records[0] != records || cap(w.records) != 1501 {
		t.Errorf("after Reserve(1000) and 1,000 entities: table capacity %d, column moved %v, records moved %v (capacity %d)",
			tb.cap, tb.cols[0].base != base, &w.records[0] != records, cap(w.records))
	}
	w.Reserve(0, pos.ID()) // nothing
	if n := len(w.tables); n != 3 {
		t.Errorf("%d tables, want 3 (empty, pos, pos+vel)", n)
	}
}
