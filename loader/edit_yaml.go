package loader

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
	"github.com/scenecs/scenecs/registry"
)

// The YAML editor. It finds its way from the positions the reader
// records: an entity's position is its first key (a block mapping) or its
// '{' (a flow mapping); a component's is its key, its value's the first
// byte of the value (a quote, a '{', the first key of a block mapping),
// and for a value left empty the place just after the colon. The ends of
// values are found by scanning from there: quoted scalars to their
// closing quote, plain ones by their decoded text (sourceOffset walks the
// folds of a scalar over several lines), flow collections to their
// closing bracket, block mappings line by line by indentation.

type yamlEditor struct {
	src []byte
	s   *source
	nl  string // the file's line break
}

func newYAMLEditor(file string, src []byte) *yamlEditor {
	return &yamlEditor{src: src, s: &source{file: file, data: src, format: FormatYAML}, nl: newline(src)}
}

// off returns the byte offset of p.
func (y *yamlEditor) off(p Pos) (int, error) {
	o, ok := y.s.offset(p)
	if !ok || o > len(y.src) {
		return 0, fmt.Errorf("%s: no such position in the file", p)
	}
	return o, nil
}

// scalar returns the slot of a scalar value at p whose decoded text is
// text; a value that is not exact is null (nothing written, or ~).
func (y *yamlEditor) scalar(p Pos, text string, exact, flow bool) (slot, error) {
	o, err := y.off(p)
	if err != nil {
		return slot{}, err
	}
	src := y.src
	if !exact {
		end := o
		for end < len(src) && !isFoldSpace(src[end]) && strings.IndexByte(",]}#", src[end]) < 0 {
			end++
		}
		if w := string(src[o:end]); w != "" && yamlsyntax.IsNull(w) {
			return slot{start: o, end: end, style: styleNull, flow: flow}, nil
		}
		return slot{start: o, end: o, style: styleNull, flow: flow}, nil
	}
	if o >= len(src) {
		return slot{}, fmt.Errorf("%s: no value there", p)
	}
	switch src[o] {
	case '"', '\'':
		end, err := y.quotedEnd(o)
		if err != nil {
			return slot{}, err
		}
		return slot{start: o, end: end, style: src[o], flow: flow, text: text}, nil
	case '|', '>':
		return slot{}, fmt.Errorf("%s: the value is a block scalar (%c); edit it by hand", p, src[o])
	}
	end := o + len(text)
	if !bytes.HasPrefix(src[o:], []byte(text)) {
		end = o + sourceOffset(src[o:], text, len(text), 0, FormatYAML)
	}
	return slot{start: o, end: end, style: stylePlain, flow: flow, text: text}, nil
}

// quotedEnd returns the offset just after the quoted scalar starting at o.
func (y *yamlEditor) quotedEnd(o int) (int, error) {
	src, q := y.src, y.src[o]
	for i := o + 1; i < len(src); i++ {
		switch c := src[i]; {
		case q == '"' && c == '\\':
			i++
		case c == q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i++
				continue
			}
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("%s: unterminated quoted scalar", y.s.idxPos(o))
}

// flowEnd returns the offset just after the flow collection starting
// with '{' or '[' at o.
func (y *yamlEditor) flowEnd(o int) (int, error) {
	src := y.src
	depth, tok := 0, true
	for i := o; i < len(src); {
		c := src[i]
		switch {
		case c == '{' || c == '[':
			depth++
			tok = true
			i++
		case c == '}' || c == ']':
			depth--
			i++
			if depth == 0 {
				return i, nil
			}
			tok = false
		case c == ',' || c == ':':
			tok = true
			i++
		case c == '#' && (i == 0 || isFoldSpace(src[i-1])):
			i = lineEnd(src, i)
		case isFoldSpace(c):
			i++
		case (c == '"' || c == '\'') && tok:
			end, err := y.quotedEnd(i)
			if err != nil {
				return 0, err
			}
			i, tok = end, false
		default:
			i++
			tok = false
		}
	}
	return 0, fmt.Errorf("%s: unterminated flow collection", y.s.idxPos(o))
}

// idxPos returns the position of byte offset off, for messages.
func (s *source) idxPos(off int) Pos {
	if s.idx == nil {
		s.idx = newLineIndex(s.file, s.data)
	}
	return s.idx.pos(off)
}

// ykey is one key of a block mapping: where it starts and where the
// last line of its value ends (before the line break), comment lines
// after it left out.
type ykey struct {
	name       string
	start, end int
}

// blockKeys returns the keys of the block mapping whose first key starts
// at k0, found by indentation: a line indented as the first key starts a
// key (unless it is a "- " item of a list written at that indentation),
// a line indented less ends the mapping, comment and blank lines are
// skipped.
func (y *yamlEditor) blockKeys(k0 int) []ykey {
	src := y.src
	indent := k0 - lineStart(src, k0)
	keys := []ykey{{name: y.keyName(k0), start: k0, end: lineEnd(src, k0)}}
	i := lineEnd(src, k0)
	for i < len(src) {
		// i is at the line break of the previous line.
		if src[i] == '\r' {
			i++
		}
		i++ // '\n'
		if i >= len(src) {
			break
		}
		le := lineEnd(src, i)
		ind := 0
		for i+ind < le && src[i+ind] == ' ' {
			ind++
		}
		rest := src[i+ind : le]
		switch {
		case len(rest) == 0 || rest[0] == '#':
		case ind < indent, ind == 0 && (bytes.HasPrefix(rest, []byte("---")) || bytes.HasPrefix(rest, []byte("..."))):
			return keys
		case ind == indent && !(rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ')):
			keys = append(keys, ykey{name: y.keyName(i + ind), start: i + ind, end: le})
		default:
			keys[len(keys)-1].end = le
		}
		i = le
	}
	return keys
}

// keyName returns the plain or quoted key starting at o.
func (y *yamlEditor) keyName(o int) string {
	src := y.src
	if o < len(src) && (src[o] == '"' || src[o] == '\'') {
		if end, err := y.quotedEnd(o); err == nil {
			return strings.ReplaceAll(string(src[o+1:end-1]), "''", "'")
		}
		return ""
	}
	i := o
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		if src[i] == ':' && (i+1 == len(src) || isFoldSpace(src[i+1])) {
			break
		}
		i++
	}
	return strings.TrimRight(string(src[o:i]), " \t")
}

// afterColon returns the offset just after the ':' of the key at o.
func (y *yamlEditor) afterColon(o int) (int, error) {
	src := y.src
	i := o
	if i < len(src) && (src[i] == '"' || src[i] == '\'') {
		end, err := y.quotedEnd(i)
		if err != nil {
			return 0, err
		}
		i = end
	}
	for ; i < len(src); i++ {
		if src[i] == ':' && (i+1 == len(src) || isFoldSpace(src[i+1]) || strings.IndexByte(",]}", src[i+1]) >= 0) {
			return i + 1, nil
		}
		if src[i] == '\n' {
			break
		}
	}
	return 0, fmt.Errorf("%s: no ':' after the key", y.s.idxPos(o))
}

// indentOf returns the indentation to write a new key at the level of
// the key at o: the spaces before it, or as many spaces as the bytes
// before it on its line (after "- ").
func (y *yamlEditor) indentOf(o int) string {
	return strings.Repeat(" ", o-lineStart(y.src, o))
}

// isFlow reports whether the mapping at o is a flow mapping.
func (y *yamlEditor) isFlow(o int) bool { return o < len(y.src) && y.src[o] == '{' }

// valueEnd returns where the value of component c ends.
func (y *yamlEditor) valueEnd(c *ComponentSpec, flow bool) (int, error) {
	o, err := y.off(c.ValuePos)
	if err != nil {
		return 0, err
	}
	switch {
	case c.Kind == ValueMap && y.isFlow(o), c.Kind == ValueEmpty && !c.Exact && y.isFlow(o):
		return y.flowEnd(o)
	case c.Kind == ValueMap:
		kv := c.Map[len(c.Map)-1]
		s, err := y.scalar(kv.ValuePos, kv.Value, kv.Exact, false)
		if err != nil {
			return 0, err
		}
		return s.end, nil
	}
	s, err := y.scalar(c.ValuePos, c.Text, c.Exact, flow)
	if err != nil {
		return 0, err
	}
	return s.end, nil
}

// setComponent returns the ops that set props on the entity's component
// c (nil: the entity does not write it, and it is added).
func (y *yamlEditor) setComponent(ent *EntitySpec, name string, c *ComponentSpec, sch *registry.Schema, props []propEdit) ([]rawOp, error) {
	eo, err := y.off(ent.Pos)
	if err != nil {
		return nil, err
	}
	flow := y.isFlow(eo)
	if c == nil {
		return y.addComponent(ent, eo, flow, name, sch, props)
	}
	if len(props) == 0 || sch.IsTag() {
		return nil, nil // there, and nothing to set
	}
	vo, err := y.off(c.ValuePos)
	if err != nil {
		return nil, err
	}
	switch {
	case c.Kind == ValueText || c.Kind == ValueEmpty && !y.isFlow(vo):
		return y.setText(c, name, flow, sch, props)
	case sch.Single():
		return y.setSingle(c, vo, flow, props)
	case c.Kind == ValueEmpty:
		return y.setEmptyMap(vo, sch, props)
	}
	return y.setMap(c, vo, flow, sch, props)
}

// setText sets props in a component written as an attribute string (or
// nothing).
func (y *yamlEditor) setText(c *ComponentSpec, name string, flow bool, sch *registry.Schema, props []propEdit) ([]rawOp, error) {
	s, err := y.scalar(c.ValuePos, c.Text, c.Exact, flow)
	if err != nil {
		return nil, err
	}
	ops, err := attrTextOps(s.text, sch, props)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", c.ValuePos, name, err)
	}
	if s.style == styleNull {
		// Written even if empty: "" is the empty string.
		return []rawOp{s.rewrite(y.src, applyText(s.text, ops))}, nil
	}
	if len(ops) == 0 {
		return nil, nil
	}
	return s.edit(y.src, ops), nil
}

// setSingle sets the value of a single-property component written as a
// mapping ({} or {x: 1, y: 2}), at offset vo: it is written anew as a
// bare value.
func (y *yamlEditor) setSingle(c *ComponentSpec, vo int, flow bool, props []propEdit) ([]rawOp, error) {
	end, err := y.valueEnd(c, flow)
	if err != nil {
		return nil, err
	}
	v := yamlValue(props[len(props)-1].text, flow)
	if y.isFlow(vo) {
		return []rawOp{{vo, end, v}}, nil
	}
	ko, err := y.off(c.Pos)
	if err != nil {
		return nil, err
	}
	colon, err := y.afterColon(ko)
	if err != nil {
		return nil, err
	}
	return []rawOp{{colon, end, " " + v}}, nil
}

// setEmptyMap writes props as a flow mapping in place of the {} at
// offset vo.
func (y *yamlEditor) setEmptyMap(vo int, sch *registry.Schema, props []propEdit) ([]rawOp, error) {
	end, err := y.flowEnd(vo)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sch.Props[p.index].Name + ": " + yamlValue(p.text, true))
	}
	b.WriteByte('}')
	return []rawOp{{vo, end, b.String()}}, nil
}

// setMap sets props in a component written as a mapping.
func (y *yamlEditor) setMap(c *ComponentSpec, vo int, entFlow bool, sch *registry.Schema, props []propEdit) ([]rawOp, error) {
	flow := entFlow || y.isFlow(vo)
	var ops []rawOp
	var add []propEdit
	for _, p := range props {
		var kv *KV
		for _, e := range c.Map {
			if idx, ok := sch.Lookup(strings.TrimSpace(e.Key)); ok && idx == p.index {
				kv = e
			}
		}
		if kv == nil {
			add = append(add, p)
			continue
		}
		s, err := y.scalar(kv.ValuePos, kv.Value, kv.Exact, flow)
		if err != nil {
			return nil, err
		}
		if s.style != styleNull && s.text == p.text {
			continue
		}
		ops = append(ops, s.rewrite(y.src, p.text))
	}
	if len(add) == 0 {
		return ops, nil
	}
	last := c.Map[len(c.Map)-1]
	s, err := y.scalar(last.ValuePos, last.Value, last.Exact, flow)
	if err != nil {
		return nil, err
	}
	ko, err := y.off(last.Pos)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if y.isFlow(vo) {
		// One per line if the last two are on lines of their own.
		sep := ", "
		if len(c.Map) > 1 && last.Pos.Line != c.Map[len(c.Map)-2].Pos.Line {
			sep = "," + y.nl + y.indentOf(ko)
		}
		for _, p := range add {
			b.WriteString(sep + sch.Props[p.index].Name + ": " + yamlValue(p.text, true))
		}
		return append(ops, rawOp{s.end, s.end, b.String()}), nil
	}
	at := lineEnd(y.src, s.end)
	for _, p := range add {
		b.WriteString(y.nl + y.indentOf(ko) + sch.Props[p.index].Name + ": " + yamlValue(p.text, false))
	}
	return append(ops, rawOp{at, at, b.String()}), nil
}

// addComponent adds a component the entity does not write: a key at
// the entity's indentation after its last key other than children (a
// block mapping), or an entry at the end (a flow mapping).
func (y *yamlEditor) addComponent(ent *EntitySpec, eo int, flow bool, name string, sch *registry.Schema, props []propEdit) ([]rawOp, error) {
	text := newAttrText(sch, props)
	given := text != "" || sch.Single() && len(props) > 0 // "": the empty string
	if flow {
		v := "{}"
		if given {
			v = yamlValue(text, true)
		}
		end, err := y.flowEnd(eo)
		if err != nil {
			return nil, err
		}
		p := end - 1
		for p > eo+1 && isFoldSpace(y.src[p-1]) {
			p--
		}
		switch y.src[p-1] {
		case '{':
			return []rawOp{{p, p, name + ": " + v}}, nil
		case ',':
			return []rawOp{{p, p, " " + name + ": " + v}}, nil
		}
		return []rawOp{{p, p, ", " + name + ": " + v}}, nil
	}
	entry := name + ":"
	if given {
		entry += " " + yamlValue(text, false)
	}
	keys := y.blockKeys(eo)
	indent := y.indentOf(eo)
	for i := len(keys) - 1; i >= 0; i-- {
		if keys[i].name != yamlChildren {
			at := keys[i].end
			return []rawOp{{at, at, y.nl + indent + entry}}, nil
		}
	}
	at := keys[len(keys)-1].start
	return []rawOp{{at, at, entry + y.nl + indent}}, nil
}

// removeComponent returns the ops that delete the entity's component c:
// its key and value, with the lines they take.
func (y *yamlEditor) removeComponent(ent *EntitySpec, c *ComponentSpec) ([]rawOp, error) {
	eo, err := y.off(ent.Pos)
	if err != nil {
		return nil, err
	}
	ko, err := y.off(c.Pos)
	if err != nil {
		return nil, err
	}
	if y.isFlow(eo) {
		return y.removeFlowPair(c, eo, ko)
	}
	return y.removeBlockPair(c, eo, ko)
}

// removeFlowPair deletes the pair of c, whose key is at offset ko, from
// the flow mapping of the entity at eo, with one of the commas around it.
func (y *yamlEditor) removeFlowPair(c *ComponentSpec, eo, ko int) ([]rawOp, error) {
	src := y.src
	ve, err := y.valueEnd(c, true)
	if err != nil {
		return nil, err
	}
	i := ve
	for i < len(src) && isFoldSpace(src[i]) {
		i++
	}
	if i < len(src) && src[i] == ',' {
		i++
		for i < len(src) && isFoldSpace(src[i]) {
			i++
		}
		return []rawOp{{ko, i, ""}}, nil
	}
	p := ko
	for p > eo && isFoldSpace(src[p-1]) {
		p--
	}
	if src[p-1] == ',' {
		return []rawOp{{p - 1, ve, ""}}, nil
	}
	return []rawOp{{ko, ve, ""}}, nil
}

// removeBlockPair deletes the pair of c, whose key is at offset ko, from
// the block mapping of the entity at eo, with the lines it takes.
func (y *yamlEditor) removeBlockPair(c *ComponentSpec, eo, ko int) ([]rawOp, error) {
	src := y.src
	keys := y.blockKeys(eo)
	k := -1
	for i := range keys {
		if keys[i].start == ko {
			k = i
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("%s: the component's key is not where the entity's keys are", c.Pos)
	}
	ls := lineStart(src, ko)
	end := keys[k].end
	if ve, err := y.valueEnd(c, false); err == nil && ve > end {
		end = lineEnd(src, ve)
	}
	if strings.TrimLeft(string(src[ls:ko]), " ") == "" {
		// A line (or lines) of its own: delete them with their line
		// break (or the one before them, at the end of the file).
		switch {
		case end < len(src):
			end = nextLine(src, end)
		case ls > 0:
			ls = lineEnd(src, ls-1)
		}
		return []rawOp{{ls, end, ""}}, nil
	}
	// The first key, on the line of the entity's "- ".
	if len(keys) == 1 {
		return []rawOp{{ko, end, "{}"}}, nil
	}
	if next := keys[k+1].start; lineStart(src, next) == nextLine(src, end) {
		return []rawOp{{ko, next, ""}}, nil // the next key moves up after the "- "
	}
	p := ko
	for p > ls && src[p-1] == ' ' {
		p--
	}
	return []rawOp{{p, end, ""}}, nil
}

// nextLine returns the start of the line after the line end at le.
func nextLine(src []byte, le int) int {
	if le < len(src) && src[le] == '\r' {
		le++
	}
	if le < len(src) && src[le] == '\n' {
		le++
	}
	return le
}
