package components

import (
	"reflect"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// OnSpec is the value of an on component (its property type is "on"):
// the clauses of an event handler, as written, read into the handler's
// steps. It is parsed from an attribute string
//
//	event: hit; from: .bullet; if: detail.damage > 3; set: health.hp = health.hp - detail.damage; emit: hurt
//
// or from a mapping with the same keys. Parsing checks the syntax (the
// clauses, names, selectors); the expressions and the names of
// components, prefabs and animations are checked against the scene when
// it loads (the component's Check) and compiled when the component is
// set. docs/components.md describes every clause.
type OnSpec struct {
	text  string // as printed: the canonical attribute string
	items []onItem
}

// String returns the handler as an attribute string.
func (s OnSpec) String() string { return s.text }

// onKind is the kind of a clause of on.
type onKind uint8

// The clauses of on, in the order of onKeywords.
const (
	onEvent onKind = iota
	onFrom
	onIf
	onTarget
	onSet
	onAdd
	onRemove
	onEmit
	onSpawn
	onDestroy
	onStart
	onPause
	onResume
	onRestart
	onStop
	numOnKinds
)

var onKeywords = [numOnKinds]string{"event", "from", "if", "target", "set", "add", "remove", "emit",
	"spawn", "destroy", "start", "pause", "resume", "restart", "stop"}

// onKeywordList is onKeywords for messages.
var onKeywordList = strings.Join(onKeywords[:], ", ")

// onItem is one item of an on clause: an event name, the selector of from
// or target, the condition, one set (path = expression), one component,
// event, prefab or animation named by an action, with their expressions.
type onItem struct {
	kind   onKind
	name   string // the name, path or selector ("self" for target: self)
	nameAt int
	expr   string // if's condition, a set's value, emit's with, spawn's at
	exprAt int
	pair   int    // the mapping's pair, or -1
	key    string // the clause's key as written (a mapping's pair key)
}

// onType returns the property type "on".
func onType() *registry.Type {
	return &registry.Type{
		Name: "on", GoType: reflect.TypeFor[OnSpec](), Default: OnSpec{},
		Parse: func(text string, _ any) (any, error) {
			cs, err := splitClauses(text)
			if err != nil {
				return nil, err.attrErr(false)
			}
			return readOn(cs, false)
		},
		ParseMap: func(kv [][2]string, _ any) (any, error) {
			cs, err := mapClauses(kv)
			if err != nil {
				return nil, err.attrErr(true)
			}
			return readOn(cs, true)
		},
		Print: func(v any) string { return v.(OnSpec).text },
		Equal: func(a, b any) bool { return a.(OnSpec).text == b.(OnSpec).text },
	}
}

// readOn reads clauses into an OnSpec.
func readOn(cs []clause, mapping bool) (any, error) {
	var spec OnSpec
	var seen [numOnKinds]bool
	actions := false
	for _, c := range cs {
		k, err := onKeyword(c)
		if err != nil {
			return nil, err.attrErr(mapping)
		}
		if k <= onTarget && k != onTarget && seen[k] {
			return nil, (&synError{Text: c.Key, At: c.KeyAt, Pair: c.Pair, InKey: mapping,
				Expected: "one " + onKeywords[k] + " clause (give several " + itemsOf(k) + " in one, separated by \",\")"}).attrErr(mapping)
		}
		seen[k] = true
		items, err := readOnClause(k, c)
		if err != nil {
			return nil, err.attrErr(mapping)
		}
		spec.items = append(spec.items, items...)
		actions = actions || k > onTarget
	}
	if len(cs) > 0 && !actions {
		last := cs[len(cs)-1]
		return nil, (&synError{Text: last.Key, At: last.KeyAt, Pair: last.Pair, InKey: mapping,
			Expected: "an action after it (set, add, remove, emit, spawn, destroy, start, pause, resume, restart or stop)"}).attrErr(mapping)
	}
	spec.text = printClauses(cs)
	return spec, nil
}

// itemsOf names what a clause of kind k lists, for messages.
func itemsOf(k onKind) string {
	switch k {
	case onEvent:
		return "events"
	case onIf:
		return "conditions (joined with &&)"
	}
	return "selectors (a selector list, a, b)"
}

// onKeyword returns the kind of clause c, or an error naming the
// clauses.
func onKeyword(c clause) (onKind, *synError) {
	for k, kw := range onKeywords {
		if c.Key == kw && (!c.Bare || onKind(k) == onDestroy) {
			return onKind(k), nil
		}
	}
	if c.Bare {
		return 0, &synError{Text: c.Key, At: c.KeyAt, Pair: c.Pair, Expected: `a clause "KEY: VALUE", KEY one of ` + onKeywordList}
	}
	exp := "a clause: one of " + onKeywordList
	if s := didyoumean.Nearest(c.Key, onKeywords[:]); s != "" {
		exp = "a clause" + didyoumean.Phrase(s)
	}
	return 0, &synError{Text: c.Key, At: c.KeyAt, Pair: c.Pair, InKey: true, Expected: exp}
}

// readOnClause reads the items of one clause of kind k.
func readOnClause(k onKind, c clause) ([]onItem, *synError) {
	base := onItem{kind: k, pair: c.Pair, key: c.Key}
	bad := func(text string, at int, exp string) *synError {
		return &synError{Text: text, At: at, Pair: c.Pair, Key: c.Key, Expected: exp}
	}
	switch k {
	case onFrom, onTarget:
		base.name, base.nameAt = c.Value, c.ValueAt
		if k == onTarget && c.Value == "self" {
			return []onItem{base}, nil
		}
		if c.Value == "" {
			return nil, bad(c.Value, c.ValueAt, "a selector")
		}
		if _, err := selector.Parse(c.Value); err != nil {
			at := c.ValueAt
			if se, ok := err.(*selector.Error); ok && se.Col > 0 && se.Col <= len(c.Value)+1 {
				at += se.Col - 1
			}
			return nil, bad(c.Value[at-c.ValueAt:], at, "a selector: "+selectorMsg(err))
		}
		return []onItem{base}, nil
	case onIf:
		if c.Value == "" {
			return nil, bad("", c.ValueAt, "a condition (an expression, such as detail.damage > 3)")
		}
		base.expr, base.exprAt = c.Value, c.ValueAt
		return []onItem{base}, nil
	case onDestroy:
		if c.Value != "" {
			return nil, bad(c.Value, c.ValueAt, "nothing after destroy: it destroys the targets (the entity itself, or those of a target clause before it)")
		}
		return []onItem{base}, nil
	}
	items, err := splitItems(c)
	if err != nil {
		return nil, err
	}
	out := make([]onItem, 0, len(items))
	for _, it := range items {
		o, err := readOnItem(base, it, bad)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

// selectorMsg is a selector error's message without its position.
func selectorMsg(err error) string {
	if se, ok := err.(*selector.Error); ok {
		return se.Msg
	}
	return err.Error()
}

// readOnItem reads one item of a listing clause.
func readOnItem(o onItem, it item, bad func(string, int, string) *synError) (onItem, *synError) {
	n := nameEnd(it.s, 0)
	o.name, o.nameAt = it.s[:n], it.at
	rest := strings.TrimLeft(it.s[n:], " \t\r\n")
	restAt := it.at + len(it.s) - len(rest)
	switch o.kind {
	case onSet:
		if n == 0 || !strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "==") {
			return o, bad(it.s, it.at, "PATH = EXPRESSION (such as health.hp = health.hp - 1, or color = 'red')")
		}
		e := strings.TrimLeft(rest[1:], " \t\r\n")
		if e == "" {
			return o, bad(rest, restAt, "an expression after =")
		}
		o.expr, o.exprAt = e, it.at+len(it.s)-len(e)
		return o, nil
	case onEmit, onSpawn:
		word := map[onKind]string{onEmit: "with", onSpawn: "at"}[o.kind]
		if n == 0 || strings.Contains(o.name, "..") || strings.HasSuffix(o.name, ".") {
			return o, bad(it.s, it.at, map[onKind]string{onEmit: "an event name (letters, digits, '-', '_', '.'), then optionally: with DETAIL",
				onSpawn: "a prefab's name, then optionally: at POSITION"}[o.kind])
		}
		if rest == "" {
			return o, nil
		}
		if !strings.HasPrefix(rest, word) || len(rest) == len(word) || !isSpace(rest[len(word)]) {
			return o, bad(rest, restAt, `nothing, or "`+word+` EXPRESSION"`)
		}
		e := strings.TrimLeft(rest[len(word):], " \t\r\n")
		o.expr, o.exprAt = e, it.at+len(it.s)-len(e)
		return o, nil
	}
	what := "the name of an animation or timer (animation__open, timer)"
	switch o.kind {
	case onEvent:
		what = "an event name (letters, digits, '-', '_', '.')"
	case onAdd, onRemove:
		what = "a component's name"
	}
	if n != len(it.s) || n == 0 || (o.kind != onEvent && strings.Contains(o.name, ".")) {
		return o, bad(it.s, it.at, what)
	}
	return o, nil
}
