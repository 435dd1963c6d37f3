package loader

import (
	"bytes"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

type reloadEnv struct {
	t     *testing.T
	reg   *registry.Registry
	b     *registry.Builtins
	scene *Scene
	log   []string
}

type hp struct {
	HP  int `scene:"hp,default=100"`
	Max int `scene:"max,default=100"`
}

func newReloadEnv(t *testing.T, src string) *reloadEnv {
	t.Helper()
	w := ecs.NewWorld()
	reg := registry.New(w)
	b, err := registry.RegisterBuiltins(reg)
	if err != nil {
		t.Fatal(err)
	}
	env := &reloadEnv{t: t, reg: reg, b: b}
	_, err = registry.Register[hp](reg, "health", registry.Definition[hp]{
		Init:   func(c *registry.Context, v *hp) { env.log = append(env.log, "init "+reg.EntityID(c.Entity)) },
		Update: func(c *registry.Context, v, old *hp) { env.log = append(env.log, "update "+reg.EntityID(c.Entity)) },
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
	doc, err := Read("scene.yaml", []byte(src), Limits{})
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
	if err := WriteJSON(&b, env.reg, ExportOptions{}); err != nil {
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
		roots = append(roots, EntityPath(env.reg, e))
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
		base + "  - id: x\n    position: [1, 2\n",      // YAML syntax error
		strings.Replace(base, "hp: 50", "hp: lots", 1), // schema error
		base + "  - id: y\n    helth: \"hp: 1\"\n",     // unknown component
	} {
		if _, err := env.reload(bad); err == nil {
			t.Fatalf("accepted:\n%s", bad)
		} else if !strings.Contains(err.Error(), "scene.yaml:") {
			t.Fatalf("error without position: %v", err)
		}
		if after := env.dump(); after != before {
			t.Fatalf("world changed by a broken edit")
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
	doc, err := Read("scene.yaml", []byte(strings.Replace(base, "position: 5 0 0", "position: 8 0 0", 1)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Compile(doc, env.reg)
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
