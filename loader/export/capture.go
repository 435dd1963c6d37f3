package export

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Dumps in steps
//
// A server that answers with dumps of a running scene must not hold the
// goroutine that runs the World for the whole of a large dump (making the
// JSON of 10,000 entities takes about a hundred milliseconds, copying
// their values a few). A capture splits a dump in two: Capture copies
// the component values from the Registry, a slice of entities at a time
// (on the World's goroutine, between ticks), and formatting works on the
// copy, on any goroutine. What a capture holds of each entity is as it
// was when the entity's slice was copied: a capture made in one call is
// one moment of the World; one made over several ticks holds each
// entity as of its slice's tick, and the list of entities, their paths,
// parents and depths as of the first call (NewDumpCapture or
// NewJSONCapture). An entity destroyed before its slice was copied is
// left out, with its subtree.

// captureEvery is how many entities Capture copies between looks at the
// clock.
const captureEvery = 32

// A DumpCapture copies the dump form (DumpEntities) of a list of
// entities in steps.
type DumpCapture struct {
	reg  *registry.Registry
	es   []ecs.Entity
	ents []*DumpEntity
	vals [][]capturedComponent
	gone []bool
	next int
}

// NewDumpCapture starts a capture of es: it reads their ids, paths,
// parents, classes and prefab membership now; Capture copies their
// values.
func NewDumpCapture(reg *registry.Registry, es []ecs.Entity) *DumpCapture {
	c := &DumpCapture{reg: reg, es: es, ents: make([]*DumpEntity, len(es)),
		vals: make([][]capturedComponent, len(es)), gone: make([]bool, len(es))}
	names := NewNamer(reg)
	for i, e := range es {
		c.ents[i] = dumpEntity(reg, names, e)
	}
	return c
}

// Capture copies the values of the next entities until the clock passes
// until (at least captureEvery of them; a zero until: all of them), on
// the goroutine that runs the World. It reports whether every entity is
// copied.
func (c *DumpCapture) Capture(until time.Time) bool {
	w := c.reg.World()
	for k := 0; c.next < len(c.es); k++ {
		if k >= captureEvery && k%captureEvery == 0 && !until.IsZero() && time.Now().After(until) {
			return false
		}
		i := c.next
		c.next++
		if !w.Alive(c.es[i]) {
			c.gone[i] = true
			continue
		}
		c.vals[i] = captureComponents(c.reg, c.es[i])
	}
	c.reg = nil // done: nothing more is read from it
	return true
}

// Done reports whether Capture has copied every entity.
func (c *DumpCapture) Done() bool { return c.next == len(c.es) }

// Entities formats the copied values and returns the dump form of the
// entities, those destroyed before they were copied left out. It does
// not use the Registry: call it on any goroutine, once Capture reported
// done.
func (c *DumpCapture) Entities() []*DumpEntity {
	out := make([]*DumpEntity, 0, len(c.ents))
	for i, d := range c.ents {
		if c.gone[i] || i >= c.next {
			continue
		}
		d.fill(c.vals[i])
		out = append(out, d)
	}
	return out
}

// A JSONCapture is WriteJSON in steps: NewJSONCapture reads what the
// dump says besides the entities' values (its sections, and each
// entity's place), Capture copies the values, WriteTo writes the dump.
type JSONCapture struct {
	head []byte // "{" and the sections before the entities
	d    *DumpCapture
}

// NewJSONCapture starts a capture of the dump WriteJSON(reg, opt) would
// write, on the goroutine that runs the World.
func NewJSONCapture(reg *registry.Registry, opt Options) *JSONCapture {
	doc := exportHead(reg, Options{Root: opt.Root, Lists: opt.Lists})
	x := &exporter{reg: reg, flat: opt.Flat, lists: opt.Lists}
	if !opt.Flat {
		doc.Prefabs = x.prefabSpecs()
	}
	var b bytes.Buffer
	scenefile.WriteJSONHead(&b, doc)
	es := dumpedEntities(reg, opt.Root)
	d := NewDumpCapture(reg, es)
	// Each entity's depth below the dump's top-level ones tells the
	// reader its parent unambiguously: paths are not unique, as an id may
	// look like the path of an entity without one.
	w := reg.World()
	depth := make(map[ecs.Entity]int, len(es))
	inst := x.instancesJSON(es)
	for i, de := range d.ents {
		noPrefab, noPart, removed := inst.of(es[i])
		if noPrefab {
			de.Prefab = ""
		}
		if noPart {
			de.Part = ""
		}
		if de.Prefab != "" && de.Part == "" {
			de.Removed = removed
		}
		de.depth = 0
		if p, ok := w.Parent(es[i]); ok && i > 0 {
			if pd, ok := depth[p]; ok {
				de.depth = pd + 1
			}
		}
		depth[es[i]] = de.depth
	}
	return &JSONCapture{head: b.Bytes(), d: d}
}

// Capture copies the values of the next entities until the clock passes
// until (a zero until: all of them). It reports whether every entity is
// copied.
func (c *JSONCapture) Capture(until time.Time) bool { return c.d.Capture(until) }

// WriteTo writes the dump, the "entities" section one entity per line;
// an entity destroyed before its values were copied is left out, with
// its subtree. It does not use the Registry: call it on any goroutine,
// once Capture reported done.
func (c *JSONCapture) WriteTo(out io.Writer) (int64, error) {
	if !c.d.Done() {
		return 0, errors.New("loader: the capture is not done")
	}
	b := make([]byte, 0, len(c.head)+512*len(c.d.ents))
	b = append(b, c.head...)
	b = append(b, `"`+scenefile.JSONEntities+`":[`...)
	first, skip := true, -1 // skip: depth of a left-out entity whose subtree is skipped
	for i, de := range c.d.ents {
		if skip >= 0 && de.depth > skip {
			continue
		}
		skip = -1
		if c.d.gone[i] {
			skip = de.depth
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, "\n  "...)
		b = appendCaptured(b, de, c.d.vals[i])
	}
	b = append(b, "\n]}\n"...)
	n, err := out.Write(b)
	return int64(n), err
}

// appendCaptured appends the entity d with its captured component values,
// as d.MarshalJSON would once filled with them.
func appendCaptured(b []byte, d *DumpEntity, cs []capturedComponent) []byte {
	b = d.appendHead(b)
	n := 0
	for i := range cs {
		if cs[i].computed {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = scenefile.AppendJSONString(b, cs[i].name)
		b = append(b, ':')
		b = appendComponentJSON(b, cs[i].schema, cs[i].vs)
	}
	b = append(b, '}')
	for i := range cs {
		if cs[i].computed {
			b = append(b, ',')
			b = scenefile.AppendJSONString(b, cs[i].name)
			b = append(b, ':')
			b = appendComponentJSON(b, cs[i].schema, cs[i].vs)
		}
	}
	return append(b, '}')
}
