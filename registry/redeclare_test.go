package registry

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry/schema"
)

// TestRedeclare migrates a declared component's data to a new schema, for
// each kind of property change: kept (value kept), type changed and
// convertible (converted through text), type changed and not convertible
// or no longer allowed (default, one note per property whatever the
// number of entities), removed (one note), new (default). The name moves
// to new storage; selectors see the new data.
func TestRedeclare(t *testing.T) {
	w, r := newTestRegistry(t)
	f := func(v float64) *float64 { return &v }
	s1, err := schema.NewSchema([]PropSpec{
		{Name: "keep", Type: "int"},
		{Name: "toNum", Type: "int"},
		{Name: "toInt", Type: "string"},
		{Name: "bounded", Type: "number"},
		{Name: "gone", Type: "string"},
	}, r.Types())
	must(t, err)
	old, err := r.Declare("stats", s1)
	must(t, err)
	attrs := []string{
		"keep: 1; toNum: 2; toInt: 3; bounded: 4; gone: x",
		"keep: 5; toNum: 6; toInt: abc; bounded: 50; gone: y",
		"keep: 7; toNum: 8; toInt: def; bounded: 60; gone: z",
	}
	es := w.NewEntities(len(attrs))
	for i, a := range attrs {
		must(t, r.Set(es[i], "stats", a))
	}
	before, err := r.QueryAll("[stats.keep>4]")
	must(t, err)

	s2, err := schema.NewSchema([]PropSpec{
		{Name: "added", Type: "string", Default: "new"},
		{Name: "keep", Type: "int"},
		{Name: "toNum", Type: "number"},
		{Name: "toInt", Type: "int", Default: "-1"},
		{Name: "bounded", Type: "number", Max: f(10)},
	}, r.Types())
	must(t, err)
	notes, err := r.Privileged().Redeclare("stats", s2)
	must(t, err)

	want := []string{
		"added: new; keep: 1; toNum: 2; toInt: 3; bounded: 4",
		"added: new; keep: 5; toNum: 6; toInt: -1; bounded: 0",
		"added: new; keep: 7; toNum: 8; toInt: -1; bounded: 0",
	}
	for i, e := range es {
		if got, err := r.Attr(e, "stats"); err != nil || got != want[i] {
			t.Errorf("entity %d: %q, %v; want %q", i, got, err, want[i])
		}
	}
	wantNotes := []string{
		`stats: property "gone" was removed; its values are dropped`,
		`stats: property "toInt" changed type from string to int; values that do not convert (such as "abc") take the default`,
		`stats: property "bounded": invalid value "50": expected a number <= 10; such values take the default`,
	}
	if !reflect.DeepEqual(notes, wantNotes) {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
	c, ok := r.Component("stats")
	if !ok || c == old || c.ID == old.ID || c.Schema != s2 {
		t.Fatalf("stats after Redeclare: %+v", c)
	}
	if w.ComponentName(c.ID) != "stats@2" || r.nameOf(c.ID) != "stats" {
		t.Errorf("storage %q named %q", w.ComponentName(c.ID), r.nameOf(c.ID))
	}
	if _, ok := r.ComponentByID(old.ID); ok || w.Has(es[0], old.ID) {
		t.Error("the old storage is still in use")
	}
	after, err := r.QueryAll("[stats.keep>4]")
	must(t, err)
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("selector after Redeclare %v, before %v", after, before)
	}
	if _, err := r.QueryAll("[stats.added=new]"); err != nil {
		t.Errorf("selector on the new property: %v", err)
	}
	// Again: the next internal name.
	_, err = r.Privileged().Redeclare("stats", s1)
	must(t, err)
	if c, _ := r.Component("stats"); w.ComponentName(c.ID) != "stats@3" {
		t.Errorf("second Redeclare stored as %q", w.ComponentName(c.ID))
	}
	// Only declared components can be redeclared.
	_, err = Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	for _, name := range []string{"unit", "nobody"} {
		if _, err := r.Privileged().Redeclare(name, s2); fmt.Sprint(err) != fmt.Sprintf("registry: %q is not a declared component", name) {
			t.Errorf("Redeclare(%s) = %v", name, err)
		}
	}
}
