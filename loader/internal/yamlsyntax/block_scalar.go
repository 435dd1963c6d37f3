package yamlsyntax

// Block scalars: literal (|) and folded (>), as yaml.v3 reads them.

// blockScalar is the state of a block scalar being read.
type blockScalar struct {
	p       *parser
	j       int  // offset of the next byte
	parent  int  // indentation of the enclosing block collection (-1 at the root)
	indent  int  // indentation of the content; 0 until known
	literal bool // '|' keeps line breaks; '>' folds them
	chomp   int  // -1 strip (-), 0 clip, 1 keep (+) the final line breaks
	incr    int  // the indentation indicator, or 0

	text, lead, trail []byte
	end               int   // the end of the last line of content (or of the indicators)
	leadAt            int   // DecodeScalar: where the line break in lead is
	trailAt           []int // DecodeScalar: where the line breaks in trail are
}

// blockScalar parses a literal (|) or folded (>) block scalar at p.i in a
// block collection of indentation parent, as yaml.v3 does, and moves to
// the next content.
func (p *parser) blockScalar(parent int) *Node {
	b := &blockScalar{p: p, j: p.i + 1, parent: parent, literal: p.d[p.i] == '|'}
	n := p.node(Scalar, p.i)
	if !b.header() {
		return nil
	}
	if b.incr > 0 {
		b.indent = b.incr
		if parent >= 0 {
			b.indent = parent + b.incr
		}
	}
	if !b.body() {
		return nil
	}
	n.Value = string(b.text)
	p.end(n, b.end)
	// Go on from the start of the line that ended the scalar.
	if b.j >= len(p.d) {
		p.i, p.next = len(p.d), -1
		return n
	}
	p.i = p.lineStart
	p.skip()
	return n
}

// header reads the indicators after '|' or '>' (chomping and
// indentation, in either order), a comment, and the line break.
func (b *blockScalar) header() bool {
	p := b.p
	for range 2 {
		switch c := p.at(b.j); {
		case (c == '+' || c == '-') && b.chomp == 0 && b.j < len(p.d):
			b.chomp = 1
			if c == '-' {
				b.chomp = -1
			}
			b.j++
		case '1' <= c && c <= '9' && b.incr == 0:
			b.incr = int(c - '0')
			b.j++
		case c == '0':
			p.fail(b.j, "found an indentation indicator equal to 0")
			return false
		}
	}
	b.end = b.j
	j := b.j
	for c := p.at(j); (c == ' ' || c == '\t') && j < len(p.d); c = p.at(j) {
		j++
	}
	if c := p.at(j); c == '#' && j < len(p.d) {
		if p.d[j-1] != ' ' && p.d[j-1] != '\t' {
			p.unsupported()
			return false
		}
		for j < len(p.d) && !p.isBreak(j) {
			j++
		}
	}
	if j < len(p.d) && !p.isBreak(j) {
		p.fail(j, "did not find expected comment or line break after the block scalar indicator")
		return false
	}
	if j < len(p.d) {
		j += p.breakLen(j)
		p.line++
		p.lineStart = j
	}
	b.j = j
	return true
}

// body reads the lines of the scalar, folding or keeping the line breaks
// between them and chomping the final ones.
func (b *blockScalar) body() bool {
	p := b.p
	if !b.breaks() {
		return false
	}
	leadBlank := false
	for b.j-p.lineStart == b.indent && b.j < len(p.d) {
		j := b.j
		if p.lineStart == j-b.indent && b.indent == 0 && p.docMarker(j) {
			break
		}
		trailBlank := p.d[j] == ' ' || p.d[j] == '\t'
		if !b.literal && !leadBlank && !trailBlank && len(b.lead) > 0 && b.lead[0] == '\n' {
			if len(b.trail) == 0 {
				b.text = append(b.text, ' ')
				p.rec.note(len(b.text), b.leadAt)
			} else if p.rec.on {
				b.trailAt[0] = b.leadAt // the dropped break goes with the kept ones
			}
		} else {
			b.appendLead()
		}
		b.lead = b.lead[:0]
		b.appendTrail()
		leadBlank = trailBlank
		e := j
		for e < len(p.d) && !p.isBreak(e) {
			e++
		}
		b.text = append(b.text, p.d[j:e]...)
		p.rec.copied(len(b.text), j)
		b.j, b.end = e, e
		if e < len(p.d) {
			b.lead = append(b.lead, '\n')
			b.leadAt = e
			b.j += p.breakLen(e)
			p.line++
			p.lineStart = b.j
		}
		if !b.breaks() {
			return false
		}
	}
	if b.chomp != -1 {
		b.appendLead()
	}
	if b.chomp == 1 {
		b.appendTrail()
	}
	return true
}

// appendLead appends the line break pending after the last line of
// content.
func (b *blockScalar) appendLead() {
	b.text = append(b.text, b.lead...)
	b.p.rec.note(len(b.text), b.leadAt)
}

// appendTrail appends the line breaks of the empty lines read since, and
// forgets them.
func (b *blockScalar) appendTrail() {
	for i := range b.trail {
		b.text = append(b.text, b.trail[i])
		if b.p.rec.on {
			b.p.rec.note(len(b.text), b.trailAt[i])
		}
	}
	b.trail = b.trail[:0]
	b.trailAt = b.trailAt[:0]
}

// breaks skips the empty lines before content (and finds the indentation
// when it is not known), appending a line feed per line to trail.
func (b *blockScalar) breaks() bool {
	p := b.p
	maxInd := 0
	for {
		for (b.indent == 0 || b.j-p.lineStart < b.indent) && p.at(b.j) == ' ' && b.j < len(p.d) {
			b.j++
		}
		maxInd = max(maxInd, b.j-p.lineStart)
		if (b.indent == 0 || b.j-p.lineStart < b.indent) && p.at(b.j) == '\t' && b.j < len(p.d) {
			p.unsupported() // yaml.v3: a tab where an indentation space is expected
			return false
		}
		if !p.isBreak(b.j) {
			break
		}
		if p.docMarkerAhead(b.j) {
			return false
		}
		if p.rec.on {
			b.trailAt = append(b.trailAt, b.j)
		}
		b.j += p.breakLen(b.j)
		p.line++
		p.lineStart = b.j
		b.trail = append(b.trail, '\n')
	}
	if b.indent == 0 {
		b.indent = max(maxInd, b.parent+1, 1)
	}
	return true
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
