// Package quote shortens what an error message quotes of a scene's data
// (a value, a line of source, a name), so that one error stays one
// short line however long the data: a value an expression made, a line
// of a generated scene file. Text of at most [Max] bytes is quoted whole;
// longer text is cut at a character boundary and marked, with its full
// length:
//
//	"xxxxxxxx…" (100000369 bytes)
package quote

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Max is the most bytes of the data an error quotes: enough to recognise
// a value or a line, few enough that a thousand errors stay readable.
const Max = 200

// String returns s quoted as strconv.Quote quotes it, if it is at most
// Max bytes; otherwise its start (quoted, at most about Max bytes once
// escaped), an ellipsis inside the quotes, and the length of s:
// `"xxxx…" (100000369 bytes)`.
func String(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	q := strconv.Quote(prefix(s, Max))
	for n := Max / 2; len(q) > Max+2 && n > 0; n /= 2 {
		q = strconv.Quote(prefix(s, n)) // escapes (\x00) made it longer
	}
	return q[:len(q)-1] + "…\" (" + strconv.Itoa(len(s)) + " bytes)"
}

// Text returns s as it is, if it is at most Max bytes; otherwise its
// start, an ellipsis and the length of s: `xxxx… (100000369 bytes)`.
// It is for data a message shows unquoted (a line of source).
func Text(s string) string {
	if len(s) <= Max {
		return s
	}
	return prefix(s, Max) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Args returns args with each string of more than Max bytes replaced
// by a value that %q formats as [String] does and other verbs as [Text]
// does; args itself is not changed. It is for the helpers that format a
// message from a format and arguments (a loader's error list), so that
// every message they make quotes briefly.
func Args(args []any) []any {
	out, copied := args, false
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > Max {
			if !copied {
				out, copied = slices.Clone(args), true
			}
			out[i] = long(s)
		}
	}
	return out
}

// long is a string that formats shortened (see Args).
type long string

// Format writes the string as String (for %q) or Text would.
func (l long) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = io.WriteString(f, String(string(l)))
		return
	}
	_, _ = io.WriteString(f, Text(string(l)))
}

// prefix returns the longest start of s of at most n bytes that does not
// cut a UTF-8 character.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := n; i > n-utf8.UTFMax && i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i]
		}
	}
	return s[:n]
}
