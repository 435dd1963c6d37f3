package scenerun

import (
	"fmt"
	"strings"
	"testing"
)

// TestRunHostileBind is issue 32's scene: a binding whose string would
// grow to 2⁴⁸ bytes (three nested replaces of 64 x's) passed validate
// and killed `scene-run run` with Go's fatal out-of-memory error. Now
// validate still accepts it (nothing is wrong with its text), and run
// reports the binding's error, once, naming the operation, the size and
// the budget, while the rest of the scene runs on: the other entity's
// binding moves it, and the run exits cleanly. The 41 doubling lets of
// the same report (4.2 GB) fail the same way.
func TestRunHostileBind(t *testing.T) {
	x64 := strings.Repeat("x", 64)
	replaces := "let s = '" + x64 + "'; let t = replace(s, 'x', s); let u = replace(t, 'x', t); let v = replace(u, 'x', u); len(v)"
	var lets strings.Builder
	lets.WriteString("let a0 = 'x'; ")
	for i := 1; i <= 41; i++ {
		fmt.Fprintf(&lets, "let a%d = a%d + a%d; ", i, i-1, i-1)
	}
	lets.WriteString("len(a41)")
	cases := []struct{ name, expr, want string }{
		{"replaces", replaces, "replace would make a string of 16777216 bytes: over the budget of 1048576 bytes of text per evaluation"},
		{"doubling lets", lets.String(), "+ would make a string of 1048576 bytes: over the budget of 1048576 bytes of text per evaluation"},
	}
	for _, c := range cases {
		scene := sceneFile(t, "hostile.yaml", "entities:\n"+
			"  - id: a\n    position: 0 0 0\n    bind: \"position.x: ("+c.expr+")\"\n"+
			"  - id: b\n    position: 0 0 0\n    bind: \"position.y: time * 60\"\n")
		if code, out, errOut := runProg(Program{}, "validate", scene); code != ExitOK || out+errOut != "" {
			t.Errorf("%s: validate: exit %d %s%s", c.name, code, out, errOut)
		}
		code, out, errOut := runProg(Program{}, "run", "-ticks", "5", "-query", "[position.y>2]", scene)
		if code != ExitOK || !strings.Contains(out, "query     [position.y>2]: 1 match\n") {
			t.Errorf("%s: run: exit %d\n%s", c.name, code, out)
		}
		want := "tick 1: entity #a: bind: position.x: " + c.want
		if !strings.HasPrefix(errOut, want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: run's errors:\n%s\nwant one line starting\n%s", c.name, errOut, want)
		}
	}
}
