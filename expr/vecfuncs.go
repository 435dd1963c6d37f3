package expr

import (
	"fmt"
	"math"
)

// vecFuncs are the vector functions, and the functions the vector
// operators stand for (__vadd for +, __vsub for -, __vmul for *, __vdiv
// for /), each overloaded for vec2, vec3 and vec4.
func vecFuncs() []function {
	fs := map[string]*function{}
	add := func(name string, s sig) {
		if fs[name] == nil {
			fs[name] = &function{name: name}
		}
		fs[name].sigs = append(fs[name].sigs, s)
	}
	for n := 2; n <= 4; n++ {
		k := vecKind(n)
		add(fmt.Sprintf("vec%d", n), vecCtor(n))
		add("length", vecToNum(k, func(a Vec) float64 { return math.Sqrt(dotN(n, a, a)) }))
		add("normalize", vecToVec(k, func(a Vec) Vec { return normalize(n, a) }))
		add("dot", vec2ToNum(k, func(a, b Vec) float64 { return dotN(n, a, b) }))
		add("distance", vec2ToNum(k, func(a, b Vec) float64 { d := axes(n, a, b, sub); return math.Sqrt(dotN(n, d, d)) }))
		add("lerp", vecLerp(k))
		add("__vadd", vec2ToVec(k, func(a, b Vec) Vec { return axes(n, a, b, plus) }))
		add("__vsub", vec2ToVec(k, func(a, b Vec) Vec { return axes(n, a, b, sub) }))
		add("__vmul", vecNumToVec(k, func(a Vec, x float64) Vec { return scale(n, a, x, times) }))
		add("__vmul", numVecToVec(k, func(x float64, a Vec) Vec { return scale(n, a, x, times) }))
		add("__vdiv", vecNumToVec(k, func(a Vec, x float64) Vec { return scale(n, a, x, over) }))
	}
	var out []function
	for _, name := range []string{"vec2", "vec3", "vec4", "length", "normalize", "dot", "distance", "lerp", "__vadd", "__vsub", "__vmul", "__vdiv"} {
		f := *fs[name]
		f.operator = name[0] == '_'
		out = append(out, f)
	}
	return out
}

func plus(x, y float64) float64  { return x + y }
func sub(x, y float64) float64   { return x - y }
func times(x, y float64) float64 { return x * y }
func over(x, y float64) float64  { return x / y }

// axes applies op to the first n axes of a and b.
func axes(n int, a, b Vec, op func(x, y float64) float64) Vec {
	var r Vec
	for i := range n {
		r[i] = op(a[i], b[i])
	}
	return r
}

// scale applies op to the first n axes of a and x.
func scale(n int, a Vec, x float64, op func(x, y float64) float64) Vec {
	var r Vec
	for i := range n {
		r[i] = op(a[i], x)
	}
	return r
}

func dotN(n int, a, b Vec) float64 {
	s := 0.0
	for i := range n {
		s += a[i] * b[i]
	}
	return s
}

// normalize returns a scaled to length 1, or the zero vector for a zero
// vector.
func normalize(n int, a Vec) Vec {
	l := math.Sqrt(dotN(n, a, a))
	if l == 0 {
		return Vec{}
	}
	return scale(n, a, l, over)
}

func vecCtor(n int) sig {
	in := make([]Kind, n)
	for i := range in {
		in[i] = Number
	}
	return sig{in: in, out: vecKind(n),
		build: func(a []code) code {
			xs := make([]func(*Frame) float64, n)
			for i := range xs {
				xs[i] = a[i].n
			}
			return vecCode(vecKind(n), func(f *Frame) Vec {
				var v Vec
				for i, x := range xs {
					v[i] = x(f)
				}
				return v
			}, konst(a))
		},
		vm: func(a []any) any {
			var v Vec
			for i := range n {
				v[i] = a[i].(float64)
			}
			return v
		}}
}

func vecToNum(k Kind, fn func(Vec) float64) sig {
	return sig{in: []Kind{k}, out: Number,
		build: func(a []code) code {
			x := a[0].v
			return numCode(func(f *Frame) float64 { return fn(x(f)) }, a[0].konst)
		},
		vm: func(a []any) any { return fn(a[0].(Vec)) }}
}

func vecToVec(k Kind, fn func(Vec) Vec) sig {
	return sig{in: []Kind{k}, out: k,
		build: func(a []code) code {
			x := a[0].v
			return vecCode(k, func(f *Frame) Vec { return fn(x(f)) }, a[0].konst)
		},
		vm: func(a []any) any { return fn(a[0].(Vec)) }}
}

func vec2ToNum(k Kind, fn func(a, b Vec) float64) sig {
	return sig{in: []Kind{k, k}, out: Number,
		build: func(a []code) code {
			x, y := a[0].v, a[1].v
			return numCode(func(f *Frame) float64 { return fn(x(f), y(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(Vec), a[1].(Vec)) }}
}

func vec2ToVec(k Kind, fn func(a, b Vec) Vec) sig {
	return sig{in: []Kind{k, k}, out: k,
		build: func(a []code) code {
			x, y := a[0].v, a[1].v
			return vecCode(k, func(f *Frame) Vec { return fn(x(f), y(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(Vec), a[1].(Vec)) }}
}

func vecNumToVec(k Kind, fn func(a Vec, x float64) Vec) sig {
	return sig{in: []Kind{k, Number}, out: k,
		build: func(a []code) code {
			x, y := a[0].v, a[1].n
			return vecCode(k, func(f *Frame) Vec { return fn(x(f), y(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(Vec), a[1].(float64)) }}
}

func numVecToVec(k Kind, fn func(x float64, a Vec) Vec) sig {
	return sig{in: []Kind{Number, k}, out: k,
		build: func(a []code) code {
			x, y := a[0].n, a[1].v
			return vecCode(k, func(f *Frame) Vec { return fn(x(f), y(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(float64), a[1].(Vec)) }}
}

func vecLerp(k Kind) sig {
	n := k.Dim()
	fn := func(a, b Vec, t float64) Vec {
		var r Vec
		for i := range n {
			r[i] = lerp(a[i], b[i], t)
		}
		return r
	}
	return sig{in: []Kind{k, k, Number}, out: k,
		build: func(a []code) code {
			x, y, t := a[0].v, a[1].v, a[2].n
			return vecCode(k, func(f *Frame) Vec { return fn(x(f), y(f), t(f)) }, konst(a))
		},
		vm: func(a []any) any { return fn(a[0].(Vec), a[1].(Vec), a[2].(float64)) }}
}
