package expr

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// constant returns the value of a built-in constant.
func constant(name string) (float64, bool) {
	switch name {
	case "PI":
		return math.Pi, true
	case "E":
		return math.E, true
	}
	return 0, false
}

// resolver is the name-resolution pass: it replaces every name of the
// tree, a dotted path included (`health.hp`), by one identifier carrying
// the resolved name, so that expr's checker and VM see it as one variable,
// and records the names' variables.
type resolver struct {
	src     string
	r       Resolver
	t       *tables
	vars    map[string]Var   // resolved names
	refused map[string]error // names not resolved, and why (nil: unknown)
	scopes  []string         // names bound by let around the current node
	err     *Error
}

// parse parses the source with config and resolves its names.
func (rs *resolver) parse(config *conf.Config) (*parser.Tree, error) {
	tree, err := parser.ParseWithConfig(rs.src, config)
	if err != nil {
		return nil, fromExprError(rs.src, err)
	}
	rs.walk(&tree.Node)
	if rs.err != nil {
		return nil, rs.err
	}
	return tree, nil
}

// walk resolves the names under *n.
func (rs *resolver) walk(n *ast.Node) {
	if rs.err != nil || *n == nil {
		return
	}
	switch x := (*n).(type) {
	case *ast.IdentifierNode:
		rs.path(n, x, nil)
	case *ast.MemberNode:
		if id, levels, ok := staticPath(n); ok {
			rs.path(levels[0], id, levels)
			return
		}
		rs.walk(&x.Node)
		rs.walk(&x.Property)
	case *ast.CallNode:
		rs.call(x)
	case *ast.VariableDeclaratorNode:
		if ok, _ := rs.lookup(x.Name); ok {
			rs.err = errAt(rs.src, nodeSpan(rs.src, x), "cannot redeclare %q: it is a name of the scene", x.Name)
			return
		}
		if strings.HasPrefix(x.Name, "__") {
			rs.err = errAt(rs.src, nodeSpan(rs.src, x), "cannot declare %q: names starting with __ are the language's", x.Name)
			return
		}
		rs.walk(&x.Value)
		rs.scopes = append(rs.scopes, x.Name)
		rs.walk(&x.Expr)
		rs.scopes = rs.scopes[:len(rs.scopes)-1]
	default:
		for _, c := range children(*n) {
			rs.walk(c)
		}
	}
}

// children returns pointers to the child slots of n (for the nodes whose
// children may hold names).
func children(n ast.Node) []*ast.Node {
	switch x := n.(type) {
	case *ast.UnaryNode:
		return []*ast.Node{&x.Node}
	case *ast.BinaryNode:
		return []*ast.Node{&x.Left, &x.Right}
	case *ast.ChainNode:
		return []*ast.Node{&x.Node}
	case *ast.SliceNode:
		return []*ast.Node{&x.Node, &x.From, &x.To}
	case *ast.BuiltinNode:
		return slotsOf(x.Arguments)
	case *ast.PredicateNode:
		return []*ast.Node{&x.Node}
	case *ast.ConditionalNode:
		return []*ast.Node{&x.Cond, &x.Exp1, &x.Exp2}
	case *ast.SequenceNode:
		return slotsOf(x.Nodes)
	case *ast.ArrayNode:
		return slotsOf(x.Nodes)
	case *ast.MapNode:
		return slotsOf(x.Pairs)
	case *ast.PairNode:
		return []*ast.Node{&x.Key, &x.Value}
	case *ast.MemberNode:
		return []*ast.Node{&x.Node, &x.Property}
	case *ast.CallNode:
		return append([]*ast.Node{&x.Callee}, slotsOf(x.Arguments)...)
	case *ast.VariableDeclaratorNode:
		return []*ast.Node{&x.Value, &x.Expr}
	}
	return nil
}

func slotsOf(ns []ast.Node) []*ast.Node {
	s := make([]*ast.Node, len(ns))
	for i := range ns {
		s[i] = &ns[i]
	}
	return s
}

// staticPath reports whether *n is a dotted path `a.b.c` (an identifier
// followed by constant, non-optional member names). levels[0] is the slot
// of the identifier, levels[i] that of the i-th member access.
func staticPath(n *ast.Node) (*ast.IdentifierNode, []*ast.Node, bool) {
	var levels []*ast.Node
	cur := n
	for {
		switch x := (*cur).(type) {
		case *ast.MemberNode:
			if _, ok := x.Property.(*ast.StringNode); !ok || x.Optional || x.Method {
				return nil, nil, false
			}
			levels = append(levels, cur)
			cur = &x.Node
		case *ast.IdentifierNode:
			levels = append(levels, cur)
			// Reverse: identifier first.
			for i, j := 0, len(levels)-1; i < j; i, j = i+1, j-1 {
				levels[i], levels[j] = levels[j], levels[i]
			}
			return x, levels, true
		default:
			return nil, nil, false
		}
	}
}

// path resolves the name at id followed by the member names of levels
// (levels[0] is id's slot): the longest prefix the resolver knows becomes
// one identifier; the rest stay member accesses on it.
func (rs *resolver) path(slot *ast.Node, id *ast.IdentifierNode, levels []*ast.Node) {
	if levels == nil {
		levels = []*ast.Node{slot}
	}
	for _, s := range rs.scopes {
		if s == id.Value {
			// A let variable, and member accesses on it: their names are
			// constants (see staticPath), nothing to resolve. (Walking the
			// member nodes here came back to this path for ever: `let k =
			// detail; k.x` overflowed the stack.)
			return
		}
	}
	parts := []string{id.Value}
	for _, l := range levels[1:] {
		parts = append(parts, (*l).(*ast.MemberNode).Property.(*ast.StringNode).Value)
	}
	full := nodeSpan(rs.src, *levels[len(levels)-1])
	var firstErr error
	for j := len(parts); j >= 1; j-- {
		name := strings.Join(parts[:j], ".")
		at := nodeSpan(rs.src, *levels[j-1])
		ok, err := rs.lookup(name)
		if ok {
			nid := &ast.IdentifierNode{Value: name}
			nid.SetLocation(locOf(rs.src, at))
			*levels[j-1] = nid
			return
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		rs.err = errAt(rs.src, full, "%s", firstErr.Error())
		return
	}
	name := strings.Join(parts, ".")
	msg := fmt.Sprintf("unknown name %q", name)
	msg += didyoumean.Phrase(rs.suggest(name))
	rs.err = errAt(rs.src, full, "%s", msg)
}

// lookup resolves name: a constant, a name resolved already, or the
// resolver's answer. ok is false for an unknown name; err is the
// resolver's error for a known name it refuses.
func (rs *resolver) lookup(name string) (ok bool, err error) {
	if _, ok := rs.vars[name]; ok {
		return true, nil
	}
	if err, ok := rs.refused[name]; ok {
		return false, err // asked before (the source is resolved twice)
	}
	ok, err = rs.ask(name)
	if !ok {
		if rs.refused == nil {
			rs.refused = map[string]error{}
		}
		rs.refused[name] = err
	}
	return ok, err
}

// ask resolves name for lookup.
func (rs *resolver) ask(name string) (ok bool, err error) {
	if strings.HasPrefix(name, "__") {
		return false, nil // the language's own (see memName)
	}
	if c, ok := constant(name); ok {
		rs.vars[name] = Const(c)
		return true, nil
	}
	v, err := rs.r.Resolve(name)
	if err != nil {
		if errors.Is(err, ErrUnknownName) {
			return false, nil
		}
		return false, err
	}
	if v.Kind == Any {
		return false, nil
	}
	if err := v.check(); err != nil {
		return false, fmt.Errorf("name %q: %v", name, err)
	}
	rs.vars[name] = v
	return true, nil
}

// suggest returns the known name nearest to name, or "".
func (rs *resolver) suggest(name string) string {
	cands := []string{"E", "PI"}
	if l, ok := rs.r.(Lister); ok {
		for _, n := range l.Names() {
			if !strings.HasPrefix(n, "__") {
				cands = append(cands, n)
			}
		}
	}
	return didyoumean.Nearest(name, cands)
}

// leftOut says why one of expr's built-ins is left out.
func leftOut(name string) string {
	switch name {
	case "now", "date", "duration", "timezone":
		return ": it reads the clock, and expressions are deterministic"
	case "keys", "values", "toPairs", "groupBy":
		return ": its order is not deterministic"
	}
	return ""
}

// call checks a call: only the language's functions and the allowed
// built-ins can be called, by name.
func (rs *resolver) call(x *ast.CallNode) {
	id, ok := x.Callee.(*ast.IdentifierNode)
	if !ok {
		at := nodeSpan(rs.src, x.Callee)
		rs.err = errAt(rs.src, at, "%s cannot be called: only functions are, by name, as in length(v)", at.text(rs.src))
		return
	}
	if _, ok := rs.t.funcs[id.Value]; !ok || strings.HasPrefix(id.Value, "__") {
		if _, ok := builtin.Index[id.Value]; ok {
			rs.err = errAt(rs.src, nodeSpan(rs.src, id), "function %q is not available in scene expressions%s", id.Value, leftOut(id.Value))
			return
		}
		msg := fmt.Sprintf("unknown function %q", id.Value)
		msg += didyoumean.Hint(id.Value, rs.t.public)
		rs.err = errAt(rs.src, nodeSpan(rs.src, id), "%s", msg)
		return
	}
	for i := range x.Arguments {
		rs.walk(&x.Arguments[i])
	}
}
