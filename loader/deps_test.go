package loader

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestDepsNoWatcher: reading a scene does not pull in a file watcher.
// The watcher lives in package watch, which the loader does not import;
// its snapshots convert to Snapshot. Checked with the go command, for
// the systems whose files differ by build tags.
func TestDepsNoWatcher(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command(gobin, "list", "-deps", ".")
		cmd.Env = append(os.Environ(), "GOOS="+goos)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps: %v\n%s", goos, err, out)
		}
		deps := strings.Fields(string(out))
		// The list is the real one: it holds the loader and what it
		// reads YAML with.
		for _, want := range []string{"github.com/scenecs/scenecs/loader", "gopkg.in/yaml.v3"} {
			if !slices.Contains(deps, want) {
				t.Fatalf("GOOS=%s: go list -deps does not list %s:\n%s", goos, want, out)
			}
		}
		for _, d := range deps {
			if strings.Contains(d, "fsnotify") || d == "github.com/scenecs/scenecs/watch" {
				t.Errorf("GOOS=%s: the loader depends on %s", goos, d)
			}
		}
	}
}
