package plan_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// Prefab bombs: prefab graphs whose expansion would pass the limits, in
// every shape (trees, chains, variants that double, parts that add
// instances, many instances in the scene, deep placement, long names).
// Each is refused before it is expanded, in milliseconds and with memory
// bounded by its text, at its place, with the count it would make.

// prefabTree is a k-way tree of levels prefabs: p0 has k instances of
// p1, which has k of p2 ...; the last is a leaf. used puts an instance
// of p0 in the scene.
func prefabTree(k, levels int, used bool) string {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	for i := range levels {
		fmt.Fprintf(&b, "  p%d:\n", i)
		if i == levels-1 {
			b.WriteString("    position: 1 2 3\n")
			continue
		}
		b.WriteString("    children:\n")
		for range k {
			fmt.Fprintf(&b, "      - prefab: p%d\n", i+1)
		}
	}
	if used {
		b.WriteString("entities:\n  - prefab: p0\n")
	}
	return b.String()
}

// prefabChain is n prefabs each holding an instance of the next, and an
// instance of the first.
func prefabChain(n int) string {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  p%d: {children: [{prefab: p%d}]}\n", i, i+1)
	}
	fmt.Fprintf(&b, "  p%d: {}\nentities:\n  - prefab: p0\n", n-1)
	return b.String()
}

// prefabDoubling is n variants each a variant of the next with one more
// instance of it as a child: sizes double at each level.
func prefabDoubling(n int) string {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  v%d: {prefab: v%d, children: [{prefab: v%d}]}\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "  v%d: {children: [{id: x}]}\nentities:\n  - prefab: v0\n", n-1)
	return b.String()
}

// prefabPartsTripling is n prefabs whose parts' changes add two more
// instances of the next prefab: sizes triple at each level.
func prefabPartsTripling(n int) string {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	for i := range n - 1 {
		fmt.Fprintf(&b, "  q%d: {children: [{id: x}, {id: a, prefab: q%d, parts: {x: {children: [{prefab: q%d}, {prefab: q%d}]}}}]}\n", i, i+1, i+1, i+1)
	}
	fmt.Fprintf(&b, "  q%d: {children: [{id: x}]}\nentities:\n  - prefab: q0\n", n-1)
	return b.String()
}

// prefabFan is the tree of 10-way, 6 levels (111,111 entities) and n
// instances of it in the scene.
func prefabFan(n int) string {
	return prefabTree(10, 6, false) + "entities:\n" + strings.Repeat("  - prefab: p0\n", n)
}

// prefabDeepPlace puts an instance of a chain of chain prefabs under
// depth plain entities.
func prefabDeepPlace(depth, chain int) string {
	s := strings.TrimSuffix(prefabChain(chain), "entities:\n  - prefab: p0\n")
	var b strings.Builder
	b.WriteString(s + "entities:\n")
	indent := "  "
	for range depth {
		b.WriteString(indent + "- children:\n")
		indent += "    "
	}
	b.WriteString(indent + "- prefab: p0\n")
	return b.String()
}

// prefabLongNames is a chain of n prefabs whose children have names of
// size bytes, ending in a 10-way tree of 4 levels, and an instance with
// an id: the ids of its parts repeat the names along the chain.
func prefabLongNames(n, size int) string {
	var b strings.Builder
	b.WriteString("prefabs:\n")
	name := strings.Repeat("n", size)
	for i := range n {
		fmt.Fprintf(&b, "  c%d: {children: [{id: %s%d, prefab: c%d}]}\n", i, name, i, i+1)
	}
	fmt.Fprintf(&b, "  c%d: {children: [{prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}, {prefab: t1}]}\n", n)
	for i := 1; i < 4; i++ {
		fmt.Fprintf(&b, "  t%d: {children: [%s]}\n", i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("{prefab: t%d}, ", i+1), 10), ", "))
	}
	b.WriteString("  t4: {}\nentities:\n  - id: ship\n    prefab: c0\n")
	return b.String()
}

// xmlPrefabTree is prefabTree in XML.
func xmlPrefabTree(k, levels int) string {
	var b strings.Builder
	b.WriteString("<scene>\n")
	for i := range levels {
		fmt.Fprintf(&b, "<prefab name=\"p%d\">", i)
		if i < levels-1 {
			b.WriteString(strings.Repeat(fmt.Sprintf("<entity prefab=\"p%d\"/>", i+1), k))
		}
		b.WriteString("</prefab>\n")
	}
	b.WriteString("<entity prefab=\"p0\"/>\n</scene>\n")
	return b.String()
}

// jsonPrefabTree is prefabTree in a JSON dump.
func jsonPrefabTree(k, levels int) string {
	var b strings.Builder
	b.WriteString(`{"prefabs":{`)
	for i := range levels {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n\"p%d\":{\"children\":[", i)
		if i < levels-1 {
			b.WriteString(strings.TrimSuffix(strings.Repeat(fmt.Sprintf(`{"prefab":"p%d"},`, i+1), k), ","))
		}
		b.WriteString("]}")
	}
	b.WriteString("},\n\"entities\":[{\"path\":\"0\",\"parent\":null,\"prefab\":\"p0\"}]}\n")
	return b.String()
}

// prefabBombs are the attacks, each with the error it must get.
var prefabBombs = []struct {
	name, file, src string
	lim             scenefile.Limits
	want            string
}{
	{"10-way tree of 8 levels", "a.yaml", prefabTree(10, 8, true), scenefile.Limits{},
		`a.yaml:14:3: prefab "p1": an instance would have 1111111 entities, more than the 1000000 a scene may have (Limits.MaxEntities)`},
	{"10-way tree of 7 levels, just past the limit", "a.yaml", prefabTree(10, 7, true), scenefile.Limits{},
		`a.yaml:2:3: prefab "p0": an instance would have 1111111 entities, more than the 1000000 a scene may have (Limits.MaxEntities)`},
	{"unused tree", "a.yaml", prefabTree(10, 8, false), scenefile.Limits{},
		`a.yaml:14:3: prefab "p1": an instance would have 1111111 entities`},
	{"tree of 40 levels, sizes past int64", "a.yaml", prefabTree(10, 40, true), scenefile.Limits{},
		`a.yaml:398:3: prefab "p33": an instance would have 1111111 entities`},
	{"4-way tree past a small limit", "a.yaml", prefabTree(4, 4, true), scenefile.Limits{MaxEntities: 80},
		`a.yaml:2:3: prefab "p0": an instance would have 85 entities, more than the 80 a scene may have (Limits.MaxEntities)`},
	{"chain of 2000 nested prefabs", "a.yaml", prefabChain(2000), scenefile.Limits{},
		`a.yaml:1745:3: prefab "p1743": its entities nest 257 deep, more than the 256 a scene allows (Limits.MaxDepth)`},
	{"chain past a small depth", "a.yaml", prefabChain(20), scenefile.Limits{MaxDepth: 8},
		`a.yaml:13:3: prefab "p11": its entities nest 9 deep, more than the 8 a scene allows (Limits.MaxDepth)`},
	{"variants doubling over 64 levels", "a.yaml", prefabDoubling(64), scenefile.Limits{},
		`a.yaml:46:3: prefab "v44": an instance would have 1048576 entities`},
	{"parts' changes tripling over 40 levels", "a.yaml", prefabPartsTripling(40), scenefile.Limits{},
		`a.yaml:29:3: prefab "q27": an instance would have 1594322 entities`},
	{"ten instances in the scene", "a.yaml", prefabFan(10), scenefile.Limits{},
		`a.yaml:74:13: instance of prefab "p0": its 111111 entities would bring the scene to 1111110, more than the 1000000 it may have (Limits.MaxEntities)`},
	{"instances added by an instance's parts", "a.yaml", prefabTree(10, 6, false) + "entities:\n  - prefab: p0\n    parts: {\"0\": {children: [" +
		strings.TrimSuffix(strings.Repeat("{prefab: p0}, ", 9), ", ") + "]}}\n", scenefile.Limits{},
		`a.yaml:65:13: instance of prefab "p0": its 1111110 entities would bring the scene to 1111110, more than the 1000000 it may have (Limits.MaxEntities)`},
	{"an instance placed deep", "a.yaml", prefabDeepPlace(100, 200), scenefile.Limits{},
		`a.yaml:303:413: instance of prefab "p0" at depth 101: its entities would nest 300 deep, more than the 256 allowed (Limits.MaxDepth)`},
	{"long names repeated by nesting", "a.yaml", prefabLongNames(200, 1000), scenefile.Limits{},
		`a.yaml:208:5: the ids and paths of the parts of prefabs' instances (such as "ship/nnnnnnnnnnnnnnnnnnnnnnnnn...`},
	{"long names past a small limit", "a.yaml", prefabLongNames(20, 100), scenefile.Limits{MaxNameBytes: 100_000},
		`a.yaml:28:5: the ids and paths of the parts of prefabs' instances (such as "ship/nnnnnnnnnnnnnnnnnnnnnnnnn...`},
	{"XML tree", "a.xml", xmlPrefabTree(10, 8), scenefile.Limits{}, `a.xml:3:15: prefab "p1": an instance would have 1111111 entities`},
	{"JSON tree", "a.json", jsonPrefabTree(10, 8), scenefile.Limits{}, `a.json:3:1: prefab "p1": an instance would have 1111111 entities`},
}

// measure runs fn and returns how long it took and how many bytes it
// allocated.
func measure(fn func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc
}

// TestPrefabBombs: every bomb is refused with its error, allocating
// memory bounded by its text (a few MB at most), and without hanging.
// Its time is logged, not judged (milliseconds on a quiet machine, past
// a second with the race detector on a loaded one): only a bound that a
// hang would pass, 10 s, fails it; BenchmarkPrefabBombs times it.
func TestPrefabBombs(t *testing.T) {
	for _, tc := range prefabBombs {
		t.Run(tc.name, func(t *testing.T) {
			reg := newTestRegistry(t)
			var err error
			took, alloc := measure(func() {
				_, err = loader.LoadBytes(reg, tc.file, []byte(tc.src), loader.Options{Limits: tc.lim})
			})
			var list scenefile.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if len(list) != 1 || !strings.HasPrefix(list[0].Error(), tc.want) {
				t.Fatalf("got\n%v\nwant one error starting\n%s", err, tc.want)
			}
			if n := reg.World().Len(); n != 0 {
				t.Fatalf("%d entities left", n)
			}
			t.Logf("%d bytes of text refused in %v, %d KB allocated", len(tc.src), took, alloc>>10)
			bound := uint64(64 << 20)
			if strings.Contains(list[0].Msg, "MaxNameBytes") {
				bound += uint64(tc.lim.WithDefaults().MaxNameBytes) // the names made up to the limit
			}
			if took > 10*time.Second || alloc > bound {
				t.Errorf("refused in %v, allocating %d MB: want milliseconds and memory bounded by the text", took, alloc>>20)
			}
		})
	}
}

// TestPrefabsUnusedCostNothing: two hundred prefabs of a million
// entities each, which no entity uses, compile without being expanded;
// the registry has them all, and an instance made at run time is whole.
func TestPrefabsUnusedCostNothing(t *testing.T) {
	var b strings.Builder
	b.WriteString(prefabTree(10, 6, false)) // p0: 111,111 entities
	for i := range 200 {
		fmt.Fprintf(&b, "  big%d: {children: [%s]}\n", i, strings.TrimSuffix(strings.Repeat("{prefab: p0}, ", 9), ", "))
	}
	b.WriteString("entities:\n  - prefab: p3\n")
	reg := newTestRegistry(t)
	var sc *loader.Scene
	var err error
	took, alloc := measure(func() { sc, err = loader.LoadBytes(reg, "a.yaml", []byte(b.String()), loader.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d prefabs of 1000000 entities loaded in %v, %d KB allocated", 200, took, alloc>>10)
	if took > time.Second || alloc > 32<<20 {
		t.Errorf("loaded in %v, allocating %d MB: unused prefabs must not be expanded", took, alloc>>20)
	}
	if sc.Plan.Count != 111 || reg.World().Len() != 111 {
		t.Errorf("%d entities, want the 111 of p3", reg.World().Len())
	}
	if n := len(reg.Prefabs().Names()); n != 206 {
		t.Errorf("%d prefabs defined, want 206", n)
	}
	if got := reg.Prefabs().Size("big7"); got != 1_000_000 {
		t.Errorf("big7 has %d entities, want 1000000", got)
	}
}

// TestPrefabLimitsFromOptions: a scene exactly at the limits loads;
// one entity (or one level) more is refused at the instance that passes
// them, with the counts.
func TestPrefabLimitsFromOptions(t *testing.T) {
	src := prefabTree(3, 3, false) + "entities:\n  - prefab: p0\n  - {children: [{prefab: p0}]}\n" // 13 + 1 + 13
	if _, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(src), loader.Options{Limits: scenefile.Limits{MaxEntities: 27, MaxDepth: 4}}); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	for _, tc := range []struct {
		lim  scenefile.Limits
		want string
	}{
		{scenefile.Limits{MaxEntities: 26, MaxDepth: 4}, `a.yaml:16:26: instance of prefab "p0": its 13 entities would bring the scene to 27, more than the 26 it may have (Limits.MaxEntities)`},
		{scenefile.Limits{MaxEntities: 27, MaxDepth: 3}, `a.yaml:16:26: instance of prefab "p0" at depth 2: its entities would nest 4 deep, more than the 3 allowed (Limits.MaxDepth)`},
	} {
		_, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(src), loader.Options{Limits: tc.lim})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: got %v, want %s", tc.lim, err, tc.want)
		}
	}
}

// TestPrefabLongChains: compiling a prefab never recurses into another
// (they compile after the prefabs they use), so chains and cycles of
// tens of thousands of prefabs neither overflow the stack nor take more
// than linear time.
func TestPrefabLongChains(t *testing.T) {
	const n = 50_000
	var cycle, variants strings.Builder
	cycle.WriteString("prefabs:\n")
	variants.WriteString("prefabs:\n")
	for i := range n {
		fmt.Fprintf(&cycle, "  p%d: {children: [{prefab: p%d}]}\n", i, (i+1)%n)
		if i < n-1 {
			fmt.Fprintf(&variants, "  v%d: {prefab: v%d, position: %d 0 0}\n", i, i+1, i)
		}
	}
	cycle.WriteString("entities:\n  - prefab: p0\n")
	fmt.Fprintf(&variants, "  v%d: {children: [{id: x}]}\nentities:\n  - {id: a, prefab: v0, parts: {x: removed}}\n", n-1)
	_, err := loader.LoadBytes(newTestRegistry(t), "a.yaml", []byte(cycle.String()), loader.Options{})
	if want := `a.yaml:2:3: prefab "p0": prefab cycle of 50000 prefabs: p0 -> p1 -> p2 -> ... -> p49998 -> p49999 -> p0`; err == nil || err.Error() != want {
		t.Errorf("cycle: got %v, want %s", err, want)
	}
	reg := newTestRegistry(t)
	if _, err := loader.LoadBytes(reg, "a.yaml", []byte(variants.String()), loader.Options{}); err != nil {
		t.Fatalf("chain of variants: %v", err)
	}
	a, _ := reg.EntityByID("a")
	if got, _ := reg.Attr(a, "position"); got != "0 0 0" || len(reg.World().Children(a)) != 0 {
		t.Errorf("the instance of the chain has position %q and %d parts, want 0 0 0 and none", got, len(reg.World().Children(a)))
	}
}

// BenchmarkPrefabBombs times the refusal of each bomb: each should take
// milliseconds, a cost linear in its text, however many entities it
// would make.
func BenchmarkPrefabBombs(b *testing.B) {
	for _, tc := range prefabBombs {
		b.Run(strings.ReplaceAll(tc.name, " ", "_"), func(b *testing.B) {
			reg := newTestRegistry(b)
			src := []byte(tc.src)
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := loader.LoadBytes(reg, tc.file, src, loader.Options{Limits: tc.lim}); err == nil {
					b.Fatal("the bomb loaded")
				}
			}
		})
	}
}
