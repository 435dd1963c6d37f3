package rooms

import (
	"context"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/scenes"
)

// TestSnapshotResumesExamples: each example scene, snapshotted at tick 20
// and resumed, runs on as the original does for 30 ticks. (The order of
// the dump's "components" section, the declarations and tags, may
// differ: a resumed room declares its mixins' components first.)
func TestSnapshotResumesExamples(t *testing.T) {
	for _, name := range []string{"cubes.yaml", "asteroids.yaml", "authoring.yaml", "behaviour.yaml"} {
		t.Run(name, func(t *testing.T) {
			h := NewHost(HostOptions{})
			defer h.Close()
			orig, err := h.Create(context.Background(), Spec{ID: "orig", FS: scenes.FS, File: name, Hz: 200})
			if err != nil {
				t.Fatal(err)
			}
			pause(t, orig)
			orig.Request("POST", "/api/step?n=20", nil)
			waitTick(t, orig, 20)
			snap, err := orig.Snapshot(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.Create(context.Background(), Spec{ID: "resumed", Snapshot: snap, Hz: 200})
			if err != nil {
				t.Fatal(err)
			}
			pause(t, res)
			var dumps [2]string
			for i, r := range []*Room{orig, res} {
				r.Request("POST", "/api/step?n=30", nil)
				waitTick(t, r, snap.Tick+30)
				s, err := r.Snapshot(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				dumps[i] = withoutDecls(string(s.Dump))
			}
			if dumps[0] != dumps[1] {
				t.Errorf("30 ticks after the snapshot, the original and the resumed room differ")
				for i := range min(len(dumps[0]), len(dumps[1])) {
					if dumps[0][i] != dumps[1][i] {
						t.Logf("first difference at byte %d:\n%s\n%s", i, dumps[0][max(0, i-300):min(len(dumps[0]), i+200)], dumps[1][max(0, i-300):min(len(dumps[1]), i+200)])
						break
					}
				}
			}
		})
	}
}

// withoutDecls returns a JSON dump without its "components" section.
func withoutDecls(dump string) string {
	for _, key := range []string{`,"prefabs":`, `,"entities":`} {
		if i := strings.Index(dump, key); i >= 0 {
			return dump[i:]
		}
	}
	return dump
}
