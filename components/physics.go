package components

import (
	"math"
	"slices"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Physics configures the physics system: it integrates velocity,
// acceleration and gravity into position with a fixed time step, and
// keeps bodies above grounds.
type Physics struct {
	// Step is the fixed time step in seconds of the physics phase
	// ([registry.PhasePhysics]), in which the system runs: each Tick runs
	// the phase as many times as the accumulated time allows (at most
	// MaxSteps; the backlog beyond is dropped). At most a day
	// ([registry.MaxPeriod]).
	Step     float64 `scene:"step,default=0.016666666666666666,min=0.000001,max=86400"`
	MaxSteps int     `scene:"maxSteps,default=8,min=1"`
}

// registerPhysics registers the physics system.
func registerPhysics(reg *registry.Registry, b *Builtins) (err error) {
	b.Physics, err = registry.RegisterSystem(reg, "physics", physicsSystem(reg, b))
	return err
}

// physicsSystem integrates, per storage table of entities with position
// and velocity: velocity += (acceleration + gravity) * step, then
// position += velocity * step (semi-implicit Euler), once per step of the
// fixed-step physics phase; after each step, bodies below a ground are
// put back onto it, and those that came to rest on a flat ground sleep.
// Everything it does is done per step, so that its state after a number
// of steps does not depend on how the steps fell into ticks (-hz 30 and
// -hz 120 agree). It runs alone (it adds and removes the sleeping tag,
// and keeps the transform state's books).
func physicsSystem(reg *registry.Registry, b *Builtins) registry.SystemDefinition[Physics] {
	ph := &physics{t: b.Transforms, w: reg.World(), ground: b.Ground, contacts: contacts{reg: reg}}
	t := ph.t
	ph.ids = stepIDs{b.Position.ID(), b.Velocity.ID(), b.Acceleration.ID(), b.Gravity.ID(), t.worldID, t.sclID, b.Ground.ID()}
	ph.sleepID = b.SleepingID
	ph.observeWakes()
	ids := &ph.ids
	return registry.SystemDefinition[Physics]{
		Phase: registry.PhasePhysics,
		// Alone: it emits collide and puts bodies to sleep (a tag) at
		// once.
		Access: &registry.Access{
			Reads:         []string{"acceleration", "gravity", "scale", "ground", WorldName},
			Writes:        []string{"position", "velocity", WorldName},
			Exclusive:     true,
			KeepExclusive: true,
		},
		Update: func(s *registry.SystemContext, cfg, _ *Physics) {
			if err := s.Registry.Schedule().SetStep(registry.PhasePhysics, cfg.Step, cfg.MaxSteps); err != nil {
				s.Registry.ReportError(err) // a step set from Go past the schema's bounds
			}
		},
		Init: func(s *registry.SystemContext, cfg *Physics) {
			w, paused := ph.w, pausedID(reg)
			ph.f = ecs.NewFilter(w, ecs.With(ids.pos, ids.vel), ecs.Without(paused, ph.sleepID))
			ph.bodies = ecs.NewFilter(w, ecs.With(ids.pos, ids.vel, ids.world), ecs.Without(paused, ids.ground, ph.sleepID))
			ph.grounds = ecs.NewFilter(w, ecs.With(ids.ground, ids.world))
			ph.sleepers = ecs.NewFilter(w, ecs.With(ph.sleepID))
		},
		Tick: func(s *registry.SystemContext, cfg *Physics) { ph.step(s.Delta, s.Step == s.Steps-1) },
	}
}

// physics is the physics system's state.
type physics struct {
	t      *Transforms
	w      *ecs.World
	ground ecs.Map[Ground]
	ids    stepIDs
	// f: the bodies integrated; bodies: those that land on grounds;
	// sleepers: the sleeping ones.
	f, bodies, grounds, sleepers *ecs.Filter
	sleepID                      ecs.ID
	planes, last                 []plane
	rest                         []int        // rows of a table that came to rest this step
	sleepy                       []ecs.Entity // bodies to put to sleep after the step
	contacts
}

// stepIDs are the components a physics step reads.
type stepIDs struct{ pos, vel, acc, grav, world, scale, ground ecs.ID }

// step runs one physics step of dt seconds; last says it is the last
// step of the tick, after which world positions must be current.
func (ph *physics) step(dt float64, last bool) {
	defer ph.emitCollides()
	t, ids := ph.t, &ph.ids
	ph.planes = t.planes(ph.grounds, ph.ground, ph.planes)
	if !slices.Equal(ph.planes, ph.last) {
		// A ground moved, came or went: every sleeper may be off it.
		ph.last = append(ph.last[:0], ph.planes...)
		ph.wakeAll()
	}
	ph.stepN++
	if t.plain() && allFlat(ph.planes) {
		// No transform parents anywhere: the step integrates and lands
		// bodies on flat grounds table by table, and the last one copies
		// positions to world.
		t.recomputed += ph.stepPlain(dt, last)
	} else {
		Integrate(ph.f, ids.pos, ids.vel, ids.acc, ids.grav, dt)
		if len(ph.planes) > 0 {
			ph.collide(dt)
		}
		t.MovedPositions(ph.f)
		if !last {
			// The next step collides bodies in their parents' spaces:
			// with the world matrices of this step, as it would if the
			// steps fell into separate ticks.
			t.Update()
		}
	}
	for _, e := range ph.sleepy {
		if ph.w.Alive(e) && !ph.w.Has(e, ph.sleepID) {
			// Out of the filter from now on: its last move is
			// reported by itself.
			t.markDirty(e)
			_ = ph.w.Add(e, ph.sleepID)
		}
	}
	clear(ph.sleepy)
	ph.sleepy = ph.sleepy[:0]
}

// wakeAll wakes every sleeping body.
func (ph *physics) wakeAll() {
	if ph.sleepers.Count() == 0 {
		return
	}
	var es []ecs.Entity
	q := ph.sleepers.Query()
	for q.NextTable() {
		for i := 0; i < q.Len(); i++ {
			es = append(es, q.EntityAt(i))
		}
	}
	for _, e := range es {
		_ = ph.w.Remove(e, ph.sleepID)
	}
}

// observeWakes wakes a sleeping body when its position, velocity,
// acceleration, gravity or scale is set through the World, or when it
// is reparented.
func (ph *physics) observeWakes() {
	wake := func(w *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
		if w.Has(e, ph.sleepID) {
			_ = w.Remove(e, ph.sleepID)
		}
	}
	ids := &ph.ids
	for _, id := range []ecs.ID{ids.pos, ids.vel, ids.acc, ids.grav, ids.scale} {
		ph.w.ObserveComponent(ecs.ComponentSet, id, wake)
	}
	ph.w.Observe(ecs.ChildAttached, wake)
	ph.w.Observe(ecs.ChildDetached, wake)
}

// stepPlain is one physics step when no entity has a transform parent
// and every ground is flat: per table, Integrate's loops, then the
// landings, and, if sync, each position copied to the world transform.
// It returns the number of world positions it changed.
func (ph *physics) stepPlain(dt float64, sync bool) uint64 {
	ids := &ph.ids
	n := uint64(0)
	q := ph.f.Query()
	for q.NextTable() {
		c := ph.columns(&q)
		ps, vs := c.ps, c.vs
		var ws []WorldTransform
		if sync {
			if ws = ecs.Column[WorldTransform](&q, ids.world); ws != nil {
				ws = ws[:len(ps)]
			}
		}
		if c.as == nil && c.gs != nil && c.ss != nil && ws != nil && len(ph.planes) <= 1 && !q.Has(ids.ground) {
			// The common table (falling cubes): one pass.
			n += ph.stepFused(&q, &c, ws, dt)
			continue
		}
		if c.as != nil {
			for i := range vs {
				vs[i].X += c.as[i].X * dt
				vs[i].Y += c.as[i].Y * dt
				vs[i].Z += c.as[i].Z * dt
			}
		}
		if c.gs != nil {
			for i := range vs {
				vs[i].X += c.gs[i].X * dt
				vs[i].Y += c.gs[i].Y * dt
				vs[i].Z += c.gs[i].Z * dt
			}
		}
		for i := range ps {
			ps[i].X += vs[i].X * dt
			ps[i].Y += vs[i].Y * dt
			ps[i].Z += vs[i].Z * dt
		}
		if !q.Has(ids.ground) { // a ground does not land on grounds
			for k := range ph.planes {
				ph.rest, ph.hits = collideFlat(ps, vs, c.ss, &ph.planes[k], dt, ph.rest[:0], ph.hits, k)
				ph.restRows(&q, &c)
				ph.noteHits(&q)
			}
		}
		for i := range ws {
			ws[i].Position = ps[i]
		}
		n += uint64(len(ws))
	}
	return n
}

// stepFused is stepPlain for a table with gravity and scale, no
// acceleration, and at most one flat ground, that syncs world positions
// into ws: one pass, with the arithmetic of the separate loops (so the
// same results). It returns the number of world positions it set.
func (ph *physics) stepFused(q *ecs.Query, c *bodyColumns, ws []WorldTransform, dt float64) uint64 {
	ps, vs, gs, ss := c.ps, c.vs, c.gs, c.ss
	ground := len(ph.planes) == 1
	var d, e, mu float64
	if ground {
		pl := &ph.planes[0]
		d, e, mu = pl.d, pl.restitution, pl.friction
	}
	ph.rest = ph.rest[:0]
	for i := range ps {
		vx := vs[i].X + gs[i].X*dt
		vy := vs[i].Y + gs[i].Y*dt
		vz := vs[i].Z + gs[i].Z*dt
		px := ps[i].X + vx*dt
		py := ps[i].Y + vy*dt
		pz := ps[i].Z + vz*dt
		if ground {
			if top := d + 0.5*abs(ss[i].Y); top-py > 0 {
				// collideFlat, inlined.
				py = top
				if vy < 0 {
					out := -vy * e
					if -vy < RestSpeed {
						out = 0
					}
					ph.hits = append(ph.hits, hitRow{int32(i), 0, -vy})
					k := slide(vx, vz, mu*(out-vy))
					nx, nz := stop(vx*k), stop(vz*k)
					px += (nx - vx) * dt
					pz += (nz - vz) * dt
					vx, vy, vz = nx, out, nz
					if vx == 0 && vy == 0 && vz == 0 {
						ph.rest = append(ph.rest, i)
					}
				}
			}
		}
		vs[i] = registry.Vec3{X: vx, Y: vy, Z: vz}
		p := registry.Vec3{X: px, Y: py, Z: pz}
		ps[i] = p
		ws[i].Position = p
	}
	ph.restRows(q, c)
	ph.noteHits(q)
	return uint64(len(ps))
}

// bodyColumns are the columns of one table of bodies (nil where the
// table lacks the component), all as long as ps.
type bodyColumns struct{ ps, vs, as, gs, ss []registry.Vec3 }

// columns returns the body columns of q's current table.
func (ph *physics) columns(q *ecs.Query) bodyColumns {
	ids := &ph.ids
	c := bodyColumns{ps: ecs.Column[registry.Vec3](q, ids.pos)}
	n := len(c.ps)
	cut := func(id ecs.ID) []registry.Vec3 {
		if s := ecs.Column[registry.Vec3](q, id); s != nil {
			return s[:n]
		}
		return nil
	}
	c.vs, c.as, c.gs, c.ss = cut(ids.vel), cut(ids.acc), cut(ids.grav), cut(ids.scale)
	return c
}

// restRows puts to sleep, after the step, the bodies of ph.rest (rows of
// q's table that landed on a flat ground and stopped) whose acceleration
// is zero and whose gravity points straight down: they would stay where
// they are.
func (ph *physics) restRows(q *ecs.Query, c *bodyColumns) {
	for _, i := range ph.rest {
		if c.as != nil && c.as[i] != (registry.Vec3{}) {
			continue
		}
		if c.gs != nil && (c.gs[i].X != 0 || c.gs[i].Z != 0 || c.gs[i].Y > 0) {
			continue
		}
		ph.sleepy = append(ph.sleepy, q.EntityAt(i))
	}
}

// Integrate advances every entity of f (which must require position and
// velocity) by one step of dt seconds: velocity += (acceleration +
// gravity) * dt, then position += velocity * dt. pos, vel, acc and grav
// are the IDs of the four vec3 components ([registry.Vec3] columns). It
// walks the packed columns of each table; acceleration and gravity are
// applied where the table has them.
//
// It writes the columns directly: world transforms follow once the
// entities are reported with [Transforms.Moved] (the physics system does).
func Integrate(f *ecs.Filter, pos, vel, acc, grav ecs.ID, dt float64) {
	q := f.Query()
	for q.NextTable() {
		ps := ecs.Column[registry.Vec3](&q, pos)
		vs := ecs.Column[registry.Vec3](&q, vel)
		vs = vs[:len(ps)]
		if as := ecs.Column[registry.Vec3](&q, acc); as != nil {
			as = as[:len(vs)]
			for i := range vs {
				vs[i].X += as[i].X * dt
				vs[i].Y += as[i].Y * dt
				vs[i].Z += as[i].Z * dt
			}
		}
		if gs := ecs.Column[registry.Vec3](&q, grav); gs != nil {
			gs = gs[:len(vs)]
			for i := range vs {
				vs[i].X += gs[i].X * dt
				vs[i].Y += gs[i].Y * dt
				vs[i].Z += gs[i].Z * dt
			}
		}
		for i := range ps {
			ps[i].X += vs[i].X * dt
			ps[i].Y += vs[i].Y * dt
			ps[i].Z += vs[i].Z * dt
		}
	}
}

// collide keeps the bodies above the planes. A body is a unit cube
// scaled by its scale, its rotation ignored: it reaches (|n.x|·sx +
// |n.y|·sy + |n.z|·sz) / 2 towards a plane of normal n. A body below a
// plane is moved onto it; if it moves into the plane, the part of its
// velocity into the plane is reversed and multiplied by the restitution
// (zeroed if slower than [RestSpeed]), and the part along the plane loses
// by the friction coefficient times the change of speed into it (and
// stops under [StopSpeed]). A body below an
// ancestor with a transform is tested at its world position (with its
// world scale) and corrected in its parent's space.
func (ph *physics) collide(dt float64) {
	t, planes := ph.t, ph.planes
	one := registry.Vec3{X: 1, Y: 1, Z: 1}
	plain := t.plain()
	lastSlot := int32(-1)
	var local []localPlane
	q := ph.bodies.Query()
	for q.NextTable() {
		c := ph.columns(&q)
		ps, vs, ss := c.ps, c.vs, c.ss
		ws := ecs.Column[WorldTransform](&q, ph.ids.world)[:len(ps)]
		ph.rest = ph.rest[:0]
		for i := range ps {
			if !plain {
				if idx := q.IndexAt(i); t.flags[idx]&fNested != 0 {
					// In its parent's space: the planes seen from there.
					s := t.slot[idx]
					if s == 0 || !t.nodes[s-1].ok {
						continue
					}
					if ps := t.nodes[s-1].pslot; ps != lastSlot {
						lastSlot, local = ps, t.localPlanes(ps, planes, local)
					}
					if k, speed := collideLocal(&ps[i], &vs[i], ws[i].Scale, local, dt); k >= 0 {
						ph.hits = append(ph.hits, hitRow{int32(i), int32(k), speed})
					}
					continue
				}
			}
			s := one
			if ss != nil {
				s = ss[i]
			}
			for k := range planes {
				pl := &planes[k]
				if pl.flat {
					if top := pl.d + 0.5*abs(s.Y); top-ps[i].Y > 0 {
						if vs[i].Y < 0 {
							ph.hits = append(ph.hits, hitRow{int32(i), int32(k), -vs[i].Y})
						}
						if land(&ps[i], &vs[i], top, pl, dt) {
							ph.rest = append(ph.rest, i)
						}
					}
					continue
				}
				n := pl.n
				pen := pl.d + extent(n, s) - dot(n, ps[i])
				if pen <= 0 {
					continue
				}
				ps[i] = add3(ps[i], scale3(n, pen))
				if vn := dot(n, vs[i]); vn < 0 {
					ph.hits = append(ph.hits, hitRow{int32(i), int32(k), -vn})
				}
				ps[i], vs[i] = bounce(ps[i], vs[i], pl, dt)
			}
		}
		if allFlat(planes) {
			ph.restRows(&q, &c)
		}
		ph.noteHits(&q)
	}
}

// allFlat reports whether every plane is flat (normal 0 1 0).
func allFlat(planes []plane) bool {
	for k := range planes {
		if !planes[k].flat {
			return false
		}
	}
	return true
}

// collideFlat is collide for bodies without a transform parent and a
// flat ground (plane k). It appends to rest the rows that landed and
// stopped, to hits those that hit it.
func collideFlat(ps, vs, ss []registry.Vec3, pl *plane, dt float64, rest []int, hits []hitRow, k int) ([]int, []hitRow) {
	vs = vs[:len(ps)]
	if ss != nil {
		ss = ss[:len(ps)]
	}
	d, e, mu := pl.d, pl.restitution, pl.friction
	for i := range ps {
		top := d + 0.5
		if ss != nil {
			top = d + 0.5*abs(ss[i].Y)
		}
		if top-ps[i].Y <= 0 {
			continue
		}
		// land, inlined: this loop runs for every body on the ground.
		ps[i].Y = top
		vy := vs[i].Y
		if vy >= 0 {
			continue
		}
		hits = append(hits, hitRow{int32(i), int32(k), -vy})
		out := -vy * e
		if -vy < RestSpeed {
			out = 0
		}
		vx, vz := vs[i].X, vs[i].Z
		k := slide(vx, vz, mu*(out-vy))
		vs[i].X, vs[i].Y, vs[i].Z = stop(vx*k), out, stop(vz*k)
		// Friction acts within the step: the position moved with the
		// speed it took away.
		ps[i].X += (vs[i].X - vx) * dt
		ps[i].Z += (vs[i].Z - vz) * dt
		if vs[i] == (registry.Vec3{}) {
			rest = append(rest, i)
		}
	}
	return rest, hits
}

// land puts a body whose bottom is below the flat ground pl onto it: its
// position's y becomes top, and its velocity bounces. It reports whether
// the body stopped.
func land(p, v *registry.Vec3, top float64, pl *plane, dt float64) bool {
	p.Y = top
	vy := v.Y
	if vy >= 0 {
		return false
	}
	out := -vy * pl.restitution
	if -vy < RestSpeed {
		out = 0
	}
	vx, vz := v.X, v.Z
	k := slide(vx, vz, pl.friction*(out-vy))
	v.X, v.Y, v.Z = stop(vx*k), out, stop(vz*k)
	p.X += (v.X - vx) * dt
	p.Z += (v.Z - vz) * dt
	return *v == registry.Vec3{}
}

// slide returns the factor by which friction scales a velocity along a
// ground of components a and b, when the impact changed the speed into
// the ground by dvn and the friction coefficient times dvn is f: the
// speed along the ground drops by f (Coulomb friction, as an impulse),
// to 0 if it is not more than f.
func slide(a, b, f float64) float64 {
	vt2 := a*a + b*b
	if vt2 <= f*f {
		return 0
	}
	return 1 - f/math.Sqrt(vt2)
}

// stop returns 0 for a speed slower than StopSpeed, else x.
func stop(x float64) float64 {
	if x < StopSpeed && x > -StopSpeed {
		return 0
	}
	return x
}

// bounce returns the position p and velocity v of a body that touches
// plane pl, moved onto it.
func bounce(p, v registry.Vec3, pl *plane, dt float64) (registry.Vec3, registry.Vec3) {
	n := pl.n
	vn := dot(n, v)
	if vn >= 0 {
		return p, v // leaving the plane
	}
	out := -vn * pl.restitution
	if -vn < RestSpeed {
		out = 0
	}
	vt := sub3(v, scale3(n, vn))
	nt := scale3(vt, slide(math.Sqrt(dot(vt, vt)), 0, pl.friction*(out-vn)))
	if dot(nt, nt) < StopSpeed*StopSpeed {
		nt = registry.Vec3{}
	}
	return add3(p, scale3(sub3(nt, vt), dt)), add3(scale3(n, out), nt)
}

// localPlane is a plane seen from a parent's space: a point l there (a
// world point P·l) is n·l - d above it, in world units; moving l by
// c·k moves the world point by k along the plane's normal nw; lin is the
// linear part of P.
type localPlane struct {
	n, c, nw    registry.Vec3
	d           float64
	restitution float64
	friction    float64
	lin         affine
}

// localPlanes returns the planes seen from the space whose world matrix
// is node pslot's (none, for a singular matrix).
func (t *Transforms) localPlanes(pslot int32, planes []plane, dst []localPlane) []localPlane {
	dst = dst[:0]
	if pslot < 0 {
		return dst
	}
	m := &t.nodes[pslot].m
	inv, ok := m.inverseLinear()
	if !ok {
		return dst
	}
	for k := range planes {
		pl := &planes[k]
		n := pl.n
		// n·(L·l + T) = (Lᵀ·n)·l + n·T
		ln := registry.Vec3{
			X: m[0]*n.X + m[4]*n.Y + m[8]*n.Z,
			Y: m[1]*n.X + m[5]*n.Y + m[9]*n.Z,
			Z: m[2]*n.X + m[6]*n.Y + m[10]*n.Z,
		}
		dst = append(dst, localPlane{
			n: ln, c: inv.mulVec(n), nw: n,
			d:           pl.d - (n.X*m[3] + n.Y*m[7] + n.Z*m[11]),
			restitution: pl.restitution, friction: pl.friction, lin: *m,
		})
	}
	return dst
}

// collideLocal is collide for one body in its parent's space, with the
// planes seen from there and its world scale ws. It returns the first
// plane the body hit (moving into it) and the speed into it, or -1.
func collideLocal(p, v *registry.Vec3, ws registry.Vec3, planes []localPlane, dt float64) (hit int, speed float64) {
	hit = -1
	for k := range planes {
		pl := &planes[k]
		pen := pl.d + extent(pl.nw, ws) - dot(pl.n, *p)
		if pen <= 0 {
			continue
		}
		*p = add3(*p, scale3(pl.c, pen))
		vn := dot(pl.n, *v) // the world velocity's part along the normal
		if vn >= 0 {
			continue
		}
		if hit < 0 {
			hit, speed = k, -vn
		}
		out := -vn * pl.restitution
		if -vn < RestSpeed {
			out = 0
		}
		// The world velocity P·v becomes n·out + f·(its part along the
		// plane), or n·out if that part stops; back here through the
		// inverse, which takes n to c.
		vt := sub3(pl.lin.applyLinear(*v), scale3(pl.nw, vn))
		f := slide(math.Sqrt(dot(vt, vt)), 0, pl.friction*(out-vn))
		var nv registry.Vec3
		if vt = scale3(vt, f); dot(vt, vt) < StopSpeed*StopSpeed {
			nv = scale3(pl.c, out)
		} else {
			nv = add3(scale3(*v, f), scale3(pl.c, out-f*vn))
		}
		// The change along the plane moves the position within the
		// step, as in collide.
		along := sub3(sub3(nv, *v), scale3(pl.c, out-vn))
		*p = add3(*p, scale3(along, dt))
		*v = nv
	}
	return hit, speed
}

// extent is how far a unit cube scaled by s reaches along the unit
// vector n.
func extent(n, s registry.Vec3) float64 {
	return 0.5 * (abs(n.X*s.X) + abs(n.Y*s.Y) + abs(n.Z*s.Z))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func add3(a, b registry.Vec3) registry.Vec3 {
	return registry.Vec3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z}
}

func sub3(a, b registry.Vec3) registry.Vec3 {
	return registry.Vec3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z}
}

// pausedID returns the ecs ID of the registry's paused tag
// ([registry.PausedTag]), whose entities physics skips.
func pausedID(reg *registry.Registry) ecs.ID {
	id, _ := reg.World().ComponentID(registry.PausedTag)
	return id
}
