package ecs

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

func TestAddMany(t *testing.T) {
	w := NewWorld()
	p := MustRegister[pos](w, "pos")
	v := MustRegister[vel](w, "vel")
	tag, _ := w.RegisterTag("tag")
	var log []string
	w.Observe(ComponentAdded, func(w *World, _ Event, e Entity, id ID) {
		// Every value is written before the first observer runs.
		log = append(log, fmt.Sprintf("%s %v %v", w.ComponentName(id), p.Get(e) != nil && p.Get(e).X == 1, v.Get(e) != nil && v.Get(e).Y == 2))
	})
	e := w.NewEntity()
	pv, vv := pos{X: 1}, vel{Y: 2}
	if err := w.AddMany(e, []ID{v.ID(), tag, p.ID()}, []unsafe.Pointer{unsafe.Pointer(&vv), nil, unsafe.Pointer(&pv)}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"vel true true", "tag true true", "pos true true"}; !slices.Equal(log, want) {
		t.Fatalf("events %v, want %v", log, want)
	}
	if *p.Get(e) != pv || *v.Get(e) != vv || !w.Has(e, tag) {
		t.Fatal("values not stored")
	}
	// Errors change nothing.
	if err := w.AddMany(e, []ID{p.ID()}, nil); !errors.Is(err, ErrHasComponent) {
		t.Fatalf("re-add: %v", err)
	}
	e2 := w.NewEntity()
	if err := w.AddMany(e2, []ID{p.ID(), p.ID()}, nil); err == nil || w.Has(e2, p.ID()) {
		t.Fatalf("listed twice: %v", err)
	}
	if err := w.AddMany(Entity{}, []ID{p.ID()}, nil); !errors.Is(err, ErrStale) {
		t.Fatalf("stale: %v", err)
	}
	// While a query iterates the adds are deferred, then applied.
	f := NewFilter(w, With(tag))
	q := f.Query()
	for q.Next() {
		if err := w.AddMany(e2, []ID{p.ID(), v.ID()}, []unsafe.Pointer{unsafe.Pointer(&pv), nil}); err != nil {
			t.Fatal(err)
		}
		if w.Has(e2, p.ID()) {
			t.Fatal("add not deferred")
		}
	}
	if !w.Has(e2, p.ID()) || !w.Has(e2, v.ID()) || *p.Get(e2) != pv {
		t.Fatal("deferred AddMany not applied")
	}
}
