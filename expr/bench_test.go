package expr

import (
	"math"
	"strings"
	"testing"
	"unsafe"

	exprlang "github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// The benchmarks compare, in one run, a compiled closure with the same
// computation written by hand in Go and with expr's VM (a reused vm.VM,
// its fastest form). Run them with
//
//	go test ./expr -run '^$' -bench . -count 5
//
// and compare the ratios of the medians.

var (
	sinkF float64
	sinkB bool
	sinkS string
)

// benchPos is a position component as the registry stores one.
type benchPos struct{ X, Y, Z float64 }

// benchHealth is a health component.
type benchHealth struct{ HP float64 }

// benchResolver resolves position (a vec3 field in slot 0), health.hp (a
// number field in slot 1), hp and y (accessor closures, not fields), and
// the frame names.
func benchResolver() Resolver {
	var p benchPos
	return Chain(FrameNames(), Vars{
		"position":  FieldVar(Field{Slot: 0, Offset: 0, Type: FieldVec3}),
		"health.hp": FieldVar(Field{Slot: 1, Offset: 0, Type: FieldFloat64}),
		"hp":        NumberVar(func(f *Frame) float64 { return (*benchHealth)(f.Comp[1]).HP }),
		"y":         NumberVar(func(f *Frame) float64 { return (*benchPos)(f.Comp[0]).Y }),
		"pos.y":     FieldVar(Field{Slot: 0, Offset: unsafe.Offsetof(p.Y), Type: FieldFloat64}),
	})
}

func mustCompile(b *testing.B, src string, want Kind) *Program {
	b.Helper()
	p, err := Compile(src, benchResolver(), want)
	if err != nil {
		b.Fatal(err)
	}
	if p.Interpreted() != "" {
		b.Fatalf("%q is interpreted: %s", src, p.Interpreted())
	}
	return p
}

// vmEnv is the environment of the VM benchmarks.
type vmEnv struct {
	Time float64 `expr:"time"`
	HP   float64 `expr:"hp"`
	Y    float64 `expr:"y"`
}

func mustVM(b *testing.B, src string, env any) *vm.Program {
	b.Helper()
	p, err := exprlang.Compile(src, exprlang.Env(env), exprlang.Function("sin", func(a ...any) (any, error) {
		return math.Sin(a[0].(float64)), nil
	}, math.Sin))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkSin is one evaluation of sin(time*2)*3.
func BenchmarkSin(b *testing.B) {
	f := &Frame{Time: 1.25}
	b.Run("hand", func(b *testing.B) {
		hand := func(f *Frame) float64 { return math.Sin(f.Time*2) * 3 }
		for b.Loop() {
			sinkF = hand(f)
			f.Time += 1e-9
		}
	})
	b.Run("closure", func(b *testing.B) {
		fn := mustCompile(b, "sin(time*2)*3", Number).NumberFunc()
		for b.Loop() {
			sinkF = fn(f)
			f.Time += 1e-9
		}
	})
	b.Run("vm", func(b *testing.B) {
		p := mustVM(b, "sin(time*2)*3", vmEnv{})
		var machine vm.VM
		env := &vmEnv{Time: 1.25}
		for b.Loop() {
			out, _ := machine.Run(p, env)
			sinkF = out.(float64)
			env.Time += 1e-9
		}
	})
}

// BenchmarkPredicate is one evaluation of hp < 20 && y > 10, reading two
// components of the entity.
func BenchmarkPredicate(b *testing.B) {
	pos, health := &benchPos{Y: 12}, &benchHealth{HP: 15}
	f := &Frame{}
	f.Comp[0], f.Comp[1] = unsafe.Pointer(pos), unsafe.Pointer(health)
	b.Run("hand", func(b *testing.B) {
		hand := func(f *Frame) bool {
			return (*benchHealth)(f.Comp[1]).HP < 20 && (*benchPos)(f.Comp[0]).Y > 10
		}
		for b.Loop() {
			sinkB = hand(f)
		}
	})
	b.Run("single/hand", func(b *testing.B) {
		hand := func(f *Frame) bool { return (*benchHealth)(f.Comp[1]).HP < 20 }
		for b.Loop() {
			sinkB = hand(f)
		}
	})
	b.Run("single/closure", func(b *testing.B) {
		fn := mustCompile(b, "health.hp < 20", Bool).BoolFunc()
		for b.Loop() {
			sinkB = fn(f)
		}
	})
	b.Run("closure-fields", func(b *testing.B) {
		fn := mustCompile(b, "health.hp < 20 && pos.y > 10", Bool).BoolFunc()
		for b.Loop() {
			sinkB = fn(f)
		}
	})
	b.Run("closure-accessors", func(b *testing.B) {
		fn := mustCompile(b, "hp < 20 && y > 10", Bool).BoolFunc()
		for b.Loop() {
			sinkB = fn(f)
		}
	})
	b.Run("vm", func(b *testing.B) {
		p := mustVM(b, "hp < 20 && y > 10", vmEnv{})
		var machine vm.VM
		env := &vmEnv{}
		for b.Loop() {
			env.HP, env.Y = health.HP, pos.Y
			out, _ := machine.Run(p, env)
			sinkB = out.(bool)
		}
	})
}

// BenchmarkCompile is the cost of compiling a typical condition (parse,
// resolve, check twice, build the closures): paid once per expression
// when a scene loads.
func BenchmarkCompile(b *testing.B) {
	r := benchResolver()
	for b.Loop() {
		if _, err := Compile("detail.damage > 3 && health.hp > 0 ? sin(time * 2) * 3 : 0", r, Number); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkString is one evaluation of expressions that make strings,
// whose results the budget counts ([MaxBytes]): a join with +, upper and
// replace as closures, each beside the same written in Go, and the join
// on the VM (let makes it interpreted).
func BenchmarkString(b *testing.B) {
	name := func(*Frame) string { return "rock-42" }
	r := Chain(FrameNames(), Vars{"name": StringVar(name)})
	f := &Frame{Event: "hit"}
	cases := []struct {
		label, src string
		hand       func(*Frame) string
	}{
		{"plus", "name + '!' + event", func(f *Frame) string { return name(f) + "!" + f.Event }},
		{"upper", "upper(name)", func(f *Frame) string { return strings.ToUpper(name(f)) }},
		{"replace", "replace(name, '-', '_')", func(f *Frame) string { return strings.ReplaceAll(name(f), "-", "_") }},
		{"plus-vm", "let n = name; n + '!' + event", nil},
	}
	for _, c := range cases {
		if c.hand != nil {
			b.Run(c.label+"/hand", func(b *testing.B) {
				for b.Loop() {
					sinkS = c.hand(f)
				}
			})
		}
		b.Run(c.label+"/closure", func(b *testing.B) {
			p, err := Compile(c.src, r, String)
			if err != nil {
				b.Fatal(err)
			}
			fn := p.StringFunc()
			for b.Loop() {
				sinkS = fn(f)
			}
		})
	}
}
