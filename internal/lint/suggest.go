package lint

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Wording is a place in the repository that words a "did you mean"
// suggestion otherwise than the one way internal/didyoumean words it,
// ` (did you mean "x"?)`, or that spells the wording out in Go code
// instead of calling didyoumean.Hint or didyoumean.Phrase.
type Wording struct {
	Pos  token.Position
	Text string // the text found, with a little context
	Why  string
}

// String reports the wording as "file:line:col: why: text".
func (w Wording) String() string { return fmt.Sprintf("%s: %s: %q", w.Pos, w.Why, w.Text) }

// suggestionPhrase finds the phrase, also across a line break.
var suggestionPhrase = regexp.MustCompile(`(?i)did\s+you\s+mean`)

// wordedFiles are the extensions of the files that may quote messages:
// code, documentation, web pages and golden files.
var wordedFiles = []string{".go", ".md", ".js", ".html", ".txt", ".golden", ".yaml", ".xml", ".json"}

// Wordings returns the places under root that word a suggestion another
// way: in every file that may quote a message (Go, Markdown, the web
// page, golden files) each "did you mean" must be the hint's own
// "(did you mean", or the phrase named in quotes ("did you mean"); and a
// Go string literal outside tests and internal/didyoumean must not hold
// it (messages get it from didyoumean.Hint or Phrase). Directories the
// go command ignores are walked too (golden files live in testdata),
// but for vendor, node_modules and hidden ones.
func Wordings(root string) ([]Wording, error) {
	var out []Wording
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "vendor" || name == "node_modules" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !hasAnySuffix(name, wordedFiles) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out = append(out, wordingsIn(path, src)...)
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") && !ownsWording(root, path) {
			out = append(out, literalWordings(path, src)...)
		}
		return nil
	})
	return out, err
}

// wordingsIn finds the phrases of src not in the one form.
func wordingsIn(file string, src []byte) []Wording {
	var out []Wording
	for _, m := range suggestionPhrase.FindAllIndex(src, -1) {
		before, after := byte(0), byte(0)
		if m[0] > 0 {
			before = src[m[0]-1]
		}
		if m[1] < len(src) {
			after = src[m[1]]
		}
		// Go test files quote messages in interpreted strings: \"...\".
		quoted := before == '"' && after == '"'
		if before == '(' && string(src[m[0]:m[1]]) == "did you mean" || quoted {
			continue
		}
		out = append(out, Wording{Pos: position(file, src, m[0]), Text: context(src, m[0], m[1]),
			Why: `a suggestion is worded (did you mean "x"?), in lower case, after the message`})
	}
	return out
}

// literalWordings finds Go string literals that spell the phrase out.
func literalWordings(file string, src []byte) []Wording {
	var out []Wording
	fset := token.NewFileSet()
	f := fset.AddFile(file, -1, len(src))
	var s scanner.Scanner
	s.Init(f, src, nil, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if (tok == token.STRING || tok == token.CHAR) && suggestionPhrase.MatchString(lit) {
			out = append(out, Wording{Pos: fset.Position(pos), Text: lit,
				Why: "word a suggestion with didyoumean.Hint or didyoumean.Phrase"})
		}
	}
}

// ownsWording reports whether path is in a package allowed to spell the
// phrase out: internal/didyoumean, which words it, and this one.
func ownsWording(root, path string) bool {
	rel, err := filepath.Rel(root, filepath.Dir(path))
	if err != nil {
		return false
	}
	rel = filepath.ToSlash(rel)
	return rel == "internal/didyoumean" || rel == "internal/lint"
}

func hasAnySuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// position returns the line and column (in bytes) of offset off of src.
func position(file string, src []byte, off int) token.Position {
	line := 1 + strings.Count(string(src[:off]), "\n")
	col := off + 1
	if i := strings.LastIndexByte(string(src[:off]), '\n'); i >= 0 {
		col = off - i
	}
	return token.Position{Filename: file, Line: line, Column: col}
}

// context returns src[start:end] with up to 20 bytes either side.
func context(src []byte, start, end int) string {
	return string(src[max(0, start-20):min(len(src), end+20)])
}
