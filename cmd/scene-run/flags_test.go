package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBadNumberFlags: NaN, infinities, out-of-range, negative and zero
// values of every rate, count and interval flag of every subcommand are
// flag errors (exit 2) that name the flag and the value, before anything
// is loaded.
func TestBadNumberFlags(t *testing.T) {
	bad := map[string][]string{
		"hz":       {"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "0", "-0", "-1", "1e309", "2e6", "abc", ""},
		"ticks":    {"-1", "-9223372036854775808", "99999999999999999999", "1.5", "x"},
		"poll":     {"0", "0s", "-1s", "NaN", "1e400h", "10"},
		"debounce": {"0", "-5ms", "Inf", "5"},
	}
	flagsOf := map[string][]string{
		"run":   {"hz", "ticks", "poll", "debounce"},
		"query": {"hz", "ticks"},
		"dump":  {"hz", "ticks"},
	}
	for cmd, flags := range flagsOf {
		for _, name := range flags {
			for _, v := range bad[name] {
				args := []string{cmd, "-" + name + "=" + v}
				if cmd == "run" && (name == "poll" || name == "debounce") {
					args = append(args, "-watch")
				}
				args = append(args, "missing.yaml")
				if cmd == "query" {
					args = append(args, "*")
				}
				var out, errb bytes.Buffer
				code := run(context.Background(), args, &out, &errb)
				want := fmt.Sprintf("invalid value %q for flag -%s: ", v, name)
				if code != exitUsage || !strings.Contains(errb.String(), want) {
					t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 and %q", args, code, errb.String(), want)
				}
			}
		}
	}
	// Good values pass.
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"query", "-hz", "1e6", "-ticks", "2", "../../scenes/cubes.yaml", "#camera"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if code := run(context.Background(), []string{"run", "-poll", "1s", "scenes/cubes.yaml"}, &out, &errb); code != exitUsage ||
		!strings.Contains(errb.String(), "-poll and -debounce go with -watch") {
		t.Fatalf("-poll without -watch: exit %d: %s", code, errb.String())
	}
}

// TestInterruptedLoad: every command that loads stops with an error
// (exit 1) when its context is done, rather than loading on.
func TestInterruptedLoad(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{
		{"run", "-ticks", "1", "../../scenes/cubes.yaml"},
		{"run", "-ticks", "1"}, // the embedded scene
		{"query", "../../scenes/asteroids.yaml", "*"},
		{"dump", "../../scenes/cubes.xml"},
		{"validate", "../../scenes/cubes.yaml"},
	} {
		var out, errb bytes.Buffer
		code := run(ctx, args, &out, &errb)
		if code != exitScene || !strings.Contains(errb.String(), "interrupted") || out.Len() != 0 {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), errb.String())
		}
	}
}

// TestSignalStopsLoad sends SIGINT and SIGTERM to scene-run while it loads
// a large scene: it stops soon, says so, and exits 1.
func TestSignalStopsLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and loads a large scene")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("entities:\n")
	for i := range 400_000 {
		fmt.Fprintf(&b, "  - {id: e%d, position: %d 0 0}\n", i, i)
	}
	file := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		cmd := exec.Command(binary(t), "dump", file)
		var out, errb syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		busyFor(t, cmd.Process.Pid, 300*time.Millisecond) // loading: past its start, which installs the handler
		t0 := time.Now()
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != exitScene || !strings.Contains(errb.String(), "loading "+file+" interrupted") {
				t.Fatalf("%v: %v\nstderr:\n%s", sig, err, errb.String())
			}
			t.Logf("%v: stopped %v after the signal", sig, time.Since(t0))
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: scene-run did not stop", sig)
		}
	}
}

// busyFor waits until process pid has spent d of CPU time (read from
// /proc; where there is none, it waits d of wall time): a process busy
// loading is past its start however loaded the machine, where a time
// of the clock may pass before it has run at all.
func busyFor(t *testing.T, pid int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			time.Sleep(d)
			return
		}
		// The fields after the command's name, in parentheses: utime and
		// stime are the 12th and 13th, in clock ticks of 10 ms.
		f := strings.Fields(string(b[strings.LastIndex(string(b), ")")+1:]))
		var user, sys int64
		if len(f) > 12 {
			fmt.Sscan(f[11], &user)
			fmt.Sscan(f[12], &sys)
		}
		if time.Duration(user+sys)*10*time.Millisecond >= d {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d spent %v of CPU in 60 s, want %v", pid, time.Duration(user+sys)*10*time.Millisecond, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
