package behaviour

import (
	"math"
	"strings"
	"testing"
)

// penner holds Robert Penner's easing equations in their original form
// (t: time, b: start, c: change, d: duration), transcribed for the tests
// from his published equations rather than from the package's code: the
// package builds every out and in-out curve from one "in" curve, these
// write each variant out.
var penner = map[string]func(t, b, c, d float64) float64{
	"linear":         func(t, b, c, d float64) float64 { return c*t/d + b },
	"easeInQuad":     func(t, b, c, d float64) float64 { t /= d; return c*t*t + b },
	"easeOutQuad":    func(t, b, c, d float64) float64 { t /= d; return -c*t*(t-2) + b },
	"easeInOutQuad":  pennerInOut(func(t float64) float64 { return t * t }, func(t float64) float64 { t--; return -(t*(t-2) - 1) }),
	"easeInCubic":    func(t, b, c, d float64) float64 { t /= d; return c*t*t*t + b },
	"easeOutCubic":   func(t, b, c, d float64) float64 { t = t/d - 1; return c*(t*t*t+1) + b },
	"easeInOutCubic": pennerInOut(func(t float64) float64 { return t * t * t }, func(t float64) float64 { t -= 2; return t*t*t + 2 }),
	"easeInQuart":    func(t, b, c, d float64) float64 { t /= d; return c*t*t*t*t + b },
	"easeOutQuart":   func(t, b, c, d float64) float64 { t = t/d - 1; return -c*(t*t*t*t-1) + b },
	"easeInOutQuart": pennerInOut(func(t float64) float64 { return t * t * t * t }, func(t float64) float64 { t -= 2; return -(t*t*t*t - 2) }),
	"easeInQuint":    func(t, b, c, d float64) float64 { t /= d; return c*t*t*t*t*t + b },
	"easeOutQuint":   func(t, b, c, d float64) float64 { t = t/d - 1; return c*(t*t*t*t*t+1) + b },
	"easeInOutQuint": pennerInOut(func(t float64) float64 { return t * t * t * t * t }, func(t float64) float64 { t -= 2; return t*t*t*t*t + 2 }),
	"easeInSine":     func(t, b, c, d float64) float64 { return -c*math.Cos(t/d*(math.Pi/2)) + c + b },
	"easeOutSine":    func(t, b, c, d float64) float64 { return c*math.Sin(t/d*(math.Pi/2)) + b },
	"easeInOutSine":  func(t, b, c, d float64) float64 { return -c/2*(math.Cos(math.Pi*t/d)-1) + b },
	"easeInExpo": func(t, b, c, d float64) float64 {
		if t == 0 {
			return b
		}
		return c*math.Pow(2, 10*(t/d-1)) + b
	},
	"easeOutExpo": func(t, b, c, d float64) float64 {
		if t == d {
			return b + c
		}
		return c*(-math.Pow(2, -10*t/d)+1) + b
	},
	"easeInOutExpo": func(t, b, c, d float64) float64 {
		if t == 0 || t == d {
			return b + c*t/d
		}
		if t /= d / 2; t < 1 {
			return c/2*math.Pow(2, 10*(t-1)) + b
		}
		t--
		return c/2*(-math.Pow(2, -10*t)+2) + b
	},
	"easeInCirc":    func(t, b, c, d float64) float64 { t /= d; return -c*(math.Sqrt(1-t*t)-1) + b },
	"easeOutCirc":   func(t, b, c, d float64) float64 { t = t/d - 1; return c*math.Sqrt(1-t*t) + b },
	"easeInOutCirc": pennerInOut(func(t float64) float64 { return -(math.Sqrt(1-t*t) - 1) }, func(t float64) float64 { t -= 2; return math.Sqrt(1-t*t) + 1 }),
	"easeInBack":    func(t, b, c, d float64) float64 { s := 1.70158; t /= d; return c*t*t*((s+1)*t-s) + b },
	"easeOutBack": func(t, b, c, d float64) float64 {
		s := 1.70158
		t = t/d - 1
		return c*(t*t*((s+1)*t+s)+1) + b
	},
	"easeInOutBack": func(t, b, c, d float64) float64 {
		s := 1.70158 * 1.525
		if t /= d / 2; t < 1 {
			return c/2*(t*t*((s+1)*t-s)) + b
		}
		t -= 2
		return c/2*(t*t*((s+1)*t+s)+2) + b
	},
	"easeOutBounce": pennerBounceOut,
	"easeInBounce":  func(t, b, c, d float64) float64 { return c - pennerBounceOut(d-t, 0, c, d) + b },
	"easeInOutBounce": func(t, b, c, d float64) float64 {
		if t < d/2 {
			return (c-pennerBounceOut(d-2*t, 0, c, d))*0.5 + b
		}
		return pennerBounceOut(t*2-d, 0, c, d)*0.5 + c*0.5 + b
	},
}

// pennerInOut writes Penner's in-out form: t /= d/2; if t < 1: c/2 ·
// first(t) + b, else c/2 · second(t) + b.
func pennerInOut(first, second func(t float64) float64) func(t, b, c, d float64) float64 {
	return func(t, b, c, d float64) float64 {
		if t /= d / 2; t < 1 {
			return c/2*first(t) + b
		}
		return c/2*second(t) + b
	}
}

func pennerBounceOut(t, b, c, d float64) float64 {
	switch t /= d; {
	case t < 1/2.75:
		return c*(7.5625*t*t) + b
	case t < 2/2.75:
		t -= 1.5 / 2.75
		return c*(7.5625*t*t+0.75) + b
	case t < 2.5/2.75:
		t -= 2.25 / 2.75
		return c*(7.5625*t*t+0.9375) + b
	}
	t -= 2.625 / 2.75
	return c*(7.5625*t*t+0.984375) + b
}

// pennerElastic is Penner's easeInElastic with amplitude c (a = c, so s =
// p/4) and period p, over d = 1.
func pennerElastic(t, p float64) float64 {
	if t == 0 || t == 1 {
		return t
	}
	s := p / 4
	t--
	return -(math.Pow(2, 10*t) * math.Sin((t-s)*(2*math.Pi)/p))
}

// easePoints are the times every curve is checked at: the ends, the
// middle, and points on both sides of each bounce's breakpoints.
var easePoints = []float64{0, 0.01, 0.1, 0.2, 0.25, 1 / 2.75, 0.3, 0.4, 0.49, 0.5, 0.51, 0.6, 2 / 2.75, 0.75, 2.5 / 2.75, 0.95, 0.99, 1}

// TestEasingsPenner checks every easing but the elastic family against
// Penner's equations (scaled to b = 0, c = 1, d = 1 and to b = 10, c =
// -4, d = 2, which the package's curves give as b + c·ease(t/d)) at
// several points.
func TestEasingsPenner(t *testing.T) {
	if len(Easings()) != 31 {
		t.Fatalf("%d easings, want 31 (linear and 3 × 10 families)", len(Easings()))
	}
	for _, name := range Easings() {
		if strings.Contains(name, "Elastic") {
			continue
		}
		f, ok := penner[name]
		if !ok {
			t.Errorf("%s: no reference equation", name)
			continue
		}
		for _, x := range easePoints {
			got, ok := Ease(name, x, 400)
			if !ok {
				t.Fatalf("Ease(%q) unknown", name)
			}
			if want := f(x, 0, 1, 1); math.Abs(got-want) > 1e-12 {
				t.Errorf("%s(%v) = %.15g, want %.15g", name, x, got, want)
			}
			if want := f(2*x, 10, -4, 2); math.Abs(10-4*got-want) > 1e-11 {
				t.Errorf("%s at %v over (b 10, c -4, d 2): %.15g, want %.15g", name, x, 10-4*got, want)
			}
		}
	}
}

// TestEasingsElastic checks the elastic family against Penner's
// equation for several elasticities: period (1000 - elasticity)/1000,
// elasticity clamped to 1..999 (anime.js's mapping); out is 1 -
// in(1 - t), in-out anime.js's halves of in.
func TestEasingsElastic(t *testing.T) {
	for _, el := range []float64{400, 500, 100, 900, 1, 999, 0, -5, 1000, 5000} {
		p := (1000 - min(max(el, 1), 999)) / 1000
		for _, x := range easePoints {
			in := pennerElastic(x, p)
			out := 1 - pennerElastic(1-x, p)
			inOut := 1 - pennerElastic(2-2*x, p)/2
			if x < 0.5 {
				inOut = pennerElastic(2*x, p) / 2
			}
			for name, want := range map[string]float64{"easeInElastic": in, "easeOutElastic": out, "easeInOutElastic": inOut} {
				if got, _ := Ease(name, x, el); math.Abs(got-want) > 1e-12 {
					t.Errorf("%s(%v, elasticity %v) = %.15g, want %.15g", name, x, el, got, want)
				}
			}
		}
	}
	// Higher elasticity, shorter period: more swings before the end.
	swings := func(el float64) int {
		n, prev := 0, 0.0
		for i := 1; i < 1000; i++ {
			v, _ := Ease("easeOutElastic", float64(i)/1000, el)
			if (v-1)*(prev-1) < 0 {
				n++
			}
			prev = v
		}
		return n
	}
	if a, b := swings(100), swings(900); a >= b {
		t.Errorf("elasticity 100 swings %d times, 900 %d times: want more with more elasticity", a, b)
	}
	if v, _ := Ease("easeOutElastic", 0.5, math.NaN()); math.IsNaN(v) {
		t.Error("a NaN elasticity gives NaN")
	}
}

// TestEasingsShape checks what every curve shares: 0 at 0, 1 at 1, out
// the mirror of in, in-out continuous at the middle (at 1/2), and
// clamped outside [0, 1]; and that unknown names are refused.
func TestEasingsShape(t *testing.T) {
	for _, name := range Easings() {
		for _, x := range []float64{0, 1} {
			if v, _ := Ease(name, x, 400); math.Abs(v-x) > 1e-12 {
				t.Errorf("%s(%v) = %v", name, x, v)
			}
		}
		at0, _ := Ease(name, 0, 400)
		at1, _ := Ease(name, 1, 400)
		if v, _ := Ease(name, -3, 400); v != at0 {
			t.Errorf("%s(-3) = %v, want the value at 0", name, v)
		}
		if v, _ := Ease(name, 7, 400); v != at1 {
			t.Errorf("%s(7) = %v, want the value at 1", name, v)
		}
		if fam, ok := strings.CutPrefix(name, "easeInOut"); ok && fam != "Back" {
			a, _ := Ease(name, 0.5-1e-12, 400)
			b, _ := Ease(name, 0.5+1e-12, 400)
			if math.Abs(a-0.5) > 1e-5 || math.Abs(b-0.5) > 1e-5 {
				t.Errorf("%s around 1/2: %v, %v", name, a, b)
			}
		}
		if fam, ok := strings.CutPrefix(name, "easeOut"); ok {
			for _, x := range easePoints {
				out, _ := Ease(name, x, 300)
				in, _ := Ease("easeIn"+fam, 1-x, 300)
				if math.Abs(out-(1-in)) > 1e-12 {
					t.Errorf("%s(%v) = %v, 1 - easeIn%s(1-t) = %v", name, x, out, fam, 1-in)
				}
			}
		}
	}
	for _, bad := range []string{"", "easeinquad", "easeInOutQuadd", "spring"} {
		if _, ok := Ease(bad, 0.5, 400); ok {
			t.Errorf("Ease(%q) accepted", bad)
		}
	}
}

// bezierEase is anime.js's cubic-bezier easing (the curves A-Frame's
// animation component uses for the polynomial, sine, expo, circ and
// back families), solved by bisection: x(u) = t, then y(u).
func bezierEase(x1, y1, x2, y2, t float64) float64 {
	bez := func(u, a1, a2 float64) float64 { return ((1-3*a2+3*a1)*u+(3*a2-6*a1))*u*u + 3*a1*u }
	lo, hi := 0.0, 1.0
	for range 60 {
		mid := (lo + hi) / 2
		if bez(mid, x1, x2) < t {
			lo = mid
		} else {
			hi = mid
		}
	}
	return bez((lo+hi)/2, y1, y2)
}

// aframeBeziers are the control points anime.js (super-animejs 3.1.0,
// A-Frame's) approximates the families with.
var aframeBeziers = map[string][4]float64{
	"linear":     {0.25, 0.25, 0.75, 0.75},
	"easeInQuad": {0.55, 0.085, 0.68, 0.53}, "easeOutQuad": {0.25, 0.46, 0.45, 0.94}, "easeInOutQuad": {0.455, 0.03, 0.515, 0.955},
	"easeInCubic": {0.55, 0.055, 0.675, 0.19}, "easeOutCubic": {0.215, 0.61, 0.355, 1}, "easeInOutCubic": {0.645, 0.045, 0.355, 1},
	"easeInQuart": {0.895, 0.03, 0.685, 0.22}, "easeOutQuart": {0.165, 0.84, 0.44, 1}, "easeInOutQuart": {0.77, 0, 0.175, 1},
	"easeInQuint": {0.755, 0.05, 0.855, 0.06}, "easeOutQuint": {0.23, 1, 0.32, 1}, "easeInOutQuint": {0.86, 0, 0.07, 1},
	"easeInSine": {0.47, 0, 0.745, 0.715}, "easeOutSine": {0.39, 0.575, 0.565, 1}, "easeInOutSine": {0.445, 0.05, 0.55, 0.95},
	"easeInExpo": {0.95, 0.05, 0.795, 0.035}, "easeOutExpo": {0.19, 1, 0.22, 1}, "easeInOutExpo": {1, 0, 0, 1},
	"easeInCirc": {0.6, 0.04, 0.98, 0.335}, "easeOutCirc": {0.075, 0.82, 0.165, 1}, "easeInOutCirc": {0.785, 0.135, 0.15, 0.86},
	"easeInBack": {0.6, -0.28, 0.735, 0.045}, "easeOutBack": {0.175, 0.885, 0.32, 1.275}, "easeInOutBack": {0.68, -0.55, 0.265, 1.55},
}

// TestEasingsNearAFrame measures how far Penner's curves are from the
// Bézier approximations A-Frame animates with, and holds the bounds
// docs/aframe-differences.md quotes: at most 0.05 of the change for the
// quad, cubic and sine families, 0.2 for any (the circ and in-out
// quint curves, near their steep ends).
func TestEasingsNearAFrame(t *testing.T) {
	worst, worstName := 0.0, ""
	for name, cp := range aframeBeziers {
		fw := 0.0
		for i := 0; i <= 200; i++ {
			x := float64(i) / 200
			got, _ := Ease(name, x, 400)
			fw = max(fw, math.Abs(got-bezierEase(cp[0], cp[1], cp[2], cp[3], x)))
		}
		t.Logf("%s: %.4f", name, fw)
		if (strings.Contains(name, "Quad") || strings.Contains(name, "Cubic") || strings.Contains(name, "Sine")) && fw > 0.05 {
			t.Errorf("%s differs from A-Frame's curve by %.4f", name, fw)
		}
		if fw > worst {
			worst, worstName = fw, name
		}
	}
	t.Logf("largest difference from A-Frame's Bézier curves: %.4f (%s)", worst, worstName)
	if worst > 0.2 {
		t.Errorf("%s differs from A-Frame's curve by %.4f", worstName, worst)
	}
}
