package selector_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
	"github.com/scenecs/scenecs/selector"
)

type health struct {
	HP  int `scene:"hp,default=100"`
	Max int `scene:"max,default=100"`
}

type enemy struct{}

type pickup struct {
	Kind string `scene:"kind"`
	Tags string `scene:"tags"`
}

type sound struct {
	Volume float64 `scene:"volume,default=1"`
	Src    string  `scene:"src"`
}

// fixture is a small scene: a Registry with the built-ins and a few test
// components, and entities named by their ids.
type fixture struct {
	w   *ecs.World
	r   *registry.Registry
	ids map[string]ecs.Entity
}

func (f *fixture) name(e ecs.Entity) string {
	if id := f.r.EntityID(e); id != "" {
		return id
	}
	return e.String()
}

func (f *fixture) names(es []ecs.Entity) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = f.name(e)
	}
	return strings.Join(s, " ")
}

// add creates an entity with an id, classes (space-separated) and
// components ("name=attr" separated by '|'), as the last child of parent
// (zero: a root).
func (f *fixture) add(t testing.TB, parent ecs.Entity, id, classes, comps string) ecs.Entity {
	t.Helper()
	e := f.w.NewEntity()
	if !parent.IsZero() {
		must(t, f.w.SetParent(e, parent))
	}
	must(t, f.r.SetEntityID(e, id))
	must(t, f.r.SetClasses(e, strings.Fields(classes)))
	if comps != "" {
		for _, c := range strings.Split(comps, "|") {
			name, attr, _ := strings.Cut(c, "=")
			must(t, f.r.Set(e, name, attr))
		}
	}
	f.ids[id] = e
	return e
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newRegistry(t testing.TB) (*ecs.World, *registry.Registry) {
	t.Helper()
	w := ecs.NewWorld()
	r := registry.New(w)
	_, err := components.Register(r)
	must(t, err)
	_, err = registry.Register(r, "health", registry.Definition[health]{})
	must(t, err)
	_, err = registry.Register(r, "enemy", registry.Definition[enemy]{})
	must(t, err)
	_, err = registry.Register(r, "pickup", registry.Definition[pickup]{})
	must(t, err)
	_, err = registry.Register(r, "sound", registry.Definition[sound]{Multiple: true})
	must(t, err)
	_, err = registry.Register(r, "label", registry.Definition[string]{})
	must(t, err)
	_, err = registry.Register(r, "alive", registry.Definition[bool]{})
	must(t, err)
	_, err = registry.Register(r, "tags", registry.Definition[[]string]{})
	must(t, err)
	tag, err := schema.NewSchema(nil, r.Types())
	must(t, err)
	_, err = r.Declare("boss", tag)
	must(t, err)
	return w, r
}

// newFixture builds:
//
//	scene.root
//	  player.hero        health hp=50, position 0 1 0
//	    weapon.item      label=sword
//	    shield.item      label="Round Shield"
//	  e1.enemy.grunt     enemy, health hp=10, position 0 -1 0, alive=false
//	  e2.enemy.grunt.Boss enemy, boss, health hp=100, alive=true
//	  e3.enemy           enemy, sound__a volume=.5
//	level
//	  crate1.crate       pickup kind=ammo-small tags="red big", tags=a b
//	  crate2.crate       pickup kind=Health
//	  empty1
//
// Entities are created out of document order (weapon after shield,
// level's children before the player's).
func newFixture(t testing.TB) *fixture {
	w, r := newRegistry(t)
	f := &fixture{w: w, r: r, ids: map[string]ecs.Entity{}}
	var z ecs.Entity
	scene := f.add(t, z, "scene", "root", "")
	level := f.add(t, z, "level", "", "")
	f.add(t, level, "crate1", "crate", "pickup=kind: ammo-small; tags: red big|tags=a, b")
	f.add(t, level, "crate2", "crate", "pickup=kind: Health")
	f.add(t, level, "empty1", "", "")
	player := f.add(t, scene, "player", "hero", "health=hp: 50|position=0 1 0")
	f.add(t, player, "shield", "item", "label=Round Shield")
	weapon := f.add(t, z, "weapon", "item", "label=sword")
	must(t, w.InsertChild(player, weapon, 0))
	f.add(t, scene, "e1", "enemy grunt", "enemy=|health=hp: 10|position=0 -1 0|alive=false")
	f.add(t, scene, "e2", "enemy grunt Boss", "enemy=|boss=|health=hp: 100|alive=true")
	f.add(t, scene, "e3", "enemy", "enemy=|sound__a=volume: 0.5")
	return f
}

const docOrder = "scene player weapon shield e1 e2 e3 level crate1 crate2 empty1"

var queryTests = []struct {
	sel, want string
}{
	// Basics, document order.
	{"*", docOrder},
	{"#player", "player"},
	{"#nobody", ""},
	{"#player#e1", ""},
	{".item", "weapon shield"},
	{".enemy.grunt", "e1 e2"},
	{".Boss", "e2"},
	{".boss", ""},
	{"[enemy]", "e1 e2 e3"},
	{"[boss]", "e2"}, // a declared tag
	{"[enemy]:not([boss])", "e1 e3"},
	{"[alive]", "e1 e2"}, // false is still present
	{"[alive=false]", "e1"},
	{"[alive!=false]", "e2"},
	{"[paused]", ""},
	// Numbers.
	{"[health.hp<20]", "e1"},
	{"[health.hp<=50]", "player e1"},
	{"[health.hp>50]", "e2"},
	{"[health.hp>=10]", "player e1 e2"},
	{"[health.hp=50]", "player"},
	{"[health.hp=5e1]", "player"},
	{"[health.hp=50.0]", "player"},
	{`[health.hp="50"]`, "player"},
	{"[health.hp!=50]", "e1 e2"},
	{"[health.max=100]", "player e1 e2"}, // defaults count
	{"[health.hp]", "player e1 e2"},
	{"[health.hp>-1]", "player e1 e2"},
	{"[position.y>0]", "player"},
	{"[position.y<0]", "e1"},
	// An axis of a vector property: world (position, rotation, scale).
	{"[world.position.y<0]", "e1"},
	{"[world.position.y>=0][world.scale.x=1]", "player"},
	{"[world.position.x]:not([enemy])", "player"},
	{"[position.x=0]", "player e1"},
	// Strings, CSS meaning.
	{"[label=sword]", "weapon"},
	{"[label=SWORD]", ""},
	{"[label=SWORD i]", "weapon"},
	{"[label=SWORD s]", ""},
	{"[label^=sw]", "weapon"},
	{"[label$=ord]", "weapon"},
	{"[label*=wor]", "weapon"},
	{`[label*=" "]`, "shield"},
	{`[label^=""]`, ""},
	{`[label$=""]`, ""},
	{`[label*=""]`, ""},
	{`[label=""]`, ""},
	{`[label!=""]`, "weapon shield"},
	{"[label~=Shield]", "shield"},
	{"[label~=shield i]", "shield"},
	{`[label~="Round Shield"]`, ""},
	{`[label~=""]`, ""},
	{"[label!=sword]", "shield"},
	{"[pickup.kind|=ammo]", "crate1"},
	{"[pickup.kind|=ammo-small]", "crate1"},
	{"[pickup.kind|=amm]", ""},
	{"[pickup.kind=health]", ""},
	{"[pickup.kind=health i]", "crate2"},
	{"[pickup.tags~=big]", "crate1"},
	{"[tags~=b]", "crate1"}, // arrays read as space-separated elements
	{`[position="0 1 0"]`, "player"},
	// Multiple-instance components.
	{"[sound]", "e3"},
	{"[sound__a]", "e3"},
	{"[sound__b]", ""},
	{"[sound.volume<1]", "e3"},
	{"[sound__a.volume=0.5]", "e3"},
	{"[sound.src=\"\"]", "e3"},
	// Lists: union, document order, each once.
	{".enemy, [health]", "player e1 e2 e3"},
	{"[health], .enemy, #e1", "player e1 e2 e3"},
	{"#level, #scene", "scene level"},
	// Combinators.
	{"#scene > *", "player e1 e2 e3"},
	{"#scene [enemy]", "e1 e2 e3"},
	{".root .item", "weapon shield"},
	{".root > .item", ""},
	{"#player + *", "e1"},
	{"#player ~ [enemy]", "e1 e2 e3"},
	{"#weapon + .item", "shield"},
	{"#shield + *", ""},
	{"#scene + *", "level"}, // roots are siblings
	{"* > * > .item", "weapon shield"},
	{".hero > .item + .item", "shield"},
	{"#scene .hero ~ .grunt ~ *", "e2 e3"},
	// Logical.
	{":is(#e1, #e2)", "e1 e2"},
	{":where(.crate)", "crate1 crate2"},
	{":not(#scene *)", "scene level crate1 crate2 empty1"},
	{":not(.enemy):not(.item)", "scene player level crate1 crate2 empty1"},
	{"[health]:not([health.hp<20])", "player e2"},
	{":is([enemy], [pickup]):not([boss])", "e1 e3 crate1 crate2"},
	{":not([enemy], [health])", "scene weapon shield level crate1 crate2 empty1"},
	// Structural.
	{":root", "scene level"},
	{":scope", "scene level"},
	{":empty", "weapon shield e1 e2 e3 crate1 crate2 empty1"},
	{":first-child", "scene player weapon crate1"},
	{":last-child", "shield e3 level empty1"},
	{":only-child", ""},
	{":nth-child(2)", "shield e1 level crate2"},
	{":nth-child(odd)", "scene player weapon e2 crate1 empty1"},
	{":nth-child(2n+1 of .enemy)", "e1 e3"},
	{":nth-child(-n+2 of [health])", "player e1"},
	{":nth-last-child(1)", "shield e3 level empty1"},
	{":nth-last-child(2 of .grunt)", "e1"},
	// :has, anchored at the subject.
	{":has(> .item)", "player"},
	{":has(.item)", "scene player"},
	{":has(+ [enemy])", "player e1 e2"},
	{":has(~ #e3)", "player e1 e2"},
	{":has(> .hero > .item)", "scene"},
	{"#player:has(#scene .item)", ""}, // #scene is not inside #player
	{"#scene:has(.hero .item)", "scene"},
	{":has(.item, [pickup])", "scene player level"},
	{"[enemy]:has(+ :not([boss]))", "e2"},
	{":not(:has(*))", "weapon shield e1 e2 e3 crate1 crate2 empty1"},
}

func TestQuery(t *testing.T) {
	f := newFixture(t)
	for _, tt := range queryTests {
		want := tt.want
		s, err := selector.Compile(tt.sel, f.r)
		if err != nil {
			t.Errorf("%s: %v", tt.sel, err)
			continue
		}
		got := s.QueryAll(nil)
		if g := f.names(got); g != want {
			t.Errorf("%s:\n got %q\nwant %q\nplan %s", tt.sel, g, want, s.Explain())
			continue
		}
		// Every entry point agrees.
		if n := s.Count(); n != len(got) {
			t.Errorf("%s: Count %d, QueryAll %d", tt.sel, n, len(got))
		}
		first, ok := s.QueryFirst()
		if ok != (len(got) > 0) || ok && first != got[0] {
			t.Errorf("%s: QueryFirst %v %v", tt.sel, f.name(first), ok)
		}
		var matched []ecs.Entity
		for e := range f.w.All() {
			if s.Matches(e) {
				matched = append(matched, e)
			}
		}
		if f.names(matched) != want {
			t.Errorf("%s: Matches gives %q", tt.sel, f.names(matched))
		}
		// Through the registry's engine.
		es, err := f.r.QueryAll(tt.sel)
		if err != nil || f.names(es) != want {
			t.Errorf("%s: Registry.QueryAll %q %v", tt.sel, f.names(es), err)
		}
		// Appends to dst.
		dst := s.QueryAll([]ecs.Entity{f.ids["scene"]})
		if len(dst) != len(got)+1 || dst[0] != f.ids["scene"] {
			t.Errorf("%s: QueryAll(dst) did not append", tt.sel)
		}
	}
}

func TestQueryFrom(t *testing.T) {
	f := newFixture(t)
	tests := []struct{ scope, sel, want string }{
		{"player", ":scope > .item", "weapon shield"},
		{"player", ".item", "weapon shield"},
		{"player", "*", "weapon shield"},
		{"scene", "[enemy]", "e1 e2 e3"},
		{"scene", ":scope > * > *", "weapon shield"},
		{"scene", ".root .item", "weapon shield"}, // the scope itself may match outer steps
		{"player", "#scene .item", "weapon shield"},
		{"level", ":scope", ""}, // only descendants
		{"level", ":first-child, :last-child", "crate1 empty1"},
		{"e1", "*", ""},
	}
	for _, tt := range tests {
		s := selector.MustCompile(tt.sel, f.r)
		got := s.QueryFrom(f.ids[tt.scope], nil)
		if g := f.names(got); g != tt.want {
			t.Errorf("QueryFrom(%s, %q) = %q, want %q", tt.scope, tt.sel, g, tt.want)
		}
	}
}

// TestLive keeps compiled selectors and checks they follow the World:
// values, components, entities, instances, ids and classes changing.
func TestLive(t *testing.T) {
	f := newFixture(t)
	low := selector.MustCompile("[health.hp<20]", f.r)
	snd := selector.MustCompile("[sound]", f.r)
	sndB := selector.MustCompile("[sound__b]", f.r)
	grunt := selector.MustCompile(".grunt", f.r)
	byID := selector.MustCompile("#hero2", f.r)
	notBoss := selector.MustCompile("[enemy]:not([boss])", f.r)
	check := func(s *selector.Selector, want string) {
		t.Helper()
		if got := f.names(s.QueryAll(nil)); got != want {
			t.Errorf("%s = %q, want %q", s, got, want)
		}
	}
	check(low, "e1")
	must(t, f.r.Set(f.ids["e2"], "health", "hp: 5"))
	check(low, "e1 e2")
	must(t, f.w.Destroy(f.ids["e1"]))
	check(low, "e2")
	check(grunt, "e2")
	n := f.add(t, f.ids["level"], "new", "grunt", "health=hp: 1")
	check(low, "e2 new")
	check(grunt, "e2 new")
	// Values written through a Go pointer are seen too.
	hc, _ := f.r.Component("health")
	p, err := f.w.GetPtr(n, hc.ID)
	must(t, err)
	(*health)(p).HP = 99
	check(low, "e2")
	// New instances of a multiple component, registered after compiling.
	check(snd, "e3")
	check(sndB, "")
	must(t, f.r.Set(f.ids["crate2"], "sound__b", "volume: 2"))
	check(snd, "e3 crate2")
	check(sndB, "crate2")
	must(t, f.r.Remove(f.ids["e3"], "sound__a"))
	check(snd, "crate2")
	// Components removed and added.
	must(t, f.r.Remove(f.ids["e2"], "boss"))
	check(notBoss, "e2 e3")
	must(t, f.r.Set(f.ids["e3"], "boss", ""))
	check(notBoss, "e2")
	// Ids and classes.
	check(byID, "")
	must(t, f.r.SetEntityID(f.ids["player"], "hero2"))
	check(byID, "hero2")
	if err := f.r.SetEntityID(f.ids["e2"], "hero2"); err == nil {
		t.Error("duplicate id accepted")
	}
	must(t, f.r.SetClasses(f.ids["e2"], nil))
	check(grunt, "new")
	must(t, f.w.Destroy(f.ids["player"]))
	check(byID, "")
	if _, ok := f.r.EntityByID("hero2"); ok {
		t.Error("destroyed entity's id kept")
	}
	// Reparenting changes document order.
	must(t, f.w.InsertChild(ecs.Entity{}, f.ids["level"], 0))
	check(selector.MustCompile("*", f.r), "level crate1 crate2 empty1 new scene e2 e3")
}

func TestCompileErrors(t *testing.T) {
	_, r := newRegistry(t)
	tests := []struct{ sel, err string }{
		{"[helth]", `selector:1:1: unknown component "helth" (did you mean "health"?)`},
		{".a > [helth__2]", `selector:1:6: unknown component "helth" (did you mean "health"?)`},
		{"[health__2]", `selector:1:1: component "health" is not multiple: instance name "health__2" is not allowed`},
		{".a [health.hp~=3]", `selector:1:4: operator ~= does not apply to health.hp (a int); use = != < <= > >=`},
		{"[health.hp^=3]", `selector:1:1: operator ^= does not apply to health.hp (a int); use = != < <= > >=`},
		{"[label<3]", `selector:1:1: operator < needs a numeric property; label is a string`},
		{"[health.hp=abc]", `selector:1:1: health.hp is a int: cannot compare it with "abc"`},
		{"[health.hp=1 i]", `selector:1:1: flag i does not apply to health.hp (a int): it compares as a number`},
		{"[health=5]", `selector:1:1: component "health" has several properties (hp, max): compare one, as in [health.hp=...]`},
		{"[enemy=1]", `selector:1:1: component "enemy" is a tag: it has no value to compare`},
		{"[health.hpp]", `selector:1:1: component "health" has no property "hpp" (did you mean "hp"?)`},
		{"[position.q>1]", `selector:1:1: component "position" (a vec3) has no property "q"`},
		{"[health.hp.x>1]", `selector:1:1: property "hp" of component "health" (a int) has no axis "x"`},
		{"[world.position.q>1]", `selector:1:1: property "position" of component "world" (a vec3) has no axis "q"`},
		{"[world.positon.y>1]", `selector:1:1: component "world" has no property "positon" (did you mean "position"?)`},
		{"[position>1]", `selector:1:1: operator > needs a numeric property; position is a vec3`},
		{"[alive=yes]", `selector:1:1: alive is a boolean: compare it with true or false, not "yes"`},
		{"[alive<1]", `selector:1:1: operator < does not apply to alive (a boolean); use = or !=`},
		{":not(.a, [x])", `selector:1:10: unknown component "x"`},
		{":has(> [health.hp*=1])", `selector:1:8: operator *= does not apply to health.hp (a int); use = != < <= > >=`},
		{"[a", `selector:1:3: expected ']' to close attribute selector`},
	}
	for _, tt := range tests {
		_, err := selector.Compile(tt.sel, r)
		if fmt.Sprint(err) != tt.err {
			t.Errorf("%s:\n got %v\nwant %s", tt.sel, err, tt.err)
			continue
		}
		var se *selector.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: %T is not *selector.Error", tt.sel, err)
		}
		// An unknown component is the Source's typed error, kept in the
		// chain; syntax errors wrap nothing.
		var uc *registry.UnknownComponentError
		if errors.As(err, &uc) != strings.Contains(tt.err, "unknown component") {
			t.Errorf("%s: errors.As *registry.UnknownComponentError = %v", tt.sel, uc)
		}
		if strings.Contains(tt.err, "expected ']'") && se.Err != nil {
			t.Errorf("%s: a syntax error wraps %v", tt.sel, se.Err)
		}
		// The registry's engine reports the same.
		if _, err := r.QueryAll(tt.sel); fmt.Sprint(err) != tt.err {
			t.Errorf("%s: Registry.QueryAll error %v", tt.sel, err)
		}
	}
}

// TestNoBacktracking runs `.b .a .a ...` over a 40-deep chain of `.a`
// entities with no `.b` anywhere: a backtracking matcher takes seconds.
func TestNoBacktracking(t *testing.T) {
	w, r := newRegistry(t)
	var parent ecs.Entity
	for range 40 {
		e := w.NewEntity()
		if !parent.IsZero() {
			must(t, w.SetParent(e, parent))
		}
		must(t, r.SetClasses(e, []string{"a"}))
		parent = e
	}
	s := selector.MustCompile(".b .a .a .a .a .a .a .a .a", r)
	s.QueryAll(nil) // warm the caches
	start := time.Now()
	got := s.QueryAll(nil)
	d := time.Since(start)
	if len(got) != 0 {
		t.Fatalf("matched %d", len(got))
	}
	if d > 20*time.Millisecond { // typically ~0.05 ms; generous for -race
		t.Errorf("took %v", d)
	}
	s2 := selector.MustCompile(".a .a .a .a .a .a .a .a .a", r)
	if n := len(s2.QueryAll(nil)); n != 32 {
		t.Errorf(".a x9 matched %d, want 32", n)
	}
	s3 := selector.MustCompile(":has(.a .a .a .a .a .a .a .a .b)", r)
	if n := len(s3.QueryAll(nil)); n != 0 {
		t.Errorf(":has matched %d", n)
	}
}

// TestTableLevel checks that pure component tests compile to masks.
func TestTableLevel(t *testing.T) {
	_, r := newRegistry(t)
	tests := []struct{ sel, plan string }{
		{"[enemy]:not([alive])", `{mask[has("enemy") not-mask({mask[has("alive")] ent[]})] ent[]}`},
		{"[health.hp<20]", `{mask[has("health")] ent[value("health.hp" int < 20)]}`},
		{"#a.b", `{anchor-id("a") mask[] ent[id("a") class("b")]}`},
		{".a > .b", `{anchor-class("b") mask[] ent[class("b")]} <child> {anchor-class("a") mask[] ent[class("a")]}`},
	}
	for _, tt := range tests {
		s := selector.MustCompile(tt.sel, r)
		if got := s.Explain(); got != tt.plan {
			t.Errorf("%s:\n got %s\nwant %s", tt.sel, got, tt.plan)
		}
	}
}

// TestMatcher checks that the default engine gives *selector.Selector and
// that system selectors and Resolve work with it.
func TestMatcher(t *testing.T) {
	f := newFixture(t)
	e, ok, err := f.r.Resolve(registry.SelectorText("#e2"))
	if err != nil || !ok || e != f.ids["e2"] {
		t.Fatalf("Resolve %v %v %v", e, ok, err)
	}
	es, err := f.r.QueryAll(string(registry.SelectorAllText(".item")))
	if err != nil || f.names(es) != "weapon shield" {
		t.Fatalf("ResolveAll %v %v", f.names(es), err)
	}
	s, err := f.r.Compile("[enemy]")
	must(t, err)
	if !s.Matches(f.ids["e1"]) || s.Matches(f.ids["player"]) {
		t.Error("Matches")
	}
	if got := f.r.Classes(f.ids["e2"]); !reflect.DeepEqual(got, []string{"enemy", "grunt", "Boss"}) {
		t.Errorf("Classes %v", got)
	}
}

// FuzzCompile checks that every selector that compiles prints (String)
// to text that compiles to the same plan.
func FuzzCompile(f *testing.F) {
	for _, tt := range queryTests {
		f.Add(tt.sel)
	}
	f.Add("[health.hp=1e400]")
	f.Add(`[label="a\"b" i]`)
	f.Add(":nth-child(-2n-3 of .a, #b)")
	for _, src := range chainSeeds {
		f.Add(src)
	}
	_, r := newRegistry(f)
	f.Fuzz(func(t *testing.T, src string) {
		s, err := selector.Compile(src, r)
		if err != nil {
			var se *selector.Error
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(src)+1 {
				t.Fatalf("%q: bad error %v", src, err)
			}
			return
		}
		text := s.String()
		s2, err := selector.Compile(text, r)
		if err != nil {
			t.Fatalf("%q printed as %q, which fails: %v", src, text, err)
		}
		if a, b := s.Explain(), s2.Explain(); a != b {
			t.Fatalf("%q printed as %q: plans differ:\n%s\n%s", src, text, a, b)
		}
	})
}

// TestSharedDocOrderIndex: the selectors compiled against a Registry share
// one document-order index, however they were compiled; a Source that
// does not offer one gets an index per selector.
func TestSharedDocOrderIndex(t *testing.T) {
	f := newFixture(t)
	a := selector.MustCompile("[enemy]", f.r)
	b, err := f.r.Compile(".item")
	must(t, err)
	if !selector.SharesIndex(a, b) {
		t.Error("two selectors over one Registry do not share the index")
	}
	plain := struct{ selector.Source }{f.r}
	c := selector.MustCompile("[enemy]", plain)
	d := selector.MustCompile("[enemy]", plain)
	if selector.SharesIndex(a, c) || selector.SharesIndex(c, d) {
		t.Error("selectors over a Source without a shared index share one")
	}
	// Sharing changes nothing in the results.
	if got, want := f.names(c.QueryAll(nil)), f.names(a.QueryAll(nil)); got != want {
		t.Errorf("QueryAll over the plain Source = %s, want %s", got, want)
	}
}
