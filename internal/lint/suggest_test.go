package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSuggestionsWordedOneWay keeps every "did you mean" of the
// repository's messages, tests and docs in the one form, worded by
// internal/didyoumean.
func TestSuggestionsWordedOneWay(t *testing.T) {
	root := repoRoot(t)
	found, err := Wordings(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range found {
		if rel, err := filepath.Rel(root, w.Pos.Filename); err == nil {
			w.Pos.Filename = rel
		}
		t.Error(w)
	}
}

// TestWordingsIn: the other forms, in messages, docs and code, are found;
// the one form and the phrase named in quotes are not.
func TestWordingsIn(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"ok.md": "unknown component \"helth\" (DYM \"health\"?)\n" +
			"the \"DYM\" hints; a hint (DYM\n\"number\"?) across lines\n",
		"ok_test.go":  "package p\n\nconst want = `x (DYM \"y\"?)`\nconst w2 = \"x (DYM \\\"y\\\"?)\"\n",
		"semi.md":     "unknown component \"helth\"; DYM \"health\"?\n",
		"wrap.md":     "unknown system \"phyiscs\"; DYM_SPLIT \"physics\"?\n",
		"upper.txt":   "DYM_UPPER \"x\"?\n",
		"dash.golden": "a.yaml:1:1: unknown prefab \"shp\" - DYM \"ship\"?\n",
		"own.go": "package p\n\n// Hint words (DYM \"x\"?): a comment may quote it.\n" +
			"var f = \" (DYM %q?)\"\n",
		"semi_test.go": "package p\n\nconst want = `x; DYM \"y\"?`\n",
		"skip.bin":     "; DYM",
	}
	// The test's own source must pass the check: spell the phrase at run
	// time.
	phrase := strings.NewReplacer("DYM_SPLIT", "did you\nmean", "DYM_UPPER", "Did you mean", "DYM", "did you mean")
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(phrase.Replace(src)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := Wordings(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range found {
		got = append(got, filepath.Base(w.Pos.Filename)+":"+itoa(w.Pos.Line)+":"+itoa(w.Pos.Column)+":"+strings.SplitN(w.Why, " ", 2)[0])
	}
	slices.Sort(got)
	want := []string{"dash.golden:1:36:a", "own.go:4:9:word", "semi.md:1:28:a", "semi_test.go:3:18:a", "upper.txt:1:1:a", "wrap.md:1:27:a"}
	if !slices.Equal(got, want) {
		t.Errorf("found\n %v\nwant\n %v", got, want)
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}
