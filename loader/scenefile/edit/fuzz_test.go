package edit_test

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

// editCorpusFile is one scene file the edit fuzz test edits, with the
// registry it compiles against.
type editCorpusFile struct {
	name   string
	src    string
	newReg func(testing.TB) *registry.Registry
}

// editCorpus returns the fixtures of the edit tests (values written as
// lists among them), the example scenes
// and the golden scenes, each also with CRLF line breaks.
func editCorpus(tb testing.TB) []editCorpusFile {
	out := []editCorpusFile{
		{"edit.yaml", editYAML, newEditRegistry},
		{"edit.xml", editXML, newEditRegistry},
		{"escapes.yaml", escapeCorpus(false), newEditRegistry},
		{"escapes.xml", escapeCorpus(true), newEditRegistry},
		{"lists.yaml", listEditYAML, newListEditRegistry}, // values written as lists
	}
	for _, name := range []string{"asteroids.yaml", "authoring.yaml", "cubes.yaml", "cubes.xml"} {
		b, err := fs.ReadFile(scenes.FS, name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, editCorpusFile{name, string(b), newRichRegistry})
	}
	for _, name := range []string{"rich.yaml", "rich.xml"} {
		b, err := os.ReadFile("../../testdata/golden/" + name)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, editCorpusFile{name, string(b), newRichRegistry})
	}
	for _, f := range out[:len(out):len(out)] {
		out = append(out, editCorpusFile{"crlf-" + f.name, strings.ReplaceAll(f.src, "\n", "\r\n"), f.newReg})
	}
	return out
}

// FuzzEditComponent edits a random component of a random entity of the
// corpus (set some properties to values made from the input, or remove
// it) and checks that the edited file compiles, that the component reads
// back with the values set (or is gone from the entity's own
// components), that every other entity, component and value compiles as
// before, and that the bytes changed lie within the entity's own part of
// the file.
func FuzzEditComponent(f *testing.F) {
	corpus := editCorpus(f)
	for file := range len(corpus) {
		for ent := range 6 {
			for comp := range 4 {
				f.Add(uint8(file), uint16(ent*7), uint8(comp*11), uint8(ent+comp), "a b", int64(ent*31+comp))
			}
		}
	}
	f.Add(uint8(0), uint16(3), uint8(5), uint8(2), "it's \"q\" #x: y & <z>\tw\né", int64(-7))
	f.Fuzz(func(t *testing.T, file uint8, ent uint16, comp uint8, op uint8, s string, n int64) {
		cf := corpus[int(file)%len(corpus)]
		fuzzEdit(t, cf, int(ent), int(comp), op, s, n)
	})
}

func fuzzEdit(t *testing.T, cf editCorpusFile, entIdx, compIdx int, op uint8, s string, n int64) {
	reg := cf.newReg(t)
	src := []byte(cf.src)
	doc, err := scenefile.Read(cf.name, src, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Compile(doc, reg, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ents []*scenefile.EntitySpec
	var walk func([]*scenefile.EntitySpec)
	walk = func(es []*scenefile.EntitySpec) {
		for _, e := range es {
			ents = append(ents, e)
			walk(e.Children)
		}
	}
	walk(doc.Entities)
	target := ents[entIdx%len(ents)]
	schemas := map[string]*registry.Schema{}
	for _, c := range reg.Components() {
		if !c.Multiple && !components.IsWorld(c) && !reg.Prefabs().IsMarker(c) { // world is computed, the prefab marker is the prefab key: never written as components
			schemas[c.Name] = c.Schema
		}
	}
	for _, d := range pl.Decls {
		schemas[d.Decl.Name] = d.Schema
	}
	for _, c := range target.Components {
		if base, _, _ := strings.Cut(c.Name, "__"); base != c.Name {
			if rc, ok := reg.Component(base); ok {
				schemas[c.Name] = rc.Schema
			}
		}
	}
	names := make([]string, 0, len(schemas))
	for name := range schemas {
		names = append(names, name)
	}
	slices.Sort(names)
	name := names[compIdx%len(names)]
	sch := schemas[name]
	remove := op&3 == 3
	attr := fuzzAttr(sch, op, s, n, strings.HasSuffix(cf.name, ".xml"))

	var out []byte
	if remove {
		out, err = live.EditRemove(src, target, name)
		if len(edit.Owns(target, name)) == 0 {
			if !errors.Is(err, edit.ErrNoSource) {
				t.Fatalf("remove %s, not written: %v", name, err)
			}
			return
		}
	} else {
		out, err = live.EditComponent(src, target, name, sch, attr)
	}
	if err != nil {
		if errors.Is(err, edit.ErrCannotEdit) && strings.Contains(err.Error(), "block scalar") {
			return
		}
		t.Fatalf("%s: %s %q on %s: %v", cf.name, name, attr, target.Pos, err)
	}
	checkEditLocal(t, src, out, ents, target)
	nd, err := scenefile.Read(cf.name, out, scenefile.Limits{})
	if err != nil {
		t.Fatalf("the edited file does not read: %v\n%s", err, out)
	}
	np, err := plan.Compile(nd, reg, plan.Options{})
	if err != nil {
		t.Fatalf("the edited file does not compile: %v\n%s", err, out)
	}
	want := map[int]any{}
	if !remove {
		p, err := sch.ParseAttr(name, attr)
		if err != nil {
			t.Fatal(err)
		}
		for _, pv := range p {
			want[pv.Index] = pv.Value
		}
	}
	compareEditedPlans(t, reg, schemas, pl.Roots, np.Roots, target, name, remove, want, out)
}

// fuzzAttr makes an attribute string for sch from the fuzz input: some
// properties (chosen by op's bits) with values of their type.
func fuzzAttr(sch *registry.Schema, op uint8, s string, n int64, xml bool) string {
	if sch.IsTag() {
		return ""
	}
	var parts []string
	for i := range sch.Props {
		p := &sch.Props[i]
		if !sch.Single() && op>>(2+i%6)&1 == 0 && i != int(op)%len(sch.Props) {
			continue
		}
		v := fuzzValue(p, s, n+int64(i), xml, sch.Single())
		if sch.Single() {
			return v
		}
		parts = append(parts, p.Name+": "+v)
	}
	return strings.Join(parts, "; ")
}

// fuzzValue makes a value of p's type.
func fuzzValue(p *registry.Property, s string, n int64, xml, single bool) string {
	if len(p.OneOf) > 0 {
		return p.OneOf[int(uint64(n)%uint64(len(p.OneOf)))]
	}
	k := n % 100000
	if k < 0 {
		k = -k
	}
	if p.Min != nil && float64(k) < *p.Min || p.Max != nil && float64(k) > *p.Max {
		return p.Print(p.Default)
	}
	f := strconv.FormatFloat(float64(k)/8, 'g', -1, 64)
	switch p.Type.Name {
	case "int":
		return strconv.FormatInt(k, 10)
	case "number", "time":
		return f
	case "boolean":
		return strconv.FormatBool(k%2 == 0)
	case "vec2":
		return f + " -" + f
	case "vec3":
		return f + " 0 " + f
	case "vec4":
		return "1 " + f + " 2 " + f
	case "color":
		return fmt.Sprintf("#%06x", k*97%0x1000000)
	case "string":
		// Characters a file can hold (XML 1.0 has no way to write most
		// control characters); ';' only in a single-property value.
		s = strings.Map(func(r rune) rune {
			switch {
			case r == ';' && !single, r == unicode.ReplacementChar:
				return -1
			case r == '\t' || r == '\n':
				return r
			case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0xfffe || r == 0xffff || r == 0xfeff:
				return -1
			}
			return r
		}, strings.ToValidUTF8(s, ""))
		if xml {
			s = strings.ReplaceAll(s, "\r", "")
		}
		return strings.TrimFunc(s, func(r rune) bool { return r < 0x80 && edit.IsAttrSpace(byte(r)) })
	}
	return p.Print(p.Default)
}

// checkEditLocal checks that the bytes out changes from src lie between
// the target's position and the next entity that is not its descendant.
func checkEditLocal(t *testing.T, src, out []byte, ents []*scenefile.EntitySpec, target *scenefile.EntitySpec) {
	t.Helper()
	pre := 0
	for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
		pre++
	}
	suf := 0
	for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
		suf++
	}
	if pre == len(src) && pre == len(out) {
		return // unchanged
	}
	s := scenefile.NewSource(target.File, src)
	lo, _ := s.Offset(target.Pos)
	hi := len(src)
	i := slices.Index(ents, target)
	var within func(e, anc *scenefile.EntitySpec) bool
	within = func(e, anc *scenefile.EntitySpec) bool {
		for _, c := range anc.Children {
			if c == e || within(e, c) {
				return true
			}
		}
		return false
	}
	for _, e := range ents[i+1:] {
		if !within(e, target) {
			hi, _ = s.Offset(e.Pos)
			break
		}
	}
	// The edit may take the white space and line break before the
	// entity's key or attribute.
	for lo > 0 && edit.IsFoldSpace(src[lo-1]) {
		lo--
	}
	if pre < lo-1 || len(src)-suf > hi {
		t.Fatalf("bytes %d..%d changed, outside the entity's part %d..%d:\n%s", pre, len(src)-suf, lo, hi, out)
	}
}

// compareEditedPlans walks two plans of the same tree and checks that
// they compose the same components with the same values, but for the
// target's component name: removed from its own components, or holding
// want for the properties set and its old values for the others.
func compareEditedPlans(t *testing.T, reg *registry.Registry, schemas map[string]*registry.Schema, a, b []*plan.Node, target *scenefile.EntitySpec, name string, remove bool, want map[int]any, out []byte) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("the tree changed:\n%s", out)
	}
	for i := range a {
		x, y := a[i], b[i]
		isTarget := x.Src == target
		values := func(nps []registry.NamedPatch) map[string]map[int]any {
			m := map[string]map[int]any{}
			for _, np := range nps {
				if m[np.Name] == nil {
					m[np.Name] = map[int]any{}
				}
				for _, pv := range np.Patch {
					m[np.Name][pv.Index] = pv.Value
				}
			}
			return m
		}
		xv, yv := values(x.Comps), values(y.Comps)
		if isTarget {
			if remove {
				if len(edit.Owns(y.Src, name)) > 0 {
					t.Fatalf("%s still written on %s:\n%s", name, x.Path, out)
				}
				// What remains comes from the entity's mixins.
				delete(xv, name)
				if v, ok := yv[name]; ok {
					xv[name] = v
				}
			} else {
				if _, ok := yv[name]; !ok {
					t.Fatalf("%s missing on %s:\n%s", name, x.Path, out)
				}
				if xv[name] == nil {
					xv[name] = map[int]any{}
				}
				for k, v := range want {
					xv[name][k] = v
				}
			}
		}
		if len(xv) != len(yv) {
			t.Fatalf("%s: components %v, then %v:\n%s", x.Path, keys(xv), keys(yv), out)
		}
		for c, props := range xv {
			if c == registry.PrefabComponent { // an instance's marker: the prefab it names
				if got := yv[c]; fmt.Sprint(got) != fmt.Sprint(props) {
					t.Fatalf("%s: instance of %v, then %v:\n%s", x.Path, props, got, out)
				}
				continue
			}
			sch := schemas[c]
			if sch == nil {
				if rc, ok := reg.Component(c); ok {
					sch = rc.Schema
				}
			}
			got, ok := yv[c]
			if !ok || sch == nil && len(props)+len(got) > 0 {
				t.Fatalf("%s: %s: properties %v, then %v:\n%s", x.Path, c, props, got, out)
			}
			if sch == nil {
				continue
			}
			// A property not given counts as its default.
			for k := range sch.Props {
				p := &sch.Props[k]
				v, ok := props[k]
				if !ok {
					v = p.Default
				}
				g, ok := got[k]
				if !ok {
					g = p.Default
				}
				if !p.Type.Equal(v, g) {
					t.Fatalf("%s: %s.%s: %q, then %q:\n%s", x.Path, c, p.Name, p.Print(v), p.Print(g), out)
				}
			}
		}
		compareEditedPlans(t, reg, schemas, x.Children, y.Children, target, name, remove, want, out)
	}
}

func keys(m map[string]map[int]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestEditCorpus runs every entity × component × a few values of the
// corpus through the checks of the fuzz test.
func TestEditCorpus(t *testing.T) {
	corpus := editCorpus(t)
	corpus = corpus[:len(corpus)/2] // the CRLF copies are left to the fuzz test
	values := []string{"plain", "it's \"q\"", "#x: y & <z>", "a\tb\nc é ✓", ""}
	for fi, cf := range corpus {
		doc, err := scenefile.Read(cf.name, []byte(cf.src), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		n := doc.Count()
		for e := range n {
			for c := range 24 {
				for op := range 2 {
					v := values[(e+c+op)%len(values)]
					t.Run(fmt.Sprintf("%d/%d/%d/%d", fi, e, c, op), func(t *testing.T) {
						fuzzEdit(t, cf, e, c, uint8(op*3+c*5), v, int64(e*7+c*3+op)-int64(math.Sqrt(float64(c*100))))
					})
				}
			}
		}
	}
}
