package expr

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBudget is wrapped by the error of an evaluation that a budget
// stopped ([MaxBytes], [MaxItems]): errors.Is(err, expr.ErrBudget).
var ErrBudget = errors.New("expression budget exceeded")

// vmBudget is the message of expr's VM when its lists exceed MaxItems.
const vmBudget = "memory budget exceeded"

// budgetError is a budget's refusal, before the allocation: op would
// have made n bytes of a string (or n items of a list), used having been
// made already. n < 0 means more than the budget (the size was not
// worked out to the end).
type budgetError struct {
	op    string
	n     int
	used  int
	items bool
	// pattern: the refusal is of a regular expression of n bytes, made
	// at run time, longer than MaxSource.
	pattern bool
}

// Error says what would have been made, and the budget: "replace would
// make a string of 16777216 bytes: over the budget of ...".
func (e *budgetError) Error() string {
	if e.pattern {
		return fmt.Sprintf("%s: the pattern is %d bytes, longer than an expression may be (%d)", e.op, e.n, MaxSource)
	}
	what, unit, max, of := "a string", "bytes", MaxBytes, "bytes of text"
	if e.items {
		what, unit, max, of = "a list", "items", MaxItems, "list items"
	}
	size := fmt.Sprint(e.n)
	if e.n < 0 {
		size = fmt.Sprint("more than ", max-e.used)
	}
	msg := fmt.Sprintf("%s would make %s of %s %s: over the budget of %d %s per evaluation", e.op, what, size, unit, max, of)
	if e.used > 0 {
		msg += fmt.Sprintf(" (%d made already)", e.used)
	}
	return msg
}

// Unwrap returns ErrBudget.
func (e *budgetError) Unwrap() error { return ErrBudget }

// spendBytes counts n bytes of a string about to be made, or returns the
// refusal if they would take the evaluation over MaxBytes.
func (f *Frame) spendBytes(op string, n int) *budgetError {
	if n >= 0 && n <= MaxBytes-f.mem {
		f.mem += n
		return nil
	}
	return &budgetError{op: op, n: n, used: f.mem}
}

// spendItems counts n items of a list about to be made, against
// MaxItems.
func (f *Frame) spendItems(op string, n int) *budgetError {
	if n >= 0 && n <= MaxItems-f.items {
		f.items += n
		return nil
	}
	return &budgetError{op: op, n: n, used: f.items, items: true}
}

// spend counts n bytes for the node at at, failing the evaluation if
// they are over the budget; it reports whether the string may be made.
func (cc *compiler) spend(f *Frame, at span, op string, n int) bool {
	if be := f.spendBytes(op, n); be != nil {
		cc.overBudget(f, at, be)
		return false
	}
	return true
}

// overBudget fails the evaluation with the budget's refusal at at.
func (cc *compiler) overBudget(f *Frame, at span, be *budgetError) {
	e := errAt(cc.src, at, "%s", be.Error())
	e.cause = ErrBudget
	f.Fail(e)
}

// changeCase returns upper(s) (name "upper") or lower(s), counted. The
// result is counted after it is made when even the largest it could be
// (3 bytes a byte) fits, and measured first otherwise.
func changeCase(f *Frame, name, s string) (string, *budgetError) {
	fn, up := strings.ToLower, name == "upper"
	if up {
		fn = strings.ToUpper
	}
	if len(s) > (MaxBytes-f.mem)/3 {
		if be := f.spendBytes(name, caseSize(s, up)); be != nil {
			return "", be
		}
		return fn(s), nil
	}
	out := fn(s)
	f.mem += len(out)
	return out, nil
}

// text returns string(v), counted: a value that is not a string is
// measured (see textSize) before it is formatted, and its text counted
// once made.
func text(f *Frame, v any) (string, *budgetError) {
	if s, ok := v.(string); ok {
		return s, nil
	}
	bound := textSize(v, MaxBytes-f.mem)
	if be := f.spendBytes("string", bound); be != nil {
		return "", be
	}
	out := fmt.Sprintf("%v", v)
	f.mem += len(out) - bound
	return out, nil
}

// metered returns c's closure wrapped so that each call starts a new
// evaluation of the budgets (the frame's counts are restored after, for
// a host that evaluates a program inside another's evaluation). Only the
// programs that make strings or lists are wrapped: a number program pays
// nothing.
func metered(c code) code {
	start := func(f *Frame) (int, int) {
		m, i := f.mem, f.items
		f.mem, f.items = 0, 0
		return m, i
	}
	switch c.k {
	case Bool:
		b := c.b
		c.b = func(f *Frame) bool {
			m, i := start(f)
			v := b(f)
			f.mem, f.items = m, i
			return v
		}
	case Int:
		n := c.i
		c.i = func(f *Frame) int {
			m, i := start(f)
			v := n(f)
			f.mem, f.items = m, i
			return v
		}
	case Number:
		n := c.n
		c.n = func(f *Frame) float64 {
			m, i := start(f)
			v := n(f)
			f.mem, f.items = m, i
			return v
		}
	case String:
		s := c.s
		c.s = func(f *Frame) string {
			m, i := start(f)
			v := s(f)
			f.mem, f.items = m, i
			return v
		}
	case Vec2, Vec3, Vec4:
		v := c.v
		c.v = func(f *Frame) Vec {
			m, i := start(f)
			x := v(f)
			f.mem, f.items = m, i
			return x
		}
	default:
		d := c.d
		c.d = func(f *Frame) any {
			m, i := start(f)
			x := d(f)
			f.mem, f.items = m, i
			return x
		}
	}
	return c
}

// replaceSize returns the bytes strings.Replace(s, old, new, n) (n < 0:
// all) makes: the length of its result, or 0 if nothing matches (the
// result is s); -1 if that would not fit in an int. It counts the
// matches but makes nothing.
func replaceSize(s, old, new string, n int) int {
	m := strings.Count(s, old)
	if n >= 0 && n < m {
		m = n
	}
	if m == 0 {
		return 0
	}
	if len(new) <= len(old) {
		return len(s) - m*(len(old)-len(new))
	}
	hi, lo := bits.Mul64(uint64(m), uint64(len(new)-len(old)))
	if hi != 0 || lo > math.MaxInt64-uint64(len(s)) {
		return -1
	}
	return len(s) + int(lo)
}

// caseSize returns an upper bound of the length of strings.ToUpper(s)
// (upper) or ToLower(s): a rune may change length when its case does,
// and an invalid byte becomes U+FFFD (3 bytes).
func caseSize(s string, upper bool) int {
	n := 0
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			n += 3
		case r < utf8.RuneSelf:
			n++
		case upper:
			n += utf8.RuneLen(unicode.ToUpper(r))
		default:
			n += utf8.RuneLen(unicode.ToLower(r))
		}
	}
	return n
}

// textSizer bounds the length of fmt's %v of a value without making it.
type textSizer struct {
	n, visits, limit int
}

// maxTextDepth bounds the nesting textSize walks (a host's value could
// hold itself).
const maxTextDepth = 1000

// textSize returns an upper bound of len(fmt.Sprint(x)), or -1 if it is
// over limit (or x nests deeper than maxTextDepth, or the walk would
// visit more than MaxItems values).
func textSize(x any, limit int) int {
	s := &textSizer{limit: limit}
	if !s.value(reflect.ValueOf(x), 0) {
		return -1
	}
	return s.n
}

func (s *textSizer) add(n int) bool {
	s.n += n
	return s.n <= s.limit
}

// value adds the bound of v's text and reports whether it is within
// the limit.
func (s *textSizer) value(v reflect.Value, depth int) bool {
	s.visits++
	if s.visits > MaxItems || depth > maxTextDepth {
		return false
	}
	if !v.IsValid() {
		return s.add(len("<nil>"))
	}
	if n, ok := methodText(v); ok {
		return s.add(n)
	}
	switch v.Kind() {
	case reflect.String:
		return s.add(v.Len())
	case reflect.Bool:
		return s.add(len("false"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return s.add(20)
	case reflect.Float32, reflect.Float64:
		return s.add(24) // -1.2345678901234567e+308
	case reflect.Complex64, reflect.Complex128:
		return s.add(51)
	case reflect.Interface:
		return s.value(v.Elem(), depth+1)
	case reflect.Pointer:
		if v.IsNil() || depth > 0 {
			return s.add(len("0xc000000000000000"))
		}
		// &{...} for a struct, a list or a map, an address otherwise.
		return s.add(len("0xc000000000000000")) && s.value(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if !s.add(2 + v.Len()) {
			return false
		}
		for i := range v.Len() {
			if !s.value(v.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if !s.add(len("map[]") + 2*v.Len()) {
			return false
		}
		it := v.MapRange()
		for it.Next() {
			if !s.value(it.Key(), depth+1) || !s.value(it.Value(), depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		if !s.add(2 + v.NumField()) {
			return false
		}
		for i := range v.NumField() {
			if !s.value(v.Field(i), depth+1) {
				return false
			}
		}
		return true
	}
	return s.add(len("0xc000000000000000")) // a func, a chan: an address
}

// methodText returns the length of the text of a value that formats
// itself (an error, a fmt.Stringer), as fmt would print it, and whether
// v is one. A method that panics counts as fmt's note of the panic.
func methodText(v reflect.Value) (n int, ok bool) {
	if !v.CanInterface() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return 0, false
	}
	defer func() {
		if recover() != nil {
			n, ok = 64, true
		}
	}()
	switch x := v.Interface().(type) {
	case error:
		return len(x.Error()), true
	case fmt.Stringer:
		return len(x.String()), true
	}
	return 0, false
}

// countLeaves returns the number of items flatten makes of v, or -1 if
// that, or the lists it would visit, are more than limit.
func countLeaves(v reflect.Value, limit int) int {
	n, visits := 0, 0
	var walk func(v reflect.Value, depth int) bool
	walk = func(v reflect.Value, depth int) bool {
		if depth > maxTextDepth {
			return false
		}
		for i := range v.Len() {
			visits++
			if visits > MaxItems {
				return false
			}
			e := v.Index(i)
			for e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
				if e.IsNil() {
					break
				}
				e = e.Elem()
			}
			if e.Kind() == reflect.Slice || e.Kind() == reflect.Array {
				if !walk(e, depth+1) {
					return false
				}
				continue
			}
			if n++; n > limit {
				return false
			}
		}
		return true
	}
	if !walk(v, 0) {
		return -1
	}
	return n
}
