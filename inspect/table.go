package inspect

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// GET /api/table?selector=S[&components=a,b.prop][&offset=N][&limit=M]
// answers a selector's matches as the rows of a table: one row per
// match, in document order, with a cell per column holding the entity's
// component (its attribute string) or one property of it (printed as a
// scene file writes it), null where the entity lacks the component.
// Only the rows from offset, at most limit of them, are formatted: a
// page showing 30 rows of 10,000 matches pays for 30 (the query itself
// runs in full, as GET /api/query's does). Without components, the
// columns are the components the selector names, in the order it names
// them ([position.y<0] gives position.y).

// defaultTableLimit and maxTableLimit bound the rows of one answer.
const (
	defaultTableLimit = 100
	maxTableLimit     = 100_000
)

// tableResult is the answer of GET /api/table.
type tableResult struct {
	Selector string `json:"selector"`
	// Count is the number of matches, all of them; Rows holds those from
	// Offset on, at most the limit asked for.
	Count   int        `json:"count"`
	Version uint64     `json:"version"`
	Columns []string   `json:"columns"`
	Offset  int        `json:"offset"`
	Rows    []tableRow `json:"rows"`
}

// tableRow is one match: its reference, its handle, and a cell per
// column (nil: the entity lacks that component).
type tableRow struct {
	Ref    string    `json:"ref"`
	Handle string    `json:"handle"`
	Cells  []*string `json:"cells"`
}

// tableColumn is a column resolved against the registry: a component
// and, for "comp.prop", the index of the property (-1: the whole
// component), and for a vector's axis ("comp.prop.y", or "comp.y" for a
// single-property component) the axis's index in its printed value
// (-1: the whole value).
type tableColumn struct {
	name string
	comp *registry.Component
	prop int
	axis int
}

// axes are the names of a vector's axes, in the order they are printed.
var axes = map[string]int{"x": 0, "y": 1, "z": 2, "w": 3}

// getTable: GET /api/table.
func (in *Inspector) getTable(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sel := q.Get("selector")
	if strings.TrimSpace(sel) == "" {
		writeError(w, http.StatusBadRequest, "inspect: missing selector (GET /api/table?selector=...)")
		return
	}
	offset, ok := tableInt(w, q.Get("offset"), "offset", 0, 0, 1<<31-1)
	if !ok {
		return
	}
	limit, ok := tableInt(w, q.Get("limit"), "limit", defaultTableLimit, 0, maxTableLimit)
	if !ok {
		return
	}
	var names []string
	if c := strings.TrimSpace(q.Get("components")); c != "" {
		for _, n := range strings.Split(c, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	in.do(w, r, func() reply {
		es, err := in.query(sel)
		if err != nil {
			return selectorReply(err)
		}
		cols := names
		if cols == nil {
			cols = in.selectorColumns(sel)
		}
		resolved, err := in.tableColumns(cols)
		if err != nil {
			return errReply(http.StatusBadRequest, err.Error())
		}
		out := tableResult{Selector: sel, Count: len(es), Version: in.w.Version(), Columns: cols, Offset: offset, Rows: []tableRow{}}
		if offset < len(es) {
			page := es[offset:min(len(es), offset+limit)]
			refs := in.paths(page)
			out.Rows = make([]tableRow, len(page))
			for i, e := range page {
				out.Rows[i] = tableRow{Ref: refs[i], Handle: e.String(), Cells: in.tableCells(e, resolved)}
			}
		}
		return okReply(out)
	})
}

// tableInt reads an integer parameter between lo and hi (def when
// absent), answering 400 otherwise.
func tableInt(w http.ResponseWriter, s, name string, def, lo, hi int) (int, bool) {
	if s == "" {
		return def, true
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: %s=%q: want a number from %d to %d", name, s, lo, hi))
		return 0, false
	}
	return v, true
}

// selectorAttr finds the attribute selectors of a selector's text:
// "[name" and "[name.prop", name possibly an instance (sound__1).
var selectorAttr = regexp.MustCompile(`\[\s*([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)`)

// selectorColumns returns the components (or component.property) the
// selector names, known to the registry, in order, each once.
func (in *Inspector) selectorColumns(sel string) []string {
	cols := []string{}
	seen := map[string]bool{}
	for _, m := range selectorAttr.FindAllStringSubmatch(sel, -1) {
		name := m[1] + m[2]
		if seen[name] {
			continue
		}
		if _, err := in.tableColumns([]string{name}); err != nil {
			name = m[1] // a property path the schema lacks (world.position.x): the component
			if seen[name] {
				continue
			}
			if _, err := in.tableColumns([]string{name}); err != nil {
				continue
			}
		}
		seen[name] = true
		cols = append(cols, name)
	}
	return cols
}

// tableColumns resolves column names: "comp", "comp.prop", and a
// vector's axis, "comp.prop.y" ("comp.y" for a single-property
// component).
func (in *Inspector) tableColumns(names []string) ([]tableColumn, error) {
	out := make([]tableColumn, len(names))
	for i, n := range names {
		parts := strings.Split(n, ".")
		c, ok := in.reg.Component(parts[0])
		if !ok {
			return nil, fmt.Errorf("inspect: components: unknown component %q", parts[0])
		}
		col := tableColumn{name: parts[0], comp: c, prop: -1, axis: -1}
		rest := parts[1:]
		if len(rest) > 0 {
			if c.Schema.Single() {
				col.prop = 0
			} else {
				k, ok := c.Schema.Lookup(rest[0])
				col.prop = k
				if !ok {
					return nil, fmt.Errorf("inspect: components: %s has no property %q", parts[0], rest[0])
				}
				rest = rest[1:]
			}
		}
		if len(rest) > 0 {
			a, ok := axes[rest[0]]
			if !ok || len(rest) > 1 || a >= vectorSize(c.Schema.Props[col.prop].Type.Name) {
				return nil, fmt.Errorf("inspect: components: %q: expected an axis (x, y, z, w) of a vector after %s", n, strings.Join(parts[:len(parts)-len(rest)], "."))
			}
			col.axis = a
		}
		out[i] = col
	}
	return out, nil
}

// vectorSize returns the number of axes of a vector type (vec2, vec3,
// vec4), 0 for another type.
func vectorSize(typ string) int {
	switch typ {
	case "vec2":
		return 2
	case "vec3":
		return 3
	case "vec4":
		return 4
	}
	return 0
}

// tableCells prints e's cells.
func (in *Inspector) tableCells(e ecs.Entity, cols []tableColumn) []*string {
	cells := make([]*string, len(cols))
	for i, c := range cols {
		vs, err := in.reg.Values(e, c.name)
		if err != nil {
			continue // the entity lacks it
		}
		var s string
		switch {
		case c.prop < 0:
			s = c.comp.Schema.PrintAttr(vs)
		case c.axis < 0:
			s = c.comp.Schema.Props[c.prop].Print(vs[c.prop])
		default:
			f := strings.Fields(c.comp.Schema.Props[c.prop].Print(vs[c.prop]))
			if c.axis >= len(f) {
				continue // not printed as its axes: no cell
			}
			s = f[c.axis]
		}
		cells[i] = &s
	}
	return cells
}
