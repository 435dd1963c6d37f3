// Package attrtext cuts an A-Frame attribute string of several properties
// ("hp: 100; max: 200") into its "property: value" chunks, the one way
// every reader and writer of such strings in the module cuts them: at
// each ';' outside url(...), each chunk at its first ':', keys and values
// trimmed of ASCII white space. The schema's parser (registry/schema),
// its pairs type and the scene file editor's save-back
// (loader/scenefile/edit) all use it, so a value is read and rewritten
// with the same bounds.
package attrtext

// A Chunk is one ';'-separated piece of an attribute string, with the
// bounds (byte offsets in the whole string) of its parts. The key and the
// value are trimmed; for a chunk without ':' Colon is -1 and the key and
// value are empty at the chunk's trimmed start.
type Chunk struct {
	// Start and End bound the chunk as cut: End is at the ';' that ends
	// it, or at the end of the text.
	Start, End int
	// TrimStart and TrimEnd bound the chunk without its surrounding
	// white space (equal for an empty chunk).
	TrimStart, TrimEnd int
	// Colon is the offset of the chunk's first ':', or -1.
	Colon int
	// KeyStart, KeyEnd and ValStart, ValEnd bound the trimmed key (before
	// Colon) and value (after it).
	KeyStart, KeyEnd, ValStart, ValEnd int
	// OpenURL is the offset of a "url(" that no ')' closes, or -1: the
	// rest of the text is inside it, and so in this chunk.
	OpenURL int
}

// Empty reports whether the chunk holds only white space (a doubled or
// trailing ';').
func (c *Chunk) Empty() bool { return c.TrimStart == c.TrimEnd }

// End returns the end of the chunk of text that starts at start: the next
// ';' outside url(...), or len(text); and the offset of a "url(" still
// open there, or -1.
func End(text string, start int) (end, openURL int) {
	openURL = -1
	for i := start; i < len(text); i++ {
		switch c := text[i]; {
		case c == ';' && openURL < 0:
			return i, -1
		case c == '(' && i >= 3 && text[i-3:i] == "url":
			openURL = i - 3
		case c == ')':
			openURL = -1
		}
	}
	return len(text), openURL
}

// Cut returns the chunk of text that starts at start, and where the next
// one starts (len(text)+1 after the last). Loop over a string's chunks
// so:
//
//	for at := 0; at <= len(text); {
//		var c attrtext.Chunk
//		c, at = attrtext.Cut(text, at)
//		...
//	}
func Cut(text string, start int) (c Chunk, next int) {
	next = c.Cut(text, start)
	return c, next
}

// Cut is the function [Cut] writing into c, for hot loops that reuse
// one Chunk.
func (c *Chunk) Cut(text string, start int) (next int) {
	end, open := End(text, start)
	ts, te := Trim(text, start, end)
	*c = Chunk{Start: start, End: end, TrimStart: ts, TrimEnd: te, Colon: -1,
		KeyStart: ts, KeyEnd: ts, ValStart: ts, ValEnd: ts, OpenURL: open}
	for i := ts; i < te; i++ {
		if text[i] == ':' {
			c.Colon = i
			c.KeyStart, c.KeyEnd = Trim(text, ts, i)
			c.ValStart, c.ValEnd = Trim(text, i+1, end)
			break
		}
	}
	return end + 1
}

// Trim returns the bounds of text[a:b] without surrounding ASCII white
// space.
func Trim(text string, a, b int) (int, int) {
	for a < b && IsSpace(text[a]) {
		a++
	}
	for b > a && IsSpace(text[b-1]) {
		b--
	}
	return a, b
}

// IsSpace reports whether c is ASCII white space, as attribute strings
// trim it: space, tab, line feed, carriage return, form feed, vertical
// tab.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
