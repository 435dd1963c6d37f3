package relations

import (
	"slices"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

// links is a component holding references, as a registry's would.
type links struct{ to []ecs.Entity }

type fixture struct {
	w   *ecs.World
	m   ecs.Map[links]
	x   *Index
	rel *Rel
}

func newFixture(t testing.TB, p Policy) *fixture {
	t.Helper()
	w := ecs.NewWorld()
	m, err := ecs.Register[links](w, "links")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{w: w, m: m, x: New(w)}
	f.rel = f.x.Add(Spec{
		Name: "links", Policy: p,
		Read: func(h ecs.Entity, _ ecs.ID, dst []ecs.Entity) []ecs.Entity {
			if v := m.Get(h); v != nil {
				dst = append(dst, v.to...)
			}
			return dst
		},
		Drop: func(h ecs.Entity, id ecs.ID, target ecs.Entity) {
			v := m.Get(h)
			v.to = slices.DeleteFunc(slices.Clone(v.to), func(e ecs.Entity) bool { return e == target })
			_ = w.MarkChanged(h, id)
		},
	})
	f.rel.Watch(m.ID())
	return f
}

// point makes h point at ts (adding or setting the component).
func (f *fixture) point(t testing.TB, h ecs.Entity, ts ...ecs.Entity) {
	t.Helper()
	var err error
	if f.m.Get(h) == nil {
		err = f.m.Add(h, links{ts})
	} else {
		err = f.m.Set(h, links{ts})
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestHoldersAndTargets(t *testing.T) {
	f := newFixture(t, Clear)
	a, b, c, d := f.w.NewEntity(), f.w.NewEntity(), f.w.NewEntity(), f.w.NewEntity()
	f.point(t, a, c, d)
	f.point(t, b, c, c)
	if got := f.rel.Holders(c, nil); !slices.Equal(got, []ecs.Entity{a, b}) {
		t.Errorf("holders of c = %v, want a, b", got)
	}
	if got := f.rel.Targets(a, nil); !slices.Equal(got, []ecs.Entity{c, d}) {
		t.Errorf("targets of a = %v, want c, d (in order)", got)
	}
	// Retarget: b no longer points at c.
	f.point(t, b, d)
	if got := f.rel.Holders(c, nil); !slices.Equal(got, []ecs.Entity{a}) {
		t.Errorf("after retarget, holders of c = %v, want a", got)
	}
	if got := f.rel.Holders(d, nil); !slices.Equal(got, []ecs.Entity{a, b}) {
		t.Errorf("after retarget, holders of d = %v, want a, b", got)
	}
	// A holder that loses the component, or is destroyed, holds nothing.
	_ = f.w.Remove(a, f.m.ID())
	_ = f.w.Destroy(b)
	if got := f.rel.Holders(d, nil); len(got) != 0 {
		t.Errorf("holders of d = %v, want none", got)
	}
	if n := len(f.x.targets); n != 0 {
		t.Errorf("reverse index keeps %d targets, want 0", n)
	}
}

func TestStaleNeverFollowed(t *testing.T) {
	f := newFixture(t, Clear)
	a, dead := f.w.NewEntity(), f.w.NewEntity()
	_ = f.w.Destroy(dead)
	reused := f.w.NewEntity() // may take dead's slot, with a new generation
	f.point(t, a, dead)
	if got := f.rel.Targets(a, nil); len(got) != 0 {
		t.Errorf("targets = %v, want none (the target is dead)", got)
	}
	if got := f.rel.Holders(reused, nil); len(got) != 0 {
		t.Errorf("the slot's new entity has holders %v", got)
	}
}

func TestClearPolicy(t *testing.T) {
	f := newFixture(t, Clear)
	a, b, c := f.w.NewEntity(), f.w.NewEntity(), f.w.NewEntity()
	f.point(t, a, b, c, b)
	_ = f.w.Destroy(b)
	if !f.w.Alive(a) {
		t.Fatal("the holder was destroyed")
	}
	if got := f.m.Get(a).to; !slices.Equal(got, []ecs.Entity{c}) {
		t.Errorf("value after clear = %v, want [c]", got)
	}
	if got := f.rel.Targets(a, nil); !slices.Equal(got, []ecs.Entity{c}) {
		t.Errorf("targets after clear = %v, want [c]", got)
	}
}

func TestRemovePolicy(t *testing.T) {
	f := newFixture(t, Remove)
	a, b := f.w.NewEntity(), f.w.NewEntity()
	f.point(t, a, b)
	_ = f.w.Destroy(b)
	if !f.w.Alive(a) || f.m.Get(a) != nil {
		t.Errorf("alive %v, component %v: want the holder alive without the component", f.w.Alive(a), f.m.Get(a))
	}
}

func TestDestroyPolicyChainAndCycle(t *testing.T) {
	const n = 10000
	f := newFixture(t, Destroy)
	es := make([]ecs.Entity, n)
	for i := range es {
		es[i] = f.w.NewEntity()
	}
	// es[i+1] points at es[i]: destroying es[0] takes the whole chain,
	// one link at a time, without recursion.
	for i := 1; i < n; i++ {
		f.point(t, es[i], es[i-1])
	}
	other := f.w.NewEntity()
	_ = f.w.Destroy(es[0])
	if f.w.Len() != 1 || !f.w.Alive(other) {
		t.Fatalf("%d entities left after destroying the chain's root, want 1 (the bystander)", f.w.Len())
	}
	if len(f.x.targets) != 0 || len(f.rel.fwd) != 0 {
		t.Errorf("index keeps %d targets, %d holders", len(f.x.targets), len(f.rel.fwd))
	}
	// A cycle: a -> b -> a, and c -> a.
	a, b, c := f.w.NewEntity(), f.w.NewEntity(), f.w.NewEntity()
	f.point(t, a, b)
	f.point(t, b, a)
	f.point(t, c, a)
	_ = f.w.Destroy(b)
	if f.w.Alive(a) || f.w.Alive(b) || f.w.Alive(c) {
		t.Errorf("cycle: alive a %v b %v c %v, want none", f.w.Alive(a), f.w.Alive(b), f.w.Alive(c))
	}
	if f.w.Len() != 1 {
		t.Errorf("%d entities left, want 1", f.w.Len())
	}
}

func TestSelfReference(t *testing.T) {
	f := newFixture(t, Destroy)
	a := f.w.NewEntity()
	f.point(t, a, a)
	if got := f.rel.Holders(a, nil); !slices.Equal(got, []ecs.Entity{a}) {
		t.Errorf("holders = %v", got)
	}
	_ = f.w.Destroy(a)
	if f.w.Len() != 0 || len(f.x.targets) != 0 {
		t.Errorf("left %d entities, %d targets", f.w.Len(), len(f.x.targets))
	}
}

func BenchmarkDestroyTargetOf10kHolders(b *testing.B) {
	f := newFixture(b, Clear)
	hs := make([]ecs.Entity, 10000)
	for b.Loop() {
		b.StopTimer()
		target := f.w.NewEntity()
		for i := range hs {
			if hs[i].IsZero() {
				hs[i] = f.w.NewEntity()
			}
			f.point(b, hs[i], target)
		}
		b.StartTimer()
		_ = f.w.Destroy(target)
	}
}
