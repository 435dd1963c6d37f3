package expr

import (
	"sync"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/patcher"
)

// Limits on one expression, so that compiling and evaluating it have a
// bounded cost. Evaluation has no loops of its own: a closure-compiled
// expression runs each node at most once, so its cost is linear in its
// size; the interpreted constructs (list functions such as filter over a
// range) are bounded by expr's memory budget of 1e6 allocated items.
const (
	// MaxSource is the longest expression source, in bytes.
	MaxSource = 4096
	// MaxNodes is the most syntax nodes an expression may have (each
	// literal, name, operator and call is a node: `a + b` has 3).
	MaxNodes = 1000
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

// tables are the function table and expr's view of it, built once.
type tables struct {
	funcs    map[string]*function
	exprFns  conf.FunctionsTable
	public   []string // callable names, sorted, for hints
	builtins map[string]bool
}

var sharedTables = sync.OnceValue(func() *tables {
	t := &tables{funcs: funcTable(), exprFns: conf.FunctionsTable{}, builtins: map[string]bool{}}
	for name, fn := range t.funcs {
		t.exprFns[name] = &builtin.Function{Name: name, Func: fn.vmFunc, Types: fn.types()}
	}
	t.public = publicNames(t.funcs)
	for _, b := range append(closureBuiltins, vmBuiltins...) {
		t.builtins[b] = true
		t.public = append(t.public, b)
	}
	return t
})

// newConfig returns expr's configuration for one compilation: the
// language's functions, the allowed built-ins, the vector operators and
// the node limit. The environment (the names' types) is set after the
// names are resolved.
func newConfig(t *tables) *conf.Config {
	c := conf.CreateNew()
	c.MaxNodes = MaxNodes
	c.Optimize = false
	for name := range c.Builtins {
		if !t.builtins[name] {
			c.Disabled[name] = true
			delete(c.Builtins, name)
		}
	}
	for name, fn := range t.exprFns {
		c.Functions[name] = fn
	}
	for _, op := range [][2]string{{"+", "__vadd"}, {"-", "__vsub"}, {"*", "__vmul"}, {"/", "__vdiv"}} {
		c.Visitors = append(c.Visitors, &patcher.OperatorOverloading{
			Operator:  op[0],
			Overloads: []string{op[1]},
			Env:       &c.Env,
			Functions: c.Functions,
			NtCache:   &c.NtCache,
		})
	}
	return c
}
