package edit

import (
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// countSpecs counts the entities of a list of specs, subtrees included.
func countSpecs(es []*scenefile.EntitySpec) int {
	n := 0
	for _, e := range es {
		n += 1 + countSpecs(e.Children)
	}
	return n
}

// walkTree calls f on every entity spec of es, depth first (not the
// parts' bodies).
func walkTree(es []*scenefile.EntitySpec, f func(*scenefile.EntitySpec)) {
	for _, e := range es {
		f(e)
		walkTree(e.Children, f)
	}
}

// FuzzRemoveEntity: whatever the file, taking an entity's block out
// never panics, and when it answers, the file reads back with exactly
// that entity's subtree gone (or the edit is refused).
func FuzzRemoveEntity(f *testing.F) {
	for _, s := range []struct{ name, src string }{
		{"a.yaml", "entities:\n  - id: a\n    position: 1 2 3\n    children:\n      - id: b\n        # a comment\n        scale: 1 1 1\n\n      - id: c\n  - id: d\n"},
		{"a.yaml", "entities:\n- id: a\n  children:\n  - id: b\n- id: c\n"},
		{"a.yaml", "entities: [{id: a}, {id: b}]\n"},
		{"a.yaml", "entities:\n  - id: a\n    text: |\n      line\n        more\n  - id: b\n"},
		{"a.xml", "<scene>\n  <entity id=\"a\"><entity id=\"b\"/><!-- <entity> --></entity>\n  <entity id=\"c\" v='>'/>\n</scene>\n"},
		{"a.xml", "<scene><entity id=\"a\"><![CDATA[<entity>]]><entity/></entity><entity id=\"b\"/></scene>"},
	} {
		f.Add(s.name, s.src)
	}
	lim := scenefile.Limits{MaxBytes: 1 << 16, MaxDepth: 64, MaxEntities: 1000, MaxErrors: 10}
	f.Fuzz(func(t *testing.T, name, src string) {
		if name != "a.yaml" && name != "a.xml" {
			return
		}
		doc, err := scenefile.Read(name, []byte(src), lim)
		if err != nil {
			return
		}
		total := countSpecs(doc.Entities)
		walkTree(doc.Entities, func(ent *scenefile.EntitySpec) {
			out, err := RemoveEntity([]byte(src), ent)
			if err != nil {
				return
			}
			nd, err := scenefile.Read(name, out, lim)
			if err != nil {
				return // the compile check refuses it (PrepareDestroy)
			}
			if got, want := countSpecs(nd.Entities), total-1-countSpecs(ent.Children); got != want && got != total {
				t.Errorf("removing %s left %d entities of %d (want %d):\n%s\n---\n%s", ent.Pos, got, total, want, src, out)
			}
		})
	})
}
