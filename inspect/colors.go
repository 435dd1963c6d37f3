package inspect

import (
	"encoding/binary"
	"net/http"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// GET /api/colors gives each entity's colour, packed, for a 3D view that
// draws entities in their own colours:
//
//	GET /api/colors[?selector=S]
//
// The entities are those of GET /api/transforms with the same selector
// (default [position]), in the same order. An entity's colour is its
// "color" component, or else the first "color" property of type color
// among its components (a material's colour, say), in registration
// order. The body is little-endian: a 16-byte header (uint32 entity
// count, uint32 bytes per entity = 4, uint64 World structural version),
// then r, g, b, a (bytes) per entity; an entity without a colour is
// 0 0 0 0, so a client draws every fully transparent colour in its own
// default. X-Sources names the components looked at (color,material.color).

// colorSource is a component property that gives an entity's colour.
type colorSource struct {
	name string // component name, for X-Sources
	id   ecs.ID
	comp *registry.Component
	prop int
}

// colorSources lists the properties that give colours, the color
// component first.
func (in *Inspector) colorSources() []colorSource {
	var out []colorSource
	for _, c := range in.reg.Components() {
		for i := range c.Schema.Props {
			p := &c.Schema.Props[i]
			if p.Type.GoType != typeColor {
				continue
			}
			switch {
			case c.Name == "color" && c.Schema.Single():
				out = append([]colorSource{{name: c.Name, id: c.ID, comp: c, prop: i}}, out...)
			case p.Name == "color" && !c.Multiple:
				out = append(out, colorSource{name: c.Name + "." + p.Name, id: c.ID, comp: c, prop: i})
			}
		}
	}
	return out
}

// getColors: GET /api/colors[?selector=S].
func (in *Inspector) getColors(w http.ResponseWriter, r *http.Request) {
	sel := r.URL.Query().Get("selector")
	if sel == "" {
		sel = "[position]"
	}
	in.do(w, r, func() reply {
		es, err := in.query(sel)
		if err != nil {
			return selectorReply(err)
		}
		srcs := in.colorSources()
		buf := make([]byte, 16+4*len(es))
		binary.LittleEndian.PutUint32(buf[0:], uint32(len(es)))
		binary.LittleEndian.PutUint32(buf[4:], 4)
		binary.LittleEndian.PutUint64(buf[8:], in.w.Version())
		out := buf[16:]
		for i, e := range es {
			for _, s := range srcs {
				if !in.w.Has(e, s.id) {
					continue
				}
				vs, err := in.reg.Values(e, s.comp.Name)
				if err != nil || s.prop >= len(vs) {
					continue
				}
				if c, ok := vs[s.prop].(registry.Color); ok {
					out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = c.R, c.G, c.B, c.A
					break
				}
			}
		}
		names := make([]string, len(srcs))
		for i, s := range srcs {
			names[i] = s.name
		}
		h := in.versionHeader()
		h["X-Sources"] = strings.Join(names, ",")
		return reply{status: http.StatusOK, raw: buf, ctype: "application/octet-stream", header: h}
	})
}
