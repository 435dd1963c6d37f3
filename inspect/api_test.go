package inspect

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

// TestScene: GET /api/scene is the dump scene-run dump -format json
// writes, taken between ticks.
func TestScene(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	want := e.dump()
	r := e.get("/api/scene").expect(t, http.StatusOK)
	if string(r.body) != want {
		t.Fatalf("scene:\n%s\nwant:\n%s", r.body, want)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	if r.header.Get("X-Scene-Version") == "" {
		t.Error("no X-Scene-Version")
	}
	// A subtree.
	r = e.get("/api/scene?root=field").expect(t, http.StatusOK)
	if !strings.Contains(string(r.body), `"id":"wreck"`) || strings.Contains(string(r.body), `"id":"ship"`) {
		t.Errorf("root=field:\n%s", r.body)
	}
	if msg := e.get("/api/scene?root=nowhere").expect(t, http.StatusNotFound).errMsg(t); !strings.Contains(msg, `"nowhere"`) {
		t.Errorf("404 does not name the reference: %s", msg)
	}
}

// TestQuery: matches are scene-run query's references, in document
// order; count and full come along; a bad selector is a 400 with its
// column, taken from the selector's typed error.
func TestQuery(t *testing.T) {
	e := newEnv(t, Options{}).start()
	cases := map[string][]string{
		"[enemy]:not([alive])": {"wreck"},
		"#ship > .gun":         {"ship/0", "ship/1"},
		"[position]":           {"ship", "ship/0", "ship/1", "rock-1", "wreck"},
		"[health.hp<60]":       {"ship"},
		"[nothing-has-this]":   nil,
	}
	for sel, want := range cases {
		if sel == "[nothing-has-this]" {
			continue // unknown component: see below
		}
		var got queryResult
		e.get("/api/query?selector="+url.QueryEscape(sel)).expect(t, http.StatusOK).json(t, &got)
		if !slices.Equal(got.Matches, want) || got.Count != len(want) || got.Selector != sel {
			t.Errorf("%s: %+v, want %v", sel, got, want)
		}
		if got.Entities != nil {
			t.Errorf("%s: entities without full=1", sel)
		}
	}
	var full struct {
		Count    int
		Matches  []string
		Entities []map[string]any
	}
	e.get("/api/query?full=1&selector="+url.QueryEscape("#ship > .gun")).expect(t, http.StatusOK).json(t, &full)
	if full.Count != 2 || len(full.Entities) != 2 || full.Entities[1]["path"] != "ship/1" {
		t.Errorf("full=1: %+v", full)
	}
	// Errors: the message and column are the selector package's.
	for _, sel := range []string{"[enemy", "#ship >", "[enemy]:nope", "[nothing-has-this]", "[health.hq>1]", "a,,b"} {
		var want *selector.Error
		e.sim(func() {
			_, err := e.reg.Compile(sel)
			if !errors.As(err, &want) {
				t.Errorf("%s: compile error %v is not a *selector.Error", sel, err)
			}
		})
		if want == nil {
			continue
		}
		var eb errorBody
		e.get("/api/query?selector="+url.QueryEscape(sel)).expect(t, http.StatusBadRequest).json(t, &eb)
		if eb.Error != want.Error() || eb.Col != want.Col || !strings.HasPrefix(eb.Error, "selector:1:") {
			t.Errorf("%s: %+v, want %q col %d", sel, eb, want.Error(), want.Col)
		}
	}
	e.get("/api/query").expect(t, http.StatusBadRequest)
	e.get("/api/query?selector=*&full=maybe").expect(t, http.StatusBadRequest)
}

// TestComponents: every registered and declared component with its
// schema, sorted by name, and the systems.
func TestComponents(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var got struct {
		Components []componentInfo
		Systems    []systemInfo
	}
	e.get("/api/components").expect(t, http.StatusOK).json(t, &got)
	names := []string{}
	byName := map[string]componentInfo{}
	for _, c := range got.Components {
		names = append(names, c.Name)
		byName[c.Name] = c
	}
	if !slices.IsSorted(names) {
		t.Errorf("not sorted: %v", names)
	}
	var want []string
	e.sim(func() {
		for _, c := range e.reg.Components() {
			want = append(want, c.Name)
		}
	})
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("components %v, want %v", names, want)
	}
	pos := byName["position"]
	if !pos.Single || pos.Tag || len(pos.Properties) != 1 || pos.Properties[0].Type != "vec3" || pos.Properties[0].Default != "0 0 0" {
		t.Errorf("position: %+v", pos)
	}
	h := byName["health"]
	if h.Single || len(h.Properties) != 2 || h.Properties[0].Name != "hp" || h.Properties[0].Type != "int" ||
		h.Properties[0].Default != "100" || h.Properties[0].Min == nil || *h.Properties[0].Min != 0 {
		t.Errorf("health: %+v", h)
	}
	if alive := byName["alive"]; !alive.Tag || !alive.Declared {
		t.Errorf("alive (a tag from the scene): %+v", alive)
	}
	if i := slices.IndexFunc(got.Systems, func(s systemInfo) bool { return s.Name == "physics" }); i < 0 || len(got.Systems[i].Properties) == 0 {
		t.Errorf("systems: %+v", got.Systems)
	}
}

// TestEntity: one entity by id, #id, path or handle; 404 names what is
// not found.
func TestEntity(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var ship entityInfo
	e.get("/api/entities/ship").expect(t, http.StatusOK).json(t, &ship)
	if ship.Ref != "ship" || ship.ID != "ship" || ship.Parent != nil || !slices.Equal(ship.Children, []string{"ship/0", "ship/1"}) ||
		!slices.Equal(ship.Class, []string{"player"}) || ship.Source != "scene.yaml:7:5" {
		t.Errorf("ship: %+v", ship)
	}
	comps := map[string]componentValue{}
	for _, c := range ship.Comps {
		comps[c.Name] = c
	}
	if c := comps["health"]; c.Attr != "hp: 50; max: 100" || string(c.Value) != `{"hp":50,"max":100}` {
		t.Errorf("health: %+v", c)
	}
	if c := comps["position"]; c.Attr != "0 0 0" || string(c.Value) != `{"x":0,"y":0,"z":0}` {
		t.Errorf("position: %+v", c)
	}
	for _, ref := range []string{"%23ship", ship.Handle, "0"} {
		var again entityInfo
		e.get("/api/entities/"+ref).expect(t, http.StatusOK).json(t, &again)
		if again.Ref != "ship" {
			t.Errorf("%s: %+v", ref, again)
		}
	}
	var gun entityInfo
	e.get("/api/entities/ship/1").expect(t, http.StatusOK).json(t, &gun)
	if gun.Ref != "ship/1" || gun.ID != "" || gun.Parent == nil || *gun.Parent != "ship" || !slices.Equal(gun.Class, []string{"gun", "right"}) {
		t.Errorf("ship/1: %+v", gun)
	}
	var wreck entityInfo
	e.get("/api/entities/1/1").expect(t, http.StatusOK).json(t, &wreck)
	if wreck.Ref != "wreck" {
		t.Errorf("1/1: %+v", wreck)
	}
	for ref, want := range map[string]string{
		"nope":       `"nope"`,
		"ship/7":     "ship has no child 7",
		"9":          "no root entity 9",
		"%23ghost":   `"#ghost"`,
		"ship/x":     `"x" is not a child index`,
		"ship/01":    `"01" is not a child index`,
		"e99999v0":   `"e99999v0"`,
		"ship/0/0":   "ship/0 has no child 0",
		"%23ghost/1": `no entity has the id "ghost"`,
	} {
		msg := e.get("/api/entities/"+ref).expect(t, http.StatusNotFound).errMsg(t)
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q does not say %s", ref, msg, want)
		}
	}
}

// TestSetComponent: PUT sets through the parser and hooks (update sees
// the old data), merging like a scene file; the change event's entries
// say what changed.
func TestSetComponent(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var ev changeEvent
	e.call("PUT", "/api/entities/ship/components/health", "hp: 5").expect(t, http.StatusOK).json(t, &ev)
	if ev.Op != "set" || ev.Ref != "ship" || ev.Attr != "hp: 5; max: 100" || string(ev.Value) != `{"hp":5,"max":100}` ||
		len(ev.Entries) != 1 || ev.Entries[0].String() != "~ #ship health.hp 50 → 5" {
		t.Errorf("answer: %+v", ev)
	}
	// Merge: max alone keeps hp.
	e.call("PUT", "/api/entities/ship/components/health", "max: 80\n").expect(t, http.StatusOK).json(t, &ev)
	if ev.Attr != "hp: 5; max: 80" {
		t.Errorf("merge: %+v", ev)
	}
	// The same value again changes nothing: no update, no entries.
	e.call("PUT", "/api/entities/ship/components/health", "hp: 5").expect(t, http.StatusOK).json(t, &ev)
	if len(ev.Entries) != 0 {
		t.Errorf("unchanged set has entries: %+v", ev.Entries)
	}
	var updates []string
	e.sim(func() { updates = slices.Clone(e.updates) })
	if !slices.Equal(updates, []string{"0->50", "50->5", "5->5"}) {
		t.Errorf("update hook calls (old->new hp): %v", updates)
	}
	// A single-property component on an unnamed entity, by path.
	e.call("PUT", "/api/entities/ship/0/components/position", "1 2 3").expect(t, http.StatusOK).json(t, &ev)
	if len(ev.Entries) != 1 || ev.Entries[0].String() != "~ ship/0 position -1 0.5 0 → 1 2 3" {
		t.Errorf("position: %+v", ev)
	}
	// Adding a component: init and update(zero) run; the entry is an add.
	e.call("PUT", "/api/entities/wreck/components/health", "hp: 7").expect(t, http.StatusOK).json(t, &ev)
	if len(ev.Entries) != 1 || ev.Entries[0].String() != "~ #wreck +health hp: 7; max: 100" {
		t.Errorf("add: %+v", ev)
	}
	var hp string
	e.sim(func() {
		w, _ := e.reg.EntityByID("wreck")
		hp, _ = e.reg.Attr(w, "health")
	})
	if hp != "hp: 7; max: 100" {
		t.Errorf("live value %q", hp)
	}
}

// TestSetComponentErrors: a value the parser refuses is a 400 with the
// parser's message, and the World is exactly as before; unknown entities
// and components are 404.
func TestSetComponentErrors(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	before := e.dump()
	var hs *registry.Schema
	e.sim(func() { c, _ := e.reg.Component("health"); hs = c.Schema })
	for _, tc := range []struct{ comp, body string }{
		{"health", "hp: abc"},
		{"health", "hp: -5"}, // below min
		{"health", "hq: 5"},  // unknown property
		{"health", "50"},     // a bare value for a multi-property component
		{"health", "hp: 1; max: x"},
		{"position", "1 2 three"},
		{"position", "1 2 3 4"},
		{"enemy", "loud"}, // a tag takes no value
	} {
		var want string
		e.sim(func() {
			c, _ := e.reg.Component(tc.comp)
			_, err := c.Schema.ParseAttr(tc.comp, tc.body)
			if err == nil {
				t.Fatalf("%s %q parses", tc.comp, tc.body)
			}
			want = err.Error()
		})
		var eb errorBody
		e.call("PUT", "/api/entities/wreck/components/"+tc.comp, tc.body).expect(t, http.StatusBadRequest).json(t, &eb)
		if eb.Error != want || eb.Offset == nil {
			t.Errorf("%s %q: %+v, want %q with an offset", tc.comp, tc.body, eb, want)
		}
	}
	if _, err := hs.ParseAttr("health", "hp: abc"); err == nil {
		t.Fatal("schema accepts hp: abc")
	}
	msg := e.call("PUT", "/api/entities/wreck/components/helth", "hp: 1").expect(t, http.StatusNotFound).errMsg(t)
	if !strings.Contains(msg, `unknown component "helth"`) || !strings.Contains(msg, `"health"`) {
		t.Errorf("unknown component: %s", msg)
	}
	e.call("PUT", "/api/entities/nobody/components/health", "hp: 1").expect(t, http.StatusNotFound)
	e.call("PUT", "/api/entities/wreck/components/health__x", "hp: 1").expect(t, http.StatusBadRequest) // not multiple
	e.call("PUT", "/api/entities/wreck/components/health", "hp: \xff").expect(t, http.StatusBadRequest)
	if after := e.dump(); after != before {
		t.Fatalf("refused changes changed the World:\n%s\nwant:\n%s", after, before)
	}
}

// TestRemoveComponent: DELETE detaches; a component the entity lacks is
// 404.
func TestRemoveComponent(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var ev changeEvent
	e.call("DELETE", "/api/entities/wreck/components/scale", "").expect(t, http.StatusOK).json(t, &ev)
	if ev.Op != "remove" || len(ev.Entries) != 1 || ev.Entries[0].String() != "~ #wreck -scale" || ev.Entries[0].Old != "2 2 2" {
		t.Errorf("answer: %+v", ev)
	}
	msg := e.call("DELETE", "/api/entities/wreck/components/scale", "").expect(t, http.StatusNotFound).errMsg(t)
	if !strings.Contains(msg, `"wreck" has no component "scale"`) {
		t.Errorf("second delete: %s", msg)
	}
	e.call("DELETE", "/api/entities/wreck/components/nonesuch", "").expect(t, http.StatusNotFound)
	var q queryResult
	e.get("/api/query?selector=[scale]").json(t, &q)
	if q.Count != 0 {
		t.Errorf("scale still there: %+v", q)
	}
}

// TestCreateDestroy: POST creates an entity (mixins, components in order,
// classes, under a parent); bad requests create nothing; DELETE destroys
// a subtree and names every entity.
func TestCreateDestroy(t *testing.T) {
	e := newEnv(t, Options{}).start()
	body := `{"parent": "field", "id": "goblin", "class": "monster green", "mixin": "rock",
	          "components": {"position": "1 2 3", "health": "hp: 30", "alive": null}}`
	r := e.call("POST", "/api/entities", body).expect(t, http.StatusCreated)
	var g entityInfo
	r.json(t, &g)
	if g.Ref != "goblin" || g.Parent == nil || *g.Parent != "field" || !slices.Equal(g.Class, []string{"monster", "green"}) || g.Source != "" {
		t.Errorf("created: %+v", g)
	}
	if loc := r.header.Get("Location"); loc != "/api/entities/goblin" {
		t.Errorf("Location %q", loc)
	}
	var names []string
	for _, c := range g.Comps {
		names = append(names, c.Name+"="+c.Attr)
	}
	for _, want := range []string{"position=1 2 3", "health=hp: 30; max: 100", "enemy=", "alive=", "spin=axis: 0 0 1; speed: 45"} {
		if !slices.Contains(names, want) {
			t.Errorf("created entity lacks %s: %v", want, names)
		}
	}
	var q queryResult
	e.get("/api/query?selector="+url.QueryEscape("#field > [enemy]")).json(t, &q)
	if !slices.Equal(q.Matches, []string{"rock-1", "wreck", "goblin"}) {
		t.Errorf("field's enemies: %v", q.Matches)
	}
	// An unnamed root.
	e.call("POST", "/api/entities", `{"components": {"position": "0 0 9"}}`).expect(t, http.StatusCreated).json(t, &g)
	if g.Ref != "2" {
		t.Errorf("unnamed root: %+v", g)
	}
	count := func() int {
		var q queryResult
		e.get("/api/query?selector=*").json(t, &q)
		return q.Count
	}
	n := count()
	for _, tc := range []struct {
		body   string
		status int
	}{
		{`{"id": "goblin"}`, http.StatusConflict},
		{`{"id": "two words"}`, http.StatusBadRequest},
		{`{"parent": "nowhere"}`, http.StatusBadRequest},
		{`{"mixin": "rok"}`, http.StatusBadRequest},
		{`{"components": {"health": "hp: x"}}`, http.StatusBadRequest},
		{`{"components": {"helth": ""}}`, http.StatusBadRequest},
		{`{"components": {"health": 5}}`, http.StatusBadRequest},
		{`{"colour": "red"}`, http.StatusBadRequest},
		{`{"class": ["a b"]}`, http.StatusBadRequest},
		{`not json`, http.StatusBadRequest},
		{`{} {}`, http.StatusBadRequest},
	} {
		msg := e.call("POST", "/api/entities", tc.body).expect(t, tc.status).errMsg(t)
		if tc.body == `{"mixin": "rok"}` && !strings.Contains(msg, `"rock"`) {
			t.Errorf("mixin error does not suggest rock: %s", msg)
		}
	}
	if m := count(); m != n {
		t.Errorf("bad creations changed the entity count: %d -> %d", n, m)
	}
	var ev changeEvent
	e.call("DELETE", "/api/entities/field", "").expect(t, http.StatusOK).json(t, &ev)
	var lines []string
	for _, x := range ev.Entries {
		lines = append(lines, x.String())
	}
	if !slices.Equal(lines, []string{"- #field", "- #rock-1", "- #wreck", "- #goblin"}) {
		t.Errorf("destroyed: %v", lines)
	}
	e.get("/api/entities/rock-1").expect(t, http.StatusNotFound)
	e.call("DELETE", "/api/entities/field", "").expect(t, http.StatusNotFound)
}

// TestPauseStep: pause stops ticking, step N runs exactly N ticks, play
// resumes. That no tick comes is checked over 20 rounds of the
// simulation goroutine (each would have ticked), not over a time.
func TestPauseStep(t *testing.T) {
	e := newEnv(t, Options{}).start()
	ticks := func() uint64 {
		var s Stats
		e.get("/api/stats").expect(t, http.StatusOK).json(t, &s)
		return s.Ticks
	}
	var st runState
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK).json(t, &st)
	if !st.Paused {
		t.Fatalf("pause: %+v", st)
	}
	t0 := ticks()
	e.waitRounds(20)
	if t1 := ticks(); t1 != t0 {
		t.Fatalf("ticks went on while paused: %d -> %d", t0, t1)
	}
	e.call("POST", "/api/step?n=3", "").expect(t, http.StatusOK)
	waitFor(t, func() string {
		if t1 := ticks(); t1 < t0+3 {
			return fmt.Sprintf("step 3: %d -> %d", t0, t1)
		}
		return ""
	})
	e.waitRounds(20)
	if t1 := ticks(); t1 != t0+3 {
		t.Fatalf("step 3: %d -> %d", t0, t1)
	}
	var s Stats
	e.get("/api/stats").json(t, &s)
	if !s.Paused {
		t.Error("stats do not say paused")
	}
	e.call("POST", "/api/step", "").expect(t, http.StatusOK) // n defaults to 1
	for _, n := range []string{"0", "-1", "x", "1000001"} {
		e.call("POST", "/api/step?n="+n, "").expect(t, http.StatusBadRequest)
	}
	e.call("POST", "/api/play", "").expect(t, http.StatusOK).json(t, &st)
	if st.Paused {
		t.Fatalf("play: %+v", st)
	}
	t2 := ticks()
	waitFor(t, func() string {
		if t3 := ticks(); t3 < t2+10 {
			return fmt.Sprintf("ticks do not resume after play: %d -> %d", t2, t3)
		}
		return ""
	})
}

// TestPauseCancelsSteps: pause and play cancel the steps a step request
// left to run, whatever their number; steps asked for in a row add up.
// (ShouldTick counted on the test's goroutine, which serves as the
// simulation goroutine: no timing.)
func TestPauseCancelsSteps(t *testing.T) {
	in := New(newRegistry(t, nil), Options{Hosts: []string{"example.com"}})
	do := func(method, target string) {
		t.Helper()
		done := make(chan int, 1)
		go func() {
			rec := httptestRecorder()
			req := httptestRequest(method, target)
			req.Header.Set("Authorization", "Bearer "+in.Token())
			in.ServeHTTP(rec, req)
			done <- rec.Code
		}()
		for {
			in.Drain()
			select {
			case code := <-done:
				if code != http.StatusOK {
					t.Fatalf("%s %s: %d", method, target, code)
				}
				return
			default:
				time.Sleep(100 * time.Microsecond)
			}
		}
	}
	ticks := func(max int) int {
		n := 0
		for n < max && in.ShouldTick() {
			n++
		}
		return n
	}
	for _, tt := range []struct {
		name string
		reqs []string
		want int // ticks then allowed, of at most 1000
	}{
		{"step then pause", []string{"step?n=1000000", "pause"}, 0},
		{"step, ticks, pause", []string{"step?n=1000000", "-500", "pause"}, 0},
		{"steps add up", []string{"pause", "step?n=5", "step?n=7"}, 12},
		{"steps up to the bound", []string{"step?n=1000000", "step?n=1000000", "-1000", "pause", "step?n=2"}, 2},
		{"play cancels", []string{"step?n=1000000", "play", "pause"}, 0},
		{"play runs", []string{"step?n=3", "play"}, 1000},
		{"pause after play", []string{"step?n=3", "play", "-10", "pause", "step"}, 1},
	} {
		for _, r := range tt.reqs {
			if k, ok := strings.CutPrefix(r, "-"); ok {
				n, _ := strconv.Atoi(k)
				if got := ticks(n); got != n {
					t.Fatalf("%s: %d ticks of %d", tt.name, got, n)
				}
				continue
			}
			do("POST", "/api/"+r)
		}
		if got := ticks(1000); got != tt.want {
			t.Errorf("%s: %d ticks, want %d", tt.name, got, tt.want)
		}
		do("POST", "/api/pause")
	}
}

// TestStats: the rate and percentiles come from the ticks observed.
func TestStats(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var s Stats
	waitFor(t, func() string {
		e.get("/api/stats").expect(t, http.StatusOK).json(t, &s)
		if s.Ticks <= 20 {
			return fmt.Sprintf("%d ticks, want 20", s.Ticks)
		}
		return ""
	})
	if s.Ticks <= 20 || s.TicksPerSecond <= 0 || s.MsPerTick.P50 <= 0 || s.MsPerTick.P99 < s.MsPerTick.P50 || s.Entities != 6 || s.Time <= 0 {
		t.Fatalf("stats: %+v", s)
	}
	// The ring by itself: 100 ticks of 1..100 ms over half a second.
	var r statsRing
	r.init(3)
	now := r.epoch
	for i := 1; i <= 100; i++ {
		now = now.Add(5 * time.Millisecond)
		r.record(now, time.Duration(i)*time.Millisecond/10, 3, 0)
	}
	got := r.snapshot(now)
	if got.Ticks != 100 || got.MsPerTick.P50 != 5 || got.MsPerTick.P99 != 9.9 || math.Abs(got.TicksPerSecond-100/0.4951) > 0.5 {
		t.Errorf("ring: %+v", got)
	}
	// Two seconds later nothing ran in the window.
	if late := r.snapshot(now.Add(2 * time.Second)); late.TicksPerSecond != 0 || late.MsPerTick.P50 != 0 || late.Ticks != 100 {
		t.Errorf("after a pause: %+v", late)
	}
}

// TestTransforms: positions and scales packed as float32, in the order
// of the matching query, NaN where a component is missing.
func TestTransforms(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK)
	r := e.get("/api/transforms?components=position,scale").expect(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "application/octet-stream" || r.header.Get("X-Layout") != "position:3,scale:3" {
		t.Fatalf("headers: %v", r.header)
	}
	var q queryResult
	e.get("/api/query?selector=[position]").json(t, &q)
	b := r.body
	n, stride, version := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint64(b[8:])
	if int(n) != q.Count || stride != 6 || version != q.Version || len(b) != 16+4*6*int(n) {
		t.Fatalf("header: n=%d stride=%d version=%d len=%d; query %+v", n, stride, version, len(b), q)
	}
	f := func(i int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b[16+4*i:])) }
	wreck := slices.Index(q.Matches, "wreck")
	gun := slices.Index(q.Matches, "ship/0")
	if got := []float32{f(6*wreck + 1), f(6*wreck + 3)}; got[0] != 15 || got[1] != 2 {
		t.Errorf("wreck y, scale x: %v", got)
	}
	if f(6*gun) != -1 || !math.IsNaN(float64(f(6*gun+3))) {
		t.Errorf("gun x %v, scale %v (want -1, NaN)", f(6*gun), f(6*gun+3))
	}
	// A property of a multi-property component, and a selector.
	r = e.get("/api/transforms?components=health.hp&selector=%23ship").expect(t, http.StatusOK)
	if binary.LittleEndian.Uint32(r.body) != 1 || math.Float32frombits(binary.LittleEndian.Uint32(r.body[16:])) != 50 {
		t.Errorf("health.hp: %v", r.body)
	}
	// A multi-property component: each property in turn, if all are
	// numeric.
	r = e.get("/api/transforms?components=health&selector=%23ship").expect(t, http.StatusOK)
	if r.header.Get("X-Layout") != "health.hp:1,health.max:1" || binary.LittleEndian.Uint32(r.body[4:]) != 2 {
		t.Errorf("health: %v %v", r.header, r.body)
	}
	for _, bad := range []string{"spawner", "nothing", "health.hq", "spin.axis,position,x", "enemy"} {
		e.get("/api/transforms?components="+bad).expect(t, http.StatusBadRequest)
	}
	e.get("/api/transforms?selector=[").expect(t, http.StatusBadRequest)
}

// TestPanicInHook: a hook that panics during a request is answered 500,
// and the simulation and the API go on.
func TestPanicInHook(t *testing.T) {
	e := newEnv(t, Options{}).start()
	msg := e.call("PUT", "/api/entities/ship/components/health", "hp: 13").expect(t, http.StatusInternalServerError).errMsg(t)
	if !strings.Contains(msg, "unlucky hp") {
		t.Errorf("500 message: %s", msg)
	}
	var s0, s1 Stats
	e.get("/api/stats").json(t, &s0)
	e.call("PUT", "/api/entities/ship/components/health", "hp: 7").expect(t, http.StatusOK)
	waitFor(t, func() string {
		e.get("/api/stats").json(t, &s1)
		if s1.Ticks < s0.Ticks+5 {
			return fmt.Sprintf("ticks stopped after the panic: %d -> %d", s0.Ticks, s1.Ticks)
		}
		return ""
	})
	// A panic while the component is added (update(zero) runs from the
	// World's observer) leaves the World usable too.
	e.call("PUT", "/api/entities/wreck/components/health", "hp: 13").expect(t, http.StatusInternalServerError)
	var locked bool
	e.sim(func() { locked = e.reg.World().Locked() })
	if locked {
		t.Error("World locked after a panic in a hook")
	}
	e.call("PUT", "/api/entities/wreck/components/scale", "3 3 3").expect(t, http.StatusOK)
}

// TestIndexAndMethods: GET / lists the endpoints; wrong methods are 405
// with Allow; unknown paths 404; all answers are JSON except / .
func TestIndexAndMethods(t *testing.T) {
	e := newEnv(t, Options{}).start()
	if r := e.get("/").expect(t, http.StatusOK); !strings.Contains(string(r.body), "/api/events") {
		t.Errorf("index: %s", r.body)
	}
	for _, tc := range []struct{ method, path, allow string }{
		{"DELETE", "/api/scene", "GET"},
		{"POST", "/api/query?selector=*", "GET"},
		{"GET", "/api/pause", "POST"},
		{"PUT", "/api/entities", "POST"},
		{"PATCH", "/api/entities/ship", "DELETE, GET"},
		{"GET", "/api/entities/ship/components/health", "DELETE, PUT"},
		{"OPTIONS", "/api/stats", "GET"},
	} {
		r := e.call(tc.method, tc.path, "").expect(t, http.StatusMethodNotAllowed)
		if r.header.Get("Allow") != tc.allow || r.errMsg(t) == "" {
			t.Errorf("%s %s: Allow %q", tc.method, tc.path, r.header.Get("Allow"))
		}
	}
	e.get("/api/nothing").expect(t, http.StatusNotFound).errMsg(t)
	// Entity paths: the component part is cut at the last /components/.
	for raw, want := range map[string][3]string{
		"/api/entities/ship/0/components/health": {"ship/0", "health", "ok"},
		"/api/entities/%23a%2Fb":                 {"#a/b", "", "ok"},
		"/api/entities/components/components/x":  {"components", "x", "ok"},
		"/api/entities/components/0":             {"components/0", "", "ok"},
		"/api/entities/a/components/":            {"a/components/", "", "ok"},
		"/api/entities/":                         {"", "", ""},
	} {
		u := &url.URL{Path: "x", RawPath: raw}
		if p, err := url.PathUnescape(raw); err == nil {
			u.Path = p
		}
		ref, comp, ok := splitEntityPath(u)
		if got := [3]string{ref, comp, map[bool]string{true: "ok"}[ok]}; got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
}

// TestSecurity: token for changes (401), Host and Origin checks (403),
// body size (413).
func TestSecurity(t *testing.T) {
	e := newEnv(t, Options{MaxBody: 64, Hosts: []string{"inspector.test", "named.test:9"}}).start()
	port := e.srv.Listener.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndex(port, ":")+1:]
	// 401 without or with a wrong token, on every change.
	for _, tc := range []struct{ method, path string }{
		{"PUT", "/api/entities/ship/components/health"},
		{"DELETE", "/api/entities/ship/components/health"},
		{"POST", "/api/entities"},
		{"DELETE", "/api/entities/ship"},
		{"POST", "/api/pause"},
		{"POST", "/api/play"},
		{"POST", "/api/step"},
	} {
		r := e.call(tc.method, tc.path, "hp: 1", "noToken: 1").expect(t, http.StatusUnauthorized)
		if r.header.Get("WWW-Authenticate") == "" || !strings.Contains(r.errMsg(t), "token") {
			t.Errorf("%s %s: %v %s", tc.method, tc.path, r.header, r.body)
		}
		e.call(tc.method, tc.path, "hp: 1", "noToken: 1", "Authorization: Bearer wrong").expect(t, http.StatusUnauthorized)
		e.call(tc.method, tc.path+"?token=wrong", "hp: 1", "noToken: 1").expect(t, http.StatusUnauthorized)
		e.call(tc.method, tc.path, "hp: 1", "noToken: 1", "Authorization: Basic "+e.in.Token()).expect(t, http.StatusUnauthorized)
	}
	// The token as a query parameter works too.
	e.call("PUT", "/api/entities/ship/components/health?token="+e.in.Token(), "hp: 9", "noToken: 1").expect(t, http.StatusOK)
	// Host: the server's own address, loopback names with its port, or
	// Options.Hosts; anything else is DNS rebinding.
	for host, want := range map[string]int{
		"127.0.0.1:" + port:               http.StatusOK,
		"localhost:" + port:               http.StatusOK,
		"LOCALHOST.:" + port:              http.StatusOK,
		"[::1]:" + port:                   http.StatusOK,
		"inspector.test":                  http.StatusOK,
		"inspector.test:1234":             http.StatusOK,
		"named.test:9":                    http.StatusOK,
		"named.test:10":                   http.StatusForbidden,
		"evil.example:" + port:            http.StatusForbidden,
		"localhost:1":                     http.StatusForbidden,
		"127.0.0.2.evil.example":          http.StatusForbidden,
		"attacker.localhost.test:" + port: http.StatusForbidden,
	} {
		r := e.call("GET", "/api/stats", "", "Host: "+host)
		if r.status != want {
			t.Errorf("Host %s: %d, want %d", host, r.status, want)
		}
		if want == http.StatusForbidden && !strings.Contains(r.errMsg(t), "host") {
			t.Errorf("Host %s: %s", host, r.body)
		}
	}
	// Origin: absent or the server's own; a cross-site page is refused,
	// even with the token.
	for origin, want := range map[string]int{
		"http://127.0.0.1:" + port: http.StatusOK,
		"http://localhost:" + port: http.StatusOK,
		"http://evil.example":      http.StatusForbidden,
		"http://127.0.0.1:1":       http.StatusForbidden,
		"null":                     http.StatusForbidden,
		"file://":                  http.StatusForbidden,
	} {
		if r := e.call("POST", "/api/play", "", "Origin: "+origin); r.status != want {
			t.Errorf("Origin %s: %d, want %d: %s", origin, r.status, want, r.body)
		}
	}
	// Bodies are bounded, with or without a length.
	big := strings.Repeat("x", 65)
	msg := e.call("PUT", "/api/entities/ship/components/health", big).expect(t, http.StatusRequestEntityTooLarge).errMsg(t)
	if !strings.Contains(msg, "64") {
		t.Errorf("413: %s", msg)
	}
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/entities", struct{ *strings.Reader }{strings.NewReader("{\"id\": \"" + big + "\"}")})
	req.Header.Set("Authorization", "Bearer "+e.in.Token())
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.ContentLength == 0 || res.StatusCode != http.StatusRequestEntityTooLarge || req.ContentLength > 0 {
		t.Errorf("chunked body: %d", res.StatusCode)
	}
	// Mounted without a listener (no local address), only Options.Hosts
	// pass.
	in := New(e.reg, Options{})
	rec := httptestRecorder()
	in.ServeHTTP(rec, httptestRequest("GET", "http://127.0.0.1/api/stats"))
	if rec.Code != http.StatusForbidden {
		t.Errorf("no local address: %d", rec.Code)
	}
	if New(e.reg, Options{}).Token() == in.Token() || len(in.Token()) != 32 {
		t.Errorf("tokens: %q", in.Token())
	}
}

// TestQueueFull: beyond MaxQueue waiting requests, 503 at once; a client
// that gives up is skipped.
func TestQueueFull(t *testing.T) {
	e := newEnv(t, Options{MaxQueue: 2}) // nothing drains
	results := make(chan int, 2)
	for _, root := range []string{"ship", "field"} { // different reads: not shared
		go func() { results <- e.status("/api/scene?root=" + root) }()
	}
	waitFor(t, func() string {
		if q := len(e.in.queue); q < 2 {
			return fmt.Sprintf("%d requests queued, want 2", q)
		}
		return ""
	})
	r := e.get("/api/query?selector=*").expect(t, http.StatusServiceUnavailable)
	if r.header.Get("Retry-After") == "" || !strings.Contains(r.errMsg(t), "too many") {
		t.Errorf("503: %v %s", r.header, r.body)
	}
	e.start()
	for range 2 {
		if s := <-results; s != http.StatusOK {
			t.Errorf("queued request: %d", s)
		}
	}
}

// TestSharedReads: identical reads that wait at once take one place in
// the queue and get one answer, made once after all of them arrived;
// another read is not joined; a read whose first client went away is
// still answered to the others.
func TestSharedReads(t *testing.T) {
	e := newEnv(t, Options{}) // nothing drains until start
	ctx, cancel := contextWithCancel()
	gone := make(chan struct{})
	go func() { // the first, which goes away
		req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/scene?root=field", nil)
		if res, err := e.srv.Client().Do(req); err == nil {
			res.Body.Close()
		}
		close(gone)
	}()
	waitFor(t, func() string {
		if len(e.in.queue) < 1 {
			return "the first read is not queued"
		}
		return ""
	})
	const n = 20
	got := make(chan resp, n+1)
	for range n {
		go func() { got <- e.get("/api/scene?root=field") }()
	}
	go func() { got <- e.get("/api/scene?root=ship") }()
	waitFor(t, func() string {
		if w := e.in.waiting(); w < n+2 {
			return fmt.Sprintf("%d requests waiting, want %d", w, n+2)
		}
		return ""
	})
	if q := len(e.in.queue); q != 2 || e.in.waiting() != n+2 {
		t.Fatalf("%d requests queued for %d waiting, want 2 for %d", q, e.in.waiting(), n+2)
	}
	cancel()
	<-gone
	e.start()
	var first string
	ships := 0
	for range n + 1 {
		r := (<-got).expect(t, http.StatusOK)
		switch {
		case strings.Contains(string(r.body), `"path":"ship"`):
			ships++
		case first == "":
			first = string(r.body)
		case string(r.body) != first:
			t.Error("joined reads got different answers")
		}
	}
	if ships != 1 || !strings.Contains(first, `"path":"field"`) {
		t.Errorf("%d answers for ship; field's: %.200s", ships, first)
	}
}

// TestFlood: while 1,000 requests wait, ticks go on: each Drain serves
// what its budget allows and leaves the rest for later ticks.
func TestFlood(t *testing.T) {
	e := newEnv(t, Options{MaxQueue: 2000, Budget: time.Nanosecond, Hosts: []string{"example.com"}})
	const n = 1000
	done := make(chan int, n)
	for i := range n {
		go func() {
			rec := httptestRecorder()
			// Each its own read (identical ones would share a place).
			e.in.ServeHTTP(rec, httptestRequest("GET", fmt.Sprintf("/api/query?full=1&selector=*&n=%d", i)))
			done <- rec.Code
		}()
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(e.in.queue) < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if len(e.in.queue) != n {
		t.Fatalf("%d requests queued, want %d", len(e.in.queue), n)
	}
	e.start()
	waitFor(t, func() string {
		if got := e.ticks(); got < 50 {
			return fmt.Sprintf("%d ticks while the requests wait, want 50", got)
		}
		return ""
	})
	// Each Drain serves at most one request here (its budget, 1 ns, is
	// spent by the first): read between two ticks, the requests answered
	// are no more than the ticks (the one a Drain has begun counted too),
	// however late the test reads them.
	var s Stats
	e.sim(func() { s = e.in.Stats() })
	if served := n - s.Queue; s.Ticks < 50 || served > int(s.Ticks)+1 {
		t.Fatalf("after %d ticks %d requests answered, %d still wait; want each tick to serve one at most", s.Ticks, served, s.Queue)
	}
	for range n {
		if code := <-done; code != http.StatusOK {
			t.Fatalf("a flooded request got %d", code)
		}
	}
}

// TestDrainSkipsGoneClients: a request whose client went away is not
// served.
func TestDrainSkipsGoneClients(t *testing.T) {
	reg := newRegistry(t, nil)
	in := New(reg, Options{})
	ctx, cancel := contextWithCancel()
	served := false
	in.queue <- &work{ctx: ctx, fn: func() reply { served = true; return okReply(nil) }, done: make(chan reply, 1)}
	cancel()
	if n := in.Drain(); n != 0 || served {
		t.Fatalf("served %d (ran: %v)", n, served)
	}
}

// TestTickWithoutRequests: Tick ticks the Registry and counts.
func TestTickWithoutRequests(t *testing.T) {
	reg := newRegistry(t, nil)
	if _, err := loader.LoadBytes(reg, "s.yaml", []byte("entities:\n  - position: 0 0 0\n    velocity: 1 0 0\n"), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	in := New(reg, Options{})
	for range 10 {
		if err := in.Tick(0.5); err != nil {
			t.Fatal(err)
		}
	}
	if s := in.Stats(); s.Ticks != 10 || s.Time != 5 || s.Entities != 1 {
		t.Fatalf("stats %+v", s)
	}
	var x ecs.Entity
	for e := range reg.World().All() {
		x = e
	}
	moved, _ := reg.Attr(x, "position")
	if moved == "0 0 0" {
		t.Fatal("ticks did not move the entity")
	}
	in.paused, in.steps = true, 2
	for range 5 {
		_ = in.Tick(0.5)
	}
	if s := in.Stats(); s.Ticks != 12 || s.Time != 6 {
		t.Fatalf("paused with 2 steps: %+v", s)
	}
}

// TestClose: after Close, waiting and new requests get 503.
func TestClose(t *testing.T) {
	e := newEnv(t, Options{})
	got := make(chan int, 1)
	go func() { got <- e.status("/api/scene") }()
	waitFor(t, func() string {
		if len(e.in.queue) < 1 {
			return "the request is not queued"
		}
		return ""
	})
	e.in.Close()
	if s := <-got; s != http.StatusServiceUnavailable {
		t.Errorf("waiting request after Close: %d", s)
	}
	e.get("/api/scene").expect(t, http.StatusServiceUnavailable)
}

// TestPaths: naming (and labelling) many entities at once gives what
// export.EntityPath (and label) gives each, for unnamed roots, named and
// unnamed children, at depth.
func TestPaths(t *testing.T) {
	var b strings.Builder
	b.WriteString("entities:\n")
	for i := range 5 {
		if i == 2 {
			b.WriteString("  - id: named\n")
		} else {
			b.WriteString("  - position: 0 0 0\n")
		}
		b.WriteString("    children:\n")
		for j := range 6 {
			if j == 3 {
				fmt.Fprintf(&b, "      - id: c%d\n", i)
			} else {
				b.WriteString("      - enemy:\n")
			}
			b.WriteString("        children:\n          - alive:\n          - alive:\n")
		}
	}
	reg := newRegistry(t, nil)
	if _, err := loader.LoadBytes(reg, "s.yaml", []byte(b.String()), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	in := New(reg, Options{})
	var es []ecs.Entity
	for e := range reg.World().All() {
		es = append(es, e)
	}
	slices.Reverse(es) // any order
	got, labels := in.paths(es), in.labels(es)
	for i, e := range es {
		if want := export.EntityPath(reg, e); got[i] != want {
			t.Errorf("%v: %q, want %q", e, got[i], want)
		}
		if want := in.label(e); labels[i] != want {
			t.Errorf("%v: label %q, want %q", e, labels[i], want)
		}
	}
	if len(es) != 95 || !slices.Contains(got, "4/5/1") || !slices.Contains(got, "c2/0") {
		t.Errorf("%d entities: %v", len(es), got)
	}
}
