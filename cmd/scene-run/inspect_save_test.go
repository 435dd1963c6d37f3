package main

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunInspectSave: run -inspect saves a change made with ?save=1 into
// the scene file, byte for byte elsewhere, with -watch (the watcher's
// reload of the save is empty) and without.
func TestRunInspectSave(t *testing.T) {
	src, err := os.ReadFile("../../scenes/asteroids.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, watch := range []bool{true, false} {
		file := filepath.Join(t.TempDir(), "asteroids.yaml")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"run", "-inspect", "127.0.0.1:0", file}
		if watch {
			args = append([]string{"run", "-watch"}, args[1:]...)
		}
		base, token, cmd, _, errb := startInspected(t, args...)
		var reloads chan string
		if watch {
			res, err := http.Get(base + "/api/events")
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			reloads = make(chan string, 4)
			go func() {
				br := bufio.NewReader(res.Body)
				event := ""
				for {
					line, err := br.ReadString('\n')
					if err != nil {
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
		}
		req, _ := http.NewRequest("PUT", base+"/api/entities/wreck/components/spin?save=1", strings.NewReader("speed: 20"))
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("watch=%v: PUT ?save=1: %v %v", watch, res, err)
		}
		res.Body.Close()
		got, _ := os.ReadFile(file)
		if want := strings.Replace(string(src), `spin: "speed: 10"`, `spin: "speed: 20"`, 1); string(got) != want {
			t.Fatalf("watch=%v: file:\n%s", watch, got)
		}
		if watch {
			select {
			case d := <-reloads:
				if !strings.Contains(d, `"ok":true`) || strings.Contains(d, `"entries"`) {
					t.Errorf("the reload of the save: %s", d)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no reload event; stderr:\n%s", errb.String())
			}
		}
		interrupt(t, cmd)
	}
}
