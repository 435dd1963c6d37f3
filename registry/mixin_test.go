package registry

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry/schema"
)

// mixinRegistry returns a Registry with the unit and sound components and
// mixins defined from attribute text: "id: mixin ids | comp=attr | ...".
func mixinRegistry(t *testing.T, defs ...string) (*ecs.World, *Registry) {
	t.Helper()
	w, r := newTestRegistry(t)
	_, err := Register(r, "unit", Definition[lcUnit]{})
	must(t, err)
	_, err = Register(r, "sound", Definition[lcSound]{Multiple: true})
	must(t, err)
	for _, d := range defs {
		r.Mixins().Define(parseMixin(t, r, d))
	}
	return w, r
}

func parseMixin(t *testing.T, r *Registry, def string) *Mixin {
	t.Helper()
	parts := strings.Split(def, "|")
	id, subs, _ := strings.Cut(parts[0], ":")
	m := &Mixin{ID: strings.TrimSpace(id), Mixins: strings.Fields(subs)}
	m.Components = namedPatches(t, r, parts[1:]...)
	return m
}

func namedPatches(t *testing.T, r *Registry, comps ...string) []NamedPatch {
	t.Helper()
	var out []NamedPatch
	for _, c := range comps {
		name, attr, _ := strings.Cut(strings.TrimSpace(c), "=")
		comp, _, err := r.Lookup(name)
		must(t, err)
		p, err := comp.Schema.ParseAttr(name, attr)
		must(t, err)
		out = append(out, NamedPatch{Name: name, Patch: p})
	}
	return out
}

func mixinIDs(ms []*Mixin) string {
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	return strings.Join(ids, " ")
}

// TestExpandMixins checks nested expansion (parts before the mixin listing
// them), duplicates, cycles and unknown ids.
func TestExpandMixins(t *testing.T) {
	_, r := mixinRegistry(t,
		"foo: bar", "bar: qaz qux", "baz:", "qaz:", "qux:",
		"left: shared", "right: shared", "shared:",
		"a: b", "b: c", "c: a", "self: self",
		"broken: nowhere",
	)
	tests := []struct {
		ids  string
		want string
		err  string
	}{
		// A-Frame's example: mixin="baz foo" with foo -> bar, bar -> qaz qux.
		{ids: "baz foo", want: "baz qaz qux bar foo"},
		{ids: "", want: ""},
		{ids: "qux", want: "qux"},
		// A shared part is kept at its first place, so each mixin still
		// beats its parts.
		{ids: "left right", want: "shared left right"},
		{ids: "foo bar", want: "qaz qux bar foo"},
		{ids: "baz qux baz", want: "baz qux"},
		{ids: "a", err: "mixin cycle: a -> b -> c -> a"},
		{ids: "qux c", err: "mixin cycle: c -> a -> b -> c"},
		{ids: "self", err: "mixin cycle: self -> self"},
		{ids: "fo", err: `unknown mixin "fo" (did you mean "foo"?)`},
		{ids: "zzzzzzzz", err: `unknown mixin "zzzzzzzz"`},
		{ids: "broken", err: `mixin "broken": unknown mixin "nowhere"`},
	}
	for _, tt := range tests {
		ms, err := r.Mixins().Expand(strings.Fields(tt.ids))
		if tt.err != "" {
			if fmt.Sprint(err) != tt.err || ms != nil {
				t.Errorf("ExpandMixins(%q) = %v, %v; want error %q", tt.ids, mixinIDs(ms), err, tt.err)
			}
			continue
		}
		if err != nil || mixinIDs(ms) != tt.want {
			t.Errorf("ExpandMixins(%q) = %q, %v; want %q", tt.ids, mixinIDs(ms), err, tt.want)
		}
	}
	if _, ok := r.Mixins().Get("foo"); !ok {
		t.Error("Mixin(foo)")
	}
	r.Mixins().Remove("foo")
	if _, ok := r.Mixins().Get("foo"); ok {
		t.Error("RemoveMixin(foo)")
	}
}

// TestComposePrecedence checks per-property precedence: the entity beats
// the right-most mixin, which beats those to its left, which beat the
// defaults; properties from different sources merge.
func TestComposePrecedence(t *testing.T) {
	defs := []string{
		"red:| unit=name: red; hp: 10",
		"blue:| unit=name: blue",
		"far:| unit=pos: 9 9 9",
		"loud:| sound__a=volume: 2",
		"base:| unit=hp: 1; name: base",
		"derived: base | unit=name: derived",
	}
	tests := []struct {
		mixins string
		own    []string
		want   map[string]string // component -> Attr
	}{
		{"red blue", nil, map[string]string{"unit": "hp: 10; name: blue; pos: 0 1 0"}},
		{"blue red", nil, map[string]string{"unit": "hp: 10; name: red; pos: 0 1 0"}},
		{"red blue", []string{"unit=name: green"}, map[string]string{"unit": "hp: 10; name: green; pos: 0 1 0"}},
		{"red far", []string{"unit=hp: 3"}, map[string]string{"unit": "hp: 3; name: red; pos: 9 9 9"}},
		{"", []string{"unit=hp: 3"}, map[string]string{"unit": "hp: 3; name: grunt; pos: 0 1 0"}},
		{"derived", nil, map[string]string{"unit": "hp: 1; name: derived; pos: 0 1 0"}},
		{"loud", []string{"sound__b=src: b.ogg"}, map[string]string{
			"sound__a": "src: ; volume: 2; plays: 0",
			"sound__b": "src: b.ogg; volume: 1; plays: 0",
		}},
	}
	for _, tt := range tests {
		w, r := mixinRegistry(t, defs...)
		own := namedPatches(t, r, tt.own...)
		ms, err := r.Mixins().Expand(strings.Fields(tt.mixins))
		must(t, err)
		composed := r.Mixins().Compose(ms, own)
		if len(composed) != len(tt.want) {
			t.Errorf("%q + %q: composed %d components, want %d", tt.mixins, tt.own, len(composed), len(tt.want))
		}
		e, err := r.Mixins().Instantiate(ecs.Entity{}, strings.Fields(tt.mixins), own)
		must(t, err)
		for name, want := range tt.want {
			if got, err := r.Attr(e, name); err != nil || got != want {
				t.Errorf("%q + %q: %s = %q, %v; want %q", tt.mixins, tt.own, name, got, err, want)
			}
		}
		if _, ok := w.Parent(e); ok {
			t.Error("Instantiate with a zero parent made a child")
		}
	}
}

// TestComposeDoesNotAlias checks that Compose copies patches: composing
// twice does not change the mixins.
func TestComposeDoesNotAlias(t *testing.T) {
	_, r := mixinRegistry(t, "red:| unit=name: red; hp: 10")
	m, _ := r.Mixins().Get("red")
	own := namedPatches(t, r, "unit=name: green")
	_ = r.Mixins().Compose([]*Mixin{m}, own)
	if got := m.Components[0].Patch[0].Value; got != "red" {
		t.Errorf("mixin changed by Compose: %v", got)
	}
}

// TestInstantiate checks parenting, dependency order with given data, and
// the failure paths.
func TestInstantiate(t *testing.T) {
	w, r := newTestRegistry(t)
	rec := &recorder{}
	for _, n := range []struct{ name, dep string }{{"base", ""}, {"top", "base"}} {
		d := Definition[lcTicker]{
			Init: func(c *Context, v *lcTicker) { rec.add("init %s %d", c.Name, v.N) },
			Update: func(c *Context, v, old *lcTicker) {
				rec.add("update %s %d->%d", c.Name, old.N, v.N)
			},
		}
		if n.dep != "" {
			d.Dependencies = []string{n.dep}
		}
		_, err := Register(r, n.name, d)
		must(t, err)
	}
	r.Mixins().Define(&Mixin{ID: "m", Components: namedPatches(t, r, "top=n: 1", "base=n: 2")})
	parent := w.NewEntity()
	e, err := r.Mixins().Instantiate(parent, []string{"m"}, nil)
	must(t, err)
	// base is given by the mixin after top, yet initialised first with
	// its data: no init with defaults followed by an update.
	if got, want := rec.take(), "init base 2 | update base 0->2 | init top 1 | update top 0->1"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if p, ok := w.Parent(e); !ok || p != parent {
		t.Errorf("parent %v %v", p, ok)
	}

	n := w.Len()
	if _, err := r.Mixins().Instantiate(parent, []string{"nope"}, nil); fmt.Sprint(err) != `unknown mixin "nope"` {
		t.Errorf("unknown mixin: %v", err)
	}
	r.Mixins().Define(&Mixin{ID: "ghost", Components: []NamedPatch{{Name: "ghost"}}})
	if _, err := r.Mixins().Instantiate(parent, []string{"ghost"}, nil); fmt.Sprint(err) != `unknown component "ghost"` {
		t.Errorf("unknown component: %v", err)
	}
	bad := []NamedPatch{{Name: "top", Patch: Patch{{Index: 5, Value: 1}}}}
	if _, err := r.Mixins().Instantiate(parent, nil, bad); fmt.Sprint(err) != "registry: set top: property index 5 out of range" {
		t.Errorf("bad patch: %v", err)
	}
	dead := w.NewEntity()
	must(t, w.Destroy(dead))
	if _, err := r.Mixins().Instantiate(dead, nil, nil); err == nil {
		t.Error("Instantiate under a dead parent succeeded")
	}
	if w.Len() != n {
		t.Errorf("failed Instantiate left entities behind: %d, want %d", w.Len(), n)
	}
	// Precedence holds on the instance data, not just on Compose.
	if got := mustValues(t, r, e, "top"); !reflect.DeepEqual(got, []any{1}) {
		t.Errorf("top %v", got)
	}
}

// chainMixins defines n mixins m0 .. m(n-1), each listing the next; with
// cycleTo >= 0 the last lists m(cycleTo), closing a cycle.
func chainMixins(r *Registry, n, cycleTo int) {
	for i := range n {
		m := &Mixin{ID: fmt.Sprintf("m%d", i)}
		switch {
		case i+1 < n:
			m.Mixins = []string{fmt.Sprintf("m%d", i+1)}
		case cycleTo >= 0:
			m.Mixins = []string{fmt.Sprintf("m%d", cycleTo)}
		}
		r.Mixins().Define(m)
	}
}

// TestExpandMixinsLongChains: expansion is linear in the mixins reached,
// whatever the nesting: chains of tens of thousands expand at once, in
// order (the deepest part first), without deep recursion.
func TestExpandMixinsLongChains(t *testing.T) {
	for _, n := range []int{10_000, 100_000} {
		_, r := newTestRegistry(t)
		chainMixins(r, n, -1)
		start := time.Now()
		ms, err := r.Mixins().Expand([]string{"m0", "m5", "m0"})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("chain of %d: %v", n, d)
		}
		if len(ms) != n || ms[0].ID != fmt.Sprintf("m%d", n-1) || ms[n-1].ID != "m0" {
			t.Errorf("chain of %d: %d mixins, first %s, last %s", n, len(ms), ms[0].ID, ms[len(ms)-1].ID)
		}
	}
}

// TestMixinCyclesEveryLength: a cycle of any length, entered from its
// start or from a chain leading into it, is one error naming the cycle
// only, shortened in the middle when long; CheckMixins over every mixin
// reports it once.
func TestMixinCyclesEveryLength(t *testing.T) {
	lengths := []int{1, 2, 3, 5, 6, 7, 8, 13, 100, 2000, 10_000}
	for _, n := range lengths {
		for _, lead := range []int{0, 3} {
			_, r := newTestRegistry(t)
			// m0 .. m(lead-1) lead into the cycle m(lead) .. m(lead+n-1).
			chainMixins(r, lead+n, lead)
			start := time.Now()
			_, err := r.Mixins().Expand([]string{"m0"})
			var me *MixinError
			if !errors.As(err, &me) || len(me.Cycle) != n || me.Cycle[0] != fmt.Sprintf("m%d", lead) {
				t.Fatalf("cycle %d after %d: %v", n, lead, err)
			}
			msg := err.Error()
			if n <= 6 {
				want := "mixin cycle: "
				for i := range n {
					want += fmt.Sprintf("m%d -> ", lead+i)
				}
				want += fmt.Sprintf("m%d", lead)
				if msg != want {
					t.Errorf("cycle %d: %q, want %q", n, msg, want)
				}
			} else {
				want := fmt.Sprintf("mixin cycle of %d mixins: m%d -> m%d -> m%d -> ... -> m%d -> m%d -> m%d",
					n, lead, lead+1, lead+2, lead+n-2, lead+n-1, lead)
				if msg != want {
					t.Errorf("cycle %d: %q, want %q", n, msg, want)
				}
			}
			var reports []*MixinError
			ids := make([]string, lead+n)
			for i := range ids {
				ids[i] = fmt.Sprintf("m%d", i)
			}
			schema.CheckMixins(ids, r.lookupMixin, func(e *MixinError) { reports = append(reports, e) })
			if len(reports) != 1 || len(reports[0].Cycle) != n {
				t.Errorf("cycle %d after %d: CheckMixins reported %d problems", n, lead, len(reports))
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("cycle %d: %v", n, d)
			}
		}
	}
}

// TestCheckMixins: every problem of a set of mixins once each: unknown ids
// per listing mixin, each of several cycles, nothing for shared parts.
func TestCheckMixins(t *testing.T) {
	_, r := mixinRegistry(t,
		"a: b", "b: a", // cycle 1
		"c: d", "d: e", "e: c", // cycle 2
		"f: a c",                 // leads into both
		"g: ghost", "h: ghost g", // unknown, listed twice
		"top: left right", "left: base", "right: base", "base:", // diamond
	)
	var got []string
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h", "top", "left", "right", "base", "nowhere"}
	schema.CheckMixins(ids, r.lookupMixin, func(e *MixinError) { got = append(got, e.Error()) })
	want := []string{
		"mixin cycle: a -> b -> a",
		"mixin cycle: c -> d -> e -> c",
		`mixin "g": unknown mixin "ghost"`,
		`mixin "h": unknown mixin "ghost"`,
		`unknown mixin "nowhere"`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CheckMixins reported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A wide DAG (each mixin listing every earlier one) is checked in
	// time linear in its edges.
	_, r2 := newTestRegistry(t)
	const n = 1500
	all := make([]string, n)
	for i := range n {
		all[i] = fmt.Sprintf("w%d", i)
		r2.Mixins().Define(&Mixin{ID: all[i], Mixins: slices.Clone(all[:i])})
	}
	schema.CheckMixins(all, r2.lookupMixin, func(e *MixinError) { t.Errorf("wide DAG: %v", e) })
	ms, err := r2.Mixins().Expand(all[n-1:])
	if err != nil || len(ms) != n || ms[0].ID != "w0" {
		t.Errorf("wide DAG expansion: %d mixins, %v", len(ms), err)
	}
}
