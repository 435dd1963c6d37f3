package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/expr"
)

// A bind: position.y follows an expression of the scene time.
func Example() {
	p, err := expr.Compile("sin(time * 2) * 3", expr.FrameNames(), expr.Number)
	if err != nil {
		fmt.Println(err)
		return
	}
	y := p.NumberFunc()
	var f expr.Frame
	for _, t := range []float64{0, 0.25, 0.5} {
		f.Time = t
		fmt.Printf("t=%.2f y=%.3f\n", t, y(&f))
	}
	// Output:
	// t=0.00 y=0.000
	// t=0.25 y=1.438
	// t=0.50 y=2.524
}

// An event condition reads the event's detail (dynamic: checked when
// used) and a component of the entity.
func ExampleCompile_condition() {
	hp := 15.0
	names := expr.Chain(expr.FrameNames(), expr.Vars{
		"health.hp": expr.NumberVar(func(*expr.Frame) float64 { return hp }),
	})
	cond, err := expr.Compile(`event == "hit" && detail.damage >= health.hp`, names, expr.Bool)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := &expr.Frame{Event: "hit", Detail: map[string]any{"damage": 20.0}}
	fmt.Println(cond.EvalBool(f))
	f.Detail = map[string]any{"damage": "lots"}
	fmt.Println(cond.EvalBool(f))
	// Output:
	// true <nil>
	// false detail.damage is a string ("lots"), not a number
}

// A loop over packed component values: the host puts each value's
// address in the frame's slot, and a Field variable reads it inline.
func ExampleFieldVar() {
	type position struct{ X, Y, Z float64 }
	var zero position
	names := expr.Chain(expr.FrameNames(), expr.Vars{
		"position":   expr.FieldVar(expr.Field{Slot: 0, Offset: 0, Type: expr.FieldVec3}),
		"position.x": expr.FieldVar(expr.Field{Slot: 0, Offset: unsafe.Offsetof(zero.X), Type: expr.FieldFloat64}),
	})
	p, err := expr.Compile("position.x * 2 + time", names, expr.Number)
	if err != nil {
		fmt.Println(err)
		return
	}
	bind := p.NumberFunc()
	column := []position{{X: 1}, {X: 2}, {X: 3}}
	f := &expr.Frame{Time: 0.5}
	for i := range column {
		f.Comp[0] = unsafe.Pointer(&column[i])
		column[i].Y = bind(f)
	}
	fmt.Println(column, f.Err())
	// Output:
	// [{1 2.5 0} {2 4.5 0} {3 6.5 0}] <nil>
}

// Errors locate the problem in the source, so that a host can point at
// file:line:col inside an attribute string.
func ExampleError() {
	src := "helth.hp < 20 && y > 10"
	_, err := expr.Compile(src, expr.Vars{
		"health.hp": expr.Const(100.0),
		"y":         expr.Const(0.0),
	}, expr.Bool)
	var e *expr.Error
	if errors.As(err, &e) {
		fmt.Println(src)
		fmt.Println(strings.Repeat(" ", e.Offset) + strings.Repeat("^", e.Len))
		fmt.Println(e.Msg)
	}
	// Output:
	// helth.hp < 20 && y > 10
	// ^^^^^^^^
	// unknown name "helth.hp" (did you mean "health.hp"?)
}

// Vectors: whole values and single axes.
func ExampleVecVar() {
	names := expr.Vars{"velocity": expr.VecVar(expr.Vec3, func(*expr.Frame) expr.Vec { return expr.Vec{3, 0, 4} })}
	for _, src := range []string{"velocity * 2", "length(velocity)", "normalize(velocity).z", "velocity + vec3(0, 1, 0)"} {
		p, err := expr.Compile(src, names, expr.Any)
		if err != nil {
			fmt.Println(err)
			continue
		}
		v, _ := p.Eval(&expr.Frame{})
		if vec, ok := v.(expr.Vec); ok {
			v = vec[:p.Kind().Dim()]
		}
		fmt.Println(src, "=", v, p.Kind())
	}
	// Output:
	// velocity * 2 = [6 0 8] vec3
	// length(velocity) = 5 number
	// normalize(velocity).z = 0.8 number
	// velocity + vec3(0, 1, 0) = [3 1 4] vec3
}
