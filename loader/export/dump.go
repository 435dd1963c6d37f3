package export

import (
	"encoding/json"
	"sort"
	"strconv"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
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
		Prefab: reg.Prefabs().Of(e), Part: reg.Prefabs().PartKey(e)}
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
		if err != nil || reg.Prefabs().IsMarker(c) {
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
		b = scenefile.AppendJSONString(b, name)
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
		b = append(b, `"`+scenefile.JSONID+`":`...)
		b = append(scenefile.AppendJSONString(b, d.ID), ',')
	}
	b = append(b, `"`+scenefile.JSONPath+`":`...)
	b = scenefile.AppendJSONString(b, d.Path)
	b = append(b, `,"`+scenefile.JSONParent+`":`...)
	if d.Parent == nil {
		b = append(b, "null"...)
	} else {
		b = scenefile.AppendJSONString(b, *d.Parent)
	}
	if d.depth >= 0 {
		b = append(b, `,"`+scenefile.JSONDepth+`":`...)
		b = strconv.AppendInt(b, int64(d.depth), 10)
	}
	b = append(b, `,"`+scenefile.JSONClass+`":`...)
	if d.Class == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, c := range d.Class {
			if i > 0 {
				b = append(b, ',')
			}
			b = scenefile.AppendJSONString(b, c)
		}
		b = append(b, ']')
	}
	if d.Prefab != "" {
		b = append(b, `,"`+scenefile.JSONPrefab+`":`...)
		b = scenefile.AppendJSONString(b, d.Prefab)
	}
	if d.Part != "" {
		b = append(b, `,"`+scenefile.JSONPart+`":`...)
		b = scenefile.AppendJSONString(b, d.Part)
	}
	if len(d.Removed) > 0 {
		b = append(b, `,"`+scenefile.JSONParts+`":{`...)
		for i, p := range d.Removed {
			if i > 0 {
				b = append(b, ',')
			}
			b = scenefile.AppendJSONString(b, p)
			b = append(b, `:"`+scenefile.YAMLRemoved+`"`...)
		}
		b = append(b, '}')
	}
	return append(b, `,"`+scenefile.JSONEntityComponents+`":{`...)
}

// appendComputed appends the value of the read-only component name
// after an entity's components (see DumpEntity.Computed).
func appendComputed(b []byte, name string, value []byte) []byte {
	b = append(b, ',')
	b = scenefile.AppendJSONString(b, name)
	b = append(b, ':')
	return append(b, value...)
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
		b = scenefile.AppendJSONString(b, s.Props[i].Name)
		b = append(b, ':')
		b = appendValueJSON(b, &s.Props[i], vs[i])
	}
	return append(b, '}')
}

// appendValueJSON appends one property's value.
func appendValueJSON(b []byte, p *registry.Property, v any) []byte {
	switch x := v.(type) {
	case float64:
		return scenefile.AppendJSONNumber(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case bool:
		return strconv.AppendBool(b, x)
	case string:
		return scenefile.AppendJSONString(b, x)
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
		return scenefile.AppendJSONString(b, x.String())
	}
	return scenefile.AppendJSONString(b, p.Type.Print(v))
}

// appendJSONVector appends a vector as an object of its axes,
// {"x":1,"y":2}.
func appendJSONVector(b []byte, vs ...float64) []byte {
	b = append(b, '{')
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"', scenefile.AxisNames[i], '"', ':')
		b = scenefile.AppendJSONNumber(b, v)
	}
	return append(b, '}')
}

// WriteJSON writes the whole scene (or the subtree of opt.Root) as a JSON
// dump.
func WriteJSON(out interface{ Write([]byte) (int, error) }, reg *registry.Registry, opt Options) error {
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
