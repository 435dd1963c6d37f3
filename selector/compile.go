package selector

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/internal/docorder"
	"github.com/scenecs/scenecs/internal/quote"
)

// Selector is a compiled selector list, bound to the Source (and World) it
// was compiled against. It is a live query: every call evaluates against
// the World's current entities, components, values, ids and classes, so a
// Selector can be compiled once and run every frame.
//
// The component part of each compound becomes table-level tests (all /
// none / any-of signature masks, matched once per ecs table through a
// cached [ecs.Filter]); ids, classes, values and pseudo-classes are tested
// per entity. Combinators are checked right to left, memoised per call so
// that no selector backtracks exponentially; a call that would do more
// combinator work than there are entities in the World switches to
// set-at-a-time evaluation, so that every call runs in time linear in
// entities × steps, with memory that does not grow with the steps.
//
// A Selector is not safe for concurrent use (nor is an [ecs.World]).
type Selector struct {
	src   Source
	w     *ecs.World
	list  *SelectorList
	cache *docorder.Index

	members []*complexPlan // the top-level list

	// Everything re-resolved when the World's component count grows.
	pres  []*presNode
	attrs []*attrPred
	ncomp int // w.NumComponents() at the last resolve; -1 before the first

	// Per-call state.
	memos  []*complexPlan // plans with combinators, reset per call
	budget int            // right-to-left work left in this call (see begin)
	ops    uint64         // units of combinator work done, for tests
	spare  [][]uint64     // bitsets to reuse for set-at-a-time evaluation
	nths   []*nthNode     // position caches, cleared per call
	hier   bool           // some part needs the hierarchy
	buf    []ecs.Entity
	rows   []int32
	rbits  []uint64 // scratch for tableBits: the rows that pass
	rtmp   []uint64 // scratch for tableBits: the rows that pass one predicate

	subs []*complexPlan // the lists of relations, collected on their own
	rels []*relNode     // relation tests, reset per call

	// Variables (vars.go): slot 0 is $this, 1.. the host's.
	hostNames []string
	hostKinds []varKind
	hostVals  []value
	vals      []value    // by slot, during a join
	defers    []deferred // :nots waiting for the end of their scope
}

// complexPlan is one complex selector: compounds left to right. combs[i]
// relates steps[i] to steps[i-1]; combs[0] is NoCombinator, or the leading
// combinator of a relative selector (inside :has).
//
// A plan with combinators is evaluated in one of two ways per call (see
// match.go and sets.go): right to left from the entity asked about,
// memoised, while the call's work budget lasts; or, once the budget is
// spent (or from the start for a plan longer than maxRTLSteps), set at a
// time: one pass over the World per step gives the set of every entity
// that matches, kept for the rest of the call.
type complexPlan struct {
	steps    []*compoundPlan
	combs    []Combinator
	relative bool
	// multi: the plan has combinators (more than one step, or relative).
	multi bool
	// long: more than maxRTLSteps steps; always evaluated set at a time.
	long bool
	memo map[memoKey]bool
	// down: a combinator after the leading one goes to descendants.
	down bool

	// Per-call state, reset by begin.
	over bool     // right-to-left evaluation ran out of budget
	set  []uint64 // by document position: the matches (anchors for :has); nil until built
}

// maxRTLSteps is the longest complex selector evaluated right to left.
// Right-to-left evaluation recurses once per step, so its stack grows with
// the steps; longer selectors are evaluated set at a time, whose memory
// does not depend on the number of steps.
const maxRTLSteps = 32

type memoKey struct {
	anchor uint32 // anchor index + 1 (for :has), 0 otherwise
	kind   uint8  // 0 match at step, 1 ancestor-or-self, 2 previous-sibling-or-self
	step   uint16 // < maxRTLSteps
	e      uint32
}

// compoundPlan is one compound: table-level nodes (decided by an
// entity's signature) and entity-level nodes.
type compoundPlan struct {
	tab []maskNode
	ent []entNode
	// Candidate anchors: the first #id and the .classes, for the subject
	// of a top-level member.
	id      string
	hasID   bool
	classes []string
	// Attribute predicates among ent, for the per-table column fast path.
	attrs []*attrPred
	// other holds ent without the attribute predicates.
	other []entNode

	filter *ecs.Filter // for top-level subjects, built at resolve
	never  bool        // a presence test with no storage yet

	anchor *relNode  // the first relation test among ent
	vars   []varNode // tests with variables (vars.go), run after ent
}

// maskNode is a test decided by an entity's signature alone.
type maskNode interface {
	matchMask(m ecs.Mask) bool
	dump(b *strings.Builder)
}

// entNode is a test on a single entity.
type entNode interface {
	match(x *exec, e ecs.Entity) bool
	dump(b *strings.Builder)
}

// Compile parses src and compiles it against s. Syntax errors and
// compile errors (unknown component or property, an operator that does
// not apply to the property's type, a bad operand) are *Error values
// with the column of the offending input.
func Compile(src string, s Source) (*Selector, error) {
	l, err := Parse(src)
	if err != nil {
		return nil, err
	}
	return CompileList(l, s)
}

// MustCompile is like Compile but panics on error.
func MustCompile(src string, s Source) *Selector {
	sel, err := Compile(src, s)
	if err != nil {
		panic(err)
	}
	return sel
}

// CompileList compiles a parsed selector list against s. The list must
// not be modified afterwards.
func CompileList(l *SelectorList, s Source) (*Selector, error) {
	return CompileListWith(l, s, CompileOptions{})
}

// CompileListWith is [CompileList] with options.
func CompileListWith(l *SelectorList, s Source, o CompileOptions) (*Selector, error) {
	sel := &Selector{src: s, w: s.World(), list: l, ncomp: -1}
	if err := sel.declare(o.Vars); err != nil {
		return nil, err
	}
	if sh, ok := s.(docorder.Sharer); ok {
		sel.cache = sh.DocOrderIndex()
	}
	if sel.cache == nil {
		sel.cache = new(docorder.Index)
	}
	c := &compiler{sel: sel}
	nslots := 1 + len(o.Vars)
	for _, cx := range l.Selectors {
		var err error
		if c.scan, err = scanVars(cx, o.Vars); err != nil {
			return nil, err
		}
		c.kinds = nil
		p, err := c.complex(cx)
		if err != nil {
			return nil, err
		}
		if st := p.subject(); len(st.vars) > 0 {
			j := &joinNode{vars: st.vars}
			st.ent = append(st.ent, j)
			st.other = append(st.other, j)
		}
		if c.scan != nil {
			nslots = max(nslots, len(c.scan.names))
		}
		sel.members = append(sel.members, p)
	}
	sel.vals = make([]value, nslots)
	return sel, nil
}

// declare records the host variables.
func (s *Selector) declare(names []string) error {
	for i, n := range names {
		if n == "this" || n == "" || slices.Contains(names[:i], n) {
			return fmt.Errorf("selector %s: cannot declare host variable $%s (empty, $this or twice)", s.list, n)
		}
	}
	s.hostNames = names
	s.hostKinds = make([]varKind, len(names))
	s.hostVals = make([]value, len(names))
	return nil
}

// String returns the selector's source in canonical form (see
// [SelectorList.String]). Compiling it again gives the same plan.
func (s *Selector) String() string { return s.list.String() }

// List returns the parsed selector list.
func (s *Selector) List() *SelectorList { return s.list }

type compiler struct {
	sel   *Selector
	scan  *varScan        // the variables of the top-level complex being compiled; nil if none
	kinds map[int]varKind // their kinds, by slot
}

func (c *compiler) complex(cx *Complex) (*complexPlan, error) {
	p := &complexPlan{}
	for i, cp := range cx.Compounds {
		st, err := c.compound(cp)
		if err != nil {
			return nil, err
		}
		p.steps = append(p.steps, st)
		p.combs = append(p.combs, cp.Combinator)
		if i == 0 && cp.Combinator != NoCombinator {
			p.relative = true
		}
		if i > 0 && (cp.Combinator == Descendant || cp.Combinator == Child) {
			p.down = true
		}
	}
	if len(p.steps) > 1 || p.relative {
		c.sel.hier = true
		p.multi = true
		p.long = len(p.steps) > maxRTLSteps
		if !p.long {
			p.memo = make(map[memoKey]bool)
		}
		c.sel.memos = append(c.sel.memos, p)
	}
	return p, nil
}

// pureTable reports whether a list is decided by signatures alone: every
// member is a single compound without entity-level tests.
func pureTable(ps []*complexPlan) bool {
	for _, p := range ps {
		if len(p.steps) != 1 || p.relative || len(p.steps[0].ent) > 0 {
			return false
		}
	}
	return true
}

func (c *compiler) list(l *SelectorList) ([]*complexPlan, error) {
	var ps []*complexPlan
	for _, cx := range l.Selectors {
		p, err := c.complex(cx)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func (c *compiler) compound(cp *Compound) (*compoundPlan, error) {
	st := &compoundPlan{}
	addEnt := func(n entNode) { st.ent = append(st.ent, n) }
	for _, s := range cp.Simples {
		switch s := s.(type) {
		case *ID:
			if !st.hasID {
				st.id, st.hasID = s.Name, true
			}
			addEnt(&idNode{id: s.Name})
		case *Class:
			st.classes = append(st.classes, s.Name)
			addEnt(&classNode{class: s.Name})
		case *Attr:
			if err := c.attr(st, s); err != nil {
				return nil, err
			}
		case *Pseudo:
			if err := c.pseudo(st, s); err != nil {
				return nil, err
			}
		}
	}
	slices.SortStableFunc(st.vars, func(a, b varNode) int { return a.rank() - b.rank() })
	for _, n := range st.ent {
		if a, ok := n.(*attrPred); ok {
			st.attrs = append(st.attrs, a)
		} else {
			st.other = append(st.other, n)
		}
	}
	return st, nil
}

func (c *compiler) presence(name string, col int) (*presNode, error) {
	ids, err := c.sel.src.ComponentIDs(name)
	if err != nil {
		return nil, &Error{Col: col, Msg: err.Error(), Err: err}
	}
	n := &presNode{name: name}
	n.set(ids)
	c.sel.pres = append(c.sel.pres, n)
	return n, nil
}

func (c *compiler) attr(st *compoundPlan, a *Attr) error {
	pn, err := c.presence(a.Comp, a.Col)
	if err != nil {
		return err
	}
	st.tab = append(st.tab, pn)
	switch {
	case a.Ref:
		rel, err := c.relation(attrRel(a), a.Col)
		if err != nil {
			return err
		}
		c.addRel(st, &relNode{name: attrRel(a), rel: rel, id: a.Value})
		return nil
	case a.Var:
		return c.varAttr(st, a, pn)
	}
	if a.Op == OpExists {
		if a.Prop != "" {
			if _, err := c.sel.src.PropertyReader(a.Comp, a.Prop); err != nil {
				return &Error{Col: a.Col, Msg: err.Error(), Err: err}
			}
		}
		return nil
	}
	prop, err := c.sel.src.PropertyReader(a.Comp, a.Prop)
	if err != nil {
		return &Error{Col: a.Col, Msg: err.Error(), Err: err}
	}
	p := &attrPred{comp: pn, prop: prop, op: a.Op, attr: a}
	if err := p.prepare(); err != nil {
		return err
	}
	if err := p.buildKernel(); err != nil {
		return err
	}
	c.sel.attrs = append(c.sel.attrs, p)
	st.ent = append(st.ent, p)
	return nil
}

func (c *compiler) pseudo(st *compoundPlan, ps *Pseudo) error {
	switch ps.Name {
	case "root":
		st.ent = append(st.ent, structNode{kind: sRoot})
	case "empty":
		st.ent = append(st.ent, structNode{kind: sEmpty})
	case "first-child":
		st.ent = append(st.ent, structNode{kind: sFirst})
	case "last-child":
		st.ent = append(st.ent, structNode{kind: sLast})
	case "only-child":
		st.ent = append(st.ent, structNode{kind: sOnly})
	case "scope":
		st.ent = append(st.ent, structNode{kind: sScope})
	case "to", "from":
		n, err := c.relPseudo(st, ps)
		if err != nil {
			return err
		}
		if c.scan != nil && c.scan.carries[ps] {
			st.vars = append(st.vars, &varTo{n: n})
		}
	case "not", "is", "where":
		ps2, err := c.list(ps.List)
		if err != nil {
			return err
		}
		neg := ps.Name == "not"
		if c.scan != nil && c.scan.carries[ps] {
			n := &varNot{members: ps2}
			for _, slot := range c.scan.locals[ps] {
				n.locals = append(n.locals, c.scan.names[slot])
			}
			st.vars = append(st.vars, n)
		} else if pureTable(ps2) {
			st.tab = append(st.tab, &listMask{neg: neg, name: ps.Name, members: ps2})
		} else {
			st.ent = append(st.ent, &listEnt{neg: neg, name: ps.Name, members: ps2})
		}
	case "has":
		ps2, err := c.list(ps.List)
		if err != nil {
			return err
		}
		st.ent = append(st.ent, &hasNode{members: ps2})
	case "nth-child", "nth-last-child":
		n := &nthNode{a: ps.Nth.A, b: ps.Nth.B, last: ps.Name == "nth-last-child", pos: make(map[uint32]int32)}
		if ps.List != nil {
			of, err := c.list(ps.List)
			if err != nil {
				return err
			}
			n.of = of
		}
		c.sel.nths = append(c.sel.nths, n)
		st.ent = append(st.ent, n)
	default:
		return &Error{Col: ps.Col, Msg: fmt.Sprintf("unsupported pseudo-class \":%s\"", ps.Name)}
	}
	if ps.Name != "not" && ps.Name != "is" && ps.Name != "where" && ps.Name != "to" && ps.Name != "from" {
		c.sel.hier = true
	}
	return nil
}

// presNode tests that the entity has the component (any of its IDs).
type presNode struct {
	name string
	ids  []ecs.ID
	mask ecs.Mask
}

func (n *presNode) set(ids []ecs.ID) {
	n.ids = ids
	n.mask = ecs.MaskOf(ids...)
}

func (n *presNode) matchMask(m ecs.Mask) bool { return m.Intersects(n.mask) }

func (n *presNode) dump(b *strings.Builder) {
	b.WriteString("has(")
	b.WriteString(strconv.Quote(n.name))
	b.WriteString(")")
}

// listMask is :not/:is/:where over compounds decided by signatures.
type listMask struct {
	neg     bool
	name    string
	members []*complexPlan
}

func (n *listMask) matchMask(m ecs.Mask) bool {
	for _, p := range n.members {
		if p.steps[0].matchMask(m) {
			return !n.neg
		}
	}
	return n.neg
}

func (n *listMask) dump(b *strings.Builder) {
	b.WriteString(n.name)
	b.WriteString("-mask")
	dumpList(b, n.members)
}

// listEnt is :not/:is/:where that needs per-entity tests.
type listEnt struct {
	neg     bool
	name    string
	members []*complexPlan
}

func (n *listEnt) match(x *exec, e ecs.Entity) bool {
	for _, p := range n.members {
		if p.match(x, e) {
			return !n.neg
		}
	}
	return n.neg
}

func (n *listEnt) dump(b *strings.Builder) {
	b.WriteString(n.name)
	dumpList(b, n.members)
}

// hasNode is :has(relative list).
type hasNode struct{ members []*complexPlan }

func (n *hasNode) dump(b *strings.Builder) {
	b.WriteString("has")
	dumpList(b, n.members)
}

type idNode struct{ id string }

func (n *idNode) match(x *exec, e ecs.Entity) bool { return x.s.src.EntityID(e) == n.id }
func (n *idNode) dump(b *strings.Builder)          { fmt.Fprintf(b, "id(%q)", n.id) }

type classNode struct{ class string }

func (n *classNode) match(x *exec, e ecs.Entity) bool { return x.s.src.HasClass(e, n.class) }
func (n *classNode) dump(b *strings.Builder)          { fmt.Fprintf(b, "class(%q)", n.class) }

type structKind uint8

const (
	sRoot structKind = iota
	sEmpty
	sFirst
	sLast
	sOnly
	sScope
)

var structNames = [...]string{"root", "empty", "first-child", "last-child", "only-child", "scope"}

type structNode struct{ kind structKind }

func (n structNode) dump(b *strings.Builder) { b.WriteString(structNames[n.kind]) }

// nthNode is :nth-child / :nth-last-child, with positions cached per call
// for each sibling group.
type nthNode struct {
	a, b int
	last bool
	of   []*complexPlan
	pos  map[uint32]int32 // entity index → 1-based position among counted siblings (0: not counted)
}

func (n *nthNode) dump(b *strings.Builder) {
	if n.last {
		b.WriteString("nth-last")
	} else {
		b.WriteString("nth")
	}
	fmt.Fprintf(b, "(%dn%+d", n.a, n.b)
	if n.of != nil {
		b.WriteString(" of ")
		dumpList(b, n.of)
	}
	b.WriteString(")")
}

// Explain returns a textual dump of the compiled plan: for each member of
// the list, its compounds right to left with their table-level (mask) and
// entity-level tests. It is meant for debugging and tests; the format may
// change.
func (s *Selector) Explain() string {
	s.resolve()
	var b strings.Builder
	for i, p := range s.members {
		if i > 0 {
			b.WriteString("\n")
		}
		p.dump(&b)
	}
	return b.String()
}

func dumpList(b *strings.Builder, ps []*complexPlan) {
	b.WriteString("(")
	for i, p := range ps {
		if i > 0 {
			b.WriteString(" | ")
		}
		p.dump(b)
	}
	b.WriteString(")")
}

func (p *complexPlan) dump(b *strings.Builder) {
	for i := len(p.steps) - 1; i >= 0; i-- {
		p.steps[i].dump(b)
		if c := p.combs[i]; c != NoCombinator {
			fmt.Fprintf(b, " <%s> ", combName(c))
			if i == 0 {
				b.WriteString("anchor")
			}
		}
	}
}

func combName(c Combinator) string {
	switch c {
	case Descendant:
		return "descendant"
	case Child:
		return "child"
	case NextSibling:
		return "next"
	case SubsequentSibling:
		return "subsequent"
	}
	return "?"
}

func (st *compoundPlan) dump(b *strings.Builder) {
	b.WriteString("{")
	if st.hasID {
		fmt.Fprintf(b, "anchor-id(%q) ", st.id)
	} else if len(st.classes) > 0 {
		fmt.Fprintf(b, "anchor-class(%q) ", st.classes[0])
	}
	b.WriteString("mask[")
	for i, n := range st.tab {
		if i > 0 {
			b.WriteString(" ")
		}
		n.dump(b)
	}
	b.WriteString("] ent[")
	for i, n := range st.ent {
		if i > 0 {
			b.WriteString(" ")
		}
		n.dump(b)
	}
	b.WriteString("]}")
}

// attrPred is a value test `[comp.prop OP value]`.
type attrPred struct {
	comp *presNode // the component's IDs (any instance)
	prop PropertyReader
	op   Op
	attr *Attr

	num   float64 // numeric operand
	str   string  // string operand (lower-cased when fold)
	boolv bool
	fold  bool // `i` flag
	never bool // the operand can match nothing (empty ^= $= *=, ~= with space)

	kern kernel // the test compiled for the property's storage (kernel.go)
}

func (a *attrPred) errorf(format string, args ...any) *Error {
	return &Error{Col: a.attr.Col, Msg: fmt.Sprintf(format, quote.Args(args)...)}
}

func (a *attrPred) name() string {
	if a.attr.Prop == "" {
		return a.attr.Comp
	}
	return a.attr.Comp + "." + a.attr.Prop
}

// prepare checks that the operator applies to the property's kind and
// converts the operand.
func (a *attrPred) prepare() error {
	at := a.attr
	k := a.prop.Kind
	typ := a.prop.Type
	if typ == "" {
		typ = k.String()
	}
	switch k {
	case KindNumber, KindInt:
		switch a.op {
		case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		default:
			return a.errorf("operator %s does not apply to %s (a %s); use = != < <= > >=", a.op, a.name(), typ)
		}
		if at.Flag != FlagNone {
			return a.errorf("flag %s does not apply to %s (a %s): it compares as a number", at.Flag, a.name(), typ)
		}
		f, err := strconv.ParseFloat(at.Value, 64)
		if err != nil {
			return a.errorf("%s is a %s: cannot compare it with %q", a.name(), typ, at.Value)
		}
		a.num = f
		return nil
	case KindBool:
		if a.op != OpEq && a.op != OpNe {
			return a.errorf("operator %s does not apply to %s (a %s); use = or !=", a.op, a.name(), typ)
		}
		if at.Flag != FlagNone {
			return a.errorf("flag %s does not apply to %s (a %s)", at.Flag, a.name(), typ)
		}
		switch at.Value {
		case "true":
			a.boolv = true
		case "false":
		default:
			return a.errorf("%s is a %s: compare it with true or false, not %q", a.name(), typ, at.Value)
		}
		return nil
	}
	// String and other kinds compare as text.
	if a.op.IsNumeric() {
		return a.errorf("operator %s needs a numeric property; %s is a %s", a.op, a.name(), typ)
	}
	a.fold = at.Flag == FlagI
	a.str = at.Value
	if a.fold {
		a.str = lowerASCII(a.str)
	}
	switch a.op {
	case OpPrefix, OpSuffix, OpSubstring:
		a.never = a.str == ""
	case OpIncludes:
		a.never = a.str == "" || strings.ContainsAny(a.str, " \t\n\r\f")
	}
	return nil
}

// test reports whether the component value at p satisfies the predicate,
// through the reading functions. It is the definition the kernels follow,
// and the kernel of a property that is not a plain field.
func (a *attrPred) test(p unsafe.Pointer) bool {
	switch a.prop.Kind {
	case KindNumber, KindInt:
		v := a.prop.Num(p)
		switch a.op {
		case OpEq:
			return v == a.num
		case OpNe:
			return v != a.num
		case OpLt:
			return v < a.num
		case OpLe:
			return v <= a.num
		case OpGt:
			return v > a.num
		case OpGe:
			return v >= a.num
		}
		return false
	case KindBool:
		return (a.prop.Bool(p) == a.boolv) == (a.op == OpEq)
	}
	if a.never {
		return false
	}
	v := a.prop.Str(p)
	if a.fold {
		v = lowerASCII(v)
	}
	switch a.op {
	case OpEq:
		return v == a.str
	case OpNe:
		return v != a.str
	case OpPrefix:
		return strings.HasPrefix(v, a.str)
	case OpSuffix:
		return strings.HasSuffix(v, a.str)
	case OpSubstring:
		return strings.Contains(v, a.str)
	case OpDashMatch:
		return v == a.str || len(v) > len(a.str) && v[len(a.str)] == '-' && v[:len(a.str)] == a.str
	case OpIncludes:
		for _, f := range strings.Fields(v) {
			if f == a.str {
				return true
			}
		}
	}
	return false
}

// match tests every instance of the component the entity has: one
// satisfying instance is enough.
func (a *attrPred) match(x *exec, e ecs.Entity) bool {
	for _, id := range a.comp.ids {
		if p, err := x.w.GetPtr(e, id); err == nil && a.kern.test(unsafe.Add(p, a.kern.off)) {
			return true
		}
	}
	return false
}

func (a *attrPred) dump(b *strings.Builder) {
	fmt.Fprintf(b, "value(%q %s %s ", a.name(), a.prop.Kind, a.op)
	switch a.prop.Kind {
	case KindNumber, KindInt:
		b.WriteString(strconv.FormatFloat(a.num, 'g', -1, 64))
	case KindBool:
		b.WriteString(strconv.FormatBool(a.boolv))
	default:
		b.WriteString(strconv.Quote(a.str))
		if a.fold {
			b.WriteString(" fold")
		}
		if a.never {
			b.WriteString(" never")
		}
	}
	b.WriteString(")")
}

// lowerASCII folds ASCII letters to lower case, leaving other bytes.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; 'A' <= c && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
