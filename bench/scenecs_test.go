package bench

import (
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

var scenecsLib = lib{
	name:           "scenecs",
	queryEntity:    scQueryEntity,
	queryColumn:    scQueryColumn,
	create:         scCreate,
	createBatch:    scCreateBatch,
	addRemove:      scAddRemove,
	addRemoveBatch: scAddRemoveBatch,
	destroy:        scDestroy,
	destroyBatch:   scDestroyBatch,
	randomGet:      scRandomGet,
	setup:          scSetup,
}

// scWorld is a world with Pos and Vel registered, a builder of Pos+Vel
// entities and a cached filter over them.
type scWorld struct {
	w   *ecs.World
	pos ecs.Map[Pos]
	vel ecs.Map[Vel]
	b   *ecs.Builder2[Pos, Vel]
	f   *ecs.Filter2[Pos, Vel]
}

func newSC() scWorld {
	w := ecs.NewWorld()
	pos := ecs.MustRegister[Pos](w, "pos")
	vel := ecs.MustRegister[Vel](w, "vel")
	return scWorld{w: w, pos: pos, vel: vel, b: ecs.NewBuilder2(pos, vel), f: ecs.NewFilter2(pos, vel)}
}

// entities creates n Pos+Vel entities in one batch and returns them.
func (s scWorld) entities(n int, es []ecs.Entity) []ecs.Entity {
	s.b.NewBatchFn(n, func(e ecs.Entity, p *Pos, v *Vel) {
		*p = Pos{1, 2}
		*v = Vel{1, 1}
		es = append(es, e)
	})
	return es
}

func scQueryEntity(b *testing.B, n int) {
	s := newSC()
	s.b.NewBatch(n, Pos{1, 2}, Vel{1, 1})
	for b.Loop() {
		q := s.f.Query()
		for q.Next() {
			p, v := q.Get()
			p.X += v.X
			p.Y += v.Y
		}
	}
	perEntity(b, n)
}

func scQueryColumn(b *testing.B, n int) {
	s := newSC()
	s.b.NewBatch(n, Pos{1, 2}, Vel{1, 1})
	for b.Loop() {
		q := s.f.Query()
		for q.NextTable() {
			ps, vs := q.Columns()
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

func scCreate(b *testing.B, n int) {
	s := newSC()
	// Pre-warm: storage for n entities exists before timing.
	s.b.NewBatch(n, Pos{}, Vel{})
	s.w.DestroyAll(s.f.Filter())
	for b.Loop() {
		for range n {
			s.b.New(Pos{1, 2}, Vel{1, 1})
		}
		b.StopTimer()
		s.w.DestroyAll(s.f.Filter())
		b.StartTimer()
	}
	perEntity(b, n)
}

func scCreateBatch(b *testing.B, n int) {
	s := newSC()
	s.b.NewBatch(n, Pos{}, Vel{})
	s.w.DestroyAll(s.f.Filter())
	for b.Loop() {
		s.b.NewBatch(n, Pos{1, 2}, Vel{1, 1})
		b.StopTimer()
		s.w.DestroyAll(s.f.Filter())
		b.StartTimer()
	}
	perEntity(b, n)
}

// scPosOnly returns n entities with only Pos, and a filter over them.
func scPosOnly(n int) (scWorld, []ecs.Entity, *ecs.Filter1[Pos]) {
	s := newSC()
	es := make([]ecs.Entity, 0, n)
	ecs.NewBuilder1(s.pos).NewBatchFn(n, func(e ecs.Entity, p *Pos) {
		*p = Pos{1, 2}
		es = append(es, e)
	})
	return s, es, ecs.NewFilter1(s.pos)
}

func scAddRemove(b *testing.B, n int) {
	s, es, _ := scPosOnly(n)
	for b.Loop() {
		for _, e := range es {
			if err := s.vel.Add(e, Vel{1, 1}); err != nil {
				b.Fatal(err)
			}
		}
		for _, e := range es {
			if err := s.vel.Remove(e); err != nil {
				b.Fatal(err)
			}
		}
	}
	perEntity(b, n)
}

func scAddRemoveBatch(b *testing.B, n int) {
	s, _, f := scPosOnly(n)
	for b.Loop() {
		if s.w.AddAll(f.Filter(), s.vel.ID()) != n {
			b.Fatal("AddAll")
		}
		if s.w.RemoveAll(f.Filter(), s.vel.ID()) != n {
			b.Fatal("RemoveAll")
		}
	}
	perEntity(b, n)
}

func scDestroy(b *testing.B, n int) {
	s := newSC()
	es := s.entities(n, make([]ecs.Entity, 0, n))
	s.w.DestroyAll(s.f.Filter())
	for b.Loop() {
		b.StopTimer()
		es = s.entities(n, es[:0])
		b.StartTimer()
		for _, e := range es {
			if err := s.w.Destroy(e); err != nil {
				b.Fatal(err)
			}
		}
	}
	perEntity(b, n)
}

func scDestroyBatch(b *testing.B, n int) {
	s := newSC()
	s.b.NewBatch(n, Pos{}, Vel{})
	s.w.DestroyAll(s.f.Filter())
	for b.Loop() {
		b.StopTimer()
		s.b.NewBatch(n, Pos{1, 2}, Vel{1, 1})
		b.StartTimer()
		if s.w.DestroyAll(s.f.Filter()) != n {
			b.Fatal("DestroyAll")
		}
	}
	perEntity(b, n)
}

func scRandomGet(b *testing.B, n int) {
	s := newSC()
	es := shuffled(s.entities(n, make([]ecs.Entity, 0, n)))
	sum := 0.0
	for b.Loop() {
		for _, e := range es {
			sum += s.pos.Get(e).X
		}
	}
	sink = sum
	perEntity(b, n)
}

func scSetup(churn bool) func(n int) any {
	s := newSC()
	if churn {
		if err := s.w.Destroy(s.b.New(Pos{}, Vel{})); err != nil {
			panic(err)
		}
	}
	return func(n int) any {
		for range n {
			s.b.New(Pos{1, 2}, Vel{1, 1})
		}
		return s.w
	}
}
