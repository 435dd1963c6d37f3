// Package textpos turns byte offsets in a source text into 1-based lines
// and columns, the columns counted in characters (Unicode code points;
// in text that is not UTF-8, the bytes that do not continue a sequence),
// as scenefile.Pos documents them. It is
// the one place where the readers of scene files and the syntax packages
// under loader/internal do line and column arithmetic.
//
// Readers produce offsets in nearly increasing order, so a [Cursor] walks
// forward from the last offset it converted: each byte of the input is
// looked at a bounded number of times however many tokens a line holds,
// which keeps the cost O(1) amortized per token (an element with 200,000
// attributes on one line, a flow-style file that is a single 50 MB line).
// Offsets before the cursor (error positions that point back, at an
// opening bracket or a first definition) go to an [Index], built on first
// use, which finds the line by binary search and the column from rune
// counts kept per block of bytes: O(log lines + block) for any offset.
// Parsers that track lines themselves count columns with [Columns].
//
// A UTF-8 byte order mark at the start of the text is not part of it: it
// takes no column.
package textpos

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"
)

// runeBlock is the size of the blocks of an Index's rune counts.
const runeBlock = 4096

// IsCont reports whether c is a UTF-8 continuation byte. Columns count
// the bytes that are not, which is the number of characters in valid
// UTF-8 (and in invalid UTF-8, one per byte that is not a continuation
// byte).
func IsCont(c byte) bool { return c&0xc0 == 0x80 }

// CountChars returns the number of characters in b (see [IsCont]).
func CountChars(b []byte) int {
	n := len(b)
	for _, c := range b {
		if c >= 0x80 && IsCont(c) {
			n--
		}
	}
	return n
}

// BOMLen returns 3 if data starts with a UTF-8 byte order mark, else 0.
func BOMLen(data []byte) int {
	if bytes.HasPrefix(data, []byte("\ufeff")) {
		return 3
	}
	return 0
}

// Advance returns the position reached from line:col by the characters of
// text: a line further per line feed, the column counted in characters.
func Advance(line, col int, text string) (int, int) {
	if i := strings.LastIndexByte(text, '\n'); i >= 0 {
		return line + strings.Count(text, "\n"), 1 + utf8.RuneCountInString(text[i+1:])
	}
	return line, col + utf8.RuneCountInString(text)
}

// Index converts any byte offset of a text to a line and column, and back.
type Index struct {
	data   []byte
	starts []int   // byte offset of the start of each line (after a byte order mark on line 1)
	chars  []int32 // chars[k]: characters in data[:k*runeBlock], built on first use
}

// NewIndex indexes the lines of data.
func NewIndex(data []byte) *Index {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	starts[0] = BOMLen(data)
	return &Index{data: data, starts: starts}
}

// Lines returns the number of lines (a text without a line feed has one).
func (x *Index) Lines() int { return len(x.starts) }

// LineStart returns the byte offset where line (1-based, clamped to the
// lines of the text) starts.
func (x *Index) LineStart(line int) int {
	return x.starts[max(1, min(line, len(x.starts)))-1]
}

// charsBefore returns the number of characters in data[:off].
func (x *Index) charsBefore(off int) int {
	if x.chars == nil {
		x.chars = make([]int32, 1, 1+len(x.data)/runeBlock)
		n := 0
		for k := 0; k+runeBlock <= len(x.data); k += runeBlock {
			n += CountChars(x.data[k : k+runeBlock])
			x.chars = append(x.chars, int32(n))
		}
	}
	k := off / runeBlock
	return int(x.chars[k]) + CountChars(x.data[k*runeBlock:off])
}

// LineCol returns the line and column of byte offset off (clamped to the
// text).
func (x *Index) LineCol(off int) (line, col int) {
	off = max(0, min(off, len(x.data)))
	l := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	if l < 0 {
		return 1, 1 // inside a byte order mark
	}
	start := x.starts[l]
	if off-start <= runeBlock {
		return l + 1, 1 + CountChars(x.data[start:off])
	}
	return l + 1, 1 + x.charsBefore(off) - x.charsBefore(start)
}

// Offset returns the byte offset of line:col, the inverse of LineCol; false
// if the text has no such line, or the line no such column.
func (x *Index) Offset(line, col int) (int, bool) {
	if line < 1 || line > len(x.starts) || col < 1 {
		return 0, false
	}
	off := x.starts[line-1]
	for range col - 1 {
		if off >= len(x.data) {
			return 0, false
		}
		_, n := utf8.DecodeRune(x.data[off:])
		off += n
	}
	return off, true
}

// Cursor converts the byte offsets a reader produces, which mostly
// increase, to lines and columns (see the package comment).
type Cursor struct {
	data []byte
	off  int // offset of the last conversion
	line int // its line, 1-based
	col  int // its column, 1-based
	idx  *Index
}

// NewCursor returns a cursor at the start of data.
func NewCursor(data []byte) *Cursor {
	return &Cursor{data: data, off: BOMLen(data), line: 1, col: 1}
}

// LineCol returns the line and column of byte offset off (clamped to the
// text).
func (c *Cursor) LineCol(off int) (line, col int) {
	off = max(0, min(off, len(c.data)))
	if off < c.off {
		if c.idx == nil {
			c.idx = NewIndex(c.data)
		}
		return c.idx.LineCol(off)
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
	c.col += CountChars(d)
	c.off = off
	return c.line, c.col
}

// Columns counts the columns of offsets on the current line of a parser
// that tracks lines itself: given the offset where the line starts, it
// counts from the last offset it was asked for on that line, so the
// increasing offsets of one line cost O(1) amortized. The zero Columns is
// ready for use with SetText.
type Columns struct {
	data  []byte
	ascii bool // the text is ASCII: a column is an offset on the line
	start int  // line start of the last count
	off   int  // its offset
	col   int  // its column
}

// SetText starts counting columns in data; ascii says data holds only
// ASCII bytes, so that columns need no counting.
func (c *Columns) SetText(data []byte, ascii bool) {
	*c = Columns{data: data, ascii: ascii, start: -1}
}

// At returns the 1-based column of offset off on the line that starts at
// offset lineStart.
func (c *Columns) At(lineStart, off int) int {
	if c.ascii {
		return off - lineStart + 1
	}
	return c.count(lineStart, off)
}

func (c *Columns) count(lineStart, off int) int {
	if c.start != lineStart || off < c.off {
		c.start, c.off, c.col = lineStart, lineStart, 1
	}
	c.col += CountChars(c.data[c.off:off])
	c.off = off
	return c.col
}
