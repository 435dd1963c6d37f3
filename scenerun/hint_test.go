package scenerun

import "testing"

// TestShellQuote: the hint's scene path is quoted for a POSIX shell only
// when it needs it.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a.yaml": "a.yaml", "dir/a-b_c.yaml": "dir/a-b_c.yaml", "my scene.yaml": `'my scene.yaml'`, "it's.yaml": `'it'\''s.yaml'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
