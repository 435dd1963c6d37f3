package components_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

func newReg(tb testing.TB) (*ecs.World, *registry.Registry, *components.Builtins) {
	tb.Helper()
	w := ecs.NewWorld()
	r := registry.New(w)
	b, err := components.Register(r)
	if err != nil {
		tb.Fatal(err)
	}
	return w, r, b
}

func ok(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func vs(v v3) string { return fmt.Sprintf("%.17g %.17g %.17g", v.x, v.y, v.z) }

func rv(v registry.Vec3) v3 { return v3{v.X, v.Y, v.Z} }

const tol = 1e-9

func near(a, b float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

func nearV(a, b v3) bool { return near(a.x, b.x) && near(a.y, b.y) && near(a.z, b.z) }

// nearAngles compares angles in degrees modulo 360.
func nearAngles(a, b v3) bool {
	d := func(x, y float64) bool {
		e := math.Mod(x-y, 360)
		return math.Abs(e) <= tol || math.Abs(math.Abs(e)-360) <= tol
	}
	return d(a.x, b.x) && d(a.y, b.y) && d(a.z, b.z)
}

// checkWorld compares e's world matrix and world transform with what
// three.js computes for matrixWorld, and for the decomposition
// getWorldPosition / getWorldQuaternion / getWorldScale (the rotation as
// Euler YXZ angles).
func checkWorld(t *testing.T, b *components.Builtins, name string, e ecs.Entity, want m4, root bool) {
	t.Helper()
	got, ok := b.Transforms.Matrix(e)
	if !ok {
		t.Fatalf("%s: no world matrix", name)
	}
	for i := range got {
		if !near(got[i], want[i]) {
			t.Fatalf("%s: world matrix\n got %v\nwant %v", name, got, want)
		}
	}
	wt, _ := b.Transforms.World(e)
	p, q, s := decompose3(want)
	if !nearV(rv(wt.Position), p) || !nearV(rv(wt.Scale), s) {
		t.Fatalf("%s: world position %v scale %v, want %s / %s", name, wt.Position, wt.Scale, vs(p), vs(s))
	}
	if root {
		// An entity without a transform parent keeps its own angles
		// (any equivalent triple would do): compare the rotations.
		gm := localMatrix(v3{}, rv(wt.Rotation), v3{1, 1, 1})
		wm := compose3(v3{}, q, v3{1, 1, 1})
		for i := range gm {
			if !near(gm[i], wm[i]) {
				t.Fatalf("%s: world rotation %v is not the rotation of %v", name, wt.Rotation, q)
			}
		}
		return
	}
	// The angles three.js gives, in its ranges. Near x = ±90° (gimbal
	// lock) three.js's own angles are noise at 1e-8 rad (asin near 1: an
	// error of 1e-16 in the matrix moves x by 1e-8 rad, y and z share
	// their sum): there the rotations the angles make are compared, to
	// 1e-7.
	want3 := eulerYXZFromQuat(q)
	gimbal := math.Abs(math.Abs(want3.x)-90) < 0.01
	if !gimbal && !nearAngles(rv(wt.Rotation), want3) {
		t.Fatalf("%s: world rotation %v, want %s", name, wt.Rotation, vs(want3))
	}
	gm := localMatrix(v3{}, rv(wt.Rotation), v3{1, 1, 1})
	wm := localMatrix(v3{}, want3, v3{1, 1, 1})
	for i := range gm {
		if d := math.Abs(gm[i] - wm[i]); d > tol && (!gimbal || d > 1e-7) {
			t.Fatalf("%s: world rotation %v, want %s (the rotations differ by %g)", name, wt.Rotation, vs(want3), d)
		}
	}
	if got := *b.World.Get(e); got != wt {
		t.Fatalf("%s: World %v and the world component %v differ", name, wt, got)
	}
}

func setTRS(t *testing.T, r *registry.Registry, e ecs.Entity, p, rot, s v3) {
	t.Helper()
	ok(t, r.Set(e, "position", vs(p)))
	ok(t, r.Set(e, "rotation", vs(rot)))
	ok(t, r.Set(e, "scale", vs(s)))
}

// TestWorldTransformThreeLevels: a child of a translated, rotated and
// scaled parent, itself the child of one, has the world transform three.js
// computes, to 1e-9, for hand-picked cases (a turn of the parent about
// each axis, a mirror, a rotation past 180°) and random ones (non-uniform
// scales under rotations: shear), on four levels; also with an entity
// without a transform in between, which counts as the identity.
func TestWorldTransformThreeLevels(t *testing.T) {
	type trs struct{ p, r, s v3 }
	cases := [][4]trs{
		{{v3{1, 2, 3}, v3{0, 90, 0}, v3{2, 2, 2}}, {v3{1, 0, 0}, v3{}, v3{1, 1, 1}}, {v3{0, 1, 0}, v3{90, 0, 0}, v3{1, 1, 1}}, {v3{0, 0, 1}, v3{0, 0, 90}, v3{0.5, 0.5, 0.5}}},
		{{v3{-4, 0.5, 7}, v3{30, 45, 60}, v3{1, 2, 3}}, {v3{2, -1, 0.25}, v3{-20, 200, 10}, v3{0.5, 1.5, 1}}, {v3{0.3, 0.3, -2}, v3{5, -95, 170}, v3{3, 1, 2}}, {v3{1, 1, 1}, v3{89, 0, 0}, v3{1, 1, 1}}},
		{{v3{0, 0, 0}, v3{0, 0, 0}, v3{-1, 1, 1}}, {v3{1, 2, 3}, v3{10, 20, 30}, v3{1, -2, 1}}, {v3{-1, 0, 0}, v3{0, 0, 0}, v3{1, 1, 1}}, {v3{0, 1, 0}, v3{90, 30, 0}, v3{2, 1, 1}}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	rnd := func(lo, hi float64) float64 { return lo + rng.Float64()*(hi-lo) }
	for range 200 {
		var c [4]trs
		for i := range c {
			c[i] = trs{
				v3{rnd(-10, 10), rnd(-10, 10), rnd(-10, 10)},
				v3{rnd(-180, 180), rnd(-180, 180), rnd(-180, 180)},
				v3{rnd(0.2, 3), rnd(0.2, 3), rnd(0.2, 3)},
			}
		}
		cases = append(cases, c)
	}
	for n, c := range cases {
		for _, gap := range []bool{false, true} {
			w, r, b := newReg(t)
			var chain []ecs.Entity
			var parent ecs.Entity
			want := localMatrix(v3{}, v3{}, v3{1, 1, 1})
			for i, l := range c {
				if gap && i == 2 {
					// An entity without a transform between levels.
					g := w.NewEntity()
					ok(t, w.SetParent(g, parent))
					parent = g
				}
				e := w.NewEntity()
				if !parent.IsZero() {
					ok(t, w.SetParent(e, parent))
				}
				setTRS(t, r, e, l.p, l.r, l.s)
				want = mul(want, localMatrix(l.p, l.r, l.s))
				checkWorld(t, b, fmt.Sprintf("case %d gap %v level %d", n, gap, i), e, want, i == 0)
				chain = append(chain, e)
				parent = e
			}
			// Built top-down above; now change the top and check
			// every level again.
			c[0].r.y += 33
			ok(t, r.Set(chain[0], "rotation", vs(c[0].r)))
			want = localMatrix(v3{}, v3{}, v3{1, 1, 1})
			for i, l := range c {
				want = mul(want, localMatrix(l.p, l.r, l.s))
				checkWorld(t, b, fmt.Sprintf("case %d gap %v level %d after turning the top", n, gap, i), chain[i], want, i == 0)
			}
		}
	}
}

// tree builds a: b (under a), c (under b), d (under a); e with f under
// it; and n other entities with a position; it returns them by name.
func tree(t *testing.T, r *registry.Registry, n int) map[string]ecs.Entity {
	w := r.World()
	es := map[string]ecs.Entity{}
	mk := func(name, parent, pos string) {
		e := w.NewEntity()
		if parent != "" {
			ok(t, w.SetParent(e, es[parent]))
		}
		ok(t, r.Set(e, "position", pos))
		es[name] = e
	}
	mk("a", "", "1 0 0")
	mk("b", "a", "0 1 0")
	mk("c", "b", "0 0 1")
	mk("d", "a", "2 0 0")
	mk("e", "", "5 5 5")
	mk("f", "e", "1 1 1")
	for i := range n {
		mk(fmt.Sprint("x", i), "", fmt.Sprintf("%d 0 0", i))
	}
	return es
}

func worldPos(b *components.Builtins, e ecs.Entity) registry.Vec3 { return b.World.Get(e).Position }

// TestMovedParentRecomputesSubtree: moving a parent moves its descendants'
// world transforms, and nothing else is recomputed (counted), whichever
// way the move is made: a registry write, a write through a pointer
// reported with MarkChanged, a column write reported with Moved or
// MovedPositions. An Update with nothing reported recomputes nothing.
func TestMovedParentRecomputesSubtree(t *testing.T) {
	w, r, b := newReg(t)
	es := tree(t, r, 100)
	tr := b.Transforms
	count := func(what string, want uint64, move func()) {
		t.Helper()
		before := tr.Recomputed()
		move()
		tr.Update()
		if got := tr.Recomputed() - before; got != want {
			t.Errorf("%s: %d world transforms recomputed, want %d", what, got, want)
		}
	}
	count("nothing", 0, func() {})
	count("a set", 4, func() { ok(t, r.Set(es["a"], "position", "10 0 0")) })
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 10, Y: 1, Z: 1}) {
		t.Errorf("c at %v after a moved", got)
	}
	if got := worldPos(b, es["d"]); got != (registry.Vec3{X: 12}) {
		t.Errorf("d at %v after a moved", got)
	}
	count("b rotated", 2, func() { ok(t, r.Set(es["b"], "rotation", "90 0 0")) })
	// b's turn takes c's offset 0 0 1 to 0 -1 0.
	if got := worldPos(b, es["c"]); !nearV(rv(got), v3{10, 0, 0}) {
		t.Errorf("c at %v after b turned 90° about x", got)
	}
	count("a leaf", 1, func() { ok(t, r.Set(es["x7"], "position", "7 7 7")) })
	count("a pointer write, marked", 2, func() {
		b.Position.Get(es["e"]).Y = 50
		ok(t, w.MarkChanged(es["e"], b.Position.ID()))
	})
	if got := worldPos(b, es["f"]); got != (registry.Vec3{X: 6, Y: 51, Z: 6}) {
		t.Errorf("f at %v after e moved", got)
	}
	// A write through a pointer nobody reports is not seen.
	count("a pointer write, unreported", 0, func() { b.Position.Get(es["e"]).Y = 60 })
	ok(t, w.MarkChanged(es["e"], b.Position.ID()))
	// Column writes, reported by filter: every entity of the filter is
	// compared, those that changed (and their subtrees) recomputed.
	all := ecs.NewFilter(w, ecs.With(b.Position.ID()))
	colWrite := func(names ...string) {
		want := map[ecs.Entity]bool{}
		for _, n := range names {
			want[es[n]] = true
		}
		q := all.Query()
		for q.NextTable() {
			ps := ecs.Column[registry.Vec3](&q, b.Position.ID())
			for i := range ps {
				if want[q.EntityAt(i)] {
					ps[i].Z += 1
				}
			}
		}
	}
	count("columns: a, x3", 5, func() { colWrite("a", "x3"); tr.Moved(all) })
	count("columns, positions only: b, x4", 3, func() { colWrite("b", "x4"); tr.MovedPositions(all) })
	count("columns: nothing changed", 0, func() { tr.Moved(all) })
	// a at 10 0 1, b 0 1 1 from it, c 0 -1 0 from b.
	if got := worldPos(b, es["c"]); !nearV(rv(got), v3{10, 0, 2}) {
		t.Errorf("c at %v after a and b moved by columns", got)
	}
	// The transform system updates at the end of every tick.
	colWrite("d")
	tr.Moved(all)
	ok(t, r.Tick(0.1))
	if got := worldPos(b, es["d"]); got != (registry.Vec3{X: 12, Z: 2}) {
		t.Errorf("d at %v after a tick", got)
	}
}

// TestReparentKeepsLocal: reparenting keeps the local values and
// recomputes the world transform of the entity and its subtree, also when
// a parent gains or loses its transform.
func TestReparentKeepsLocal(t *testing.T) {
	w, r, b := newReg(t)
	es := tree(t, r, 0)
	ok(t, w.SetParent(es["b"], es["e"])) // b (0 1 0) and c under e (5 5 5)
	if got := *b.Position.Get(es["b"]); got != (registry.Vec3{Y: 1}) {
		t.Errorf("b's local position changed: %v", got)
	}
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 5, Y: 6, Z: 6}) {
		t.Errorf("c at %v under e", got)
	}
	ok(t, w.SetParent(es["b"], ecs.Entity{})) // a root
	if got := worldPos(b, es["c"]); got != (registry.Vec3{Y: 1, Z: 1}) {
		t.Errorf("c at %v with b a root", got)
	}
	// A group without a transform is transparent; giving it one moves
	// its subtree, taking it away moves it back.
	g := w.NewEntity()
	ok(t, w.SetParent(g, es["e"]))
	ok(t, w.SetParent(es["b"], g))
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 5, Y: 6, Z: 6}) {
		t.Errorf("c at %v under a group under e", got)
	}
	ok(t, r.Set(g, "position", "100 0 0"))
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 105, Y: 6, Z: 6}) {
		t.Errorf("c at %v under a group at 100 0 0", got)
	}
	if err := r.Remove(g, "world"); !errors.Is(err, registry.ErrReadOnly) {
		t.Fatalf("Remove(world): %v, want ErrReadOnly", err)
	}
	ok(t, r.Privileged().Remove(g, "world"))
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 5, Y: 6, Z: 6}) {
		t.Errorf("c at %v under a group without world", got)
	}
	// Removing a component: its identity.
	ok(t, r.Set(es["e"], "scale", "2 2 2"))
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 5, Y: 7, Z: 7}) {
		t.Errorf("c at %v under e scaled 2", got)
	}
	ok(t, r.Remove(es["e"], "scale"))
	if got := worldPos(b, es["c"]); got != (registry.Vec3{X: 5, Y: 6, Z: 6}) {
		t.Errorf("c at %v after e lost its scale", got)
	}
	// Destroying a parent takes its subtree; the rest is untouched.
	ok(t, w.Destroy(es["e"]))
	if w.Alive(es["c"]) || !w.Alive(es["a"]) || worldPos(b, es["d"]) != (registry.Vec3{X: 3}) {
		t.Error("destroying e")
	}
	// World is read-only; a value written into it below the checks is
	// replaced at once.
	if err := r.Set(es["d"], "world", "position: 9 9 9"); !errors.Is(err, registry.ErrReadOnly) {
		t.Fatalf("Set(world): %v, want ErrReadOnly", err)
	}
	ok(t, r.Privileged().SetPatch(es["d"], "world", registry.Patch{{Index: 0, Value: registry.Vec3{X: 9, Y: 9, Z: 9}}}, registry.Merge))
	if got := worldPos(b, es["d"]); got != (registry.Vec3{X: 3}) {
		t.Errorf("world written: %v", got)
	}
}

// TestHotReloadParentPosition: a hot reload that moves a parent moves its
// children's world transforms (the loader's Reloader on a file), and one
// that moves an entity under another parent keeps its local values.
func TestHotReloadParentPosition(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ship.yaml")
	write := func(shipPos, gunParent string) {
		t.Helper()
		text := fmt.Sprintf(`entities:
  - id: ship
    position: %s
    rotation: 0 0 90
    children:
      - id: gun
        position: 1 0 0
        children:
          - id: muzzle
            position: 0 2 0
  - id: dock
    position: 0 100 0
`, shipPos)
		if gunParent == "dock" {
			text = `entities:
  - id: ship
    position: ` + shipPos + `
    rotation: 0 0 90
  - id: dock
    position: 0 100 0
    children:
      - id: gun
        position: 1 0 0
        children:
          - id: muzzle
            position: 0 2 0
`
		}
		ok(t, os.WriteFile(file, []byte(text), 0o644))
	}
	write("0 0 0", "ship")
	_, r, b := newReg(t)
	scene, err := loader.LoadFile(r, file, loader.Options{})
	ok(t, err)
	at := func(id string) v3 {
		e, _ := r.EntityByID(id)
		return rv(worldPos(b, e))
	}
	// The ship is turned 90° about z: its x axis points along world y.
	if got := at("muzzle"); !nearV(got, v3{-2, 1, 0}) {
		t.Fatalf("muzzle at %s after load", vs(got))
	}
	rl := &live.Reloader{Scene: scene, File: file}
	write("10 0 0", "ship")
	_, err = rl.Reload()
	ok(t, err)
	if got := at("gun"); !nearV(got, v3{10, 1, 0}) {
		t.Errorf("gun at %s after the ship moved", vs(got))
	}
	if got := at("muzzle"); !nearV(got, v3{8, 1, 0}) {
		t.Errorf("muzzle at %s after the ship moved", vs(got))
	}
	write("10 0 0", "dock")
	_, err = rl.Reload()
	ok(t, err)
	gun, _ := r.EntityByID("gun")
	if got := *b.Position.Get(gun); got != (registry.Vec3{X: 1}) {
		t.Errorf("gun's local position %v after moving under dock", got)
	}
	if got := at("muzzle"); !nearV(got, v3{1, 102, 0}) {
		t.Errorf("muzzle at %s under the dock", vs(got))
	}
}
