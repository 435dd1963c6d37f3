package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

const schemaUsage = `Usage: scene-run schema [-format json|xsd]

Prints a schema of the scene format that knows every registered component
and system, for editors to validate and complete scene files with:
  json  a JSON Schema (draft 2020-12) of the YAML spelling
  xsd   an XML Schema of the XML spelling
See docs/editor-setup.md for hooking them into an editor.

`

// jsonSchemaDraft is the meta-schema the JSON output declares.
const jsonSchemaDraft = "https://json-schema.org/draft/2020-12/schema"

// cmdSchema implements "scene-run schema": it prints a JSON Schema or an
// XML Schema of the scene format for the built-in registry.
func cmdSchema(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("schema", schemaUsage, stderr)
	format := fs.String("format", "json", "output `format`: json (JSON Schema of the YAML spelling) or xsd (XML Schema of the XML spelling)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("takes no arguments")
	}
	if *format != "json" && *format != "xsd" {
		return usagef("unknown -format %q (want json or xsd)", *format)
	}
	rt, err := newRuntime(0)
	if err != nil {
		return err
	}
	var out []byte
	if *format == "json" {
		out, err = jsonSchema(rt.reg)
	} else {
		out = xsdSchema(rt.reg)
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(out)
	return err
}

// ---- what the two schemas share ----

// sortedComponents returns the registered components a scene file may
// write, by name: all but the read-only world transform.
func sortedComponents(reg *registry.Registry) []*registry.Component {
	cs := slices.DeleteFunc(reg.Components(), components.IsWorld)
	slices.SortFunc(cs, func(a, b *registry.Component) int { return strings.Compare(a.Name, b.Name) })
	return cs
}

// sortedSystems returns the registered systems by name.
func sortedSystems(reg *registry.Registry) []*registry.System {
	ss := reg.Systems()
	slices.SortFunc(ss, func(a, b *registry.System) int { return strings.Compare(a.Name, b.Name) })
	return ss
}

// typeNames returns the property type names a declaration may use, with
// the A-Frame aliases the registry knows, sorted.
func typeNames(reg *registry.Registry) []string {
	ts := reg.Types()
	names := ts.Names()
	for _, alias := range []string{"bool", "float"} {
		if _, ok := ts.Lookup(alias); ok && !slices.Contains(names, alias) {
			names = append(names, alias)
		}
	}
	slices.Sort(names)
	return names
}

// propSummary describes one property: "type, default "x", one of a|b,
// min 0, max 1".
func propSummary(p *registry.Property) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, default %q", p.Type.Name, p.Type.Print(p.Default))
	if len(p.OneOf) > 0 {
		b.WriteString(", one of " + strings.Join(p.OneOf, "|"))
	}
	if p.Min != nil {
		b.WriteString(", min " + strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		b.WriteString(", max " + strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	return b.String()
}

// schemaSummary describes a component's or system's schema in one line.
func schemaSummary(s *registry.Schema) string {
	switch {
	case s.IsTag():
		return "tag (no value)"
	case s.Single():
		return "single property: " + propSummary(&s.Props[0])
	}
	parts := make([]string, len(s.Props))
	for i := range s.Props {
		parts[i] = s.Props[i].Name + " (" + propSummary(&s.Props[i]) + ")"
	}
	return "properties: " + strings.Join(parts, "; ")
}

// componentDoc is the description of a registered component.
func componentDoc(c *registry.Component) string {
	doc := fmt.Sprintf("Component %s: %s.", c.Name, schemaSummary(c.Schema))
	if !c.Schema.IsTag() && !c.Schema.Single() {
		doc += ` Written as an attribute string "prop: value; prop: value" or, in YAML, as a mapping.`
	}
	if c.Multiple {
		doc += fmt.Sprintf(" An entity may hold several instances, named %s__ID.", c.Name)
	}
	if len(c.Dependencies) > 0 {
		doc += " Depends on " + strings.Join(c.Dependencies, ", ") + "."
	}
	return doc
}

// systemDoc is the description of a registered system.
func systemDoc(s *registry.System) string {
	return fmt.Sprintf("System %s: %s.", s.Name, schemaSummary(s.Schema))
}

// hyphenCase spells a camelCase property name the A-Frame way ("maxHp" →
// "max-hp"); the registry accepts both spellings.
func hyphenCase(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			b.WriteByte('-')
			b.WriteByte(c + ('a' - 'A'))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ---- JSON Schema of the YAML spelling ----

type jsonObj = map[string]any

// JSON Schema patterns (ECMA-262 regular expressions that Go's regexp
// also understands).
const (
	numberRE = `[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`
	// componentNamePattern is a component key: a letter, then letters,
	// digits, '-' or '_' (which also covers name__instance).
	componentNamePattern = `^[A-Za-z][A-Za-z0-9_-]*$`
	// durationPattern is a number of milliseconds or a Go duration.
	durationPattern = `^\s*(?:` + numberRE + `|[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)?\s*$`
)

// vecPattern matches a vector of up to n numbers separated by white space.
func vecPattern(n int) string {
	return `^\s*(?:` + numberRE + `(?:\s+` + numberRE + `){0,` + strconv.Itoa(n-1) + `})?\s*$`
}

// scalarTypes are the YAML scalars a textual value may be written as: the
// loader keeps the source text of `42` and `true` alike.
var scalarTypes = []any{"string", "number", "boolean"}

// propJSON returns the JSON Schema of one property's value in a mapping.
func propJSON(p *registry.Property) jsonObj {
	s := jsonObj{"description": propSummary(p)}
	kind := p.Type.GoType.Kind()
	switch name := p.Type.Name; {
	case name == "int" || (kind >= reflect.Int && kind <= reflect.Uintptr && name != "duration"):
		s["type"] = "integer"
	case kind == reflect.Float32 || kind == reflect.Float64:
		s["type"] = "number"
	case kind == reflect.Bool:
		s["type"] = "boolean"
	case name == "vec2" || name == "vec3" || name == "vec4":
		s["type"] = []any{"string", "number"}
		s["pattern"] = vecPattern(int(name[3] - '0'))
	case name == "duration":
		s["type"] = []any{"string", "number"}
		s["pattern"] = durationPattern
	case name == "array" && len(p.OneOf) > 0:
		alt := make([]string, len(p.OneOf))
		for i, v := range p.OneOf {
			alt[i] = regexp.QuoteMeta(v)
		}
		item := `(?:` + strings.Join(alt, "|") + `)`
		s["type"] = "string"
		s["pattern"] = `^\s*(?:` + item + `(?:\s*,\s*` + item + `)*)?\s*$`
	case len(p.OneOf) > 0:
		s["enum"] = stringsAny(p.OneOf)
	case kind == reflect.String || kind == reflect.Slice:
		s["type"] = scalarTypes
	default:
		s["type"] = "string"
	}
	if p.Min != nil {
		s["minimum"] = *p.Min
	}
	if p.Max != nil {
		s["maximum"] = *p.Max
	}
	s["default"] = defaultJSON(p, s)
	return s
}

// defaultJSON returns the property's default as the JSON value its
// schema s expects.
func defaultJSON(p *registry.Property, s jsonObj) any {
	text := p.Type.Print(p.Default)
	switch s["type"] {
	case "integer":
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(text, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(text); err == nil {
			return b
		}
	}
	return text
}

func stringsAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// withNull returns s also accepting null (an empty YAML value: the
// defaults).
func withNull(s jsonObj) jsonObj {
	if e, ok := s["enum"].([]any); ok {
		s["enum"] = append(slices.Clone(e), nil)
		return s
	}
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
	case []any:
		s["type"] = append(slices.Clone(t), "null")
	}
	return s
}

// valueJSON returns the JSON Schema of a component's or system's value.
func valueJSON(s *registry.Schema, doc string) jsonObj {
	switch {
	case s.IsTag():
		return jsonObj{
			"description":   doc,
			"type":          []any{"null", "string", "object"},
			"maxLength":     0,
			"maxProperties": 0,
		}
	case s.Single():
		v := propJSON(&s.Props[0])
		v["description"] = doc
		return withNull(v)
	}
	props := jsonObj{}
	for i := range s.Props {
		p := &s.Props[i]
		props[p.Name] = propJSON(p)
		if h := hyphenCase(p.Name); h != p.Name {
			alias := propJSON(p)
			alias["description"] = "Same as " + p.Name + ": " + propSummary(p)
			props[h] = alias
		}
	}
	return jsonObj{
		"description":          doc,
		"type":                 []any{"string", "null", "object"},
		"properties":           props,
		"additionalProperties": false,
	}
}

// ref returns a reference to the definition name in $defs.
func ref(name string) jsonObj {
	name = strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return jsonObj{"$ref": "#/$defs/" + name}
}

// jsonSchema returns the JSON Schema of YAML scenes for the components and
// systems registered in reg, indented, with a final newline.
//
// It declares draft 2020-12 but uses only keywords that draft-07 reads
// the same way (no siblings next to $ref, items as a single schema), since
// the YAML language server most editors use implements draft-07.
func jsonSchema(reg *registry.Registry) ([]byte, error) {
	defs := jsonObj{}

	// Components an entity or mixin may carry.
	compProps := jsonObj{}
	patterns := jsonObj{}
	for _, c := range sortedComponents(reg) {
		def := "component." + c.Name
		defs[def] = valueJSON(c.Schema, componentDoc(c))
		compProps[c.Name] = ref(def)
		if c.Multiple {
			patterns["^"+regexp.QuoteMeta(c.Name)+"__[A-Za-z0-9_-]+$"] = ref(def)
		}
	}
	sysProps := jsonObj{}
	for _, s := range sortedSystems(reg) {
		def := "system." + s.Name
		defs[def] = valueJSON(s.Schema, systemDoc(s))
		sysProps[s.Name] = ref(def)
	}

	// names is a list of names; inlined rather than referred to, as
	// draft-07 validators ignore the siblings of $ref.
	names := func(desc string) jsonObj {
		return jsonObj{
			"description": desc,
			"type":        []any{"string", "array", "null"},
			"items":       jsonObj{"type": "string", "pattern": `^\S+$`},
		}
	}
	defs["declaredComponent"] = jsonObj{
		"description":          "A component declared in the scene's components section (or an unknown one): an attribute string, nothing, or a mapping of property to value.",
		"type":                 []any{"string", "number", "boolean", "null", "object"},
		"additionalProperties": jsonObj{"type": []any{"string", "number", "boolean", "null"}},
	}

	entityProps := jsonObj{
		"id":       jsonObj{"description": "The entity's id (#id in selectors); no spaces.", "type": "string", "pattern": `^\S+$`},
		"class":    names("Classes (.class in selectors): a space-separated string or a list."),
		"mixin":    names("Mixins applied in order before the entity's own components: a space-separated string or a list."),
		"children": jsonObj{"description": "Child entities.", "type": []any{"array", "null"}, "items": ref("entity")},
	}
	mixinProps := jsonObj{
		"mixin":    names("Mixins this mixin builds on: a space-separated string or a list."),
		"id":       false,
		"class":    false,
		"children": false,
	}
	for k, v := range compProps {
		entityProps[k] = v
		mixinProps[k] = v
	}
	defs["entity"] = jsonObj{
		"description":          "An entity: id, class, mixin, children, and components by name.",
		"type":                 "object",
		"properties":           entityProps,
		"propertyNames":        jsonObj{"pattern": componentNamePattern},
		"additionalProperties": ref("declaredComponent"),
	}
	defs["mixin"] = jsonObj{
		"description":          "A mixin: components by name, and optionally the mixins it builds on.",
		"type":                 []any{"object", "null"},
		"properties":           mixinProps,
		"propertyNames":        jsonObj{"pattern": componentNamePattern},
		"additionalProperties": ref("declaredComponent"),
	}
	if len(patterns) > 0 {
		defs["entity"].(jsonObj)["patternProperties"] = patterns
		defs["mixin"].(jsonObj)["patternProperties"] = patterns
	}

	propDecl := func(desc string) jsonObj {
		return jsonObj{
			"description": desc,
			"type":        "object",
			"properties": jsonObj{
				"type":    jsonObj{"description": "The property type (default string).", "enum": stringsAny(typeNames(reg))},
				"default": jsonObj{"description": "The default value, as attribute text.", "type": []any{"string", "number", "boolean", "null"}},
				"oneOf":   jsonObj{"description": "Allowed values: a list, or a string of values separated by commas and/or spaces.", "type": []any{"string", "array"}, "items": jsonObj{"type": "string"}},
				"min":     jsonObj{"description": "Inclusive lower bound of a numeric property.", "type": "number"},
				"max":     jsonObj{"description": "Inclusive upper bound of a numeric property.", "type": "number"},
			},
			"additionalProperties": false,
		}
	}
	defs["propertyDeclaration"] = propDecl("A property declaration: type, default, oneOf, min, max.")
	single := propDecl("A single-property component: its property's type, default, oneOf, min and max.")
	single["required"] = []any{"type"}
	defs["declaration"] = jsonObj{
		"description": "A data-only component declaration: a property declaration with a `type` key (single-property), a mapping of property name to declaration, or {} / nothing for a tag.",
		"anyOf": []any{
			jsonObj{"type": "null"},
			single,
			jsonObj{
				"type":                 "object",
				"propertyNames":        jsonObj{"pattern": componentNamePattern},
				"additionalProperties": jsonObj{"anyOf": []any{jsonObj{"type": "null"}, ref("propertyDeclaration")}},
			},
		},
	}

	root := jsonObj{
		"$schema":     jsonSchemaDraft,
		"title":       "scenecs scene (YAML)",
		"description": "A scenecs scene in YAML, generated by `scene-run schema` from the registered components and systems.",
		"type":        []any{"object", "null"},
		"properties": jsonObj{
			"scene": jsonObj{
				"description":          "System settings: system name to attribute string or mapping of its properties.",
				"type":                 []any{"object", "null"},
				"properties":           sysProps,
				"additionalProperties": false,
			},
			"components": jsonObj{
				"description":          "Data-only component declarations: name to declaration.",
				"type":                 []any{"object", "null"},
				"propertyNames":        jsonObj{"pattern": componentNamePattern},
				"additionalProperties": ref("declaration"),
			},
			"mixins": jsonObj{
				"description":          "Mixins: id to mixin.",
				"type":                 []any{"object", "null"},
				"propertyNames":        jsonObj{"pattern": `^\S+$`},
				"additionalProperties": ref("mixin"),
			},
			"include": jsonObj{
				"description": "Scene files to include, relative to this one: a path or a list of paths.",
				"type":        []any{"string", "array"},
				"minLength":   1,
				"items":       jsonObj{"type": "string", "minLength": 1},
			},
			"entities": jsonObj{
				"description": "The scene's top-level entities.",
				"type":        []any{"array", "null"},
				"items":       ref("entity"),
			},
		},
		"additionalProperties": false,
		"$defs":                defs,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return buf.Bytes(), nil
}

// ---- XML Schema of the XML spelling ----

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
func esc(s string) string { return xmlEscaper.Replace(s) }

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
	w.line(0, "<xs:annotation><xs:documentation>%s</xs:documentation></xs:annotation>", esc(text))
}

// attr writes an optional attribute documented by doc, whose values are
// restricted to enum if that is not empty.
func (w *xsdWriter) attr(name, doc string, enum []string) {
	if len(enum) == 0 {
		w.line(1, `<xs:attribute name="%s" type="xs:string">`, esc(name))
		w.doc(doc)
		w.line(-1, `</xs:attribute>`)
		return
	}
	w.line(1, `<xs:attribute name="%s">`, esc(name))
	w.doc(doc)
	w.line(1, `<xs:simpleType>`)
	w.line(1, `<xs:restriction base="xs:string">`)
	for _, v := range enum {
		w.line(0, `<xs:enumeration value="%s"/>`, esc(v))
	}
	w.line(-1, `</xs:restriction>`)
	w.line(-1, `</xs:simpleType>`)
	w.line(-1, `</xs:attribute>`)
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
	p := &s.Props[0]
	switch {
	case len(p.OneOf) > 0 && p.Type.GoType.Kind() == reflect.String:
		return append([]string{""}, p.OneOf...)
	case p.Type.GoType.Kind() == reflect.Bool:
		return []string{"", "true", "false"}
	}
	return nil
}

// xsdSchema returns an XML Schema of XML scenes for the components and
// systems registered in reg.
func xsdSchema(reg *registry.Registry) []byte {
	w := &xsdWriter{}
	w.line(0, `<?xml version="1.0" encoding="UTF-8"?>`)
	w.line(0, `<!-- Generated by "scene-run schema -format xsd" from the registered components and systems. -->`)
	w.line(1, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">`)
	w.doc("A scenecs scene in XML: a <scene> root whose attributes configure systems, holding <components>, <mixin>, <include> and <entity> elements in any order.")

	w.line(1, `<xs:element name="scene">`)
	w.doc("The scene root. Each attribute configures the system of that name.")
	w.line(1, `<xs:complexType>`)
	w.line(1, `<xs:choice minOccurs="0" maxOccurs="unbounded">`)
	w.line(0, `<xs:element name="components" type="components"/>`)
	w.line(0, `<xs:element name="mixin" type="mixin"/>`)
	w.line(0, `<xs:element name="include" type="include"/>`)
	w.line(0, `<xs:element name="entity" type="entity"/>`)
	w.line(-1, `</xs:choice>`)
	for _, s := range sortedSystems(reg) {
		w.attr(s.Name, systemDoc(s), nil)
	}
	w.line(-1, `</xs:complexType>`)
	w.line(-1, `</xs:element>`)

	w.line(1, `<xs:complexType name="components">`)
	w.doc("Data-only component declarations.")
	w.line(1, `<xs:sequence>`)
	w.line(0, `<xs:element name="component" type="componentDeclaration" minOccurs="0" maxOccurs="unbounded"/>`)
	w.line(-1, `</xs:sequence>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:complexType name="componentDeclaration">`)
	w.doc("A component declaration: with a type attribute (or default, oneOf, min, max) a single-property component; otherwise its <property> children are its properties, and with none it is a tag.")
	w.line(1, `<xs:sequence>`)
	w.line(0, `<xs:element name="property" type="propertyDeclaration" minOccurs="0" maxOccurs="unbounded"/>`)
	w.line(-1, `</xs:sequence>`)
	w.line(0, `<xs:attributeGroup ref="declaration"/>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:complexType name="propertyDeclaration">`)
	w.doc("A property of a declared component.")
	w.line(0, `<xs:attributeGroup ref="declaration"/>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:attributeGroup name="declaration">`)
	w.line(1, `<xs:attribute name="name" use="required">`)
	w.doc("The component or property name: a letter, then letters, digits, '-' or '_'.")
	w.line(1, `<xs:simpleType>`)
	w.line(1, `<xs:restriction base="xs:string">`)
	w.line(0, `<xs:pattern value="[A-Za-z][A-Za-z0-9_\-]*"/>`)
	w.line(-1, `</xs:restriction>`)
	w.line(-1, `</xs:simpleType>`)
	w.line(-1, `</xs:attribute>`)
	w.line(1, `<xs:attribute name="type">`)
	w.doc("The property type (default string).")
	w.line(1, `<xs:simpleType>`)
	w.line(1, `<xs:restriction base="xs:string">`)
	for _, t := range typeNames(reg) {
		w.line(0, `<xs:enumeration value="%s"/>`, esc(t))
	}
	w.line(-1, `</xs:restriction>`)
	w.line(-1, `</xs:simpleType>`)
	w.line(-1, `</xs:attribute>`)
	w.attr("default", "The default value, as attribute text.", nil)
	w.attr("oneOf", "Allowed values, separated by commas and/or white space.", nil)
	w.line(1, `<xs:attribute name="min" type="xs:double">`)
	w.doc("Inclusive lower bound of a numeric property.")
	w.line(-1, `</xs:attribute>`)
	w.line(1, `<xs:attribute name="max" type="xs:double">`)
	w.doc("Inclusive upper bound of a numeric property.")
	w.line(-1, `</xs:attribute>`)
	w.line(-1, `</xs:attributeGroup>`)

	w.line(1, `<xs:complexType name="include">`)
	w.doc("Includes another scene file (YAML or XML).")
	w.line(1, `<xs:attribute name="src" type="xs:string" use="required">`)
	w.doc("The path of the included file, relative to this one.")
	w.line(-1, `</xs:attribute>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:complexType name="mixin">`)
	w.doc("A mixin: its attributes other than id and mixin are components.")
	w.line(1, `<xs:attribute name="id" type="xs:string" use="required">`)
	w.doc("The mixin's id, as named by mixin attributes.")
	w.line(-1, `</xs:attribute>`)
	w.attr("mixin", "Mixins this mixin builds on, space-separated.", nil)
	w.line(0, `<xs:attributeGroup ref="components"/>`)
	w.line(0, `<xs:anyAttribute processContents="lax"/>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:complexType name="entity">`)
	w.doc("An entity: its attributes other than id, class and mixin are components; children are nested <entity> elements.")
	w.line(1, `<xs:sequence>`)
	w.line(0, `<xs:element name="entity" type="entity" minOccurs="0" maxOccurs="unbounded"/>`)
	w.line(-1, `</xs:sequence>`)
	w.attr("id", "The entity's id (#id in selectors); no spaces.", nil)
	w.attr("class", "Classes (.class in selectors), space-separated.", nil)
	w.attr("mixin", "Mixins applied in order before the entity's own components, space-separated.", nil)
	w.line(0, `<xs:attributeGroup ref="components"/>`)
	w.line(0, `<xs:anyAttribute processContents="lax"/>`)
	w.line(-1, `</xs:complexType>`)

	w.line(1, `<xs:attributeGroup name="components">`)
	w.doc("The registered components. Components declared in a scene, and name__ID instances of multiple components, are allowed by anyAttribute.")
	for _, c := range sortedComponents(reg) {
		w.attr(c.Name, componentDoc(c), attrEnum(c.Schema))
	}
	w.line(-1, `</xs:attributeGroup>`)

	w.line(-1, `</xs:schema>`)
	return w.buf.Bytes()
}
