package main

// Browser tests of what the page saves (issue 33): one save setting for
// every edit, only what the user changed written into the file, ids for
// new entities, and the history's dropped changes.

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// liftScene has an entity whose position.y an animation moves.
const liftScene = `entities:
  - id: lift
    position: 1 2 3
    animation: "property: position.y; from: 2; to: 40; dur: 60000; easing: linear"
`

// position returns ref's position in the World.
func (p *page) position(ref string) []float64 {
	p.t.Helper()
	_, attrs := p.entity(ref)
	var out []float64
	for _, f := range strings.Fields(attrs["position"]) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			p.t.Fatalf("%s's position %q", ref, attrs["position"])
		}
		out = append(out, v)
	}
	if len(out) != 3 {
		p.t.Fatalf("%s's position %q", ref, attrs["position"])
	}
	return out
}

// TestBrowserSaveOnlyEdited: the top bar's "save to file" is the panel's
// setting too: off, a panel edit changes the World and not the file; on,
// it is saved, and the file gets the axis edited alone, not the y the
// animation gave the entity (nor the z edited while saving was off).
func TestBrowserSaveOnlyEdited(t *testing.T) {
	file := writeScene(t, "lift.yaml", liftScene)
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", file)
	p.click(`#tree-list .row[data-ref="lift"]`)
	axis := func(k int) string {
		return fmt.Sprintf(`#panel .comp[data-name="position"] .editor input:nth-of-type(%d)`, k)
	}
	p.waitJS(`document.querySelector('` + axis(3) + `') && document.querySelector('#panel .save-note:not(.on)')`)

	p.typeInto(axis(3), "-4\n")
	p.eventually("z set in the World", func() error {
		if z := p.position("lift")[2]; z != -4 {
			return fmt.Errorf("z %v", z)
		}
		return nil
	})
	if got, _ := os.ReadFile(file); string(got) != liftScene {
		t.Errorf("an edit with saving off changed the file:\n%s", got)
	}
	p.eventually("the animation moving y", func() error {
		if y := p.position("lift")[1]; y < 2.05 {
			return fmt.Errorf("y %v", y)
		}
		return nil
	})

	p.click("#save-edits")
	p.waitJS(`inspector.save.on && document.querySelector('#panel .save-note.on')`)
	p.typeInto(axis(1), "7\n")
	want := strings.Replace(liftScene, "position: 1 2 3", "position: 7 2 3", 1)
	p.eventually("x saved", func() error {
		if got, _ := os.ReadFile(file); string(got) != want {
			var msg string
			p.eval(`document.querySelector('#panel .comp[data-name="position"] .err').textContent`, &msg)
			return fmt.Errorf("the page says %q; the file:\n%s", msg, got)
		}
		return nil
	})
	if pos := p.position("lift"); pos[0] != 7 || pos[1] < 2.05 || pos[2] != -4 {
		t.Errorf("the World's position %v: want x 7, the animated y, the z set before", pos)
	}
	var h struct {
		Entries []struct {
			Summary string
			Saved   bool
		}
	}
	p.api("/api/history", &h)
	if n := len(h.Entries); n != 2 || h.Entries[1].Summary != "set position.x of #lift" || !h.Entries[1].Saved || h.Entries[0].Saved {
		t.Errorf("the history: %+v", h.Entries)
	}
}

// idScene names its entities, one as the page's Add names them.
const idScene = `entities:
  - id: floor
    position: 0 -1 0
  - id: entity-1
    position: 3 0 0
`

// TestBrowserAddID: + Add gives the new entity the id entity-N, the
// smallest N free in the scene; saved under -watch, the reload that
// follows the save warns of nothing (an entity without an id would be
// matched by its place, with a warning at every reload).
func TestBrowserAddID(t *testing.T) {
	file := writeScene(t, "ids.yaml", idScene)
	p := openPage(t, "run", "-watch", "-inspect", "127.0.0.1:0", file)
	p.watching()
	p.click("#save-edits")
	p.waitJS(`inspector.save.on`)
	p.click("#add-entity")
	p.waitJS(`inspector.structure.done === 1 || document.querySelector('#edit-msg').textContent`)
	var sel, msg string
	p.eval(`inspector.store.selected`, &sel)
	p.eval(`document.querySelector('#edit-msg').textContent`, &msg)
	if sel != "entity-2" || msg != "" {
		t.Fatalf("the new entity is %q (the page says %q), want entity-2", sel, msg)
	}
	want := idScene + "  - id: entity-2\n    position: 0 0 0\n"
	if got, _ := os.ReadFile(file); string(got) != want {
		t.Errorf("the file after the saved add:\n%s\nwant\n%s", got, want)
	}
	p.waitJS(`document.querySelector('#log-list li.reload')`)
	var lines []string
	p.eval(`[...document.querySelectorAll('#log-list li.reload .line')].map(l => l.textContent)`, &lines)
	if len(lines) != 0 {
		t.Errorf("the reload of the saved add says %q", lines)
	}
}

// TestBrowserHistoryDropped: once the server's history drops its oldest
// changes (here beyond its 1,000 entries), the history tab says how
// many, and lists what the server keeps.
func TestBrowserHistoryDropped(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	p.pause()
	p.click(`#tabs .tab[data-tab="history"]`)
	const edits = 1003
	for i := range edits {
		if code, ans := p.post("PUT", "/api/entities/wreck/components/spin", fmt.Sprintf("speed: %d", i)); code != http.StatusOK {
			t.Fatalf("edit %d: %d %v", i, code, ans)
		}
	}
	var h struct {
		Entries []struct{ Seq int }
		Dropped int
	}
	p.api("/api/history", &h)
	if h.Dropped != edits-len(h.Entries) || h.Dropped == 0 {
		t.Fatalf("the server's history: %d entries, %d dropped", len(h.Entries), h.Dropped)
	}
	p.waitJS(fmt.Sprintf(`(li => li && li.textContent === '%d older changes dropped')(document.querySelector('#history-list li.dropped:last-child'))`, h.Dropped))
	var rows struct{ N, Oldest int }
	p.eval(`(r => ({n: r.length, oldest: Number(r[r.length - 1].dataset.seq)}))(document.querySelectorAll('#history-list li[data-seq]'))`, &rows)
	if rows.N != len(h.Entries) || rows.Oldest != h.Entries[0].Seq {
		t.Errorf("the page lists %d changes from seq %d; the server keeps %d from %d", rows.N, rows.Oldest, len(h.Entries), h.Entries[0].Seq)
	}
}
