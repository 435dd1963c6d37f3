package expr

import (
	"math"
	"strings"
	"testing"
	"unsafe"
)

// evalIn compiles src over the differential environment (see
// diffResolver) and evaluates it.
func evalIn(t *testing.T, src string, want Kind) (any, *Program) {
	t.Helper()
	p, err := Compile(src, diffResolver(), want)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	v, err := p.Eval(diffFrame())
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return v, p
}

func TestSemantics(t *testing.T) {
	// a=7 b=-3 x=2.5 y=-0.75 s="héllo" t="lo" p=true q=false
	// v=(1,2,3) w=(0.5,-1) u=(1,0,-1,2) health.hp=15 time=1.25
	// detail = {damage: 5.0, n: 3, name: "rock", flag: true, none: nil,
	//           nested: {k: 1.5}, list: [1, 2.5, "z"]}
	cases := []struct {
		src  string
		kind Kind
		want any
	}{
		// numbers: ints stay ints under + - * %, / and ** give numbers
		{"a + b", Int, 4}, {"a - b * 2", Int, 13}, {"a % 4", Int, 3}, {"b % 2", Int, -1},
		{"a / 2", Number, 3.5}, {"2 ** 10", Number, 1024.0}, {"2 ^ 3", Number, 8.0},
		{"a + x", Number, 9.5}, {"-a", Int, -7}, {"-x", Number, -2.5}, {"+x", Number, 2.5},
		{"9223372036854775807 + 1", Int, math.MinInt64}, // wraps, as in Go and expr's VM
		{"1 / 0", Number, math.Inf(1)}, {"x * 2 + 1", Number, 6.0}, {"10 - x", Number, 7.5},
		// comparisons, chains, logic
		{"x < 3", Bool, true}, {"a >= 7", Bool, true}, {"1 < x < 3", Bool, true}, {"a == 7.0", Bool, true},
		{"health.hp < 20 && x > 10", Bool, false}, {"p and not q", Bool, true}, {"q || !p", Bool, false},
		{"s < t", Bool, true}, {"s != t", Bool, true}, {"v == vec3(1, 2, 3)", Bool, true}, {"w != w", Bool, false},
		// strings
		{"s + t", String, "héllolo"}, {"len(s)", Int, 5}, {"upper(t)", String, "LO"}, {"trim('  a ')", String, "a"},
		{"s contains 'll'", Bool, true}, {"s startsWith 'h'", Bool, true}, {"s endsWith t", Bool, true},
		{"s matches '^h.*o$'", Bool, true}, {"replace(s, 'l', 'L')", String, "héLLo"}, {"indexOf(t, 'o')", Int, 1},
		{"string(x)", String, "2.5"}, {"event in ['hit', 'hurt']", Bool, true}, {"a in [1, 2]", Bool, false},
		// conditionals
		{"p ? a : x", Number, 7.0}, {"q ? 'y' : 'n'", String, "n"}, {"if health.hp > 10 { 'high' } else { 'low' }", String, "high"},
		// functions and constants
		{"sin(PI / 2)", Number, 1.0}, {"atan2(1, 1) * 4 == PI", Bool, true}, {"min(3, a, x)", Number, 2.5},
		{"max(b, 2)", Number, 2.0}, {"clamp(x, 0, 1)", Number, 1.0}, {"lerp(0, 10, 0.25)", Number, 2.5},
		{"mod(-1, 360)", Number, 359.0}, {"sign(y)", Number, -1.0}, {"round(2.5)", Number, 3.0}, {"floor(-0.5)", Number, -1.0},
		{"ceil(0.2)", Number, 1.0}, {"abs(b)", Number, 3.0}, {"sqrt(16)", Number, 4.0}, {"pow(2, 3)", Number, 8.0},
		{"exp(0)", Number, 1.0}, {"log(E)", Number, 1.0}, {"smoothstep(0, 1, 0.5)", Number, 0.5}, {"fract(2.25)", Number, 0.25},
		{"deg(PI)", Number, 180.0}, {"rad(90) == PI / 2", Bool, true}, {"int(x)", Int, 2}, {"float(a)", Number, 7.0},
		{"sin(time * 2) * 3", Number, math.Sin(2.5) * 3},
		// vectors
		{"v.y", Number, 2.0}, {"w.x + u.w", Number, 2.5}, {"v + vec3(1, 1, 1)", Vec3, Vec{2, 3, 4}},
		{"v * 2", Vec3, Vec{2, 4, 6}}, {"2 * w", Vec2, Vec{1, -2}}, {"v / 2", Vec3, Vec{0.5, 1, 1.5}},
		{"v - v", Vec3, Vec{}}, {"length(vec2(3, 4))", Number, 5.0}, {"dot(v, v)", Number, 14.0},
		{"normalize(vec2(0, 2))", Vec2, Vec{0, 1}}, {"normalize(vec3(0, 0, 0))", Vec3, Vec{}},
		{"distance(vec2(0, 0), vec2(3, 4))", Number, 5.0}, {"lerp(v, vec3(3, 2, 1), 0.5)", Vec3, Vec{2, 2, 2}},
		{"(v + v).z", Number, 6.0}, {"vec4(1, 2, 3, 4)", Vec4, Vec{1, 2, 3, 4}},
		{"let k = (v + v).z; k", Number, 6.0}, // interpreted: expr's compiler needs the struct natures re-derived
		// dynamic values, checked where used
		{"detail.damage * 2", Number, 10.0}, {"detail.n % 2", Int, 1}, {"detail.name + '!'", String, "rock!"},
		{"detail.flag && p", Bool, true}, {"detail.nested.k", Dynamic, 1.5}, {"detail.list[1]", Dynamic, 2.5},
		{"detail.missing ?? 10", Dynamic, 10}, {"detail.damage ?? 10", Dynamic, 5.0}, {"detail?.none?.x", Dynamic, nil},
		{"detail.none == nil", Bool, true}, {"'z' in detail.list", Bool, true}, {"detail.damage > 4", Bool, true},
		{"len(detail.list)", Int, 3}, {"detail.none matches 'x'", Bool, false}, {"detail.damage + detail.n", Dynamic, 8.0},
		// frame names
		{"time", Number, 1.25}, {"dt * 60", Number, 1.0}, {"event", String, "hit"},
	}
	for _, c := range cases {
		got, p := evalIn(t, c.src, Any)
		if p.Kind() != c.kind {
			t.Errorf("%q: kind %v, want %v", c.src, p.Kind(), c.kind)
		}
		if !sameValue(got, c.want) {
			t.Errorf("%q = %#v, want %#v", c.src, got, c.want)
		}
	}
}

// TestClosuresNotInterpreted guards the claim that everything but the
// list constructs and let runs as closures.
func TestClosuresNotInterpreted(t *testing.T) {
	closures := []string{
		"sin(time*2)*3", "health.hp < 20 && y > 10", "p ? v : vec3(0, 0, 0)", "detail?.nested?.k ?? 0",
		"s matches 'a+'", "event in ['a', 'b']", "'z' in detail.list", "upper(s) + string(a)", "int(detail.n)",
		"len(detail.list)", "v * 2 + w.x * vec3(1, 1, 1)", "detail['name'] startsWith 'r'",
	}
	for _, src := range closures {
		if _, p := evalIn(t, src, Any); p.Interpreted() != "" {
			t.Errorf("%q runs on the interpreter (%s)", src, p.Interpreted())
		}
	}
	interpreted := map[string]string{
		"let k = x * 2; k + 1":        "let",
		"filter([1, 2, 3], # > 1)":    "list literal",
		"count(detail.list, # != 1)":  "predicate",
		"s matches event":             "matches with a pattern that is not constant",
		"a in [a, 1]":                 "in with a list that is not constant",
		"[1, 2][0]":                   "list literal",
		"join(['a', 'b'], '-')":       "list literal",
		"sum(1..4)":                   "operator ..",
		"detail.list[0:2]":            "slice",
		"len({a: 1})":                 "map literal",
		"split(s, 'l')[0] + 'x'":      "list function split",
		"first(detail.list) ?? 'nil'": "list function first",
	}
	for src, why := range interpreted {
		if _, p := evalIn(t, src, Any); p.Interpreted() != why {
			t.Errorf("%q: Interpreted() = %q, want %q", src, p.Interpreted(), why)
		}
	}
}

func TestWant(t *testing.T) {
	ok := []struct {
		src  string
		want Kind
		val  any
	}{
		{"a", Number, 7.0}, {"detail.damage", Number, 5.0}, {"detail.name", String, "rock"},
		{"x * 2", Int, 5}, {"detail.flag", Bool, true}, {"a", Dynamic, 7}, {"v", Vec3, Vec{1, 2, 3}},
	}
	for _, c := range ok {
		got, p := evalIn(t, c.src, c.want)
		if p.Kind() != c.want || !sameValue(got, c.val) {
			t.Errorf("Compile(%q, %v): %v %#v, want %#v", c.src, c.want, p.Kind(), got, c.val)
		}
	}
	refused := []struct {
		src  string
		want Kind
		msg  string
	}{
		{"s", Number, "the expression is a string, but a number is needed here"},
		{"a < 1", Int, "the expression is a bool, but an int is needed here"},
		{"v", Vec2, "the expression is a vec3, but a vec2 is needed here"},
		{"x", Bool, "the expression is a number, but a bool is needed here"},
	}
	for _, c := range refused {
		_, err := Compile(c.src, diffResolver(), c.want)
		if e, ok := err.(*Error); !ok || e.Msg != c.msg || e.Offset != 0 || e.Len != len(c.src) {
			t.Errorf("Compile(%q, %v): %v, want %q over the whole source", c.src, c.want, err, c.msg)
		}
	}
}

func TestConstAndFolding(t *testing.T) {
	for src, konst := range map[string]bool{
		"sin(PI / 4) * 2": true, "b * 2 + 1": true, "t + '!'": true, "vec3(1, 2, 3).y": true, "q ? x : 1": true, "p ? x : 1": false,
		"x": false, "time * 2": false, "detail.n": false, "p && q": false, "q && p": false, "u * 2": true,
	} {
		if _, p := evalIn(t, src, Any); p.Const() != konst {
			t.Errorf("%q: Const() = %v, want %v", src, p.Const(), konst)
		}
	}
	// A constant that fails is not folded: in a branch not taken it never
	// runs; taken, it fails at run time.
	if v, _ := evalIn(t, "q ? 1 % 0 : 2", Any); v != 2 {
		t.Errorf("q ? 1 %% 0 : 2 = %v", v)
	}
	p, err := Compile("1 % 0", nil, Any)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Eval(&Frame{}); err == nil || !strings.Contains(err.Error(), "modulo by zero") {
		t.Errorf("1 %% 0: %v", err)
	}
}

// TestConcurrentEval: a Program is shared by goroutines, each with a
// Frame of its own, and Compile runs concurrently (run with -race).
func TestConcurrentEval(t *testing.T) {
	srcs := []string{"sin(time) + health.hp", "detail.damage * x > 3 ? 'yes' : s", "let k = time; k * 2"}
	progs := make([]*Program, len(srcs))
	for i, src := range srcs {
		_, progs[i] = evalIn(t, src, Any)
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			f := diffFrame()
			_, err := Compile("vec3(1, 2, 3) * sin(time) + v", diffResolver(), Vec3) // compiles run side by side too
			for i := range 200 {
				f.Time = float64(g*1000 + i)
				for _, p := range progs {
					if _, e := p.Eval(f); e != nil && err == nil {
						err = e
					}
				}
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestFieldTypes reads every field type a Field supports, alone and as
// the operand of the fused comparisons.
func TestFieldTypes(t *testing.T) {
	type comp struct {
		F64 float64
		F32 float32
		I   int
		I32 int32
		I64 int64
		B   bool
		S   string
		V2  [2]float64
		V3  struct{ X, Y, Z float64 }
		V4  [4]float64
	}
	c := &comp{F64: 1.5, F32: 2.5, I: -3, I32: 4, I64: 1 << 40, B: true, S: "on", V2: [2]float64{1, 2}, V4: [4]float64{1, 2, 3, 4}}
	c.V3.Y = 7
	var z comp
	fv := func(off uintptr, ty FieldType) Var { return FieldVar(Field{Slot: 2, Offset: off, Type: ty}) }
	names := Vars{
		"f64": fv(unsafe.Offsetof(z.F64), FieldFloat64), "f32": fv(unsafe.Offsetof(z.F32), FieldFloat32),
		"i": fv(unsafe.Offsetof(z.I), FieldInt), "i32": fv(unsafe.Offsetof(z.I32), FieldInt32),
		"i64": fv(unsafe.Offsetof(z.I64), FieldInt64), "b": fv(unsafe.Offsetof(z.B), FieldBool),
		"s": fv(unsafe.Offsetof(z.S), FieldString), "v2": fv(unsafe.Offsetof(z.V2), FieldVec2),
		"v3": fv(unsafe.Offsetof(z.V3), FieldVec3), "v4": fv(unsafe.Offsetof(z.V4), FieldVec4),
	}
	f := &Frame{}
	f.Comp[2] = unsafe.Pointer(c)
	for src, want := range map[string]any{
		"f64": 1.5, "f32": 2.5, "i": -3, "i32": 4, "i64": 1 << 40, "b": true, "s": "on",
		"v2": Vec{1, 2}, "v3": Vec{0, 7, 0}, "v4": Vec{1, 2, 3, 4}, "v3.y": 7.0, "v4.w": 4.0, "v2.y * 2": 4.0,
		"f64 < 2": true, "2 < f64": false, "f64 <= 1.5": true, "f64 > 1.5": false, "f64 >= 1.5": true,
		"i < -2": true, "-3 <= i": true, "i > -3": false, "i >= -3.5": true, "v3.y > 6": true,
	} {
		p, err := Compile(src, names, Any)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		if got, err := p.Eval(f); err != nil || !sameValue(got, want) {
			t.Errorf("%q = %#v, %v; want %#v", src, got, err, want)
		}
	}
	for _, bad := range []func(){
		func() { FieldVar(Field{Slot: MaxComps, Type: FieldInt}) },
		func() { FieldVar(Field{Slot: 0, Type: 99}) },
		func() { VecVar(Number, nil) },
		func() { Const(int8(1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			bad()
		}()
	}
}

func TestNames(t *testing.T) {
	for src, want := range map[string]string{
		"sin(time * 2) * 3":                    "time",
		"health.hp < 20 && detail.damage > PI": "PI detail health.hp",
		"v.x + v.y + x":                        "v x",
		"1 + 2":                                "",
	} {
		_, p := evalIn(t, src, Any)
		if got := strings.Join(p.Names(), " "); got != want {
			t.Errorf("%q: Names() = %q, want %q", src, got, want)
		}
	}
}

// TestNoAllocs: evaluating closures allocates nothing, for the typed
// kinds and for dynamic values read from a detail (not for arithmetic
// between two dynamic values, nor the interpreter).
func TestNoAllocs(t *testing.T) {
	f := diffFrame()
	for _, src := range []string{
		"sin(time*2)*3", "health.hp < 20 && x > 1", "v * 2 + vec3(0, 1, 0)", "length(w)", "p ? a : b",
		"detail.damage > 3 && health.hp > 0", "health.hp - detail.damage", "detail?.nested?.k ?? 1",
		"event in ['hit', 'hurt']", "s contains 'l'", "detail.name == 'rock'", "clamp(x, 0, 1) * max(a, b, 2)",
	} {
		_, p := evalIn(t, src, Any)
		allocs := testing.AllocsPerRun(100, func() {
			switch p.Kind() {
			case Bool:
				p.BoolFunc()(f)
			case Number:
				p.NumberFunc()(f)
			case Int:
				p.IntFunc()(f)
			case Vec2, Vec3, Vec4:
				p.VecFunc()(f)
			default:
				p.DynamicFunc()(f)
			}
		})
		if allocs != 0 || f.Err() != nil {
			t.Errorf("%q: %v allocations per evaluation (err %v)", src, allocs, f.Err())
		}
	}
}

// TestLetMembers: a member of a let variable (`let k = detail; k.x`)
// compiles and reads the member. It used to recurse until Go's fatal
// stack overflow, which no recover catches, at load time.
func TestLetMembers(t *testing.T) {
	f := &Frame{Detail: map[string]any{"nested": map[string]any{"k": 1.5}}}
	for _, src := range []string{"let k = detail; k.nested.k", "let k = detail.nested; k.k", "let k = detail; k?.nested?.k"} {
		p, err := Compile(src, FrameNames(), Any)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if v, err := p.Eval(f); v != 1.5 || err != nil {
			t.Errorf("%s = %v, %v; want 1.5", src, v, err)
		}
	}
}
