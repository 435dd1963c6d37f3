package edit_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
)

// TestInsertInstanceBlock: a Block of a prefab's instance, with a part
// changed and a part removed, inserted after a sibling, reads back as
// that instance (id, prefab, component, the two parts) in YAML and XML,
// the rest of the file byte for byte.
func TestInsertInstanceBlock(t *testing.T) {
	b := &edit.Block{
		Keys:  [][2]string{{"id", "r9"}, {"prefab", "rock"}, {"position", "1 2 3"}},
		Parts: []*edit.Part{{Path: "0", Keys: [][2]string{{"position", "5 5 5"}}}, {Path: "gun-left/1", Removed: true}},
	}
	for _, c := range []struct{ name, src string }{
		{"s.yaml", "entities:\n  - id: r1\n    prefab: rock\n  - id: last\n"},
		{"s.xml", "<scene>\n  <entity id=\"r1\" prefab=\"rock\"/>\n  <entity id=\"last\"/>\n</scene>\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := scenefile.Read(c.name, []byte(c.src), scenefile.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			xml := scenefile.FormatOf(c.name) == scenefile.FormatXML
			out, err := edit.InsertEntity([]byte(c.src), &edit.Place{File: c.name, XML: xml, After: doc.Entities[0]}, b.Lines(xml))
			if err != nil {
				t.Fatal(err)
			}
			var block strings.Builder
			for _, l := range b.Lines(xml) {
				block.WriteString("  " + l + "\n")
			}
			if strings.Replace(string(out), block.String(), "", 1) != c.src {
				t.Errorf("the rest of the file changed:\n%s", out)
			}
			nd, err := scenefile.Read(c.name, out, scenefile.Limits{})
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if len(nd.Entities) != 3 || nd.Entities[1].ID != "r9" || nd.Entities[2].ID != "last" {
				t.Fatalf("the block is not the second entity:\n%s", out)
			}
			got := nd.Entities[1]
			if got.Prefab() != "rock" || len(got.Parts()) != 2 {
				t.Fatalf("prefab %q, %d parts:\n%s", got.Prefab(), len(got.Parts()), out)
			}
			p0, p1 := got.Parts()[0], got.Parts()[1]
			if p0.Path != "0" || p0.Removed || len(p0.Body.Components) != 1 || p0.Body.Components[0].Name != "position" ||
				p1.Path != "gun-left/1" || !p1.Removed {
				t.Errorf("parts read back as %+v, %+v:\n%s", p0, p1, out)
			}
		})
	}
}
