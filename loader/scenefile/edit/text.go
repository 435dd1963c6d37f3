package edit

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/scenecs/scenecs/internal/attrtext"
	"github.com/scenecs/scenecs/loader/internal/textpos"
	"github.com/scenecs/scenecs/loader/internal/xmltok"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// Saving edits back into scene files: the pieces shared by the YAML and
// XML editors. An edit is a list of rawOps, each replacing one span of the
// file's bytes; everything outside the spans stays as it was. Values are
// edited as slots: a scalar as written (plain, quoted, a block scalar, an
// XML attribute value) with its decoded text and, from the parser, where
// each byte of the text was written (yamlsyntax.DecodeScalar,
// xmltok.DecodeValue), so that one property inside an attribute string
// changes and nothing around it, whatever escapes, references or folds
// come before it.

// rawOp replaces src[start:end] with text.
type rawOp struct {
	start, end int
	text       string
}

// applyRaw returns src with ops applied. The ops may come in any order but
// may not overlap (two insertions at one offset keep their order).
func applyRaw(src []byte, ops []rawOp) ([]byte, error) {
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].start < ops[j].start })
	n := len(src)
	for i, op := range ops {
		if op.start < 0 || op.end < op.start || op.end > len(src) || i > 0 && op.start < ops[i-1].end {
			return nil, fmt.Errorf("internal error: overlapping or out-of-range edits")
		}
		n += len(op.text) - (op.end - op.start)
	}
	out := make([]byte, 0, n)
	at := 0
	for _, op := range ops {
		out = append(out, src[at:op.start]...)
		out = append(out, op.text...)
		at = op.end
	}
	return append(out, src[at:]...), nil
}

// textOp replaces text[a:b] of a slot's decoded text with repl.
type textOp struct {
	a, b int
	repl string
}

// applyText returns text with ops (sorted, not overlapping) applied.
func applyText(text string, ops []textOp) string {
	var b strings.Builder
	at := 0
	for _, op := range ops {
		b.WriteString(text[at:op.a])
		b.WriteString(op.repl)
		at = op.b
	}
	b.WriteString(text[at:])
	return b.String()
}

// Slot styles.
const (
	stylePlain   = 0    // a YAML plain scalar
	styleDouble  = '"'  // a YAML double-quoted scalar
	styleSingle  = '\'' // a YAML single-quoted scalar
	styleLiteral = '|'  // a YAML literal block scalar
	styleFolded  = '>'  // a YAML folded block scalar
	styleNull    = 'n'  // YAML null: nothing written, or ~ / null
	styleXML     = 'x'  // an XML attribute value, quoted with slot.quote
)

// slot is one scalar value as written in a file.
type slot struct {
	start, end int     // the bytes of the scalar (YAML: quotes included; XML: between the quotes)
	style      byte    // how it is written
	quote      byte    // the quote of an XML attribute value
	flow       bool    // a YAML scalar inside a flow collection
	parent     int     // YAML: the indentation of the collection holding it
	text       string  // its decoded text
	at         []int32 // where each byte of text was written, from the parser (len(text)+1)
}

// edit returns the raw ops that turn the slot's text into
// applyText(text, ops): each span of the text rewritten in place, at the
// bytes the parser says wrote it, in the slot's style, where the style
// can hold the new text and the slot then reads back as it (checked with
// the parser); or else the whole value written anew in the style
// rewrite chooses.
func (s *slot) edit(src []byte, ops []textOp) []rawOp {
	full := applyText(s.text, ops)
	if s.style != styleNull && s.canSplice(ops, full) {
		out := make([]rawOp, 0, len(ops))
		for _, op := range ops {
			out = append(out, rawOp{int(s.at[op.a]), int(s.at[op.b]), s.escape(op.repl)})
		}
		if s.readsBack(src, out, full) {
			return out
		}
	}
	return []rawOp{s.rewrite(src, full)}
}

// readsBack reports whether the slot, with ops applied to the file,
// reads as text (the parser decodes it again).
func (s *slot) readsBack(src []byte, ops []rawOp, text string) bool {
	out, err := applyRaw(src, slices.Clone(ops))
	if err != nil {
		return false
	}
	end := s.end + len(out) - len(src)
	if s.style == styleXML {
		got, _, ok := xmltok.DecodeValue(out, s.start, end)
		return ok && got == text
	}
	d, ok := yamlsyntax.DecodeScalar(out, s.start, end, s.parent)
	return ok && d.Text == text
}

// rewrite returns the op that writes the whole slot anew with text.
func (s *slot) rewrite(src []byte, text string) rawOp {
	switch s.style {
	case styleXML:
		return rawOp{s.start, s.end, xmlEscape(text, s.quote)}
	case styleNull:
		v := yamlValue(text, s.flow)
		if s.start == s.end {
			// Nothing written after the colon: add a space before the
			// value unless one is there, and one after it before a
			// comment.
			if s.start == 0 || src[s.start-1] != ' ' && src[s.start-1] != '\t' {
				v = " " + v
			}
			if s.start < len(src) && src[s.start] == '#' {
				v += " "
			}
		}
		return rawOp{s.start, s.end, v}
	}
	return rawOp{s.start, s.end, yamlScalar(text, s.flow, s.style)}
}

// canSplice reports whether the slot's style can write the new pieces
// of text ops make, in place, to give full. Whether the value then reads
// as full, readsBack tells with the parser; what it cannot tell for a
// plain scalar (whether a piece would end it early, with a comment or a
// key), this does.
func (s *slot) canSplice(ops []textOp, full string) bool {
	for _, op := range ops {
		switch s.style {
		case stylePlain:
			if op.repl != "" && !yamlPlainOK(op.repl, s.flow) {
				return false
			}
		case styleSingle, styleLiteral, styleFolded:
			if !yamlsyntax.SingleQuotable(op.repl) {
				return false
			}
		}
	}
	if s.style == stylePlain {
		// The lines of the whole, folded lines and all.
		return yamlPlainOK(strings.ReplaceAll(full, "\n", " "), s.flow)
	}
	return true
}

// escape writes a piece of text in the slot's style (canSplice said
// the style can write it).
func (s *slot) escape(text string) string {
	switch s.style {
	case styleDouble:
		return yamlsyntax.EscapeDouble(text)
	case styleSingle:
		return strings.ReplaceAll(text, "'", "''")
	case styleXML:
		return xmlEscape(text, s.quote)
	}
	return text
}

// yamlScalar writes text as a YAML scalar in the style prefer where that
// style can write it, else double-quoted (a plain one if prefer is
// stylePlain and it can be).
func yamlScalar(text string, flow bool, prefer byte) string {
	if prefer == stylePlain && yamlPlainOK(text, flow) {
		return text
	}
	if prefer == styleSingle && yamlsyntax.SingleQuotable(text) {
		return "'" + strings.ReplaceAll(text, "'", "''") + "'"
	}
	return `"` + yamlsyntax.EscapeDouble(text) + `"`
}

// yamlValue writes a new value: plain if it can be, else double-quoted.
func yamlValue(text string, flow bool) string {
	if yamlPlainOK(text, flow) {
		return text
	}
	return `"` + yamlsyntax.EscapeDouble(text) + `"`
}

func isFoldSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// yamlPlainOK reports whether text can be written as a YAML plain scalar
// (in a flow collection if flow) that reads back as text and not as null:
// one line, no surrounding spaces, no indicator at the start, no ": " or
// " #" inside, and in a flow collection none of ",[]{}?:".
func yamlPlainOK(text string, flow bool) bool {
	if text == "" || yamlsyntax.IsNull(text) || text == "<<" {
		return false // "<<" reads as a merge key, even as a value
	}
	if isFoldSpace(text[0]) || isFoldSpace(text[len(text)-1]) {
		return false
	}
	switch c := text[0]; c {
	case '-', '?', ':':
		if len(text) == 1 || text[1] == ' ' || flow && strings.IndexByte(",[]{}", text[1]) >= 0 {
			return false
		}
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	if text[len(text)-1] == ':' {
		return false
	}
	if strings.Contains(text, ": ") || strings.Contains(text, " #") || strings.Contains(text, ":\t") || strings.Contains(text, "\t#") {
		return false
	}
	if flow && strings.ContainsAny(text, ",[]{}?") {
		return false // yaml.v3 ends a plain scalar at '?' in a flow collection
	}
	if flow && strings.Contains(text, ":") {
		// "a:b" is plain in a flow mapping for YAML 1.2, but not for
		// every reader: quote it.
		return false
	}
	return yamlsyntax.PlainSafe(text)
}

// xmlEscape writes text for the inside of an XML attribute value quoted
// with quote.
func xmlEscape(text string, quote byte) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '"':
			if quote == '"' {
				b.WriteString("&quot;")
			} else {
				b.WriteByte(c)
			}
		case '\'':
			if quote == '\'' {
				b.WriteString("&apos;")
			} else {
				b.WriteByte(c)
			}
		case '\t':
			b.WriteString("&#9;")
		case '\n':
			b.WriteString("&#10;")
		case '\r':
			b.WriteString("&#13;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// attrPair is one "property: value" pair of a multi-property attribute
// string, with the bounds of its trimmed key and value in the string.
type attrPair struct {
	key                        string
	keyStart, colon            int
	valStart, valEnd, chunkEnd int
}

// splitAttrPairs cuts a multi-property attribute string as
// Schema.ParseAttr does: at each ';' outside url(...), each chunk at its
// first ':', keys and values trimmed of ASCII white space; empty chunks
// are skipped.
func splitAttrPairs(text string) ([]attrPair, error) {
	var out []attrPair
	for at := 0; at <= len(text); {
		var c attrtext.Chunk
		c, at = attrtext.Cut(text, at)
		if c.Empty() {
			continue
		}
		if c.Colon < 0 {
			return nil, fmt.Errorf("%q is not a \"property: value\" pair", text[c.TrimStart:c.TrimEnd])
		}
		out = append(out, attrPair{key: text[c.KeyStart:c.KeyEnd], keyStart: c.KeyStart, colon: c.Colon,
			valStart: c.ValStart, valEnd: c.ValEnd, chunkEnd: c.End})
	}
	return out, nil
}

// trimSpan returns the bounds of s[a:b] without surrounding ASCII white
// space (as the attribute parser trims).
func trimSpan(s string, a, b int) (int, int) { return attrtext.Trim(s, a, b) }

func isAttrSpace(c byte) bool { return attrtext.IsSpace(c) }

// attrTextOps returns the edits that set props in text, a component's
// attribute string: for a single-property component the whole value; for
// others each property's value where the string gives it (its last
// occurrence, the one that counts), and the properties it does not give
// appended as "name: value" in the string's own spacing.
func attrTextOps(text string, s Schema, props []Prop) ([]textOp, error) {
	if s.IsTag() || len(props) == 0 {
		return nil, nil
	}
	if s.Single() {
		v := props[len(props)-1].Text
		if v == text {
			return nil, nil
		}
		return []textOp{{0, len(text), v}}, nil
	}
	pairs, err := splitAttrPairs(text)
	if err != nil {
		return nil, err
	}
	var ops []textOp
	var add []Prop
	for _, p := range props {
		last := -1
		for i, pr := range pairs {
			if idx, ok := s.lookup(pr.key); ok && idx == p.Index {
				last = i
			}
		}
		if last < 0 {
			add = append(add, p)
			continue
		}
		pr := pairs[last]
		if text[pr.valStart:pr.valEnd] != p.Text {
			ops = append(ops, textOp{pr.valStart, pr.valEnd, p.Text})
		}
	}
	if len(add) > 0 {
		ops = append(ops, appendPairsOp(text, pairs, s, add))
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].a < ops[j].a })
	return ops, nil
}

// appendPairsOp returns the edit that appends props to text, an
// attribute string of pairs, as "name: value" in its own spacing.
func appendPairsOp(text string, pairs []attrPair, s Schema, props []Prop) textOp {
	colonSep, pairSep := ": ", "; "
	if len(pairs) > 0 {
		p := pairs[0]
		if p.valStart == p.colon+1 && p.valEnd > p.valStart {
			colonSep = ":"
		}
		if p.chunkEnd+1 < len(text) && !isAttrSpace(text[p.chunkEnd+1]) {
			pairSep = ";"
		}
	}
	_, end := trimSpan(text, 0, len(text))
	var b strings.Builder
	for i, p := range props {
		switch {
		case i > 0:
			b.WriteString(pairSep)
		case end == 0:
		case text[end-1] == ';':
			b.WriteString(strings.TrimLeft(pairSep, ";"))
		default:
			b.WriteString(pairSep)
		}
		b.WriteString(s.Props[p.Index])
		b.WriteString(colonSep)
		b.WriteString(p.Text)
	}
	return textOp{end, end, b.String()}
}

// newAttrText returns the attribute string that writes props.
func newAttrText(s Schema, props []Prop) string {
	ops, _ := attrTextOps("", s, props)
	return applyText("", ops)
}

// textLines answers questions about the lines of a file's bytes from
// its line table (textpos.Index), built once.
type textLines struct {
	src []byte
	x   *textpos.Index
}

func newTextLines(src []byte) textLines { return textLines{src, textpos.NewIndex(src)} }

// line returns the 1-based line that holds offset off (a line break
// belongs to the line it ends).
func (l textLines) line(off int) int {
	line, _ := l.x.LineCol(off)
	return line
}

// start returns the offset where the line holding off starts.
func (l textLines) start(off int) int { return l.x.LineStart(l.line(off)) }

// next returns the offset where the line after the one holding off
// starts, or the end of the bytes on the last line.
func (l textLines) next(off int) int {
	line := l.line(off)
	if line >= l.x.Lines() {
		return len(l.src)
	}
	return l.x.LineStart(line + 1)
}

// end returns the offset where the line holding off ends: its line
// break ("\r\n" or "\n"), or the end of the bytes.
func (l textLines) end(off int) int {
	line := l.line(off)
	if line >= l.x.Lines() {
		return len(l.src)
	}
	e := l.x.LineStart(line+1) - 1 // the '\n'
	if e > 0 && l.src[e-1] == '\r' {
		e--
	}
	return e
}

// indent returns the spaces that indent a key written at offset off:
// as many as the bytes before it on its line (after "- ", say).
func (l textLines) indent(off int) string {
	return strings.Repeat(" ", off-l.start(off))
}

// newline returns the line break src uses: "\r\n" if its first line
// ends so, else "\n".
func newline(src []byte) string {
	for i, c := range src {
		if c == '\n' {
			if i > 0 && src[i-1] == '\r' {
				return "\r\n"
			}
			return "\n"
		}
	}
	return "\n"
}

// Props returns the properties an attribute string gives, in the order
// it first gives them, each once (the last value of a repeated one),
// with their text as written, trimmed: for a single-property component
// the whole string, even empty (the empty string for a string, the
// default for other types); for a tag, none. It splits as the registry's
// attribute parser does, but does not look at the values: the caller's
// registry does.
func Props(sch Schema, attr string) ([]Prop, error) {
	switch {
	case sch.IsTag():
		return nil, nil
	case sch.Single():
		a, b := trimSpan(attr, 0, len(attr))
		return []Prop{{0, attr[a:b]}}, nil
	}
	pairs, err := splitAttrPairs(attr)
	if err != nil {
		return nil, err
	}
	var out []Prop
	for _, p := range pairs {
		idx, ok := sch.lookup(p.key)
		if !ok {
			return nil, fmt.Errorf("unknown property %q", p.key)
		}
		v := attr[p.valStart:p.valEnd]
		if i := slices.IndexFunc(out, func(q Prop) bool { return q.Index == idx }); i >= 0 {
			out[i].Text = v
			continue
		}
		out = append(out, Prop{idx, v})
	}
	return out, nil
}
