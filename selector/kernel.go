package selector

import (
	"math"
	"strings"
	"unsafe"
)

// This file compiles a value test `[comp.prop OP value]` for the way its
// property is stored. A property that is a plain field of the component
// value ([PropertyReader.Field]) gets a loop over a packed column that
// loads the field at its offset and compares it with the operand, which
// is folded in when the selector is compiled: one loop per field type and
// comparison shape, no function call per entity, so that a table costs
// about what a hand-written loop over its column does. Any other
// property (a value printed, joined or converted by the Source) calls
// the reading function per entity, through attrPred.test.
//
// Every kernel computes exactly what attrPred.test computes from the
// reading functions; kernel_test.go holds them to it.

// kernel is a value test compiled for its property's storage.
type kernel struct {
	// off is added to the address of a component value to get the address
	// mark and test read: the field's offset, or 0 when they call the
	// reading functions, which take the component value.
	off uintptr
	// mark sets bit i of bits, for each i in [0,n) whose value, at
	// base + i*size, passes the test. It never clears a bit, so that
	// marking the columns of several instances ORs them.
	mark func(bits []uint64, base unsafe.Pointer, size uintptr, n int)
	// test reports whether the value at p passes.
	test func(p unsafe.Pointer) bool
}

// buildKernel compiles a (prepared) for its property's field type.
func (a *attrPred) buildKernel() error {
	f, k, off := a.prop.Field, a.prop.Kind, a.prop.Offset
	switch {
	case f == NoField:
		a.kern = kernel{mark: a.markReader, test: a.test}
	case f.numeric() && (k == KindNumber || k == KindInt):
		a.kern = numberKernel(f, a.op, a.num, off)
	case f == FieldBool && k == KindBool:
		a.kern = boolKernel(a.boolv == (a.op == OpEq), off)
	case f == FieldString && k == KindString:
		a.kern = a.stringKernel(off)
	default:
		return a.errorf("%s: the Source describes a %s property stored as %s", a.name(), k, f)
	}
	return nil
}

// markReader is the kernel mark of a property without a field: it calls
// the reading function for every row.
func (a *attrPred) markReader(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
	for i := range n {
		if a.test(unsafe.Add(base, uintptr(i)*size)) {
			bits[i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// integer is the Go types of integer fields.
type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// numberKernel compiles `float64(field) op c` for a field of type f.
func numberKernel(f FieldType, op Op, c float64, off uintptr) kernel {
	lo, hi, out := interval(op, c)
	switch f {
	case FieldFloat64:
		return floatKernel[float64](lo, hi, out, off)
	case FieldFloat32:
		return floatKernel[float32](lo, hi, out, off)
	case FieldInt:
		return intKernel[int](lo, hi, out, off)
	case FieldInt8:
		return intKernel[int8](lo, hi, out, off)
	case FieldInt16:
		return intKernel[int16](lo, hi, out, off)
	case FieldInt32:
		return intKernel[int32](lo, hi, out, off)
	case FieldInt64:
		return intKernel[int64](lo, hi, out, off)
	case FieldUint:
		return intKernel[uint](lo, hi, out, off)
	case FieldUint8:
		return intKernel[uint8](lo, hi, out, off)
	case FieldUint16:
		return intKernel[uint16](lo, hi, out, off)
	case FieldUint32:
		return intKernel[uint32](lo, hi, out, off)
	case FieldUint64:
		return intKernel[uint64](lo, hi, out, off)
	}
	return intKernel[uintptr](lo, hi, out, off)
}

// interval returns the float64 values x for which `x op c` holds as the
// closed interval [lo, hi] (out false) or as everything outside it (out
// true), so that one comparison shape serves all six operators. NaN is
// inside no interval: it passes only an outside test, as it passes only
// `!=`. An empty interval has lo > hi.
func interval(op Op, c float64) (lo, hi float64, out bool) {
	inf := math.Inf(1)
	if math.IsNaN(c) {
		return inf, -inf, op == OpNe // NaN is unequal to everything
	}
	switch op {
	case OpEq:
		return c, c, false
	case OpNe:
		return c, c, true
	case OpLt:
		if c == -inf {
			return inf, -inf, false
		}
		return -inf, math.Nextafter(c, -inf), false
	case OpLe:
		return -inf, c, false
	case OpGt:
		if c == inf {
			return inf, -inf, false
		}
		return math.Nextafter(c, inf), inf, false
	}
	return c, inf, false // OpGe
}

// floatKernel is the kernel of float64(field) in [lo, hi] (or outside
// it) for a float field of type T.
func floatKernel[T ~float32 | ~float64](lo, hi float64, out bool, off uintptr) kernel {
	if out {
		return kernel{off: off,
			mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
				markFloatOutside[T](bits, base, size, n, lo, hi)
			},
			test: func(p unsafe.Pointer) bool {
				x := float64(*(*T)(p))
				return !(lo <= x && x <= hi)
			}}
	}
	return kernel{off: off,
		mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
			markFloatInside[T](bits, base, size, n, lo, hi)
		},
		test: func(p unsafe.Pointer) bool {
			x := float64(*(*T)(p))
			return lo <= x && x <= hi
		}}
}

// markFloatInside marks the rows whose value, as a float64, lies in
// [lo, hi]. Bits are gathered in a word per 64 rows and stored once.
func markFloatInside[T ~float32 | ~float64](bits []uint64, base unsafe.Pointer, size uintptr, n int, lo, hi float64) {
	for w := 0; w*64 < n; w++ {
		i0 := w * 64
		var word uint64
		for j := range min(n-i0, 64) {
			if x := float64(*(*T)(unsafe.Add(base, uintptr(i0+j)*size))); lo <= x && x <= hi {
				word |= 1 << (uint(j) & 63)
			}
		}
		bits[w] |= word
	}
}

// markFloatOutside marks the rows whose value, as a float64, lies outside
// [lo, hi] (NaN included).
func markFloatOutside[T ~float32 | ~float64](bits []uint64, base unsafe.Pointer, size uintptr, n int, lo, hi float64) {
	for w := 0; w*64 < n; w++ {
		i0 := w * 64
		var word uint64
		for j := range min(n-i0, 64) {
			if x := float64(*(*T)(unsafe.Add(base, uintptr(i0+j)*size))); !(lo <= x && x <= hi) {
				word |= 1 << (uint(j) & 63)
			}
		}
		bits[w] |= word
	}
}

// intKernel is the kernel of float64(field) in [lo, hi] (or outside it)
// for an integer field of type T. The interval becomes, once, the range of
// integers of T whose conversion lies in it (the conversion is monotonic,
// so they form a range), and the loop compares integers: v in [ilo, ihi]
// is one unsigned comparison, v - ilo <= ihi - ilo, in 64-bit wrapping
// arithmetic.
func intKernel[T integer](lo, hi float64, out bool, off uintptr) kernel {
	ilo, ihi, ok := intRange[T](lo, hi)
	if !ok {
		return constKernel(out, off) // no integer of T inside
	}
	b, span := uint64(ilo), uint64(ihi)-uint64(ilo)
	if out {
		return kernel{off: off,
			mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
				markIntOutside[T](bits, base, size, n, b, span)
			},
			test: func(p unsafe.Pointer) bool { return uint64(*(*T)(p))-b > span }}
	}
	return kernel{off: off,
		mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
			markIntInside[T](bits, base, size, n, b, span)
		},
		test: func(p unsafe.Pointer) bool { return uint64(*(*T)(p))-b <= span }}
}

// markIntInside marks the rows whose value v has uint64(v) - b <= span.
func markIntInside[T integer](bits []uint64, base unsafe.Pointer, size uintptr, n int, b, span uint64) {
	for w := 0; w*64 < n; w++ {
		i0 := w * 64
		var word uint64
		for j := range min(n-i0, 64) {
			if uint64(*(*T)(unsafe.Add(base, uintptr(i0+j)*size)))-b <= span {
				word |= 1 << (uint(j) & 63)
			}
		}
		bits[w] |= word
	}
}

// markIntOutside marks the rows whose value v has uint64(v) - b > span.
func markIntOutside[T integer](bits []uint64, base unsafe.Pointer, size uintptr, n int, b, span uint64) {
	for w := 0; w*64 < n; w++ {
		i0 := w * 64
		var word uint64
		for j := range min(n-i0, 64) {
			if uint64(*(*T)(unsafe.Add(base, uintptr(i0+j)*size)))-b > span {
				word |= 1 << (uint(j) & 63)
			}
		}
		bits[w] |= word
	}
}

// intRange returns the least and the greatest integer v of T with
// lo <= float64(v) <= hi, and false if there is none. float64(v) does
// not decrease as v grows, so each is found by bisection over T's values,
// ordered as uint64 keys (the sign bit flipped for a signed T).
func intRange[T integer](lo, hi float64) (ilo, ihi T, ok bool) {
	var zero T
	flip := uint64(0)
	if ^zero < zero { // signed
		flip = 1 << 63
	}
	val := func(k uint64) float64 { return float64(T(k ^ flip)) }
	kmin, kmax := keyBounds[T](flip)
	if !(val(kmax) >= lo && val(kmin) <= hi) { // NaN bounds included
		return zero, zero, false
	}
	a, b := kmin, kmax // the least key whose value is >= lo
	for a < b {
		if m := a + (b-a)/2; val(m) >= lo {
			b = m
		} else {
			a = m + 1
		}
	}
	first := a
	a, b = kmin, kmax // the greatest key whose value is <= hi
	for a < b {
		if m := b - (b-a)/2; val(m) <= hi {
			a = m
		} else {
			b = m - 1
		}
	}
	if first > a {
		return zero, zero, false
	}
	return T(first ^ flip), T(a ^ flip), true
}

// keyBounds returns the keys of the least and the greatest value of T.
func keyBounds[T integer](flip uint64) (kmin, kmax uint64) {
	var zero T
	bits := unsafe.Sizeof(zero) * 8
	if flip == 0 {
		return 0, uint64(^zero)
	}
	half := uint64(1) << (bits - 1) // -min(T) as an unsigned number
	return (-half) ^ flip, (half - 1) ^ flip
}

// constKernel is the kernel of a test that every value passes (v) or none
// does.
func constKernel(v bool, off uintptr) kernel {
	return kernel{off: off,
		mark: func(bits []uint64, _ unsafe.Pointer, _ uintptr, n int) {
			if !v {
				return
			}
			for i := 0; i < n; i += 64 {
				bits[i>>6] |= ^uint64(0) >> (64 - min(n-i, 64))
			}
		},
		test: func(unsafe.Pointer) bool { return v }}
}

// boolKernel is the kernel of field == want for a bool field.
func boolKernel(want bool, off uintptr) kernel {
	return kernel{off: off,
		mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
			for i := range n {
				if *(*bool)(unsafe.Add(base, uintptr(i)*size)) == want {
					bits[i>>6] |= 1 << (uint(i) & 63)
				}
			}
		},
		test: func(p unsafe.Pointer) bool { return *(*bool)(p) == want }}
}

// stringKernel is the kernel of a string field: `=` and `!=` compare in
// the loop; the other operators, and any test with the `i` flag, call a
// matcher that folds case without allocating.
func (a *attrPred) stringKernel(off uintptr) kernel {
	if a.never {
		return constKernel(false, off)
	}
	if !a.fold && (a.op == OpEq || a.op == OpNe) {
		s, want := a.str, a.op == OpEq
		return kernel{off: off,
			mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
				for i := range n {
					if (*(*string)(unsafe.Add(base, uintptr(i)*size)) == s) == want {
						bits[i>>6] |= 1 << (uint(i) & 63)
					}
				}
			},
			test: func(p unsafe.Pointer) bool { return (*(*string)(p) == s) == want }}
	}
	m := a.matcher()
	return kernel{off: off,
		mark: func(bits []uint64, base unsafe.Pointer, size uintptr, n int) {
			for i := range n {
				if m(*(*string)(unsafe.Add(base, uintptr(i)*size))) {
					bits[i>>6] |= 1 << (uint(i) & 63)
				}
			}
		},
		test: func(p unsafe.Pointer) bool { return m(*(*string)(p)) }}
}

// matcher returns the text test of a (not never) as a function of the
// value: what attrPred.test does after reading, with the `i` flag folding
// the value's ASCII letters as it compares instead of copying it.
func (a *attrPred) matcher() func(v string) bool {
	s := a.str
	if a.fold {
		return foldMatcher(a.op, s)
	}
	switch a.op {
	case OpEq:
		return func(v string) bool { return v == s }
	case OpNe:
		return func(v string) bool { return v != s }
	case OpPrefix:
		return func(v string) bool { return strings.HasPrefix(v, s) }
	case OpSuffix:
		return func(v string) bool { return strings.HasSuffix(v, s) }
	case OpSubstring:
		return func(v string) bool { return strings.Contains(v, s) }
	case OpDashMatch:
		return func(v string) bool {
			return v == s || len(v) > len(s) && v[len(s)] == '-' && v[:len(s)] == s
		}
	case OpIncludes:
		return func(v string) bool {
			for f := range strings.FieldsSeq(v) {
				if f == s {
					return true
				}
			}
			return false
		}
	}
	return func(string) bool { return false }
}

// foldMatcher is matcher for the `i` flag: s is lower-cased already.
func foldMatcher(op Op, s string) func(v string) bool {
	switch op {
	case OpEq:
		return func(v string) bool { return foldEq(v, s) }
	case OpNe:
		return func(v string) bool { return !foldEq(v, s) }
	case OpPrefix:
		return func(v string) bool { return len(v) >= len(s) && foldEq(v[:len(s)], s) }
	case OpSuffix:
		return func(v string) bool { return len(v) >= len(s) && foldEq(v[len(v)-len(s):], s) }
	case OpSubstring:
		return func(v string) bool {
			for i := 0; i+len(s) <= len(v); i++ {
				if foldEq(v[i:i+len(s)], s) {
					return true
				}
			}
			return false
		}
	case OpDashMatch:
		return func(v string) bool {
			return foldEq(v, s) || len(v) > len(s) && v[len(s)] == '-' && foldEq(v[:len(s)], s)
		}
	case OpIncludes:
		return func(v string) bool {
			for f := range strings.FieldsSeq(v) {
				if foldEq(f, s) {
					return true
				}
			}
			return false
		}
	}
	return func(string) bool { return false }
}

// foldEq reports whether lowerASCII(v) == s, for s in lower case, without
// copying v.
func foldEq(v, s string) bool {
	if len(v) != len(s) {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
