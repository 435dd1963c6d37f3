package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// browserBehaviourScene has one entity with each behaviour component: a
// long animation, a binding, a timer that beats five times a second, and
// a handler of ping.
const browserBehaviourScene = `components:
  note: {type: string}
entities:
  - id: box
    position: 0 0 0
    note: none
    animation: "property: position.x; to: 5; dur: 600000; easing: linear"
    bind: "position.y: sin(time) * 2"
    timer: "delay: 200; repeat: true; event: beat"
    on__ping: "set: note = 'pinged ' + string(detail.n)"
`

// writeScene writes text into a temporary scene file and returns its
// path.
func writeScene(t *testing.T, name, text string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestBrowserBehaviour: the panel shows the selected entity's running
// animation (its progress moving), binding (its value moving), timer and
// handler; its "send event" field emits an event with a JSON detail that
// the handler reacts to, a bad detail shows the API's message; the event
// log shows the events as they fire, and its filter keeps those of one
// name.
func TestBrowserBehaviour(t *testing.T) {
	file := writeScene(t, "behave.yaml", browserBehaviourScene)
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", file)
	p.click(`#tree-list .row[data-ref="box"]`)
	anim := `#panel .behaviour .run.anim`
	p.waitJS(`document.querySelector('` + anim + ` progress')`)
	var first float64
	p.eval(`document.querySelector('`+anim+` progress').value`, &first)
	p.waitJS(fmt.Sprintf(`document.querySelector('%s progress').value > %v`, anim, first))
	var text string
	p.eval(`document.querySelector('`+anim+` span').textContent`, &text)
	if !strings.HasPrefix(text, "animation position.x · running · ") {
		t.Errorf("animation row %q", text)
	}
	bind := `#panel .behaviour .run.binding span`
	p.waitJS(`document.querySelector('` + bind + `')`)
	p.eval(`document.querySelector('`+bind+`').textContent`, &text)
	if !strings.HasPrefix(text, "bind position.y = sin(time) * 2 → ") {
		t.Fatalf("binding row %q", text)
	}
	p.waitJS(fmt.Sprintf(`document.querySelector('%s').textContent !== %q`, bind, text)) // the value moves
	p.waitJS(`[...document.querySelectorAll('#panel .behaviour .run.timer span')].some(s => /^timer → beat · fired [1-9]/.test(s.textContent))`)
	handler := `#panel .behaviour .run.handler span`
	p.waitJS(`document.querySelector('` + handler + `') && document.querySelector('` + handler + `').textContent === 'on__ping on ping · fired 0'`)

	p.typeInto(`#panel .send-event input[name=event]`, "ping")
	p.typeInto(`#panel .send-event input[name=detail]`, `{"n": 7}`)
	p.click(`#panel .send-event button`)
	p.waitJS(`document.querySelector('#panel .send-msg').textContent === 'sent ping to #box'`)
	p.waitJS(`document.querySelector('` + handler + `').textContent === 'on__ping on ping · fired 1'`)
	var box struct {
		Components []struct{ Name, Attr string }
	}
	p.api("/api/entities/box", &box)
	for _, c := range box.Components {
		if c.Name == "note" && c.Attr != "pinged 7" {
			t.Errorf("note %q after the ping", c.Attr)
		}
	}
	p.typeInto(`#panel .send-event input[name=detail]`, `{"n": `)
	p.click(`#panel .send-event button`)
	p.waitJS(`document.querySelector('#panel .send-msg.error')`)
	p.eval(`document.querySelector('#panel .send-msg').textContent`, &text)
	if code, ans := p.post("POST", "/api/entities/box/events/ping", `{"n": `); code != http.StatusBadRequest || text != ans["error"] {
		t.Errorf("shown %q; the API says %d %q", text, code, ans["error"])
	}

	// The event log: the beats, the ping with its detail; filtered.
	p.waitJS(`document.querySelector('#events-list li[data-name="ping"]') && document.querySelector('#events-list li[data-name="beat"]:not([hidden])')`)
	p.eval(`document.querySelector('#events-list li[data-name="ping"]').textContent`, &text)
	if !strings.Contains(text, "ping#box{\"n\":7}") {
		t.Errorf("the ping's line %q", text)
	}
	p.typeInto(`#events-filter`, "ping")
	p.waitJS(`[...document.querySelectorAll('#events-list li:not([hidden])')].every(li => li.dataset.name === 'ping')`)
	seen := 0
	p.eval(`inspector.events.seen`, &seen)
	p.waitJS(fmt.Sprintf(`inspector.events.seen > %d`, seen+3)) // beats go on arriving, hidden
	var shown []string
	p.eval(`[...document.querySelectorAll('#events-list li:not([hidden])')].map(li => li.dataset.name)`, &shown)
	if len(shown) != 1 || shown[0] != "ping" {
		t.Errorf("with the filter, the log shows %v", shown)
	}
	p.eval(`((el) => { el.value = ''; el.dispatchEvent(new Event('input')); return true })(document.querySelector('#events-filter'))`, new(bool))
	p.waitJS(`document.querySelector('#events-list li[data-name="beat"]:not([hidden])')`)
}

// TestBrowserBehaviourSave: a handler edited in the panel, with "save to
// file" on, runs at once and is saved into the scene file, as any
// component's value is.
func TestBrowserBehaviourSave(t *testing.T) {
	file := writeScene(t, "behave.yaml", browserBehaviourScene)
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", file)
	p.click(`#tree-list .row[data-ref="box"]`)
	field := `#panel .comp[data-name="on__ping"] .prop input`
	p.waitJS(`document.querySelector('` + field + `')`)
	p.click("#save-edits")
	p.waitJS(`inspector.save.on`)
	p.typeInto(field, "set: note = 'got ' + string(detail.n * 2)\n")
	want := strings.Replace(browserBehaviourScene, `"set: note = 'pinged ' + string(detail.n)"`, `"set: note = 'got ' + string(detail.n * 2)"`, 1)
	p.eventually("the saved handler", func() error {
		if got, _ := os.ReadFile(file); string(got) != want {
			return fmt.Errorf("the file:\n%s\nwant\n%s", got, want)
		}
		return nil
	})
	if code, ans := p.post("POST", "/api/entities/box/events/ping", `{"n": 4}`); code != http.StatusOK {
		t.Fatalf("ping: %d %v", code, ans)
	}
	var box struct {
		Components []struct{ Name, Attr string }
	}
	p.api("/api/entities/box", &box)
	for _, c := range box.Components {
		if c.Name == "note" && c.Attr != "got 8" {
			t.Errorf("note %q: the edited handler did not run", c.Attr)
		}
	}
	// A value that does not compile is refused where it is wrong.
	p.typeInto(field, "set: nte = 1\n")
	p.waitJS(`document.querySelector('#panel .comp[data-name="on__ping"] .err').textContent !== ''`)
	var msg string
	p.eval(`document.querySelector('#panel .comp[data-name="on__ping"] .err').textContent`, &msg)
	if !strings.Contains(msg, `on__ping: invalid value "nte": expected the name of a component (did you mean "note"?)`) {
		t.Errorf("the refusal shown: %q", msg)
	}
}

// TestBrowserEventLogBatches: events that arrive together go on the page
// together, in one change of the list (a scene can fire hundreds a
// second), newest first, the list kept to its length (the scene's own
// events may come in the same batch or the next).
func TestBrowserEventLogBatches(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	var got struct {
		Changes int
		First   string
		Items   int
	}
	var n int
	p.eval(`(() => {
		const list = document.querySelector('#events-list');
		window.listChanges = 0;
		new MutationObserver((rs) => { window.listChanges += rs.filter(r => [...r.addedNodes].some(li => li.dataset.name === 'burst')).length; }).observe(list, { childList: true });
		for (let i = 0; i < 400; i++) inspector.events.add({ name: 'burst', entity: '#x', ref: 'x', time: i, detail: null });
		return list.querySelectorAll('li[data-name="burst"]').length;
	})()`, &n)
	if n != 0 {
		t.Errorf("%d events on the page at once, before the batch", n)
	}
	p.waitJS(`document.querySelector('#events-list li[data-name="burst"]')`)
	time.Sleep(300 * time.Millisecond) // no second batch comes
	p.eval(`({changes: window.listChanges, first: document.querySelector('#events-list li[data-name="burst"] time').textContent,
		items: document.querySelector('#events-list').children.length})`, &got)
	if got.Changes != 1 || got.First != "399.00s" || got.Items != 300 {
		t.Errorf("400 events at once: %d changes of the list (want 1), newest %q, %d items (want 300)", got.Changes, got.First, got.Items)
	}
}
