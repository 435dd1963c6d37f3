package ecs

import "testing"

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
