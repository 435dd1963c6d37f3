package clitest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBuildRun builds a small program and runs it: output, exit codes,
// and one build for several calls.
func TestBuildRun(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("out", len(os.Args)-1)
	fmt.Fprintln(os.Stderr, "err")
	if len(os.Args) > 1 {
		os.Exit(3)
	}
}
`
	for name, data := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := Build(t, dir)
	if again := Build(t, dir); again != bin {
		t.Errorf("second Build: %s, first %s", again, bin)
	}
	r := Run(t, bin, dir).Expect(t, 0)
	if r.Stdout != "out 0\n" || r.Stderr != "err\n" {
		t.Errorf("run: %+v", r)
	}
	if r := Run(t, bin, dir, "x"); r.Code != 3 || r.Stdout != "out 1\n" {
		t.Errorf("exit 3: %+v", r)
	}
}

// TestWaitFor: a match written later is found, with its groups.
func TestWaitFor(t *testing.T) {
	var b Buffer
	go func() {
		time.Sleep(30 * time.Millisecond)
		b.Write([]byte("listening on port 8080\n"))
	}()
	m := WaitFor(t, &b, regexp.MustCompile(`port (\d+)`), 5*time.Second)
	if len(m) != 2 || m[1] != "8080" || !strings.Contains(b.String(), "listening") {
		t.Errorf("match %q", m)
	}
}
