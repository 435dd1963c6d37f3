package schema

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
)

// A Property is one named, typed field of a component's data.
type Property struct {
	// Name is the property name in lower camelCase, such as "maxHp". It is
	// empty for the one property of a single-property schema.
	Name string
	// Type is the property type.
	Type *Type
	// Default is the value the property has when nothing sets it; a value
	// of Type.GoType.
	Default any
	// OneOf, when not empty, lists the values a string-kinded property (or
	// each element of an array property) may take.
	OneOf []string
	// Min and Max, when not nil, bound a numeric property (number, int,
	// time, and custom types of integer or float kind), inclusive. A
	// property with a bound refuses NaN; +Inf and -Inf are compared as
	// usual (refused by a max or a min respectively).
	Min, Max *float64
	// OnDelete is what happens to the holder when the entity a reference
	// property (entity, entities) refers to is destroyed; Clear for every
	// other type.
	OnDelete OnDelete
	// Offset is the byte offset of the property's field in a value of the
	// schema's StructType.
	Offset uintptr
	// Index is the position of the property in Schema.Props.
	Index int
	// FieldIndex is the reflect index sequence of the property's field in
	// StructType (for reflect.Value.FieldByIndex); nil when StructType is
	// not a struct (a single-property schema of a non-struct Go type).
	FieldIndex []int
	// FieldType is the Go type of the property's field. It is Type.GoType
	// or a defined type with the same underlying type (`type Mode string`),
	// so a value of Type.GoType can be stored in it through an unsafe
	// pointer or converted to it with reflect.Value.Convert.
	FieldType reflect.Type
}

// Parse parses text as a value of the property: the type's Parse, given
// the property's Default, then the OneOf and Min/Max checks. Errors are
// normally [*ValueError] with offsets relative to text.
func (p *Property) Parse(text string) (any, error) {
	v, err := p.Type.Parse(text, p.Default)
	if err != nil {
		return nil, err
	}
	if p.OneOf == nil && p.Min == nil && p.Max == nil {
		return v, nil
	}
	if ve, elem := p.check(v); ve != nil {
		ve.Text, ve.Offset = locate(text, elem)
		return nil, ve
	}
	return v, nil
}

// locate returns the trimmed text and its offset in text; for elem >= 0,
// those of the elem'th comma-separated item instead.
func locate(text string, elem int) (string, int) {
	start, end := 0, len(text)
	if elem >= 0 {
		for ; elem > 0; elem-- {
			i := strings.IndexByte(text[start:], ',')
			if i < 0 {
				break
			}
			start += i + 1
		}
		if i := strings.IndexByte(text[start:], ','); i >= 0 {
			end = start + i
		}
	}
	s, e := trimBounds(text[start:end])
	return text[start+s : start+e], start + s
}

// Check reports, as a [*ValueError], whether v breaks the property's OneOf
// or Min/Max constraints. The error's Text is the offending value (or
// array element) printed by the type, its Offset 0.
func (p *Property) Check(v any) error {
	if ve, _ := p.check(v); ve != nil {
		return ve
	}
	return nil
}

// check is Check also returning, when an array element breaks OneOf, its
// index (else -1).
func (p *Property) check(v any) (*ValueError, int) {
	if len(p.OneOf) > 0 {
		if bad, elem, ok := p.checkOneOf(v); !ok {
			return &ValueError{Text: bad, Expected: "one of " + strings.Join(p.OneOf, ", ")}, elem
		}
	}
	if p.Min == nil && p.Max == nil {
		return nil, -1
	}
	f, isInt, ok := numericValue(v)
	if !ok {
		return nil, -1
	}
	if f != f {
		// NaN compares false with every bound: refuse it outright.
		return &ValueError{Text: p.Type.Print(v), Expected: p.rangeExpected(isInt) + ", not NaN"}, -1
	}
	if (p.Min != nil && f < *p.Min) || (p.Max != nil && f > *p.Max) {
		return &ValueError{Text: p.Type.Print(v), Expected: p.rangeExpected(isInt)}, -1
	}
	return nil, -1
}

func (p *Property) rangeExpected(isInt bool) string {
	what := "a number"
	if isInt {
		what = "an integer"
	}
	switch {
	case p.Min != nil && p.Max != nil:
		return what + " between " + formatFloat(*p.Min) + " and " + formatFloat(*p.Max)
	case p.Min != nil:
		return what + " >= " + formatFloat(*p.Min)
	default:
		return what + " <= " + formatFloat(*p.Max)
	}
}

// checkOneOf reports whether v is allowed by OneOf, and if not the
// offending text and, for an array, the offending element's index (else
// -1).
func (p *Property) checkOneOf(v any) (string, int, bool) {
	switch x := v.(type) {
	case string:
		return x, -1, slices.Contains(p.OneOf, x)
	case []string:
		for i, e := range x {
			if !slices.Contains(p.OneOf, e) {
				return e, i, false
			}
		}
		return "", -1, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.String {
		return rv.String(), -1, slices.Contains(p.OneOf, rv.String())
	}
	return "", -1, true
}

// numericValue returns v as a float64 if it is of integer or float kind.
func numericValue(v any) (f float64, isInt, ok bool) {
	switch x := v.(type) {
	case float64:
		return x, false, true
	case int:
		return float64(x), true, true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Float32, reflect.Float64:
		return rv.Float(), false, true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true, true
	}
	return 0, false, false
}

// Print returns v as attribute text, using the property type's Print.
func (p *Property) Print(v any) string { return p.Type.Print(v) }

// A Schema describes a component's data: its properties, in order, and the
// Go type its values are stored in.
//
// A schema with no properties is a tag (written with an empty value); a
// schema whose only property has the empty name is single-property (written
// as the bare value, position="1 2 3"); any other schema is multi-property
// (written "prop: value; prop: value"). A Schema must not be modified
// after it is built.
type Schema struct {
	// Props lists the properties; Props[i].Index == i.
	Props []Property

	structType reflect.Type
	names      []string       // property names, for suggestions
	index      map[string]int // by name, for large schemas only
}

// indexThreshold is the property count above which Lookup uses a map
// rather than scanning.
const indexThreshold = 8

// Single reports whether the schema has exactly one property, unnamed: the
// component is written as a bare value.
func (s *Schema) Single() bool { return len(s.Props) == 1 && s.Props[0].Name == "" }

// IsTag reports whether the schema has no properties: the component is a
// tag, written with an empty value.
func (s *Schema) IsTag() bool { return len(s.Props) == 0 }

// StructType returns the Go type that holds one value of the component:
// the type given to [SchemaOf], or for a schema built by [NewSchema] a struct
// type made with reflect.StructOf having one field per property. Every
// Property.Offset is an offset in this type.
func (s *Schema) StructType() reflect.Type { return s.structType }

// Names returns the property names in order.
func (s *Schema) Names() []string { return slices.Clone(s.names) }

// Lookup returns the index in Props of the property called name, written
// in camelCase ("maxHp") or hyphen-case ("max-hp": as in A-Frame, a '-'
// followed by a lower-case ASCII letter stands for that letter upper-cased).
func (s *Schema) Lookup(name string) (int, bool) {
	if s.index != nil {
		if i, ok := s.index[name]; ok {
			return i, true
		}
		if strings.IndexByte(name, '-') >= 0 {
			i, ok := s.index[hyphenToCamel(name)]
			return i, ok
		}
		return 0, false
	}
	for i := range s.Props {
		if matchName(s.Props[i].Name, name) {
			return i, true
		}
	}
	return 0, false
}

// Defaults returns a new slice holding each property's default value, in
// property order. Array defaults are copied.
func (s *Schema) Defaults() []any {
	d := make([]any, len(s.Props))
	for i := range s.Props {
		d[i] = CloneValue(s.Props[i].Default)
	}
	return d
}

// matchName reports whether key names prop, key being camelCase or
// hyphen-case.
func matchName(prop, key string) bool {
	i, j := 0, 0
	for i < len(prop) && j < len(key) {
		c := key[j]
		if c == '-' && j+1 < len(key) && 'a' <= key[j+1] && key[j+1] <= 'z' {
			if prop[i] != key[j+1]-('a'-'A') {
				return false
			}
			i, j = i+1, j+2
			continue
		}
		if prop[i] != c {
			return false
		}
		i, j = i+1, j+1
	}
	return i == len(prop) && j == len(key)
}

// hyphenToCamel converts hyphen-case to camelCase the way A-Frame does:
// each '-' followed by a lower-case ASCII letter becomes that letter
// upper-cased; other characters are kept.
func hyphenToCamel(s string) string {
	if strings.IndexByte(s, '-') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && i+1 < len(s) && 'a' <= s[i+1] && s[i+1] <= 'z' {
			b = append(b, s[i+1]-('a'-'A'))
			i++
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// lowerCamel turns a Go field name into a property name: the leading run
// of upper-case letters is lowered, except the last one when a lower-case
// letter follows it ("HP" → "hp", "MaxHP" → "maxHP", "URLPath" →
// "urlPath").
func lowerCamel(s string) string {
	n := 0
	for n < len(s) && 'A' <= s[n] && s[n] <= 'Z' {
		n++
	}
	if n == 0 {
		return s
	}
	if n > 1 && n < len(s) && 'a' <= s[n] && s[n] <= 'z' {
		n--
	}
	return strings.ToLower(s[:n]) + s[n:]
}

// finish fills in the schema's derived fields once Props are final.
func (s *Schema) finish() {
	s.names = make([]string, len(s.Props))
	for i := range s.Props {
		s.Props[i].Index = i
		s.names[i] = s.Props[i].Name
	}
	if len(s.Props) > indexThreshold {
		s.index = make(map[string]int, len(s.Props))
		for i, p := range s.Props {
			s.index[p.Name] = i
		}
	}
}

// propName normalises a property name given by a tag or PropSpec: hyphen
// case is converted to camelCase; the result must be an identifier.
func propName(name string) (string, error) {
	n := hyphenToCamel(name)
	if !validName(n) {
		return "", fmt.Errorf("invalid property name %q: expected letters, digits and _ (camelCase or hyphen-case)", name)
	}
	return n, nil
}

// setup validates and completes a property whose Name, Type, OneOf, Min
// and Max are set, parsing its default from text (or taking the type's
// default when hasDefault is false).
func (p *Property) setup(defText string, hasDefault bool) error {
	if p.Min != nil || p.Max != nil {
		if _, _, ok := numericValue(p.Type.Default); !ok {
			return fmt.Errorf("min and max need a numeric property type, not %s", p.Type.Name)
		}
		if (p.Min != nil && math.IsNaN(*p.Min)) || (p.Max != nil && math.IsNaN(*p.Max)) {
			return fmt.Errorf("min and max must be numbers, not NaN")
		}
		if p.Min != nil && p.Max != nil && *p.Min > *p.Max {
			return fmt.Errorf("min %s is above max %s", formatFloat(*p.Min), formatFloat(*p.Max))
		}
	}
	if len(p.OneOf) > 0 {
		switch k := p.Type.GoType.Kind(); {
		case k == reflect.String:
		case k == reflect.Slice && p.Type.GoType.Elem().Kind() == reflect.String:
		default:
			return fmt.Errorf("oneOf needs a string or array property type, not %s", p.Type.Name)
		}
	}
	p.Default = CloneValue(p.Type.Default)
	if !hasDefault && len(p.OneOf) > 0 && p.Type.GoType.Kind() == reflect.String {
		defText, hasDefault = p.OneOf[0], true
	}
	if hasDefault {
		v, err := p.Parse(defText)
		if err != nil {
			return fmt.Errorf("default: %w", err)
		}
		p.Default = v
	} else if err := p.Check(p.Default); err != nil {
		return fmt.Errorf("default (the %s type's): %w", p.Type.Name, err)
	}
	return nil
}

// setOnDelete sets the property's OnDelete from its name ("" for the
// default), refusing one on a property that holds no references.
func (p *Property) setOnDelete(name string) error {
	if name == "" {
		return nil
	}
	d, ok := ParseOnDelete(name)
	if !ok {
		return fmt.Errorf("onDelete %q: expected clear, destroy or remove", name)
	}
	if !IsRef(p.Type) {
		return fmt.Errorf("onDelete needs a reference property type (entity or entities), not %s", p.Type.Name)
	}
	p.OnDelete = d
	return nil
}

// ---- schemas from Go types ----

// SchemaOf derives the schema of a component stored in Go type t.
//
// If t is a property type's Go type, or a defined type over one (`type
// Position Vec3`, `type Speed float64`; see Types.ForGoType), the schema is
// single-property — unless t is a struct with `scene` field tags, which is
// always read field by field.
//
// Otherwise t must be a struct; its fields become properties, as
// encoding/json does it: exported fields, in order, named by the `scene`
// tag or else the field name in lower camelCase ("MaxHP" → "maxHP"); a tag
// of "-" skips a field; untagged embedded structs have their fields
// promoted. The tag is the name (hyphen-case allowed; may be empty)
// followed by comma-separated options:
//
//	default=TEXT   the default value, parsed by the property type
//	               (quote with '...' when it contains a comma)
//	min=N, max=N   inclusive bounds for numeric properties
//	oneOf=a|b|c    allowed values for string and array properties; the
//	               first is the default unless default= is given
//	type=NAME      the property type by name, where the field's Go type
//	               fits several (time for a float64, or a custom type)
//	onDelete=P     for a reference ([Ref], [Refs]): clear (the default),
//	               destroy or remove, when the target is destroyed
//
// The property type is picked from the field's Go type: float64 →
// number, int → int, bool → boolean, string → string, [Vec2]/[Vec3]/[Vec4],
// [Color], []string → array, [SelectorText] → selector, [SelectorAllText]
// → selectorAll, time.Duration → duration, [Ref] → entity, [Refs] →
// entities, and custom types by their
// GoType. A struct without fields gives a tag schema.
func SchemaOf(t reflect.Type, types *Types) (*Schema, error) {
	if t == nil {
		return nil, fmt.Errorf("registry: SchemaOf: nil type")
	}
	if types == nil {
		return nil, fmt.Errorf("registry: SchemaOf(%v): nil Types", t)
	}
	if tt, ok := types.ForGoType(t); ok && (t.Kind() != reflect.Struct || !hasSceneTags(t)) {
		s := &Schema{structType: t}
		p := Property{Type: tt, FieldType: t}
		if err := p.setup("", false); err != nil {
			return nil, fmt.Errorf("registry: SchemaOf(%v): %v", t, err)
		}
		s.Props = []Property{p}
		s.finish()
		return s, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("registry: SchemaOf(%v): expected a struct or a Go type of a property type (float64, int, bool, string, Vec3, ...)", t)
	}
	s := &Schema{structType: t}
	if err := s.addFields(t, types, 0, nil); err != nil {
		return nil, fmt.Errorf("registry: SchemaOf(%v): %v", t, err)
	}
	s.finish()
	return s, nil
}

// hasSceneTags reports whether any field of struct t has a scene tag.
func hasSceneTags(t reflect.Type) bool {
	for i := range t.NumField() {
		if _, ok := t.Field(i).Tag.Lookup("scene"); ok {
			return true
		}
	}
	return false
}

func (s *Schema) addFields(t reflect.Type, types *Types, base uintptr, prefix []int) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, tagged := f.Tag.Lookup("scene")
		if tag == "-" {
			continue
		}
		index := append(slices.Clone(prefix), i)
		if f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct {
			if err := s.addFields(f.Type, types, base+f.Offset, index); err != nil {
				return err
			}
			continue
		}
		if !f.IsExported() {
			if tagged {
				return fmt.Errorf("field %s: has a scene tag but is not exported", f.Name)
			}
			continue
		}
		spec, err := parseTag(tag)
		if err != nil {
			return fmt.Errorf("field %s: tag `scene:%q`: %v", f.Name, tag, err)
		}
		if spec.name == "" {
			spec.name = lowerCamel(f.Name)
		}
		p := Property{OneOf: spec.oneOf, Min: spec.min, Max: spec.max, Offset: base + f.Offset, FieldIndex: index, FieldType: f.Type}
		if p.Name, err = propName(spec.name); err != nil {
			return fmt.Errorf("field %s: %v", f.Name, err)
		}
		if spec.typ != "" {
			tt, ok := types.Lookup(spec.typ)
			if !ok {
				return fmt.Errorf("field %s: unknown property type %q%s", f.Name, spec.typ, didYouMean(spec.typ, types.Names()))
			}
			if !fieldFits(f.Type, tt.GoType) {
				return fmt.Errorf("field %s: a %v field cannot hold a %s property (Go type %v)", f.Name, f.Type, tt.Name, tt.GoType)
			}
			p.Type = tt
		} else if tt, ok := types.ForGoType(f.Type); ok {
			p.Type = tt
		} else {
			return fmt.Errorf("field %s: no property type for Go type %v (skip the field with `scene:\"-\"` or register a type)", f.Name, f.Type)
		}
		if err := p.setOnDelete(spec.onDelete); err != nil {
			return fmt.Errorf("field %s: %v", f.Name, err)
		}
		if err := p.setup(spec.def, spec.hasDef); err != nil {
			return fmt.Errorf("field %s: %v", f.Name, err)
		}
		if _, dup := s.Lookup(p.Name); dup {
			return fmt.Errorf("field %s: duplicate property name %q", f.Name, p.Name)
		}
		s.Props = append(s.Props, p)
	}
	return nil
}

// fieldFits reports whether a field of Go type field can hold values of Go
// type gt through an unsafe pointer: the same type, or the same kind, size
// and underlying structure.
func fieldFits(field, gt reflect.Type) bool {
	return field == gt || (field.Kind() == gt.Kind() && field.Size() == gt.Size() && field.ConvertibleTo(gt))
}

func didYouMean(name string, candidates []string) string {
	return didyoumean.Hint(name, candidates)
}

// tagSpec is a parsed `scene` struct tag.
type tagSpec struct {
	name     string
	def      string
	hasDef   bool
	min, max *float64
	oneOf    []string
	typ      string
	onDelete string
}

// parseTag parses a `scene` tag: "name,key=value,...". A value starting
// with ' runs to the next '.
func parseTag(tag string) (tagSpec, error) {
	var spec tagSpec
	name, rest, more := strings.Cut(tag, ",")
	spec.name = strings.TrimSpace(name)
	seen := map[string]bool{}
	for more {
		var opt string
		opt, rest, more = cutOption(rest)
		if strings.TrimSpace(opt) == "" {
			continue
		}
		key, val, ok := strings.Cut(opt, "=")
		key = strings.TrimSpace(key)
		if !ok {
			return spec, fmt.Errorf("option %q: expected key=value", opt)
		}
		if seen[key] {
			return spec, fmt.Errorf("option %q given twice", key)
		}
		seen[key] = true
		val = strings.TrimSpace(val)
		if len(val) >= 2 && val[0] == '\'' && val[len(val)-1] == '\'' {
			val = val[1 : len(val)-1]
		}
		switch key {
		case "default":
			spec.def, spec.hasDef = val, true
		case "min", "max":
			f, ok := parseFloat(val)
			if !ok {
				return spec, fmt.Errorf("option %s=%q: expected a number", key, val)
			}
			if key == "min" {
				spec.min = &f
			} else {
				spec.max = &f
			}
		case "oneOf", "oneof":
			if val == "" {
				return spec, fmt.Errorf("option oneOf: expected values separated by |")
			}
			spec.oneOf = strings.Split(val, "|")
			for i := range spec.oneOf {
				spec.oneOf[i] = strings.TrimSpace(spec.oneOf[i])
			}
		case "type":
			spec.typ = val
		case "onDelete", "ondelete":
			spec.onDelete = val
		default:
			return spec, fmt.Errorf("unknown option %q: expected default, min, max, oneOf, type or onDelete", key)
		}
	}
	return spec, nil
}

// cutOption cuts the next option from s at a comma that is not inside a
// '...' quoted value.
func cutOption(s string) (opt, rest string, more bool) {
	quoted := false
	for i := range len(s) {
		switch s[i] {
		case '\'':
			quoted = !quoted
		case ',':
			if !quoted {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// ---- schemas declared at run time ----

// A PropSpec describes one property of a schema declared at run time (see
// NewSchema), with values as text, as a scene file would give them.
type PropSpec struct {
	// Name is the property name (camelCase or hyphen-case); empty for the
	// only property of a single-property schema.
	Name string
	// Type is the property type's name; empty means "string".
	Type string
	// Default is the default value as attribute text; empty means the
	// type's default (for a oneOf property, its first value).
	Default string
	// OneOf lists the allowed values of a string or array property.
	OneOf []string
	// Min and Max bound a numeric property, inclusive.
	Min, Max *float64
	// OnDelete is the policy of a reference property (entity, entities)
	// when its target is destroyed: "clear" (the default, also for
	// empty), "destroy" or "remove". See [OnDelete].
	OnDelete string
}

// A SchemaError reports property descriptions [NewSchema] cannot build a
// schema from. Its message is "registry: NewSchema: " and then Err's, such
// as `property "hp": unknown property type "nubmer" (did you mean
// "number"?)`; a caller with its own context (the loader, which names the
// file and line) reports Err alone.
type SchemaError struct {
	// Err says what is wrong, naming the property concerned.
	Err error
}

// Error returns "registry: NewSchema: " followed by Err's message.
func (e *SchemaError) Error() string { return "registry: NewSchema: " + e.Err.Error() }

// Unwrap returns Err.
func (e *SchemaError) Unwrap() error { return e.Err }

func schemaErrorf(format string, args ...any) error {
	return &SchemaError{Err: fmt.Errorf(format, args...)}
}

// NewSchema builds a schema from property descriptions, for components
// declared at run time with no Go type. No specs gives a tag schema; one
// spec with an empty Name a single-property schema. The schema's
// StructType is made with reflect.StructOf, one field per property, so
// such components can be stored like Go ones. Its errors are
// of type [*SchemaError].
func NewSchema(specs []PropSpec, types *Types) (*Schema, error) {
	if types == nil {
		return nil, &SchemaError{Err: errors.New("nil Types")}
	}
	s := &Schema{}
	fields := make([]reflect.StructField, 0, len(specs))
	fieldNames := map[string]bool{}
	for i, spec := range specs {
		what := fmt.Sprintf("property %q", spec.Name)
		if spec.Name == "" {
			what = "the unnamed property"
			if len(specs) > 1 {
				return nil, schemaErrorf("property %d has no name (only a single-property schema has an unnamed property)", i)
			}
		}
		p := Property{OneOf: slices.Clone(spec.OneOf), Min: spec.Min, Max: spec.Max}
		if spec.Name != "" {
			n, err := propName(spec.Name)
			if err != nil {
				return nil, &SchemaError{Err: err}
			}
			if _, dup := s.Lookup(n); dup {
				return nil, schemaErrorf("duplicate property name %q", n)
			}
			p.Name = n
		}
		typeName := spec.Type
		if typeName == "" {
			typeName = "string"
		}
		tt, ok := types.Lookup(typeName)
		if !ok {
			return nil, schemaErrorf("%s: unknown property type %q%s", what, typeName, didYouMean(typeName, types.Names()))
		}
		p.Type, p.FieldType = tt, tt.GoType
		if err := p.setOnDelete(spec.OnDelete); err != nil {
			return nil, schemaErrorf("%s: %w", what, err)
		}
		if err := p.setup(spec.Default, spec.Default != ""); err != nil {
			return nil, schemaErrorf("%s: %w", what, err)
		}
		fname := "Value"
		if p.Name != "" {
			fname = exportedName(p.Name)
		}
		if fieldNames[fname] {
			fname += "_" + strconv.Itoa(i)
		}
		fieldNames[fname] = true
		fields = append(fields, reflect.StructField{
			Name: fname,
			Type: tt.GoType,
			Tag:  reflect.StructTag(`scene:"` + p.Name + `,type=` + tt.Name + `"`),
		})
		s.Props = append(s.Props, p)
	}
	st, err := structOf(fields)
	if err != nil {
		return nil, &SchemaError{Err: err}
	}
	s.structType = st
	for i := range s.Props {
		f := st.Field(i)
		s.Props[i].Offset = f.Offset
		s.Props[i].FieldIndex = []int{i}
	}
	s.finish()
	return s, nil
}

// structOf is reflect.StructOf with its panics turned into errors.
func structOf(fields []reflect.StructField) (t reflect.Type, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cannot make a struct type: %v", r)
		}
	}()
	return reflect.StructOf(fields), nil
}

// exportedName makes an exported Go identifier from a property name.
func exportedName(name string) string {
	c := name[0]
	switch {
	case 'a' <= c && c <= 'z':
		return string(c-('a'-'A')) + name[1:]
	case 'A' <= c && c <= 'Z':
		return name
	default:
		return "P" + name
	}
}
