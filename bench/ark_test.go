package bench

import (
	"testing"

	"github.com/mlange-42/ark/ecs"
)

var arkLib = lib{
	name:           "ark",
	queryEntity:    arkQueryEntity,
	queryColumn:    arkQueryColumn,
	create:         arkCreate,
	createBatch:    arkCreateBatch,
	addRemove:      arkAddRemove,
	addRemoveBatch: arkAddRemoveBatch,
	destroy:        arkDestroy,
	destroyBatch:   arkDestroyBatch,
	randomGet:      arkRandomGet,
	setup:          arkSetup,
}

// arkWorld is a world with Pos and Vel registered, a Map2 to create
// Pos+Vel entities and a registered (cached) filter over them.
type arkWorld struct {
	w   *ecs.World
	pos *ecs.Map[Pos]
	vel *ecs.Map[Vel]
	m   *ecs.Map2[Pos, Vel]
	f   *ecs.Filter2[Pos, Vel]
}

func newArk() arkWorld {
	w := ecs.NewWorld()
	return arkWorld{
		w:   w,
		pos: ecs.NewMap[Pos](w),
		vel: ecs.NewMap[Vel](w),
		m:   ecs.NewMap2[Pos, Vel](w),
		f:   ecs.NewFilter2[Pos, Vel](w).Register(),
	}
}

// entities creates n Pos+Vel entities in one batch and returns them.
func (a arkWorld) entities(n int, es []ecs.Entity) []ecs.Entity {
	a.m.NewBatchFn(n, func(e ecs.Entity, p *Pos, v *Vel) {
		*p = Pos{1, 2}
		*v = Vel{1, 1}
		es = append(es, e)
	})
	return es
}

func arkQueryEntity(b *testing.B, n int) {
	a := newArk()
	a.m.NewBatch(n, &Pos{1, 2}, &Vel{1, 1})
	for b.Loop() {
		q := a.f.Query()
		for q.Next() {
			p, v := q.Get()
			p.X += v.X
			p.Y += v.Y
		}
	}
	perEntity(b, n)
}

func arkQueryColumn(b *testing.B, n int) {
	a := newArk()
	a.m.NewBatch(n, &Pos{1, 2}, &Vel{1, 1})
	for b.Loop() {
		q := a.f.Query()
		for q.NextTable() {
			ps, vs := q.GetColumns()
			vs = vs[:len(ps)]
			for i := range ps {
				p, v := &ps[i], &vs[i]
				p.X += v.X
				p.Y += v.Y
			}
		}
	}
	perEntity(b, n)
}

func arkCreate(b *testing.B, n int) {
	a := newArk()
	// Pre-warm: storage for n entities exists before timing.
	a.m.NewBatch(n, &Pos{}, &Vel{})
	a.w.RemoveEntities(a.f.Batch(), nil)
	for b.Loop() {
		for range n {
			a.m.NewEntity(&Pos{1, 2}, &Vel{1, 1})
		}
		b.StopTimer()
		a.w.RemoveEntities(a.f.Batch(), nil)
		b.StartTimer()
	}
	perEntity(b, n)
}

func arkCreateBatch(b *testing.B, n int) {
	a := newArk()
	a.m.NewBatch(n, &Pos{}, &Vel{})
	a.w.RemoveEntities(a.f.Batch(), nil)
	for b.Loop() {
		a.m.NewBatch(n, &Pos{1, 2}, &Vel{1, 1})
		b.StopTimer()
		a.w.RemoveEntities(a.f.Batch(), nil)
		b.StartTimer()
	}
	perEntity(b, n)
}

// arkPosOnly returns n entities with only Pos, and registered filters over
// Pos entities without and with Vel.
func arkPosOnly(n int) (arkWorld, []ecs.Entity, *ecs.Filter1[Pos], *ecs.Filter2[Pos, Vel]) {
	a := newArk()
	es := make([]ecs.Entity, 0, n)
	a.pos.NewBatchFn(n, func(e ecs.Entity, p *Pos) {
		*p = Pos{1, 2}
		es = append(es, e)
	})
	without := ecs.NewFilter1[Pos](a.w).Without(ecs.C[Vel]()).Register()
	return a, es, without, a.f
}

func arkAddRemove(b *testing.B, n int) {
	a, es, _, _ := arkPosOnly(n)
	for b.Loop() {
		for _, e := range es {
			a.vel.Add(e, &Vel{1, 1})
		}
		for _, e := range es {
			a.vel.Remove(e)
		}
	}
	perEntity(b, n)
}

func arkAddRemoveBatch(b *testing.B, n int) {
	a, _, without, with := arkPosOnly(n)
	for b.Loop() {
		// nil fn: zero values, as scenecs's AddAll.
		a.vel.AddBatchFn(without.Batch(), nil)
		a.vel.RemoveBatch(with.Batch(), nil)
	}
	perEntity(b, n)
}

func arkDestroy(b *testing.B, n int) {
	a := newArk()
	es := a.entities(n, make([]ecs.Entity, 0, n))
	a.w.RemoveEntities(a.f.Batch(), nil)
	for b.Loop() {
		b.StopTimer()
		es = a.entities(n, es[:0])
		b.StartTimer()
		for _, e := range es {
			a.w.RemoveEntity(e)
		}
	}
	perEntity(b, n)
}

func arkDestroyBatch(b *testing.B, n int) {
	a := newArk()
	a.m.NewBatch(n, &Pos{}, &Vel{})
	a.w.RemoveEntities(a.f.Batch(), nil)
	for b.Loop() {
		b.StopTimer()
		a.m.NewBatch(n, &Pos{1, 2}, &Vel{1, 1})
		b.StartTimer()
		a.w.RemoveEntities(a.f.Batch(), nil)
	}
	perEntity(b, n)
}

func arkRandomGet(b *testing.B, n int) {
	a := newArk()
	es := shuffled(a.entities(n, make([]ecs.Entity, 0, n)))
	sum := 0.0
	for b.Loop() {
		for _, e := range es {
			sum += a.pos.Get(e).X
		}
	}
	sink = sum
	perEntity(b, n)
}

func arkSetup(churn bool) func(n int) any {
	a := newArk()
	if churn {
		a.w.RemoveEntity(a.m.NewEntity(&Pos{}, &Vel{}))
	}
	return func(n int) any {
		for range n {
			a.m.NewEntity(&Pos{1, 2}, &Vel{1, 1})
		}
		return a.w
	}
}
