package registry

import (
	"errors"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
)

// A ValueError is the error a property type's Parse function returns for
// text it cannot accept. Custom types should return one too, so that
// attribute errors can say what was expected and point at the offending
// part of the text.
type ValueError struct {
	// Text is the offending text: the whole value or a part of it (one
	// axis of a vector, say).
	Text string
	// Expected says what would have been accepted, as a noun phrase:
	// "an integer", "true or false".
	Expected string
	// Offset is the byte offset of Text within the text given to Parse.
	Offset int
}

// Error returns `invalid value "abc": expected an integer`.
func (e *ValueError) Error() string {
	return "invalid value " + strconv.Quote(e.Text) + ": expected " + e.Expected
}

// AttrErrorKind classifies an [AttrError].
type AttrErrorKind uint8

const (
	// InvalidValue means a property's value does not parse or is out of
	// range (wrong type, not in oneOf, below min, above max).
	InvalidValue AttrErrorKind = iota
	// UnknownProperty means the text names a property the schema does not
	// have.
	UnknownProperty
	// InvalidSyntax means the text is not in the form the component takes
	// (a bare word given to a multi-property component, a value given to a
	// tag, a missing property name, an unclosed url().
	InvalidSyntax
)

// An AttrError reports a problem in a component's attribute string (or
// mapping). Its message names the component, the property, the offending
// text and what was expected:
//
//	health: property "hp": invalid value "abc": expected an integer
//	health: unknown property "hq" (did you mean "hp"?)
type AttrError struct {
	Kind AttrErrorKind
	// Component is the component name as the caller gave it.
	Component string
	// Property is the property concerned: the schema's name for it, or
	// for UnknownProperty the name as written. Empty for the single
	// property of a single-property component and for syntax errors.
	Property string
	// Text is the offending text.
	Text string
	// Expected says what would have been accepted.
	Expected string
	// Suggest is, for UnknownProperty, the nearest property name of the
	// schema, or "".
	Suggest string
	// Offset is the byte offset where Text starts: in the attribute string
	// for ParseAttr; for ParseMap, in the pair's key (UnknownProperty) or
	// value (the other kinds).
	Offset int
	// Pair is, for ParseMap, the index of the offending key/value pair;
	// -1 for ParseAttr.
	Pair int
	// Err is the error the property type's Parse function returned, if
	// any.
	Err error
}

// Error formats the error as described on [AttrError].
func (e *AttrError) Error() string {
	var b strings.Builder
	if e.Component != "" {
		b.WriteString(e.Component)
		b.WriteString(": ")
	}
	switch e.Kind {
	case UnknownProperty:
		b.WriteString("unknown property ")
		b.WriteString(strconv.Quote(e.Property))
		if e.Suggest != "" {
			b.WriteString(didyoumean.Phrase(e.Suggest))
		} else if e.Expected != "" {
			b.WriteString(": expected ")
			b.WriteString(e.Expected)
		}
		return b.String()
	case InvalidSyntax:
		b.WriteString("invalid text ")
	default:
		if e.Property != "" {
			b.WriteString("property ")
			b.WriteString(strconv.Quote(e.Property))
			b.WriteString(": ")
		}
		b.WriteString("invalid value ")
	}
	b.WriteString(strconv.Quote(e.Text))
	b.WriteString(": expected ")
	b.WriteString(e.Expected)
	return b.String()
}

// Unwrap returns the property type's parse error, if any.
func (e *AttrError) Unwrap() error { return e.Err }

// newValueAttrError turns a type's parse error for the value text starting
// at base into an AttrError.
func newValueAttrError(component, property string, err error, value string, base int) *AttrError {
	ae := &AttrError{Kind: InvalidValue, Component: component, Property: property, Pair: -1, Err: err}
	var ve *ValueError
	if errors.As(err, &ve) {
		ae.Text, ae.Expected, ae.Offset = ve.Text, ve.Expected, base+ve.Offset
		if ve.Offset < 0 || ve.Offset > len(value) {
			ae.Offset = base
		}
		return ae
	}
	ae.Text, ae.Expected, ae.Offset = value, err.Error(), base
	return ae
}
