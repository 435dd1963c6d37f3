package registry

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

// TestEmitReusesEvents: a delivery in the steady state allocates nothing
// (Emit reuses its Events), also when listeners emit (nested Emits get
// Events of their own, each valid during its listeners' calls).
func TestEmitReusesEvents(t *testing.T) {
	w, r := newTestRegistry(t)
	a, b := w.NewEntity(), w.NewEntity()
	must(t, w.SetParent(b, a))
	var seen []string
	r.Events().On(a, "ping", func(ev *Event) {
		r.Events().Emit(a, "pong", nil, false)
		seen = append(seen, ev.Name) // still ping after the nested Emit
	})
	n := 0
	r.Events().On(a, "pong", func(ev *Event) { n++ })
	r.Events().Emit(b, "ping", nil, true)
	if len(seen) != 1 || seen[0] != "ping" || n != 1 {
		t.Fatalf("seen %v, pong %d", seen, n)
	}
	detail := any(map[string]any{"k": 1.0})
	allocs := testing.AllocsPerRun(100, func() { r.Events().Emit(b, "ping", detail, true) })
	if allocs != 0 {
		t.Errorf("Emit allocates %v times per call", allocs)
	}
}

// TestListening: Listening sees e's own listeners of a name, not its
// ancestors', and nothing on a stale entity.
func TestListening(t *testing.T) {
	w, r := newTestRegistry(t)
	a, b := w.NewEntity(), w.NewEntity()
	must(t, w.SetParent(b, a))
	id := r.Events().On(a, "componentchanged", func(*Event) {})
	if !r.Events().Listening(a, "componentchanged") || r.Events().Listening(b, "componentchanged") || r.Events().Listening(a, "hit") {
		t.Error("Listening is wrong")
	}
	r.Events().Off(id)
	if r.Events().Listening(a, "componentchanged") {
		t.Error("Listening after Off")
	}
	r.Events().On(b, "hit", func(*Event) {})
	must(t, w.Destroy(b))
	if r.Events().Listening(b, "hit") {
		t.Error("Listening on a destroyed entity")
	}
}

// TestEventTap: a tap sees every event, listened to or not, the
// component events included, in order, until removed.
func TestEventTap(t *testing.T) {
	w, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	e := w.NewEntity()
	var got []string
	active := false
	remove := r.Events().AddTap(EventTap{
		Active: func() bool { return active },
		Event: func(_ ecs.Entity, name string, detail any) {
			if d, ok := detail.(ComponentEvent); ok {
				name += " " + d.String()
			}
			got = append(got, name)
		},
	})
	r.Events().Emit(e, "unseen", nil, false) // not active: not told
	active = true
	must(t, r.Set(e, "unit", "hp: 1"))
	must(t, r.Set(e, "unit", "hp: 2"))
	r.Events().Emit(e, "hit", nil, false)
	r.Events().EmitLoaded(e)
	remove()
	r.Events().Emit(e, "after", nil, false)
	want := "componentinitialized unit|componentchanged unit|hit|loaded"
	if s := strings.Join(got, "|"); s != want {
		t.Errorf("tap saw %s\nwant %s", s, want)
	}
	// An inactive tap costs the component events nothing: a set
	// allocates as much as with no tap.
	hp := 10
	set := func() { hp++; must(t, r.Set(e, "unit", fmt.Sprintf("hp: %d", hp))) }
	without := testing.AllocsPerRun(50, set)
	active = false
	r.Events().AddTap(EventTap{Active: func() bool { return active }, Event: func(ecs.Entity, string, any) { t.Error("told while inactive") }})
	if with := testing.AllocsPerRun(50, set); with != without {
		t.Errorf("a set allocates %v times with an inactive tap, %v without", with, without)
	}
}

// TestActiveTapAllocates: an active tap costs the component events no
// allocation either: their detail is boxed once per component, and the
// same detail comes with every event of that component.
func TestActiveTapAllocates(t *testing.T) {
	w, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	e := w.NewEntity()
	must(t, r.Set(e, "unit", "hp: 1"))
	hp := 1
	set := func() { hp++; must(t, r.Set(e, "unit", fmt.Sprintf("hp: %d", hp))) }
	without := testing.AllocsPerRun(50, set)
	var details []any
	r.Events().AddTap(EventTap{Event: func(_ ecs.Entity, name string, detail any) {
		if len(details) < 2 {
			details = append(details, detail)
		}
	}})
	if with := testing.AllocsPerRun(50, set); with != without {
		t.Errorf("a set allocates %v times with an active tap, %v without", with, without)
	}
	if len(details) != 2 || details[0] != details[1] || details[0] != any(ComponentEvent{Name: "unit"}) {
		t.Errorf("details %#v", details)
	}
}

// mapValue is the Go type of a test type written as a mapping.
type mapValue struct{ keys string }

// TestParseMapSingle: a single-property component whose type has a
// ParseMap takes a mapping; its errors keep their pair and offset, and
// CheckMap places a Check error by the pair's key.
func TestParseMapSingle(t *testing.T) {
	_, r := newTestRegistry(t)
	typ := &Type{Name: "keys", GoType: reflect.TypeFor[mapValue](), Default: mapValue{},
		Parse: func(text string, _ any) (any, error) { return mapValue{text}, nil },
		Print: func(v any) string { return v.(mapValue).keys },
		Equal: func(a, b any) bool { return a == b },
		ParseMap: func(kv [][2]string, _ any) (any, error) {
			var ks []string
			for i, p := range kv {
				if strings.TrimSpace(p[0]) == "bad" {
					return nil, &AttrError{Kind: schema.UnknownProperty, Property: "bad", Text: "bad", Offset: strings.Index(p[0], "bad"), Pair: i, Expected: "a good key"}
				}
				ks = append(ks, strings.TrimSpace(p[0]))
			}
			return mapValue{strings.Join(ks, ",")}, nil
		},
	}
	must(t, r.Types().Register(typ))
	c, err := Register(r, "keyed", Definition[mapValue]{
		Check: func(_ *CheckContext, v *mapValue) error {
			if strings.Contains(v.keys, "late") {
				return &PropError{Property: "late", Text: "x", Offset: 2, Msg: "late is refused"}
			}
			return nil
		},
	})
	must(t, err)
	if !c.Schema.TakesMap() {
		t.Fatal("TakesMap is false")
	}
	p, err := c.Schema.ParseMap("keyed", [][2]string{{"a", "1"}, {" b ", "2"}})
	if err != nil || len(p) != 1 || p[0].Value.(mapValue).keys != "a,b" {
		t.Fatalf("ParseMap: %v %v", p, err)
	}
	_, err = c.Schema.ParseMap("keyed", [][2]string{{"a", "1"}, {"  bad", "2"}})
	var ae *AttrError
	if !errors.As(err, &ae) || ae.Pair != 1 || ae.Offset != 2 || ae.Component != "keyed" || ae.Kind != schema.UnknownProperty {
		t.Errorf("ParseMap error %#v", err)
	}
	kv := [][2]string{{"a", "1"}, {"late", "  1 2 3"}}
	p, err = c.Schema.ParseMap("keyed", kv)
	must(t, err)
	err = c.CheckMap(&CheckContext{Registry: r}, "keyed", kv, p)
	if !errors.As(err, &ae) || ae.Pair != 1 || ae.Offset != 4 || err.Error() != `keyed: property "late": late is refused` {
		t.Errorf("CheckMap error %v (%#v)", err, err)
	}
}
