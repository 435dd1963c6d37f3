package loader

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// The YAML scene parser
//
// yparser parses the YAML that scene files are made of: block mappings
// and sequences (compact ones included), flow mappings and sequences over
// any number of lines, plain scalars over several lines, single- and
// double-quoted scalars with escapes and folding, comments, a leading
// "---" and a byte order mark. That is nearly every scene; the rest
// (anchors, aliases and tags, which the reader refuses anyway, block
// scalars, explicit keys, directives, several documents, tabs used as
// indentation, ...) makes it give up, and yaml.v3 reads the file instead.
// yaml.v3 is the reference: wherever this parser accepts an input, yaml.v3
// gives the same tree, and wherever this parser reports an error, yaml.v3
// refuses the input too (FuzzYAMLFastPath checks both).
//
// It exists for three reasons. yaml.v3 reads about 7 MB/s, too slow for
// 100,000-entity scenes. yaml.v3 reports a syntax error at the line of the
// construct that encloses the mistake (a mis-indented list item on line 4
// is "line 1"), without a column, and invalid bytes always at the top of
// the file: this parser reports the line and column of the offending
// byte. And it hands the items of the top-level `entities` list to the
// reader one at a time, reusing the memory of each item's tree for the
// next, so that reading a large scene keeps the Document it builds, not a
// syntax tree of the whole file.

// yparse states.
const (
	yOK          = iota
	yUnsupported // outside the subset: let yaml.v3 read the file
	yError       // a syntax error, at errOff with errMsg
)

// maxYAMLDepth bounds the nesting the parser follows before it gives up
// (yaml.v3 then refuses nesting beyond its own limit of 10,000).
const maxYAMLDepth = 2000

// ySink receives the top level of a document whose root is a mapping,
// as it is parsed: key before each value is parsed (it returns false for
// a key whose value is to be dropped, such as a duplicate), pair after
// it, and, for the value of `entities` when it is a list, item for each
// of its items instead of pair. The nodes are valid only during the call.
type ySink interface {
	key(k *ynode) bool
	pair(k, v *ynode)
	item(it *ynode)
}

type yparser struct {
	d         []byte
	s         string // d as a string: scalars are substrings of it
	i         int    // offset of the next byte to read
	line      int    // 1-based line of lineStart
	lineStart int    // offset of the start of the current line
	ascii     bool   // the input is ASCII: columns are byte offsets
	colOff    int    // column cache on the current line (non-ASCII input)
	col       int
	next      int // after skip: indentation of the content at i, -1 at the end
	started   bool

	state  int
	errOff int
	errMsg string

	depth int
	nodes arena[ynode]
	ptrs  arena[*ynode]
	stack []*ynode // items of the collections being parsed
	buf   []byte   // scratch for folded and escaped scalars

	sink     ySink
	streamed bool // the root mapping's pairs went to the sink
}

// yamlParse parses data. With a sink and a mapping at the root, the root's
// pairs go to the sink and the returned root has no content.
func yamlParse(data []byte, sink ySink) (root *ynode, p *yparser) {
	p = &yparser{d: data, s: string(data), line: 1, ascii: true, sink: sink}
	if !p.checkBytes() {
		return nil, p
	}
	p.i = bomLen(data)
	p.lineStart, p.colOff, p.col = p.i, p.i, 1
	root = p.document()
	if p.state != yOK {
		return nil, p
	}
	return root, p
}

// checkBytes refuses what yaml.v3 refuses everywhere: bytes that are not
// UTF-8 and characters YAML does not allow. Line breaks yaml.v3 knows
// beyond LF and CR LF (a lone CR, NEL, U+2028, U+2029) and byte order
// marks past the start make the parser give up.
func (p *yparser) checkBytes() bool {
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
					p.state = yUnsupported
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
			p.state = yUnsupported
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
func (p *yparser) fail(off int, msg string) {
	if p.state == yOK {
		p.state, p.errOff, p.errMsg = yError, off, msg
	}
}

// unsupported gives up: the input is outside the subset.
func (p *yparser) unsupported() {
	if p.state == yOK {
		p.state = yUnsupported
	}
}

func (p *yparser) ok() bool { return p.state == yOK }

// at returns the byte at offset i, or '\n' at the end of input.
func (p *yparser) at(i int) byte {
	if i < len(p.d) {
		return p.d[i]
	}
	return '\n'
}

// isBreak reports whether a line break starts at offset i (LF or CR LF;
// a lone CR was refused by checkBytes).
func (p *yparser) isBreak(i int) bool {
	return i < len(p.d) && (p.d[i] == '\n' || p.d[i] == '\r')
}

// blankAt reports whether offset i holds a space, a line break or the end
// of input: what must follow an indicator such as "-" or ":".
func (p *yparser) blankAt(i int) bool {
	c := p.at(i)
	return c == ' ' || c == '\n' || c == '\r' || c == '\t'
}

// breakLen returns the length of the line break at offset i.
func (p *yparser) breakLen(i int) int {
	if p.at(i) == '\r' {
		return 2
	}
	return 1
}

// newline moves to the start of the line at offset i.
func (p *yparser) newline(i int) {
	p.i, p.lineStart = i, i
	p.line++
}

// colAt returns the 1-based column (in characters) of offset off on the
// current line. Columns are counted incrementally, so the cost stays
// O(1) amortized for the increasing offsets of one line.
func (p *yparser) colAt(off int) int {
	if p.ascii {
		return off - p.lineStart + 1
	}
	if p.colOff < p.lineStart || off < p.colOff {
		p.colOff, p.col = p.lineStart, 1
	}
	p.col += countChars(p.d[p.colOff:off])
	p.colOff = off
	return p.col
}

func (p *yparser) node(kind uint8, off int) *ynode {
	n := p.nodes.alloc()
	n.kind = kind
	n.line, n.col = int32(p.line), int32(p.colAt(off))
	return n
}

func (p *yparser) scalar(off int, v string) *ynode {
	n := p.node(kScalar, off)
	n.value = v
	return n
}

// null returns a null scalar at offset off of the current line.
func (p *yparser) null(off int) *ynode {
	n := p.node(kScalar, off)
	n.null = true
	return n
}

// collect returns the nodes pushed on p.stack since start, in a slice cut
// from the arena, and pops them.
func (p *yparser) collect(start int) []*ynode {
	k := len(p.stack) - start
	if k == 0 {
		return nil
	}
	out := p.ptrs.slice(k)
	copy(out, p.stack[start:])
	clear(p.stack[start:])
	p.stack = p.stack[:start]
	return out
}

func (p *yparser) enter() bool {
	p.depth++
	if p.depth > maxYAMLDepth {
		p.unsupported()
		return false
	}
	return true
}

func (p *yparser) leave() { p.depth-- }

// ---- lines ----

// docMarker reports whether a document marker ("---" or "...") starts at
// offset i, which is at the start of a line.
func (p *yparser) docMarker(i int) bool {
	return i+3 <= len(p.d) && (p.s[i:i+3] == "---" || p.s[i:i+3] == "...") && p.blankAt(i+3)
}

// skip moves from the start of a line to the next content, over blank
// and comment lines, and sets next to its indentation (-1 at the end of
// input). Tabs in indentation, and document markers after the first
// content, make the parser give up.
func (p *yparser) skip() {
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
func (p *yparser) spaces() {
	for p.i < len(p.d) && p.d[p.i] == ' ' {
		p.i++
	}
	if p.at(p.i) == '\t' {
		p.unsupported()
	}
}

// atLineEnd reports whether only a comment or nothing is left on the line
// (after spaces).
func (p *yparser) atLineEnd() bool {
	c := p.at(p.i)
	return c == '\n' || c == '\r' || c == '#' && (p.i == p.lineStart || p.d[p.i-1] == ' ')
}

// endLine accepts the end of a line after a value: spaces, a comment, the
// line break; then it skips to the next content.
func (p *yparser) endLine() {
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

func (p *yparser) document() *ynode {
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
				n := p.nodes.alloc()
				n.kind, n.null, n.col = kScalar, true, 1
				n.line = int32(bytes.Count(p.d, []byte{'\n'}) + 1)
				if !bytes.HasSuffix(p.d, []byte{'\n'}) {
					n.line++
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
func (p *yparser) blockNode(parent int, root, inMap bool) *ynode {
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
func (p *yparser) isDash() bool {
	return p.next >= 0 && p.at(p.i) == '-' && p.blankAt(p.i+1)
}

// keyAhead reports whether a simple key followed by ':' starts at p.i,
// and the offset of that ':'.
func (p *yparser) keyAhead() (bool, int) {
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
func (p *yparser) plainStart(i int, flow bool) bool {
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
// ind. With item set (the streamed `entities` list), each entry goes to
// item and the sequence keeps none.
func (p *yparser) blockSeq(ind int, item func(*ynode)) *ynode {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	n := p.node(kSequence, p.i)
	start := len(p.stack)
	for p.ok() {
		m1, m2 := p.nodes.mark(), p.ptrs.mark()
		dash := p.i
		p.i++
		p.spaces()
		if !p.ok() {
			return nil
		}
		var it *ynode
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
			p.nodes.reset(m1)
			p.ptrs.reset(m2)
		} else {
			p.stack = append(p.stack, it)
		}
		switch {
		case p.next == ind && p.isDash():
			continue
		case p.next > ind:
			p.badIndent(ind, n)
			return nil
		}
		n.content = p.collect(start)
		return n
	}
	return nil
}

// badIndent reports the line at p.i, indented more than the collection
// c of indentation ind that it follows and less than what it would need
// to belong to the last entry.
func (p *yparser) badIndent(ind int, c *ynode) {
	what := "a mapping entry"
	switch isKey, _ := p.keyAhead(); {
	case p.isDash():
		what = "a list item"
	case !isKey:
		if !p.plainStart(p.i, false) {
			p.unsupported()
			return
		}
		if c.kind == kMapping {
			p.fail(p.i, fmt.Sprintf("did not find expected key (bad indentation? the keys above are at column %d, as at line %d)", ind+1, c.line))
		} else {
			p.fail(p.i, fmt.Sprintf("did not find expected '-' indicator (bad indentation? the items above are at column %d, as at line %d)", ind+1, c.line))
		}
		return
	}
	p.fail(p.i, fmt.Sprintf("bad indentation of %s: expected column %d, as at line %d", what, ind+1, c.line))
}

// blockMap parses a block mapping whose keys are at indentation ind.
// With root set and a sink, the pairs go to the sink.
func (p *yparser) blockMap(ind int, root bool) *ynode {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	n := p.node(kMapping, p.i)
	start := len(p.stack)
	stream := root && p.sink != nil
	p.streamed = p.streamed || stream
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
		m1, m2 := p.nodes.mark(), p.ptrs.mark()
		k := p.key(colon)
		if !p.ok() {
			return nil
		}
		keep := true
		if stream {
			keep = p.sink.key(k)
		}
		p.spaces()
		if !p.ok() {
			return nil
		}
		var v *ynode
		if p.atLineEnd() {
			v = p.null(colon + 1)
			p.endLine()
			if !p.ok() {
				return nil
			}
			entities := stream && k.value == "entities" && p.next >= ind && p.isDash()
			switch {
			case entities:
				p.blockSeq(p.next, p.itemFunc(keep))
				v = nil
			case p.next > ind:
				v = p.blockNode(ind, false, true)
			case p.next == ind && p.isDash():
				v = p.blockSeq(ind, nil)
			}
		} else if stream && k.value == "entities" && p.at(p.i) == '[' {
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
			p.stack = append(p.stack, k, v)
		case v != nil:
			if keep {
				p.sink.pair(k, v)
			}
			p.nodes.reset(m1)
			p.ptrs.reset(m2)
		default:
			p.nodes.reset(m1)
			p.ptrs.reset(m2)
		}
		switch {
		case p.next == ind:
			continue
		case p.next > ind:
			p.badIndent(ind, n)
			return nil
		}
		n.content = p.collect(start)
		return n
	}
	return nil
}

// itemFunc returns the function that hands the items of the streamed
// entities list to the sink (or drops them).
func (p *yparser) itemFunc(keep bool) func(*ynode) {
	if !keep {
		return func(*ynode) {}
	}
	return p.sink.item
}

// key parses the simple key at p.i whose ':' is at colon, and moves past
// the ':'.
func (p *yparser) key(colon int) *ynode {
	if colon-p.i > 1024 || bytes.IndexByte(p.d[p.i:colon], '\t') >= 0 {
		p.unsupported() // yaml.v3 refuses keys over 1,024 characters
		return nil
	}
	var k *ynode
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
func (p *yparser) inline(parent int, inMap bool) *ynode {
	var n *ynode
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

func (p *yparser) afterSpaces(j int) int {
	for p.at(j) == ' ' {
		j++
	}
	return j
}

// plain parses a plain scalar in a block context, continued over the
// following lines indented more than parent, and moves to the next
// content (as endLine does).
func (p *yparser) plain(parent int, inMap bool) *ynode {
	start := p.i
	n := p.node(kScalar, start)
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
		n.null = true
	} else if text == "<<" {
		p.unsupported() // yaml.v3 tags it as a merge key
		return nil
	}
	n.value = text
	p.i = stop
	p.endLine()
	return n
}

// blockScalar parses a literal (|) or folded (>) block scalar at p.i in a
// block collection of indentation parent, as yaml.v3 does, and moves to
// the next content.
func (p *yparser) blockScalar(parent int) *ynode {
	start := p.i
	literal := p.d[start] == '|'
	n := p.node(kScalar, start)
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
	n.value = string(text)
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
func (p *yparser) docMarkerAhead(j int) bool {
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
func (p *yparser) plainLine(i int, flow bool) (end, stop int) {
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
func (p *yparser) quoted() *ynode {
	q := p.d[p.i]
	start := p.i
	n := p.node(kScalar, start)
	n.exact = true
	j := start + 1
	// The common case: on one line, without escapes.
	for j < len(p.d) {
		c := p.d[j]
		if c == q && (q == '"' || p.at(j+1) != '\'') {
			n.value = p.s[start+1 : j]
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
			n.value = string(buf)
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
func (p *yparser) escape(buf []byte, j int) ([]byte, int, bool) {
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
func (p *yparser) fspace() {
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
// `entities` list, a sequence), each item goes to item and the sequence
// keeps none. With root set and a sink, a mapping's pairs go to the sink.
func (p *yparser) flow(item func(*ynode), root bool) *ynode {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	open := p.i
	openLine, openCol := p.line, p.colAt(open)
	kind, closer := kMapping, byte('}')
	if p.d[open] == '[' {
		kind, closer = kSequence, ']'
	}
	n := p.node(kind, open)
	p.i++
	start := len(p.stack)
	stream := root && kind == kMapping && p.sink != nil
	p.streamed = p.streamed || stream
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
			n.content = p.collect(start)
			return n
		}
		m1, m2 := p.nodes.mark(), p.ptrs.mark()
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
		if hasColon && v.kind == kScalar && p.line != keyLine {
			// A key is on one line, with its ':'.
			p.fail(p.i, expected+p.openNote(open, openLine, openCol))
			return nil
		}
		if kind == kMapping || hasColon {
			// A pair: in a mapping, or a one-pair mapping in a sequence.
			if v.kind != kScalar || v.null && !hasColon {
				p.unsupported() // complex keys
				return nil
			}
			if !v.exact && (isNullWord(v.value) || v.value == "<<") {
				p.unsupported()
				return nil
			}
			k := v
			keep := true
			if stream {
				keep = p.sink.key(k)
			}
			if hasColon {
				if !p.blankAt(p.i+1) && !isFlowIndicator(p.at(p.i+1)) && !k.exact {
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
					if kind == kSequence {
						// yaml.v3 puts this null at the ':'.
						v = p.nodes.alloc()
						v.kind, v.null, v.line, v.col = kScalar, true, int32(colonLine), int32(colonCol)
					} else {
						v = p.null(p.i)
					}
				case stream && k.value == "entities" && c == '[':
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
					p.sink.pair(k, v)
				}
				p.nodes.reset(m1)
				p.ptrs.reset(m2)
			case kind == kMapping:
				p.stack = append(p.stack, k, v)
			default:
				m := p.nodes.alloc()
				m.kind, m.line, m.col = kMapping, k.line, k.col
				m.content = p.ptrs.slice(2)
				m.content[0], m.content[1] = k, v
				v = m
			}
		}
		if kind == kSequence {
			if item != nil {
				item(v)
				p.nodes.reset(m1)
				p.ptrs.reset(m2)
			} else {
				p.stack = append(p.stack, v)
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
func (p *yparser) openNote(open, line, col int) string {
	if line == p.line {
		return ""
	}
	return fmt.Sprintf(" (for the %q at line %d, column %d)", string(p.d[open]), line, col)
}

// flowNode parses a node inside a flow collection.
func (p *yparser) flowNode() *ynode {
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
func (p *yparser) flowPlain() *ynode {
	start := p.i
	n := p.node(kScalar, start)
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
		n.null = true
	} else if text == "<<" {
		p.unsupported()
		return nil
	}
	n.value = text
	p.i = stop
	return n
}

// isNullWord reports whether a plain scalar is YAML's null.
func isNullWord(s string) bool {
	return s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL"
}
