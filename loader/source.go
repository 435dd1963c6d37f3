package loader

import (
	"bytes"
	"unicode/utf8"
)

// source is the text of one scene file, kept by the components read from
// it so that an error inside a value can be placed exactly (see
// valuePos). Its line index is built on first use: only errors need it.
type source struct {
	file string
	data []byte
	yaml bool // YAML: a value position is at its quote or block indicator
	idx  *lineIndex
}

// offset returns the byte offset of p in the source.
func (s *source) offset(p Pos) (int, bool) {
	if s.idx == nil {
		s.idx = newLineIndex(s.file, s.data)
	}
	if p.File != s.file || p.Line < 1 || p.Line > len(s.idx.starts) || p.Col < 1 {
		return 0, false
	}
	off := s.idx.starts[p.Line-1]
	for range p.Col - 1 {
		if off >= len(s.data) {
			return 0, false
		}
		_, n := utf8.DecodeRune(s.data[off:])
		off += n
	}
	return off, true
}

// valuePos returns the position of byte offset off in text, a value
// whose source starts at p, as written in src. The decoded text may
// differ from its source: YAML quotes, escapes ("\t", "\u00e9"), doubled
// single quotes, folded or literal lines with their indentation, and XML
// character and entity references ("&amp;", "&#10;"). The text and the
// source are walked side by side to find where off was written. Without
// a source (a Document built in memory) the text is taken as written.
func valuePos(src *source, p Pos, text string, off int) Pos {
	if src == nil || off <= 0 || off > len(text) {
		return offsetPos(p, text, off)
	}
	start, ok := src.offset(p)
	if !ok {
		return offsetPos(p, text, off)
	}
	raw := src.data[start:]
	var quote byte
	if src.yaml && len(raw) > 0 {
		switch raw[0] {
		case '"', '\'':
			quote = raw[0]
			start++
		case '|', '>':
			// A block scalar starts on the line after its indicator.
			k := bytes.IndexByte(raw, '\n')
			if k < 0 {
				return offsetPos(p, text, off)
			}
			start += k + 1
		}
		raw = src.data[start:]
	}
	return src.idx.pos(start + sourceOffset(raw, text, off, quote, !src.yaml))
}

// sourceOffset maps the byte offset off in text to the offset in raw
// where it was written; quote is the YAML quote the value is written in,
// or 0, and xml says the source is an XML attribute value.
func sourceOffset(raw []byte, text string, off int, quote byte, xml bool) int {
	i, j := 0, 0 // offsets in raw and text
	skipRune := func() {
		_, n := utf8.DecodeRuneInString(text[j:])
		j += n
	}
	for j < off && i < len(raw) {
		r, t := raw[i], text[j]
		switch {
		case quote == '\'' && r == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			i += 2 // '' stands for '
			j++
		case r == t:
			i++
			j++
		case quote == '"' && r == '\\' && i+1 < len(raw):
			switch raw[i+1] {
			case '\n', '\r':
				// An escaped line break joins the lines: nothing decoded.
				i += 2
				for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n') {
					i++
				}
				continue
			case 'x':
				i += 4
			case 'u':
				i += 6
			case 'U':
				i += 10
			default:
				i += 2
			}
			skipRune()
		case xml && r == '&':
			// An XML reference stands for one character.
			k := bytes.IndexByte(raw[i:], ';')
			if k < 0 {
				return i
			}
			i += k + 1
			skipRune()
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			i++ // indentation, or a line break folded into a space
		case t == ' ' || t == '\n':
			j++ // a line break written as such
		default:
			i++
			j++
		}
	}
	return i
}
