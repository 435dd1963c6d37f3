package loader

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// XML scenes
//
// An XML scene has exactly one root element, <scene>, whose attributes are
// the scene-level system settings. Its child elements, in any order:
//
//	<components>                       data-only component declarations
//	  <component name="level" type="number" default="1"/>
//	      a `type` attribute makes a single-property component; it may also
//	      carry default, oneOf, min and max
//	  <component name="health">        otherwise each <property> is a property
//	    <property name="hp" type="int" default="100" min="0" max="1000"/>
//	  </component>
//	  <component name="enemy"/>        no type and no properties: a tag
//	  <component name="mode" type="string" default="walk" oneOf="walk, run"/>
//	      oneOf: values separated by commas and/or white space
//	</components>
//	<mixin id="cube" mixin="base" geometry="primitive: box"/>
//	<include src="other.xml"/>         relative to this file; YAML or XML
//	<entity id="player" class="hero tall" mixin="cube" position="0 1 -5" enemy="">
//	  <entity class="weapon"/>         children are nested <entity> elements
//	</entity>
//
// On <entity> the attributes id, class and mixin are reserved (class and
// mixin are space-separated lists); every other attribute is a component
// whose value is an attribute string, an empty value meaning "no value"
// (a tag, or the defaults). On <mixin>, id and mixin are reserved.
//
// Rejected with a positioned error: DOCTYPE and ENTITY declarations (so no
// entity expansion of any kind beyond the five predefined entities and
// character references), several root elements, text content anywhere,
// duplicate attributes, namespace prefixes and xmlns attributes, unknown
// elements and attributes, and mismatched or missing end tags. Input must
// be UTF-8. Attribute values are taken as the XML decoder returns them:
// references are decoded and CRLF becomes LF, but tabs and newlines in
// values are not normalised to spaces.
//
// The reader works on encoding/xml's raw token stream and computes every
// position itself (xmlquery, while convenient for XPath, has no columns, no
// attribute positions and inexact lines, and its tree costs memory), so
// errors point at the start tag, the attribute name or the attribute value
// exactly, also for start tags spread over several lines.

// ReadXML reads a scene written in XML; see the package comment in xml.go
// for the layout. Includes are recorded but not resolved; use ReadFile.
func ReadXML(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	errs := &errorSink{max: lim.MaxErrors}
	var doc *Document
	if int64(len(data)) > lim.MaxBytes {
		errs.add(Pos{File: file}, "file too large: %d bytes (limit %d)", len(data), lim.MaxBytes)
	} else {
		doc = readXML(file, data, lim, errs)
	}
	if doc != nil {
		checkUnique(doc, errs)
	}
	return finish(doc, errs)
}

type xmlAttr struct {
	name, value string
	pos, vpos   Pos
}

type xmlReader struct {
	file string
	data []byte
	lim  Limits
	errs *errorSink
	d    *xml.Decoder
	idx  *lineIndex

	start, end int  // byte offsets of the current token
	stop       bool // fatal error or limit: read no further
	eof        bool // end of input reached
	n          int  // entities read

	attrs []xmlAttr // scratch for the current start tag
	ents  []Entity  // slabs, to allocate in bulk
	comps []Component
	src   *source
}

func readXML(file string, data []byte, lim Limits, errs *errorSink) *Document {
	x := &xmlReader{file: file, data: data, lim: lim, errs: errs, idx: newLineIndex(file, data), n: lim.usedEntities}
	x.src = &source{file: file, data: data, idx: x.idx}
	x.d = xml.NewDecoder(bytes.NewReader(data))
	x.d.Strict = true
	x.d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("encoding %q not supported (scenes must be UTF-8)", label)
	}
	var doc *Document
	for !x.stop && !x.errs.full {
		tok, ok := x.next()
		if !ok {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case doc != nil:
				x.errs.add(x.pos(x.start), "several root elements: a scene file has one <scene> element")
				x.skip(t)
			case t.Name.Space != "" || t.Name.Local != "scene":
				x.errs.add(x.pos(x.start), "root element must be <scene>, not <%s>", xmlName(t.Name))
				doc = &Document{File: file, Files: []string{file}, Pos: x.pos(x.start)}
				x.skip(t)
			default:
				doc = x.scene(t)
			}
		case xml.EndElement:
			x.fail(x.start, "unexpected end tag </%s>", xmlName(t.Name))
		default:
			x.misc(tok, "outside the root element")
		}
	}
	if doc == nil && (x.eof || !x.stop) && !x.errs.full {
		x.errs.add(x.pos(len(data)), "no <scene> element")
	}
	if doc != nil {
		doc.nEntities = x.n - lim.usedEntities
	}
	return doc
}

// next returns the next raw token, recording its byte offsets. On a syntax
// error it reports it and returns false; at the end of input it returns
// false without an error.
func (x *xmlReader) next() (xml.Token, bool) {
	x.start = int(x.d.InputOffset())
	tok, err := x.d.RawToken()
	x.end = int(x.d.InputOffset())
	if err != nil {
		if err == io.EOF {
			x.eof = true
		} else {
			var se *xml.SyntaxError
			msg := err.Error()
			if errors.As(err, &se) {
				msg = se.Msg
			}
			x.fail(x.end, "%s", msg)
		}
		x.stop = true
		return nil, false
	}
	return tok, true
}

// fail reports a fatal error at byte offset off.
func (x *xmlReader) fail(off int, format string, args ...any) {
	x.errs.add(x.pos(off), format, args...)
	x.stop = true
}

func (x *xmlReader) pos(off int) Pos { return x.idx.pos(off) }

func xmlName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// misc handles a token that is not an element: comments and processing
// instructions are ignored, white space is fine, text and directives are
// reported.
func (x *xmlReader) misc(tok xml.Token, where string) {
	switch tok.(type) {
	case xml.CharData:
		raw := x.data[x.start:x.end]
		if i := bytes.IndexFunc(raw, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }); i >= 0 {
			x.errs.add(x.pos(x.start+i), "unexpected text %s", where)
		}
	case xml.Directive:
		x.errs.add(x.pos(x.start), "DOCTYPE, ENTITY and other <!...> declarations are not allowed")
	}
}

// body reads the content of element se up to its end tag, calling child
// for each child element (which must consume it); with a nil child, child
// elements are reported as unknown.
func (x *xmlReader) body(se xml.StartElement, open int, child func(t xml.StartElement)) {
	where := "in <" + xmlName(se.Name) + ">"
	for !x.stop && !x.errs.full {
		tok, ok := x.next()
		if !ok {
			if x.eof {
				x.fail(len(x.data), "unexpected end of file: <%s> at %s is not closed", xmlName(se.Name), x.pos(open))
			}
			return
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if t.Name != se.Name {
				x.fail(x.start, "</%s> closes <%s> at %s", xmlName(t.Name), xmlName(se.Name), x.pos(open))
			}
			return
		case xml.StartElement:
			if child == nil || t.Name.Space != "" {
				x.errs.add(x.pos(x.start), "unknown element <%s> %s", xmlName(t.Name), where)
				x.skip(t)
				continue
			}
			child(t)
		default:
			x.misc(tok, where)
		}
	}
}

// skip consumes the rest of element se, checking that tags match.
func (x *xmlReader) skip(se xml.StartElement) {
	stack := []xml.Name{se.Name}
	opens := []int{x.start}
	for len(stack) > 0 && !x.stop {
		tok, ok := x.next()
		if !ok {
			if x.eof {
				x.fail(len(x.data), "unexpected end of file: <%s> at %s is not closed", xmlName(stack[len(stack)-1]), x.pos(opens[len(opens)-1]))
			}
			return
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name)
			opens = append(opens, x.start)
		case xml.EndElement:
			top := len(stack) - 1
			if t.Name != stack[top] {
				x.fail(x.start, "</%s> closes <%s> at %s", xmlName(t.Name), xmlName(stack[top]), x.pos(opens[top]))
				return
			}
			stack, opens = stack[:top], opens[:top]
		case xml.Directive:
			x.misc(tok, "")
		}
	}
}

// attributes returns the attributes of the start tag just read, with the
// positions of their names and values, reporting duplicates and
// namespaces. The result is valid until the next call.
func (x *xmlReader) attributes(se xml.StartElement) []xmlAttr {
	x.attrs = x.attrs[:0]
	if len(se.Attr) == 0 {
		return x.attrs
	}
	// Scan the raw start tag for the offsets of names and values. The
	// decoder has already checked its syntax, and keeps attribute order.
	raw := x.data[x.start:x.end]
	i := bytes.IndexByte(raw, '<') + 1
	for i < len(raw) && !isXMLSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	for k, a := range se.Attr {
		for i < len(raw) && isXMLSpace(raw[i]) {
			i++
		}
		nameOff := i
		for i < len(raw) && raw[i] != '=' && !isXMLSpace(raw[i]) {
			i++
		}
		for i < len(raw) && raw[i] != '\'' && raw[i] != '"' {
			i++
		}
		valOff := i + 1
		if i < len(raw) {
			if j := bytes.IndexByte(raw[valOff:], raw[i]); j >= 0 {
				i = valOff + j + 1
			}
		}
		at := xmlAttr{name: a.Name.Local, value: a.Value,
			pos: x.pos(x.start + nameOff), vpos: x.pos(x.start + min(valOff, len(raw)))}
		if a.Name.Space != "" || a.Name.Local == "xmlns" {
			x.errs.add(at.pos, "namespaces are not supported (attribute %s)", xmlName(a.Name))
			continue
		}
		dup := -1
		for j := range k {
			if se.Attr[j].Name == a.Name {
				dup = j
				break
			}
		}
		if dup >= 0 {
			first := at.pos
			for _, b := range x.attrs {
				if b.name == a.Name.Local {
					first = b.pos
				}
			}
			x.errs.add(at.pos, "duplicate attribute %q (first at %s)", a.Name.Local, first)
			continue
		}
		x.attrs = append(x.attrs, at)
	}
	return x.attrs
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (x *xmlReader) newComponent() *Component {
	if len(x.comps) == 0 {
		x.comps = make([]Component, 256)
	}
	c := &x.comps[0]
	x.comps = x.comps[1:]
	return c
}

// component makes a component (or system setting) from an attribute.
func (x *xmlReader) component(a *xmlAttr, what string) *Component {
	if !validName(a.name, true) {
		x.errs.add(a.pos, "%s", nameMsg(what, a.name))
		return nil
	}
	c := x.newComponent()
	c.Name, c.Pos, c.ValuePos, c.src = a.name, a.pos, a.vpos, x.src
	if a.value != "" {
		c.Kind, c.Text = ValueText, a.value
	}
	return c
}

// words splits a space-separated list attribute such as class or mixin.
func words(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && isXMLSpace(s[i]) {
			i++
		}
		j := i
		for j < len(s) && !isXMLSpace(s[j]) {
			j++
		}
		if j > i {
			out = append(out, s[i:j])
		}
		s = s[j:]
	}
	return out
}

func (x *xmlReader) scene(se xml.StartElement) *Document {
	open := x.start
	doc := &Document{File: x.file, Files: []string{x.file}, Pos: x.pos(open)}
	for i := range x.attributes(se) {
		if c := x.component(&x.attrs[i], "system"); c != nil {
			doc.Scene = append(doc.Scene, c)
		}
	}
	x.body(se, open, func(t xml.StartElement) {
		switch t.Name.Local {
		case "entity":
			if e := x.entity(t, 1); e != nil {
				doc.Entities = append(doc.Entities, e)
			}
		case "mixin":
			if m := x.mixin(t); m != nil {
				doc.Mixins = append(doc.Mixins, m)
			}
		case "include":
			if inc := x.include(t); inc != nil {
				doc.Includes = append(doc.Includes, inc)
			}
		case "components":
			open := x.start
			for _, a := range x.attributes(t) {
				x.errs.add(a.pos, "unknown attribute %q on <components>", a.name)
			}
			x.body(t, open, func(t xml.StartElement) {
				if t.Name.Local != "component" {
					x.errs.add(x.pos(x.start), "unknown element <%s> in <components> (want <component>)", t.Name.Local)
					x.skip(t)
					return
				}
				if d := x.decl(t); d != nil {
					doc.Decls = append(doc.Decls, d)
				}
			})
		default:
			x.errs.add(x.pos(x.start), "unknown element <%s> in <scene> (want <entity>, <mixin>, <include> or <components>)", t.Name.Local)
			x.skip(t)
		}
	})
	return doc
}

func (x *xmlReader) entity(se xml.StartElement, depth int) *Entity {
	open := x.start
	x.n++
	if x.n > x.lim.MaxEntities {
		x.fail(open, "too many entities (limit %d)", x.lim.MaxEntities)
		return nil
	}
	if depth > x.lim.MaxDepth {
		x.errs.add(x.pos(open), "entities nested too deeply (limit %d)", x.lim.MaxDepth)
		x.skip(se)
		return nil
	}
	if len(x.ents) == 0 {
		x.ents = make([]Entity, 128)
	}
	e := &x.ents[0]
	x.ents = x.ents[1:]
	e.Pos, e.File = x.pos(open), x.file
	attrs := x.attributes(se)
	e.Components = make([]*Component, 0, len(attrs))
	for i := range attrs {
		a := &attrs[i]
		switch a.name {
		case "id":
			e.IDPos = a.vpos
			if !validID(a.value) {
				x.errs.add(a.vpos, "invalid entity id %q (no spaces allowed)", a.value)
			} else {
				e.ID = a.value
			}
		case "class":
			e.Class = words(a.value)
		case "mixin":
			e.MixinPos = a.vpos
			e.Mixins = words(a.value)
		case "children":
			x.errs.add(a.pos, "children are written as nested <entity> elements, not as an attribute")
		default:
			if c := x.component(a, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		}
	}
	x.body(se, open, func(t xml.StartElement) {
		if t.Name.Local != "entity" {
			x.errs.add(x.pos(x.start), "unknown element <%s> in <entity> (want <entity>)", t.Name.Local)
			x.skip(t)
			return
		}
		if c := x.entity(t, depth+1); c != nil {
			e.Children = append(e.Children, c)
		}
	})
	return e
}

func (x *xmlReader) mixin(se xml.StartElement) *Mixin {
	open := x.start
	m := &Mixin{Pos: x.pos(open)}
	hasID := false
	for i, a := range x.attributes(se) {
		switch a.name {
		case "id":
			hasID = true
			m.Pos = a.vpos
			if !validID(a.value) {
				x.errs.add(a.vpos, "invalid mixin id %q", a.value)
				m = nil
			} else if m != nil {
				m.ID = a.value
			}
		case "mixin":
			if m != nil {
				m.MixinPos = a.vpos
				m.Mixins = words(a.value)
			}
		case "class", "children":
			x.errs.add(a.pos, "%q is not allowed in a mixin", a.name)
		default:
			if c := x.component(&x.attrs[i], "component"); c != nil && m != nil {
				m.Components = append(m.Components, c)
			}
		}
	}
	if !hasID {
		x.errs.add(x.pos(open), "<mixin> needs an id attribute")
		m = nil
	}
	x.body(se, open, nil)
	return m
}

func (x *xmlReader) include(se xml.StartElement) *Include {
	open := x.start
	var inc *Include
	for _, a := range x.attributes(se) {
		if a.name != "src" {
			x.errs.add(a.pos, "unknown attribute %q on <include> (want src)", a.name)
			continue
		}
		if a.value == "" {
			x.errs.add(a.vpos, "include: empty path")
			continue
		}
		inc = &Include{Path: a.value, Pos: a.vpos}
	}
	if inc == nil && !x.errs.full {
		found := false
		for _, a := range se.Attr {
			found = found || a.Name.Local == "src"
		}
		if !found {
			x.errs.add(x.pos(open), "<include> needs a src attribute")
		}
	}
	x.body(se, open, nil)
	return inc
}

// decl reads <component name=... [type=... default=... oneOf=... min=... max=...]>
// with optional <property> children.
func (x *xmlReader) decl(se xml.StartElement) *Decl {
	open := x.start
	p, name, ok := x.propAttrs(se, "component")
	var d *Decl
	if ok {
		if !validName(name.value, false) {
			x.errs.add(name.vpos, "%s", nameMsg("component", name.value))
		} else {
			d = &Decl{Name: name.value, Pos: name.vpos}
		}
	}
	single := p != nil && (p.Type != "" || p.HasDefault || p.OneOf != nil || p.Min != nil || p.Max != nil)
	if single && d != nil {
		if p.Type == "" {
			x.errs.add(x.pos(open), "single-property declaration of %q needs a type attribute", d.Name)
		}
		p.Pos = d.Pos
		d.Single, d.Props = true, []*PropDecl{p}
	}
	x.body(se, open, func(t xml.StartElement) {
		if t.Name.Local != "property" {
			x.errs.add(x.pos(x.start), "unknown element <%s> in <component> (want <property>)", t.Name.Local)
			x.skip(t)
			return
		}
		if single {
			x.errs.add(x.pos(x.start), "<property> in a single-property declaration (one with a type attribute)")
			x.skip(t)
			return
		}
		popen := x.start
		p, name, ok := x.propAttrs(t, "property")
		if ok {
			if !validName(name.value, false) {
				x.errs.add(name.vpos, "%s", nameMsg("property", name.value))
			} else if d != nil {
				p.Name, p.Pos = name.value, name.vpos
				for _, q := range d.Props {
					if q.Name == p.Name {
						x.errs.add(name.vpos, "duplicate property %q (first at %s)", p.Name, q.Pos)
						p = nil
						break
					}
				}
				if p != nil {
					d.Props = append(d.Props, p)
				}
			}
		}
		x.body(t, popen, nil)
	})
	return d
}

// propAttrs reads the attributes of <component> or <property>: name (required),
// type, default, oneOf, min, max.
func (x *xmlReader) propAttrs(se xml.StartElement, elem string) (*PropDecl, xmlAttr, bool) {
	open := x.start
	p := &PropDecl{}
	var name xmlAttr
	hasName := false
	for _, a := range x.attributes(se) {
		switch a.name {
		case "name":
			name, hasName = a, true
		case "type":
			p.Type = a.value
		case "default":
			p.Default, p.HasDefault = a.value, true
		case "oneOf":
			p.OneOf = splitList(a.value)
			if p.OneOf == nil {
				p.OneOf = []string{}
			}
		case "min", "max":
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil {
				x.errs.add(a.vpos, "%s must be a number, not %q", a.name, a.value)
				continue
			}
			if a.name == "min" {
				p.Min = &f
			} else {
				p.Max = &f
			}
		default:
			x.errs.add(a.pos, "unknown attribute %q on <%s> (want name, type, default, oneOf, min or max)", a.name, elem)
		}
	}
	if !hasName {
		x.errs.add(x.pos(open), "<%s> needs a name attribute", elem)
	}
	return p, name, hasName
}
