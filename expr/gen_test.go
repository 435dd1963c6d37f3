package expr

import (
	"fmt"
	"strings"
)

// gen builds an expression over the differential environment from bytes
// (a fuzzer's input): mostly well-typed, so that most expressions compile
// and their values are compared, sometimes not, so that refusals are too.
type gen struct {
	data []byte
	pos  int
}

// n returns the next choice in [0, k).
func (g *gen) n(k int) int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := int(g.data[g.pos])
	g.pos++
	return b % k
}

func (g *gen) pick(xs ...string) string { return xs[g.n(len(xs))] }

var genKinds = []Kind{Bool, Int, Number, String, Vec2, Vec3, Vec4, Dynamic}

// expr returns an expression of kind k (or, one time in 16, of any kind).
func (g *gen) expr(k Kind, depth int) string {
	if g.n(16) == 0 {
		k = genKinds[g.n(len(genKinds))]
	}
	if depth <= 0 || g.n(3) == 0 {
		return g.leaf(k)
	}
	d := depth - 1
	if g.n(8) == 0 {
		return fmt.Sprintf("(%s ? %s : %s)", g.expr(Bool, d), g.expr(k, d), g.expr(k, d))
	}
	switch k {
	case Bool:
		return g.boolean(d)
	case Int:
		return g.integer(d)
	case Number:
		return g.number(d)
	case String:
		return g.str(d)
	case Vec2, Vec3, Vec4:
		return g.vec(k, d)
	}
	return g.dynamic(d)
}

func (g *gen) leaf(k Kind) string {
	switch k {
	case Bool:
		return g.pick("p", "q", "true", "false", "detail.flag")
	case Int:
		return g.pick("a", "b", "health.hp", "0", "1", "2", "-3", "7", "9223372036854775807", "len(s)", "(1 % 0)")
	case Number:
		return g.pick("x", "y", "time", "dt", "PI", "E", "0.5", "1e308", "2.0", "-0.0", "v.x", "w.y", "u.w", "detail.damage", "detail.nested.k", "0.1")
	case String:
		return g.pick("s", "t", "event", `"abc"`, "'x'", "detail.name", `""`)
	case Vec2:
		return g.pick("w", "vec2(1, 2)")
	case Vec3:
		return g.pick("v", "vec3(0, 1, 0)")
	case Vec4:
		return g.pick("u", "vec4(1, 2, 3, 4)")
	}
	return g.pick("detail", "detail.list", "detail.none", "detail.missing", "detail?.nested?.k", "nil", "detail.n")
}

func (g *gen) boolean(d int) string {
	switch g.n(8) {
	case 0:
		return fmt.Sprintf("%s %s %s", g.expr(Number, d), g.pick("<", ">", "<=", ">=", "==", "!="), g.expr(Int, d))
	case 1:
		k := genKinds[g.n(len(genKinds))]
		return fmt.Sprintf("%s %s %s", g.expr(k, d), g.pick("==", "!="), g.expr(k, d))
	case 2:
		return fmt.Sprintf("%s %s %s", g.expr(Bool, d), g.pick("&&", "||", "and", "or"), g.expr(Bool, d))
	case 3:
		return g.pick("!", "not ") + g.expr(Bool, d)
	case 4:
		return fmt.Sprintf("%s %s %s", g.expr(String, d), g.pick("contains", "startsWith", "endsWith", "<", ">="), g.expr(String, d))
	case 5:
		return fmt.Sprintf("%s matches %s", g.expr(String, d), g.pick(`"^r.*k$"`, `"l+"`, "t"))
	case 6:
		return fmt.Sprintf("%s in %s", g.expr(genKinds[g.n(len(genKinds))], d), g.pick(`["hit", "rock", 1, 2.5]`, "detail.list", "[a, 7]", "detail"))
	}
	return fmt.Sprintf("%s < %s < %s", g.expr(Number, d), g.expr(Number, d), g.expr(Number, d))
}

func (g *gen) integer(d int) string {
	switch g.n(5) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", g.expr(Int, d), g.pick("+", "-", "*", "%"), g.expr(Int, d))
	case 1:
		return "int(" + g.expr(Number, d) + ")"
	case 2:
		return "-" + g.expr(Int, d)
	case 3:
		return fmt.Sprintf("%s(%s, %s)", g.pick("indexOf", "lastIndexOf"), g.expr(String, d), g.expr(String, d))
	}
	return "len(" + g.expr(String, d) + ")"
}

var genMath1 = []string{"sin", "cos", "tan", "asin", "acos", "atan", "sqrt", "abs", "floor", "ceil", "round", "sign", "exp", "log", "log2", "log10", "fract", "rad", "deg"}

func (g *gen) number(d int) string {
	switch g.n(8) {
	case 0, 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(Number, d), g.pick("+", "-", "*", "/", "**", "^"), g.expr(genKinds[1+g.n(2)], d))
	case 2:
		return fmt.Sprintf("%s(%s)", genMath1[g.n(len(genMath1))], g.expr(Number, d))
	case 3:
		return fmt.Sprintf("%s(%s, %s)", g.pick("atan2", "pow", "mod", "min", "max"), g.expr(Number, d), g.expr(Int, d))
	case 4:
		return fmt.Sprintf("%s(%s, %s, %s)", g.pick("clamp", "lerp", "smoothstep", "min", "max"), g.expr(Number, d), g.expr(Number, d), g.expr(Number, d))
	case 5:
		k := Vec2 + Kind(g.n(3))
		return fmt.Sprintf("%s(%s, %s)", g.pick("dot", "distance"), g.expr(k, d), g.expr(k, d))
	case 6:
		return g.expr(Vec2+Kind(g.n(3)), d) + g.pick(".x", ".y")
	}
	return fmt.Sprintf("%s(%s)", g.pick("length", "float", "-", "+"), g.expr(g.pick2(Vec3, Int), d))
}

func (g *gen) pick2(a, b Kind) Kind {
	if g.n(2) == 0 {
		return a
	}
	return b
}

func (g *gen) str(d int) string {
	switch g.n(4) {
	case 0:
		return fmt.Sprintf("(%s + %s)", g.expr(String, d), g.expr(String, d))
	case 1:
		return fmt.Sprintf("%s(%s)", g.pick("upper", "lower", "trim", "string"), g.expr(genKinds[g.n(len(genKinds))], d))
	case 2:
		return fmt.Sprintf("replace(%s, %s, %s)", g.expr(String, d), g.expr(String, d), g.expr(String, d))
	}
	return fmt.Sprintf("%s(%s, %s)", g.pick("trimPrefix", "trimSuffix", "trim"), g.expr(String, d), g.expr(String, d))
}

func (g *gen) vec(k Kind, d int) string {
	switch g.n(5) {
	case 0:
		args := make([]string, k.Dim())
		for i := range args {
			args[i] = g.expr(Number, d)
		}
		return fmt.Sprintf("vec%d(%s)", k.Dim(), strings.Join(args, ", "))
	case 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(k, d), g.pick("+", "-"), g.expr(k, d))
	case 2:
		return fmt.Sprintf("(%s %s %s)", g.expr(k, d), g.pick("*", "/"), g.expr(genKinds[1+g.n(2)], d))
	case 3:
		return fmt.Sprintf("(%s * %s)", g.expr(genKinds[1+g.n(2)], d), g.expr(k, d))
	}
	return fmt.Sprintf("%s(%s)", g.pick("normalize", "lerp"), g.expr(k, d)) // lerp(v) is refused: one argument
}

func (g *gen) dynamic(d int) string {
	switch g.n(6) {
	case 0:
		return fmt.Sprintf("(%s ?? %s)", g.expr(Dynamic, d), g.expr(genKinds[g.n(len(genKinds))], d))
	case 1:
		return fmt.Sprintf("(%s %s %s)", g.expr(Dynamic, d), g.pick("+", "-", "*", "/", "%", "<", "=="), g.expr(genKinds[g.n(len(genKinds))], d))
	case 2:
		return fmt.Sprintf("filter(%s, # %s)", g.pick("[1, 2, 3]", "detail.list", "1..4"), g.pick("> 1", "== 'z'", "!= nil"))
	case 3:
		return fmt.Sprintf("let k = %s; k %s %s", g.expr(Number, d), g.pick("+", "<", "*"), g.expr(Number, d))
	case 4:
		return fmt.Sprintf("detail%s%s", g.pick(".", "?.", "["), g.pick("nested?.k", "list[1]", "name]", "none?.x", "'damage']", "n"))
	}
	return fmt.Sprintf("%s(%s)", g.pick("len", "int", "float", "string"), g.expr(Dynamic, d))
}
