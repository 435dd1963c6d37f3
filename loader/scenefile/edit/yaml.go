package edit

import (
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// The YAML editor works on the file's syntax tree as the parser reads it
// (yamlsyntax.Parse), whose nodes carry their byte spans: it finds the
// entity's mapping at the offset of the entity's position, the component
// among its pairs, and a value's decoded text with where each byte of it
// was written (yamlsyntax.DecodeScalar). Every place it edits is a span
// the parser gave or a line boundary from the file's line table; it
// reads no YAML of its own. A file the parser leaves to yaml.v3
// (anchors, tags, tabs in indentation, ...) has no spans, and is not
// edited.

type yamlEditor struct {
	file  string
	src   []byte
	lines textLines
	root  *yamlsyntax.Node
	nl    string // the file's line break
}

func newYAMLEditor(file string, src []byte) (*yamlEditor, error) {
	root, res := yamlsyntax.Parse(src, nil)
	switch {
	case res.State == yamlsyntax.Invalid:
		return nil, fmt.Errorf("the file does not parse: %s", res.ErrMsg)
	case res.State != yamlsyntax.OK || root == nil:
		return nil, fmt.Errorf("the file uses YAML that save-back does not edit (anchors, tags, tabs as indentation, several documents, ...; see docs/inspector.md)")
	}
	return &yamlEditor{file: file, src: src, lines: newTextLines(src), root: root, nl: newline(src)}, nil
}

// ypair is one key: value pair of a mapping.
type ypair struct{ k, v *yamlsyntax.Node }

// pairs returns the pairs of mapping m.
func pairs(m *yamlsyntax.Node) []ypair {
	out := make([]ypair, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		out = append(out, ypair{m.Content[i], m.Content[i+1]})
	}
	return out
}

// isFlow reports whether collection n is written in flow style.
func (y *yamlEditor) isFlow(n *yamlsyntax.Node) bool {
	c := y.src[n.Off]
	return c == '{' || c == '['
}

// indentOf returns the indentation of the block collection n (-1 for a
// flow collection, where no block scalar can be).
func (y *yamlEditor) indentOf(n *yamlsyntax.Node) int {
	if y.isFlow(n) {
		return -1
	}
	return int(n.Off) - y.lines.start(int(n.Off))
}

// entity returns the mapping of entity ent: the outermost mapping that
// starts at the entity's position.
func (y *yamlEditor) entity(ent *scenefile.EntitySpec) (*yamlsyntax.Node, error) {
	s := scenefile.NewSource(y.file, y.src)
	off, ok := s.Offset(ent.Pos)
	if !ok {
		return nil, fmt.Errorf("%s: no such position in the file", ent.Pos)
	}
	var find func(n *yamlsyntax.Node) *yamlsyntax.Node
	find = func(n *yamlsyntax.Node) *yamlsyntax.Node {
		if n.Kind == yamlsyntax.Mapping && int(n.Off) == off {
			return n
		}
		if int(n.Off) > off || int(n.End) < off {
			return nil
		}
		for _, c := range n.Content {
			if m := find(c); m != nil {
				return m
			}
		}
		return nil
	}
	if m := find(y.root); m != nil {
		return m, nil
	}
	return nil, fmt.Errorf("%s: the entity is not at its place in the file", ent.Pos)
}

// pairOf returns the pair of mapping m whose key is name, or nil.
func pairOf(m *yamlsyntax.Node, name string) *ypair {
	for _, p := range pairs(m) {
		if p.k.Kind == yamlsyntax.Scalar && p.k.Value == name {
			return &p
		}
	}
	return nil
}

// scalar returns the slot of scalar v, in a collection of indentation
// parent (flow: a flow collection): a null (nothing written, ~ or null)
// is written anew; any other scalar is decoded again by the parser, with
// where each byte of its text was written.
func (y *yamlEditor) scalar(v *yamlsyntax.Node, parent int, flow bool) (slot, error) {
	s := slot{start: int(v.Off), end: int(v.End), style: styleNull, flow: flow, parent: parent}
	if v.Kind != yamlsyntax.Scalar {
		return slot{}, fmt.Errorf("%s: not a scalar", y.pos(v))
	}
	if v.Null {
		return s, nil
	}
	d, ok := yamlsyntax.DecodeScalar(y.src, s.start, s.end, parent)
	if !ok || d.Text != v.Value {
		return slot{}, fmt.Errorf("%s: the parser does not read the value again as it read it", y.pos(v))
	}
	s.text, s.at = d.Text, d.At
	switch c := y.src[s.start]; c {
	case '"', '\'', '|', '>':
		s.style = c
	default:
		s.style = stylePlain
	}
	return s, nil
}

// pos returns the position of node n, for messages.
func (y *yamlEditor) pos(n *yamlsyntax.Node) scenefile.Pos {
	return scenefile.Pos{File: y.file, Line: int(n.Line), Col: int(n.Col)}
}

// setComponent returns the ops that set props on the entity's component
// name, written as c (nil: the entity does not write it, and it is added).
func (y *yamlEditor) setComponent(ent *scenefile.EntitySpec, name string, c *scenefile.ComponentSpec, sch Schema, props []Prop) ([]rawOp, error) {
	em, err := y.entity(ent)
	if err != nil {
		return nil, err
	}
	p := pairOf(em, name)
	if c == nil || p == nil {
		if c != nil || p != nil {
			return nil, fmt.Errorf("%s: the file does not say what was read", ent.Pos)
		}
		return y.addComponent(em, name, sch, props)
	}
	if len(props) == 0 || sch.IsTag() {
		return nil, nil // there, and nothing to set
	}
	flow, parent := y.isFlow(em), y.indentOf(em)
	switch v := p.v; {
	case v.Kind == yamlsyntax.Scalar:
		return y.setText(c, v, parent, flow, sch, props)
	case v.Kind == yamlsyntax.Sequence && sch.Single():
		return y.setList(p.k, v, props[len(props)-1].Text)
	case v.Kind != yamlsyntax.Mapping:
		return nil, fmt.Errorf("%s: %s is not a scalar, a list of a single property's items or a mapping", c.ValuePos(), name)
	case sch.Single():
		return y.setSingle(*p, flow, props)
	case len(v.Content) == 0:
		return y.setEmptyMap(v, sch, props)
	}
	return y.setMap(c, p.v, flow, sch, props)
}

// setText sets props in a component written as an attribute string (or
// nothing), the scalar v.
func (y *yamlEditor) setText(c *scenefile.ComponentSpec, v *yamlsyntax.Node, parent int, flow bool, sch Schema, props []Prop) ([]rawOp, error) {
	s, err := y.scalar(v, parent, flow)
	if err != nil {
		return nil, err
	}
	if s.style != styleNull && s.text != c.Text {
		return nil, fmt.Errorf("%s: the value reads %q, the scene %q", c.ValuePos(), s.text, c.Text)
	}
	ops, err := attrTextOps(s.text, sch, props)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", c.ValuePos(), c.Name, err)
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
// mapping ({} or {x: 1, y: 2}, or a block mapping): it is written anew
// as a bare value.
func (y *yamlEditor) setSingle(p ypair, flow bool, props []Prop) ([]rawOp, error) {
	v := yamlValue(props[len(props)-1].Text, flow)
	if y.isFlow(p.v) {
		return []rawOp{{int(p.v.Off), int(p.v.End), v}}, nil
	}
	// From the end of the key: its ':' and the lines of the mapping.
	return []rawOp{{int(p.k.End), int(p.v.End), ": " + v}}, nil
}

// setEmptyMap writes props as a flow mapping in place of the {} v.
func (y *yamlEditor) setEmptyMap(v *yamlsyntax.Node, sch Schema, props []Prop) ([]rawOp, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range props {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sch.Props[p.Index] + ": " + yamlValue(p.Text, true))
	}
	b.WriteByte('}')
	return []rawOp{{int(v.Off), int(v.End), b.String()}}, nil
}

// setMap sets props in a component written as the mapping m.
func (y *yamlEditor) setMap(c *scenefile.ComponentSpec, m *yamlsyntax.Node, entFlow bool, sch Schema, props []Prop) ([]rawOp, error) {
	flow, parent := entFlow || y.isFlow(m), y.indentOf(m)
	ps := pairs(m)
	var ops []rawOp
	var add []Prop
	for _, p := range props {
		var at *ypair
		for i := range ps {
			if idx, ok := sch.lookup(strings.TrimSpace(ps[i].k.Value)); ok && idx == p.Index {
				at = &ps[i]
			}
		}
		if at == nil {
			add = append(add, p)
			continue
		}
		if at.v.Kind == yamlsyntax.Sequence {
			lops, err := y.setList(at.k, at.v, p.Text)
			if err != nil {
				return nil, err
			}
			ops = append(ops, lops...)
			continue
		}
		s, err := y.scalar(at.v, parent, flow)
		if err != nil {
			return nil, err
		}
		if s.style != styleNull && s.text == p.Text {
			continue
		}
		ops = append(ops, s.rewrite(y.src, p.Text))
	}
	if len(add) == 0 {
		return ops, nil
	}
	last := ps[len(ps)-1]
	var b strings.Builder
	if y.isFlow(m) {
		// One per line if the last two are on lines of their own.
		sep := ", "
		if len(ps) > 1 && last.k.Line != ps[len(ps)-2].k.Line {
			sep = "," + y.nl + y.lines.indent(int(last.k.Off))
		}
		for _, p := range add {
			b.WriteString(sep + sch.Props[p.Index] + ": " + yamlValue(p.Text, true))
		}
		return append(ops, rawOp{int(last.v.End), int(last.v.End), b.String()}), nil
	}
	at := y.lines.end(int(last.v.End))
	for _, p := range add {
		b.WriteString(y.nl + y.lines.indent(int(last.k.Off)) + sch.Props[p.Index] + ": " + yamlValue(p.Text, false))
	}
	return append(ops, rawOp{at, at, b.String()}), nil
}

// addComponent adds a component the entity (the mapping em) does not
// write: a key at the entity's indentation after its last key other than
// children (a block mapping), or an entry at the end (a flow mapping).
func (y *yamlEditor) addComponent(em *yamlsyntax.Node, name string, sch Schema, props []Prop) ([]rawOp, error) {
	text := newAttrText(sch, props)
	given := text != "" || sch.Single() && len(props) > 0 // "": the empty string
	ps := pairs(em)
	if y.isFlow(em) {
		v := "{}"
		if given {
			v = yamlValue(text, true)
		}
		if len(ps) == 0 {
			return []rawOp{{int(em.Off) + 1, int(em.Off) + 1, name + ": " + v}}, nil
		}
		end := int(ps[len(ps)-1].v.End)
		return []rawOp{{end, end, ", " + name + ": " + v}}, nil
	}
	entry := name + ":"
	if given {
		entry += " " + yamlValue(text, false)
	}
	indent := y.lines.indent(int(em.Off))
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].k.Value != scenefile.YAMLChildren {
			at := y.lines.end(int(ps[i].v.End))
			return []rawOp{{at, at, y.nl + indent + entry}}, nil
		}
	}
	at := int(ps[0].k.Off)
	return []rawOp{{at, at, entry + y.nl + indent}}, nil
}

// removeComponent returns the ops that delete the entity's component
// name: its key and value, with the lines they take.
func (y *yamlEditor) removeComponent(ent *scenefile.EntitySpec, name string) ([]rawOp, error) {
	em, err := y.entity(ent)
	if err != nil {
		return nil, err
	}
	ps := pairs(em)
	i := -1
	for j := range ps {
		if ps[j].k.Value == name {
			i = j
		}
	}
	if i < 0 {
		return nil, fmt.Errorf("%s: the entity's mapping has no key %s", ent.Pos, name)
	}
	if y.isFlow(em) {
		return y.removeFlowPair(ps, i), nil
	}
	return y.removeBlockPair(ps, i), nil
}

// removeFlowPair deletes pair i of a flow mapping's pairs ps, with one
// of the commas around it.
func (y *yamlEditor) removeFlowPair(ps []ypair, i int) []rawOp {
	p := ps[i]
	switch {
	case i+1 < len(ps):
		return []rawOp{{int(p.k.Off), int(ps[i+1].k.Off), ""}}
	case i > 0:
		return []rawOp{{int(ps[i-1].v.End), int(p.v.End), ""}}
	}
	return []rawOp{{int(p.k.Off), int(p.v.End), ""}}
}

// removeBlockPair deletes pair i of a block mapping's pairs ps, with the
// lines it takes.
func (y *yamlEditor) removeBlockPair(ps []ypair, i int) []rawOp {
	src, p := y.src, ps[i]
	ko := int(p.k.Off)
	ls := y.lines.start(ko)
	end := y.lines.end(int(p.v.End))
	if strings.TrimLeft(string(src[ls:ko]), " ") == "" {
		// A line (or lines) of its own: delete them with their line
		// break (or the one before them, at the end of the file).
		switch {
		case end < len(src):
			end = y.lines.next(end)
		case ls > 0:
			ls = y.lines.end(ls - 1)
		}
		return []rawOp{{ls, end, ""}}
	}
	// The first key, on the line of the entity's "- ".
	if len(ps) == 1 {
		return []rawOp{{ko, end, "{}"}}
	}
	if i+1 == len(ps) {
		return []rawOp{{ko, end, ""}}
	}
	if next := int(ps[i+1].k.Off); y.lines.start(next) == y.lines.next(end) {
		return []rawOp{{ko, next, ""}} // the next key moves up after the "- "
	}
	at := ko
	for at > ls && src[at-1] == ' ' {
		at--
	}
	return []rawOp{{at, end, ""}}
}
