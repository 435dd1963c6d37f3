package yamlsyntax

import (
	"bytes"
	"math"
)

// Decoding a scalar again, with where each byte of its text was written.

// recorder records, while DecodeScalar runs, where each byte of the text
// being decoded was written. Off (the parser's normal run) it does
// nothing.
type recorder struct {
	on bool
	at []int32 // at[i]: the offset in the input of what wrote byte i
}

// note records that the bytes of the text past those recorded, up to n,
// were written by what starts at offset off (an escape, a line break
// folded into a space, a character).
func (r *recorder) note(n, off int) {
	if !r.on {
		return
	}
	for len(r.at) < n {
		r.at = append(r.at, int32(off))
	}
}

// copied records that the bytes of the text past those recorded, up to
// n, are a copy of the input from offset off.
func (r *recorder) copied(n, off int) {
	if !r.on {
		return
	}
	for len(r.at) < n {
		r.at = append(r.at, int32(off))
		off++
	}
}

// cut forgets the bytes of the text from n on (white space a fold drops).
func (r *recorder) cut(n int) {
	if r.on && len(r.at) > n {
		r.at = r.at[:n]
	}
}

// Decoded is the text of a scalar with, for each of its bytes, where in
// the input it was written.
type Decoded struct {
	Text string
	// At[i] is the offset in the input of what wrote Text[i]: the
	// character itself, or the escape, the doubled quote or the line
	// break (folded into a space) that stands for it. At[len(Text)] is
	// the end of the text as written (the closing quote of a quoted
	// scalar). At never decreases, so the bytes [At[a], At[b]) wrote
	// Text[a:b], and replacing them rewrites exactly that part of the
	// text.
	At []int32
}

// DecodeScalar decodes again the scalar that Parse read from
// data[off:end] (a node's span), with Parse's own code, and returns its
// text (Node.Value) and where each byte of it was written. parent is
// the indentation of the block collection that holds the scalar (-1 at
// the root), which a block scalar's indentation indicator counts from;
// ok is false if data[off:end] is not a scalar as Parse reads one.
// An empty span is a null written as nothing: no text.
func DecodeScalar(data []byte, off, end, parent int) (d Decoded, ok bool) {
	if off < 0 || end > len(data) || off > end || len(data) > math.MaxInt32 {
		return Decoded{}, false
	}
	if off == end {
		return Decoded{At: []int32{int32(off)}}, true
	}
	// The parser reads from the start of the scalar's line (indentation
	// is counted from line starts), and takes the text of plain and
	// quoted scalars from a copy of the span's bytes only.
	base := bytes.LastIndexByte(data[:off], '\n') + 1
	data, off, end = data[base:], off-base, end-base
	p := &parser{d: data, s: string(data[:end]), line: 1, i: off}
	p.cols.SetText(data, false)
	p.rec.on = true
	var n *Node
	switch data[off] {
	case '"', '\'':
		n = p.quoted()
	case '|', '>':
		n = p.blockScalar(parent)
	default:
		n = p.node(Scalar, off)
		if !p.plainValue(n, off, min(end, lineEndIn(data, off, end)), end) {
			return Decoded{}, false
		}
	}
	if n == nil || !p.ok() || int(n.End) != end {
		return Decoded{}, false
	}
	at := p.rec.at
	if len(at) == 0 && n.Value != "" {
		// Written as it reads: one line, without escapes.
		start := off
		if data[off] == '"' || data[off] == '\'' {
			start++
		}
		p.rec.copied(len(n.Value), start)
		at = p.rec.at
	}
	if len(at) != len(n.Value) {
		return Decoded{}, false
	}
	last := end
	if data[off] == '"' || data[off] == '\'' {
		last = end - 1
	}
	for i := range at {
		at[i] = int32(base) + min(at[i], int32(last)) // the line breaks a block scalar keeps after its end
	}
	return Decoded{Text: n.Value, At: append(at, int32(base+last))}, true
}

// lineEndIn returns the end of the text of the line that starts at off,
// at most end: where a plain scalar's first line ends (its trailing
// spaces left out).
func lineEndIn(data []byte, off, end int) int {
	e := off
	for e < end && data[e] != '\n' && data[e] != '\r' {
		e++
	}
	for e > off && (data[e-1] == ' ' || data[e-1] == '\t') {
		e--
	}
	return e
}
