package inspect

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
)

// compatScene is the scene of testdata/journal-v1.jsonl.
const compatScene = `components:
  score: {type: int}
prefabs:
  rock:
    spin: "axis: 0 1 0; speed: 45"
    velocity: 0 0 0
entities:
  - id: ship
    position: 0 0 0
    health: "hp: 50"
    score: 0
    on__hit: "if: detail.damage > 3; set: score = score + detail.damage"
    children:
      - class: gun
        position: -1 0.5 0
      - class: gun
        position: 1 0.5 0
  - id: r1
    prefab: rock
    spin: "axis: 1 0 0; speed: 10"
  - id: field
    children:
      - id: rock-1
        position: 5 0 0
`

// TestJournalCompat: a journal written before the editor was a package
// of its own (testdata/journal-v1.jsonl: commands of every kind a replay
// makes, undo and redo among them, written by Inspector.Apply of that
// code on compatScene) replays to the World that code ended with
// (testdata/journal-v1.dump.json), and the lines the replay writes into
// its own journal are the same bytes.
func TestJournalCompat(t *testing.T) {
	old, err := os.ReadFile("testdata/journal-v1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/journal-v1.dump.json")
	if err != nil {
		t.Fatal(err)
	}
	reg := newRegistry(t, nil)
	if _, err := loader.LoadBytes(reg, "scene.yaml", []byte(compatScene), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	var journal bytes.Buffer
	in := New(reg, Options{Journal: &journal})
	lines := strings.Split(strings.TrimSpace(string(old)), "\n")
	for i, text := range lines {
		var l JournalLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if err := in.Apply(l); err != nil {
			t.Fatalf("line %d: %s: %v", i+1, text, err)
		}
	}
	if len(lines) < 15 || journal.String() != string(old) {
		t.Errorf("the replay's journal is\n%s\nwant the journal replayed\n%s", journal.String(), old)
	}
	var got bytes.Buffer
	if err := export.WriteJSON(&got, reg, export.Options{}); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("replayed, the World dumps as\n%s\nwant\n%s", got.String(), want)
	}
}
