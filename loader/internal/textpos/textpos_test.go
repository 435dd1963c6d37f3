package textpos

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// naive returns the line and column of byte offset off in data by
// walking from the start, the definition the package implements: lines
// split at '\n', columns count characters, that is the bytes that do not
// continue a UTF-8 sequence (so an invalid byte that could not be one
// counts too), a leading byte order mark takes no column.
func naive(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	i := BOMLen(data)
	if off < i {
		return 1, 1
	}
	line, col := 1, 1
	for ; i < off; i++ {
		switch c := data[i]; {
		case c == '\n':
			line, col = line+1, 1
		case c&0xc0 != 0x80:
			col++
		}
	}
	return line, col
}

// texts returns texts with multi-byte characters, invalid bytes, byte
// order marks, CR LF, empty lines and long lines (over a rune block).
func texts() []string {
	out := []string{"", "\n", "a", "\ufeff", "\ufeffa\nb", "é\nü\n", "a\r\nb\r\n", "\xff\xfe\n\x80x", "日本語\n\n語", "\U0001F600 x\n y"}
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", " ", "é", "語", "\U0001F600", "\n", "\r\n", "\xff", "\t", strings.Repeat("x", 5000), strings.Repeat("é", 3000)}
	for range 40 {
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteString("\ufeff")
		}
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		out = append(out, b.String())
	}
	return out
}

// offsets returns every offset of a short text, and a sample of a long one.
func offsets(data []byte, rng *rand.Rand) []int {
	if len(data) < 300 {
		out := make([]int, len(data)+3)
		for i := range out {
			out[i] = i - 1 // one before, and past the end
		}
		return out
	}
	out := []int{0, len(data)}
	for range 300 {
		out = append(out, rng.IntN(len(data)+1))
	}
	return out
}

func TestIndexAndCursor(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range texts() {
		data := []byte(s)
		x := NewIndex(data)
		c := NewCursor(data)
		offs := offsets(data, rng)
		// In order, as readers mostly ask; then in random order, which
		// sends the cursor back to its index.
		sorted := append([]int(nil), offs...)
		rng.Shuffle(len(offs), func(i, j int) { offs[i], offs[j] = offs[j], offs[i] })
		for _, seq := range [][]int{sorted, offs} {
			for _, off := range seq {
				wl, wc := naive(data, off)
				if l, c := x.LineCol(off); l != wl || c != wc {
					t.Fatalf("%.40q: Index.LineCol(%d) = %d:%d, want %d:%d", s, off, l, c, wl, wc)
				}
				if l, c := c.LineCol(off); l != wl || c != wc {
					t.Fatalf("%.40q: Cursor.LineCol(%d) = %d:%d, want %d:%d", s, off, l, c, wl, wc)
				}
			}
		}
	}
}

func TestOffsetInvertsLineCol(t *testing.T) {
	for _, s := range texts() {
		data := []byte(s)
		if !utf8.Valid(data) {
			continue // an offset inside an invalid sequence has no character of its own
		}
		x := NewIndex(data)
		step := 1 + len(data)/3000 // a sample of a long text
		for off := BOMLen(data); off <= len(data); off += step {
			if off < len(data) && IsCont(data[off]) {
				continue
			}
			l, c := x.LineCol(off)
			if got, ok := x.Offset(l, c); !ok || got != off {
				t.Fatalf("%.40q: Offset(%d, %d) = %d, %v; want %d", s, l, c, got, ok, off)
			}
		}
		if _, ok := x.Offset(x.Lines()+1, 1); ok {
			t.Errorf("%.40q: Offset past the last line succeeds", s)
		}
		if _, ok := x.Offset(1, 0); ok {
			t.Errorf("%.40q: Offset at column 0 succeeds", s)
		}
	}
}

func TestColumns(t *testing.T) {
	for _, s := range texts() {
		data := []byte(s)
		ascii := true
		for _, c := range data {
			ascii = ascii && c < utf8.RuneSelf
		}
		x := NewIndex(data)
		var cols Columns
		cols.SetText(data, ascii)
		for line := 1; line <= x.Lines(); line++ {
			start := x.LineStart(line)
			end := len(data)
			if line < x.Lines() {
				end = x.LineStart(line+1) - 1
			}
			for _, off := range []int{start, end, (start + end) / 2, start, end} {
				if off < len(data) && IsCont(data[off]) {
					continue
				}
				_, want := x.LineCol(off)
				if got := cols.At(start, off); got != want {
					t.Fatalf("%.40q: line %d: At(%d, %d) = %d, want %d", s, line, start, off, got, want)
				}
			}
		}
	}
}

func TestAdvance(t *testing.T) {
	for _, c := range []struct {
		line, col int
		text      string
		wl, wc    int
	}{
		{3, 5, "", 3, 5},
		{3, 5, "abc", 3, 8},
		{3, 5, "é語\U0001F600", 3, 8},
		{3, 5, "a\nbé", 4, 3},
		{3, 5, "a\n\n", 5, 1},
	} {
		if l, col := Advance(c.line, c.col, c.text); l != c.wl || col != c.wc {
			t.Errorf("Advance(%d, %d, %q) = %d:%d, want %d:%d", c.line, c.col, c.text, l, col, c.wl, c.wc)
		}
	}
}
