package ecs

import "testing"

type pos struct{ X, Y float64 }
type vel struct{ X, Y float64 }

func TestSmoke(t *testing.T) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	v := MustRegister[vel](w, "vel")
	enemy, _ := w.RegisterTag("enemy")
	b := NewBuilder2(p, v, enemy)
	for i := 0; i < 100; i++ {
		b.New(pos{float64(i), 0}, vel{1, 2})
	}
	f := NewFilter2(p, v, With(enemy))
	if f.Count() != 100 {
		t.Fatalf("count %d", f.Count())
	}
	q := f.Query()
	n := 0
	for q.Next() {
		a, b := q.Get()
		a.X += b.X
		a.Y += b.Y
		if n%2 == 0 {
			if err := w.Destroy(q.Entity()); err != nil {
				t.Fatal(err)
			}
		}
		n++
	}
	if n != 100 || w.Len() != 50 {
		t.Fatalf("n=%d len=%d", n, w.Len())
	}
	sum := 0.0
	q = f.Query()
	for q.NextTable() {
		ps, _ := q.Columns()
		for i := range ps {
			sum += ps[i].Y
		}
	}
	if sum != 100 {
		t.Fatalf("sum %v", sum)
	}
	e := w.NewEntity()
	c := w.NewEntity(p.ID())
	if err := w.SetParent(c, e); err != nil {
		t.Fatal(err)
	}
	if err := w.Destroy(e); err != nil {
		t.Fatal(err)
	}
	if w.Alive(c) || w.Len() != 50 {
		t.Fatal("subtree not destroyed")
	}
	if err := w.Destroy(e); err == nil {
		t.Fatal("double destroy accepted")
	}
}

func BenchmarkIterEntity(b *testing.B) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	v := MustRegister[vel](w, "vel")
	NewBuilder2(p, v).NewBatch(100000, pos{}, vel{1, 1})
	f := NewFilter2(p, v)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := f.Query()
		for q.Next() {
			a, v := q.Get()
			a.X += v.X
			a.Y += v.Y
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/entity")
}

func BenchmarkIterColumn(b *testing.B) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	v := MustRegister[vel](w, "vel")
	NewBuilder2(p, v).NewBatch(100000, pos{}, vel{1, 1})
	f := NewFilter2(p, v)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := f.Query()
		for q.NextTable() {
			ps, vs := q.Columns()
			vs = vs[:len(ps)]
			for j := range ps {
				ps[j].X += vs[j].X
				ps[j].Y += vs[j].Y
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/entity")
}
