package edit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/xmltok"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// The XML editor works on an entity's start tag as the scanner reads it
// (xmltok, from the entity's position, its '<'): every attribute with
// the spans of its name and value, and a value's decoded text with where
// each byte of it was written (xmltok.DecodeValue). A component is its
// attribute (health="hp: 100") and any attributes of single properties
// (health.hp="100"); it reads no XML of its own.

// xattr is one attribute of a start tag.
type xattr struct {
	name       string
	value      string // decoded
	ws         int    // start of the white space before the name (the end of what comes before)
	nameStart  int    // start of the name
	valStart   int    // just after the opening quote
	valEnd     int    // at the closing quote
	quote      byte   // ' or "
	attrEnd    int    // just after the closing quote
	precededNL bool   // the white space before it holds a line break
}

// xtag is a start tag as the scanner read it.
type xtag struct {
	nameEnd int // just after the element name
	attrs   []xattr
}

// scanStartTag reads the start tag at offset o ('<') with the scanner.
func scanStartTag(src []byte, o int) (*xtag, error) {
	if o >= len(src) || src[o] != '<' {
		return nil, fmt.Errorf("no start tag there")
	}
	sc := xmltok.NewScanner(src, o)
	if !sc.Next() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("the start tag does not read: %s", err.Msg)
		}
		return nil, fmt.Errorf("no start tag there")
	}
	tok := sc.Token()
	if tok.Kind != xmltok.Start {
		return nil, fmt.Errorf("no start tag there")
	}
	t := &xtag{nameEnd: o + 1 + len(tok.Name)}
	prev := t.nameEnd
	for _, a := range tok.Attrs {
		t.attrs = append(t.attrs, xattr{name: a.Name, value: a.Value, ws: prev, nameStart: a.NameOff,
			valStart: a.ValOff, valEnd: a.ValEnd, quote: src[a.ValEnd], attrEnd: a.ValEnd + 1,
			precededNL: bytes.ContainsAny(src[prev:a.NameOff], "\r\n")})
		prev = a.ValEnd + 1
	}
	return t, nil
}

type xmlEditor struct {
	src []byte
	s   *scenefile.Source
}

func newXMLEditor(file string, src []byte) *xmlEditor {
	return &xmlEditor{src: src, s: scenefile.NewSource(file, src)}
}

// tag reads the start tag of ent.
func (x *xmlEditor) tag(ent *scenefile.EntitySpec) (*xtag, error) {
	o, ok := x.s.Offset(ent.Pos)
	if !ok {
		return nil, fmt.Errorf("%s: no such position in the file", ent.Pos)
	}
	t, err := scanStartTag(x.src, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", ent.Pos, err)
	}
	return t, nil
}

// attrFor returns the attribute of t whose name is name.
func (t *xtag) attrFor(name string) *xattr {
	for i := range t.attrs {
		if t.attrs[i].name == name {
			return &t.attrs[i]
		}
	}
	return nil
}

// valueSlot returns the slot of an attribute's value, whose text the
// scene read as text: decoded again by the scanner, with where each byte
// of it was written.
func (x *xmlEditor) valueSlot(a *xattr, text string) (slot, error) {
	got, at, ok := xmltok.DecodeValue(x.src, a.valStart, a.valEnd)
	if !ok || got != text || got != a.value {
		return slot{}, fmt.Errorf("%s: the value of %s does not read again as the scene read it", x.s.Pos(a.valStart), a.name)
	}
	return slot{start: a.valStart, end: a.valEnd, style: styleXML, quote: a.quote, text: text, at: at}, nil
}

// setComponent returns the ops that set props on the component name of
// the entity, written by comps (its attribute and its comp.prop
// attributes, in order; none: it is added).
func (x *xmlEditor) setComponent(ent *scenefile.EntitySpec, name string, comps []*scenefile.ComponentSpec, sch Schema, props []Prop) ([]rawOp, error) {
	t, err := x.tag(ent)
	if err != nil {
		return nil, err
	}
	if len(comps) == 0 {
		return x.add(t, name, newAttrText(sch, props)), nil
	}
	if sch.IsTag() || len(props) == 0 {
		return nil, nil
	}
	// The component's own attribute, if it has one.
	var whole *scenefile.ComponentSpec
	for _, c := range comps {
		if c.Kind != scenefile.ValueMap {
			whole = c
		}
	}
	var ops []rawOp
	var inWhole []Prop // properties the whole attribute gets
	var dotted []Prop  // properties without a place, written as comp.prop
	for _, p := range props {
		switch at := propPlace(comps, sch, p); {
		case at != nil && at.Kind == scenefile.ValueMap:
			a := t.attrFor(name + "." + at.Map[0].Key)
			if a == nil {
				return nil, fmt.Errorf("%s: attribute %s.%s not found in the start tag", at.Pos(), name, at.Map[0].Key)
			}
			if at.Map[0].Value != p.Text {
				s, err := x.valueSlot(a, at.Map[0].Value)
				if err != nil {
					return nil, err
				}
				ops = append(ops, s.rewrite(x.src, p.Text))
			}
		case at != nil || whole != nil:
			inWhole = append(inWhole, p)
		default:
			dotted = append(dotted, p)
		}
	}
	if len(inWhole) > 0 {
		wops, err := x.wholeOps(t, name, whole, sch, inWhole)
		if err != nil {
			return nil, err
		}
		ops = append(ops, wops...)
	}
	if len(dotted) > 0 {
		dops, err := x.dottedOps(t, name, comps[len(comps)-1], sch, dotted)
		if err != nil {
			return nil, err
		}
		ops = append(ops, dops...)
	}
	return ops, nil
}

// propPlace returns the attribute of comps that gives property p (the
// last one does, as it wins), or nil.
func propPlace(comps []*scenefile.ComponentSpec, sch Schema, p Prop) *scenefile.ComponentSpec {
	var at *scenefile.ComponentSpec
	for _, c := range comps {
		switch {
		case c.Kind == scenefile.ValueMap:
			if idx, ok := sch.lookup(c.Map[0].Key); ok && idx == p.Index {
				at = c
			}
		case sch.Single():
			at = c
		case c.Kind == scenefile.ValueText:
			if pairs, err := splitAttrPairs(c.Text); err == nil {
				for _, pr := range pairs {
					if idx, ok := sch.lookup(pr.key); ok && idx == p.Index {
						at = c
					}
				}
			}
		}
	}
	return at
}

// wholeOps returns the ops that set props in the component's own
// attribute, written by whole.
func (x *xmlEditor) wholeOps(t *xtag, name string, whole *scenefile.ComponentSpec, sch Schema, props []Prop) ([]rawOp, error) {
	a := t.attrFor(name)
	if a == nil {
		return nil, fmt.Errorf("%s: attribute %s not found in the start tag", whole.Pos(), name)
	}
	s, err := x.valueSlot(a, whole.Text)
	if err != nil {
		return nil, err
	}
	tops, err := attrTextOps(s.text, sch, props)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", whole.ValuePos(), name, err)
	}
	if len(tops) == 0 {
		return nil, nil
	}
	return s.edit(x.src, tops), nil
}

// dottedOps returns the op that writes props as comp.prop attributes,
// next to the last one, last, in its quotes.
func (x *xmlEditor) dottedOps(t *xtag, name string, last *scenefile.ComponentSpec, sch Schema, props []Prop) ([]rawOp, error) {
	a := t.attrFor(name + "." + last.Map[0].Key)
	if a == nil {
		return nil, fmt.Errorf("%s: attribute %s.%s not found in the start tag", last.Pos(), name, last.Map[0].Key)
	}
	sep := " "
	if a.precededNL {
		sep = string(x.src[a.ws:a.nameStart])
	}
	var b strings.Builder
	for _, p := range props {
		b.WriteString(sep + name + "." + sch.Props[p.Index] + "=" + string(a.quote) + xmlEscape(p.Text, a.quote) + string(a.quote))
	}
	return []rawOp{{a.attrEnd, a.attrEnd, b.String()}}, nil
}

// add returns the op that adds the attribute name="text" after the last
// attribute of t, spaced as that attribute is from the one before (on a
// line of its own if it is), quoted as it is.
func (x *xmlEditor) add(t *xtag, name, text string) []rawOp {
	at, sep, q := t.nameEnd, " ", byte('"')
	if n := len(t.attrs); n > 0 {
		last := &t.attrs[n-1]
		at, q = last.attrEnd, last.quote
		if last.precededNL {
			sep = string(x.src[last.ws:last.nameStart])
		}
	}
	return []rawOp{{at, at, sep + name + "=" + string(q) + xmlEscape(text, q) + string(q)}}
}

// removeComponent returns the ops that delete every attribute of the
// component name (name and name.prop), with the white space before each.
func (x *xmlEditor) removeComponent(ent *scenefile.EntitySpec, name string) ([]rawOp, error) {
	t, err := x.tag(ent)
	if err != nil {
		return nil, err
	}
	var ops []rawOp
	for _, a := range t.attrs {
		if a.name == name || strings.HasPrefix(a.name, name+".") {
			ops = append(ops, rawOp{a.ws, a.attrEnd, ""})
		}
	}
	return ops, nil
}
