package scenefile

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
)

// fuzzLimits keep every fuzz input cheap: the readers must refuse, not
// crash or hang, whatever the input.
var fuzzLimits = Limits{MaxBytes: 1 << 16, MaxDepth: 32, MaxEntities: 2000, MaxErrors: 50}

func addSeeds(f *testing.F, ext string) {
	for _, name := range []string{"testdata/scene." + ext} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add(genScene(ext, 30))
	addPrefabSeeds(f, ext)
	addHostileSeeds(f, ext)
}

// addPrefabSeeds adds the prefab seeds of ext, and the repository's
// asteroids scene, which uses prefabs, for YAML.
func addPrefabSeeds(f *testing.F, ext string) {
	for _, s := range scenegen.PrefabScenes(ext) {
		f.Add([]byte(s))
	}
	if ext == "yaml" {
		if data, err := os.ReadFile("../../scenes/asteroids.yaml"); err == nil {
			f.Add(data)
		}
	}
}

// addHostileSeeds adds the inputs of the hostile-input table for files
// of extension ext (small ones, and a sample of the invalid bytes).
func addHostileSeeds(f *testing.F, ext string) {
	for _, set := range [][]hostileCase{hostileYAMLSyntax, hostileBOM, hostileJSON, hostileMessages} {
		for _, c := range set {
			if strings.HasSuffix(c.file, "."+ext) && len(c.src) < 4096 {
				f.Add([]byte(c.src))
			}
		}
	}
	for i, c := range hostileBytes() {
		if strings.HasSuffix(c.file, "."+ext) && i%5 == 0 {
			f.Add([]byte(c.src))
		}
	}
	if ext == "yaml" {
		f.Add(scenegen.FlowScene(20))
	}
}

func FuzzReadYAML(f *testing.F) {
	addSeeds(f, "yaml")
	for _, s := range []string{"", "a: b: c", "entities:\n - &a [*a]\n", "x: &a [*a, *a]\ny: *a\n", "entities:\n- {a: 1, a: 2}\n", "- - - -\n"} {
		f.Add([]byte(s))
	}
	// Values written as lists, in every place a value is read.
	f.Add([]byte(listScene))
	for _, s := range []string{
		"entities:\n- tags: [a, \"b\\tc\", 'd''e', [f], ~, {g: 1}]\n",
		"entities:\n- bag:\n    items:\n    - a\n    - |\n      b\n    - >-\n      c\n      d\n",
		"components:\n  t: {type: array, default: [a, \"b,c\", \" d\"]}\nentities:\n- {t: [], u: [\"\"]}\n",
		"scene:\n  s: {_reads: [a, b], _phase: [x], n: [1, 2]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ReadYAML("f.yaml", data, fuzzLimits)
		checkResult(t, doc, err)
		if msg := compareStreamed(data, doc, err); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, data)
		}
	})
}

// compareStreamed checks a read of data by the scene parser, which hands
// the top level and the entities to the reader as it goes, against the
// read of yaml.v3's whole tree: the same Document, the same errors.
func compareStreamed(data []byte, doc *Document, err error) string {
	if _, res := yamlsyntax.Parse(data, nil); res.State != yamlsyntax.OK {
		return ""
	}
	lim := fuzzLimits.WithDefaults()
	errs := &errorSink{max: lim.MaxErrors}
	y := newYAMLReader("f.yaml", data, lim, errs)
	slow := &Document{File: "f.yaml", Files: []string{"f.yaml"}, Pos: Pos{File: "f.yaml", Line: 1, Col: 1}}
	root, extras, serr := yamlsyntax.ParseReference(data)
	if serr != nil {
		return "yaml.v3 refuses what the parser accepts: " + serr.Error()
	}
	y.extras = extras
	y.readTree(slow, root)
	slow.nEntities = y.n
	checkUnique(slow, errs)
	slow, serr = finish(slow, errs)
	if fmt.Sprint(err) != fmt.Sprint(serr) {
		return fmt.Sprintf("errors differ:\nstreamed: %v\ntree:     %v", err, serr)
	}
	if doc == nil || slow == nil {
		if (doc == nil) != (slow == nil) {
			return "one read has no document"
		}
		return ""
	}
	if a, b := docString(doc), docString(slow); a != b {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		from := max(0, i-80)
		return fmt.Sprintf("documents differ:\nstreamed: ...%.200s\ntree:     ...%.200s", a[from:], b[from:])
	}
	return ""
}

func deref(f *float64) any {
	if f == nil {
		return nil
	}
	return *f
}

// docString prints a Document with every position, for comparisons.
func docString(d *Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %d", d.Pos, d.nEntities)
	comps := func(cs []*ComponentSpec) {
		for _, c := range cs {
			fmt.Fprintf(&b, " [%s@%v=%v@%v %q %v%s", c.Name, c.Pos(), c.Kind, c.ValuePos(), c.Text, c.Exact, listString(c.List))
			for _, kv := range c.Map {
				fmt.Fprintf(&b, " %s@%v=%q@%v %v%s", kv.Key, kv.Pos(), kv.Value, kv.ValuePos(), kv.Exact, listString(kv.List))
			}
			b.WriteString("]")
		}
	}
	comps(d.Systems)
	for _, x := range d.Decls {
		fmt.Fprintf(&b, " decl %s@%v %v", x.Name, x.Pos, x.Single)
		for _, p := range x.Props {
			fmt.Fprintf(&b, " (%s %s %q@%v%s %v %q %v %v %v)", p.Name, p.Type, p.Default, p.DefaultPos, listString(p.DefaultList), p.HasDefault, p.OneOf, deref(p.Min), deref(p.Max), p.Pos)
		}
	}
	for _, m := range d.Mixins {
		fmt.Fprintf(&b, " mixin %s@%v %q@%v", m.ID, m.Pos, m.Mixins, m.MixinPos)
		comps(m.Components)
	}
	for _, i := range d.Includes {
		fmt.Fprintf(&b, " include %q@%v", i.Path, i.Pos)
	}
	var ents func([]*EntitySpec)
	ents = func(es []*EntitySpec) {
		for _, e := range es {
			fmt.Fprintf(&b, " {%s@%v %v %q %q@%v", e.ID, e.IDPos, e.Pos, e.Class, e.Mixins, e.MixinPos)
			if e.Instance != nil {
				fmt.Fprintf(&b, " prefab %s@%v", e.Prefab(), e.PrefabPos())
				for _, p := range e.Parts() {
					fmt.Fprintf(&b, " part %s@%v removed=%v", p.Path, p.PathPos, p.Removed)
					ents([]*EntitySpec{p.Body})
				}
			}
			comps(e.Components)
			ents(e.Children)
			b.WriteString("}")
		}
	}
	for _, p := range d.Prefabs {
		fmt.Fprintf(&b, " prefab %s@%v", p.Name, p.Pos)
		ents([]*EntitySpec{p.Body})
	}
	ents(d.Entities)
	return b.String()
}

// listString prints a list's items with their positions ("" for none).
func listString(l *ListValue) string {
	if l == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(" list")
	for _, it := range l.Items {
		fmt.Fprintf(&b, " %q@%v", it.Text, it.Pos)
	}
	return b.String()
}

func FuzzReadXML(f *testing.F) {
	addSeeds(f, "xml")
	for _, s := range []string{"", "<scene/>", "<scene><entity><entity/></entity></scene>", "<!DOCTYPE a [<!ENTITY b \"c\">]><scene a=\"&b;\"/>", "<scene a='1' a='2'/>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ReadXML("f.xml", data, fuzzLimits)
		checkResult(t, doc, err)
	})
}

// checkResult checks invariants of any read: errors are positioned in the
// file and sorted; a successful read has positions on every entity.
func checkResult(t *testing.T, doc *Document, err error) {
	if err != nil {
		list, ok := err.(ErrorList)
		if !ok || len(list) == 0 {
			t.Fatalf("error is not a non-empty ErrorList: %#v", err)
		}
		for i, e := range list {
			if e.Pos.File != "f.yaml" && e.Pos.File != "f.xml" {
				t.Fatalf("error without file: %v", e)
			}
			if i > 0 && e.Pos.Less(list[i-1].Pos) {
				t.Fatalf("errors not sorted: %v", err)
			}
		}
		return
	}
	if doc == nil {
		t.Fatal("nil document without error")
	}
	checkLists(t, doc)
	var walk func([]*EntitySpec, int)
	walk = func(es []*EntitySpec, depth int) {
		if depth > fuzzLimits.MaxDepth {
			t.Fatalf("depth %d beyond the limit", depth)
		}
		for _, e := range es {
			if !e.Pos.IsValid() {
				t.Fatalf("entity without position")
			}
			for _, c := range e.Components {
				if !c.Pos().IsValid() || !validName(c.Name, true) {
					t.Fatalf("bad component %+v", c)
				}
			}
			walk(e.Children, depth+1)
		}
	}
	walk(doc.Entities, 1)
}

func mustRead(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
