package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

// schemaOutput runs "scene-run schema" with args and returns stdout.
func schemaOutput(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), append([]string{"schema"}, args...), &out, &errOut); code != exitOK {
		t.Fatalf("schema %v: exit %d\n%s", args, code, errOut.String())
	}
	return out.Bytes()
}

// jsonSchema returns the JSON Schema of YAML scenes for the components and
// systems registered in reg.
func jsonSchema(reg *registry.Registry) ([]byte, error) {
	var b bytes.Buffer
	err := loader.WriteJSONSchema(&b, reg, nil)
	return b.Bytes(), err
}

func decodeJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatalf("output is not valid JSON: %v", err)
	}
	return root
}

// ---- a validator for the subset of JSON Schema 2020-12 the command emits ----

// annotationKeywords carry no assertion.
var annotationKeywords = []string{"$schema", "$defs", "title", "description", "default"}

// assertionKeywords are the keywords jsonValidator checks. A schema using
// any other keyword fails TestSchemaJSONKeywords, so the validator cannot
// silently ignore a part of what the command emits.
var assertionKeywords = []string{
	"$ref", "type", "enum", "anyOf", "properties", "patternProperties",
	"additionalProperties", "propertyNames", "required", "items",
	"pattern", "minLength", "maxLength", "maxProperties", "minimum", "maximum",
}

type jsonValidator struct {
	root map[string]any
}

// validate returns the errors of value v against schema s, at path.
func (jv *jsonValidator) validate(s any, v any, path string) []string {
	switch s := s.(type) {
	case bool:
		if !s {
			return []string{path + ": not allowed"}
		}
		return nil
	case map[string]any:
		return jv.object(s, v, path)
	}
	return []string{fmt.Sprintf("%s: bad schema %T", path, s)}
}

func (jv *jsonValidator) resolve(ref string) any {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok {
		return nil
	}
	name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
	defs, _ := jv.root["$defs"].(map[string]any)
	return defs[name]
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeMatches(want, got string) bool {
	return want == got || (want == "number" && got == "integer")
}

// object returns the errors of v against the schema object s, at path:
// the keywords for any value first, then those for v's kind.
func (jv *jsonValidator) object(s map[string]any, v any, path string) []string {
	c := &schemaCheck{jv: jv, path: path}
	if !c.any(s, v) {
		return c.errs
	}
	switch x := v.(type) {
	case string:
		c.str(s, x)
	case float64:
		c.number(s, x)
	case []any:
		if items, ok := s["items"]; ok {
			for i, it := range x {
				c.errs = append(c.errs, jv.validate(items, it, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case map[string]any:
		c.members(s, x)
	}
	return c.errs
}

// schemaCheck gathers the errors of one value against one schema object.
type schemaCheck struct {
	jv   *jsonValidator
	path string
	errs []string
}

func (c *schemaCheck) fail(format string, args ...any) {
	c.errs = append(c.errs, c.path+": "+fmt.Sprintf(format, args...))
}

// any checks the keywords that apply to every value: $ref, type, enum,
// anyOf. It reports false if v is not of the type (nothing more is
// checked then).
func (c *schemaCheck) any(s map[string]any, v any) bool {
	if r, ok := s["$ref"].(string); ok {
		target := c.jv.resolve(r)
		if target == nil {
			c.fail("unresolved $ref %q", r)
		} else {
			c.errs = append(c.errs, c.jv.validate(target, v, c.path)...)
		}
	}
	if t, ok := s["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		got := jsonType(v)
		if !slices.ContainsFunc(types, func(w string) bool { return typeMatches(w, got) }) {
			c.fail("%s is not of type %v", got, types)
			return false
		}
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return x == v }) {
		c.fail("%v is not one of %v", v, e)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		matched := false
		for _, a := range alts {
			if len(c.jv.validate(a, v, c.path)) == 0 {
				matched = true
				break
			}
		}
		if !matched {
			c.fail("matches no anyOf alternative")
		}
	}
	return true
}

// str checks a string's pattern and length (in characters).
func (c *schemaCheck) str(s map[string]any, x string) {
	if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
		c.fail("%q does not match %s", x, p)
	}
	n := float64(len([]rune(x)))
	if m, ok := s["minLength"].(float64); ok && n < m {
		c.fail("%q is shorter than %v", x, m)
	}
	if m, ok := s["maxLength"].(float64); ok && n > m {
		c.fail("%q is longer than %v", x, m)
	}
}

// number checks a number's bounds.
func (c *schemaCheck) number(s map[string]any, x float64) {
	if m, ok := s["minimum"].(float64); ok && x < m {
		c.fail("%v is below the minimum %v", x, m)
	}
	if m, ok := s["maximum"].(float64); ok && x > m {
		c.fail("%v is above the maximum %v", x, m)
	}
}

// members checks an object's size, required keys, key names and the
// value of each key against properties, patternProperties and
// additionalProperties.
func (c *schemaCheck) members(s map[string]any, x map[string]any) {
	if m, ok := s["maxProperties"].(float64); ok && float64(len(x)) > m {
		c.fail("more than %v properties", m)
	}
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if _, ok := x[r.(string)]; !ok {
				c.fail("missing required %q", r)
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	patterns, _ := s["patternProperties"].(map[string]any)
	for _, k := range slices.Sorted(mapKeys(x)) {
		kpath := c.path + "." + k
		if pn, ok := s["propertyNames"]; ok {
			c.errs = append(c.errs, c.jv.validate(pn, k, kpath+" (name)")...)
		}
		seen := false
		if ps, ok := props[k]; ok {
			seen = true
			c.errs = append(c.errs, c.jv.validate(ps, x[k], kpath)...)
		}
		for p, ps := range patterns {
			if regexp.MustCompile(p).MatchString(k) {
				seen = true
				c.errs = append(c.errs, c.jv.validate(ps, x[k], kpath)...)
			}
		}
		if ap, ok := s["additionalProperties"]; ok && !seen {
			if b, ok := ap.(bool); ok && !b {
				c.fail("unknown key %q", k)
			} else {
				c.errs = append(c.errs, c.jv.validate(ap, x[k], kpath)...)
			}
		}
	}
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// yamlToJSON converts a YAML document to the JSON data model, as YAML
// editors do before validating: scalars keep their YAML 1.2 types.
func yamlToJSON(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	var conv func(any) any
	conv = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, e := range x {
				m[k] = conv(e)
			}
			return m
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = conv(e)
			}
			return out
		case int:
			return float64(x)
		case int64:
			return float64(x)
		case uint64:
			return float64(x)
		}
		return v
	}
	return conv(v)
}

// ---- JSON Schema tests ----

func TestSchemaJSONDeclaresDraft(t *testing.T) {
	root := decodeJSON(t, schemaOutput(t))
	if got := root["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", got)
	}
	if !bytes.Equal(schemaOutput(t), schemaOutput(t, "-format", "json")) {
		t.Error("-format json differs from the default")
	}
}

func TestSchemaJSONKeywords(t *testing.T) {
	root := decodeJSON(t, schemaOutput(t))
	var walk func(s any, path string)
	walk = func(s any, path string) {
		m, ok := s.(map[string]any)
		if !ok {
			if _, ok := s.(bool); !ok {
				t.Errorf("%s: schema is a %T", path, s)
			}
			return
		}
		if _, ok := m["$ref"]; ok && len(m) > 1 {
			t.Errorf("%s: $ref with siblings (draft-07 validators ignore them)", path)
		}
		for k, v := range m {
			p := path + "/" + k
			switch {
			case slices.Contains(annotationKeywords, k) && k != "$defs":
			case k == "$defs" || k == "properties" || k == "patternProperties":
				for name, sub := range v.(map[string]any) {
					if k == "patternProperties" {
						if _, err := regexp.Compile(name); err != nil {
							t.Errorf("%s: bad pattern %q: %v", p, name, err)
						}
					}
					walk(sub, p+"/"+name)
				}
			case k == "anyOf":
				for i, sub := range v.([]any) {
					walk(sub, fmt.Sprintf("%s/%d", p, i))
				}
			case k == "items" || k == "additionalProperties" || k == "propertyNames":
				walk(v, p)
			case k == "pattern":
				if _, err := regexp.Compile(v.(string)); err != nil {
					t.Errorf("%s: bad pattern: %v", p, err)
				}
			case slices.Contains(assertionKeywords, k):
			default:
				t.Errorf("%s: keyword the test validator does not check", p)
			}
		}
	}
	walk(root, "#")
}

// wantJSONType is the JSON Schema type a property of each built-in type
// gets (in a list, the types a scalar may take).
var wantJSONType = map[string]string{
	"number":      "number",
	"time":        "number",
	"int":         "integer",
	"boolean":     "boolean",
	"string":      "[string number boolean]",
	"selector":    "[string number boolean]",
	"selectorAll": "[string number boolean]",
	"array":       "[string number boolean]",
	"vec2":        "[string number]",
	"vec3":        "[string number]",
	"vec4":        "[string number]",
	"duration":    "[string number]",
	"color":       "string",
}

func typeString(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		var parts []string
		for _, x := range t {
			if x != "null" {
				parts = append(parts, x.(string))
			}
		}
		if len(parts) == 1 {
			return parts[0]
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return ""
}

// checkValueSchema checks the schema of a component's or system's value
// against its registry schema.
func checkValueSchema(t *testing.T, what string, def map[string]any, s *registry.Schema) {
	t.Helper()
	if desc, _ := def["description"].(string); desc == "" {
		t.Errorf("%s: no description", what)
	}
	checkProp := func(p *registry.Property, ps map[string]any) {
		t.Helper()
		desc, _ := ps["description"].(string)
		if !strings.Contains(desc, fmt.Sprintf("default %q", p.Type.Print(p.Default))) {
			t.Errorf("%s: property %q: description %q lacks the default", what, p.Name, desc)
		}
		if _, ok := ps["default"]; !ok {
			t.Errorf("%s: property %q: no default", what, p.Name)
		}
		if len(p.OneOf) > 0 && p.Type.Name != "array" {
			if enum, _ := ps["enum"].([]any); len(enum) < len(p.OneOf) {
				t.Errorf("%s: property %q: enum %v, want %v", what, p.Name, enum, p.OneOf)
			}
		} else if want, ok := wantJSONType[p.Type.Name]; ok {
			if got := typeString(ps); got != want {
				t.Errorf("%s: property %q (%s): type %s, want %s", what, p.Name, p.Type.Name, got, want)
			}
		}
		if p.Min != nil && ps["minimum"] != *p.Min {
			t.Errorf("%s: property %q: minimum %v, want %v", what, p.Name, ps["minimum"], *p.Min)
		}
		if p.Max != nil && ps["maximum"] != *p.Max {
			t.Errorf("%s: property %q: maximum %v, want %v", what, p.Name, ps["maximum"], *p.Max)
		}
	}
	switch {
	case s.IsTag():
		if def["maxProperties"] != 0.0 || def["maxLength"] != 0.0 {
			t.Errorf("%s: tag schema allows values: %v", what, def)
		}
	case s.Single():
		checkProp(&s.Props[0], def)
	default:
		props, _ := def["properties"].(map[string]any)
		for i := range s.Props {
			p := &s.Props[i]
			ps, ok := props[p.Name].(map[string]any)
			if !ok {
				t.Errorf("%s: property %q missing", what, p.Name)
				continue
			}
			checkProp(p, ps)
		}
		if def["additionalProperties"] != false {
			t.Errorf("%s: unknown properties allowed", what)
		}
	}
}

func TestSchemaJSONHasEveryComponent(t *testing.T) {
	rt, err := newRuntime(0)
	if err != nil {
		t.Fatal(err)
	}
	root := decodeJSON(t, schemaOutput(t))
	defs := root["$defs"].(map[string]any)
	entityProps := defs["entity"].(map[string]any)["properties"].(map[string]any)
	mixinProps := defs["mixin"].(map[string]any)["properties"].(map[string]any)
	if len(rt.reg.Components()) == 0 || len(rt.reg.Systems()) == 0 {
		t.Fatal("no built-in components or systems")
	}
	for _, c := range rt.reg.Components() {
		if components.IsWorld(c) {
			// Read-only: a scene file cannot write it.
			if _, ok := defs["component."+c.Name]; ok || entityProps[c.Name] != nil {
				t.Errorf("the read-only %s is in the schema", c.Name)
			}
			continue
		}
		def, ok := defs["component."+c.Name].(map[string]any)
		if !ok {
			t.Errorf("component %s: no definition", c.Name)
			continue
		}
		checkValueSchema(t, "component "+c.Name, def, c.Schema)
		for where, props := range map[string]map[string]any{"entity": entityProps, "mixin": mixinProps} {
			if r, _ := props[c.Name].(map[string]any); r["$ref"] != "#/$defs/component."+c.Name {
				t.Errorf("component %s: %s refers to %v", c.Name, where, props[c.Name])
			}
		}
	}
	sceneProps := root["properties"].(map[string]any)["scene"].(map[string]any)["properties"].(map[string]any)
	for _, s := range rt.reg.Systems() {
		def, ok := defs["system."+s.Name].(map[string]any)
		if !ok {
			t.Errorf("system %s: no definition", s.Name)
			continue
		}
		checkValueSchema(t, "system "+s.Name, def, s.Schema)
		if r, _ := sceneProps[s.Name].(map[string]any); r["$ref"] != "#/$defs/system."+s.Name {
			t.Errorf("system %s: scene refers to %v", s.Name, sceneProps[s.Name])
		}
	}
}

func TestSchemaJSONDeterministic(t *testing.T) {
	first := schemaOutput(t)
	for range 3 {
		if !bytes.Equal(first, schemaOutput(t)) {
			t.Fatal("output differs between runs")
		}
	}
}

// TestSchemaJSONAcceptsScenes validates the example scenes against the
// schema.
func TestSchemaJSONAcceptsScenes(t *testing.T) {
	jv := &jsonValidator{root: decodeJSON(t, schemaOutput(t))}
	files, err := filepath.Glob("../../scenes/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenes: %v", err)
	}
	if !slices.ContainsFunc(files, func(f string) bool { return filepath.Base(f) == "cubes.yaml" }) {
		t.Fatal("scenes/cubes.yaml missing")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range jv.validate(jv.root, yamlToJSON(t, string(src)), "$") {
			t.Errorf("%s: %s", f, e)
		}
	}
}

// TestSchemaJSONAgreesWithLoader checks, for scenes the schema can judge
// fully, that it accepts exactly what the loader accepts.
func TestSchemaJSONAgreesWithLoader(t *testing.T) {
	jv := &jsonValidator{root: decodeJSON(t, schemaOutput(t))}
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"empty", "", true},
		{"everything", `
scene:
  physics: {step: 0.02}
components:
  level: {type: number, default: 1, min: 0}
  health: {hp: {type: int, default: 100, min: 0}, max: {type: int}}
  npc: {}
  mode: {type: string, default: walk, oneOf: [walk, run]}
  shade: {type: string, oneOf: "a, b"}
  other:
mixins:
  base: {velocity: 1 0 0}
  box: {mixin: base, scale: 2 2 2, npc: }
include: []
entities:
  - id: a
    class: [x, y]
    mixin: box
    position: 0 1 -5
    rotation: 90
    visible: false
    lifetime: {seconds: 2.5, age: 0}
    spin: "axis: 0 0 1; speed: 45"
    level: 3
    health: {hp: 10}
    mode: run
    shade: b
    npc:
    children:
      - position: "1 2"
        spawner: {count: 3, area: 1 1 1, done: true}
`, true},
		{"unknown top-level key", "entitys: []\n", false},
		{"entities not a list", "entities: {a: 1}\n", false},
		{"entity not a mapping", "entities: [position]\n", false},
		{"vec3 not numbers", "entities: [{position: 1 2 x}]\n", false},
		{"vec3 too long", "entities: [{position: 1 2 3 4}]\n", false},
		{"boolean not a boolean", "entities: [{visible: maybe}]\n", false},
		{"unknown property", "entities: [{lifetime: {secs: 1}}]\n", false},
		{"below min", "entities: [{lifetime: {seconds: -1}}]\n", false},
		{"not an int", "entities: [{spawner: {count: 1.5}}]\n", false},
		{"property a mapping", "entities: [{spawner: {area: {x: 1}}}]\n", false},
		{"component a list", "entities: [{position: [1, 2, 3]}]\n", false},
		{"id with a space", "entities: [{id: a b}]\n", false},
		{"id a mapping", "entities: [{id: {a: 1}}]\n", false},
		{"children not a list", "entities: [{children: {position: 1}}]\n", false},
		{"class a mapping", "entities: [{class: {a: 1}}]\n", false},
		{"id in a mixin", "mixins: {m: {id: x}}\n", false},
		{"children in a mixin", "mixins: {m: {children: []}}\n", false},
		{"unknown system", "scene: {fog: 1}\n", false},
		{"system unknown property", "scene: {physics: {gravity: 1}}\n", false},
		{"include a mapping", "include: {a: b}\n", false},
		{"declaration unknown key", "components: {c: {type: int, dflt: 1}}\n", false},
		{"declaration unknown type", "components: {c: {type: quaternion}}\n", false},
		{"declaration min not a number", "components: {c: {type: int, min: low}}\n", false},
		{"declaration a string", "components: {c: int}\n", false},
		{"property declaration a string", "components: {c: {hp: int}}\n", false},
		{"bad component name", "entities: [{1st: x}]\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := jv.validate(jv.root, yamlToJSON(t, tt.src), "$")
			if got := len(errs) == 0; got != tt.ok {
				t.Errorf("schema valid = %v, want %v; errors: %v", got, tt.ok, errs)
			}
			rt, err := newRuntime(0)
			if err != nil {
				t.Fatal(err)
			}
			fsys := fstest.MapFS{"scene.yaml": {Data: []byte(tt.src)}}
			_, err = loader.Load(rt.reg, fsys, "scene.yaml", loader.Options{})
			if got := err == nil; got != tt.ok {
				t.Errorf("loader ok = %v, want %v (test case out of date?): %v", got, tt.ok, err)
			}
		})
	}
}

// TestSchemaJSONCustomComponents checks what the built-ins do not have:
// enums, hyphen-case aliases and name__ID instances.
func TestSchemaJSONCustomComponents(t *testing.T) {
	type walker struct {
		Mode  string `scene:"mode,oneOf=walk|run"`
		MaxHp int    `scene:",min=0,max=10"`
		Tags  []string
	}
	type speed float64
	reg := registry.New(ecs.NewWorld())
	if _, err := registry.Register(reg, "walker", registry.Definition[walker]{Multiple: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(reg, "speed", registry.Definition[speed]{}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(reg, "marker", registry.Definition[struct{}]{}); err != nil {
		t.Fatal(err)
	}
	out, err := jsonSchema(reg)
	if err != nil {
		t.Fatal(err)
	}
	jv := &jsonValidator{root: decodeJSON(t, out)}
	tests := []struct {
		src string
		ok  bool
	}{
		{"entities: [{walker: {mode: run, maxHp: 3, tags: 'a, b'}}]", true},
		{"entities: [{walker: {max-hp: 10}}]", true},
		{"entities: [{walker__left: {mode: walk}, walker__right: 'mode: run'}]", true},
		{"entities: [{speed: 2.5, marker: }]", true},
		{"entities: [{marker: ''}]", true},
		{"entities: [{marker: {}}]", true},
		{"entities: [{walker: {mode: fly}}]", false},
		{"entities: [{walker__left: {mode: fly}}]", false},
		{"entities: [{walker: {maxHp: 11}}]", false},
		{"entities: [{walker: {max-hp: -1}}]", false},
		{"entities: [{speed: fast}]", false},
		{"entities: [{marker: x}]", false},
		{"entities: [{marker: {a: 1}}]", false},
	}
	for _, tt := range tests {
		errs := jv.validate(jv.root, yamlToJSON(t, tt.src), "$")
		if got := len(errs) == 0; got != tt.ok {
			t.Errorf("%s: valid = %v, want %v; errors: %v", tt.src, got, tt.ok, errs)
		}
	}
}

// ---- XML Schema tests ----

// xsdNode is an element of the XML Schema, for inspection.
type xsdNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xsdNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *xsdNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

func (n *xsdNode) walk(f func(n *xsdNode, parents []*xsdNode)) {
	var rec func(n *xsdNode, parents []*xsdNode)
	rec = func(n *xsdNode, parents []*xsdNode) {
		f(n, parents)
		parents = append(parents, n)
		for i := range n.Children {
			rec(&n.Children[i], parents)
		}
	}
	rec(n, nil)
}

const xsNS = "http://www.w3.org/2001/XMLSchema"

func parseXSD(t *testing.T, b []byte) *xsdNode {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	for { // well-formed throughout
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("XSD is not well-formed: %v", err)
		}
	}
	var root xsdNode
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	if root.XMLName != (xml.Name{Space: xsNS, Local: "schema"}) {
		t.Fatalf("root element %v, want xs:schema", root.XMLName)
	}
	return &root
}

// xsdAttributes returns, for each named complexType or attributeGroup and
// for the scene element, the attributes it declares, their documentation,
// and whether it takes any attribute.
func xsdAttributes(root *xsdNode) (attrs map[string]map[string]string, anyAttr map[string]bool) {
	attrs, anyAttr = map[string]map[string]string{}, map[string]bool{}
	owner := func(parents []*xsdNode) string {
		for i := len(parents) - 1; i >= 0; i-- {
			p := parents[i]
			switch p.XMLName.Local {
			case "complexType", "attributeGroup":
				if n := p.attr("name"); n != "" {
					return p.XMLName.Local + ":" + n
				}
			case "element":
				return "element:" + p.attr("name")
			}
		}
		return ""
	}
	root.walk(func(n *xsdNode, parents []*xsdNode) {
		switch n.XMLName.Local {
		case "attribute":
			o := owner(parents)
			if attrs[o] == nil {
				attrs[o] = map[string]string{}
			}
			doc := ""
			n.walk(func(d *xsdNode, _ []*xsdNode) {
				if d.XMLName.Local == "documentation" {
					doc = d.Text
				}
			})
			attrs[o][n.attr("name")] = doc
		case "anyAttribute":
			anyAttr[owner(parents)] = true
		}
	})
	return attrs, anyAttr
}

func TestSchemaXSD(t *testing.T) {
	out := schemaOutput(t, "-format", "xsd")
	if !bytes.Equal(out, schemaOutput(t, "-format", "xsd")) {
		t.Error("output differs between runs")
	}
	root := parseXSD(t, out)
	checkXSDReferences(t, root)
	attrs, anyAttr := xsdAttributes(root)
	checkXSDAttributes(t, attrs, anyAttr)
	checkXSDAdmitsCubes(t, attrs)
}

// checkXSDReferences checks that every type and attribute group the XSD
// refers to is defined, and that the scene's parts are.
func checkXSDReferences(t *testing.T, root *xsdNode) {
	t.Helper()
	defined := map[string]bool{}
	root.walk(func(n *xsdNode, parents []*xsdNode) {
		if len(parents) == 1 && n.attr("name") != "" {
			defined[n.XMLName.Local+":"+n.attr("name")] = true
		}
	})
	root.walk(func(n *xsdNode, _ []*xsdNode) {
		if typ := n.attr("type"); typ != "" && !strings.HasPrefix(typ, "xs:") && !defined["complexType:"+typ] {
			t.Errorf("<%s name=%q> has undefined type %q", n.XMLName.Local, n.attr("name"), typ)
		}
		if n.XMLName.Local == "attributeGroup" && n.attr("ref") != "" && !defined["attributeGroup:"+n.attr("ref")] {
			t.Errorf("undefined attribute group %q", n.attr("ref"))
		}
	})
	for _, want := range []string{"element:scene", "complexType:entity", "complexType:mixin", "complexType:include", "complexType:components", "attributeGroup:components"} {
		if !defined[want] {
			t.Errorf("%s not defined", want)
		}
	}

}

// checkXSDAttributes checks the XSD's attributes, by element or type and
// name (see xsdAttributes), against the registry: every component and
// system, the entity's own attributes, include's src.
func checkXSDAttributes(t *testing.T, attrs map[string]map[string]string, anyAttr map[string]bool) {
	t.Helper()
	rt, err := newRuntime(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rt.reg.Components() {
		if components.IsWorld(c) {
			if _, ok := attrs["attributeGroup:components"][c.Name]; ok {
				t.Errorf("the read-only %s is in the XSD", c.Name)
			}
			continue
		}
		doc, ok := attrs["attributeGroup:components"][c.Name]
		if !ok {
			t.Errorf("component %s: no attribute", c.Name)
			continue
		}
		if !strings.Contains(doc, c.Name) {
			t.Errorf("component %s: documentation %q", c.Name, doc)
		}
		for i := range c.Schema.Props {
			p := &c.Schema.Props[i]
			if !strings.Contains(doc, p.Type.Name) || !strings.Contains(doc, p.Name) {
				t.Errorf("component %s: documentation %q does not describe property %q (%s)", c.Name, doc, p.Name, p.Type.Name)
			}
		}
	}
	for _, s := range rt.reg.Systems() {
		if _, ok := attrs["element:scene"][s.Name]; !ok {
			t.Errorf("system %s: no attribute on <scene>", s.Name)
		}
	}
	for _, k := range []string{"id", "class", "mixin"} {
		if _, ok := attrs["complexType:entity"][k]; !ok {
			t.Errorf("<entity> has no %s attribute", k)
		}
	}
	if _, ok := attrs["complexType:include"]["src"]; !ok {
		t.Error("<include> has no src attribute")
	}
	if !anyAttr["complexType:entity"] || !anyAttr["complexType:mixin"] {
		t.Error("<entity> and <mixin> must take any attribute (scene-declared components)")
	}

}

// checkXSDAdmitsCubes checks that the attributes of scenes/cubes.xml are
// all declared, except those anyAttribute admits (none there: it uses
// built-ins only besides tags).
func checkXSDAdmitsCubes(t *testing.T, attrs map[string]map[string]string) {
	t.Helper()
	src, err := os.ReadFile("../../scenes/cubes.xml")
	if err != nil {
		t.Fatal(err)
	}
	var scene xsdNode
	if err := xml.Unmarshal(src, &scene); err != nil {
		t.Fatal(err)
	}
	scene.walk(func(n *xsdNode, _ []*xsdNode) {
		var own map[string]string
		switch n.XMLName.Local {
		case "scene":
			own = attrs["element:scene"]
		case "entity", "mixin":
			own = attrs["complexType:"+n.XMLName.Local]
		default:
			t.Errorf("cubes.xml: element <%s> not in the XSD", n.XMLName.Local)
			return
		}
		for _, a := range n.Attrs {
			_, mine := own[a.Name.Local]
			_, comp := attrs["attributeGroup:components"][a.Name.Local]
			if !mine && !(n.XMLName.Local != "scene" && (comp || a.Value == "")) {
				t.Errorf("cubes.xml: <%s %s> not declared", n.XMLName.Local, a.Name.Local)
			}
		}
	})
}

// TestSchemaXSDXmllint validates XML scenes with xmllint, an XML Schema
// processor, when it is installed.
func TestSchemaXSDXmllint(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed")
	}
	dir := t.TempDir()
	xsd := filepath.Join(dir, "scene.xsd")
	if err := os.WriteFile(xsd, schemaOutput(t, "-format", "xsd"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(name, path string, ok bool) {
		t.Helper()
		out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput()
		if got := err == nil; got != ok {
			t.Errorf("%s: xmllint ok = %v, want %v\n%s", name, got, ok, out)
		}
	}
	check("cubes.xml", "../../scenes/cubes.xml", true)
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"everything", `<?xml-model href="scene.xsd"?>
<scene physics="step: 0.02">
  <components>
    <component name="level" type="number" default="1" min="0"/>
    <component name="health"><property name="hp" type="int" default="100" min="0"/></component>
    <component name="npc"/>
  </components>
  <mixin id="m" npc="" velocity="1 0 0"/>
  <include src="other.xml"/>
  <entity id="a" class="x y" mixin="m" position="0 1 2" visible="false" level="3" health="hp: 5">
    <entity spin="speed: 45"/>
  </entity>
</scene>`, true},
		{"unknown system", `<scene fog="1"/>`, false},
		{"unknown element", `<scene><thing/></scene>`, false},
		{"boolean", `<scene><entity visible="maybe"/></scene>`, false},
		{"include without src", `<scene><include/></scene>`, false},
		{"mixin without id", `<scene><mixin position="1"/></scene>`, false},
		{"unknown type", `<scene><components><component name="c" type="quaternion"/></components></scene>`, false},
		{"mixin in entity", `<scene><entity><mixin id="m"/></entity></scene>`, false},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".xml")
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		check(tt.name, path, tt.ok)
	}
}

func TestSchemaUsage(t *testing.T) {
	for _, args := range [][]string{{"-format", "yaml"}, {"extra"}, {"a.yaml", "b.yaml"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), append([]string{"schema"}, args...), &out, &errOut); code != exitUsage || out.Len() != 0 {
			t.Errorf("schema %v: exit %d, stdout %q, want a usage error (2)", args, code, out.String())
		}
	}
}
