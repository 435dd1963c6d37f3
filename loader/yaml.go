package loader

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAML scenes
//
// A YAML scene is a single document whose root is a mapping with the keys
// scene, components, mixins, include and entities (all optional). See
// ReadYAML for the details.
//
// Anchors (&a), aliases (*a) and merge keys (<<) are rejected with a
// positioned error: scenes have mixins for reuse, and refusing aliases
// outright closes the door on alias bombs ("billion laughs") and alias
// cycles without a budget to tune. Custom tags (!foo) are rejected too;
// standard tags (!!str) are allowed. A file with several documents (---)
// is an error. Duplicate keys are errors wherever the reader looks.
//
// Scalars keep their source text: `scale: 2` is the text "2" and
// `visible: yes` the text "yes"; the registry parses them by property type.

// ReadYAML reads a scene written in YAML. The layout is:
//
//	scene:                  # system settings: name -> value, like a component
//	  physics: "gravity: 0 -9.8 0"
//	components:             # data-only component declarations
//	  level: {type: number, default: 1}         # a string `type` key: single-property
//	  health: {hp: {type: int, default: 100, min: 0}, max: {type: int}}
//	  enemy: {}                                 # no properties: a tag
//	  mode: {type: string, default: walk, oneOf: [walk, run]}
//	mixins:
//	  cube: {geometry: "primitive: box"}
//	  bigcube: {mixin: cube, scale: 2 2 2}    # mixins may list mixins
//	include: [other.yaml]   # or one string; resolved by ReadFile
//	entities:
//	  - id: player          # reserved keys: id, class, mixin, children
//	    class: hero tall    # space-separated string or a list
//	    mixin: cube         # likewise
//	    position: 0 1 -5    # anything else is a component: a string,
//	    enemy:              # nothing (null, "" or {}),
//	    health: {hp: 100}   # or a mapping of property -> scalar
//	    children:
//	      - position: 0.5 0 0
//
// A property declaration takes the keys type, default, oneOf (a list, or a
// string of values separated by commas and/or spaces), min and max
// (numbers). Syntax errors from the YAML parser carry only a line; their
// column is that of the first non-blank character on it.
func ReadYAML(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	errs := &errorSink{max: lim.MaxErrors}
	var doc *Document
	if int64(len(data)) > lim.MaxBytes {
		errs.add(Pos{File: file}, "file too large: %d bytes (limit %d)", len(data), lim.MaxBytes)
	} else {
		doc = readYAML(file, data, lim, errs)
	}
	if doc != nil {
		checkUnique(doc, errs)
	}
	return finish(doc, errs)
}

type yamlReader struct {
	file string
	data []byte
	lim  Limits
	errs *errorSink
	n    int  // entities read
	stop bool // a limit was hit: read no further

	ents  []Entity // slabs, to allocate in bulk
	comps []Component
}

func readYAML(file string, data []byte, lim Limits, errs *errorSink) *Document {
	y := &yamlReader{file: file, data: data, lim: lim, errs: errs}
	doc := &Document{File: file, Files: []string{file}, Pos: Pos{File: file, Line: 1, Col: 1}}

	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return doc // empty file: empty scene
		}
		y.syntaxError(err)
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		errs.add(y.pos(&next), "several YAML documents in one file (only one scene per file)")
		return nil
	} else if !errors.Is(err, io.EOF) {
		y.syntaxError(err)
		return nil
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return doc
	}
	top := root.Content[0]
	if !y.plain(top) {
		return doc
	}
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		return doc // only comments, or "~"
	}
	if top.Kind != yaml.MappingNode {
		errs.add(y.pos(top), "scene must be a mapping with keys scene, components, mixins, include, entities; found %s", kindName(top))
		return doc
	}
	doc.Pos = y.pos(top)
	y.pairs(top, func(k, v *yaml.Node) {
		switch k.Value {
		case "scene":
			y.each(v, "scene", func(k, v *yaml.Node) {
				if c := y.component(k, v, "system"); c != nil {
					doc.Scene = append(doc.Scene, c)
				}
			})
		case "components":
			y.each(v, "components", func(k, v *yaml.Node) {
				if d := y.decl(k, v); d != nil {
					doc.Decls = append(doc.Decls, d)
				}
			})
		case "mixins":
			y.each(v, "mixins", func(k, v *yaml.Node) {
				if m := y.mixin(k, v); m != nil {
					doc.Mixins = append(doc.Mixins, m)
				}
			})
		case "include":
			for _, s := range y.strings(v, "include", false) {
				if s.text == "" {
					errs.add(s.pos, "include: empty path")
					continue
				}
				doc.Includes = append(doc.Includes, &Include{Path: s.text, Pos: s.pos})
			}
		case "entities":
			doc.Entities = y.entities(v, 1)
		default:
			errs.add(y.pos(k), "unknown top-level key %q (want scene, components, mixins, include or entities)", k.Value)
		}
	})
	doc.nEntities = y.n
	return doc
}

// syntaxError turns a yaml.v3 parse error ("yaml: line 3: did not find
// expected key") into a positioned error. yaml.v3 gives no column, and no
// line for problems on the first line.
func (y *yamlReader) syntaxError(err error) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, after, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil && n > 0 {
				line, msg = n, after
			}
		}
	}
	y.errs.add(y.lineStart(line), "%s", msg)
}

// lineStart returns the position of the first non-blank character on line
// (1-based), clamped to the lines of the file.
func (y *yamlReader) lineStart(line int) Pos {
	data := bytes.TrimPrefix(y.data, []byte("\ufeff"))
	n := 1
	for n < line {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		data = data[i+1:]
		n++
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	col := 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if !unicode.IsSpace(r) {
			break
		}
		data = data[size:]
		col++
	}
	if len(data) == 0 {
		col = 1
	}
	return Pos{File: y.file, Line: n, Col: col}
}

func (y *yamlReader) pos(n *yaml.Node) Pos {
	return Pos{File: y.file, Line: n.Line, Col: n.Column}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return "a scalar"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a document"
}

// plain reports anchors, aliases, merge keys and custom tags on n and
// returns false if n must not be used (an alias). It never follows aliases.
func (y *yamlReader) plain(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		y.errs.add(y.pos(n), "YAML aliases (*%s) are not supported; use mixins", n.Value)
		return false
	}
	if n.Anchor != "" {
		y.errs.add(y.pos(n), "YAML anchors (&%s) are not supported; use mixins", n.Anchor)
	}
	if n.Tag == "!!merge" {
		y.errs.add(y.pos(n), "YAML merge keys (<<) are not supported; use mixins")
		return false
	}
	if n.Style&yaml.TaggedStyle != 0 && !strings.HasPrefix(n.Tag, "!!") {
		y.errs.add(y.pos(n), "unsupported YAML tag %q", n.Tag)
	}
	return true
}

// isNull reports whether n is an empty value: null, ~ or nothing.
func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// pairs calls f for each key/value pair of mapping m, reporting duplicate
// keys, non-scalar keys and aliases. f is not called for bad pairs.
func (y *yamlReader) pairs(m *yaml.Node, f func(k, v *yaml.Node)) {
	c := m.Content
	var seen map[string]*yaml.Node
	if len(c) > 16 {
		seen = make(map[string]*yaml.Node, len(c)/2)
	}
	for i := 0; i+1 < len(c) && !y.stop && !y.errs.full; i += 2 {
		k, v := c[i], c[i+1]
		if !y.plain(k) {
			continue
		}
		if k.Kind != yaml.ScalarNode {
			y.errs.add(y.pos(k), "mapping key must be a scalar, not %s", kindName(k))
			continue
		}
		var first *yaml.Node
		if seen != nil {
			first = seen[k.Value]
			if first == nil {
				seen[k.Value] = k
			}
		} else {
			for j := 0; j < i; j += 2 {
				if c[j].Kind == yaml.ScalarNode && c[j].Value == k.Value {
					first = c[j]
					break
				}
			}
		}
		if first != nil {
			y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.Value, y.pos(first))
			continue
		}
		if !y.plain(v) {
			continue
		}
		f(k, v)
	}
}

// each calls f for each pair of a mapping that may also be empty (null).
func (y *yamlReader) each(n *yaml.Node, what string, f func(k, v *yaml.Node)) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		y.errs.add(y.pos(n), "%s must be a mapping, not %s", what, kindName(n))
		return
	}
	y.pairs(n, f)
}

type posString struct {
	text string
	pos  Pos
}

// strings reads a string or a list of strings. With split, a string is
// split at white space (and so are list items, which must be single words).
func (y *yamlReader) strings(n *yaml.Node, what string, split bool) []posString {
	var out []posString
	switch {
	case isNull(n):
	case n.Kind == yaml.ScalarNode:
		if !split {
			return []posString{{n.Value, y.pos(n)}}
		}
		for _, f := range strings.Fields(n.Value) {
			out = append(out, posString{f, y.pos(n)})
		}
	case n.Kind == yaml.SequenceNode:
		for _, it := range n.Content {
			if !y.plain(it) {
				continue
			}
			if it.Kind != yaml.ScalarNode || isNull(it) {
				y.errs.add(y.pos(it), "%s: list items must be strings, not %s", what, kindName(it))
				continue
			}
			if split && !validID(it.Value) {
				y.errs.add(y.pos(it), "%s: invalid name %q (no spaces allowed)", what, it.Value)
				continue
			}
			out = append(out, posString{it.Value, y.pos(it)})
		}
	default:
		y.errs.add(y.pos(n), "%s must be a string or a list of strings, not %s", what, kindName(n))
	}
	return out
}

// scalar returns the text of a scalar value, reporting other kinds.
func (y *yamlReader) scalar(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || isNull(n) {
		y.errs.add(y.pos(n), "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

func (y *yamlReader) newComponent() *Component {
	if len(y.comps) == 0 {
		y.comps = make([]Component, 256)
	}
	c := &y.comps[0]
	y.comps = y.comps[1:]
	return c
}

// component reads one component (or system setting) key: value.
func (y *yamlReader) component(k, v *yaml.Node, what string) *Component {
	if !validName(k.Value, true) {
		y.errs.add(y.pos(k), "%s", nameMsg(what, k.Value))
		return nil
	}
	c := y.newComponent()
	c.Name, c.Pos, c.ValuePos = k.Value, y.pos(k), y.pos(v)
	switch v.Kind {
	case yaml.ScalarNode:
		if !isNull(v) && v.Value != "" {
			c.Kind, c.Text = ValueText, v.Value
		}
	case yaml.MappingNode:
		if len(v.Content) == 0 {
			break
		}
		c.Kind = ValueMap
		c.Map = make([]*KV, 0, len(v.Content)/2)
		kvs := make([]KV, 0, len(v.Content)/2)
		y.pairs(v, func(pk, pv *yaml.Node) {
			if pv.Kind != yaml.ScalarNode {
				y.errs.add(y.pos(pv), "property %q of %s %q must be a string, not %s", pk.Value, what, k.Value, kindName(pv))
				return
			}
			val := pv.Value
			if isNull(pv) {
				val = ""
			}
			kvs = append(kvs, KV{Key: pk.Value, Value: val, Pos: y.pos(pk), ValuePos: y.pos(pv)})
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	default:
		y.errs.add(y.pos(v), "value of %s %q must be a string or a mapping, not %s", what, k.Value, kindName(v))
		return nil
	}
	return c
}

// mixin reads `id: {mixin: ..., component: value, ...}`.
func (y *yamlReader) mixin(k, v *yaml.Node) *Mixin {
	if !validID(k.Value) {
		y.errs.add(y.pos(k), "invalid mixin id %q", k.Value)
		return nil
	}
	m := &Mixin{ID: k.Value, Pos: y.pos(k), MixinPos: y.pos(v)}
	y.each(v, "mixin "+strconv.Quote(k.Value), func(k, v *yaml.Node) {
		switch k.Value {
		case "mixin":
			m.MixinPos = y.pos(v)
			for _, s := range y.strings(v, "mixin", true) {
				m.Mixins = append(m.Mixins, s.text)
			}
		case "id", "class", "children":
			y.errs.add(y.pos(k), "%q is not allowed in a mixin", k.Value)
		default:
			if c := y.component(k, v, "component"); c != nil {
				m.Components = append(m.Components, c)
			}
		}
	})
	return m
}

// entities reads a list of entities at the given depth.
func (y *yamlReader) entities(n *yaml.Node, depth int) []*Entity {
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		what := "entities"
		if depth > 1 {
			what = "children"
		}
		y.errs.add(y.pos(n), "%s must be a list of entities, not %s", what, kindName(n))
		return nil
	}
	if depth > y.lim.MaxDepth {
		y.errs.add(y.pos(n), "entities nested too deeply (limit %d)", y.lim.MaxDepth)
		return nil
	}
	out := make([]*Entity, 0, len(n.Content))
	for _, it := range n.Content {
		if y.stop || y.errs.full {
			break
		}
		if !y.plain(it) {
			continue
		}
		if it.Kind != yaml.MappingNode {
			y.errs.add(y.pos(it), "entity must be a mapping, not %s", kindName(it))
			continue
		}
		y.n++
		if y.n > y.lim.MaxEntities {
			y.errs.add(y.pos(it), "too many entities (limit %d)", y.lim.MaxEntities)
			y.stop = true
			break
		}
		out = append(out, y.entity(it, depth))
	}
	return out
}

func (y *yamlReader) entity(n *yaml.Node, depth int) *Entity {
	if len(y.ents) == 0 {
		y.ents = make([]Entity, 128)
	}
	e := &y.ents[0]
	y.ents = y.ents[1:]
	e.Pos, e.File = y.pos(n), y.file
	e.Components = make([]*Component, 0, len(n.Content)/2)
	y.pairs(n, func(k, v *yaml.Node) {
		switch k.Value {
		case "id":
			e.IDPos = y.pos(v)
			if s, ok := y.scalar(v, "id"); ok {
				if !validID(s) {
					y.errs.add(e.IDPos, "invalid entity id %q (no spaces allowed)", s)
				} else {
					e.ID = s
				}
			}
		case "class":
			for _, s := range y.strings(v, "class", true) {
				e.Class = append(e.Class, s.text)
			}
		case "mixin":
			e.MixinPos = y.pos(v)
			for _, s := range y.strings(v, "mixin", true) {
				e.Mixins = append(e.Mixins, s.text)
			}
		case "children":
			e.Children = y.entities(v, depth+1)
		default:
			if c := y.component(k, v, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		}
	})
	return e
}

// decl reads one data-only component declaration.
func (y *yamlReader) decl(k, v *yaml.Node) *Decl {
	if !validName(k.Value, false) {
		y.errs.add(y.pos(k), "%s", nameMsg("component", k.Value))
		return nil
	}
	d := &Decl{Name: k.Value, Pos: y.pos(k)}
	if isNull(v) {
		return d
	}
	if v.Kind != yaml.MappingNode {
		y.errs.add(y.pos(v), "declaration of %q must be a mapping, not %s", k.Value, kindName(v))
		return d
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if t, tv := v.Content[i], v.Content[i+1]; t.Kind == yaml.ScalarNode && t.Value == "type" && tv.Kind == yaml.ScalarNode {
			d.Single = true
			if p := y.prop(v, "", y.pos(k), k.Value); p != nil {
				d.Props = []*PropDecl{p}
			}
			return d
		}
	}
	y.pairs(v, func(pk, pv *yaml.Node) {
		if !validName(pk.Value, false) {
			y.errs.add(y.pos(pk), "%s", nameMsg("property", pk.Value))
			return
		}
		if pv.Kind != yaml.MappingNode && !isNull(pv) {
			y.errs.add(y.pos(pv), "declaration of property %q must be a mapping, not %s (a single-property component needs a string `type` key)", pk.Value, kindName(pv))
			return
		}
		if p := y.prop(pv, pk.Value, y.pos(pk), k.Value+"."+pk.Value); p != nil {
			d.Props = append(d.Props, p)
		}
	})
	return d
}

// prop reads a property declaration mapping (or null).
func (y *yamlReader) prop(n *yaml.Node, name string, at Pos, what string) *PropDecl {
	p := &PropDecl{Name: name, Pos: at}
	y.each(n, what, func(k, v *yaml.Node) {
		switch k.Value {
		case "type":
			if s, ok := y.scalar(v, what+": type"); ok {
				p.Type = s
			}
		case "default":
			if v.Kind != yaml.ScalarNode {
				y.errs.add(y.pos(v), "%s: default must be a string, not %s", what, kindName(v))
				return
			}
			p.HasDefault = true
			if !isNull(v) {
				p.Default = v.Value
			}
		case "oneOf":
			if v.Kind == yaml.ScalarNode && !isNull(v) {
				p.OneOf = splitList(v.Value)
				return
			}
			p.OneOf = []string{}
			for _, s := range y.strings(v, what+": oneOf", false) {
				p.OneOf = append(p.OneOf, s.text)
			}
		case "min", "max":
			s, ok := y.scalar(v, what+": "+k.Value)
			if !ok {
				return
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				y.errs.add(y.pos(v), "%s: %s must be a number, not %q", what, k.Value, s)
				return
			}
			if k.Value == "min" {
				p.Min = &f
			} else {
				p.Max = &f
			}
		default:
			y.errs.add(y.pos(k), "%s: unknown key %q in property declaration (want type, default, oneOf, min or max)", what, k.Value)
		}
	})
	return p
}

// splitList splits a list of values separated by commas and/or white space.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}
