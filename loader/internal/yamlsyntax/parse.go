package yamlsyntax

import (
	"bytes"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader/internal/textpos"
)

// State says how a [Parse] ended.
type State uint8

const (
	// OK: the input parsed.
	OK State = iota
	// Unsupported: the input is outside the subset; let [ParseReference]
	// (yaml.v3) read it.
	Unsupported
	// Invalid: a syntax error, at Result.ErrOff with Result.ErrMsg.
	Invalid
)

// Result is how a [Parse] ended.
type Result struct {
	State    State
	ErrOff   int    // Invalid: the byte offset of the error
	ErrMsg   string // Invalid: the message
	Streamed bool   // the root mapping's pairs went to the Sink
}

// maxDepth bounds the nesting the parser follows before it gives up
// (yaml.v3 then refuses nesting beyond its own limit of 10,000).
const maxDepth = 2000

// Sink receives the top level of a document whose root is a mapping, as
// it is parsed: Key before each value is parsed, Pair after it, and, for
// a key whose value is a list that Key asked to stream, Item for each of
// its items instead of Pair. The nodes are valid only during the call.
type Sink interface {
	// Key is called with each key of the root mapping before its value
	// is parsed. keep is false for a key whose value is to be dropped
	// (such as a duplicate); items says the value, if it is a list, is
	// handed to Item one item at a time (a scene's entities).
	Key(k *Node) (keep, items bool)
	// Pair receives a pair of the root mapping.
	Pair(k, v *Node)
	// Item receives an item of a streamed list.
	Item(it *Node)
}

type parser struct {
	d         []byte
	s         string // d as a string: scalars are substrings of it
	i         int    // offset of the next byte to read
	line      int    // 1-based line of lineStart
	lineStart int    // offset of the start of the current line
	cols      textpos.Columns
	ascii     bool // the input is ASCII: columns are byte offsets
	next      int  // after skip: indentation of the content at i, -1 at the end
	started   bool

	Result

	depth   int
	nodes   Arena
	buf     []byte // scratch for folded and escaped scalars
	lastEnd int    // the end of the last node finished: a block collection ends with its last value

	sink Sink
	rec  recorder // DecodeScalar: where each byte of the text being decoded was written
}

// Parse parses data, a YAML document. With a sink and a mapping at the
// root, the root's pairs go to the sink and the returned root has no
// content. The tree is nil for an empty document, and for a Result other
// than OK.
//
// Every node gets its span (see [Node]).
func Parse(data []byte, sink Sink) (*Node, Result) {
	if len(data) > math.MaxInt32 {
		return nil, Result{State: Unsupported} // spans are 32-bit offsets
	}
	p := &parser{d: data, s: string(data), line: 1, ascii: true, sink: sink}
	if !p.checkBytes() {
		return nil, p.Result
	}
	p.cols.SetText(data, p.ascii)
	p.i = textpos.BOMLen(data)
	p.lineStart = p.i
	root := p.document()
	if p.State != OK {
		return nil, p.Result
	}
	return root, p.Result
}

// checkBytes refuses what yaml.v3 refuses everywhere: bytes that are not
// UTF-8 and characters YAML does not allow. Line breaks yaml.v3 knows
// beyond LF and CR LF (a lone CR, NEL, U+2028, U+2029) and byte order
// marks past the start make the parser give up.
func (p *parser) checkBytes() bool {
	d := p.d
	if bytes.HasPrefix(d, []byte{0xfe, 0xff}) || bytes.HasPrefix(d, []byte{0xff, 0xfe}) {
		p.fail(0, "the file is UTF-16: scenes must be UTF-8")
		return false
	}
	for i := 0; i < len(d); {
		c := d[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= ' ' && c < 0x7f || c == '\n' || c == '\t':
			case c == '\r':
				if i+1 >= len(d) || d[i+1] != '\n' {
					p.State = Unsupported
					return false
				}
			default:
				p.fail(i, fmt.Sprintf("control character %U is not allowed", rune(c)))
				return false
			}
			i++
			continue
		}
		p.ascii = false
		r, n := utf8.DecodeRune(d[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			p.fail(i, "invalid UTF-8")
			return false
		case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xfeff && i > 0:
			p.State = Unsupported
			return false
		case r < 0xa0 || r == 0xfffe || r == 0xffff:
			p.fail(i, fmt.Sprintf("control character %U is not allowed", r))
			return false
		}
		i += n
	}
	return true
}

// fail records a syntax error at offset off (the first one wins).
func (p *parser) fail(off int, msg string) {
	if p.State == OK {
		p.State, p.ErrOff, p.ErrMsg = Invalid, off, msg
	}
}

// unsupported gives up: the input is outside the subset.
func (p *parser) unsupported() {
	if p.State == OK {
		p.State = Unsupported
	}
}

func (p *parser) ok() bool { return p.State == OK }

// at returns the byte at offset i, or '\n' at the end of input.
func (p *parser) at(i int) byte {
	if i < len(p.d) {
		return p.d[i]
	}
	return '\n'
}

// isBreak reports whether a line break starts at offset i (LF or CR LF;
// a lone CR was refused by checkBytes).
func (p *parser) isBreak(i int) bool {
	return i < len(p.d) && (p.d[i] == '\n' || p.d[i] == '\r')
}

// blankAt reports whether offset i holds a space, a line break or the end
// of input: what must follow an indicator such as "-" or ":".
func (p *parser) blankAt(i int) bool {
	c := p.at(i)
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

// breakLen returns the length of the line break at offset i.
func (p *parser) breakLen(i int) int {
	if p.at(i) == '\r' {
		return 2
	}
	return 1
}

// newline moves to the start of the line at offset i.
func (p *parser) newline(i int) {
	p.i, p.lineStart = i, i
	p.line++
}

// colAt returns the 1-based column (in characters) of offset off on the
// current line.
func (p *parser) colAt(off int) int { return p.cols.At(p.lineStart, off) }

// node returns a node of kind that starts at offset off of the current
// line (its end is set by end).
func (p *parser) node(kind Kind, off int) *Node {
	n := p.nodes.New()
	n.Kind = kind
	n.Line, n.Col = int32(p.line), int32(p.colAt(off))
	n.Off = int32(off)
	return n
}

// end sets the end of node n's span: it is finished.
func (p *parser) end(n *Node, off int) {
	n.End = int32(off)
	p.lastEnd = off
}

// scalar returns a plain scalar written as the text v at offset off.
func (p *parser) scalar(off int, v string) *Node {
	n := p.node(Scalar, off)
	n.Value = v
	p.end(n, off+len(v))
	return n
}

// null returns a null written as nothing at offset off of the current
// line.
func (p *parser) null(off int) *Node {
	n := p.node(Scalar, off)
	n.Null = true
	p.end(n, off)
	return n
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > maxDepth {
		p.unsupported()
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// ---- lines ----

// docMarker reports whether a document marker ("---" or "...") starts at
// offset i, which is at the start of a line.
func (p *parser) docMarker(i int) bool {
	if i+3 > len(p.d) {
		return false
	}
	c := p.d[i]
	return (c == '-' || c == '.') && p.d[i+1] == c && p.d[i+2] == c && p.blankAt(i+3)
}

// skip moves from the start of a line to the next content, over blank
// and comment lines, and sets next to its indentation (-1 at the end of
// input). Tabs in indentation, and document markers after the first
// content, make the parser give up.
func (p *parser) skip() {
	for p.ok() {
		j := p.i
		for j < len(p.d) && p.d[j] == ' ' {
			j++
		}
		if j >= len(p.d) {
			p.i, p.next = j, -1
			return
		}
		switch c := p.d[j]; c {
		case '\n', '\r':
			p.newline(j + p.breakLen(j))
			continue
		case '#':
			k := bytes.IndexByte(p.d[j:], '\n')
			if k < 0 {
				p.i, p.next = len(p.d), -1
				return
			}
			p.newline(j + k + 1)
			continue
		case '\t':
			p.unsupported()
			return
		}
		if j == p.lineStart && p.started && p.docMarker(j) {
			p.unsupported()
			return
		}
		p.i, p.next = j, j-p.lineStart
		return
	}
}

// spaces skips spaces on the current line; a tab makes the parser give
// up (yaml.v3 accepts tabs in some of these places and not in others).
func (p *parser) spaces() {
	for p.i < len(p.d) && p.d[p.i] == ' ' {
		p.i++
	}
	if p.at(p.i) == '\t' {
		p.unsupported()
	}
}

// atLineEnd reports whether only a comment or nothing is left on the line
// (after spaces).
func (p *parser) atLineEnd() bool {
	c := p.at(p.i)
	return c == '\n' || c == '\r' || c == '#' && (p.i == p.lineStart || p.d[p.i-1] == ' ')
}

// endLine accepts the end of a line after a value: spaces, a comment, the
// line break; then it skips to the next content.
func (p *parser) endLine() {
	if !p.ok() {
		return
	}
	p.spaces()
	if !p.ok() {
		return
	}
	switch c := p.at(p.i); {
	case c == '#' && p.d[p.i-1] == ' ':
		k := bytes.IndexByte(p.d[p.i:], '\n')
		if k < 0 {
			p.i = len(p.d)
		} else {
			p.i += k
		}
	case c == '\n' || c == '\r':
	case c == ':' || c == '#':
		p.unsupported() // a complex key, or a comment glued to a value
		return
	default:
		p.fail(p.i, "unexpected text after the value (did not find expected comment or line break)")
		return
	}
	if p.i < len(p.d) {
		p.newline(p.i + p.breakLen(p.i))
	}
	p.skip()
}

// ---- documents and block collections ----

func (p *parser) document() *Node {
	p.skip()
	if !p.ok() || p.next < 0 {
		return nil
	}
	if p.next == 0 {
		switch {
		case p.docMarker(p.i) && p.d[p.i] == '-':
			p.started = true
			p.i += 3
			p.spaces()
			if !p.ok() || !p.atLineEnd() {
				p.unsupported() // content on the "---" line
				return nil
			}
			p.endLine()
			if !p.ok() {
				return nil
			}
			if p.next < 0 {
				// An empty document: yaml.v3 gives a null at the end of
				// the stream, on a line of its own.
				n := p.nodes.New()
				n.Kind, n.Null, n.Col = Scalar, true, 1
				n.Line = int32(bytes.Count(p.d, []byte{'\n'}) + 1)
				if !bytes.HasSuffix(p.d, []byte{'\n'}) {
					n.Line++
				}
				n.Off = int32(len(p.d))
				p.end(n, len(p.d))
				return n
			}
		case p.docMarker(p.i) || p.d[p.i] == '%':
			p.unsupported()
			return nil
		}
	}
	p.started = true
	root := p.blockNode(-1, true, false)
	if p.ok() && p.next >= 0 {
		if c := p.d[p.i]; p.plainStart(p.i, false) || p.isDash() || c == '"' || c == '\'' || c == '[' || c == '{' {
			p.fail(p.i, "unexpected content after the end of the document (is this line indented less than the first?)")
		} else {
			p.unsupported()
		}
	}
	return root
}

// blockNode parses the node whose content starts at p.i, p.next being its
// indentation, in the block collection of indentation parent (-1 at the
// root). inMap says that collection is a mapping.
func (p *parser) blockNode(parent int, root, inMap bool) *Node {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	if p.isDash() {
		return p.blockSeq(p.next, nil)
	}
	if isKey, _ := p.keyAhead(); isKey {
		return p.blockMap(p.next, root)
	}
	if !p.ok() {
		return nil
	}
	return p.inline(parent, inMap)
}

// isDash reports whether a block sequence entry ("- ") starts at p.i.
func (p *parser) isDash() bool {
	return p.next >= 0 && p.at(p.i) == '-' && p.blankAt(p.i+1)
}

// keyAhead reports whether a simple key followed by ':' starts at p.i,
// and the offset of that ':'.
func (p *parser) keyAhead() (bool, int) {
	i := p.i
	switch c := p.at(i); c {
	case '"', '\'':
		j := i + 1
		for j < len(p.d) {
			b := p.d[j]
			if b == '\n' || b == '\r' {
				return false, 0 // a quoted key is on one line
			}
			if b == '\\' && c == '"' {
				if p.isBreak(j + 1) {
					return false, 0
				}
				j += 2
				continue
			}
			if b == c {
				if c == '\'' && p.at(j+1) == '\'' {
					j += 2
					continue
				}
				break
			}
			j++
		}
		j++
		for p.at(j) == ' ' {
			j++
		}
		if p.at(j) == ':' && p.blankAt(j+1) {
			return true, j
		}
		return false, 0
	}
	if !p.plainStart(i, false) {
		return false, 0
	}
	for j := i; j < len(p.d); j++ {
		switch p.d[j] {
		case '\n', '\r':
			return false, 0
		case ':':
			if p.blankAt(j + 1) {
				return true, j
			}
		case '#':
			if p.d[j-1] == ' ' || p.d[j-1] == '\t' {
				return false, 0
			}
		}
	}
	return false, 0
}

// plainStart reports whether a plain scalar may start at offset i.
func (p *parser) plainStart(i int, flow bool) bool {
	switch c := p.at(i); c {
	case '-', '?', ':':
		if flow && c != '-' {
			return false // yaml.v3 refuses ":x" in a flow collection
		}
		n := p.at(i + 1)
		if n == ' ' || n == '\t' || n == '\n' || n == '\r' {
			return false
		}
		return !flow || !isFlowIndicator(n)
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t', '\n', '\r':
		return false
	}
	return true
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

// blockSeq parses a block sequence whose entries start at indentation
// ind. With item set (a streamed list: see Sink), each entry goes to
// item and the sequence keeps none.
func (p *parser) blockSeq(ind int, item func(*Node)) *Node {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	n := p.node(Sequence, p.i)
	start := p.nodes.Pending()
	for p.ok() {
		m := p.nodes.Mark()
		dash := p.i
		p.i++
		p.spaces()
		if !p.ok() {
			return nil
		}
		var it *Node
		switch {
		case p.atLineEnd():
			it = p.null(dash + 1)
			p.endLine()
			if p.ok() && p.next > ind {
				it = p.blockNode(ind, false, false)
			}
		case p.at(p.i) == '-' && p.blankAt(p.i+1):
			p.next = p.i - p.lineStart
			it = p.blockSeq(p.next, nil)
		default:
			if isKey, _ := p.keyAhead(); isKey {
				p.next = p.i - p.lineStart
				it = p.blockMap(p.next, false)
			} else if p.ok() {
				it = p.inline(ind, false)
			}
		}
		if !p.ok() {
			return nil
		}
		if item != nil {
			item(it)
			p.nodes.Reset(m)
		} else {
			p.nodes.Push(it)
		}
		switch {
		case p.next == ind && p.isDash():
			continue
		case p.next > ind:
			p.badIndent(ind, n)
			return nil
		}
		n.Content = p.nodes.Collect(start)
		p.end(n, p.lastEnd)
		return n
	}
	return nil
}

// badIndent reports the line at p.i, indented more than the collection
// c of indentation ind that it follows and less than what it would need
// to belong to the last entry.
func (p *parser) badIndent(ind int, c *Node) {
	what := "a mapping entry"
	switch isKey, _ := p.keyAhead(); {
	case p.isDash():
		what = "a list item"
	case !isKey:
		if !p.plainStart(p.i, false) {
			p.unsupported()
			return
		}
		if c.Kind == Mapping {
			p.fail(p.i, fmt.Sprintf("did not find expected key (bad indentation? the keys above are at column %d, as at line %d)", ind+1, c.Line))
		} else {
			p.fail(p.i, fmt.Sprintf("did not find expected '-' indicator (bad indentation? the items above are at column %d, as at line %d)", ind+1, c.Line))
		}
		return
	}
	p.fail(p.i, fmt.Sprintf("bad indentation of %s: expected column %d, as at line %d", what, ind+1, c.Line))
}

// blockMap parses a block mapping whose keys are at indentation ind.
// With root set and a sink, the pairs go to the sink.
func (p *parser) blockMap(ind int, root bool) *Node {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	n := p.node(Mapping, p.i)
	start := p.nodes.Pending()
	stream := root && p.sink != nil
	p.Streamed = p.Streamed || stream
	for p.ok() {
		isKey, colon := p.keyAhead()
		if !p.ok() {
			return nil
		}
		if !isKey {
			p.notAKey(ind)
			return nil
		}
		m := p.nodes.Mark()
		k := p.key(colon)
		if !p.ok() {
			return nil
		}
		keep, items := true, false
		if stream {
			keep, items = p.sink.Key(k)
		}
		v := p.blockValue(ind, colon, keep, items)
		if !p.ok() {
			return nil
		}
		switch {
		case !stream:
			p.nodes.Push(k)
			p.nodes.Push(v)
		case v != nil:
			if keep {
				p.sink.Pair(k, v)
			}
			p.nodes.Reset(m)
		default:
			p.nodes.Reset(m)
		}
		switch {
		case p.next == ind:
			continue
		case p.next > ind:
			p.badIndent(ind, n)
			return nil
		}
		n.Content = p.nodes.Collect(start)
		p.end(n, p.lastEnd)
		return n
	}
	return nil
}

// notAKey reports what stands at p.i where a key of the block mapping at
// indentation ind should.
func (p *parser) notAKey(ind int) {
	switch {
	case p.isDash():
		p.fail(p.i, fmt.Sprintf("did not find expected key (a list item cannot follow the mapping entries at column %d)", ind+1))
	case p.plainStart(p.i, false):
		p.fail(p.i, "could not find expected ':'")
	default:
		p.unsupported() // a block scalar, a tag, ... where a key should be
	}
}

// blockValue parses the value of the key of a block mapping at
// indentation ind whose ':' is at offset colon: on the same line, or on
// the lines below, indented more (or a list at ind). With items, a list
// goes to the sink item by item (or is dropped, without keep) and the
// value is nil.
func (p *parser) blockValue(ind, colon int, keep, items bool) *Node {
	p.spaces()
	if !p.ok() {
		return nil
	}
	if !p.atLineEnd() {
		if items && p.at(p.i) == '[' {
			p.flow(p.itemFunc(keep), false)
			p.endLine()
			return nil
		}
		return p.inline(ind, true)
	}
	v := p.null(colon + 1)
	p.endLine()
	if !p.ok() {
		return nil
	}
	switch {
	case items && p.next >= ind && p.isDash():
		p.blockSeq(p.next, p.itemFunc(keep))
		return nil
	case p.next > ind:
		return p.blockNode(ind, false, true)
	case p.next == ind && p.isDash():
		return p.blockSeq(ind, nil)
	}
	return v
}

// itemFunc returns the function that hands the items of a streamed list
// to the sink (or drops them).
func (p *parser) itemFunc(keep bool) func(*Node) {
	if !keep {
		return func(*Node) {}
	}
	return p.sink.Item
}

// key parses the simple key at p.i whose ':' is at colon, and moves past
// the ':'.
func (p *parser) key(colon int) *Node {
	if colon-p.i > 1024 || bytes.IndexByte(p.d[p.i:colon], '\t') >= 0 {
		p.unsupported() // yaml.v3 refuses keys over 1,024 characters
		return nil
	}
	var k *Node
	if c := p.at(p.i); c == '"' || c == '\'' {
		k = p.quoted()
	} else {
		end := colon
		for end > p.i && p.d[end-1] == ' ' {
			end--
		}
		v := p.s[p.i:end]
		if IsNull(v) || v == "<<" {
			p.unsupported() // null and merge keys
			return nil
		}
		k = p.scalar(p.i, v)
	}
	if !p.ok() {
		return nil
	}
	p.i = colon + 1
	return k
}

// inline parses a value that starts on the current line, in a block
// context: a flow collection, a quoted scalar, or a plain scalar that may
// go on over the following lines indented more than parent. inMap says the
// enclosing collection is a mapping (for messages).
func (p *parser) inline(parent int, inMap bool) *Node {
	var n *Node
	switch c := p.at(p.i); c {
	case '[', '{':
		n = p.flow(nil, parent < 0)
		p.endLine()
	case '|', '>':
		n = p.blockScalar(parent)
	case '"', '\'':
		n = p.quoted()
		if p.ok() {
			if j := p.afterSpaces(p.i); p.at(j) == ':' && p.blankAt(j+1) {
				p.fail(j, "mapping values are not allowed in this context")
				return nil
			}
		}
		p.endLine()
	default:
		if !p.plainStart(p.i, false) {
			p.unsupported() // block scalars, anchors, aliases, tags, ...
			return nil
		}
		n = p.plain(parent, inMap)
	}
	if !p.ok() {
		return nil
	}
	return n
}

func (p *parser) afterSpaces(j int) int {
	for p.at(j) == ' ' {
		j++
	}
	return j
}
