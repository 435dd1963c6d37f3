package scenefile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
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

// The YAML vocabulary: the keys of a scene file, written once here for
// the reader, the writer and the JSON Schema of the format.
const (
	YAMLScene      = "scene"      // system settings
	YAMLComponents = "components" // data-only component declarations
	YAMLMixins     = "mixins"
	YAMLPrefabs    = "prefabs" // named entity subtrees
	YAMLInclude    = "include"
	YAMLEntities   = "entities"

	YAMLID       = "id" // the reserved keys of an entity
	YAMLClass    = "class"
	YAMLMixin    = "mixin" // also of a mixin
	YAMLChildren = "children"
	YAMLPrefab   = "prefab"  // the prefab an entity instantiates (or a prefab's base)
	YAMLParts    = "parts"   // an instance's changes to parts of its prefab, by path
	YAMLRemoved  = "removed" // the value of a part the instance does not have (also in JSON)

	YAMLType     = "type" // the keys of a property declaration
	YAMLDefault  = "default"
	YAMLOneOf    = "oneOf"
	YAMLMin      = "min"
	YAMLMax      = "max"
	YAMLOnDelete = "onDelete"
)

var (
	// yamlTopKeys are the keys of a scene's root mapping, in the order
	// of messages and of WriteYAML.
	yamlTopKeys = []string{YAMLScene, YAMLComponents, YAMLMixins, YAMLPrefabs, YAMLInclude, YAMLEntities}
	// yamlPropKeys are the keys of a property declaration.
	yamlPropKeys = []string{YAMLType, YAMLDefault, YAMLOneOf, YAMLMin, YAMLMax, YAMLOnDelete}
)

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
//	    health: {hp: 100}   # a mapping of property -> scalar (or list),
//	    tags: [a, "b c"]    # or a list of scalars, for an array (ListValue)
//	    children:
//	      - position: 0.5 0 0
//
// A property declaration takes the keys type, default (a scalar, or a
// list for an array), oneOf (a list, or a string of values separated by
// commas and/or spaces), min and max (numbers). Syntax errors are reported at the offending byte (the
// parser of package loader/internal/yamlsyntax finds it); in the rare
// files read by yaml.v3 they carry the line
// yaml.v3 gives, at its first non-blank character (a misplaced tab at the
// tab).
func ReadYAML(file string, data []byte, lim Limits) (*Document, error) {
	lim = lim.WithDefaults()
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

	ents  []EntitySpec // slabs, to allocate in bulk
	comps []ComponentSpec
	ptrs  []*ComponentSpec
	strs  []string
	kvs   []KV
	kvps  []*KV
	src   *Source

	extras yamlsyntax.Extras // anchors and tags, from yaml.v3 (nil from the fast parser)
}

func newYAMLReader(file string, data []byte, lim Limits, errs *errorSink) *yamlReader {
	return &yamlReader{file: file, data: data, lim: lim, errs: errs, n: lim.usedEntities,
		src: &Source{file: file, data: data, format: FormatYAML}}
}

func readYAML(file string, data []byte, lim Limits, errs *errorSink) (doc *Document) {
	defer errs.recoverStopped(&doc)
	mark := len(errs.list)
	y := newYAMLReader(file, data, lim, errs)
	doc = &Document{File: file, Files: []string{file}, Pos: Pos{File: file, Line: 1, Col: 1}}
	top := &yamlTop{y: y, doc: doc, seen: map[string]Pos{}}
	root, res := yamlsyntax.Parse(data, top)
	switch res.State {
	case yamlsyntax.OK:
		if res.Streamed {
			doc.Pos = y.pos(root)
		} else {
			y.readTree(doc, root)
		}
		doc.nEntities = y.n - lim.usedEntities
		return doc
	case yamlsyntax.Invalid:
		// A syntax error makes the rest meaningless: report only it.
		errs.list, errs.full = errs.list[:mark], false
		errs.add(newLineIndex(file, data).pos(res.ErrOff), "%s", res.ErrMsg)
		return nil
	}
	// Outside the parser's subset: read the file with yaml.v3, afresh.
	errs.list, errs.full = errs.list[:mark], false
	y = newYAMLReader(file, data, lim, errs)
	doc = &Document{File: file, Files: []string{file}, Pos: Pos{File: file, Line: 1, Col: 1}}
	root, extras, err := yamlsyntax.ParseReference(data)
	if err != nil {
		var de *yamlsyntax.MultiDocError
		if errors.As(err, &de) {
			errs.add(Pos{File: file, Line: de.Line, Col: de.Col}, "several YAML documents in one file (only one scene per file)")
		} else {
			y.syntaxError(err)
		}
		return nil
	}
	y.extras = extras
	y.readTree(doc, root)
	doc.nEntities = y.n - lim.usedEntities
	return doc
}

// yamlTop receives the top level of a scene from the parser, pair by pair
// and entity by entity (see yamlsyntax.Sink), and converts it as it comes.
type yamlTop struct {
	y    *yamlReader
	doc  *Document
	seen map[string]Pos // top-level keys, for duplicates
}

// Key keeps the first of each top-level key, and streams the entities.
func (t *yamlTop) Key(k *yamlsyntax.Node) (keep, items bool) {
	y := t.y
	if y.stop || y.errs.full {
		return false, false
	}
	if first, dup := t.seen[k.Value]; dup {
		y.errs.add(y.pos(k), "duplicate key %q (first at %s)", k.Value, first)
		return false, false
	}
	t.seen[k.Value] = y.pos(k)
	return true, k.Value == YAMLEntities
}

// Pair converts a top-level pair.
func (t *yamlTop) Pair(k, v *yamlsyntax.Node) { t.y.topPair(t.doc, k, v) }

// Item converts one entity of the entities list.
func (t *yamlTop) Item(it *yamlsyntax.Node) {
	if e := t.y.entityItem(it, 1); e != nil {
		t.doc.Entities = append(t.doc.Entities, e)
	}
	t.y.errs.abortIfStopped()
}

// readTree converts a whole syntax tree (nil for an empty file).
func (y *yamlReader) readTree(doc *Document, top *yamlsyntax.Node) {
	if top == nil {
		return // empty file: empty scene
	}
	if !y.plain(top) {
		return
	}
	if isNull(top) {
		return // only comments, or "~"
	}
	if top.Kind != yamlsyntax.Mapping {
		y.errs.add(y.pos(top), "scene must be a mapping with keys %s; found %s", strings.Join(yamlTopKeys, ", "), kindName(top))
		return
	}
	doc.Pos = y.pos(top)
	y.pairs(top, func(k, v *yamlsyntax.Node) { y.topPair(doc, k, v) })
}

// topPair converts one pair of the root mapping.
func (y *yamlReader) topPair(doc *Document, k, v *yamlsyntax.Node) {
	errs := y.errs
	switch k.Value {
	case YAMLScene:
		y.each(v, YAMLScene, func(k, v *yamlsyntax.Node) {
			if c := y.component(k, v, "system"); c != nil {
				doc.Systems = append(doc.Systems, c)
			}
		})
	case YAMLComponents:
		y.each(v, YAMLComponents, func(k, v *yamlsyntax.Node) {
			if d := y.decl(k, v); d != nil {
				doc.Decls = append(doc.Decls, d)
			}
		})
	case YAMLMixins:
		y.each(v, YAMLMixins, func(k, v *yamlsyntax.Node) {
			if m := y.mixin(k, v); m != nil {
				doc.Mixins = append(doc.Mixins, m)
			}
		})
	case YAMLPrefabs:
		y.each(v, YAMLPrefabs, func(k, v *yamlsyntax.Node) {
			if p := y.prefab(k, v); p != nil {
				doc.Prefabs = append(doc.Prefabs, p)
			}
		})
	case YAMLInclude:
		for _, s := range y.strings(v, YAMLInclude, false) {
			if s.text == "" {
				errs.add(s.pos, "%s: empty path", YAMLInclude)
				continue
			}
			doc.Includes = append(doc.Includes, &Include{Path: s.text, Pos: s.pos})
		}
	case YAMLEntities:
		doc.Entities = append(doc.Entities, y.entities(v, 1)...)
	default:
		errs.add(y.pos(k), "unknown top-level key %q (want %s)", k.Value, orList(yamlTopKeys))
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
	for l := max(from, 1); l <= x.x.Lines() && l < from+100; l++ {
		i := x.x.LineStart(l)
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
// (1-based), clamped to the lines of the file; column 1 on a blank line.
func (y *yamlReader) lineStart(line int) Pos {
	x := newLineIndex(y.file, y.data)
	start := x.x.LineStart(line)
	i := start
	for i < len(y.data) && y.data[i] != '\n' {
		r, size := utf8.DecodeRune(y.data[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	if i == len(y.data) || y.data[i] == '\n' {
		i = start
	}
	return x.pos(i)
}

func (y *yamlReader) pos(n *yamlsyntax.Node) Pos {
	return Pos{File: y.file, Line: int(n.Line), Col: int(n.Col)}
}

// nodeSpan returns the span of n (none for a node yaml.v3 read).
func nodeSpan(n *yamlsyntax.Node) span { return span{n.Off, n.End} }

func kindName(n *yamlsyntax.Node) string {
	switch n.Kind {
	case yamlsyntax.Mapping:
		return "a mapping"
	case yamlsyntax.Sequence:
		return "a list"
	case yamlsyntax.Scalar:
		if n.Null {
			return "nothing"
		}
		return "a scalar"
	case yamlsyntax.Alias:
		return "an alias"
	}
	return "a document"
}

// plain reports anchors, aliases, merge keys and custom tags on n and
// returns false if n must not be used (an alias). It never follows aliases.
func (y *yamlReader) plain(n *yamlsyntax.Node) bool {
	if n.Kind == yamlsyntax.Alias {
		y.errs.add(y.pos(n), "YAML aliases (*%s) are not supported; use mixins", n.Value)
		return false
	}
	x := y.extras[n]
	if x == nil {
		return true
	}
	if x.Anchor != "" {
		y.errs.add(y.pos(n), "YAML anchors (&%s) are not supported; use mixins", x.Anchor)
	}
	if x.Tag == "!!merge" {
		y.errs.add(y.pos(n), "YAML merge keys (<<) are not supported; use mixins")
		return false
	}
	if x.Tagged && !strings.HasPrefix(x.Tag, "!!") {
		y.errs.add(y.pos(n), "unsupported YAML tag %q", x.Tag)
	}
	return true
}

// isNull reports whether n is an empty value: null, ~ or nothing.
func isNull(n *yamlsyntax.Node) bool {
	return n.Kind == yamlsyntax.Scalar && n.Null
}

// pairs calls f for each key/value pair of mapping m, reporting duplicate
// keys, non-scalar keys and aliases. f is not called for bad pairs.
func (y *yamlReader) pairs(m *yamlsyntax.Node, f func(k, v *yamlsyntax.Node)) {
	c := m.Content
	var seen map[string]*yamlsyntax.Node
	if len(c) > 16 {
		seen = make(map[string]*yamlsyntax.Node, len(c)/2)
	}
	for i := 0; i+1 < len(c) && !y.stop && !y.errs.full; i += 2 {
		k, v := c[i], c[i+1]
		if !y.plain(k) {
			continue
		}
		if k.Kind != yamlsyntax.Scalar {
			y.errs.add(y.pos(k), "mapping key must be a scalar, not %s", kindName(k))
			continue
		}
		var first *yamlsyntax.Node
		if seen != nil {
			first = seen[k.Value]
			if first == nil {
				seen[k.Value] = k
			}
		} else {
			for j := 0; j < i; j += 2 {
				if c[j].Kind == yamlsyntax.Scalar && c[j].Value == k.Value {
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
func (y *yamlReader) each(n *yamlsyntax.Node, what string, f func(k, v *yamlsyntax.Node)) {
	if isNull(n) {
		return
	}
	if n.Kind != yamlsyntax.Mapping {
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
func (y *yamlReader) names(n *yamlsyntax.Node, what string) []string {
	if n.Kind == yamlsyntax.Scalar && !isNull(n) {
		// The common case, "a b c": split as strings.Fields does.
		k, inField := 0, false
		for _, r := range n.Value {
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
		for f := range strings.FieldsSeq(n.Value) {
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

func (y *yamlReader) strings(n *yamlsyntax.Node, what string, split bool) []posString {
	var out []posString
	switch {
	case isNull(n):
	case n.Kind == yamlsyntax.Scalar:
		if !split {
			return []posString{{n.Value, y.pos(n)}}
		}
		for _, f := range strings.Fields(n.Value) {
			out = append(out, posString{f, y.pos(n)})
		}
	case n.Kind == yamlsyntax.Sequence:
		for _, it := range n.Content {
			if !y.plain(it) {
				continue
			}
			if it.Kind != yamlsyntax.Scalar || isNull(it) {
				y.errs.add(y.pos(it), "%s: list items must be strings, not %s", what, kindName(it))
				continue
			}
			if split && !validID(it.Value) {
				y.errs.add(y.pos(it), "%s: %s", what, idMsg("name", it.Value))
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
func (y *yamlReader) scalar(n *yamlsyntax.Node, what string) (string, bool) {
	if n.Kind != yamlsyntax.Scalar || isNull(n) {
		y.errs.add(y.pos(n), "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

// place records where component c's key k and value v are written: their
// spans, or their positions where the nodes have no spans (yaml.v3).
func (y *yamlReader) place(c *ComponentSpec, k, v *yamlsyntax.Node) {
	c.src, c.key, c.val = y.src, nodeSpan(k), nodeSpan(v)
	if !c.key.ok() || !c.val.ok() {
		c.SetPos(y.pos(k), y.pos(v))
	}
}

// placeKV is place for a property kv written as key k and value v.
func (y *yamlReader) placeKV(kv *KV, k, v *yamlsyntax.Node) {
	kv.src, kv.key, kv.val = y.src, nodeSpan(k), nodeSpan(v)
	if !kv.key.ok() || !kv.val.ok() {
		kv.SetPos(y.pos(k), y.pos(v))
	}
}

func (y *yamlReader) newComponent() *ComponentSpec {
	if len(y.comps) == 0 {
		y.comps = make([]ComponentSpec, 256)
	}
	c := &y.comps[0]
	y.comps = y.comps[1:]
	return c
}

// component reads one component (or system setting) key: value.
func (y *yamlReader) component(k, v *yamlsyntax.Node, what string) *ComponentSpec {
	if !validName(k.Value, true) {
		y.errs.add(y.pos(k), "%s", nameMsg(what, k.Value))
		return nil
	}
	c := y.newComponent()
	y.place(c, k, v)
	c.Name = k.Value
	switch v.Kind {
	case yamlsyntax.Scalar:
		c.Exact = !isNull(v)
		if c.Exact && v.Value != "" {
			c.Kind, c.Text = ValueText, v.Value
		}
	case yamlsyntax.Mapping:
		if len(v.Content) == 0 {
			break
		}
		c.Kind = ValueMap
		c.Map = cutSlab(&y.kvps, len(v.Content)/2)
		kvs := cutSlab(&y.kvs, len(v.Content)/2)
		y.pairs(v, func(pk, pv *yamlsyntax.Node) {
			kv := KV{Key: pk.Value, Value: pv.Value, Exact: !isNull(pv)}
			switch {
			case pv.Kind == yamlsyntax.Sequence:
				l, ok := y.list(pv, fmt.Sprintf("property %q of %s %q", pk.Value, what, k.Value))
				if !ok {
					return
				}
				kv.Value, kv.List = l.Text(), l
			case pv.Kind != yamlsyntax.Scalar:
				y.errs.add(y.pos(pv), "property %q of %s %q must be a string or a list, not %s", pk.Value, what, k.Value, kindName(pv))
				return
			case isNull(pv):
				kv.Value = ""
			}
			kvs = append(kvs, kv)
			y.placeKV(&kvs[len(kvs)-1], pk, pv)
			c.Map = append(c.Map, &kvs[len(kvs)-1])
		})
	case yamlsyntax.Sequence:
		l, ok := y.list(v, fmt.Sprintf("value of %s %q", what, k.Value))
		if !ok {
			return nil
		}
		c.Kind, c.Text, c.Exact, c.List = ValueText, l.Text(), true, l
	default:
		y.errs.add(y.pos(v), "value of %s %q must be a string, a list or a mapping, not %s", what, k.Value, kindName(v))
		return nil
	}
	return c
}

// list reads a value written as a list of scalars (what describes it in
// messages); false, with the problems reported, if an item is not a
// scalar.
func (y *yamlReader) list(n *yamlsyntax.Node, what string) (*ListValue, bool) {
	l := &ListValue{Items: make([]ListItem, 0, len(n.Content))}
	ok := true
	for _, it := range n.Content {
		if !y.plain(it) {
			ok = false
			continue
		}
		if it.Kind != yamlsyntax.Scalar || isNull(it) {
			y.errs.add(y.pos(it), "%s: list items must be strings, not %s", what, kindName(it))
			ok = false
			continue
		}
		l.Items = append(l.Items, ListItem{Text: it.Value, Pos: y.pos(it), at: nodeSpan(it)})
	}
	return l, ok
}

// mixin reads `id: {mixin: ..., component: value, ...}`.
func (y *yamlReader) mixin(k, v *yamlsyntax.Node) *MixinSpec {
	if !validID(k.Value) {
		y.errs.add(y.pos(k), "%s", idMsg("mixin id", k.Value))
		return nil
	}
	m := &MixinSpec{ID: k.Value, Pos: y.pos(k), MixinPos: y.pos(v)}
	y.each(v, "mixin "+strconv.Quote(k.Value), func(k, v *yamlsyntax.Node) {
		switch k.Value {
		case YAMLMixin:
			m.MixinPos = y.pos(v)
			for _, s := range y.strings(v, YAMLMixin, true) {
				m.Mixins = append(m.Mixins, s.text)
			}
		case YAMLChildren, YAMLPrefab, YAMLParts:
			y.errs.add(y.pos(k), "%s", mixinSubtreeMsg(k.Value))
		case YAMLID, YAMLClass:
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
func (y *yamlReader) entities(n *yamlsyntax.Node, depth int) []*EntitySpec {
	if isNull(n) {
		return nil
	}
	if n.Kind != yamlsyntax.Sequence {
		what := YAMLEntities
		if depth > 1 {
			what = YAMLChildren
		}
		y.errs.add(y.pos(n), "%s must be a list of entities, not %s", what, kindName(n))
		return nil
	}
	if depth > y.lim.MaxDepth {
		y.errs.add(y.pos(n), "entities nested too deeply (limit %d)", y.lim.MaxDepth)
		return nil
	}
	out := make([]*EntitySpec, 0, len(n.Content))
	for _, it := range n.Content {
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
func (y *yamlReader) entityItem(it *yamlsyntax.Node, depth int) *EntitySpec {
	if y.stop || y.errs.full || !y.plain(it) {
		return nil
	}
	if it.Kind != yamlsyntax.Mapping {
		y.errs.add(y.pos(it), "entity must be a mapping, not %s", kindName(it))
		return nil
	}
	y.n++
	if y.n > y.lim.MaxEntities {
		y.errs.add(y.pos(it), "too many entities (limit %d)", y.lim.MaxEntities)
		y.stop = true
		return nil
	}
	if y.errs.poll() {
		return nil // interrupted
	}
	return y.entity(it, depth)
}

// newEntity returns a zeroed EntitySpec cut from a slab.
func (y *yamlReader) newEntity() *EntitySpec {
	if len(y.ents) == 0 {
		y.ents = make([]EntitySpec, 128)
	}
	e := &y.ents[0]
	y.ents = y.ents[1:]
	return e
}

func (y *yamlReader) entity(n *yamlsyntax.Node, depth int) *EntitySpec {
	e := y.newEntity()
	e.Pos, e.File = y.pos(n), y.file
	e.Components = cutSlab(&y.ptrs, len(n.Content)/2)
	y.pairs(n, func(k, v *yamlsyntax.Node) {
		switch k.Value {
		case YAMLID:
			e.IDPos = y.pos(v)
			if s, ok := y.scalar(v, YAMLID); ok {
				if !validID(s) {
					y.errs.add(e.IDPos, "%s", idMsg("entity id", s))
				} else {
					e.ID = s
				}
			}
		case YAMLClass:
			e.Class = y.names(v, YAMLClass)
		case YAMLMixin:
			e.MixinPos = y.pos(v)
			e.Mixins = y.names(v, YAMLMixin)
		case YAMLChildren:
			e.Children = y.entities(v, depth+1)
		case YAMLPrefab:
			in := e.instance()
			in.PrefabPos = y.pos(v)
			if s, ok := y.scalar(v, YAMLPrefab); ok {
				if !validID(s) {
					y.errs.add(in.PrefabPos, "%s", idMsg("prefab name", s))
				} else {
					in.Prefab = s
				}
			}
		case YAMLParts:
			y.each(v, YAMLParts, func(k, v *yamlsyntax.Node) {
				if p := y.part(k, v, depth); p != nil {
					in := e.instance()
					in.Parts = append(in.Parts, p)
				}
			})
		default:
			if c := y.component(k, v, "component"); c != nil {
				e.Components = append(e.Components, c)
			}
		}
	})
	return e
}

// prefab reads `name: {entity body}` of the prefabs section.
func (y *yamlReader) prefab(k, v *yamlsyntax.Node) *PrefabSpec {
	if !validID(k.Value) {
		y.errs.add(y.pos(k), "%s", idMsg("prefab name", k.Value))
		return nil
	}
	p := &PrefabSpec{Name: k.Value, Pos: y.pos(k)}
	if isNull(v) {
		p.Body = &EntitySpec{Pos: y.pos(v), File: y.file}
		return p
	}
	if p.Body = y.entityItem(v, 1); p.Body == nil {
		return nil
	}
	return p
}

// part reads `path: {entity body}` of an instance's parts.
func (y *yamlReader) part(k, v *yamlsyntax.Node, depth int) *PartSpec {
	if msg := partPathProblem(k.Value); msg != "" {
		y.errs.add(y.pos(k), "%s", msg)
		return nil
	}
	p := &PartSpec{Path: k.Value, PathPos: y.pos(k)}
	if isNull(v) {
		p.Body = &EntitySpec{Pos: y.pos(v), File: y.file}
		return p
	}
	if v.Kind == yamlsyntax.Scalar {
		return y.removedPart(p, v)
	}
	if p.Body = y.entityItem(v, depth+1); p.Body == nil {
		return nil
	}
	return p
}

// removedPart makes p, whose value is the scalar v, a part the instance
// does not have if v says "removed", or reports what it says instead.
func (y *yamlReader) removedPart(p *PartSpec, v *yamlsyntax.Node) *PartSpec {
	if !y.plain(v) {
		return nil
	}
	if v.Value != YAMLRemoved {
		y.errs.add(y.pos(v), "part %q: want its changes (components, class, mixin, children) or %q for a part the instance does not have, not %q", p.Path, YAMLRemoved, v.Value)
		return nil
	}
	p.Removed, p.Body = true, &EntitySpec{Pos: y.pos(v), File: y.file}
	return p
}

// decl reads one data-only component declaration.
func (y *yamlReader) decl(k, v *yamlsyntax.Node) *Decl {
	if !validName(k.Value, false) {
		y.errs.add(y.pos(k), "%s", nameMsg("component", k.Value))
		return nil
	}
	d := &Decl{Name: k.Value, Pos: y.pos(k)}
	if isNull(v) {
		return d
	}
	if v.Kind != yamlsyntax.Mapping {
		y.errs.add(y.pos(v), "declaration of %q must be a mapping, not %s", k.Value, kindName(v))
		return d
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		if t, tv := v.Content[i], v.Content[i+1]; t.Kind == yamlsyntax.Scalar && t.Value == YAMLType && tv.Kind == yamlsyntax.Scalar {
			d.Single = true
			if p := y.prop(v, "", y.pos(k), k.Value); p != nil {
				d.Props = []*PropDecl{p}
			}
			return d
		}
	}
	y.pairs(v, func(pk, pv *yamlsyntax.Node) {
		if !validName(pk.Value, false) {
			y.errs.add(y.pos(pk), "%s", nameMsg("property", pk.Value))
			return
		}
		if pv.Kind != yamlsyntax.Mapping && !isNull(pv) {
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
func (y *yamlReader) prop(n *yamlsyntax.Node, name string, at Pos, what string) *PropDecl {
	p := &PropDecl{Name: name, Pos: at}
	y.each(n, what, func(k, v *yamlsyntax.Node) {
		switch k.Value {
		case YAMLType:
			if s, ok := y.scalar(v, what+": "+YAMLType); ok {
				p.Type = s
			}
		case YAMLDefault:
			p.DefaultPos = y.pos(v)
			switch {
			case v.Kind == yamlsyntax.Sequence:
				l, ok := y.list(v, what+": "+YAMLDefault)
				if !ok {
					return
				}
				p.Default, p.DefaultList = l.Text(), l
			case v.Kind != yamlsyntax.Scalar:
				y.errs.add(y.pos(v), "%s: default must be a string or a list, not %s", what, kindName(v))
				return
			case !isNull(v):
				p.Default = v.Value
			}
			p.HasDefault = true
		case YAMLOneOf:
			if v.Kind == yamlsyntax.Scalar && !isNull(v) {
				p.OneOf = splitList(v.Value)
				return
			}
			p.OneOf = []string{}
			for _, s := range y.strings(v, what+": "+YAMLOneOf, false) {
				p.OneOf = append(p.OneOf, s.text)
			}
		case YAMLOnDelete:
			if s, ok := y.scalar(v, what+": "+YAMLOnDelete); ok {
				p.OnDelete, p.OnDeletePos = s, y.pos(v)
			}
		case YAMLMin, YAMLMax:
			s, ok := y.scalar(v, what+": "+k.Value)
			if !ok {
				return
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				y.errs.add(y.pos(v), "%s: %s must be a number, not %q", what, k.Value, s)
				return
			}
			if k.Value == YAMLMin {
				p.Min = &f
			} else {
				p.Max = &f
			}
		default:
			y.errs.add(y.pos(k), "%s: unknown key %q in property declaration (want %s)", what, k.Value, orList(yamlPropKeys))
		}
	})
	return p
}

// splitList splits a list of values separated by commas and/or white space.
func splitList(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// ---- writing ----

// WriteYAML writes doc as a YAML scene.
func WriteYAML(w io.Writer, doc *Document) error {
	var b bytes.Buffer
	if len(doc.Systems) > 0 {
		b.WriteString(YAMLScene + ":\n")
		for _, c := range doc.Systems {
			writeYAMLComponent(&b, "  ", c)
		}
	}
	if len(doc.Decls) > 0 {
		b.WriteString(YAMLComponents + ":\n")
		for _, d := range doc.Decls {
			fmt.Fprintf(&b, "  %s:", d.Name)
			switch {
			case len(d.Props) == 0:
				b.WriteString(" {}\n")
			case d.Single:
				b.WriteString(" " + propDeclYAML(d.Props[0]) + "\n")
			default:
				b.WriteString("\n")
				for _, p := range d.Props {
					fmt.Fprintf(&b, "    %s: %s\n", p.Name, propDeclYAML(p))
				}
			}
		}
	}
	if len(doc.Mixins) > 0 {
		b.WriteString(YAMLMixins + ":\n")
		for _, m := range doc.Mixins {
			fmt.Fprintf(&b, "  %s:\n", m.ID)
			if len(m.Mixins) > 0 {
				fmt.Fprintf(&b, "    %s: %s\n", YAMLMixin, yamlString(strings.Join(m.Mixins, " ")))
			}
			for _, c := range m.Components {
				writeYAMLComponent(&b, "    ", c)
			}
		}
	}
	if len(doc.Prefabs) > 0 {
		b.WriteString(YAMLPrefabs + ":\n")
		for _, p := range doc.Prefabs {
			writeYAMLFields(&b, "  "+yamlString(p.Name)+":\n    ", "    ", p.Body)
		}
	}
	b.WriteString(YAMLEntities + ":")
	if len(doc.Entities) == 0 {
		b.WriteString(" []")
	}
	b.WriteString("\n")
	for _, e := range doc.Entities {
		writeYAMLEntity(&b, "  ", e)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func propDeclYAML(p *PropDecl) string {
	var parts []string
	if p.Type != "" {
		parts = append(parts, YAMLType+": "+p.Type)
	}
	switch {
	case p.DefaultList != nil:
		parts = append(parts, YAMLDefault+": "+yamlFlowList(p.DefaultList))
	case p.HasDefault:
		parts = append(parts, YAMLDefault+": "+yamlString(p.Default))
	}
	if len(p.OneOf) > 0 {
		var q []string
		for _, o := range p.OneOf {
			q = append(q, yamlString(o))
		}
		parts = append(parts, YAMLOneOf+": ["+strings.Join(q, ", ")+"]")
	}
	if p.Min != nil {
		parts = append(parts, YAMLMin+": "+strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		parts = append(parts, YAMLMax+": "+strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	if p.OnDelete != "" {
		parts = append(parts, YAMLOnDelete+": "+yamlString(p.OnDelete))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// yamlFlowMap writes the entries of a mapping value as a YAML flow mapping.
func yamlFlowMap(kvs []*KV) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, kv := range kvs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(kv.Key + ": " + yamlKVValue(kv))
	}
	b.WriteByte('}')
	return b.String()
}

// yamlKVValue writes the value of a property: a scalar, or a flow
// sequence for one written as a list.
func yamlKVValue(kv *KV) string {
	if kv.List != nil {
		return yamlFlowList(kv.List)
	}
	return yamlString(kv.Value)
}

// yamlTextValue writes a component's value of Kind ValueText: a scalar,
// or a flow sequence for one written as a list.
func yamlTextValue(c *ComponentSpec) string {
	if c.List != nil {
		return yamlFlowList(c.List)
	}
	return yamlString(c.Text)
}

// yamlFlowList writes a list as a YAML flow sequence, [x, "y z"].
func yamlFlowList(l *ListValue) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range l.Items {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(yamlString(l.Items[i].Text))
	}
	b.WriteByte(']')
	return b.String()
}

func writeYAMLComponent(b *bytes.Buffer, indent string, c *ComponentSpec) {
	switch c.Kind {
	case ValueEmpty:
		if c.Exact {
			fmt.Fprintf(b, "%s%s: \"\"\n", indent, c.Name)
			return
		}
		fmt.Fprintf(b, "%s%s:\n", indent, c.Name)
	case ValueText:
		fmt.Fprintf(b, "%s%s: %s\n", indent, c.Name, yamlTextValue(c))
	case ValueMap:
		fmt.Fprintf(b, "%s%s:\n", indent, c.Name)
		for _, kv := range c.Map {
			fmt.Fprintf(b, "%s  %s: %s\n", indent, kv.Key, yamlKVValue(kv))
		}
	}
}

func writeYAMLEntity(b *bytes.Buffer, indent string, e *EntitySpec) {
	writeYAMLFields(b, indent+"- ", indent+"  ", e)
}

// writeYAMLFields writes the keys of entity e, the first line starting
// with first and the others with rest; an entity with nothing is "{}".
func writeYAMLFields(b *bytes.Buffer, first, rest string, e *EntitySpec) {
	lines := 0
	line := func(format string, args ...any) {
		if lines == 0 {
			b.WriteString(first)
		} else {
			b.WriteString(rest)
		}
		lines++
		fmt.Fprintf(b, format, args...)
		b.WriteByte('\n')
	}
	if e.ID != "" {
		line("%s: %s", YAMLID, yamlString(e.ID))
	}
	if e.Prefab() != "" {
		line("%s: %s", YAMLPrefab, yamlString(e.Prefab()))
	}
	if len(e.Class) > 0 {
		line("%s: %s", YAMLClass, yamlString(strings.Join(e.Class, " ")))
	}
	if len(e.Mixins) > 0 {
		line("%s: %s", YAMLMixin, yamlString(strings.Join(e.Mixins, " ")))
	}
	for _, c := range e.Components {
		switch c.Kind {
		case ValueEmpty:
			if c.Exact {
				line("%s: \"\"", c.Name)
			} else {
				line("%s:", c.Name)
			}
		case ValueText:
			line("%s: %s", c.Name, yamlTextValue(c))
		case ValueMap:
			line("%s: %s", c.Name, yamlFlowMap(c.Map))
		}
	}
	if len(e.Parts()) > 0 {
		line("%s:", YAMLParts)
		for _, p := range e.Parts() {
			if p.Removed {
				b.WriteString(rest + "  " + yamlString(p.Path) + ": " + YAMLRemoved + "\n")
				continue
			}
			writeYAMLFields(b, rest+"  "+yamlString(p.Path)+":\n"+rest+"    ", rest+"    ", p.Body)
		}
	}
	if len(e.Children) > 0 {
		line("%s:", YAMLChildren)
		for _, ch := range e.Children {
			writeYAMLEntity(b, rest+"  ", ch)
		}
	}
	if lines == 0 {
		b.WriteString(strings.TrimRight(first, " \n") + " {}\n")
	}
}

// yamlString writes s as a YAML double-quoted scalar, or bare when that
// is unambiguous.
func yamlString(s string) string {
	if plainYAML(s) {
		return s
	}
	return `"` + yamlsyntax.EscapeDouble(s) + `"`
}

func plainYAML(s string) bool {
	if s == "" || strings.TrimSpace(s) != s {
		return false
	}
	switch s {
	case "true", "false", "null", "yes", "no", "on", "off", "~", "True", "False", "Null", "NULL", "TRUE", "FALSE", "Yes", "No", "YES", "NO", "On", "Off", "ON", "OFF", "y", "n", "Y", "N":
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c == ' ' || c == '.' || c == '-' || c == '_' || c == '+' ||
			'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
		if !ok {
			return false
		}
	}
	if s[0] == '-' && (len(s) == 1 || s[1] == ' ') {
		return false
	}
	return true
}
