package yamlsyntax

import (
	"strconv"
	"strings"
)

// This file holds what the writers of YAML (dumps, save-back) need to
// know of the syntax to write a scalar that reads back as written.

// Printable reports whether YAML allows r in a scalar as itself (its
// c-printable set, tab and line breaks included).
func Printable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case r < 0x20 || r == 0x7f:
		return false
	case r >= 0x80 && r < 0xa0 && r != 0x85:
		return false
	case r >= 0xd800 && r <= 0xdfff, r == 0xfffe, r == 0xffff:
		return false
	}
	return true
}

// breaksLine reports whether a reader takes r as a line break or a byte
// order mark where it stands: U+0085, U+2028, U+2029 and U+FEFF, which
// writers escape.
func breaksLine(r rune) bool { return r == 0xFEFF || r == 0x85 || r == 0x2028 || r == 0x2029 }

// SingleQuotable reports whether text can be written single-quoted on one
// line: printable characters only, no line break.
func SingleQuotable(text string) bool {
	for _, r := range text {
		if !Printable(r) || r == '\n' || r == '\r' || breaksLine(r) {
			return false
		}
	}
	return true
}

// PlainSafe reports whether each character of text may stand in a plain
// scalar: printable, no tab or line break. (Whether the scalar as a
// whole reads back as text is the writer's rule: indicators, ": ", " #"
// and the words that read as null or booleans.)
func PlainSafe(text string) bool {
	for _, r := range text {
		if !Printable(r) || r == '\t' || r == '\n' || r == '\r' || breaksLine(r) {
			return false
		}
	}
	return true
}

// EscapeDouble writes text for the inside of a double-quoted scalar, as
// typed: only '\\', '"', tab, line breaks and the characters YAML does
// not allow as themselves are escaped ('<', '>' and '&' are not: YAML
// is not HTML). An invalid UTF-8 byte is written as U+FFFD.
func EscapeDouble(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if !Printable(r) || breaksLine(r) {
				h := strconv.FormatInt(int64(r), 16)
				if r > 0xffff {
					b.WriteString(`\U` + strings.Repeat("0", 8-len(h)) + h)
				} else {
					b.WriteString(`\u` + strings.Repeat("0", 4-len(h)) + h)
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
