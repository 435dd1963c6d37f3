package scenefile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/textpos"
	"github.com/scenecs/scenecs/loader/internal/xmltok"
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
// be UTF-8; a byte order mark is skipped. An attribute named
// component.property gives one property of a component. Attribute values are taken as the XML decoder returns them:
// references are decoded and CRLF becomes LF, but tabs and newlines in
// values are not normalised to spaces.
//
// The reader works on the token stream of its own scanner (package
// loader/internal/xmltok), which accepts, decodes and refuses exactly what encoding/xml's
// Decoder.RawToken does in strict mode, stopping at the same offsets with
// the same messages, but without allocating per token (encoding/xml
// copies every name and value through a bytes.Buffer and was a quarter
// of the time of loading a large scene). It computes every position
// itself (xmlquery, while convenient for XPath, has no columns, no
// attribute positions and inexact lines, and its tree costs memory; it
// serves as the independent oracle in FuzzXMLQueryOracle), so errors
// point at the start tag, the attribute name or the attribute value
// exactly, also for start tags spread over several lines.

// The XML vocabulary: the elements and attributes of a scene file,
// written once here for the reader, the writer and the XML Schema of the
// format.
const (
	XMLScene      = "scene" // the root; its attributes are system settings
	XMLComponents = "components"
	XMLComponent  = "component" // a declaration, in <components>
	XMLProperty   = "property"  // a property of a declaration
	XMLMixin      = "mixin"     // an element, and an attribute of <entity> and <mixin>
	XMLInclude    = "include"
	XMLEntity     = "entity"
	XMLPrefab     = "prefab"  // an element (a prefab's body), and an attribute of <entity> and <prefab>
	XMLPart       = "part"    // an instance's change to a part of its prefab, in <entity>
	XMLRemoved    = "removed" // a part of its prefab an instance does not have, in <entity>
	XMLPath       = "path"    // of <part> and <removed>

	XMLID       = "id" // the reserved attributes of <entity> and <mixin>
	XMLClass    = "class"
	XMLChildren = "children" // refused: children are nested elements
	XMLSrc      = "src"      // of <include>
	XMLName     = "name"     // of <component> and <property>, with:
	XMLType     = "type"
	XMLDefault  = "default"
	XMLOneOf    = "oneOf"
	XMLOnDelete = "onDelete"
	XMLMin      = "min"
	XMLMax      = "max"

	XMLNS = "xmlns" // refused: scenes have no namespaces
)

var (
	// xmlSceneElems are the elements <scene> holds, as messages name them.
	xmlSceneElems = []string{"<" + XMLEntity + ">", "<" + XMLMixin + ">", "<" + XMLPrefab + ">", "<" + XMLInclude + ">", "<" + XMLComponents + ">"}
	// xmlDeclAttrs are the attributes of <component> and <property>.
	xmlDeclAttrs = []string{XMLName, XMLType, XMLDefault, XMLOneOf, XMLMin, XMLMax, XMLOnDelete}
)

// ReadXML reads a scene written in XML; see the package comment in xml.go
// for the layout. Includes are recorded but not resolved; use [ReadFile].
func ReadXML(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.WithDefaults()
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
	key, val    span // the name, and the value between its quotes
}

type xmlReader struct {
	file string
	data []byte
	lim  Limits
	errs *errorSink
	sc   *xmltok.Scanner
	cur  posCursor

	start, end int  // byte offsets of the current token
	stop       bool // fatal error or limit: read no further
	eof        bool // end of input reached
	n          int  // entities read

	attrs []xmlAttr    // scratch for the current start tag
	ents  []EntitySpec // slabs, to allocate in bulk
	comps []ComponentSpec
	ptrs  []*ComponentSpec
	strs  []string
	src   *Source
}

func readXML(file string, data []byte, lim Limits, errs *errorSink) *Document {
	x := &xmlReader{file: file, data: data, lim: lim, errs: errs, cur: newPosCursor(file, data), n: lim.usedEntities}
	x.src = &Source{file: file, data: data, format: FormatXML}
	x.sc = xmltok.NewScanner(data, textpos.BOMLen(data)) // a byte order mark is not content
	var doc *Document
	for !x.stop && !x.errs.full {
		t, ok := x.next()
		if !ok {
			break
		}
		switch t.Kind {
		case xmltok.Start:
			switch {
			case doc != nil:
				x.errs.add(x.pos(x.start), "several root elements: a scene file has one <%s> element", XMLScene)
				x.skip(t.Name)
			case t.Name != XMLScene:
				x.errs.add(x.pos(x.start), "root element must be <%s>, not <%s>", XMLScene, t.Name)
				doc = &Document{File: file, Files: []string{file}, Pos: x.pos(x.start)}
				x.skip(t.Name)
			default:
				doc = x.scene()
			}
		case xmltok.End:
			x.fail(x.start, "unexpected end tag </%s>", t.Name)
		default:
			x.misc(t, "")
		}
	}
	if doc == nil && (x.eof || !x.stop) && !x.errs.full {
		x.errs.add(x.pos(len(data)), "no <%s> element", XMLScene)
	}
	if doc != nil {
		doc.nEntities = x.n - lim.usedEntities
	}
	return doc
}

// next returns the next token, recording its byte offsets. On a syntax
// error it reports it and returns false; at the end of input it returns
// false without an error. The token is valid until the next call.
func (x *xmlReader) next() (*xmltok.Token, bool) {
	x.start = x.sc.Offset()
	ok := x.sc.Next()
	x.end = x.sc.Offset()
	if !ok {
		if err := x.sc.Err(); err != nil {
			x.fail(err.At, "%s", err.Msg)
		} else {
			x.eof = true
		}
		x.stop = true
		return nil, false
	}
	return x.sc.Token(), true
}

// fail reports a fatal error at byte offset off.
func (x *xmlReader) fail(off int, format string, args ...any) {
	x.errs.add(x.pos(off), format, args...)
	x.stop = true
}

func (x *xmlReader) pos(off int) Pos { return x.cur.pos(off) }

// misc handles a token that is not an element inside element elem ("":
// outside the root element): comments and processing instructions are
// ignored, white space is fine, text and directives are reported.
func (x *xmlReader) misc(t *xmltok.Token, elem string) {
	switch t.Kind {
	case xmltok.Text:
		raw := x.data[x.start:x.end]
		if i := bytes.IndexFunc(raw, func(r rune) bool { return r != ' ' && r != '\t' && r != '\r' && r != '\n' }); i >= 0 {
			where := "outside the root element"
			if elem != "" {
				where = "in <" + elem + ">"
			}
			x.errs.add(x.pos(x.start+i), "unexpected text %s", where)
		}
	case xmltok.Directive:
		x.errs.add(x.pos(x.start), "DOCTYPE, ENTITY and other <!...> declarations are not allowed")
	}
}

// child reads the content of element elem, opened at byte offset open, up
// to its next child element, which it returns (the caller must consume
// it). It returns false at the end tag of elem, at the end of input or on
// a fatal error. Child elements with a namespace prefix are reported as
// unknown and skipped.
func (x *xmlReader) child(elem string, open int) (*xmltok.Token, bool) {
	for !x.stop && !x.errs.full {
		t, ok := x.next()
		if !ok {
			if x.eof {
				x.fail(len(x.data), "unexpected end of file: <%s> at %s is not closed", elem, x.pos(open))
			}
			return nil, false
		}
		switch t.Kind {
		case xmltok.End:
			if t.Name != elem {
				x.fail(x.start, "</%s> closes <%s> at %s", t.Name, elem, x.pos(open))
			}
			return nil, false
		case xmltok.Start:
			if xmltok.Prefixed(t.Name) {
				x.errs.add(x.pos(x.start), "unknown element <%s> in <%s>", t.Name, elem)
				x.skip(t.Name)
				continue
			}
			return t, true
		default:
			x.misc(t, elem)
		}
	}
	return nil, false
}

// body reads the content of element elem, opened at byte offset open, up
// to its end tag, reporting child elements as unknown.
func (x *xmlReader) body(elem string, open int) {
	for t, ok := x.child(elem, open); ok; t, ok = x.child(elem, open) {
		x.errs.add(x.pos(x.start), "unknown element <%s> in <%s>", t.Name, elem)
		x.skip(t.Name)
	}
}

// skip consumes the rest of element elem, checking that tags match.
func (x *xmlReader) skip(elem string) {
	stack := []string{elem}
	opens := []int{x.start}
	for len(stack) > 0 && !x.stop {
		t, ok := x.next()
		if !ok {
			if x.eof {
				x.fail(len(x.data), "unexpected end of file: <%s> at %s is not closed", stack[len(stack)-1], x.pos(opens[len(opens)-1]))
			}
			return
		}
		switch t.Kind {
		case xmltok.Start:
			stack = append(stack, t.Name)
			opens = append(opens, x.start)
		case xmltok.End:
			top := len(stack) - 1
			if t.Name != stack[top] {
				x.fail(x.start, "</%s> closes <%s> at %s", t.Name, stack[top], x.pos(opens[top]))
				return
			}
			stack, opens = stack[:top], opens[:top]
		case xmltok.Directive:
			x.misc(t, "")
		}
	}
}

// attributes returns the attributes of the start tag just read, with the
// positions of their names and values, reporting duplicates and
// namespaces. The result is valid until the next call. Its cost is linear
// in the number of attributes: a tag with many is checked for duplicates
// through a map.
func (x *xmlReader) attributes() []xmlAttr {
	x.attrs = x.attrs[:0]
	raw := x.sc.Token().Attrs
	var seen map[string]int // name -> index in x.attrs, for tags with many attributes
	if len(raw) > 16 {
		seen = make(map[string]int, len(raw))
	}
	for k := range raw {
		a := &raw[k]
		at := xmlAttr{name: a.Name, value: a.Value, pos: x.pos(a.NameOff), vpos: x.pos(a.ValOff),
			key: mkSpan(a.NameOff, a.NameOff+len(a.Name)), val: mkSpan(a.ValOff, a.ValEnd)}
		if xmltok.Prefixed(a.Name) || a.Name == XMLNS {
			x.errs.add(at.pos, "namespaces are not supported (attribute %s)", a.Name)
			continue
		}
		first := -1
		if seen != nil {
			if j, ok := seen[a.Name]; ok {
				first = j
			} else {
				seen[a.Name] = len(x.attrs)
			}
		} else {
			for j := range x.attrs {
				if x.attrs[j].name == a.Name {
					first = j
					break
				}
			}
		}
		if first >= 0 {
			x.errs.add(at.pos, "duplicate attribute %q (first at %s)", a.Name, x.attrs[first].pos)
			continue
		}
		x.attrs = append(x.attrs, at)
	}
	return x.attrs
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (x *xmlReader) newComponent() *ComponentSpec {
	if len(x.comps) == 0 {
		x.comps = make([]ComponentSpec, 256)
	}
	c := &x.comps[0]
	x.comps = x.comps[1:]
	return c
}

// component makes a component (or system setting) from an attribute. An
// attribute named component.property gives that one property, as a
// mapping of one entry: the way to write a string with ';' or
// surrounding spaces in a component with several properties.
func (x *xmlReader) component(a *xmlAttr, what string) *ComponentSpec {
	name, prop, dotted := strings.Cut(a.name, ".")
	if !validName(name, true) {
		x.errs.add(a.pos, "%s", nameMsg(what, name))
		return nil
	}
	c := x.newComponent()
	c.Name, c.src, c.Exact = name, x.src, true
	c.key, c.val = a.key, a.val
	if !c.key.ok() || !c.val.ok() {
		c.SetPos(a.pos, a.vpos)
	}
	if dotted {
		ppos := a.pos
		ppos.Line, ppos.Col = textpos.Advance(ppos.Line, ppos.Col, a.name[:len(name)+1])
		if !validName(prop, false) {
			x.errs.add(ppos, "%s", nameMsg("property", prop))
			return nil
		}
		c.Kind = ValueMap
		kv := &KV{Key: prop, Value: a.value, Exact: true, src: x.src,
			key: mkSpan(int(a.key.off)+len(name)+1, int(a.key.end)), val: a.val}
		if !kv.key.ok() || !kv.val.ok() {
			kv.SetPos(ppos, a.vpos)
		}
		c.Map = []*KV{kv}
		return c
	}
	if a.value != "" {
		c.Kind, c.Text = ValueText, a.value
	}
	return c
}

// words splits a space-separated list attribute such as class or mixin,
// into a slice cut from a slab shared by the entities of the file.
func (x *xmlReader) words(s string) []string {
	n := countWords(s)
	if n == 0 {
		return nil
	}
	return appendWords(cutSlab(&x.strs, n), s)
}

func countWords(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if !isXMLSpace(s[i]) && (i == 0 || isXMLSpace(s[i-1])) {
			n++
		}
	}
	return n
}

func appendWords(out []string, s string) []string {
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

func (x *xmlReader) scene() *Document {
	open := x.start
	doc := &Document{File: x.file, Files: []string{x.file}, Pos: x.pos(open)}
	for i := range x.attributes() {
		if c := x.component(&x.attrs[i], "system"); c != nil {
			doc.Systems = append(doc.Systems, c)
		}
	}
	for t, ok := x.child(XMLScene, open); ok; t, ok = x.child(XMLScene, open) {
		switch t.Name {
		case XMLEntity:
			if e := x.entity(1); e != nil {
				doc.Entities = append(doc.Entities, e)
			}
		case XMLMixin:
			if m := x.mixin(); m != nil {
				doc.Mixins = append(doc.Mixins, m)
			}
		case XMLPrefab:
			if p := x.prefab(); p != nil {
				doc.Prefabs = append(doc.Prefabs, p)
			}
		case XMLInclude:
			if inc := x.include(); inc != nil {
				doc.Includes = append(doc.Includes, inc)
			}
		case XMLComponents:
			open := x.start
			for _, a := range x.attributes() {
				x.errs.add(a.pos, "unknown attribute %q on <%s>", a.name, XMLComponents)
			}
			for t, ok := x.child(XMLComponents, open); ok; t, ok = x.child(XMLComponents, open) {
				if t.Name != XMLComponent {
					x.errs.add(x.pos(x.start), "unknown element <%s> in <%s> (want <%s>)", t.Name, XMLComponents, XMLComponent)
					x.skip(t.Name)
					continue
				}
				if d := x.decl(); d != nil {
					doc.Decls = append(doc.Decls, d)
				}
			}
		default:
			x.errs.add(x.pos(x.start), "unknown element <%s> in <%s> (want %s)", t.Name, XMLScene, orList(xmlSceneElems))
			x.skip(t.Name)
		}
	}
	return doc
}

// entity reads an <entity> element, whose start tag was just read, at
// nesting depth depth.
func (x *xmlReader) entity(depth int) *EntitySpec {
	open := x.start
	e := x.newEntity(open, depth, XMLEntity)
	if e == nil {
		return nil
	}
	x.entityAttrs(e, "", x.attributes())
	x.entityBody(e, XMLEntity, open, depth)
	return e
}

// newEntity counts an entity element (of kind elem) opening at open and
// returns its zeroed spec, or nil past a limit (the element skipped).
func (x *xmlReader) newEntity(open, depth int, elem string) *EntitySpec {
	x.n++
	if x.n > x.lim.MaxEntities {
		x.fail(open, "too many entities (limit %d)", x.lim.MaxEntities)
		return nil
	}
	if x.errs.poll() {
		x.stop = true // interrupted: the caller says so
		return nil
	}
	if depth > x.lim.MaxDepth {
		x.errs.add(x.pos(open), "entities nested too deeply (limit %d)", x.lim.MaxDepth)
		x.skip(elem)
		return nil
	}
	if len(x.ents) == 0 {
		x.ents = make([]EntitySpec, 128)
	}
	e := &x.ents[0]
	x.ents = x.ents[1:]
	e.Pos, e.File = x.pos(open), x.file
	return e
}

// entityAttrs reads the attributes of an entity, a prefab or a part;
// skip is the attribute that names the element (name, path), read by
// the caller.
func (x *xmlReader) entityAttrs(e *EntitySpec, skip string, attrs []xmlAttr) {
	e.Components = cutSlab(&x.ptrs, len(attrs))
	for i := range attrs {
		a := &attrs[i]
		switch a.name {
		case skip:
		case XMLID:
			e.IDPos = a.vpos
			if !validID(a.value) {
				x.errs.add(a.vpos, "%s", idMsg("entity id", a.value))
			} else {
				e.ID = a.value
			}
		case XMLClass:
			e.Class = x.words(a.value)
		case XMLMixin:
			e.MixinPos = a.vpos
			e.Mixins = x.words(a.value)
		case XMLPrefab:
			in := e.instance()
			in.PrefabPos = a.vpos
			if !validID(a.value) {
				x.errs.add(a.vpos, "%s", idMsg("prefab name", a.value))
			} else {
				in.Prefab = a.value
			}
		case XMLChildren:
			x.errs.add(a.pos, "%s are written as nested <%s> elements, not as an attribute", XMLChildren, XMLEntity)
		default:
			if c := x.component(a, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		}
	}
}

// entityBody reads the children (<entity>) and parts (<part>) of the
// element elem of e, which opened at open.
func (x *xmlReader) entityBody(e *EntitySpec, elem string, open, depth int) {
	for t, ok := x.child(elem, open); ok; t, ok = x.child(elem, open) {
		switch {
		case t.Name == XMLEntity:
			if c := x.entity(depth + 1); c != nil {
				e.Children = append(e.Children, c)
			}
		case t.Name == XMLPart && elem == XMLEntity:
			if p := x.part(depth + 1); p != nil {
				in := e.instance()
				in.Parts = append(in.Parts, p)
			}
		case t.Name == XMLRemoved && elem == XMLEntity:
			if p := x.removed(); p != nil {
				in := e.instance()
				in.Parts = append(in.Parts, p)
			}
		default:
			want := "<" + XMLEntity + ">"
			if elem == XMLEntity {
				want = orList([]string{want, "<" + XMLPart + ">", "<" + XMLRemoved + ">"})
			}
			x.errs.add(x.pos(x.start), "unknown element <%s> in <%s> (want %s)", t.Name, elem, want)
			x.skip(t.Name)
		}
	}
}

// named returns the value and position of the attribute name of the
// element that opened at open, reporting its absence or a bad value.
func (x *xmlReader) named(attrs []xmlAttr, name, elem string, open int, check func(string) string) (string, Pos, bool) {
	for _, a := range attrs {
		if a.name == name {
			if msg := check(a.value); msg != "" {
				x.errs.add(a.vpos, "%s", msg)
				return "", a.vpos, false
			}
			return a.value, a.vpos, true
		}
	}
	x.errs.add(x.pos(open), "<%s> needs a %s attribute", elem, name)
	return "", x.pos(open), false
}

// prefab reads a <prefab name="..."> element: the prefab's body, whose
// attributes are those of an <entity> and whose children are entities.
func (x *xmlReader) prefab() *PrefabSpec {
	open := x.start
	e := x.newEntity(open, 1, XMLPrefab)
	if e == nil {
		return nil
	}
	attrs := x.attributes()
	name, pos, ok := x.named(attrs, XMLName, XMLPrefab, open, func(v string) string {
		if validID(v) {
			return ""
		}
		return idMsg("prefab name", v)
	})
	x.entityAttrs(e, XMLName, attrs)
	x.entityBody(e, XMLPrefab, open, 1)
	if !ok {
		return nil
	}
	return &PrefabSpec{Name: name, Pos: pos, Body: e}
}

// part reads a <part path="..."> element of an instance.
func (x *xmlReader) part(depth int) *PartSpec {
	open := x.start
	e := x.newEntity(open, depth, XMLPart)
	if e == nil {
		return nil
	}
	attrs := x.attributes()
	path, pos, ok := x.named(attrs, XMLPath, XMLPart, open, partPathProblem)
	x.entityAttrs(e, XMLPath, attrs)
	x.entityBody(e, XMLPart, open, depth)
	if !ok {
		return nil
	}
	return &PartSpec{Path: path, PathPos: pos, Body: e}
}

// removed reads a <removed path="..."/> element of an instance: a part
// of its prefab it does not have.
func (x *xmlReader) removed() *PartSpec {
	open := x.start
	attrs := x.attributes()
	path, pos, ok := x.named(attrs, XMLPath, XMLRemoved, open, partPathProblem)
	for _, a := range attrs {
		if a.name != XMLPath {
			x.errs.add(a.pos, "unknown attribute %q on <%s> (want %s): a removed part takes nothing but its path", a.name, XMLRemoved, XMLPath)
		}
	}
	x.body(XMLRemoved, open)
	if !ok {
		return nil
	}
	return &PartSpec{Path: path, PathPos: pos, Body: &EntitySpec{Pos: x.pos(open), File: x.file}, Removed: true}
}

func (x *xmlReader) mixin() *MixinSpec {
	open := x.start
	m := &MixinSpec{Pos: x.pos(open)}
	hasID := false
	for i, a := range x.attributes() {
		switch a.name {
		case XMLID:
			hasID = true
			m.Pos = a.vpos
			if !validID(a.value) {
				x.errs.add(a.vpos, "%s", idMsg("mixin id", a.value))
				m = nil
			} else if m != nil {
				m.ID = a.value
			}
		case XMLMixin:
			if m != nil {
				m.MixinPos = a.vpos
				m.Mixins = x.words(a.value)
			}
		case XMLChildren, XMLPrefab:
			x.errs.add(a.pos, "%s", mixinSubtreeMsg(a.name))
		case XMLClass:
			x.errs.add(a.pos, "%q is not allowed in a mixin", a.name)
		default:
			if c := x.component(&x.attrs[i], "component"); c != nil && m != nil {
				m.Components = append(m.Components, c)
			}
		}
	}
	if !hasID {
		x.errs.add(x.pos(open), "<%s> needs an %s attribute", XMLMixin, XMLID)
		m = nil
	}
	x.body(XMLMixin, open)
	return m
}

func (x *xmlReader) include() *Include {
	open := x.start
	found := false // a src attribute, also one with a namespace prefix or repeated
	for _, a := range x.sc.Token().Attrs {
		found = found || xmltok.Local(a.Name) == XMLSrc
	}
	var inc *Include
	for _, a := range x.attributes() {
		if a.name != XMLSrc {
			x.errs.add(a.pos, "unknown attribute %q on <%s> (want %s)", a.name, XMLInclude, XMLSrc)
			continue
		}
		if a.value == "" {
			x.errs.add(a.vpos, "%s: empty path", XMLInclude)
			continue
		}
		inc = &Include{Path: a.value, Pos: a.vpos}
	}
	if inc == nil && !x.errs.full && !found {
		x.errs.add(x.pos(open), "<%s> needs a %s attribute", XMLInclude, XMLSrc)
	}
	x.body(XMLInclude, open)
	return inc
}

// decl reads <component name=... [type=... default=... oneOf=... min=... max=...]>
// with optional <property> children.
func (x *xmlReader) decl() *Decl {
	open := x.start
	p, name, ok := x.propAttrs(XMLComponent)
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
			x.errs.add(x.pos(open), "single-property declaration of %q needs a %s attribute", d.Name, XMLType)
		}
		p.Pos = d.Pos
		d.Single, d.Props = true, []*PropDecl{p}
	}
	for t, ok := x.child(XMLComponent, open); ok; t, ok = x.child(XMLComponent, open) {
		if t.Name != XMLProperty {
			x.errs.add(x.pos(x.start), "unknown element <%s> in <%s> (want <%s>)", t.Name, XMLComponent, XMLProperty)
			x.skip(t.Name)
			continue
		}
		if single {
			x.errs.add(x.pos(x.start), "<%s> in a single-property declaration (one with a %s attribute)", XMLProperty, XMLType)
			x.skip(t.Name)
			continue
		}
		popen := x.start
		p, name, ok := x.propAttrs(XMLProperty)
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
		x.body(XMLProperty, popen)
	}
	return d
}

// propAttrs reads the attributes of <component> or <property>: name (required),
// type, default, oneOf, min, max.
func (x *xmlReader) propAttrs(elem string) (*PropDecl, xmlAttr, bool) {
	open := x.start
	p := &PropDecl{}
	var name xmlAttr
	hasName := false
	for _, a := range x.attributes() {
		switch a.name {
		case XMLName:
			name, hasName = a, true
		case XMLType:
			p.Type = a.value
		case XMLDefault:
			p.Default, p.HasDefault, p.DefaultPos = a.value, true, a.vpos
		case XMLOneOf:
			p.OneOf = splitList(a.value)
			if p.OneOf == nil {
				p.OneOf = []string{}
			}
		case XMLOnDelete:
			p.OnDelete, p.OnDeletePos = a.value, a.vpos
		case XMLMin, XMLMax:
			f, err := strconv.ParseFloat(a.value, 64)
			if err != nil {
				x.errs.add(a.vpos, "%s must be a number, not %q", a.name, a.value)
				continue
			}
			if a.name == XMLMin {
				p.Min = &f
			} else {
				p.Max = &f
			}
		default:
			x.errs.add(a.pos, "unknown attribute %q on <%s> (want %s)", a.name, elem, orList(xmlDeclAttrs))
		}
	}
	if !hasName {
		x.errs.add(x.pos(open), "<%s> needs a %s attribute", elem, XMLName)
	}
	return p, name, hasName
}

// ---- writing ----

// WriteXML writes doc as an XML scene.
func WriteXML(w io.Writer, doc *Document) error {
	var b bytes.Buffer
	b.WriteString("<" + XMLScene)
	for _, c := range doc.Systems {
		writeXMLComponent(&b, c)
	}
	b.WriteString(">\n")
	if len(doc.Decls) > 0 {
		b.WriteString("  <" + XMLComponents + ">\n")
		for _, d := range doc.Decls {
			fmt.Fprintf(&b, "    <%s %s=%s", XMLComponent, XMLName, xmlAttrValue(d.Name))
			switch {
			case len(d.Props) == 0:
				b.WriteString("/>\n")
			case d.Single:
				b.WriteString(propDeclXML(d.Props[0]) + "/>\n")
			default:
				b.WriteString(">\n")
				for _, p := range d.Props {
					fmt.Fprintf(&b, "      <%s %s=%s%s/>\n", XMLProperty, XMLName, xmlAttrValue(p.Name), propDeclXML(p))
				}
				b.WriteString("    </" + XMLComponent + ">\n")
			}
		}
		b.WriteString("  </" + XMLComponents + ">\n")
	}
	for _, m := range doc.Mixins {
		fmt.Fprintf(&b, "  <%s %s=%s", XMLMixin, XMLID, xmlAttrValue(m.ID))
		if len(m.Mixins) > 0 {
			fmt.Fprintf(&b, " %s=%s", XMLMixin, xmlAttrValue(strings.Join(m.Mixins, " ")))
		}
		for _, c := range m.Components {
			writeXMLComponent(&b, c)
		}
		b.WriteString("/>\n")
	}
	for _, p := range doc.Prefabs {
		writeXMLElement(&b, "  ", XMLPrefab, " "+XMLName+"="+xmlAttrValue(p.Name), p.Body)
	}
	for _, e := range doc.Entities {
		writeXMLEntity(&b, "  ", e)
	}
	b.WriteString("</" + XMLScene + ">\n")
	_, err := w.Write(b.Bytes())
	return err
}

func propDeclXML(p *PropDecl) string {
	s := " " + XMLType + "=" + xmlAttrValue(p.Type)
	if p.HasDefault {
		s += " " + XMLDefault + "=" + xmlAttrValue(p.Default)
	}
	if len(p.OneOf) > 0 {
		s += " " + XMLOneOf + "=" + xmlAttrValue(strings.Join(p.OneOf, ", "))
	}
	if p.Min != nil {
		s += " " + XMLMin + "=" + xmlAttrValue(strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		s += " " + XMLMax + "=" + xmlAttrValue(strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	if p.OnDelete != "" {
		s += " " + XMLOnDelete + "=" + xmlAttrValue(p.OnDelete)
	}
	return s
}

func writeXMLEntity(b *bytes.Buffer, indent string, e *EntitySpec) {
	writeXMLElement(b, indent, XMLEntity, "", e)
}

// writeXMLElement writes entity e as the element elem (entity, prefab or
// part), whose naming attribute (name, path) is given first in attr.
func writeXMLElement(b *bytes.Buffer, indent, elem, attr string, e *EntitySpec) {
	b.WriteString(indent + "<" + elem + attr)
	if e.ID != "" {
		fmt.Fprintf(b, " %s=%s", XMLID, xmlAttrValue(e.ID))
	}
	if e.Prefab() != "" {
		fmt.Fprintf(b, " %s=%s", XMLPrefab, xmlAttrValue(e.Prefab()))
	}
	if len(e.Class) > 0 {
		fmt.Fprintf(b, " %s=%s", XMLClass, xmlAttrValue(strings.Join(e.Class, " ")))
	}
	if len(e.Mixins) > 0 {
		fmt.Fprintf(b, " %s=%s", XMLMixin, xmlAttrValue(strings.Join(e.Mixins, " ")))
	}
	for _, c := range e.Components {
		writeXMLComponent(b, c)
	}
	if len(e.Children) == 0 && len(e.Parts()) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n")
	for _, p := range e.Parts() {
		if p.Removed {
			b.WriteString(indent + "  <" + XMLRemoved + " " + XMLPath + "=" + xmlAttrValue(p.Path) + "/>\n")
			continue
		}
		writeXMLElement(b, indent+"  ", XMLPart, " "+XMLPath+"="+xmlAttrValue(p.Path), p.Body)
	}
	for _, ch := range e.Children {
		writeXMLEntity(b, indent+"  ", ch)
	}
	b.WriteString(indent + "</" + elem + ">\n")
}

// writeXMLComponent writes a component as an attribute, or a mapping
// value as one name.property attribute per entry. XML has no lists: a
// list is written as its text, and an empty one as one space, since an
// empty attribute is no value (the defaults), not an empty array.
func writeXMLComponent(b *bytes.Buffer, c *ComponentSpec) {
	if c.Kind == ValueMap {
		for _, kv := range c.Map {
			fmt.Fprintf(b, " %s.%s=%s", c.Name, kv.Key, xmlAttrValue(kv.Value))
		}
		return
	}
	text := c.Text
	if c.List != nil && text == "" {
		text = " "
	}
	fmt.Fprintf(b, " %s=%s", c.Name, xmlAttrValue(text))
}

func xmlAttrValue(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\n':
			b.WriteString("&#10;")
		case '\r':
			b.WriteString("&#13;")
		case '\t':
			b.WriteString("&#9;")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
