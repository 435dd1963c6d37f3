package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// call makes an API request with the token; it fails the test unless
// the answer has the status wanted.
func call(t *testing.T, base, token, method, path, body string, want int) []byte {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, b)
	}
	return b
}

// stepTo asks for n ticks and waits until they have run.
func stepTo(t *testing.T, base, token string, n int) {
	t.Helper()
	var st struct {
		Ticks uint64 `json:"ticks"`
		Steps int    `json:"steps"`
	}
	if err := json.Unmarshal(call(t, base, token, "POST", "/api/step?n="+itoa(n), "", 200), &st); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var s struct {
			Ticks uint64 `json:"ticks"`
		}
		if err := json.Unmarshal(call(t, base, token, "GET", "/api/stats", "", 200), &s); err != nil {
			t.Fatal(err)
		}
		if s.Ticks >= st.Ticks+uint64(n) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%d steps did not run", n)
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestJournalReplay: a run of asteroids with the inspector and -journal
// gets more than 20 changes of every kind (sets, removals, creations,
// clones of prefab instances, reparenting, destruction, events, undo and
// redo) between ticks (while its bullets and chips expire); scene-run
// replay of its journal ends with exactly the World the run had.
func TestJournalReplay(t *testing.T) {
	journal := filepath.Join(t.TempDir(), "run.jsonl")
	base, token, cmd, _, errb := startInspected(t, "run", "-inspect", "127.0.0.1:0", "-journal", journal, "scenes/asteroids.yaml")
	call(t, base, token, "POST", "/api/pause", "", 200)
	steps := []struct {
		method, path, body string
		status             int
	}{
		{"PUT", "/api/entities/ship/components/velocity", "0 1 0", 200},
		{"PUT", "/api/entities/wreck/components/spin", "speed: 30", 200},
		{"POST", "/api/entities", `{"parent":"field","id":"rock-9","class":"big","components":{"position":"1 2 3","velocity":"0 -1 0"}}`, 201},
		{"STEP", "5", "", 0},
		{"POST", "/api/entities/rock-1/clone", "", 201},
		{"PUT", "/api/entities/wreck/parent", "ship", 200},
		{"DELETE", "/api/entities/rock-2/components/alive", "", 200},
		{"POST", "/api/entities/ship/events/hit", `{"damage": 3}`, 200},
		{"STEP", "10", "", 0},
		{"POST", "/api/undo", "", 200},
		{"POST", "/api/redo", "", 200},
		{"DELETE", "/api/entities/rock-1", "", 200},
		{"POST", "/api/undo", "", 200},
		{"PUT", "/api/entities/field/components/position", "0 6 0", 200},
		{"STEP", "30", "", 0},
		{"POST", "/api/entities/ship/clone", `{"id":"ship-b"}`, 201},
		{"PUT", "/api/entities/ship-b/2/parent", "", 200},
		{"PUT", "/api/entities/ship-b/components/rotation", "0 0 45", 200},
		{"DELETE", "/api/entities/rock-9", "", 200},
		{"POST", "/api/undo", "", 200},
		{"POST", "/api/undo", "", 200},
		{"POST", "/api/redo", "", 200},
		{"PUT", "/api/entities/rock-1/components/velocity", "1 1 0", 200},
		{"DELETE", "/api/entities/wreck/components/spin", "", 200},
		{"STEP", "20", "", 0},
		{"POST", "/api/entities", `{"id":"late","components":{"position":"0 0 0","spin":"speed: 90"}}`, 201},
		{"POST", "/api/entities/rock-1/events/collide", `{"x": 1}`, 200},
		{"STEP", "3", "", 0},
	}
	commands := 0
	for _, s := range steps {
		if s.method == "STEP" {
			n := 0
			_ = json.Unmarshal([]byte(s.path), &n)
			stepTo(t, base, token, n)
			continue
		}
		call(t, base, token, s.method, s.path, s.body, s.status)
		commands++
	}
	if commands < 20 {
		t.Fatalf("only %d commands", commands)
	}
	req, _ := http.NewRequest("GET", base+"/api/scene", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(res.Body)
	res.Body.Close()
	interrupt(t, cmd)
	lines, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(lines), "\n"); n != commands+2 {
		t.Errorf("the journal has %d lines, want a header, %d commands and the end:\n%s\nstderr: %s", n, commands, lines, errb.String())
	}
	r := runBin(t, "replay", "scenes/asteroids.yaml", journal)
	if r.Code != 0 {
		t.Fatalf("replay: exit %d\n%s", r.Code, r.Stderr)
	}
	if r.Stdout != string(want) {
		t.Errorf("the replay's World differs from the run's:\n%s\nwant\n%s\njournal:\n%s", r.Stdout, want, lines)
	}
	// A journal whose scene was edited since stops at the change that
	// no longer applies, naming its line.
	edited := strings.Replace(string(lines), `"ref":"rock-2"`, `"ref":"rock-7"`, 1)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBin(t, "replay", "scenes/asteroids.yaml", bad)
	if r.Code != 1 || !strings.Contains(r.Stderr, "bad.jsonl:7: ") || !strings.Contains(r.Stderr, "the replay no longer follows the run") {
		t.Errorf("replay of an edited journal: exit %d\n%s", r.Code, r.Stderr)
	}
}
