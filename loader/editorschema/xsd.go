package editorschema

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// The XML Schema of the XML spelling of scenes, for editors. Its element
// and attribute names are the XML vocabulary of xml.go.

// xsdWriter writes an indented XML Schema.
type xsdWriter struct {
	buf    bytes.Buffer
	indent int
}

// xmlEscaper escapes text for character data and double-quoted
// attribute values; control characters other than tab and newline never
// occur in names and summaries.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\n", "&#xA;")

// esc escapes s for an attribute value or character data.
func xsdEsc(s string) string { return xmlEscaper.Replace(s) }

// line writes one indented line, formatted; depth changes the indent for
// the following lines (after the line for a closing tag, before for an
// opening one).
func (w *xsdWriter) line(depth int, format string, args ...any) {
	if depth < 0 {
		w.indent += depth
	}
	w.buf.WriteString(strings.Repeat("  ", w.indent))
	fmt.Fprintf(&w.buf, format, args...)
	w.buf.WriteByte('\n')
	if depth > 0 {
		w.indent += depth
	}
}

// doc writes an xs:annotation holding text.
func (w *xsdWriter) doc(text string) {
	w.line(0, "<xs:annotation><xs:documentation>%s</xs:documentation></xs:annotation>", xsdEsc(text))
}

// attr writes an optional attribute documented by doc, whose values are
// restricted to enum if that is not empty.
func (w *xsdWriter) attr(name, doc string, enum []string) {
	if len(enum) == 0 {
		w.line(1, `<xs:attribute name="%s" type="xs:string">`, xsdEsc(name))
		w.doc(doc)
		w.line(-1, `</xs:attribute>`)
		return
	}
	w.line(1, `<xs:attribute name="%s">`, xsdEsc(name))
	w.doc(doc)
	w.line(1, `<xs:simpleType>`)
	w.line(1, `<xs:restriction base="xs:string">`)
	for _, v := range enum {
		w.line(0, `<xs:enumeration value="%s"/>`, xsdEsc(v))
	}
	w.line(-1, `</xs:restriction>`)
	w.line(-1, `</xs:simpleType>`)
	w.line(-1, `</xs:attribute>`)
}

// patternAttr writes an optional attribute documented by doc, whose
// values must match the XML Schema pattern.
func (w *xsdWriter) patternAttr(name, doc, pattern string) {
	w.line(1, `<xs:attribute name="%s">`, xsdEsc(name))
	w.doc(doc)
	w.line(1, `<xs:simpleType>`)
	w.line(1, `<xs:restriction base="xs:string">`)
	w.line(0, `<xs:pattern value="%s"/>`, xsdEsc(pattern))
	w.line(-1, `</xs:restriction>`)
	w.line(-1, `</xs:simpleType>`)
	w.line(-1, `</xs:attribute>`)
}

// valueAttr writes the optional attribute of a component or system with
// schema s, documented by doc: a multi-property one's attribute strings
// must name its properties (attrPattern), the values of a tag, boolean or
// oneOf one are listed (attrEnum).
func (w *xsdWriter) valueAttr(name, doc string, s *registry.Schema) {
	if !s.IsTag() && !s.Single() {
		w.patternAttr(name, doc, attrPattern(s, xsdDialect))
		return
	}
	w.attr(name, doc, attrEnum(s))
}

// attrEnum returns the values a component's attribute may take, when they
// are few: a single oneOf or boolean property, or a tag (the empty value).
func attrEnum(s *registry.Schema) []string {
	switch {
	case s.IsTag():
		return []string{""}
	case !s.Single():
		return nil
	}
	return propEnum(&s.Props[0])
}

// propEnum returns the values a property may be given in an attribute,
// when they are few: those of a oneOf or boolean property, or the empty
// value (its default).
func propEnum(p *registry.Property) []string {
	switch {
	case len(p.OneOf) > 0 && p.Type.GoType.Kind() == reflect.String:
		return append([]string{""}, p.OneOf...)
	case p.Type.GoType.Kind() == reflect.Bool:
		return []string{"", "true", "false"}
	}
	return nil
}

// componentAttrs writes the attributes of a component c called name (c's
// name, or an instance name__ID): its value and, for a multi-property
// component, one name.prop attribute per property, in camelCase and in
// hyphen-case.
func (w *xsdWriter) componentAttrs(name string, c *registry.Component) {
	w.valueAttr(name, componentDoc(c), c.Schema)
	if c.Schema.IsTag() || c.Schema.Single() {
		return
	}
	for i := range c.Schema.Props {
		p := &c.Schema.Props[i]
		doc := fmt.Sprintf("Property %s of %s: %s. Merged over the %s attribute.", p.Name, name, propSummary(p), name)
		w.attr(name+"."+p.Name, doc, propEnum(p))
		if h := hyphenCase(p.Name); h != p.Name {
			w.attr(name+"."+h, doc, propEnum(p))
		}
	}
}

// WriteXSD writes an XML Schema of XML scenes for the components and
// systems registered in reg, for editors to validate and complete scene
// files with. With a doc, the components doc declares (its components
// section) are described as registered ones are, and so are the tags and
// the name__ID instances of multiple components that doc uses; a
// declaration that does not compile is an error, as [Compile] reports
// it. The output is deterministic.
//
// Attribute strings of multi-property components and systems must name
// their properties (an xs:pattern; values are not checked), and so must
// component.property attributes. Made with a doc, <entity> and <mixin>
// take no attribute the schema does not know, so a misspelt component is
// an error. Made without one they take any other attribute
// (xs:anyAttribute), as XML Schema 1.0 cannot make that depend on the
// scene's <components> section and the tags it uses.
func WriteXSD(w io.Writer, reg *registry.Registry, doc *scenefile.Document) error {
	comps, err := schemaComponents(reg, doc)
	if err != nil {
		return err
	}
	x := &xsdWriter{}
	x.line(0, `<?xml version="1.0" encoding="UTF-8"?>`)
	x.line(0, `<!-- Generated by "scene-run schema -format xsd" from the registered components and systems. -->`)
	x.line(1, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">`)
	x.doc("A scenecs scene in XML: a <scene> root whose attributes configure systems, holding <components>, <mixin>, <prefab>, <include> and <entity> elements in any order.")
	x.scene(reg)
	x.declarations(reg)
	open := doc == nil
	x.elements(open)
	x.prefabElements(open)
	x.line(1, `<xs:attributeGroup name="%s">`, scenefile.XMLComponents)
	if open {
		x.doc("The registered components. Made without a scene, the schema cannot know the components a scene declares, the tags it uses (names with an empty value) or the name__ID instances of multiple components: <entity> and <mixin> take any other attribute.")
	} else {
		x.doc("The components this schema knows: registered, declared by the scene, and the tags and name__ID instances the scene uses. <entity> and <mixin> take no others.")
	}
	for _, c := range comps {
		x.componentAttrs(c.Name, c)
	}
	for _, u := range sceneNames(doc, comps) {
		if u.c == nil {
			x.attr(u.name, fmt.Sprintf("Tag %s: a name the scene uses with an empty value, declared by that use.", u.name), []string{""})
		} else {
			x.componentAttrs(u.name, u.c)
		}
	}
	x.line(-1, `</xs:attributeGroup>`)
	x.line(-1, `</xs:schema>`)
	_, err = w.Write(x.buf.Bytes())
	return err
}

// scene declares the root element, whose attributes are the settings of
// reg's systems.
func (x *xsdWriter) scene(reg *registry.Registry) {
	x.line(1, `<xs:element name="%s">`, scenefile.XMLScene)
	x.doc("The scene root. Each attribute configures the system of that name, or places it or a component that ticks in the schedule (_phase, _before ...).")
	x.line(1, `<xs:complexType>`)
	x.line(1, `<xs:choice minOccurs="0" maxOccurs="unbounded">`)
	for _, e := range []string{scenefile.XMLComponents, scenefile.XMLMixin, scenefile.XMLPrefab, scenefile.XMLInclude, scenefile.XMLEntity} {
		x.line(0, `<xs:element name="%s" type="%s"/>`, e, e)
	}
	x.line(-1, `</xs:choice>`)
	x.scheduleAttrs(reg)
	x.line(-1, `</xs:complexType>`)
	x.line(-1, `</xs:element>`)
}

// declarations declares <components>, <component> and <property>.
func (x *xsdWriter) declarations(reg *registry.Registry) {
	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLComponents)
	x.doc("Data-only component declarations.")
	x.line(1, `<xs:sequence>`)
	x.line(0, `<xs:element name="%s" type="componentDeclaration" minOccurs="0" maxOccurs="unbounded"/>`, scenefile.XMLComponent)
	x.line(-1, `</xs:sequence>`)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="componentDeclaration">`)
	x.doc("A component declaration: with a type attribute (or default, oneOf, min, max) a single-property component; otherwise its <property> children are its properties, and with none it is a tag.")
	x.line(1, `<xs:sequence>`)
	x.line(0, `<xs:element name="%s" type="propertyDeclaration" minOccurs="0" maxOccurs="unbounded"/>`, scenefile.XMLProperty)
	x.line(-1, `</xs:sequence>`)
	x.line(0, `<xs:attributeGroup ref="declaration"/>`)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="propertyDeclaration">`)
	x.doc("A property of a declared component.")
	x.line(0, `<xs:attributeGroup ref="declaration"/>`)
	x.line(-1, `</xs:complexType>`)
	x.declarationAttrs(reg)
}

// declarationAttrs declares the attributes of <component> and <property>.
func (x *xsdWriter) declarationAttrs(reg *registry.Registry) {
	x.line(1, `<xs:attributeGroup name="declaration">`)
	x.line(1, `<xs:attribute name="%s" use="required">`, scenefile.XMLName)
	x.doc("The component or property name: a letter, then letters, digits, '-' or '_'.")
	x.line(1, `<xs:simpleType>`)
	x.line(1, `<xs:restriction base="xs:string">`)
	x.line(0, `<xs:pattern value="[A-Za-z][A-Za-z0-9_\-]*"/>`)
	x.line(-1, `</xs:restriction>`)
	x.line(-1, `</xs:simpleType>`)
	x.line(-1, `</xs:attribute>`)
	x.line(1, `<xs:attribute name="%s">`, scenefile.XMLType)
	x.doc("The property type (default string).")
	x.line(1, `<xs:simpleType>`)
	x.line(1, `<xs:restriction base="xs:string">`)
	for _, t := range typeNames(reg) {
		x.line(0, `<xs:enumeration value="%s"/>`, xsdEsc(t))
	}
	x.line(-1, `</xs:restriction>`)
	x.line(-1, `</xs:simpleType>`)
	x.line(-1, `</xs:attribute>`)
	x.attr(scenefile.XMLDefault, "The default value, as attribute text.", nil)
	x.attr(scenefile.XMLOneOf, "Allowed values, separated by commas and/or white space.", nil)
	x.line(1, `<xs:attribute name="%s" type="xs:double">`, scenefile.XMLMin)
	x.doc("Inclusive lower bound of a numeric property.")
	x.line(-1, `</xs:attribute>`)
	x.line(1, `<xs:attribute name="%s" type="xs:double">`, scenefile.XMLMax)
	x.doc("Inclusive upper bound of a numeric property.")
	x.line(-1, `</xs:attribute>`)
	x.line(1, `<xs:attribute name="%s">`, scenefile.XMLOnDelete)
	x.doc("What happens to the holder of a reference (entity, entities) when its target is destroyed.")
	x.line(1, `<xs:simpleType>`)
	x.line(1, `<xs:restriction base="xs:string">`)
	for _, p := range []string{"clear", "destroy", "remove"} {
		x.line(0, `<xs:enumeration value="%s"/>`, p)
	}
	x.line(-1, `</xs:restriction>`)
	x.line(-1, `</xs:simpleType>`)
	x.line(-1, `</xs:attribute>`)
	x.line(-1, `</xs:attributeGroup>`)
}

// elements declares <include>, <mixin> and <entity>; if open, <mixin>
// and <entity> take any attribute besides theirs.
func (x *xsdWriter) elements(open bool) {
	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLInclude)
	x.doc("Includes another scene file (YAML or XML).")
	x.line(1, `<xs:attribute name="%s" type="xs:string" use="required">`, scenefile.XMLSrc)
	x.doc("The path of the included file, relative to this one.")
	x.line(-1, `</xs:attribute>`)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLMixin)
	x.doc("A mixin: its attributes other than id and mixin are components.")
	x.line(1, `<xs:attribute name="%s" type="xs:string" use="required">`, scenefile.XMLID)
	x.doc("The mixin's id, as named by mixin attributes.")
	x.line(-1, `</xs:attribute>`)
	x.attr(scenefile.XMLMixin, "Mixins this mixin builds on, space-separated.", nil)
	x.line(0, `<xs:attributeGroup ref="%s"/>`, scenefile.XMLComponents)
	x.anyAttribute(open)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLEntity)
	x.doc("An entity: its attributes other than id, class, mixin and prefab are components; children are nested <entity> elements; an instance of a prefab may change parts of it with <part> elements, and say with <removed> elements which it does not have.")
	x.line(1, `<xs:choice minOccurs="0" maxOccurs="unbounded">`)
	x.line(0, `<xs:element name="%s" type="%s"/>`, scenefile.XMLEntity, scenefile.XMLEntity)
	x.line(0, `<xs:element name="%s" type="%s"/>`, scenefile.XMLPart, scenefile.XMLPart)
	x.line(0, `<xs:element name="%s" type="%s"/>`, scenefile.XMLRemoved, scenefile.XMLRemoved)
	x.line(-1, `</xs:choice>`)
	x.attr(scenefile.XMLID, "The entity's id (#id in selectors); no spaces.", nil)
	x.entityAttrs(open)
	x.line(-1, `</xs:complexType>`)
}

// entityAttrs declares the attributes an entity, a prefab and a part
// share: class, mixin, prefab (refused on a part by the reader) and the
// components; if open, any other attribute too.
func (x *xsdWriter) entityAttrs(open bool) {
	x.attr(scenefile.XMLClass, "Classes (.class in selectors), space-separated.", nil)
	x.attr(scenefile.XMLMixin, "Mixins applied in order before the entity's own components, space-separated.", nil)
	x.attr(scenefile.XMLPrefab, "The prefab this entity is an instance of (on <prefab>: the prefab it is a variant of).", nil)
	x.line(0, `<xs:attributeGroup ref="%s"/>`, scenefile.XMLComponents)
	x.anyAttribute(open)
}

// prefabElements declares <prefab>, <part> and <removed>; if open, the
// first two take any attribute besides theirs.
func (x *xsdWriter) prefabElements(open bool) {
	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLPrefab)
	x.doc("A prefab: an entity subtree named by name, instanced by prefab attributes. Its attributes are an entity's (no id); inside it, an id names a child.")
	x.line(1, `<xs:sequence>`)
	x.line(0, `<xs:element name="%s" type="%s" minOccurs="0" maxOccurs="unbounded"/>`, scenefile.XMLEntity, scenefile.XMLEntity)
	x.line(-1, `</xs:sequence>`)
	x.line(1, `<xs:attribute name="%s" type="xs:string" use="required">`, scenefile.XMLName)
	x.doc("The prefab's name, as prefab attributes name it.")
	x.line(-1, `</xs:attribute>`)
	x.entityAttrs(open)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLPart)
	x.doc("Changes to a part of the instance's prefab: components, class and mixin written over the part's, and children added to it.")
	x.line(1, `<xs:sequence>`)
	x.line(0, `<xs:element name="%s" type="%s" minOccurs="0" maxOccurs="unbounded"/>`, scenefile.XMLEntity, scenefile.XMLEntity)
	x.line(-1, `</xs:sequence>`)
	x.line(1, `<xs:attribute name="%s" type="xs:string" use="required">`, scenefile.XMLPath)
	x.doc("The part's path inside the prefab: names joined by /, an unnamed child by its rank among the unnamed.")
	x.line(-1, `</xs:attribute>`)
	x.entityAttrs(open)
	x.line(-1, `</xs:complexType>`)

	x.line(1, `<xs:complexType name="%s">`, scenefile.XMLRemoved)
	x.doc("A part of the instance's prefab that the instance does not have (nor anything below it).")
	x.line(1, `<xs:attribute name="%s" type="xs:string" use="required">`, scenefile.XMLPath)
	x.doc("The part's path inside the prefab, as for <part>.")
	x.line(-1, `</xs:attribute>`)
	x.line(-1, `</xs:complexType>`)
}

// anyAttribute declares, if open, that an element takes any attribute.
func (x *xsdWriter) anyAttribute(open bool) {
	if open {
		x.line(0, `<xs:anyAttribute processContents="lax"/>`)
	}
}

// A sceneName is a component name a scene uses that is not a component
// of the schema: a name__ID instance of the multiple component c, or a
// tag (c nil), a name used with an empty value.
type sceneName struct {
	name string
	c    *registry.Component
}

// sceneNames returns the instances and tags doc's entities, mixins,
// prefabs and parts use, by name. Other names that are not components are errors, left for
// the schema to flag.
func sceneNames(doc *scenefile.Document, comps []*registry.Component) []sceneName {
	if doc == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []sceneName
	add := func(specs []*scenefile.ComponentSpec) {
		for _, cs := range specs {
			if seen[cs.Name] {
				continue
			}
			base, _, isInst := strings.Cut(cs.Name, "__")
			i := slices.IndexFunc(comps, func(c *registry.Component) bool { return c.Name == base })
			switch {
			case isInst && i >= 0 && comps[i].Multiple:
				out = append(out, sceneName{cs.Name, comps[i]})
			case !isInst && i < 0 && cs.Kind == scenefile.ValueEmpty:
				out = append(out, sceneName{cs.Name, nil})
			default:
				continue
			}
			seen[cs.Name] = true
		}
	}
	var walk func(es []*scenefile.EntitySpec)
	walk = func(es []*scenefile.EntitySpec) {
		for _, e := range es {
			add(e.Components)
			walk(e.Children)
			for _, p := range e.Parts() {
				walk([]*scenefile.EntitySpec{p.Body})
			}
		}
	}
	for _, m := range doc.Mixins {
		add(m.Components)
	}
	for _, p := range doc.Prefabs {
		walk([]*scenefile.EntitySpec{p.Body})
	}
	walk(doc.Entities)
	slices.SortFunc(out, func(a, b sceneName) int { return strings.Compare(a.name, b.name) })
	return out
}
