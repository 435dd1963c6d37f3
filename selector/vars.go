package selector

import (
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// Query variables (issue 34): `$name` as the value of `[prop=$name]`.
//
// Scopes. A variable belongs to one top-level complex selector. An
// occurrence inside :not(...) belongs to the :not (it is local: the :not
// holds when no value of it makes the list match) unless the same name
// also occurs outside that :not, in an enclosing scope: then it is the
// enclosing scope's variable and only constrains the :not. `$this` is the
// entity being matched, and the names of [CompileOptions.Vars] are given
// by the host ([Selector.Bind]); neither is bound by the selector.
//
// Meaning. An entity matches a complex selector when some values of its
// variables make every test hold. Only `=` takes a variable, which is
// symmetric, so the order in which tests bind does not matter.
//
// Placement. Variables may occur only in the last compound of a complex
// selector (at any depth), in :not lists, and in :to/:from lists of one
// selector; not in :is, :where, :has or :nth-child(of). So every
// variable of a scope is bound on every way through it, and a :not is
// checked once its scope has bound them all (it is deferred to the end).
//
// Evaluation. A compound with variables keeps its other tests as usual
// (a table filter, value kernels, relation sets); its variable tests are
// evaluated after them, as a join with bindings: each binds or checks a
// slot and calls its continuation, and undoes the binding on the way
// back. A :to/:from with variables also keeps an ordinary relation test
// on the same list without the variables, which the planner uses to
// start from the cheaper side (relation.go).

// varKind is the type of a variable's value.
type varKind uint8

const (
	vUnset varKind = iota
	vEntity
	vNumber
	vBool
	vText
)

var varKindNames = [...]string{"unbound", "an entity", "a number", "a boolean", "text"}

// value is a variable's value.
type value struct {
	kind varKind
	num  float64 // vNumber; vBool: 0 or 1
	str  string
	ent  ecs.Entity
}

func (v value) eq(w value) bool {
	return v.kind == w.kind && v.num == w.num && v.str == w.str && v.ent == w.ent
}

// CompileOptions configures [CompileWith].
type CompileOptions struct {
	// Vars names the variables the host gives ([Selector.Bind]), without
	// the `$`: "me" for `[owner=$me]`. Every other variable must occur at
	// least twice in its scope (once, it would join nothing).
	Vars []string
}

// CompileWith is [Compile] with options.
func CompileWith(src string, s Source, o CompileOptions) (*Selector, error) {
	l, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return CompileListWith(l, s, o)
}

// Bind gives the host variable name (one of [CompileOptions.Vars]) the
// value v for the calls that follow: an [ecs.Entity] for a relation, a
// string, a bool or a number for a property of that kind. v == nil unbinds
// it. While a host variable the selector uses is unbound, the complex
// selectors that use it match nothing.
func (s *Selector) Bind(name string, v any) error {
	i := slices.Index(s.hostNames, name)
	if i < 0 {
		return fmt.Errorf("selector %s: no host variable $%s (declared: %s)", s.list, name, dollars(s.hostNames))
	}
	var val value
	switch v := v.(type) {
	case nil:
	case ecs.Entity:
		val = value{kind: vEntity, ent: v}
	case string:
		val = value{kind: vText, str: v}
	case bool:
		val = value{kind: vBool}
		if v {
			val.num = 1
		}
	case float64:
		val = value{kind: vNumber, num: v}
	case float32:
		val = value{kind: vNumber, num: float64(v)}
	case int:
		val = value{kind: vNumber, num: float64(v)}
	case int64:
		val = value{kind: vNumber, num: float64(v)}
	case int32:
		val = value{kind: vNumber, num: float64(v)}
	case uint32:
		val = value{kind: vNumber, num: float64(v)}
	case uint64:
		val = value{kind: vNumber, num: float64(v)}
	default:
		return fmt.Errorf("selector %s: $%s cannot hold a %T", s.list, name, v)
	}
	if k := s.hostKinds[i]; val.kind != vUnset && k != vUnset && k != val.kind {
		return fmt.Errorf("selector %s: $%s is %s, not %s", s.list, name, varKindNames[k], varKindNames[val.kind])
	}
	s.hostVals[i] = val
	return nil
}

func dollars(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return "$" + strings.Join(names, ", $")
}

// varScan is the scope analysis of one top-level complex selector.
type varScan struct {
	hosts   []string
	slots   map[*Attr]int     // each occurrence's slot: 0 $this, 1.. hosts, then the scopes'
	locals  map[*Pseudo][]int // each :not's own variables
	carries map[*Pseudo]bool  // pseudo-classes whose lists hold an occurrence
	names   []string          // by slot
	occs    []varOcc
}

type varOcc struct {
	a    *Attr
	nots []*Pseudo // the :not scopes around it, outermost first
}

// scanVars finds the variables of cx, their scopes and slots, and checks
// where they occur. It returns nil when cx has none.
func scanVars(cx *Complex, hosts []string) (*varScan, error) {
	v := &varScan{hosts: hosts, slots: map[*Attr]int{}, locals: map[*Pseudo][]int{},
		carries: map[*Pseudo]bool{}, names: append([]string{"this"}, hosts...)}
	if err := v.complex(cx, nil, "", nil); err != nil {
		return nil, err
	}
	if len(v.occs) == 0 {
		return nil, nil
	}
	// The names occurring in each scope outside nested :nots.
	direct := map[*Pseudo]map[string]bool{}
	for _, o := range v.occs {
		sc := (*Pseudo)(nil)
		if len(o.nots) > 0 {
			sc = o.nots[len(o.nots)-1]
		}
		if direct[sc] == nil {
			direct[sc] = map[string]bool{}
		}
		direct[sc][o.a.Value] = true
	}
	type key struct {
		owner *Pseudo
		name  string
	}
	slot, uses, first := map[key]int{}, map[key]int{}, map[key]*Attr{}
	for _, o := range v.occs {
		name := o.a.Value
		if i := slices.Index(v.names[:1+len(hosts)], name); i >= 0 {
			v.slots[o.a] = i
			continue
		}
		owner := (*Pseudo)(nil)
		for i := -1; i < len(o.nots); i++ { // the outermost scope where it occurs directly
			if i >= 0 {
				owner = o.nots[i]
			}
			if direct[owner][name] {
				break
			}
		}
		k := key{owner, name}
		if _, ok := slot[k]; !ok {
			slot[k] = len(v.names)
			v.names = append(v.names, name)
			first[k] = o.a
			if owner != nil {
				v.locals[owner] = append(v.locals[owner], slot[k])
			}
		}
		uses[k]++
		v.slots[o.a] = slot[k]
	}
	for _, o := range v.occs { // in source order, so the first error is the leftmost
		for k, a := range first {
			if a == o.a && uses[k] == 1 {
				return nil, errorf(a.Col-1, "variable $%s is used once, so it joins nothing: use it again, write [%s] to ask only for presence, or declare it a host variable (CompileOptions.Vars)", a.Value, attrRel(a))
			}
		}
	}
	return v, nil
}

// complex records the occurrences in cx. why, when not "", says why a
// variable may not occur here; path is the pseudo-classes around cx.
func (v *varScan) complex(cx *Complex, nots []*Pseudo, why string, path []*Pseudo) error {
	for i, cp := range cx.Compounds {
		w := why
		if w == "" && i < len(cx.Compounds)-1 {
			w = "before a combinator (variables go in the last compound of a complex selector)"
		}
		for _, s := range cp.Simples {
			switch s := s.(type) {
			case *Attr:
				if !s.Var {
					continue
				}
				if w != "" {
					return errorf(s.Col-1, "variable $%s cannot be used %s", s.Value, w)
				}
				v.occs = append(v.occs, varOcc{a: s, nots: nots})
				for _, p := range path {
					v.carries[p] = true
				}
			case *Pseudo:
				if s.List == nil {
					continue
				}
				w2, nots2 := w, nots
				switch s.Name {
				case "is", "where", "has", "nth-child", "nth-last-child":
					if w2 == "" {
						w2 = "inside :" + s.Name + "()"
					}
				case "to", "from":
					if w2 == "" && len(s.List.Selectors) > 1 {
						w2 = "in a :" + s.Name + "() list of several selectors"
					}
				case "not":
					nots2 = append(slices.Clip(nots), s)
				}
				for _, m := range s.List.Selectors {
					if err := v.complex(m, nots2, w2, append(slices.Clip(path), s)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// varNode is a test with variables, run as a join step: it binds or
// checks slots and calls k for each way it holds, and reports whether
// some call of k did.
type varNode interface {
	bind(x *exec, e ecs.Entity, k func() bool) bool
	rank() int // order within a compound: binders first
	dump(b *strings.Builder)
}

// setKind records the kind of a variable's value, and refuses a second
// kind.
func (c *compiler) setKind(slot int, k varKind, a *Attr) error {
	var cur *varKind
	switch {
	case slot == 0:
		this := vEntity
		cur = &this
	case slot <= len(c.sel.hostNames):
		cur = &c.sel.hostKinds[slot-1]
	default:
		if c.kinds == nil {
			c.kinds = map[int]varKind{}
		}
		kk := c.kinds[slot]
		defer func() { c.kinds[slot] = kk }()
		cur = &kk
	}
	if *cur != vUnset && *cur != k {
		return errorf(a.Col-1, "variable $%s is %s here (%s) but %s elsewhere", a.Value, varKindNames[k], attrRel(a), varKindNames[*cur])
	}
	*cur = k
	return nil
}

// varAttr compiles [comp.prop=$name]: a relation binds its targets, a
// property its value; a relation to a host variable is a relation test
// with a fixed target.
func (c *compiler) varAttr(st *compoundPlan, a *Attr, pn *presNode) error {
	slot := c.scan.slots[a]
	if rs, ok := c.sel.src.(Relations); ok {
		if rel, err := rs.Relation(attrRel(a)); err == nil {
			if err := c.setKind(slot, vEntity, a); err != nil {
				return err
			}
			if slot > 0 && slot <= len(c.sel.hostNames) {
				c.addRel(st, &relNode{name: attrRel(a), rel: rel, host: slot})
				return nil
			}
			st.vars = append(st.vars, &varRel{name: attrRel(a), rel: rel, slot: slot, v: a.Value})
			return nil
		}
	}
	prop, err := c.sel.src.PropertyReader(a.Comp, a.Prop)
	if err != nil {
		return &Error{Col: a.Col, Msg: err.Error(), Err: err}
	}
	k := vText
	switch prop.Kind {
	case KindNumber, KindInt:
		k = vNumber
	case KindBool:
		k = vBool
	}
	if err := c.setKind(slot, k, a); err != nil {
		return err
	}
	st.vars = append(st.vars, &varProp{comp: pn, prop: prop, kind: k, slot: slot, name: attrRel(a), v: a.Value})
	return nil
}

// varProp is [comp.prop=$v] on a property: binds or checks the value of
// each instance of the component the entity has.
type varProp struct {
	comp *presNode
	prop PropertyReader
	kind varKind
	slot int
	name string
	v    string
}

func (n *varProp) bind(x *exec, e ecs.Entity, k func() bool) bool {
	for _, id := range n.comp.ids {
		p, err := x.w.GetPtr(e, id)
		if err != nil {
			continue
		}
		if x.unify(n.slot, n.read(p), k) {
			return true
		}
	}
	return false
}

func (n *varProp) read(p unsafe.Pointer) value {
	switch n.kind {
	case vNumber:
		return value{kind: vNumber, num: n.prop.Num(p)}
	case vBool:
		v := value{kind: vBool}
		if n.prop.Bool(p) {
			v.num = 1
		}
		return v
	}
	return value{kind: vText, str: n.prop.Str(p)}
}

func (n *varProp) rank() int { return 0 }
func (n *varProp) dump(b *strings.Builder) {
	fmt.Fprintf(b, "bind($%s = %q)", n.v, n.name)
}

// varRel is [rel=$v] on a relation: binds or checks each target.
type varRel struct {
	name string
	rel  Relation
	slot int
	v    string
	buf  []ecs.Entity
}

func (n *varRel) bind(x *exec, e ecs.Entity, k func() bool) bool {
	n.buf = n.rel.Targets(e, n.buf[:0])
	for _, t := range n.buf {
		if x.unify(n.slot, value{kind: vEntity, ent: t}, k) {
			return true
		}
	}
	return false
}

func (n *varRel) rank() int { return 1 }
func (n *varRel) dump(b *strings.Builder) {
	fmt.Fprintf(b, "bind($%s = to %q)", n.v, n.name)
}

// varTo is :to/:from whose list (one selector) has variables: each target
// (holder) that passes the list's other tests runs its variable tests.
type varTo struct {
	n   *relNode // the same relation and list, without the variables
	buf []ecs.Entity
}

func (n *varTo) bind(x *exec, e ecs.Entity, k func() bool) bool {
	n.buf = n.n.walk(e, n.buf[:0])
	p := n.n.members[0]
	for _, t := range n.buf {
		if x.matchVar(p, t, k) {
			return true
		}
	}
	return false
}

func (n *varTo) rank() int { return 2 }
func (n *varTo) dump(b *strings.Builder) {
	kind := "to"
	if n.n.from {
		kind = "from"
	}
	fmt.Fprintf(b, "%s-join(%q ", kind, n.n.name)
	dumpList(b, n.n.members)
	b.WriteString(")")
}

// varNot is :not(list) with variables: checked once its scope has bound
// its variables (deferred to the end of the scope).
type varNot struct {
	members []*complexPlan
	locals  []string
}

// deferred is a :not waiting for the end of its scope, and the entity it
// tests.
type deferred struct {
	n *varNot
	e ecs.Entity
}

func (n *varNot) bind(x *exec, e ecs.Entity, k func() bool) bool {
	s := x.s
	s.defers = append(s.defers, deferred{n, e})
	r := k()
	s.defers = s.defers[:len(s.defers)-1]
	return r
}

// holds reports whether no values of the :not's own variables make its
// list match e.
func (n *varNot) holds(x *exec, e ecs.Entity) bool {
	base := len(x.s.defers)
	for _, p := range n.members {
		if x.matchVar(p, e, func() bool { return x.checkDefers(base) }) {
			return false
		}
	}
	return true
}

func (n *varNot) rank() int { return 3 }
func (n *varNot) dump(b *strings.Builder) {
	b.WriteString("not-join")
	if len(n.locals) > 0 {
		fmt.Fprintf(b, "[%s]", dollars(n.locals))
	}
	dumpList(b, n.members)
}

// joinNode runs the variable tests of a top-level subject, after its other
// tests, with $this and the host variables set.
type joinNode struct {
	vars []varNode
}

func (j *joinNode) match(x *exec, e ecs.Entity) bool {
	s := x.s
	clear(s.vals)
	s.vals[0] = value{kind: vEntity, ent: e}
	copy(s.vals[1:], s.hostVals)
	s.defers = s.defers[:0]
	return x.run(j.vars, 0, e, func() bool { return x.checkDefers(0) })
}

func (j *joinNode) dump(b *strings.Builder) {
	b.WriteString("join(")
	for i, n := range j.vars {
		if i > 0 {
			b.WriteString(" ")
		}
		n.dump(b)
	}
	b.WriteString(")")
}

// run runs ns[i:] on e, then k.
func (x *exec) run(ns []varNode, i int, e ecs.Entity, k func() bool) bool {
	if i == len(ns) {
		return k()
	}
	return ns[i].bind(x, e, func() bool { return x.run(ns, i+1, e, k) })
}

// matchVar reports whether t matches p's other tests and, with some values
// of the unbound variables, its variable tests and then k.
func (x *exec) matchVar(p *complexPlan, t ecs.Entity, k func() bool) bool {
	return p.match(x, t) && x.run(p.subject().vars, 0, t, k)
}

// unify binds slot to v and calls k, or, if slot is bound, calls k when
// it holds v. A host variable that is not bound matches nothing.
func (x *exec) unify(slot int, v value, k func() bool) bool {
	s := x.s
	if cur := s.vals[slot]; cur.kind != vUnset {
		return cur.eq(v) && k()
	}
	if slot <= len(s.hostNames) {
		return false
	}
	s.vals[slot] = v
	r := k()
	s.vals[slot] = value{}
	return r
}

// checkDefers checks the :nots deferred since base, with the variables
// bound now.
func (x *exec) checkDefers(base int) bool {
	n := len(x.s.defers)
	for i := base; i < n; i++ {
		d := x.s.defers[i]
		if !d.n.holds(x, d.e) {
			return false
		}
	}
	return true
}
