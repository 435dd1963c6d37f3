package selector

import (
	"strconv"
	"strings"
)

// Default limits used by Parse and by zero fields of Options.
const (
	DefaultMaxLength = 4096 // bytes
	DefaultMaxDepth  = 32   // nested pseudo-class arguments
)

// Options configures [ParseWithOptions]. Zero (or negative) fields take the
// defaults.
type Options struct {
	// MaxLength is the longest accepted selector, in bytes.
	MaxLength int
	// MaxDepth is the deepest accepted nesting of pseudo-class
	// arguments: `:not(.a)` has depth 1, `:is(:not(.a))` depth 2. The
	// "of S" list of :nth-child() counts as an argument.
	MaxDepth int
}

// Parse parses a selector list with the default limits. On failure the
// error is an *Error whose column points into src.
func Parse(src string) (*SelectorList, error) {
	return ParseWithOptions(src, Options{})
}

// MustParse is like Parse but panics on error. It is meant for selectors
// that are constants in Go code.
func MustParse(src string) *SelectorList {
	l, err := Parse(src)
	if err != nil {
		panic(err)
	}
	return l
}

// ParseWithOptions parses a selector list with the given limits. On
// failure the error is an *Error whose column points into src.
func ParseWithOptions(src string, opts Options) (*SelectorList, error) {
	if opts.MaxLength <= 0 {
		opts.MaxLength = DefaultMaxLength
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if len(src) > opts.MaxLength {
		return nil, errorf(opts.MaxLength, "selector too long (%d bytes, max %d)", len(src), opts.MaxLength)
	}
	p := &parser{scanner: scanner{src: src}, maxDepth: opts.MaxDepth}
	p.skipWS()
	if p.peek() < 0 {
		return nil, errorf(0, "empty selector")
	}
	l, err := p.parseList("", false)
	if err != nil {
		return nil, err
	}
	if p.peek() >= 0 {
		return nil, p.unexpected()
	}
	return l, nil
}

// parser is a recursive-descent parser over a scanner.
type parser struct {
	scanner
	maxDepth int
	depth    int  // current pseudo-class argument nesting
	inHas    bool // inside a :has() argument
}

// unexpected reports the character at the current offset.
func (p *parser) unexpected() *Error {
	return errorf(p.off, "unexpected %s", describe(p.src, p.off))
}

// atListEnd reports whether the current byte ends a complex selector.
func (p *parser) atListEnd() bool {
	c := p.peek()
	return c < 0 || c == ',' || c == ')'
}

// parseList parses comma-separated complex selectors, stopping before
// end of input or ')'. fn names the enclosing functional pseudo-class
// ("" at top level); relative selects :has() argument syntax.
func (p *parser) parseList(fn string, relative bool) (*SelectorList, error) {
	p.skipWS()
	l := &SelectorList{Pos: Pos{p.off + 1}}
	for {
		p.skipWS()
		if p.atListEnd() {
			switch {
			case len(l.Selectors) > 0:
				return nil, errorf(p.off, "expected selector after ','")
			case fn != "" && p.peek() != ',':
				return nil, errorf(p.off, "expected selector in \":%s()\"", fn)
			default:
				return nil, p.noCompound()
			}
		}
		c, err := p.parseComplex(relative)
		if err != nil {
			return nil, err
		}
		l.Selectors = append(l.Selectors, c)
		if p.peek() != ',' {
			return l, nil
		}
		p.off++
	}
}

// combinatorAt returns the combinator symbol at the current offset, if
// any (descendant excluded).
func (p *parser) combinatorAt() Combinator {
	switch p.peek() {
	case '>':
		return Child
	case '+':
		return NextSibling
	case '~':
		return SubsequentSibling
	}
	return NoCombinator
}

// parseComplex parses compounds joined by combinators and the whitespace
// after the last one.
func (p *parser) parseComplex(relative bool) (*Complex, error) {
	cx := &Complex{Pos: Pos{p.off + 1}}
	comb := NoCombinator
	if relative {
		comb = Descendant
	}
	if c := p.combinatorAt(); c != NoCombinator {
		if !relative {
			return nil, errorf(p.off, "expected selector before combinator '%s'", c)
		}
		comb = c
		p.off++
		p.skipWS()
	}
	for {
		cp, err := p.parseCompound(comb)
		if err != nil {
			return nil, err
		}
		cx.Compounds = append(cx.Compounds, cp)
		ws := p.skipWS()
		if p.atListEnd() {
			return cx, nil
		}
		if c := p.combinatorAt(); c != NoCombinator {
			p.off++
			p.skipWS()
			if p.atListEnd() || p.combinatorAt() != NoCombinator {
				return nil, errorf(p.off, "expected selector after '%s', found %s", c, describe(p.src, p.off))
			}
			comb = c
			continue
		}
		if !ws {
			return nil, p.unexpected()
		}
		comb = Descendant
	}
}

// parseCompound parses an optional `*` followed by simple selectors.
func (p *parser) parseCompound(comb Combinator) (*Compound, error) {
	cp := &Compound{Pos: Pos{p.off + 1}, Combinator: comb}
	if p.peek() == '*' {
		cp.Universal = true
		p.off++
	}
	for {
		var s Simple
		var err error
		start := p.off
		switch p.peek() {
		case '#':
			p.off++
			name := p.lexName()
			if name == "" {
				return nil, errorf(p.off, "expected id after '#', found %s", describe(p.src, p.off))
			}
			s = &ID{Pos: Pos{start + 1}, Name: name}
		case '.':
			p.off++
			name, ok := p.lexIdent()
			if !ok {
				return nil, errorf(p.off, "expected class name after '.', found %s", describe(p.src, p.off))
			}
			s = &Class{Pos: Pos{start + 1}, Name: name}
		case '[':
			s, err = p.parseAttr()
		case ':':
			s, err = p.parsePseudo()
		default:
			if !cp.Universal && len(cp.Simples) == 0 {
				return nil, p.noCompound()
			}
			return cp, nil
		}
		if err != nil {
			return nil, err
		}
		cp.Simples = append(cp.Simples, s)
	}
}

// noCompound explains why no compound selector starts here.
func (p *parser) noCompound() *Error {
	if p.startsIdent() {
		start := p.off
		name, _ := p.lexIdent()
		e := errorf(start, "unexpected name %q: entities have no type; write [%s] for a component or .%s for a class", name, name, name)
		e.Name = name
		return e
	}
	return errorf(p.off, "expected selector, found %s", describe(p.src, p.off))
}

// attrOps lists the attribute operators, two-byte forms first.
var attrOps = []struct {
	text string
	op   Op
}{
	{"!=", OpNe}, {"~=", OpIncludes}, {"|=", OpDashMatch}, {"^=", OpPrefix},
	{"$=", OpSuffix}, {"*=", OpSubstring}, {"<=", OpLe}, {">=", OpGe},
	{"=", OpEq}, {"<", OpLt}, {">", OpGt},
}

// parseAttr parses `[comp]`, `[comp.prop]` or `[comp(.prop(.axis)?)? OP value flag?]`.
func (p *parser) parseAttr() (*Attr, error) {
	a := &Attr{Pos: Pos{p.off + 1}}
	p.off++ // [
	p.skipWS()
	var ok bool
	if a.Comp, ok = p.lexIdent(); !ok {
		return nil, errorf(p.off, "expected component name after '[', found %s", describe(p.src, p.off))
	}
	if p.peek() == '.' {
		p.off++
		if a.Prop, ok = p.lexIdent(); !ok {
			return nil, errorf(p.off, "expected property name after '.', found %s", describe(p.src, p.off))
		}
		if p.peek() == '.' {
			// comp.prop.axis: an axis of a vector property.
			p.off++
			axis, ok := p.lexIdent()
			if !ok {
				return nil, errorf(p.off, "expected axis name after '.', found %s", describe(p.src, p.off))
			}
			a.Prop += "." + axis
		}
	}
	p.skipWS()
	rest := p.src[p.off:]
	for _, o := range attrOps {
		if strings.HasPrefix(rest, o.text) {
			a.Op = o.op
			p.off += len(o.text)
			break
		}
	}
	if a.Op == OpExists {
		if c := p.peek(); c >= 0 && strings.IndexByte("!~|^$*", byte(c)) >= 0 {
			return nil, errorf(p.off+1, "expected '=' after '%c'", c)
		}
		return a, p.closeAttr()
	}
	p.skipWS()
	valStart := p.off
	switch c := p.peek(); {
	case c == '"' || c == '\'':
		v, err := p.lexString()
		if err != nil {
			return nil, err
		}
		a.Value = v
	case p.startsNumber():
		a.Value = p.lexNumber()
		a.Numeric = true
		if c := p.peek(); isNameChar(c) || c == '\\' {
			p.lexName()
			return nil, errorf(valStart, "invalid number %q", p.src[valStart:p.off])
		}
	case p.startsIdent():
		a.Value, _ = p.lexIdent()
	case c == '#':
		p.off++
		if a.Value = p.lexName(); a.Value == "" {
			return nil, errorf(p.off, "expected id after '#', found %s", describe(p.src, p.off))
		}
		a.Ref = true
	case c == '$':
		p.off++
		var ok bool
		if a.Value, ok = p.lexIdent(); !ok {
			return nil, errorf(p.off, "expected variable name after '$', found %s", describe(p.src, p.off))
		}
		a.Var = true
	default:
		return nil, errorf(p.off, "expected value after '%s', found %s", a.Op, describe(p.src, p.off))
	}
	if (a.Ref || a.Var) && a.Op != OpEq {
		return nil, errorf(valStart, "operator '%s' does not take %s; only '=' does", a.Op, refOrVar(a))
	}
	if a.Op.IsNumeric() && !a.Numeric {
		return nil, errorf(valStart, "expected number after '%s'", a.Op)
	}
	p.skipWS()
	if p.startsIdent() {
		flagStart := p.off
		f, _ := p.lexIdent()
		switch f {
		case "i":
			a.Flag = FlagI
		case "s":
			a.Flag = FlagS
		default:
			return nil, errorf(flagStart, "unknown attribute flag %q (expected i or s)", f)
		}
		if a.Op.IsNumeric() {
			return nil, errorf(flagStart, "flag '%s' not allowed with numeric operator '%s'", f, a.Op)
		}
		if a.Ref || a.Var {
			return nil, errorf(flagStart, "flag '%s' not allowed with %s", f, refOrVar(a))
		}
	}
	return a, p.closeAttr()
}

// refOrVar names the kind of a's value for error messages.
func refOrVar(a *Attr) string {
	if a.Ref {
		return "a reference (#id)"
	}
	return "a variable ($name)"
}

// closeAttr consumes optional whitespace and the closing ']'.
func (p *parser) closeAttr() error {
	p.skipWS()
	if p.peek() != ']' {
		return errorf(p.off, "expected ']' to close attribute selector")
	}
	p.off++
	return nil
}

// parsePseudo parses a pseudo-class, rejecting pseudo-elements and
// unknown names.
func (p *parser) parsePseudo() (*Pseudo, error) {
	start := p.off
	ps := &Pseudo{Pos: Pos{start + 1}}
	p.off++ // :
	if p.peek() == ':' {
		p.off++
		name, _ := p.lexIdent()
		return nil, errorf(start, "pseudo-elements are not supported: \"::%s\"", name)
	}
	name, ok := p.lexIdent()
	if !ok {
		return nil, errorf(p.off, "expected pseudo-class name after ':', found %s", describe(p.src, p.off))
	}
	ps.Name = name
	fn := p.peek() == '('
	switch name {
	case "root", "empty", "first-child", "last-child", "only-child", "scope":
		if fn {
			return nil, errorf(p.off, "pseudo-class \":%s\" takes no arguments", name)
		}
		return ps, nil
	case "not", "is", "where", "has", "nth-child", "nth-last-child", "to", "from":
	default:
		return nil, errorf(start, "unknown pseudo-class \":%s\"", name)
	}
	if !fn {
		return nil, errorf(p.off, "expected '(' after \":%s\"", name)
	}
	p.off++ // (
	var err error
	if strings.HasPrefix(name, "nth-") {
		p.skipWS()
		if ps.Nth, err = p.parseNth(name); err != nil {
			return nil, err
		}
		ws := p.skipWS()
		if p.peek() != ')' && p.peek() >= 0 {
			if !ws || !strings.HasPrefix(p.src[p.off:], "of") || isNameChar(p.peekAt(2)) || p.peekAt(2) == '\\' {
				return nil, errorf(p.off, "expected ')' or \"of\" after An+B in \":%s()\", found %s", name, describe(p.src, p.off))
			}
			p.off += 2
			if ps.List, err = p.parseArgList(start, name, false); err != nil {
				return nil, err
			}
		}
	} else if name == "to" || name == "from" {
		if err = p.parseRel(ps); err != nil {
			return nil, err
		}
		if ps.List, err = p.parseArgList(start, name, false); err != nil {
			return nil, err
		}
	} else {
		if name == "has" && p.inHas {
			return nil, errorf(start, "\":has()\" cannot be nested inside \":has()\"")
		}
		if ps.List, err = p.parseArgList(start, name, name == "has"); err != nil {
			return nil, err
		}
	}
	if p.peek() != ')' {
		return nil, errorf(p.off, "expected ')' to close \":%s(\", found %s", name, describe(p.src, p.off))
	}
	p.off++
	return ps, nil
}

// parseRel parses the relation of :to(REL, list) or :from(REL, list),
// a name or `comp.prop`, and the comma after it.
func (p *parser) parseRel(ps *Pseudo) error {
	p.skipWS()
	ps.RelPos = Pos{p.off + 1}
	comp, ok := p.lexIdent()
	if !ok {
		return errorf(p.off, "expected relation name in \":%s()\", found %s", ps.Name, describe(p.src, p.off))
	}
	ps.Rel = comp
	if p.peek() == '.' {
		p.off++
		prop, ok := p.lexIdent()
		if !ok {
			return errorf(p.off, "expected property name after '.', found %s", describe(p.src, p.off))
		}
		ps.Rel += "." + prop
	}
	p.skipWS()
	if p.peek() != ',' {
		return errorf(p.off, "expected ',' after the relation in \":%s()\", found %s", ps.Name, describe(p.src, p.off))
	}
	p.off++
	return nil
}

// parseArgList parses the selector list argument of the pseudo-class fn
// that starts at offset start, enforcing the nesting limit.
func (p *parser) parseArgList(start int, fn string, relative bool) (*SelectorList, error) {
	if p.depth >= p.maxDepth {
		return nil, errorf(start, "selector nesting too deep (max %d)", p.maxDepth)
	}
	p.depth++
	saved := p.inHas
	p.inHas = p.inHas || relative
	l, err := p.parseList(fn, relative)
	p.inHas = saved
	p.depth--
	return l, err
}

// parseNth parses an An+B expression (CSS Syntax Level 3): `odd`, `even`,
// an integer, or [+-]? digits? n, optionally followed by [+-] digits with
// whitespace allowed around that sign. A leading sign must touch what
// follows it.
func (p *parser) parseNth(fn string) (*Nth, error) {
	start := p.off
	nth := &Nth{Pos: Pos{start + 1}}
	bad := func() (*Nth, error) {
		return nil, errorf(start, "expected An+B in \":%s()\", found %s", fn, describe(p.src, start))
	}
	if p.startsIdent() {
		switch name := p.lexName(); name {
		case "odd":
			nth.A, nth.B = 2, 1
			return nth, nil
		case "even":
			nth.A, nth.B = 2, 0
			return nth, nil
		}
		p.off = start
	}
	sign := 1
	if c := p.peek(); c == '+' || c == '-' {
		if c == '-' {
			sign = -1
		}
		p.off++
	}
	digits := p.digits()
	if p.peek() != 'n' {
		if digits == "" {
			return bad()
		}
		v, err := p.nthInt(start, fn, sign, digits)
		nth.B = v
		return nth, err
	}
	p.off++ // n
	if digits == "" {
		nth.A = sign
	} else {
		v, err := p.nthInt(start, fn, sign, digits)
		if err != nil {
			return nil, err
		}
		nth.A = v
	}
	if (isNameChar(p.peek()) && p.peek() != '-') || p.peek() == '\\' {
		return bad()
	}
	// Optional "+ B" / "- B", whitespace allowed around the sign.
	save := p.off
	p.skipWS()
	c := p.peek()
	if c != '+' && c != '-' {
		p.off = save
		return nth, nil
	}
	p.off++
	p.skipWS()
	bStart := p.off
	digits = p.digits()
	if digits == "" {
		return nil, errorf(bStart, "expected integer after '%c' in \":%s()\", found %s", c, fn, describe(p.src, bStart))
	}
	sign = 1
	if c == '-' {
		sign = -1
	}
	v, err := p.nthInt(bStart, fn, sign, digits)
	nth.B = v
	return nth, err
}

// nthInt converts sign*digits, which must fit in an int32.
func (p *parser) nthInt(off int, fn string, sign int, digits string) (int, error) {
	v, err := strconv.ParseInt(digits, 10, 32)
	if err != nil {
		return 0, errorf(off, "integer out of range in \":%s()\"", fn)
	}
	return sign * int(v), nil
}
