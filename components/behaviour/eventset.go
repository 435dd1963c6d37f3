package behaviour

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// The event-set component (multiple), as A-Frame's community component
// (supermedium/superframe's aframe-event-set-component) defines it: when
// the event _event (or, without it, the event named by the instance id:
// event-set__click listens to click) reaches the entity, each other pair
// `comp.prop: value` or `comp: value` is set on the target: the first
// entity _target selects (default: the entity itself), _delay
// milliseconds of scene time later (default: at once). Its value is a
// [registry.Pairs], keys as written.

// The keys event-set reads itself.
const (
	esEvent  = "_event"
	esTarget = "_target"
	esDelay  = "_delay"
)

// EventSets runs the event-set components of one Registry.
type EventSets struct {
	reg     *registry.Registry
	paused  ecs.ID // the registry's paused tag
	types   *registry.Types
	sets    map[animKey]*eventSet
	pending []pendingSet
	seq     uint64
}

// eventSet is one event-set instance, compiled: the sets parsed against
// their components' schemas.
type eventSet struct {
	e      ecs.Entity
	name   string
	event  string
	target string
	delayS float64
	sets   []setOp
	lis    registry.ListenerID
}

// setOp is one set: a patch of a component, or one axis of a
// single-property vector component.
type setOp struct {
	comp  string
	patch registry.Patch
	axis  int // >= 0: set this axis of the single property to num
	num   float64
}

// pendingSet is a set waiting for its delay.
type pendingSet struct {
	due float64
	seq uint64
	key animKey
	e   ecs.Entity
}

func registerEventSet(reg *registry.Registry, b *Builtins) error {
	if err := registerType(reg, schema.PairsType()); err != nil {
		return err
	}
	es := &EventSets{reg: reg, paused: pausedID(reg), types: reg.Types(), sets: map[animKey]*eventSet{}}
	_, err := registry.Register(reg, "event-set", registry.Definition[registry.Pairs]{
		Multiple: true,
		Update:   func(cx *registry.Context, v, _ *registry.Pairs) { es.configure(cx.Entity, cx.ID, cx.Name, *v) },
		Remove:   func(cx *registry.Context, _ *registry.Pairs) { es.remove(cx.Entity, cx.ID) },
		Check:    es.check,
	})
	b.EventSets = es
	return err
}

// configure compiles an event-set's pairs and (re)listens to its event.
// Pairs that do not compile are reported (a scene's are checked when it
// loads) and left out.
func (es *EventSets) configure(e ecs.Entity, id ecs.ID, name string, ps registry.Pairs) {
	key := animKey{e.Index(), id}
	if old := es.sets[key]; old != nil {
		es.reg.Events().Off(old.lis)
	}
	lookup := func(n string) (*registry.Schema, bool) {
		c, ok := es.reg.Component(n)
		if !ok {
			return nil, false
		}
		return c.Schema, true
	}
	set, perr := es.compile(ps, lookup, es.reg.Names)
	if perr != nil {
		es.reg.ReportError(behaviourError(es.reg, e, name, perr))
	}
	set.e, set.name = e, name
	if set.event == "" {
		_, set.event, _ = cutInstance(name)
	}
	es.sets[key] = set
	if set.event != "" {
		set.lis = es.reg.Events().OnAs(e, set.event, name, func(*registry.Event) { es.fire(key, e) })
	}
}

func (es *EventSets) remove(e ecs.Entity, id ecs.ID) {
	key := animKey{e.Index(), id}
	if set := es.sets[key]; set != nil {
		es.reg.Events().Off(set.lis)
		delete(es.sets, key)
	}
}

// check checks, where a scene gives an event-set, that _delay is a
// number, _target a selector, and that every set names a component (and
// property) and gives a value its type parses.
func (es *EventSets) check(cx *registry.CheckContext, ps *registry.Pairs) error {
	if _, perr := es.compile(*ps, cx.Schema, cx.ComponentNames); perr != nil {
		return perr
	}
	return nil
}

// compile reads the pairs: the underscored keys, then each set parsed
// against its component's schema. A pair that does not compile is left
// out; the first such error is returned, placed in the pairs' text.
func (es *EventSets) compile(ps registry.Pairs, lookup func(string) (*registry.Schema, bool), names func() []string) (set *eventSet, first *registry.PropError) {
	set = &eventSet{}
	for _, p := range ps {
		if perr := es.compilePair(set, p, lookup, names); perr != nil && first == nil {
			first = perr
		}
	}
	return set, first
}

// compilePair reads one pair into set.
func (es *EventSets) compilePair(set *eventSet, p registry.Pair, lookup func(string) (*registry.Schema, bool), names func() []string) *registry.PropError {
	switch p.Key {
	case esEvent:
		set.event = p.Value
		return nil
	case esTarget:
		if sel, ok := es.types.Lookup("selector"); ok && p.Value != "" {
			if _, err := sel.Parse(p.Value, nil); err != nil {
				return valueError(p, err)
			}
		}
		set.target = p.Value
		return nil
	case esDelay:
		d, err := strconv.ParseFloat(p.Value, 64)
		if err != nil || d < 0 || d != d || d > 1e15 {
			return &registry.PropError{Text: p.Value, Offset: p.ValueAt, Expected: "a delay in milliseconds (a number, 0 or more)"}
		}
		set.delayS = d / 1000
		return nil
	}
	op, perr := es.compileSet(p, lookup, names)
	if perr != nil {
		return perr
	}
	set.sets = append(set.sets, op)
	return nil
}

// compileSet parses one `comp: value` or `comp.prop: value` pair.
func (es *EventSets) compileSet(p registry.Pair, lookup func(string) (*registry.Schema, bool), names func() []string) (setOp, *registry.PropError) {
	comp, prop, dotted := strings.Cut(p.Key, ".")
	s, ok := lookup(comp)
	if !ok {
		exp := "the name of a component, or _event, _target or _delay"
		if sug := didyoumean.Nearest(comp, names()); sug != "" {
			exp = "the name of a component" + didyoumean.Phrase(sug)
		}
		return setOp{}, &registry.PropError{Text: comp, Offset: p.KeyAt, Expected: exp}
	}
	op := setOp{comp: comp, axis: -1}
	var err error
	switch {
	case !dotted:
		op.patch, err = s.ParseAttr(comp, p.Value)
	case s.Single():
		t := animTarget{axis: axisIndex(prop)}
		if msg := t.setKind(&s.Props[0]); msg != "" || t.axis < 0 || t.kind != kindFloat {
			exp := "nothing after " + comp + ` ("` + comp + `: VALUE": it has a single property)`
			if vecAxes(s) > 0 {
				exp = "an axis of " + comp + " (" + "xyzw"[:vecAxes(s)] + ")"
			}
			return op, &registry.PropError{Text: prop, Offset: p.KeyAt + len(comp) + 1, Expected: exp}
		}
		op.axis = t.axis
		op.num, err = strconv.ParseFloat(strings.TrimSpace(p.Value), 64)
		if err != nil {
			err = &registry.ValueError{Text: p.Value, Expected: "a number"}
		}
	default:
		op.patch, err = s.ParseMap(comp, [][2]string{{prop, p.Value}})
	}
	if err != nil {
		var ae *registry.AttrError
		if errors.As(err, &ae) && ae.Kind == schema.UnknownProperty {
			return op, &registry.PropError{Text: prop, Offset: p.KeyAt + len(comp) + 1, Expected: strings.TrimPrefix(ae.Error(), comp+": ")}
		}
		return op, valueError(p, err)
	}
	return op, nil
}

// vecAxes returns the number of axes of a single-property vector schema
// (0 for others).
func vecAxes(s *registry.Schema) int {
	t := animTarget{axis: -1}
	if t.setKind(&s.Props[0]) != "" || t.kind != kindFloat {
		return 0
	}
	return t.lanes
}

// valueError places the error of parsing pair p's value.
func valueError(p registry.Pair, err error) *registry.PropError {
	pe := &registry.PropError{Text: p.Value, Offset: p.ValueAt, Expected: err.Error(), Err: err}
	var ae *registry.AttrError
	var ve *registry.ValueError
	switch {
	case errors.As(err, &ae):
		pe.Text, pe.Offset, pe.Expected = ae.Text, p.ValueAt+ae.Offset, ae.Expected
	case errors.As(err, &ve):
		pe.Text, pe.Offset, pe.Expected = ve.Text, p.ValueAt+ve.Offset, ve.Expected
	}
	return pe
}

// fire handles the event of event-set key on e: its sets now, or after
// its delay.
func (es *EventSets) fire(key animKey, e ecs.Entity) {
	set := es.sets[key]
	if set == nil || set.e != e || es.reg.Paused() || es.reg.World().Has(e, es.paused) {
		return // A-Frame's event-set does not listen while paused
	}
	if set.delayS > 0 {
		es.seq++
		es.pending = append(es.pending, pendingSet{due: es.reg.Time() + set.delayS, seq: es.seq, key: key, e: e})
		return
	}
	es.apply(set)
}

// apply sets an event-set's values on its target. What fails (no
// target, a stale one) is reported with Registry.ReportError.
func (es *EventSets) apply(set *eventSet) {
	target := set.e
	if set.target != "" {
		t, ok, err := es.reg.Resolve(registry.SelectorText(set.target))
		if err != nil || !ok {
			if err == nil {
				err = fmt.Errorf("_target %q matches no entity", set.target)
			}
			es.reg.ReportError(behaviourError(es.reg, set.e, set.name, err))
			return
		}
		target = t
	}
	for _, op := range set.sets {
		patch := op.patch
		if op.axis >= 0 {
			vs, err := es.reg.Values(target, op.comp)
			v := [4]float64{}
			if err == nil {
				v = (&animTarget{}).lanesOf(vs[0])
			}
			v[op.axis] = op.num
			c, _ := es.reg.Component(op.comp)
			t := animTarget{typ: c.Schema.Props[0].Type, kind: kindFloat, axis: -1}
			patch = registry.Patch{{Index: 0, Value: t.valueOf(v)}}
		}
		if err := es.reg.SetPatch(target, op.comp, patch, registry.Merge); err != nil {
			es.reg.ReportError(behaviourError(es.reg, set.e, set.name, err))
		}
	}
}

// step applies the delayed sets that are due, in order of their times
// (then of their events).
func (es *EventSets) step() {
	if len(es.pending) == 0 {
		return
	}
	now := es.reg.Time()
	var due []pendingSet
	keep := es.pending[:0]
	for _, p := range es.pending {
		if p.due <= now+timeEps {
			due = append(due, p)
		} else {
			keep = append(keep, p)
		}
	}
	clear(es.pending[len(keep):])
	es.pending = keep
	slices.SortFunc(due, func(a, b pendingSet) int {
		return cmp.Or(cmp.Compare(a.due, b.due), cmp.Compare(a.seq, b.seq))
	})
	for _, p := range due {
		if set := es.sets[p.key]; set != nil && set.e == p.e {
			es.apply(set)
		}
	}
}
