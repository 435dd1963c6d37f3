package behaviour

import (
	"math"
	"reflect"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
)

// This file resolves an animation's property path (`position.y`,
// `material.color`, A-Frame's raw `object3D.position.y`) against the
// schemas, and converts between property values and the numbers an
// animation interpolates (its lanes).

// What an animation writes: float64 lanes (number properties, vector
// axes), a Go int, a bool, or a colour's four 8-bit channels.
const (
	kindFloat uint8 = iota
	kindInt
	kindBool
	kindColor
)

// animTarget is what a property path names: a property of a component,
// or one axis of a vector property.
type animTarget struct {
	comp  string // component name, as scenes write it (an instance too)
	prop  int    // index in the component's schema
	axis  int    // -1: the whole property; else 0..3 (x, y, z, w)
	kind  uint8
	lanes int
	off   uintptr // byte offset of the first lane in the component's value
	typ   *registry.Type
}

// pathSeg is one dot-separated segment of a path and where it starts.
type pathSeg struct {
	s  string
	at int
}

func splitPath(path string) []pathSeg {
	var segs []pathSeg
	start := 0
	for i := 0; i <= len(path); i++ {
		if i == len(path) || path[i] == '.' {
			segs = append(segs, pathSeg{path[start:i], start})
			start = i + 1
		}
	}
	return segs
}

// pathError is a problem with a property path: the offending segment and
// what was expected there.
func pathError(seg pathSeg, expected string) *registry.PropError {
	return &registry.PropError{Property: "property", Text: seg.s, Offset: seg.at, Expected: expected}
}

// axisIndex returns the index of axis name a ("x".."w") or -1.
func axisIndex(a string) int {
	if len(a) != 1 {
		return -1
	}
	return strings.IndexByte("xyzw", a[0])
}

// rawTransforms are the object3D members A-Frame's raw paths reach.
var rawTransforms = []string{"position", "rotation", "scale", "visible"}

// resolvePath resolves path (not empty) with the schemas lookup gives;
// names lists the component names known, for suggestions. Errors point
// at the offending segment of path.
func resolvePath(path string, lookup func(string) (*registry.Schema, bool), names []string) (animTarget, *registry.PropError) {
	segs := splitPath(path)
	for _, s := range segs {
		if s.s == "" {
			return animTarget{}, pathError(s, `a path of names separated by "." (component, component.property, component.property.axis)`)
		}
	}
	comp, rest := segs[0], segs[1:]
	raw := false
	switch comp.s {
	case "object3D":
		if len(rest) == 0 || !contains(rawTransforms, rest[0].s) || (rest[0].s == "visible" && len(rest) > 1) {
			at := pathSeg{"", len(path)}
			if len(rest) > 0 {
				at = rest[0]
			}
			return animTarget{}, pathError(at, "position, rotation, scale or visible after object3D")
		}
		comp, rest = rest[0], rest[1:]
	case "components":
		if len(rest) < 2 {
			return animTarget{}, pathError(pathSeg{"", len(path)}, "components.COMPONENT.….PROPERTY")
		}
		comp, rest, raw = rest[0], rest[1:], true
	}
	s, ok := lookup(comp.s)
	if !ok {
		exp := "the name of a component"
		exp += didyoumean.Hint(comp.s, names)
		return animTarget{}, pathError(comp, exp)
	}
	if comp.s == worldName {
		return animTarget{}, pathError(comp, "a component other than world (computed from position, rotation and scale)")
	}
	if raw {
		rest = rawRest(s, rest)
	}
	t, perr := resolveProp(s, comp, rest, path)
	if perr != nil {
		return animTarget{}, perr
	}
	t.comp = comp.s
	return t, nil
}

// rawRest keeps, of the segments after components.COMPONENT, those that
// name the property: A-Frame's raw paths go through three.js objects
// (components.material.material.color), whose names are skipped. The
// last segment is the property, or an axis after its vector property.
func rawRest(s *registry.Schema, rest []pathSeg) []pathSeg {
	n := len(rest)
	if n >= 2 && axisIndex(rest[n-1].s) >= 0 {
		if _, ok := s.Lookup(rest[n-2].s); ok && !s.Single() {
			return rest[n-2:]
		}
		if s.Single() {
			return rest[n-1:]
		}
	}
	return rest[n-1:]
}

// resolveProp resolves the segments after the component: none (a
// single-property component), a property, an axis of a single vector
// property, or a property and an axis.
func resolveProp(s *registry.Schema, comp pathSeg, rest []pathSeg, path string) (animTarget, *registry.PropError) {
	t := animTarget{axis: -1}
	switch {
	case s.IsTag():
		return t, pathError(comp, "a component with properties ("+comp.s+" is a tag)")
	case len(rest) == 0 && !s.Single():
		return t, pathError(pathSeg{"", len(path)}, comp.s+".PROPERTY, naming one of its properties ("+strings.Join(s.Names(), ", ")+")")
	case len(rest) > 0 && s.Single():
		t.axis = axisIndex(rest[0].s)
		if t.axis < 0 || len(rest) > 1 {
			return t, pathError(rest[min(len(rest)-1, 1)], "an axis (x, y, z, w) of "+comp.s)
		}
	case len(rest) > 0:
		i, ok := s.Lookup(rest[0].s)
		if !ok {
			exp := "a property of " + comp.s + " (" + strings.Join(s.Names(), ", ") + ")"
			if sug := didyoumean.Nearest(rest[0].s, s.Names()); sug != "" {
				exp = "a property of " + comp.s + didyoumean.Phrase(sug)
			}
			return t, pathError(rest[0], exp)
		}
		t.prop = i
		if len(rest) > 1 {
			if t.axis = axisIndex(rest[1].s); t.axis < 0 || len(rest) > 2 {
				return t, pathError(rest[min(len(rest)-1, 2)], "an axis (x, y, z, w) of "+comp.s+"."+rest[0].s)
			}
		}
	}
	p := &s.Props[t.prop]
	t.typ = p.Type
	if perr := t.setKind(p); perr != "" {
		// At the axis that does not fit, or at what names the property.
		at := comp
		switch {
		case t.axis >= 0:
			at = rest[len(rest)-1]
		case len(rest) > 0:
			at = rest[0]
		}
		return t, pathError(at, perr)
	}
	return t, nil
}

var (
	vec2Go  = reflect.TypeFor[registry.Vec2]()
	vec3Go  = reflect.TypeFor[registry.Vec3]()
	vec4Go  = reflect.TypeFor[registry.Vec4]()
	colorGo = reflect.TypeFor[registry.Color]()
)

// setKind sets what t writes for property p (and t.axis), or says why
// it cannot be animated.
func (t *animTarget) setKind(p *registry.Property) string {
	ft := p.FieldType
	vecLanes := 0
	switch p.Type.GoType {
	case vec2Go:
		vecLanes = 2
	case vec3Go:
		vecLanes = 3
	case vec4Go:
		vecLanes = 4
	}
	t.off = p.Offset
	switch {
	case vecLanes > 0 && ft.Size() == p.Type.GoType.Size():
		if t.axis >= vecLanes {
			return "an axis of a vec" + string(rune('0'+vecLanes)) + " (" + "xyzw"[:vecLanes] + ")"
		}
		t.kind, t.lanes = kindFloat, vecLanes
		if t.axis >= 0 {
			t.lanes, t.off = 1, p.Offset+uintptr(t.axis)*8
		}
		return ""
	case t.axis >= 0:
		return "a vector property before the axis (" + p.Type.Name + " has none)"
	case p.Type.GoType == colorGo && ft.Size() == colorGo.Size():
		t.kind, t.lanes = kindColor, 4
	case ft.Kind() == reflect.Float64:
		t.kind, t.lanes = kindFloat, 1
	case ft.Kind() == reflect.Int && p.Type.GoType.Kind() == reflect.Int:
		t.kind, t.lanes = kindInt, 1
	case ft.Kind() == reflect.Bool:
		t.kind, t.lanes = kindBool, 1
	default:
		return "a property that animates (a number, int, boolean, vector or colour), not a " + p.Type.Name
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lanesOf converts a value of t's property (the whole property, or for
// an axis target the axis as a float64) to lanes.
func (t *animTarget) lanesOf(v any) (l [4]float64) {
	switch x := v.(type) {
	case float64:
		l[0] = x
	case int:
		l[0] = float64(x)
	case bool:
		if x {
			l[0] = 1
		}
	case registry.Vec2:
		l = [4]float64{x.X, x.Y}
	case registry.Vec3:
		l = [4]float64{x.X, x.Y, x.Z}
	case registry.Vec4:
		l = [4]float64{x.X, x.Y, x.Z, x.W}
	case registry.Color:
		l = [4]float64{float64(x.R), float64(x.G), float64(x.B), float64(x.A)}
	}
	return l
}

// valueOf converts lanes back to a value of t's property type (for an
// axis target, a float64), the default a parse of from or to fills in
// what the text leaves out with.
func (t *animTarget) valueOf(l [4]float64) any {
	if t.axis >= 0 {
		return l[0]
	}
	switch t.typ.GoType {
	case vec2Go:
		return registry.Vec2{X: l[0], Y: l[1]}
	case vec3Go:
		return registry.Vec3{X: l[0], Y: l[1], Z: l[2]}
	case vec4Go:
		return registry.Vec4{X: l[0], Y: l[1], Z: l[2], W: l[3]}
	case colorGo:
		return registry.Color{R: channel(l[0]), G: channel(l[1]), B: channel(l[2]), A: channel(l[3])}
	}
	switch t.kind {
	case kindInt:
		return int(l[0])
	case kindBool:
		return l[0] >= 1
	}
	return l[0]
}

// parseLanes parses a from or to value for t, filling in what text leaves
// out (vector axes) from cur. An axis target takes a number.
func (t *animTarget) parseLanes(types *registry.Types, text string, cur [4]float64) ([4]float64, error) {
	typ := t.typ
	if t.axis >= 0 {
		typ, _ = types.Lookup("number")
	}
	v, err := typ.Parse(text, t.valueOf(cur))
	if err != nil {
		return cur, err
	}
	if t.axis >= 0 {
		return [4]float64{v.(float64)}, nil
	}
	return t.lanesOf(v), nil
}

// channel rounds a colour channel as anime.js rounds colours
// (Math.round) and clamps it to 0..255.
func channel(x float64) uint8 {
	return uint8(min(max(math.Floor(x+0.5), 0), 255))
}
