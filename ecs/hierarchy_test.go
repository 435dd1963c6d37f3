package ecs

import (
	"slices"
	"testing"
)

func checkChildren(t *testing.T, w *World, p Entity, want ...Entity) {
	t.Helper()
	got := w.Children(p)
	if !slices.Equal(got, want) {
		t.Fatalf("children of %v: %v want %v", p, got, want)
	}
	for i, c := range want {
		if par, ok := w.Parent(c); !ok || par != p {
			t.Fatalf("parent of %v: %v %v", c, par, ok)
		}
		if w.ChildIndex(c) != i {
			t.Fatalf("ChildIndex(%v)=%d want %d", c, w.ChildIndex(c), i)
		}
		prev, okp := w.PrevSibling(c)
		next, okn := w.NextSibling(c)
		if (i > 0) != okp || (i > 0 && prev != want[i-1]) || (i < len(want)-1) != okn || (okn && next != want[i+1]) {
			t.Fatalf("siblings of %v", c)
		}
	}
	first, okf := w.FirstChild(p)
	last, okl := w.LastChild(p)
	if len(want) == 0 {
		if okf || okl {
			t.Fatal("first/last of childless")
		}
		return
	}
	if !okf || !okl || first != want[0] || last != want[len(want)-1] {
		t.Fatalf("first/last %v %v", first, last)
	}
}

func TestHierarchyBasics(t *testing.T) {
	w := NewWorld()
	r := w.NewEntity()
	a, b, c := w.NewEntity(), w.NewEntity(), w.NewEntity()
	if _, ok := w.Parent(a); ok {
		t.Fatal("parent before any hierarchy")
	}
	checkChildren(t, w, r)
	mustNil(t, w.SetParent(a, r))
	mustNil(t, w.SetParent(b, r))
	mustNil(t, w.SetParent(c, r))
	checkChildren(t, w, r, a, b, c)
	// Reparenting to the same parent moves to the end.
	mustNil(t, w.SetParent(a, r))
	checkChildren(t, w, r, b, c, a)
	// InsertChild at index.
	d := w.NewEntity()
	mustNil(t, w.InsertChild(r, d, 0))
	checkChildren(t, w, r, d, b, c, a)
	e := w.NewEntity()
	mustNil(t, w.InsertChild(r, e, 2))
	checkChildren(t, w, r, d, b, e, c, a)
	mustNil(t, w.InsertChild(r, a, 1)) // move within the same parent
	checkChildren(t, w, r, d, a, b, e, c)
	mustNil(t, w.InsertChild(r, d, 99)) // past the end appends
	checkChildren(t, w, r, a, b, e, c, d)
	mustNil(t, w.InsertChild(r, b, -1))
	checkChildren(t, w, r, a, e, c, d, b)
	// Grandchildren and Descendants / IsAncestor.
	g1, g2 := w.NewEntity(), w.NewEntity()
	mustNil(t, w.SetParent(g1, e))
	mustNil(t, w.SetParent(g2, e))
	gg := w.NewEntity()
	mustNil(t, w.SetParent(gg, g1))
	if got := collect(w.Descendants(r)); !slices.Equal(got, []Entity{a, e, g1, gg, g2, c, d, b}) {
		t.Fatalf("descendants %v", got)
	}
	if got := collect(w.Descendants(e)); !slices.Equal(got, []Entity{g1, gg, g2}) {
		t.Fatalf("descendants of e %v", got)
	}
	if len(collect(w.Descendants(gg))) != 0 {
		t.Fatal("leaf descendants")
	}
	if !w.IsAncestor(r, gg) || !w.IsAncestor(e, gg) || w.IsAncestor(gg, r) || w.IsAncestor(a, gg) || w.IsAncestor(r, r) {
		t.Fatal("IsAncestor")
	}
	// Document order: roots in creation order, pre-order.
	if got := collect(w.All()); !slices.Equal(got, []Entity{r, a, e, g1, gg, g2, c, d, b}) {
		t.Fatalf("All %v", got)
	}
	if got := collect(w.Roots()); !slices.Equal(got, []Entity{r}) {
		t.Fatalf("Roots %v", got)
	}
	// Back to a root: appended at the end of the roots.
	mustNil(t, w.SetParent(e, Entity{}))
	if _, ok := w.Parent(e); ok || w.ChildIndex(e) != 1 {
		t.Fatal("unparent")
	}
	if got := collect(w.Roots()); !slices.Equal(got, []Entity{r, e}) {
		t.Fatalf("Roots %v", got)
	}
	mustNil(t, w.InsertChild(Entity{}, e, 0))
	if got := collect(w.All()); !slices.Equal(got, []Entity{e, g1, gg, g2, r, a, c, d, b}) {
		t.Fatalf("All %v", got)
	}
	// Early break in the iterators.
	for range w.All() {
		break
	}
	for range w.Roots() {
		break
	}
	for range w.Descendants(e) {
		break
	}
	for range w.ChildrenSeq(r) {
		break
	}
}

func TestHierarchyCycles(t *testing.T) {
	w := NewWorld()
	a, b, c := w.NewEntity(), w.NewEntity(), w.NewEntity()
	mustNil(t, w.SetParent(b, a))
	mustNil(t, w.SetParent(c, b))
	v := w.Version()
	mustIs(t, w.SetParent(a, a), ErrCycle)
	mustIs(t, w.SetParent(a, c), ErrCycle)
	mustIs(t, w.SetParent(a, b), ErrCycle)
	mustIs(t, w.InsertChild(c, b, 0), ErrCycle)
	if w.Version() != v {
		t.Fatal("refused reparent changed the World")
	}
	checkChildren(t, w, a, b)
	checkChildren(t, w, b, c)
	// Moving a subtree down a sibling branch is fine.
	d := w.NewEntity()
	mustNil(t, w.SetParent(b, d))
	if got := collect(w.All()); !slices.Equal(got, []Entity{a, d, b, c}) {
		t.Fatalf("All %v", got)
	}
}

func TestHierarchySubtreeDestroy(t *testing.T) {
	f := newFixture(t)
	w := f.w
	root := w.NewEntity(f.pos.ID())
	keep := w.NewEntity()
	var kids []Entity
	for i := 0; i < 3; i++ {
		k := w.NewEntity(f.vel.ID())
		mustNil(t, w.SetParent(k, root))
		kids = append(kids, k)
		for j := 0; j < 2; j++ {
			g := w.NewEntity(f.enemy)
			mustNil(t, w.SetParent(g, k))
		}
	}
	mustNil(t, w.SetParent(keep, kids[1]))
	mustNil(t, w.SetParent(keep, Entity{})) // moved out before the destroy
	// The parent forgets a destroyed child.
	mustNil(t, w.Destroy(kids[1]))
	checkChildren(t, w, root, kids[0], kids[2])
	if w.Len() != 1+1+2*3 {
		t.Fatalf("len %d", w.Len())
	}
	mustNil(t, w.Destroy(kids[0]))
	mustNil(t, w.Destroy(kids[2]))
	checkChildren(t, w, root)
	k := w.NewEntity() // reuses a slot: must not appear as root's child
	checkChildren(t, w, root)
	mustNil(t, w.SetParent(k, root))
	mustNil(t, w.Destroy(root))
	if w.Alive(k) || w.Alive(root) || !w.Alive(keep) || w.Len() != 1 {
		t.Fatal("subtree destroy")
	}
	if got := collect(w.All()); !slices.Equal(got, []Entity{keep}) {
		t.Fatalf("All %v", got)
	}
	if NewFilter(w, With(f.enemy)).Count() != 0 {
		t.Fatal("grandchildren left")
	}
}

func TestHierarchyDeepChain(t *testing.T) {
	w := NewWorld()
	const n = 2000
	es := w.NewEntities(n)
	for i := 1; i < n; i++ {
		mustNil(t, w.SetParent(es[i], es[i-1]))
	}
	if got := collect(w.All()); !slices.Equal(got, es) {
		t.Fatal("chain order")
	}
	mustIs(t, w.SetParent(es[0], es[n-1]), ErrCycle)
	mustNil(t, w.Destroy(es[0]))
	if w.Len() != 0 {
		t.Fatal("chain destroy")
	}
}

// With EnableHierarchy called up front, roots stay in creation order even
// when slots are recycled (without it, a hierarchy built late lists the
// entities that existed before in index order, as documented).
func TestRootsCreationOrderAfterRecycle(t *testing.T) {
	w := NewWorld()
	w.EnableHierarchy()
	x, y := w.NewEntity(), w.NewEntity()
	mustNil(t, w.Destroy(x))
	z := w.NewEntity()
	if z.Index() != x.Index() {
		t.Fatal("setup: slot not reused")
	}
	if got := collect(w.All()); !slices.Equal(got, []Entity{y, z}) {
		t.Fatalf("All %v want [%v %v]", got, y, z)
	}
	// Same with table-at-a-time destroy and batch creation.
	w = NewWorld()
	w.EnableHierarchy()
	tag, _ := w.RegisterTag("t")
	old := w.NewEntities(3, tag)
	keep := w.NewEntity()
	w.DestroyAll(NewFilter(w, With(tag)))
	fresh := w.NewEntities(3)
	want := append([]Entity{keep}, fresh...)
	if got := collect(w.Roots()); !slices.Equal(got, want) {
		t.Fatalf("Roots %v want %v (old %v)", got, want, old)
	}
}

func TestReparentWhileLocked(t *testing.T) {
	f := newFixture(t)
	w := f.w
	p := w.NewEntity(f.pos.ID())
	c := w.NewEntity(f.pos.ID())
	q := NewFilter(w).Query()
	mustNil(t, w.SetParent(c, p))
	mustIs(t, w.SetParent(p, p), ErrCycle) // still checked at once
	if _, ok := w.Parent(c); ok || w.Pending() != 1 {
		t.Fatal("reparent not deferred while locked")
	}
	// A deferred reparent that becomes invalid is skipped.
	d := w.NewEntity()
	mustNil(t, w.SetParent(d, p))
	mustNil(t, w.Destroy(p))
	mustNil(t, w.SetParent(c, d)) // queued after the destroy: c is gone by then
	q.Close()
	if w.Alive(p) || w.Alive(c) || w.Alive(d) || w.Len() != 0 {
		t.Fatal("deferred reparent/destroy")
	}
}

func TestInsertChildIntoRoots(t *testing.T) {
	w := NewWorld()
	a, b, c := w.NewEntity(), w.NewEntity(), w.NewEntity()
	mustNil(t, w.InsertChild(Entity{}, c, 0))
	if got := collect(w.Roots()); !slices.Equal(got, []Entity{c, a, b}) {
		t.Fatalf("Roots %v", got)
	}
	if w.ChildIndex(b) != 2 || w.ChildIndex(c) != 0 {
		t.Fatal("ChildIndex of roots")
	}
	if s, ok := w.NextSibling(c); !ok || s != a {
		t.Fatal("root siblings")
	}
}
