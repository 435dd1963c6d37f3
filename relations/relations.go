// Package relations keeps the references between entities valid: for each
// property that holds references (a [Rel]), the targets each holder points
// at, and the reverse index from a target to its holders, so that neither
// a lookup of holders nor a target's destruction scans the World.
//
// The registry makes one [Rel] per reference property of a component and
// tells it of every value it holds ([Rel.Watch] observes the World for
// it); an [Index] applies each relation's policy ([Policy]) when a target
// is destroyed: clear the reference, destroy the holder, or remove the
// holding component. A cascade (holders destroyed because their target
// was, and so on through chains and cycles) runs as the World's deferred
// changes, one after another, so it needs no recursion however long.
//
// The package knows nothing of component values: a [Spec] gives the
// functions that read a holder's targets and write a dropped one out.
package relations

import (
	"cmp"
	"slices"

	"github.com/scenecs/scenecs/ecs"
)

// Policy is what happens to a holder when the entity its reference points
// at is destroyed.
type Policy uint8

// The policies.
const (
	// Clear drops the target from the holder's value (Spec.Drop).
	Clear Policy = iota
	// Destroy destroys the holder.
	Destroy
	// Remove removes the holding component from the holder.
	Remove
)

// Spec describes one property that holds references.
type Spec struct {
	// Name names the relation in errors, such as "docked" or
	// "cargo.holds".
	Name string
	// Policy applies when a target is destroyed.
	Policy Policy
	// Read appends to dst the entities holder's component id points at
	// through the property, as stored (maybe dead, maybe repeated), and
	// returns dst. It is called from observers, with the World locked.
	Read func(holder ecs.Entity, id ecs.ID, dst []ecs.Entity) []ecs.Entity
	// Drop takes target out of holder's value (the Clear policy): an
	// entity property becomes empty, a list loses every occurrence.
	Drop func(holder ecs.Entity, id ecs.ID, target ecs.Entity)
}

// key is one holding component: an entity and the ecs ID of the component
// (an instance of a multiple component has its own).
type key struct {
	e  ecs.Entity
	id ecs.ID
}

// link is one holder's reference to a target through a relation.
type link struct {
	holder ecs.Entity
	id     ecs.ID
	rel    int32
}

// Index is the reverse index of every [Rel] of one World, and the policies
// run when a target is destroyed. Make one with [New]; it is used on the
// World's goroutine only, as the World is.
type Index struct {
	w       *ecs.World
	rels    []*Rel
	targets map[ecs.Entity]map[link]int32 // target -> holders (count of references)
	hooked  bool
	scratch []ecs.Entity
}

// New returns an empty Index of w. It observes nothing until its first
// relation is added.
func New(w *ecs.World) *Index {
	return &Index{w: w, targets: map[ecs.Entity]map[link]int32{}}
}

// Rel is one property that holds references: the targets of each holder,
// and, through its [Index], the holders of each target.
type Rel struct {
	spec Spec
	x    *Index
	n    int32
	fwd  map[key][]ecs.Entity // holder -> live targets when last read, in order
	ids  []ecs.ID
}

// Add adds a relation to x.
func (x *Index) Add(s Spec) *Rel {
	r := &Rel{spec: s, x: x, n: int32(len(x.rels)), fwd: map[key][]ecs.Entity{}}
	x.rels = append(x.rels, r)
	if !x.hooked {
		x.hooked = true
		x.w.Observe(ecs.EntityDestroyed, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, _ ecs.ID) {
			x.destroyed(e)
		})
	}
	return r
}

// Name returns the relation's name.
func (r *Rel) Name() string { return r.spec.Name }

// Policy returns the relation's policy.
func (r *Rel) Policy() Policy { return r.spec.Policy }

// IDs returns the ecs IDs r watches ([Rel.Watch]). The caller must not
// change the slice.
func (r *Rel) IDs() []ecs.ID { return r.ids }

// Watch makes r follow the values of ecs component id (the component, or
// one instance of a multiple one): it reads a holder's targets when the
// component is added or set, and forgets them when it is removed.
func (r *Rel) Watch(id ecs.ID) {
	if slices.Contains(r.ids, id) {
		return
	}
	r.ids = append(r.ids, id)
	w := r.x.w
	sync := func(_ *ecs.World, _ ecs.Event, e ecs.Entity, id ecs.ID) { r.Update(e, id) }
	w.ObserveComponent(ecs.ComponentAdded, id, sync)
	w.ObserveComponent(ecs.ComponentSet, id, sync)
	w.ObserveComponent(ecs.ComponentRemoved, id, func(_ *ecs.World, _ ecs.Event, e ecs.Entity, id ecs.ID) {
		r.forget(key{e, id})
	})
}

// Update reads holder's component id again and brings the index in line
// with it. Watch calls it on every add and set; a program that writes a
// reference into storage directly calls it (or [ecs.World.MarkChanged]).
func (r *Rel) Update(holder ecs.Entity, id ecs.ID) {
	x := r.x
	k := key{holder, id}
	x.scratch = r.spec.Read(holder, id, x.scratch[:0])
	old := r.fwd[k]
	if slices.Equal(old, x.scratch) {
		return
	}
	r.unlink(k, old)
	if !x.w.Alive(holder) || !x.w.Has(holder, id) {
		delete(r.fwd, k)
		return
	}
	live := old[:0:0]
	for _, t := range x.scratch {
		if !x.w.Alive(t) {
			continue // a stale handle is never followed
		}
		live = append(live, t)
		l := link{holder, id, r.n}
		hs := x.targets[t]
		if hs == nil {
			hs = map[link]int32{}
			x.targets[t] = hs
		}
		hs[l]++
	}
	if len(live) == 0 {
		delete(r.fwd, k)
		return
	}
	r.fwd[k] = live
}

// forget drops every reference of k.
func (r *Rel) forget(k key) {
	if old, ok := r.fwd[k]; ok {
		r.unlink(k, old)
		delete(r.fwd, k)
	}
}

// unlink takes k's references to targets out of the reverse index.
func (r *Rel) unlink(k key, targets []ecs.Entity) {
	l := link{k.e, k.id, r.n}
	for _, t := range targets {
		hs := r.x.targets[t]
		if hs == nil {
			continue
		}
		if hs[l]--; hs[l] <= 0 {
			delete(hs, l)
			if len(hs) == 0 {
				delete(r.x.targets, t)
			}
		}
	}
}

// Targets appends to dst the live entities holder points at through r (over
// every ecs ID r watches, in that order; within one, in the order the
// property holds them) and returns dst.
func (r *Rel) Targets(holder ecs.Entity, dst []ecs.Entity) []ecs.Entity {
	for _, id := range r.ids {
		for _, t := range r.fwd[key{holder, id}] {
			if r.x.w.Alive(t) {
				dst = append(dst, t)
			}
		}
	}
	return dst
}

// Holders appends to dst the live entities that point at target through r,
// each once, in increasing entity order, and returns dst.
func (r *Rel) Holders(target ecs.Entity, dst []ecs.Entity) []ecs.Entity {
	if !r.x.w.Alive(target) {
		return dst
	}
	start := len(dst)
	for l := range r.x.targets[target] {
		if l.rel == r.n && r.x.w.Alive(l.holder) {
			dst = append(dst, l.holder)
		}
	}
	got := dst[start:]
	slices.SortFunc(got, cmpEntity)
	return append(dst[:start], slices.Compact(got)...)
}

// Count returns the number of live holders pointing at target through any
// relation of x, each holding component counted once.
func (x *Index) Count(target ecs.Entity) int {
	if !x.w.Alive(target) {
		return 0
	}
	return len(x.targets[target])
}

func cmpEntity(a, b ecs.Entity) int { return cmp.Compare(a.Index(), b.Index()) }

// destroyed applies the policies to the holders of e, which is being
// destroyed. It runs in an observer: destroying a holder or removing its
// component is deferred by the World and done after, in order, so a
// cascade is a loop over the World's deferred changes, not a recursion.
func (x *Index) destroyed(e ecs.Entity) {
	hs, ok := x.targets[e]
	if !ok {
		return
	}
	delete(x.targets, e)
	links := make([]link, 0, len(hs))
	for l := range hs {
		links = append(links, l)
	}
	// The same order on every run: destroys reuse entity slots in order.
	slices.SortFunc(links, func(a, b link) int {
		return cmp.Or(cmp.Compare(a.holder.Index(), b.holder.Index()), cmp.Compare(a.id, b.id), cmp.Compare(a.rel, b.rel))
	})
	for _, l := range links {
		r := x.rels[l.rel]
		k := key{l.holder, l.id}
		if ts, ok := r.fwd[k]; ok {
			ts = slices.DeleteFunc(ts, func(t ecs.Entity) bool { return t == e })
			if len(ts) == 0 {
				delete(r.fwd, k)
			} else {
				r.fwd[k] = ts
			}
		}
		if !x.w.Alive(l.holder) {
			continue
		}
		switch r.spec.Policy {
		case Destroy:
			_ = x.w.Destroy(l.holder)
		case Remove:
			_ = x.w.Remove(l.holder, l.id)
		default:
			r.spec.Drop(l.holder, l.id, e)
		}
	}
}
