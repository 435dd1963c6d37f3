package expr

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// budgetResolver resolves s (a string of 64 x's, read at run time so
// that nothing folds), n (an int) and the frame names.
func budgetResolver() Resolver {
	x64 := strings.Repeat("x", 64)
	return Chain(FrameNames(), Vars{
		"s": StringVar(func(*Frame) string { return x64 }),
		"n": IntVar(func(*Frame) int { return 3 }),
	})
}

// allocatedBy returns the bytes the heap handed out while fn ran.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// evalBudget compiles src over budgetResolver, evaluates it once and
// returns the bytes the evaluation allocated, with its error.
func evalBudget(t *testing.T, src string) (uint64, error) {
	t.Helper()
	p, err := Compile(src, budgetResolver(), Any)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	var f Frame
	var evalErr error
	n := allocatedBy(func() { _, evalErr = p.Eval(&f) })
	return n, evalErr
}

// TestBudgetHostile is issue 32's expression: three nested replaces of
// a 64-byte string would make 2⁴⁸ bytes (256 TB), which killed the
// process with Go's fatal out-of-memory error. The budget refuses the
// second replace (16 MiB) before making it: the evaluation fails with an
// error naming the operation, the size and the budget, having allocated
// well under the budget.
func TestBudgetHostile(t *testing.T) {
	x64 := strings.Repeat("x", 64)
	cases := []struct{ name, src, op string }{
		{"let and replace (interpreted)", "let r = '" + x64 + "'; let t = replace(r, 'x', r); let u = replace(t, 'x', t); let v = replace(u, 'x', u); len(v)", "replace"},
		{"replace (closures)", "len(replace(replace(replace(s, 'x', s), 'x', replace(s, 'x', s)), 'x', s))", "replace"},
		{"doubling lets (interpreted)", doublingLets(41), "+"},
		{"constants folded", "len(replace(replace('" + x64 + "', 'x', '" + x64 + "'), 'x', replace('" + x64 + "', 'x', '" + x64 + "')))", "replace"},
	}
	for _, c := range cases {
		n, err := evalBudget(t, c.src)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrBudget) {
			t.Errorf("%s: error %v, want an *Error for the budget", c.name, err)
			continue
		}
		want := fmt.Sprintf("over the budget of %d bytes of text per evaluation", MaxBytes)
		if !strings.HasPrefix(e.Msg, c.op+" would make a string of ") || !strings.Contains(e.Msg, want) {
			t.Errorf("%s: %q, want %q ... %q", c.name, e.Msg, c.op+" would make a string of ", want)
		}
		if n > 3*MaxBytes {
			t.Errorf("%s: the evaluation allocated %d bytes, more than the budget allows (%d)", c.name, n, MaxBytes)
		}
	}
}

// doublingLets returns `let a0 = 'x'; let a1 = a0 + a0; ...; len(aN)`,
// whose last string is 2^n bytes.
func doublingLets(n int) string {
	var b strings.Builder
	b.WriteString("let a0 = 'x'; ")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "let a%d = a%d + a%d; ", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "len(a%d)", n)
	return b.String()
}

// bigResolver adds to budgetResolver big (a string of 600 KiB), half (512
// KiB) and l (a list of 600,000 items): a host's data, which costs the
// evaluation nothing until it makes something of it.
func bigResolver() Resolver {
	big, half := strings.Repeat("x", 600<<10), strings.Repeat("x", 512<<10)
	l := make([]any, 600_000)
	for i := range l {
		l[i] = i
	}
	return Chain(budgetResolver(), Vars{
		"big":  StringVar(func(*Frame) string { return big }),
		"half": StringVar(func(*Frame) string { return half }),
		"l":    DynamicVar(func(*Frame) any { return l }),
	})
}

// TestBudgetOperations: every construct that makes a string or a list
// counts what it would make before making it, in the closures and on the
// VM (let makes an expression interpreted) alike; the error names the
// operation, the size and the budget, at the operation's place. What
// fits runs, up to the budget exactly.
func TestBudgetOperations(t *testing.T) {
	fails := []struct{ src, msg, at string }{
		{"len(big + big)", "+ would make a string of 1228800 bytes", "big + big"},
		{"len(half + half + 'x')", "+ would make a string of 1048577 bytes: over the budget of 1048576 bytes of text per evaluation (1048576 made already)", "half + half + 'x'"},
		{"len(upper(big) + lower(big))", "lower would make a string of 614400 bytes", "lower(big)"},
		{"len(replace(big, 'x', 'yy'))", "replace would make a string of 1228800 bytes", "replace(big, 'x', 'yy')"},
		{"len(string(l))", "string would make a string of more than 1048576 bytes", "string(l)"},
		{"len(string(big) + string(vec3(1, 2, 3)) + big)", "+ would make a string of 1228807 bytes", "string(big) + string(vec3(1, 2, 3)) + big"},
		{"len(string(detail) + big)", "string would make a string of more than", "string(detail)"},
		{"len(detail.s + detail.s)", "+ would make a string of 1228800 bytes", "detail.s + detail.s"},
		{"let b = big; len(b + b)", "+ would make a string of 1228800 bytes", "+"},
		{"let b = big; len(upper(b) + lower(b))", "lower would make a string of 614400 bytes", "lower"},
		{"let b = big; len(upper(b)) + len(replace(b, 'x', 'yy', 100000))", "replace would make a string of 714400 bytes: over the budget of 1048576 bytes of text per evaluation (614400 made already)", "replace"},
		{"let b = 'x'; len(join([big, b, big]))", "join would make a string of 1228801 bytes", "join"},
		{"let b = 'x'; len(string([big, b, big]))", "string would make a string of more than 1048576 bytes", "string"},
		{"let b = ''; len(concat(split(big, b), split(big, b)))", "split would make a list of 614400 items: over the budget of 1000000 list items per evaluation (614400 made already)", "split"},
		{"let b = l; len(concat(b, b))", "concat would make a list of 1200000 items", "concat"},
		{"let b = l; len(flatten([b, [b]]))", "flatten would make a list of more than 1000000 items", "flatten"},
		{"let b = big; s matches b", "matches: the pattern is 614400 bytes, longer than an expression may be (4096)", "matches"},
		{"len(1..600000) + len(1..600000)", "the lists made would have more than 1000000 items: over the budget of list items per evaluation", ".."},
	}
	r, f := bigResolver(), bigFrame()
	for _, c := range fails {
		err := evalBig(t, c.src, r, f)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrBudget) || !strings.HasPrefix(e.Msg, c.msg) {
			t.Errorf("%s: %v, want a budget's error %q", c.src, err, c.msg)
			continue
		}
		if got := e.Source[e.Offset : e.Offset+e.Len]; got != c.at {
			t.Errorf("%s: error at %q, want at %q", c.src, got, c.at)
		}
	}
	fits := []string{
		"len(half + half)", "len(upper(big))", "len(replace(big, 'x', 'y'))", "let b = half; len(b + b)",
		"let b = big; len(split(b, ''))", "let b = l; len(concat(take(b, 1000), [1]))", "let b = l; len(string(take(b, 3)))",
		"let b = half; len(join([b, b]))", "len(string(detail.d))", "let b = s; b matches s",
	}
	for _, src := range fits {
		if err := evalBig(t, src, r, f); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}

// bigFrame returns a frame whose detail holds s (a string of 600 KiB),
// d (a small map), big (a map of 20,000 strings) and self (the detail
// itself).
func bigFrame() *Frame {
	big := map[string]any{}
	for i := range 20_000 {
		big[fmt.Sprint(i)] = "0123456789012345678901234567890"
	}
	d := map[string]any{"s": strings.Repeat("y", 600<<10), "d": map[string]any{"a": 1.5, "b": []any{"c", nil, true}}, "big": big}
	d["self"] = d
	return &Frame{Detail: d}
}

// evalBig compiles src over r and evaluates it in f.
func evalBig(t *testing.T, src string, r Resolver, f *Frame) error {
	t.Helper()
	p, err := Compile(src, r, Any)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	_, err = p.Eval(f)
	return err
}

// TestBudgetPerEvaluation: each evaluation starts with the whole budget,
// also when a host evaluates many times with one Frame and checks its
// error once (a loop over entities). A program that makes strings has no
// Batch (whose Eval, not being one evaluation, would share the budget
// between its calls): the batches cover only number nodes and constants.
func TestBudgetPerEvaluation(t *testing.T) {
	var c struct{ X float64 }
	r := Chain(bigResolver(), Vars{"c.x": FieldVar(Field{Slot: 0, Type: FieldFloat64})})
	var f Frame
	f.Comp[0] = unsafe.Pointer(&c)
	for _, src := range []string{"len(upper(big))", "let b = big; len(upper(b))", "len(upper(big)) + c.x"} {
		p, err := Compile(src, r, Number)
		if err != nil {
			t.Fatal(err)
		}
		num := p.NumberFunc()
		for range 5 {
			if x := num(&f); x != 600<<10 {
				t.Errorf("%s = %v", src, x)
			}
		}
		if err := f.Err(); err != nil {
			t.Errorf("%s, 5 evaluations with one Frame: %v", src, err)
		}
		if p.Batch() != nil {
			t.Errorf("%s has a Batch", src)
		}
	}
}

// TestBudgetFolding: the constants the compiler folds count against one
// budget for the compilation; a constant that would exceed it is left to
// be made when the expression runs (where each evaluation has the whole
// budget), so the program is right, and compiling made little.
func TestBudgetFolding(t *testing.T) {
	x64 := "'" + strings.Repeat("x", 64) + "'"
	a := "replace(" + x64 + ", 'x', " + x64 + ")" // 4 KiB
	b := "replace(" + a + ", 'x', " + x64 + ")"   // 256 KiB
	c := "replace(" + b + ", 'x', 'xxx')"         // 768 KiB: 1028 KiB folded in all
	var p *Program
	var err error
	n := allocatedBy(func() { p, err = Compile("len("+c+")", nil, Any) })
	if err != nil {
		t.Fatal(err)
	}
	if p.Const() {
		t.Error("folded beyond the budget")
	}
	if n > 3*MaxBytes {
		t.Errorf("compiling allocated %d bytes", n)
	}
	if v, err := p.Eval(&Frame{}); v != 768<<10 || err != nil {
		t.Errorf("len(c) = %v, %v", v, err)
	}
	if p, err := Compile("len("+b+")", nil, Any); err != nil || !p.Const() {
		t.Errorf("len(b): %v, Const %v: within the budget, it folds", err, p.Const())
	}
}

// TestBudgetReservedNames: the name the budgets give the VM's frame, and
// any name starting with __, cannot be a scene's or a let's.
func TestBudgetReservedNames(t *testing.T) {
	r := Chain(budgetResolver(), Vars{memName: Const(1.0)})
	for src, msg := range map[string]string{
		"let __mem = 'x'; upper(__mem)": `cannot declare "__mem": names starting with __ are the language's`,
		"let __x = 1; __x":              `cannot declare "__x": names starting with __ are the language's`,
		"__mem + 1":                     `unknown name "__mem"`,
	} {
		_, err := Compile(src, r, Any)
		if err == nil || err.Error() != msg {
			t.Errorf("%s: %v, want %q", src, err, msg)
		}
	}
}

// TestBudgetSizes holds the sizes the budgets work out before making
// something to what is then made: replace's exactly, the others as
// bounds.
func TestBudgetSizes(t *testing.T) {
	strs := []string{"", "x", "héllo wörld", "aaaa", "ǅǆǈ \xff\xfe ȿɀ", strings.Repeat("ab", 50)}
	for _, s := range strs {
		for _, old := range []string{"", "a", "l", "aa", "zz"} {
			for _, nw := range []string{"", "b", "ccc"} {
				for _, n := range []int{-1, 0, 1, 3} {
					want := len(strings.Replace(s, old, nw, n))
					if got := replaceSize(s, old, nw, n); got != want && !(got == 0 && strings.Replace(s, old, nw, n) == s) {
						t.Errorf("replaceSize(%q, %q, %q, %d) = %d, want %d", s, old, nw, n, got, want)
					}
				}
			}
		}
		if up, low := caseSize(s, true), caseSize(s, false); up < len(strings.ToUpper(s)) || low < len(strings.ToLower(s)) {
			t.Errorf("caseSize(%q) = %d, %d; made %d, %d", s, up, low, len(strings.ToUpper(s)), len(strings.ToLower(s)))
		}
	}
	for _, x := range []any{nil, true, -1.2345678901234567e+308, math.MinInt64, "héllo", Vec{1, 2, 3}, vmVec3{1, -2.5, 3},
		[]any{1, "a", nil, []string{"b"}}, map[string]any{"k": []any{1.5, map[string]any{"z": false}}}, &vmVec2{1, 2},
		errors.New("boom"), []int{1, 2, 3}, struct{ A, B any }{1, "x"}} {
		if got, made := textSize(x, MaxBytes), len(fmt.Sprintf("%v", x)); got < made {
			t.Errorf("textSize(%#v) = %d, fmt made %d", x, got, made)
		}
	}
	if n := textSize(strings.Repeat("x", 100), 99); n != -1 {
		t.Errorf("textSize over the limit = %d, want -1", n)
	}
	nested := []any{1, []any{2, []any{3, 4}}, []int{5, 6}, "7"}
	if n := countLeaves(reflect.ValueOf(nested), 100); n != 7 {
		t.Errorf("countLeaves = %d, want 7", n)
	}
	if n := countLeaves(reflect.ValueOf(nested), 6); n != -1 {
		t.Errorf("countLeaves over the limit = %d, want -1", n)
	}
}
