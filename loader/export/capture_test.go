package export_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/scenes"
)

// TestJSONCaptureSteps: a dump captured in many steps (a few entities
// each) is WriteJSON's byte for byte when the World does not change in
// between, for every example scene, whole and as a subtree; formatting
// it twice writes it twice the same.
func TestJSONCaptureSteps(t *testing.T) {
	names, err := fs.Glob(scenes.FS, "*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	for _, name := range names {
		reg := newTestRegistry(t)
		if _, err := loader.Load(reg, scenes.FS, name, loader.Options{}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			_ = reg.Tick(1.0 / 60)
		}
		opts := []export.Options{{}, {Flat: true}}
		for e := range reg.World().All() {
			if len(reg.World().Children(e)) > 0 {
				opts = append(opts, export.Options{Root: e})
				break
			}
		}
		for _, opt := range opts {
			var want bytes.Buffer
			if err := export.WriteJSON(&want, reg, opt); err != nil {
				t.Fatal(err)
			}
			c := export.NewJSONCapture(reg, opt)
			steps := 1
			for !c.Capture(time.Now().Add(-time.Second)) { // the clock is always past: one slice per call
				steps++
			}
			for range 2 {
				var got bytes.Buffer
				if _, err := c.WriteTo(&got); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Fatalf("%s %+v: captured in %d steps:\n%.2000s\nwant\n%.2000s", name, opt, steps, got.String(), want.String())
				}
			}
			if n := reg.World().Len(); opt.Root.IsZero() && n > 2*export.CaptureEvery && steps < n/export.CaptureEvery {
				t.Errorf("%s: %d entities captured in %d steps", name, n, steps)
			}
		}
	}
}

// TestJSONCaptureAcrossChanges: entities destroyed between steps are left
// out with their subtrees, and the dump still reads back; values are
// those of each entity's step; WriteTo before the capture is done fails.
func TestJSONCaptureAcrossChanges(t *testing.T) {
	reg := newTestRegistry(t)
	src := "entities:\n"
	for i := range 200 {
		src += "  - position: 0 0 0\n    children:\n      - position: 1 1 1\n"
		_ = i
	}
	if _, err := loader.LoadBytes(reg, "s.yaml", []byte(src), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	w := reg.World()
	var roots []ecs.Entity
	for e := range w.All() {
		if _, ok := w.Parent(e); !ok {
			roots = append(roots, e)
		}
	}
	c := export.NewJSONCapture(reg, export.Options{})
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err == nil {
		t.Error("WriteTo before the capture is done")
	}
	c.Capture(time.Now().Add(-time.Second))
	for i, e := range roots { // the last ones are not copied yet
		if i >= 150 && i%2 == 0 {
			if err := w.Destroy(e); err != nil {
				t.Fatal(err)
			}
		} else if i >= 150 {
			if err := reg.Set(e, "position", "7 7 7"); err != nil {
				t.Fatal(err)
			}
		}
	}
	for !c.Capture(time.Time{}) {
	}
	b.Reset()
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	doc, err := scenefile.ReadJSON("dump.json", b.Bytes(), scenefile.Limits{})
	if err != nil {
		t.Fatalf("the dump does not read back: %v", err)
	}
	if len(doc.Entities) != 175 {
		t.Errorf("%d roots, want 175", len(doc.Entities))
	}
	var dump struct {
		Entities []struct {
			Path       string
			Components map[string]json.RawMessage
		}
	}
	if err := json.Unmarshal(b.Bytes(), &dump); err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, e := range dump.Entities {
		if strings.Contains(string(e.Components["position"]), `"x":7`) {
			moved++
		}
	}
	if len(dump.Entities) != 350 || moved != 25 {
		t.Errorf("%d entities, %d moved; want 350 and 25", len(dump.Entities), moved)
	}
}

// TestAppendJSONString: strings are written exactly as encoding/json
// writes them (the dump's format before it was written by hand):
// escapes, HTML characters, control characters, invalid UTF-8, U+2028.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", "ship/0", `q"uote`, `back\slash`, "<a>&b", "tab\there", "nl\n", "\x00\x1f\x7f",
		"héllo", "日本", "\u2028\u2029", "bad\xffutf8", "emoji 🚀", strings.Repeat("x", 300)}
	for i := range 256 {
		cases = append(cases, string(rune(i)), "a"+string([]byte{byte(i)})+"b")
	}
	for _, s := range cases {
		want, _ := json.Marshal(s)
		if got := scenefile.AppendJSONString([]byte("pre"), s); string(got) != "pre"+string(want) {
			t.Errorf("%q: %s, want %s", s, got[3:], want)
		}
	}
}
