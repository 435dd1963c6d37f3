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

func BenchmarkEach(b *testing.B) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	v := MustRegister[vel](w, "vel")
	NewBuilder2(p, v).NewBatch(100000, pos{}, vel{1, 1})
	f := NewFilter2(p, v)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f.Each(func(_ Entity, a *pos, v *vel) {
			a.X += v.X
			a.Y += v.Y
		})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/entity")
}

// BenchmarkQueryOpenClose measures the cost of starting and ending an
// iteration (the lock), over a filter that matches one entity.
func BenchmarkQueryOpenClose(b *testing.B) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	NewBuilder1(p).New(pos{})
	f := NewFilter1(p)
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := f.Query()
		for q.Next() {
			n++
		}
		q.Close()
	}
	if n != b.N {
		b.Fatal(n)
	}
}

// BenchmarkEntityHandles measures Query.Entity and Map.Get through the
// handles it returns.
func BenchmarkEntityHandles(b *testing.B) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	NewBuilder1(p).NewBatch(100000, pos{1, 2})
	f := NewFilter1(p)
	es := make([]Entity, 0, 100000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		es = es[:0]
		q := f.Query()
		for q.Next() {
			es = append(es, q.Entity())
		}
		for _, e := range es {
			p.Get(e).X++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100000, "ns/entity")
}

// BenchmarkWalkAll measures the pre-order walk of a forest of 100,000
// entities (1,000 roots, each with 10 children with 9 grandchildren).
func BenchmarkWalkAll(b *testing.B) {
	w := NewWorld()
	w.EnableHierarchy()
	for r := 0; r < 1000; r++ {
		root := w.NewEntity()
		for c := 0; c < 10; c++ {
			ch := w.NewEntity()
			_ = w.SetParent(ch, root)
			for g := 0; g < 9; g++ {
				_ = w.SetParent(w.NewEntity(), ch)
			}
		}
	}
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for range w.All() {
			n++
		}
	}
	if n != b.N*w.Len() {
		b.Fatal(n)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(w.Len()), "ns/entity")
}

// BenchmarkHierarchyChanges measures the hierarchy's upkeep: moving a
// child to the end of another parent's children (SetParent) and to the
// front (InsertChild at 0), among 1,000 parents with 10 children each;
// and creating and destroying an entity in a World that has a hierarchy.
func BenchmarkHierarchyChanges(b *testing.B) {
	w := NewWorld()
	w.EnableHierarchy()
	parents := make([]Entity, 1000)
	var kids []Entity
	for i := range parents {
		parents[i] = w.NewEntity()
		for range 10 {
			k := w.NewEntity()
			_ = w.SetParent(k, parents[i])
			kids = append(kids, k)
		}
	}
	b.Run("SetParent", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = w.SetParent(kids[i%len(kids)], parents[(i*7)%len(parents)])
			i++
		}
	})
	b.Run("InsertChild0", func(b *testing.B) {
		i := 0
		for b.Loop() {
			_ = w.InsertChild(parents[(i*7)%len(parents)], kids[i%len(kids)], 0)
			i++
		}
	})
	b.Run("CreateDestroy", func(b *testing.B) {
		for b.Loop() {
			_ = w.Destroy(w.NewEntity())
		}
	})
}

// BenchmarkChildIndex measures ChildIndex of each of 10,000 siblings.
func BenchmarkChildIndex(b *testing.B) {
	w := NewWorld()
	top := w.NewEntity()
	kids := make([]Entity, 10000)
	for i := range kids {
		kids[i] = w.NewEntity()
		_ = w.SetParent(kids[i], top)
	}
	for b.Loop() {
		for i, k := range kids {
			if w.ChildIndex(k) != i {
				b.Fatal("ChildIndex")
			}
		}
	}
}
