package rooms

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/scenecs/scenecs/registry"
)

// rainFS holds the test scenes.
var rainFS = os.DirFS("testdata")

// rainSpec is a room of testdata/rain.yaml.
func rainSpec(id string, hz float64) Spec {
	return Spec{ID: id, FS: rainFS, File: "rain.yaml", Hz: hz}
}

// waitTick waits until r has run at least n ticks.
func waitTick(t testing.TB, r *Room, n int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.Tick() < n {
		if time.Now().After(deadline) {
			t.Fatalf("room %s: %d ticks after 20 s, want %d (err %v)", r.ID(), r.Tick(), n, r.Err())
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// pause pauses r (through its inspector) and returns its tick then.
func pause(t testing.TB, r *Room) int64 {
	t.Helper()
	if st, body := r.Request("POST", "/api/pause", nil); st != 200 {
		t.Fatalf("pause %s: %d %s", r.ID(), st, body)
	}
	var tick int64
	if err := r.Do(context.Background(), func(*registry.Registry) error { tick = r.Tick(); return nil }); err != nil {
		t.Fatal(err)
	}
	return tick
}
