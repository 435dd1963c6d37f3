package behaviour

import (
	"slices"
	"strings"

	"github.com/scenecs/scenecs/expr"
	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
)

// onProgram is an on component's value compiled against the schemas:
// what the handler listens to, its condition and its steps, each
// expression a typed closure.
type onProgram struct {
	events   []string
	from     string
	cond     func(*expr.Frame) bool
	condMask uint8
	steps    []onStep
	slots    []string // the component each Frame.Comp slot holds
	reads    []readAt // where each slot's component is first read
}

// onStep is one action (or a target clause) of a handler.
type onStep struct {
	kind onKind
	name string // component, event, prefab, animation or timer; the selector of target ("" : self)
	tgt  propTarget
	mask uint8 // the slots its expression reads
	num  func(*expr.Frame) float64
	b    func(*expr.Frame) bool
	s    func(*expr.Frame) string
	v    func(*expr.Frame) expr.Vec
	prog *expr.Program // emit's detail (any kind)
	at   func(*expr.Frame) expr.Vec
	anim bool // start..stop: an animation (else a timer)
}

// compileOn compiles spec, the value of the on instance name, against
// env. Without an event clause the handler listens to the event its
// instance is named after (on__click: click); name "" (not known) leaves
// that to later. The error is a *registry.PropError placed in spec's
// text.
func compileOn(spec OnSpec, name string, env schemaEnv) (*onProgram, error) {
	p := &onProgram{}
	r := &compNames{env: env}
	for i, it := range spec.items {
		r.item = i
		if perr := p.add(it, r, env); perr != nil {
			return nil, perr
		}
	}
	if len(p.events) == 0 && len(spec.items) > 0 && name != "" {
		_, ev, ok := cutInstance(name)
		if !ok {
			it := spec.items[0]
			return nil, &registry.PropError{Property: propOf(it), Text: it.key, Offset: 0,
				Expected: "an event clause (event: NAME), or an instance named after the event (on__" + "click listens to click)"}
		}
		p.events = []string{ev}
	}
	p.slots, p.reads = r.slots, r.reads
	return p, nil
}

// propOf is the Property of a PropError about it: its mapping key, or ""
// in an attribute string.
func propOf(it onItem) string {
	if it.pair >= 0 {
		return it.key
	}
	return ""
}

// itemErr places e, a syntax error of it's name (At in the name), in the
// value.
func itemErr(it onItem, e *synError) *registry.PropError {
	return &registry.PropError{Property: propOf(it), Text: e.Text, Offset: it.nameAt + e.At, Expected: e.Expected}
}

// exprPropErr places an expression's error.
func exprPropErr(it onItem, e *exprErr) *registry.PropError {
	msg := e.msg
	if it.pair < 0 {
		msg = e.what + ": " + msg
	}
	return &registry.PropError{Property: propOf(it), Text: e.text, Offset: e.at, Msg: msg}
}

// add compiles one item into p.
func (p *onProgram) add(it onItem, r *compNames, env schemaEnv) *registry.PropError {
	st := onStep{kind: it.kind, name: it.name}
	switch it.kind {
	case onEvent:
		p.events = append(p.events, it.name)
		return nil
	case onFrom:
		p.from = it.name
		return nil
	case onIf:
		prog, mask, err := compileExpr(it.expr, it.exprAt, r, expr.Bool, "if")
		if err != nil {
			return exprPropErr(it, err)
		}
		p.cond, p.condMask = prog.BoolFunc(), mask
		return nil
	case onTarget:
		if it.name == "self" {
			st.name = ""
		}
	case onSet:
		return p.addSet(st, it, r, env)
	case onAdd, onRemove:
		// A name no component has is a tag, as a scene's `name:` is.
		if env.readOnly(it.name) {
			return itemErr(it, &synError{Text: it.name, Expected: "a component that can be " + map[bool]string{true: "added", false: "removed"}[it.kind == onAdd] + " (" + it.name + " is read-only)"})
		}
	case onEmit:
		if it.expr != "" {
			prog, mask, err := compileExpr(it.expr, it.exprAt, r, expr.Any, "emit")
			if err != nil {
				return exprPropErr(it, err)
			}
			st.prog, st.mask = prog, mask
		}
	case onSpawn:
		if !slices.Contains(env.prefabs(), it.name) {
			return itemErr(it, &synError{Text: it.name, Expected: "the name of a prefab" + didyoumean.Hint(it.name, env.prefabs())})
		}
		if it.expr != "" {
			prog, mask, err := compileExpr(it.expr, it.exprAt, r, expr.Vec3, "spawn")
			if err != nil {
				return exprPropErr(it, err)
			}
			st.at, st.mask = prog.VecFunc(), mask
		}
	case onStart, onPause, onResume, onRestart, onStop:
		base, _, _ := cutInstance(it.name)
		if base != "animation" && base != "timer" {
			return itemErr(it, &synError{Text: it.name, Expected: "the name of an animation or a timer (animation, animation__open, timer__wave)"})
		}
		st.anim = base == "animation"
	}
	p.steps = append(p.steps, st)
	return nil
}

// addSet compiles a set: its path, and its expression to the kind the
// property takes.
func (p *onProgram) addSet(st onStep, it onItem, r *compNames, env schemaEnv) *registry.PropError {
	t, serr := resolveTarget(it.name, env)
	if serr != nil {
		return itemErr(it, serr)
	}
	st.tgt = t
	prog, mask, err := compileExpr(it.expr, it.exprAt, r, t.kind, "set "+it.name)
	if err != nil {
		suggested := strings.HasSuffix(err.msg, "?)")
		if t.kind == expr.String && strings.HasPrefix(err.msg, "unknown name") && !suggested {
			err.msg += ": a text value is written in quotes, as in " + it.name + " = '" + strings.TrimSpace(it.expr) + "'"
		}
		return exprPropErr(it, err)
	}
	st.mask = mask
	setFuncs(&st.num, &st.b, &st.s, &st.v, prog, t.kind)
	p.steps = append(p.steps, st)
	return nil
}

// setFuncs takes the closure of prog that kind needs.
func setFuncs(num *func(*expr.Frame) float64, b *func(*expr.Frame) bool, s *func(*expr.Frame) string, v *func(*expr.Frame) expr.Vec, prog *expr.Program, kind expr.Kind) {
	switch kind {
	case expr.Number:
		*num = prog.NumberFunc()
	case expr.Bool:
		*b = prog.BoolFunc()
	case expr.String:
		*s = textFunc(prog)
	default:
		*v = prog.VecFunc()
	}
}

// checkOn is the on component's Check: the value compiles against the
// scene's schemas and prefabs.
func checkOn(cx *registry.CheckContext, v *OnSpec) error {
	p, err := compileOn(*v, cx.Name, checkEnv(cx))
	if err != nil || cx.Reads == nil {
		return err
	}
	for slot, comp := range p.slots {
		added := slices.ContainsFunc(p.steps, func(st onStep) bool { return st.kind == onAdd && st.name == comp })
		if !added { // a handler that adds what it reads has it when it reads
			rd := p.reads[slot]
			cx.Reads(comp, missingRead(propOf(v.items[rd.item]), comp, rd.at))
		}
	}
	return nil
}
