package live

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// swapScript runs replaceFile on a file holding "before" with exchange
// wrapped: around its n-th call (from 1) the editor's saves in
// pre[n] land just before the swap and those in post[n] just after it.
// A save is "rename:TEXT" (a new file renamed over the scene file) or
// "write:TEXT" (written in place). It returns the file's bytes
// afterwards, what the file held right after each swap, the files left
// in the directory, and replaceFile's error.
func swapScript(t *testing.T, pre, post map[int][]string) (string, []string, []string, error) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "scene.yaml")
	if err := os.WriteFile(path, []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	save := func(s string) {
		kind, text, _ := strings.Cut(s, ":")
		var err error
		switch kind {
		case "rename":
			if err = os.WriteFile(path+".ed", []byte(text+"\n"), 0o644); err == nil {
				err = os.Rename(path+".ed", path)
			}
		case "write":
			err = os.WriteFile(path, []byte(text+"\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	var shown []string
	old := exchange
	t.Cleanup(func() { exchange = old })
	n := 0
	exchange = func(a, b string) error {
		n++
		for _, s := range pre[n] {
			save(s)
		}
		err := old(a, b)
		cur, _ := os.ReadFile(path)
		shown = append(shown, strings.TrimSpace(string(cur)))
		for _, s := range post[n] {
			save(s)
		}
		return err
	}
	err := replaceFile(path, []byte("before\n"), []byte("after\n"), 1<<20)
	got, _ := os.ReadFile(path)
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		if e.Name() != "scene.yaml" {
			left = append(left, e.Name())
		}
	}
	return strings.TrimSpace(string(got)), shown, left, err
}

// TestReplaceFileSwaps: a save-back swaps its bytes in, and swaps an
// editor's save back in when one landed meanwhile; the file ends with
// the editor's newest save, and no swap ever brings back an older save
// of the editor once a newer one is in place (the check before each
// swap back), except when the editor saves in the instant between that
// check and the swap, which the next round mends.
func TestReplaceFileSwaps(t *testing.T) {
	for _, c := range []struct {
		name      string
		pre, post map[int][]string
		want      string
		shown     []string // the file right after each swap
		refused   bool
		keptFile  bool
	}{
		{name: "no editor", want: "after", shown: []string{"after"}},
		{name: "a save after the swap wins without a swap back",
			post: map[int][]string{1: {"rename:e1"}}, want: "e1", shown: []string{"after"}},
		{name: "a save before the swap is swapped back",
			pre: map[int][]string{1: {"rename:e1"}}, want: "e1", shown: []string{"after", "e1"}, refused: true},
		{name: "in place before the swap",
			pre: map[int][]string{1: {"write:e1"}}, want: "e1", shown: []string{"after", "e1"}, refused: true},
		{name: "renamed over after the swap: no swap back",
			pre: map[int][]string{1: {"rename:e1"}}, post: map[int][]string{1: {"rename:e2"}},
			want: "e2", shown: []string{"after"}, refused: true},
		{name: "written into after the swap: no swap back",
			pre: map[int][]string{1: {"rename:e1"}}, post: map[int][]string{1: {"write:e2"}},
			want: "e2", shown: []string{"after"}, refused: true},
		{name: "a save between the check and the swap back is mended",
			pre:  map[int][]string{1: {"rename:e1"}, 2: {"rename:e2"}},
			want: "e2", shown: []string{"after", "e1", "e2"}, refused: true},
		{name: "an editor that keeps saving",
			pre: map[int][]string{1: {"rename:e1"}, 2: {"rename:e2"}, 3: {"rename:e3"}, 4: {"rename:e4"}, 5: {"rename:e5"},
				6: {"rename:e6"}, 7: {"rename:e7"}, 8: {"rename:e8"}, 9: {"rename:e9"}},
			want: "e8", refused: true, keptFile: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, shown, left, err := swapScript(t, c.pre, c.post)
			if c.refused != errors.Is(err, ErrFileChanged) || (!c.refused && err != nil) {
				t.Fatalf("error %v, want refused %v", err, c.refused)
			}
			if got != c.want {
				t.Errorf("the file holds %q, want %q (after each swap: %q)", got, c.want, shown)
			}
			if c.shown != nil && strings.Join(shown, ",") != strings.Join(c.shown, ",") {
				t.Errorf("after each swap the file held %q, want %q", shown, c.shown)
			}
			if c.keptFile {
				if len(left) != 1 || !strings.Contains(left[0], ".save-conflict-") || !strings.Contains(err.Error(), left[0]) {
					t.Errorf("files left %q; error %v", left, err)
				}
			} else if len(left) > 0 {
				t.Errorf("files left: %q", left)
			}
		})
	}
}
