package schema

import (
	"reflect"
	"strings"
)

// Pairs is the value of a pairs property ([PairsType]): "key: value"
// pairs in the order written, keys not known in advance. A component
// whose single property is of the pairs type takes arbitrary pairs as
// its attribute string, as
// A-Frame's components with a custom style-parser schema do (event-set:
// `_event: click; material.color: red`): the text is cut at each ';'
// outside url(...), each chunk at its first ':', keys and values trimmed;
// empty chunks are skipped; a key given twice keeps its first place and
// its last value. Keys are kept as written (no hyphen-case conversion).
// Each Pair records where its key and value start in the text parsed, so
// that a component's Check can point at them.
type Pairs []Pair

// Pair is one "key: value" pair of a [Pairs] value.
type Pair struct {
	Key, Value string
	// KeyAt and ValueAt are the byte offsets of Key and Value in the
	// text the Pairs were parsed from (0 for pairs made in Go).
	KeyAt, ValueAt int
}

// Get returns the value of key and whether it is given.
func (ps Pairs) Get(key string) (string, bool) {
	for _, p := range ps {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// String returns the pairs as attribute text, "key: value; key: value".
func (ps Pairs) String() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Key)
		b.WriteString(": ")
		b.WriteString(p.Value)
	}
	return b.String()
}

// PairsType returns a property type named "pairs" whose values are
// [Pairs], to register in a [Types] (package components registers it):
// a component registered with Pairs as its Go type then has one pairs
// property, and takes arbitrary "key: value" pairs as its attribute
// string. It is not a built-in type, because a pairs value with several
// pairs cannot be written inside a multi-property attribute string
// (its ';' would end the property's value).
func PairsType() *Type {
	return &Type{
		Name: "pairs", GoType: reflect.TypeFor[Pairs](), Default: Pairs(nil),
		Parse: parsePairsValue, Print: printStringer, Equal: equalPairs,
	}
}

// ParsePairs parses text as [Pairs]. Its errors are [*ValueError]s whose
// Offset is in text: a chunk without ':' or with nothing before it.
func ParsePairs(text string) (Pairs, error) {
	var ps Pairs
	for start := 0; start <= len(text); {
		end := chunkEnd(text, start)
		if u := unclosedURL(text[start:end]); u >= 0 {
			return nil, &ValueError{Text: text[start+u : end], Offset: start + u, Expected: `")" to close "url("`}
		}
		chunk := text[start:end]
		cs, ce := trimBounds(chunk)
		if cs < ce {
			colon := strings.IndexByte(chunk, ':')
			if colon < 0 {
				return nil, &ValueError{Text: chunk[cs:ce], Offset: start + cs, Expected: `"key: value" pairs separated by ";"`}
			}
			ks, ke := trimBounds(chunk[:colon])
			if ks == ke {
				return nil, &ValueError{Text: chunk[cs:ce], Offset: start + cs, Expected: `a key before ":"`}
			}
			vs, ve := trimBounds(chunk[colon+1:])
			p := Pair{Key: chunk[ks:ke], Value: chunk[colon+1+vs : colon+1+ve], KeyAt: start + ks, ValueAt: start + colon + 1 + vs}
			ps = ps.set(p)
		}
		start = end + 1
	}
	return ps, nil
}

// set adds p, or replaces the value of the pair with its key.
func (ps Pairs) set(p Pair) Pairs {
	for i := range ps {
		if ps[i].Key == p.Key {
			ps[i].Value, ps[i].ValueAt = p.Value, p.ValueAt
			return ps
		}
	}
	return append(ps, p)
}

// unclosedURL returns the offset in chunk of a "url(" that no ')'
// closes, or -1.
func unclosedURL(chunk string) int {
	at := -1
	for i := 0; i < len(chunk); i++ {
		switch {
		case chunk[i] == '(' && i >= 3 && chunk[i-3:i] == "url":
			at = i - 3
		case chunk[i] == ')':
			at = -1
		}
	}
	return at
}

func parsePairsValue(text string, _ any) (any, error) {
	ps, err := ParsePairs(text)
	if err != nil {
		return nil, err
	}
	return ps, nil
}

// equalPairs compares keys and values in order, not where they were
// written.
func equalPairs(a, b any) bool {
	x, ok1 := a.(Pairs)
	y, ok2 := b.(Pairs)
	if !ok1 || !ok2 || len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Key != y[i].Key || x[i].Value != y[i].Value {
			return false
		}
	}
	return true
}

// chunkEnd returns the end of the "prop: value" chunk of text starting at
// start: the next ';' outside url(...), or len(text), as ParseAttr cuts.
func chunkEnd(text string, start int) int {
	url := false
	for i := start; i < len(text); i++ {
		switch c := text[i]; {
		case c == ';' && !url:
			return i
		case c == '(' && i >= 3 && text[i-3:i] == "url":
			url = true
		case c == ')':
			url = false
		}
	}
	return len(text)
}
