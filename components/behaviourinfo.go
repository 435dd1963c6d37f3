package components

import (
	"strconv"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// This file describes an entity's behaviour as it runs, for inspectors:
// its animations, timers, handlers and bindings.

// AnimationInfo describes one animation of an entity.
type AnimationInfo struct {
	// Name is the animation's name on the entity (animation__open),
	// Property what it animates.
	Name, Property string
	AnimationState
}

// TimerInfo describes one timer of an entity.
type TimerInfo struct {
	// Name is the timer's name on the entity, Event the event it emits.
	Name, Event string
	// Fired counts its events since it last started; Running is false
	// once it is done or stopped.
	Fired   int64
	Running bool
}

// HandlerInfo describes one on handler of an entity.
type HandlerInfo struct {
	// Name is the handler's name on the entity (on__hit), Value its
	// value as an attribute string, Events what it listens to.
	Name, Value string
	Events      []string
	// Fired counts the deliveries that passed its from and if clauses
	// (kept across edits of its value).
	Fired int64
	// Error is the last error it reported, or "".
	Error string
}

// BindingInfo describes one binding of an entity.
type BindingInfo struct {
	// Name is the bind instance's name (bind, bind__bob); Path and
	// Expression the binding as written.
	Name, Path, Expression string
	// Value is the bound property's value now, as attribute text.
	Value string
	// Error is the last error it reported, or "".
	Error string
}

// pausedID returns the ecs ID of the registry's paused tag
// ([registry.PausedTag]), which registry.New registers.
func pausedID(reg *registry.Registry) ecs.ID {
	id, _ := reg.World().ComponentID(registry.PausedTag)
	return id
}

// lookupExisting returns the component of name, the ecs ID that stores
// name and whether that storage exists (see
// [registry.Component.ExistingID]); c is nil for an unknown name.
func lookupExisting(reg *registry.Registry, name string) (c *registry.Component, id ecs.ID, ok bool) {
	if c, ok = reg.Component(name); !ok {
		return nil, 0, false
	}
	id, ok = c.ExistingID(name)
	return c, id, ok
}

// instances calls fn with the ecs ID and name of each instance of
// component c that e has, in ecs ID order.
func instances(reg *registry.Registry, e ecs.Entity, c string, fn func(id ecs.ID, name string)) {
	w := reg.World()
	if !w.Alive(e) {
		return
	}
	for _, id := range w.Components(e) {
		rc, ok := reg.ComponentByID(id)
		if !ok || rc.Name != c {
			continue
		}
		for _, n := range reg.EntityComponents(e) {
			if _, nid, ok := lookupExisting(reg, n); ok && nid == id {
				fn(id, n)
				break
			}
		}
	}
}

// Of returns the animations of e.
func (a *Animations) Of(e ecs.Entity) []AnimationInfo {
	var out []AnimationInfo
	instances(a.reg, e, "animation", func(id ecs.ID, name string) {
		if st, ok := a.State(e, name); ok {
			i := a.index[animKey{e.Index(), id}]
			out = append(out, AnimationInfo{Name: name, Property: a.cfgs[i].data.Property, AnimationState: st})
		}
	})
	return out
}

// Of returns the timers of e.
func (ts *Timers) Of(e ecs.Entity) []TimerInfo {
	var out []TimerInfo
	instances(ts.reg, e, "timer", func(id ecs.ID, name string) {
		if i, ok := ts.index[animKey{e.Index(), id}]; ok && ts.runs[i].e == e {
			out = append(out, TimerInfo{Name: name, Event: ts.cfgs[i].data.Event, Fired: ts.runs[i].fired, Running: ts.runs[i].flags&rRunning != 0})
		}
	})
	return out
}

// Of returns the handlers of e.
func (hs *Handlers) Of(e ecs.Entity) []HandlerInfo {
	var out []HandlerInfo
	instances(hs.reg, e, "on", func(id ecs.ID, name string) {
		if h := hs.hs[animKey{e.Index(), id}]; h != nil && h.e == e {
			out = append(out, HandlerInfo{Name: name, Value: h.spec.text, Events: append([]string(nil), h.evs...), Fired: h.fired, Error: h.err})
		}
	})
	return out
}

// Of returns the bindings of e, each instance's in the order written.
func (bs *Bindings) Of(e ecs.Entity) []BindingInfo {
	var out []BindingInfo
	instances(bs.reg, e, "bind", func(id ecs.ID, name string) {
		in := bs.insts[animKey{e.Index(), id}]
		if in == nil || in.e != e {
			return
		}
		if in.prog == nil {
			out = append(out, BindingInfo{Name: name, Error: in.err})
			return
		}
		for k := range in.prog.items { // in the order written
			for _, i := range in.runs {
				c := &bs.cold[i]
				if c.prog != &in.prog.items[k] {
					continue
				}
				info := BindingInfo{Name: name, Path: c.prog.path, Expression: c.prog.src, Error: c.err}
				if info.Error == "" {
					info.Error = in.err
				}
				info.Value = bs.valueText(c)
				out = append(out, info)
			}
		}
	})
	return out
}

// valueText prints the property binding c writes, on its entity.
func (bs *Bindings) valueText(c *bindCold) string {
	vs, err := bs.reg.Values(c.e, c.prog.tgt.comp)
	if err != nil {
		return ""
	}
	t := &c.prog.tgt
	if t.prop < 0 {
		return c.comp.Schema.PrintAttr(vs)
	}
	if t.axis >= 0 {
		return axisText(vs[t.prop], t.axis)
	}
	return c.comp.Schema.Props[t.prop].Print(vs[t.prop])
}

// axisText prints axis a of a vector value.
func axisText(v any, a int) string {
	var t animTarget
	return strconv.FormatFloat(t.lanesOf(v)[a], 'g', -1, 64)
}

// BehaviourInfo is an entity's running behaviour, as an inspector shows it
// (package inspect, GET /api/entities/REF): its animations with their
// progress, timers, handlers and bindings with their values.
type BehaviourInfo struct {
	Animations []AnimationInfo `json:"animations,omitempty"`
	Timers     []TimerInfo     `json:"timers,omitempty"`
	Handlers   []HandlerInfo   `json:"handlers,omitempty"`
	Bindings   []BindingInfo   `json:"bindings,omitempty"`
}

// BehaviourOf returns e's running behaviour as a *[BehaviourInfo], or nil
// (an untyped nil) if it runs none: what inspect.Options.Behaviour asks
// of the program's built-ins.
func (b *Builtins) BehaviourOf(e ecs.Entity) any {
	info := &BehaviourInfo{Animations: b.Animations.Of(e), Timers: b.Timers.Of(e), Handlers: b.Handlers.Of(e), Bindings: b.Bindings.Of(e)}
	if len(info.Animations)+len(info.Timers)+len(info.Handlers)+len(info.Bindings) == 0 {
		return nil
	}
	return info
}
