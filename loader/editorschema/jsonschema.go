package editorschema

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// The JSON Schema of the YAML spelling of scenes, for editors (the YAML
// language server reads JSON Schemas). Its keys are the YAML vocabulary
// of yaml.go.

// jsonSchemaDraft is the meta-schema the JSON output declares.
const jsonSchemaDraft = "https://json-schema.org/draft/2020-12/schema"

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

// vecSize returns the number of axes of a vector property (vec2, vec3 or
// vec4), or 0.
func vecSize(p *registry.Property) int {
	switch p.Type.Name {
	case "vec2", "vec3", "vec4":
		return int(p.Type.Name[3] - '0')
	}
	return 0
}

// scalarTypes are the YAML scalars a textual value may be written as: the
// loader keeps the source text of `42` and `true` alike.
var scalarTypes = []any{"string", "number", "boolean"}

// schemaProp returns the JSON Schema of one property's value in a mapping.
func schemaProp(p *registry.Property) jsonObj {
	s := jsonObj{"description": propSummary(p)}
	kind := p.Type.GoType.Kind()
	switch name := p.Type.Name; {
	case name == "int" || (kind >= reflect.Int && kind <= reflect.Uintptr && name != "duration"):
		s["type"] = "integer"
	case kind == reflect.Float32 || kind == reflect.Float64:
		s["type"] = "number"
	case kind == reflect.Bool:
		s["type"] = "boolean"
	case vecSize(p) > 0:
		s["type"] = []any{"string", "number"}
		s["pattern"] = vecPattern(vecSize(p))
	case name == "duration":
		s["type"] = []any{"string", "number"}
		s["pattern"] = durationPattern
	case name == "array" && len(p.OneOf) > 0:
		alt := make([]string, len(p.OneOf))
		for i, v := range p.OneOf {
			alt[i] = regexp.QuoteMeta(v)
		}
		item := `(?:` + strings.Join(alt, "|") + `)`
		// A-Frame's text "a, b", or a list [a, b] (scenefile.ListValue).
		s["type"] = []any{"string", "array"}
		s["pattern"] = `^\s*(?:` + item + `(?:\s*,\s*` + item + `)*)?\s*$`
		s["items"] = jsonObj{"enum": stringsAny(p.OneOf)}
	case name == "array":
		s["type"] = append(slices.Clone(scalarTypes), "array")
		s["items"] = listItemSchema()
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
	s["default"] = schemaDefault(p, s)
	return s
}

// listItemSchema is the JSON Schema of an item of a list written for an
// array: a scalar whose text holds no ',' and does not start or end with
// white space (the items of A-Frame's text "a, b" cannot).
func listItemSchema() jsonObj {
	return jsonObj{"type": scalarTypes, "pattern": `^(?:[^,\s](?:[^,]*[^,\s])?)?$`}
}

// schemaDefault returns the property's default as the JSON value its
// schema s expects.
func schemaDefault(p *registry.Property, s jsonObj) any {
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

// schemaValue returns the JSON Schema of a component's or system's value.
func schemaValue(s *registry.Schema, doc string) jsonObj {
	switch {
	case s.IsTag():
		return jsonObj{
			"description":   doc,
			"type":          []any{"null", "string", "object"},
			"maxLength":     0,
			"maxProperties": 0,
		}
	case s.Single():
		p := &s.Props[0]
		v := schemaProp(p)
		v["description"] = doc
		if n := vecSize(p); n > 0 {
			// position: {x: 1, y: 2, z: 3}, as JSON dumps write vectors.
			v["type"] = append(v["type"].([]any), "object")
			props := jsonObj{}
			for i := range n {
				props[scenefile.AxisNames[i:i+1]] = jsonObj{"description": "Axis " + scenefile.AxisNames[i:i+1] + ".", "type": []any{"number", "string"}, "pattern": `^\s*` + numberRE + `\s*$`}
			}
			v["properties"], v["additionalProperties"] = props, false
		}
		if s.TakesMap() {
			// on: {event: hit, set: ...}: the type reads the mapping.
			v["type"] = []any{"string", "object"}
			v["additionalProperties"] = jsonObj{"type": []any{"string", "number", "boolean", "null"}}
		}
		return withNull(v)
	}
	props := jsonObj{}
	for i := range s.Props {
		p := &s.Props[i]
		props[p.Name] = schemaProp(p)
		if h := hyphenCase(p.Name); h != p.Name {
			alias := schemaProp(p)
			alias["description"] = "Same as " + p.Name + ": " + propSummary(p)
			props[h] = alias
		}
	}
	return jsonObj{
		"description":          doc,
		"type":                 []any{"string", "null", "object"},
		"pattern":              attrPattern(s, jsonDialect),
		"patternErrorMessage":  attrPatternMessage(s),
		"properties":           props,
		"additionalProperties": false,
	}
}

// schemaRef returns a reference to the definition name in $defs.
func schemaRef(name string) jsonObj {
	name = strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
	return jsonObj{"$ref": "#/$defs/" + name}
}

// WriteJSONSchema writes a JSON Schema (draft 2020-12) of YAML scenes for
// the components and systems registered in reg, for editors to validate
// and complete scene files with: indented, with a final newline. With a
// doc, the components doc declares (its components section) are
// described as registered ones are; a declaration that does not compile
// is an error, as [Compile] reports it. The output is deterministic.
//
// The schema checks attribute strings as far as a regular expression can:
// the property names in "prop: value; prop: value", not the values. An
// entity or mixin may carry the components the schema knows, and other
// names only with no value (tags, as the loader makes them), so a
// misspelt component is an error; unless the scene has a components
// section declaring a component the schema does not know, or includes a
// file that doc does not (with a nil doc: any declaration or include).
// Then any name takes any value, as a JSON Schema cannot compare an
// entity's keys with the components section.
//
// It declares draft 2020-12 but uses only keywords that draft-07 reads
// the same way (no siblings next to $ref, items as a single schema), since
// the YAML language server most editors use implements draft-07.
func WriteJSONSchema(w io.Writer, reg *registry.Registry, doc *scenefile.Document) error {
	comps, err := schemaComponents(reg, doc)
	if err != nil {
		return err
	}
	defs := jsonObj{}
	compProps, patterns := componentDefs(defs, comps)
	sysProps := jsonObj{}
	for _, s := range sortedSystems(reg) {
		def := "system." + s.Name
		defs[def] = systemEntry(s)
		sysProps[s.Name] = schemaRef(def)
	}
	if ticks := scheduleTicks(reg); len(ticks) > 0 {
		defs["scheduleEntry"] = scheduleEntry(tickDoc("that ticks"))
		for _, n := range ticks {
			sysProps[n] = schemaRef("scheduleEntry")
		}
	}
	entityDefs(defs, compProps, patterns)
	declarationDefs(defs, reg)
	root := jsonObj{
		"$schema":              jsonSchemaDraft,
		"title":                "scenecs scene (YAML)",
		"description":          "A scenecs scene in YAML, generated by `scene-run schema` from the registered components and systems.",
		"type":                 []any{"object", "null"},
		"properties":           topLevelSchema(sysProps),
		"additionalProperties": false,
		"if":                   openScene(doc),
		"then":                 sceneItems(true),
		"else":                 sceneItems(false),
		"$defs":                defs,
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	return nil
}

// componentDefs defines the value of each component in defs, and returns
// the properties an entity or mixin may carry (a reference per component)
// and the patterns of the instances of multiple components.
func componentDefs(defs jsonObj, comps []*registry.Component) (props, patterns jsonObj) {
	props, patterns = jsonObj{}, jsonObj{}
	for _, c := range comps {
		def := "component." + c.Name
		defs[def] = schemaValue(c.Schema, componentDoc(c))
		props[c.Name] = schemaRef(def)
		if c.Multiple {
			patterns["^"+regexp.QuoteMeta(c.Name)+"__[A-Za-z0-9_-]+$"] = schemaRef(def)
		}
	}
	return props, patterns
}

// namesSchema is a list of names; inlined rather than referred to, as
// draft-07 validators ignore the siblings of $ref.
func namesSchema(desc string) jsonObj {
	return jsonObj{
		"description": desc,
		"type":        []any{"string", "array", "null"},
		"items":       jsonObj{"type": "string", "pattern": `^\S+$`},
	}
}

// entityDefs defines the names the schema does not know (tag and
// declaredComponent) and entities, mixins, prefabs and parts in two
// variants, made by entitySchemas: "entity", "mixin", "prefab" and
// "part" take the components the schema knows and other names only with
// no value, as tags, so a misspelt component name with a value is an
// error; "entity.open" (and the others') take any other name with any
// value. The root chooses
// between them with openScene.
func entityDefs(defs, compProps, patterns jsonObj) {
	defs["declaredComponent"] = jsonObj{
		"description":          "A component the schema does not know, in a scene that declares components or includes files: an attribute string, nothing, a list (for an array), or a mapping of property to value.",
		"type":                 []any{"string", "number", "boolean", "null", "object", "array"},
		"items":                listItemSchema(),
		"additionalProperties": jsonObj{"type": []any{"string", "number", "boolean", "null", "array"}, "items": listItemSchema()},
	}
	defs["tag"] = jsonObj{
		"description":  "A name the schema does not know, used with no value: a tag, declared by that use. Given a value, it is an unknown component.",
		"enum":         []any{nil, "", jsonObj{}},
		"errorMessage": "Unknown component (misspelt?): a name this schema does not know takes no value, as it makes a tag. Declare it in the components section to give it properties.",
	}
	for _, open := range []bool{false, true} {
		defs[variant("entity", open)], defs[variant("mixin", open)], defs[variant("prefab", open)], defs[variant("part", open)] = entitySchemas(compProps, patterns, open)
	}
}

// variant returns the name of the open variant of the definition name,
// or name itself.
func variant(name string, open bool) string {
	if open {
		return name + ".open"
	}
	return name
}

// entitySchemas returns the schemas of an entity, a mixin, a prefab's
// body and an instance's part, whose components are compProps and
// patterns and, if open, any other component name.
func entitySchemas(compProps, patterns jsonObj, open bool) (entity, mixin, prefab, part jsonObj) {
	entityProps := jsonObj{
		scenefile.YAMLID:       jsonObj{"description": "The entity's id (#id in selectors); no spaces.", "type": "string", "pattern": `^\S+$`},
		scenefile.YAMLClass:    namesSchema("Classes (.class in selectors): a space-separated string or a list."),
		scenefile.YAMLMixin:    namesSchema("Mixins applied in order before the entity's own components: a space-separated string or a list."),
		scenefile.YAMLChildren: jsonObj{"description": "Child entities.", "type": []any{"array", "null"}, "items": schemaRef(variant("entity", open))},
		scenefile.YAMLPrefab:   jsonObj{"description": "The prefab this entity is an instance of: it gets the prefab's components and subtree, its own written over them.", "type": "string", "pattern": `^\S+$`},
		scenefile.YAMLParts: jsonObj{
			"description":   "Changes to parts of the prefab's subtree, by path inside the prefab (gun-left, turret/barrel; an unnamed child by its rank among the unnamed): components, class, mixin and children, or removed for a part the instance does not have.",
			"type":          []any{"object", "null"},
			"propertyNames": jsonObj{"pattern": `^[^\s/]+(/[^\s/]+)*$`},
			"additionalProperties": jsonObj{"anyOf": []any{
				schemaRef(variant("part", open)),
				jsonObj{"enum": []any{scenefile.YAMLRemoved}, "description": "The instance does not have this part (nor anything below it)."},
			}},
		},
	}
	mixinProps := jsonObj{
		scenefile.YAMLMixin:    namesSchema("Mixins this mixin builds on: a space-separated string or a list."),
		scenefile.YAMLID:       false,
		scenefile.YAMLClass:    false,
		scenefile.YAMLChildren: false,
		scenefile.YAMLPrefab:   false,
		scenefile.YAMLParts:    false,
	}
	prefabProps, partProps := jsonObj{scenefile.YAMLID: false}, jsonObj{scenefile.YAMLID: false, scenefile.YAMLPrefab: false, scenefile.YAMLParts: false}
	for k, v := range entityProps {
		if _, ok := prefabProps[k]; !ok {
			prefabProps[k] = v
		}
		if _, ok := partProps[k]; !ok {
			partProps[k] = v
		}
	}
	for k, v := range compProps {
		entityProps[k] = v
		mixinProps[k] = v
		prefabProps[k] = v
		partProps[k] = v
	}
	which := "the components this schema knows, and tags (other names, with no value)"
	if open {
		which = "the components this schema knows, and any other name (for components the scene declares)"
	}
	entity = jsonObj{
		"description": "An entity: id, class, mixin, children, prefab and parts, and components by name: " + which + ".",
		"type":        "object",
		"properties":  entityProps,
	}
	mixin = jsonObj{
		"description": "A mixin: the mixins it builds on, and components by name: " + which + ".",
		"type":        []any{"object", "null"},
		"properties":  mixinProps,
	}
	prefab = jsonObj{
		"description": "A prefab's body: an entity without an id (its instances have theirs; inside it, an id names a child), and prefab for a variant; components by name: " + which + ".",
		"type":        []any{"object", "null"},
		"properties":  prefabProps,
	}
	part = jsonObj{
		"description": "A part's changes: components, class, mixin and children; no id, prefab or parts; components by name: " + which + ".",
		"type":        []any{"object", "null"},
		"properties":  partProps,
	}
	other := schemaRef("tag")
	if open {
		other = schemaRef("declaredComponent")
	}
	for _, s := range []jsonObj{entity, mixin, prefab, part} {
		if len(patterns) > 0 {
			s["patternProperties"] = patterns
		}
		s["propertyNames"] = jsonObj{"pattern": componentNamePattern}
		s["additionalProperties"] = other
	}
	return entity, mixin, prefab, part
}

// openScene is the condition under which a scene's entities and mixins
// take component names the schema does not know: the scene declares a
// component, or includes a file, that the schema was not made with (with
// no doc, any declaration or include). A JSON Schema cannot compare an
// entity's keys with the keys of the components section, so a scene that
// brings components of its own is checked less strictly.
func openScene(doc *scenefile.Document) jsonObj {
	var decls, includes []string
	if doc != nil {
		for _, d := range doc.Decls {
			decls = append(decls, d.Name)
		}
		for _, inc := range doc.Includes {
			includes = append(includes, inc.Path)
		}
	}
	declares := jsonObj{"type": "object", "minProperties": 1}
	includeOne := jsonObj{"type": "string"}
	var includeAny any = true
	if len(decls) > 0 {
		declares["not"] = jsonObj{"propertyNames": jsonObj{"enum": sortedAny(decls)}}
	}
	if len(includes) > 0 {
		includeOne["not"] = jsonObj{"enum": sortedAny(includes)}
		includeAny = jsonObj{"not": jsonObj{"enum": sortedAny(includes)}}
	}
	return jsonObj{
		"type": "object",
		"anyOf": []any{
			jsonObj{"required": []any{scenefile.YAMLComponents}, "properties": jsonObj{scenefile.YAMLComponents: declares}},
			jsonObj{"required": []any{scenefile.YAMLInclude}, "properties": jsonObj{scenefile.YAMLInclude: jsonObj{"anyOf": []any{
				includeOne,
				jsonObj{"type": "array", "contains": includeAny},
			}}}},
		},
	}
}

// sceneItems gives the root's entities, mixins and prefabs the entity,
// mixin and prefab definitions of one variant.
func sceneItems(open bool) jsonObj {
	return jsonObj{"properties": jsonObj{
		scenefile.YAMLEntities: jsonObj{"items": schemaRef(variant("entity", open))},
		scenefile.YAMLMixins:   jsonObj{"additionalProperties": schemaRef(variant("mixin", open))},
		scenefile.YAMLPrefabs:  jsonObj{"additionalProperties": schemaRef(variant("prefab", open))},
	}}
}

// sortedAny returns the distinct strings of ss, sorted, as JSON values.
func sortedAny(ss []string) []any {
	ss = slices.Clone(ss)
	slices.Sort(ss)
	return stringsAny(slices.Compact(ss))
}

// propDeclSchema is a property declaration, described by desc.
func propDeclSchema(reg *registry.Registry, desc string) jsonObj {
	return jsonObj{
		"description": desc,
		"type":        "object",
		"properties": jsonObj{
			scenefile.YAMLType:     jsonObj{"description": "The property type (default string).", "enum": stringsAny(typeNames(reg))},
			scenefile.YAMLDefault:  jsonObj{"description": "The default value, as attribute text, or a list for an array.", "type": []any{"string", "number", "boolean", "null", "array"}, "items": listItemSchema()},
			scenefile.YAMLOneOf:    jsonObj{"description": "Allowed values: a list, or a string of values separated by commas and/or spaces.", "type": []any{"string", "array"}, "items": jsonObj{"type": "string"}},
			scenefile.YAMLMin:      jsonObj{"description": "Inclusive lower bound of a numeric property.", "type": "number"},
			scenefile.YAMLMax:      jsonObj{"description": "Inclusive upper bound of a numeric property.", "type": "number"},
			scenefile.YAMLOnDelete: jsonObj{"description": "What happens to the holder of a reference (entity, entities) when its target is destroyed.", "enum": []any{"clear", "destroy", "remove"}},
		},
		"additionalProperties": false,
	}
}

// declarationDefs defines component declarations and their properties.
func declarationDefs(defs jsonObj, reg *registry.Registry) {
	defs["propertyDeclaration"] = propDeclSchema(reg, "A property declaration: type, default, oneOf, min, max.")
	single := propDeclSchema(reg, "A single-property component: its property's type, default, oneOf, min and max.")
	single["required"] = []any{scenefile.YAMLType}
	defs["declaration"] = jsonObj{
		"description": "A data-only component declaration: a property declaration with a `type` key (single-property), a mapping of property name to declaration, or {} / nothing for a tag.",
		"anyOf": []any{
			jsonObj{"type": "null"},
			single,
			jsonObj{
				"type":                 "object",
				"propertyNames":        jsonObj{"pattern": componentNamePattern},
				"additionalProperties": jsonObj{"anyOf": []any{jsonObj{"type": "null"}, schemaRef("propertyDeclaration")}},
			},
		},
	}
}

// topLevelSchema describes the keys of a scene's root mapping; sysProps
// are the registered systems' settings. The entities, mixins and prefabs
// in them are given by sceneItems, as openScene chooses.
func topLevelSchema(sysProps jsonObj) jsonObj {
	return jsonObj{
		scenefile.YAMLScene: jsonObj{
			"description":          "System settings: system name to attribute string or mapping of its properties, with the schedule keys (_phase, _before ...); a component that ticks takes the schedule keys alone.",
			"type":                 []any{"object", "null"},
			"properties":           sysProps,
			"additionalProperties": false,
		},
		scenefile.YAMLComponents: jsonObj{
			"description":          "Data-only component declarations: name to declaration.",
			"type":                 []any{"object", "null"},
			"propertyNames":        jsonObj{"pattern": componentNamePattern},
			"additionalProperties": schemaRef("declaration"),
		},
		scenefile.YAMLMixins: jsonObj{
			"description":   "Mixins: id to mixin.",
			"type":          []any{"object", "null"},
			"propertyNames": jsonObj{"pattern": `^\S+$`},
		},
		scenefile.YAMLPrefabs: jsonObj{
			"description":   "Prefabs: name to the body of an entity subtree, instanced by prefab: NAME.",
			"type":          []any{"object", "null"},
			"propertyNames": jsonObj{"pattern": `^\S+$`},
		},
		scenefile.YAMLInclude: jsonObj{
			"description": "Scene files to include, relative to this one: a path or a list of paths.",
			"type":        []any{"string", "array"},
			"minLength":   1,
			"items":       jsonObj{"type": "string", "minLength": 1},
		},
		scenefile.YAMLEntities: jsonObj{
			"description": "The scene's top-level entities.",
			"type":        []any{"array", "null"},
		},
	}
}
