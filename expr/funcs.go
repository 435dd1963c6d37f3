package expr

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// function is a function of the language: its overloads, tried in order.
type function struct {
	name string
	sigs []sig
	// operator: the function stands for a vector operator (__vadd for +);
	// the checker's types then repeat every number parameter as an int,
	// since expr's operator patcher matches types exactly.
	operator bool
}

// sig is one overload: its parameter and result kinds, the builder of its
// closure (given arguments already converted to the parameter kinds), and
// its implementation for expr's VM (given arguments converted likewise:
// float64 for Number, Vec for vectors).
type sig struct {
	in       []Kind
	variadic bool // the last parameter repeats
	out      Kind
	build    func(a []code) code
	vm       func(a []any) any
	// The function of numbers itself, for batches (batch.go): f1, f2 or
	// f3 after its arity (f2 for a variadic one of two arguments).
	f1 func(float64) float64
	f2 func(x, y float64) float64
	f3 func(x, y, z float64) float64
}

// konst reports whether every code of a is constant.
func konst(a []code) bool {
	for _, c := range a {
		if !c.konst {
			return false
		}
	}
	return true
}

func num1(fn func(float64) float64) sig {
	return sig{in: []Kind{Number}, out: Number,
		build: func(a []code) code {
			x := a[0].n
			if d := direct1(fn, x); d != nil {
				return numCode(d, a[0].konst)
			}
			return numCode(func(f *Frame) float64 { return fn(x(f)) }, a[0].konst)
		},
		vm: func(a []any) any { return fn(a[0].(float64)) }, f1: fn}
}

// direct1 returns, for the functions binds use most, a closure calling
// the function directly rather than through a func value (nil for the
// others).
func direct1(fn func(float64) float64, x func(*Frame) float64) func(*Frame) float64 {
	switch reflect.ValueOf(fn).Pointer() {
	case reflect.ValueOf(math.Sin).Pointer():
		return func(f *Frame) float64 { return math.Sin(x(f)) }
	case reflect.ValueOf(math.Cos).Pointer():
		return func(f *Frame) float64 { return math.Cos(x(f)) }
	case reflect.ValueOf(math.Abs).Pointer():
		return func(f *Frame) float64 { return math.Abs(x(f)) }
	case reflect.ValueOf(math.Sqrt).Pointer():
		return func(f *Frame) float64 { return math.Sqrt(x(f)) }
	}
	return nil
}

func num2(fn func(x, y float64) float64) sig {
	return sig{in: []Kind{Number, Number}, out: Number,
		build: func(a []code) code {
			x, y := a[0].n, a[1].n
			return numCode(func(f *Frame) float64 { return fn(x(f), y(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(float64), a[1].(float64)) }, f2: fn}
}

func num3(fn func(x, y, z float64) float64) sig {
	return sig{in: []Kind{Number, Number, Number}, out: Number,
		build: func(a []code) code {
			x, y, z := a[0].n, a[1].n, a[2].n
			return numCode(func(f *Frame) float64 { return fn(x(f), y(f), z(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(float64), a[1].(float64), a[2].(float64)) }, f3: fn}
}

// numN is a function of two or more numbers folded pairwise (min, max).
func numN(fn func(x, y float64) float64) sig {
	return sig{in: []Kind{Number, Number}, variadic: true, out: Number,
		build: func(a []code) code {
			if len(a) == 2 {
				return num2(fn).build(a)
			}
			xs := make([]func(*Frame) float64, len(a))
			for i, c := range a {
				xs[i] = c.n
			}
			return numCode(func(f *Frame) float64 {
				r := xs[0](f)
				for _, x := range xs[1:] {
					r = fn(r, x(f))
				}
				return r
			}, konst(a))
		},
		vm: func(a []any) any {
			r := a[0].(float64)
			for _, x := range a[1:] {
				r = fn(r, x.(float64))
			}
			return r
		},
		f2: fn}
}

// The math functions that Go's math package does not have as such.

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x // 0, -0 or NaN
}

// mod is the floored modulo: its result has the sign of y, so that
// mod(-1, 360) is 359.
func mod(x, y float64) float64 { return x - y*math.Floor(x/y) }

func clamp(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

func lerp(a, b, t float64) float64 { return a + (b-a)*t }

func smoothstep(e0, e1, x float64) float64 {
	t := clamp((x-e0)/(e1-e0), 0, 1)
	return t * t * (3 - 2*t)
}

func fract(x float64) float64 { return x - math.Floor(x) }

func rad(deg float64) float64 { return deg * (math.Pi / 180) }

func deg(rad float64) float64 { return rad * (180 / math.Pi) }

// mathFuncs are the number functions.
func mathFuncs() []function {
	one := map[string]func(float64) float64{
		"sin": math.Sin, "cos": math.Cos, "tan": math.Tan,
		"asin": math.Asin, "acos": math.Acos, "atan": math.Atan,
		"sqrt": math.Sqrt, "abs": math.Abs, "floor": math.Floor, "ceil": math.Ceil,
		"round": math.Round, "sign": sign, "exp": math.Exp, "log": math.Log,
		"log2": math.Log2, "log10": math.Log10, "fract": fract, "rad": rad, "deg": deg,
	}
	var fs []function
	for name, fn := range one {
		fs = append(fs, function{name: name, sigs: []sig{num1(fn)}})
	}
	fs = append(fs,
		function{name: "atan2", sigs: []sig{num2(math.Atan2)}},
		function{name: "pow", sigs: []sig{num2(math.Pow)}},
		function{name: "mod", sigs: []sig{num2(mod)}},
		function{name: "min", sigs: []sig{numN(func(x, y float64) float64 { return min(x, y) })}},
		function{name: "max", sigs: []sig{numN(func(x, y float64) float64 { return max(x, y) })}},
		function{name: "clamp", sigs: []sig{num3(clamp)}},
		function{name: "smoothstep", sigs: []sig{num3(smoothstep)}},
	)
	return fs
}

// funcTable returns the language's functions by name.
func funcTable() map[string]*function {
	t := map[string]*function{}
	fs := append(mathFuncs(), vecFuncs()...)
	for i := range fs {
		t[fs[i].name] = &fs[i]
	}
	// lerp takes numbers or vectors.
	t["lerp"].sigs = append([]sig{num3(lerp)}, t["lerp"].sigs...)
	return t
}

// publicNames returns the names of the functions a user may call, sorted.
func publicNames(t map[string]*function) []string {
	var names []string
	for n := range t {
		if !strings.HasPrefix(n, "__") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// choose returns the first overload of fn that args of kinds ks fit.
func (fn *function) choose(ks []Kind) (sig, bool) {
	for _, s := range fn.sigs {
		if s.accepts(ks) {
			return s, true
		}
	}
	return sig{}, false
}

// ambiguous reports whether arguments of kinds ks fit several overloads
// that differ in the kind of a parameter given a dynamic argument: the
// overload then depends on the argument's value.
func (fn *function) ambiguous(ks []Kind) bool {
	var first *sig
	for i := range fn.sigs {
		s := &fn.sigs[i]
		if !s.accepts(ks) {
			continue
		}
		if first == nil {
			first = s
			continue
		}
		for j, k := range ks {
			if isDyn(k) && s.param(j) != first.param(j) {
				return true
			}
		}
	}
	return false
}

// accepts reports whether arguments of kinds ks fit s.
func (s sig) accepts(ks []Kind) bool {
	if len(ks) < len(s.in) || (len(ks) > len(s.in) && !s.variadic) {
		return false
	}
	for i, k := range ks {
		if !fits(k, s.param(i)) {
			return false
		}
	}
	return true
}

// takes reports whether run-time values of kinds ks fit s: exactly, but
// that an integer passes for a number.
func (s sig) takes(ks []Kind) bool {
	if len(ks) < len(s.in) || (len(ks) > len(s.in) && !s.variadic) {
		return false
	}
	for i, k := range ks {
		if p := s.param(i); k != p && (k != Int || p != Number) {
			return false
		}
	}
	return true
}

// param returns the kind of parameter i (the last one repeating).
func (s sig) param(i int) Kind { return s.in[min(i, len(s.in)-1)] }

// goType is the Go type expr's checker sees for a kind.
func goType(k Kind) reflect.Type {
	switch k {
	case Bool:
		return reflect.TypeFor[bool]()
	case Int:
		return reflect.TypeFor[int]()
	case Number:
		return reflect.TypeFor[float64]()
	case String:
		return reflect.TypeFor[string]()
	case Vec2:
		return reflect.TypeFor[vmVec2]()
	case Vec3:
		return reflect.TypeFor[vmVec3]()
	case Vec4:
		return reflect.TypeFor[vmVec4]()
	}
	return reflect.TypeFor[any]()
}

// types returns the Go function types of fn's overloads for expr's checker.
func (fn *function) types() []reflect.Type {
	var ts []reflect.Type
	for _, s := range fn.sigs {
		var variants [][]Kind
		if fn.operator {
			// Int first: an int argument then matches exactly, and the
			// checker does not rewrite its literals into floats (which
			// would turn v / -0 into v / -0.0).
			for i, k := range s.in {
				if k == Number {
					v := slices.Clone(s.in)
					v[i] = Int
					variants = append(variants, v)
				}
			}
		}
		variants = append(variants, s.in)
		for _, in := range variants {
			ins := make([]reflect.Type, len(in))
			for i, k := range in {
				ins[i] = goType(k)
			}
			if s.variadic {
				ins[len(ins)-1] = reflect.SliceOf(ins[len(ins)-1])
			}
			ts = append(ts, reflect.FuncOf(ins, []reflect.Type{goType(s.out)}, s.variadic))
		}
	}
	return ts
}

// vmFunc is fn's implementation for expr's VM: it picks the overload by
// the arguments' run-time types, as the closure compiler picks it by
// their kinds, and converts the arguments.
func (fn *function) vmFunc(args ...any) (any, error) {
	ks := make([]Kind, len(args))
	for i, a := range args {
		ks[i] = kindOf(a)
	}
	var s sig
	ok := false
	for _, c := range fn.sigs {
		if c.takes(ks) {
			s, ok = c, true
			break
		}
	}
	if !ok {
		ds := make([]string, len(args))
		for i, a := range args {
			ds[i] = describe(a)
		}
		return nil, fmt.Errorf("%s does not take (%s)", fn.name, strings.Join(ds, ", "))
	}
	conv := make([]any, len(args))
	for i, a := range args {
		switch p := s.param(i); {
		case p == Number:
			conv[i], _ = toFloat(a)
		case p.IsVec():
			conv[i], _, _ = fromVM(a)
		default:
			conv[i] = a
		}
	}
	out := s.vm(conv)
	if v, ok := out.(Vec); ok {
		return toVM(s.out, v), nil
	}
	return out, nil
}

// kindOf returns the kind of a run-time value (Dynamic for types of no
// kind).
func kindOf(x any) Kind {
	switch x.(type) {
	case bool:
		return Bool
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return Int
	case float64, float32:
		return Number
	case string:
		return String
	case vmVec2:
		return Vec2
	case vmVec3:
		return Vec3
	case vmVec4:
		return Vec4
	case nil:
		return kindNil
	}
	return Dynamic
}

// kindList formats kinds as "number, vec3".
func kindList(ks []Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}
