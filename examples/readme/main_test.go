package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestReadmeShowsThisProgram: the README's Go program is this file, from
// "package main" on, so that what it shows compiles as written.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\npackage main\n")
	if !ok {
		t.Fatal("README has no Go block starting with package main")
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatal("README's Go block does not end")
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, prog, _ := strings.Cut(string(src), "package main\n")
	if block != prog {
		t.Errorf("README's Go program differs from examples/readme/main.go: copy the file (from package main on) into the README")
	}
}

// TestRun: the program runs on its level as the README says.
func TestRun(t *testing.T) {
	out, err := exec.Command("go", "run", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := "scout hp: 20; max: 100 at 3 0 0\nguard hp: 40; max: 100 at 12 0 0\n"
	if string(out) != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}
