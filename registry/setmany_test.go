package registry

import (
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

type smA struct {
	N int `scene:"n,default=1"`
}
type smB struct {
	N int `scene:"n,default=2"`
}
type smC struct {
	N int `scene:"n,default=3"`
}

// SetMany adds absent components in one move, dependencies first (those
// not given with their defaults), each seeing its final data at init.
func TestSetMany(t *testing.T) {
	w := ecs.NewWorld()
	r := New(w)
	var log []string
	hook := func(name string) func(*Context, *int) {
		return func(c *Context, n *int) { log = append(log, name+"="+strconv.Itoa(*n)) }
	}
	reg := func(name string, deps ...string) {
		t.Helper()
		h := hook(name)
		var err error
		switch name {
		case "a":
			_, err = Register(r, name, Definition[smA]{Dependencies: deps, Init: func(c *Context, v *smA) { h(c, &v.N) }})
		case "b":
			_, err = Register(r, name, Definition[smB]{Dependencies: deps, Init: func(c *Context, v *smB) { h(c, &v.N) }})
		case "c":
			_, err = Register(r, name, Definition[smC]{Dependencies: deps, Init: func(c *Context, v *smC) { h(c, &v.N) }})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	reg("c")
	reg("b", "c")
	reg("a", "b")
	e := w.NewEntity()
	pa, _ := r.comps["a"].Schema.ParseAttr("a", "n: 10")
	pb, _ := r.comps["b"].Schema.ParseAttr("b", "n: 20")
	// a depends on b (given, after it) which depends on c (not given).
	if err := r.SetMany(e, []NamedPatch{{Name: "a", Patch: pa}, {Name: "b", Patch: pb}}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, " "); got != "c=3 b=20 a=10" {
		t.Fatalf("init order/data %q", got)
	}
	// Present components are set (Replace); unknown names change nothing.
	log = nil
	if err := r.SetMany(e, []NamedPatch{{Name: "a", Patch: nil}, {Name: "nope", Patch: nil}}); err == nil {
		t.Fatal("unknown name accepted")
	}
	if vs, _ := r.Values(e, "a"); vs[0] != 10 {
		t.Fatalf("failed SetMany changed a: %v", vs)
	}
	if err := r.SetMany(e, []NamedPatch{{Name: "a", Patch: nil}}); err != nil {
		t.Fatal(err)
	}
	if vs, _ := r.Values(e, "a"); vs[0] != 1 {
		t.Fatalf("Replace of a present component: %v", vs)
	}
}
