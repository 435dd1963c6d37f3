package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/scenecs/scenecs/internal/csscolor"

	"github.com/scenecs/scenecs/selector"
)

// Vec2 is the value of a vec2 property: two numbers written "x y".
type Vec2 struct{ X, Y float64 }

// Vec3 is the value of a vec3 property: three numbers written "x y z",
// as in position="0 1 -5".
type Vec3 struct{ X, Y, Z float64 }

// Vec4 is the value of a vec4 property: four numbers written "x y z w".
type Vec4 struct{ X, Y, Z, W float64 }

// Color is the value of a color property: 8-bit red, green, blue and
// alpha channels, alpha 255 being opaque.
type Color struct{ R, G, B, A uint8 }

// SelectorText is the value of a selector property: the source text of a
// selector (such as "#player"), kept as text when parsed and resolved to
// the first matching entity when needed, with [Registry.Resolve]. It is
// not a compiled selector; that is [selector.Selector].
type SelectorText string

// SelectorAllText is the value of a selectorAll property: the source text
// of a selector, resolved to every matching entity with
// [Registry.QueryAll].
type SelectorAllText string

// String returns v in attribute syntax, "x y".
func (v Vec2) String() string { return formatFloats(v.X, v.Y) }

// String returns v in attribute syntax, "x y z".
func (v Vec3) String() string { return formatFloats(v.X, v.Y, v.Z) }

// String returns v in attribute syntax, "x y z w".
func (v Vec4) String() string { return formatFloats(v.X, v.Y, v.Z, v.W) }

// String returns c as "#rrggbb", or "#rrggbbaa" when c is not opaque.
func (c Color) String() string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, 9)
	b = append(b, '#', hex[c.R>>4], hex[c.R&15], hex[c.G>>4], hex[c.G&15], hex[c.B>>4], hex[c.B&15])
	if c.A != 255 {
		b = append(b, hex[c.A>>4], hex[c.A&15])
	}
	return string(b)
}

// String returns the selector text.
func (s SelectorText) String() string { return string(s) }

// String returns the selector text.
func (s SelectorAllText) String() string { return string(s) }

// A Type is a property type: how a property's value is parsed from
// attribute text, printed back, and compared for change detection.
//
// Every value of a Type is an `any` holding a value of GoType. Parse
// receives the text (already trimmed when it comes from an attribute
// string) and the property's default, which a type may use to fill in what
// the text leaves out (vectors take missing axes from it). Parse must
// accept what Print produces and give back an Equal value.
//
// A Type must not be modified once it has been registered in a Types.
type Type struct {
	// Name is the name schemas use for the type, such as "vec3".
	Name string
	// GoType is the dynamic type of every value of this type.
	GoType reflect.Type
	// Default is the value a property of this type has when its schema
	// gives no default.
	Default any
	// Parse converts attribute text to a value. Errors should be a
	// *ValueError saying what was expected.
	Parse func(text string, def any) (any, error)
	// Print converts a value back to attribute text.
	Print func(v any) string
	// Equal reports whether two values are the same for change detection.
	Equal func(a, b any) bool
	// ParseMap, if set, lets a single-property component of this type be
	// written as a mapping (a YAML mapping, a JSON object) as well as
	// an attribute string: it converts the key/value pairs, as written
	// (not trimmed), to a value. Its errors should be *AttrError values
	// whose Pair is the index of the offending pair and Offset a byte
	// offset in that pair's key (Kind UnknownProperty) or value (the
	// other kinds). See [Schema.TakesMap].
	ParseMap func(kv [][2]string, def any) (any, error)
}

// The built-in property types. NewTypes copies them into each Types, so
// these values are never modified.
var (
	numberType = Type{
		Name: "number", GoType: reflect.TypeFor[float64](), Default: float64(0),
		Parse: parseNumberValue, Print: printNumberValue, Equal: equalFloat,
	}
	intType = Type{
		Name: "int", GoType: reflect.TypeFor[int](), Default: int(0),
		Parse: parseIntValue, Print: printIntValue, Equal: equalComparable,
	}
	booleanType = Type{
		Name: "boolean", GoType: reflect.TypeFor[bool](), Default: false,
		Parse: parseBoolValue, Print: printBoolValue, Equal: equalComparable,
	}
	stringType = Type{
		Name: "string", GoType: reflect.TypeFor[string](), Default: "",
		Parse: parseStringValue, Print: printStringValue, Equal: equalComparable,
	}
	vec2Type = Type{
		Name: "vec2", GoType: reflect.TypeFor[Vec2](), Default: Vec2{},
		Parse: parseVec2Value, Print: printStringer, Equal: equalVec2,
	}
	vec3Type = Type{
		Name: "vec3", GoType: reflect.TypeFor[Vec3](), Default: Vec3{},
		Parse: parseVec3Value, Print: printStringer, Equal: equalVec3,
	}
	vec4Type = Type{
		Name: "vec4", GoType: reflect.TypeFor[Vec4](), Default: Vec4{W: 1},
		Parse: parseVec4Value, Print: printStringer, Equal: equalVec4,
	}
	colorType = Type{
		Name: "color", GoType: reflect.TypeFor[Color](), Default: Color{255, 255, 255, 255},
		Parse: parseColorValue, Print: printStringer, Equal: equalComparable,
	}
	arrayType = Type{
		Name: "array", GoType: reflect.TypeFor[[]string](), Default: []string{},
		Parse: parseArrayValue, Print: printArrayValue, Equal: equalArray,
	}
	selectorType = Type{
		Name: "selector", GoType: reflect.TypeFor[SelectorText](), Default: SelectorText(""),
		Parse: parseSelectorValue, Print: printStringer, Equal: equalComparable,
	}
	selectorAllType = Type{
		Name: "selectorAll", GoType: reflect.TypeFor[SelectorAllText](), Default: SelectorAllText(""),
		Parse: parseSelectorAllValue, Print: printStringer, Equal: equalComparable,
	}
	timeType = Type{
		Name: "time", GoType: reflect.TypeFor[float64](), Default: float64(0),
		Parse: parseTimeValue, Print: printNumberValue, Equal: equalFloat,
	}
	durationType = Type{
		Name: "duration", GoType: reflect.TypeFor[time.Duration](), Default: time.Duration(0),
		Parse: parseDurationValue, Print: printStringer, Equal: equalComparable,
	}
)

// builtinTypes lists the built-in types in registration order. For a Go
// type claimed by several types (float64: number and time) the first wins
// when a struct field's type picks the property type.
var builtinTypes = [...]*Type{
	&numberType, &intType, &booleanType, &stringType,
	&vec2Type, &vec3Type, &vec4Type, &colorType, &arrayType,
	&selectorType, &selectorAllType, &timeType, &durationType,
	&entityType, &entitiesType,
}

// builtinAliases are alternative names A-Frame accepts for built-in types.
var builtinAliases = [...][2]string{{"bool", "boolean"}, {"float", "number"}}

// Types is a set of named property types. NewTypes returns one holding the
// built-in types; Register adds custom ones. A Types is safe for concurrent
// use.
type Types struct {
	mu     sync.RWMutex
	byName map[string]*Type
	byGo   map[reflect.Type]*Type
	names  []string // registration order, aliases excluded
}

// NewTypes returns a Types holding the built-in property types: number,
// int, boolean (alias bool), string, vec2, vec3, vec4, color, array,
// selector, selectorAll, time, duration, entity and entities. Each call returns fresh copies,
// so registries never share mutable state.
func NewTypes() *Types {
	ts := &Types{
		byName: make(map[string]*Type, len(builtinTypes)+len(builtinAliases)),
		byGo:   make(map[reflect.Type]*Type, len(builtinTypes)),
	}
	for _, bt := range builtinTypes {
		t := *bt
		t.Default = CloneValue(t.Default)
		ts.add(&t)
	}
	for _, a := range builtinAliases {
		ts.byName[a[0]] = ts.byName[a[1]]
	}
	return ts
}

func (ts *Types) add(t *Type) {
	ts.byName[t.Name] = t
	ts.names = append(ts.names, t.Name)
	if _, ok := ts.byGo[t.GoType]; !ok {
		ts.byGo[t.GoType] = t
	}
}

// Register adds a custom property type. Name and Parse are required.
// GoType may be left nil when Default is set (it is then Default's type);
// a nil Default becomes GoType's zero value; a nil Print formats with
// fmt.Sprint (or the String method); a nil Equal compares with == when
// GoType is comparable and reflect.DeepEqual otherwise. Register fails if
// the name is taken or Default is not of GoType. The first type registered
// for a Go type is the one a struct field of that Go type gets.
//
// Register keeps its own copy of t.
func (ts *Types) Register(t *Type) error {
	if t == nil {
		return fmt.Errorf("registry: Register: nil type")
	}
	c := *t
	if !validName(c.Name) {
		return fmt.Errorf("registry: Register: invalid type name %q: expected a name of letters, digits and _", c.Name)
	}
	if c.Parse == nil {
		return fmt.Errorf("registry: Register: type %q has no Parse function", c.Name)
	}
	if c.GoType == nil {
		if c.Default == nil {
			return fmt.Errorf("registry: Register: type %q has neither GoType nor Default", c.Name)
		}
		c.GoType = reflect.TypeOf(c.Default)
	}
	if c.Default == nil {
		c.Default = reflect.Zero(c.GoType).Interface()
	} else if reflect.TypeOf(c.Default) != c.GoType {
		return fmt.Errorf("registry: Register: type %q: Default is a %v, not a %v", c.Name, reflect.TypeOf(c.Default), c.GoType)
	}
	if c.Print == nil {
		c.Print = printAny
	}
	if c.Equal == nil {
		if c.GoType.Comparable() {
			c.Equal = equalComparable
		} else {
			c.Equal = reflect.DeepEqual
		}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if _, dup := ts.byName[c.Name]; dup {
		return fmt.Errorf("registry: Register: type %q is already registered", c.Name)
	}
	ts.add(&c)
	return nil
}

// Lookup returns the type registered under name (or one of its aliases).
func (ts *Types) Lookup(name string) (*Type, bool) {
	ts.mu.RLock()
	t, ok := ts.byName[name]
	ts.mu.RUnlock()
	return t, ok
}

// Names returns the names of the registered types in registration order,
// aliases excluded.
func (ts *Types) Names() []string {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	return slices.Clone(ts.names)
}

// ForGoType returns the property type a struct field of Go type rt gets:
// the first type registered with exactly that GoType; otherwise, for a
// defined type, the type whose GoType it is convertible to with the same
// kind, limited to the unnamed basic types (float64, int, bool, string,
// []string) and the registered struct types. So `type Speed float64` is a
// number and `type Position Vec3` a vec3, but `type Millis int64` is
// nothing.
func (ts *Types) ForGoType(rt reflect.Type) (*Type, bool) {
	ts.mu.RLock()
	defer ts.mu.RUnlock()
	if t, ok := ts.byGo[rt]; ok {
		return t, true
	}
	for _, name := range ts.names {
		t := ts.byName[name]
		gt := t.GoType
		if gt.Kind() != rt.Kind() || gt.Size() != rt.Size() || !rt.ConvertibleTo(gt) {
			continue
		}
		switch {
		case gt.Kind() == reflect.Struct:
			return t, true
		case gt.PkgPath() == "" && gt.Name() != "": // predeclared basic type
			return t, true
		case gt.Kind() == reflect.Slice && gt.Name() == "" && rt.Elem() == gt.Elem():
			return t, true
		}
	}
	return nil, false
}

// ---- numbers ----

// scanNumber reports whether s is a decimal number: an optional sign,
// digits with an optional fraction (at least one digit), and an optional
// exponent. Hex, underscores, Inf and NaN are refused.
func scanNumber(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// parseFloat parses a finite decimal number.
func parseFloat(s string) (float64, bool) {
	if !scanNumber(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// The spellings of the non-finite numbers, printed and parsed by the
// number, time and vector types. They are Go's (strconv.FormatFloat), and
// a YAML plain scalar, an XML attribute and a JSON string hold them as
// they are, so a dump of a World that holds them reads back.
const (
	posInf = "+Inf"
	negInf = "-Inf"
	nanStr = "NaN"
)

// parseNumber parses a decimal number (see scanNumber) or one of the
// spellings of the non-finite numbers: +Inf, -Inf or NaN, exactly so
// written. A decimal too large for a float64 is refused, not made
// infinite.
func parseNumber(s string) (float64, bool) {
	switch s {
	case posInf:
		return math.Inf(1), true
	case negInf:
		return math.Inf(-1), true
	case nanStr:
		return math.NaN(), true
	}
	return parseFloat(s)
}

// numberExpected adds to what a number field expects the spellings of the
// non-finite numbers, when s looks like one spelt otherwise (inf, nan,
// Infinity).
func numberExpected(s, expected string) string {
	t := strings.ToLower(strings.TrimLeft(s, "+-"))
	if t == "inf" || t == "infinity" || t == "nan" {
		return expected + ` (non-finite numbers are written "+Inf", "-Inf" and "NaN")`
	}
	return expected
}

// formatFloat writes f as JavaScript would: plain decimals between 1e-6
// and 1e21, exponent notation outside. Negative zero prints as "0"; the
// non-finite numbers print as +Inf, -Inf and NaN.
func formatFloat(f float64) string {
	return string(appendFloat(nil, f))
}

func appendFloat(b []byte, f float64) []byte {
	switch {
	case f == 0:
		return append(b, '0')
	case math.IsInf(f, 1):
		return append(b, posInf...)
	case math.IsInf(f, -1):
		return append(b, negInf...)
	case f != f:
		return append(b, nanStr...)
	}
	if a := math.Abs(f); a < 1e-6 || a >= 1e21 {
		return strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

func formatFloats(fs ...float64) string {
	b := make([]byte, 0, 8*len(fs))
	for i, f := range fs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendFloat(b, f)
	}
	return string(b)
}

func parseNumberValue(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return def, nil
	}
	f, ok := parseNumber(s)
	if !ok {
		return nil, valueErr(text, s, numberExpected(s, "a number"))
	}
	return f, nil
}

func printNumberValue(v any) string {
	if f, ok := v.(float64); ok {
		return formatFloat(f)
	}
	return printAny(v)
}

func parseIntValue(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(s, 10, strconv.IntSize)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, valueErr(text, s, fmt.Sprintf("an integer between %d and %d", math.MinInt, math.MaxInt))
		}
		return nil, valueErr(text, s, "an integer")
	}
	return int(n), nil
}

func printIntValue(v any) string {
	if n, ok := v.(int); ok {
		return strconv.Itoa(n)
	}
	return printAny(v)
}

func parseTimeValue(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return def, nil
	}
	f, ok := parseNumber(s)
	if !ok {
		return nil, valueErr(text, s, numberExpected(s, "a time in milliseconds (a number)"))
	}
	return f, nil
}

func parseDurationValue(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return def, nil
	}
	const expected = `a duration such as "1.5s" or "300ms", or a number of milliseconds`
	if scanNumber(s) {
		ms, ok := parseFloat(s)
		ns := ms * float64(time.Millisecond)
		if !ok || ns >= math.MaxInt64 || ns <= math.MinInt64 {
			return nil, valueErr(text, s, expected)
		}
		return time.Duration(math.Round(ns)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return nil, valueErr(text, s, expected)
	}
	return d, nil
}

// ---- booleans and strings ----

func parseBoolValue(text string, def any) (any, error) {
	switch s := strings.TrimSpace(text); s {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return nil, valueErr(text, s, "true or false")
	}
}

func printBoolValue(v any) string {
	if b, ok := v.(bool); ok {
		return strconv.FormatBool(b)
	}
	return printAny(v)
}

func parseStringValue(text string, _ any) (any, error) {
	return strings.TrimSpace(text), nil
}

func printStringValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return printAny(v)
}

func parseSelectorValue(text string, _ any) (any, error) {
	s, err := checkSelector(text)
	if err != nil {
		return nil, err
	}
	return SelectorText(s), nil
}

func parseSelectorAllValue(text string, _ any) (any, error) {
	s, err := checkSelector(text)
	if err != nil {
		return nil, err
	}
	return SelectorAllText(s), nil
}

// checkSelector trims text and checks that it is empty or valid selector
// syntax (selector.Parse). Whether the components it names exist is
// checked when it is resolved, since a scene may declare them later. The
// error is a *ValueError whose Offset is that of the offending character
// in text.
func checkSelector(text string) (string, error) {
	start, end := trimBounds(text)
	s := text[start:end]
	if s == "" {
		return s, nil
	}
	if _, err := selector.Parse(s); err != nil {
		var se *selector.Error
		if !errors.As(err, &se) {
			return "", &ValueError{Text: s, Offset: start, Expected: "a selector (" + err.Error() + ")"}
		}
		// The offending text runs from the offending character, cut
		// (on a character boundary) to keep messages short.
		off := min(max(se.Col-1, 0), len(s))
		bad := s[off:]
		if len(bad) > 24 {
			bad = bad[:24]
			for !utf8.ValidString(bad) {
				bad = bad[:len(bad)-1]
			}
		}
		return "", &ValueError{Text: bad, Offset: start + off, Expected: "a selector: " + se.Msg, Err: se}
	}
	return s, nil
}

// ---- arrays ----

func parseArrayValue(text string, _ any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return []string{}, nil
	}
	out := make([]string, 0, strings.Count(s, ",")+1)
	for {
		i := strings.IndexByte(s, ',')
		if i < 0 {
			return append(out, strings.TrimSpace(s)), nil
		}
		out = append(out, strings.TrimSpace(s[:i]))
		s = s[i+1:]
	}
}

func printArrayValue(v any) string {
	if a, ok := v.([]string); ok {
		return strings.Join(a, ", ")
	}
	return printAny(v)
}

func equalArray(a, b any) bool {
	x, ok1 := a.([]string)
	y, ok2 := b.([]string)
	if !ok1 || !ok2 {
		return reflect.DeepEqual(a, b)
	}
	return slices.Equal(x, y)
}

// ---- vectors ----

// parseAxes splits text at runs of whitespace and parses each field into
// axes[i]; fields the text does not give keep the value already in axes.
func parseAxes(text string, axes []float64, typeName string) error {
	names := "xyzw"[:len(axes)]
	n := 0
	i := 0
	for i < len(text) {
		if isSpace(text[i]) {
			i++
			continue
		}
		start := i
		for i < len(text) && !isSpace(text[i]) {
			i++
		}
		field := text[start:i]
		if n == len(axes) {
			return &ValueError{Text: field, Offset: start, Expected: fmt.Sprintf("at most %d numbers (a %s is written %q)", len(axes), typeName, spaced(names))}
		}
		f, ok := parseNumber(field)
		if !ok {
			return &ValueError{Text: field, Offset: start, Expected: numberExpected(field, fmt.Sprintf("a number for %s of a %s (axes are separated by spaces)", names[n:n+1], typeName))}
		}
		axes[n] = f
		n++
	}
	return nil
}

func spaced(names string) string {
	b := make([]byte, 0, 2*len(names))
	for i := range len(names) {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, names[i])
	}
	return string(b)
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func parseVec2Value(text string, def any) (any, error) {
	d, _ := def.(Vec2)
	axes := [2]float64{d.X, d.Y}
	if err := parseAxes(text, axes[:], "vec2"); err != nil {
		return nil, err
	}
	return Vec2{axes[0], axes[1]}, nil
}

func parseVec3Value(text string, def any) (any, error) {
	d, _ := def.(Vec3)
	axes := [3]float64{d.X, d.Y, d.Z}
	if err := parseAxes(text, axes[:], "vec3"); err != nil {
		return nil, err
	}
	return Vec3{axes[0], axes[1], axes[2]}, nil
}

func parseVec4Value(text string, def any) (any, error) {
	d, ok := def.(Vec4)
	if !ok {
		d = Vec4{W: 1}
	}
	axes := [4]float64{d.X, d.Y, d.Z, d.W}
	if err := parseAxes(text, axes[:], "vec4"); err != nil {
		return nil, err
	}
	return Vec4{axes[0], axes[1], axes[2], axes[3]}, nil
}

// ---- colours ----

const colorExpected = `a colour: "#rgb", "#rrggbb", "#rrggbbaa", "rgb(r, g, b)", "rgba(r, g, b, a)" or a CSS colour name`

func parseColorValue(text string, def any) (any, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return def, nil
	}
	if c, ok := parseColor(s); ok {
		return c, nil
	}
	return nil, valueErr(text, s, colorExpected)
}

// ParseColor parses a colour written as "#rgb", "#rgba", "#rrggbb",
// "#rrggbbaa", "rgb(r, g, b)", "rgba(r, g, b, a)" (channels 0-255 or
// percentages, alpha 0-1 or a percentage, commas or spaces between them,
// "/" before alpha allowed), one of the 148 CSS colour names, or
// "transparent". Case is ignored.
func ParseColor(s string) (Color, error) {
	c, ok := parseColor(strings.TrimSpace(s))
	if !ok {
		return Color{}, &ValueError{Text: s, Expected: colorExpected}
	}
	return c, nil
}

func parseColor(s string) (Color, bool) {
	c, ok := csscolor.Parse(s, parseFloat)
	return Color{c[0], c[1], c[2], c[3]}, ok
}

// ---- helpers ----

func equalComparable(a, b any) bool { return a == b }

// sameFloat reports whether a and b are equal or both NaN: for change
// detection, NaN set over NaN is no change.
func sameFloat(a, b float64) bool { return a == b || (a != a && b != b) }

func equalFloat(a, b any) bool {
	x, ok1 := a.(float64)
	y, ok2 := b.(float64)
	if !ok1 || !ok2 {
		return a == b
	}
	return sameFloat(x, y)
}

func equalVec2(a, b any) bool {
	x, ok1 := a.(Vec2)
	y, ok2 := b.(Vec2)
	if !ok1 || !ok2 {
		return a == b
	}
	return sameFloat(x.X, y.X) && sameFloat(x.Y, y.Y)
}

func equalVec3(a, b any) bool {
	x, ok1 := a.(Vec3)
	y, ok2 := b.(Vec3)
	if !ok1 || !ok2 {
		return a == b
	}
	return sameFloat(x.X, y.X) && sameFloat(x.Y, y.Y) && sameFloat(x.Z, y.Z)
}

func equalVec4(a, b any) bool {
	x, ok1 := a.(Vec4)
	y, ok2 := b.(Vec4)
	if !ok1 || !ok2 {
		return a == b
	}
	return sameFloat(x.X, y.X) && sameFloat(x.Y, y.Y) && sameFloat(x.Z, y.Z) && sameFloat(x.W, y.W)
}

func printStringer(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return printAny(v)
}

func printAny(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprint(v)
}

// valueErr builds the *ValueError for a whole-text failure, the offset
// being that of the trimmed text s within text.
func valueErr(text, s, expected string) *ValueError {
	return &ValueError{Text: s, Offset: strings.Index(text, s), Expected: expected}
}

// CloneValue copies slice values so a default is never shared between
// owners; other values are returned as they are.
func CloneValue(v any) any {
	switch a := v.(type) {
	case []string:
		return slices.Clone(a)
	case Refs:
		return slices.Clone(a)
	}
	return v
}

// validName reports whether s is an identifier: a letter or _ followed by
// letters, digits and _.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
