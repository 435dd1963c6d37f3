package expr

import (
	"reflect"
	"sync"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/patcher"
)

// Limits on one expression, so that compiling and evaluating it have a
// bounded cost. Evaluation has no loops of its own: a closure-compiled
// expression runs each node at most once, so its cost is linear in its
// size; the interpreted constructs (list functions such as filter over a
// range) are bounded by the budget of list items.
//
// What one evaluation makes is bounded by two budgets, checked before
// each string or list is made (its size is known first), so that an
// expression that would make too much fails with an error wrapping
// [ErrBudget] instead of allocating: [MaxBytes] of strings and
// [MaxItems] list items. Each evaluation starts with the whole budget
// (a host that evaluates a program for many entities in one loop does
// not share it between them); the constants the compiler folds count
// against one budget of MaxBytes for the whole compilation, and what
// would exceed it is left to run time.
const (
	// MaxSource is the longest expression source, in bytes.
	MaxSource = 4096
	// MaxNodes is the most syntax nodes an expression may have (each
	// literal, name, operator and call is a node: `a + b` has 3).
	MaxNodes = 1000
	// MaxBytes is the most bytes of strings one evaluation may make, in
	// total: every result of string +, replace, upper, lower, string(),
	// join. Strings that are parts of others (trim, a slice, split's
	// pieces) cost nothing. 1 MiB is far more than any text a scene
	// shows or parses (names, labels, colours, attribute strings), and
	// small enough that a binding on thousands of entities that uses all
	// of it every tick is slow, not fatal.
	MaxBytes = 1 << 20
	// MaxItems is the most list items one evaluation may make in the
	// lists it builds (ranges, list literals, map, filter, split, concat,
	// flatten, sort, reverse): a million, expr's own default.
	MaxItems = 1_000_000
)

// closureBuiltins are expr's built-in functions the closure compiler
// handles; vmBuiltins those only the interpreter runs. Every other
// built-in of expr (now, date, duration and the other clock functions,
// fromJSON, repeat, keys, values, type, ...) is disabled: expressions are
// deterministic and cheap.
var (
	closureBuiltins = []string{"len", "int", "float", "string", "upper", "lower", "trim", "trimPrefix", "trimSuffix", "indexOf", "lastIndexOf", "replace"}
	vmBuiltins      = []string{"all", "none", "any", "one", "filter", "map", "count", "sum", "find", "findIndex", "findLast", "findLastIndex", "first", "last", "join", "split", "mean", "median", "reverse", "take", "reduce", "sort", "uniq", "concat", "flatten"}
)

// tables are the function table and expr's view of it, built once and
// only read after: every configuration shares the maps.
type tables struct {
	funcs    map[string]*function
	exprFns  conf.FunctionsTable
	public   []string // callable names, sorted, for hints
	builtins map[string]bool
	// allowed and disabled are expr's built-ins, allowed and not, as
	// conf.Config holds them.
	allowed  conf.FunctionsTable
	disabled map[string]bool
}

var sharedTables = sync.OnceValue(func() *tables {
	t := &tables{funcs: funcTable(), exprFns: conf.FunctionsTable{}, builtins: map[string]bool{},
		allowed: conf.FunctionsTable{}, disabled: map[string]bool{}}
	for name, fn := range t.funcs {
		t.exprFns[name] = &builtin.Function{Name: name, Func: fn.vmFunc, Types: fn.types()}
	}
	for _, fn := range meteredFuncs() {
		t.exprFns[fn.Name] = fn
	}
	t.public = publicNames(t.funcs)
	for _, b := range append(closureBuiltins, vmBuiltins...) {
		t.builtins[b] = true
		t.public = append(t.public, b)
	}
	for _, f := range builtin.Builtins {
		if t.builtins[f.Name] {
			t.allowed[f.Name] = f
		} else {
			t.disabled[f.Name] = true
		}
	}
	return t
})

// newConfig returns expr's configuration for one compilation: the
// language's functions, the allowed built-ins, the vector operators and
// the node limit. It is what conf.CreateNew and the options of
// expr.Compile would make, but shares the tables' maps, which nothing
// writes to. The environment (the names' types) is set after the names
// are resolved.
func newConfig(t *tables) *conf.Config {
	c := &conf.Config{
		ShortCircuit: true,
		MaxNodes:     MaxNodes,
		ConstFns:     map[string]reflect.Value{},
		Functions:    t.exprFns,
		Builtins:     t.allowed,
		Disabled:     t.disabled,
	}
	var ops vecOperators
	for _, op := range [][2]string{{"+", "__vadd"}, {"-", "__vsub"}, {"*", "__vmul"}, {"/", "__vdiv"}} {
		ops = append(ops, &patcher.OperatorOverloading{
			Operator:  op[0],
			Overloads: []string{op[1]},
			Env:       &c.Env,
			Functions: c.Functions,
			NtCache:   &c.NtCache,
		})
	}
	c.Visitors = []ast.Visitor{ops}
	return c
}

// vecOperators patches the four vector operators in one walk. As four
// visitors, they would cost the checker a pass each.
type vecOperators []*patcher.OperatorOverloading

// Visit applies each operator's patch to the node.
func (v vecOperators) Visit(n *ast.Node) {
	for _, p := range v {
		p.Visit(n)
	}
}

// Reset starts a walk.
func (v vecOperators) Reset() {
	for _, p := range v {
		p.Reset()
	}
}

// ShouldRepeat reports whether a walk patched anything (patched nodes may
// make more patches possible: (v + v) * 2).
func (v vecOperators) ShouldRepeat() bool {
	for _, p := range v {
		if p.ShouldRepeat() {
			return true
		}
	}
	return false
}
