package schema

import (
	"reflect"
	"strings"
	"testing"
)

func FuzzParseEntity(f *testing.F) {
	fuzzType(f, "entity", nil, "#p1", " hangar/0 ", "0/1/2", "", "#", "p1", "a/b", "#a b", "3")
}

func FuzzParseEntities(f *testing.F) {
	fuzzType(f, "entities", nil, "#crate1, #crate2", "", "#a,,#b", "hangar/0, 2", " #x ", "#a, b")
}

func TestRefTypesParse(t *testing.T) {
	ts := NewTypes()
	ent, _ := ts.Lookup("entity")
	ents, _ := ts.Lookup("entities")
	for _, c := range []struct {
		text string
		want Ref
	}{
		{"#p1", Ref{Text: "#p1"}},
		{"  hangar/0 ", Ref{Text: "hangar/0"}},
		{"0/1", Ref{Text: "0/1"}},
		{"4", Ref{Text: "4"}},
		{"", Ref{}},
	} {
		v, err := ent.Parse(c.text, ent.Default)
		if err != nil || v != c.want {
			t.Errorf("entity %q = %#v, %v; want %#v", c.text, v, err, c.want)
		}
	}
	for _, bad := range []string{"#", "p1", "hangar/x", "a/", "/0", "#a b", "[docked]", "#a,#b"} {
		if v, err := ent.Parse(bad, ent.Default); err == nil {
			t.Errorf("entity %q = %#v, want an error", bad, v)
		} else if !strings.Contains(err.Error(), "expected a reference to one entity") {
			t.Errorf("entity %q: error %v does not say what is expected", bad, err)
		}
	}
	v, err := ents.Parse("#crate1, hangar/0 ,#crate2", ents.Default)
	want := Refs{{Text: "#crate1"}, {Text: "hangar/0"}, {Text: "#crate2"}}
	if err != nil || !reflect.DeepEqual(v, want) {
		t.Fatalf("entities = %#v, %v; want %#v", v, err, want)
	}
	if p := ents.Print(v); p != "#crate1, hangar/0, #crate2" {
		t.Errorf("printed %q", p)
	}
	if _, err := ents.Parse("#a,,#b", ents.Default); err == nil {
		t.Errorf("an empty item was accepted")
	}
	if v, _ := ents.Parse(" ", ents.Default); len(v.(Refs)) != 0 {
		t.Errorf("blank = %#v, want an empty list", v)
	}
}

func TestRefGoTypesAndOnDelete(t *testing.T) {
	type Dock struct {
		At    Ref  `scene:"at,onDelete=destroy"`
		Cargo Refs `scene:"cargo,onDelete=remove"`
		Seen  Ref
	}
	s, err := SchemaOf(reflect.TypeFor[Dock](), NewTypes())
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, p := range s.Props {
		got = append(got, p.Name+":"+p.Type.Name+":"+p.OnDelete.String())
	}
	if want := "at:entity:destroy cargo:entities:remove seen:entity:clear"; strings.Join(got, " ") != want {
		t.Errorf("props %v, want %s", got, want)
	}
	type Bad struct {
		N int `scene:"n,onDelete=destroy"`
	}
	if _, err := SchemaOf(reflect.TypeFor[Bad](), NewTypes()); err == nil || !strings.Contains(err.Error(), "onDelete needs a reference property type") {
		t.Errorf("onDelete on an int: %v", err)
	}
	type Bad2 struct {
		R Ref `scene:"r,onDelete=explode"`
	}
	if _, err := SchemaOf(reflect.TypeFor[Bad2](), NewTypes()); err == nil || !strings.Contains(err.Error(), `onDelete "explode": expected clear, destroy or remove`) {
		t.Errorf("unknown policy: %v", err)
	}
	ds, err := NewSchema([]PropSpec{{Name: "docked", Type: "entity", OnDelete: "remove"}, {Name: "holds", Type: "entities"}}, NewTypes())
	if err != nil {
		t.Fatal(err)
	}
	if ds.Props[0].OnDelete != Remove || ds.Props[1].OnDelete != Clear {
		t.Errorf("declared policies %v %v", ds.Props[0].OnDelete, ds.Props[1].OnDelete)
	}
	if _, err := NewSchema([]PropSpec{{Name: "n", Type: "number", OnDelete: "clear"}}, NewTypes()); err == nil {
		t.Errorf("onDelete on a number was accepted")
	}
}

func TestCloneRefs(t *testing.T) {
	a := Refs{{Text: "#a"}}
	b := CloneValue(a).(Refs)
	b[0].Text = "#b"
	if a[0].Text != "#a" {
		t.Errorf("CloneValue shares the list")
	}
}
