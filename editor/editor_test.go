package editor

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

// label is a component holding one string: edits of it make the
// history as large as the strings are.
type label struct {
	Text string `scene:"text"`
}

// newEditor loads scene (YAML) with the built-ins and label, and returns
// an Editor of it with opt.
func newEditor(t *testing.T, scene string, opt Options) (*Editor, *registry.Registry) {
	t.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := registry.Register[label](reg, "label", registry.Definition[label]{}); err != nil {
		t.Fatal(err)
	}
	if _, err := loader.LoadBytes(reg, "scene.yaml", []byte(scene), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	return New(reg, opt), reg
}

// apply applies c and fails the test on an error.
func apply(t *testing.T, ed *Editor, c Command) *Result {
	t.Helper()
	res, err := ed.Apply(c)
	if err != nil {
		t.Fatalf("%+v: %v", c.Line(), err)
	}
	return res
}

// text makes a label attribute of n bytes starting with tag.
func text(tag string, n int) string {
	return "text: " + tag + strings.Repeat("x", n-len(tag))
}

// checkHistory checks the history's own invariants: its bytes are the
// sum of its entries', within the bound, its seqs consecutive.
func checkHistory(t *testing.T, ed *Editor) History {
	t.Helper()
	h := ed.History()
	sum := int64(0)
	for i, x := range ed.hist.entries {
		sum += x.bytes
		if i > 0 && x.Seq != ed.hist.entries[i-1].Seq+1 {
			t.Fatalf("entry %d has seq %d after %d", i, x.Seq, ed.hist.entries[i-1].Seq)
		}
	}
	if h.Bytes != sum || h.Bytes > ed.opt.MaxHistoryBytes || len(h.Entries) > ed.opt.MaxHistory {
		t.Fatalf("history: %d entries, %d bytes (entries sum %d), bounds %d and %d", len(h.Entries), h.Bytes, sum, ed.opt.MaxHistory, ed.opt.MaxHistoryBytes)
	}
	return h
}

// TestHistoryDropsOldest: edits of a large value keep the history within
// MaxHistoryBytes by dropping the oldest entries; undo goes back as far
// as it kept, then says why it stops.
func TestHistoryDropsOldest(t *testing.T) {
	const bound, size, edits = 1 << 20, 100 << 10, 40
	ed, reg := newEditor(t, "entities:\n  - id: sign\n    label: \"text: first\"\n", Options{MaxHistoryBytes: bound})
	for i := range edits {
		apply(t, ed, &Set{Ref: "sign", Component: "label", Attr: text(fmt.Sprintf("%02d", i), size)})
		checkHistory(t, ed)
	}
	h := checkHistory(t, ed)
	// Each entry holds the value it replaced and the one it set: about
	// 200 KiB, so that 1 MiB keeps four.
	if len(h.Entries) < 3 || len(h.Entries) > 5 || h.Dropped != edits-len(h.Entries) || h.Entries[0].Seq != h.Dropped+1 {
		t.Fatalf("after %d edits of %d KiB: %d entries, %d dropped, first seq %d", edits, size>>10, len(h.Entries), h.Dropped, h.Entries[0].Seq)
	}
	for range h.Entries {
		apply(t, ed, Undo{})
	}
	_, err := ed.Apply(Undo{})
	var e *Error
	want := fmt.Sprintf("nothing to undo: the history dropped its %d oldest changes, keeping at most 1000 changes (MaxHistory) and 1 MiB of what they hold (MaxHistoryBytes)", h.Dropped)
	if !errors.As(err, &e) || e.Kind != Nothing || e.Msg != want {
		t.Fatalf("undo past the dropped entries: %v, want %q", err, want)
	}
	s, _ := reg.EntityByID("sign")
	if got, _ := reg.Attr(s, "label"); got != text(fmt.Sprintf("%02d", h.Dropped-1), size) {
		t.Errorf("undone as far as kept, the label is %.12q...", got)
	}
}

// TestHistoryDropsUndoneTail: an undo that takes a large snapshot (of
// the entity a creation made) keeps the history within its bound too:
// with every entry undone, the newest undone go first, so that redo
// goes on in order as far as it can, then says why it stops.
func TestHistoryDropsUndoneTail(t *testing.T) {
	const bound, size = 256 << 10, 200 << 10
	ed, _ := newEditor(t, "entities:\n  - id: a\n", Options{MaxHistoryBytes: bound})
	for _, id := range []string{"b1", "b2"} {
		body, _ := json.Marshal(map[string]any{"id": id, "components": map[string]string{"label": text(id, size)}})
		apply(t, ed, &Create{Body: body})
		checkHistory(t, ed)
	}
	apply(t, ed, Undo{}) // b2 destroyed: its entry holds its snapshot
	if h := checkHistory(t, ed); len(h.Entries) != 2 || h.Bytes < size {
		t.Fatalf("after one undo: %d entries, %d bytes", len(h.Entries), h.Bytes)
	}
	apply(t, ed, Undo{}) // b1's snapshot too: over the bound, b2's entry goes
	if h := checkHistory(t, ed); len(h.Entries) != 1 || h.Entries[0].Summary != "create #b1" || !h.Entries[0].Undone {
		t.Fatalf("after two undos: %+v", h.Entries)
	}
	apply(t, ed, Redo{})
	_, err := ed.Apply(Redo{})
	if err == nil || !strings.HasPrefix(err.Error(), "nothing to redo: the history dropped its 1 newest undone changes") {
		t.Fatalf("redo past the dropped entry: %v", err)
	}
	if _, ok := ed.reg.EntityByID("b1"); !ok {
		t.Error("b1 not made again by redo")
	}
	// A new command clears what the redo history dropped.
	apply(t, ed, &Set{Ref: "a", Component: "label", Attr: "text: a"})
	if _, err := ed.Apply(Redo{}); err == nil || err.Error() != "nothing to redo" {
		t.Errorf("redo after a new command: %v", err)
	}
}

// TestHistoryMaxEntries: the history keeps at most MaxHistory entries,
// and forgets the slots of the entities only the dropped entries named.
func TestHistoryMaxEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString("entities:\n")
	const n = 3000
	for i := range n {
		fmt.Fprintf(&b, "  - id: e%d\n", i)
	}
	var last HistoryEvent
	ed, _ := newEditor(t, b.String(), Options{MaxHistory: 10, Publish: func(event string, data any) {
		if ev, ok := data.(HistoryEvent); ok {
			last = ev
		}
	}})
	most := 0
	for i := range n {
		apply(t, ed, &Set{Ref: fmt.Sprint("e", i), Component: "position", Attr: "1 2 3"})
		most = max(most, len(ed.hist.slots))
	}
	h := checkHistory(t, ed)
	if len(h.Entries) != 10 || h.Dropped != n-10 || last.Dropped != h.Dropped {
		t.Errorf("%d entries, %d dropped (the last history event says %d)", len(h.Entries), h.Dropped, last.Dropped)
	}
	if most > 1100 {
		t.Errorf("the history held %d slots at most, for %d entries", most, len(h.Entries))
	}
	for range 10 {
		apply(t, ed, Undo{})
	}
	if _, err := ed.Apply(Undo{}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("dropped its %d oldest changes", n-10)) {
		t.Errorf("undo past the kept entries: %v", err)
	}
}

// TestLineRoundTrip: every op's journal line decodes to a command whose
// line is the same JSON: the journal keeps its format.
func TestLineRoundTrip(t *testing.T) {
	for _, text := range []string{
		`{"tick":1,"op":"set","ref":"ship","component":"velocity","attr":"0 1 0"}`,
		`{"tick":1,"op":"set","ref":"lift","component":"position","property":"xz","attr":"4 5","save":true}`,
		`{"tick":1,"op":"remove","ref":"ship","component":"velocity","save":true}`,
		`{"tick":1,"op":"create","body":{"parent":"field","id":"rock-9","components":{"position":"1 2 3"}}}`,
		`{"tick":6,"op":"clone","ref":"rock-1","id":"rock-x"}`,
		`{"tick":6,"op":"reparent","ref":"wreck","parent":"ship"}`,
		`{"tick":6,"op":"reparent","ref":"wreck"}`,
		`{"tick":6,"op":"emit","ref":"ship","event":"hit","detail":{"damage":3},"noBubbles":true}`,
		`{"tick":6,"op":"emit","ref":"ship","event":"hit","detail":null}`,
		`{"tick":7,"op":"revert","ref":"r1","component":"spin","property":"speed"}`,
		`{"tick":7,"op":"apply","ref":"r1","component":"spin","save":true}`,
		`{"tick":7,"op":"variant","ref":"r1","save":true,"name":"rock-fast"}`,
		`{"tick":16,"op":"destroy","ref":"rock-1"}`,
		`{"tick":16,"op":"undo"}`,
		`{"tick":16,"op":"redo"}`,
	} {
		var l Line
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			t.Fatal(err)
		}
		c, err := Decode(l)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		back := c.Line()
		back.Tick = l.Tick
		if b, _ := json.Marshal(back); string(b) != text {
			t.Errorf("%s decodes and writes back as\n%s", text, b)
		}
	}
	for _, op := range []string{"reload", "end", "teleport"} {
		var e *Error
		if _, err := Decode(Line{Op: op}); !errors.As(err, &e) || e.Kind != Invalid {
			t.Errorf("Decode %s: %v", op, err)
		}
	}
}

// TestValueBytes: values count what they hold.
func TestValueBytes(t *testing.T) {
	type inner struct {
		Name string
		Tags []string
	}
	type holder struct {
		A    any
		In   inner
		P    *[1 << 10]byte
		M    map[string]string
		Arr  [2]string
		Nums []float64
	}
	h := holder{A: strings.Repeat("a", 100), In: inner{Name: "abc", Tags: []string{"xy", "z"}}, P: new([1 << 10]byte),
		M: map[string]string{"k": "vvvv"}, Arr: [2]string{"12345", ""}, Nums: make([]float64, 10)}
	for _, tc := range []struct {
		v    any
		want int64
	}{
		{nil, 0},
		{int64(3), 8},
		{"hello", 16 + 5},
		{[]string{"ab", "cd"}, 24 + 2*16 + 4},
		// the holder's own size, then what it holds: the string behind
		// A (its header and bytes), the name, the tags' array and bytes,
		// the pointer's target (not what it points to), the map's
		// entries, the array's string, the numbers.
		{h, sizeOfHolder + (16 + 100) + 3 + (2*16 + 3) + 1<<10 + (32 + 5) + 5 + 80},
	} {
		if got := valueBytes(tc.v); got != tc.want {
			t.Errorf("%T: %d bytes, want %d", tc.v, got, tc.want)
		}
	}
}

// sizeOfHolder is the size of TestValueBytes's holder on 64-bit
// platforms: any (16), inner (16+24), pointer (8), map (8), [2]string
// (32), slice (24).
const sizeOfHolder = 16 + 40 + 8 + 8 + 32 + 24
