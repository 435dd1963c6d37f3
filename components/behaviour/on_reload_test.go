package behaviour_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

const reloadV1 = `components:
  score: {type: int}
entities:
  - id: a
    score: 0
    position: 0 0 0
    animation: "property: position.x; to: 10; dur: 1000; easing: linear"
    on__hit: "set: score = score + 1"
    bind: "position.y: time"
    event-set__ping: "_event: ping; color: red"
`

// TestOnBindLiveEdits: saving edits of a running scene through
// live.Reloader re-binds on, bind and event-set without losing what the
// edit did not touch (the animation's elapsed time, the handler's count
// of firings); a broken expression is a broken save, at file:line:col,
// the running scene unchanged; the next good save applies.
func TestOnBindLiveEdits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "scene.yaml")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(reloadV1)
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	mustOK(t, err)
	sc, err := loader.LoadFile(reg, file, loader.Options{})
	mustOK(t, err)
	rl := &live.Reloader{Scene: sc, File: file, Recheck: -1}
	w := &world{t: t, reg: reg, sc: sc}
	a := w.e("a")
	w.tick(30)
	w.emit("a", "hit", nil)

	// Edit the handler's action and the binding; the animation stays.
	v2 := strings.Replace(strings.Replace(reloadV1, "score + 1", "score + 10", 1), "position.y: time", "position.y: time * 2", 1)
	write(v2)
	if _, err := rl.Reload(); err != nil {
		t.Fatal(err)
	}
	w.tick(6)
	w.emit("a", "hit", nil)
	if got := w.attr("a", "score"); got != "11" {
		t.Errorf("score %s: the edited handler should add 10 after the first hit's 1", got)
	}
	if got := w.attr("a", "position"); got != "6 1.2 0" {
		t.Errorf("position %s, want 6 1.2 0: the animation kept its 36 ticks, the binding is time*2", got)
	}
	if hs := b.Handlers.Of(a); len(hs) != 1 || hs[0].Fired != 2 || hs[0].Value != "set: score = score + 10" {
		t.Errorf("handlers %+v: the count of firings was lost, or the value not taken", hs)
	}

	// A broken expression in the handler, then in the binding: the save
	// fails where the error is, and nothing changes.
	for _, bad := range []struct{ from, to, at string }{
		{"score + 10", "scor + 10", "8:28: on__hit: set score: unknown name \"scor\" (did you mean \"score\"?)"},
		{"time * 2", "time *", "9:30: bind: position.y: unexpected end of the expression"},
		{"_event: ping", "_event: ping; colr: red", "10:37: event-set__ping: invalid value \"colr\""},
	} {
		write(strings.Replace(v2, bad.from, bad.to, 1))
		_, err := rl.Reload()
		if err == nil || !strings.Contains(err.Error(), file+":"+bad.at) {
			t.Errorf("broken save: %v\nwant %s:%s", err, file, bad.at)
		}
		w.tick(6)
	}
	w.emit("a", "hit", nil)
	w.emit("a", "ping", nil)
	if got := w.attr("a", "score"); got != "21" {
		t.Errorf("score %s after the broken saves: the handler changed", got)
	}
	if got := w.attr("a", "position"); got != "9 1.8 0" {
		t.Errorf("position %s, want 9 1.8 0 after the broken saves", got)
	}
	if got := w.attr("a", "color"); got != "#ff0000" {
		t.Errorf("color %s: the event-set changed", got)
	}
	// The next good save applies.
	write(strings.Replace(v2, "score + 10", "score + 100", 1))
	if _, err := rl.Reload(); err != nil {
		t.Fatal(err)
	}
	w.emit("a", "hit", nil)
	if got := w.attr("a", "score"); got != "121" {
		t.Errorf("score %s after the good save", got)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}

// TestOnBindRedeclared: a reload that declares a component anew (a
// property added before the one read) leaves the handlers and bindings
// that name it working on the new schema, though their own values did
// not change.
func TestOnBindRedeclared(t *testing.T) {
	const v1 = `components:
  stats: {hp: {type: number, default: 10}}
entities:
  - id: a
    stats: {hp: 10}
    position: 0 0 0
    on__hit: "set: stats.hp = stats.hp - 1"
    bind: "position.x: stats.hp"
`
	reg := newRegistry(t)
	sc, err := loader.LoadBytes(reg, "scene.yaml", []byte(v1), loader.Options{})
	mustOK(t, err)
	w := &world{t: t, reg: reg, sc: sc}
	w.emit("a", "hit", nil)
	w.tick(1)
	reload(t, sc, strings.Replace(v1, "stats: {hp: {type: number, default: 10}}", "stats: {mp: {type: number, default: 7}, hp: {type: number, default: 10}}", 1))
	w.emit("a", "hit", nil)
	w.tick(1)
	if got := w.attr("a", "stats"); got != "mp: 7; hp: 8" {
		t.Errorf("stats %s after two hits across the redeclaration", got)
	}
	if got := w.attr("a", "position"); got != "8 0 0" {
		t.Errorf("position %s: the binding did not follow the new schema", got)
	}
	if e := w.errs(); e != "" {
		t.Errorf("errors: %s", e)
	}
}
