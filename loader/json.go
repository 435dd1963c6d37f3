package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/internal/jsonsyntax"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
	"github.com/scenecs/scenecs/registry"
)

// JSON dumps
//
// The JSON spelling of a scene is the dump format of scene-run:
//
//	{"scene": {...}, "components": {...},
//	 "entities": [{"id": "player", "path": "player", "parent": null,
//	               "depth": 0, "class": ["hero"],
//	               "components": {"position": {"x": 0, "y": 1, "z": -5},
//	                              "health": {"hp": 100, "max": 100},
//	                              "enemy": {}}}, ...]}
//
// After "components", an entity has the values of its read-only
// components that their owners compute, each under its name, written
// for information and not read back: an entity with a transform has
// "world": {"position": {...}, "rotation": {...}, "scale": {...}}, its
// world transform. (The prefab marker, also read-only, is "prefab".)
//
// Entities come in document order; "parent" is the parent's path or null,
// "depth" the entity's depth below the dump's top-level entities, which
// places it unambiguously (paths are not unique: an id can look like the
// path of an entity without one).
// Component values are computed (mixins and defaults applied): a
// multi-property component as an object of its properties, a
// single-property one as its bare value, vectors as {"x", "y", "z", "w"}
// objects, a tag as {}. "scene" (system settings as attribute strings) and
// "components" (declarations, as in YAML) appear when not empty.

// The JSON vocabulary: the keys of a dump, written once here for the
// reader and the writer (DumpEntity's field tags, for encoding/json,
// repeat the entity keys: Go takes no constants there). Sections,
// declarations and classes are spelt as in YAML.
const (
	jsonScene      = yamlScene
	jsonComponents = yamlComponents // declarations, spelt as in YAML
	jsonEntities   = yamlEntities

	jsonID               = yamlID // the keys of an entity
	jsonPath             = "path"
	jsonParent           = "parent"
	jsonDepth            = "depth"
	jsonClass            = yamlClass
	jsonEntityComponents = "components" // an entity's component values
	jsonPrefab           = yamlPrefab   // the prefab an entity instantiates
	jsonPart             = "part"       // a part's name inside its instance's prefab

	jsonPrefabs  = yamlPrefabs  // the prefabs section, bodies spelt as below
	jsonMixin    = yamlMixin    // the keys of a prefab body beside id, class, prefab
	jsonParts    = yamlParts    // and components (attribute strings, as in YAML)
	jsonChildren = yamlChildren //
)

var (
	// jsonTopKeys are the keys of a dump's top-level object.
	jsonTopKeys = []string{jsonScene, jsonComponents, jsonPrefabs, jsonEntities}
	// jsonEntityKeys are the keys of an entity of a dump.
	jsonEntityKeys = []string{jsonID, jsonPath, jsonParent, jsonDepth, jsonClass, jsonPrefab, jsonPart, jsonParts, jsonEntityComponents}
	// jsonBodyKeys are the keys of a prefab's body (or a part's).
	jsonBodyKeys = []string{jsonID, jsonPrefab, jsonClass, jsonMixin, jsonEntityComponents, jsonParts, jsonChildren}
)

// DumpEntity is one entity of a JSON dump.
type DumpEntity struct {
	ID     string   `json:"id,omitempty"`
	Path   string   `json:"path"`
	Parent *string  `json:"parent"`
	Class  []string `json:"class"`
	// Prefab is the prefab the entity is an instance of; Part its name
	// inside the prefab of the instance it is a part of.
	Prefab string `json:"prefab,omitempty"`
	Part   string `json:"part,omitempty"`
	// Removed are the paths of the parts of its prefab an instance
	// does not have (destroyed at run time), written "parts":
	// {"path": "removed"}.
	Removed    []string                   `json:"-"`
	Components map[string]json.RawMessage `json:"components"`
	// Computed are the values of its read-only components (but the
	// prefab marker, which is Prefab) by name: values their owners
	// compute, such as the world transform ("world": position, rotation
	// and scale in world space). They are written after Components,
	// each under its name, for information: ReadJSON does not read them
	// back.
	Computed map[string]json.RawMessage `json:"-"`
	order    []string
	computed []string // the names of Computed in component order
	depth    int      // WriteJSON: depth below the dump's top-level entities, -1 for none
}

// DumpEntities returns the dump form of the given entities.
func DumpEntities(reg *registry.Registry, es []ecs.Entity) []*DumpEntity {
	c := NewDumpCapture(reg, es)
	c.Capture(time.Time{})
	return c.Entities()
}

// dumpEntity returns e's dump form without its component values.
func dumpEntity(reg *registry.Registry, names *Namer, e ecs.Entity) *DumpEntity {
	d := &DumpEntity{ID: reg.EntityID(e), Path: names.Path(e), Class: reg.Classes(e), depth: -1,
		Prefab: reg.PrefabOf(e), Part: reg.PartKey(e)}
	if d.Class == nil {
		d.Class = []string{}
	}
	if p, ok := reg.World().Parent(e); ok {
		s := names.Path(p)
		d.Parent = &s
	}
	return d
}

// capturedComponent is one component value of an entity, copied for a
// dump: its values are formatted later, without the Registry.
type capturedComponent struct {
	name     string
	schema   *registry.Schema
	vs       []any
	computed bool // a read-only component, written apart (see DumpEntity.Computed)
}

// captureComponents copies e's component values (the prefab marker left
// out: dumps write it as "prefab").
func captureComponents(reg *registry.Registry, e ecs.Entity) []capturedComponent {
	names := reg.EntityComponents(e)
	out := make([]capturedComponent, 0, len(names))
	for _, name := range names {
		c, _ := reg.Component(name)
		vs, err := reg.Values(e, name)
		if err != nil || reg.IsPrefabMarker(c) {
			continue
		}
		out = append(out, capturedComponent{name: name, schema: c.Schema, vs: vs, computed: c.ReadOnly()})
	}
	return out
}

// fill formats the captured component values into d.
func (d *DumpEntity) fill(cs []capturedComponent) {
	d.Components, d.order, d.Computed, d.computed = make(map[string]json.RawMessage, len(cs)), nil, nil, nil
	for _, c := range cs {
		if c.computed {
			if d.Computed == nil {
				d.Computed = map[string]json.RawMessage{}
			}
			d.Computed[c.name] = componentJSON(c.schema, c.vs)
			d.computed = append(d.computed, c.name)
			continue
		}
		d.Components[c.name] = componentJSON(c.schema, c.vs)
		d.order = append(d.order, c.name)
	}
}

// MarshalJSON writes the entity with its components in component order.
func (d *DumpEntity) MarshalJSON() ([]byte, error) {
	b := d.appendHead(nil)
	order := d.order
	if order == nil {
		for k := range d.Components {
			order = append(order, k)
		}
	}
	for i, name := range order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, name)
		b = append(b, ':')
		b = append(b, d.Components[name]...)
	}
	b = append(b, '}')
	computed := d.computed
	if computed == nil {
		for k := range d.Computed {
			computed = append(computed, k)
		}
		sort.Strings(computed)
	}
	for _, name := range computed {
		b = appendComputed(b, name, d.Computed[name])
	}
	return append(b, '}'), nil
}

// appendHead appends the entity's object up to its components' opening
// brace: id, path, parent, depth, class, prefab, part, removed parts.
func (d *DumpEntity) appendHead(b []byte) []byte {
	b = append(b, '{')
	if d.ID != "" {
		b = append(b, `"`+jsonID+`":`...)
		b = append(appendJSONString(b, d.ID), ',')
	}
	b = append(b, `"`+jsonPath+`":`...)
	b = appendJSONString(b, d.Path)
	b = append(b, `,"`+jsonParent+`":`...)
	if d.Parent == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *d.Parent)
	}
	if d.depth >= 0 {
		b = append(b, `,"`+jsonDepth+`":`...)
		b = strconv.AppendInt(b, int64(d.depth), 10)
	}
	b = append(b, `,"`+jsonClass+`":`...)
	if d.Class == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range d.Class {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, c)
		}
		b = append(b, ']')
	}
	if d.Prefab != "" {
		b = append(b, `,"`+jsonPrefab+`":`...)
		b = appendJSONString(b, d.Prefab)
	}
	if d.Part != "" {
		b = append(b, `,"`+jsonPart+`":`...)
		b = appendJSONString(b, d.Part)
	}
	if len(d.Removed) > 0 {
		b = append(b, `,"`+jsonParts+`":{`...)
		for i, p := range d.Removed {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, p)
			b = append(b, `:"`+yamlRemoved+`"`...)
		}
		b = append(b, '}')
	}
	return append(b, `,"`+jsonEntityComponents+`":{`...)
}

// appendComputed appends the value of the read-only component name
// after an entity's components (see DumpEntity.Computed).
func appendComputed(b []byte, name string, value []byte) []byte {
	b = append(b, ',')
	b = appendJSONString(b, name)
	b = append(b, ':')
	return append(b, value...)
}

func jsonString(s string) string { return string(appendJSONString(nil, s)) }

// appendJSONString appends s as encoding/json writes it: quoted, with
// the same escapes (HTML characters included).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func componentJSON(s *registry.Schema, vs []any) json.RawMessage {
	return appendComponentJSON(nil, s, vs)
}

// appendComponentJSON appends a component's value: an object of its
// properties, a single property's bare value, {} for a tag.
func appendComponentJSON(b []byte, s *registry.Schema, vs []any) []byte {
	if s.IsTag() {
		return append(b, "{}"...)
	}
	if s.Single() {
		return appendValueJSON(b, &s.Props[0], vs[0])
	}
	b = append(b, '{')
	for i := range s.Props {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s.Props[i].Name)
		b = append(b, ':')
		b = appendValueJSON(b, &s.Props[i], vs[i])
	}
	return append(b, '}')
}

func jsonNumber(f float64) string { return string(appendJSONNumber(nil, f)) }

// appendJSONNumber appends f, or for an infinity or NaN its name as a
// string (JSON has no number for them).
func appendJSONNumber(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return appendJSONString(b, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// appendValueJSON appends one property's value.
func appendValueJSON(b []byte, p *registry.Property, v any) []byte {
	switch x := v.(type) {
	case float64:
		return appendJSONNumber(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return appendJSONString(b, x)
	case registry.Vec2:
		return appendJSONVector(b, x.X, x.Y)
	case registry.Vec3:
		return appendJSONVector(b, x.X, x.Y, x.Z)
	case registry.Vec4:
		return appendJSONVector(b, x.X, x.Y, x.Z, x.W)
	case []string:
		m, _ := json.Marshal(x)
		return append(b, m...)
	case time.Duration:
		return appendJSONString(b, x.String())
	}
	return appendJSONString(b, p.Type.Print(v))
}

// appendJSONVector appends a vector as an object of its axes,
// {"x":1,"y":2}.
func appendJSONVector(b []byte, vs ...float64) []byte {
	b = append(b, '{')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"', axes[i], '"', ':')
		b = appendJSONNumber(b, v)
	}
	return append(b, '}')
}

// WriteJSON writes the whole scene (or the subtree of opt.Root) as a JSON
// dump.
func WriteJSON(out interface{ Write([]byte) (int, error) }, reg *registry.Registry, opt ExportOptions) error {
	c := NewJSONCapture(reg, opt)
	c.Capture(time.Time{})
	_, err := c.WriteTo(writerFunc(out.Write))
	return err
}

// writerFunc is an io.Writer made of a Write method.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// dumpedEntities returns the entities a dump holds, in document order:
// all of the World's, or root's subtree if root is not zero.
func dumpedEntities(reg *registry.Registry, root ecs.Entity) []ecs.Entity {
	var es []ecs.Entity
	w := reg.World()
	if root.IsZero() {
		for e := range w.All() {
			es = append(es, e)
		}
	} else if w.Alive(root) {
		es = append(es, root)
		for d := range w.Descendants(root) {
			es = append(es, d)
		}
	}
	return es
}

// writeJSONSettings writes the "scene" section: system settings as
// attribute strings (or objects of exact property values).
func writeJSONSettings(b *bytes.Buffer, scene []*ComponentSpec) {
	b.WriteString(`"` + jsonScene + `":{`)
	for i, c := range scene {
		if i > 0 {
			b.WriteByte(',')
		}
		if c.Kind == ValueMap {
			fmt.Fprintf(b, "%s:{", jsonString(c.Name))
			for j, kv := range c.Map {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(b, "%s:%s", jsonString(kv.Key), jsonString(kv.Value))
			}
			b.WriteByte('}')
			continue
		}
		fmt.Fprintf(b, "%s:%s", jsonString(c.Name), jsonString(c.Text))
	}
	b.WriteString("},")
}

// writeJSONDecls writes the "components" section: the declarations, as
// YAML spells them.
func writeJSONDecls(b *bytes.Buffer, decls []*Decl) {
	b.WriteString(`"` + jsonComponents + `":{`)
	for i, d := range decls {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(b, "%s:", jsonString(d.Name))
		switch {
		case len(d.Props) == 0:
			b.WriteString("{}")
		case d.Single:
			b.WriteString(propDeclJSON(d.Props[0]))
		default:
			b.WriteByte('{')
			for j, p := range d.Props {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(b, "%s:%s", jsonString(p.Name), propDeclJSON(p))
			}
			b.WriteByte('}')
		}
	}
	b.WriteString("},")
}

// propDeclJSON writes a property declaration as a JSON object.
func propDeclJSON(p *PropDecl) string {
	parts := []string{jsonString(yamlType) + ":" + jsonString(p.Type)}
	if p.HasDefault {
		parts = append(parts, jsonString(yamlDefault)+":"+jsonString(p.Default))
	}
	if len(p.OneOf) > 0 {
		b, _ := json.Marshal(p.OneOf)
		parts = append(parts, jsonString(yamlOneOf)+":"+string(b))
	}
	if p.Min != nil {
		parts = append(parts, jsonString(yamlMin)+":"+jsonNumber(*p.Min))
	}
	if p.Max != nil {
		parts = append(parts, jsonString(yamlMax)+":"+jsonNumber(*p.Max))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// ReadJSON reads a JSON dump back into a scene [Document], with
// positions. Entities are nested by their "depth" (or, in dumps without
// it, by their "parent" paths).
func ReadJSON(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	errs := &errorSink{max: lim.MaxErrors}
	var doc *Document
	if int64(len(data)) > lim.MaxBytes {
		errs.add(Pos{File: file}, "file too large: %d bytes (limit %d)", len(data), lim.MaxBytes)
	} else {
		doc = readJSON(file, data, lim, errs)
	}
	if doc != nil {
		checkUnique(doc, errs)
	}
	return finish(doc, errs)
}

// jsonReader converts a JSON dump as package jsonsyntax parses it: the
// sections of the top-level object pair by pair, and the entities one at
// a time (it is the parser's Sink), so that memory stays proportional to
// the Document it builds. Component values, system settings and
// declarations are converted by a yamlReader, as they are spelt as in
// YAML.
type jsonReader struct {
	y    *yamlReader // conversions shared with YAML, and the error sink
	doc  *Document
	seen map[string]Pos // top-level keys, for duplicates

	chain  []jsonAncestor         // the entity being read and its ancestors, by depth
	byPath map[string]*EntitySpec // entities by path, for dumps without depths
	cur    jsonEntity             // the entity being read
	// parts maps the body of each part read to its instance and path.
	parts map[*EntitySpec]jsonPartOf
	// computedSeen are the names of the read-only components read, to
	// keep one of each (see Document.Computed).
	computedSeen map[string]bool
}

// computed records the key k of an entity, the name of a read-only
// component whose value a dump writes for information, once per name.
func (j *jsonReader) computed(k *yamlsyntax.Node) {
	if j.computedSeen[k.Value] {
		return
	}
	if j.computedSeen == nil {
		j.computedSeen = map[string]bool{}
	}
	j.computedSeen[k.Value] = true
	j.doc.Computed = append(j.doc.Computed, &ComponentSpec{Name: k.Value, Pos: j.y.pos(k)})
}

// jsonPartOf is the instance a part belongs to and its path there.
type jsonPartOf struct {
	inst *EntitySpec
	path string
}

// jsonAncestor is an entity of the current chain with its dump path.
type jsonAncestor struct {
	e    *EntitySpec
	path string
}

func readJSON(file string, data []byte, lim Limits, errs *errorSink) (doc *Document) {
	defer errs.recoverStopped(&doc)
	y := &yamlReader{file: file, data: data, lim: lim, errs: errs, n: lim.usedEntities,
		src: &source{file: file, data: data, format: FormatJSON}}
	doc = &Document{File: file, Files: []string{file}}
	j := &jsonReader{y: y, doc: doc, seen: map[string]Pos{}}
	mark := len(errs.list)
	root, serr := jsonsyntax.Parse(data, j)
	if serr != nil {
		// A syntax error makes the rest meaningless: report only it.
		errs.list, errs.full = errs.list[:mark], false
		errs.add(newLineIndex(file, data).pos(serr.Off), "invalid JSON: %s", serr.Msg)
		return nil
	}
	if root.Kind != yamlsyntax.Mapping {
		errs.add(y.pos(root), "a dump must be a JSON object")
		return doc
	}
	doc.Pos = y.pos(root)
	doc.nEntities = y.n - lim.usedEntities
	return doc
}

// Key keeps the first of each top-level key, and streams the entities.
func (j *jsonReader) Key(k *yamlsyntax.Node) (keep, items bool) {
	y := j.y
	if first, dup := j.seen[k.Value]; dup {
		y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.Value, first)
		return false, false
	}
	j.seen[k.Value] = y.pos(k)
	return true, k.Value == jsonEntities
}

// Pair converts a section of the dump other than an array of entities.
func (j *jsonReader) Pair(k, v *yamlsyntax.Node) {
	y, doc := j.y, j.doc
	switch k.Value {
	case jsonScene:
		y.each(v, jsonScene, func(k, v *yamlsyntax.Node) {
			if c := y.component(k, v, "system"); c != nil {
				doc.Scene = append(doc.Scene, c)
			}
		})
	case jsonComponents:
		y.each(v, jsonComponents, func(k, v *yamlsyntax.Node) {
			if d := y.decl(k, v); d != nil {
				doc.Decls = append(doc.Decls, d)
			}
		})
	case jsonPrefabs:
		y.each(v, jsonPrefabs, func(k, v *yamlsyntax.Node) {
			if !validID(k.Value) {
				y.errs.add(y.pos(k), "%s", idMsg("prefab name", k.Value))
				return
			}
			if e := j.body(v, 1); e != nil {
				doc.Prefabs = append(doc.Prefabs, &PrefabSpec{Name: k.Value, Pos: y.pos(k), Body: e})
			}
		})
	case jsonEntities:
		y.errs.add(y.pos(v), "%s must be an array of entities, not %s", jsonEntities, kindName(v))
	default:
		y.errs.add(y.pos(k), "unknown top-level key %q (want %s)", k.Value, orList(jsonTopKeys))
	}
}

// Item converts one entity of the dump and places it in the tree.
func (j *jsonReader) Item(n *yamlsyntax.Node) {
	y := j.y
	if y.stop || y.errs.full {
		return
	}
	if n.Kind != yamlsyntax.Mapping {
		y.errs.add(y.pos(n), "entity must be an object, not %s", kindName(n))
		return
	}
	y.n++
	if y.n > y.lim.MaxEntities {
		y.errs.add(y.pos(n), "too many entities (limit %d)", y.lim.MaxEntities)
		y.stop = true
		return
	}
	if y.errs.poll() {
		y.errs.abortIfStopped() // interrupted: the caller says so
	}
	de := j.entity(n)
	if de.path == "" {
		de.path = de.e.ID
	}
	j.place(de)
}

// jsonEntity is an entity of a dump with where the dump places it.
type jsonEntity struct {
	e         *EntitySpec
	path      string
	parent    string // the parent's path, if hasParent
	parentPos Pos
	hasParent bool
	depth     int    // -1 if not given
	part      string // the part's name inside its instance's prefab
	partPos   Pos
}

// entity converts the keys of one entity of the dump.
func (j *jsonReader) entity(n *yamlsyntax.Node) *jsonEntity {
	y := j.y
	e := y.newEntity()
	e.Pos, e.File = y.pos(n), y.file
	de := &j.cur
	*de = jsonEntity{e: e, depth: -1}
	y.pairs(n, func(k, v *yamlsyntax.Node) {
		switch k.Value {
		case jsonID:
			e.IDPos = y.pos(v)
			if s, ok := y.scalar(v, jsonID); ok {
				if !validID(s) {
					y.errs.add(e.IDPos, "%s", idMsg("entity id", s))
				} else {
					e.ID = s
				}
			}
		case jsonPath:
			if s, ok := y.scalar(v, jsonPath); ok {
				de.path = s
			}
		case jsonParent:
			if !isNull(v) {
				if s, ok := y.scalar(v, jsonParent); ok {
					de.parent, de.parentPos, de.hasParent = s, y.pos(v), true
				}
			}
		case jsonDepth:
			d, err := strconv.Atoi(v.Value)
			if v.Kind != yamlsyntax.Scalar || v.Exact || err != nil || d < 0 {
				y.errs.add(y.pos(v), "%s must be a whole number >= 0", jsonDepth)
				return
			}
			de.depth = d
		case jsonClass:
			e.Class = y.names(v, jsonClass)
		case jsonPrefab:
			in := e.instance()
			in.PrefabPos = y.pos(v)
			if s, ok := y.scalar(v, jsonPrefab); ok {
				in.Prefab = s
			}
		case jsonPart:
			if s, ok := y.scalar(v, jsonPart); ok {
				de.part, de.partPos = s, y.pos(v)
			}
		case jsonEntityComponents:
			y.each(v, jsonEntityComponents, func(k, v *yamlsyntax.Node) {
				if c := j.component(k, v); c != nil {
					e.Components = append(e.Components, c)
				}
			})
		case jsonParts:
			j.removedParts(e, v)
		default:
			if v.Kind == yamlsyntax.Sequence {
				y.errs.add(y.pos(k), "unknown entity key %q (want %s, or the name of a read-only component)", k.Value, orList(jsonEntityKeys))
				return
			}
			// The value of a read-only component, written for
			// information: Compile checks the name.
			j.computed(k)
		}
	})
	return de
}

// removedParts reads the "parts" of an entity of a dump: the parts of
// its prefab the instance does not have, each "path": "removed" (its
// other parts, changed or not, are entities of the dump).
func (j *jsonReader) removedParts(e *EntitySpec, v *yamlsyntax.Node) {
	y := j.y
	y.each(v, jsonParts, func(k, v *yamlsyntax.Node) {
		p := &PartSpec{Path: k.Value, PathPos: y.pos(k)}
		switch {
		case partPathProblem(k.Value) != "":
			y.errs.add(y.pos(k), "%s", partPathProblem(k.Value))
		case v.Kind != yamlsyntax.Scalar:
			y.errs.add(y.pos(v), "part %q: an entity of a dump lists in %q only the parts it does not have (%q); a part's changes are written on its own entity, with %q", k.Value, jsonParts, yamlRemoved, jsonPart)
		case y.removedPart(p, v) != nil:
			e.instance().Parts = append(e.instance().Parts, p)
		}
	})
}

// place puts an entity in the tree. It finds the parent by depth when
// the dump gives it (a path can be ambiguous: an entity with id "0" and
// the first unnamed top-level entity both have the path "0"), else by
// path among the ancestors of the previous entity, innermost first, then
// among all earlier entities.
func (j *jsonReader) place(de *jsonEntity) {
	y, e := j.y, de.e
	var p *EntitySpec
	switch {
	case de.depth >= 0:
		var ok bool
		if p, ok = j.parentAtDepth(de); !ok {
			return
		}
	case de.hasParent:
		k := len(j.chain) - 1
		for k >= 0 && j.chain[k].path != de.parent {
			k--
		}
		if k >= 0 {
			j.chain = j.chain[:k+1]
			p = j.chain[k].e
		} else if p = j.byPath[de.parent]; p != nil {
			j.chain = append(j.chain[:0], jsonAncestor{p, de.parent})
		} else {
			y.errs.add(de.parentPos, "parent %q is not an earlier entity", de.parent)
			return
		}
	default:
		j.chain = j.chain[:0]
	}
	if len(j.chain) >= y.lim.MaxDepth {
		y.errs.add(e.Pos, "entities nested too deeply (limit %d)", y.lim.MaxDepth)
		return
	}
	switch {
	case p == nil:
		j.doc.Entities = append(j.doc.Entities, e)
	case de.part != "" && j.asPart(p, de):
	default:
		p.Children = append(p.Children, e)
	}
	j.chain = append(j.chain, jsonAncestor{e, de.path})
	if de.depth < 0 && de.path != "" {
		if j.byPath == nil {
			j.byPath = map[string]*EntitySpec{}
		}
		j.byPath[de.path] = e // after finding the parent: never itself
	}
}

// parentAtDepth returns the parent of an entity the dump gives a depth,
// cutting the chain of ancestors to it (nil for a top-level entity), or
// false if the depth does not fit the entity before it.
func (j *jsonReader) parentAtDepth(de *jsonEntity) (*EntitySpec, bool) {
	y, depth := j.y, de.depth
	if depth > len(j.chain) {
		y.errs.add(de.e.Pos, "%s %d: the entity before it is at %s %d", jsonDepth, depth, jsonDepth, len(j.chain)-1)
		return nil, false
	}
	j.chain = j.chain[:depth]
	if depth == 0 {
		return nil, true
	}
	a := j.chain[depth-1]
	if de.hasParent && de.parent != a.path {
		y.errs.add(de.parentPos, "parent %q is not the entity at %s %d before it (%q)", de.parent, jsonDepth, depth-1, a.path)
		return nil, false
	}
	return a.e, true
}

// component converts one component of a dumped entity: an object of
// properties (or of the axes of a vector), a bare value, or {} for a tag.
func (j *jsonReader) component(k, v *yamlsyntax.Node) *ComponentSpec {
	y := j.y
	if !validName(k.Value, true) {
		y.errs.add(y.pos(k), "%s", nameMsg("component", k.Value))
		return nil
	}
	c := y.newComponent()
	c.Name, c.Pos, c.ValuePos, c.src = k.Value, y.pos(k), y.pos(v), y.src
	c.key, c.val = nodeSpan(k), nodeSpan(v)
	switch v.Kind {
	case yamlsyntax.Mapping:
		if len(v.Content) == 0 {
			return c
		}
		if text, ok := jsonAxes(v); ok {
			// A vector: kept as its text, not as a mapping of one entry
			// per axis (a dump has many); compile turns it back into
			// properties x, y, z, w for a component that has them.
			c.Kind, c.Text, c.axes = ValueText, text, true
			return c
		}
		c.Kind = ValueMap
		c.Map = cutSlab(&y.kvps, len(v.Content)/2)
		kvs := cutSlab(&y.kvs, len(v.Content)/2)
		y.pairs(v, func(pk, pv *yamlsyntax.Node) {
			kvs = append(kvs, KV{Key: pk.Value, Value: jsonText(pv), Pos: y.pos(pk), ValuePos: y.pos(pv), Exact: pv.Exact,
				key: nodeSpan(pk), val: nodeSpan(pv)})
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	default:
		c.Exact = v.Exact
		if t := jsonText(v); t != "" {
			c.Kind, c.Text = ValueText, t
		}
	}
	return c
}

// jsonAxes returns the values of an object {"x": n, "y": n, ...} (2 to 4
// axes, named in order, numbers) joined by spaces.
func jsonAxes(v *yamlsyntax.Node) (string, bool) {
	n := len(v.Content) / 2
	if n < 2 || n > len(axes) {
		return "", false
	}
	for i := range n {
		k, x := v.Content[2*i], v.Content[2*i+1]
		if k.Value != axes[i:i+1] || x.Kind != yamlsyntax.Scalar || x.Exact || x.Null {
			return "", false
		}
	}
	return jsonText(v), true
}

// jsonText turns a JSON value into attribute text: vectors as "x y z",
// arrays comma-separated, scalars as written.
func jsonText(v *yamlsyntax.Node) string {
	switch v.Kind {
	case yamlsyntax.Mapping:
		var parts []string
		for i := 1; i < len(v.Content); i += 2 {
			parts = append(parts, v.Content[i].Value)
		}
		return strings.Join(parts, " ")
	case yamlsyntax.Sequence:
		var parts []string
		for _, c := range v.Content {
			parts = append(parts, c.Value)
		}
		return strings.Join(parts, ", ")
	}
	return v.Value
}

// asPart makes the entity de, whose parent is p, a part of p's instance
// (p itself, or the instance p is a part of), and reports whether it
// did: a "part" under an entity that is neither is read as a child.
// The part's "prefab" (a nested instance's) and "id" (the instance's id
// and its key) say nothing new and are dropped.
func (j *jsonReader) asPart(p *EntitySpec, de *jsonEntity) bool {
	at, ok := j.parts[p]
	switch {
	case ok:
		at.path += "/" + de.part
	case p.Prefab() != "":
		at = jsonPartOf{inst: p, path: de.part}
	default:
		return false
	}
	if j.parts == nil {
		j.parts = map[*EntitySpec]jsonPartOf{}
	}
	j.parts[de.e] = at
	de.e.ID = "" // the id the instance gives
	in := at.inst.instance()
	in.Parts = append(in.Parts, &PartSpec{Path: at.path, PathPos: de.partPos, Body: de.e})
	if de.e.Instance != nil {
		// A nested instance's prefab says nothing new; the parts it
		// does not have are the instance's, below this part.
		for _, p := range de.e.Instance.Parts {
			p.Path = at.path + "/" + p.Path
			in.Parts = append(in.Parts, p)
		}
		de.e.Instance = nil
	}
	return true
}

// body reads a prefab's body (or a part's, or a child of one) at the
// given depth: an object of the keys jsonBodyKeys.
func (j *jsonReader) body(n *yamlsyntax.Node, depth int) *EntitySpec {
	y := j.y
	if n.Kind != yamlsyntax.Mapping {
		y.errs.add(y.pos(n), "a prefab's body must be an object, not %s", kindName(n))
		return nil
	}
	if depth > y.lim.MaxDepth {
		y.errs.add(y.pos(n), "entities nested too deeply (limit %d)", y.lim.MaxDepth)
		return nil
	}
	if y.n++; y.n > y.lim.MaxEntities {
		y.errs.add(y.pos(n), "too many entities (limit %d)", y.lim.MaxEntities)
		y.stop = true
		return nil
	}
	if y.errs.poll() {
		return nil // interrupted
	}
	e := y.newEntity()
	e.Pos, e.File = y.pos(n), y.file
	y.pairs(n, func(k, v *yamlsyntax.Node) { j.bodyKey(e, k, v, depth) })
	return e
}

// bodyKey reads one key of a prefab's body.
func (j *jsonReader) bodyKey(e *EntitySpec, k, v *yamlsyntax.Node, depth int) {
	y := j.y
	switch k.Value {
	case jsonID, jsonPrefab:
		s, ok := y.scalar(v, k.Value)
		if !ok {
			return
		}
		if !validID(s) {
			y.errs.add(y.pos(v), "%s", idMsg(k.Value, s))
		} else if k.Value == jsonID {
			e.ID, e.IDPos = s, y.pos(v)
		} else {
			in := e.instance()
			in.Prefab, in.PrefabPos = s, y.pos(v)
		}
	case jsonClass:
		e.Class = y.names(v, jsonClass)
	case jsonMixin:
		e.MixinPos, e.Mixins = y.pos(v), y.names(v, jsonMixin)
	case jsonEntityComponents:
		y.each(v, jsonEntityComponents, func(k, v *yamlsyntax.Node) {
			if c := y.component(k, v, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		})
	case jsonParts:
		y.each(v, jsonParts, func(k, v *yamlsyntax.Node) {
			p := &PartSpec{Path: k.Value, PathPos: y.pos(k)}
			switch {
			case partPathProblem(k.Value) != "":
				y.errs.add(y.pos(k), "%s", partPathProblem(k.Value))
			case v.Kind == yamlsyntax.Scalar:
				if y.removedPart(p, v) != nil {
					e.instance().Parts = append(e.instance().Parts, p)
				}
			default:
				if p.Body = j.body(v, depth+1); p.Body != nil {
					e.instance().Parts = append(e.instance().Parts, p)
				}
			}
		})
	case jsonChildren:
		if v.Kind != yamlsyntax.Sequence {
			y.errs.add(y.pos(v), "%s must be an array, not %s", jsonChildren, kindName(v))
			return
		}
		for _, it := range v.Content {
			if c := j.body(it, depth+1); c != nil {
				e.Children = append(e.Children, c)
			}
		}
	default:
		y.errs.add(y.pos(k), "unknown key %q in a prefab (want %s)", k.Value, orList(jsonBodyKeys))
	}
}
