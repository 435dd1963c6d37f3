// Package easing holds the easing curves of the animation component
// (package components): A-Frame's names, computed with
// Robert Penner's equations (anime.js, which A-Frame animates with,
// approximates most of them with cubic Bézier curves; see
// docs/aframe-differences.md). Each family f has an "in" curve in_f(t);
// easeOut is 1 - in_f(1 - t), easeInOut is in_f(2t)/2 for t < 1/2 and
// 1 - in_f(2 - 2t)/2 after. The in curves:
//
//	Quad t², Cubic t³, Quart t⁴, Quint t⁵
//	Sine 1 - cos(tπ/2)
//	Expo 2^(10(t-1)), 0 at t = 0
//	Circ 1 - √(1 - t²)
//	Back t²((s+1)t - s), s = 1.70158 (s × 1.525 for easeInOutBack, as Penner)
//	Elastic -2^(10(t-1)) sin((t - 1 - p/4)·2π/p), 0 and 1 at the ends, with
//	        period p = (1000 - elasticity)/1000 (elasticity clamped to 1..999)
//	Bounce 1 - out(1 - t), out being Penner's four parabolas
package easing

import (
	"math"
	"slices"
)

// Curve is an easing curve, by its index in Names.
type Curve uint8

// The families, in easingNames' order after linear: easing e > 0 is
// family (e-1)/3, variant (e-1)%3 (in, out, inOut).
const (
	famQuad = iota
	famCubic
	famQuart
	famQuint
	famSine
	famExpo
	famCirc
	famBack
	famElastic
	famBounce
)

// Linear and InQuad (A-Frame's default) are the curves the animation
// loop computes inline.
const (
	Linear Curve = 0
	InQuad Curve = 1
)

// easingNames are the easing names in easing order.
var easingNames = func() []string {
	names := []string{"linear"}
	for _, f := range []string{"Quad", "Cubic", "Quart", "Quint", "Sine", "Expo", "Circ", "Back", "Elastic", "Bounce"} {
		names = append(names, "easeIn"+f, "easeOut"+f, "easeInOut"+f)
	}
	return names
}()

// Names returns the names of the easings, in Curve order: linear, then
// easeIn, easeOut and easeInOut of Quad, Cubic, Quart, Quint, Sine, Expo,
// Circ, Back, Elastic and Bounce.
func Names() []string { return slices.Clone(easingNames) }

// ByName returns the easing called name.
func ByName(name string) (Curve, bool) {
	i := slices.Index(easingNames, name)
	return Curve(max(i, 0)), i >= 0
}

// Ease returns the easing curve name at t (0 to 1; clamped), with the
// given elasticity for the Elastic family (A-Frame's default is 400); ok
// is false for an unknown name.
func Ease(name string, t, elasticity float64) (v float64, ok bool) {
	e, ok := ByName(name)
	if !ok {
		return 0, false
	}
	return e.At(min(max(t, 0), 1), ElasticPeriod(elasticity)), true
}

// ElasticPeriod is the period of the Elastic family for an elasticity:
// anime.js's (1000 - elasticity) / 1000, elasticity clamped to 1..999.
func ElasticPeriod(elasticity float64) float64 {
	if elasticity != elasticity { // NaN
		elasticity = 400
	}
	return (1000 - min(max(elasticity, 1), 999)) / 1000
}

// backS is Penner's overshoot for the Back family.
const backS = 1.70158

// At returns the curve at t in [0, 1]; p is the elastic period.
func (e Curve) At(t, p float64) float64 {
	if e == Linear {
		return t
	}
	if e == InQuad {
		return t * t
	}
	fam, variant := int(e-1)/3, int(e-1)%3
	switch variant {
	case 0:
		return easeIn(fam, t, p, backS)
	case 1:
		return 1 - easeIn(fam, 1-t, p, backS)
	}
	s := backS
	if fam == famBack {
		s *= 1.525
	}
	if t < 0.5 {
		return easeIn(fam, 2*t, p, s) / 2
	}
	return 1 - easeIn(fam, 2-2*t, p, s)/2
}

// easeIn is the "in" curve of family fam at t; p is the elastic period,
// s the Back overshoot.
func easeIn(fam int, t, p, s float64) float64 {
	switch fam {
	case famQuad:
		return t * t
	case famCubic:
		return t * t * t
	case famQuart:
		return t * t * t * t
	case famQuint:
		return t * t * t * t * t
	case famSine:
		return 1 - math.Cos(t*math.Pi/2)
	case famExpo:
		if t == 0 {
			return 0
		}
		return math.Pow(2, 10*(t-1))
	case famCirc:
		return 1 - math.Sqrt(1-t*t)
	case famBack:
		return t * t * ((s+1)*t - s)
	case famElastic:
		if t == 0 || t == 1 {
			return t
		}
		return -math.Pow(2, 10*(t-1)) * math.Sin((t-1-p/4)*2*math.Pi/p)
	}
	return 1 - bounceOut(1-t)
}

// bounceOut is Penner's easeOutBounce: four parabolas, each bounce lower.
func bounceOut(t float64) float64 {
	const k = 7.5625
	switch {
	case t < 1/2.75:
		return k * t * t
	case t < 2/2.75:
		t -= 1.5 / 2.75
		return k*t*t + 0.75
	case t < 2.5/2.75:
		t -= 2.25 / 2.75
		return k*t*t + 0.9375
	}
	t -= 2.625 / 2.75
	return k*t*t + 0.984375
}
