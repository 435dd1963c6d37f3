package yamlsyntax

import (
	"fmt"
	"unicode/utf8"
)

// Scalars: quoted ones, the line of a plain one, and block scalars.

// IsNull reports whether a plain scalar is YAML's null: nothing, ~ or
// null (in three spellings).
func IsNull(s string) bool {
	return s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL"
}

// fold appends what breaks line breaks between two lines of a folded
// scalar stand for: a space for one, a line feed for each further one.
func fold(buf []byte, breaks int) []byte {
	if breaks == 1 {
		return append(buf, ' ')
	}
	for range breaks - 1 {
		buf = append(buf, '\n')
	}
	return buf
}

// breaksAhead skips the line breaks at offset j and the spaces and tabs
// around them, and returns where the next text starts, the number of
// breaks, and the line and line start there. A document marker at the
// start of a line makes the parser give up (ok false).
func (p *parser) breaksAhead(j int) (next, breaks, line, lineStart int, ok bool) {
	line, lineStart = p.line, p.lineStart
	for j < len(p.d) {
		if p.isBreak(j) {
			j += p.breakLen(j)
			breaks++
			line++
			lineStart = j
			if p.docMarker(j) {
				p.unsupported()
				return j, breaks, line, lineStart, false
			}
			continue
		}
		if c := p.d[j]; c == ' ' || c == '\t' {
			j++
			continue
		}
		break
	}
	return j, breaks, line, lineStart, true
}

// plainLine scans the text of a plain scalar on the line from offset i:
// it returns the end of the text (trailing spaces trimmed) and where the
// scan stopped: at a line break, a comment's '#', or a ':' followed by a
// blank (which the caller reports), or in a flow context at a flow
// indicator. A ':' glued to a flow indicator, a tab and, in a flow
// context, '[' or '{' make the parser give up.
func (p *parser) plainLine(i int, flow bool) (end, stop int) {
	j := i
	for j < len(p.d) {
		c := p.d[j]
		if c == '\n' || c == '\r' {
			break
		}
		if c == ':' {
			if p.blankAt(j + 1) {
				break
			}
			if flow && isFlowIndicator(p.at(j+1)) {
				p.unsupported()
				return j, j
			}
		}
		if c == '#' && j > i && p.d[j-1] == ' ' {
			break
		}
		if c == '\t' || flow && c == '?' {
			p.unsupported() // yaml.v3 ends a plain scalar at '?' in a flow collection
			return j, j
		}
		if flow && isFlowIndicator(c) {
			break
		}
		j++
	}
	end = j
	for end > i && p.d[end-1] == ' ' {
		end--
	}
	return end, j
}

// plain parses a plain scalar in a block context, continued over the
// following lines indented more than parent, and moves to the next
// content (as endLine does).
func (p *parser) plain(parent int, inMap bool) *Node {
	start := p.i
	n := p.node(Scalar, start)
	end, stop := p.plainLine(start, false)
	if !p.ok() {
		return nil
	}
	if p.at(stop) == ':' {
		p.fail(stop, "mapping values are not allowed in this context")
		return nil
	}
	last := end // the end of the text on the scalar's last line
	p.i = stop
	for p.at(stop) != '#' && stop < len(p.d) {
		// At a line break: look for a continuation line.
		j, _, line, lineStart, ok := p.plainBreaks(stop)
		if !ok {
			return nil
		}
		if j >= len(p.d) || j-lineStart <= parent || p.d[j] == '#' || j == lineStart && p.docMarker(j) {
			break // the scalar ends; what follows is for the collections
		}
		// A continuation line.
		p.line, p.lineStart, p.i = line, lineStart, j
		e, s := p.plainLine(j, false)
		if !p.ok() {
			return nil
		}
		if p.at(s) == ':' {
			if inMap {
				p.fail(j, fmt.Sprintf("bad indentation of a mapping entry: expected column %d", parent+1))
			} else {
				p.fail(s, "mapping values are not allowed in this context")
			}
			return nil
		}
		last = e
		stop = s
		p.i = s
	}
	if !p.plainValue(n, start, end, last) {
		return nil
	}
	p.i = stop
	p.endLine()
	return n
}

// plainBreaks skips the line breaks and spaces at offset j after a line
// of a plain scalar in a block context, and returns where the next text
// starts, the number of breaks, and the line and line start there. A tab
// makes the parser give up (ok false).
func (p *parser) plainBreaks(j int) (next, breaks, line, lineStart int, ok bool) {
	line = p.line
	for j < len(p.d) {
		switch p.d[j] {
		case '\n', '\r':
			j += p.breakLen(j)
			breaks++
			line++
			lineStart = j
		case ' ':
			j++
		case '\t':
			p.unsupported()
			return j, breaks, line, lineStart, false
		default:
			return j, breaks, line, lineStart, true
		}
	}
	return j, breaks, line, lineStart, true
}

// plainValue sets the value and the end of plain scalar n, which starts
// at offset start, its first line's text ending at end and its last
// line's at last: the text, or, if it went on over several lines, the
// text folded (see foldPlain). A null word is null; "<<", which yaml.v3
// takes for a merge key, makes the parser give up (false).
func (p *parser) plainValue(n *Node, start, end, last int) bool {
	text := p.s[start:end]
	switch {
	case last != end:
		p.buf = p.foldPlain(p.buf[:0], start, last)
		text = string(p.buf)
		p.buf = p.buf[:0]
	case IsNull(text):
		n.Null = true
	case text == "<<":
		p.unsupported()
		return false
	}
	n.Value = text
	p.end(n, last)
	return true
}

// foldPlain appends to buf the text of a plain scalar written over
// several lines in d[start:end] (the first and last bytes are text):
// each line without the spaces and tabs around it, the lines joined as
// fold joins them. A plain scalar holds no comment, and the parser found
// where it ends: this is its one decoding, also for DecodeScalar.
func (p *parser) foldPlain(buf []byte, start, end int) []byte {
	d := p.d
	i := start
	for {
		e := i
		for e < end && d[e] != '\n' && d[e] != '\r' {
			e++
		}
		te := e
		for te > i && (d[te-1] == ' ' || d[te-1] == '\t') {
			te--
		}
		buf = append(buf, d[i:te]...)
		p.rec.copied(len(buf), i)
		if e >= end {
			return buf
		}
		breaks := 0
		j := e
		for j < end && (d[j] == ' ' || d[j] == '\t' || d[j] == '\n' || d[j] == '\r') {
			if d[j] == '\n' {
				breaks++
			}
			j++
		}
		buf = fold(buf, breaks)
		p.rec.note(len(buf), te)
		i = j
	}
}

// flowPlain parses a plain scalar in a flow context, which may go on over
// several lines.
func (p *parser) flowPlain() *Node {
	start := p.i
	n := p.node(Scalar, start)
	end, stop := p.plainLine(start, true)
	if !p.ok() {
		return nil
	}
	last := end
	p.i = stop
	for p.isBreak(stop) && stop < len(p.d) {
		j, _, line, lineStart, ok := p.breaksAhead(stop)
		if !ok {
			return nil
		}
		if j >= len(p.d) || isFlowIndicator(p.d[j]) || p.d[j] == ':' && p.blankAt(j+1) || p.d[j] == '#' || p.d[j] == '?' {
			break // the scalar ends; fspace takes the breaks
		}
		p.line, p.lineStart = line, lineStart
		e, s := p.plainLine(j, true)
		if !p.ok() {
			return nil
		}
		last = e
		stop = s
		p.i = s
	}
	if !p.plainValue(n, start, end, last) {
		return nil
	}
	p.i = stop
	return n
}

// quoted parses a single- or double-quoted scalar at p.i, which may go on
// over several lines (folded as YAML folds them), and moves past it.
func (p *parser) quoted() *Node {
	q := p.d[p.i]
	start := p.i
	n := p.node(Scalar, start)
	n.Exact = true
	// The common case: on one line, without escapes.
	for j := start + 1; j < len(p.d); j++ {
		c := p.d[j]
		if c == q && (q == '"' || p.at(j+1) != '\'') {
			n.Value = p.s[start+1 : j]
			p.i = j + 1
			p.end(n, p.i)
			return n
		}
		if c == '\n' || c == '\r' || c == '\\' && q == '"' || c == '\'' && q == '\'' {
			break
		}
	}
	text, ok := p.decodeQuoted(q, start)
	if !ok {
		return nil
	}
	n.Value = text
	p.end(n, p.i)
	return n
}

// decodeQuoted decodes the quoted scalar that starts at offset start with
// quote q: escapes, doubled single quotes, folded line breaks.
func (p *parser) decodeQuoted(q byte, start int) (string, bool) {
	j := start + 1
	buf := p.buf[:0]
	ws := -1 // start in buf of trailing white space that a line break would drop
	for {
		if j >= len(p.d) {
			p.fail(start, "quoted string is never closed (found unexpected end of stream)")
			return "", false
		}
		c, at := p.d[j], j
		switch {
		case c == q && q == '\'' && p.at(j+1) == '\'':
			buf = append(buf, '\'')
			ws = -1
			j += 2
		case c == q:
			text := string(buf)
			p.buf = buf[:0]
			p.i = j + 1
			return text, true
		case c == '\n' || c == '\r':
			// Fold: drop the white space around the breaks; one break
			// is a space, each further one a line feed.
			if ws >= 0 {
				buf = buf[:ws]
				p.rec.cut(ws)
			}
			next, breaks, line, lineStart, ok := p.breaksAhead(j)
			p.line, p.lineStart = line, lineStart
			if !ok {
				return "", false
			}
			buf = fold(buf, breaks)
			j, ws = next, -1
		case c == '\\' && q == '"':
			var ok bool
			if buf, j, ok = p.escape(buf, j); !ok {
				return "", false
			}
			ws = -1
		case c == ' ' || c == '\t':
			if ws < 0 {
				ws = len(buf)
			}
			buf = append(buf, c)
			j++
		default:
			buf = append(buf, c)
			ws = -1
			j++
		}
		p.rec.note(len(buf), at)
	}
}

// escapes are the escapes of one character after the backslash, and what
// they stand for.
var escapes = map[byte]rune{
	'0': 0, 'a': 7, 'b': 8, 't': 9, '\t': 9, 'n': 10, 'v': 11, 'f': 12, 'r': 13, 'e': 27,
	' ': ' ', '"': '"', '\'': '\'', '\\': '\\', 'N': 0x85, '_': 0xa0, 'L': 0x2028, 'P': 0x2029,
}

// hexEscapes are the escapes of a code point in hexadecimal, and the
// number of their digits.
var hexEscapes = map[byte]int{'x': 2, 'u': 4, 'U': 8}

// escape decodes the escape sequence at offset j (a backslash) of a
// double-quoted scalar, appending it to buf.
func (p *parser) escape(buf []byte, j int) ([]byte, int, bool) {
	if j+1 >= len(p.d) {
		return buf, j + 1, true // the caller reports the unclosed string
	}
	e := p.d[j+1]
	if r, ok := escapes[e]; ok {
		return utf8.AppendRune(buf, r), j + 2, true
	}
	if digits, ok := hexEscapes[e]; ok {
		return p.hexEscape(buf, j, digits)
	}
	if e == '\n' || e == '\r' {
		return p.escapedBreak(buf, j)
	}
	p.fail(j, "found unknown escape character")
	return buf, j, false
}

// hexEscape decodes the escape at offset j of a code point in digits
// hexadecimal digits.
func (p *parser) hexEscape(buf []byte, j, digits int) ([]byte, int, bool) {
	var r rune
	for k := range digits {
		d, ok := hexVal(p.at(j + 2 + k))
		if !ok || j+2+k >= len(p.d) {
			p.fail(j+2+k, "did not find expected hexdecimal number")
			return buf, j, false
		}
		r = r<<4 | d
	}
	if r >= 0xd800 && r <= 0xdfff || r > 0x10ffff {
		p.fail(j, "found invalid Unicode character escape code")
		return buf, j, false
	}
	return utf8.AppendRune(buf, r), j + 2 + digits, true
}

// escapedBreak decodes an escaped line break at offset j: the lines join
// without a space, the next line's leading white space dropped.
func (p *parser) escapedBreak(buf []byte, j int) ([]byte, int, bool) {
	j += 1 + p.breakLen(j+1)
	p.line++
	p.lineStart = j
	for j < len(p.d) {
		if c := p.d[j]; c == ' ' || c == '\t' {
			j++
			continue
		}
		if !p.isBreak(j) {
			break
		}
		buf = append(buf, '\n') // an empty line after it is kept
		j += p.breakLen(j)
		p.line++
		p.lineStart = j
		if p.docMarker(j) {
			p.unsupported()
			return buf, j, false
		}
	}
	return buf, j, true
}

// hexVal returns the value of a hexadecimal digit.
func hexVal(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}
