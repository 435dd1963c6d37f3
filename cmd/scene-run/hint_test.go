package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// goEnv is the environment of a go command the tests run: offline (the
// module cache has what the repository needs: go mod download), with the
// toolchain running the tests.
func goEnv(extra ...string) []string {
	return append(os.Environ(), append([]string{"GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off"}, extra...)...)
}

// hintLine returns the "inspect it live" line of a run's output.
func hintLine(t *testing.T, out string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^inspect it live: (.*)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no hint in:\n%s", out)
	}
	return m[1]
}

// TestInspectHintGoRun: the hint names a command that works after a
// `go run` on the first run, when go run builds the binary in a
// temporary directory, and on the next, when it runs the binary it
// cached (which the hint used to miss, naming a scene-run not on PATH);
// from the module's root and from the command's own directory.
func TestInspectHintGoRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the -exec wrapper is a shell script")
	}
	// A link flag no earlier run used makes go run link anew (and cache
	// that binary); the wrapper records the path go run executes.
	nonce := make([]byte, 8)
	rand.Read(nonce)
	ldflags := "-ldflags=-X=main.hintTestNonce=" + hex.EncodeToString(nonce)
	dir := t.TempDir()
	wrapper := filepath.Join(dir, "exec.sh")
	log := filepath.Join(dir, "exe.log")
	if err := os.WriteFile(wrapper, []byte("#!/bin/sh\necho \"$1\" >> '"+log+"'\nexec \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	goRun := func(wd, pkg, scene string) string {
		t.Helper()
		cmd := exec.Command("go", "run", "-exec", wrapper, ldflags, pkg, "run", "-ticks", "1", scene)
		cmd.Dir, cmd.Env = wd, goEnv()
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("go run %s: %v\n%s", pkg, err, errb.String())
		}
		return hintLine(t, out.String())
	}
	root := filepath.Join("..", "..")
	first := goRun(root, "./cmd/scene-run", "scenes/asteroids.yaml")
	second := goRun(root, "./cmd/scene-run", "scenes/asteroids.yaml")
	here := goRun(".", ".", "../../scenes/asteroids.yaml")
	const want = "go run ./cmd/scene-run run -inspect 127.0.0.1:8080 scenes/asteroids.yaml"
	if first != want || second != want {
		t.Errorf("hints\n first  %s\n second %s\nwant\n %s", first, second, want)
	}
	if here != "go run . run -inspect 127.0.0.1:8080 ../../scenes/asteroids.yaml" {
		t.Errorf("hint in the command's directory: %s", here)
	}
	// The runs did take both ways: a fresh link, then the cached binary.
	exes, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	paths := strings.Fields(string(exes))
	if len(paths) != 3 || !strings.Contains(paths[0], "go-build") || !strings.HasSuffix(filepath.Dir(paths[0]), "exe") ||
		!strings.HasSuffix(filepath.Dir(paths[1]), "-d") {
		t.Errorf("go run executed %q: want a fresh binary, then the cached one", paths)
	}
}

// TestInspectHintInstalled: `go install ./cmd/scene-run` (as the README
// says) gives a scene-run whose hint is the command as the user typed
// it: the bare name when the shell found it on PATH, the path otherwise.
func TestInspectHintInstalled(t *testing.T) {
	bin := t.TempDir()
	install := exec.Command("go", "install", "./cmd/scene-run")
	install.Dir, install.Env = filepath.Join("..", ".."), goEnv("GOBIN="+bin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install ./cmd/scene-run: %v\n%s", err, out)
	}
	exe := filepath.Join(bin, "scene-run")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	run := func(arg0 string) string {
		t.Helper()
		// As a shell runs it: the file found, argv[0] as typed.
		cmd := &exec.Cmd{Path: exe, Args: []string{arg0, "run", "-ticks", "1", "scenes/asteroids.yaml"}, Dir: filepath.Join("..", "..")}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", arg0, err)
		}
		return hintLine(t, string(out))
	}
	if got := run("scene-run"); got != "scene-run run -inspect 127.0.0.1:8080 scenes/asteroids.yaml" {
		t.Errorf("found on PATH: %s", got)
	}
	if got := run(exe); got != exe+" run -inspect 127.0.0.1:8080 scenes/asteroids.yaml" {
		t.Errorf("run by its path: %s", got)
	}
}
