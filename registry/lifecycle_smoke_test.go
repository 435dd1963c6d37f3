package registry

import (
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
)

type healthT struct {
	HP  int `scene:"hp,default=100"`
	Max int `scene:"max,default=100"`
}

func TestLifecycleSmoke(t *testing.T) {
	w := ecs.NewWorld()
	r := New(w)
	b, err := RegisterBuiltins(r)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	_, err = Register[healthT](r, "health", Definition[healthT]{
		Init:   func(c *Context, h *healthT) { log = append(log, "init") },
		Update: func(c *Context, h, old *healthT) { log = append(log, "update", itoa(old.HP), itoa(h.HP)) },
		Remove: func(c *Context, h *healthT) { log = append(log, "remove") },
		Tick:   func(c *Context, h *healthT) { h.HP-- },
	})
	if err != nil {
		t.Fatal(err)
	}
	e := w.NewEntity()
	if err := r.Set(e, "health", "hp: 50"); err != nil {
		t.Fatal(err)
	}
	if err := r.Set(e, "health", "max: 100"); err != nil { // no change
		t.Fatal(err)
	}
	if err := r.Set(e, "health", "hp: 40"); err != nil {
		t.Fatal(err)
	}
	r.Tick(0.1)
	vs, _ := r.Values(e, "health")
	if vs[0] != 39 {
		t.Fatalf("hp %v", vs[0])
	}
	if err := r.Set(e, "velocity", "0 1 0"); err != nil {
		t.Fatal(err)
	}
	if !r.Has(e, "position") {
		t.Fatal("dependency not added")
	}
	r.Tick(1.0 / 60)
	if p := b.Position.Get(e); p.Y <= 0 {
		t.Fatalf("physics did not move: %v", p)
	}
	w.Destroy(e)
	got := strings.Join(log, " ")
	if got != "init update 0 50 update 50 40 remove" {
		t.Fatalf("log %q", got)
	}
	if err := r.Set(w.NewEntity(), "health", "hp: abc"); err == nil {
		t.Fatal("bad value accepted")
	}
	if _, _, err := r.Lookup("helth"); err == nil || !strings.Contains(err.Error(), `did you mean "health"`) {
		t.Fatalf("err %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
