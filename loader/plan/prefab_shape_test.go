package plan_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// The arithmetic that refuses prefab bombs before expanding them must
// count exactly what expansion makes: on random prefab graphs (variants,
// nested instances, parts' changes that add children and instances,
// removed parts, instances in the scene at any depth), a load whose
// limits are the expansion's own counts passes, and one entity or one
// level less is refused.

// shapeGen writes a random scene with prefabs.
type shapeGen struct {
	r     *rand.Rand
	reg   *registry.Registry
	n     int                 // prefabs p0 .. p(n-1); pi uses only pj, j > i
	paths map[string][]string // the paths of the parts of each prefab
	text  []string            // the prefabs written so far, last first
	ids   int
}

// prefabText returns the prefabs section of the prefabs written so far.
func (g *shapeGen) prefabText() string {
	text := slices.Clone(g.text)
	slices.Reverse(text)
	return "prefabs:\n" + strings.Join(text, "")
}

// generate writes the scene.
func (g *shapeGen) generate() string {
	g.n = 2 + g.r.Intn(4)
	g.paths = map[string][]string{}
	for i := g.n - 1; i >= 0; i-- {
		name := fmt.Sprintf("p%d", i)
		g.text = append(g.text, fmt.Sprintf("  %s: %s\n", name, g.body(i, 0, i < g.n-1 && g.r.Intn(3) == 0)))
		g.paths[name] = g.partPaths(name)
	}
	var b strings.Builder
	b.WriteString(g.prefabText() + "entities:\n")
	for range 1 + g.r.Intn(3) {
		b.WriteString("  - " + g.sceneEntity(0) + "\n")
	}
	return b.String()
}

// partPaths compiles the prefabs so far and returns the paths of the
// parts of name's template.
func (g *shapeGen) partPaths(name string) []string {
	doc, err := scenefile.Read("g.yaml", []byte(g.prefabText()), scenefile.Limits{})
	if err != nil {
		panic(err)
	}
	pl, err := plan.Compile(doc, g.reg, plan.Options{})
	if err != nil {
		panic(fmt.Sprintf("%v\n%s", err, g.prefabText()))
	}
	var out []string
	var walk func(n *plan.Node, path string)
	walk = func(n *plan.Node, path string) {
		for _, ch := range n.Children {
			p := ch.Key()
			if path != "" {
				p = path + "/" + p
			}
			out = append(out, p)
			walk(ch, p)
		}
	}
	walk(pl.Prefabs[name].Root, "")
	return out
}

// body writes an entity of prefab i's body at depth: a variant of a
// later prefab (with changes to its parts) if variant, children, some
// instances of later prefabs.
func (g *shapeGen) body(i, depth int, variant bool) string {
	var fields []string
	if depth > 0 && g.r.Intn(2) == 0 {
		g.ids++
		fields = append(fields, fmt.Sprintf("id: c%d", g.ids))
	}
	if variant || depth > 0 && i < g.n-1 && g.r.Intn(3) == 0 {
		j := i + 1 + g.r.Intn(g.n-i-1)
		fields = append(fields, fmt.Sprintf("prefab: p%d", j))
		if parts := g.parts(fmt.Sprintf("p%d", j), i+1); parts != "" {
			fields = append(fields, parts)
		}
	}
	if depth < 3 {
		var kids []string
		for range g.r.Intn(4) {
			kids = append(kids, g.body(i, depth+1, false))
		}
		if len(kids) > 0 {
			fields = append(fields, "children: ["+strings.Join(kids, ", ")+"]")
		}
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

// parts writes changes to up to three parts of the prefab name (none
// inside another), some removing the part, some adding children that
// may be instances of prefabs from p(from) on.
func (g *shapeGen) parts(name string, from int) string {
	paths := g.paths[name]
	var chosen, out []string
	for range g.r.Intn(4) {
		if len(paths) == 0 {
			break
		}
		p := paths[g.r.Intn(len(paths))]
		if slices.ContainsFunc(chosen, func(c string) bool {
			return c == p || strings.HasPrefix(p, c+"/") || strings.HasPrefix(c, p+"/")
		}) {
			continue
		}
		chosen = append(chosen, p)
		if g.r.Intn(3) == 0 {
			out = append(out, fmt.Sprintf("%q: removed", p))
			continue
		}
		var kids []string
		for range g.r.Intn(3) {
			if from < g.n && g.r.Intn(2) == 0 {
				kids = append(kids, fmt.Sprintf("{prefab: p%d}", from+g.r.Intn(g.n-from)))
			} else {
				kids = append(kids, "{children: [{}]}")
			}
		}
		out = append(out, fmt.Sprintf("%q: {children: [%s]}", p, strings.Join(kids, ", ")))
	}
	if len(out) == 0 {
		return ""
	}
	return "parts: {" + strings.Join(out, ", ") + "}"
}

// sceneEntity writes an entity of the scene at depth: plain or an
// instance with changes to its parts, with children.
func (g *shapeGen) sceneEntity(depth int) string {
	var fields []string
	if g.r.Intn(2) == 0 {
		g.ids++
		fields = append(fields, fmt.Sprintf("id: e%d", g.ids))
	}
	if g.r.Intn(3) > 0 {
		j := g.r.Intn(g.n)
		fields = append(fields, fmt.Sprintf("prefab: p%d", j))
		if parts := g.parts(fmt.Sprintf("p%d", j), 0); parts != "" {
			fields = append(fields, parts)
		}
	}
	if depth < 2 {
		var kids []string
		for range g.r.Intn(3) {
			kids = append(kids, g.sceneEntity(depth+1))
		}
		if len(kids) > 0 {
			fields = append(fields, "children: ["+strings.Join(kids, ", ")+"]")
		}
	}
	return "{" + strings.Join(fields, ", ") + "}"
}

// treeDepth returns the depth of the subtree of e in w (e counts 1).
func treeDepth(w *ecs.World, e ecs.Entity) int {
	d := 1
	for _, c := range w.Children(e) {
		d = max(d, 1+treeDepth(w, c))
	}
	return d
}

// prefabDepth returns the depth of a prefab's node and its subtree.
func prefabDepth(n *registry.PrefabNode) int {
	d := 1
	for _, c := range n.Children {
		d = max(d, 1+prefabDepth(c))
	}
	return d
}

// expansionCounts loads src and returns what expansion made: the most
// entities and the deepest nesting of the scene or of any one prefab.
func expansionCounts(t *testing.T, src string) (entities, depth int) {
	t.Helper()
	reg := newTestRegistry(t)
	sc, err := loader.LoadBytes(reg, "g.yaml", []byte(src), loader.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	entities = reg.World().Len()
	for _, r := range sc.Roots {
		depth = max(depth, treeDepth(reg.World(), r))
	}
	for _, name := range reg.Prefabs().Names() {
		p, _ := reg.Prefabs().Get(name)
		entities = max(entities, reg.Prefabs().Size(name))
		depth = max(depth, prefabDepth(p.Root))
	}
	return entities, depth
}

// TestPrefabShapesExact: on random prefab graphs the limits refuse
// exactly what passes them.
func TestPrefabShapesExact(t *testing.T) {
	r := rand.New(rand.NewSource(21))
	scenes := 300
	if testing.Short() {
		scenes = 50
	}
	for k := range scenes {
		g := &shapeGen{r: r, reg: newTestRegistry(t)}
		src := g.generate()
		entities, depth := expansionCounts(t, src)
		compile := func(lim scenefile.Limits) error {
			doc, err := scenefile.Read("g.yaml", []byte(src), scenefile.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			doc.SetLimits(lim) // the reader's limits are not under test
			_, err = plan.Compile(doc, newTestRegistry(t), plan.Options{})
			return err
		}
		if err := compile(scenefile.Limits{MaxEntities: entities, MaxDepth: depth}); err != nil {
			t.Fatalf("scene %d at its own counts (%d entities, depth %d): %v\n%s", k, entities, depth, err, src)
		}
		if err := compile(scenefile.Limits{MaxEntities: entities - 1, MaxDepth: depth}); err == nil || !strings.Contains(err.Error(), "(Limits.MaxEntities)") {
			t.Fatalf("scene %d with one entity less than %d: %v\n%s", k, entities, err, src)
		}
		if depth > 1 {
			if err := compile(scenefile.Limits{MaxEntities: entities, MaxDepth: depth - 1}); err == nil || !strings.Contains(err.Error(), "(Limits.MaxDepth)") {
				t.Fatalf("scene %d with one level less than %d: %v\n%s", k, depth, err, src)
			}
		}
	}
}
