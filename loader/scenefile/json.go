package scenefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/jsonsyntax"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
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
// objects, arrays as arrays (read as lists), a tag as {}. "scene" (system settings as attribute strings) and
// "components" (declarations, as in YAML) appear when not empty.

// The JSON vocabulary: the keys of a dump, written once here for the
// reader and the writer (DumpEntity's field tags, for encoding/json,
// repeat the entity keys: Go takes no constants there). Sections,
// declarations and classes are spelt as in YAML.
const (
	JSONScene      = YAMLScene
	JSONComponents = YAMLComponents // declarations, spelt as in YAML
	JSONEntities   = YAMLEntities

	JSONID               = YAMLID // the keys of an entity
	JSONPath             = "path"
	JSONParent           = "parent"
	JSONDepth            = "depth"
	JSONClass            = YAMLClass
	JSONEntityComponents = "components" // an entity's component values
	JSONPrefab           = YAMLPrefab   // the prefab an entity instantiates
	JSONPart             = "part"       // a part's name inside its instance's prefab

	JSONPrefabs  = YAMLPrefabs  // the prefabs section, bodies spelt as below
	JSONMixin    = YAMLMixin    // the keys of a prefab body beside id, class, prefab
	JSONParts    = YAMLParts    // and components (attribute strings, as in YAML)
	JSONChildren = YAMLChildren //
)

var (
	// jsonTopKeys are the keys of a dump's top-level object.
	jsonTopKeys = []string{JSONScene, JSONComponents, JSONPrefabs, JSONEntities}
	// jsonEntityKeys are the keys of an entity of a dump.
	jsonEntityKeys = []string{JSONID, JSONPath, JSONParent, JSONDepth, JSONClass, JSONPrefab, JSONPart, JSONParts, JSONEntityComponents}
	// jsonBodyKeys are the keys of a prefab's body (or a part's).
	jsonBodyKeys = []string{JSONID, JSONPrefab, JSONClass, JSONMixin, JSONEntityComponents, JSONParts, JSONChildren}
)

func jsonString(s string) string { return string(AppendJSONString(nil, s)) }

// AppendJSONString appends s as encoding/json writes it: quoted, with
// the same escapes (HTML characters included).
func AppendJSONString(b []byte, s string) []byte {
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

func jsonNumber(f float64) string { return string(AppendJSONNumber(nil, f)) }

// AppendJSONNumber appends f as a JSON dump writes numbers, or for an
// infinity or NaN its name as a string (JSON has no number for them).
func AppendJSONNumber(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return AppendJSONString(b, strconv.FormatFloat(f, 'g', -1, 64))
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// WriteJSONHead writes what a JSON dump writes before its entities: "{"
// and the sections "scene" (doc's system settings), "components" (its
// declarations) and "prefabs", each only when doc has some, each
// followed by a comma. The "entities" section, a World's values, is
// written by package export.
func WriteJSONHead(b *bytes.Buffer, doc *Document) {
	b.WriteString("{")
	if len(doc.Systems) > 0 {
		writeJSONSettings(b, doc.Systems)
	}
	if len(doc.Decls) > 0 {
		writeJSONDecls(b, doc.Decls)
	}
	writeJSONPrefabs(b, doc.Prefabs)
}

// writeJSONSettings writes the "scene" section: system settings as
// attribute strings (or objects of exact property values).
func writeJSONSettings(b *bytes.Buffer, scene []*ComponentSpec) {
	b.WriteString(`"` + JSONScene + `":{`)
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
				fmt.Fprintf(b, "%s:%s", jsonString(kv.Key), jsonListOr(kv.List, kv.Value))
			}
			b.WriteByte('}')
			continue
		}
		fmt.Fprintf(b, "%s:%s", jsonString(c.Name), jsonListOr(c.List, c.Text))
	}
	b.WriteString("},")
}

// jsonListOr writes l as a JSON array of strings, or text as a JSON
// string if l is nil.
func jsonListOr(l *ListValue, text string) string {
	if l == nil {
		return jsonString(text)
	}
	b := []byte{'['}
	for i := range l.Items {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, l.Items[i].Text)
	}
	return string(append(b, ']'))
}

// writeJSONDecls writes the "components" section: the declarations, as
// YAML spells them.
func writeJSONDecls(b *bytes.Buffer, decls []*Decl) {
	b.WriteString(`"` + JSONComponents + `":{`)
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
	parts := []string{jsonString(YAMLType) + ":" + jsonString(p.Type)}
	if p.HasDefault {
		parts = append(parts, jsonString(YAMLDefault)+":"+jsonListOr(p.DefaultList, p.Default))
	}
	if len(p.OneOf) > 0 {
		b, _ := json.Marshal(p.OneOf)
		parts = append(parts, jsonString(YAMLOneOf)+":"+string(b))
	}
	if p.Min != nil {
		parts = append(parts, jsonString(YAMLMin)+":"+jsonNumber(*p.Min))
	}
	if p.Max != nil {
		parts = append(parts, jsonString(YAMLMax)+":"+jsonNumber(*p.Max))
	}
	if p.OnDelete != "" {
		parts = append(parts, jsonString(YAMLOnDelete)+":"+jsonString(p.OnDelete))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// writeJSONPrefabs writes the "prefabs" section: each prefab's body as
// an object (see jsonBodyKeys), component values as attribute strings or
// objects of exact values, as in the "scene" section.
func writeJSONPrefabs(b *bytes.Buffer, ps []*PrefabSpec) {
	if len(ps) == 0 {
		return
	}
	b.WriteString(`"` + JSONPrefabs + `":{`)
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  " + jsonString(p.Name) + ":")
		writeJSONBody(b, p.Body)
	}
	b.WriteString("},")
}

// writeJSONBody writes an entity of a prefab's body (or a part's body)
// as a JSON object.
func writeJSONBody(b *bytes.Buffer, e *EntitySpec) {
	var fields []string
	if e.ID != "" {
		fields = append(fields, jsonString(JSONID)+":"+jsonString(e.ID))
	}
	if e.Prefab() != "" {
		fields = append(fields, jsonString(JSONPrefab)+":"+jsonString(e.Prefab()))
	}
	if len(e.Class) > 0 {
		cls, _ := json.Marshal(e.Class)
		fields = append(fields, jsonString(JSONClass)+":"+string(cls))
	}
	if len(e.Components) > 0 {
		var cb bytes.Buffer
		writeJSONSettings(&cb, e.Components) // `"scene":{...},`: re-keyed below
		body := strings.TrimSuffix(strings.TrimPrefix(cb.String(), `"`+JSONScene+`":`), ",")
		fields = append(fields, jsonString(JSONEntityComponents)+":"+body)
	}
	if len(e.Parts()) > 0 {
		var pb bytes.Buffer
		pb.WriteString(jsonString(JSONParts) + ":{")
		for i, p := range e.Parts() {
			if i > 0 {
				pb.WriteByte(',')
			}
			pb.WriteString(jsonString(p.Path) + ":")
			if p.Removed {
				pb.WriteString(jsonString(YAMLRemoved))
				continue
			}
			writeJSONBody(&pb, p.Body)
		}
		pb.WriteByte('}')
		fields = append(fields, pb.String())
	}
	if len(e.Children) > 0 {
		var cb bytes.Buffer
		cb.WriteString(jsonString(JSONChildren) + ":[")
		for i, ch := range e.Children {
			if i > 0 {
				cb.WriteByte(',')
			}
			writeJSONBody(&cb, ch)
		}
		cb.WriteByte(']')
		fields = append(fields, cb.String())
	}
	b.WriteString("{" + strings.Join(fields, ",") + "}")
}

// ReadJSON reads a JSON dump back into a scene [Document], with
// positions. Entities are nested by their "depth" (or, in dumps without
// it, by their "parent" paths).
func ReadJSON(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.WithDefaults()
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
	c := &ComponentSpec{Name: k.Value, src: j.y.src, key: nodeSpan(k)}
	if !c.key.ok() {
		c.SetPos(j.y.pos(k), Pos{})
	}
	j.doc.Computed = append(j.doc.Computed, c)
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
		src: &Source{file: file, data: data, format: FormatJSON}}
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
	return true, k.Value == JSONEntities
}

// Pair converts a section of the dump other than an array of entities.
func (j *jsonReader) Pair(k, v *yamlsyntax.Node) {
	y, doc := j.y, j.doc
	switch k.Value {
	case JSONScene:
		y.each(v, JSONScene, func(k, v *yamlsyntax.Node) {
			if c := y.component(k, v, "system"); c != nil {
				doc.Systems = append(doc.Systems, c)
			}
		})
	case JSONComponents:
		y.each(v, JSONComponents, func(k, v *yamlsyntax.Node) {
			if d := y.decl(k, v); d != nil {
				doc.Decls = append(doc.Decls, d)
			}
		})
	case JSONPrefabs:
		y.each(v, JSONPrefabs, func(k, v *yamlsyntax.Node) {
			if !validID(k.Value) {
				y.errs.add(y.pos(k), "%s", idMsg("prefab name", k.Value))
				return
			}
			if e := j.body(v, 1); e != nil {
				doc.Prefabs = append(doc.Prefabs, &PrefabSpec{Name: k.Value, Pos: y.pos(k), Body: e})
			}
		})
	case JSONEntities:
		y.errs.add(y.pos(v), "%s must be an array of entities, not %s", JSONEntities, kindName(v))
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
		case JSONID:
			e.IDPos = y.pos(v)
			if s, ok := y.scalar(v, JSONID); ok {
				if !validID(s) {
					y.errs.add(e.IDPos, "%s", idMsg("entity id", s))
				} else {
					e.ID = s
				}
			}
		case JSONPath:
			if s, ok := y.scalar(v, JSONPath); ok {
				de.path = s
			}
		case JSONParent:
			if !isNull(v) {
				if s, ok := y.scalar(v, JSONParent); ok {
					de.parent, de.parentPos, de.hasParent = s, y.pos(v), true
				}
			}
		case JSONDepth:
			d, err := strconv.Atoi(v.Value)
			if v.Kind != yamlsyntax.Scalar || v.Exact || err != nil || d < 0 {
				y.errs.add(y.pos(v), "%s must be a whole number >= 0", JSONDepth)
				return
			}
			de.depth = d
		case JSONClass:
			e.Class = y.names(v, JSONClass)
		case JSONPrefab:
			in := e.instance()
			in.PrefabPos = y.pos(v)
			if s, ok := y.scalar(v, JSONPrefab); ok {
				in.Prefab = s
			}
		case JSONPart:
			if s, ok := y.scalar(v, JSONPart); ok {
				de.part, de.partPos = s, y.pos(v)
			}
		case JSONEntityComponents:
			y.each(v, JSONEntityComponents, func(k, v *yamlsyntax.Node) {
				if c := j.component(k, v); c != nil {
					e.Components = append(e.Components, c)
				}
			})
		case JSONParts:
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
	y.each(v, JSONParts, func(k, v *yamlsyntax.Node) {
		p := &PartSpec{Path: k.Value, PathPos: y.pos(k)}
		switch {
		case partPathProblem(k.Value) != "":
			y.errs.add(y.pos(k), "%s", partPathProblem(k.Value))
		case v.Kind != yamlsyntax.Scalar:
			y.errs.add(y.pos(v), "part %q: an entity of a dump lists in %q only the parts it does not have (%q); a part's changes are written on its own entity, with %q", k.Value, JSONParts, YAMLRemoved, JSONPart)
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
		y.errs.add(de.e.Pos, "%s %d: the entity before it is at %s %d", JSONDepth, depth, JSONDepth, len(j.chain)-1)
		return nil, false
	}
	j.chain = j.chain[:depth]
	if depth == 0 {
		return nil, true
	}
	a := j.chain[depth-1]
	if de.hasParent && de.parent != a.path {
		y.errs.add(de.parentPos, "parent %q is not the entity at %s %d before it (%q)", de.parent, JSONDepth, depth-1, a.path)
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
	y.place(c, k, v)
	c.Name = k.Value
	switch v.Kind {
	case yamlsyntax.Mapping:
		if len(v.Content) == 0 {
			return c
		}
		if text, ok := jsonAxes(v); ok {
			// A vector: kept as its text, not as a mapping of one entry
			// per axis (a dump has many); compile turns it back into
			// properties x, y, z, w for a component that has them.
			c.Kind, c.Text, c.Axes = ValueText, text, true
			return c
		}
		c.Kind = ValueMap
		c.Map = cutSlab(&y.kvps, len(v.Content)/2)
		kvs := cutSlab(&y.kvs, len(v.Content)/2)
		y.pairs(v, func(pk, pv *yamlsyntax.Node) {
			kv := KV{Key: pk.Value, Value: jsonText(pv), Exact: pv.Exact}
			if pv.Kind == yamlsyntax.Sequence {
				l, ok := y.list(pv, fmt.Sprintf("property %q of component %q", pk.Value, k.Value))
				if !ok {
					return
				}
				l.Implied = true // a dump's entities write every array so
				kv.Value, kv.Exact, kv.List = l.Text(), true, l
			}
			kvs = append(kvs, kv)
			y.placeKV(&kvs[len(kvs)-1], pk, pv)
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	case yamlsyntax.Sequence:
		l, ok := y.list(v, fmt.Sprintf("value of component %q", k.Value))
		if !ok {
			return nil
		}
		l.Implied = true
		c.Kind, c.Text, c.Exact, c.List = ValueText, l.Text(), true, l
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
	if n < 2 || n > len(AxisNames) {
		return "", false
	}
	for i := range n {
		k, x := v.Content[2*i], v.Content[2*i+1]
		if k.Value != AxisNames[i:i+1] || x.Kind != yamlsyntax.Scalar || x.Exact || x.Null {
			return "", false
		}
	}
	return jsonText(v), true
}

// jsonText turns a JSON value into attribute text: vectors as "x y z",
// scalars as written (arrays are read as lists).
func jsonText(v *yamlsyntax.Node) string {
	if v.Kind == yamlsyntax.Mapping {
		var parts []string
		for i := 1; i < len(v.Content); i += 2 {
			parts = append(parts, v.Content[i].Value)
		}
		return strings.Join(parts, " ")
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
	case JSONID, JSONPrefab:
		s, ok := y.scalar(v, k.Value)
		if !ok {
			return
		}
		if !validID(s) {
			y.errs.add(y.pos(v), "%s", idMsg(k.Value, s))
		} else if k.Value == JSONID {
			e.ID, e.IDPos = s, y.pos(v)
		} else {
			in := e.instance()
			in.Prefab, in.PrefabPos = s, y.pos(v)
		}
	case JSONClass:
		e.Class = y.names(v, JSONClass)
	case JSONMixin:
		e.MixinPos, e.Mixins = y.pos(v), y.names(v, JSONMixin)
	case JSONEntityComponents:
		y.each(v, JSONEntityComponents, func(k, v *yamlsyntax.Node) {
			if c := y.component(k, v, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		})
	case JSONParts:
		y.each(v, JSONParts, func(k, v *yamlsyntax.Node) {
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
	case JSONChildren:
		if v.Kind != yamlsyntax.Sequence {
			y.errs.add(y.pos(v), "%s must be an array, not %s", JSONChildren, kindName(v))
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
