package behaviour

import (
	"strings"

	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// This file reads the values of the on and bind components: clauses
// "key: value" separated by ';' in an attribute string, or the pairs of a
// mapping. Values hold expressions, selectors and names, so the scanner
// that finds a clause's end knows what an expression may hold: a ';'
// (or a ',' between items) inside a string literal, inside brackets or
// inside a comment does not end anything.

// clause is one "key: value" of an on or bind value, with where its key
// and value start: in the text given to the type's Parse (Pair -1), or in
// the key and value of pair Pair of a mapping.
type clause struct {
	Key, Value     string
	KeyAt, ValueAt int
	Pair           int
	// Bare is a clause written without ':' (on's destroy): Key holds it.
	Bare bool
}

// synError is a syntax error of an on or bind value: the offending text,
// where it starts (as in a clause: in the text, or in pair Pair's key
// if InKey, else its value) and what was expected.
type synError struct {
	Text     string
	At       int
	Pair     int
	InKey    bool
	Key      string // the pair's key (a mapping's value errors)
	Expected string
}

// attrErr returns the error Parse or ParseMap reports for e.
func (e *synError) attrErr(mapping bool) error {
	if !mapping {
		return &registry.ValueError{Text: e.Text, Offset: e.At, Expected: e.Expected}
	}
	kind, prop := schema.InvalidValue, e.Key
	if e.InKey {
		kind, prop = schema.UnknownProperty, e.Text
	}
	return &registry.AttrError{Kind: kind, Property: prop, Text: e.Text, Offset: e.At, Pair: e.Pair, Expected: e.Expected}
}

// skipString returns the index just past the string literal that starts
// at s[i] (a quote: ", ' or `), or -1 if it is not closed.
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j + 1
		}
	}
	return -1
}

// scanValue returns the end of the text that starts at s[i]: the first
// byte of stops outside string literals, brackets and comments, or
// len(s). An unclosed string, bracket or comment, or a closing bracket
// without its opening one, is an error at it.
func scanValue(s string, i int, stops string) (int, *synError) {
	var open []int
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			j := skipString(s, i)
			if j < 0 {
				return 0, &synError{Text: s[i:], At: i, Expected: "the string's closing " + string(c)}
			}
			i = j
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			// A line comment would swallow the clauses after it once the
			// value is printed on one line.
			return 0, &synError{Text: "//", At: i, Expected: `no "//" comment here: write /* ... */`}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				return 0, &synError{Text: s[i:], At: i, Expected: `"*/" to close the comment`}
			}
			i += j + 4
			continue
		case c == '(' || c == '[' || c == '{':
			open = append(open, i)
		case c == ')' || c == ']' || c == '}':
			want := map[byte]byte{')': '(', ']': '[', '}': '{'}[c]
			if len(open) == 0 || s[open[len(open)-1]] != want {
				return 0, &synError{Text: string(c), At: i, Expected: "no " + string(c) + " here: it closes nothing"}
			}
			open = open[:len(open)-1]
		case len(open) == 0 && strings.IndexByte(stops, c) >= 0:
			return i, nil
		}
		i++
	}
	return len(s), checkOpen(s, open)
}

// checkOpen reports the innermost bracket left open.
func checkOpen(s string, open []int) *synError {
	if len(open) == 0 {
		return nil
	}
	at := open[len(open)-1]
	closer := map[byte]string{'(': ")", '[': "]", '{': "}"}[s[at]]
	return &synError{Text: s[at:], At: at, Expected: `"` + closer + `" to close "` + s[at:at+1] + `"`}
}

// trimAt returns the bounds of s[a:b] without surrounding white space.
func trimAt(s string, a, b int) (int, int) {
	for a < b && isSpace(s[a]) {
		a++
	}
	for b > a && isSpace(s[b-1]) {
		b--
	}
	return a, b
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isNameByte reports whether c may be part of a key, a component or
// property path, an event or a prefab name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// nameEnd returns the end of the run of name bytes at s[i:].
func nameEnd(s string, i int) int {
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return i
}

// splitClauses cuts an attribute string into clauses at each ';' that
// ends one (see scanValue); empty clauses are skipped. A clause is
// "key: value", key a name; a clause that does not start with a name
// and ':' is Bare.
func splitClauses(text string) ([]clause, *synError) {
	var cs []clause
	for start := 0; start <= len(text); {
		end, err := scanValue(text, start, ";")
		if err != nil {
			return nil, err
		}
		a, b := trimAt(text, start, end)
		if a < b {
			cs = append(cs, cutClause(text, a, b, -1))
		}
		start = end + 1
	}
	return cs, nil
}

// cutClause reads the clause text[a:b] (trimmed).
func cutClause(text string, a, b, pair int) clause {
	k := nameEnd(text, a)
	c := k
	for c < b && isSpace(text[c]) {
		c++
	}
	if k == a || c >= b || text[c] != ':' {
		return clause{Key: text[a:b], KeyAt: a, Pair: pair, Bare: true}
	}
	vs, ve := trimAt(text, c+1, b)
	return clause{Key: text[a:k], KeyAt: a, Value: text[vs:ve], ValueAt: vs, Pair: pair}
}

// mapClauses reads the pairs of a mapping as clauses: each key a
// clause's key, each value its value, which must not hold a ';' that
// would end a clause (one clause per key: the printed attribute string
// must read back the same).
func mapClauses(kv [][2]string) ([]clause, *synError) {
	cs := make([]clause, 0, len(kv))
	for i, p := range kv {
		ks, ke := trimAt(p[0], 0, len(p[0]))
		if ks == ke || nameEnd(p[0], ks) != ke {
			return nil, &synError{Text: p[0][ks:ke], At: ks, Pair: i, InKey: true, Expected: "a name (letters, digits, '-', '_' and '.')"}
		}
		vs, ve := trimAt(p[1], 0, len(p[1]))
		key := p[0][ks:ke]
		end, err := scanValue(p[1], vs, ";")
		if err != nil {
			err.Pair, err.Key = i, key
			return nil, err
		}
		if end < ve {
			return nil, &synError{Text: p[1][end:ve], At: end, Pair: i, Key: key,
				Expected: `no ";" here: in a mapping each clause has its own key (items of one clause are separated by ",")`}
		}
		cs = append(cs, clause{Key: p[0][ks:ke], KeyAt: ks, Value: p[1][vs:ve], ValueAt: vs, Pair: i})
	}
	return cs, nil
}

// item is one item of a clause's value: the text between commas.
type item struct {
	s  string
	at int // where s starts, as a clause's offsets count
}

// splitItems cuts a clause's value into its items at each ',' outside
// strings, brackets and comments. An empty item is an error.
func splitItems(c clause) ([]item, *synError) {
	var items []item
	v := c.Value
	for start := 0; start <= len(v); {
		end, err := scanValue(v, start, ",")
		if err != nil {
			err.At += c.ValueAt
			err.Pair, err.Key = c.Pair, c.Key
			return nil, err
		}
		a, b := trimAt(v, start, end)
		if a == b {
			return nil, &synError{Text: v, At: c.ValueAt, Pair: c.Pair, Key: c.Key, Expected: "items separated by \",\", none empty"}
		}
		items = append(items, item{v[a:b], c.ValueAt + a})
		start = end + 1
	}
	return items, nil
}

// printClauses prints clauses as an attribute string: "key: value; key:
// value" (a bare clause as its key), which splitClauses reads back to
// the same keys and values.
func printClauses(cs []clause) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.Key)
		if !c.Bare {
			b.WriteString(": ")
			b.WriteString(c.Value)
		}
	}
	return b.String()
}
