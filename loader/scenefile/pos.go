package scenefile

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/internal/quote"
	"github.com/scenecs/scenecs/loader/internal/textpos"
)

// Pos is a position in a scene source file. Line and Col are 1-based; Col
// counts characters (Unicode code points), not bytes, in both YAML and XML
// files, so a tab or an "é" each count as one column. The zero Pos is
// "no position".
type Pos struct {
	File string // file name as given to the reader (slash-separated for ReadFile)
	Line int    // 1-based line, 0 if unknown
	Col  int    // 1-based column in characters, 0 if unknown
}

// IsValid reports whether the position carries a line number.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", or "file:line" without a column, "file"
// without a line, and "-" for the zero Pos. Without a file it is
// "line:col".
func (p Pos) String() string {
	s := p.File
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Col > 0 {
			s += ":" + strconv.Itoa(p.Col)
		}
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Less orders positions by file name, then line, then column.
func (p Pos) Less(q Pos) bool {
	if p.File != q.File {
		return p.File < q.File
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Error is one problem found in a scene file, at a position.
type Error struct {
	Pos Pos
	Msg string
}

// Error returns "file:line:col: message".
func (e *Error) Error() string {
	if e.Pos == (Pos{}) {
		return e.Msg
	}
	return e.Pos.String() + ": " + e.Msg
}

// ErrorList is a list of positioned errors. The readers return every
// problem they find as an ErrorList sorted by position; a nil or empty
// ErrorList means success (use [ErrorList.Err] to turn it into an error
// value).
type ErrorList []*Error

// Error joins the messages of all errors, one per line.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the individual errors, so that errors.As can find an *Error.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Sort sorts the list by file, line and column, keeping the order of
// errors at the same position.
func (l ErrorList) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Less(l[j].Pos) })
}

// Err returns nil for an empty list and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// errorSink collects errors up to a limit.
type errorSink struct {
	list ErrorList
	max  int
	full bool // max reached: stop reading

	ctx     context.Context // nil: never interrupted
	polls   int             // polls since the last look at ctx
	stopped bool            // ctx was done: reading stopped (full is set too)
}

// pollEvery is how many entities a reader reads between two looks at
// its context.
const pollEvery = 1024

// stopReading is what a parser's callback panics with to stop a read
// whose context is done: the parsers of package yamlsyntax and
// jsonsyntax read to the end of the input otherwise, and their callers
// recover it (recoverStopped).
type stopReading struct{}

// abortIfStopped unwinds the parser calling back into a reader once the
// read is interrupted (see stopReading).
func (s *errorSink) abortIfStopped() {
	if s.stopped {
		panic(stopReading{})
	}
}

// recoverStopped, deferred by a reader, recovers the unwinding of
// abortIfStopped, leaving *doc nil; other panics go on.
func (s *errorSink) recoverStopped(doc **Document) {
	if r := recover(); r != nil {
		if _, ok := r.(stopReading); !ok {
			panic(r)
		}
		*doc = nil
	}
}

// poll is called by the readers for every entity: every pollEvery calls
// it looks at the context, and once that is done it stops the read
// (full) and reports true.
func (s *errorSink) poll() bool {
	if s.stopped {
		s.full = true
		return true
	}
	if s.ctx == nil {
		return false
	}
	if s.polls++; s.polls >= pollEvery {
		s.polls = 0
		if s.ctx.Err() != nil {
			s.stopped, s.full = true, true
		}
	}
	return s.stopped
}

func (s *errorSink) add(p Pos, format string, args ...any) {
	if s.full {
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, quote.Args(args)...) // a name as long as the file is quoted briefly
	}
	if s.max > 0 && len(s.list) >= s.max {
		s.list = append(s.list, &Error{Pos: p, Msg: fmt.Sprintf("too many errors (limit %d)", s.max)})
		s.full = true
		return
	}
	s.list = append(s.list, &Error{Pos: p, Msg: msg})
}

// lineIndex converts any byte offset of a source to a position (see
// [textpos.Index]).
type lineIndex struct {
	file string
	x    *textpos.Index
}

func newLineIndex(file string, data []byte) *lineIndex {
	return &lineIndex{file: file, x: textpos.NewIndex(data)}
}

// pos returns the position of byte offset off (clamped to the data).
func (x *lineIndex) pos(off int) Pos {
	line, col := x.x.LineCol(off)
	return Pos{File: x.file, Line: line, Col: col}
}

// posCursor converts the byte offsets a reader produces, which mostly
// increase, to positions (see [textpos.Cursor]).
type posCursor struct {
	file string
	c    *textpos.Cursor
}

func newPosCursor(file string, data []byte) posCursor {
	return posCursor{file: file, c: textpos.NewCursor(data)}
}

// pos returns the position of byte offset off (clamped to the data).
func (c posCursor) pos(off int) Pos {
	line, col := c.c.LineCol(off)
	return Pos{File: c.file, Line: line, Col: col}
}
