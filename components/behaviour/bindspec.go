package behaviour

import (
	"reflect"

	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/registry"
)

// BindSpec is the value of a bind component (its property type is
// "bind"): bindings "path: expression", each keeping a property equal to
// its expression every tick, as A-Frame's state component's bind does
// per entity:
//
//	position.y: sin(time * 2) * 3; material.opacity: health.hp / 100
//
// or a mapping with the paths as keys. Parsing checks the syntax; the
// paths and the expressions are checked against the scene when it loads
// (the component's Check) and compiled when the component is set.
type BindSpec struct {
	text  string // the canonical attribute string
	items []bindItem
}

// String returns the bindings as an attribute string.
func (s BindSpec) String() string { return s.text }

// bindItem is one binding as written.
type bindItem struct {
	path   string
	pathAt int
	expr   string
	exprAt int
	pair   int
}

// bindType returns the property type "bind".
func bindType() *registry.Type {
	return &registry.Type{
		Name: "bind", GoType: reflect.TypeFor[BindSpec](), Default: BindSpec{},
		Parse: func(text string, _ any) (any, error) {
			cs, err := splitClauses(text)
			if err != nil {
				return nil, err.attrErr(false)
			}
			return readBind(cs, false)
		},
		ParseMap: func(kv [][2]string, _ any) (any, error) {
			cs, err := mapClauses(kv)
			if err != nil {
				return nil, err.attrErr(true)
			}
			return readBind(cs, true)
		},
		Print: func(v any) string { return v.(BindSpec).text },
		Equal: func(a, b any) bool { return a.(BindSpec).text == b.(BindSpec).text },
	}
}

// readBind reads clauses into a BindSpec.
func readBind(cs []clause, mapping bool) (any, error) {
	var spec BindSpec
	for _, c := range cs {
		if c.Bare || c.Value == "" {
			at, text := c.KeyAt, c.Key
			exp := "a binding PATH: EXPRESSION (such as position.y: sin(time * 2))"
			if !c.Bare {
				at, text, exp = c.ValueAt, "", "an expression after "+c.Key+":"
			}
			return nil, (&synError{Text: text, At: at, Pair: c.Pair, Key: c.Key, Expected: exp}).attrErr(mapping)
		}
		for _, it := range spec.items {
			if it.path == c.Key {
				// At the value: a mapping's key errors read "unknown property".
				return nil, (&synError{Text: c.Value, At: c.ValueAt, Pair: c.Pair, Key: c.Key,
					Expected: "each path bound once (" + c.Key + " is bound twice)"}).attrErr(mapping)
			}
		}
		spec.items = append(spec.items, bindItem{path: c.Key, pathAt: c.KeyAt, expr: c.Value, exprAt: c.ValueAt, pair: c.Pair})
	}
	spec.text = printClauses(cs)
	return spec, nil
}

// bindProgram is a bind component's value compiled against the
// schemas.
type bindProgram struct {
	items []bindProg
	slots []string // the component each Frame.Comp slot holds
	reads []readAt // where each slot's component is first read
}

// bindProg is one binding, compiled.
type bindProg struct {
	path, src string
	tgt       propTarget
	mask      uint8       // the slots its expression reads
	memo      *bindMemo   // for a number that reads no component
	bat       *expr.Batch // for a number that reads components, if it has a batch form
	num       func(*expr.Frame) float64
	b         func(*expr.Frame) bool
	s         func(*expr.Frame) string
	v         func(*expr.Frame) expr.Vec
}

// compileBind compiles spec against env; the error is a
// *registry.PropError placed in spec's text.
func compileBind(spec BindSpec, env schemaEnv) (*bindProgram, error) {
	p := &bindProgram{}
	r := &compNames{env: env}
	for i, it := range spec.items {
		r.item = i
		prop := ""
		if it.pair >= 0 {
			prop = it.path
		}
		t, serr := resolveTarget(it.path, env)
		if serr != nil {
			return nil, &registry.PropError{Property: prop, Text: serr.Text, Offset: it.pathAt + serr.At, Expected: serr.Expected}
		}
		prog, mask, eerr := compileExpr(it.expr, it.exprAt, r, t.kind, it.path)
		if eerr != nil {
			return nil, exprPropErr(onItem{pair: it.pair, key: it.path}, eerr)
		}
		bp := bindProg{path: it.path, src: it.expr, tgt: t, mask: mask}
		switch {
		case mask == 0 && t.kind == expr.Number:
			bp.memo = &bindMemo{}
		case t.kind == expr.Number:
			bp.bat = prog.Batch()
		}
		setFuncs(&bp.num, &bp.b, &bp.s, &bp.v, prog, t.kind)
		p.items = append(p.items, bp)
	}
	p.slots, p.reads = r.slots, r.reads
	return p, nil
}

// checkBind is the bind component's Check.
func checkBind(cx *registry.CheckContext, v *BindSpec) error {
	p, err := compileBind(*v, checkEnv(cx))
	if err != nil || cx.Reads == nil {
		return err
	}
	for slot, comp := range p.slots {
		rd := p.reads[slot]
		prop := ""
		if it := v.items[rd.item]; it.pair >= 0 {
			prop = it.path
		}
		cx.Reads(comp, missingRead(prop, comp, rd.at))
	}
	return nil
}
