package live

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
)

const prefabV1 = `
prefabs:
  ship:
    health: "hp: 10; max: 20"
    velocity: 0 1 0
    children:
      - id: gun
        health: "hp: 1"
      - {position: 0 5 0}
entities:
  - id: f1
    prefab: ship
  - id: f2
    prefab: ship
    health: "max: 99"
  - prefab: ship
`

// tick runs the World for one step of a tenth of a second.
func (env *reloadEnv) tick() {
	env.t.Helper()
	if err := env.reg.Tick(0.1); err != nil {
		env.t.Fatal(err)
	}
}

func (env *reloadEnv) attr(e ecs.Entity, comp string) string {
	env.t.Helper()
	s, _ := env.reg.Attr(e, comp)
	return s
}

// entries returns the diff's entries as strings, sorted.
func entries(d *Diff, env *reloadEnv) []string {
	var out []string
	for _, e := range d.Entries(env.reg) {
		out = append(out, e.String())
	}
	slices.Sort(out)
	return out
}

// TestReloadPrefabProperty: a property edited in the prefab reaches
// every instance that does not override it, its parts and an instance
// spawned at run time too, with update(old) once per entity; runtime
// values the edit did not touch survive.
func TestReloadPrefabProperty(t *testing.T) {
	env := newReloadEnv(t, prefabV1)
	s9, err := env.reg.Prefabs().Instantiate(ecs.Entity{}, "ship", "s9")
	if err != nil {
		t.Fatal(err)
	}
	env.tick()
	f1, f2 := env.entity("f1"), env.entity("f2")
	anon := env.scene.Roots[2]
	if err := env.reg.Set(f1, "health", "hp: 5"); err != nil {
		t.Fatal(err)
	}
	moved := env.attr(f1, "position")
	if moved == "" || moved == "0 0 0" {
		t.Fatalf("f1 did not move: %q", moved)
	}
	env.log, env.olds = nil, nil
	d := env.mustReload(strings.Replace(prefabV1, "max: 20", "max: 30", 1))
	for e, want := range map[ecs.Entity]string{f1: "hp: 5; max: 30", f2: "hp: 10; max: 99", anon: "hp: 10; max: 30", s9: "hp: 10; max: 30"} {
		if got := env.attr(e, "health"); got != want {
			t.Errorf("%s: health %q, want %q", export.EntityPath(env.reg, e), got, want)
		}
	}
	if got := env.attr(f1, "position"); got != moved {
		t.Errorf("runtime position lost: %q, was %q", got, moved)
	}
	slices.Sort(env.log)
	if want := []string{"update ", "update f1", "update s9"}; !slices.Equal(env.log, want) {
		t.Errorf("hooks %q, want %q", env.log, want)
	}
	got := entries(d, env)
	want := []string{"~ #f1 health.max 20 → 30", "~ #s9 health.max 20 → 30", "~ 2 health.max 20 → 30", "~ prefab ship (changed; 1 instances spawned at run time follow)"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
	// A part's property: every instance's part, by its instance path.
	d = env.mustReload(strings.Replace(strings.Replace(prefabV1, "max: 20", "max: 30", 1), `"hp: 1"`, `"hp: 2"`, 1))
	got = entries(d, env)
	want = []string{"~ #f1/gun health.hp 1 → 2", "~ #f2/gun health.hp 1 → 2",
		"~ #s9/gun health.hp 1 → 2", "~ 2/0 health.hp 1 → 2",
		"~ prefab ship (changed; 1 instances spawned at run time follow)"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
}

// TestReloadPrefabChildren: a child added to the prefab is added to every
// instance (spawned ones too), one removed is removed; the other parts
// keep their entities and runtime state.
func TestReloadPrefabChildren(t *testing.T) {
	env := newReloadEnv(t, prefabV1)
	s9, err := env.reg.Prefabs().Instantiate(ecs.Entity{}, "ship", "s9")
	if err != nil {
		t.Fatal(err)
	}
	env.tick()
	gun := env.entity("f1/gun")
	_ = env.reg.Set(gun, "health", "hp: 7")
	anonPart := env.reg.World().Children(env.scene.Roots[2])[1]
	added := strings.Replace(prefabV1, "      - {position: 0 5 0}\n", "      - {position: 0 5 0}\n      - {id: radar, health: \"hp: 3\"}\n", 1)
	d := env.mustReload(added)
	for _, id := range []string{"f1/radar", "f2/radar", "s9/radar"} {
		if got := env.attr(env.entity(id), "health"); got != "hp: 3; max: 100" {
			t.Errorf("%s health %q", id, got)
		}
	}
	if env.entity("f1/gun") != gun || env.attr(gun, "health") != "hp: 7; max: 100" {
		t.Error("the gun part lost its entity or runtime state")
	}
	if kids := env.reg.World().Children(env.scene.Roots[2]); len(kids) != 3 || kids[1] != anonPart || env.reg.Prefabs().PartKey(kids[2]) != "radar" {
		t.Errorf("unnamed instance's parts: %v", kids)
	}
	if kids := env.reg.World().Children(s9); len(kids) != 3 || env.reg.EntityID(kids[2]) != "s9/radar" {
		t.Errorf("spawned instance's parts: %v", kids)
	}
	if got := d.Summary(); got != "+3 -0 ~0" {
		t.Errorf("summary %s", got)
	}
	// Removed from the prefab: gone from every instance.
	removed := strings.Replace(added, "      - id: gun\n        health: \"hp: 1\"\n", "", 1)
	d = env.mustReload(removed)
	for _, id := range []string{"f1/gun", "f2/gun", "s9/gun"} {
		if _, ok := env.reg.EntityByID(id); ok {
			t.Errorf("%s survives its removal from the prefab", id)
		}
	}
	if _, ok := env.reg.EntityByID("f1/radar"); !ok {
		t.Error("f1/radar is gone")
	}
	got := entries(d, env)
	want := []string{"- #f1/gun", "- #f2/gun", "- #s9/gun", "- 2/0", "~ prefab ship (changed; 1 instances spawned at run time follow)"}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
	_ = anonPart
}

// TestReloadRebase: changing an instance's prefab re-bases it: the
// marker and the values follow the new prefab, parts of the same name
// keep their entities, the others come and go.
func TestReloadRebase(t *testing.T) {
	two := strings.Replace(prefabV1, "entities:", `  frigate:
    health: "hp: 40"
    children:
      - id: gun
        health: "hp: 4"
      - id: hangar
entities:`, 1)
	env := newReloadEnv(t, two)
	env.tick()
	gun := env.entity("f2/gun")
	d := env.mustReload(strings.Replace(two, "  - id: f2\n    prefab: ship", "  - id: f2\n    prefab: frigate", 1))
	f2 := env.entity("f2")
	if got := env.reg.Prefabs().Of(f2); got != "frigate" {
		t.Errorf("f2 is an instance of %q", got)
	}
	if got := env.attr(f2, "health"); got != "hp: 40; max: 99" {
		t.Errorf("f2 health %q", got)
	}
	if env.entity("f2/gun") != gun || env.attr(gun, "health") != "hp: 4; max: 100" {
		t.Error("the gun part was not kept and re-based")
	}
	env.entity("f2/hangar")
	if _, err := env.reg.QueryAll("#f2 > [velocity]"); err != nil {
		t.Fatal(err)
	}
	got := entries(d, env)
	want := []string{"+ #f2/hangar", "- #f2/0", "~ #f2 -velocity", "~ #f2 health.hp 10 → 40", "~ #f2 prefab ship → frigate", "~ #f2/gun health.hp 1 → 4"}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
}

const spawnerPrefabs = `
prefabs:
  rock:
    health: "hp: 10; max: 20"
    position: 0 0 0
    children:
      - id: chip
        health: "hp: 1"
entities:
  - id: field
    spawner: "prefab: rock; count: 3; area: 10 10 10"
`

// TestReloadSpawnerPrefab: instances a spawner made follow an edit of
// their prefab (a property, a part added), except in what the spawner
// wrote over the prefab's root (its drawn position), which stays theirs
// as an instance's own components in the scene do.
func TestReloadSpawnerPrefab(t *testing.T) {
	env := newReloadEnv(t, spawnerPrefabs)
	env.tick()
	w := env.reg.World()
	rocks := w.Children(env.entity("field"))
	if len(rocks) != 3 {
		t.Fatalf("%d rocks", len(rocks))
	}
	pos := make([]string, len(rocks))
	for i, r := range rocks {
		pos[i] = env.attr(r, "position")
		if pos[i] == "0 0 0" {
			t.Fatalf("rock %d at the prefab's position", i)
		}
	}
	_ = env.reg.Set(rocks[0], "health", "hp: 3")
	edited := strings.Replace(spawnerPrefabs, "max: 20", "max: 30", 1)
	edited = strings.Replace(edited, "position: 0 0 0", "position: 1 1 1", 1)
	edited = strings.Replace(edited, "        health: \"hp: 1\"\n", "        health: \"hp: 1\"\n      - id: dust\n", 1)
	d := env.mustReload(edited)
	for i, r := range rocks {
		if !w.Alive(r) {
			t.Fatalf("rock %d destroyed", i)
		}
		want := "hp: 10; max: 30"
		if i == 0 {
			want = "hp: 3; max: 30"
		}
		if got := env.attr(r, "health"); got != want {
			t.Errorf("rock %d: health %q, want %q", i, got, want)
		}
		if got := env.attr(r, "position"); got != pos[i] {
			t.Errorf("rock %d: position %q, was %q: the prefab's edit overwrote the spawner's", i, got, pos[i])
		}
		if kids := w.Children(r); len(kids) != 2 || env.reg.Prefabs().PartKey(kids[1]) != "dust" {
			t.Errorf("rock %d: parts %v", i, kids)
		}
	}
	if !slices.Contains(d.Prefabs, "rock (changed; 3 instances spawned at run time follow)") {
		t.Errorf("prefabs %q", d.Prefabs)
	}
}

// TestSpawnerPrefabLoadErrors: a spawner naming an unknown prefab fails
// the load at the spawner's entity, with a suggestion.
func TestSpawnerPrefabLoadErrors(t *testing.T) {
	src := "prefabs:\n  rock: {}\nentities:\n  - id: a\n  - id: field\n    spawner: \"prefab: rok; count: 2\"\n"
	_, err := LoadBytes(newTestRegistry(t), "a.yaml", []byte(src), Options{})
	want := `a.yaml:5:5: registry: entity #field: spawner: unknown prefab "rok" (did you mean "rock"?)`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestReloadPrefabPartOverride: an edit of a part's property in the
// prefab reaches the instances that do not change that part, and not
// the one that does (the diff compares each pair of parts once per
// distinct pair of components, see differ.diffNode and propDiff).
func TestReloadPrefabPartOverride(t *testing.T) {
	src := strings.Replace(prefabV1, "    health: \"max: 99\"\n", "    health: \"max: 99\"\n    parts:\n      gun: {health: \"hp: 9\"}\n", 1)
	env := newReloadEnv(t, src)
	if _, err := env.reg.Prefabs().Instantiate(ecs.Entity{}, "ship", "s9"); err != nil {
		t.Fatal(err)
	}
	env.tick()
	d := env.mustReload(strings.Replace(src, `"hp: 1"`, `"hp: 2"`, 1))
	for id, want := range map[string]string{"f1/gun": "hp: 2; max: 100", "f2/gun": "hp: 9; max: 100", "s9/gun": "hp: 2; max: 100"} {
		if got := env.attr(env.entity(id), "health"); got != want {
			t.Errorf("%s: health %q, want %q", id, got, want)
		}
	}
	if got := env.attr(env.reg.World().Children(env.scene.Roots[2])[0], "health"); got != "hp: 2; max: 100" {
		t.Errorf("2/0: health %q", got)
	}
	got := entries(d, env)
	want := []string{"~ #f1/gun health.hp 1 → 2", "~ #s9/gun health.hp 1 → 2", "~ 2/0 health.hp 1 → 2",
		"~ prefab ship (changed; 1 instances spawned at run time follow)"}
	if !slices.Equal(got, want) {
		t.Errorf("entries\n%q\nwant\n%q", got, want)
	}
}

// TestDiffOnePlanTwoScenes: a plan diffed against two scenes, and
// applied to both, gives each its own entities (a plan holds no
// entities: each scene keeps its own by node Index).
func TestDiffOnePlanTwoScenes(t *testing.T) {
	a, b := newReloadEnv(t, prefabV1), newReloadEnv(t, prefabV1)
	edited := strings.Replace(prefabV1, "max: 20", "max: 30", 1) + "  - id: extra\n    prefab: ship\n"
	doc, err := scenefile.Read("scene.yaml", []byte(edited), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := compileDoc(doc, a.reg)
	if err != nil {
		t.Fatal(err)
	}
	da, db := a.scene.Diff(plan), b.scene.Diff(plan)
	if err := a.scene.Apply(da); err != nil {
		t.Fatal(err)
	}
	if err := b.scene.Apply(db); err != nil {
		t.Fatal(err)
	}
	// And a second edit on each: the diff must find each scene's entities.
	again := strings.Replace(edited, "max: 30", "max: 40", 1)
	for _, env := range []*reloadEnv{a, b} {
		check := func(when string) {
			t.Helper()
			w := env.reg.World()
			for _, n := range env.scene.Plan.Nodes {
				e, ok := env.scene.EntityOf(n)
				if back, _ := env.scene.NodeOf(e); !ok || !w.Alive(e) || back != n {
					t.Fatalf("%s: node %s has entity %v, not the scene's", when, n.Path, e)
				}
			}
			if len(env.scene.Plan.Nodes) != w.Len() || env.scene.Len() != w.Len() {
				t.Fatalf("%s: %d nodes, %d entities", when, len(env.scene.Plan.Nodes), w.Len())
			}
		}
		check("after the shared plan")
		env.mustReload(again)
		check("after a second edit")
		if got := env.attr(env.entity("extra"), "health"); got != "hp: 10; max: 40" {
			t.Errorf("extra: health %q", got)
		}
	}
}

// TestReloadPrefabClassesAndComponents: a prefab edit that changes a
// part's classes, removes a component from the root and adds one to a
// part reaches every instance, spawned ones too, with the running World
// ticking between the edits; a component the instance gives itself
// stays when the prefab removes it.
func TestReloadPrefabClassesAndComponents(t *testing.T) {
	src := strings.Replace(prefabV1, "      - id: gun\n", "      - id: gun\n        class: gun\n", 1)
	src = strings.Replace(src, "    health: \"max: 99\"\n", "    health: \"max: 99\"\n    velocity: 0 2 0\n", 1)
	env := newReloadEnv(t, src)
	if _, err := env.reg.Prefabs().Instantiate(ecs.Entity{}, "ship", "s9"); err != nil {
		t.Fatal(err)
	}
	env.tick()
	edited := strings.Replace(src, "        class: gun\n", "        class: gun heavy\n        visible: false\n", 1)
	edited = strings.Replace(edited, "    velocity: 0 1 0\n", "", 1)
	env.mustReload(edited)
	env.tick()
	for _, id := range []string{"f1/gun", "f2/gun", "s9/gun"} {
		e := env.entity(id)
		if got := strings.Join(env.reg.Classes(e), " "); got != "gun heavy" {
			t.Errorf("%s: classes %q", id, got)
		}
		if got := env.attr(e, "visible"); got != "false" {
			t.Errorf("%s: visible %q", id, got)
		}
	}
	for id, want := range map[string]bool{"f1": false, "f2": true, "s9": false} {
		if got := env.reg.Has(env.entity(id), "velocity"); got != want {
			t.Errorf("%s has velocity: %v, want %v", id, got, want)
		}
	}
}

// TestDiffIsPure: computing a diff changes nothing, neither the running
// scene (its entities, the way back from an entity to its node) nor the
// new plan: diffing twice gives the same diff, and either applies.
func TestDiffIsPure(t *testing.T) {
	env := newReloadEnv(t, prefabV1)
	edited := strings.Replace(prefabV1, "max: 20", "max: 30", 1) + "  - id: extra\n    prefab: ship\n"
	doc, err := scenefile.Read("scene.yaml", []byte(edited), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := compileDoc(doc, env.reg)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshotScene(env.scene)
	nodes := slices.Clone(plan.Nodes)
	d1 := env.scene.Diff(plan)
	d2 := env.scene.Diff(plan)
	if d1.String() != d2.String() || d1.Empty() {
		t.Fatalf("two diffs differ:\n%s\n%s", d1, d2)
	}
	if after := snapshotScene(env.scene); after != before {
		t.Fatalf("Diff changed the scene:\n%s\nwas\n%s", after, before)
	}
	if !slices.Equal(nodes, plan.Nodes) {
		t.Fatal("Diff changed the plan's nodes")
	}
	for i, n := range plan.Nodes {
		if n.Index != i {
			t.Fatalf("node %s has Index %d at %d", n.Path, n.Index, i)
		}
	}
	if err := env.scene.Apply(d2); err != nil {
		t.Fatal(err)
	}
	if env.scene.Plan != plan || env.scene.Len() != env.reg.World().Len() {
		t.Errorf("after Apply: plan %v, %d entities of %d", env.scene.Plan == plan, env.scene.Len(), env.reg.World().Len())
	}
	if err := env.scene.Apply(d1); err == nil {
		t.Error("a diff against the scene's previous plan applied")
	}
}

// TestOnePlanTwoWorlds: one compiled Plan builds into two Worlds, each
// scene with its own entities, and reloads in each.
func TestOnePlanTwoWorlds(t *testing.T) {
	a, b := newReloadEnv(t, ""), newReloadEnv(t, "")
	doc, err := scenefile.Read("scene.yaml", []byte(prefabV1), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := compileDoc(doc, a.reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []*reloadEnv{a, b} {
		if env.scene, err = Build(plan, env.reg); err != nil {
			t.Fatal(err)
		}
	}
	for _, env := range []*reloadEnv{a, b} {
		w := env.reg.World()
		if env.scene.Len() != plan.Count || w.Len() != plan.Count {
			t.Fatalf("%d entities made, %d in the World, plan %d", env.scene.Len(), w.Len(), plan.Count)
		}
		for _, n := range plan.Nodes {
			e, ok := env.scene.EntityOf(n)
			if back, _ := env.scene.NodeOf(e); !ok || !w.Alive(e) || back != n {
				t.Fatalf("node %s: entity %v of another World", n.Path, e)
			}
		}
		env.mustReload(strings.Replace(prefabV1, "max: 20", "max: 30", 1))
		if env.scene.Len() != w.Len() {
			t.Errorf("after a reload: %d of %d entities", env.scene.Len(), w.Len())
		}
	}
}

// snapshotScene writes what a scene holds: its plan, roots, and each
// node's entity and the node found back from it.
func snapshotScene(s *Scene) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%p %v\n", s.Plan, s.Roots)
	for _, n := range s.Plan.Nodes {
		e, ok := s.EntityOf(n)
		back, _ := s.NodeOf(e)
		fmt.Fprintf(&b, "%s %v %v %v\n", n.Path, e, ok, back == n)
	}
	return b.String()
}
