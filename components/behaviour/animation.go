package behaviour

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Animation is the animation component, A-Frame's (multiple:
// animation__open): it tweens one property of its entity from `from` to
// `to` over `dur` milliseconds of scene time. docs/components.md
// describes every property; the differences from A-Frame are in
// docs/aframe-differences.md.
type Animation struct {
	// Property is the property animated: a component (a single-property
	// one, such as position), component.property, or one axis of a
	// vector (position.y, light.direction.x); A-Frame's raw paths that
	// mean the same (object3D.position.y, components.material.material.color)
	// are accepted.
	Property string `scene:"property"`
	// From is the value at the start; empty: the property's value when
	// the animation begins. To is the value at the end (axes it leaves
	// out keep From's).
	From string `scene:"from"`
	To   string `scene:"to"`
	// Type and IsRawProperty are accepted for A-Frame's scenes and
	// ignored: the property's schema says how to interpolate.
	Type          string `scene:"type"`
	IsRawProperty bool   `scene:"isRawProperty"`
	// Delay is how long to wait before each begin, in milliseconds.
	Delay float64 `scene:"delay,min=0"`
	// Dir is normal (from to to), reverse (to to from) or alternate
	// (each play after the first goes back the way the last came).
	Dir string `scene:"dir,oneOf=normal|alternate|reverse"`
	// Dur is the length of one play in milliseconds.
	Dur float64 `scene:"dur,default=1000,min=0"`
	// Easing is the curve (see [Easings]); Elasticity shapes the Elastic
	// family (higher: more oscillations).
	Easing     string  `scene:"easing,default=easeInQuad"`
	Elasticity float64 `scene:"elasticity,default=400"`
	// Loop is how many times to play (0 and 1: once), or true: forever.
	Loop Loop `scene:"loop"`
	// Round rounds the values written to whole numbers.
	Round bool `scene:"round"`
	// Autoplay begins the animation when it is added (unless StartEvents
	// are given); Enabled false stops it and makes it ignore events.
	Autoplay bool `scene:"autoplay,default=true"`
	Enabled  bool `scene:"enabled,default=true"`
	// The events, on the entity, that begin (from the start, after the
	// delay), pause, resume and restart the animation. RestartEvents is
	// scenecs's: it restarts without turning autoplay off, as
	// StartEvents do.
	StartEvents   []string `scene:"startEvents"`
	PauseEvents   []string `scene:"pauseEvents"`
	ResumeEvents  []string `scene:"resumeEvents"`
	RestartEvents []string `scene:"restartEvents"`
}

// Loop is the value of a loop property (the loop type): a count, "0"
// and up, or "true" for without end. It is text so that a scene may write
// either (loop: 3, loop: true); parsing keeps it in that form ("false" is
// "0", "007" is "7").
type Loop string

// Count returns the count, or forever for "true".
func (l Loop) Count() (n int, forever bool) {
	if l == "true" {
		return 0, true
	}
	n, _ = strconv.Atoi(string(l))
	return n, false
}

// loopExpected is what a loop value may be.
const loopExpected = "a count (0 or more), true or false"

// loopType returns the loop property type.
func loopType() *registry.Type {
	return &registry.Type{
		Name: "loop", GoType: reflect.TypeFor[Loop](), Default: Loop("0"),
		Parse: parseLoop,
		Print: func(v any) string { return string(v.(Loop)) },
	}
}

func parseLoop(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	switch s {
	case "":
		return def, nil
	case "true":
		return Loop("true"), nil
	case "false":
		return Loop("0"), nil
	}
	n, err := strconv.ParseUint(s, 10, 31)
	if err != nil {
		return nil, &registry.ValueError{Text: s, Offset: strings.Index(text, s), Expected: loopExpected}
	}
	return Loop(strconv.FormatUint(n, 10)), nil
}

// Directions of an animation (its dir).
const (
	dirNormal uint8 = iota
	dirAlternate
	dirReverse
)

func dirOf(s string) uint8 {
	switch s {
	case "alternate":
		return dirAlternate
	case "reverse":
		return dirReverse
	}
	return dirNormal
}

// playsOf returns how many plays an animation makes (-1: without end),
// as anime.js counts them for A-Frame: loop plays (at least one), one
// more for reverse, two for alternate with loop 1.
func playsOf(l Loop, dir uint8) int64 {
	n, forever := l.Count()
	if forever {
		return -1
	}
	if dir == dirReverse || (dir == dirAlternate && n == 1) {
		n++
	}
	return int64(max(n, 1))
}

// AnimationEvent is the Detail of animationbegin and animationcomplete
// (and animationcomplete__ID), A-Frame's {name}: the animation's name on
// the entity, such as animation__open.
// Expressions read it as detail.name.
type AnimationEvent struct {
	Name string `expr:"name"`
}

// registerAnimation registers the loop type and the animation component
// and makes the runtime that runs them.
func registerAnimation(reg *registry.Registry, b *Builtins) error {
	if err := registerType(reg, loopType()); err != nil {
		return err
	}
	s, err := schema.SchemaOf(reflect.TypeFor[Animation](), reg.Types())
	if err != nil {
		return err
	}
	i, _ := s.Lookup("easing")
	s.Props[i].OneOf = Easings()
	a := newAnimations(reg, b)
	c, err := registry.Register(reg, "animation", registry.Definition[Animation]{
		Schema: s, Multiple: true,
		Init:   func(cx *registry.Context, _ *Animation) { a.add(cx.Entity, cx.ID, cx.Name) },
		Update: func(cx *registry.Context, v, _ *Animation) { a.configure(cx.Entity, cx.ID, v) },
		Remove: func(cx *registry.Context, _ *Animation) { a.remove(cx.Entity, cx.ID) },
		Pause:  func(cx *registry.Context, _ *Animation) { a.hold(cx.Entity, cx.ID, true) },
		Play:   func(cx *registry.Context, _ *Animation) { a.hold(cx.Entity, cx.ID, false) },
		Check:  checkAnimation,
	})
	if err != nil {
		return err
	}
	a.comp = c
	b.Animations = a
	return nil
}

// registerType registers t in reg's types, unless a type of that name
// and Go type is there already.
func registerType(reg *registry.Registry, t *registry.Type) error {
	if have, ok := reg.Types().Lookup(t.Name); ok && have.GoType == t.GoType {
		return nil
	}
	return reg.Types().Register(t)
}

// checkAnimation checks, where a scene gives an animation, that its
// property path names a property that animates and that from and to
// parse as its values.
func checkAnimation(cx *registry.CheckContext, v *Animation) error {
	if v.Property == "" {
		return nil
	}
	t, perr := resolvePath(v.Property, cx.Schema, cx.ComponentNames())
	if perr != nil {
		return perr
	}
	var cur [4]float64
	if s, ok := cx.Schema(t.comp); ok {
		cur = t.lanesOf(axisValue(s.Props[t.prop].Default, t.axis))
	}
	for _, f := range []struct{ name, text string }{{"from", v.From}, {"to", v.To}} {
		if f.text == "" {
			continue
		}
		if _, err := t.parseLanes(cx.Registry.Types(), f.text, cur); err != nil {
			pe := &registry.PropError{Property: f.name, Text: f.text, Expected: err.Error()}
			if ve, ok := err.(*registry.ValueError); ok {
				pe.Text, pe.Offset, pe.Expected = ve.Text, ve.Offset, ve.Expected
			}
			return pe
		}
	}
	return nil
}

// axisValue returns v, or its axis (0..3) as a float64 for axis >= 0.
func axisValue(v any, axis int) any {
	if axis < 0 {
		return v
	}
	var t animTarget
	return t.lanesOf(v)[axis]
}

// entityLabel names e in messages: #id, or its handle.
func entityLabel(reg *registry.Registry, e ecs.Entity) string {
	if id := reg.EntityID(e); id != "" {
		return "#" + id
	}
	return e.String()
}

// behaviourError is a failure of a behaviour component found while the
// scene runs (a target that does not resolve, a value that does not
// parse), reported with [registry.Registry.ReportError].
func behaviourError(reg *registry.Registry, e ecs.Entity, name string, err error) error {
	return fmt.Errorf("entity %s: %s: %w", entityLabel(reg, e), name, err)
}
