// Command gen writes ecs/typed_gen.go: the typed filters, queries and
// builders for 1 to 8 components; and ecs/typed_gen_test.go: for each
// arity, an adapter of that API to slices, so that the tests check every
// arity with one body of checks. Run it with `go generate ./ecs`.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
	"text/template"
)

type arity struct {
	N      int
	Types  []string // A, B, ...
	Idx    []int
	TP     string // [A, B any]
	TA     string // [A, B]
	Params string // a Map[A], b Map[B]
	Vals   string // a A, b B
	Ptrs   string // *A, *B
	Slices string // []A, []B

	// For the test adapters, where every component has type T.
	Ms   string // ms[0], ms[1]
	Ps   string // p0, p1
	Ss   string // s0, s1
	TPtr string // p0, p1 *T
}

const tmpl = `
// Filter{{.N}} is a cached filter with typed access to {{.N}} component(s).
// It matches entities that have all of them plus the options' conditions
// ([FilterOption]). [NewFilter{{.N}}] makes one; [Filter{{.N}}.Query]
// iterates over its entities as a [Query{{.N}}], and [Filter{{.N}}.Each]
// calls a function for each. [Filter{{.N}}.Filter] is the untyped [Filter]
// underneath.
type Filter{{.N}}{{.TP}} struct {
	f   *Filter
	ids [{{.N}}]ID
}

// NewFilter{{.N}} returns a cached filter over the entities that have the
// given components ([Map]) and satisfy opts. It panics if a Map is the zero
// Map or the Maps belong to different Worlds, and as [NewFilter] does for
// the options' IDs.
func NewFilter{{.N}}{{.TP}}({{.Params}}, opts ...FilterOption) *Filter{{.N}}{{.TA}} {
	w := sameWorld("NewFilter{{.N}}", {{range $i, $t := .Types}}{{if $i}}, {{end}}m{{$i}}.w{{end}})
	f := &Filter{w: w}
	ids := [{{.N}}]ID{ {{range $i, $t := .Types}}m{{$i}}.id, {{end}} }
	for _, id := range ids {
		f.all = f.all.With(id)
	}
	for _, o := range opts {
		o(f)
	}
	return &Filter{{.N}}{{.TA}}{f: w.registerFilter(f), ids: ids}
}

// Filter returns the untyped [Filter] underneath, for its other methods
// ([Filter.Matches], [Filter.NumTables], ...) and the batch operations
// ([World.AddAll], [World.RemoveAll], [World.DestroyAll]).
func (f *Filter{{.N}}{{.TA}}) Filter() *Filter { return f.f }

// Count returns the number of matching entities.
func (f *Filter{{.N}}{{.TA}}) Count() int { return f.f.Count() }

// Query starts an iteration. The [World] is locked until
// [Query{{.N}}.Next] or [Query{{.N}}.NextTable] returns false or
// [Query{{.N}}.Close] is called; see [Query] for "defer q.Close()".
func (f *Filter{{.N}}{{.TA}}) Query() Query{{.N}}{{.TA}} {
	return Query{{.N}}{{.TA}}{w: f.f.w, tables: f.f.tables, ids: f.ids, ti: -1, row: -1, id: f.f.w.openIter()}
}

// Each calls fn for every matching entity, with the [World] locked
// (structural changes fn makes are deferred until Each returns). The lock
// is released when Each returns, also if fn panics.
func (f *Filter{{.N}}{{.TA}}) Each(fn func(Entity, {{.Ptrs}})) {
	q := f.Query()
	defer q.Close()
	for q.Next() {
		r := uintptr(q.row)
		fn(q.Entity(), {{range $i, $t := .Types}}{{if $i}}, {{end}}(*{{$t}})(unsafe.Add(q.p[{{$i}}], r*q.s[{{$i}}])){{end}})
	}
}

// Query{{.N}} iterates over the entities of a [Filter{{.N}}]: entity by
// entity with [Query{{.N}}.Next] and [Query{{.N}}.Get], or table by table
// with [Query{{.N}}.NextTable] and [Query{{.N}}.Columns]. The [World] stays
// locked until the iteration ends or [Query{{.N}}.Close] is called; Close,
// copies and "defer q.Close()" behave as for [Query].
type Query{{.N}}{{.TP}} struct {
	w      *World
	tables []*table
	t      *table
	ti     int
	row, n int
	id     uint64 // serial of the open iteration; 0 once closed
	ids    [{{.N}}]ID
	p      [{{.N}}]unsafe.Pointer
	s      [{{.N}}]uintptr
}

// Next advances to the next entity and reports whether there is one.
func (q *Query{{.N}}{{.TA}}) Next() bool {
	q.row++
	if q.row < q.n {
		return true
	}
	return q.nextTable()
}

func (q *Query{{.N}}{{.TA}}) nextTable() bool {
	for {
		q.ti++
		if q.ti >= len(q.tables) || !q.w.iterOpen(q.id) {
			q.Close()
			return false
		}
		t := q.tables[q.ti]
		if n := t.len(); n > 0 {
			q.t, q.row, q.n = t, 0, n
			for i, id := range q.ids {
				q.p[i], q.s[i] = t.colBase(id)
			}
			return true
		}
	}
}

// Get returns pointers to the current entity's components. They are valid
// until the next structural change. Writes through them are not observed
// (see [World.MarkChanged]).
func (q *Query{{.N}}{{.TA}}) Get() ({{.Ptrs}}) {
	r := uintptr(q.row)
	return {{range $i, $t := .Types}}{{if $i}}, {{end}}(*{{$t}})(unsafe.Add(q.p[{{$i}}], r*q.s[{{$i}}])){{end}}
}

// Entity returns the current entity.
func (q *Query{{.N}}{{.TA}}) Entity() Entity {
	idx := q.t.entities[q.row]
	return q.w.handle(idx)
}

// NextTable advances to the next non-empty table of matching entities and
// reports whether there is one. Use [Query{{.N}}.Columns],
// [Query{{.N}}.Len] and [Query{{.N}}.EntityAt] to walk it.
func (q *Query{{.N}}{{.TA}}) NextTable() bool {
	q.row = q.n - 1
	ok := q.nextTable()
	if ok {
		q.row = q.n - 1
	}
	return ok
}

// Len returns the number of entities in the current table.
func (q *Query{{.N}}{{.TA}}) Len() int { return q.n }

// Columns returns the packed values of the current table, one slice per
// component, each [Query{{.N}}.Len] long, row i of each belonging to
// [Query{{.N}}.EntityAt](i).
func (q *Query{{.N}}{{.TA}}) Columns() ({{.Slices}}) {
	return {{range $i, $t := .Types}}{{if $i}}, {{end}}unsafe.Slice((*{{$t}})(q.p[{{$i}}]), q.n){{end}}
}

// EntityAt returns the entity in row i of the current table.
func (q *Query{{.N}}{{.TA}}) EntityAt(i int) Entity {
	idx := q.t.entities[i]
	return q.w.handle(idx)
}

// Close ends the iteration and unlocks the [World], applying the deferred
// changes if no other lock is held. It does nothing if the iteration has
// ended already (through this query or a copy), so "defer q.Close()" is
// always safe. Close on the zero Query{{.N}} does nothing. It is
// [Query.Close] for typed queries.
func (q *Query{{.N}}{{.TA}}) Close() {
	if q.id == 0 {
		return
	}
	id := q.id
	q.id = 0
	q.n, q.row = 0, 0
	q.ti = len(q.tables)
	q.w.closeIter(id)
}

// Builder{{.N}} creates entities with {{.N}} component(s) (plus any tags
// given to its constructor, [NewBuilder{{.N}}]) straight into their table:
// one with [Builder{{.N}}.New], many with [Builder{{.N}}.NewBatch] and
// [Builder{{.N}}.NewBatchFn].
type Builder{{.N}}{{.TP}} struct {
	w   *World
	ids [{{.N}}]ID
	t   *table
}

// NewBuilder{{.N}} returns a builder of entities with the given components
// ([Map]) and, optionally, tags or other components (zero-valued) by [ID].
// It panics if a Map is the zero Map, the Maps belong to different Worlds,
// or an extra ID is not registered in their [World].
func NewBuilder{{.N}}{{.TP}}({{.Params}}, extra ...ID) *Builder{{.N}}{{.TA}} {
	w := sameWorld("NewBuilder{{.N}}", {{range $i, $t := .Types}}{{if $i}}, {{end}}m{{$i}}.w{{end}})
	ids := [{{.N}}]ID{ {{range $i, $t := .Types}}m{{$i}}.id, {{end}} }
	mask := MaskOf(ids[:]...)
	for _, id := range extra {
		w.checkID("NewBuilder", id)
		mask = mask.With(id)
	}
	return &Builder{{.N}}{{.TA}}{w: w, ids: ids, t: w.tableFor(mask)}
}

// New creates one entity with the given values. Observers see it as
// [Event] tells for [World.NewEntity]; while the World is locked
// ([World.Locked]), the entity is created at once and its components are
// added when the lock is released.
func (b *Builder{{.N}}{{.TA}}) New({{.Vals}}) Entity {
	w := b.w
	if w.locks > 0 || w.nobs > 0 || len(w.cmds) > 0 {
		return b.newSlow({{range $i, $t := .Types}}{{if $i}}, {{end}}v{{$i}}{{end}})
	}
	t := b.t
	e := w.alloc()
	row := t.appendRow(e.index)
	r := &w.records[e.index]
	r.table, r.row = t.id, row
	{{range $i, $t := .Types}}*(*{{$t}})(t.col(b.ids[{{$i}}]).ptr(row)) = v{{$i}}
	{{end}}w.created(t, e)
	return e
}

// newSlow creates an entity while the World is locked or observed.
//
//go:noinline
func (b *Builder{{.N}}{{.TA}}) newSlow({{.Vals}}) Entity {
	w := b.w
	if w.locks > 0 {
		e := w.createIn(w.tables[0])
		{{range $i, $t := .Types}}_ = w.add(e, w.rec(e), b.ids[{{$i}}], unsafe.Pointer(&v{{$i}}))
		{{end}}for _, id := range b.t.ids {
			if w.rec(e) != nil && !w.tables[w.rec(e).table].has(id) && !b.has(id) {
				_ = w.add(e, w.rec(e), id, nil)
			}
		}
		return e
	}
	start := w.batchCreate(b.t, 1)
	t := b.t
	{{range $i, $t := .Types}}*(*{{$t}})(t.col(b.ids[{{$i}}]).ptr(start)) = v{{$i}}
	{{end}}return w.batchCreated(t, start, 1)
}

func (b *Builder{{.N}}{{.TA}}) has(id ID) bool {
	for _, x := range b.ids {
		if x == id {
			return true
		}
	}
	return false
}

// NewBatch creates n entities that all get the given values, as
// [Builder{{.N}}.NewBatchFn] does. It panics if n is negative or more than
// the [World] has room for.
func (b *Builder{{.N}}{{.TA}}) NewBatch(n int, {{.Vals}}) {
	b.NewBatchFn(n, func(_ Entity, {{range $i, $t := .Types}}{{if $i}}, {{end}}p{{$i}} *{{$t}}{{end}}) {
		{{range $i, $t := .Types}}*p{{$i}} = v{{$i}}
		{{end}}
	})
}

// NewBatchFn creates n entities and calls fn (if not nil) to fill in each
// one's values, before observers hear of them. The [World] is locked while
// fn runs: structural changes fn makes are deferred until the batch is
// complete. It panics if n is negative or more than the World has room
// for.
//
// If fn panics, the batch is undone: none of its entities stays alive
// (their handles are stale) and the lock is released. Observers hear
// nothing of them, except when NewBatchFn is called with the World
// already locked (from a query loop or an observer): then each entity is
// created and announced in turn, and those made are destroyed with the
// deferred changes.
func (b *Builder{{.N}}{{.TA}}) NewBatchFn(n int, fn func(Entity, {{.Ptrs}})) {
	w := b.w
	w.checkCount("NewBatch", n)
	if n == 0 {
		return
	}
	if w.locks > 0 {
		var made []Entity
		done := false
		defer w.undoLocked(&done, &made)
		for i := 0; i < n; i++ {
			{{range $i, $t := .Types}}var v{{$i}} {{$t}}
			{{end}}e := w.createIn(w.tables[0])
			made = append(made, e)
			if fn != nil {
				fn(e, {{range $i, $t := .Types}}{{if $i}}, {{end}}&v{{$i}}{{end}})
			}
			{{range $i, $t := .Types}}_ = w.add(e, w.rec(e), b.ids[{{$i}}], unsafe.Pointer(&v{{$i}}))
			{{end}}for _, id := range b.t.ids {
				if !b.has(id) {
					_ = w.add(e, w.rec(e), id, nil)
				}
			}
		}
		done = true
		return
	}
	t := b.t
	start := w.batchCreate(t, n)
	if fn != nil {
		var p [{{.N}}]unsafe.Pointer
		var s [{{.N}}]uintptr
		for i, id := range b.ids {
			p[i], s[i] = t.colBase(id)
		}
		// fn holds pointers into t: lock the World so that structural
		// changes fn makes are deferred and cannot move t's rows.
		func() {
			w.enter()
			done := false
			defer w.leaveBatch(&done, t, start, n)
			for i := 0; i < n; i++ {
				r := uintptr(start) + uintptr(i)
				idx := t.entities[r]
				fn(w.handle(idx), {{range $i, $t := .Types}}{{if $i}}, {{end}}(*{{$t}})(unsafe.Add(p[{{$i}}], r*s[{{$i}}])){{end}})
			}
			done = true
		}()
	}
	w.batchCreated(t, start, n)
}
`

const testTmpl = `
{{if eq .N 1}}
// typedArities returns the adapters of every arity, 1 to 8, in order.
func typedArities[T any]() []typedArity[T] {
	return []typedArity[T]{ {{- range .All}}
		{ {{.}}, typedBuilder{{.}}[T], typedFilter{{.}}[T]},{{end}}
	}
}
{{end}}
func typedBuilder{{.N}}[T any](ms []Map[T], extra ...ID) typedBuilder[T] {
	b := NewBuilder{{.N}}({{.Ms}}, extra...)
	return typedBuilder[T]{
		new:      func(vs []T) Entity { return b.New({{range $i, $t := .Types}}{{if $i}}, {{end}}vs[{{$i}}]{{end}}) },
		newBatch: func(n int, vs []T) { b.NewBatch(n, {{range $i, $t := .Types}}{{if $i}}, {{end}}vs[{{$i}}]{{end}}) },
		newBatchFn: func(n int, fn func(Entity, []*T)) {
			if fn == nil {
				b.NewBatchFn(n, nil)
				return
			}
			b.NewBatchFn(n, func(e Entity, {{.TPtr}}) { fn(e, []*T{ {{- .Ps -}} }) })
		},
	}
}

func typedFilter{{.N}}[T any](ms []Map[T], opts ...FilterOption) typedFilter[T] {
	f := NewFilter{{.N}}({{.Ms}}, opts...)
	return typedFilter[T]{
		untyped: f.Filter,
		count:   f.Count,
		query: func() typedQuery[T] {
			q := f.Query()
			return typedQuery[T]{
				typedIter: &q,
				get: func() []*T {
					{{.Ps}} := q.Get()
					return []*T{ {{- .Ps -}} }
				},
				columns: func() [][]T {
					{{.Ss}} := q.Columns()
					return [][]T{ {{- .Ss -}} }
				},
				row: func() int { return q.row },
			}
		},
		each: func(fn func(Entity, []*T)) {
			f.Each(func(e Entity, {{.TPtr}}) { fn(e, []*T{ {{- .Ps -}} }) })
		},
	}
}
`

func main() {
	var buf, test bytes.Buffer
	buf.WriteString("// Code generated by ecs/internal/gen; DO NOT EDIT.\n\npackage ecs\n\nimport \"unsafe\"\n")
	test.WriteString("// Code generated by ecs/internal/gen; DO NOT EDIT.\n\npackage ecs\n")
	t := template.Must(template.New("").Parse(tmpl))
	tt := template.Must(template.New("").Parse(testTmpl))
	names := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	all := []int{1, 2, 3, 4, 5, 6, 7, 8}
	for _, n := range all {
		a := arity{N: n, Types: names[:n]}
		var params, vals, ptrs, slices, ms, ps, ss []string
		for i, ty := range a.Types {
			ms = append(ms, fmt.Sprintf("ms[%d]", i))
			ps = append(ps, fmt.Sprintf("p%d", i))
			ss = append(ss, fmt.Sprintf("s%d", i))
			a.Idx = append(a.Idx, i)
			params = append(params, fmt.Sprintf("m%d Map[%s]", i, ty))
			vals = append(vals, fmt.Sprintf("v%d %s", i, ty))
			ptrs = append(ptrs, "*"+ty)
			slices = append(slices, "[]"+ty)
		}
		a.TP = "[" + strings.Join(a.Types, ", ") + " any]"
		a.TA = "[" + strings.Join(a.Types, ", ") + "]"
		a.Params = strings.Join(params, ", ")
		a.Vals = strings.Join(vals, ", ")
		a.Ptrs = strings.Join(ptrs, ", ")
		a.Slices = strings.Join(slices, ", ")
		a.Ms = strings.Join(ms, ", ")
		a.Ps = strings.Join(ps, ", ")
		a.Ss = strings.Join(ss, ", ")
		a.TPtr = a.Ps + " *T"
		if err := t.Execute(&buf, a); err != nil {
			panic(err)
		}
		if err := tt.Execute(&test, struct {
			arity
			All []int
		}{a, all}); err != nil {
			panic(err)
		}
	}
	write("typed_gen.go", buf.Bytes())
	write("typed_gen_test.go", test.Bytes())
}

// write writes the gofmt-ed src to file, or src as it is (to read what
// went wrong) and panics if it does not parse.
func write(file string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(file, src, 0o644)
		panic(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		panic(err)
	}
}
