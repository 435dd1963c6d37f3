// Package clitest builds a command and runs it as a user would, for the
// end-to-end tests of cmd/scene-run and of the example programs: the
// command is built once per test binary, run in a directory with
// arguments, and its output and exit code checked.
package clitest

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"
)

var (
	mu     sync.Mutex
	builds = map[string]*build{} // by package directory
)

type build struct {
	once sync.Once
	path string
	err  error
}

// Build builds the main package in dir (relative to the test's working
// directory, usually ".") once per test binary and returns the
// executable's path. A failed build fails t, with the compiler's output.
func Build(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	b := builds[abs]
	if b == nil {
		b = &build{}
		builds[abs] = b
	}
	mu.Unlock()
	b.once.Do(func() {
		tmp, err := os.MkdirTemp("", "clitest")
		if err != nil {
			b.err = err
			return
		}
		b.path = filepath.Join(tmp, filepath.Base(abs))
		if os.PathSeparator == '\\' {
			b.path += ".exe"
		}
		cmd := exec.Command("go", "build", "-o", b.path, ".")
		cmd.Dir = abs
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = errors.New(err.Error() + "\n" + string(out))
		}
	})
	if b.err != nil {
		t.Fatalf("building %s: %v", dir, b.err)
	}
	return b.path
}

// Result is what a run of a command printed, and its exit code.
type Result struct {
	Stdout, Stderr string
	Code           int
}

// Run runs the executable bin with args in the directory dir and waits
// for it to end. A command that cannot start fails t; a non-zero exit is
// a Result like any other.
func Run(t testing.TB, bin, dir string, args ...string) Result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s %v: %v", filepath.Base(bin), args, err)
	}
	return Result{out.String(), errb.String(), code}
}

// Expect fails t, showing both outputs, unless the run exited with code.
func (r Result) Expect(t testing.TB, code int) Result {
	t.Helper()
	if r.Code != code {
		t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.Code, code, r.Stdout, r.Stderr)
	}
	return r
}

// Buffer is a bytes.Buffer that a running process writes while a test
// reads it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// WaitFor waits up to timeout until re matches what b holds, and returns
// the match and its groups; at the timeout it fails t with what b holds.
func WaitFor(t testing.TB, b *Buffer, re *regexp.Regexp, timeout time.Duration) []string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if m := re.FindStringSubmatch(b.String()); m != nil {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("no match of %s within %v in:\n%s", re, timeout, b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
