package editorschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// The JSON Schema checked by a real JSON Schema validator
// (santhosh-tekuri/jsonschema, which implements draft 2020-12 in full),
// on the repository's scenes and on scenes the loader refuses. YAML is
// converted to JSON as YAML editors do (YAML 1.2 core types), keeping
// each value's line to check that an error points at the right place.

// compileJSONSchema compiles the output of WriteJSONSchema.
func compileJSONSchema(t *testing.T, reg *registry.Registry, doc *scenefile.Document) *jsonschema.Schema {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJSONSchema(&b, reg, doc); err != nil {
		t.Fatal(err)
	}
	return compileSchemaBytes(t, "scene.schema.json", b.Bytes())
}

// compileSchemaBytes compiles the JSON Schema src, named name.
func compileSchemaBytes(t *testing.T, name string, src []byte) *jsonschema.Schema {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, v); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(name)
	if err != nil {
		t.Fatalf("%s does not compile: %v", name, err)
	}
	return s
}

// yamlJSON is a YAML document in the JSON data model, with the line of
// each value by JSON pointer.
type yamlJSON struct {
	value any
	lines map[string]int
}

// yamlToJSON converts YAML source to the JSON data model: mappings,
// sequences, and scalars typed by their YAML 1.2 core-schema tags, as the
// YAML language server does before validating.
func yamlToJSON(t *testing.T, src []byte) yamlJSON {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	y := yamlJSON{lines: map[string]int{}}
	var conv func(n *yaml.Node, ptr string) any
	conv = func(n *yaml.Node, ptr string) any {
		y.lines[ptr] = n.Line
		switch n.Kind {
		case yaml.DocumentNode:
			return conv(n.Content[0], ptr)
		case yaml.AliasNode:
			return conv(n.Alias, ptr)
		case yaml.MappingNode:
			m := map[string]any{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				m[k] = conv(n.Content[i+1], ptr+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k))
			}
			return m
		case yaml.SequenceNode:
			out := make([]any, len(n.Content))
			for i, c := range n.Content {
				out[i] = conv(c, ptr+"/"+strconv.Itoa(i))
			}
			return out
		}
		switch n.ShortTag() {
		case "!!null":
			return nil
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				t.Fatal(err)
			}
			return b
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				t.Fatal(err)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return f
			}
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return n.Value
	}
	if len(root.Content) == 0 {
		return y // an empty document: null
	}
	y.value = conv(&root, "")
	return y
}

// A schemaError is one error of a validation: where, and what.
type schemaError struct {
	ptr, msg string
}

// validateYAML validates YAML source against s and returns its errors:
// the leaves of the validator's output, each with the JSON pointer of
// the offending value.
func validateYAML(t *testing.T, s *jsonschema.Schema, src []byte) ([]schemaError, yamlJSON) {
	t.Helper()
	y := yamlToJSON(t, src)
	err := s.Validate(y.value)
	if err == nil {
		return nil, y
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		t.Fatalf("validate: %v", err)
	}
	var out []schemaError
	var walk func(u *jsonschema.OutputUnit)
	walk = func(u *jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			out = append(out, schemaError{u.InstanceLocation, u.Error.String()})
		}
		for i := range u.Errors {
			walk(&u.Errors[i])
		}
	}
	walk(ve.DetailedOutput())
	return out, y
}

// compileYAML reads and compiles YAML source with the loader, against reg.
func compileYAML(reg *registry.Registry, name string, src []byte) error {
	doc, err := scenefile.ReadYAML(name, src, scenefile.Limits{})
	if err != nil {
		return err
	}
	_, err = compile(doc, reg)
	return err
}

// repoScenes returns the YAML (or, with ext ".xml", XML) scenes of the
// repository: scenes/*, and examples/** (which may not exist).
func repoScenes(t *testing.T, ext string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "scenes", "*"+ext))
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(filepath.Join("..", "..", "examples"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && p == filepath.Join("..", "..", "examples") {
				return filepath.SkipDir
			}
			return err
		}
		if !d.IsDir() && (filepath.Ext(p) == ext || ext == ".yaml" && filepath.Ext(p) == ".yml") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// modeline returns the schema a YAML scene names in a
// "# yaml-language-server: $schema=PATH" comment, resolved against the
// scene's directory, or "".
func modeline(file string, src []byte) string {
	m := regexp.MustCompile(`(?m)^#\s*yaml-language-server:\s*\$schema=(\S+)`).FindSubmatch(src)
	if m == nil {
		return ""
	}
	return filepath.Join(filepath.Dir(file), string(m[1]))
}

// TestSchemaValidatesRepoScenes: every YAML scene of scenes/ and
// examples/ is valid against the JSON Schema of the built-ins (or, for a
// scene naming its schema in a modeline, as a program with components of
// its own does, against that file), and a scene that declares components
// or includes files also against the schema made with its Document.
func TestSchemaValidatesRepoScenes(t *testing.T) {
	reg := newTestRegistry(t)
	builtins := compileJSONSchema(t, reg, nil)
	files := repoScenes(t, ".yaml")
	if !slices.Contains(files, filepath.Join("..", "..", "scenes", "cubes.yaml")) || !slices.Contains(files, filepath.Join("..", "..", "scenes", "authoring.yaml")) {
		t.Fatalf("scenes/cubes.yaml or scenes/authoring.yaml missing from %v", files)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := builtins
		if ml := modeline(f, src); ml != "" {
			own, err := os.ReadFile(ml)
			if err != nil {
				t.Fatalf("%s: its modeline names %s: %v", f, ml, err)
			}
			s = compileSchemaBytes(t, ml, own)
		}
		if errs, _ := validateYAML(t, s, src); len(errs) > 0 {
			t.Errorf("%s: %v (a scene using a program's own components names that program's schema in a modeline)", f, errs)
		}
		doc, err := scenefile.ReadFile(os.DirFS(filepath.Dir(f)), filepath.Base(f), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Decls) == 0 && len(doc.Includes) == 0 || s != builtins {
			continue
		}
		if errs, _ := validateYAML(t, compileJSONSchema(t, reg, doc), src); len(errs) > 0 {
			t.Errorf("%s, against the schema made with its Document: %v", f, errs)
		}
	}
}

// authoringDecls declares components, as scenes/authoring.yaml does, for
// the cases below that misspell them.
const authoringDecls = `components:
  health:
    hp: {type: int, default: 100, min: 0}
    maxHp: {type: int, default: 100}
  mode: {type: string, default: walk, oneOf: [walk, run]}
`

// TestSchemaRejectsMisspellings: a misspelt component, or a misspelt
// property in an attribute string or a mapping, fails validation with an
// error at the misspelt value (its JSON pointer and its line), as it
// fails to load. A scene that declares components is checked for those
// by the schema made with its Document; the schema made without one lets
// any name through in such a scene (a JSON Schema cannot compare entity
// keys with the components section).
func TestSchemaRejectsMisspellings(t *testing.T) {
	reg := newRichRegistry(t)
	plain := compileJSONSchema(t, reg, nil)
	for _, tt := range []struct {
		name, src string
		ptr       string // where the error is
		line      int    // the line of the value at ptr
		says      string // in the message
		plainOK   bool   // the schema made without the Document accepts it
	}{
		{"component", "entities:\n  - id: box\n    postion: 0 1 -5\n", "/entities/0/postion", 3, "", false},
		{"component in a child", "entities:\n  - children:\n      - visible: true\n        scael: 2 2 2\n", "/entities/0/children/0/scael", 4, "", false},
		{"component in a mixin", "mixins:\n  m:\n    velocty: 1 0 0\nentities: [{mixin: m}]\n", "/mixins/m/velocty", 3, "", false},
		{"component as a mapping", "entities:\n  - lifetme: {seconds: 2}\n", "/entities/0/lifetme", 2, "", false},
		{"attribute string", "entities:\n  - spin: \"axis: 0 0 1; speedd: 45\"\n", "/entities/0/spin", 2, "pattern", false},
		{"attribute string, hyphen-case", "scene:\n  physics: \"step: 0.01; max-step: 4\"\n", "/scene/physics", 2, "pattern", false},
		{"attribute string of an instance", "entities:\n  - sound__steps: \"src: a.ogg; volum: 0.5\"\n", "/entities/0/sound__steps", 2, "pattern", false},
		{"mapping", "entities:\n  - spin: {axis: 0 0 1, speedd: 45}\n", "/entities/0/spin", 2, "speedd", false},
		{"mapping of a system", "scene:\n  audio:\n    volume: 1\n    mute: true\n", "/scene/audio", 3, "mute", false},
		{"declared component", authoringDecls + "entities:\n  - helth: \"hp: 5\"\n", "/entities/0/helth", 7, "", true},
		{"declared property in an attribute string", authoringDecls + "entities:\n  - health: \"hp: 5; max-hq: 9\"\n", "/entities/0/health", 7, "pattern", true},
		{"declared property in a mapping", authoringDecls + "entities:\n  - health: {hp: 5, mxHp: 9}\n", "/entities/0/health", 7, "mxHp", true},
		{"declared value", authoringDecls + "entities:\n  - mode: fly\n", "/entities/0/mode", 7, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			if err := compileYAML(reg, "s.yaml", src); err == nil {
				t.Fatal("the loader accepts the scene (test case out of date?)")
			}
			doc, err := scenefile.ReadYAML("s.yaml", src, scenefile.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, s *jsonschema.Schema) {
				t.Helper()
				errs, y := validateYAML(t, s, src)
				if len(errs) == 0 {
					t.Fatalf("%s: valid", what)
				}
				for _, e := range errs {
					if e.ptr != tt.ptr || !strings.Contains(e.msg, tt.says) {
						t.Errorf("%s: error %q at %s, want one at %s saying %q (all: %v)", what, e.msg, e.ptr, tt.ptr, tt.says, errs)
					}
				}
				if got := y.lines[tt.ptr]; got != tt.line {
					t.Errorf("%s: %s is on line %d, want %d", what, tt.ptr, got, tt.line)
				}
			}
			check("schema made with the Document", compileJSONSchema(t, reg, doc))
			if tt.plainOK {
				if errs, _ := validateYAML(t, plain, src); len(errs) > 0 {
					t.Errorf("schema made without a Document: %v, want valid (the scene declares components)", errs)
				}
			} else {
				check("schema made without a Document", plain)
			}
		})
	}
}

// agreeCases are TestSchemaAgreesWithLoader's scenes: YAML that loads
// (ok) or is refused, which the schemas must judge alike.
var agreeCases = []struct {
	name, src string
	ok        bool
}{
	{"empty", "", true},
	{"everything", `
scene:
  physics: {step: 0.02}
  audio: "volume: 0.5; muted: true"
components:
  level: {type: number, default: 1, min: 0}
  health: {hp: {type: int, default: 100, min: 0}, maxHp: {type: int}}
  npc: {}
  mode: {type: string, default: walk, oneOf: [walk, run]}
  shade: {type: string, oneOf: "a, b"}
  other:
mixins:
  base: {velocity: 1 0 0, boss: }
  box: {mixin: base, scale: 2 2 2, npc: }
entities:
  - id: a
    class: [x, y]
    mixin: box
    position: 0 1 -5
    rotation: {x: 90, y: 0}
    visible: false
    lifetime: {seconds: 2.5, age: 0}
    spin: "axis: 0 0 1; speed: 45"
    level: 3
    health: "hp: 10; max-hp: 20"
    mode: run
    shade: b
    npc:
    enemy: {}
    sound__a: {src: a.ogg, loop: true}
    sound__b: "src: b.ogg;volume:0.5;"
    children:
      - position: "1 2"
        spawner: {count: 3, area: 1 1 1, done: true}
        health: {max-hp: 3}
`, true},
	{"tags", "entities: [{boss: , enemy: '', npc: {}}]\n", true},
	{"vector as a mapping", "entities: [{position: {x: 1, y: 2, z: 3}}]\n", true},
	{"attribute string with url(...)", "entities: [{sound__a: 'src: url(a;b.ogg); volume: 1'}]\n", true},
	{"attribute string with empty pairs", "entities: [{spin: ' ; axis: 0 1 0;; '}]\n", true},
	{"unknown top-level key", "entitys: []\n", false},
	{"entities not a list", "entities: {a: 1}\n", false},
	{"entity not a mapping", "entities: [position]\n", false},
	{"vec3 not numbers", "entities: [{position: 1 2 x}]\n", false},
	{"vec3 too long", "entities: [{position: 1 2 3 4}]\n", false},
	{"vector mapping too long", "entities: [{position: {x: 1, y: 2, z: 3, w: 4}}]\n", false},
	{"boolean not a boolean", "entities: [{visible: maybe}]\n", false},
	{"unknown property", "entities: [{lifetime: {secs: 1}}]\n", false},
	{"unknown property in an attribute string", "entities: [{lifetime: 'seconds: 1; ag: 2'}]\n", false},
	{"attribute string without a colon", "entities: [{lifetime: 'seconds 1'}]\n", false},
	{"below min", "entities: [{lifetime: {seconds: -1}}]\n", false},
	{"not an int", "entities: [{spawner: {count: 1.5}}]\n", false},
	{"property a mapping", "entities: [{spawner: {area: {x: 1}}}]\n", false},
	{"component a list", "entities: [{position: [1, 2, 3]}]\n", false},
	{"unknown component with a value", "entities: [{postion: 1 2 3}]\n", false},
	{"unknown component with a mapping", "entities: [{boss: {hp: 1}}]\n", false},
	{"unknown instance", "entities: [{spin__a: 'speed: 1'}]\n", false},
	{"id with a space", "entities: [{id: a b}]\n", false},
	{"children not a list", "entities: [{children: {position: 1}}]\n", false},
	{"id in a mixin", "mixins: {m: {id: x}}\n", false},
	{"schedule keys", `
scene:
  physics: {_interval: 0.05, step: 0.02, _exclusive: true}
  audio: "_phase: post-update; volume: 0.5; _after: physics, transform; _every: 2"
  spin: {_phase: pre-update, _reads: position, _writes: rotation}
  lifetime: "_before: spin; _every: 3"
  behaviour: {_after: physics}
  transform: "_exclusive: false"
`, true},
	{"schedule: unknown key", "scene: {physics: {_phaze: update}}\n", false},
	{"schedule: unknown key in a string", "scene: {audio: '_phase: update; _evry: 2'}\n", false},
	{"schedule: unknown phase", "scene: {spin: {_phase: lunch}}\n", false},
	{"schedule: every not a count", "scene: {lifetime: {_every: -1}}\n", false},
	{"schedule: interval not a number", "scene: {physics: {_interval: soon}}\n", false},
	{"schedule: exclusive not a boolean", "scene: {physics: {_exclusive: maybe}}\n", false},
	{"schedule: a component tick given a property", "scene: {spin: {_phase: update, speed: 3}}\n", false},
	{"schedule: a component that does not tick", "scene: {position: {_phase: update}}\n", false},
	{"unknown system", "scene: {fog: 1}\n", false},
	{"system unknown property", "scene: {physics: {gravity: 1}}\n", false},
	{"include a mapping", "include: {a: b}\n", false},
	{"declaration unknown key", "components: {c: {type: int, dflt: 1}}\n", false},
	{"lists: a declaration's default, an entity's value, the schedule's names", "scene: {physics: {_reads: [position, velocity], _after: [transform]}}\ncomponents: {c: {type: array, default: [a, b]}}\nentities: [{c: [x, \"y z\"], animation: {property: position.y, startEvents: [go, \"\"]}}]\n", true},
	{"lists: an item with a comma", "entities: [{animation: {property: position.y, startEvents: [go, \"a,b\"]}}]\n", false},
	{"lists: a schedule key's item of two names", "scene: {physics: {_reads: [\"position velocity\"]}}\n", false},
	{"lists: not for a vector", "entities: [{position: [1, 2, 3]}]\n", false},
	{"declaration unknown type", "components: {c: {type: quaternion}}\n", false},
	{"bad component name", "entities: [{1st: x}]\n", false},
}

// TestSchemaAgreesWithLoader: for scenes the schema can judge fully, the
// validator accepts exactly what the loader accepts, with the schema
// made without a Document and with the scene's.
func TestSchemaAgreesWithLoader(t *testing.T) {
	reg := newRichRegistry(t)
	plain := compileJSONSchema(t, reg, nil)
	for _, tt := range agreeCases {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			err := compileYAML(reg, "s.yaml", src)
			if got := err == nil; got != tt.ok {
				t.Fatalf("loader ok = %v, want %v (test case out of date?): %v", got, tt.ok, err)
			}
			schemas := map[string]*jsonschema.Schema{"without a Document": plain}
			if doc, err := scenefile.ReadYAML("s.yaml", src, scenefile.Limits{}); err == nil && (len(doc.Decls) > 0 || !tt.ok) {
				// A doc with a bad declaration makes no schema.
				var b bytes.Buffer
				if WriteJSONSchema(&b, reg, doc) == nil {
					schemas["with the Document"] = compileSchemaBytes(t, "doc.schema.json", b.Bytes())
				}
			}
			checkValid(t, schemas, src, tt.ok)
		})
	}
}

// TestSchemaOpenScenes: entities take names the schema does not know
// (with values) exactly when the scene declares a component or includes
// a file the schema was not made with.
func TestSchemaOpenScenes(t *testing.T) {
	reg := newTestRegistry(t)
	doc, err := scenefile.ReadYAML("s.yaml", []byte("components: {hp: {type: int}}\ninclude: [common.yaml]\n"), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	schemas := []*jsonschema.Schema{compileJSONSchema(t, reg, nil), compileJSONSchema(t, reg, doc)}
	for _, tt := range []struct {
		head string
		open [2]bool // without, with the Document
	}{
		{"", [2]bool{false, false}},
		{"components: {}\n", [2]bool{false, false}},
		{"components:\n", [2]bool{false, false}},
		{"include: []\n", [2]bool{false, false}},
		{"components: {hp: {type: int}}\n", [2]bool{true, false}},
		{"components: {hp: {type: int}, mp: {type: int}}\n", [2]bool{true, true}},
		{"include: common.yaml\n", [2]bool{true, false}},
		{"include: [common.yaml]\n", [2]bool{true, false}},
		{"include: [common.yaml, more.yaml]\n", [2]bool{true, true}},
		{"include: other.yaml\n", [2]bool{true, true}},
	} {
		// boss, unknown to both schemas, with a value: only an open
		// scene takes it.
		src := tt.head + "entities: [{boss: 1}]\nmixins: {m: {boss: 1}}\n"
		for i, s := range schemas {
			errs, _ := validateYAML(t, s, []byte(src))
			if got := len(errs) == 0; got != tt.open[i] {
				t.Errorf("%q (schema %d): open = %v, want %v; errors: %v", src, i, got, tt.open[i], errs)
			} else if !got && len(errs) != 2 {
				t.Errorf("%q (schema %d): errors %v, want one per boss", src, i, errs)
			}
		}
	}
}

// jsonKeywords walks a JSON Schema and calls f with each keyword and the
// path to it.
func jsonKeywords(s any, path string, f func(path, key string, v any)) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	for k, v := range m {
		p := path + "/" + k
		f(path, k, v)
		switch k {
		case "$defs", "properties", "patternProperties":
			for name, sub := range v.(map[string]any) {
				jsonKeywords(sub, p+"/"+name, f)
			}
		case "anyOf":
			for i, sub := range v.([]any) {
				jsonKeywords(sub, fmt.Sprintf("%s/%d", p, i), f)
			}
		case "items", "additionalProperties", "propertyNames", "if", "then", "else", "not", "contains":
			jsonKeywords(v, p, f)
		}
	}
}

// TestSchemaDraft07Keywords: the schema uses only keywords that draft-07
// (the YAML language server's draft) reads as 2020-12 does, and no $ref
// with siblings (draft-07 ignores them), so editors check what this
// package's tests check.
func TestSchemaDraft07Keywords(t *testing.T) {
	doc, err := scenefile.ReadYAML("s.yaml", []byte("components: {hp: {type: int}}\ninclude: common.yaml\n"), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteJSONSchema(&b, newRichRegistry(t), doc); err != nil {
		t.Fatal(err)
	}
	var root any
	if err := json.Unmarshal(b.Bytes(), &root); err != nil {
		t.Fatal(err)
	}
	allowed := strings.Fields(`$schema $defs $ref title description default errorMessage patternErrorMessage
		type enum anyOf not if then else properties patternProperties additionalProperties propertyNames
		required minProperties maxProperties items contains minItems pattern minLength maxLength minimum maximum`)
	seen := map[string]bool{}
	jsonKeywords(root, "#", func(path, k string, v any) {
		seen[k] = true
		if !slices.Contains(allowed, k) {
			t.Errorf("%s: keyword %q", path, k)
		}
		if k == "$ref" && len(lookupPath(root, path)) > 1 {
			t.Errorf("%s: $ref with siblings", path)
		}
		if k == "items" {
			if _, ok := v.(map[string]any); !ok {
				t.Errorf("%s: items is not one schema", path)
			}
		}
	})
	for _, k := range []string{"if", "not", "contains", "pattern", "patternErrorMessage", "errorMessage"} {
		if !seen[k] {
			t.Errorf("the walk never met %q: is it still walking the whole schema?", k)
		}
	}
}

// lookupPath returns the schema object at a path made by jsonKeywords.
func lookupPath(root any, path string) map[string]any {
	cur := root
	for _, part := range strings.Split(strings.TrimPrefix(path, "#"), "/")[1:] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[part]
		case []any:
			i, _ := strconv.Atoi(part)
			cur = c[i]
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// TestSchemaCustomComponents: what the built-ins do not have, against
// the loader: oneOf enums, bounds and hyphen-case names in mappings and
// attribute strings, name__ID instances, a single-property component of
// a Go type, a registered tag.
func TestSchemaCustomComponents(t *testing.T) {
	type walker struct {
		Mode  string `scene:"mode,oneOf=walk|run"`
		MaxHp int    `scene:",min=0,max=10"`
		Tags  []string
		Picks []string `scene:"picks,oneOf=x|y"`
	}
	type speed float64
	reg := newTestRegistry(t)
	if _, err := registry.Register(reg, "walker", registry.Definition[walker]{Multiple: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(reg, "speed", registry.Definition[speed]{}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(reg, "marker", registry.Definition[struct{}]{}); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register(reg, "tagz", registry.Definition[[]string]{}); err != nil {
		t.Fatal(err)
	}
	s := compileJSONSchema(t, reg, nil)
	for _, tt := range []struct {
		src string
		ok  bool
	}{
		{"entities: [{walker: {mode: run, maxHp: 3, tags: 'a, b'}}]", true},
		{"entities: [{walker: {max-hp: 10}}]", true},
		{"entities: [{walker: 'mode: run; max-hp: 10; tags: a'}]", true},
		{"entities: [{walker__left: {mode: walk}, walker__right: 'mode: run'}]", true},
		{"entities: [{speed: 2.5, marker: }]", true},
		{"entities: [{marker: ''}]", true},
		{"entities: [{marker: {}}]", true},
		{"entities: [{walker: {mode: fly}}]", false},
		{"entities: [{walker__left: {mode: fly}}]", false},
		{"entities: [{walker: {maxHp: 11}}]", false},
		{"entities: [{walker: {max-hp: -1}}]", false},
		{"entities: [{walker: 'mode: run; maxhp: 1'}]", false},
		{"entities: [{walker__left: 'mod: run'}]", false},
		{"entities: [{speed: fast}]", false},
		{"entities: [{marker: x}]", false},
		{"entities: [{marker: {a: 1}}]", false},
		// Arrays written as lists, A-Frame's text or a list of scalars.
		{"entities: [{walker: {tags: [a, 'b c', 3, true], picks: [x, y]}, tagz: [p, q]}]", true},
		{"entities: [{walker: {tags: [], picks: 'x, y'}, tagz: []}]", true},
		{"entities: [{walker: {tags: [a, 'b,c']}}]", false},
		{"entities: [{walker: {tags: [' a']}}]", false},
		{"entities: [{walker: {tags: [a, [b]]}}]", false},
		{"entities: [{walker: {picks: [x, z]}}]", false},
		{"entities: [{walker: {mode: [run]}}]", false},
		{"entities: [{speed: [1]}]", false},
	} {
		if err := compileYAML(reg, "s.yaml", []byte(tt.src)); (err == nil) != tt.ok {
			t.Fatalf("%s: loader says %v, want ok = %v (test case out of date?)", tt.src, err, tt.ok)
		}
		errs, _ := validateYAML(t, s, []byte(tt.src))
		if got := len(errs) == 0; got != tt.ok {
			t.Errorf("%s: valid = %v, want %v; errors: %v", tt.src, got, tt.ok, errs)
		}
	}
}

// checkValid checks that the YAML scene src is valid against each of the
// schemas (named by how they were made) exactly when ok.
func checkValid(t *testing.T, schemas map[string]*jsonschema.Schema, src []byte, ok bool) {
	t.Helper()
	for what, s := range schemas {
		errs, _ := validateYAML(t, s, src)
		if got := len(errs) == 0; got != ok {
			t.Errorf("%s: valid = %v, want %v; errors: %v", what, got, ok, errs)
		}
	}
}
