package inspect

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

// paused starts e and pauses it, so that dumps compare.
func (e *env) paused() *env {
	e.t.Helper()
	if !e.started {
		e.start()
	}
	e.call("POST", "/api/pause", "").expect(e.t, http.StatusOK)
	return e
}

// history returns GET /api/history.
func (e *env) history() historyList {
	e.t.Helper()
	var h historyList
	e.get("/api/history").expect(e.t, http.StatusOK).json(e.t, &h)
	return h
}

// undoRedo checks a command's undo and redo on the World: the dump after
// undo is the dump before the command, after redo the dump after it.
func undoRedo(t *testing.T, e *env, before, after string) {
	t.Helper()
	var st stepAnswer
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK).json(t, &st)
	if !st.Entry.Undone {
		t.Errorf("undo answered an entry not undone: %+v", st.Entry)
	}
	if got := e.dump(); got != before {
		t.Fatalf("after undo the World is not as before:\n%s\nwant\n%s", got, before)
	}
	e.call("POST", "/api/redo", "").expect(t, http.StatusOK).json(t, &st)
	if st.Entry.Undone {
		t.Errorf("redo answered an entry still undone: %+v", st.Entry)
	}
	if got := e.dump(); got != after {
		t.Fatalf("after redo the World is not as after the command:\n%s\nwant\n%s", got, after)
	}
}

// TestUndoEachCommand: every kind of command is undone and redone in the
// World exactly (the dump), and listed in the history.
func TestUndoEachCommand(t *testing.T) {
	e := newEnv(t, Options{}).paused()
	initial := e.dump()
	cases := []struct {
		name, method, path, body string
		status                   int
		op, summary              string
	}{
		{"set a property", "PUT", "/api/entities/wreck/components/spin", "speed: 5", 200, "set", "set spin of #wreck"},
		{"add a component", "PUT", "/api/entities/ship/components/velocity", "1 2 3", 200, "set", "set velocity of #ship"},
		{"remove a component", "DELETE", "/api/entities/ship/components/health", "", 200, "remove", "remove health from #ship"},
		{"remove from a mixin", "DELETE", "/api/entities/wreck/components/spin", "", 200, "remove", "remove spin from #wreck"},
		{"create", "POST", "/api/entities", `{"parent":"field","id":"rock-3","class":"big","mixin":"rock","components":{"position":"1 2 3"}}`, 201, "create", "create #rock-3"},
		{"clone a subtree", "POST", "/api/entities/ship/clone", "", 201, "clone", "clone #ship as #ship-2"},
		{"clone with an id", "POST", "/api/entities/ship/0/clone", `{"id":"gun-3"}`, 201, "clone", "clone ship/0 as #gun-3"},
		{"reparent", "PUT", "/api/entities/wreck/parent", "ship", 200, "reparent", "move #wreck under #ship"},
		{"reparent to the root", "PUT", "/api/entities/ship/1/parent", "", 200, "reparent", "move #gun-3 under the root"},
		{"destroy a subtree", "DELETE", "/api/entities/ship", "", 200, "destroy", "destroy #ship and 3 below it"},
		{"destroy a middle child", "DELETE", "/api/entities/field/0", "", 200, "destroy", "destroy #rock-1"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.t = t
			before := e.dump()
			e.call(c.method, c.path, c.body).expect(t, c.status)
			after := e.dump()
			if after == before {
				t.Fatal("the command changed nothing")
			}
			h := e.history()
			if len(h.Entries) != i+1 || h.Cursor != h.Entries[i].Seq {
				t.Fatalf("history %+v after %d commands", h, i+1)
			}
			if x := h.Entries[i]; x.Op != c.op || x.Summary != c.summary || x.Undone {
				t.Errorf("entry %+v, want op %s, summary %q", x, c.op, c.summary)
			}
			undoRedo(t, e, before, after)
		})
	}
	e.t = t
	// Everything undone in turn leaves the scene as loaded.
	for range cases {
		e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	}
	if msg := e.call("POST", "/api/undo", "").expect(t, http.StatusConflict).errMsg(t); msg != "nothing to undo" {
		t.Errorf("undo at the start: %q", msg)
	}
	if got, want := e.dump(), initial; got != want {
		t.Errorf("every command undone: the World is not as loaded:\n%s\nwant\n%s", got, want)
	}
}

// TestHistoryRedoTail: a command after an undo drops the entries that
// could be redone; redo with nothing to redo is a 409; undo and redo
// need the token.
func TestHistoryRedoTail(t *testing.T) {
	e := newEnv(t, Options{}).paused()
	for _, v := range []string{"1", "2", "3"} {
		e.call("PUT", "/api/entities/wreck/components/spin", "speed: "+v).expect(t, http.StatusOK)
	}
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	h := e.history()
	if h.Cursor != 1 || len(h.Entries) != 3 || !h.Entries[1].Undone || !h.Entries[2].Undone || h.Entries[0].Undone {
		t.Fatalf("after two undos: %+v", h)
	}
	e.call("PUT", "/api/entities/ship/components/health", "hp: 7").expect(t, http.StatusOK)
	h = e.history()
	if len(h.Entries) != 2 || h.Entries[1].Component != "health" || h.Cursor != h.Entries[1].Seq || h.Entries[1].Seq <= h.Entries[0].Seq {
		t.Fatalf("a new command after undo: %+v", h)
	}
	if msg := e.call("POST", "/api/redo", "").expect(t, http.StatusConflict).errMsg(t); msg != "nothing to redo" {
		t.Errorf("redo at the end: %q", msg)
	}
	e.call("POST", "/api/undo", "", "noToken: 1").expect(t, http.StatusUnauthorized)
	e.call("POST", "/api/redo", "", "noToken: 1").expect(t, http.StatusUnauthorized)
	e.call("GET", "/api/undo", "").expect(t, http.StatusMethodNotAllowed)
	// The speed is the first set's: the undone ones are gone.
	var ent entityInfo
	e.get("/api/entities/wreck").expect(t, http.StatusOK).json(t, &ent)
	for _, c := range ent.Comps {
		if c.Name == "spin" && !strings.Contains(c.Attr, "speed: 1") {
			t.Errorf("spin %q, want speed 1", c.Attr)
		}
	}
}

// TestHistoryRefused: undoing a command whose entity the simulation
// destroyed since, or whose id is taken again, is refused with nothing
// changed, and the history stays where it was.
func TestHistoryRefused(t *testing.T) {
	e := newEnv(t, Options{}).paused()
	e.call("PUT", "/api/entities/wreck/components/spin", "speed: 5").expect(t, http.StatusOK)
	e.sim(func() {
		w, _ := e.reg.EntityByID("wreck")
		_ = e.reg.World().Destroy(w)
	})
	msg := e.call("POST", "/api/undo", "").expect(t, http.StatusConflict).errMsg(t)
	if !strings.Contains(msg, "no longer exists") {
		t.Errorf("undo on a destroyed entity: %q", msg)
	}
	if h := e.history(); h.Cursor != h.Entries[0].Seq || h.Entries[0].Undone {
		t.Errorf("a refused undo moved the history: %+v", h)
	}
	// Destroy rock-1, make another rock-1: its undo would clash.
	e.call("DELETE", "/api/entities/rock-1", "").expect(t, http.StatusOK)
	e.sim(func() {
		x := e.reg.World().NewEntity()
		_ = e.reg.SetEntityID(x, "rock-1")
	})
	before := e.dump()
	msg = e.call("POST", "/api/undo", "").expect(t, http.StatusConflict).errMsg(t)
	if !strings.Contains(msg, `the id "rock-1" is used`) {
		t.Errorf("undo into a taken id: %q", msg)
	}
	if e.dump() != before {
		t.Error("a refused undo changed the World")
	}
}

// TestReparentCycle: moving an entity under itself or a descendant is a
// 409, and so is an unknown parent a 400; nothing changes.
func TestReparentCycle(t *testing.T) {
	e := newEnv(t, Options{}).paused()
	before := e.dump()
	for ref, parent := range map[string]string{"ship": "ship/0", "field": "rock-1", "wreck": "wreck"} {
		e.call("PUT", "/api/entities/"+ref+"/parent", parent).expect(t, http.StatusConflict)
	}
	e.call("PUT", "/api/entities/ship/parent", "nowhere").expect(t, http.StatusBadRequest)
	e.call("POST", "/api/entities/ship/clone", `{"id":"field"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/ship/clone", `{"id":"a b"}`).expect(t, http.StatusBadRequest)
	e.call("GET", "/api/entities/ship/clone", "").expect(t, http.StatusMethodNotAllowed)
	if e.dump() != before || len(e.history().Entries) != 0 {
		t.Error("refused structure edits changed something")
	}
}

// TestHistoryEvents: two streams (two pages) both see every change of
// the history: do, undo, redo; a hot reload that changes the scene
// clears it, one that changes nothing (a save read back) does not.
func TestHistoryEvents(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", savedScene)
	e.paused()
	a, closeA := e.stream()
	defer closeA()
	b, closeB := e.stream()
	defer closeB()
	e.call("PUT", "/api/entities/wreck/components/spin", "speed: 5").expect(t, http.StatusOK)
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
	for _, ch := range []<-chan sse{a, b} {
		for _, want := range []string{"do", "undo", "redo"} {
			var h historyEvent
			if err := json.Unmarshal([]byte(next(t, ch, "history").data), &h); err != nil {
				t.Fatal(err)
			}
			if h.Op != want || h.Entry == nil || h.Entry.Summary != "set spin of #wreck" || h.Entry.Undone != (want == "undo") {
				t.Errorf("history event %+v, want %s", h, want)
			}
		}
	}
	reload := func() {
		e.sim(func() {
			d, err := e.in.opt.Reloader.Reload()
			e.in.Reloaded(d, err)
		})
	}
	reload() // nothing changed: the history stays
	if got := e.history(); len(got.Entries) != 1 {
		t.Errorf("history after a reload that changed nothing: %+v", got)
	}
	if err := os.WriteFile(file, []byte(replaceOnce(t, savedScene, "position: 0 15 0", "position: 0 16 0")), 0o644); err != nil {
		t.Fatal(err)
	}
	reload()
	var h historyEvent
	if err := json.Unmarshal([]byte(next(t, a, "history").data), &h); err != nil || h.Op != "clear" || h.Reason == "" {
		t.Errorf("after a reload that changed the scene: %+v %v", h, err)
	} else if !strings.Contains(h.Reason, "~1") {
		t.Errorf("reason %q", h.Reason)
	}
	if got := e.history(); len(got.Entries) != 0 {
		t.Errorf("history after a reload: %+v", got)
	}
}

// TestUndoSaved: undoing a saved set puts the file back byte for byte
// and the World as it was; redo writes the save again; an edit of the
// file in between makes undo refuse, with nothing changed.
func TestUndoSaved(t *testing.T) {
	for _, c := range []struct{ name, src, set, remove string }{
		{"scene.yaml", savedScene, "/api/entities/ship/components/health?save=1", "/api/entities/rock-1/components/alive?save=1"},
		{"scene.xml", savedXML, "/api/entities/ship/components/health?save=1", "/api/entities/rock-1/components/alive?save=1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, file := newSaveEnv(t, c.name, c.src)
			e.paused()
			before := e.dump()
			e.call("PUT", c.set, "hp: 25").expect(t, http.StatusOK)
			saved, after := readFile(t, file), e.dump()
			if saved == c.src {
				t.Fatal("the save changed nothing")
			}
			if h := e.history(); !h.Entries[0].Saved || h.Entries[0].File != c.name {
				t.Errorf("saved entry: %+v", h.Entries[0])
			}
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != c.src {
				t.Errorf("undo of a saved set: the file is\n%s\nwant\n%s", got, c.src)
			}
			if e.dump() != before {
				t.Error("undo of a saved set: the World is not as before")
			}
			e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != saved || e.dump() != after {
				t.Errorf("redo of a saved set: the file is\n%s\nwant\n%s", got, saved)
			}
			// A saved remove, undone and redone.
			e.call("DELETE", c.remove, "").expect(t, http.StatusOK)
			removed := readFile(t, file)
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != saved {
				t.Errorf("undo of a saved remove: the file is\n%s\nwant\n%s", got, saved)
			}
			e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != removed {
				t.Errorf("redo of a saved remove: the file is\n%s", got)
			}
			// An editor's save in between: undo refuses and changes nothing.
			edited := removed + "\n"
			if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
				t.Fatal(err)
			}
			now := e.dump()
			msg := e.call("POST", "/api/undo", "").expect(t, http.StatusConflict).errMsg(t)
			if !strings.Contains(msg, "edited since the change was saved") || readFile(t, file) != edited || e.dump() != now {
				t.Errorf("undo over an edited file: %q", msg)
			}
		})
	}
}

// TestUndoEvent: an event sent through the API is undone by putting back
// what its handlers changed, and redone by setting it again.
func TestUndoEvent(t *testing.T) {
	e := newBehaviourEnv(t, behaviourScene)
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	score := func() string {
		var s string
		e.sim(func() { s, _ = e.reg.Attr(e.target(), "score") })
		return s
	}
	e.call("POST", "/api/entities/target/events/hit", `{"damage": 5}`).expect(t, http.StatusOK)
	if got := score(); got != "5" {
		t.Fatalf("score after hit: %q", got)
	}
	h := e.history()
	if len(h.Entries) != 1 || h.Entries[0].Op != "emit" || !strings.Contains(h.Entries[0].Summary, "send hit to #target (1 components changed") {
		t.Fatalf("history: %+v", h.Entries[0])
	}
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := score(); got != "0" {
		t.Errorf("score after undo: %q", got)
	}
	e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
	if got := score(); got != "5" {
		t.Errorf("score after redo: %q", got)
	}
	// An event nobody listens to is recorded too, and undoes as nothing.
	e.call("POST", "/api/entities/child/events/nothing?bubbles=0", "").expect(t, http.StatusOK)
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := score(); got != "5" {
		t.Errorf("score after undoing an unheard event: %q", got)
	}
}

// TestSaveDestroy: DELETE ?save=1 of an entity takes its block out of
// the YAML or XML file, everything else byte for byte; undo puts it back
// (file and World), redo takes it out again, and a reload after each
// finds nothing to do. An entity the file cannot lose alone (made at run
// time, an unnamed child whose later siblings would shift) is refused
// with the reason, nothing changed.
func TestSaveDestroy(t *testing.T) {
	for _, c := range []struct{ name, src, block string }{
		{"scene.yaml", savedScene, "      - id: wreck\n        mixin: rock\n        position: 0 15 0\n        scale: 2 2 2\n"},
		{"scene.xml", savedXML, `    <entity id="wreck" mixin="rock" position="0 15 0" scale="2 2 2"/>` + "\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, file := newSaveEnv(t, c.name, c.src)
			e.paused()
			before := e.dump()
			e.call("DELETE", "/api/entities/wreck?save=1", "").expect(t, http.StatusOK)
			want := replaceOnce(t, c.src, c.block, "")
			if got := readFile(t, file); got != want {
				t.Fatalf("after the saved destroy the file is\n%s\nwant\n%s", got, want)
			}
			after := e.dump()
			reloadNothing := func(when string) {
				e.sim(func() {
					d, err := e.in.opt.Reloader.Reload()
					if err != nil || !d.Empty() {
						t.Errorf("%s: a reload finds %v %v", when, d, err)
					}
				})
			}
			reloadNothing("after the save")
			if h := e.history(); !h.Entries[0].Saved || h.Entries[0].File != c.name {
				t.Errorf("entry %+v", h.Entries[0])
			}
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != c.src || e.dump() != before {
				t.Fatalf("undo: the file is\n%s", got)
			}
			reloadNothing("after undo")
			e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != want || e.dump() != after {
				t.Fatalf("redo: the file is\n%s", got)
			}
			reloadNothing("after redo")
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			// Refused: a middle child without an id, an entity made at
			// run time.
			for ref, why := range map[string]string{"ship/0": "would change more than that", "made": "made at run time"} {
				if ref == "made" {
					e.call("POST", "/api/entities", `{"id":"made"}`).expect(t, http.StatusCreated)
				}
				now := e.dump()
				msg := e.call("DELETE", "/api/entities/"+ref+"?save=1", "").expect(t, http.StatusConflict).errMsg(t)
				if !strings.Contains(msg, why) || readFile(t, file) != c.src || e.dump() != now {
					t.Errorf("DELETE %s ?save=1: %q", ref, msg)
				}
			}
			// The last child without an id can go.
			e.call("DELETE", "/api/entities/ship/1?save=1", "").expect(t, http.StatusOK)
			reloadNothing("after the last child")
			// The only child leaves an empty list.
			e.call("DELETE", "/api/entities/rock-1?save=1", "").expect(t, http.StatusOK)
			e.call("DELETE", "/api/entities/wreck?save=1", "").expect(t, http.StatusOK)
			reloadNothing("after the only child")
			if got := readFile(t, file); strings.Contains(got, "wreck") || c.name == "scene.yaml" && !strings.Contains(got, "  - id: field\n    children: []\n") {
				t.Errorf("without field's children the file is\n%s", got)
			}
			for range 3 {
				e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			}
			if got := readFile(t, file); got != c.src {
				t.Errorf("three undos: the file is\n%s", got)
			}
		})
	}
}

// cutBlock finds the block that starts with first in got and returns
// got without it, and where it was.
func cutBlock(t *testing.T, got, first string, xml bool) (string, int) {
	t.Helper()
	i := strings.Index(got, first)
	if i < 0 {
		t.Fatalf("no %q in\n%s", first, got)
	}
	ind := len(first) - len(strings.TrimLeft(first, " "))
	end := i + len(first)
	if xml { // one line
		end += strings.IndexByte(got[end:], '\n') + 1
	}
	for end < len(got) {
		nl := strings.IndexByte(got[end:], '\n')
		line := got[end : end+nl+1]
		if xml || strings.TrimSpace(line) == "" || len(line)-len(strings.TrimLeft(line, " ")) <= ind {
			break
		}
		end += nl + 1
	}
	return got[:i] + got[end:], i
}

// TestSaveCreateClone: POST /api/entities?save=1 and POST .../clone?save=1
// write the new entity's block right after its previous sibling's (at
// its indentation), everything else byte for byte; a reload finds
// nothing to do; undo takes the block out again and redo puts it back.
// Under a parent made at run time the save is refused.
func TestSaveCreateClone(t *testing.T) {
	for _, c := range []struct{ name, src, rock3, rockClone, shipAt string }{
		{"scene.yaml", savedScene, "      - id: rock-3\n", "      - id: rock-2\n", "  - id: ship-2\n"},
		{"scene.xml", savedXML, `    <entity id="rock-3"`, `    <entity id="rock-2"`, `  <entity id="ship-2"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, file := newSaveEnv(t, c.name, c.src)
			e.paused()
			xml := c.name == "scene.xml"
			reloadNothing := func(when string) {
				e.sim(func() {
					d, err := e.in.opt.Reloader.Reload()
					if err != nil || !d.Empty() {
						t.Errorf("%s: a reload finds %v %v", when, d, err)
					}
				})
			}
			before := e.dump()
			e.call("POST", "/api/entities?save=1", `{"parent":"field","id":"rock-3","class":"big","mixin":"rock","components":{"position":"1 2 3"}}`).expect(t, http.StatusCreated)
			saved := readFile(t, file)
			rest, at := cutBlock(t, saved, c.rock3, xml)
			wreckEnd := strings.Index(c.src, "scale") // wreck's last line
			wreckEnd += strings.IndexByte(c.src[wreckEnd:], '\n') + 1
			if rest != c.src || at != wreckEnd {
				t.Fatalf("after a saved create the file is\n%s", saved)
			}
			reloadNothing("after the create")
			after := e.dump()
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != c.src || e.dump() != before {
				t.Fatalf("undo of a saved create: the file is\n%s", got)
			}
			reloadNothing("after undo")
			e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != saved || e.dump() != after {
				t.Fatalf("redo of a saved create: the file is\n%s", got)
			}
			reloadNothing("after redo")
			// A clone of rock-1 goes right after rock-1, of ship (with its
			// children) right after ship.
			e.call("POST", "/api/entities/rock-1/clone?save=1", "").expect(t, http.StatusCreated)
			if rest, _ := cutBlock(t, readFile(t, file), c.rockClone, xml); rest != saved {
				t.Fatalf("after a saved clone the file is\n%s", readFile(t, file))
			}
			reloadNothing("after the clone")
			if !xml {
				e.call("POST", "/api/entities/ship/clone?save=1", "").expect(t, http.StatusCreated)
				reloadNothing("after the clone of a subtree")
				e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			}
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != saved {
				t.Fatalf("undo of the clones: the file is\n%s", got)
			}
			// Under an entity made at run time: refused, nothing made.
			e.call("POST", "/api/entities", `{"id":"loose"}`).expect(t, http.StatusCreated)
			now := e.dump()
			msg := e.call("POST", "/api/entities?save=1", `{"parent":"loose"}`).expect(t, http.StatusConflict).errMsg(t)
			if !strings.Contains(msg, "save the parent first") || e.dump() != now || readFile(t, file) != saved {
				t.Errorf("create under a run-time parent: %q", msg)
			}
		})
	}
}

// TestSaveReparent: PUT .../parent?save=1 moves the entity's block (its
// lines as written) under the new parent, after its last child, at its
// indentation; a reload finds nothing to do; undo and redo move it back
// and forth in the file. An entity without an id is refused.
func TestSaveReparent(t *testing.T) {
	for _, c := range []struct{ name, src, block, moved, root string }{
		{"scene.yaml", savedScene, "      - id: wreck\n        mixin: rock\n        position: 0 15 0\n        scale: 2 2 2\n",
			"        position: 1 0.5 0\n      - id: wreck\n        mixin: rock\n        position: 0 15 0\n        scale: 2 2 2\n  - id: field\n",
			"        velocity: 0.5 -1 0\n  - id: wreck\n    mixin: rock\n    position: 0 15 0\n    scale: 2 2 2\n"},
		{"scene.xml", savedXML, `    <entity id="wreck" mixin="rock" position="0 15 0" scale="2 2 2"/>` + "\n",
			`    <entity class="gun right" position="1 0.5 0"/>` + "\n" + `    <entity id="wreck" mixin="rock" position="0 15 0" scale="2 2 2"/>` + "\n  </entity>\n",
			"  </entity>\n" + `  <entity id="wreck" mixin="rock" position="0 15 0" scale="2 2 2"/>` + "\n</scene>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, file := newSaveEnv(t, c.name, c.src)
			e.paused()
			reloadNothing := func(when string) {
				e.sim(func() {
					d, err := e.in.opt.Reloader.Reload()
					if err != nil || !d.Empty() {
						t.Errorf("%s: a reload finds %v %v", when, d, err)
					}
				})
			}
			before := e.dump()
			e.call("PUT", "/api/entities/wreck/parent?save=1", "ship").expect(t, http.StatusOK)
			moved := readFile(t, file)
			if !strings.Contains(moved, c.moved) || strings.Replace(moved, c.block, "", 1) != strings.Replace(c.src, c.block, "", 1) {
				t.Fatalf("after a saved move the file is\n%s", moved)
			}
			reloadNothing("after the move")
			after := e.dump()
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != c.src || e.dump() != before {
				t.Fatalf("undo of a saved move: the file is\n%s", got)
			}
			reloadNothing("after undo")
			e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
			if got := readFile(t, file); got != moved || e.dump() != after {
				t.Fatalf("redo of a saved move: the file is\n%s", got)
			}
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			// To the root: after the last root, at the roots' indentation.
			e.call("PUT", "/api/entities/wreck/parent?save=1", "").expect(t, http.StatusOK)
			if got := readFile(t, file); !strings.Contains(got, c.root) {
				t.Fatalf("after a saved move to the root the file is\n%s", got)
			}
			reloadNothing("after the move to the root")
			e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
			now := e.dump()
			msg := e.call("PUT", "/api/entities/ship/0/parent?save=1", "field").expect(t, http.StatusConflict).errMsg(t)
			if !strings.Contains(msg, "give it an id") || readFile(t, file) != c.src || e.dump() != now {
				t.Errorf("a saved move of an entity without an id: %q", msg)
			}
		})
	}
}

const prefabScene = `prefabs:
  rock:
    spin: "axis: 0 1 0; speed: 45"
    velocity: 0 0 0
entities:
  - id: r1
    prefab: rock
    spin: "axis: 1 0 0; speed: 10"
    alive:
  - id: plain
    spin: "speed: 3"
`

// TestPrefabRevert: POST .../prefab/revert gives an instance's property,
// or whole component, its prefab's value again (a component the prefab
// lacks goes), as an undoable command; a non-instance is a 409; variant
// and a saved revert are not there yet (501); apply needs ?save=1 and
// the scene's file.
func TestPrefabRevert(t *testing.T) {
	e := newEnvWith(t, Options{}, func(reg *registry.Registry) (*loader.Scene, error) {
		return loader.LoadBytes(reg, "scene.yaml", []byte(prefabScene), loader.Options{})
	}).paused()
	attr := func(name string) string {
		var s string
		e.sim(func() {
			r, _ := e.reg.EntityByID("r1")
			if !e.reg.Has(r, name) {
				s = "(none)"
				return
			}
			s, _ = e.reg.Attr(r, name)
		})
		return s
	}
	e.call("POST", "/api/entities/r1/prefab/revert", `{"component":"spin","property":"speed"}`).expect(t, http.StatusOK)
	if got := attr("spin"); got != "axis: 1 0 0; speed: 45" {
		t.Errorf("after reverting spin.speed: %q", got)
	}
	e.call("POST", "/api/entities/r1/prefab/revert", `{"component":"spin"}`).expect(t, http.StatusOK)
	if got := attr("spin"); got != "axis: 0 1 0; speed: 45" {
		t.Errorf("after reverting spin: %q", got)
	}
	e.call("POST", "/api/entities/r1/prefab/revert", `{"component":"alive"}`).expect(t, http.StatusOK)
	if got := attr("alive"); got != "(none)" {
		t.Errorf("after reverting alive: %q", got)
	}
	if h := e.history(); len(h.Entries) != 3 || h.Entries[0].Op != "revert" || h.Entries[0].Summary != "revert spin.speed of #r1 to its prefab" {
		t.Errorf("history %+v", h.Entries[0])
	}
	for range 3 {
		e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	}
	if got := attr("spin") + " " + attr("alive"); got != "axis: 1 0 0; speed: 10 " {
		t.Errorf("after three undos: %q", got)
	}
	e.call("POST", "/api/entities/plain/prefab/revert", `{"component":"spin"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/r1/prefab/revert", `{"component":"spin","property":"nope"}`).expect(t, http.StatusNotFound)
	e.call("POST", "/api/entities/r1/prefab/revert", `{}`).expect(t, http.StatusBadRequest)
	e.call("POST", "/api/entities/r1/prefab/revert?save=1", `{"component":"spin"}`).expect(t, http.StatusNotImplemented)
	e.call("POST", "/api/entities/r1/prefab/apply", `{"component":"spin"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/r1/prefab/apply?save=1", `{"component":"spin"}`).expect(t, http.StatusNotImplemented)
	e.call("POST", "/api/entities/r1/prefab/variant?save=1", `{"name":"rock-b"}`).expect(t, http.StatusNotImplemented)
	e.call("POST", "/api/entities/r1/prefab/revert", `{"component":"spin"}`, "noToken: 1").expect(t, http.StatusUnauthorized)
}

const prefabFileScene = `prefabs:
  rock:
    spin: "axis: 0 1 0; speed: 45"   # the rocks' spin
    velocity: 0 0 0
entities:
  - id: r1
    prefab: rock
    spin: "axis: 1 0 0; speed: 10"
  - id: r2
    prefab: rock
  - id: r3
    prefab: rock
    position: 1 2 3
`

// TestPrefabApply: POST .../prefab/apply?save=1 writes an instance's
// value into its prefab in the file (that value alone) and every other
// instance follows at once; undo puts the file and the instances back,
// redo again; a reload after each finds nothing to do.
func TestPrefabApply(t *testing.T) {
	e, file := newSaveEnv(t, "scene.yaml", prefabFileScene)
	e.paused()
	spin := func(id string) string {
		var s string
		e.sim(func() {
			r, _ := e.reg.EntityByID(id)
			s, _ = e.reg.Attr(r, "spin")
		})
		return s
	}
	reloadNothing := func(when string) {
		e.sim(func() {
			d, err := e.in.opt.Reloader.Reload()
			if err != nil || !d.Empty() {
				t.Errorf("%s: a reload finds %v %v", when, d, err)
			}
		})
	}
	before := e.dump()
	e.call("POST", "/api/entities/r1/prefab/apply?save=1", `{"component":"spin","property":"speed"}`).expect(t, http.StatusOK)
	want := replaceOnce(t, prefabFileScene, `spin: "axis: 0 1 0; speed: 45"`, `spin: "axis: 0 1 0; speed: 10"`)
	if got := readFile(t, file); got != want {
		t.Fatalf("after apply the file is\n%s", got)
	}
	if spin("r2") != "axis: 0 1 0; speed: 10" || spin("r3") != "axis: 0 1 0; speed: 10" || spin("r1") != "axis: 1 0 0; speed: 10" {
		t.Errorf("after apply: r1 %q r2 %q r3 %q", spin("r1"), spin("r2"), spin("r3"))
	}
	reloadNothing("after apply")
	after := e.dump()
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != prefabFileScene || e.dump() != before {
		t.Fatalf("undo of apply: the file is\n%s\nr2 %q", got, spin("r2"))
	}
	reloadNothing("after undo")
	e.call("POST", "/api/redo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != want || e.dump() != after {
		t.Fatalf("redo of apply: the file is\n%s", got)
	}
	if h := e.history(); h.Entries[0].Summary != "apply spin.speed of #r1 to prefab rock" || !h.Entries[0].Saved {
		t.Errorf("entry %+v", h.Entries[0])
	}
	e.call("POST", "/api/entities/r1/prefab/apply", `{"component":"spin"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/r1/prefab/apply?save=1", `{"component":"health"}`).expect(t, http.StatusNotFound)
	// A saved revert of r1's spin takes its own key out of the file.
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	before = e.dump()
	e.call("POST", "/api/entities/r1/prefab/revert?save=1", `{"component":"spin"}`).expect(t, http.StatusOK)
	dropped := replaceOnce(t, prefabFileScene, "    spin: \"axis: 1 0 0; speed: 10\"\n", "")
	if got := readFile(t, file); got != dropped || spin("r1") != "axis: 0 1 0; speed: 45" {
		t.Fatalf("after a saved revert: r1 %q, the file is\n%s", spin("r1"), got)
	}
	reloadNothing("after a saved revert")
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != prefabFileScene || e.dump() != before {
		t.Fatalf("undo of a saved revert: the file is\n%s", got)
	}
	savedPropertyRevert(t, e, file, before, spin, reloadNothing)
	// A variant from r1: a new prefab after rock, with r1's own spin;
	// nothing else changes. Undo takes it out.
	now := e.dump()
	e.call("POST", "/api/entities/r1/prefab/variant?save=1", `{"name":"rock-fast"}`).expect(t, http.StatusOK)
	if got := e.dump(); !strings.Contains(got, `"rock-fast"`) || strings.Replace(got, now[strings.Index(now, `"entities"`):], "", 1) == got {
		t.Errorf("a variant changed the entities, or the dump lacks it:\n%s", got)
	}
	variant := replaceOnce(t, prefabFileScene, "    velocity: 0 0 0\n", "    velocity: 0 0 0\n  rock-fast:\n    prefab: rock\n    spin: \"axis: 1 0 0; speed: 10\"\n")
	if got := readFile(t, file); got != variant {
		t.Fatalf("after a variant the file is\n%s", got)
	}
	e.sim(func() {
		if _, ok := e.reg.Prefabs().Get("rock-fast"); !ok {
			t.Error("the variant is not defined in the running scene")
		}
	})
	reloadNothing("after a variant")
	e.call("POST", "/api/entities/r1/prefab/variant?save=1", `{"name":"rock-fast"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/r1/prefab/variant", `{"name":"rock-b"}`).expect(t, http.StatusConflict)
	e.call("POST", "/api/entities/r1/prefab/variant?save=1", `{"name":""}`).expect(t, http.StatusBadRequest)
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != prefabFileScene || e.dump() != now {
		t.Fatalf("undo of a variant: the file is\n%s", got)
	}
	reloadNothing("after undoing a variant")
}

// savedPropertyRevert: a saved revert of one property takes that
// property out of r1's own value, the others written as they were; undo
// puts it back. Of a component r1 does not write: nothing to write, the
// World's value goes back to the prefab's all the same.
func savedPropertyRevert(t *testing.T, e *env, file, before string, spin func(string) string, reloadNothing func(string)) {
	t.Helper()
	e.call("POST", "/api/entities/r1/prefab/revert?save=1", `{"component":"spin","property":"speed"}`).expect(t, http.StatusOK)
	oneDropped := replaceOnce(t, prefabFileScene, `spin: "axis: 1 0 0; speed: 10"`, `spin: "axis: 1 0 0"`)
	if got := readFile(t, file); got != oneDropped || spin("r1") != "axis: 1 0 0; speed: 45" {
		t.Fatalf("after a saved revert of spin.speed: r1 %q, the file is\n%s", spin("r1"), got)
	}
	reloadNothing("after a saved revert of one property")
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
	if got := readFile(t, file); got != prefabFileScene || e.dump() != before {
		t.Fatalf("undo of a saved revert of one property: the file is\n%s", got)
	}
	e.call("POST", "/api/entities/r1/prefab/revert?save=1", `{"component":"velocity"}`).expect(t, http.StatusOK)
	if got := readFile(t, file); got != prefabFileScene {
		t.Fatalf("a saved revert of what r1 does not write changed the file:\n%s", got)
	}
	e.call("POST", "/api/undo", "").expect(t, http.StatusOK)
}
