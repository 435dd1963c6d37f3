package selector

import (
	"strings"
	"unicode/utf8"
)

// This file holds the character-level scanner. The parser is scannerless
// in the sense that it calls these helpers directly at each point of the
// grammar: selector syntax is context-sensitive (">" is a combinator
// between compounds but an operator inside brackets; An+B has its own
// micro-syntax), so lexing on demand gives simpler code and exact columns.
//
// Character classes follow CSS Syntax Level 3, on bytes: every byte >= 0x80
// counts as a name character, so UTF-8 names pass through unchanged.

// scanner walks src by byte offset.
type scanner struct {
	src string
	off int
}

// peek returns the byte at the current offset, or -1 at end of input.
func (s *scanner) peek() int { return s.peekAt(0) }

// peekAt returns the byte i bytes ahead, or -1 past the end.
func (s *scanner) peekAt(i int) int {
	if s.off+i < len(s.src) {
		return int(s.src[s.off+i])
	}
	return -1
}

// skipWS skips whitespace and reports whether any was skipped.
func (s *scanner) skipWS() bool {
	start := s.off
	for s.off < len(s.src) && isWS(int(s.src[s.off])) {
		s.off++
	}
	return s.off > start
}

func isWS(c int) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isNewline(c int) bool { return c == '\n' || c == '\r' || c == '\f' }

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func isHex(c int) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isNameStart(c int) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80
}

func isNameChar(c int) bool { return isNameStart(c) || isDigit(c) || c == '-' }

// validEscapeAt reports whether a backslash at offset i starts a valid
// escape (a backslash not followed by a newline or end of input).
func (s *scanner) validEscapeAt(i int) bool {
	return s.peekAt(i) == '\\' && s.peekAt(i+1) >= 0 && !isNewline(s.peekAt(i+1))
}

// startsIdent reports whether an identifier starts at the current offset:
// a name-start character or escape, optionally preceded by "-", or "--".
func (s *scanner) startsIdent() bool {
	c := s.peek()
	if c == '-' {
		n := s.peekAt(1)
		return n == '-' || isNameStart(n) || s.validEscapeAt(1)
	}
	return isNameStart(c) || s.validEscapeAt(0)
}

// lexIdent consumes an identifier and returns its unescaped value; ok is
// false (and nothing is consumed) if no identifier starts here.
func (s *scanner) lexIdent() (string, bool) {
	if !s.startsIdent() {
		return "", false
	}
	return s.lexName(), true
}

// lexName consumes a run of name characters and escapes (possibly empty)
// and returns its unescaped value.
func (s *scanner) lexName() string {
	start := s.off
	for s.off < len(s.src) && isNameChar(int(s.src[s.off])) {
		s.off++
	}
	if !s.validEscapeAt(0) {
		return s.src[start:s.off] // fast path: no escapes
	}
	var b strings.Builder
	b.WriteString(s.src[start:s.off])
	for {
		switch c := s.peek(); {
		case isNameChar(c):
			b.WriteByte(byte(c))
			s.off++
		case s.validEscapeAt(0):
			s.off++
			s.lexEscape(&b)
		default:
			return b.String()
		}
	}
}

// lexEscape consumes the escape after a backslash (which must already be
// consumed, and must be valid) and writes the character it denotes: up to
// six hex digits plus one optional whitespace, or any other character
// taken literally. NUL, code point zero, surrogates and values above
// U+10FFFF become U+FFFD, as in CSS.
func (s *scanner) lexEscape(b *strings.Builder) {
	if !isHex(s.peek()) {
		if c := s.src[s.off]; c == 0 {
			b.WriteRune(utf8.RuneError) // NUL is never kept, as in CSS
		} else {
			b.WriteByte(c)
		}
		s.off++
		return
	}
	r := rune(0)
	for i := 0; i < 6 && isHex(s.peek()); i++ {
		r = r*16 + rune(hexVal(s.src[s.off]))
		s.off++
	}
	if s.peek() == '\r' && s.peekAt(1) == '\n' {
		s.off += 2
	} else if isWS(s.peek()) {
		s.off++
	}
	if r == 0 || (r >= 0xD800 && r <= 0xDFFF) || r > utf8.MaxRune {
		r = utf8.RuneError
	}
	b.WriteRune(r)
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	default:
		return int(c-'A') + 10
	}
}

// lexString consumes a quoted string starting at the current offset
// (which must hold ' or ") and returns its unescaped value. A backslash
// before a newline continues the string on the next line.
func (s *scanner) lexString() (string, *Error) {
	start := s.off
	quote := s.src[s.off]
	s.off++
	var b strings.Builder
	for {
		c := s.peek()
		switch {
		case c < 0:
			return "", errorf(start, "unterminated string")
		case c == int(quote):
			s.off++
			return b.String(), nil
		case isNewline(c):
			return "", errorf(s.off, "newline in string")
		case c == '\\':
			n := s.peekAt(1)
			switch {
			case n < 0:
				return "", errorf(start, "unterminated string")
			case n == '\r' && s.peekAt(2) == '\n':
				s.off += 3
			case isNewline(n):
				s.off += 2
			default:
				s.off++
				s.lexEscape(&b)
			}
		case c == 0:
			b.WriteRune(utf8.RuneError) // as CSS preprocessing does
			s.off++
		default:
			b.WriteByte(byte(c))
			s.off++
		}
	}
}

// startsNumber reports whether a number starts at the current offset.
func (s *scanner) startsNumber() bool {
	i := 0
	if c := s.peek(); c == '+' || c == '-' {
		i = 1
	}
	c := s.peekAt(i)
	return isDigit(c) || (c == '.' && isDigit(s.peekAt(i+1)))
}

// lexNumber consumes a number (which startsNumber must have found) and
// returns its source text: [+-]? (digits ("." digits)? | "." digits)
// ([eE] [+-]? digits)?.
func (s *scanner) lexNumber() string {
	start := s.off
	if c := s.peek(); c == '+' || c == '-' {
		s.off++
	}
	s.digits()
	if s.peek() == '.' && isDigit(s.peekAt(1)) {
		s.off++
		s.digits()
	}
	if c := s.peek(); c == 'e' || c == 'E' {
		n := s.peekAt(1)
		if isDigit(n) {
			s.off++
			s.digits()
		} else if (n == '+' || n == '-') && isDigit(s.peekAt(2)) {
			s.off += 2
			s.digits()
		}
	}
	return s.src[start:s.off]
}

// digits consumes a run of ASCII digits and returns it.
func (s *scanner) digits() string {
	start := s.off
	for isDigit(s.peek()) {
		s.off++
	}
	return s.src[start:s.off]
}
