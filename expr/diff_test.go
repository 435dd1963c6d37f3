package expr

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unsafe"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
)

// The differential test compares the closures with expr's own pipeline
// (parser, checker, optimizer, VM) on the same fixed environment: for
// every expression, both give the same value, or both refuse it (at
// compile time or at run time).

// refHealth and refEnv are the environment as expr's VM sees it: a struct
// whose field types match the kinds the resolver gives, so that both
// checkers type every name alike.
type refHealth struct {
	HP int `expr:"hp"`
}

type refEnv struct {
	A      int       `expr:"a"`
	B      int       `expr:"b"`
	X      float64   `expr:"x"`
	Y      float64   `expr:"y"`
	S      string    `expr:"s"`
	T      string    `expr:"t"`
	P      bool      `expr:"p"`
	Q      bool      `expr:"q"`
	V      vmVec3    `expr:"v"`
	W      vmVec2    `expr:"w"`
	U      vmVec4    `expr:"u"`
	Health refHealth `expr:"health"`
	Detail any       `expr:"detail"`
	Time   float64   `expr:"time"`
	Dt     float64   `expr:"dt"`
	Event  string    `expr:"event"`
	PI     float64
	E      float64
}

// diffComp is the component value the Field variables of the
// differential environment read (slot 0).
type diffComp struct {
	HP int
	X  float64
	V  [3]float64
}

func diffDetail() map[string]any {
	return map[string]any{
		"damage": 5.0, "n": 3, "name": "rock", "flag": true, "none": nil,
		"nested": map[string]any{"k": 1.5}, "list": []any{1, 2.5, "z"},
	}
}

func diffRef() refEnv {
	return refEnv{
		A: 7, B: -3, X: 2.5, Y: -0.75, S: "héllo", T: "lo", P: true, Q: false,
		V: vmVec3{1, 2, 3}, W: vmVec2{0.5, -1}, U: vmVec4{1, 0, -1, 2},
		Health: refHealth{15}, Detail: diffDetail(), Time: 1.25, Dt: 1.0 / 60, Event: "hit",
		PI: math.Pi, E: math.E,
	}
}

// diffResolver resolves the same names for the closures; health.hp, x
// and v are Fields of a diffComp, so that the inline field reads are
// compared too.
func diffResolver() Resolver {
	var c diffComp
	return Chain(FrameNames(), Vars{
		"a":         IntVar(func(*Frame) int { return 7 }),
		"b":         Const(-3),
		"x":         FieldVar(Field{0, unsafe.Offsetof(c.X), FieldFloat64}),
		"y":         NumberVar(func(*Frame) float64 { return -0.75 }),
		"s":         StringVar(func(*Frame) string { return "héllo" }),
		"t":         Const("lo"),
		"p":         BoolVar(func(*Frame) bool { return true }),
		"q":         Const(false),
		"v":         FieldVar(Field{0, unsafe.Offsetof(c.V), FieldVec3}),
		"w":         VecVar(Vec2, func(*Frame) Vec { return Vec{0.5, -1} }),
		"u":         ConstVec(Vec4, Vec{1, 0, -1, 2}),
		"health.hp": FieldVar(Field{0, unsafe.Offsetof(c.HP), FieldInt}),
	})
}

func diffFrame() *Frame {
	f := &Frame{Time: 1.25, Dt: 1.0 / 60, Event: "hit", Detail: diffDetail()}
	f.Comp[0] = unsafe.Pointer(&diffComp{HP: 15, X: 2.5, V: [3]float64{1, 2, 3}})
	return f
}

// refOptions are expr.Compile's options for the same language.
func refOptions() []exprlang.Option {
	t := sharedTables()
	// Unoptimized: expr's optimizer drops operands whose value cannot
	// matter (x and false), errors and all, which the closures evaluate
	// as written; the fallback runs unoptimized too.
	opts := []exprlang.Option{exprlang.Env(refEnv{}), exprlang.MaxNodes(MaxNodes), exprlang.DisableAllBuiltins(), exprlang.Optimize(false)}
	for b := range t.builtins {
		opts = append(opts, exprlang.EnableBuiltin(b))
	}
	for name, fn := range t.funcs {
		var types []any
		for _, ft := range fn.types() {
			types = append(types, reflect.Zero(ft).Interface())
		}
		opts = append(opts, exprlang.Function(name, fn.vmFunc, types...))
	}
	for _, op := range [][2]string{{"+", "__vadd"}, {"-", "__vsub"}, {"*", "__vmul"}, {"/", "__vdiv"}} {
		opts = append(opts, exprlang.Operator(op[0], op[1]))
	}
	return opts
}

// skipDiff reports whether src uses what the two sides deliberately do
// not share: the operator functions called by name, $env (the VM's whole
// environment), and health other than as health.hp (the resolver has no
// name health alone; the struct does).
func skipDiff(src string) bool {
	return len(src) > MaxSource || strings.Contains(src, "__") || strings.Contains(src, "$env") ||
		strings.Count(src, "health") != strings.Count(src, "health.hp")
}

// refRecheck type-checks src as expr.Compile does, then once more from
// untyped nodes (as Compile does, see checkTwice): the errors a single
// pass misses.
func refRecheck(src string, opts []exprlang.Option) error {
	config := conf.CreateNew()
	for _, o := range opts {
		o(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	tree, err := parser.ParseWithConfig(src, config)
	if err != nil {
		return err
	}
	return checkTwice(tree, config)
}

// runRef evaluates src on expr's own pipeline.
func runRef(src string, opts []exprlang.Option) (out any, err error) {
	prog, err := exprlang.Compile(src, opts...)
	if err != nil {
		return nil, err
	}
	return vm.Run(prog, diffRef())
}

// runMine evaluates src as closures (or, for what they do not cover, on
// the fallback). interp is what Program.Interpreted says, or "compile"
// if Compile refused src.
func runMine(src string) (out any, interp string, err error) {
	p, err := Compile(src, diffResolver(), Any)
	if err != nil {
		return nil, "compile", err
	}
	out, err = p.Eval(diffFrame())
	return out, p.Interpreted(), err
}

// Outcomes of checkSame.
const (
	outSkip       = "skipped"
	outCrash      = "expr crashes"
	outRefused    = "both refuse"
	outSame       = "same value"
	outSameInterp = "same value, interpreted"
)

// outOfInt matches the language's refusal of int() of a number no int
// holds.
var outOfInt = regexp.MustCompile(`^int(\(.*\))?: (.* is out of the int range|NaN is not a number)$`)

// checkSame fails t if mine and expr's VM disagree on src, and otherwise
// returns how they agree.
func checkSame(t *testing.T, src string, opts []exprlang.Option) string {
	t.Helper()
	if skipDiff(src) {
		return outSkip
	}
	ref, rerr := runRef(src, opts)
	mine, interp, merr := runMine(src)
	if merr != nil {
		var e *Error
		if !asError(merr, &e) || e.Offset < 0 || e.Offset+e.Len > len(src) || e.Len < 0 {
			t.Fatalf("%q: error %v is not an *Error within the source (%+v)", src, merr, e)
		}
		if strings.Contains(e.Msg, "internal error") {
			t.Fatalf("%q: %v", src, merr)
		}
	}
	if rerr != nil && strings.Contains(rerr.Error(), "invalid memory address") {
		// expr's compiler crashes on a member of an overloaded operator's
		// result, (v + v).x; the closures (and the fallback, which works
		// around it) do not.
		return outCrash
	}
	switch {
	case rerr != nil && merr != nil:
		return outRefused
	case rerr != nil:
		t.Fatalf("%q: expr refuses (%v), the closures give %#v (interpreted: %q)", src, rerr, mine, interp)
	case merr != nil && interp == "compile" && refRecheck(src, opts) != nil:
		// expr's checker skips the arguments of a call its operator
		// patcher typed; checked again, it refuses too.
		return outRefused
	case merr != nil && outOfInt.MatchString(merr.Error()):
		// int() of a number out of the int range (or NaN) is an error
		// in the language; expr's VM gives what Go's conversion gives.
		return outRefused
	case merr != nil:
		t.Fatalf("%q: expr gives %#v, the closures refuse: %v", src, ref, merr)
	}
	if !sameValue(mine, ref) {
		t.Fatalf("%q: closures give %#v (%T), expr gives %#v (%T) (interpreted: %q)", src, mine, mine, ref, ref, interp)
	}
	if interp != "" {
		return outSameInterp
	}
	checkBatch(t, src) // and the batch form, if it has one, gives the closure's values
	return outSame
}

func asError(err error, e **Error) bool {
	x, ok := err.(*Error)
	*e = x
	return ok
}

// sameValue compares a closure result with a VM result: numbers by value
// (an int and a float64 of the same value are the same; NaN is NaN),
// vectors by axes, the rest deeply.
func sameValue(mine, ref any) bool {
	if v, _, ok := fromVM(ref); ok {
		ref = v
	}
	mf, mok := toFloat(mine)
	rf, rok := toFloat(ref)
	if mok && rok {
		_, mInt := mine.(int)
		_, rInt := ref.(int)
		if mInt != rInt && math.Abs(rf) > 1<<53 {
			return true // a dynamic number is a float64 in the closures: beyond 2^53 ints differ
		}
		return mf == rf || math.IsNaN(mf) && math.IsNaN(rf)
	}
	if mv, ok := mine.(Vec); ok {
		rv, ok := ref.(Vec)
		if !ok {
			return false
		}
		for i := range mv {
			if mv[i] != rv[i] && !(math.IsNaN(mv[i]) && math.IsNaN(rv[i])) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(mine, ref) || fmt.Sprint(mine) == fmt.Sprint(ref) && reflect.TypeOf(mine) == reflect.TypeOf(ref)
}

// TestDifferentialFamilies compares, by name, the families of
// expressions where the closures and expr's VM once disagreed; each fix
// is held to the VM on its whole family, not on its first example.
func TestDifferentialFamilies(t *testing.T) {
	opts := refOptions()
	families := map[string][]string{
		"string operators on nil are false": {
			"detail.none matches 'x'", "detail.none contains 'x'", "detail.none startsWith 'x'", "detail.none endsWith 'x'",
			"s contains detail.none", "s startsWith detail.missing", "detail.none endsWith detail.none", "not (detail.none contains s)",
		},
		"int literals stay ints next to vector operators": {
			"v / -0", "-0 * v", "w / (0 - 0)", "u * -0 / -0", "(9223372036854775807 + len(s)) * v",
			"v * (9223372036854775807 + a)", "dot((9223372036854775807 * 2) * w, w)", "(v / -0).x",
		},
		"members of vector operator results": {
			"(v + v).x", "(w * 2).y", "let k = (v - v).z; k", "filter([1], (v * #).x > 0)", "(u / 2).w + (v + v).y",
		},
		"overloads picked by a dynamic argument": {
			"length(p ? v : w)", "length(q ? false : v)", "normalize(p ? w : 1)", "lerp(detail.damage, 10, 0.5)",
			"distance(p ? v : w, p ? v : w)", "(p ? v : w) * 2", "normalize(detail)",
		},
		"built-ins counted by the budgets on the VM": {
			"let k = s; upper(k) + lower(k)", "let k = s; replace(k, 'l', 'L', 1)", "let k = detail.list; string(k)",
			"let k = ['a', 'b']; join(k, '-')", "let k = ['a', 'b']; join(k)", "let k = s; split(k, 'l')", "let k = s; split(k, 'l', 2)",
			"let k = s; split(k, '')", "let k = detail.list; concat(k, [1])", "flatten([[1], [2, [3]]])", "let k = x; int(k)",
			"let k = detail.name; k + '!'", "let k = 1; k + 2.5", "let k = a; k + detail.n", "let k = detail.name; k matches 'r.*'",
			"let k = 'r.*'; detail.name matches k", "let k = detail.none; k matches t", "reduce(1..3, #acc + string(#), '')",
			"let k = detail.name; upper(k)", "map(['a', 'b'], # + t)", "let k = detail; string(k.nested)", "let k = x; int(k * 1e300)",
			"let k = detail.flag; upper(k)", "let k = [1, 2]; join(k)", "let k = v; string(k)",
		},
		"errors inside arguments of patched calls": {
			"vec3(min(x, true), 1, 2)", "v * min(x, 'a')", "(v + v) * len(3)", "t in [a, 7] ? v * 2 : v",
		},
	}
	for family, srcs := range families {
		for _, src := range srcs {
			t.Run(family+"/"+src, func(t *testing.T) { checkSame(t, src, opts) })
		}
	}
}
