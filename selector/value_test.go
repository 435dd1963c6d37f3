package selector_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// This file checks value tests end to end: a Registry-backed World whose
// component has a property of every kind, random values and hierarchies,
// and every operator, against a reference that reads the Go values and
// applies the rules of docs/selectors.md (numbers as float64, text with
// CSS meanings, the printed text of anything else).

type level int

// kinds has a property of every kind a value test reads.
type kinds struct {
	N   float64               `scene:"n"`
	T   float64               `scene:"t,type=time"`
	I   int                   `scene:"i"`
	L   level                 `scene:"l"`
	F32 float32               `scene:"f32"`
	I8  int8                  `scene:"i8"`
	U16 uint16                `scene:"u16"`
	U64 uint64                `scene:"u64"`
	B   bool                  `scene:"b"`
	S   string                `scene:"s"`
	Sel registry.SelectorText `scene:"sel"`
	V   registry.Vec3         `scene:"v"`
	C   registry.Color        `scene:"c"`
	D   time.Duration         `scene:"d"`
	A   []string              `scene:"a"`
}

// numType registers a property type for the Go number type T.
func numType[T int8 | uint16 | uint64 | float32](t testing.TB, r *registry.Registry, name string) {
	t.Helper()
	must(t, r.Types().Register(&registry.Type{Name: name, GoType: reflect.TypeFor[T](),
		Parse: func(text string, _ any) (any, error) {
			f, err := strconv.ParseFloat(text, 64)
			return T(f), err
		}}))
}

// valueWorld is a World of n entities with 0 to 3 instances of kinds
// (kinds, kinds__a, kinds__b) holding values drawn from small pools, a
// position on some, and classes c0/c1. shuffled inserts children out of
// creation order, so that document order is not index order.
type valueWorld struct {
	w   *ecs.World
	r   *registry.Registry
	ids map[string]ecs.ID // kinds, kinds__a, kinds__b, world
}

func newValueWorld(t testing.TB, rng *rand.Rand, n int, shuffled bool) *valueWorld {
	w, r := newRegistry(t)
	numType[int8](t, r, "i8")
	numType[uint16](t, r, "u16")
	numType[uint64](t, r, "u64")
	numType[float32](t, r, "f32")
	_, err := registry.Register(r, "kinds", registry.Definition[kinds]{Multiple: true})
	must(t, err)
	vw := &valueWorld{w: w, r: r, ids: map[string]ecs.ID{}}
	var es []ecs.Entity
	for i := range n {
		e := w.NewEntity()
		if shuffled && i > 0 && rng.IntN(3) > 0 {
			must(t, w.InsertChild(es[rng.IntN(i)], e, rng.IntN(3)))
		}
		es = append(es, e)
		must(t, r.SetClasses(e, []string{"c" + strconv.Itoa(rng.IntN(2))}))
		for _, name := range []string{"kinds", "kinds__a", "kinds__b"} {
			if rng.IntN(2) == 0 {
				continue
			}
			must(t, r.Set(e, name, ""))
			id, _ := w.ComponentID(name)
			vw.ids[name] = id
			p, err := w.GetPtr(e, id)
			must(t, err)
			*(*kinds)(p) = randomKinds(rng)
		}
		if rng.IntN(2) == 0 {
			must(t, r.Set(e, "position", fmt.Sprintf("0 %d 0", rng.IntN(5)-2)))
		}
	}
	vw.ids["world"], _ = w.ComponentID("world")
	return vw
}

// Value pools: few values, so that equality tests hit, with the edges.
var (
	poolNum = []float64{-2, -0.5, 0, math.Copysign(0, -1), 0.5, 1, 2.5, 20, math.Inf(1), math.Inf(-1), math.NaN(), 1e300}
	poolInt = []int64{-129, -128, -1, 0, 1, 19, 20, 127, 255, 65535, 1 << 53, 1<<53 + 1, math.MaxInt64}
	poolStr = []string{"", "a", "A", "abc", "ABC-def", "abc-", "x abc y", "x\u00a0ABC", "Abc", "#player", "a b"}
)

func randomKinds(rng *rand.Rand) kinds {
	num := func() float64 { return poolNum[rng.IntN(len(poolNum))] }
	in := func() int64 { return poolInt[rng.IntN(len(poolInt))] }
	str := func() string { return poolStr[rng.IntN(len(poolStr))] }
	return kinds{
		N: num(), T: num(), I: int(in()), L: level(in()), F32: float32(num()),
		I8: int8(in()), U16: uint16(in()), U64: uint64(in()), B: rng.IntN(2) == 0,
		S: str(), Sel: registry.SelectorText(str()),
		V: registry.Vec3{X: num(), Y: num(), Z: num()},
		C: registry.Color{R: uint8(in()), G: uint8(rng.IntN(3)), B: 255, A: uint8(in())},
		D: time.Duration(in()) * time.Millisecond, A: []string{str(), str()}[:rng.IntN(3)],
	}
}

// refRead returns the value of prop of k as the reference reads it: a
// float64, a bool or a string.
func refRead(k *kinds, prop string) any {
	switch prop {
	case "n":
		return k.N
	case "t":
		return k.T
	case "i":
		return float64(k.I)
	case "l":
		return float64(k.L)
	case "f32":
		return float64(k.F32)
	case "i8":
		return float64(k.I8)
	case "u16":
		return float64(k.U16)
	case "u64":
		return float64(k.U64)
	case "b":
		return k.B
	case "s":
		return k.S
	case "sel":
		return string(k.Sel)
	case "v.x":
		return k.V.X
	case "v.y":
		return k.V.Y
	case "v":
		return k.V.String()
	case "c.r":
		return float64(k.C.R)
	case "c.g":
		return float64(k.C.G)
	case "c.a":
		return float64(k.C.A)
	case "c":
		return k.C.String()
	case "d":
		return k.D.Seconds()
	case "a":
		return strings.Join(k.A, " ")
	}
	panic("refRead: " + prop)
}

// refLower folds ASCII letters only, as the `i` flag does.
func refLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// refCompare applies `v op operand` (fold: the `i` flag) by the rules of
// docs/selectors.md.
func refCompare(v any, op, operand string, fold bool) bool {
	switch v := v.(type) {
	case float64:
		c, err := strconv.ParseFloat(operand, 64)
		if err != nil {
			panic(err)
		}
		return map[string]bool{"=": v == c, "!=": v != c, "<": v < c, "<=": v <= c, ">": v > c, ">=": v >= c}[op]
	case bool:
		return (strconv.FormatBool(v) == operand) == (op == "=")
	}
	s, c := v.(string), operand
	if fold {
		s, c = refLower(s), refLower(c)
	}
	switch op {
	case "=":
		return s == c
	case "!=":
		return s != c
	case "^=":
		return c != "" && strings.HasPrefix(s, c)
	case "$=":
		return c != "" && strings.HasSuffix(s, c)
	case "*=":
		return c != "" && strings.Contains(s, c)
	case "|=":
		return s == c || strings.HasPrefix(s, c+"-")
	case "~=":
		return slices.Contains(strings.Fields(s), c) && !strings.ContainsAny(c, " \t\n\r\f")
	}
	panic("refCompare: " + op)
}

// valueTest is one value test, `[comp.prop op "operand" i]`.
type valueTest struct {
	comp, prop, op, operand string
	fold                    bool
}

func (vt valueTest) String() string {
	flag := ""
	if vt.fold {
		flag = " i"
	}
	if _, err := strconv.ParseFloat(vt.operand, 64); err == nil && strings.ContainsAny(vt.operand[:1], "-0123456789") {
		return fmt.Sprintf("[%s.%s%s%s%s]", vt.comp, vt.prop, vt.op, vt.operand, flag) // a number token
	}
	return fmt.Sprintf("[%s.%s%s%q%s]", vt.comp, vt.prop, vt.op, vt.operand, flag)
}

// match is the reference: whether e has an instance of vt.comp whose
// value passes.
func (vw *valueWorld) match(e ecs.Entity, vt valueTest) bool {
	if vt.comp == "world" {
		p, err := vw.w.GetPtr(e, vw.ids["world"])
		return err == nil && refCompare((*components.WorldTransform)(p).Position.Y, vt.op, vt.operand, false)
	}
	names := []string{vt.comp}
	if vt.comp == "kinds" {
		names = []string{"kinds", "kinds__a", "kinds__b"}
	}
	for _, name := range names {
		id, ok := vw.ids[name]
		if !ok {
			continue
		}
		if p, err := vw.w.GetPtr(e, id); err == nil && refCompare(refRead((*kinds)(p), vt.prop), vt.op, vt.operand, vt.fold) {
			return true
		}
	}
	return false
}

// check compiles src and holds every query of it to want, which tells
// whether an entity matches.
func (vw *valueWorld) check(t *testing.T, src string, want func(ecs.Entity) bool) {
	t.Helper()
	s, err := selector.Compile(src, vw.r)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	var exp []ecs.Entity
	for e := range vw.w.All() {
		m := want(e)
		if m {
			exp = append(exp, e)
		}
		if s.Matches(e) != m {
			t.Fatalf("%s: Matches(%v) = %v, want %v", src, e, !m, m)
		}
	}
	if got := s.QueryAll(nil); !slices.Equal(got, exp) {
		t.Fatalf("%s: QueryAll = %v, want %v", src, got, exp)
	}
	if n := s.Count(); n != len(exp) {
		t.Fatalf("%s: Count = %d, want %d", src, n, len(exp))
	}
	got := s.QueryUnordered(nil)
	slices.SortFunc(got, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	sorted := slices.Clone(exp)
	slices.SortFunc(sorted, func(a, b ecs.Entity) int { return int(a.Index()) - int(b.Index()) })
	if !slices.Equal(got, sorted) {
		t.Fatalf("%s: QueryUnordered = %v, want %v", src, got, sorted)
	}
	if first, ok := s.QueryFirst(); ok != (len(exp) > 0) || ok && first != exp[0] {
		t.Fatalf("%s: QueryFirst = %v %v, want %v", src, first, ok, exp)
	}
}

// The properties of kinds by how they compare, and operands for each.
var (
	numProps   = []string{"n", "t", "i", "l", "f32", "i8", "u16", "u64", "v.x", "v.y", "c.r", "c.g", "c.a", "d"}
	textProps  = []string{"s", "sel", "a", "v", "c"}
	numOps     = []string{"=", "!=", "<", "<=", ">", ">="}
	textOps    = []string{"=", "!=", "~=", "|=", "^=", "$=", "*="}
	numOperand = []string{"-2", "-0.5", "0", "-0", "0.5", "1", "2.5", "19.5", "20", "127", "255", "65535",
		"9007199254740992", "9007199254740993", "9223372036854775807", "1e300", "Inf", "-Inf", "NaN"}
	textOperand = []string{"", "a", "abc", "ABC", "abc-", "b", "#player", "#ff", "ff", "0", "NaN", "Inf -Inf"}
)

// valueTests lists every test on comp: each numeric property with each
// numeric operator and operand, each text property with each text
// operator and operand (with and without `i`), the boolean both ways.
func valueTests(comp string) []valueTest {
	var vts []valueTest
	for _, p := range numProps {
		for _, op := range numOps {
			for _, c := range numOperand {
				if _, err := strconv.Atoi(c[len(c)-1:]); err != nil && op != "=" && op != "!=" {
					continue // Inf, NaN: only = and != take a quoted operand
				}
				vts = append(vts, valueTest{comp, p, op, c, false})
			}
		}
	}
	for _, p := range textProps {
		for _, op := range textOps {
			for _, c := range textOperand {
				vts = append(vts, valueTest{comp, p, op, c, false}, valueTest{comp, p, op, c, true})
			}
		}
	}
	for _, op := range []string{"=", "!="} {
		vts = append(vts, valueTest{comp, "b", op, "true", false}, valueTest{comp, "b", op, "false", false})
	}
	return vts
}

// TestValueKinds runs every value test on every kind of property, on the
// base name (any instance) and on instance names, in a flat World (where
// document order is index order) and in a shuffled hierarchy.
func TestValueKinds(t *testing.T) {
	for _, shuffled := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(7, uint64(b2i(shuffled))))
		vw := newValueWorld(t, rng, 150, shuffled)
		for _, comp := range []string{"kinds", "kinds__a", "kinds__b"} {
			for _, vt := range valueTests(comp) {
				vw.check(t, vt.String(), func(e ecs.Entity) bool { return vw.match(e, vt) })
			}
		}
		for _, op := range numOps {
			for _, c := range []string{"-1", "0", "1", "-0.5"} {
				vt := valueTest{"world", "position.y", op, c, false}
				vw.check(t, vt.String(), func(e ecs.Entity) bool { return vw.match(e, vt) })
			}
		}
	}
}

// TestValueCombined runs random value tests combined: two on one
// compound (intersected per table), with a class or a combinator (tested
// entity by entity), negated, and in lists (a union).
func TestValueCombined(t *testing.T) {
	for _, shuffled := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(11, uint64(b2i(shuffled))))
		vw := newValueWorld(t, rng, 200, shuffled)
		all := append(valueTests("kinds"), valueTests("kinds__a")...)
		pick := func() valueTest { return all[rng.IntN(len(all))] }
		hasParent := func(e ecs.Entity) bool { _, ok := vw.w.Parent(e); return ok }
		for range 300 {
			a, b := pick(), pick()
			vw.check(t, a.String()+b.String(), func(e ecs.Entity) bool { return vw.match(e, a) && vw.match(e, b) })
			vw.check(t, a.String()+", "+b.String(), func(e ecs.Entity) bool { return vw.match(e, a) || vw.match(e, b) })
			vw.check(t, ".c1"+a.String(), func(e ecs.Entity) bool { return vw.r.HasClass(e, "c1") && vw.match(e, a) })
			vw.check(t, "* > "+a.String(), func(e ecs.Entity) bool { return hasParent(e) && vw.match(e, a) })
			vw.check(t, ":not("+a.String()+")", func(e ecs.Entity) bool { return !vw.match(e, a) })
		}
	}
}

// TestValueLive checks that value tests read the current values: a
// compiled selector sees writes through ecs pointers and new instances.
func TestValueLive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	vw := newValueWorld(t, rng, 100, false)
	vts := valueTests("kinds")
	sels := make([]*selector.Selector, 40)
	picked := make([]valueTest, len(sels))
	for i := range sels {
		picked[i] = vts[rng.IntN(len(vts))]
		sels[i] = selector.MustCompile(picked[i].String(), vw.r)
	}
	for round := range 5 {
		for e := range vw.w.All() {
			if rng.IntN(4) > 0 {
				continue
			}
			name := []string{"kinds", "kinds__a", "kinds__b"}[rng.IntN(3)]
			must(t, vw.r.Set(e, name, ""))
			vw.ids[name], _ = vw.w.ComponentID(name)
			p, err := vw.w.GetPtr(e, vw.ids[name])
			must(t, err)
			*(*kinds)(p) = randomKinds(rng)
		}
		for i, s := range sels {
			var exp []ecs.Entity
			for e := range vw.w.All() {
				if vw.match(e, picked[i]) {
					exp = append(exp, e)
				}
			}
			if got := s.QueryAll(nil); !slices.Equal(got, exp) {
				t.Fatalf("round %d: %s: QueryAll = %v, want %v", round, picked[i], got, exp)
			}
		}
	}
}

// TestPropertyReaderFields checks that the registry describes every plain
// field as one (its type and offset, so that value tests on it run as
// column loops: kernel.go), axes and channels included, down to
// world.position.y, and nothing else: what is printed, joined or
// converted is read through the reading functions. Each field's load
// must give what the reading function gives.
func TestPropertyReaderFields(t *testing.T) {
	vw := newValueWorld(t, rand.New(rand.NewPCG(3, 3)), 1, false)
	var k kinds
	var wt components.WorldTransform
	cases := []struct {
		comp, prop string
		field      selector.FieldType
		off        uintptr
	}{
		{"kinds", "n", selector.FieldFloat64, unsafe.Offsetof(k.N)},
		{"kinds", "t", selector.FieldFloat64, unsafe.Offsetof(k.T)},
		{"kinds", "i", selector.FieldInt, unsafe.Offsetof(k.I)},
		{"kinds", "l", selector.FieldInt, unsafe.Offsetof(k.L)},
		{"kinds", "f32", selector.FieldFloat32, unsafe.Offsetof(k.F32)},
		{"kinds", "i8", selector.FieldInt8, unsafe.Offsetof(k.I8)},
		{"kinds", "u16", selector.FieldUint16, unsafe.Offsetof(k.U16)},
		{"kinds__a", "u64", selector.FieldUint64, unsafe.Offsetof(k.U64)},
		{"kinds", "b", selector.FieldBool, unsafe.Offsetof(k.B)},
		{"kinds", "s", selector.FieldString, unsafe.Offsetof(k.S)},
		{"kinds", "sel", selector.FieldString, unsafe.Offsetof(k.Sel)},
		{"kinds", "v.y", selector.FieldFloat64, unsafe.Offsetof(k.V) + 8},
		{"kinds", "v.z", selector.FieldFloat64, unsafe.Offsetof(k.V) + 16},
		{"kinds", "c.g", selector.FieldUint8, unsafe.Offsetof(k.C) + 1},
		{"kinds", "c.a", selector.FieldUint8, unsafe.Offsetof(k.C) + 3},
		{"kinds", "v", selector.NoField, 0},
		{"kinds", "c", selector.NoField, 0},
		{"kinds", "d", selector.NoField, 0},
		{"kinds", "a", selector.NoField, 0},
		{"world", "position.y", selector.FieldFloat64, unsafe.Offsetof(wt.Position) + 8},
		{"world", "scale.z", selector.FieldFloat64, unsafe.Offsetof(wt.Scale) + 16},
		{"position", "y", selector.FieldFloat64, 8},
		{"position", "x", selector.FieldFloat64, 0},
		{"position", "", selector.NoField, 0},
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, c := range cases {
		rd, err := vw.r.PropertyReader(c.comp, c.prop)
		if err != nil {
			t.Fatalf("%s.%s: %v", c.comp, c.prop, err)
		}
		if rd.Field != c.field || (c.field != selector.NoField && rd.Offset != c.off) {
			t.Errorf("%s.%s: field %v at %d, want %v at %d", c.comp, c.prop, rd.Field, rd.Offset, c.field, c.off)
			continue
		}
		for range 50 {
			v, wv := randomKinds(rng), components.WorldTransform{Position: registry.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64()}, Scale: registry.Vec3{Z: rng.NormFloat64()}}
			p := unsafe.Pointer(&v)
			if c.comp == "world" {
				p = unsafe.Pointer(&wv)
			} else if c.comp == "position" {
				p = unsafe.Pointer(&wv.Position)
			}
			if c.field != selector.NoField && !fieldAgrees(rd, p) {
				t.Fatalf("%s.%s: the %v at offset %d does not read what the reading function does", c.comp, c.prop, rd.Field, rd.Offset)
			}
		}
	}
}

// fieldAgrees reports whether the field rd describes, loaded from the
// component value at p, is what rd's reading function returns.
func fieldAgrees(rd selector.PropertyReader, p unsafe.Pointer) bool {
	q := unsafe.Add(p, rd.Offset)
	var num float64
	switch rd.Field {
	case selector.FieldBool:
		return *(*bool)(q) == rd.Bool(p)
	case selector.FieldString:
		return *(*string)(q) == rd.Str(p)
	case selector.FieldFloat64:
		num = *(*float64)(q)
	case selector.FieldFloat32:
		num = float64(*(*float32)(q))
	case selector.FieldInt:
		num = float64(*(*int)(q))
	case selector.FieldInt8:
		num = float64(*(*int8)(q))
	case selector.FieldUint8:
		num = float64(*(*uint8)(q))
	case selector.FieldUint16:
		num = float64(*(*uint16)(q))
	case selector.FieldUint64:
		num = float64(*(*uint64)(q))
	default:
		return false
	}
	got := rd.Num(p)
	return got == num || math.IsNaN(got) && math.IsNaN(num)
}
