package selector

import (
	"strconv"
	"strings"
)

// String prints the list in canonical form: members separated by ", ",
// combinators as " ", " > ", " + ", " ~ ", attribute selectors without
// inner spaces, values bare when they are identifiers or numbers and
// double-quoted otherwise, An+B as e.g. "2n+1", and names escaped only
// where needed. Parsing the result yields an equal tree (ignoring
// positions), and printing is idempotent. For hand-built trees the same
// holds as long as names are non-empty and no name or value contains NUL,
// which has no spelling (CSS reads it as U+FFFD; Parse never produces it).
func (l *SelectorList) String() string {
	var b strings.Builder
	writeList(&b, l)
	return b.String()
}

// String prints the complex selector in canonical form (see
// [SelectorList.String]). A relative selector from :has() prints its
// leading combinator, except an implicit descendant one.
func (c *Complex) String() string {
	var b strings.Builder
	writeComplex(&b, c)
	return b.String()
}

// String prints the compound selector in canonical form, without its
// combinator.
func (c *Compound) String() string {
	var b strings.Builder
	writeCompound(&b, c)
	return b.String()
}

// String prints `#id`.
func (s *ID) String() string { return simpleString(s) }

// String prints `.class`.
func (s *Class) String() string { return simpleString(s) }

// String prints the attribute selector, e.g. `[health.hp<-5]`.
func (s *Attr) String() string { return simpleString(s) }

// String prints the pseudo-class with its argument, e.g. `:not(.a)`.
func (s *Pseudo) String() string { return simpleString(s) }

// String prints An+B in canonical form, e.g. "2n+1", "-n+3", "5", "n".
func (n *Nth) String() string {
	var b strings.Builder
	writeNth(&b, n)
	return b.String()
}

func simpleString(s Simple) string {
	var b strings.Builder
	writeSimple(&b, s)
	return b.String()
}

func writeList(b *strings.Builder, l *SelectorList) {
	for i, c := range l.Selectors {
		if i > 0 {
			b.WriteString(", ")
		}
		writeComplex(b, c)
	}
}

func writeComplex(b *strings.Builder, c *Complex) {
	for i, cp := range c.Compounds {
		switch {
		case cp.Combinator == Descendant && i > 0:
			b.WriteByte(' ')
		case cp.Combinator == Child || cp.Combinator == NextSibling || cp.Combinator == SubsequentSibling:
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(cp.Combinator.String())
			b.WriteByte(' ')
		}
		writeCompound(b, cp)
	}
}

func writeCompound(b *strings.Builder, c *Compound) {
	if c.Universal || len(c.Simples) == 0 {
		b.WriteByte('*')
	}
	for _, s := range c.Simples {
		writeSimple(b, s)
	}
}

func writeSimple(b *strings.Builder, s Simple) {
	switch s := s.(type) {
	case *ID:
		b.WriteByte('#')
		writeName(b, s.Name)
	case *Class:
		b.WriteByte('.')
		writeIdent(b, s.Name)
	case *Attr:
		b.WriteByte('[')
		writeIdent(b, s.Comp)
		if s.Prop != "" {
			b.WriteByte('.')
			writeDotted(b, s.Prop)
		}
		if s.Op != OpExists {
			b.WriteString(s.Op.String())
			switch {
			case s.Ref:
				b.WriteByte('#')
				writeName(b, s.Value)
			case s.Var:
				b.WriteByte('$')
				writeIdent(b, s.Value)
			case s.Numeric:
				b.WriteString(s.Value)
			case isPlainIdent(s.Value):
				b.WriteString(s.Value)
			default:
				writeString(b, s.Value)
			}
			if s.Flag != FlagNone {
				b.WriteByte(' ')
				b.WriteString(s.Flag.String())
			}
		}
		b.WriteByte(']')
	case *Pseudo:
		b.WriteByte(':')
		b.WriteString(s.Name)
		if s.Nth == nil && s.List == nil {
			return
		}
		b.WriteByte('(')
		if s.Nth != nil {
			writeNth(b, s.Nth)
			if s.List != nil {
				b.WriteString(" of ")
			}
		}
		if s.Name == "to" || s.Name == "from" {
			writeDotted(b, s.Rel)
			b.WriteString(", ")
		}
		if s.List != nil {
			writeList(b, s.List)
		}
		b.WriteByte(')')
	}
}

// writeDotted writes a name that may hold one dot (prop.axis, comp.prop)
// with its dot; any other dot is escaped (both read back the same).
func writeDotted(b *strings.Builder, s string) {
	if x, y, ok := strings.Cut(s, "."); ok && x != "" && y != "" && !strings.Contains(y, ".") {
		writeIdent(b, x)
		b.WriteByte('.')
		writeIdent(b, y)
	} else {
		writeIdent(b, s)
	}
}

func writeNth(b *strings.Builder, n *Nth) {
	if n.A == 0 {
		b.WriteString(strconv.Itoa(n.B))
		return
	}
	switch n.A {
	case 1:
	case -1:
		b.WriteByte('-')
	default:
		b.WriteString(strconv.Itoa(n.A))
	}
	b.WriteByte('n')
	if n.B > 0 {
		b.WriteByte('+')
	}
	if n.B != 0 {
		b.WriteString(strconv.Itoa(n.B))
	}
}

// isPlainIdent reports whether s lexes as an identifier without escapes.
func isPlainIdent(s string) bool {
	if s == "" {
		return false
	}
	sc := scanner{src: s}
	if !sc.startsIdent() || s[0] == '\\' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isNameChar(int(s[i])) {
			return false
		}
	}
	return true
}

// writeIdent writes s so that it lexes back as one identifier equal to s
// (CSSOM "serialize an identifier", on bytes).
func writeIdent(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		c := int(s[i])
		switch {
		case isDigit(c) && (i == 0 || (i == 1 && s[0] == '-')):
			writeHexEscape(b, c)
		case c == '-' && i == 0 && len(s) == 1:
			b.WriteString(`\-`)
		default:
			writeNameByte(b, c)
		}
	}
}

// writeName writes s so that it lexes back as a name (which, unlike an
// identifier, may start with a digit or "-").
func writeName(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		writeNameByte(b, int(s[i]))
	}
}

func writeNameByte(b *strings.Builder, c int) {
	switch {
	case isNameChar(c):
		b.WriteByte(byte(c))
	case c < 0x20 || c == 0x7f:
		writeHexEscape(b, c)
	default:
		b.WriteByte('\\')
		b.WriteByte(byte(c))
	}
}

// writeString writes s double-quoted, escaping quotes, backslashes and
// control characters.
func writeString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := int(s[i]); {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(c))
		case c < 0x20 || c == 0x7f:
			writeHexEscape(b, c)
		default:
			b.WriteByte(byte(c))
		}
	}
	b.WriteByte('"')
}

// writeHexEscape writes `\HEX ` for c; the space ends the escape.
func writeHexEscape(b *strings.Builder, c int) {
	b.WriteByte('\\')
	b.WriteString(strconv.FormatInt(int64(c), 16))
	b.WriteByte(' ')
}
