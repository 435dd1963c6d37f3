package plan_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// chainScene writes a YAML scene of n mixins m0 .. m(n-1), each listing
// the next (the last sets scale, m0 sets position); with cycleTo >= 0 the
// last lists m(cycleTo) instead. Entities use m0 and the middle one.
func chainScene(n, cycleTo int) string {
	var b strings.Builder
	b.WriteString("mixins:\n")
	for i := range n {
		fmt.Fprintf(&b, "  m%d:\n", i)
		switch {
		case i+1 < n:
			fmt.Fprintf(&b, "    mixin: m%d\n", i+1)
		case cycleTo >= 0:
			fmt.Fprintf(&b, "    mixin: m%d\n", cycleTo)
		default:
			b.WriteString("    scale: 2 2 2\n")
		}
		if i == 0 {
			b.WriteString("    position: 1 2 3\n")
		}
	}
	fmt.Fprintf(&b, "entities:\n  - id: head\n    mixin: m0\n  - id: mid\n    mixin: m%d\n", n/2)
	return b.String()
}

// TestLongMixinChainsLoad: a scene of chained mixins loads in time linear
// in the chain (10,000 took over a minute with one expansion per mixin),
// every entity composing the whole chain.
func TestLongMixinChainsLoad(t *testing.T) {
	for _, n := range []int{4_000, 10_000} {
		src := chainScene(n, -1)
		reg := newTestRegistry(t)
		start := time.Now()
		sc, err := loader.LoadBytes(reg, "chain.yaml", []byte(src), loader.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%d chained mixins: %v", n, d)
		}
		// head gets the whole chain; mid the second half, without m0's
		// position.
		for id, want := range map[string]string{"head": "1 2 3", "mid": ""} {
			e, _ := sc.Entity(id)
			if got, _ := reg.Attr(e, "scale"); got != "2 2 2" {
				t.Errorf("%d: %s scale %q", n, id, got)
			}
			if got, _ := reg.Attr(e, "position"); got != want || reg.Has(e, "position") != (want != "") {
				t.Errorf("%d: %s position %q, want %q", n, id, got, want)
			}
		}
	}
}

// TestMixinCycleReportedOnce: a cycle of any length is one error, at the
// mixin where it is entered first, with the chain shortened when long;
// not repeated per mixin of the cycle nor per entity using it.
func TestMixinCycleReportedOnce(t *testing.T) {
	for _, n := range []int{1, 2, 3, 6, 7, 50, 2000} {
		src := chainScene(n, 0)
		reg := newTestRegistry(t)
		start := time.Now()
		_, err := loader.LoadBytes(reg, "cycle.yaml", []byte(src), loader.Options{})
		list, ok := err.(scenefile.ErrorList)
		if !ok || len(list) != 1 {
			t.Fatalf("cycle of %d: %d errors (%T): %.500v", n, len(list), err, err)
		}
		msg := list[0].Error()
		want := "cycle.yaml:3:12: mixin \"m0\": mixin cycle: "
		if n > 6 {
			want = fmt.Sprintf("cycle.yaml:3:12: mixin \"m0\": mixin cycle of %d mixins: m0 -> m1 -> m2 -> ... -> m%d -> m%d -> m0", n, n-2, n-1)
		} else {
			for i := range n {
				want += fmt.Sprintf("m%d -> ", i)
			}
			want += "m0"
		}
		if msg != want {
			t.Errorf("cycle of %d:\n got %s\nwant %s", n, msg, want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("cycle of %d: %v", n, d)
		}
	}
}

// TestSelectorValuePosition: an invalid selector written as the value of a
// selector or selectorAll property is refused as the scene loads, at the
// file, line and column of the offending character, in every format and
// way of writing the value.
func TestSelectorValuePosition(t *testing.T) {
	decl := "components:\n  aim: {target: {type: selector}, all: {type: selectorAll}}\n  look: {type: selector}\n"
	tests := []struct{ name, src, want string }{
		{"yaml text", decl + "entities:\n  - aim: \"target: [enemy]:not([alive]\"\n",
			`a.yaml:5:38: aim: property "target": invalid value "": expected a selector: expected ')' to close ":not(", found end of input`},
		{"yaml mapping", decl + "entities:\n  - aim:\n      all: \".a, .b..c\"\n",
			`a.yaml:6:20: aim: property "all": invalid value ".c": expected a selector: expected class name after '.', found '.'`},
		{"yaml single", decl + "entities:\n  - look: \"#\"\n",
			`a.yaml:5:13: look: invalid value "": expected a selector: expected id after '#', found end of input`},
		{"xml", "<scene>\n  <components>\n    <component name=\"look\" type=\"selector\"/>\n  </components>\n  <entity look=\"[hp&gt;abc]\"/>\n</scene>\n",
			`a.xml:5:24: look: invalid value "abc]": expected a selector: expected number after '>'`},
		// At offset 0 the position is the value's, the opening quote.
		{"unknown pseudo", decl + "entities:\n  - look: \":nope\"\n",
			`a.yaml:5:11: look: invalid value ":nope": expected a selector: unknown pseudo-class ":nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := "a.yaml"
			if strings.HasPrefix(tt.src, "<") {
				name = "a.xml"
			}
			reg := newTestRegistry(t)
			_, err := loader.LoadBytes(reg, name, []byte(tt.src), loader.Options{})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
	// Valid selectors load, even naming components nobody declared yet:
	// those are resolved when used.
	reg := newTestRegistry(t)
	src := decl + "entities:\n  - aim: \"target: #hero; all: [enemy]:not([alive])\"\n    look: \"[later]\"\n"
	if _, err := loader.LoadBytes(reg, "a.yaml", []byte(src), loader.Options{}); err != nil {
		t.Error(err)
	}
}

// TestSelfSpawningMixinLoad: a mixin that spawns itself (which looped
// forever during load) stops at the registry's spawn depth limit; a
// spawner count past the entity limit spawns nothing. Both fail the load
// with the registry's errors (the first few, the rest counted), the World
// is left as it was, and loading takes bounded time.
func TestSelfSpawningMixinLoad(t *testing.T) {
	src := "mixins:\n  egg: {spawner: \"mixin: egg; count: 2\"}\nentities:\n  - id: nest\n    mixin: egg\n" +
		"  - id: greedy\n    spawner: \"count: 9223372036854775807\"\n"
	reg := newTestRegistry(t)
	reg.Limits.MaxSpawnDepth = 6
	start := time.Now()
	_, err := loader.LoadBytes(reg, "eggs.yaml", []byte(src), loader.Options{})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("load took %v", d)
	}
	if n := reg.World().Len(); n != 0 {
		t.Errorf("%d entities after a failed load, want 0", n)
	}
	if s := fmt.Sprint(err); !strings.Contains(s, "Limits.MaxSpawnDepth is 6") ||
		!strings.Contains(s, "registry: entity #greedy: spawner: registry limit reached: 9223372036854775807 more entities") ||
		!strings.Contains(s, "(and 63 more spawners like it)") || strings.Count(s, "\n") != 1 {
		t.Errorf("load error = %.600v", err)
	}
}
