package scenerun

import (
	"strings"
	"testing"
)

// TestDumpListsAsWritten: `dump` writes the arrays a scene writes as
// YAML lists as lists again (the newcomer's `items: [x, "y z"]`), and
// the dump loads back to the same dump.
func TestDumpListsAsWritten(t *testing.T) {
	scene := sceneFile(t, "bag.yaml", "components:\n  bag: {items: {type: array, default: [a, b, c]}}\n"+
		"entities:\n  - id: box\n    bag: {items: [x, \"y z\"]}\n    animation: {property: position.x, to: 1, startEvents: [go, run]}\n")
	code, out, errOut := runProg(Program{}, "dump", scene)
	if code != ExitOK {
		t.Fatalf("dump: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"default: [a, b, c]", "bag: {items: [x, y z]}", "startEvents: [go, run]"} {
		if !strings.Contains(out, want) {
			t.Errorf("the dump lacks %q:\n%s", want, out)
		}
	}
	again := sceneFile(t, "again.yaml", out)
	if code, out2, errOut := runProg(Program{}, "dump", again); code != ExitOK || out2 != out {
		t.Errorf("the dump dumps again (exit %d %s) as\n%s\nnot\n%s", code, errOut, out2, out)
	}
}
