package yamlsyntax

import (
	"bytes"
	"fmt"
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

	depth int
	nodes Arena
	buf   []byte // scratch for folded and escaped scalars

	sink Sink
}

// Parse parses data, a YAML document. With a sink and a mapping at the
// root, the root's pairs go to the sink and the returned root has no
// content. The tree is nil for an empty document, and for a Result other
// than OK.
func Parse(data []byte, sink Sink) (*Node, Result) {
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

func (p *parser) node(kind Kind, off int) *Node {
	n := p.nodes.New()
	n.Kind = kind
	n.Line, n.Col = int32(p.line), int32(p.colAt(off))
	return n
}

func (p *parser) scalar(off int, v string) *Node {
	n := p.node(Scalar, off)
	n.Value = v
	return n
}

// null returns a null scalar at offset off of the current line.
func (p *parser) null(off int) *Node {
	n := p.node(Scalar, off)
	n.Null = true
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
	return i+3 <= len(p.d) && (p.s[i:i+3] == "---" || p.s[i:i+3] == "...") && p.blankAt(i+3)
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
			switch {
			case p.isDash():
				p.fail(p.i, fmt.Sprintf("did not find expected key (a list item cannot follow the mapping entries at column %d)", ind+1))
			case p.plainStart(p.i, false):
				p.fail(p.i, "could not find expected ':'")
			default:
				p.unsupported() // a block scalar, a tag, ... where a key should be
			}
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
		p.spaces()
		if !p.ok() {
			return nil
		}
		var v *Node
		if p.atLineEnd() {
			v = p.null(colon + 1)
			p.endLine()
			if !p.ok() {
				return nil
			}
			streamItems := items && p.next >= ind && p.isDash()
			switch {
			case streamItems:
				p.blockSeq(p.next, p.itemFunc(keep))
				v = nil
			case p.next > ind:
				v = p.blockNode(ind, false, true)
			case p.next == ind && p.isDash():
				v = p.blockSeq(ind, nil)
			}
		} else if items && p.at(p.i) == '[' {
			p.flow(p.itemFunc(keep), false)
			p.endLine()
			v = nil
		} else {
			v = p.inline(ind, true)
		}
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
		return n
	}
	return nil
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
		if isNullWord(v) || v == "<<" {
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
	text := p.s[start:end]
	multi := false
	buf := p.buf[:0]
	p.i = stop
	for p.at(stop) != '#' && stop < len(p.d) {
		// At a line break: look for a continuation line.
		j := stop
		breaks := 0
		lineStart, line := 0, p.line
		for {
			if j >= len(p.d) {
				break
			}
			if c := p.d[j]; c == '\n' || c == '\r' {
				j += p.breakLen(j)
				breaks++
				line++
				lineStart = j
				continue
			}
			if c := p.d[j]; c == ' ' {
				j++
				continue
			}
			if p.d[j] == '\t' {
				p.unsupported()
				return nil
			}
			break
		}
		if j >= len(p.d) || j-lineStart <= parent || p.d[j] == '#' || j == lineStart && p.docMarker(j) {
			break // the scalar ends; what follows is for the collections
		}
		// A continuation line.
		if !multi {
			buf = append(buf, text...)
			multi = true
		}
		if breaks == 1 {
			buf = append(buf, ' ')
		} else {
			for range breaks - 1 {
				buf = append(buf, '\n')
			}
		}
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
		buf = append(buf, p.d[j:e]...)
		stop = s
		p.i = s
	}
	if multi {
		text = string(buf)
		p.buf = buf[:0]
	} else if isNullWord(text) {
		n.Null = true
	} else if text == "<<" {
		p.unsupported() // yaml.v3 tags it as a merge key
		return nil
	}
	n.Value = text
	p.i = stop
	p.endLine()
	return n
}

// blockScalar parses a literal (|) or folded (>) block scalar at p.i in a
// block collection of indentation parent, as yaml.v3 does, and moves to
// the next content.
func (p *parser) blockScalar(parent int) *Node {
	start := p.i
	literal := p.d[start] == '|'
	n := p.node(Scalar, start)
	j := start + 1
	chomp, incr := 0, 0
	for k := 0; k < 2; k++ {
		switch c := p.at(j); {
		case (c == '+' || c == '-') && chomp == 0 && j < len(p.d):
			chomp = 1
			if c == '-' {
				chomp = -1
			}
			j++
		case '1' <= c && c <= '9' && incr == 0:
			incr = int(c - '0')
			j++
		case c == '0':
			p.fail(j, "found an indentation indicator equal to 0")
			return nil
		}
	}
	for c := p.at(j); (c == ' ' || c == '\t') && j < len(p.d); c = p.at(j) {
		j++
	}
	if c := p.at(j); c == '#' && j < len(p.d) {
		if p.d[j-1] != ' ' && p.d[j-1] != '\t' {
			p.unsupported()
			return nil
		}
		for j < len(p.d) && !p.isBreak(j) {
			j++
		}
	}
	if j < len(p.d) && !p.isBreak(j) {
		p.fail(j, "did not find expected comment or line break after the block scalar indicator")
		return nil
	}
	if j < len(p.d) {
		j += p.breakLen(j)
		p.line++
		p.lineStart = j
	}
	indent := 0
	if incr > 0 {
		indent = incr
		if parent >= 0 {
			indent = parent + incr
		}
	}
	var text, lead, trail []byte
	// breaks skips the empty lines before content (and finds the
	// indentation when it is not known), appending a line feed per line.
	breaks := func() bool {
		maxInd := 0
		for {
			for (indent == 0 || j-p.lineStart < indent) && p.at(j) == ' ' && j < len(p.d) {
				j++
			}
			maxInd = max(maxInd, j-p.lineStart)
			if (indent == 0 || j-p.lineStart < indent) && p.at(j) == '\t' && j < len(p.d) {
				p.unsupported() // yaml.v3: a tab where an indentation space is expected
				return false
			}
			if !p.isBreak(j) {
				break
			}
			if p.docMarkerAhead(j) {
				return false
			}
			j += p.breakLen(j)
			p.line++
			p.lineStart = j
			trail = append(trail, '\n')
		}
		if indent == 0 {
			indent = max(maxInd, parent+1, 1)
		}
		return true
	}
	if !breaks() {
		return nil
	}
	leadBlank := false
	for j-p.lineStart == indent && j < len(p.d) {
		if p.lineStart == j-indent && indent == 0 && p.docMarker(j) {
			break
		}
		trailBlank := p.d[j] == ' ' || p.d[j] == '\t'
		if !literal && !leadBlank && !trailBlank && len(lead) > 0 && lead[0] == '\n' {
			if len(trail) == 0 {
				text = append(text, ' ')
			}
		} else {
			text = append(text, lead...)
		}
		lead = lead[:0]
		text = append(text, trail...)
		trail = trail[:0]
		leadBlank = trailBlank
		e := j
		for e < len(p.d) && !p.isBreak(e) {
			e++
		}
		text = append(text, p.d[j:e]...)
		j = e
		if j < len(p.d) {
			lead = append(lead, '\n')
			j += p.breakLen(j)
			p.line++
			p.lineStart = j
		}
		if !breaks() {
			return nil
		}
	}
	if chomp != -1 {
		text = append(text, lead...)
	}
	if chomp == 1 {
		text = append(text, trail...)
	}
	n.Value = string(text)
	// Go on from the start of the line that ended the scalar.
	if j >= len(p.d) {
		p.i, p.next = len(p.d), -1
		return n
	}
	p.i = p.lineStart
	p.skip()
	return n
}

// docMarkerAhead reports whether the line after the break at offset j
// starts with a document marker, which makes the parser give up.
func (p *parser) docMarkerAhead(j int) bool {
	k := j + p.breakLen(j)
	if p.docMarker(k) {
		p.unsupported()
		return true
	}
	return false
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

// quoted parses a single- or double-quoted scalar at p.i, which may go on
// over several lines (folded as YAML folds them), and moves past it.
func (p *parser) quoted() *Node {
	q := p.d[p.i]
	start := p.i
	n := p.node(Scalar, start)
	n.Exact = true
	j := start + 1
	// The common case: on one line, without escapes.
	for j < len(p.d) {
		c := p.d[j]
		if c == q && (q == '"' || p.at(j+1) != '\'') {
			n.Value = p.s[start+1 : j]
			p.i = j + 1
			return n
		}
		if c == '\n' || c == '\r' || c == '\\' && q == '"' || c == '\'' && q == '\'' {
			break
		}
		j++
	}
	j = start + 1
	buf := p.buf[:0]
	ws := -1 // start in buf of trailing white space that a line break would drop
	for {
		if j >= len(p.d) {
			p.fail(start, "quoted string is never closed (found unexpected end of stream)")
			return nil
		}
		c := p.d[j]
		switch {
		case c == q:
			if q == '\'' && p.at(j+1) == '\'' {
				buf = append(buf, '\'')
				ws = -1
				j += 2
				continue
			}
			n.Value = string(buf)
			p.buf = buf[:0]
			p.i = j + 1
			return n
		case c == '\n' || c == '\r':
			// Fold: drop the white space around the breaks; one break
			// is a space, each further one a line feed.
			if ws >= 0 {
				buf = buf[:ws]
			}
			breaks := 0
			for {
				if p.isBreak(j) {
					j += p.breakLen(j)
					breaks++
					p.line++
					p.lineStart = j
					if p.docMarker(j) {
						p.unsupported()
						return nil
					}
					continue
				}
				if c := p.at(j); (c == ' ' || c == '\t') && j < len(p.d) {
					j++
					continue
				}
				break
			}
			if breaks == 1 {
				buf = append(buf, ' ')
			} else {
				for range breaks - 1 {
					buf = append(buf, '\n')
				}
			}
			ws = -1
		case c == '\\' && q == '"':
			var ok bool
			buf, j, ok = p.escape(buf, j)
			if !ok {
				return nil
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
	}
}

// escape decodes the escape sequence at offset j (a backslash) of a
// double-quoted scalar, appending it to buf.
func (p *parser) escape(buf []byte, j int) ([]byte, int, bool) {
	if j+1 >= len(p.d) {
		return buf, j + 1, true // the caller reports the unclosed string
	}
	e := p.d[j+1]
	var r rune
	digits := 0
	switch e {
	case '0':
		r = 0
	case 'a':
		r = 7
	case 'b':
		r = 8
	case 't', '\t':
		r = 9
	case 'n':
		r = 10
	case 'v':
		r = 11
	case 'f':
		r = 12
	case 'r':
		r = 13
	case 'e':
		r = 27
	case ' ', '"', '\'', '\\':
		r = rune(e)
	case 'N':
		r = 0x85
	case '_':
		r = 0xa0
	case 'L':
		r = 0x2028
	case 'P':
		r = 0x2029
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	case '\n', '\r':
		// An escaped line break: the lines join without a space, the
		// next line's leading white space dropped.
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
	default:
		p.fail(j, "found unknown escape character")
		return buf, j, false
	}
	if digits == 0 {
		return utf8.AppendRune(buf, r), j + 2, true
	}
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

// ---- flow collections ----

// fspace skips white space, line breaks and comments inside a flow
// collection.
func (p *parser) fspace() {
	for p.i < len(p.d) && p.ok() {
		switch c := p.d[p.i]; c {
		case ' ', '\t':
			p.i++
		case '\n', '\r':
			p.newline(p.i + p.breakLen(p.i))
			if p.docMarker(p.i) {
				p.unsupported()
			}
		case '#':
			if p.i > p.lineStart && p.d[p.i-1] != ' ' && p.d[p.i-1] != '\t' {
				p.unsupported() // yaml.v3 takes it for a comment
				return
			}
			k := bytes.IndexByte(p.d[p.i:], '\n')
			if k < 0 {
				p.i = len(p.d)
				return
			}
			p.i += k
		default:
			return
		}
	}
}

// flow parses a flow mapping or sequence at p.i, over any number of lines,
// and moves past its closing bracket. With item set (the streamed
// list, a sequence), each item goes to item and the sequence
// keeps none. With root set and a sink, a mapping's pairs go to the sink.
func (p *parser) flow(item func(*Node), root bool) *Node {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	open := p.i
	openLine, openCol := p.line, p.colAt(open)
	kind, closer := Mapping, byte('}')
	if p.d[open] == '[' {
		kind, closer = Sequence, ']'
	}
	n := p.node(kind, open)
	p.i++
	start := p.nodes.Pending()
	stream := root && kind == Mapping && p.sink != nil
	p.Streamed = p.Streamed || stream
	expected := fmt.Sprintf("did not find expected ',' or '%c'", closer)
	unclosed := func() {
		p.fail(open, fmt.Sprintf("%q is never closed (%s)", string(p.d[open]), expected))
	}
	p.fspace()
	for p.ok() {
		if p.i >= len(p.d) {
			unclosed()
			return nil
		}
		if p.d[p.i] == closer {
			p.i++
			n.Content = p.nodes.Collect(start)
			return n
		}
		m := p.nodes.Mark()
		if c := p.d[p.i]; c == ',' {
			p.fail(p.i, "did not find expected node content")
			return nil
		}
		keyLine := p.line
		v := p.flowNode()
		if !p.ok() {
			return nil
		}
		p.fspace()
		if !p.ok() {
			return nil
		}
		hasColon := p.at(p.i) == ':' && p.i < len(p.d)
		if hasColon && v.Kind == Scalar && p.line != keyLine {
			// A key is on one line, with its ':'.
			p.fail(p.i, expected+p.openNote(open, openLine, openCol))
			return nil
		}
		if kind == Mapping || hasColon {
			// A pair: in a mapping, or a one-pair mapping in a sequence.
			if v.Kind != Scalar || v.Null && !hasColon {
				p.unsupported() // complex keys
				return nil
			}
			if !v.Exact && (isNullWord(v.Value) || v.Value == "<<") {
				p.unsupported()
				return nil
			}
			k := v
			keep, items := true, false
			if stream {
				keep, items = p.sink.Key(k)
			}
			if hasColon {
				if !p.blankAt(p.i+1) && !isFlowIndicator(p.at(p.i+1)) && !k.Exact {
					p.unsupported()
					return nil
				}
				colonLine, colonCol := p.line, p.colAt(p.i)
				p.i++
				p.fspace()
				if !p.ok() {
					return nil
				}
				switch c := p.at(p.i); {
				case p.i >= len(p.d):
					unclosed()
					return nil
				case c == ',' || c == closer:
					if kind == Sequence {
						// yaml.v3 puts this null at the ':'.
						v = p.nodes.New()
						v.Kind, v.Null, v.Line, v.Col = Scalar, true, int32(colonLine), int32(colonCol)
					} else {
						v = p.null(p.i)
					}
				case items && c == '[':
					p.flow(p.itemFunc(keep), false)
					v = nil
				default:
					v = p.flowNode()
				}
			} else {
				v = p.null(p.i)
			}
			if !p.ok() {
				return nil
			}
			switch {
			case stream:
				if keep && v != nil {
					p.sink.Pair(k, v)
				}
				p.nodes.Reset(m)
			case kind == Mapping:
				p.nodes.Push(k)
				p.nodes.Push(v)
			default:
				m := p.nodes.New()
				m.Kind, m.Line, m.Col = Mapping, k.Line, k.Col
				m.Content = p.nodes.Slice(2)
				m.Content[0], m.Content[1] = k, v
				v = m
			}
		}
		if kind == Sequence {
			if item != nil {
				item(v)
				p.nodes.Reset(m)
			} else {
				p.nodes.Push(v)
			}
		}
		p.fspace()
		if !p.ok() {
			return nil
		}
		switch c := p.at(p.i); {
		case p.i >= len(p.d):
			unclosed()
			return nil
		case c == ',':
			p.i++
			p.fspace()
			if p.at(p.i) == ',' && p.i < len(p.d) {
				p.fail(p.i, "did not find expected node content")
				return nil
			}
		case c == closer:
		default:
			p.fail(p.i, expected+p.openNote(open, openLine, openCol))
			return nil
		}
	}
	return nil
}

// openNote names the bracket at offset open when it is on another line
// than the current one, for messages.
func (p *parser) openNote(open, line, col int) string {
	if line == p.line {
		return ""
	}
	return fmt.Sprintf(" (for the %q at line %d, column %d)", string(p.d[open]), line, col)
}

// flowNode parses a node inside a flow collection.
func (p *parser) flowNode() *Node {
	switch c := p.at(p.i); c {
	case '[', '{':
		return p.flow(nil, false)
	case '"', '\'':
		return p.quoted()
	case ']', '}':
		p.fail(p.i, "did not find expected node content")
		return nil
	}
	if !p.plainStart(p.i, true) {
		p.unsupported()
		return nil
	}
	return p.flowPlain()
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
	text := p.s[start:end]
	multi := false
	buf := p.buf[:0]
	p.i = stop
	for p.isBreak(stop) && stop < len(p.d) {
		j := stop
		breaks := 0
		line, lineStart := p.line, p.lineStart
		for j < len(p.d) {
			if p.isBreak(j) {
				j += p.breakLen(j)
				breaks++
				line++
				lineStart = j
				if p.docMarker(j) {
					p.unsupported()
					return nil
				}
				continue
			}
			if c := p.d[j]; c == ' ' || c == '\t' {
				j++
				continue
			}
			break
		}
		if j >= len(p.d) || isFlowIndicator(p.d[j]) || p.d[j] == ':' && p.blankAt(j+1) || p.d[j] == '#' || p.d[j] == '?' {
			break // the scalar ends; fspace takes the breaks
		}
		if !multi {
			buf = append(buf, text...)
			multi = true
		}
		if breaks == 1 {
			buf = append(buf, ' ')
		} else {
			for range breaks - 1 {
				buf = append(buf, '\n')
			}
		}
		p.line, p.lineStart = line, lineStart
		e, s := p.plainLine(j, true)
		if !p.ok() {
			return nil
		}
		buf = append(buf, p.d[j:e]...)
		stop = s
		p.i = s
	}
	if multi {
		text = string(buf)
		p.buf = buf[:0]
	} else if isNullWord(text) {
		n.Null = true
	} else if text == "<<" {
		p.unsupported()
		return nil
	}
	n.Value = text
	p.i = stop
	return n
}

// isNullWord reports whether a plain scalar is YAML's null.
func isNullWord(s string) bool {
	return s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL"
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
