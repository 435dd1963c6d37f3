package schema

import (
	"reflect"
	"strings"

	"github.com/scenecs/scenecs/internal/attrtext"
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
		var c attrtext.Chunk
		c, start = attrtext.Cut(text, start)
		switch {
		case c.OpenURL >= 0:
			return nil, &ValueError{Text: text[c.OpenURL:c.End], Offset: c.OpenURL, Expected: `")" to close "url("`}
		case c.Empty():
		case c.Colon < 0:
			return nil, &ValueError{Text: text[c.TrimStart:c.TrimEnd], Offset: c.TrimStart, Expected: `"key: value" pairs separated by ";"`}
		case c.KeyStart == c.KeyEnd:
			return nil, &ValueError{Text: text[c.TrimStart:c.TrimEnd], Offset: c.TrimStart, Expected: `a key before ":"`}
		default:
			ps = ps.set(Pair{Key: text[c.KeyStart:c.KeyEnd], Value: text[c.ValStart:c.ValEnd], KeyAt: c.KeyStart, ValueAt: c.ValStart})
		}
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
