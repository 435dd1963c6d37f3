// Package jsonsyntax parses JSON into the light syntax trees of package
// yamlsyntax (JSON is YAML's subset, and the loader reads the values of a
// JSON dump as it reads YAML's), with 1-based lines and character columns
// and byte spans on every node ([DecodeString] tells where each byte of
// a string was written). It knows JSON, not scenes: what the keys mean
// is the loader's business.
//
// It is hand-written because encoding/json gives no positions, and because
// with a [yamlsyntax.Sink] it hands the pairs of the root object, and the
// items of an array such as a dump's entities, to the reader one at a time,
// reusing the memory of each item's tree for the next, so that memory stays
// proportional to what the reader builds. It accepts what encoding/json
// accepts, decodes strings as it does (an unpaired surrogate becomes
// U+FFFD) and refuses what it refuses with the same messages, with three
// differences: a string that is not UTF-8 is refused (encoding/json
// replaces the bytes), nesting is bounded by [MaxNesting], and input
// that ends too soon is said to (where encoding/json sometimes blames an
// invalid ' '). FuzzParse checks this against encoding/json;
// BenchmarkParse measures both on the same input.
package jsonsyntax

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader/internal/textpos"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// MaxNesting bounds the nesting of arrays and objects (a dump needs five
// levels).
const MaxNesting = 1000

// Error is a syntax error at byte offset Off. Msg is encoding/json's
// message without its "invalid character" context where that has none.
type Error struct {
	Off int
	Msg string
}

func (e *Error) Error() string { return e.Msg }

type parser struct {
	data  []byte
	s     string // data as a string: strings without escapes are substrings of it
	i     int    // offset of the next byte to read
	line  int    // line of offset i, 1-based
	lineI int    // offset of the start of that line
	cols  textpos.Columns
	depth int
	nodes yamlsyntax.Arena
	err   *Error // the syntax error, which ends the parse
	sink  yamlsyntax.Sink
	rec   recorder // DecodeString: where each byte of the string was written
}

// Parse parses data, one JSON value (after a byte order mark, if any).
// With a sink and an object at the root, the root's pairs go to the sink
// (see [yamlsyntax.Sink]) and the returned root has no content; otherwise
// the root holds the whole tree. A syntax error returns a nil tree.
// Every node has its byte span (yamlsyntax.Node's Off and End): a
// string with its quotes, an object or array with its brackets.
func Parse(data []byte, sink yamlsyntax.Sink) (*yamlsyntax.Node, *Error) {
	if len(data) > math.MaxInt32 {
		return nil, &Error{Msg: "input too large (spans are 32-bit offsets)"}
	}
	p := &parser{data: data, s: string(data), line: 1, sink: sink}
	p.i = textpos.BOMLen(data)
	p.lineI = p.i
	p.cols.SetText(data, false)
	p.space()
	var root *yamlsyntax.Node
	if sink != nil && p.peek() == '{' {
		root = p.node(yamlsyntax.Mapping, p.i)
		p.object(p.streamPair)
		root.End = int32(p.i)
	} else {
		root = p.value()
	}
	if p.err == nil {
		p.space()
		if p.i < len(p.data) {
			p.failChar("after top-level value")
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return root, nil
}

// streamPair hands one pair of the root object to the sink: the value of
// a key whose items the sink wants, if it is an array, item by item.
func (p *parser) streamPair(k *yamlsyntax.Node) bool {
	keep, items := p.sink.Key(k)
	if keep && items && p.peek() == '[' {
		p.items(p.sink.Item)
		return p.err == nil
	}
	m := p.nodes.Mark()
	v := p.value()
	if p.err != nil {
		return false
	}
	if keep {
		p.sink.Pair(k, v)
	}
	p.nodes.Reset(m)
	return true
}

// items reads the array at p.i, handing each item to item and forgetting it.
func (p *parser) items(item func(*yamlsyntax.Node)) {
	p.i++ // '['
	p.depth++
	defer func() { p.depth-- }()
	p.space()
	if p.peek() == ']' {
		p.i++
		return
	}
	for p.err == nil {
		m := p.nodes.Mark()
		it := p.value()
		if p.err != nil {
			return
		}
		item(it)
		p.nodes.Reset(m)
		if p.endItem() {
			return
		}
	}
}

// endItem reads what follows an array item: ',' (false) or ']' (true);
// anything else is an error (true).
func (p *parser) endItem() bool {
	p.space()
	switch p.peek() {
	case ',':
		p.i++
		return false
	case ']':
		p.i++
		return true
	}
	p.failChar("after array element")
	return true
}

// fail records the syntax error at offset off and stops the parse.
func (p *parser) fail(off int, msg string) {
	if p.err == nil {
		p.err = &Error{Off: off, Msg: msg}
	}
	p.i = len(p.data)
}

// failChar reports the character at p.i as unexpected (or the end).
func (p *parser) failChar(context string) {
	if p.i >= len(p.data) {
		p.fail(p.i, "unexpected end of JSON input")
		return
	}
	p.fail(p.i, "invalid character "+quoteChar(p.data[p.i:])+" "+context)
}

// quoteChar quotes the character at the start of b for a message, as
// encoding/json does.
func quoteChar(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	switch r {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	return strconv.QuoteRune(r)
}

func (p *parser) peek() byte {
	if p.i < len(p.data) {
		return p.data[p.i]
	}
	return 0
}

// space skips white space, counting lines.
func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\r':
			p.i++
		case '\n':
			p.i++
			p.line++
			p.lineI = p.i
		default:
			return
		}
	}
}

// node returns a new node of kind at offset off of the current line.
func (p *parser) node(kind yamlsyntax.Kind, off int) *yamlsyntax.Node {
	n := p.nodes.New()
	n.Kind = kind
	n.Line, n.Col = int32(p.line), int32(p.cols.At(p.lineI, off))
	n.Off = int32(off)
	return n
}

// value reads one value at p.i (after white space) into a tree, and sets
// its end.
func (p *parser) value() *yamlsyntax.Node {
	n := p.value1()
	if n != nil {
		n.End = int32(p.i)
	}
	return n
}

// enter counts one more level of nesting at the bracket at offset off.
func (p *parser) enter(off int) bool {
	if p.depth++; p.depth > MaxNesting {
		p.fail(off, fmt.Sprintf("nested too deeply (limit %d)", MaxNesting))
		return false
	}
	return true
}

// value1 is value, the end left to it.
func (p *parser) value1() *yamlsyntax.Node {
	p.space()
	if p.i >= len(p.data) {
		p.fail(p.i, "unexpected end of JSON input")
		return nil
	}
	switch c := p.data[p.i]; {
	case c == '{':
		n := p.node(yamlsyntax.Mapping, p.i)
		start := p.nodes.Pending()
		p.object(func(k *yamlsyntax.Node) bool {
			v := p.value()
			if p.err != nil {
				return false
			}
			p.nodes.Push(k)
			p.nodes.Push(v)
			return true
		})
		n.Content = p.nodes.Collect(start)
		return n
	case c == '[':
		return p.array()
	case c == '"':
		n := p.node(yamlsyntax.Scalar, p.i)
		n.Value, n.Exact = p.str(), true
		return n
	case c == '-' || '0' <= c && c <= '9':
		n := p.node(yamlsyntax.Scalar, p.i)
		n.Value = p.number()
		return n
	}
	return p.literal()
}

// array reads an array at p.i ('[') into a sequence node.
func (p *parser) array() *yamlsyntax.Node {
	n := p.node(yamlsyntax.Sequence, p.i)
	p.i++
	if !p.enter(p.i - 1) {
		return nil
	}
	defer func() { p.depth-- }()
	start := p.nodes.Pending()
	p.space()
	if p.peek() == ']' {
		p.i++
		return n
	}
	for p.err == nil {
		v := p.value()
		if p.err != nil {
			return nil
		}
		p.nodes.Push(v)
		if p.endItem() {
			break
		}
	}
	if p.err != nil {
		return nil
	}
	n.Content = p.nodes.Collect(start)
	return n
}

// literals are the words JSON has.
var literals = [...]string{"true", "false", "null"}

// literal reads true, false or null at p.i.
func (p *parser) literal() *yamlsyntax.Node {
	c := p.data[p.i]
	for _, lit := range literals {
		if strings.HasPrefix(p.s[p.i:], lit) {
			n := p.node(yamlsyntax.Scalar, p.i)
			n.Value, n.Null = lit, lit == "null"
			if n.Null {
				n.Value = ""
			}
			p.i += len(lit)
			return n
		}
	}
	// Point at the first character that does not fit a literal.
	for _, lit := range literals {
		if lit[0] == c {
			k := 1
			for k < len(lit) && p.i+k < len(p.data) && p.data[p.i+k] == lit[k] {
				k++
			}
			p.i += k
			p.failChar("in literal " + lit + " (expecting " + strconv.QuoteRune(rune(lit[k])) + ")")
			return nil
		}
	}
	p.failChar("looking for beginning of value")
	return nil
}

// object reads an object at p.i ('{'), calling f with each key when the
// parser is at the value (after the ':'); f reads the value, and returns
// false to stop.
func (p *parser) object(f func(k *yamlsyntax.Node) bool) {
	p.i++
	if !p.enter(p.i - 1) {
		return
	}
	defer func() { p.depth-- }()
	p.space()
	if p.peek() == '}' {
		p.i++
		return
	}
	for p.err == nil {
		k := p.key()
		if k == nil || !f(k) || p.err != nil {
			return
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return
		default:
			p.failChar("after object key:value pair")
		}
	}
}

// key reads a key of an object and its ':', leaving the parser at the value.
func (p *parser) key() *yamlsyntax.Node {
	p.space()
	if p.peek() != '"' {
		p.failChar("looking for beginning of object key string")
		return nil
	}
	k := p.node(yamlsyntax.Scalar, p.i)
	k.Value, k.Exact = p.str(), true
	if p.err != nil {
		return nil
	}
	k.End = int32(p.i)
	p.space()
	if p.peek() != ':' {
		p.failChar("after object key")
		return nil
	}
	p.i++
	p.space()
	return k
}

// str reads a string at p.i, returning its decoded text.
func (p *parser) str() string {
	start := p.i + 1
	k := start
	for k < len(p.data) {
		c := p.data[k]
		if c == '"' {
			p.i = k + 1
			if !utf8.Valid(p.data[start:k]) {
				p.fail(start+firstInvalidUTF8(p.data[start:k]), "invalid UTF-8 in string")
				return ""
			}
			return p.s[start:k]
		}
		if c == '\\' || c < ' ' {
			break
		}
		k++
	}
	return p.decodeStr(start, k)
}

// decodeStr decodes a string with escapes (or an error) that starts at
// offset start, whose bytes up to k need no decoding.
func (p *parser) decodeStr(start, k int) string {
	b := []byte(p.s[start:k])
	p.rec.copied(len(b), start)
	for k < len(p.data) {
		c, at := p.data[k], k
		switch {
		case c == '"':
			p.i = k + 1
			if !utf8.Valid(b) {
				p.fail(start+firstInvalidUTF8(p.data[start:k]), "invalid UTF-8 in string")
				return ""
			}
			return string(b)
		case c < ' ':
			p.i = k
			p.failChar("in string literal")
			return ""
		case c == '\\':
			var ok bool
			if b, k, ok = p.escape(b, k); !ok {
				return ""
			}
		default:
			b = append(b, c)
			k++
		}
		p.rec.note(len(b), at)
	}
	p.fail(len(p.data), "unexpected end of JSON input")
	return ""
}

// escapes are the characters of the one-letter escapes.
var escapes = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes the escape at offset k (a backslash), appending its
// character to b, and returns the offset after it.
func (p *parser) escape(b []byte, k int) ([]byte, int, bool) {
	if k+1 >= len(p.data) {
		p.fail(len(p.data), "unexpected end of JSON input")
		return b, k, false
	}
	e := p.data[k+1]
	if c := escapes[e]; c != 0 {
		return append(b, c), k + 2, true
	}
	if e != 'u' {
		p.i = k + 1
		p.failChar("in string escape code")
		return b, k, false
	}
	r, ok := p.hex4(k + 2)
	if !ok {
		return b, k, false
	}
	k += 6
	if utf16.IsSurrogate(r) {
		if r2, ok := p.hex4Soft(k); ok && utf16.DecodeRune(r, r2) != utf8.RuneError {
			r = utf16.DecodeRune(r, r2)
			k += 6
		} else {
			r = utf8.RuneError
		}
	}
	return utf8.AppendRune(b, r), k, true
}

// hex4 reads the four hex digits of a \u escape at offset k.
func (p *parser) hex4(k int) (rune, bool) {
	var r rune
	for n := range 4 {
		if k+n >= len(p.data) {
			p.fail(len(p.data), "unexpected end of JSON input")
			return 0, false
		}
		d, ok := hexVal(p.data[k+n])
		if !ok {
			p.i = k + n
			p.failChar("in \\u hexadecimal character escape")
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
}

// hex4Soft reads "\uXXXX" at offset k if it is there, without errors.
func (p *parser) hex4Soft(k int) (rune, bool) {
	if k+6 > len(p.data) || p.data[k] != '\\' || p.data[k+1] != 'u' {
		return 0, false
	}
	var r rune
	for n := range 4 {
		d, ok := hexVal(p.data[k+2+n])
		if !ok {
			return 0, false
		}
		r = r<<4 | d
	}
	return r, true
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

// firstInvalidUTF8 returns the offset of the first byte of b that is not
// valid UTF-8.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// number reads a number at p.i as written.
func (p *parser) number() string {
	start := p.i
	k := p.i
	digits := func() bool {
		d := k
		for k < len(p.data) && '0' <= p.data[k] && p.data[k] <= '9' {
			k++
		}
		return k > d
	}
	bad := func(context string) string {
		p.i = k
		p.failChar(context)
		return ""
	}
	if p.data[k] == '-' {
		k++
	}
	if k < len(p.data) && p.data[k] == '0' {
		k++
	} else if !digits() {
		return bad("in numeric literal")
	}
	if k < len(p.data) && p.data[k] == '.' {
		k++
		if !digits() {
			return bad("after decimal point in numeric literal")
		}
	}
	if k < len(p.data) && (p.data[k] == 'e' || p.data[k] == 'E') {
		k++
		if k < len(p.data) && (p.data[k] == '+' || p.data[k] == '-') {
			k++
		}
		if !digits() {
			return bad("in exponent of numeric literal")
		}
	}
	p.i = k
	return p.s[start:k]
}
