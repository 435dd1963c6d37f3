package loader

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
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
// An entity with a transform also has "world": {"position": {...},
// "rotation": {...}, "scale": {...}}, its world transform (the read-only
// world component), which readers ignore.
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

// DumpEntity is one entity of a JSON dump.
type DumpEntity struct {
	ID         string                     `json:"id,omitempty"`
	Path       string                     `json:"path"`
	Parent     *string                    `json:"parent"`
	Class      []string                   `json:"class"`
	Components map[string]json.RawMessage `json:"components"`
	// World is the entity's world transform (position, rotation and
	// scale in world space, as the world component holds them), nil if
	// it has none. It is written for information: ReadJSON ignores it.
	World json.RawMessage `json:"world,omitempty"`
	order []string
	depth int // WriteJSON: depth below the dump's top-level entities, -1 for none
}

// EntityPath returns the path that names e in dumps and query output: its
// id if it has one, else its parent's path (or nothing, for a root)
// followed by its 0-based index among its siblings, joined by "/".
func EntityPath(reg *registry.Registry, e ecs.Entity) string {
	if id := reg.EntityID(e); id != "" {
		return id
	}
	w := reg.World()
	idx := strconv.Itoa(w.ChildIndex(e))
	if p, ok := w.Parent(e); ok {
		return EntityPath(reg, p) + "/" + idx
	}
	return idx
}

// DumpEntities returns the dump form of the given entities.
func DumpEntities(reg *registry.Registry, es []ecs.Entity) []*DumpEntity {
	out := make([]*DumpEntity, 0, len(es))
	w := reg.World()
	for _, e := range es {
		d := &DumpEntity{ID: reg.EntityID(e), Path: EntityPath(reg, e), Class: reg.Classes(e), Components: map[string]json.RawMessage{}, depth: -1}
		if d.Class == nil {
			d.Class = []string{}
		}
		if p, ok := w.Parent(e); ok {
			s := EntityPath(reg, p)
			d.Parent = &s
		}
		for _, name := range reg.EntityComponents(e) {
			c, _ := reg.Component(name)
			vs, err := reg.Values(e, name)
			if err != nil {
				continue
			}
			if components.IsWorld(c) {
				d.World = componentJSON(c.Schema, vs)
				continue
			}
			d.Components[name] = componentJSON(c.Schema, vs)
			d.order = append(d.order, name)
		}
		out = append(out, d)
	}
	return out
}

// MarshalJSON writes the entity with its components in component order.
func (d *DumpEntity) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if d.ID != "" {
		fmt.Fprintf(&b, `"id":%s,`, jsonString(d.ID))
	}
	fmt.Fprintf(&b, `"path":%s,"parent":`, jsonString(d.Path))
	if d.Parent == nil {
		b.WriteString("null")
	} else {
		b.WriteString(jsonString(*d.Parent))
	}
	if d.depth >= 0 {
		fmt.Fprintf(&b, `,"depth":%d`, d.depth)
	}
	cls, _ := json.Marshal(d.Class)
	fmt.Fprintf(&b, `,"class":%s,"components":{`, cls)
	order := d.order
	if order == nil {
		for k := range d.Components {
			order = append(order, k)
		}
	}
	for i, name := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%s", jsonString(name), d.Components[name])
	}
	b.WriteByte('}')
	if d.World != nil {
		fmt.Fprintf(&b, `,"world":%s`, d.World)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func jsonString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

func componentJSON(s *registry.Schema, vs []any) json.RawMessage {
	if s.IsTag() {
		return json.RawMessage("{}")
	}
	if s.Single() {
		return valueJSON(&s.Props[0], vs[0])
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range s.Props {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%s", jsonString(s.Props[i].Name), valueJSON(&s.Props[i], vs[i]))
	}
	b.WriteByte('}')
	return b.Bytes()
}

func jsonNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return jsonString(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func valueJSON(p *registry.Property, v any) json.RawMessage {
	switch x := v.(type) {
	case float64:
		return json.RawMessage(jsonNumber(x))
	case int:
		return json.RawMessage(strconv.Itoa(x))
	case bool:
		return json.RawMessage(strconv.FormatBool(x))
	case string:
		return json.RawMessage(jsonString(x))
	case registry.Vec2:
		return json.RawMessage(fmt.Sprintf(`{"x":%s,"y":%s}`, jsonNumber(x.X), jsonNumber(x.Y)))
	case registry.Vec3:
		return json.RawMessage(fmt.Sprintf(`{"x":%s,"y":%s,"z":%s}`, jsonNumber(x.X), jsonNumber(x.Y), jsonNumber(x.Z)))
	case registry.Vec4:
		return json.RawMessage(fmt.Sprintf(`{"x":%s,"y":%s,"z":%s,"w":%s}`, jsonNumber(x.X), jsonNumber(x.Y), jsonNumber(x.Z), jsonNumber(x.W)))
	case []string:
		b, _ := json.Marshal(x)
		return b
	case time.Duration:
		return json.RawMessage(jsonString(x.String()))
	}
	return json.RawMessage(jsonString(p.Type.Print(v)))
}

// WriteJSON writes the whole scene (or the subtree of opt.Root) as a JSON
// dump.
func WriteJSON(out interface{ Write([]byte) (int, error) }, reg *registry.Registry, opt ExportOptions) error {
	var es []ecs.Entity
	w := reg.World()
	if opt.Root.IsZero() {
		for e := range w.All() {
			es = append(es, e)
		}
	} else if w.Alive(opt.Root) {
		es = append(es, opt.Root)
		for d := range w.Descendants(opt.Root) {
			es = append(es, d)
		}
	}
	doc := Export(reg, ExportOptions{Root: opt.Root})
	var b bytes.Buffer
	b.WriteString("{")
	if len(doc.Scene) > 0 {
		b.WriteString(`"scene":{`)
		for i, c := range doc.Scene {
			if i > 0 {
				b.WriteByte(',')
			}
			if c.Kind == ValueMap {
				fmt.Fprintf(&b, "%s:{", jsonString(c.Name))
				for j, kv := range c.Map {
					if j > 0 {
						b.WriteByte(',')
					}
					fmt.Fprintf(&b, "%s:%s", jsonString(kv.Key), jsonString(kv.Value))
				}
				b.WriteByte('}')
				continue
			}
			fmt.Fprintf(&b, "%s:%s", jsonString(c.Name), jsonString(c.Text))
		}
		b.WriteString("},")
	}
	if len(doc.Decls) > 0 {
		b.WriteString(`"components":{`)
		for i, d := range doc.Decls {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%s:", jsonString(d.Name))
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
					fmt.Fprintf(&b, "%s:%s", jsonString(p.Name), propDeclJSON(p))
				}
				b.WriteByte('}')
			}
		}
		b.WriteString("},")
	}
	b.WriteString(`"entities":[`)
	// Each entity's depth below the dump's top-level ones tells the reader
	// its parent unambiguously: paths are not unique, as an id may look
	// like the path of an entity without one.
	depth := make(map[ecs.Entity]int, len(es))
	for i, d := range DumpEntities(reg, es) {
		d.depth = 0
		if p, ok := w.Parent(es[i]); ok && i > 0 {
			if pd, ok := depth[p]; ok {
				d.depth = pd + 1
			}
		}
		depth[es[i]] = d.depth
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		j, _ := d.MarshalJSON()
		b.Write(j)
	}
	b.WriteString("\n]}\n")
	_, err := out.Write(b.Bytes())
	return err
}

func propDeclJSON(p *PropDecl) string {
	parts := []string{`"type":` + jsonString(p.Type)}
	if p.HasDefault {
		parts = append(parts, `"default":`+jsonString(p.Default))
	}
	if len(p.OneOf) > 0 {
		b, _ := json.Marshal(p.OneOf)
		parts = append(parts, `"oneOf":`+string(b))
	}
	if p.Min != nil {
		parts = append(parts, `"min":`+jsonNumber(*p.Min))
	}
	if p.Max != nil {
		parts = append(parts, `"max":`+jsonNumber(*p.Max))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// ReadJSON reads a JSON dump back into a scene Document, with positions.
// Entities are nested by their "depth" (or, in dumps without it, by their
// "parent" paths).
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

// maxJSONNesting bounds the nesting of JSON arrays and objects (a dump
// needs five levels).
const maxJSONNesting = 1000

// jsonReader reads a JSON dump in one pass over the input, without
// encoding/json: it needs the position of every value, and it reads the
// entities one at a time into a small tree that is reused for the next,
// so that memory stays proportional to the Document it builds. Component
// values, system settings and declarations are converted by a yamlReader,
// as they are spelt as in YAML.
type jsonReader struct {
	y     *yamlReader // conversions shared with YAML, and the error sink
	data  []byte
	s     string
	i     int
	line  int // line of offset i, 1-based
	lineI int // offset of the start of that line
	col   int // column of offset colI on that line (characters)
	colI  int
	depth int
	nodes arena[ynode]
	ptrs  arena[*ynode]
	stack []*ynode // items of the collections being parsed
	err   *Error   // the syntax error, which ends the read

	chain  []jsonAncestor     // the entity being read and its ancestors, by depth
	byPath map[string]*Entity // entities by path, for dumps without depths
}

// jsonAncestor is an entity of the current chain with its dump path.
type jsonAncestor struct {
	e    *Entity
	path string
}

func readJSON(file string, data []byte, lim Limits, errs *errorSink) *Document {
	y := &yamlReader{file: file, data: data, lim: lim, errs: errs, n: lim.usedEntities,
		src: &source{file: file, data: data, yaml: true}}
	j := &jsonReader{y: y, data: data, s: string(data), line: 1}
	j.i = bomLen(data)
	j.lineI, j.colI, j.col = j.i, j.i, 1
	mark := len(errs.list)
	doc := &Document{File: file, Files: []string{file}}
	j.document(doc)
	if j.err != nil {
		// A syntax error makes the rest meaningless: report only it.
		errs.list, errs.full = errs.list[:mark], false
		errs.add(j.err.Pos, "%s", j.err.Msg)
		return nil
	}
	doc.nEntities = y.n - lim.usedEntities
	return doc
}

// document reads the top-level object, section by section.
func (j *jsonReader) document(doc *Document) {
	j.space()
	if j.i >= len(j.data) {
		j.fail(j.i, "unexpected end of JSON input")
		return
	}
	if j.data[j.i] != '{' {
		at := j.pos(j.i)
		if j.value(); j.err == nil {
			j.space()
			if j.i < len(j.data) {
				j.failChar("after top-level value")
				return
			}
			j.y.errs.add(at, "a dump must be a JSON object")
		}
		return
	}
	doc.Pos = j.pos(j.i)
	y := j.y
	seen := map[string]Pos{}
	j.object(func(k *ynode) bool {
		if first, dup := seen[k.value]; dup {
			y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.value, first)
			j.discard()
			return true
		}
		seen[k.value] = y.pos(k)
		if k.value == "entities" && j.peek() == '[' {
			j.entities(doc)
			return true
		}
		m1, m2 := j.nodes.mark(), j.ptrs.mark()
		v := j.value()
		if j.err != nil {
			return false
		}
		switch k.value {
		case "scene":
			y.each(v, "scene", func(k, v *ynode) {
				if c := y.component(k, v, "system"); c != nil {
					doc.Scene = append(doc.Scene, c)
				}
			})
		case "components":
			y.each(v, "components", func(k, v *ynode) {
				if d := y.decl(k, v); d != nil {
					doc.Decls = append(doc.Decls, d)
				}
			})
		case "entities":
			y.errs.add(y.pos(v), "entities must be an array of entities, not %s", kindName(v))
		default:
			y.errs.add(y.pos(k), "unknown top-level key %q (want scene, components or entities)", k.value)
		}
		j.nodes.reset(m1)
		j.ptrs.reset(m2)
		return true
	})
	if j.err != nil {
		return
	}
	j.space()
	if j.i < len(j.data) {
		j.failChar("after top-level value")
	}
}

// discard reads a value and forgets it.
func (j *jsonReader) discard() {
	m1, m2 := j.nodes.mark(), j.ptrs.mark()
	j.value()
	j.nodes.reset(m1)
	j.ptrs.reset(m2)
}

// entities reads the entity array, one entity at a time.
func (j *jsonReader) entities(doc *Document) {
	y := j.y
	j.i++ // '['
	j.depth++
	defer func() { j.depth-- }()
	j.space()
	if j.peek() == ']' {
		j.i++
		return
	}
	for j.err == nil {
		m1, m2 := j.nodes.mark(), j.ptrs.mark()
		it := j.value()
		if j.err != nil {
			return
		}
		if !y.stop && !y.errs.full {
			j.entity(doc, it)
		}
		j.nodes.reset(m1)
		j.ptrs.reset(m2)
		j.space()
		switch j.peek() {
		case ',':
			j.i++
			j.space()
		case ']':
			j.i++
			return
		default:
			j.failChar("after array element")
			return
		}
	}
}

// entity converts one entity of the dump and places it in the tree.
func (j *jsonReader) entity(doc *Document, n *ynode) {
	y := j.y
	if n.kind != kMapping {
		y.errs.add(y.pos(n), "entity must be an object, not %s", kindName(n))
		return
	}
	y.n++
	if y.n > y.lim.MaxEntities {
		y.errs.add(y.pos(n), "too many entities (limit %d)", y.lim.MaxEntities)
		y.stop = true
		return
	}
	e := y.newEntity()
	e.Pos, e.File = y.pos(n), y.file
	var path, parent string
	var parentPos Pos
	hasParent, depth := false, -1
	y.pairs(n, func(k, v *ynode) {
		switch k.value {
		case "id":
			e.IDPos = y.pos(v)
			if s, ok := y.scalar(v, "id"); ok {
				if !validID(s) {
					y.errs.add(e.IDPos, "%s", idMsg("entity id", s))
				} else {
					e.ID = s
				}
			}
		case "path":
			if s, ok := y.scalar(v, "path"); ok {
				path = s
			}
		case "parent":
			if !isNull(v) {
				if s, ok := y.scalar(v, "parent"); ok {
					parent, parentPos, hasParent = s, y.pos(v), true
				}
			}
		case "depth":
			d, err := strconv.Atoi(v.value)
			if v.kind != kScalar || v.exact || err != nil || d < 0 {
				y.errs.add(y.pos(v), "depth must be a whole number >= 0")
				return
			}
			depth = d
		case "class":
			e.Class = y.names(v, "class")
		case "components":
			y.each(v, "components", func(k, v *ynode) {
				if c := j.component(k, v); c != nil {
					e.Components = append(e.Components, c)
				}
			})
		case "world":
			// The world transform the dump writes for information: it
			// is computed from the components, not read.
		default:
			y.errs.add(y.pos(k), "unknown entity key %q (want id, path, parent, depth, class, components or world)", k.value)
		}
	})
	if path == "" {
		path = e.ID
	}
	// Find the parent: by depth when the dump gives it (a path can be
	// ambiguous: an entity with id "0" and the first unnamed top-level
	// entity both have the path "0"), else by path among the ancestors
	// of the previous entity, innermost first, then among all earlier
	// entities.
	var p *Entity
	switch {
	case depth >= 0:
		if depth > len(j.chain) {
			y.errs.add(e.Pos, "depth %d: the entity before it is at depth %d", depth, len(j.chain)-1)
			return
		}
		j.chain = j.chain[:depth]
		if depth > 0 {
			a := j.chain[depth-1]
			if hasParent && parent != a.path {
				y.errs.add(parentPos, "parent %q is not the entity at depth %d before it (%q)", parent, depth-1, a.path)
				return
			}
			p = a.e
		}
	case hasParent:
		k := len(j.chain) - 1
		for k >= 0 && j.chain[k].path != parent {
			k--
		}
		if k >= 0 {
			j.chain = j.chain[:k+1]
			p = j.chain[k].e
		} else if p = j.byPath[parent]; p != nil {
			j.chain = append(j.chain[:0], jsonAncestor{p, parent})
		} else {
			y.errs.add(parentPos, "parent %q is not an earlier entity", parent)
			return
		}
	default:
		j.chain = j.chain[:0]
	}
	if len(j.chain) >= y.lim.MaxDepth {
		y.errs.add(e.Pos, "entities nested too deeply (limit %d)", y.lim.MaxDepth)
		return
	}
	if p == nil {
		doc.Entities = append(doc.Entities, e)
	} else {
		p.Children = append(p.Children, e)
	}
	j.chain = append(j.chain, jsonAncestor{e, path})
	if depth < 0 && path != "" {
		if j.byPath == nil {
			j.byPath = map[string]*Entity{}
		}
		j.byPath[path] = e // after finding the parent: never itself
	}
}

// component converts one component of a dumped entity: an object of
// properties (or of the axes of a vector), a bare value, or {} for a tag.
func (j *jsonReader) component(k, v *ynode) *Component {
	y := j.y
	if !validName(k.value, true) {
		y.errs.add(y.pos(k), "%s", nameMsg("component", k.value))
		return nil
	}
	c := y.newComponent()
	c.Name, c.Pos, c.ValuePos, c.src = k.value, y.pos(k), y.pos(v), y.src
	switch v.kind {
	case kMapping:
		if len(v.content) == 0 {
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
		c.Map = cutSlab(&y.kvps, len(v.content)/2)
		kvs := cutSlab(&y.kvs, len(v.content)/2)
		y.pairs(v, func(pk, pv *ynode) {
			kvs = append(kvs, KV{Key: pk.value, Value: jsonText(pv), Pos: y.pos(pk), ValuePos: y.pos(pv), Exact: pv.exact})
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	default:
		c.Exact = v.exact
		if t := jsonText(v); t != "" {
			c.Kind, c.Text = ValueText, t
		}
	}
	return c
}

// jsonAxes returns the values of an object {"x": n, "y": n, ...} (2 to 4
// axes, named in order, numbers) joined by spaces.
func jsonAxes(v *ynode) (string, bool) {
	n := len(v.content) / 2
	if n < 2 || n > 4 {
		return "", false
	}
	for i := range n {
		k, x := v.content[2*i], v.content[2*i+1]
		if k.value != "xyzw"[i:i+1] || x.kind != kScalar || x.exact || x.null {
			return "", false
		}
	}
	return jsonText(v), true
}

// jsonText turns a JSON value into attribute text: vectors as "x y z",
// arrays comma-separated, scalars as written.
func jsonText(v *ynode) string {
	switch v.kind {
	case kMapping:
		var parts []string
		for i := 1; i < len(v.content); i += 2 {
			parts = append(parts, v.content[i].value)
		}
		return strings.Join(parts, " ")
	case kSequence:
		var parts []string
		for _, c := range v.content {
			parts = append(parts, c.value)
		}
		return strings.Join(parts, ", ")
	}
	return v.value
}

// ---- the JSON syntax ----

// pos returns the position of offset off, which is at or after the last
// one asked for on the current line (columns are counted incrementally).
func (j *jsonReader) pos(off int) Pos {
	return Pos{File: j.y.file, Line: j.line, Col: j.colAt(off)}
}

func (j *jsonReader) colAt(off int) int {
	if off < j.colI {
		j.colI, j.col = j.lineI, 1
	}
	j.col += countChars(j.data[j.colI:off])
	j.colI = off
	return j.col
}

// fail records the syntax error at offset off and stops the read.
func (j *jsonReader) fail(off int, msg string) {
	if j.err == nil {
		x := newLineIndex(j.y.file, j.data)
		j.err = &Error{Pos: x.pos(off), Msg: "invalid JSON: " + msg}
	}
	j.i = len(j.data)
}

// failChar reports the character at j.i as unexpected (or the end).
func (j *jsonReader) failChar(context string) {
	if j.i >= len(j.data) {
		j.fail(j.i, "unexpected end of JSON input")
		return
	}
	j.fail(j.i, "invalid character "+quoteChar(j.data[j.i:])+" "+context)
}

// quoteChar quotes the character at the start of b for a message.
func quoteChar(b []byte) string {
	r, _ := utf8.DecodeRune(b)
	if r == '\'' {
		return `'\''`
	}
	if r == '"' {
		return `'"'`
	}
	q := strconv.QuoteRune(r)
	return q
}

func (j *jsonReader) peek() byte {
	if j.i < len(j.data) {
		return j.data[j.i]
	}
	return 0
}

// space skips white space, counting lines.
func (j *jsonReader) space() {
	for j.i < len(j.data) {
		switch j.data[j.i] {
		case ' ', '\t', '\r':
			j.i++
		case '\n':
			j.i++
			j.line++
			j.lineI, j.colI, j.col = j.i, j.i, 1
		default:
			return
		}
	}
}

func (j *jsonReader) node(kind uint8, off int) *ynode {
	n := j.nodes.alloc()
	n.kind = kind
	n.line, n.col = int32(j.line), int32(j.colAt(off))
	return n
}

// value reads one value at j.i (after white space) into a tree.
func (j *jsonReader) value() *ynode {
	j.space()
	if j.i >= len(j.data) {
		j.fail(j.i, "unexpected end of JSON input")
		return nil
	}
	switch c := j.data[j.i]; {
	case c == '{':
		n := j.node(kMapping, j.i)
		start := len(j.stack)
		j.object(func(k *ynode) bool {
			v := j.value()
			if j.err != nil {
				return false
			}
			j.stack = append(j.stack, k, v)
			return true
		})
		n.content = j.collect(start)
		return n
	case c == '[':
		n := j.node(kSequence, j.i)
		j.i++
		if j.depth++; j.depth > maxJSONNesting {
			j.fail(j.i-1, fmt.Sprintf("nested too deeply (limit %d)", maxJSONNesting))
			return nil
		}
		defer func() { j.depth-- }()
		start := len(j.stack)
		j.space()
		if j.peek() == ']' {
			j.i++
			return n
		}
		for j.err == nil {
			v := j.value()
			if j.err != nil {
				return nil
			}
			j.stack = append(j.stack, v)
			j.space()
			switch j.peek() {
			case ',':
				j.i++
			case ']':
				j.i++
				n.content = j.collect(start)
				return n
			default:
				j.failChar("after array element")
			}
		}
		return nil
	case c == '"':
		n := j.node(kScalar, j.i)
		n.value, n.exact = j.str()
		return n
	case c == '-' || '0' <= c && c <= '9':
		n := j.node(kScalar, j.i)
		n.value = j.number()
		return n
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(j.s[j.i:], lit) {
				n := j.node(kScalar, j.i)
				n.value, n.null = lit, lit == "null"
				if n.null {
					n.value = ""
				}
				j.i += len(lit)
				return n
			}
		}
		// Point at the first character that does not fit a literal.
		for _, lit := range [...]string{"true", "false", "null"} {
			if lit[0] == c {
				k := 1
				for k < len(lit) && j.i+k < len(j.data) && j.data[j.i+k] == lit[k] {
					k++
				}
				j.i += k
				j.failChar("in literal " + lit + " (expecting " + strconv.QuoteRune(rune(lit[k])) + ")")
				return nil
			}
		}
		j.failChar("looking for beginning of value")
		return nil
	}
}

// object reads an object at j.i ('{'), calling f with each key when the
// reader is at the value (after the ':'); f reads the value.
func (j *jsonReader) object(f func(k *ynode) bool) {
	j.i++
	if j.depth++; j.depth > maxJSONNesting {
		j.fail(j.i-1, fmt.Sprintf("nested too deeply (limit %d)", maxJSONNesting))
		return
	}
	defer func() { j.depth-- }()
	j.space()
	if j.peek() == '}' {
		j.i++
		return
	}
	for j.err == nil {
		j.space()
		if j.peek() != '"' {
			j.failChar("looking for beginning of object key string")
			return
		}
		k := j.node(kScalar, j.i)
		k.value, k.exact = j.str()
		if j.err != nil {
			return
		}
		j.space()
		if j.peek() != ':' {
			j.failChar("after object key")
			return
		}
		j.i++
		j.space()
		if !f(k) || j.err != nil {
			return
		}
		j.space()
		switch j.peek() {
		case ',':
			j.i++
		case '}':
			j.i++
			return
		default:
			j.failChar("after object key:value pair")
		}
	}
}

// str reads a string at j.i, returning its decoded text.
func (j *jsonReader) str() (string, bool) {
	start := j.i + 1
	k := start
	for k < len(j.data) {
		c := j.data[k]
		if c == '"' {
			j.i = k + 1
			if !utf8.Valid(j.data[start:k]) {
				j.i = start + firstInvalidUTF8(j.data[start:k])
				j.fail(j.i, "invalid UTF-8 in string")
				return "", true
			}
			return j.s[start:k], true
		}
		if c == '\\' || c < ' ' {
			break
		}
		k++
	}
	// Escapes or an error: decode into a buffer.
	b := []byte(j.s[start:k])
	for k < len(j.data) {
		c := j.data[k]
		switch {
		case c == '"':
			j.i = k + 1
			if !utf8.Valid(b) {
				j.i = start + firstInvalidUTF8(j.data[start:k])
				j.fail(j.i, "invalid UTF-8 in string")
				return "", true
			}
			return string(b), true
		case c < ' ':
			j.i = k
			j.failChar("in string literal")
			return "", true
		case c == '\\':
			if k+1 >= len(j.data) {
				j.i = len(j.data)
				j.fail(j.i, "unexpected end of JSON input")
				return "", true
			}
			e := j.data[k+1]
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, n := j.hex4(k + 2)
				if n < 0 {
					return "", true
				}
				k += 6
				if utf16.IsSurrogate(r) {
					if r2, n2 := j.hex4Soft(k); n2 > 0 && utf16.DecodeRune(r, r2) != utf8.RuneError {
						r = utf16.DecodeRune(r, r2)
						k += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				j.i = k + 1
				j.failChar("in string escape code")
				return "", true
			}
			k += 2
		default:
			b = append(b, c)
			k++
		}
	}
	j.i = len(j.data)
	j.fail(j.i, "unexpected end of JSON input")
	return "", true
}

// hex4 reads the four hex digits of a \u escape at offset k.
func (j *jsonReader) hex4(k int) (rune, int) {
	var r rune
	for n := range 4 {
		if k+n >= len(j.data) {
			j.i = len(j.data)
			j.fail(j.i, "unexpected end of JSON input")
			return 0, -1
		}
		d, ok := hexVal(j.data[k+n])
		if !ok {
			j.i = k + n
			j.failChar("in \\u hexadecimal character escape")
			return 0, -1
		}
		r = r<<4 | d
	}
	return r, 4
}

// hex4Soft reads "\uXXXX" at offset k if it is there, without errors.
func (j *jsonReader) hex4Soft(k int) (rune, int) {
	if k+6 > len(j.data) || j.data[k] != '\\' || j.data[k+1] != 'u' {
		return 0, -1
	}
	var r rune
	for n := range 4 {
		d, ok := hexVal(j.data[k+2+n])
		if !ok {
			return 0, -1
		}
		r = r<<4 | d
	}
	return r, 6
}

func hexVal(c byte) (rune, bool) {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0'), true
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10), true
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10), true
	}
	return 0, false
}

// firstInvalidUTF8 returns the offset of the first byte of b that is not
// valid UTF-8.
func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// number reads a number at j.i as written.
func (j *jsonReader) number() string {
	start := j.i
	k := j.i
	digits := func() bool {
		d := k
		for k < len(j.data) && '0' <= j.data[k] && j.data[k] <= '9' {
			k++
		}
		return k > d
	}
	bad := func(context string) string {
		j.i = k
		j.failChar(context)
		return ""
	}
	if j.data[k] == '-' {
		k++
	}
	if k < len(j.data) && j.data[k] == '0' {
		k++
	} else if !digits() {
		return bad("in numeric literal")
	}
	if k < len(j.data) && j.data[k] == '.' {
		k++
		if !digits() {
			return bad("after decimal point in numeric literal")
		}
	}
	if k < len(j.data) && (j.data[k] == 'e' || j.data[k] == 'E') {
		k++
		if k < len(j.data) && (j.data[k] == '+' || j.data[k] == '-') {
			k++
		}
		if !digits() {
			return bad("in exponent of numeric literal")
		}
	}
	j.i = k
	return j.s[start:k]
}

// collect returns the nodes pushed on j.stack since start, in a slice cut
// from the arena, and pops them.
func (j *jsonReader) collect(start int) []*ynode {
	k := len(j.stack) - start
	if k == 0 {
		return nil
	}
	out := j.ptrs.slice(k)
	copy(out, j.stack[start:])
	clear(j.stack[start:])
	j.stack = j.stack[:start]
	return out
}
