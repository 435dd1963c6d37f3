package jsonsyntax

// Decoding a string again, with where each byte of it was written.

// recorder records, while DecodeString runs, where each byte of the
// string being decoded was written. Off (a normal parse) it does nothing.
type recorder struct {
	on bool
	at []int32
}

// note records that the bytes of the text past those recorded, up to n,
// were written by what starts at offset off (a character or an escape).
func (r *recorder) note(n, off int) {
	if !r.on {
		return
	}
	for len(r.at) < n {
		r.at = append(r.at, int32(off))
	}
}

// copied records that the bytes of the text past those recorded, up to
// n, are a copy of the input from offset off.
func (r *recorder) copied(n, off int) {
	if !r.on {
		return
	}
	for len(r.at) < n {
		r.at = append(r.at, int32(off))
		off++
	}
}

// DecodeString decodes again the string written in data[off:end] (a
// string node's span, quotes included), with the parser's own code, and
// returns its text and where each byte of it was written: at[i] is the
// offset of the character or the escape ("\\", "\u00e9", a surrogate
// pair "\ud83d\ude00") that wrote text[i], and at[len(text)] is the
// closing quote. at never decreases. ok is false if the bytes are not a
// JSON string.
func DecodeString(data []byte, off, end int) (text string, at []int32, ok bool) {
	if off < 0 || end > len(data) || end-off < 2 || data[off] != '"' {
		return "", nil, false
	}
	win := data[off:end] // the parser reads the string and nothing else
	p := &parser{data: win, s: string(win), line: 1}
	p.rec.on = true
	text = p.str()
	if p.err != nil || p.i != len(win) {
		return "", nil, false
	}
	at = p.rec.at
	if len(at) == 0 {
		p.rec.copied(len(text), 1) // no escapes: the text as written
		at = p.rec.at
	}
	if len(at) != len(text) {
		return "", nil, false
	}
	for i := range at {
		at[i] += int32(off)
	}
	return text, append(at, int32(end-1)), true
}
