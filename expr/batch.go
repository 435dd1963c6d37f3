package expr

import (
	"math"
	"reflect"
	"unsafe"

	"github.com/expr-lang/expr/ast"
)

// Batch evaluation: a number expression evaluated for many entities at
// once, one pass over the batch per node of the expression, instead of
// one call of the closure tree per entity. The closures cost an indirect
// call per node and entity; a batch pays that call once per node and
// batch, and each node's loop over the batch is a plain loop. What does
// not depend on the entity (constants, time, and what is computed from
// them only: `time * 2`) is computed once per batch with the node's
// closure. Only the shapes the loops cover are batched (fields read from
// the entity's components, + - * / ** ^, unary minus, the number
// functions); a program with any other node that depends on the entity
// has no Batch, and its host uses the closures.
//
// Every node computes what its closure computes, in the same order of
// operations, so a Batch's values are the closures' values bit for bit
// (diff_test.go holds it to them).

// BatchSize is the largest number of entities one [Batch.Eval] call
// takes; a host splits longer lists.
const BatchSize = 256

// Batch is the batch form of a Number program (see [Program.Batch]). It
// is immutable and safe for concurrent use.
type Batch struct {
	root  bnode
	temps int   // rows of scratch the nodes need
	slots uint8 // the Frame.Comp slots its fields read (bit k: slot k)
}

// bnode is one node of a batch: eval writes the node's value for
// entity i to out[i], reading field pointers from ptrs[slot][i] and the
// rest from f, with tmp as scratch. A uniform node (u set) has the same
// value for every entity; eval is then nil and u computes it.
type bnode struct {
	eval  func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64)
	u     func(*Frame) float64
	temps int // rows of scratch eval needs (BatchSize floats each)
}

// Slots returns the Frame.Comp slots whose pointers [Batch.Eval] needs, as
// a mask (bit k for slot k).
func (b *Batch) Slots() uint8 { return b.slots }

// Scratch returns scratch space of the size Eval needs. A host keeps
// one per loop (or goroutine) and passes it to every Eval.
func (b *Batch) Scratch() []float64 { return make([]float64, b.temps*BatchSize) }

// Eval computes the value for len(out) entities (at most [BatchSize]):
// out[i] gets the value with Frame.Comp[k] = ptrs[k][i] for each slot k
// of [Batch.Slots], the other fields of f (time, dt) shared by all. tmp
// is scratch from [Batch.Scratch]. An error is recorded in f as the
// closures record it: only the parts that are the same for every entity
// can fail, so an error is every entity's.
func (b *Batch) Eval(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
	if b.root.eval == nil {
		x := b.root.u(f)
		for i := range out {
			out[i] = x
		}
		return
	}
	b.root.eval(f, ptrs, out, tmp)
}

// Batch returns the batch form of a Number (or Int, promoted) program, or
// nil if some node that depends on the entity is of a shape the batch
// loops do not cover.
func (p *Program) Batch() *Batch { return p.batch }

// batchOf builds the batch form of the compiled tree n (whose code the
// compiler recorded for every node), or nil.
func (cc *compiler) batchOf(n ast.Node) *Batch {
	if c := cc.codes[n]; c.k != Number && c.k != Int {
		return nil
	}
	bc := &batcher{cc: cc}
	root, ok := bc.num(n)
	if !ok {
		return nil
	}
	return &Batch{root: root, temps: root.temps, slots: bc.slots}
}

// batcher builds batch nodes from the compiler's codes.
type batcher struct {
	cc    *compiler
	slots uint8
}

// num returns the batch node computing n as a number (an Int converted),
// and whether n is of a shape it covers.
func (bc *batcher) num(n ast.Node) (bnode, bool) {
	c, ok := bc.cc.codes[n]
	if !ok || (c.k != Number && c.k != Int) {
		return bnode{}, false
	}
	if bc.uniform(n) {
		return bnode{u: bc.cc.num(c)}, true
	}
	if c.field != nil {
		return bc.field(*c.field)
	}
	if c.k != Number {
		return bnode{}, false // int arithmetic that depends on the entity
	}
	switch x := n.(type) {
	case *ast.BinaryNode:
		return bc.binary(x)
	case *ast.UnaryNode:
		if x.Operator == "+" {
			return bc.num(x.Node)
		}
		if x.Operator != "-" {
			return bnode{}, false
		}
		a, ok := bc.num(x.Node)
		if !ok {
			return bnode{}, false
		}
		return bnode{temps: a.temps, eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
			a.eval(f, ptrs, out, tmp)
			for i := range out {
				out[i] = -out[i]
			}
		}}, true
	case *ast.CallNode:
		return bc.call(x)
	}
	return bnode{}, false
}

// uniform reports whether n's value is the same for every entity: a
// constant, time, or arithmetic and number functions of those.
func (bc *batcher) uniform(n ast.Node) bool {
	c := bc.cc.codes[n]
	if c.konst || c.time {
		return true
	}
	if c.k != Number && c.k != Int {
		return false
	}
	switch x := n.(type) {
	case *ast.BinaryNode:
		if _, ok := batchOps[x.Operator]; !ok && x.Operator != "%" {
			return false
		}
		return bc.uniform(x.Left) && bc.uniform(x.Right)
	case *ast.UnaryNode:
		return (x.Operator == "-" || x.Operator == "+") && bc.uniform(x.Node)
	case *ast.CallNode:
		for _, a := range x.Arguments {
			if !bc.uniform(a) {
				return false
			}
		}
		_, ok := bc.cc.codes[x]
		return ok // the language's functions are pure
	}
	return false
}

// field returns the node reading a number or int field.
func (bc *batcher) field(fd Field) (bnode, bool) {
	s, off := fd.Slot, fd.Offset
	var eval func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64)
	switch fd.Type {
	case FieldFloat64:
		eval = func(_ *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, _ []float64) {
			ps := ptrs[s][:len(out)]
			for i, p := range ps {
				out[i] = *(*float64)(unsafe.Add(p, off))
			}
		}
	case FieldFloat32:
		eval = func(_ *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, _ []float64) {
			ps := ptrs[s][:len(out)]
			for i, p := range ps {
				out[i] = float64(*(*float32)(unsafe.Add(p, off)))
			}
		}
	case FieldInt:
		eval = func(_ *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, _ []float64) {
			ps := ptrs[s][:len(out)]
			for i, p := range ps {
				out[i] = float64(*(*int)(unsafe.Add(p, off)))
			}
		}
	case FieldInt32:
		eval = func(_ *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, _ []float64) {
			ps := ptrs[s][:len(out)]
			for i, p := range ps {
				out[i] = float64(int(*(*int32)(unsafe.Add(p, off))))
			}
		}
	case FieldInt64:
		eval = func(_ *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, _ []float64) {
			ps := ptrs[s][:len(out)]
			for i, p := range ps {
				out[i] = float64(int(*(*int64)(unsafe.Add(p, off))))
			}
		}
	default:
		return bnode{}, false
	}
	bc.slots |= 1 << s
	return bnode{eval: eval}, true
}

// batchOps are the binary operators a batch computes, by the code of
// their loop.
var batchOps = map[string]byte{"+": '+', "-": '-', "*": '*', "/": '/', "**": '^', "^": '^'}

// binary returns the node of a number operator (+ - * / ** ^) whose
// operands are numbers or ints: what arith compiles to numArith,
// timeArith or math.Pow.
func (bc *batcher) binary(x *ast.BinaryNode) (bnode, bool) {
	op, ok := batchOps[x.Operator]
	if !ok {
		return bnode{}, false
	}
	l, lok := bc.num(x.Left)
	r, rok := bc.num(x.Right)
	if !lok || !rok {
		return bnode{}, false
	}
	switch {
	case r.eval == nil: // entity op uniform
		u := r.u
		return bnode{temps: l.temps, eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
			l.eval(f, ptrs, out, tmp)
			opVU(op, out, u(f))
		}}, true
	case l.eval == nil: // uniform op entity
		u := l.u
		return bnode{temps: r.temps, eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
			y := u(f) // the left operand first, as the closures evaluate it
			r.eval(f, ptrs, out, tmp)
			opUV(op, y, out)
		}}, true
	}
	return bnode{temps: max(l.temps, r.temps+1), eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
		l.eval(f, ptrs, out, tmp)
		n := len(out)
		rv := tmp[:n]
		r.eval(f, ptrs, rv, tmp[BatchSize:])
		opVV(op, out, rv)
	}}, true
}

// opVU computes out[i] = out[i] op y.
func opVU(op byte, out []float64, y float64) {
	switch op {
	case '+':
		for i := range out {
			out[i] += y
		}
	case '-':
		for i := range out {
			out[i] -= y
		}
	case '*':
		for i := range out {
			out[i] *= y
		}
	case '/':
		for i := range out {
			out[i] /= y
		}
	default:
		for i := range out {
			out[i] = math.Pow(out[i], y)
		}
	}
}

// opUV computes out[i] = x op out[i].
func opUV(op byte, x float64, out []float64) {
	switch op {
	case '+':
		for i := range out {
			out[i] = x + out[i]
		}
	case '-':
		for i := range out {
			out[i] = x - out[i]
		}
	case '*':
		for i := range out {
			out[i] = x * out[i]
		}
	case '/':
		for i := range out {
			out[i] = x / out[i]
		}
	default:
		for i := range out {
			out[i] = math.Pow(x, out[i])
		}
	}
}

// opVV computes out[i] = out[i] op r[i].
func opVV(op byte, out, r []float64) {
	r = r[:len(out)]
	switch op {
	case '+':
		for i := range out {
			out[i] += r[i]
		}
	case '-':
		for i := range out {
			out[i] -= r[i]
		}
	case '*':
		for i := range out {
			out[i] *= r[i]
		}
	case '/':
		for i := range out {
			out[i] /= r[i]
		}
	default:
		for i := range out {
			out[i] = math.Pow(out[i], r[i])
		}
	}
}

// call returns the node of a number function of one to three numbers.
func (bc *batcher) call(x *ast.CallNode) (bnode, bool) {
	id, ok := x.Callee.(*ast.IdentifierNode)
	if !ok {
		return bnode{}, false
	}
	fn := bc.cc.t.funcs[id.Value]
	if fn == nil || len(fn.sigs) == 0 {
		return bnode{}, false
	}
	ks := make([]Kind, len(x.Arguments))
	for i, a := range x.Arguments {
		ks[i] = bc.cc.codes[a].k
	}
	s, ok := fn.choose(ks)
	if !ok || fn.ambiguous(ks) || s.out != Number {
		return bnode{}, false
	}
	args := make([]bnode, len(x.Arguments))
	for i, a := range x.Arguments {
		if s.param(i) != Number {
			return bnode{}, false
		}
		if args[i], ok = bc.num(a); !ok {
			return bnode{}, false
		}
	}
	switch {
	case len(args) == 1 && s.f1 != nil:
		return call1(s.f1, args[0]), true
	case len(args) == 2 && s.f2 != nil:
		f2 := s.f2
		return callN(args, func(a, y, _ []float64) {
			y = y[:len(a)]
			for i := range a {
				a[i] = f2(a[i], y[i])
			}
		}), true
	case len(args) == 3 && s.f3 != nil:
		f3 := s.f3
		return callN(args, func(a, y, z []float64) {
			y, z = y[:len(a)], z[:len(a)]
			for i := range a {
				a[i] = f3(a[i], y[i], z[i])
			}
		}), true
	}
	return bnode{}, false
}

// call1 returns the node applying fn to a's values; sin, cos, abs and
// sqrt are called directly, as the closures call them.
func call1(fn func(float64) float64, a bnode) bnode {
	var loop func(out []float64)
	switch reflect.ValueOf(fn).Pointer() {
	case reflect.ValueOf(math.Sin).Pointer():
		loop = func(out []float64) {
			for i, x := range out {
				out[i] = math.Sin(x)
			}
		}
	case reflect.ValueOf(math.Cos).Pointer():
		loop = func(out []float64) {
			for i, x := range out {
				out[i] = math.Cos(x)
			}
		}
	default:
		loop = func(out []float64) {
			for i, x := range out {
				out[i] = fn(x)
			}
		}
	}
	return bnode{temps: a.temps, eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
		a.eval(f, ptrs, out, tmp)
		loop(out)
	}}
}

// callN returns the node of a function of two or three numbers: the
// first argument is computed into out, the others into rows of scratch
// (a uniform one filled with its value), then apply combines them into
// out (z is nil for two arguments).
func callN(args []bnode, apply func(out, y, z []float64)) bnode {
	for i := range args {
		args[i] = spread(args[i])
	}
	temps := args[0].temps
	for i, a := range args[1:] {
		temps = max(temps, i+1+a.temps)
	}
	return bnode{temps: temps, eval: func(f *Frame, ptrs *[MaxComps][]unsafe.Pointer, out, tmp []float64) {
		args[0].eval(f, ptrs, out, tmp)
		n := len(out)
		y := tmp[:n]
		args[1].eval(f, ptrs, y, tmp[BatchSize:])
		var z []float64
		if len(args) == 3 {
			z = tmp[BatchSize : BatchSize+n]
			args[2].eval(f, ptrs, z, tmp[2*BatchSize:])
		}
		apply(out, y, z)
	}}
}

// spread returns a as a node with eval: a uniform node's value is written
// to every entity's place.
func spread(a bnode) bnode {
	if a.eval != nil {
		return a
	}
	u := a.u
	a.eval = func(f *Frame, _ *[MaxComps][]unsafe.Pointer, out, _ []float64) {
		x := u(f)
		for i := range out {
			out[i] = x
		}
	}
	return a
}
