package scenerun

import (
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestShellQuote: the hint's scene path is quoted for a POSIX shell only
// when it needs it.
func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a.yaml": "a.yaml", "dir/a-b_c.yaml": "dir/a-b_c.yaml", "my scene.yaml": `'my scene.yaml'`, "it's.yaml": `'it'\''s.yaml'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// hash is a build cache key as go run's cached binaries are named by.
const hash = "cb5dd1c5cc7b58b4981d5379f24322ac33793d19dd608d31c72d2781835a81e4"

// TestGoRunBinary: go run's binaries are recognised on a first run (its
// temporary directory) and on the next ones (the build cache, wherever
// GOCACHE is); installed or built binaries are not.
func TestGoRunBinary(t *testing.T) {
	for exe, want := range map[string]bool{
		"/tmp/go-build887651947/b001/exe/scene-run":                        true,
		"/var/folders/x/T/go-build42/b001/exe/chase":                       true,
		"/root/.cache/go-build/cb/" + hash + "-d/scene-run":                true,
		"/home/u/Library/Caches/go-build/cb/" + hash + "-d/scene-run":      true,
		"/srv/ci/gocache/cb/" + hash + "-d/game":                           true,  // GOCACHE elsewhere
		"/root/.cache/go-build/ab/" + hash + "-d/scene-run":                false, // the directory is not the hash's
		"/root/.cache/go-build/cb/" + strings.ToUpper(hash) + "-d/scene-r": false,
		"/root/.cache/go-build/cb/cb12-d/scene-run":                        false, // too short for a hash
		"/usr/local/bin/scene-run":                                         false,
		"/root/go/bin/scene-run":                                           false,
		"/tmp/clitest123/scene-run":                                        false,
		"/tmp/go-build887651947/exe/scene-run":                             false,
		"/tmp/go-buildx/b001/exe/scene-run":                                false,
		"/opt/tools/b001/exe/scene-run":                                    false,
		"./scene-run":                                                      false,
		"scene-run":                                                        false,
	} {
		if got := goRunBinary(exe); got != want {
			t.Errorf("goRunBinary(%s) = %v, want %v", exe, got, want)
		}
	}
}

// TestCommandFor: the hint's command runs the program again from where
// the user is, however it was started: go run on a first run and on the
// next ones (the binary cached), from the module's root or elsewhere in
// it, with -trimpath, at a released version; an installed binary by the
// name or path the user typed.
func TestCommandFor(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the cases use POSIX paths")
	}
	root := "/home/u/scenecs"
	main := filepath.Join(root, "cmd", "scene-run")
	dev := &debug.BuildInfo{Path: "github.com/scenecs/scenecs/cmd/scene-run", Main: debug.Module{Path: "github.com/scenecs/scenecs", Version: "(devel)"}}
	rel := &debug.BuildInfo{Path: "github.com/scenecs/scenecs/cmd/scene-run", Main: debug.Module{Path: "github.com/scenecs/scenecs", Version: "v1.4.0", Sum: "h1:abc="}}
	// A checkout's build is stamped with a version from its VCS, without
	// a checksum.
	stamped := &debug.BuildInfo{Path: "github.com/scenecs/scenecs/cmd/scene-run", Main: debug.Module{Path: "github.com/scenecs/scenecs", Version: "v1.4.1-0.20260101000000-750303b1e25c+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}}}
	rootPkg := &debug.BuildInfo{Path: "example.com/game", Main: debug.Module{Path: "example.com/game", Version: "(devel)"}}
	first := "/tmp/go-build887651947/b001/exe/scene-run"
	cached := "/root/.cache/go-build/cb/" + hash + "-d/scene-run"
	for _, c := range []struct {
		inv  invocation
		bi   *debug.BuildInfo
		wd   string
		want string
	}{
		{invocation{first, main}, dev, root, "go run ./cmd/scene-run"},
		{invocation{cached, main}, dev, root, "go run ./cmd/scene-run"},
		{invocation{cached, main}, dev, main, "go run ."},
		{invocation{cached, main}, dev, filepath.Join(root, "docs"), "go run ../cmd/scene-run"},
		{invocation{cached, "github.com/scenecs/scenecs/cmd/scene-run"}, dev, root, "go run ./cmd/scene-run"}, // -trimpath
		{invocation{first, ""}, dev, root, "go run ./cmd/scene-run"},
		{invocation{cached, ""}, rootPkg, "/elsewhere", "go run ."},
		{invocation{cached, "/my game"}, rootPkg, "/", "go run './my game'"},
		{invocation{first, main}, rel, "/tmp", "go run github.com/scenecs/scenecs/cmd/scene-run@v1.4.0"},
		{invocation{cached, "/root/go/pkg/mod/github.com/scenecs/scenecs@v1.4.0/cmd/scene-run"}, rel, "/tmp", "go run github.com/scenecs/scenecs/cmd/scene-run@v1.4.0"},
		{invocation{cached, main}, stamped, root, "go run ./cmd/scene-run"},
		{invocation{cached, ""}, stamped, root, "go run ./cmd/scene-run"},
		{invocation{"scene-run", main}, dev, root, "scene-run"},
		{invocation{"sr", main}, dev, root, "sr"},
		{invocation{"./scene-run", main}, dev, root, "./scene-run"},
		{invocation{"/opt/my tools/scene-run", main}, dev, root, "'/opt/my tools/scene-run'"},
		{invocation{"", ""}, nil, root, "game"},
		{invocation{cached, ""}, nil, root, "game"},
	} {
		if got := commandFor(c.inv, c.bi, c.wd, "game"); got != c.want {
			t.Errorf("commandFor(%+v, %v, wd %s) = %s, want %s", c.inv, c.bi, c.wd, got, c.want)
		}
	}
}

// TestRunHintWithoutMain: Program.Run, which does not know how the
// program was started, names the program.
func TestRunHintWithoutMain(t *testing.T) {
	var out strings.Builder
	c := &cli{Program: Program{Name: "game"}}
	c.printInspectHint(&out, "my level.yaml")
	if got := out.String(); got != "inspect it live: game run -inspect 127.0.0.1:8080 'my level.yaml'\n" {
		t.Errorf("hint %q", got)
	}
}
