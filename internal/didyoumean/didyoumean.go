// Package didyoumean finds the nearest of a list of names to a misspelt
// one, for the "did you mean" hints of error messages, and words the
// hint. It is the one implementation the registry, the loader and the
// built-in components share, so every message suggests the same way:
//
//	unknown component "helth" (did you mean "health"?)
package didyoumean

import "strconv"

// Hint returns the hint for name among candidates, ` (did you mean
// "x"?)` with a leading space, ready to append to a message; or "" when
// no candidate is close (see [Nearest]).
func Hint(name string, candidates []string) string {
	return Phrase(Nearest(name, candidates))
}

// Phrase words a suggestion found earlier (an error type's Suggest
// field): ` (did you mean "x"?)` with a leading space, or "" for "".
func Phrase(suggestion string) string {
	if suggestion == "" {
		return ""
	}
	return " (did you mean " + strconv.Quote(suggestion) + "?)"
}

// Nearest returns the candidate closest to name, or "" when none is close.
// Names are compared ignoring case, '-' and '_' (so "max-hp" and "MaxHP"
// both find "maxHp"), by Levenshtein distance; a candidate is close when
// the distance is at most half the length of the longer name. Ties go to
// the earlier candidate, so callers that want a stable answer pass the
// candidates sorted.
func Nearest(name string, candidates []string) string {
	n := fold(name)
	best, bestDist := "", -1
	for _, c := range candidates {
		fc := fold(c)
		d := levenshtein(n, fc)
		if 2*d > max(len(n), len(fc)) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// fold lower-cases s and drops '-' and '_'.
func fold(s string) string {
	b := make([]byte, 0, len(s))
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '-' || c == '_':
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// levenshtein returns the edit distance between a and b, counted in bytes.
func levenshtein(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0] // row[i-1][j-1]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cur := row[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(row[j]+1, row[j-1]+1, prev+cost)
			prev = cur
		}
	}
	return row[len(b)]
}
