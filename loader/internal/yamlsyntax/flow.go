package yamlsyntax

import (
	"bytes"
	"fmt"
)

// Flow collections: [a, b] and {a: b}, over any number of lines.

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

// flowColl is a flow collection being parsed.
type flowColl struct {
	open              int  // offset of its opening bracket
	openLine, openCol int  // and its position
	kind              Kind // Mapping or Sequence
	closer            byte // '}' or ']'
	stream            bool // a root mapping whose pairs go to the sink
	item              func(*Node)
	expected          string // what a message says was expected
}

// unclosed reports the collection as never closed.
func (f *flowColl) unclosed(p *parser) {
	p.fail(f.open, fmt.Sprintf("%q is never closed (%s)", string(p.d[f.open]), f.expected))
}

// misplaced reports the text at p.i where a separator or the end of the
// collection should be.
func (f *flowColl) misplaced(p *parser) {
	p.fail(p.i, f.expected+p.openNote(f.open, f.openLine, f.openCol))
}

// The errors of a flow collection missing its separator or closer
// (constants: a load parses many flow collections and fails rarely).
const (
	expectedMapEnd = "did not find expected ',' or '}'"
	expectedSeqEnd = "did not find expected ',' or ']'"
)

// flow parses a flow mapping or sequence at p.i, over any number of lines,
// and moves past its closing bracket. With item set (a streamed list, a
// sequence), each item goes to item and the sequence keeps none. With
// root set and a sink, a mapping's pairs go to the sink.
func (p *parser) flow(item func(*Node), root bool) *Node {
	if !p.enter() {
		return nil
	}
	defer p.leave()
	f := &flowColl{open: p.i, openLine: p.line, openCol: p.colAt(p.i), kind: Mapping, closer: '}', item: item}
	if p.d[f.open] == '[' {
		f.kind, f.closer = Sequence, ']'
	}
	f.stream = root && f.kind == Mapping && p.sink != nil
	f.expected = expectedMapEnd
	if f.kind == Sequence {
		f.expected = expectedSeqEnd
	}
	n := p.node(f.kind, f.open)
	p.i++
	start := p.nodes.Pending()
	p.Streamed = p.Streamed || f.stream
	p.fspace()
	for p.ok() {
		if p.i >= len(p.d) {
			f.unclosed(p)
			return nil
		}
		if p.d[p.i] == f.closer {
			p.i++
			n.Content = p.nodes.Collect(start)
			p.end(n, p.i)
			return n
		}
		if !p.flowEntry(f) || !p.flowSeparator(f) {
			return nil
		}
	}
	return nil
}

// flowEntry parses one entry of a flow collection: an item of a
// sequence, or a pair (of a mapping, or a one-pair mapping in a
// sequence).
func (p *parser) flowEntry(f *flowColl) bool {
	m := p.nodes.Mark()
	if p.d[p.i] == ',' {
		p.fail(p.i, "did not find expected node content")
		return false
	}
	keyLine := p.line
	v := p.flowNode()
	if !p.ok() {
		return false
	}
	p.fspace()
	if !p.ok() {
		return false
	}
	hasColon := p.at(p.i) == ':' && p.i < len(p.d)
	if hasColon && v.Kind == Scalar && p.line != keyLine {
		f.misplaced(p) // a key is on one line, with its ':'
		return false
	}
	if f.kind == Mapping || hasColon {
		var ok bool
		if v, ok = p.flowPair(f, v, hasColon, m); !ok {
			return false
		}
	}
	if f.kind == Sequence {
		if f.item != nil {
			f.item(v)
			p.nodes.Reset(m)
		} else {
			p.nodes.Push(v)
		}
	}
	return true
}

// flowPair parses the value of the flow key k (after its ':' if
// hasColon, else null) and records the pair: to the sink when streaming
// (rewinding the arena to m), in the mapping, or, in a sequence, as the
// one-pair mapping it returns.
func (p *parser) flowPair(f *flowColl, k *Node, hasColon bool, m Mark) (*Node, bool) {
	if k.Kind != Scalar || k.Null && !hasColon {
		p.unsupported() // complex keys
		return nil, false
	}
	if !k.Exact && (IsNull(k.Value) || k.Value == "<<") {
		p.unsupported()
		return nil, false
	}
	keep, items := true, false
	if f.stream {
		keep, items = p.sink.Key(k)
	}
	var v *Node
	if hasColon {
		var ok bool
		if v, ok = p.flowValue(f, k, keep, items); !ok {
			return nil, false
		}
	} else {
		v = p.null(p.i)
	}
	switch {
	case f.stream:
		if keep && v != nil {
			p.sink.Pair(k, v)
		}
		p.nodes.Reset(m)
	case f.kind == Mapping:
		p.nodes.Push(k)
		p.nodes.Push(v)
	default:
		pair := p.nodes.New()
		pair.Kind, pair.Line, pair.Col = Mapping, k.Line, k.Col
		pair.Off, pair.End = k.Off, v.End
		pair.Content = p.nodes.Slice(2)
		pair.Content[0], pair.Content[1] = k, v
		v = pair
	}
	return v, true
}

// flowValue parses the value after the ':' at p.i of flow key k. With
// items, a list goes to the sink item by item (or is dropped, without
// keep) and the value is nil.
func (p *parser) flowValue(f *flowColl, k *Node, keep, items bool) (*Node, bool) {
	if !p.blankAt(p.i+1) && !isFlowIndicator(p.at(p.i+1)) && !k.Exact {
		p.unsupported()
		return nil, false
	}
	colonLine, colonCol := p.line, p.colAt(p.i)
	p.i++
	p.fspace()
	if !p.ok() {
		return nil, false
	}
	switch c := p.at(p.i); {
	case p.i >= len(p.d):
		f.unclosed(p)
		return nil, false
	case c == ',' || c == f.closer:
		if f.kind == Sequence {
			// yaml.v3 puts this null at the ':'.
			v := p.nodes.New()
			v.Kind, v.Null, v.Line, v.Col = Scalar, true, int32(colonLine), int32(colonCol)
			v.Off = int32(p.i)
			p.end(v, p.i)
			return v, true
		}
		return p.null(p.i), true
	case items && c == '[':
		p.flow(p.itemFunc(keep), false)
		return nil, p.ok()
	}
	v := p.flowNode()
	return v, p.ok()
}

// flowSeparator reads what follows an entry: a ',' (and white space), or
// the closing bracket, which it leaves for flow.
func (p *parser) flowSeparator(f *flowColl) bool {
	p.fspace()
	if !p.ok() {
		return false
	}
	switch c := p.at(p.i); {
	case p.i >= len(p.d):
		f.unclosed(p)
		return false
	case c == ',':
		p.i++
		p.fspace()
		if p.at(p.i) == ',' && p.i < len(p.d) {
			p.fail(p.i, "did not find expected node content")
			return false
		}
	case c == f.closer:
	default:
		f.misplaced(p)
		return false
	}
	return true
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
