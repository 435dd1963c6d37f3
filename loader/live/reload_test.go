package live

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

type reloadEnv struct {
	t     *testing.T
	reg   *registry.Registry
	b     *components.Builtins
	scene *Scene
	log   []string
	// olds records, per update hook call, "id old.HP->new.HP".
	olds []string
}

type hp struct {
	HP  int `scene:"hp,default=100"`
	Max int `scene:"max,default=100"`
}

func newReloadEnv(t *testing.T, src string) *reloadEnv {
	t.Helper()
	w := ecs.NewWorld()
	reg := registry.New(w)
	b, err := components.Register(reg)
	if err != nil {
		t.Fatal(err)
	}
	env := &reloadEnv{t: t, reg: reg, b: b}
	_, err = registry.Register[hp](reg, "health", registry.Definition[hp]{
		Init: func(c *registry.Context, v *hp) { env.log = append(env.log, "init "+reg.EntityID(c.Entity)) },
		Update: func(c *registry.Context, v, old *hp) {
			env.log = append(env.log, "update "+reg.EntityID(c.Entity))
			env.olds = append(env.olds, fmt.Sprintf("%s %d->%d", reg.EntityID(c.Entity), old.HP, v.HP))
		},
		Remove: func(c *registry.Context, v *hp) { env.log = append(env.log, "remove "+reg.EntityID(c.Entity)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	env.scene, err = LoadBytes(reg, "scene.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func (env *reloadEnv) reload(src string) (*Diff, error) {
	env.t.Helper()
	doc, err := scenefile.Read("scene.yaml", []byte(src), scenefile.Limits{})
	if err != nil {
		return nil, err
	}
	return env.scene.Reload(doc)
}

func (env *reloadEnv) mustReload(src string) *Diff {
	env.t.Helper()
	d, err := env.reload(src)
	if err != nil {
		env.t.Fatalf("reload: %v", err)
	}
	return d
}

func (env *reloadEnv) entity(id string) ecs.Entity {
	env.t.Helper()
	e, ok := env.reg.EntityByID(id)
	if !ok {
		env.t.Fatalf("no entity #%s", id)
	}
	return e
}

func (env *reloadEnv) dump() string {
	var b bytes.Buffer
	if err := export.WriteJSON(&b, env.reg, export.Options{}); err != nil {
		env.t.Fatal(err)
	}
	return b.String()
}

const base = `
mixins:
  rock: {velocity: 0 1 0, health: "hp: 30"}
entities:
  - id: a
    position: 0 0 0
    velocity: 1 0 0
    health: "hp: 50"
  - id: b
    mixin: rock
    position: 5 0 0
  - class: anon
    position: 9 9 9
`

func TestReloadKeepsRuntimeState(t *testing.T) {
	env := newReloadEnv(t, base)
	env.reg.Tick(1) // physics moves a by velocity
	a := env.entity("a")
	moved := *env.b.Position.Get(a)
	if moved.X == 0 {
		t.Fatal("physics did not run")
	}
	// Unrelated edit: b's position.
	d := env.mustReload(strings.Replace(base, "position: 5 0 0", "position: 6 0 0", 1))
	if got := d.Summary(); got != "+0 -0 ~1" {
		t.Fatalf("summary %q\n%s", got, d)
	}
	if p := *env.b.Position.Get(a); p != moved {
		t.Fatalf("a moved by reload: %v, want %v", p, moved)
	}
	if p := *env.b.Position.Get(env.entity("b")); p.X != 6 {
		t.Fatalf("b not updated: %v", p)
	}
}

func TestReloadEditedPropertyWinsOthersKept(t *testing.T) {
	env := newReloadEnv(t, base)
	a := env.entity("a")
	if err := env.reg.Set(a, "health", "hp: 7; max: 200"); err != nil { // runtime change
		t.Fatal(err)
	}
	env.log = nil
	d := env.mustReload(strings.Replace(base, `health: "hp: 50"`, `health: "hp: 60"`, 1))
	if !strings.Contains(d.String(), "~health.hp") {
		t.Fatalf("diff:\n%s", d)
	}
	vs, _ := env.reg.Values(a, "health")
	if vs[0] != 60 || vs[1] != 200 {
		t.Fatalf("health = %v, want hp 60 (edited) and max 200 (runtime, untouched)", vs)
	}
	if strings.Join(env.log, ",") != "update a" {
		t.Fatalf("hooks %v", env.log)
	}
}

func TestReloadAddRemoveEntityAndComponent(t *testing.T) {
	env := newReloadEnv(t, base)
	env.log = nil
	src := strings.Replace(base, "  - id: b\n    mixin: rock\n    position: 5 0 0\n", "", 1)
	src = strings.Replace(src, `    health: "hp: 50"`, "    enemy:", 1)
	src += "  - id: c\n    health: \"hp: 1\"\n    children:\n      - id: c1\n        position: 1 1 1\n"
	d := env.mustReload(src)
	if d.Summary() != "+2 -1 ~1" {
		t.Fatalf("summary %s\n%s", d.Summary(), d)
	}
	if _, ok := env.reg.EntityByID("b"); ok {
		t.Fatal("b not destroyed")
	}
	c1 := env.entity("c1")
	if p, _ := env.reg.World().Parent(c1); p != env.entity("c") {
		t.Fatal("c1 not under c")
	}
	a := env.entity("a")
	if env.reg.Has(a, "health") || !env.reg.Has(a, "enemy") {
		t.Fatal("component add/remove not applied")
	}
	got := strings.Join(env.log, ",")
	for _, want := range []string{"remove a", "remove b", "init c"} {
		if !strings.Contains(got, want) {
			t.Fatalf("hooks %q lack %q", got, want)
		}
	}
}

func TestReloadMixinChange(t *testing.T) {
	env := newReloadEnv(t, base)
	b := env.entity("b")
	d := env.mustReload(strings.Replace(base, `health: "hp: 30"`, `health: "hp: 31"`, 1))
	if !strings.Contains(d.String(), "mixin rock (changed)") {
		t.Fatalf("diff:\n%s", d)
	}
	if vs, _ := env.reg.Values(b, "health"); vs[0] != 31 {
		t.Fatalf("mixin change not applied: %v", vs)
	}
}

func TestReloadReorderAndReparent(t *testing.T) {
	env := newReloadEnv(t, base)
	src := `
mixins:
  rock: {velocity: 0 1 0, health: "hp: 30"}
entities:
  - id: b
    mixin: rock
    position: 5 0 0
    children:
      - id: a
        position: 0 0 0
        velocity: 1 0 0
        health: "hp: 50"
  - class: anon
    position: 9 9 9
`
	a, b := env.entity("a"), env.entity("b")
	d := env.mustReload(src)
	if len(d.Moved) == 0 || len(d.Created)+len(d.Destroyed) != 0 {
		t.Fatalf("diff:\n%s", d)
	}
	w := env.reg.World()
	if p, _ := w.Parent(a); p != b {
		t.Fatal("a not reparented under b")
	}
	var roots []string
	for e := range w.Roots() {
		roots = append(roots, export.EntityPath(env.reg, e))
	}
	if strings.Join(roots, " ") != "b 1" {
		t.Fatalf("roots %v", roots)
	}
	if env.entity("a") != a {
		t.Fatal("a was recreated")
	}
}

func TestReloadBrokenEditLeavesWorld(t *testing.T) {
	env := newReloadEnv(t, base)
	env.reg.Tick(0.5)
	before := env.dump()
	for _, bad := range []string{
		base + "  - id: x\n    position: [1, 2\n",                                        // YAML syntax error
		strings.Replace(base, "hp: 50", "hp: lots", 1),                                   // schema error
		base + "  - id: y\n    helth: \"hp: 1\"\n",                                       // unknown component
		strings.Replace(base, "mixins:", "components:\n  x: {type: nosuch}\nmixins:", 1), // bad declaration
		strings.Replace(base, "mixin: rock", "mixin: rok", 1),                            // unknown mixin
	} {
		if _, err := env.reload(bad); err == nil {
			t.Fatalf("accepted:\n%s", bad)
		} else if !strings.Contains(err.Error(), "scene.yaml:") {
			t.Fatalf("error without position: %v", err)
		}
		if after := env.dump(); after != before {
			t.Fatalf("world changed by a broken edit:\n%s", bad)
		}
	}
	// The next good save applies.
	env.mustReload(strings.Replace(base, "position: 5 0 0", "position: 7 0 0", 1))
	if p := env.b.Position.Get(env.entity("b")); p.X != 7 {
		t.Fatalf("good save not applied: %v", p)
	}
}

func TestReloadDryRun(t *testing.T) {
	env := newReloadEnv(t, base)
	doc, err := scenefile.Read("scene.yaml", []byte(strings.Replace(base, "position: 5 0 0", "position: 8 0 0", 1)), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := compileDoc(doc, env.reg)
	if err != nil {
		t.Fatal(err)
	}
	d := env.scene.Diff(plan)
	if d.Summary() != "+0 -0 ~1" {
		t.Fatalf("diff %s", d)
	}
	if p := env.b.Position.Get(env.entity("b")); p.X != 5 {
		t.Fatal("Diff applied something")
	}
	if err := env.scene.Apply(d); err != nil {
		t.Fatal(err)
	}
	if p := env.b.Position.Get(env.entity("b")); p.X != 8 {
		t.Fatal("Apply did not apply")
	}
	if err := env.scene.Apply(d); err == nil {
		t.Fatal("stale diff applied twice")
	}
}

func TestReloadPositionalWarning(t *testing.T) {
	env := newReloadEnv(t, base)
	d := env.mustReload(strings.Replace(base, "position: 9 9 9", "position: 9 9 8", 1))
	if len(d.Warnings) == 0 || !strings.Contains(d.Warnings[0], "matched by their place") {
		t.Fatalf("warnings %v", d.Warnings)
	}
}

func TestReloadDeclaredSchemaMigrates(t *testing.T) {
	src := `
components:
  level: {type: int, default: 1}
  mana: {cur: {type: int, default: 5}, max: {type: int, default: 10}}
entities:
  - id: p
    level: 3
    mana: "cur: 7"
`
	env := newReloadEnv(t, src)
	p := env.entity("p")
	src2 := strings.Replace(src, "cur: {type: int, default: 5}", "cur: {type: number, default: 5}, regen: {type: number, default: 0.5}", 1)
	d := env.mustReload(src2)
	if !strings.Contains(d.String(), "mana (schema changed)") {
		t.Fatalf("diff:\n%s", d)
	}
	vs, err := env.reg.Values(p, "mana")
	if err != nil {
		t.Fatal(err)
	}
	if vs[0] != 7.0 || vs[1] != 0.5 || vs[2] != 10 { // cur, regen, max
		t.Fatalf("migrated mana = %v", vs)
	}
	if es, _ := env.reg.QueryAll("[mana.cur>6]"); len(es) != 1 {
		t.Fatalf("selector after migration: %v", es)
	}
}

// children returns the labels of e's children (the roots for the zero
// Entity) in order: the entity's id, or "?" for one without.
func (env *reloadEnv) children(e ecs.Entity) string {
	env.t.Helper()
	w := env.reg.World()
	var seq func(func(ecs.Entity) bool)
	if e.IsZero() {
		seq = w.Roots()
	} else {
		seq = w.ChildrenSeq(e)
	}
	var out []string
	for c := range seq {
		id := env.reg.EntityID(c)
		if id == "" {
			id = "?"
		}
		out = append(out, id)
	}
	return strings.Join(out, " ")
}

// spawn makes a run-time entity with an id under parent (zero: a root)
// at index (-1: the end).
func (env *reloadEnv) spawn(id string, parent ecs.Entity, index int) ecs.Entity {
	env.t.Helper()
	w := env.reg.World()
	e := w.NewEntity()
	if err := w.InsertChild(parent, e, index); err != nil {
		env.t.Fatal(err)
	}
	if err := env.reg.SetEntityID(e, id); err != nil {
		env.t.Fatal(err)
	}
	if err := env.reg.Set(e, "position", "7 7 7"); err != nil {
		env.t.Fatal(err)
	}
	return e
}

func TestReloadTicksBetweenEdits(t *testing.T) {
	env := newReloadEnv(t, base)
	a, b := env.entity("a"), env.entity("b")
	src := base
	env.reg.Tick(1) // physics integrates a fixed time each tick
	step := env.b.Position.Get(a).X
	if step <= 0 {
		t.Fatal("physics did not run")
	}
	for i := 1; i <= 5; i++ {
		pa, pb := *env.b.Position.Get(a), *env.b.Position.Get(b)
		// Edit only b's velocity (through its own component, over the mixin).
		next := strings.Replace(base, "    position: 5 0 0\n", fmt.Sprintf("    position: 5 0 0\n    velocity: 0 %d 0\n", i+1), 1)
		d := env.mustReload(next)
		if d.Summary() != "+0 -0 ~1" || len(d.Changed) != 1 || d.Changed[0].Entity != b {
			t.Fatalf("edit %d: diff\n%s", i, d)
		}
		if got := strings.Join(d.Changed[0].Props["velocity"], ","); got != "" {
			t.Fatalf("edit %d: velocity props %q, want the single value", i, got)
		}
		if p := *env.b.Position.Get(a); p != pa {
			t.Fatalf("edit %d: a moved from %v to %v by a reload", i, pa, p)
		}
		if p := *env.b.Position.Get(b); p != pb {
			t.Fatalf("edit %d: b's runtime position %v replaced by %v", i, pb, p)
		}
		if v := *env.b.Velocity.Get(b); v.Y != float64(i+1) {
			t.Fatalf("edit %d: b velocity %v", i, v)
		}
		src = next
		env.reg.Tick(1)
	}
	if p := *env.b.Position.Get(a); !near(p.X, 6*step) {
		t.Fatalf("a after 6 ticks: %v, want x %v", p, 6*step)
	}
	if p := *env.b.Position.Get(b); !near(p.Y, (1+2+3+4+5+6)*step) {
		t.Fatalf("b after the edits: %v, want y %v", p, 21*step)
	}
	// Saving the same text again changes nothing.
	if d := env.mustReload(src); !d.Empty() {
		t.Fatalf("identical reload:\n%s", d)
	}
}

func TestReloadUpdateHookSeesOldData(t *testing.T) {
	env := newReloadEnv(t, base)
	if err := env.reg.Set(env.entity("a"), "health", "hp: 42"); err != nil {
		t.Fatal(err)
	}
	env.olds = nil
	env.mustReload(strings.Replace(base, `health: "hp: 50"`, `health: "hp: 60"`, 1))
	if got := strings.Join(env.olds, ","); got != "a 42->60" {
		t.Fatalf("update hooks %q, want a 42->60 (old is the runtime data)", got)
	}
}

func TestReloadRemoveSubtreeCallsHooks(t *testing.T) {
	src := base + `  - id: c
    health: "hp: 1"
    children:
      - id: c1
        health: "hp: 2"
        children:
          - id: c2
            health: "hp: 3"
`
	env := newReloadEnv(t, src)
	c2 := env.entity("c2")
	rt := env.spawn("rt", c2, -1) // made at run time under the subtree
	env.log = nil
	d := env.mustReload(base)
	if d.Summary() != "+0 -3 ~0" || len(d.Destroyed) != 1 || d.Destroyed[0].Src.ID != "c" {
		t.Fatalf("diff:\n%s", d)
	}
	slices.Sort(env.log)
	if got := strings.Join(env.log, ","); got != "remove c,remove c1,remove c2" {
		t.Fatalf("hooks %q", got)
	}
	for _, id := range []string{"c", "c1", "c2"} {
		if _, ok := env.reg.EntityByID(id); ok {
			t.Fatalf("#%s survived", id)
		}
	}
	if env.reg.World().Alive(rt) {
		t.Fatal("a run-time child of a removed entity survived it")
	}
	if got := env.children(ecs.Entity{}); got != "a b ?" {
		t.Fatalf("roots %q", got)
	}
}

func TestReloadAddComponentHooks(t *testing.T) {
	env := newReloadEnv(t, base)
	b := env.entity("b")
	env.log = nil
	// health on the anonymous entity: init (and the first update); rock's
	// health on b overridden by its own: update only.
	src := strings.Replace(base, "position: 9 9 9", "position: 9 9 9\n    health: \"hp: 9\"", 1)
	src = strings.Replace(src, "position: 5 0 0", "position: 5 0 0\n    health: \"max: 300\"", 1)
	d := env.mustReload(src)
	if !strings.Contains(d.String(), "+health") || !strings.Contains(d.String(), "~health.max") {
		t.Fatalf("diff:\n%s", d)
	}
	anon := env.scene.Roots[2]
	if vs, _ := env.reg.Values(anon, "health"); vs[0] != 9 || vs[1] != 100 {
		t.Fatalf("added health %v", vs)
	}
	if vs, _ := env.reg.Values(b, "health"); vs[0] != 30 || vs[1] != 300 {
		t.Fatalf("b health %v, want hp 30 from rock and max 300", vs)
	}
	if got := strings.Join(env.log, ","); got != "update b,init ,update " {
		t.Fatalf("hooks %q", got)
	}
	// Remove it again: remove hook only.
	env.log = nil
	env.mustReload(strings.Replace(src, "position: 9 9 9\n    health: \"hp: 9\"", "position: 9 9 9", 1))
	if env.reg.Has(anon, "health") || strings.Join(env.log, ",") != "remove " {
		t.Fatalf("remove: has=%v hooks %v", env.reg.Has(anon, "health"), env.log)
	}
}

func TestReloadAddedComponentMergesWithRuntime(t *testing.T) {
	env := newReloadEnv(t, base)
	anon := env.scene.Roots[2]
	if err := env.reg.Set(anon, "health", "hp: 3; max: 33"); err != nil { // added at run time
		t.Fatal(err)
	}
	env.mustReload(strings.Replace(base, "position: 9 9 9", "position: 9 9 9\n    health: \"hp: 9\"", 1))
	if vs, _ := env.reg.Values(anon, "health"); vs[0] != 9 || vs[1] != 33 {
		t.Fatalf("health %v, want the file's hp 9 and the runtime max 33", vs)
	}
}

func TestReloadMixinChangePerProperty(t *testing.T) {
	src := `
mixins:
  rock: {velocity: 0 1 0, health: "hp: 30; max: 40"}
entities:
  - id: r1
    mixin: rock
  - id: r2
    mixin: rock
    health: "hp: 99"
  - id: r3
    mixin: rock
`
	env := newReloadEnv(t, src)
	r1, r2, r3 := env.entity("r1"), env.entity("r2"), env.entity("r3")
	if err := env.reg.Set(r3, "health", "max: 77"); err != nil { // runtime value
		t.Fatal(err)
	}
	env.reg.Tick(1)
	pos1 := *env.b.Position.Get(r1)
	d := env.mustReload(strings.Replace(src, "hp: 30; max: 40", "hp: 31; max: 41", 1))
	if !strings.Contains(d.String(), "mixin rock (changed)") {
		t.Fatalf("diff:\n%s", d)
	}
	// r1 gets both; r2 keeps its own hp and gets max; on r3 the edited
	// max wins over its runtime value.
	want := map[ecs.Entity][2]int{r1: {31, 41}, r2: {99, 41}, r3: {31, 41}}
	for e, w := range want {
		vs, _ := env.reg.Values(e, "health")
		if vs[0] != w[0] || vs[1] != w[1] {
			t.Fatalf("%s health %v, want %v", env.reg.EntityID(e), vs, w)
		}
	}
	for _, c := range d.Changed {
		if c.Entity == r2 && strings.Join(c.Props["health"], ",") != "max" {
			t.Fatalf("r2 change %v, want max only", c.Props)
		}
	}
	// Velocity untouched: position kept its runtime value.
	if p := *env.b.Position.Get(r1); p != pos1 {
		t.Fatalf("r1 position %v, want %v", p, pos1)
	}
	// A mixin property nobody overrides, changed: runtime max of r3 is
	// kept when only hp changes.
	if err := env.reg.Set(r3, "health", "max: 78"); err != nil {
		t.Fatal(err)
	}
	env.mustReload(strings.Replace(src, "hp: 30; max: 40", "hp: 32; max: 41", 1))
	if vs, _ := env.reg.Values(r3, "health"); vs[0] != 32 || vs[1] != 78 {
		t.Fatalf("r3 health %v, want hp 32 and the runtime max 78", vs)
	}
}

func TestReloadDeclaredSchemaByName(t *testing.T) {
	src := `
components:
  stats:
    a: {type: int, default: 0}
    b: {type: int, default: 0}
    mode: {type: int, default: 1}
    gone: {type: int, default: 4}
entities:
  - id: p
    stats: {a: 1, b: 2, mode: 5}
`
	env := newReloadEnv(t, src)
	p := env.entity("p")
	if err := env.reg.Set(p, "stats", "b: 20"); err != nil { // runtime value
		t.Fatal(err)
	}
	// A property inserted before the others, one changed to a type its
	// values do not convert to, one removed, and a's value edited.
	src2 := `
components:
  stats:
    z: {type: string, default: zz}
    a: {type: int, default: 0}
    b: {type: int, default: 0}
    mode: {type: string, default: walk, oneOf: [walk, run]}
entities:
  - id: p
    stats: {a: 3, b: 2}
`
	d := env.mustReload(src2)
	if !strings.Contains(d.String(), "stats (schema changed)") {
		t.Fatalf("diff:\n%s", d)
	}
	var props []string
	for _, c := range d.Changed {
		props = append(props, c.Props["stats"]...)
	}
	slices.Sort(props)
	// mode: 5 no longer given, but 5 does not convert to the new type
	// either: not a change (the migration resets it, and says so).
	if strings.Join(props, ",") != "a" {
		t.Fatalf("changed props %v, want a (edited)", props)
	}
	vs, err := env.reg.Values(p, "stats")
	if err != nil {
		t.Fatal(err)
	}
	if vs[0] != "zz" || vs[1] != 3 || vs[2] != 20 || vs[3] != "walk" {
		t.Fatalf("stats = %v, want [zz 3 20 walk]: z new, a edited, b runtime, mode default", vs)
	}
	notes := strings.Join(d.Warnings, "\n")
	for _, want := range []string{`"gone" was removed`, `"mode" changed type`} {
		if !strings.Contains(notes, want) {
			t.Fatalf("warnings lack %q:\n%s", want, notes)
		}
	}
}

func TestReloadReorderKeepsRuntimeEntitiesInPlace(t *testing.T) {
	src := `
entities:
  - id: p
    children:
      - id: a
      - id: b
      - id: c
  - id: x
`
	env := newReloadEnv(t, src)
	p, a, b, c := env.entity("p"), env.entity("a"), env.entity("b"), env.entity("c")
	env.spawn("r1", p, 1)
	env.spawn("r0", ecs.Entity{}, -1)
	if got := env.children(p); got != "a r1 b c" {
		t.Fatalf("setup: %s", got)
	}
	// Reorder: the file's entities fill their places in the new order;
	// r1 stays second.
	src2 := strings.Replace(src, "      - id: a\n      - id: b\n      - id: c\n", "      - id: c\n      - id: a\n      - id: b\n", 1)
	d := env.mustReload(src2)
	if len(d.Moved) != 1 || d.Moved[0].Src.ID != "c" || d.Summary() != "+0 -0 ~1" {
		t.Fatalf("diff (want only c moved):\n%s", d)
	}
	if got := env.children(p); got != "c r1 a b" {
		t.Fatalf("children of p %q, want c r1 a b", got)
	}
	// Reparent b to the roots after x, add d between c and a.
	src3 := `
entities:
  - id: p
    children:
      - id: c
      - id: d
      - id: a
  - id: x
  - id: b
`
	d = env.mustReload(src3)
	if d.Summary() != "+1 -0 ~1" {
		t.Fatalf("diff:\n%s", d)
	}
	if got := env.children(p); got != "c r1 d a" {
		t.Fatalf("children of p %q", got)
	}
	if got := env.children(ecs.Entity{}); got != "p x b r0" {
		t.Fatalf("roots %q", got)
	}
	// Reparent p under x, with b first among x's children.
	src4 := `
entities:
  - id: x
    children:
      - id: b
      - id: p
        children:
          - id: a
          - id: c
`
	env.mustReload(src4)
	if got := env.children(ecs.Entity{}); got != "x r0" {
		t.Fatalf("roots %q", got)
	}
	if got := env.children(env.entity("x")); got != "b p" {
		t.Fatalf("children of x %q", got)
	}
	// c and a swap places; r1 keeps its place (index 1); d is gone.
	if got := env.children(p); got != "a r1 c" {
		t.Fatalf("children of p %q, want a r1 c", got)
	}
	for id, e := range map[string]ecs.Entity{"p": p, "a": a, "b": b, "c": c} {
		if env.entity(id) != e {
			t.Fatalf("#%s was recreated", id)
		}
	}
	if _, ok := env.reg.EntityByID("d"); ok {
		t.Fatal("d not destroyed")
	}
}

func TestReloadKeepsRuntimeReparenting(t *testing.T) {
	src := `
entities:
  - id: p
    children:
      - id: a
  - id: q
    position: 0 0 0
`
	env := newReloadEnv(t, src)
	w := env.reg.World()
	a, q := env.entity("a"), env.entity("q")
	if err := w.SetParent(a, q); err != nil { // the game moves a under q
		t.Fatal(err)
	}
	env.mustReload(strings.Replace(src, "position: 0 0 0", "position: 1 0 0", 1))
	if par, _ := w.Parent(a); par != q {
		t.Fatal("an unrelated edit undid the runtime reparenting")
	}
	// An edit that moves a puts it where the file says.
	env.mustReload(`
entities:
  - id: p
  - id: a
  - id: q
    position: 1 0 0
`)
	if _, ok := w.Parent(a); ok || env.children(ecs.Entity{}) != "p a q" {
		t.Fatalf("roots %q", env.children(ecs.Entity{}))
	}
}

func TestReloadDeadEntityStaysDead(t *testing.T) {
	env := newReloadEnv(t, base)
	w := env.reg.World()
	if err := w.Destroy(env.entity("b")); err != nil { // killed in the game
		t.Fatal(err)
	}
	before := env.dump()
	src := strings.Replace(base, "position: 5 0 0", "position: 6 0 0\n    children:\n      - id: b1\n        position: 1 1 1", 1)
	d := env.mustReload(src)
	if len(d.Created)+len(d.Changed)+len(d.Moved) != 0 {
		t.Fatalf("diff:\n%s", d)
	}
	if len(d.Warnings) == 0 || !strings.Contains(strings.Join(d.Warnings, "\n"), "destroyed at run time") {
		t.Fatalf("warnings %v", d.Warnings)
	}
	if after := env.dump(); after != before {
		t.Fatalf("world changed:\n%s\n---\n%s", before, after)
	}
	// It stays dead on later reloads, and a sibling added next to it is
	// created.
	d = env.mustReload(src + "  - id: n\n")
	if _, ok := env.reg.EntityByID("n"); !ok || d.Summary() != "+1 -0 ~0" {
		t.Fatalf("diff:\n%s", d)
	}
	if _, ok := env.reg.EntityByID("b"); ok {
		t.Fatal("b came back")
	}
}

func TestReloadPositionalMatchKeepsState(t *testing.T) {
	src := `
entities:
  - position: 0 0 0
    velocity: 1 0 0
  - position: 0 0 0
    velocity: 0 1 0
`
	env := newReloadEnv(t, src)
	env.reg.Tick(1)
	e0, e1 := env.scene.Roots[0], env.scene.Roots[1]
	moved := *env.b.Position.Get(e0)
	d := env.mustReload(strings.Replace(src, "velocity: 0 1 0", "velocity: 0 2 0", 1))
	if len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "2 entities without an id") {
		t.Fatalf("warnings %v", d.Warnings)
	}
	if env.scene.Roots[0] != e0 || env.scene.Roots[1] != e1 {
		t.Fatal("entities recreated")
	}
	if p := *env.b.Position.Get(e0); p != moved || p.X == 0 {
		t.Fatalf("e0 position %v, want %v", p, moved)
	}
	if v := *env.b.Velocity.Get(e1); v.Y != 2 {
		t.Fatalf("e1 velocity %v", v)
	}
}

func TestReloadMultipleInstances(t *testing.T) {
	w := ecs.NewWorld()
	reg := registry.New(w)
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register[hp](reg, "shield", registry.Definition[hp]{Multiple: true}); err != nil {
		t.Fatal(err)
	}
	src := "entities:\n  - id: s\n    shield__front: \"hp: 1\"\n    shield__back: \"hp: 2\"\n"
	scene, err := LoadBytes(reg, "scene.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scenefile.Read("scene.yaml", []byte(strings.Replace(src, "hp: 2", "hp: 3", 1)), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Reload(doc)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := reg.EntityByID("s")
	if vs, _ := reg.Values(e, "shield__back"); vs[0] != 3 {
		t.Fatalf("instance edit lost: %v\n%s", vs, d)
	}
	if !strings.Contains(d.String(), "~shield__back.hp") {
		t.Fatalf("diff:\n%s", d)
	}
}

func TestReloaderIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.yaml", "include: [parts/rocks.yaml]\nentities:\n  - id: ship\n    position: 0 0 0\n    velocity: 1 0 0\n")
	write("parts/rocks.yaml", "mixins:\n  rock: {health: \"hp: 30\"}\nentities:\n  - id: rock\n    mixin: rock\n    position: 5 0 0\n")
	reg := newBenchRegistry(t)
	file := filepath.Join(dir, "main.yaml")
	scene, err := LoadFile(reg, file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rl := &Reloader{Scene: scene, File: file}
	files := rl.Files()
	if len(files) != 2 || files[0] != file || files[1] != filepath.Join(dir, "parts", "rocks.yaml") {
		t.Fatalf("files %v", files)
	}
	reg.Tick(1)
	ship, _ := reg.EntityByID("ship")
	shipX := builtinPos(t, reg, ship).X
	// An edit in the included file.
	write("parts/rocks.yaml", "mixins:\n  rock: {health: \"hp: 35\"}\nentities:\n  - id: rock\n    mixin: rock\n    position: 5 0 0\n")
	if d, err := rl.Check(); err != nil || d.Summary() != "+0 -0 ~1" {
		t.Fatalf("check: %v %v", d, err)
	}
	rock, _ := reg.EntityByID("rock")
	if vs, _ := reg.Values(rock, "health"); vs[0] != 30 {
		t.Fatal("Check applied something")
	}
	d, err := rl.Reload()
	if err != nil {
		t.Fatal(err)
	}
	if vs, _ := reg.Values(rock, "health"); vs[0] != 35 || !strings.Contains(d.String(), "mixin rock (changed)") {
		t.Fatalf("include edit not applied: %v\n%s", vs, d)
	}
	if p := *builtinPos(t, reg, ship); p.X != shipX || p.X == 0 {
		t.Fatalf("ship lost its runtime position: %v", p)
	}
	// A broken include leaves everything; the error names the file.
	var before bytes.Buffer
	if err := export.WriteJSON(&before, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	write("parts/rocks.yaml", "entities:\n  - id: rock\n    health: \"hp: many\"\n")
	if _, err := rl.Reload(); err == nil || !strings.Contains(err.Error(), filepath.Join("parts", "rocks.yaml")+":3:") {
		t.Fatalf("error %v", err)
	}
	var after bytes.Buffer
	if err := export.WriteJSON(&after, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if before.String() != after.String() {
		t.Fatal("a broken include changed the world")
	}
	// A new include shows up in Files after the reload that adds it.
	write("parts/rocks.yaml", "entities:\n  - id: rock\n")
	write("more.yaml", "entities:\n  - id: more\n")
	write("main.yaml", "include: [parts/rocks.yaml, more.yaml]\nentities:\n  - id: ship\n    position: 0 0 0\n    velocity: 1 0 0\n")
	if _, err := rl.Reload(); err != nil {
		t.Fatal(err)
	}
	if files := rl.Files(); len(files) != 3 || files[2] != filepath.Join(dir, "more.yaml") {
		t.Fatalf("files %v", files)
	}
}

func builtinPos(t *testing.T, reg *registry.Registry, e ecs.Entity) *registry.Vec3 {
	t.Helper()
	vs, err := reg.Values(e, "position")
	if err != nil {
		t.Fatal(err)
	}
	v := vs[0].(registry.Vec3)
	return &v
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestReloadRandomStructure reloads random rearrangements of a tree of
// entities with ids, with entities made at run time among them, and checks
// that every file entity keeps its entity and ends where the file says, in
// file order, and that run-time entities keep their parents.
func TestReloadRandomStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type tree map[string][]string // parent id ("" for roots) -> children
	gen := func(ids []string) tree {
		tr := tree{}
		placed := []string{""}
		for _, id := range rng.Perm(len(ids)) {
			p := placed[rng.IntN(len(placed))]
			tr[p] = append(tr[p], ids[id])
			placed = append(placed, ids[id])
		}
		return tr
	}
	yamlOf := func(tr tree) string {
		var b strings.Builder
		b.WriteString("entities:\n")
		var walk func(p, indent string)
		walk = func(p, indent string) {
			for _, id := range tr[p] {
				fmt.Fprintf(&b, "%s- id: %s\n", indent, id)
				if len(tr[id]) > 0 {
					fmt.Fprintf(&b, "%s  children:\n", indent)
					walk(id, indent+"    ")
				}
			}
		}
		walk("", "  ")
		return b.String()
	}
	for round := range 200 {
		n := 2 + rng.IntN(8)
		var ids []string
		for i := range n {
			ids = append(ids, fmt.Sprintf("e%d", i))
		}
		tr := gen(ids)
		env := newReloadEnv(t, yamlOf(tr))
		w := env.reg.World()
		ents := map[string]ecs.Entity{}
		for _, id := range ids {
			ents[id] = env.entity(id)
		}
		// Run-time entities at random places.
		rtParent := map[ecs.Entity]ecs.Entity{}
		for k := range 3 {
			parent := ecs.Entity{}
			if rng.IntN(3) > 0 {
				parent = ents[ids[rng.IntN(n)]]
			}
			e := env.spawn(fmt.Sprintf("rt%d", k), parent, rng.IntN(3))
			rtParent[e] = parent
		}
		for edit := range 4 {
			// Drop an entity now and then (with the file subtree).
			keep := ids
			if rng.IntN(3) == 0 && len(ids) > 1 {
				keep = slices.Delete(slices.Clone(ids), 0, 1)
			}
			tr = gen(keep)
			if _, err := env.reload(yamlOf(tr)); err != nil {
				t.Fatalf("round %d edit %d: %v", round, edit, err)
			}
			ids = keep
			for p, kids := range tr {
				pe := ecs.Entity{}
				if p != "" {
					pe = ents[p]
				}
				var got []string
				for _, c := range strings.Fields(env.children(pe)) {
					if !strings.HasPrefix(c, "rt") {
						got = append(got, c)
					}
				}
				if strings.Join(got, " ") != strings.Join(kids, " ") {
					t.Fatalf("round %d edit %d: children of %q are %v, want %v\n%s", round, edit, p, got, kids, yamlOf(tr))
				}
			}
			for _, id := range ids {
				if env.entity(id) != ents[id] {
					t.Fatalf("round %d: #%s recreated", round, id)
				}
			}
			for e, p := range rtParent {
				if !w.Alive(e) {
					delete(rtParent, e) // its parent was removed from the file
					continue
				}
				if got, _ := w.Parent(e); got != p {
					t.Fatalf("round %d edit %d: run-time entity %s moved to another parent", round, edit, env.reg.EntityID(e))
				}
			}
		}
	}
}
