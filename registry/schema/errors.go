package schema

import (
	"errors"
	"strings"

	"github.com/scenecs/scenecs/internal/didyoumean"
	"github.com/scenecs/scenecs/internal/quote"
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
	// Err, if set, is the error behind it, such as the [*selector.Error]
	// of a selector value.
	Err error
}

// Error returns `invalid value "abc": expected an integer`. A text of
// more than a few hundred bytes is shortened, with its length (see
// [AttrError]).
func (e *ValueError) Error() string {
	return "invalid value " + quote.String(e.Text) + ": expected " + e.Expected
}

// Unwrap returns Err.
func (e *ValueError) Unwrap() error { return e.Err }

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
//
// A text (or a name as written) of more than a few hundred bytes is
// quoted shortened, with its length, so that the message stays one short
// line: `invalid value "xxxx…" (100000369 bytes): expected a color`.
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
	// Msg, if set, says what is wrong in its own words, in place of
	// `invalid value "TEXT": expected EXPECTED` (an expression's error:
	// `if: unknown name "helth.hp" (did you mean "health.hp"?)`); Text
	// and Offset still locate it.
	Msg string
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
		b.WriteString(quote.String(e.Property))
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
		if e.Msg != "" {
			if e.Property != "" {
				b.WriteString("property ")
				b.WriteString(quote.String(e.Property))
				b.WriteString(": ")
			}
			b.WriteString(e.Msg)
			return b.String()
		}
		if e.Property != "" {
			b.WriteString("property ")
			b.WriteString(quote.String(e.Property))
			b.WriteString(": ")
		}
		b.WriteString("invalid value ")
	}
	b.WriteString(quote.String(e.Text))
	b.WriteString(": expected ")
	b.WriteString(e.Expected)
	return b.String()
}

// Unwrap returns the property type's parse error, if any.
func (e *AttrError) Unwrap() error { return e.Err }

// MaxAttrErrors bounds the problems one attribute string or mapping
// reports: parsing stops at the first MaxAttrErrors, so that a hostile
// text of many bad chunks costs no more than a few.
const MaxAttrErrors = 100

// AttrErrors is the error of an attribute string or mapping with several
// problems: one [*AttrError] each, in the order of the text (at least
// two; one problem is reported as the *AttrError alone). errors.As
// finds the first, for callers that report one.
type AttrErrors []*AttrError

// Error returns the messages of the problems, one a line.
func (e AttrErrors) Error() string {
	var b strings.Builder
	for i, ae := range e {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(ae.Error())
	}
	return b.String()
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (e AttrErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, ae := range e {
		out[i] = ae
	}
	return out
}

// add appends a problem and reports whether the list is full
// (MaxAttrErrors): the parse stops there.
func (e *AttrErrors) add(ae *AttrError) (full bool) {
	*e = append(*e, ae)
	return len(*e) >= MaxAttrErrors
}

// err returns nil for no problem, the *AttrError for one, e for more.
func (e AttrErrors) err() error {
	switch len(e) {
	case 0:
		return nil
	case 1:
		return e[0]
	}
	return e
}

// AttrErrorList returns every problem err reports about an attribute
// string or mapping, in text order: the list of an [AttrErrors], or the
// one [*AttrError], found in err's chain; nil if err holds neither.
func AttrErrorList(err error) []*AttrError {
	var list AttrErrors
	if errors.As(err, &list) {
		return list
	}
	var ae *AttrError
	if errors.As(err, &ae) {
		return []*AttrError{ae}
	}
	return nil
}

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
