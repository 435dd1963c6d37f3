package selector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// This file holds every kernel to attrPred.test, the definition of a
// value test through the reading functions: over whole columns (mark)
// and one value at a time (test), for every field type and operator, on
// boundary values and random ones.

// row holds one field of every type a kernel reads.
type row struct {
	F64 float64
	F32 float32
	I   int
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	U   uint
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	UP  uintptr
	B   bool
	S   string
}

// rowFields is each field of row with its FieldType.
var rowFields = []struct {
	name string
	ft   FieldType
}{
	{"F64", FieldFloat64}, {"F32", FieldFloat32}, {"I", FieldInt}, {"I8", FieldInt8},
	{"I16", FieldInt16}, {"I32", FieldInt32}, {"I64", FieldInt64}, {"U", FieldUint},
	{"U8", FieldUint8}, {"U16", FieldUint16}, {"U32", FieldUint32}, {"U64", FieldUint64},
	{"UP", FieldUintptr}, {"B", FieldBool}, {"S", FieldString},
}

// rowReader is the PropertyReader of field name of row, its reading
// function written the way the registry's is (through reflect for the
// sized integer types), independently of the kernels' conversions.
func rowReader(name string, ft FieldType) PropertyReader {
	sf, _ := reflect.TypeFor[row]().FieldByName(name)
	off, t := sf.Offset, sf.Type
	val := func(p unsafe.Pointer) reflect.Value { return reflect.NewAt(t, unsafe.Add(p, off)).Elem() }
	pr := PropertyReader{Type: t.String(), Field: ft, Offset: off}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		pr.Kind, pr.Num = KindNumber, func(p unsafe.Pointer) float64 { return val(p).Float() }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		pr.Kind, pr.Num = KindInt, func(p unsafe.Pointer) float64 { return float64(val(p).Int()) }
	case reflect.Bool:
		pr.Kind, pr.Bool = KindBool, func(p unsafe.Pointer) bool { return val(p).Bool() }
	case reflect.String:
		pr.Kind, pr.Str = KindString, func(p unsafe.Pointer) string { return val(p).String() }
	default:
		pr.Kind, pr.Num = KindInt, func(p unsafe.Pointer) float64 { return float64(val(p).Uint()) }
	}
	return pr
}

// setAll stores x in every numeric field of r (converted as Go converts,
// wrapping the integers), b in B and s in S.
func (r *row) setAll(x float64, i int64, u uint64, b bool, s string) {
	r.F64, r.F32 = x, float32(x)
	r.I, r.I8, r.I16, r.I32, r.I64 = int(i), int8(i), int16(i), int32(i), i
	r.U, r.U8, r.U16, r.U32, r.U64, r.UP = uint(u), uint8(u), uint16(u), uint32(u), u, uintptr(u)
	r.B, r.S = b, s
}

// compileValue prepares and compiles `[c.name op operand flag]` on field
// name of row; ok is false when the test does not compile (an operator
// that does not apply, a bad operand).
func compileValue(name string, ft FieldType, op Op, operand string, flag Flag) (*attrPred, bool) {
	a := &attrPred{prop: rowReader(name, ft), op: op,
		attr: &Attr{Comp: "c", Prop: name, Op: op, Value: operand, Flag: flag}}
	if a.prepare() != nil {
		return nil, false
	}
	if err := a.buildKernel(); err != nil {
		panic(err)
	}
	return a, true
}

// checkColumn marks the column rows with a's kernel, over bits that hold a
// pattern already, and checks every row against attrPred.test, and the
// kernel's own test too.
func checkColumn(t *testing.T, a *attrPred, rows []row) {
	t.Helper()
	n := len(rows)
	const pattern = 0x8000_0000_0000_0001
	bits := make([]uint64, (n+63)/64)
	for i := range bits {
		bits[i] = pattern
	}
	base := unsafe.Pointer(&rows[0])
	a.kern.mark(bits, unsafe.Add(base, a.kern.off), unsafe.Sizeof(row{}), n)
	for i := range rows {
		p := unsafe.Pointer(&rows[i])
		want := a.test(p)
		pre := i%64 == 0 || i%64 == 63
		if got := bits[i>>6]&(1<<(i&63)) != 0; got != (want || pre) {
			t.Fatalf("%s %s %q (flag %v) on %+v: mark %v, test %v", a.name(), a.op, a.attr.Value, a.attr.Flag, rows[i], got, want)
		}
		if got := a.kern.test(unsafe.Add(p, a.kern.off)); got != want {
			t.Fatalf("%s %s %q (flag %v) on %+v: kernel test %v, test %v", a.name(), a.op, a.attr.Value, a.attr.Flag, rows[i], got, want)
		}
	}
}

// numberOperands are the operands of the numeric tests: the edges of
// every integer type and of float64 exactness, the special floats and
// values just beside them.
var numberOperands = []string{
	"0", "-0", "1", "-1", "0.5", "-0.5", "19.999", "20", "20.5", "0.1",
	"127", "128", "-128", "-129", "255", "256", "32767", "-32768", "65535", "65536",
	"2147483647", "-2147483648", "4294967295", "4294967296",
	"9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
	"18446744073709551615", "18446744073709551616", "1e308", "-1e308", "1.7976931348623157e308",
	"Inf", "-Inf", "NaN", "5e-324", "-5e-324", "3.4028234663852886e38", "1.401298464324817e-45",
}

// numberRows returns rows whose fields hold the operands (as numbers and
// wrapped into each integer type), their neighbours, the extremes of every
// type, and random values.
func numberRows(rng *rand.Rand) []row {
	var rows []row
	add := func(x float64, i int64, u uint64) {
		var r row
		r.setAll(x, i, u, false, "")
		rows = append(rows, r)
	}
	for _, s := range numberOperands {
		x, _ := strconv.ParseFloat(s, 64)
		for _, y := range []float64{math.Nextafter(x, math.Inf(-1)), x, math.Nextafter(x, math.Inf(1))} {
			i, u := int64(y), uint64(y)
			if math.IsNaN(y) || math.IsInf(y, 0) || y >= 1<<63 || y < -(1<<63) {
				i = math.MinInt64
			}
			if math.IsNaN(y) || math.IsInf(y, 0) || y >= 1<<64 || y < 0 {
				u = math.MaxUint64
			}
			for _, d := range []int64{-1, 0, 1} {
				add(y, i+d, u+uint64(d))
			}
		}
	}
	for _, x := range []float64{math.NaN(), math.Copysign(0, -1), math.MaxFloat32, math.SmallestNonzeroFloat32} {
		add(x, math.MaxInt64, 1<<63)
	}
	for range 300 {
		add(rng.NormFloat64()*1e3, rng.Int64()>>rng.IntN(64), rng.Uint64()>>rng.IntN(64))
	}
	return rows
}

func TestNumberKernels(t *testing.T) {
	rows := numberRows(rand.New(rand.NewPCG(1, 2)))
	for _, f := range rowFields {
		if !f.ft.numeric() {
			continue
		}
		for _, op := range []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe} {
			for _, operand := range numberOperands {
				a, ok := compileValue(f.name, f.ft, op, operand, FlagNone)
				if !ok {
					t.Fatalf("%s %s %s does not compile", f.name, op, operand)
				}
				checkColumn(t, a, rows)
			}
		}
	}
}

// stringValues are values and operands of the text tests: case, dashes,
// ASCII and Unicode white space, non-ASCII letters (which `i` leaves
// alone).
var stringValues = []string{
	"", "a", "A", "ab", "abc", "ABC", "aBc", "abc-", "abc-def", "ABC-def", "-abc", "abcabc",
	"x abc y", "x ABC y", "x\u00a0abc", "abc\tdef", "abc\u2003def", " abc ", "Äbc", "äbc", "def", "DEF", "a b",
}

func TestStringKernels(t *testing.T) {
	rows := make([]row, 0, len(stringValues)*4)
	for range 4 { // more than 64 rows
		for _, s := range stringValues {
			var r row
			r.S = s
			rows = append(rows, r)
		}
	}
	for _, op := range []Op{OpEq, OpNe, OpIncludes, OpDashMatch, OpPrefix, OpSuffix, OpSubstring} {
		for _, flag := range []Flag{FlagNone, FlagI} {
			for _, operand := range stringValues {
				a, ok := compileValue("S", FieldString, op, operand, flag)
				if !ok {
					t.Fatalf("S %s %q does not compile", op, operand)
				}
				checkColumn(t, a, rows)
			}
		}
	}
}

func TestBoolKernels(t *testing.T) {
	rows := make([]row, 70)
	for i := range rows {
		rows[i].B = i%3 == 0
	}
	for _, op := range []Op{OpEq, OpNe} {
		for _, operand := range []string{"true", "false"} {
			a, ok := compileValue("B", FieldBool, op, operand, FlagNone)
			if !ok {
				t.Fatalf("B %s %s does not compile", op, operand)
			}
			checkColumn(t, a, rows)
		}
	}
}

// TestReaderKernel checks the kernel of a property without a field: it
// calls the reading function.
func TestReaderKernel(t *testing.T) {
	rows := numberRows(rand.New(rand.NewPCG(3, 4)))
	for _, op := range []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe} {
		for _, operand := range numberOperands {
			a, _ := compileValue("I16", NoField, op, operand, FlagNone)
			if a.kern.off != 0 {
				t.Fatalf("reader kernel with offset %d", a.kern.off)
			}
			checkColumn(t, a, rows)
		}
	}
}

// TestKernelFieldMismatch checks that a Source describing a property's
// storage against its kind is refused at compile time.
func TestKernelFieldMismatch(t *testing.T) {
	for _, c := range []struct {
		kind Kind
		ft   FieldType
	}{{KindNumber, FieldString}, {KindString, FieldInt}, {KindBool, FieldFloat64}, {KindOther, FieldString}, {KindInt, FieldType(99)}} {
		a := &attrPred{prop: PropertyReader{Kind: c.kind, Field: c.ft}, op: OpEq, attr: &Attr{Comp: "c", Prop: "p", Op: OpEq}}
		err := a.buildKernel()
		if err == nil {
			t.Fatalf("%v stored as %v: no error", c.kind, c.ft)
		}
		if want := fmt.Sprintf("c.p: the Source describes a %s property stored as %s", c.kind, c.ft); err.(*Error).Msg != want {
			t.Fatalf("error %q, want %q", err, want)
		}
	}
}

// FuzzKernel holds the kernels of every field type to attrPred.test on
// arbitrary operands and values.
func FuzzKernel(f *testing.F) {
	f.Add(uint8(OpLt), "20", 19.5, int64(19), uint64(19), "abc", false)
	f.Add(uint8(OpNe), "NaN", math.NaN(), int64(-1), uint64(1<<63), "A-b", true)
	f.Add(uint8(OpIncludes), "b", 0.0, int64(0), uint64(0), "a B\u00a0b", true)
	f.Add(uint8(OpGe), "9007199254740993", 9007199254740992.0, int64(1<<53+1), uint64(1<<53+1), "", false)
	f.Fuzz(func(t *testing.T, opb uint8, operand string, x float64, i int64, u uint64, s string, fold bool) {
		op := Op(opb % uint8(OpGe+1))
		if op == OpExists {
			return
		}
		flag := FlagNone
		if fold {
			flag = FlagI
		}
		rows := make([]row, 3)
		for k := range rows {
			rows[k].setAll(x, i+int64(k), u+uint64(k), k == 1, s[:len(s)*k/2])
		}
		for _, fd := range rowFields {
			if a, ok := compileValue(fd.name, fd.ft, op, operand, flag); ok {
				checkColumn(t, a, rows)
			}
		}
	})
}

// TestIntRange checks the integer bounds of a float interval: against
// every value of the 8-bit types, and by their defining property (the
// least and the greatest integer inside) for the 64-bit ones.
func TestIntRange(t *testing.T) {
	var bounds []float64
	for _, s := range numberOperands {
		x, _ := strconv.ParseFloat(s, 64)
		bounds = append(bounds, x, math.Nextafter(x, math.Inf(-1)), math.Nextafter(x, math.Inf(1)))
	}
	bounds = append(bounds, -128.5, 127.5, 255.5, -0.25, 0x1p63, -0x1p63, 0x1p64, 0x1p63-1024, 0x1p64-2048)
	for _, lo := range bounds {
		for _, hi := range bounds {
			checkRange8[int8](t, lo, hi)
			checkRange8[uint8](t, lo, hi)
			checkRange64[int64](t, lo, hi, math.MinInt64, math.MaxInt64)
			checkRange64[uint64](t, lo, hi, 0, math.MaxUint64)
		}
	}
}

func checkRange8[T int8 | uint8](t *testing.T, lo, hi float64) {
	t.Helper()
	ilo, ihi, ok := intRange[T](lo, hi)
	n := 0
	for v := range 256 {
		x := T(v)
		in := lo <= float64(x) && float64(x) <= hi
		if in {
			n++
		}
		if got := ok && ilo <= x && x <= ihi; got != in {
			t.Fatalf("%T [%g, %g]: %d inside %v, got range [%d, %d] %v", x, lo, hi, x, in, ilo, ihi, ok)
		}
	}
	if ok != (n > 0) {
		t.Fatalf("%T [%g, %g]: ok %v with %d inside", ilo, lo, hi, ok, n)
	}
}

func checkRange64[T int64 | uint64](t *testing.T, lo, hi float64, tmin, tmax T) {
	t.Helper()
	in := func(v T) bool { return lo <= float64(v) && float64(v) <= hi }
	ilo, ihi, ok := intRange[T](lo, hi)
	if !ok {
		// No integer inside: then none of the candidates is.
		for _, v := range []T{tmin, tmax, T(max(lo, float64(tmin))), T(min(hi, float64(tmax)))} {
			if in(v) && float64(tmin) <= lo && hi <= float64(tmax) {
				t.Fatalf("%T [%g, %g]: no range, but %d is inside", v, lo, hi, v)
			}
		}
		return
	}
	if !in(ilo) || !in(ihi) || ilo > ihi || ilo != tmin && in(ilo-1) || ihi != tmax && in(ihi+1) {
		t.Fatalf("%T [%g, %g]: range [%d, %d] is not the integers inside", ilo, lo, hi, ilo, ihi)
	}
}

// TestConstKernel checks the kernels of tests every value or no value
// passes, on columns of every length around a word.
func TestConstKernel(t *testing.T) {
	for n := range 130 {
		for _, v := range []bool{false, true} {
			bits := make([]uint64, (n+63)/64+1)
			constKernel(v, 0).mark(bits, nil, 0, n)
			for i := range len(bits) * 64 {
				if got := bits[i>>6]&(1<<(i&63)) != 0; got != (v && i < n) {
					t.Fatalf("n=%d v=%v: bit %d is %v", n, v, i, got)
				}
			}
		}
	}
}

// TestGatherRuns holds gatherRuns to the plain one-bit-at-a-time gather
// on bitsets of every density, with runs that fill whole words, cross
// word boundaries, start at bit 0 and end at bit 63.
func TestGatherRuns(t *testing.T) {
	const n = 64 * 40
	by := make([]ecs.Entity, n)
	w := ecs.NewWorld()
	for i := range by {
		by[i] = w.NewEntity()
	}
	rng := rand.New(rand.NewPCG(7, 23))
	fixed := [][]uint64{
		{^uint64(0), ^uint64(0), 0, 1, 1 << 63},
		{1<<63 | 1, ^uint64(0) >> 1, ^uint64(1), 0x5555555555555555},
		{0xF0F0F0F0F0F0F0F0, 0x8000000000000001, 0x7FFFFFFFFFFFFFFE, 0},
	}
	for trial := range 200 {
		bs := make([]uint64, n/64)
		if trial < len(fixed) {
			copy(bs, fixed[trial])
		} else {
			density := rng.Float64()
			run := 1 + rng.IntN(100) // bits come in runs of about this length
			on := false
			for i := range n {
				if i%run == 0 {
					on = rng.Float64() < density
				}
				if on {
					bs[i>>6] |= 1 << (i & 63)
				}
			}
		}
		var want []ecs.Entity
		for i := range n {
			if bs[i>>6]>>(i&63)&1 == 1 {
				want = append(want, by[i])
			}
		}
		out := make([]ecs.Entity, len(want)+1)
		got := out[:gatherRuns(out, by, bs)]
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: gatherRuns copied %d entities, want %d (or in another order)", trial, len(got), len(want))
		}
	}
}
