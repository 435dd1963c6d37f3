package schema

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/internal/attrtext"
	"github.com/scenecs/scenecs/internal/didyoumean"
)

// A PropValue is one property value set by an attribute string or mapping.
type PropValue struct {
	// Index is the property's index in Schema.Props.
	Index int
	// Value is the parsed value, of the property type's GoType.
	Value any
}

// A Patch is the list of property values an attribute string or mapping
// gives, in the order the properties first appear, each property at most
// once. It is not merged with any existing data: properties it does not
// mention are left to the caller (mixins, defaults, current values).
type Patch []PropValue

// set records v for property idx, replacing an earlier value for it at or
// after from: the last occurrence wins, at the place of the first.
func (p Patch) set(from, idx int, v any) Patch {
	for j := from; j < len(p); j++ {
		if p[j].Index == idx {
			p[j].Value = v
			return p
		}
	}
	return append(p, PropValue{Index: idx, Value: v})
}

// Set records v for property idx, replacing an earlier value for it: the
// last value given wins, at the place of the first.
func (p Patch) Set(idx int, v any) Patch { return p.set(0, idx, v) }

const pairsExpected = `"property: value" pairs separated by ";"`

// ParseAttr parses a component's attribute string, as A-Frame writes it:
//
//   - a tag (no properties) takes only the empty string (or spaces);
//   - a single-property component takes the bare value (position="1 2 3"),
//     handed whole to the property type (so a string property may contain
//     ';' and ':');
//   - a multi-property component takes "prop: value; prop: value". The
//     text is cut at each ';' except inside url(...); empty chunks (doubled
//     or trailing ';') are skipped; each chunk is cut at its first ':',
//     key and value trimmed; hyphen-case keys name camelCase properties
//     ("max-hp" is maxHp); when a property is repeated the last value wins.
//
// An empty value ("hp:") gives the property type's parse of the empty
// text: the empty string, array or selector for string-like types, the
// property's default for the others.
//
// Unlike A-Frame, ParseAttr refuses what it cannot make sense of: values
// that do not parse (never NaN), unknown property names, a chunk without a
// ':', a value given to a tag, values breaking oneOf, min or max, vectors
// with too many numbers, an unclosed url(. Each problem is an *AttrError
// whose Offset is a byte offset in text; component is used only in
// messages. Every chunk is looked at, so that all the problems of a
// multi-property text are reported at once: the error is the *AttrError
// when there is one, an [AttrErrors] listing them in text order when there
// are several (at most [MaxAttrErrors]; errors.As finds the first, and
// [AttrErrorList] lists them whichever it is).
//
// The patch holds only what text gives; merging is the caller's business.
func (s *Schema) ParseAttr(component, text string) (Patch, error) {
	n := len(s.Props)
	if n > 1 {
		n = min(n, strings.Count(text, ";")+1)
	}
	return s.AppendAttr(make(Patch, 0, n), component, text)
}

// AppendAttr is ParseAttr appending to dst, so a caller parsing many
// attribute strings can reuse one Patch's storage. On error dst is
// returned with the values that parsed appended.
func (s *Schema) AppendAttr(dst Patch, component, text string) (Patch, error) {
	switch {
	case s.IsTag():
		start, end := trimBounds(text)
		if start < end {
			return dst, &AttrError{Kind: InvalidSyntax, Component: component, Text: text[start:end], Offset: start, Pair: -1,
				Expected: "no value (" + nameOr(component, "the component") + " has no properties)"}
		}
		return dst, nil
	case s.Single():
		start, end := trimBounds(text)
		v, err := s.Props[0].Parse(text[start:end])
		if err != nil {
			return dst, newValueAttrError(component, "", err, text[start:end], start)
		}
		return append(dst, PropValue{Index: 0, Value: v}), nil
	}
	from := len(dst)
	var errs AttrErrors // nil unless the text has problems: no cost when it has none
	var c attrtext.Chunk
	for at := 0; at <= len(text); {
		at = c.Cut(text, at)
		if c.OpenURL >= 0 {
			// The rest of the text is in the url(: nothing follows.
			errs = append(errs, &AttrError{Kind: InvalidSyntax, Component: component, Text: text[c.OpenURL:], Offset: c.OpenURL, Pair: -1,
				Expected: `")" to close "url("`})
			break
		}
		if c.Empty() {
			continue
		}
		if c.Colon < 0 {
			if errs.syntax(component, text[c.TrimStart:c.TrimEnd], c.TrimStart, pairsExpected) {
				break
			}
			continue
		}
		if c.KeyStart == c.KeyEnd {
			if errs.syntax(component, text[c.TrimStart:c.TrimEnd], c.TrimStart, `a property name before ":"`) {
				break
			}
			continue
		}
		key := text[c.KeyStart:c.KeyEnd]
		idx, ok := s.Lookup(key)
		if !ok {
			if errs.unknown(s, component, key, c.KeyStart) {
				break
			}
			continue
		}
		value := text[c.ValStart:c.ValEnd]
		v, err := s.Props[idx].Parse(value)
		if err != nil {
			if errs.value(component, s.Props[idx].Name, err, value, c.ValStart) {
				break
			}
			continue
		}
		dst = dst.set(from, idx, v)
	}
	return dst, errs.err()
}

// ParseMap parses a component given as a mapping (a YAML component written
// as `health: {hp: 100}`): key/value pairs with values as text. The rules
// are those of ParseAttr for multi-property components: keys camelCase or
// hyphen-case, keys and values trimmed, the last of a repeated property
// wins, the same errors. A tag takes only an empty mapping; a
// single-property component cannot be written as a mapping, unless its
// type has a ParseMap ([Schema.TakesMap]), which is given the pairs as
// they are. Every pair
// is looked at, as ParseAttr looks at every chunk; in each [*AttrError],
// Pair is the index of the offending pair in kv.
func (s *Schema) ParseMap(component string, kv [][2]string) (Patch, error) {
	if len(kv) == 0 {
		return nil, nil
	}
	if s.TakesMap() {
		v, err := s.Props[0].Type.ParseMap(kv, s.Props[0].Default)
		if err != nil {
			var ae *AttrError
			if errors.As(err, &ae) {
				ae.Component = component
				return nil, ae
			}
			return nil, &AttrError{Kind: InvalidValue, Component: component, Text: kv[0][1], Expected: err.Error(), Err: err}
		}
		return Patch{{Index: 0, Value: v}}, nil
	}
	if s.IsTag() || s.Single() {
		exp := "a bare value (" + nameOr(component, "the component") + " has a single property), not a mapping"
		if s.IsTag() {
			exp = "no value (" + nameOr(component, "the component") + " has no properties)"
		}
		ks, ke := trimBounds(kv[0][0])
		return nil, &AttrError{Kind: InvalidSyntax, Component: component, Text: kv[0][0][ks:ke], Offset: ks, Expected: exp}
	}
	p := make(Patch, 0, len(kv))
	var errs AttrErrors
	for pair, e := range kv {
		ks, ke := trimBounds(e[0])
		key := e[0][ks:ke]
		if key == "" {
			if errs.add(&AttrError{Kind: InvalidSyntax, Component: component, Text: e[0], Pair: pair, Expected: "a property name"}) {
				break
			}
			continue
		}
		idx, ok := s.Lookup(key)
		if !ok {
			if errs.add(s.unknownProperty(component, key, ks, pair)) {
				break
			}
			continue
		}
		vs, ve := trimBounds(e[1])
		v, err := s.Props[idx].Parse(e[1][vs:ve])
		if err != nil {
			ae := newValueAttrError(component, s.Props[idx].Name, err, e[1][vs:ve], vs)
			ae.Pair = pair
			if errs.add(ae) {
				break
			}
			continue
		}
		p = p.set(0, idx, v)
	}
	return p, errs.err()
}

// TakesMap reports whether the schema is that of a single-property
// component whose type can be written as a mapping (its Type.ParseMap is
// set): [Schema.ParseMap] then hands the whole mapping to the type.
func (s *Schema) TakesMap() bool {
	return s.Single() && s.Props[0].Type != nil && s.Props[0].Type.ParseMap != nil
}

func (s *Schema) unknownProperty(component, key string, offset, pair int) *AttrError {
	e := &AttrError{Kind: UnknownProperty, Component: component, Property: key, Text: key, Offset: offset, Pair: pair,
		Suggest: didyoumean.Nearest(key, s.names)}
	if e.Suggest == "" {
		e.Expected = "one of " + strings.Join(s.names, ", ")
	}
	return e
}

// PrintAttr prints a component's data as an attribute string: nothing for
// a tag, the bare value for a single-property component, and "prop: value"
// pairs joined by "; " otherwise, values[i] being the value of Props[i]
// (nil entries, and entries missing at the end, are left out). Values that
// came from parsing print back to text that ParseAttr turns into equal
// values. A string value set from Go cannot round-trip if it has leading
// or trailing spaces, or (in a multi-property component) a ';' outside
// url(...), because the A-Frame syntax has no escapes.
func (s *Schema) PrintAttr(values []any) string {
	switch {
	case s.IsTag():
		return ""
	case s.Single():
		if len(values) == 0 || values[0] == nil {
			return ""
		}
		return s.Props[0].Print(values[0])
	}
	var b strings.Builder
	for i := range s.Props {
		if i >= len(values) || values[i] == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s.Props[i].Name)
		b.WriteString(": ")
		b.WriteString(s.Props[i].Print(values[i]))
	}
	return b.String()
}

// PrintPatch prints a patch as an attribute string, in the patch's order:
// the bare value for a single-property component, "prop: value" pairs
// otherwise. It panics if the patch names a property the schema does not
// have.
func (s *Schema) PrintPatch(p Patch) string {
	if s.Single() && len(p) > 0 {
		return s.Props[0].Print(p[len(p)-1].Value)
	}
	var b strings.Builder
	for i, pv := range p {
		if pv.Index < 0 || pv.Index >= len(s.Props) {
			panic(fmt.Sprintf("registry: PrintPatch: property index %d out of range [0,%d)", pv.Index, len(s.Props)))
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(s.Props[pv.Index].Name)
		b.WriteString(": ")
		b.WriteString(s.Props[pv.Index].Print(pv.Value))
	}
	return b.String()
}

// trimBounds returns the bounds of s without leading and trailing ASCII
// white space.
func trimBounds(s string) (start, end int) { return attrtext.Trim(s, 0, len(s)) }

func nameOr(name, alt string) string {
	if name == "" {
		return alt
	}
	return name
}

// syntax, unknown and value add a problem of one of AppendAttr's chunks
// to e and report whether e is full. They are kept out of AppendAttr's
// loop (go:noinline) so that the loop, which now goes on after a
// problem, compiles as tight as when it stopped at the first (measured:
// inlined, the problems' code made a text without problems parse 10-20%
// slower).
//
//go:noinline
func (e *AttrErrors) syntax(component, text string, offset int, expected string) bool {
	return e.add(&AttrError{Kind: InvalidSyntax, Component: component, Text: text, Offset: offset, Pair: -1, Expected: expected})
}

// unknown adds an unknown property key (see syntax).
//
//go:noinline
func (e *AttrErrors) unknown(s *Schema, component, key string, offset int) bool {
	return e.add(s.unknownProperty(component, key, offset, -1))
}

// value adds a value its property refuses (see syntax).
//
//go:noinline
func (e *AttrErrors) value(component, property string, err error, value string, offset int) bool {
	return e.add(newValueAttrError(component, property, err, value, offset))
}

// ValueAt returns the byte offset in the attribute string text of the
// (trimmed) value of the property called prop, as ParseAttr reads text:
// the whole text for a single-property schema, else the value of the
// last "prop: value" pair naming it.
func (s *Schema) ValueAt(text, prop string) (int, bool) {
	if s.Single() {
		start, _ := trimBounds(text)
		return start, true
	}
	idx, ok := s.Lookup(prop)
	if !ok {
		return 0, false
	}
	at, found := 0, false
	for start := 0; start <= len(text); {
		var c attrtext.Chunk
		c, start = attrtext.Cut(text, start)
		if c.Colon >= 0 {
			if j, ok := s.Lookup(text[c.KeyStart:c.KeyEnd]); ok && j == idx {
				at, found = c.ValStart, true
			}
		}
	}
	return at, found
}

// PairValueAt finds, in the key/value pairs kv that [Schema.ParseMap]
// reads, the pair that gives the property prop (the last one, which is
// the one that counts) and the byte offset of its trimmed value: pair is
// -1 when kv does not give prop. For a schema whose single property takes
// the whole mapping ([Schema.TakesMap]), prop is a pair's key as written.
func (s *Schema) PairValueAt(kv [][2]string, prop string) (pair, offset int) {
	whole := s.TakesMap()
	idx, known := s.Lookup(prop)
	if !whole && !known {
		return -1, 0
	}
	for i := len(kv) - 1; i >= 0; i-- {
		ks, ke := trimBounds(kv[i][0])
		key := kv[i][0][ks:ke]
		if j, ok := s.Lookup(key); whole && key == prop || !whole && ok && j == idx {
			vs, _ := trimBounds(kv[i][1])
			return i, vs
		}
	}
	return -1, 0
}
