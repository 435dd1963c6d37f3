package behaviour

import "github.com/scenecs/scenecs/internal/easing"

// The animation component's easings are A-Frame's names, computed with
// Robert Penner's equations (package internal/easing).

// Easings returns the names of the animation component's easings:
// linear, then easeIn, easeOut and easeInOut of Quad, Cubic, Quart,
// Quint, Sine, Expo, Circ, Back, Elastic and Bounce.
func Easings() []string { return easing.Names() }

// Ease returns the easing curve name at t (0 to 1; clamped), with the
// given elasticity for the Elastic family (A-Frame's default is 400); ok
// is false for an unknown name.
func Ease(name string, t, elasticity float64) (v float64, ok bool) {
	return easing.Ease(name, t, elasticity)
}
