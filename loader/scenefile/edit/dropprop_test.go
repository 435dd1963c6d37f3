package edit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
)

// TestDropProperty: a property leaves what the entity writes for a
// component, in each way a file writes one, and the rest of the file
// stays byte for byte; the last property written, or one not written,
// is refused.
func TestDropProperty(t *testing.T) {
	sch := edit.Schema{Props: []string{"hp", "max", "regen"}}
	for _, c := range []struct {
		file, src, want string
		err             error
	}{
		{"s.yaml", "entities:\n  - id: a\n    health: \"hp: 5; max: 9\"  # tuned\n", "entities:\n  - id: a\n    health: \"max: 9\"  # tuned\n", nil},
		{"s.yaml", "entities:\n  - id: a\n    health: max:9;hp:5\n", "entities:\n  - id: a\n    health: max:9\n", nil},
		{"s.yaml", "entities:\n  - id: a\n    health: \"max: 9; hp: 5; regen: 1\"\n", "entities:\n  - id: a\n    health: \"max: 9; regen: 1\"\n", nil},
		{"s.yaml", "entities:\n  - id: a\n    health:\n      hp: 5\n      max: 9\n    enemy:\n", "entities:\n  - id: a\n    health:\n      max: 9\n    enemy:\n", nil},
		{"s.yaml", "entities:\n  - id: a\n    health: {max: 9, hp: 5}\n", "entities:\n  - id: a\n    health: {max: 9}\n", nil},
		{"s.yaml", "entities:\n  - {id: a, health: \"hp: 5; max: 9\"}\n", "entities:\n  - {id: a, health: \"max: 9\"}\n", nil},
		{"s.xml", `<scene><entity id="a" health="hp: 5; max: 9"/></scene>`, `<scene><entity id="a" health="max: 9"/></scene>`, nil},
		{"s.xml", `<scene><entity id="a" health="max: 9" health.hp="5"/></scene>`, `<scene><entity id="a" health="max: 9"/></scene>`, nil},
		{"s.xml", `<scene><entity id="a" label="&amp;" health="hp: 5; max: 9&#59; "/></scene>`, `<scene><entity id="a" label="&amp;" health="max: 9&#59; "/></scene>`, nil},
		{"s.yaml", "entities:\n  - id: a\n    health: \"hp: 5\"\n", "", edit.ErrCannotEdit},
		{"s.yaml", "entities:\n  - id: a\n    health: \"max: 5\"\n", "", edit.ErrNoSource},
	} {
		doc, err := scenefile.Read(c.file, []byte(c.src), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := edit.DropProperty([]byte(c.src), doc.Entities[0], "health", sch, 0)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.src, err, c.err)
			}
			continue
		}
		if err != nil || string(out) != c.want {
			t.Errorf("%s:\n got %q (%v)\nwant %q", c.src, out, err, c.want)
		}
		if strings.Contains(c.src, "&amp;") && !strings.Contains(string(out), "&amp;") {
			t.Errorf("an escape elsewhere was touched: %s", out)
		}
	}
}
