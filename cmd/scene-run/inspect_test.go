package main

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startInspected starts scene-run with args and waits for its inspect:
// line; it returns the base URL, the token, and the process.
func startInspected(t *testing.T, args ...string) (base, token string, cmd *exec.Cmd, out *syncBuffer, errb *syncBuffer) {
	t.Helper()
	cmd = exec.Command(binary(t), args...)
	cmd.Dir = "../.."
	out, errb = &syncBuffer{}, &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "\n") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	url, ok := strings.CutPrefix(line, "inspect: ")
	if !ok {
		t.Fatalf("first line %q\nstderr:\n%s", line, errb.String())
	}
	base, token, ok = strings.Cut(url, "/?token=")
	if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") || len(token) != 32 {
		t.Fatalf("inspect line %q", line)
	}
	return base, token, cmd, out, errb
}

// runStats is what the tests read of GET /api/stats.
type runStats struct {
	Ticks uint64
	Load  float64
}

// getStats GETs /api/stats of the run at base.
func getStats(t *testing.T, base string) runStats {
	t.Helper()
	res, err := http.Get(base + "/api/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var st runStats
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// tickRate returns the ticks per second of the run at base over a window
// of d.
func tickRate(t *testing.T, base string, d time.Duration) float64 {
	t.Helper()
	n0, t0 := getStats(t, base).Ticks, time.Now()
	time.Sleep(d)
	n1, t1 := getStats(t, base).Ticks, time.Now()
	return float64(n1-n0) / t1.Sub(t0).Seconds()
}

// interrupt sends SIGINT and waits for the process to end.
func interrupt(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("scene-run exited with %v after an interrupt", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("scene-run did not stop on interrupt")
	}
}

// TestRunInspect: run -inspect prints exactly one inspect: line, runs
// until interrupted (not 600 ticks), answers the API, and stops on
// SIGINT with its summary.
func TestRunInspect(t *testing.T) {
	base, token, cmd, out, _ := startInspected(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	res, err := http.Get(base + "/api/scene")
	if err != nil {
		t.Fatal(err)
	}
	var dump struct {
		Entities []struct{ ID, Path string }
	}
	err = json.NewDecoder(res.Body).Decode(&dump)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK || len(dump.Entities) < 8 || dump.Entities[0].ID != "ship" {
		t.Fatalf("/api/scene: %d %v %+v", res.StatusCode, err, dump)
	}
	// A change needs the token.
	req, _ := http.NewRequest("POST", base+"/api/pause", nil)
	if res, _ := http.DefaultClient.Do(req); res == nil || res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("pause without token: %v", res)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if res, _ := http.DefaultClient.Do(req); res == nil || res.StatusCode != http.StatusOK {
		t.Fatalf("pause with token: %v", res)
	}
	// Paced to wall time and not stopping at 600 ticks: after 11 s of
	// scene time it still serves. (Step past 600 ticks instead of
	// waiting 10 s.)
	req, _ = http.NewRequest("POST", base+"/api/step?n=700", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if res, _ := http.DefaultClient.Do(req); res == nil || res.StatusCode != http.StatusOK {
		t.Fatalf("step: %v", res)
	}
	// 700 steps paced at 60 Hz take 11.7 s; a loaded machine (the race
	// detector, other packages' tests) needs more.
	deadline := time.Now().Add(60 * time.Second)
	var st struct{ Ticks int }
	for st.Ticks < 700 && time.Now().Before(deadline) {
		if res, err := http.Get(base + "/api/stats"); err == nil {
			json.NewDecoder(res.Body).Decode(&st)
			res.Body.Close()
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st.Ticks < 700 {
		t.Fatalf("ticks %d", st.Ticks)
	}
	interrupt(t, cmd)
	if n := strings.Count(out.String(), "inspect: "); n != 1 {
		t.Errorf("%d inspect: lines:\n%s", n, out.String())
	}
	// asteroids.yaml: 10 entities, 8 once both bullets expired.
	if !strings.Contains(out.String(), "entities  8\n") || !strings.Contains(out.String(), "ticks     7") {
		t.Errorf("summary:\n%s", out.String())
	}
	// The server is gone with the process.
	if _, err := http.Get(base + "/api/stats"); err == nil {
		t.Error("the API still answers after the run")
	}
}

// TestRunInspectWatch: with -watch, each reload reaches the event stream
// with its per-property diff.
func TestRunInspectWatch(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../scenes/asteroids.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "asteroids.yaml")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	base, _, cmd, _, errb := startInspected(t, "run", "-watch", "-inspect", "127.0.0.1:0", file)
	res, err := http.Get(base + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	reloads := make(chan string, 4)
	go func() {
		br := bufio.NewReader(res.Body)
		event := ""
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				close(reloads)
				return
			}
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				event = strings.TrimSpace(e)
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && event == "reload" {
				reloads <- d
			}
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(errb.String(), "watching ") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	os.WriteFile(file, []byte(strings.Replace(string(src), "position: 0 15 0", "position: 0 16 0", 1)), 0o644)
	select {
	case d := <-reloads:
		if !strings.Contains(d, `{"kind":"changed","entity":"#wreck","component":"position","old":"0 15 0","new":"0 16 0"}`) {
			t.Errorf("reload event: %s", d)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no reload event; stderr:\n%s", errb.String())
	}
	interrupt(t, cmd)
}

// TestRunInspectErrors: a malformed address is a usage error (exit 2), a
// port in use a run error (exit 1).
func TestRunInspectErrors(t *testing.T) {
	r := runBin(t, "run", "-inspect", "nonsense", "scenes/asteroids.yaml").Expect(t, 2)
	if !strings.Contains(r.Stderr, "-inspect") {
		t.Errorf("stderr: %s", r.Stderr)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	r = runBin(t, "run", "-inspect", l.Addr().String(), "scenes/asteroids.yaml").Expect(t, 1)
	if !strings.Contains(r.Stderr, "-inspect") || strings.Contains(r.Stdout, "inspect:") {
		t.Errorf("port in use: %+v", r)
	}
}

// TestBareRunKeepsRunning: scene-run without arguments (the README's
// first command) runs the default scene in real time with the inspector
// on a loopback port, says so, and runs until Ctrl-C, which ends it with
// its summary; it did 600 ticks flat out in under a second and exited.
func TestBareRunKeepsRunning(t *testing.T) {
	base, _, cmd, out, errb := startInspected(t)
	if _, rest, _ := strings.Cut(out.String(), "\n"); !strings.HasPrefix(rest, "running cubes.yaml (embedded) in real time until Ctrl-C;") {
		t.Errorf("second line:\n%s", out.String())
	}
	first := getStats(t, base).Ticks
	deadline := time.Now().Add(20 * time.Second)
	for getStats(t, base).Ticks < first+30 {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not go on: %d ticks, then %d", first, getStats(t, base).Ticks)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after Ctrl-C: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "\nscene     cubes.yaml (embedded)\n") || !strings.Contains(out.String(), "ticks/s") {
		t.Errorf("no summary after Ctrl-C:\n%s", out.String())
	}
}
