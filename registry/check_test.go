package registry

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry/schema"
)

// checked is a component whose Check refuses a "bad" in any property,
// pointing at it inside the property's value.
type checked struct {
	A string `scene:"a"`
	B string `scene:"b"`
	N int    `scene:"n"`
}

func registerChecked(t testing.TB, r *Registry) *Component {
	t.Helper()
	c, err := Register(r, "checked", Definition[checked]{
		Multiple: true,
		Check: func(cx *CheckContext, v *checked) error {
			if _, ok := cx.Schema("checked"); !ok {
				return errors.New("no schema")
			}
			if v.N < 0 {
				return errors.New("a plain error")
			}
			for _, p := range []struct{ name, v string }{{"a", v.A}, {"b", v.B}} {
				if i := strings.Index(p.v, "bad"); i >= 0 {
					return &PropError{Property: p.name, Text: "bad", Offset: i, Expected: "anything but bad"}
				}
			}
			return nil
		},
	})
	must(t, err)
	return c
}

func checkCx(r *Registry) *CheckContext {
	return &CheckContext{Registry: r, Schema: func(n string) (*Schema, bool) {
		c, ok := r.Component(n)
		if !ok {
			return nil, false
		}
		return c.Schema, true
	}}
}

// TestCheckAttr: a PropError of a Check hook becomes an AttrError whose
// offset is where the property's value says the offending text, in the
// last pair naming the property (the one that counts), whatever the
// spacing, hyphen-case, url(...) with ';' inside, or empty chunks
// before it.
func TestCheckAttr(t *testing.T) {
	_, r := newTestRegistry(t)
	c := registerChecked(t, r)
	if !c.HasCheck() {
		t.Fatal("HasCheck false")
	}
	for _, tc := range []struct{ text, at string }{
		{"a: bad", "a: |bad"},
		{"  a :   xbad  ", "  a :   x|bad  "},
		{"b: ok; a: url(x;y) bad", "b: ok; a: url(x;y) |bad"},
		{"a: bad; a: also bad", "a: bad; a: also |bad"},
		{";;a: bad;;", ";;a: |bad;;"},
		{"n: 1; b: (bad)", "n: 1; b: (|bad)"},
	} {
		p, err := c.Schema.ParseAttr("checked__x", tc.text)
		must(t, err)
		err = c.CheckAttr(checkCx(r), "checked__x", tc.text, p)
		var ae *AttrError
		if !errors.As(err, &ae) {
			t.Fatalf("%q: %v", tc.text, err)
		}
		want := strings.Index(tc.at, "|")
		if ae.Offset != want || ae.Text != "bad" || ae.Kind != schema.InvalidValue || ae.Component != "checked__x" || ae.Pair != -1 {
			t.Errorf("%q: %+v, want offset %d", tc.text, ae, want)
		}
		if !strings.Contains(err.Error(), `checked__x: property "`) || !strings.HasSuffix(err.Error(), `invalid value "bad": expected anything but bad`) {
			t.Errorf("message: %v", err)
		}
	}
	// Not written in text (a default, here): offset 0.
	p := Patch{{Index: 0, Value: "bad"}}
	if err := c.CheckAttr(checkCx(r), "checked", "b: 1", p); err == nil || err.(*AttrError).Offset != 0 {
		t.Errorf("a value text does not give: %v", err)
	}
	// Other errors pass through; good data passes.
	p, _ = c.Schema.ParseAttr("checked", "n: -1")
	if err := c.CheckAttr(checkCx(r), "checked", "n: -1", p); err == nil || err.Error() != "a plain error" {
		t.Errorf("plain error: %v", err)
	}
	p, _ = c.Schema.ParseAttr("checked", "a: good")
	if err := c.CheckAttr(checkCx(r), "checked", "a: good", p); err != nil {
		t.Errorf("good data: %v", err)
	}
}

// TestCheckAttrRandom builds attribute strings of random pairs, spacing
// and repeats, and checks that the error lands on the "bad" of the last
// pair that gives the refused property.
func TestCheckAttrRandom(t *testing.T) {
	_, r := newTestRegistry(t)
	c := registerChecked(t, r)
	rnd := rand.New(rand.NewSource(1))
	sp := func() string { return strings.Repeat(" ", rnd.Intn(3)) }
	for range 2000 {
		var b strings.Builder
		last := map[string]int{}
		for k := rnd.Intn(5) + 1; k > 0; k-- {
			key := []string{"a", "b", "n"}[rnd.Intn(3)]
			b.WriteString(sp() + key + sp() + ":" + sp())
			switch {
			case key == "n":
				b.WriteString("7")
			case rnd.Intn(2) == 0:
				b.WriteString("x")
				last[key] = b.Len()
				b.WriteString("bad")
			default:
				b.WriteString("url(;)")
				delete(last, key)
			}
			b.WriteString(sp() + strings.Repeat(";", rnd.Intn(2)+1))
		}
		text := b.String()
		p, err := c.Schema.ParseAttr("checked", text)
		must(t, err)
		err = c.CheckAttr(checkCx(r), "checked", text, p)
		want, ok := last["a"]
		if !ok {
			want, ok = last["b"]
		}
		if !ok {
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			continue
		}
		if ae, _ := err.(*AttrError); ae == nil || ae.Offset != want {
			t.Fatalf("%q: %v (offset %v), want %d", text, err, ae, want)
		}
	}
}

// TestCheckMap: in a mapping, the pair giving the property (the last)
// and the offset in its value (trimmed).
func TestCheckMap(t *testing.T) {
	_, r := newTestRegistry(t)
	c := registerChecked(t, r)
	kv := [][2]string{{"b", "ok"}, {" a", "  xbad"}, {"n", "2"}, {"a ", " ybad"}}
	p, err := c.Schema.ParseMap("checked", kv)
	must(t, err)
	err = c.CheckMap(checkCx(r), "checked", kv, p)
	ae, ok := err.(*AttrError)
	if !ok || ae.Pair != 3 || ae.Offset != 2 || ae.Property != "a" {
		t.Errorf("%v: %+v", err, ae)
	}
	p = Patch{{Index: 1, Value: "bad"}}
	if ae, _ := c.CheckMap(checkCx(r), "checked", [][2]string{{"a", "x"}}, p).(*AttrError); ae == nil || ae.Pair != -1 || ae.Offset != 0 {
		t.Errorf("a property the mapping does not give: %+v", ae)
	}
	// A component without a Check checks nothing.
	plain, err := Register(r, "plain", Definition[checked]{})
	must(t, err)
	if plain.HasCheck() || plain.CheckAttr(checkCx(r), "plain", "a: bad", Patch{{Index: 0, Value: "bad"}}) != nil {
		t.Error("a component without Check refused data")
	}
	cx := &CheckContext{Registry: r}
	if got := cx.ComponentNames(); len(got) != 2 {
		t.Errorf("ComponentNames without Names: %v", got)
	}
	cx.Names = func() []string { return []string{"x"} }
	if got := cx.ComponentNames(); len(got) != 1 {
		t.Errorf("ComponentNames with Names: %v", got)
	}
}

// TestPropErrorQuotesShort: a Check hook's refusal of a long text (a
// value of 1 MiB) quotes its start and its length on one short line.
func TestPropErrorQuotesShort(t *testing.T) {
	long := strings.Repeat("b", 1<<20)
	msg := (&PropError{Property: "a", Text: long, Expected: "anything shorter"}).Error()
	if len(msg) > 300 || !strings.HasPrefix(msg, `property "a": invalid value "bbbb`) || !strings.HasSuffix(msg, `…" (1048576 bytes): expected anything shorter`) {
		t.Errorf("%.400s (%d bytes)", msg, len(msg))
	}
}
