package behaviour

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/registry"
)

// set writes a set's value to target t: in place when nothing but the
// data sees the write (the component is there, has no update hook and no
// constraint on the property, and t has no componentchanged listener),
// else through Registry.SetPatch, as a scene edit would (adding the
// component if t lacks it, running its update hook, emitting
// componentchanged).
func (hs *Handlers) set(st *onStep, c *registry.Component, id ecs.ID, t ecs.Entity, val *setValue) error {
	tg := &st.tgt
	if !hs.w.Alive(t) {
		return nil
	}
	if tg.write <= wVec4 && !tg.check && !c.HasUpdate() && hs.w.Has(t, id) && !hs.reg.Events().Listening(t, "componentchanged") {
		p, err := hs.w.GetPtr(t, id)
		if err != nil {
			return err
		}
		changed, err := writeInPlace(unsafe.Add(p, tg.off), tg.write, val)
		if err != nil || !changed {
			return err
		}
		return hs.w.MarkChanged(t, id)
	}
	patch, err := patchOf(hs.reg, tg, c, t, val)
	if err != nil {
		return err
	}
	return hs.reg.SetPatch(t, tg.comp, patch, registry.Merge)
}

// finite refuses NaN and the infinities, which no property holds.
func finite(x float64) error {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Errorf("the value is %v, not a finite number", x)
	}
	return nil
}

// finiteVec refuses a vector with an axis that is not finite.
func finiteVec(v expr.Vec, n int) error {
	for _, x := range v[:n] {
		if err := finite(x); err != nil {
			return err
		}
	}
	return nil
}

// writeInPlace writes val at p as write says, and reports whether the
// value changed.
func writeInPlace(p unsafe.Pointer, write uint8, val *setValue) (bool, error) {
	switch write {
	case wNumber:
		if err := finite(val.num); err != nil {
			return false, err
		}
		x := (*float64)(p)
		changed := *x != val.num
		*x = val.num
		return changed, nil
	case wFloat32:
		if err := finite(val.num); err != nil {
			return false, err
		}
		x := (*float32)(p)
		changed := *x != float32(val.num)
		*x = float32(val.num)
		return changed, nil
	case wInt:
		n, err := wholeNumber(val.num)
		if err != nil {
			return false, err
		}
		x := (*int)(p)
		changed := *x != n
		*x = n
		return changed, nil
	case wBool:
		x := (*bool)(p)
		changed := *x != val.b
		*x = val.b
		return changed, nil
	case wString:
		x := (*string)(p)
		changed := *x != val.s
		*x = val.s
		return changed, nil
	}
	n := int(write-wVec2) + 2
	if err := finiteVec(val.v, n); err != nil {
		return false, err
	}
	x := (*[4]float64)(p)
	changed := false
	for k := 0; k < n; k++ {
		changed = changed || x[k] != val.v[k]
		x[k] = val.v[k]
	}
	return changed, nil
}

// patchOf makes the patch that sets val as tg says, for SetPatch.
func patchOf(reg *registry.Registry, tg *propTarget, c *registry.Component, t ecs.Entity, val *setValue) (registry.Patch, error) {
	if tg.write == wAttr {
		return c.Schema.ParseAttr(tg.comp, val.s)
	}
	prop := &c.Schema.Props[tg.prop]
	var v any
	var err error
	switch tg.write {
	case wParse:
		if v, err = prop.Parse(val.s); err != nil {
			return nil, err
		}
	case wNumber, wFloat32:
		if err := finite(val.num); err != nil {
			return nil, err
		}
		v = val.num
		if tg.axis >= 0 {
			v = withAxis(reg, prop, tg, t, val.num)
		}
	case wInt:
		n, err := wholeNumber(val.num)
		if err != nil {
			return nil, err
		}
		v = n
	case wBool:
		v = val.b
	case wString:
		v = val.s
	default:
		if err := finiteVec(val.v, tg.kind.Dim()); err != nil {
			return nil, err
		}
		v = vecValue(tg.kind, val.v)
	}
	if err := prop.Check(v); err != nil {
		return nil, err
	}
	return registry.Patch{{Index: tg.prop, Value: v}}, nil
}

// withAxis returns prop's value on t (its default if t lacks the
// component) with axis tg.axis set to x.
func withAxis(reg *registry.Registry, prop *registry.Property, tg *propTarget, t ecs.Entity, x float64) any {
	cur := prop.Default
	if vs, err := reg.Values(t, tg.comp); err == nil {
		cur = vs[tg.prop]
	}
	var lanes expr.Vec
	kind := expr.Vec3
	switch v := cur.(type) {
	case registry.Vec2:
		lanes, kind = expr.Vec{v.X, v.Y}, expr.Vec2
	case registry.Vec3:
		lanes = expr.Vec{v.X, v.Y, v.Z}
	case registry.Vec4:
		lanes, kind = expr.Vec{v.X, v.Y, v.Z, v.W}, expr.Vec4
	}
	lanes[tg.axis] = x
	return vecValue(kind, lanes)
}

// vecValue converts a vector to the registry's value of its kind.
func vecValue(k expr.Kind, v expr.Vec) any {
	switch k {
	case expr.Vec2:
		return registry.Vec2{X: v[0], Y: v[1]}
	case expr.Vec4:
		return registry.Vec4{X: v[0], Y: v[1], Z: v[2], W: v[3]}
	}
	return registry.Vec3{X: v[0], Y: v[1], Z: v[2]}
}
