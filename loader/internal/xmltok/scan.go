// Package xmltok reads the tokens of XML scene files: a hand-written
// replacement for encoding/xml's Decoder.RawToken in strict mode, for the
// subset of XML that scenes use, working on the whole input in memory. It
// knows XML, not scenes: what the elements mean is the loader's business.
//
// A [Scanner] returns the same tokens as RawToken (an empty-element tag
// is a start tag followed by an end tag at the same offset), stops at the
// same byte offsets (InputOffset) and fails with the same messages at the
// same offsets, so that every position the loader reports is exact; the
// differential fuzz test FuzzScanner checks this against encoding/xml.
// What it does not do is allocate per token: names, and attribute values
// and text without references or carriage returns, are substrings of one
// string copy of the input, and the attributes of a start tag live in a
// slice that is reused for the next one (encoding/xml copies every name
// and value through a bytes.Buffer; BenchmarkScanner measures both on the
// same input: see docs/architecture.md for the figures).
//
// Like encoding/xml it accepts comments, processing instructions (an
// <?xml ...?> declaration must say version 1.0, and an encoding other
// than UTF-8 is refused), CDATA sections and text as tokens, decodes the
// five predefined entities and decimal or hexadecimal character
// references in attribute values and text, turns CR LF and lone CR into
// LF, and checks that attribute values and text are UTF-8 made of XML
// characters. Names follow the XML 1.0 Name production; a name with two
// colons, or with a namespace prefix on an element, is returned as
// encoding/xml would (the loader refuses namespaces). <!...> declarations
// are skipped as encoding/xml skips them, quotes and nested brackets
// included, and returned as a Directive token for the loader to refuse.
package xmltok

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Scanner reads the tokens of an XML document held in memory; see the
// package comment.
type Scanner struct {
	data  []byte
	s     string // data as a string: names and plain values are substrings of it
	p     int    // offset of the next unread byte (encoding/xml's InputOffset)
	start int    // offset where the current token starts

	err       *Error // first error; every later call returns it
	needClose bool   // the last start tag was empty: its end tag is next
	closeName string

	tok Token
	buf []byte   // scratch for decoded text
	rec recorder // DecodeValue: where each byte of the value was written
}

// Kind is the kind of a Token.
type Kind uint8

// The kinds of tokens.
const (
	Start     Kind = iota + 1 // start tag: Name, Attrs
	End                       // end tag, or the end of an empty element: Name
	Text                      // character data or a CDATA section: Text
	Comment                   // comment: Text is its content
	ProcInst                  // processing instruction: Name is the target, Text the rest
	Directive                 // <!DOCTYPE ...> and other declarations (content skipped)
)

// Token is one token. Its fields are valid until the next call of
// [Scanner.Next]; the strings stay valid.
type Token struct {
	Kind  Kind
	Name  string // qualified name as written, e.g. "entity" or "x:y"
	Attrs []Attr
	Text  string
}

// Attr is an attribute of a start tag with the byte offsets of its name
// and of its value: the value as written is data[ValOff:ValEnd], between
// its quotes (ValEnd is the closing quote), and [DecodeValue] tells where
// each byte of Value was written in it.
type Attr struct {
	Name, Value             string
	NameOff, ValOff, ValEnd int
}

// Error is a syntax error. Off is the byte offset where encoding/xml
// stops reading, which is just after the offending byte, or before it
// when encoding/xml has pushed it back; At is the offset of the offending
// byte itself, for messages (they differ for text that is not UTF-8 or
// holds a character XML does not allow, which encoding/xml reports after
// the text).
type Error struct {
	Off, At int
	Msg     string
}

func (e *Error) Error() string { return e.Msg }

// NewScanner returns a scanner of data that starts at byte offset off
// (after a byte order mark, say: encoding/xml reads one as text).
func NewScanner(data []byte, off int) *Scanner {
	return &Scanner{data: data, s: string(data), p: off}
}

// Offset returns the offset of the next unread byte: after Next, the end
// of the token read (encoding/xml's InputOffset).
func (s *Scanner) Offset() int { return s.p }

// Token returns the token the last Next read.
func (s *Scanner) Token() *Token { return &s.tok }

// Err returns the syntax error that stopped the scanner, or nil.
func (s *Scanner) Err() *Error { return s.err }

// Prefixed reports whether a qualified name has a namespace prefix, as
// encoding/xml splits names: one colon with text on both sides.
func Prefixed(name string) bool {
	i := strings.IndexByte(name, ':')
	return i > 0 && i < len(name)-1
}

// Local returns the local part of a qualified name.
func Local(name string) string {
	if Prefixed(name) {
		return name[strings.IndexByte(name, ':')+1:]
	}
	return name
}

// fail records a syntax error at the current offset.
func (s *Scanner) fail(msg string) {
	if s.err == nil {
		s.err = &Error{Off: s.p, At: s.p, Msg: msg}
	}
}

// failChar records an error in the text of the current token: a byte
// that is not UTF-8, or a character that XML does not allow.
func (s *Scanner) failChar(msg string) {
	if s.err == nil {
		s.err = &Error{Off: s.p, At: s.start + firstBadChar(s.data[s.start:s.p]), Msg: msg}
	}
}

// firstBadChar returns the offset in b of the first byte that is not
// UTF-8 or not an XML character, or len(b) (the character came from a
// reference, say).
func firstBadChar(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !IsChar(r) {
			return i
		}
		i += n
	}
	return len(b)
}

// getc reads the next byte; at the end of input it records "unexpected
// EOF" and returns false (encoding/xml's mustgetc).
func (s *Scanner) getc() (byte, bool) {
	if s.p >= len(s.data) {
		s.fail("unexpected EOF")
		return 0, false
	}
	b := s.data[s.p]
	s.p++
	return b, true
}

// set makes the current token one of kind k with name and text, without
// attributes.
func (s *Scanner) set(k Kind, name, text string) {
	t := &s.tok
	t.Kind, t.Name, t.Attrs, t.Text = k, name, t.Attrs[:0], text
}

// Next reads the next token (see Token). It returns false at the end of
// input (with a nil Err) or on a syntax error (Err).
func (s *Scanner) Next() bool {
	if s.err != nil {
		return false
	}
	s.start = s.p
	if s.needClose {
		s.needClose = false
		s.set(End, s.closeName, "")
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
		s.set(Text, "", text)
		return true
	}
	s.p++
	b, ok := s.getc()
	if !ok {
		return false
	}
	switch b {
	case '/':
		return s.endTag()
	case '?':
		return s.procInst()
	case '!':
		return s.bang()
	}
	s.p-- // the first byte of the name
	return s.startTag()
}

// endTag reads an end tag after "</".
func (s *Scanner) endTag() bool {
	name, ok := s.nsname()
	if !ok {
		s.fail("expected element name after </")
		return false
	}
	s.space()
	b, ok := s.getc()
	if !ok {
		return false
	}
	if b != '>' {
		s.fail("invalid characters between </" + Local(name) + " and >")
		return false
	}
	s.set(End, name, "")
	return true
}

// startTag reads a start tag after "<", up to its '>' or "/>".
func (s *Scanner) startTag() bool {
	name, ok := s.nsname()
	if !ok {
		s.fail("expected element name after <")
		return false
	}
	s.set(Start, name, "")
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
		if !s.attr() {
			return false
		}
	}
}

// attr reads one attribute of a start tag: name="value" or name='value'.
func (s *Scanner) attr() bool {
	a := Attr{NameOff: s.p}
	var ok bool
	if a.Name, ok = s.nsname(); !ok {
		s.fail("expected attribute name in element")
		return false
	}
	s.space()
	b, ok := s.getc()
	if !ok {
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
	a.ValOff = s.p
	if a.Value, ok = s.text(int(b), false); !ok {
		return false
	}
	a.ValEnd = s.p - 1
	t := &s.tok
	t.Attrs = append(t.Attrs, a)
	return true
}

// procInst reads a processing instruction after "<?".
func (s *Scanner) procInst() bool {
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
	s.set(ProcInst, target, content)
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
func (s *Scanner) bang() bool {
	b, ok := s.getc()
	if !ok {
		return false
	}
	switch b {
	case '-':
		return s.comment()
	case '[':
		return s.cdata()
	}
	return s.directive()
}

// comment reads a comment after "<!-".
func (s *Scanner) comment() bool {
	b, ok := s.getc()
	if !ok {
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
	s.set(Comment, "", s.s[start:s.p-3])
	return true
}

// cdata reads a CDATA section after "<![".
func (s *Scanner) cdata() bool {
	for i := range 6 {
		b, ok := s.getc()
		if !ok {
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
	s.set(Text, "", text)
	return true
}

// directive skips a declaration (<!DOCTYPE ...>, say) to its closing '>',
// as encoding/xml does: quoted '>' and '<' do not count, nested <...> and
// <!--...--> do. The byte after "<!" is taken as it is.
func (s *Scanner) directive() bool {
	var inquote byte
	depth := 0
	for {
		b, ok := s.getc()
		if !ok {
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
			// "<!--" starts a comment, anything else a nested <...>
			// whose first bytes are handled as they come.
			for i := range 3 {
				if b, ok = s.getc(); !ok {
					return false
				}
				if b != "!--"[i] {
					depth++
					goto handle
				}
			}
			if !s.skipComment() {
				return false
			}
		}
	}
	s.set(Directive, "", "")
	return true
}

// skipComment skips the rest of a comment inside a declaration, up to and
// including its "-->".
func (s *Scanner) skipComment() bool {
	var b0, b1 byte
	for {
		b, ok := s.getc()
		if !ok {
			return false
		}
		if b0 == '-' && b1 == '-' && b == '>' {
			return true
		}
		b0, b1 = b1, b
	}
}

// space skips white space.
func (s *Scanner) space() {
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
func (s *Scanner) nsname() (string, bool) {
	name, ok := s.name()
	if !ok || strings.Count(name, ":") > 1 {
		return "", false
	}
	return name, true
}

// name reads a name: the bytes up to the first ASCII byte that cannot be
// part of a name, checked against the XML Name production. It returns
// false without an error when there is no name.
func (s *Scanner) name() (string, bool) {
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
func (s *Scanner) readName() bool {
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
func (s *Scanner) text(quote int, cdata bool) (string, bool) {
	if !cdata {
		if text, ok, done := s.plainText(quote); done {
			return text, ok
		}
	}
	return s.decodeText(quote, cdata)
}

// plainText reads text that needs no decoding, as a substring of the
// input: no reference, no CR and, in character data, no "]]>". It
// returns done false, having read nothing, for text that does.
func (s *Scanner) plainText(quote int) (text string, ok, done bool) {
	start := s.p
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
	case quote < 0 && (i == len(s.data) || s.data[i] == '<'):
		s.p = i
	default:
		return "", false, false
	}
	if !s.checkChars(s.data[start:i]) {
		return "", false, true
	}
	return s.s[start:i], true, true
}

// decodeText is text for text that needs decoding, byte by byte.
func (s *Scanner) decodeText(quote int, cdata bool) (string, bool) {
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
		b, at := s.data[s.p], s.p
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
			s.rec.note(len(buf), at)
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
		s.rec.note(len(buf), at)
		b0, b1 = b1, b
	}
	out := buf[:len(buf)-trunc]
	if !s.checkChars(out) {
		return "", false
	}
	return string(out), true
}

// predefined are the entities XML predefines.
var predefined = map[string]rune{"lt": '<', "gt": '>', "amp": '&', "apos": '\'', "quot": '"'}

// reference decodes the reference after '&' (already read), appending
// its text to buf. Anything but one of the five predefined entities or a
// character reference of a code point is an error, as in encoding/xml's
// strict mode, whose message shows the reference as far as it was read.
func (s *Scanner) reference(buf []byte) ([]byte, bool) {
	before := len(buf)
	buf = append(buf, '&')
	b, ok := s.getc()
	if !ok {
		return buf, false
	}
	var r rune
	if b == '#' {
		buf, r, ok = s.charRef(buf)
	} else {
		s.p--
		buf, r, ok = s.entityRef(buf, before)
	}
	if !ok {
		return buf, false
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

// charRef reads a character reference after "&#", appending what it read
// to buf, and returns its code point, or -1 if it is not one.
func (s *Scanner) charRef(buf []byte) ([]byte, rune, bool) {
	buf = append(buf, '#')
	b, ok := s.getc()
	if !ok {
		return buf, 0, false
	}
	base := 10
	if b == 'x' {
		base = 16
		buf = append(buf, b)
		if b, ok = s.getc(); !ok {
			return buf, 0, false
		}
	}
	digits := len(buf)
	for '0' <= b && b <= '9' || base == 16 && ('a' <= b && b <= 'f' || 'A' <= b && b <= 'F') {
		buf = append(buf, b)
		if b, ok = s.getc(); !ok {
			return buf, 0, false
		}
	}
	if b != ';' {
		s.p--
		return buf, -1, true
	}
	n, err := strconv.ParseUint(string(buf[digits:]), base, 64)
	buf = append(buf, ';')
	if err != nil || n > unicode.MaxRune {
		return buf, -1, true
	}
	return buf, rune(n), true
}

// entityRef reads an entity reference after '&', appending what it read
// to buf (whose reference starts at offset before), and returns the
// entity's character, or -1 if it is not a predefined entity.
func (s *Scanner) entityRef(buf []byte, before int) ([]byte, rune, bool) {
	nameStart := s.p
	if !s.readName() && s.err != nil {
		return buf, 0, false
	}
	buf = append(buf, s.data[nameStart:s.p]...)
	b, ok := s.getc()
	if !ok {
		return buf, 0, false
	}
	if b != ';' {
		s.p--
		return buf, -1, true
	}
	r, ok := predefined[string(buf[before+1:])]
	buf = append(buf, ';')
	if !ok {
		return buf, -1, true
	}
	return buf, r, true
}

// checkChars checks that decoded text is UTF-8 made of characters that
// XML allows, reporting the first offender as encoding/xml does.
func (s *Scanner) checkChars(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < utf8.RuneSelf || c == '\n' || c == '\t' || c == '\r' {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			s.failChar("invalid UTF-8")
			return false
		}
		if !IsChar(r) {
			s.failChar(fmt.Sprintf("illegal character code %U", r))
			return false
		}
		i += size
	}
	return true
}

// IsChar reports whether r is a Char of XML 1.0.
func IsChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
