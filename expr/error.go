package expr

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/file"
	"github.com/scenecs/scenecs/internal/quote"
)

// Error is a compile-time or run-time error of an expression. Its message
// says what is wrong, naming kinds as the language does ("number",
// "vec3"); Offset and Len locate the offending text in the expression's
// source, in bytes, so that a host reporting a scene file can point at
// file:line:col inside the attribute string. Error() is the message alone.
type Error struct {
	// Msg says what is wrong, without the position.
	Msg string
	// Offset is the byte offset of the offending text in Source; Len its
	// length in bytes (0 at the end of the source).
	Offset, Len int
	// Source is the expression.
	Source string

	// cause is ErrBudget for an evaluation stopped by a budget, or nil.
	cause error
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns [ErrBudget] for an evaluation that a budget stopped
// (see [MaxBytes]), and nil otherwise.
func (e *Error) Unwrap() error { return e.cause }

// errAt returns an Error about the span s of src.
func errAt(src string, s span, format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Offset: s.from, Len: s.to - s.from, Source: src}
}

// span is a byte range of the source.
type span struct{ from, to int }

// text returns the source text of s, for a message: shortened to a few
// hundred bytes (see quote.Text), since the error locates it anyway.
func (s span) text(src string) string { return quote.Text(src[s.from:s.to]) }

// runeSpan converts expr's location (in runes) to a byte span of src.
func runeSpan(src string, loc file.Location) span {
	from := byteOffset(src, loc.From)
	to := byteOffset(src, loc.To)
	if to < from {
		to = from
	}
	return span{from, to}
}

// byteOffset returns the byte offset of the rune at index r of src
// (len(src) past the end).
func byteOffset(src string, r int) int {
	if r <= 0 {
		return 0
	}
	n := 0
	for i := range src {
		if n == r {
			return i
		}
		n++
	}
	return len(src)
}

// fromExprError converts an error of expr's parser, checker or VM to an
// Error, translating the Go type names of its message into kinds.
func fromExprError(src string, err error) *Error {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &Error{Msg: translate(err.Error()), Len: len(src), Source: src, cause: budgetCause(err)}
	}
	s := runeSpan(src, fe.Location)
	if strings.HasSuffix(fe.Message, "token EOF") || strings.HasPrefix(fe.Message, "unexpected end") {
		return errAt(src, span{len(src), len(src)}, "unexpected end of the expression")
	}
	if s.to == s.from && s.from < len(src) {
		// expr marks a token by its first rune; widen to the rune.
		_, n := utf8.DecodeRuneInString(src[s.from:])
		s.to = s.from + n
	}
	e := errAt(src, s, "%s", translate(fe.Message))
	e.cause = budgetCause(err)
	return e
}

// budgetCause returns ErrBudget if err is a budget's, else nil: the
// language's (which wraps ErrBudget) or expr's VM's for its lists.
func budgetCause(err error) error {
	var fe *file.Error
	if errors.Is(err, ErrBudget) || (errors.As(err, &fe) && fe.Message == vmBudget) {
		return ErrBudget
	}
	return nil
}

// typeNames maps the Go type names expr's messages use to the language's
// kind names.
var typeNames = strings.NewReplacer(
	"float64", "number",
	"interface {}", "dynamic",
	"expr.vmVec2", "vec2",
	"expr.vmVec3", "vec3",
	"expr.vmVec4", "vec4",
	"[]interface {}", "array",
	"map[string]interface {}", "map",
	"func(", "function(",
)

var (
	unknownFunc = regexp.MustCompile(`^unknown func (\S+)`)
	vmName      = regexp.MustCompile(`__v(add|sub|mul|div)`)
	mismatch2   = regexp.MustCompile(`^invalid operation: (\S+) \(mismatched types (.+) and (.+)\)$`)
	mismatch1   = regexp.MustCompile(`^invalid operation: (\S+) \(mismatched type (.+)\)$`)
	badToken    = regexp.MustCompile(`^unexpected token (\w+)\((".*")\)$`)
	noField     = regexp.MustCompile(`^type (vec[234]) has no field (.+)$`)
	typeField   = regexp.MustCompile(`^type (\S+) has no (field|method) `)
	tokenKinds  = strings.NewReplacer("Identifier", "name", "Operator", "operator", "Number", "number", "String", "string", "Bracket", "bracket")
)

// translate rewrites a message of expr's in the language's terms. Some
// of expr's messages quote a value (float(xxx...)) or a token: a message
// longer than a few quotes is shortened (see quote.Text).
func translate(msg string) string {
	if msg = translateMsg(msg); len(msg) > 4*quote.Max {
		msg = quote.Text(msg)
	}
	return msg
}

// translateMsg is translate but for the shortening.
func translateMsg(msg string) string {
	msg = strings.TrimSpace(typeNames.Replace(msg))
	msg = vmName.ReplaceAllStringFunc(msg, func(s string) string {
		return map[string]string{"__vadd": "+", "__vsub": "-", "__vmul": "*", "__vdiv": "/"}[s]
	})
	if m := unknownFunc.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("unknown function %q", m[1])
	}
	if m := mismatch2.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("operator %s does not apply to %s and %s", m[1], m[2], m[3])
	}
	if m := mismatch1.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("operator %s does not apply to %s", m[1], m[2])
	}
	if m := badToken.FindStringSubmatch(msg); m != nil {
		if tok, err := strconv.Unquote(m[2]); err == nil {
			m[2] = quote.String(tok)
		}
		return fmt.Sprintf("unexpected %s %s", tokenKinds.Replace(m[1]), m[2])
	}
	if m := noField.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s has no axis %s (its axes are %s)", m[1], m[2], strings.Join(strings.Split("xyzw"[:m[1][3]-'0'], ""), ", "))
	}
	if m := typeField.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s has no %s %s", m[1], m[2], msg[len(m[0]):])
	}
	if strings.Contains(msg, "exceeds maximum allowed nodes") {
		return fmt.Sprintf("expression too large: more than %d nodes", MaxNodes)
	}
	if msg == "runtime error: integer divide by zero" {
		return "modulo by zero" // the only int division: / gives a number
	}
	if msg == vmBudget {
		return fmt.Sprintf("the lists made would have more than %d items: over the budget of list items per evaluation", MaxItems)
	}
	if msg == "literal not terminated" {
		return "string literal not terminated"
	}
	return msg
}
