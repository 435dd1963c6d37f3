package components_test

import (
	"math/rand/v2"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// BenchmarkTransformPropagation measures world-transform propagation per
// tick over 10,000 entities, flat (10,000 roots, as the cubes of the
// default scene) and in a 5-level hierarchy (one root, ten children
// each, 1 + 10 + 100 + 1,000 + 8,889 entities), with 1% of them moving
// (100 random positions set per tick through the World, ecs Map.Set:
// each move is seen and its subtree recomputed at once) and with all of
// them moving (every position written in the packed column, reported
// with Transforms.MovedPositions, propagated by Transforms.Update, as
// physics does). Every entity has a position, a rotation and a scale.
//
// Against it, in the same run, a hand-written loop over plain slices in
// parent-before-child order, with the same moves: "hand" recomputes every
// world transform each tick (what a program without change detection
// does: for each entity, the local matrix from position, rotation and
// scale, times the parent's world matrix, decomposed into world
// position, rotation and scale; flat, a copy of the local values);
// "hand-dirty" (1% only) recomputes only the moved entities and their
// subtrees, knowing which moved; and "hand-translate" (tree, all moving)
// knows that only positions move: it keeps each entity's world linear
// part and recomputes only world positions (parent's linear part ×
// position + parent's world position), the least work there is. ns/op
// is per tick; docs/benchmarks.md quotes the ratios of scene to hand.
func BenchmarkTransformPropagation(b *testing.B) {
	for _, shape := range []string{"flat", "tree5"} {
		for _, moving := range []string{"1%", "all"} {
			b.Run(shape+"-"+moving, func(b *testing.B) {
				benchPropagation(b, shape, moving == "all")
			})
		}
	}
}

const benchN = 10000

// benchScene is one World built for the benchmark, and the same data as
// plain slices for the hand-written loops.
type benchScene struct {
	r        *registry.Registry
	b        *components.Builtins
	es       []ecs.Entity
	all      *ecs.Filter
	parent   []int // index of the parent, -1 for a root; parents come first
	kids     [][]int
	p, r3, s []v3
	// The hand loops' output.
	wm         []m4
	wp, wr, ws []v3
}

func newBenchScene(b *testing.B, shape string) *benchScene {
	w, r, bi := newReg(b)
	sc := &benchScene{r: r, b: bi}
	rng := rand.New(rand.NewPCG(7, 7))
	rnd := func(lo, hi float64) float64 { return lo + rng.Float64()*(hi-lo) }
	for i := range benchN {
		par := -1
		if shape == "tree5" && i > 0 {
			par = (i - 1) / 10 // 1, 10, 100, 1000, 8889
		}
		p := v3{rnd(-10, 10), rnd(-10, 10), rnd(-10, 10)}
		rot := v3{rnd(-180, 180), rnd(-180, 180), rnd(-180, 180)}
		s := v3{rnd(0.5, 1.5), rnd(0.5, 1.5), rnd(0.5, 1.5)}
		e := w.NewEntity()
		if par >= 0 {
			ok(b, w.SetParent(e, sc.es[par]))
		}
		ok(b, r.SetMany(e, []registry.NamedPatch{
			{Name: "position", Patch: registry.Patch{{Value: registry.Vec3{X: p.x, Y: p.y, Z: p.z}}}},
			{Name: "rotation", Patch: registry.Patch{{Value: registry.Vec3{X: rot.x, Y: rot.y, Z: rot.z}}}},
			{Name: "scale", Patch: registry.Patch{{Value: registry.Vec3{X: s.x, Y: s.y, Z: s.z}}}},
		}))
		sc.es = append(sc.es, e)
		sc.parent = append(sc.parent, par)
		sc.kids = append(sc.kids, nil)
		if par >= 0 {
			sc.kids[par] = append(sc.kids[par], i)
		}
		sc.p, sc.r3, sc.s = append(sc.p, p), append(sc.r3, rot), append(sc.s, s)
	}
	sc.all = ecs.NewFilter(w, ecs.With(bi.Position.ID()))
	sc.wm = make([]m4, benchN)
	sc.wp, sc.wr, sc.ws = make([]v3, benchN), make([]v3, benchN), make([]v3, benchN)
	return sc
}

// handOne recomputes entity i's world transform from its parent's.
func (sc *benchScene) handOne(i int) {
	if sc.parent[i] < 0 {
		sc.wm[i] = localMatrix(sc.p[i], sc.r3[i], sc.s[i])
		sc.wp[i], sc.wr[i], sc.ws[i] = sc.p[i], sc.r3[i], sc.s[i]
		return
	}
	sc.wm[i] = mul(sc.wm[sc.parent[i]], localMatrix(sc.p[i], sc.r3[i], sc.s[i]))
	var q quat
	sc.wp[i], q, sc.ws[i] = decompose3(sc.wm[i])
	sc.wr[i] = eulerYXZFromQuat(q)
}

// handAll recomputes every world transform, parents first; flat, it
// copies the local values.
func (sc *benchScene) handAll(flat bool) {
	if flat {
		copy(sc.wp, sc.p)
		copy(sc.wr, sc.r3)
		copy(sc.ws, sc.s)
		return
	}
	for i := range sc.parent {
		sc.handOne(i)
	}
}

// handSubtree recomputes entity i and its subtree.
func (sc *benchScene) handSubtree(i int, flat bool) {
	if flat {
		sc.wp[i] = sc.p[i]
		return
	}
	sc.handOne(i)
	for _, k := range sc.kids[i] {
		sc.handSubtree(k, flat)
	}
}

func benchPropagation(b *testing.B, shape string, all bool) {
	sc := newBenchScene(b, shape)
	flat := shape == "flat"
	tr, pos := sc.b.Transforms, sc.b.Position
	sc.handAll(flat)
	picks := rand.New(rand.NewPCG(1, 1))
	moved := make([]int, benchN/100)
	pick := func() {
		for k := range moved {
			moved[k] = picks.IntN(benchN)
		}
	}
	step := 0.0
	b.Run("scene", func(b *testing.B) {
		before := tr.Recomputed()
		for b.Loop() {
			step += 0.001
			if all {
				q := sc.all.Query()
				for q.NextTable() {
					ps := ecs.Column[registry.Vec3](&q, pos.ID())
					for i := range ps {
						ps[i].X += 0.001
					}
				}
				tr.MovedPositions(sc.all)
				tr.Update()
				continue
			}
			pick()
			for _, i := range moved {
				v := *pos.Get(sc.es[i])
				v.X += 0.001
				_ = pos.Set(sc.es[i], v)
			}
			tr.Update()
		}
		b.ReportMetric(float64(tr.Recomputed()-before)/float64(b.N), "recomputed/tick")
	})
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			if all {
				for i := range sc.p {
					sc.p[i].x += 0.001
				}
			} else {
				pick()
				for _, i := range moved {
					sc.p[i].x += 0.001
				}
			}
			sc.handAll(flat)
		}
	})
	if all && !flat {
		sc.benchHandTranslate(b)
	}
	if !all {
		b.Run("hand-dirty", func(b *testing.B) {
			for b.Loop() {
				pick()
				for _, i := range moved {
					sc.p[i].x += 0.001
				}
				for _, i := range moved {
					sc.handSubtree(i, flat)
				}
			}
		})
	}
	sc.checkAgainstHand(b)
}

// benchHandTranslate times the hand loop for a tree where only positions
// move: the world linear parts (3x3, row-major) are kept, only the
// translations are recomputed.
func (sc *benchScene) benchHandTranslate(b *testing.B) {
	lin := make([][9]float64, benchN)
	for i := range lin {
		m := sc.wm[i]
		lin[i] = [9]float64{m[0], m[4], m[8], m[1], m[5], m[9], m[2], m[6], m[10]}
	}
	b.Run("hand-translate", func(b *testing.B) {
		for b.Loop() {
			for i := range sc.p {
				sc.p[i].x += 0.001
			}
			for i, par := range sc.parent {
				p := sc.p[i]
				if par < 0 {
					sc.wp[i] = p
					continue
				}
				l, t := &lin[par], sc.wp[par]
				sc.wp[i] = v3{
					l[0]*p.x + l[1]*p.y + l[2]*p.z + t.x,
					l[3]*p.x + l[4]*p.y + l[5]*p.z + t.y,
					l[6]*p.x + l[7]*p.y + l[8]*p.z + t.z,
				}
			}
		}
	})
}

// checkAgainstHand checks that the scene computes what the hand loop
// computes (at the end, not timed), giving both the same positions.
func (sc *benchScene) checkAgainstHand(b *testing.B) {
	pos := sc.b.Position
	tr := sc.b.Transforms
	for i, e := range sc.es {
		*pos.Get(e) = registry.Vec3{X: sc.p[i].x, Y: sc.p[i].y, Z: sc.p[i].z}
	}
	tr.Moved(sc.all)
	tr.Update()
	sc.handAll(false)
	for i := 0; i < benchN; i += 97 {
		if w := sc.b.World.Get(sc.es[i]); !nearV(rv(w.Position), sc.wp[i]) {
			b.Fatalf("entity %d: world position %v, hand %s", i, w.Position, vs(sc.wp[i]))
		}
	}
}
