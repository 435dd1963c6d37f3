package ecs_test

import (
	"errors"
	"fmt"
	"slices"

	"github.com/scenecs/scenecs/ecs"
)

type Position struct{ X, Y float64 }
type Velocity struct{ X, Y float64 }

func Example() {
	w := ecs.NewWorld()
	pos := ecs.MustRegister[Position](w, "position")
	vel := ecs.MustRegister[Velocity](w, "velocity")
	enemy, _ := w.RegisterTag("enemy")

	// A builder creates entities straight into their table.
	b := ecs.NewBuilder2(pos, vel, enemy)
	e := b.New(Position{0, 0}, Velocity{1, 2})
	b.NewBatch(2, Position{10, 10}, Velocity{-1, 0})

	// Or one by one.
	still := w.NewEntity()
	_ = pos.Set(still, Position{5, 5})

	fmt.Println(w.Len(), "entities;", e, "has", w.Components(e))
	fmt.Println(*pos.Get(still), vel.Has(still))

	// A destroyed entity's handle is stale forever.
	_ = w.Destroy(still)
	fmt.Println(w.Alive(still), errors.Is(w.Destroy(still), ecs.ErrStale), pos.Get(still) == nil)
	// Output:
	// 4 entities; e0v1 has [0 1 2]
	// {5 5} false
	// false true true
}

func ExampleFilter2() {
	w := ecs.NewWorld()
	pos := ecs.MustRegister[Position](w, "position")
	vel := ecs.MustRegister[Velocity](w, "velocity")
	frozen, _ := w.RegisterTag("frozen")

	// Filters are cached: create them once, even before any entity.
	moving := ecs.NewFilter2(pos, vel, ecs.Without(frozen))

	b := ecs.NewBuilder2(pos, vel)
	a := b.New(Position{0, 0}, Velocity{1, 1})
	b.New(Position{5, 5}, Velocity{0, -1})
	c := b.New(Position{9, 9}, Velocity{3, 3})
	_ = w.Add(c, frozen)

	// Entity by entity.
	q := moving.Query()
	for q.Next() {
		p, v := q.Get()
		p.X += v.X
		p.Y += v.Y
	}
	// Table by table, over the packed columns.
	q = moving.Query()
	for q.NextTable() {
		ps, vs := q.Columns()
		for i := range ps {
			ps[i].X += vs[i].X
			ps[i].Y += vs[i].Y
		}
	}
	moving.Each(func(e ecs.Entity, p *Position, _ *Velocity) {
		fmt.Println(e, *p)
	})
	fmt.Println("frozen:", *pos.Get(c), "a:", *pos.Get(a))
	// Output:
	// e0v1 {2 2}
	// e1v1 {5 3}
	// frozen: {9 9} a: {2 2}
}

func ExampleFilter_Query() {
	w := ecs.NewWorld()
	hp := ecs.MustRegister[int](w, "hp")
	dead, _ := w.RegisterTag("dead")
	for i := 1; i <= 4; i++ {
		_ = hp.Set(w.NewEntity(), i*10-25)
	}
	// An untyped filter, by component ID.
	f := ecs.NewFilter(w, ecs.With(hp.ID()), ecs.Without(dead))
	q := f.Query()
	for q.Next() {
		if *(*int)(q.Ptr(hp.ID())) <= 0 {
			// Structural changes are deferred until the iteration ends.
			_ = w.Add(q.Entity(), dead)
		}
	}
	fmt.Println("alive:", f.Count(), "dead:", ecs.NewFilter(w, ecs.With(dead)).Count())

	// By column, untyped.
	q = f.Query()
	for q.NextTable() {
		for i, v := range ecs.Column[int](&q, hp.ID()) {
			fmt.Println(q.EntityAt(i), v)
		}
	}
	// Output:
	// alive: 2 dead: 2
	// e3v1 15
	// e2v1 5
}

// A loop the program drives itself, which may break out early or panic,
// closes its query with defer: Close is idempotent, so it is harmless when
// the loop ran to the end, and it releases the World's lock on every way
// out.
func ExampleQuery_Close() {
	w := ecs.NewWorld()
	hp := ecs.MustRegister[int](w, "hp")
	for i := 1; i <= 3; i++ {
		_ = hp.Set(w.NewEntity(), i)
	}
	firstAbove := func(min int) (ecs.Entity, bool) {
		q := ecs.NewFilter1(hp).Query()
		defer q.Close()
		for q.Next() {
			if *q.Get() > min {
				return q.Entity(), true // breaks out: the deferred Close unlocks
			}
		}
		return ecs.Entity{}, false
	}
	e, ok := firstAbove(1)
	fmt.Println(e, ok, w.Locked())
	// Output:
	// e1v1 true false
}

func ExampleWorld_SetParent() {
	w := ecs.NewWorld()
	scene := w.NewEntity()
	box, sphere, light := w.NewEntity(), w.NewEntity(), w.NewEntity()
	_ = w.SetParent(box, scene)
	_ = w.SetParent(light, scene)
	_ = w.InsertChild(scene, sphere, 1) // between box and light
	lid := w.NewEntity()
	_ = w.SetParent(lid, box)

	fmt.Println(w.Children(scene))
	fmt.Println(slices.Collect(w.All())) // document order
	fmt.Println(errors.Is(w.SetParent(scene, lid), ecs.ErrCycle))

	_ = w.Destroy(box) // with its subtree
	fmt.Println(w.Children(scene), w.Alive(lid))
	// Output:
	// [e1v1 e2v1 e3v1]
	// [e0v1 e1v1 e4v1 e2v1 e3v1]
	// true
	// [e2v1 e3v1] false
}

func ExampleWorld_Observe() {
	w := ecs.NewWorld()
	pos := ecs.MustRegister[Position](w, "position")
	w.Observe(ecs.EntityCreated, func(w *ecs.World, ev ecs.Event, e ecs.Entity, _ ecs.ID) {
		fmt.Println(ev, e)
	})
	w.ObserveComponent(ecs.ComponentAdded, pos.ID(), func(w *ecs.World, ev ecs.Event, e ecs.Entity, id ecs.ID) {
		fmt.Println(ev, e, w.ComponentName(id), *pos.Get(e))
	})
	id := w.ObserveComponent(ecs.ComponentSet, pos.ID(), func(w *ecs.World, ev ecs.Event, e ecs.Entity, _ ecs.ID) {
		fmt.Println(ev, e, *pos.Get(e))
	})
	w.ObserveComponent(ecs.ComponentRemoved, pos.ID(), func(w *ecs.World, ev ecs.Event, e ecs.Entity, _ ecs.ID) {
		fmt.Println(ev, e, "still readable:", *pos.Get(e))
	})
	w.Observe(ecs.EntityDestroyed, func(w *ecs.World, ev ecs.Event, e ecs.Entity, _ ecs.ID) {
		// Structural changes made by observers are deferred and applied
		// right after the operation that triggered them.
		old := *pos.Get(e)
		tomb := w.NewEntity()
		_ = pos.Set(tomb, old)
		fmt.Println(ev, e, "deferred:", w.Pending())
	})

	e := ecs.NewBuilder1(pos).New(Position{1, 2})
	_ = pos.Set(e, Position{3, 4})
	w.Unobserve(id)
	_ = pos.Set(e, Position{5, 6}) // no longer observed
	_ = w.Destroy(e)
	fmt.Println(w.Alive(e), w.Len())
	// Output:
	// EntityCreated e0v1
	// ComponentAdded e0v1 position {1 2}
	// ComponentSet e0v1 {3 4}
	// ComponentRemoved e0v1 still readable: {5 6}
	// EntityCreated e1v1
	// EntityDestroyed e0v1 deferred: 1
	// ComponentAdded e1v1 position {5 6}
	// false 1
}
