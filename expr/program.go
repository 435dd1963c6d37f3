package expr

// The typed closures of a program. A loop takes one once and calls it for
// every evaluation; a run-time error (a dynamic value of the wrong type)
// makes the closure return a zero value and is recorded in the Frame
// (see [Frame.Err]). Each panics if the program is not of its kind:
// compile with the want the consumer needs.

// BoolFunc returns the closure of a Bool program.
func (p *Program) BoolFunc() func(*Frame) bool {
	p.mustBe(Bool, "BoolFunc")
	return p.c.b
}

// IntFunc returns the closure of an Int program.
func (p *Program) IntFunc() func(*Frame) int {
	p.mustBe(Int, "IntFunc")
	return p.c.i
}

// NumberFunc returns the closure of a Number program; for an Int program,
// the closure promotes the int.
func (p *Program) NumberFunc() func(*Frame) float64 {
	p.mustBe(Number, "NumberFunc")
	if p.c.k == Int {
		i := p.c.i
		return func(f *Frame) float64 { return float64(i(f)) }
	}
	return p.c.n
}

// StringFunc returns the closure of a String program.
func (p *Program) StringFunc() func(*Frame) string {
	p.mustBe(String, "StringFunc")
	return p.c.s
}

// VecFunc returns the closure of a vector program (of any dimension: see
// [Program.Kind]).
func (p *Program) VecFunc() func(*Frame) Vec {
	p.mustBe(Vec3, "VecFunc")
	return p.c.v
}

// DynamicFunc returns the closure of a Dynamic program.
func (p *Program) DynamicFunc() func(*Frame) any {
	p.mustBe(Dynamic, "DynamicFunc")
	return p.c.d
}

// Eval evaluates the program in f and returns its value as a float64, an
// int, a bool, a string, a [Vec] or (for a Dynamic program) the dynamic
// value, with the run-time error if any. It clears f's error first. A
// number or vector result is boxed, which allocates: loops use the typed
// closures.
func (p *Program) Eval(f *Frame) (any, error) {
	f.Reset()
	var v any
	switch c := p.c; c.k {
	case Bool:
		v = c.b(f)
	case Int:
		v = c.i(f)
	case Number:
		v = c.n(f)
	case String:
		v = c.s(f)
	case Vec2, Vec3, Vec4:
		v = c.v(f)
	default:
		v = c.d(f)
		if x, _, ok := fromVM(v); ok {
			v = x
		}
	}
	if err := f.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

// EvalBool evaluates a Bool program in f, clearing f's error first.
func (p *Program) EvalBool(f *Frame) (bool, error) {
	p.mustBe(Bool, "EvalBool")
	f.Reset()
	v := p.c.b(f)
	return v, f.Err()
}

// EvalNumber evaluates a Number (or Int) program in f, clearing f's error
// first.
func (p *Program) EvalNumber(f *Frame) (float64, error) {
	p.mustBe(Number, "EvalNumber")
	f.Reset()
	var v float64
	if p.c.k == Int {
		v = float64(p.c.i(f))
	} else {
		v = p.c.n(f)
	}
	return v, f.Err()
}
