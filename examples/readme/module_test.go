package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The README tells how to build a module of one's own against a checkout
// of scenecs: a replace directive, or a workspace. These tests follow it
// to the letter in a throwaway module next to a "scenecs" that is this
// checkout, with this program (the README's) as the module's code.
//
// They run offline, as CI does after `go mod download`: GOPROXY=off, the
// module cache has the checkout's dependencies. A full `go mod tidy` also
// records the test dependencies of dependencies (gopkg.in/check.v1, for
// yaml.v3's tests), which only the network has; offline, tidy -e skips
// them and does the rest. The checkout's go.sum stands in for the
// checksum database, which is on the network too.

// readmeCommands returns the shell lines of the README that start with
// prefix (comments dropped), failing the test if there is none.
func readmeCommands(t *testing.T, prefix string) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for line := range strings.Lines(string(readme)) {
		line, _, _ = strings.Cut(line, "#")
		if line = strings.TrimSpace(line); strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	if len(out) == 0 {
		t.Fatalf("the README has no command %q...", prefix)
	}
	return out
}

// ownModule makes dir/scenecs (this checkout) and dir/game, a new module
// example.com/game holding this program and its level, and returns the
// game's directory.
func ownModule(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(root, filepath.Join(dir, "scenecs")); err != nil {
		t.Skipf("the recipe's ../scenecs is a symbolic link to the checkout here: %v", err)
	}
	game := filepath.Join(dir, "game")
	if err := os.Mkdir(game, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "level.yaml"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(game, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goCmd(t, game, nil, "go mod init example.com/game")
	return game
}

// goCmd runs a go command line (split at spaces) in dir, offline, with
// env added, and returns its standard output.
func goCmd(t *testing.T, dir string, env []string, line string) string {
	t.Helper()
	args := strings.Fields(line)
	if args[0] != "go" {
		t.Fatalf("not a go command: %s", line)
	}
	cmd := exec.Command("go", args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly"}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s (in %s): %v\n%s%s", line, dir, err, out.String(), errb.String())
	}
	return out.String()
}

// runsAsTheREADMESays runs the game and checks it prints what TestRun
// wants, then vets it.
func runsAsTheREADMESays(t *testing.T, game string, env []string) {
	t.Helper()
	want := "scout hp: 20; max: 100 at 3 0 0\nguard hp: 40; max: 100 at 12 0 0\n"
	if got := goCmd(t, game, env, "go run ."); got != want {
		t.Errorf("the game printed:\n%s\nwant:\n%s", got, want)
	}
	goCmd(t, game, env, "go vet .")
}

// TestOwnModuleReplace: `go mod edit -replace ...=../scenecs` and `go mod
// tidy` make a module of one's own build against the checkout.
func TestOwnModuleReplace(t *testing.T) {
	game := ownModule(t)
	noWork := []string{"GOWORK=off"}
	for _, line := range readmeCommands(t, "go mod edit -replace github.com/scenecs/scenecs=") {
		goCmd(t, game, noWork, line)
	}
	sums, err := os.ReadFile("../../go.sum")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(game, "go.sum"), sums, 0o644); err != nil {
		t.Fatal(err)
	}
	readmeCommands(t, "go mod tidy")
	goCmd(t, game, noWork, "go mod tidy -e")
	mod := goCmd(t, game, noWork, "go mod edit -json")
	for _, want := range []string{`"Path": "github.com/scenecs/scenecs"`, `"Path": "../scenecs"`} {
		if !strings.Contains(mod, want) {
			t.Errorf("go.mod lacks %s:\n%s", want, mod)
		}
	}
	runsAsTheREADMESays(t, game, noWork)
	// The checkout as it is on disk, not a copy of it.
	if out := goCmd(t, game, noWork, "go list -m -f {{.Replace.Dir}} github.com/scenecs/scenecs"); strings.TrimSpace(out) != filepath.Join(filepath.Dir(game), "scenecs") {
		t.Errorf("the module is replaced by %q", out)
	}
}

// TestOwnModuleWorkspace: `go work init . ../scenecs` makes a module of
// one's own build against the checkout without a change to its go.mod.
func TestOwnModuleWorkspace(t *testing.T) {
	game := ownModule(t)
	before, err := os.ReadFile(filepath.Join(game, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	work := []string{"GOWORK=" + filepath.Join(game, "go.work")}
	for _, line := range readmeCommands(t, "go work init ") {
		goCmd(t, game, []string{"GOWORK="}, line) // creates go.work here
	}
	runsAsTheREADMESays(t, game, work)
	after, err := os.ReadFile(filepath.Join(game, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the workspace changed go.mod:\n%s", after)
	}
	// `go work use` adds the checkout to a workspace one has already.
	line := readmeCommands(t, "go work use ")
	if err := os.Remove(filepath.Join(game, "go.work")); err != nil {
		t.Fatal(err)
	}
	goCmd(t, game, []string{"GOWORK="}, "go work init .")
	for _, l := range line {
		goCmd(t, game, work, l)
	}
	runsAsTheREADMESays(t, game, work)
}
