package inspect

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/live"
)

// idScene names every entity, two of them as the page's Add names them.
const idScene = `entities:
  - id: entity-1
    position: 0 0 0
  - id: entity-3
    position: 1 0 0
`

// TestCreateNumberedID (issue 33): POST /api/entities with "idBase"
// gives the new entity base-N, N the smallest positive number free in
// the World and in the scene's files (an entity destroyed at run time
// keeps its id in the file); saved, a reload of the file then matches
// it by its id: no warning about entities without an id. The journal
// gets the id it was given.
func TestCreateNumberedID(t *testing.T) {
	var journal strings.Builder
	e, file := newSaveEnvOpt(t, "scene.yaml", idScene, Options{Journal: &journal})
	e.start()

	// entity-1 is destroyed at run time, but the file still has it.
	e.call("DELETE", "/api/entities/entity-1", "").expect(t, http.StatusOK)
	e.call("POST", "/api/entities", `{"id": "entity-2"}`).expect(t, http.StatusCreated)
	var made entityInfo
	e.call("POST", "/api/entities?save=1", `{"idBase": "entity", "components": {"position": "0 0 0"}}`).expect(t, http.StatusCreated).json(t, &made)
	if made.ID != "entity-4" {
		t.Errorf("the new entity's id %q, want entity-4 (1 in the file, 2 and 3 in the World)", made.ID)
	}
	if got := readFile(t, file); !strings.Contains(got, "id: entity-4") {
		t.Errorf("the saved entity is not in the file by its id:\n%s", got)
	}
	var d *live.Diff
	var err error
	e.sim(func() { d, err = (&live.Reloader{Scene: e.scene, File: file, Recheck: -1}).Reload() })
	if err != nil || !d.Empty() || len(d.Warnings) != 0 {
		t.Errorf("the reload after the saved add: %v, %v, warnings %q", d, err, d.Warnings)
	}
	e.call("POST", "/api/entities", `{"idBase": "entity"}`).expect(t, http.StatusCreated).json(t, &made)
	if made.ID != "entity-5" {
		t.Errorf("the next id %q, want entity-5", made.ID)
	}
	var lines []JournalLine
	for _, l := range strings.Split(strings.TrimSpace(journal.String()), "\n") {
		var jl JournalLine
		if err := json.Unmarshal([]byte(l), &jl); err != nil {
			t.Fatal(err)
		}
		if jl.Op == "create" {
			lines = append(lines, jl)
		}
	}
	if len(lines) != 3 || !strings.Contains(string(lines[1].Body), `"id":"entity-4"`) || strings.Contains(string(lines[1].Body), "idBase") {
		t.Errorf("the journal's creates: %+v", lines)
	}

	for _, body := range []string{`{"id": "x", "idBase": "entity"}`, `{"idBase": "two words"}`} {
		e.call("POST", "/api/entities", body).expect(t, http.StatusBadRequest)
	}
}
