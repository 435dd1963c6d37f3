package xmltok

// Decoding an attribute value again, with where each byte of it was
// written.

// recorder records, while DecodeValue runs, where each byte of the value
// being decoded was written. Off (a scanner's normal run) it does
// nothing.
type recorder struct {
	on bool
	at []int32
}

// note records that the bytes of the value past those recorded, up to
// n, were written by what starts at offset off (a character, a
// reference, a line break).
func (r *recorder) note(n, off int) {
	if !r.on {
		return
	}
	for len(r.at) < n {
		r.at = append(r.at, int32(off))
	}
}

// DecodeValue decodes again the attribute value written in
// data[valOff:valEnd] (an Attr's ValOff and ValEnd: between its quotes),
// with the scanner's own code, and returns its text (Attr.Value) and
// where each byte of it was written: at[i] is the offset of the
// character, the reference ("&amp;", "&#38;") or the line break (CR LF
// is one "\n") that wrote text[i], and at[len(text)] is valEnd. at never
// decreases, so the bytes [at[a], at[b]) wrote text[a:b]. ok is false if
// the bytes are not an attribute value as the scanner reads one.
func DecodeValue(data []byte, valOff, valEnd int) (text string, at []int32, ok bool) {
	if valOff < 1 || valEnd < valOff || valEnd >= len(data) || data[valOff-1] != data[valEnd] {
		return "", nil, false
	}
	quote := data[valEnd]
	// The scanner reads the value and its closing quote, and nothing
	// else of the input.
	win := data[:valEnd+1]
	s := &Scanner{data: win, p: valOff} // decodeText takes nothing from s.s
	s.rec.on = true
	text, ok = s.decodeText(int(quote), false)
	if !ok || s.p != valEnd+1 {
		return "", nil, false
	}
	at = s.rec.at
	if len(at) != len(text) {
		return "", nil, false
	}
	return text, append(at, int32(valEnd)), true
}
