package live

import (
	"strings"
	"testing"
)

const saveLists = `components:
  bag: {items: {type: array, default: [a]}, label: {type: string}}
  tags2: {type: array}
entities:
  - id: box
    bag: {items: [x, "y z"], label: hi}   # bag
    tags2:
      - p
      - q
`

// TestSaveLists: the inspector's edits of values written as lists are
// saved as lists: a text property beside a list in a mapping, the list
// property itself (in place), and a component whose whole value is a
// block sequence (written anew when its items change in number); each
// save reads back as the running scene, which still writes them as
// lists.
func TestSaveLists(t *testing.T) {
	env := newSaveEnv(t, map[string]string{"main.yaml": saveLists}, "main.yaml")
	box := env.entity("box")
	want := saveLists
	for _, tc := range []struct{ comp, attr, from, to string }{
		{"bag", "label: yo", "label: hi", "label: yo"},
		{"bag", "items: k, y z", "[x,", "[k,"},
		{"tags2", "r", "tags2:\n      - p\n      - q\n", "tags2: [r]\n"},
	} {
		if _, _, err := env.set(box, tc.comp, tc.attr); err != nil {
			t.Fatalf("%s %q: %v", tc.comp, tc.attr, err)
		}
		want = strings.Replace(want, tc.from, tc.to, 1)
		if got := env.read("main.yaml"); got != want {
			t.Fatalf("%s %q saved:\n%s\nwant:\n%s", tc.comp, tc.attr, got, want)
		}
		env.quiet()
	}
	if got := len(env.rl.Scene.Plan.Lists); got != 2 {
		t.Errorf("the saved scene writes %d properties as lists, want 2 (bag.items, tags2): %v", got, env.rl.Scene.Plan.Lists)
	}
}
