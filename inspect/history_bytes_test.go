package inspect

import (
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// label is a component holding one string, as large as a request body
// may be: edits of it make the history large.
type label struct {
	Text string `scene:"text"`
}

// historyBytes is the part of GET /api/history this test reads.
type historyBytes struct {
	Cursor  int   `json:"cursor"`
	Bytes   int64 `json:"bytes"`
	Dropped int   `json:"dropped"`
	Entries []struct {
		Seq int `json:"seq"`
	} `json:"entries"`
}

// heapInUse is the heap's live bytes after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestHistoryBytesBound: the history is bounded in bytes, not only in
// entries (issue 32: 2,200 edits of a 1 MiB label held 2.27 GB). Many
// edits of a large value keep the history's own count of its bytes
// under Options.MaxHistoryBytes, the heap does not grow with the edits,
// and an undo past the dropped entries says why it stops.
func TestHistoryBytesBound(t *testing.T) {
	const bound = 2 << 20
	const edits, size = 160, 256 << 10 // 40 MiB of values, 80 with the values they replaced
	e := newEnvWith(t, Options{MaxHistoryBytes: bound}, func(reg *registry.Registry) (*live.Scene, error) {
		if _, err := registry.Register[label](reg, "label", registry.Definition[label]{}); err != nil {
			return nil, err
		}
		return loader.LoadBytes(reg, "scene.yaml", []byte("entities:\n  - id: sign\n    label: \"text: hello\"\n"), loader.Options{})
	}).start()
	var h historyBytes
	before := heapInUse()
	for i := range edits {
		text := "text: " + fmt.Sprintf("%04d", i) + strings.Repeat("x", size-4)
		e.call("PUT", "/api/entities/sign/components/label", text).expect(t, http.StatusOK)
		if i%20 == 19 {
			e.get("/api/history").expect(t, http.StatusOK).json(t, &h)
			if h.Bytes > bound || h.Bytes <= 0 {
				t.Fatalf("after %d edits the history counts %d bytes, bound %d", i+1, h.Bytes, bound)
			}
		}
	}
	grown := int64(heapInUse()) - int64(before)
	t.Logf("the heap grew by %.1f MiB over %d edits of %d KiB (bound %d MiB)", float64(grown)/(1<<20), edits, size>>10, bound>>20)
	e.get("/api/history").expect(t, http.StatusOK).json(t, &h)
	if h.Dropped == 0 || len(h.Entries)+h.Dropped != edits || len(h.Entries) == 0 || h.Entries[0].Seq != h.Dropped+1 {
		t.Fatalf("history after %d edits: %d entries, %d dropped, first %+v", edits, len(h.Entries), h.Dropped, h.Entries[:1])
	}
	// Unbounded, the history would hold the 160 values (40 MiB, the
	// values each replaced being the one before); bounded, about 2 MiB.
	if limit := int64(16 << 20); grown > limit {
		t.Errorf("the heap grew by %d MiB over %d edits of %d KiB (bound %d MiB)", grown>>20, edits, size>>10, bound>>20)
	}
	// Undo goes back as far as the history kept, then says why it stops.
	undone := 0
	for ; undone <= edits; undone++ {
		r := e.call("POST", "/api/undo", "")
		if r.status == http.StatusConflict {
			msg := r.errMsg(t)
			if !strings.Contains(msg, "nothing to undo") || !strings.Contains(msg, fmt.Sprint(h.Dropped)) || !strings.Contains(msg, "MaxHistoryBytes") {
				t.Errorf("undo past the dropped entries: %q", msg)
			}
			break
		}
		r.expect(t, http.StatusOK)
	}
	if undone != len(h.Entries) {
		t.Errorf("%d undos, want the %d entries kept", undone, len(h.Entries))
	}
	var got string
	e.sim(func() {
		s, _ := e.reg.EntityByID("sign")
		got, _ = e.reg.Attr(s, "label")
	})
	if want := fmt.Sprintf("%04d", edits-len(h.Entries)-1); !strings.HasPrefix(got, "text: "+want) {
		t.Errorf("after every undo the label starts %.8q, want %s", got, want)
	}
}
