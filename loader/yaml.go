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
// (numbers). Syntax errors are reported at the offending byte (see
// yamlparse.go); in the rare files read by yaml.v3 they carry the line
// yaml.v3 gives, at its first non-blank character (a misplaced tab at the
// tab).
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
	ptrs  []*Component
	strs  []string
	kvs   []KV
	kvps  []*KV
	src   *source
}

func newYAMLReader(file string, data []byte, lim Limits, errs *errorSink) *yamlReader {
	return &yamlReader{file: file, data: data, lim: lim, errs: errs, n: lim.usedEntities,
		src: &source{file: file, data: data, yaml: true}}
}

func readYAML(file string, data []byte, lim Limits, errs *errorSink) *Document {
	mark := len(errs.list)
	y := newYAMLReader(file, data, lim, errs)
	doc := &Document{File: file, Files: []string{file}, Pos: Pos{File: file, Line: 1, Col: 1}}
	top := &yamlTop{y: y, doc: doc, seen: map[string]Pos{}}
	root, p := yamlParse(data, top)
	switch p.state {
	case yOK:
		if p.streamed {
			doc.Pos = y.pos(root)
		} else {
			y.readTree(doc, root)
		}
		doc.nEntities = y.n - lim.usedEntities
		return doc
	case yError:
		// A syntax error makes the rest meaningless: report only it.
		errs.list, errs.full = errs.list[:mark], false
		errs.add(newLineIndex(file, data).pos(p.errOff), "%s", p.errMsg)
		return nil
	}
	// Outside the parser's subset: read the file with yaml.v3, afresh.
	errs.list, errs.full = errs.list[:mark], false
	y = newYAMLReader(file, data, lim, errs)
	doc = &Document{File: file, Files: []string{file}, Pos: Pos{File: file, Line: 1, Col: 1}}
	root, err := slowYAML(data)
	if err != nil {
		var de *docsError
		if errors.As(err, &de) {
			errs.add(Pos{File: file, Line: de.line, Col: de.col}, "several YAML documents in one file (only one scene per file)")
		} else {
			y.syntaxError(err)
		}
		return nil
	}
	y.readTree(doc, root)
	doc.nEntities = y.n - lim.usedEntities
	return doc
}

// yamlTop receives the top level of a scene from the parser, pair by pair
// and entity by entity (see ySink), and converts it as it comes.
type yamlTop struct {
	y    *yamlReader
	doc  *Document
	seen map[string]Pos // top-level keys, for duplicates
}

func (t *yamlTop) key(k *ynode) bool {
	y := t.y
	if y.stop || y.errs.full {
		return false
	}
	if first, dup := t.seen[k.value]; dup {
		y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.value, first)
		return false
	}
	t.seen[k.value] = y.pos(k)
	return true
}

func (t *yamlTop) pair(k, v *ynode) { t.y.topPair(t.doc, k, v) }

func (t *yamlTop) item(it *ynode) {
	if e := t.y.entityItem(it, 1); e != nil {
		t.doc.Entities = append(t.doc.Entities, e)
	}
}

// readTree converts a whole syntax tree (nil for an empty file).
func (y *yamlReader) readTree(doc *Document, top *ynode) {
	if top == nil {
		return // empty file: empty scene
	}
	if !y.plain(top) {
		return
	}
	if isNull(top) {
		return // only comments, or "~"
	}
	if top.kind != kMapping {
		y.errs.add(y.pos(top), "scene must be a mapping with keys scene, components, mixins, include, entities; found %s", kindName(top))
		return
	}
	doc.Pos = y.pos(top)
	y.pairs(top, func(k, v *ynode) { y.topPair(doc, k, v) })
}

// topPair converts one pair of the root mapping.
func (y *yamlReader) topPair(doc *Document, k, v *ynode) {
	errs := y.errs
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
	case "mixins":
		y.each(v, "mixins", func(k, v *ynode) {
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
		doc.Entities = append(doc.Entities, y.entities(v, 1)...)
	default:
		errs.add(y.pos(k), "unknown top-level key %q (want scene, components, mixins, include or entities)", k.value)
	}
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
	at := y.lineStart(line)
	if strings.Contains(msg, "tab") || strings.Contains(msg, "cannot start any token") {
		if p, ok := y.findTab(line - 1); ok {
			at = p
		}
	}
	y.errs.add(at, "%s", msg)
}

// findTab locates what yaml.v3 calls a tab that violates indentation or
// a character that cannot start a token, which it reports at the line of
// the enclosing construct or without a line: the first tab in the
// indentation (spaces, tabs and "- ") of a line with content, or an '@'
// or '`' starting the content, from line from on. The scene parser hands
// such files to yaml.v3 (yaml.v3 accepts some tabs and not others).
func (y *yamlReader) findTab(from int) (Pos, bool) {
	x := newLineIndex(y.file, y.data)
	for l := max(from, 1); l <= len(x.starts) && l < from+100; l++ {
		i := x.starts[l-1]
		tab := -1
		for i < len(y.data) {
			c := y.data[i]
			if c == '\t' && tab < 0 {
				tab = i
			}
			if c == ' ' || c == '\t' || c == '-' && i+1 < len(y.data) && (y.data[i+1] == ' ' || y.data[i+1] == '\t') {
				i++
				continue
			}
			break
		}
		if i >= len(y.data) || y.data[i] == '\n' || y.data[i] == '\r' || y.data[i] == '#' {
			continue // a blank or comment line
		}
		if tab >= 0 {
			return x.pos(tab), true
		}
		// '@' or '`' where a token starts: at the content, or after
		// ": ", "- ", ',' or an opening bracket.
		prev := byte(' ')
		for k := i; k < len(y.data) && y.data[k] != '\n'; k++ {
			c := y.data[k]
			if (c == '@' || c == '`') && (k == i || prev == ':' || prev == '-' || prev == ',' || prev == '[' || prev == '{') {
				return x.pos(k), true
			}
			if c != ' ' {
				prev = c
			}
		}
	}
	return Pos{}, false
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

func (y *yamlReader) pos(n *ynode) Pos {
	return Pos{File: y.file, Line: int(n.line), Col: int(n.col)}
}

func kindName(n *ynode) string {
	switch n.kind {
	case kMapping:
		return "a mapping"
	case kSequence:
		return "a list"
	case kScalar:
		if n.null {
			return "nothing"
		}
		return "a scalar"
	case kAlias:
		return "an alias"
	}
	return "a document"
}

// plain reports anchors, aliases, merge keys and custom tags on n and
// returns false if n must not be used (an alias). It never follows aliases.
func (y *yamlReader) plain(n *ynode) bool {
	if n.kind == kAlias {
		y.errs.add(y.pos(n), "YAML aliases (*%s) are not supported; use mixins", n.value)
		return false
	}
	x := n.extra
	if x == nil {
		return true
	}
	if x.anchor != "" {
		y.errs.add(y.pos(n), "YAML anchors (&%s) are not supported; use mixins", x.anchor)
	}
	if x.tag == "!!merge" {
		y.errs.add(y.pos(n), "YAML merge keys (<<) are not supported; use mixins")
		return false
	}
	if x.tagged && !strings.HasPrefix(x.tag, "!!") {
		y.errs.add(y.pos(n), "unsupported YAML tag %q", x.tag)
	}
	return true
}

// isNull reports whether n is an empty value: null, ~ or nothing.
func isNull(n *ynode) bool {
	return n.kind == kScalar && n.null
}

// pairs calls f for each key/value pair of mapping m, reporting duplicate
// keys, non-scalar keys and aliases. f is not called for bad pairs.
func (y *yamlReader) pairs(m *ynode, f func(k, v *ynode)) {
	c := m.content
	var seen map[string]*ynode
	if len(c) > 16 {
		seen = make(map[string]*ynode, len(c)/2)
	}
	for i := 0; i+1 < len(c) && !y.stop && !y.errs.full; i += 2 {
		k, v := c[i], c[i+1]
		if !y.plain(k) {
			continue
		}
		if k.kind != kScalar {
			y.errs.add(y.pos(k), "mapping key must be a scalar, not %s", kindName(k))
			continue
		}
		var first *ynode
		if seen != nil {
			first = seen[k.value]
			if first == nil {
				seen[k.value] = k
			}
		} else {
			for j := 0; j < i; j += 2 {
				if c[j].kind == kScalar && c[j].value == k.value {
					first = c[j]
					break
				}
			}
		}
		if first != nil {
			y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.value, y.pos(first))
			continue
		}
		if !y.plain(v) {
			continue
		}
		f(k, v)
	}
}

// each calls f for each pair of a mapping that may also be empty (null).
func (y *yamlReader) each(n *ynode, what string, f func(k, v *ynode)) {
	if isNull(n) {
		return
	}
	if n.kind != kMapping {
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
// names returns the names of an entity's class or mixin list (see
// strings), in a slice cut from a slab; nil for none.
func (y *yamlReader) names(n *ynode, what string) []string {
	if n.kind == kScalar && !isNull(n) {
		// The common case, "a b c": split as strings.Fields does.
		k, inField := 0, false
		for _, r := range n.value {
			space := unicode.IsSpace(r)
			if !space && !inField {
				k++
			}
			inField = !space
		}
		if k == 0 {
			return nil
		}
		out := cutSlab(&y.strs, k)
		for f := range strings.FieldsSeq(n.value) {
			out = append(out, f)
		}
		return out
	}
	ss := y.strings(n, what, true)
	if len(ss) == 0 {
		return nil
	}
	out := cutSlab(&y.strs, len(ss))
	for _, s := range ss {
		out = append(out, s.text)
	}
	return out
}

// cutSlab returns an empty slice with room for exactly n elements, cut
// from the slab *slab (appending beyond n reallocates, so slices never
// overlap); a large slice gets its own allocation.
func cutSlab[T any](slab *[]T, n int) []T {
	if n > 64 {
		return make([]T, 0, n)
	}
	if len(*slab) < n {
		*slab = make([]T, 1024)
	}
	s := (*slab)[:0:n]
	*slab = (*slab)[n:]
	return s
}

func (y *yamlReader) strings(n *ynode, what string, split bool) []posString {
	var out []posString
	switch {
	case isNull(n):
	case n.kind == kScalar:
		if !split {
			return []posString{{n.value, y.pos(n)}}
		}
		for _, f := range strings.Fields(n.value) {
			out = append(out, posString{f, y.pos(n)})
		}
	case n.kind == kSequence:
		for _, it := range n.content {
			if !y.plain(it) {
				continue
			}
			if it.kind != kScalar || isNull(it) {
				y.errs.add(y.pos(it), "%s: list items must be strings, not %s", what, kindName(it))
				continue
			}
			if split && !validID(it.value) {
				y.errs.add(y.pos(it), "%s: %s", what, idMsg("name", it.value))
				continue
			}
			out = append(out, posString{it.value, y.pos(it)})
		}
	default:
		y.errs.add(y.pos(n), "%s must be a string or a list of strings, not %s", what, kindName(n))
	}
	return out
}

// scalar returns the text of a scalar value, reporting other kinds.
func (y *yamlReader) scalar(n *ynode, what string) (string, bool) {
	if n.kind != kScalar || isNull(n) {
		y.errs.add(y.pos(n), "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.value, true
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
func (y *yamlReader) component(k, v *ynode, what string) *Component {
	if !validName(k.value, true) {
		y.errs.add(y.pos(k), "%s", nameMsg(what, k.value))
		return nil
	}
	c := y.newComponent()
	c.Name, c.Pos, c.ValuePos, c.src = k.value, y.pos(k), y.pos(v), y.src
	switch v.kind {
	case kScalar:
		c.Exact = !isNull(v)
		if c.Exact && v.value != "" {
			c.Kind, c.Text = ValueText, v.value
		}
	case kMapping:
		if len(v.content) == 0 {
			break
		}
		c.Kind = ValueMap
		c.Map = cutSlab(&y.kvps, len(v.content)/2)
		kvs := cutSlab(&y.kvs, len(v.content)/2)
		y.pairs(v, func(pk, pv *ynode) {
			if pv.kind != kScalar {
				y.errs.add(y.pos(pv), "property %q of %s %q must be a string, not %s", pk.value, what, k.value, kindName(pv))
				return
			}
			val := pv.value
			if isNull(pv) {
				val = ""
			}
			kvs = append(kvs, KV{Key: pk.value, Value: val, Pos: y.pos(pk), ValuePos: y.pos(pv), Exact: !isNull(pv)})
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	default:
		y.errs.add(y.pos(v), "value of %s %q must be a string or a mapping, not %s", what, k.value, kindName(v))
		return nil
	}
	return c
}

// mixin reads `id: {mixin: ..., component: value, ...}`.
func (y *yamlReader) mixin(k, v *ynode) *Mixin {
	if !validID(k.value) {
		y.errs.add(y.pos(k), "%s", idMsg("mixin id", k.value))
		return nil
	}
	m := &Mixin{ID: k.value, Pos: y.pos(k), MixinPos: y.pos(v)}
	y.each(v, "mixin "+strconv.Quote(k.value), func(k, v *ynode) {
		switch k.value {
		case "mixin":
			m.MixinPos = y.pos(v)
			for _, s := range y.strings(v, "mixin", true) {
				m.Mixins = append(m.Mixins, s.text)
			}
		case "id", "class", "children":
			y.errs.add(y.pos(k), "%q is not allowed in a mixin", k.value)
		default:
			if c := y.component(k, v, "component"); c != nil {
				m.Components = append(m.Components, c)
			}
		}
	})
	return m
}

// entities reads a list of entities at the given depth.
func (y *yamlReader) entities(n *ynode, depth int) []*Entity {
	if isNull(n) {
		return nil
	}
	if n.kind != kSequence {
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
	out := make([]*Entity, 0, len(n.content))
	for _, it := range n.content {
		if y.stop || y.errs.full {
			break
		}
		if e := y.entityItem(it, depth); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// entityItem converts one item of a list of entities, or returns nil.
func (y *yamlReader) entityItem(it *ynode, depth int) *Entity {
	if y.stop || y.errs.full || !y.plain(it) {
		return nil
	}
	if it.kind != kMapping {
		y.errs.add(y.pos(it), "entity must be a mapping, not %s", kindName(it))
		return nil
	}
	y.n++
	if y.n > y.lim.MaxEntities {
		y.errs.add(y.pos(it), "too many entities (limit %d)", y.lim.MaxEntities)
		y.stop = true
		return nil
	}
	return y.entity(it, depth)
}

// newEntity returns a zeroed Entity cut from a slab.
func (y *yamlReader) newEntity() *Entity {
	if len(y.ents) == 0 {
		y.ents = make([]Entity, 128)
	}
	e := &y.ents[0]
	y.ents = y.ents[1:]
	return e
}

func (y *yamlReader) entity(n *ynode, depth int) *Entity {
	e := y.newEntity()
	e.Pos, e.File = y.pos(n), y.file
	e.Components = cutSlab(&y.ptrs, len(n.content)/2)
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
		case "class":
			e.Class = y.names(v, "class")
		case "mixin":
			e.MixinPos = y.pos(v)
			e.Mixins = y.names(v, "mixin")
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
func (y *yamlReader) decl(k, v *ynode) *Decl {
	if !validName(k.value, false) {
		y.errs.add(y.pos(k), "%s", nameMsg("component", k.value))
		return nil
	}
	d := &Decl{Name: k.value, Pos: y.pos(k)}
	if isNull(v) {
		return d
	}
	if v.kind != kMapping {
		y.errs.add(y.pos(v), "declaration of %q must be a mapping, not %s", k.value, kindName(v))
		return d
	}
	for i := 0; i+1 < len(v.content); i += 2 {
		if t, tv := v.content[i], v.content[i+1]; t.kind == kScalar && t.value == "type" && tv.kind == kScalar {
			d.Single = true
			if p := y.prop(v, "", y.pos(k), k.value); p != nil {
				d.Props = []*PropDecl{p}
			}
			return d
		}
	}
	y.pairs(v, func(pk, pv *ynode) {
		if !validName(pk.value, false) {
			y.errs.add(y.pos(pk), "%s", nameMsg("property", pk.value))
			return
		}
		if pv.kind != kMapping && !isNull(pv) {
			y.errs.add(y.pos(pv), "declaration of property %q must be a mapping, not %s (a single-property component needs a string `type` key)", pk.value, kindName(pv))
			return
		}
		if p := y.prop(pv, pk.value, y.pos(pk), k.value+"."+pk.value); p != nil {
			d.Props = append(d.Props, p)
		}
	})
	return d
}

// prop reads a property declaration mapping (or null).
func (y *yamlReader) prop(n *ynode, name string, at Pos, what string) *PropDecl {
	p := &PropDecl{Name: name, Pos: at}
	y.each(n, what, func(k, v *ynode) {
		switch k.value {
		case "type":
			if s, ok := y.scalar(v, what+": type"); ok {
				p.Type = s
			}
		case "default":
			if v.kind != kScalar {
				y.errs.add(y.pos(v), "%s: default must be a string, not %s", what, kindName(v))
				return
			}
			p.HasDefault = true
			if !isNull(v) {
				p.Default = v.value
			}
		case "oneOf":
			if v.kind == kScalar && !isNull(v) {
				p.OneOf = splitList(v.value)
				return
			}
			p.OneOf = []string{}
			for _, s := range y.strings(v, what+": oneOf", false) {
				p.OneOf = append(p.OneOf, s.text)
			}
		case "min", "max":
			s, ok := y.scalar(v, what+": "+k.value)
			if !ok {
				return
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				y.errs.add(y.pos(v), "%s: %s must be a number, not %q", what, k.value, s)
				return
			}
			if k.value == "min" {
				p.Min = &f
			} else {
				p.Max = &f
			}
		default:
			y.errs.add(y.pos(k), "%s: unknown key %q in property declaration (want type, default, oneOf, min or max)", what, k.value)
		}
	})
	return p
}

// splitList splits a list of values separated by commas and/or white space.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// ---- YAML syntax trees ----

// Node kinds, as yaml.v3 numbers them.
const (
	kSequence = uint8(yaml.SequenceNode)
	kMapping  = uint8(yaml.MappingNode)
	kScalar   = uint8(yaml.ScalarNode)
	kAlias    = uint8(yaml.AliasNode)
)

// ynode is the reader's light syntax tree node, built either by the fast
// path below or from a yaml.v3 Node. Kinds are yaml.v3's.
type ynode struct {
	kind      uint8    // yaml.v3's Kind
	null      bool     // a null scalar (~, null, nothing)
	exact     bool     // a quoted scalar (in JSON: a string, not a number, boolean or null)
	line, col int32    // 1-based, columns in characters
	value     string   // scalar text, or alias name
	content   []*ynode // mapping: keys and values alternating; sequence: items
	extra     *yextra  // rare properties, nil on the fast path
}

// yextra holds the properties only yaml.v3-parsed nodes can have.
type yextra struct {
	tag    string // "!!merge" for <<, or an explicitly written tag
	tagged bool   // the tag was written explicitly
	anchor string
}

// docsError reports a second document in a YAML file.
type docsError struct{ line, col int }

func (e *docsError) Error() string { return "several documents" }

// slowYAML parses data with yaml.v3.
func slowYAML(data []byte) (*ynode, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var next yaml.Node
	if err := dec.Decode(&next); err == nil {
		return nil, &docsError{next.Line, next.Column}
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 {
		return nil, nil
	}
	return convertNode(root.Content[0]), nil
}

// convertNode copies a yaml.v3 tree, never following aliases. Its depth is
// bounded by yaml.v3's own limit (10,000).
func convertNode(n *yaml.Node) *ynode {
	y := &ynode{kind: uint8(n.Kind), null: n.Tag == "!!null", line: int32(n.Line), col: int32(n.Column), value: n.Value,
		exact: n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0}
	if tagged := n.Style&yaml.TaggedStyle != 0; tagged || n.Anchor != "" || n.Tag == "!!merge" {
		y.extra = &yextra{tag: n.Tag, tagged: tagged, anchor: n.Anchor}
	}
	if len(n.Content) > 0 && n.Kind != yaml.AliasNode {
		y.content = make([]*ynode, len(n.Content))
		for i, c := range n.Content {
			y.content[i] = convertNode(c)
		}
	}
	return y
}
