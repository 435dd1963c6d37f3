package components

import (
	"math"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Ground makes its entity a ground for the physics system: an infinite
// plane that physics bodies land on. The plane is the top face of the
// entity's box (a unit cube centred on its position, turned by its
// rotation and scaled by its scale, in world space): a flat ground at
// `position: 0 -20 0; scale: 100 0.1 100` is the plane y = -19.95, and a
// rotated one is a slope.
type Ground struct {
	// Restitution is the share of a body's speed into the ground that it
	// keeps, bouncing back: 0 stops it, 1 bounces it back as fast.
	Restitution float64 `scene:"restitution,default=0.5,min=0,max=1"`
	// Friction is the friction coefficient: each time the ground stops
	// or turns back a body's speed into it, the body's speed along the
	// ground drops by Friction times that change, down to zero (Coulomb
	// friction as an impulse: a body sliding on a flat ground under a
	// gravity g slows by Friction·g per second, and stays put unless
	// pushed harder than that).
	Friction float64 `scene:"friction,default=0.2,min=0"`
}

// RestSpeed is the speed (units per second, into the ground) below which
// a body that meets a ground stops there instead of bouncing, and
// StopSpeed the speed along the ground below which a touching body stops
// sliding.
const (
	RestSpeed = 0.5
	StopSpeed = 0.001
)

// plane is one ground as the physics step uses it: points x with
// n·x >= d are above it.
type plane struct {
	e           ecs.Entity // the ground
	n           registry.Vec3
	flat        bool // n is 0 1 0
	d           float64
	restitution float64
	friction    float64
}

// SleepingName is the name of the tag the physics system gives a body
// at rest on a flat ground (see [Ground]).
const SleepingName = "sleeping"

// registerGround registers the ground component and the sleeping tag
// (an ecs tag, not a registry component: selectors see it, `[sleeping]`,
// but dumps do not write it).
func registerGround(reg *registry.Registry, b *Builtins) error {
	c, err := registry.Register(reg, "ground", registry.Definition[Ground]{Dependencies: []string{"position"}})
	if err != nil {
		return err
	}
	b.Ground = ecs.NewMap[Ground](reg.World(), c.ID)
	b.SleepingID, err = reg.World().RegisterTag(SleepingName)
	return err
}

// affineOf returns e's world matrix (false if e has no world component).
func (t *Transforms) affineOf(e ecs.Entity) (affine, bool) {
	p := t.world.Get(e)
	if p == nil {
		return affine{}, false
	}
	if idx := e.Index(); int(idx) < len(t.flags) && t.flags[idx]&fNode != 0 {
		if n := &t.nodes[t.slot[idx]-1]; n.ok {
			return n.m, true
		}
	}
	return compose(p.Position, p.Rotation, p.Scale), true
}

// planes returns the grounds of f (entities with ground and world) as
// planes, skipping degenerate ones (a box scaled to nothing across).
func (t *Transforms) planes(f *ecs.Filter, grounds ecs.Map[Ground], dst []plane) []plane {
	dst = dst[:0]
	if f.Count() == 0 {
		return dst
	}
	var es []ecs.Entity
	q := f.Query()
	for q.NextTable() {
		for i := 0; i < q.Len(); i++ {
			es = append(es, q.EntityAt(i))
		}
	}
	for _, e := range es {
		m, ok := t.affineOf(e)
		g := grounds.Get(e)
		if !ok || g == nil {
			continue
		}
		// The outward normal of the top face: the inverse transpose of
		// the linear part applied to +y, which is the cross product of
		// the z and x columns divided by the determinant.
		ax := registry.Vec3{X: m[0], Y: m[4], Z: m[8]}
		ay := registry.Vec3{X: m[1], Y: m[5], Z: m[9]}
		az := registry.Vec3{X: m[2], Y: m[6], Z: m[10]}
		n := cross(az, ax)
		if dot(n, ay) < 0 {
			n = scale3(n, -1)
		}
		l := math.Sqrt(dot(n, n))
		if l == 0 || math.IsNaN(l) || math.IsInf(l, 0) {
			continue
		}
		n = scale3(n, 1/l)
		top := m.apply(registry.Vec3{Y: 0.5})
		flat := n == registry.Vec3{Y: 1}
		dst = append(dst, plane{e: e, n: n, flat: flat, d: dot(n, top), restitution: g.Restitution, friction: g.Friction})
	}
	return dst
}

func dot(a, b registry.Vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

func cross(a, b registry.Vec3) registry.Vec3 {
	return registry.Vec3{X: a.Y*b.Z - a.Z*b.Y, Y: a.Z*b.X - a.X*b.Z, Z: a.X*b.Y - a.Y*b.X}
}

func scale3(a registry.Vec3, k float64) registry.Vec3 {
	return registry.Vec3{X: a.X * k, Y: a.Y * k, Z: a.Z * k}
}

// CollideEvent is the Detail of collide, which the physics system emits
// (bubbling, as A-Frame's physics does) on a body when it hits a ground
// moving into it: it lands, or bounces. A body that stays in contact
// (resting, sliding) is not told again; one that leaves the ground and
// comes back is.
//
// Expressions read its fields as detail.target, detail.targetId and
// detail.speed.
type CollideEvent struct {
	// Target is the ground hit, TargetID its id ("" if none).
	Target   ecs.Entity `expr:"target"`
	TargetID string     `expr:"targetId"`
	// Speed is the body's speed into the ground when it hit.
	Speed float64 `expr:"speed"`
}

// contacts is what the physics system keeps to emit collide: the hits
// of the table being stepped (rows), the step each body last hit a
// ground in (by entity index), and the collides to emit after the tick.
type contacts struct {
	reg      *registry.Registry
	stepN    uint64
	hits     []hitRow
	lastHit  []uint64
	collides []collide
}

// hitRow is a hit of the body in row row of the table being stepped on
// plane plane.
type hitRow struct {
	row, plane int32
	speed      float64
}

type collide struct {
	body, ground ecs.Entity
	speed        float64
}

// noteHits turns the hits of q's current table into collides, for the
// bodies that did not touch a ground in the step before.
func (ph *physics) noteHits(q *ecs.Query) {
	for _, h := range ph.hits {
		e := q.EntityAt(int(h.row))
		idx := int(e.Index())
		if idx >= len(ph.lastHit) {
			ph.lastHit = append(ph.lastHit, make([]uint64, idx+1-len(ph.lastHit))...)
		}
		last := ph.lastHit[idx]
		ph.lastHit[idx] = ph.stepN
		if last != 0 && last+1 >= ph.stepN {
			continue // in contact since the step before
		}
		ph.collides = append(ph.collides, collide{e, ph.planes[h.plane].e, h.speed})
	}
	ph.hits = ph.hits[:0]
}

// emitCollides emits the collides of the tick, in the order they
// happened.
func (ph *physics) emitCollides() {
	cs := ph.collides
	for k := range cs {
		c := cs[k]
		if ph.w.Alive(c.body) {
			ph.reg.Events().Emit(c.body, "collide", CollideEvent{Target: c.ground, TargetID: ph.reg.EntityID(c.ground), Speed: c.speed}, true)
		}
	}
	clear(cs)
	ph.collides = cs[:0]
}
