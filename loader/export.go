package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// ExportOptions choose what Export writes.
type ExportOptions struct {
	// Root, if not zero, limits the export to this entity's subtree.
	Root ecs.Entity
}

// Export writes the World's current state (or a subtree of it) as a scene
// Document: declared components, non-default system settings, and every
// entity in document order with its id, classes and components, each
// component with only its non-default values (mixins are flattened into
// the values they produced). Loading the document into a fresh Registry
// with the same registered components gives the same state.
func Export(reg *registry.Registry, opt ExportOptions) *Document {
	doc := &Document{}
	for _, c := range reg.Components() {
		if !c.Declared {
			continue
		}
		d := &Decl{Name: c.Name, Single: c.Schema.Single()}
		for i := range c.Schema.Props {
			p := &c.Schema.Props[i]
			d.Props = append(d.Props, &PropDecl{
				Name: p.Name, Type: p.Type.Name, Default: p.Type.Print(p.Default), HasDefault: true,
				OneOf: p.OneOf, Min: p.Min, Max: p.Max,
			})
		}
		doc.Decls = append(doc.Decls, d)
	}
	if opt.Root.IsZero() {
		for _, s := range reg.Systems() {
			if c := exportValue(reg, s.Name, s.Schema, s.Values()); c.Kind != ValueEmpty {
				doc.Scene = append(doc.Scene, c)
			}
		}
		for e := range reg.World().Roots() {
			doc.Entities = append(doc.Entities, exportEntity(reg, e))
		}
	} else if reg.World().Alive(opt.Root) {
		doc.Entities = append(doc.Entities, exportEntity(reg, opt.Root))
	}
	return doc
}

// exportValue returns the component (or system setting) name with
// values vs as written in an export: its properties that differ from the
// schema's defaults, as an attribute string; or, when a string cannot be
// said in one (a ';', or white space at an end, in a component with
// several properties), as a mapping of exact values, which YAML writes as
// a mapping and XML as name.property attributes. A component with only
// default values is written empty, except one whose single property is a
// string with a non-empty default: an empty XML attribute would read as
// the empty string, so the default is written out.
func exportValue(reg *registry.Registry, name string, s *registry.Schema, vs []any) *Component {
	c := &Component{Name: name, Kind: ValueEmpty}
	strType, _ := reg.Types().Lookup("string")
	var p registry.Patch
	for i := range s.Props {
		if !s.Props[i].Type.Equal(vs[i], s.Props[i].Default) {
			p = append(p, registry.PropValue{Index: i, Value: vs[i]})
		}
	}
	if s.Single() && s.Props[0].Type == strType && strType != nil {
		c.Exact = true
		if len(p) == 0 && s.Props[0].Print(s.Props[0].Default) != "" {
			p = registry.Patch{{Index: 0, Value: vs[0]}}
		}
	}
	if len(p) == 0 {
		return c
	}
	c.Kind, c.Text = ValueText, s.PrintPatch(p)
	if s.Single() || attrRoundTrips(s, c.Text, p) {
		return c
	}
	c.Kind, c.Text, c.Exact = ValueMap, "", true
	for _, pv := range p {
		prop := &s.Props[pv.Index]
		c.Map = append(c.Map, &KV{Key: prop.Name, Value: prop.Print(pv.Value), Exact: true})
	}
	return c
}

// attrRoundTrips reports whether the attribute string text, printed from
// patch p, parses back to the same values.
func attrRoundTrips(s *registry.Schema, text string, p registry.Patch) bool {
	back, err := s.ParseAttr("", text)
	if err != nil || len(back) != len(p) {
		return false
	}
	for i := range p {
		prop := &s.Props[p[i].Index]
		if back[i].Index != p[i].Index || !prop.Type.Equal(back[i].Value, p[i].Value) {
			return false
		}
	}
	return true
}

func exportEntity(reg *registry.Registry, e ecs.Entity) *Entity {
	w := reg.World()
	out := &Entity{ID: reg.EntityID(e), Class: reg.Classes(e)}
	for _, name := range reg.EntityComponents(e) {
		c, _ := reg.Component(name)
		if components.IsWorld(c) {
			continue // computed, never written back
		}
		vs, err := reg.Values(e, name)
		if err != nil {
			continue
		}
		out.Components = append(out.Components, exportValue(reg, name, c.Schema, vs))
	}
	for ch := range w.ChildrenSeq(e) {
		out.Children = append(out.Children, exportEntity(reg, ch))
	}
	return out
}

// WriteYAML writes doc as a YAML scene.
func WriteYAML(w io.Writer, doc *Document) error {
	var b bytes.Buffer
	if len(doc.Scene) > 0 {
		b.WriteString("scene:\n")
		for _, c := range doc.Scene {
			writeYAMLComponent(&b, "  ", c)
		}
	}
	if len(doc.Decls) > 0 {
		b.WriteString("components:\n")
		for _, d := range doc.Decls {
			fmt.Fprintf(&b, "  %s:", d.Name)
			switch {
			case len(d.Props) == 0:
				b.WriteString(" {}\n")
			case d.Single:
				b.WriteString(" " + propDeclYAML(d.Props[0]) + "\n")
			default:
				b.WriteString("\n")
				for _, p := range d.Props {
					fmt.Fprintf(&b, "    %s: %s\n", p.Name, propDeclYAML(p))
				}
			}
		}
	}
	if len(doc.Mixins) > 0 {
		b.WriteString("mixins:\n")
		for _, m := range doc.Mixins {
			fmt.Fprintf(&b, "  %s:\n", m.ID)
			if len(m.Mixins) > 0 {
				fmt.Fprintf(&b, "    mixin: %s\n", yamlString(strings.Join(m.Mixins, " ")))
			}
			for _, c := range m.Components {
				writeYAMLComponent(&b, "    ", c)
			}
		}
	}
	b.WriteString("entities:")
	if len(doc.Entities) == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	for _, e := range doc.Entities {
		writeYAMLEntity(&b, "  ", e)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func propDeclYAML(p *PropDecl) string {
	parts := []string{"type: " + p.Type}
	if p.HasDefault {
		parts = append(parts, "default: "+yamlString(p.Default))
	}
	if len(p.OneOf) > 0 {
		var q []string
		for _, o := range p.OneOf {
			q = append(q, yamlString(o))
		}
		parts = append(parts, "oneOf: ["+strings.Join(q, ", ")+"]")
	}
	if p.Min != nil {
		parts = append(parts, "min: "+strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		parts = append(parts, "max: "+strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// yamlFlowMap writes the entries of a mapping value as a YAML flow mapping.
func yamlFlowMap(kvs []*KV) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range kvs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(kv.Key + ": " + yamlString(kv.Value))
	}
	b.WriteByte('}')
	return b.String()
}

func writeYAMLComponent(b *bytes.Buffer, indent string, c *Component) {
	switch c.Kind {
	case ValueEmpty:
		if c.Exact {
			fmt.Fprintf(b, "%s%s: \"\"\n", indent, c.Name)
			return
		}
		fmt.Fprintf(b, "%s%s:\n", indent, c.Name)
	case ValueText:
		fmt.Fprintf(b, "%s%s: %s\n", indent, c.Name, yamlString(c.Text))
	case ValueMap:
		fmt.Fprintf(b, "%s%s:\n", indent, c.Name)
		for _, kv := range c.Map {
			fmt.Fprintf(b, "%s  %s: %s\n", indent, kv.Key, yamlString(kv.Value))
		}
	}
}

func writeYAMLEntity(b *bytes.Buffer, indent string, e *Entity) {
	first := true
	line := func(format string, args ...any) {
		if first {
			b.WriteString(indent + "- ")
			first = false
		} else {
			b.WriteString(indent + "  ")
		}
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	if e.ID != "" {
		line("id: %s", yamlString(e.ID))
	}
	if len(e.Class) > 0 {
		line("class: %s", yamlString(strings.Join(e.Class, " ")))
	}
	if len(e.Mixins) > 0 {
		line("mixin: %s", yamlString(strings.Join(e.Mixins, " ")))
	}
	for _, c := range e.Components {
		switch c.Kind {
		case ValueEmpty:
			if c.Exact {
				line("%s: \"\"", c.Name)
			} else {
				line("%s:", c.Name)
			}
		case ValueText:
			line("%s: %s", c.Name, yamlString(c.Text))
		case ValueMap:
			line("%s: %s", c.Name, yamlFlowMap(c.Map))
		}
	}
	if len(e.Children) > 0 {
		line("children:")
		for _, ch := range e.Children {
			writeYAMLEntity(b, indent+"    ", ch)
		}
	}
	if first {
		b.WriteString(indent + "- {}\n")
	}
}

// yamlString writes s as a YAML double-quoted scalar (a JSON string is
// one), or bare when that is unambiguous.
func yamlString(s string) string {
	if plainYAML(s) {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}

func plainYAML(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	switch s {
	case "true", "false", "null", "yes", "no", "on", "off", "~", "True", "False", "Null", "NULL", "TRUE", "FALSE", "Yes", "No", "YES", "NO", "On", "Off", "ON", "OFF", "y", "n", "Y", "N":
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c == ' ' || c == '.' || c == '-' || c == '_' || c == '+' ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !ok {
			return false
		}
	}
	if s[0] == '-' && (len(s) == 1 || s[1] == ' ') {
		return false
	}
	return true
}

// WriteXML writes doc as an XML scene.
func WriteXML(w io.Writer, doc *Document) error {
	var b bytes.Buffer
	b.WriteString("<scene")
	for _, c := range doc.Scene {
		writeXMLComponent(&b, c)
	}
	b.WriteString(">\n")
	if len(doc.Decls) > 0 {
		b.WriteString("  <components>\n")
		for _, d := range doc.Decls {
			fmt.Fprintf(&b, "    <component name=%s", xmlAttrValue(d.Name))
			switch {
			case len(d.Props) == 0:
				b.WriteString("/>\n")
			case d.Single:
				b.WriteString(propDeclXML(d.Props[0]) + "/>\n")
			default:
				b.WriteString(">\n")
				for _, p := range d.Props {
					fmt.Fprintf(&b, "      <property name=%s%s/>\n", xmlAttrValue(p.Name), propDeclXML(p))
				}
				b.WriteString("    </component>\n")
			}
		}
		b.WriteString("  </components>\n")
	}
	for _, m := range doc.Mixins {
		fmt.Fprintf(&b, "  <mixin id=%s", xmlAttrValue(m.ID))
		if len(m.Mixins) > 0 {
			fmt.Fprintf(&b, " mixin=%s", xmlAttrValue(strings.Join(m.Mixins, " ")))
		}
		for _, c := range m.Components {
			writeXMLComponent(&b, c)
		}
		b.WriteString("/>\n")
	}
	for _, e := range doc.Entities {
		writeXMLEntity(&b, "  ", e)
	}
	b.WriteString("</scene>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func propDeclXML(p *PropDecl) string {
	s := " type=" + xmlAttrValue(p.Type)
	if p.HasDefault {
		s += " default=" + xmlAttrValue(p.Default)
	}
	if len(p.OneOf) > 0 {
		s += " oneOf=" + xmlAttrValue(strings.Join(p.OneOf, ", "))
	}
	if p.Min != nil {
		s += " min=" + xmlAttrValue(strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		s += " max=" + xmlAttrValue(strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	return s
}

func writeXMLEntity(b *bytes.Buffer, indent string, e *Entity) {
	b.WriteString(indent + "<entity")
	if e.ID != "" {
		fmt.Fprintf(b, " id=%s", xmlAttrValue(e.ID))
	}
	if len(e.Class) > 0 {
		fmt.Fprintf(b, " class=%s", xmlAttrValue(strings.Join(e.Class, " ")))
	}
	if len(e.Mixins) > 0 {
		fmt.Fprintf(b, " mixin=%s", xmlAttrValue(strings.Join(e.Mixins, " ")))
	}
	for _, c := range e.Components {
		writeXMLComponent(b, c)
	}
	if len(e.Children) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n")
	for _, ch := range e.Children {
		writeXMLEntity(b, indent+"  ", ch)
	}
	b.WriteString(indent + "</entity>\n")
}

// writeXMLComponent writes a component as an attribute, or a mapping
// value as one name.property attribute per entry.
func writeXMLComponent(b *bytes.Buffer, c *Component) {
	if c.Kind == ValueMap {
		for _, kv := range c.Map {
			fmt.Fprintf(b, " %s.%s=%s", c.Name, kv.Key, xmlAttrValue(kv.Value))
		}
		return
	}
	fmt.Fprintf(b, " %s=%s", c.Name, xmlAttrValue(c.Text))
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
