package loader

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"
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

// less orders positions by file name, then line, then column.
func (p Pos) less(q Pos) bool {
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
// ErrorList means success (use Err to turn it into an error value).
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
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.less(l[j].Pos) })
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
}

func (s *errorSink) add(p Pos, format string, args ...any) {
	if s.full {
		return
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	if s.max > 0 && len(s.list) >= s.max {
		s.list = append(s.list, &Error{Pos: p, Msg: fmt.Sprintf("too many errors (limit %d)", s.max)})
		s.full = true
		return
	}
	s.list = append(s.list, &Error{Pos: p, Msg: msg})
}

// Positions are computed from byte offsets. Readers produce offsets in
// nearly increasing order, so a posCursor walks forward from the last
// offset it converted: each byte of the input is looked at a bounded
// number of times however many tokens a line holds, which keeps the cost
// O(1) amortized per token (an element with 200,000 attributes on one
// line, a flow-style file that is a single 50 MB line). Offsets before
// the cursor (error positions that point back, at an opening bracket or
// a first definition) go to a lineIndex, built on first use, which finds
// the line by binary search and the column from rune counts kept per
// block of runeBlock bytes: O(log lines + runeBlock) for any offset.

// runeBlock is the size of the blocks of a lineIndex's rune counts.
const runeBlock = 4096

// isCont reports whether c is a UTF-8 continuation byte. Columns count
// the bytes that are not, which is the number of characters in valid
// UTF-8 (invalid bytes each count as one).
func isCont(c byte) bool { return c&0xc0 == 0x80 }

// countChars returns the number of characters in b (see isCont).
func countChars(b []byte) int {
	n := len(b)
	for _, c := range b {
		if c >= 0x80 && isCont(c) {
			n--
		}
	}
	return n
}

// bomLen returns 3 if data starts with a UTF-8 byte order mark, else 0.
// A byte order mark is not part of the text: it takes no column.
func bomLen(data []byte) int {
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		return 3
	}
	return 0
}

// lineIndex converts any byte offset of a source to a line:column
// position with character columns.
type lineIndex struct {
	file   string
	data   []byte
	starts []int // byte offset of the start of each line (after a BOM on line 1)

	chars []int32 // chars[k]: characters in data[:k*runeBlock], built on first use
}

func newLineIndex(file string, data []byte) *lineIndex {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	starts[0] = bomLen(data)
	return &lineIndex{file: file, data: data, starts: starts}
}

// charsBefore returns the number of characters in data[:off].
func (x *lineIndex) charsBefore(off int) int {
	if x.chars == nil {
		x.chars = make([]int32, 1, 1+len(x.data)/runeBlock)
		n := 0
		for k := 0; k+runeBlock <= len(x.data); k += runeBlock {
			n += countChars(x.data[k : k+runeBlock])
			x.chars = append(x.chars, int32(n))
		}
	}
	k := off / runeBlock
	return int(x.chars[k]) + countChars(x.data[k*runeBlock:off])
}

// pos returns the position of byte offset off (clamped to the data).
func (x *lineIndex) pos(off int) Pos {
	off = max(0, min(off, len(x.data)))
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	if line < 0 {
		return Pos{File: x.file, Line: 1, Col: 1} // inside a byte order mark
	}
	start := x.starts[line]
	var col int
	if off-start <= runeBlock {
		col = 1 + countChars(x.data[start:off])
	} else {
		col = 1 + x.charsBefore(off) - x.charsBefore(start)
	}
	return Pos{File: x.file, Line: line + 1, Col: col}
}

// posCursor converts the byte offsets a reader produces, which mostly
// increase, to positions (see the comment above runeBlock).
type posCursor struct {
	file string
	data []byte
	off  int // offset of the last conversion
	line int // its line, 1-based
	col  int // its column, 1-based
	idx  *lineIndex
}

func newPosCursor(file string, data []byte) *posCursor {
	b := bomLen(data)
	return &posCursor{file: file, data: data, off: b, line: 1, col: 1}
}

// pos returns the position of byte offset off (clamped to the data).
func (c *posCursor) pos(off int) Pos {
	off = max(0, min(off, len(c.data)))
	if off < c.off {
		if c.idx == nil {
			c.idx = newLineIndex(c.file, c.data)
		}
		return c.idx.pos(off)
	}
	d := c.data[c.off:off]
	for {
		j := bytes.IndexByte(d, '\n')
		if j < 0 {
			break
		}
		c.line++
		c.col = 1
		d = d[j+1:]
	}
	c.col += countChars(d)
	c.off = off
	return Pos{File: c.file, Line: c.line, Col: c.col}
}
