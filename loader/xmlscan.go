package loader

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// xmlScanner is the tokenizer of the XML reader: a hand-written
// replacement for encoding/xml's Decoder.RawToken in strict mode, for the
// subset of XML that scenes use, working on the whole input in memory.
//
// It returns the same tokens as RawToken (an empty-element tag is a start
// tag followed by an end tag at the same offset), stops at the same byte
// offsets (InputOffset) and fails with the same messages at the same
// offsets, so that every position the reader reports is unchanged; the
// differential fuzz test FuzzXMLScanner checks this against encoding/xml.
// What it does not do is allocate per token: names, and attribute values
// and text without references or carriage returns, are substrings of one
// string copy of the input, and the attributes of a start tag live in a
// slice that is reused for the next one.
//
// Like encoding/xml it accepts comments, processing instructions (an
// <?xml ...?> declaration must say version 1.0, and an encoding other
// than UTF-8 is refused), CDATA sections and text as tokens, decodes the
// five predefined entities and decimal or hexadecimal character
// references in attribute values and text, turns CR LF and lone CR into
// LF, and checks that attribute values and text are UTF-8 made of XML
// characters. Names follow the XML 1.0 Name production; a name with two
// colons, or with a namespace prefix on an element, is returned as
// encoding/xml would (the reader refuses namespaces). <!...> declarations
// are skipped as encoding/xml skips them, quotes and nested brackets
// included, and returned as a directive token for the reader to refuse.
type xmlScanner struct {
	data []byte
	s    string // data as a string: names and plain values are substrings of it
	p    int    // offset of the next unread byte (encoding/xml's InputOffset)

	err       *xmlScanError // first error; every later call returns it
	needClose bool          // the last start tag was empty: its end tag is next
	closeName string

	tok xmlToken
	buf []byte // scratch for decoded text
}

// xmlKind is the kind of an xmlToken.
type xmlKind uint8

const (
	xmlStart     xmlKind = iota + 1 // start tag: name, attrs
	xmlEnd                          // end tag, or the end of an empty element: name
	xmlText                         // character data or a CDATA section: text
	xmlComment                      // comment: text is its content
	xmlProcInst                     // processing instruction: name is the target, text the rest
	xmlDirective                    // <!DOCTYPE ...> and other declarations
)

// xmlToken is one token. Its fields are valid until the next call of
// next; the strings stay valid.
type xmlToken struct {
	kind  xmlKind
	name  string // qualified name as written, e.g. "entity" or "x:y"
	attrs []xmlRawAttr
	text  string
}

// xmlRawAttr is an attribute of a start tag with the byte offsets of its
// name and of its value (just after the opening quote).
type xmlRawAttr struct {
	name, value     string
	nameOff, valOff int
}

// xmlScanError is a syntax error at a byte offset: the offset where
// encoding/xml stops reading, which is just after the offending byte, or
// before it when encoding/xml has pushed it back.
type xmlScanError struct {
	off int
	msg string
}

func (e *xmlScanError) Error() string { return e.msg }

func newXMLScanner(data []byte) *xmlScanner {
	return &xmlScanner{data: data, s: string(data)}
}

// xmlPrefixed reports whether a qualified name has a namespace prefix, as
// encoding/xml splits names: one colon with text on both sides.
func xmlPrefixed(name string) bool {
	i := strings.IndexByte(name, ':')
	return i > 0 && i < len(name)-1
}

// xmlLocal returns the local part of a qualified name.
func xmlLocal(name string) string {
	if xmlPrefixed(name) {
		return name[strings.IndexByte(name, ':')+1:]
	}
	return name
}

// fail records a syntax error at the current offset.
func (s *xmlScanner) fail(msg string) {
	if s.err == nil {
		s.err = &xmlScanError{off: s.p, msg: msg}
	}
}

// getc reads the next byte; at the end of input it records "unexpected
// EOF" and returns false (encoding/xml's mustgetc).
func (s *xmlScanner) getc() (byte, bool) {
	if s.p >= len(s.data) {
		s.fail("unexpected EOF")
		return 0, false
	}
	b := s.data[s.p]
	s.p++
	return b, true
}

// next reads the next token into s.tok. It returns false at the end of
// input (with a nil s.err) or on a syntax error (s.err).
func (s *xmlScanner) next() bool {
	if s.err != nil {
		return false
	}
	t := &s.tok
	if s.needClose {
		s.needClose = false
		t.kind, t.name, t.attrs, t.text = xmlEnd, s.closeName, t.attrs[:0], ""
		return true
	}
	if s.p >= len(s.data) {
		return false
	}
	if s.data[s.p] != '<' {
		text, ok := s.text(-1, false)
		if !ok {
			return false
		}
		t.kind, t.name, t.attrs, t.text = xmlText, "", t.attrs[:0], text
		return true
	}
	s.p++
	b, ok := s.getc()
	if !ok {
		return false
	}
	switch b {
	case '/':
		name, ok := s.nsname()
		if !ok {
			s.fail("expected element name after </")
			return false
		}
		s.space()
		if b, ok = s.getc(); !ok {
			return false
		}
		if b != '>' {
			s.fail("invalid characters between </" + xmlLocal(name) + " and >")
			return false
		}
		t.kind, t.name, t.attrs, t.text = xmlEnd, name, t.attrs[:0], ""
		return true
	case '?':
		return s.procInst()
	case '!':
		return s.bang()
	}
	s.p-- // the first byte of the name
	name, ok := s.nsname()
	if !ok {
		s.fail("expected element name after <")
		return false
	}
	t.kind, t.name, t.attrs, t.text = xmlStart, name, t.attrs[:0], ""
	for {
		s.space()
		b, ok := s.getc()
		if !ok {
			return false
		}
		if b == '/' {
			if b, ok = s.getc(); !ok {
				return false
			}
			if b != '>' {
				s.fail("expected /> in element")
				return false
			}
			s.needClose, s.closeName = true, name
			return true
		}
		if b == '>' {
			return true
		}
		s.p--
		a := xmlRawAttr{nameOff: s.p}
		if a.name, ok = s.nsname(); !ok {
			s.fail("expected attribute name in element")
			return false
		}
		s.space()
		if b, ok = s.getc(); !ok {
			return false
		}
		if b != '=' {
			s.fail("attribute name without = in element")
			return false
		}
		s.space()
		if b, ok = s.getc(); !ok {
			return false
		}
		if b != '"' && b != '\'' {
			s.fail("unquoted or missing attribute value in element")
			return false
		}
		a.valOff = s.p
		if a.value, ok = s.text(int(b), false); !ok {
			return false
		}
		t.attrs = append(t.attrs, a)
	}
}

// procInst reads a processing instruction after "<?".
func (s *xmlScanner) procInst() bool {
	target, ok := s.name()
	if !ok {
		s.fail("expected target name after <?")
		return false
	}
	s.space()
	start := s.p
	var b0 byte
	for {
		b, ok := s.getc()
		if !ok {
			return false
		}
		if b0 == '?' && b == '>' {
			break
		}
		b0 = b
	}
	content := s.s[start : s.p-2]
	if target == "xml" {
		if ver := procInst("version", content); ver != "" && ver != "1.0" {
			s.fail(fmt.Sprintf("xml: unsupported version %q; only version 1.0 is supported", ver))
			return false
		}
		if enc := procInst("encoding", content); enc != "" && !strings.EqualFold(enc, "utf-8") {
			s.fail(fmt.Sprintf("xml: opening charset %q: encoding %q not supported (scenes must be UTF-8)", enc, enc))
			return false
		}
	}
	t := &s.tok
	t.kind, t.name, t.attrs, t.text = xmlProcInst, target, t.attrs[:0], content
	return true
}

// procInst returns the value of pseudo-attribute param in the content of
// an <?xml ...?> declaration, exactly as encoding/xml finds it.
func procInst(param, s string) string {
	param = param + "="
	lenp := len(param)
	i := 0
	var sep byte
	for i < len(s) {
		sub := s[i:]
		k := strings.Index(sub, param)
		if k < 0 || lenp+k >= len(sub) {
			return ""
		}
		i += lenp + k + 1
		if c := sub[lenp+k]; c == '\'' || c == '"' {
			sep = c
			break
		}
	}
	if sep == 0 {
		return ""
	}
	j := strings.IndexByte(s[i:], sep)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// bang reads a comment, a CDATA section or a declaration after "<!".
func (s *xmlScanner) bang() bool {
	t := &s.tok
	b, ok := s.getc()
	if !ok {
		return false
	}
	switch b {
	case '-':
		if b, ok = s.getc(); !ok {
			return false
		}
		if b != '-' {
			s.fail("invalid sequence <!- not part of <!--")
			return false
		}
		start := s.p
		var b0, b1 byte
		for {
			if b, ok = s.getc(); !ok {
				return false
			}
			if b0 == '-' && b1 == '-' {
				if b != '>' {
					s.fail(`invalid sequence "--" not allowed in comments`)
					return false
				}
				break
			}
			b0, b1 = b1, b
		}
		t.kind, t.name, t.attrs, t.text = xmlComment, "", t.attrs[:0], s.s[start:s.p-3]
		return true
	case '[':
		for i := range 6 {
			if b, ok = s.getc(); !ok {
				return false
			}
			if b != "CDATA["[i] {
				s.fail("invalid <![ sequence")
				return false
			}
		}
		text, ok := s.text(-1, true)
		if !ok {
			return false
		}
		t.kind, t.name, t.attrs, t.text = xmlText, "", t.attrs[:0], text
		return true
	}
	// A declaration: skip to its closing '>', as encoding/xml does:
	// quoted '>' and '<' do not count, nested <...> and <!--...--> do.
	// The first byte is taken as it is.
	var inquote byte
	depth := 0
	for {
		if b, ok = s.getc(); !ok {
			return false
		}
		if inquote == 0 && b == '>' && depth == 0 {
			break
		}
	handle:
		switch {
		case b == inquote:
			inquote = 0
		case inquote != 0:
		case b == '\'' || b == '"':
			inquote = b
		case b == '>':
			depth--
		case b == '<':
			for i := range 3 {
				if b, ok = s.getc(); !ok {
					return false
				}
				if b != "!--"[i] {
					depth++
					goto handle
				}
			}
			var b0, b1 byte
			for {
				if b, ok = s.getc(); !ok {
					return false
				}
				if b0 == '-' && b1 == '-' && b == '>' {
					break
				}
				b0, b1 = b1, b
			}
		}
	}
	t.kind, t.name, t.attrs, t.text = xmlDirective, "", t.attrs[:0], ""
	return true
}

// space skips white space.
func (s *xmlScanner) space() {
	for s.p < len(s.data) {
		switch s.data[s.p] {
		case ' ', '\r', '\n', '\t':
			s.p++
		default:
			return
		}
	}
}

// nsname reads a qualified name. It returns false without an error when
// there is no name or when it has more than one colon (the caller
// reports that, at the current offset), and with an error for an invalid
// name or at the end of input.
func (s *xmlScanner) nsname() (string, bool) {
	name, ok := s.name()
	if !ok || strings.Count(name, ":") > 1 {
		return "", false
	}
	return name, true
}

// name reads a name: the bytes up to the first ASCII byte that cannot be
// part of a name, checked against the XML Name production. It returns
// false without an error when there is no name.
func (s *xmlScanner) name() (string, bool) {
	start := s.p
	if !s.readName() {
		return "", false
	}
	if !isXMLName(s.data[start:s.p]) {
		s.fail("invalid XML name: " + s.s[start:s.p])
		return "", false
	}
	return s.s[start:s.p], true
}

// readName skips the bytes of a name (encoding/xml's readName: every
// non-ASCII byte is taken, to be checked later). It returns false when
// the next byte cannot start a name, or at the end of input (an error).
func (s *xmlScanner) readName() bool {
	b, ok := s.getc()
	if !ok {
		return false
	}
	if b < utf8.RuneSelf && !isXMLNameByte(b) {
		s.p--
		return false
	}
	for {
		if b, ok = s.getc(); !ok {
			return false
		}
		if b < utf8.RuneSelf && !isXMLNameByte(b) {
			s.p--
			return true
		}
	}
}

func isXMLNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}

// isXMLName reports whether b, made of name bytes and non-ASCII bytes, is
// a Name. ASCII names are checked here; a name with other characters is
// checked by encoding/xml itself (through its Encoder, which validates a
// processing instruction's target with the same tables as the Decoder),
// so that the same non-ASCII letters are allowed.
func isXMLName(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		c := b[0]
		return !('0' <= c && c <= '9' || c == '.' || c == '-')
	}
	if !utf8.Valid(b) {
		return false
	}
	target := string(b)
	if target == "xml" {
		return true
	}
	return xml.NewEncoder(io.Discard).EncodeToken(xml.ProcInst{Target: target}) == nil
}

// text reads character data up to the next '<' (quote < 0), a CDATA
// section's content up to "]]>" (cdata), or an attribute value up to the
// closing quote (quote >= 0), like encoding/xml's Decoder.text: entity and
// character references are decoded outside CDATA, CR LF and lone CR
// become LF, and the result must be UTF-8 made of XML characters.
func (s *xmlScanner) text(quote int, cdata bool) (string, bool) {
	start := s.p
	if !cdata {
		// Fast path: no reference, no CR, and for character data no "]]>".
		i := start
		for i < len(s.data) {
			c := s.data[i]
			if c == '&' || c == '\r' || c == '<' || quote >= 0 && c == byte(quote) || quote < 0 && c == ']' {
				break
			}
			i++
		}
		switch {
		case quote >= 0 && i < len(s.data) && s.data[i] == byte(quote):
			s.p = i + 1
			if !s.checkChars(s.data[start:i]) {
				return "", false
			}
			return s.s[start:i], true
		case quote < 0 && (i == len(s.data) || s.data[i] == '<'):
			s.p = i
			if !s.checkChars(s.data[start:i]) {
				return "", false
			}
			return s.s[start:i], true
		}
	}
	buf := s.buf[:0]
	defer func() { s.buf = buf[:0] }()
	var b0, b1 byte
	trunc := 0
	for {
		if s.p >= len(s.data) {
			if cdata {
				s.fail("unexpected EOF in CDATA section")
				return "", false
			}
			break
		}
		b := s.data[s.p]
		s.p++
		if quote < 0 && b0 == ']' && b1 == ']' && b == '>' {
			if cdata {
				trunc = 2
				break
			}
			s.fail("unescaped ]]> not in CDATA section")
			return "", false
		}
		if b == '<' && !cdata {
			if quote >= 0 {
				s.fail("unescaped < inside quoted string")
				return "", false
			}
			s.p--
			break
		}
		if quote >= 0 && b == byte(quote) {
			break
		}
		if b == '&' && !cdata {
			var ok bool
			if buf, ok = s.reference(buf); !ok {
				return "", false
			}
			b0, b1 = 0, 0
			continue
		}
		switch {
		case b == '\r':
			buf = append(buf, '\n')
		case b1 == '\r' && b == '\n':
			// CR LF: the LF is already written
		default:
			buf = append(buf, b)
		}
		b0, b1 = b1, b
	}
	out := buf[:len(buf)-trunc]
	if !s.checkChars(out) {
		return "", false
	}
	return string(out), true
}

// reference decodes the reference after '&' (already read), appending
// its text to buf. Anything but one of the five predefined entities or a
// character reference of a code point is an error, as in encoding/xml's
// strict mode.
func (s *xmlScanner) reference(buf []byte) ([]byte, bool) {
	before := len(buf)
	buf = append(buf, '&')
	b, ok := s.getc()
	if !ok {
		return buf, false
	}
	var r rune = -1
	if b == '#' {
		buf = append(buf, b)
		if b, ok = s.getc(); !ok {
			return buf, false
		}
		base := 10
		if b == 'x' {
			base = 16
			buf = append(buf, b)
			if b, ok = s.getc(); !ok {
				return buf, false
			}
		}
		digits := len(buf)
		for '0' <= b && b <= '9' || base == 16 && ('a' <= b && b <= 'f' || 'A' <= b && b <= 'F') {
			buf = append(buf, b)
			if b, ok = s.getc(); !ok {
				return buf, false
			}
		}
		if b != ';' {
			s.p--
		} else {
			n, err := strconv.ParseUint(string(buf[digits:]), base, 64)
			buf = append(buf, ';')
			if err == nil && n <= unicode.MaxRune {
				r = rune(n)
			}
		}
	} else {
		s.p--
		nameStart := s.p
		if !s.readName() && s.err != nil {
			return buf, false
		}
		buf = append(buf, s.data[nameStart:s.p]...)
		if b, ok = s.getc(); !ok {
			return buf, false
		}
		if b != ';' {
			s.p--
		} else {
			switch string(buf[before+1:]) {
			case "lt":
				r = '<'
			case "gt":
				r = '>'
			case "amp":
				r = '&'
			case "apos":
				r = '\''
			case "quot":
				r = '"'
			}
			buf = append(buf, ';')
		}
	}
	if r >= 0 {
		return utf8.AppendRune(buf[:before], r), true
	}
	ent := string(buf[before:])
	if ent[len(ent)-1] != ';' {
		ent += " (no semicolon)"
	}
	s.fail("invalid character entity " + ent)
	return buf, false
}

// checkChars checks that decoded text is UTF-8 made of characters that
// XML allows, reporting the first offender as encoding/xml does.
func (s *xmlScanner) checkChars(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < utf8.RuneSelf || c == '\n' || c == '\t' || c == '\r' {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			s.fail("invalid UTF-8")
			return false
		}
		if !isInCharacterRange(r) {
			s.fail(fmt.Sprintf("illegal character code %U", r))
			return false
		}
		i += size
	}
	return true
}

// isInCharacterRange reports whether r is a Char of XML 1.0.
func isInCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
