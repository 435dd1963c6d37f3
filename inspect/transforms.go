package inspect

import (
	"encoding/binary"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// GET /api/transforms serves numeric component values packed for a 3D
// view: no JSON object per entity, one float32 array.
//
//	GET /api/transforms?components=world,color[&selector=S]
//
// components lists single-property components, comp.prop, or
// multi-property components all of whose properties are numeric (each
// property in turn), of type number, int, time, vec2, vec3, vec4 or
// color; the default is world (the world transforms: position, rotation,
// scale, nine floats) when the built-in world component is registered,
// else position. selector picks the entities (default: those with the
// first component).
// The body is little-endian: a 16-byte header (uint32 entity count,
// uint32 floats per entity, uint64 World structural version), then per
// entity, in document order, the values of each component in turn
// (vectors by axis, colors as r g b a in 0..1), NaN where the entity lacks
// the component. The order is the one GET /api/query?selector=S returns;
// its "version" tells a client when to fetch the references again.

// maxTransformColumns bounds the components of one request.
const maxTransformColumns = 16

// column is one component read by getTransforms.
type column struct {
	name string
	id   ecs.ID
	off  uintptr
	kind reflect.Type
	n    int
}

var (
	typeFloat = reflect.TypeFor[float64]()
	typeInt   = reflect.TypeFor[int]()
	typeVec2  = reflect.TypeFor[registry.Vec2]()
	typeVec3  = reflect.TypeFor[registry.Vec3]()
	typeVec4  = reflect.TypeFor[registry.Vec4]()
	typeColor = reflect.TypeFor[registry.Color]()
)

// widths are the floats per value of the types getTransforms reads.
var widths = map[reflect.Type]int{typeFloat: 1, typeInt: 1, typeVec2: 2, typeVec3: 3, typeVec4: 4, typeColor: 4}

func (in *Inspector) getTransforms(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	list := q.Get("components")
	names := strings.Split(list, ",")
	if len(names) > maxTransformColumns {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: at most %d components", maxTransformColumns))
		return
	}
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	sel := q.Get("selector")
	in.do(w, r, func() reply {
		if list == "" {
			names = []string{in.defaultTransforms()}
		}
		if sel == "" {
			base, _, _ := strings.Cut(names[0], ".")
			sel = "[" + base + "]"
		}
		cols := make([]column, 0, len(names))
		stride := 0
		layout := make([]string, 0, len(names))
		for _, name := range names {
			cs, err := in.columns(name)
			if err != nil {
				return errReply(http.StatusBadRequest, "inspect: "+err.Error())
			}
			if len(cols)+len(cs) > 4*maxTransformColumns {
				return errReply(http.StatusBadRequest, fmt.Sprintf("inspect: at most %d values per entity", 4*maxTransformColumns))
			}
			for _, c := range cs {
				cols = append(cols, c)
				stride += c.n
				layout = append(layout, c.name+":"+strconv.Itoa(c.n))
			}
		}
		es, err := in.query(sel)
		if err != nil {
			return selectorReply(err)
		}
		buf := make([]byte, 16+4*stride*len(es))
		binary.LittleEndian.PutUint32(buf[0:], uint32(len(es)))
		binary.LittleEndian.PutUint32(buf[4:], uint32(stride))
		binary.LittleEndian.PutUint64(buf[8:], in.w.Version())
		out := buf[16:]
		nan := math.Float32bits(float32(math.NaN()))
		put := func(f float64) {
			binary.LittleEndian.PutUint32(out, math.Float32bits(float32(f)))
			out = out[4:]
		}
		for _, e := range es {
			for _, c := range cols {
				if !in.w.Has(e, c.id) {
					for range c.n {
						binary.LittleEndian.PutUint32(out, nan)
						out = out[4:]
					}
					continue
				}
				p, err := in.w.GetPtr(e, c.id)
				if err != nil {
					return errReply(http.StatusInternalServerError, "inspect: "+err.Error())
				}
				p = unsafe.Add(p, c.off)
				switch c.kind {
				case typeFloat:
					put(*(*float64)(p))
				case typeInt:
					put(float64(*(*int)(p)))
				case typeVec2:
					v := (*registry.Vec2)(p)
					put(v.X)
					put(v.Y)
				case typeVec3:
					v := (*registry.Vec3)(p)
					put(v.X)
					put(v.Y)
					put(v.Z)
				case typeVec4:
					v := (*registry.Vec4)(p)
					put(v.X)
					put(v.Y)
					put(v.Z)
					put(v.W)
				case typeColor:
					v := (*registry.Color)(p)
					put(float64(v.R) / 255)
					put(float64(v.G) / 255)
					put(float64(v.B) / 255)
					put(float64(v.A) / 255)
				}
			}
		}
		h := in.versionHeader()
		h["X-Layout"] = strings.Join(layout, ",")
		return reply{status: http.StatusOK, raw: buf, ctype: "application/octet-stream", header: h}
	})
}

// columns resolves a name of the components list: a multi-property
// component gives one column per property (all must be numeric), any
// other name the one column of column.
func (in *Inspector) columns(spec string) ([]column, error) {
	if !strings.Contains(spec, ".") {
		if c, ok := in.reg.Component(spec); ok && !c.Schema.Single() && !c.Schema.IsTag() {
			var out []column
			for _, p := range c.Schema.Props {
				col, err := in.column(spec + "." + p.Name)
				if err != nil {
					return nil, err
				}
				out = append(out, col)
			}
			return out, nil
		}
	}
	c, err := in.column(spec)
	if err != nil {
		return nil, err
	}
	return []column{c}, nil
}

// column resolves "comp" (a single-property component) or "comp.prop".
func (in *Inspector) column(spec string) (column, error) {
	name, prop, hasProp := strings.Cut(spec, ".")
	c, ok := in.reg.Component(name)
	var id ecs.ID
	if ok {
		id, ok = c.ExistingID(name)
	}
	if !ok {
		if c == nil {
			_, _, err := in.reg.Lookup(name)
			if err == nil {
				err = fmt.Errorf("unknown component %q", name)
			}
			return column{}, err
		}
		// An instance never used: no entity has it.
		var err error
		if _, id, err = in.reg.Lookup(name); err != nil {
			return column{}, err
		}
	}
	idx := 0
	switch {
	case hasProp:
		i, ok := c.Schema.Lookup(prop)
		if !ok {
			return column{}, fmt.Errorf("component %q has no property %q", name, prop)
		}
		idx = i
	case !c.Schema.Single():
		return column{}, fmt.Errorf("component %q has several properties: name one (%s.PROP)", name, name)
	}
	p := &c.Schema.Props[idx]
	n, ok := widths[p.Type.GoType]
	if !ok || p.FieldType == nil || p.FieldType.Size() != p.Type.GoType.Size() {
		return column{}, fmt.Errorf("%s is of type %s: only number, int, vec2, vec3, vec4 and color values can be packed", spec, p.Type.Name)
	}
	return column{name: spec, id: id, off: p.Offset, kind: p.Type.GoType, n: n}, nil
}
