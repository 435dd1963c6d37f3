package expr

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestCompileErrors checks the message and the located text of compile
// errors: every family (syntax, names, functions, types, limits) points
// at the offending text.
func TestCompileErrors(t *testing.T) {
	cases := []struct {
		src, msg, at string
	}{
		{"1 +", "unexpected end of the expression", ""},
		{"(x", "unexpected end of the expression", ""},
		{"x y", `unexpected name "y"`, "y"},
		{"x = 1", `unexpected operator "="`, "="},
		{"'abc", "string literal not terminated", ""},
		{"helth.hp < 20", `unknown name "helth.hp" (did you mean "health.hp"?)`, "helth.hp"},
		{"x + tiem", `unknown name "tiem" (did you mean "time"?)`, "tiem"},
		{"1 + zzz", `unknown name "zzz"`, "zzz"},
		{"sine(1)", `unknown function "sine" (did you mean "sin"?)`, "sine"},
		{"now()", `function "now" is not available in scene expressions: it reads the clock, and expressions are deterministic`, "now"},
		{"__vadd(v, v)", `unknown function "__vadd" (did you mean "rad"?)`, "__vadd"},
		{"v.length()", "v.length cannot be called: only functions are, by name, as in length(v)", "v.length"},
		{"sin()", "not enough arguments to call sin", "sin"},
		{"x + s", "operator + does not apply to number and string", "+"},
		{"p * 2", "operator * does not apply to bool and int", "*"},
		{"!a", "operator ! does not apply to int", "!"},
		{"x % 2", "operator % does not apply to number and int", "%"},
		{"v + w", "operator + does not apply to vec3 and vec2", "+"},
		{"v.q", "vec3 has no axis q (its axes are x, y, z)", "q"},
		{"s.x", "string has no field x", "x"},
		{"min(x, true)", "cannot use bool as argument (type number) to call min", "true"},
		{"vec3(min(x, true), 1, 2)", "cannot use bool as argument (type number) to call min", "true"},
		{"x > 1 ? 'a' : s - t", "operator - does not apply to string and string", "-"},
		{"let x = 1; x", `cannot redeclare "x": it is a name of the scene`, "x = 1; x"},
		{"héllo + zzz", `unknown name "héllo"`, "héllo"},
		{"'é' + zzz", `unknown name "zzz"`, "zzz"},
	}
	for _, c := range cases {
		_, err := Compile(c.src, diffResolver(), Any)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Compile(%q) = %v, want an *Error", c.src, err)
			continue
		}
		if e.Msg != c.msg || e.Error() != c.msg {
			t.Errorf("Compile(%q): %q, want %q", c.src, e.Msg, c.msg)
		}
		if got := c.src[e.Offset : e.Offset+e.Len]; got != c.at || e.Source != c.src {
			t.Errorf("Compile(%q): error at %q (offset %d, len %d), want at %q", c.src, got, e.Offset, e.Len, c.at)
		}
		if c.at == "" && e.Offset != len(c.src) {
			t.Errorf("Compile(%q): end-of-input error at %d, want %d", c.src, e.Offset, len(c.src))
		}
	}
}

func TestLimits(t *testing.T) {
	long := strings.Repeat("1", MaxSource+1)
	_, err := Compile(long, nil, Any)
	if e, ok := err.(*Error); !ok || e.Offset != MaxSource || !strings.Contains(e.Msg, "too long") {
		t.Errorf("%d bytes: %v", len(long), err)
	}
	if _, err := Compile(strings.Repeat(" ", MaxSource-1)+"1", nil, Any); err != nil {
		t.Errorf("%d bytes: %v", MaxSource, err)
	}
	// n additions make 2n+1 nodes.
	sum := func(n int) string { return "1" + strings.Repeat("+1", n) }
	if _, err := Compile(sum(MaxNodes/2-1), nil, Any); err != nil {
		t.Errorf("%d nodes: %v", MaxNodes-1, err)
	}
	_, err = Compile(sum(MaxNodes/2), nil, Any)
	if e, ok := err.(*Error); !ok || e.Msg != fmt.Sprintf("expression too large: more than %d nodes", MaxNodes) {
		t.Errorf("%d nodes: %v", MaxNodes+1, err)
	}
	for _, src := range []string{"", "  \t"} {
		if _, err := Compile(src, nil, Any); err == nil || err.Error() != "empty expression" {
			t.Errorf("Compile(%q) = %v", src, err)
		}
	}
}

// TestRuntimeErrors checks the errors of dynamic values used wrongly:
// reported through the frame, located, and the value zero.
func TestRuntimeErrors(t *testing.T) {
	cases := []struct {
		src, msg, at string
	}{
		{"detail.name * 2", `detail.name is a string ("rock"), not a number`, "detail.name"},
		{"x + detail.list", "detail.list is a list, not a number", "detail.list"},
		{"detail.flag + 1", "detail.flag is a bool, not a number", "detail.flag"},
		{"detail.damage && p", "detail.damage is a number (5), not a bool", "detail.damage"},
		{"detail.missing > 1", "detail.missing is nil, not a number", "detail.missing"},
		{"detail.damage % 2", "detail.damage is a number (5), not an integer", "detail.damage"},
		{"detail.none.x", "cannot read x of detail.none: it is nil", "detail.none.x"},
		{"a % (a - 7)", "a % (a - 7): modulo by zero", "a % (a - 7)"},
		{"(a - 7) * 2 + 1 % (a - 7)", "1 % (a - 7): modulo by zero", "1 % (a - 7)"},
		{"((a)) % (a - ((7)))", "((a)) % (a - ((7))): modulo by zero", "((a)) % (a - ((7)))"},
		{"detail.name + detail.n", "detail.name + detail.n: invalid operation: string + int", "detail.name + detail.n"},
		{"detail.list[7]", "detail.list[7]: index out of range: 7 (array length is 3)", "detail.list[7]"},
		{"int(detail.name)", "int(detail.name): invalid operation: int(rock)", "int(detail.name)"},
		{"int(x * 1e300)", "int(x * 1e300): 2.5e+300 is out of the int range", "int(x * 1e300)"},
		{"int(x / 0)", "int(x / 0): +Inf is out of the int range", "int(x / 0)"},
		{"int(x * 0 / 0)", "int(x * 0 / 0): NaN is not a number", "int(x * 0 / 0)"},
		{"int(detail.damage * 1e300)", "int(detail.damage * 1e300): 5e+300 is out of the int range", "int(detail.damage * 1e300)"},
		{"int('99999999999999999999')", "int('99999999999999999999'): 99999999999999999999 is out of the int range", "int('99999999999999999999')"},
		{"let k = x * 1e300; int(k)", "int: 2.5e+300 is out of the int range", "int"},
		{"normalize(detail)", "normalize does not take (a map)", "normalize(detail)"},
		{"normalize(detail) * 2", "normalize does not take (a map)", "normalize(detail)"},
		{"length(detail.name)", `length does not take (a string ("rock"))`, "length(detail.name)"},
		{"vec2(1, 2) + normalize(detail.nested)", "normalize does not take (a map)", "normalize(detail.nested)"},
		{"sin(detail.name)", `detail.name is a string ("rock"), not a number`, "detail.name"},
	}
	for _, c := range cases {
		p, err := Compile(c.src, diffResolver(), Any)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.src, err)
			continue
		}
		v, err := p.Eval(diffFrame())
		var e *Error
		if !errors.As(err, &e) || v != nil {
			t.Errorf("Eval(%q) = %v, %v; want nil and an *Error", c.src, v, err)
			continue
		}
		if e.Msg != c.msg {
			t.Errorf("Eval(%q): %q, want %q", c.src, e.Msg, c.msg)
		}
		if got := c.src[e.Offset : e.Offset+e.Len]; got != c.at {
			t.Errorf("Eval(%q): error at %q, want at %q", c.src, got, c.at)
		}
	}
}

// TestStickyError: the first error of a loop is kept until Reset, and the
// closure returns a zero value meanwhile.
func TestStickyError(t *testing.T) {
	f := diffFrame()
	p, err := Compile("detail.damage * 2", diffResolver(), Number)
	if err != nil {
		t.Fatal(err)
	}
	fn := p.NumberFunc()
	f.Detail = map[string]any{"damage": "x"}
	if v := fn(f); v != 0 || f.Err() == nil {
		t.Fatalf("bad detail: %v, %v", v, f.Err())
	}
	first := f.Err()
	f.Detail = map[string]any{"damage": true}
	fn(f)
	f.Detail = map[string]any{"damage": 4}
	if v := fn(f); v != 8 || f.Err() != first {
		t.Errorf("after a good evaluation: %v, err %v (want the first error kept)", v, f.Err())
	}
	f.Reset()
	if v, err := p.EvalNumber(f); v != 8 || err != nil {
		t.Errorf("after Reset: %v, %v", v, err)
	}
}

func TestResolver(t *testing.T) {
	// The longest known prefix wins; the rest are member accesses.
	var asked []string
	r := ResolverFunc(func(name string) (Var, error) {
		asked = append(asked, name)
		switch name {
		case "position":
			return VecVar(Vec3, func(*Frame) Vec { return Vec{1, 2, 3} }), nil
		case "health.hpp":
			return Var{}, errors.New(`component "health" has no property "hpp" (did you mean "hp"?)`)
		case "bad":
			return Var{Kind: Number}, nil
		}
		return Var{}, fmt.Errorf("no %s: %w", name, ErrUnknownName)
	})
	p, err := Compile("position.y * 2", r, Number)
	if err != nil || strings.Join(asked, ",") != "position.y,position" {
		t.Fatalf("asked %v, err %v", asked, err)
	}
	if v, _ := p.EvalNumber(&Frame{}); v != 4 {
		t.Errorf("position.y * 2 = %v", v)
	}
	for src, msg := range map[string]string{
		"health.hpp + 1": `component "health" has no property "hpp" (did you mean "hp"?)`,
		"bad":            `name "bad": the resolver gave it kind number but no number accessor`,
		"nothing":        `unknown name "nothing"`,
	} {
		_, err := Compile(src, r, Any)
		if err == nil || err.Error() != msg {
			t.Errorf("Compile(%q) = %v, want %q", src, err, msg)
		}
	}
	// Chain asks in order; FrameNames and a Vars list their names for hints.
	c := Chain(Vars{"time": Const(2.0)}, FrameNames())
	if v, _ := mustEval(t, "time", c).(float64); v != 2 {
		t.Errorf("Chain: the first resolver should win, got %v", v)
	}
	if _, err := Compile("evnt", c, Any); err == nil || !strings.Contains(err.Error(), `(did you mean "event"?)`) {
		t.Errorf("hint through Chain: %v", err)
	}
}

func mustEval(t *testing.T, src string, r Resolver) any {
	t.Helper()
	p, err := Compile(src, r, Any)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	v, err := p.Eval(&Frame{})
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return v
}

// TestKindPanics: asking a program for a closure of another kind is a
// programming error, reported as such.
func TestKindPanics(t *testing.T) {
	p, err := Compile("x > 1", diffResolver(), Any)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "NumberFunc of a program of kind bool") {
			t.Errorf("recovered %v", r)
		}
	}()
	p.NumberFunc()
}

// TestFailingConstants: a constant operand whose evaluation fails (a
// modulo by zero) in every place the compiler specialises on constants
// compiles, and fails when it runs, with the located error.
func TestFailingConstants(t *testing.T) {
	const bad = "(1 % 0)"
	for _, tmpl := range []string{
		"x < %s", "%s < x", "health.hp <= %s", "%s >= health.hp", "a < %s", "%s > y",
		"time * %s", "%s + time", "y * %s", "%s / y", "a + %s", "%s * a", "s + string(%s)",
		"s matches string(%s)", "%s in [1, 2]", "a in [%s]", "v * %s", "%s * w", "vec3(%s, 1, 2)",
		"sin(%s)", "max(%s, 1, 2)", "-%s", "%s == a", "detail.n == %s", "detail.damage < %s",
		"%s ?? 1", "p ? %s : 2", "int(%s)", "float(%s) > 1", "string(%s)", "%s %% 2",
	} {
		src := strings.ReplaceAll(tmpl, "%s", bad)
		src = strings.ReplaceAll(src, "%%", "%")
		p, err := Compile(src, diffResolver(), Any)
		if err != nil {
			t.Errorf("Compile(%q): %v", src, err)
			continue
		}
		_, err = p.Eval(diffFrame())
		var e *Error
		if !errors.As(err, &e) || !strings.HasSuffix(e.Msg, "modulo by zero") || !strings.Contains("1 % 0", src[e.Offset:e.Offset+e.Len]) || e.Len == 0 {
			t.Errorf("Eval(%q): %v at %+v", src, err, e)
		}
	}
}

// TestLongValuesQuotedShort: a run-time error about a value of 1 MiB
// quotes its start and its length, and stays one short line, whatever
// reports it: the language's messages and expr's own (int of a string).
func TestLongValuesQuotedShort(t *testing.T) {
	long := strings.Repeat("q", 1<<20)
	f := &Frame{Detail: map[string]any{"s": long, "none": nil}}
	for src, want := range map[string]string{
		"detail.s * 2":               `detail.s is a string ("qqq`,
		"int(detail.s)":              `int(detail.s): invalid operation: int(qqq`,
		"detail.none[detail.s]":      `cannot read qqq`,
		"float(detail.s)":            `float(detail.s): invalid operation: float(qqq`,
		"let k = detail.s; float(k)": `invalid operation: float(qqq`,
	} {
		p, err := Compile(src, FrameNames(), Any)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Eval(f)
		if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), " bytes)") {
			t.Errorf("%s: %.600v (%d bytes), want %s... bytes)", src, err, len(fmt.Sprint(err)), want)
		}
	}
}

// TestIntRange: a number that must be an int (the expression's value
// where an int is wanted) says whether it is not whole or out of the
// int range; the largest ints pass.
func TestIntRange(t *testing.T) {
	for src, want := range map[string]string{
		"x":                          "2.5 is not an integer",
		"x * 1e300":                  "2.5e+300 is out of the int range",
		"-x * 1e300":                 "-2.5e+300 is out of the int range",
		"2 ** 63":                    "9.223372036854776e+18 is out of the int range",
		"x / 0":                      "+Inf is out of the int range",
		"-(2 ** 63)":                 "",
		"2 ** 62 + (2 ** 62 - 1024)": "",
	} {
		p, err := Compile(src, diffResolver(), Int)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Eval(diffFrame())
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("%s as an int: %v, want %q", src, err, want)
		}
	}
}
