package loader

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// JSON dumps
//
// The JSON spelling of a scene is the dump format of scene-run:
//
//	{"scene": {...}, "components": {...},
//	 "entities": [{"id": "player", "path": "player", "parent": null,
//	               "class": ["hero"],
//	               "components": {"position": {"x": 0, "y": 1, "z": -5},
//	                              "health": {"hp": 100, "max": 100},
//	                              "enemy": {}}}, ...]}
//
// Entities come in document order; "parent" is the parent's path or null.
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
	order      []string
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
		d := &DumpEntity{ID: reg.EntityID(e), Path: EntityPath(reg, e), Class: reg.Classes(e), Components: map[string]json.RawMessage{}}
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
	b.WriteString("}}")
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
	for i, d := range DumpEntities(reg, es) {
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
// Entities are nested by their "parent" paths.
func ReadJSON(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	errs := &errorSink{max: lim.MaxErrors}
	doc := readOne(file, data, lim, errs)
	if doc != nil && len(errs.list) == 0 {
		checkUnique(doc, errs)
	}
	return finish(doc, errs)
}

func readJSON(file string, data []byte, lim Limits, errs *errorSink) *Document {
	if !json.Valid(data) {
		var x any
		err := json.Unmarshal(data, &x)
		line, col := 1, 1
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := int(se.Offset)
			if off > len(data) {
				off = len(data)
			}
			pre := data[:off]
			line = 1 + bytes.Count(pre, []byte("\n"))
			col = off - bytes.LastIndexByte(pre, '\n')
		}
		errs.add(Pos{File: file, Line: line, Col: col}, "invalid JSON: %v", err)
		return nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		errs.add(Pos{File: file, Line: 1, Col: 1}, "invalid JSON: %v", err)
		return nil
	}
	doc := &Document{File: file, Files: []string{file}}
	pos := func(n *yaml.Node) Pos { return Pos{File: file, Line: n.Line, Col: n.Column} }
	if len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		errs.add(Pos{File: file, Line: 1, Col: 1}, "expected a JSON object")
		return nil
	}
	top := root.Content[0]
	doc.Pos = pos(top)
	byPath := map[string]*Entity{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "scene":
			for j := 0; j+1 < len(v.Content); j += 2 {
				doc.Scene = append(doc.Scene, &Component{Name: v.Content[j].Value, Pos: pos(v.Content[j]), ValuePos: pos(v.Content[j+1]), Kind: ValueText, Text: v.Content[j+1].Value})
			}
		case "components":
			// Declarations use the YAML spelling: reuse the YAML reader.
			sub, err := yaml.Marshal(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "components"}, v}})
			if err == nil {
				d, err := ReadYAML(file, sub, lim)
				if err != nil {
					errs.add(pos(k), "components: %v", err)
				} else {
					doc.Decls = d.Decls
				}
			}
		case "entities":
			if v.Kind != yaml.SequenceNode {
				errs.add(pos(v), "entities: expected an array")
				continue
			}
			for _, en := range v.Content {
				e := &Entity{Pos: pos(en), File: file}
				var path, parent string
				hasParent := false
				for j := 0; j+1 < len(en.Content); j += 2 {
					ek, ev := en.Content[j], en.Content[j+1]
					switch ek.Value {
					case "id":
						e.ID, e.IDPos = ev.Value, pos(ev)
					case "path":
						path = ev.Value
					case "parent":
						if ev.Tag != "!!null" {
							parent, hasParent = ev.Value, true
						}
					case "class":
						for _, c := range ev.Content {
							e.Class = append(e.Class, c.Value)
						}
					case "components":
						for ci := 0; ci+1 < len(ev.Content); ci += 2 {
							e.Components = append(e.Components, jsonComponent(ev.Content[ci], ev.Content[ci+1], pos))
						}
					default:
						errs.add(pos(ek), "unknown entity key %q", ek.Value)
					}
				}
				if path != "" {
					byPath[path] = e
				}
				if !hasParent {
					doc.Entities = append(doc.Entities, e)
				} else if p, ok := byPath[parent]; ok {
					p.Children = append(p.Children, e)
				} else {
					errs.add(e.Pos, "parent %q is not an earlier entity", parent)
				}
			}
		default:
			errs.add(pos(k), "unknown key %q", k.Value)
		}
	}
	return doc
}

func jsonComponent(k, v *yaml.Node, pos func(*yaml.Node) Pos) *Component {
	c := &Component{Name: k.Value, Pos: pos(k), ValuePos: pos(v)}
	switch v.Kind {
	case yaml.MappingNode:
		if len(v.Content) == 0 {
			c.Kind = ValueEmpty
			return c
		}
		c.Kind = ValueMap
		for i := 0; i+1 < len(v.Content); i += 2 {
			c.Map = append(c.Map, &KV{Key: v.Content[i].Value, Value: jsonText(v.Content[i+1]), Pos: pos(v.Content[i]), ValuePos: pos(v.Content[i+1])})
		}
	default:
		c.Kind = ValueText
		c.Text = jsonText(v)
	}
	return c
}

// jsonText turns a JSON value into attribute text: vectors as "x y z",
// arrays comma-separated, scalars as written.
func jsonText(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			parts = append(parts, v.Content[i+1].Value)
		}
		return strings.Join(parts, " ")
	case yaml.SequenceNode:
		var parts []string
		for _, c := range v.Content {
			parts = append(parts, c.Value)
		}
		return strings.Join(parts, ", ")
	}
	return v.Value
}
