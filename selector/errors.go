package selector

import (
	"fmt"
	"unicode/utf8"

	"github.com/scenecs/scenecs/internal/quote"
)

// Error is an error in a selector: a syntax error from [Parse], or a
// compile error from [Compile] (an unknown component or property, a
// comparison the property's type does not allow). Find it in a wrapped
// error with errors.As.
//
// Col is the 1-based byte column of the offending input: the byte offset
// plus one, counted over the whole source even if it contains newlines
// (selectors are single-line in practice, so the line is always 1). A
// column one past the last byte means "at end of input".
type Error struct {
	Col int    // 1-based byte column
	Msg string // what was expected or found, without position
	// Err is the [Source]'s error when the Source refused a name (such
	// as *registry.UnknownComponentError); Msg is its text. Nil for
	// syntax errors.
	Err error
	// Name is set when the selector starts with a bare name, which
	// selects nothing (entities have no type): the name, so that a
	// caller that knows the entities' ids can say that #Name selects
	// one.
	Name string
}

// Error formats the error as "selector:1:COL: message".
func (e *Error) Error() string {
	return fmt.Sprintf("selector:1:%d: %s", e.Col, e.Msg)
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// errorf builds an *Error at the given byte offset. A long name or value
// it quotes is shortened (see quote.Args): Col locates it.
func errorf(off int, format string, args ...any) *Error {
	return &Error{Col: off + 1, Msg: fmt.Sprintf(format, quote.Args(args)...)}
}

// describe names the input at off for error messages: a quoted character
// or "end of input".
func describe(src string, off int) string {
	if off >= len(src) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(src[off:])
	return fmt.Sprintf("%q", r)
}
