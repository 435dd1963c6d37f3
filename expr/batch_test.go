package expr

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// batchComps are the component values the batch tests evaluate over, one
// per entity: ordinary values and the ones arithmetic is touchy about
// (zeros of both signs, infinities, NaN, huge and tiny numbers, extreme
// ints).
func batchComps() []diffComp {
	inf, nan := math.Inf(1), math.NaN()
	xs := []float64{2.5, 0, math.Copysign(0, -1), -1, inf, -inf, nan, 1e308, 5e-324, math.Pi / 2, -7.25, 3}
	hps := []int{15, 0, -1, 1 << 53, math.MaxInt64, math.MinInt64, 7, -100, 2, 1, 3, 99}
	cs := make([]diffComp, len(xs))
	for i := range cs {
		cs[i] = diffComp{HP: hps[i], X: xs[i], V: [3]float64{xs[(i+1)%len(xs)], float64(i), -xs[i]}}
	}
	return cs
}

// checkBatch fails t if src, compiled as a number, has a Batch whose
// values differ from its closure's, bit for bit, on any of batchComps,
// or whose error differs. It reports whether src had a Batch.
func checkBatch(t *testing.T, src string) bool {
	t.Helper()
	p, err := Compile(src, diffResolver(), Number)
	if err != nil || p.Batch() == nil {
		return false
	}
	b := p.Batch()
	cs := batchComps()
	var ptrs [MaxComps][]unsafe.Pointer
	for i := range cs {
		ptrs[0] = append(ptrs[0], unsafe.Pointer(&cs[i]))
	}
	out := make([]float64, len(cs))
	bf := diffFrame()
	b.Eval(bf, &ptrs, out, b.Scratch())
	num := p.NumberFunc()
	failed := false
	for i := range cs {
		f := diffFrame()
		f.Comp[0] = unsafe.Pointer(&cs[i])
		want := num(f)
		failed = failed || f.Err() != nil
		if bf.Err() == nil && f.Err() == nil && math.Float64bits(out[i]) != math.Float64bits(want) && !(math.IsNaN(out[i]) && math.IsNaN(want)) {
			t.Fatalf("%q: entity %d (%+v): the batch gives %v, the closure %v", src, i, cs[i], out[i], want)
		}
	}
	if (bf.Err() != nil) != failed {
		t.Fatalf("%q: the batch's error is %v, the closure's failed: %v", src, bf.Err(), failed)
	}
	return true
}

// TestBatchShapes holds the batch form to the closures on the shapes it
// covers, and checks which programs have one: a node that depends on the
// entity and is of no covered shape leaves the program without.
func TestBatchShapes(t *testing.T) {
	batched := []string{
		"sin(time * 2 + x) * 3", "x", "health.hp", "-x", "+x", "x * 2", "2 * x", "x / 0", "0 / x",
		"x - time", "time - x", "x ** 2", "2 ^ x", "x * x", "x / (x + 1)", "health.hp / 2", "health.hp * x",
		"v.x + v.y * v.z", "cos(v.y) - sin(v.z)", "sqrt(abs(x))", "floor(x * 10) / 10", "fract(x + time)",
		"atan2(x, v.y)", "pow(x, 2)", "min(x, 3)", "max(1, x)", "mod(x, 3)", "clamp(x, 0, 1)", "clamp(0.5, x, v.z)",
		"lerp(x, v.y, 0.25)", "smoothstep(0, 10, x)", "lerp(1, 2, x)", "sin(time) + x", "time * 2 + 1",
		"3", "time", "-(x * 2)", "x + (1 % 0)", "(b % 2) * x", "length(vec3(1, 2, 2)) * x",
	}
	for _, src := range batched {
		if !checkBatch(t, src) {
			t.Errorf("%q has no batch form", src)
		}
	}
	unbatched := []string{
		"y + x",                      // y is read by a host accessor
		"x > 1 ? x : 2",              // a conditional on the entity
		"health.hp + 1",              // int arithmetic
		"health.hp % 3 * x",          // likewise
		"length(v)",                  // a vector function
		"min(x, 2, 3)",               // min of three, folded pairwise
		"float(detail.damage) * x",   // a dynamic value
		"a * x",                      // an int read by a host accessor
		"len(s) * x",                 // a string function of a host's variable
		"detail.damage ?? x",         // ??
		"x > 1",                      // not a number
		"(x > 1 ? 1 : 2) + time * x", // a conditional inside
	}
	for _, src := range unbatched {
		if p, err := Compile(src, diffResolver(), Any); err == nil && p.Batch() != nil {
			t.Errorf("%q has a batch form", src)
		}
	}
}

// TestBatchSplit evaluates a batch over BatchSize entities, whose
// scratch rows are all in use, and over one.
func TestBatchSplit(t *testing.T) {
	p, err := Compile("clamp(x * v.y, v.z - x, atan2(x, v.x) + pow(x, v.z)) / (x + 1)", diffResolver(), Number)
	if err != nil || p.Batch() == nil {
		t.Fatalf("no batch: %v", err)
	}
	b := p.Batch()
	cs := make([]diffComp, BatchSize)
	var ptrs [MaxComps][]unsafe.Pointer
	for i := range cs {
		cs[i] = diffComp{X: float64(i) / 7, V: [3]float64{float64(i % 5), -float64(i) / 3, float64(i*i) / 100}}
		ptrs[0] = append(ptrs[0], unsafe.Pointer(&cs[i]))
	}
	scratch := b.Scratch()
	for _, n := range []int{BatchSize, 1, 17} {
		out := make([]float64, n)
		b.Eval(diffFrame(), &ptrs, out, scratch)
		num := p.NumberFunc()
		for i := range out {
			f := diffFrame()
			f.Comp[0] = ptrs[0][i]
			if want := num(f); math.Float64bits(want) != math.Float64bits(out[i]) && !(math.IsNaN(want) && math.IsNaN(out[i])) {
				t.Fatalf("n=%d, entity %d: batch %v, closure %v", n, i, out[i], want)
			}
		}
	}
	if b.Slots() != 1 {
		t.Errorf("slots %b, want 1", b.Slots())
	}
}

// batchGen builds expressions of the shapes batches cover, over the
// differential environment's fields, time and constants.
type batchGen struct{ g gen }

func (b *batchGen) num(d int) string {
	g := &b.g
	if d <= 0 || g.n(4) == 0 {
		return g.pick("x", "(health.hp / 2)", "v.x", "v.y", "v.z", "time", "2", "0.5", "-0", "1e308", "3")
	}
	d--
	switch g.n(6) {
	case 0, 1:
		return "(" + b.num(d) + " " + g.pick("+", "-", "*", "/", "**", "^") + " " + b.num(d) + ")"
	case 2:
		return genMath1[g.n(len(genMath1))] + "(" + b.num(d) + ")"
	case 3:
		return g.pick("atan2", "pow", "mod", "min", "max") + "(" + b.num(d) + ", " + b.num(d) + ")"
	case 4:
		return g.pick("clamp", "lerp", "smoothstep") + "(" + b.num(d) + ", " + b.num(d) + ", " + b.num(d) + ")"
	}
	return g.pick("-", "+") + b.num(d)
}

// TestBatchGenerated compares batches with closures on generated
// expressions of the covered shapes: each must have a batch form, and
// give the closure's values.
func TestBatchGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	for range 2000 {
		data := make([]byte, 48)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		b := &batchGen{gen{data: data}}
		if src := b.num(5); !checkBatch(t, src) {
			t.Fatalf("%q has no batch form", src)
		}
	}
}

// FuzzBatch is TestBatchGenerated on the fuzzer's bytes.
//
//	go test ./expr -run '^$' -fuzz FuzzBatch -fuzztime 20s
func FuzzBatch(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04\x05"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := &batchGen{gen{data: data}}
		if src := b.num(5); !checkBatch(t, src) {
			t.Fatalf("%q has no batch form", src)
		}
	})
}

// TestBatchFieldTypes checks the batch's reads of every number and int
// field type against the closures'.
func TestBatchFieldTypes(t *testing.T) {
	type comp struct {
		F32 float32
		I32 int32
		I64 int64
		I   int
		F64 float64
	}
	var c comp
	r := Vars{
		"f32": FieldVar(Field{0, unsafe.Offsetof(c.F32), FieldFloat32}),
		"i32": FieldVar(Field{0, unsafe.Offsetof(c.I32), FieldInt32}),
		"i64": FieldVar(Field{0, unsafe.Offsetof(c.I64), FieldInt64}),
		"i":   FieldVar(Field{0, unsafe.Offsetof(c.I), FieldInt}),
		"f64": FieldVar(Field{0, unsafe.Offsetof(c.F64), FieldFloat64}),
	}
	cs := []comp{{1.5, -7, 1 << 60, -3, 0.1}, {float32(math.Inf(-1)), math.MaxInt32, math.MinInt64, math.MaxInt64, -2},
		{float32(math.Copysign(0, -1)), 0, -1, 1 << 53, math.NaN()}}
	var ptrs [MaxComps][]unsafe.Pointer
	for i := range cs {
		ptrs[0] = append(ptrs[0], unsafe.Pointer(&cs[i]))
	}
	for _, src := range []string{"f32", "i32", "i64", "i", "f64", "f32 * 3 + i32 / 2", "i64 / i + f64", "sin(f32) - i64 ** 0.5"} {
		p, err := Compile(src, r, Number)
		if err != nil || p.Batch() == nil {
			t.Fatalf("%q: no batch (%v)", src, err)
		}
		out := make([]float64, len(cs))
		p.Batch().Eval(&Frame{}, &ptrs, out, p.Batch().Scratch())
		for i := range cs {
			f := &Frame{}
			f.Comp[0] = ptrs[0][i]
			if want := p.NumberFunc()(f); math.Float64bits(want) != math.Float64bits(out[i]) && !(math.IsNaN(want) && math.IsNaN(out[i])) {
				t.Errorf("%q, entity %d: batch %v, closure %v", src, i, out[i], want)
			}
		}
	}
}
