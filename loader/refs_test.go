package loader

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// refScene writes references forward and backward, by id and by path,
// as text and as a YAML list, with each onDelete policy.
const refScene = `components:
  docked: {type: entity, onDelete: destroy}
  holds: {type: entities}
  cargo: {at: {type: entity, onDelete: remove}, n: {type: int}}
entities:
  - id: ship
    docked: "#p1"
    holds: ["#crate1", hangar/0]
  - id: barge
    docked: hangar/0
    holds: "#crate1, #crate2"
    cargo: {at: "#p1", n: 2}
  - id: p1
  - id: hangar
    children:
      - {}
  - id: crate1
  - id: crate2
`

func TestRefsLoadResolveAndDump(t *testing.T) {
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "r.yaml", []byte(refScene), Options{}); err != nil {
		t.Fatal(err)
	}
	w := reg.World()
	id := func(s string) registry.Ref {
		e, ok := reg.EntityByID(s)
		if !ok {
			t.Fatalf("no %s", s)
		}
		return registry.Ref{Target: e}
	}
	ship, barge, p1 := id("ship").Target, id("barge").Target, id("p1").Target
	vs, _ := reg.Values(ship, "docked")
	if got, ok := vs[0].(registry.Ref).Get(w); !ok || got != p1 {
		t.Errorf("ship's docked = %#v, want a handle to p1 (a forward reference)", vs[0])
	}
	hangar0 := w.Children(id("hangar").Target)[0]
	rel, err := reg.Relation("docked")
	if err != nil {
		t.Fatal(err)
	}
	if got := rel.Holders(hangar0, nil); len(got) != 1 || got[0] != barge {
		t.Errorf("holders of hangar/0 = %v, want barge", got)
	}
	holds, _ := reg.Relation("holds")
	if got := holds.Targets(ship, nil); len(got) != 2 || got[0] != id("crate1").Target || got[1] != hangar0 {
		t.Errorf("ship holds %v, want crate1, hangar/0", got)
	}
	var y bytes.Buffer
	opt := export.Options{}
	if err := scenefile.WriteYAML(&y, export.Export(reg, opt)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`docked: "#p1"`, `docked: "hangar/0"`, `holds: "#crate1, hangar/0"`, `cargo: "at: #p1; n: 2"`, "onDelete: destroy"} {
		if !strings.Contains(y.String(), want) {
			t.Errorf("the dump lacks %s:\n%s", want, y.String())
		}
	}
	// The dump loads back and dumps again byte for byte, in each format.
	state := dump(t, reg)
	for _, f := range []struct {
		name  string
		write func(*bytes.Buffer, *registry.Registry) error
	}{
		{"again.yaml", func(b *bytes.Buffer, r *registry.Registry) error {
			return scenefile.WriteYAML(b, export.Export(r, opt))
		}},
		{"again.xml", func(b *bytes.Buffer, r *registry.Registry) error { return scenefile.WriteXML(b, export.Export(r, opt)) }},
		{"again.json", func(b *bytes.Buffer, r *registry.Registry) error { return export.WriteJSON(b, r, opt) }},
	} {
		var first bytes.Buffer
		if err := f.write(&first, reg); err != nil {
			t.Fatal(err)
		}
		reg2 := newTestRegistry(t)
		if _, err := LoadBytes(reg2, f.name, first.Bytes(), Options{}); err != nil {
			t.Fatalf("%s: %v\n%s", f.name, err, first.Bytes())
		}
		if got := dump(t, reg2); got != state {
			t.Errorf("%s: the World changed:\n%s", f.name, firstDiff(state, got))
		}
		var again bytes.Buffer
		if err := f.write(&again, reg2); err != nil {
			t.Fatal(err)
		}
		if again.String() != first.String() {
			t.Errorf("%s: dumped again, it differs:\n%s", f.name, firstDiff(first.String(), again.String()))
		}
	}
	// Destroying p1: ship is destroyed (docked: destroy), barge loses
	// cargo (at: remove); hangar/0's holders keep it.
	if err := w.Destroy(p1); err != nil {
		t.Fatal(err)
	}
	if w.Alive(ship) || !w.Alive(barge) || reg.Has(barge, "cargo") {
		t.Errorf("after p1 went: ship alive %v, barge alive %v, barge has cargo %v", w.Alive(ship), w.Alive(barge), reg.Has(barge, "cargo"))
	}
}

func TestRefsMissingTarget(t *testing.T) {
	reg := newTestRegistry(t)
	scene := "components:\n  docked: {type: entity}\n  holds: {type: entities}\nentities:\n  - id: ship\n    docked: \"#p9\"\n  - id: p1\n    holds: [\"#p1\", hangar/3]\n"
	_, err := LoadBytes(reg, "m.yaml", []byte(scene), Options{})
	if err == nil {
		t.Fatal("a reference to a missing entity loaded")
	}
	for _, want := range []string{`m.yaml:6:13: docked: no entity "#p9"`, `m.yaml:8:12: holds: no entity "hangar/3"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if n := reg.World().Len(); n != 0 {
		t.Errorf("%d entities left after a failed load, want none", n)
	}
}

func TestRefsBadSyntaxAndPolicy(t *testing.T) {
	for _, c := range []struct{ scene, want string }{
		{"components:\n  docked: {type: entity}\nentities:\n  - docked: p1\n", `b.yaml:4:13: docked: invalid value "p1": expected a reference to one entity`},
		{"components:\n  docked: {type: entity, onDelete: explode}\n", `onDelete "explode": expected clear, destroy or remove`},
		{"components:\n  n: {type: int, onDelete: clear}\n", "onDelete needs a reference property type"},
	} {
		_, err := LoadBytes(newTestRegistry(t), "b.yaml", []byte(c.scene), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.scene, err, c.want)
		}
	}
}
