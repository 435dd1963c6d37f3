package scenefile

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// stripPos zeroes every position, file name and source in doc, so that documents
// read from different spellings can be compared.
func stripPos(doc *Document) {
	doc.File, doc.Files, doc.Pos, doc.nEntities, doc.read = "", nil, Pos{}, 0, nil
	comps := func(cs []*ComponentSpec) {
		for _, c := range cs {
			c.src, c.key, c.val = nil, span{}, span{}
			if c.Kind == ValueEmpty {
				// YAML's `enemy:` is not exact, XML's enemy="" is: they
				// differ for a string property only (its default, or "").
				c.Exact = false
			}
			for _, kv := range c.Map {
				kv.src, kv.key, kv.val = nil, span{}, span{}
			}
		}
	}
	comps(doc.Systems)
	for _, d := range doc.Decls {
		d.Pos = Pos{}
		for _, p := range d.Props {
			p.Pos, p.DefaultPos = Pos{}, Pos{}
		}
	}
	for _, m := range doc.Mixins {
		m.Pos, m.MixinPos = Pos{}, Pos{}
		comps(m.Components)
	}
	for _, inc := range doc.Includes {
		inc.Pos = Pos{}
	}
	var ents func([]*EntitySpec)
	ents = func(es []*EntitySpec) {
		for _, e := range es {
			e.Pos, e.IDPos, e.MixinPos, e.File = Pos{}, Pos{}, Pos{}, ""
			comps(e.Components)
			ents(e.Children)
		}
	}
	ents(doc.Entities)
}

func readTestdata(t *testing.T, name string) *Document {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Read(name, data, Limits{})
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return doc
}

func TestYAMLAndXMLAgree(t *testing.T) {
	y := readTestdata(t, "scene.yaml")
	x := readTestdata(t, "scene.xml")
	if y.nEntities != 4 || x.nEntities != 4 {
		t.Errorf("entity counts %d, %d; want 4", y.nEntities, x.nEntities)
	}
	stripPos(y)
	stripPos(x)
	if !reflect.DeepEqual(y, x) {
		t.Errorf("YAML and XML models differ:\nyaml: %s\nxml:  %s", dumpDoc(y), dumpDoc(x))
	}
	// Spot checks of content.
	p := y.Entities[0]
	if p.ID != "player" || !reflect.DeepEqual(p.Class, []string{"hero", "tall"}) || len(p.Children) != 2 ||
		len(p.Components) != 4 || p.Components[1].Kind != ValueEmpty || p.Components[3].Name != "sound__walk" {
		t.Errorf("player read wrongly: %s", dumpDoc(y))
	}
	if y.Entities[1].ID != "it's" {
		t.Errorf("id = %q", y.Entities[1].ID)
	}
	d := y.Decls
	if len(d) != 4 || !d[0].Single || d[0].Props[0].Default != "1" || len(d[1].Props) != 2 ||
		*d[1].Props[0].Min != 0 || *d[1].Props[1].Max != 1000 || len(d[2].Props) != 0 ||
		!reflect.DeepEqual(d[3].Props[0].OneOf, []string{"walk", "run"}) {
		t.Errorf("declarations read wrongly: %s", dumpDoc(y))
	}
}

func dumpDoc(d *Document) string {
	var b strings.Builder
	for _, c := range d.Systems {
		b.WriteString("\n scene " + c.Name + "=" + c.Text)
	}
	for _, x := range d.Decls {
		b.WriteString("\n decl " + x.Name)
		for _, p := range x.Props {
			b.WriteString(" [" + p.Name + ":" + p.Type + "=" + p.Default + " " + strings.Join(p.OneOf, "|") + "]")
		}
	}
	for _, m := range d.Mixins {
		b.WriteString("\n mixin " + m.ID + " <" + strings.Join(m.Mixins, ",") + ">")
		for _, c := range m.Components {
			b.WriteString(" " + c.Name + "=" + c.Text)
		}
	}
	var ents func([]*EntitySpec, string)
	ents = func(es []*EntitySpec, ind string) {
		for _, e := range es {
			b.WriteString("\n" + ind + "entity " + e.ID + " ." + strings.Join(e.Class, ".") + " <" + strings.Join(e.Mixins, ",") + ">")
			for _, c := range e.Components {
				b.WriteString(" " + c.Name + "=" + c.Kind.String() + ":" + c.Text)
			}
			ents(e.Children, ind+"  ")
		}
	}
	ents(d.Entities, " ")
	return b.String()
}

// TestPositions checks exact positions of nodes in both formats,
// including a start tag spread over several lines and non-ASCII text.
func TestPositions(t *testing.T) {
	y := readTestdata(t, "scene.yaml")
	x := readTestdata(t, "scene.xml")
	for _, tc := range []struct {
		got  Pos
		want string
	}{
		{y.Entities[0].Pos, "scene.yaml:15:5"},
		{y.Entities[0].IDPos, "scene.yaml:15:9"},
		{y.Entities[0].MixinPos, "scene.yaml:17:12"},
		{y.Entities[0].Components[0].Pos(), "scene.yaml:18:5"},
		{y.Entities[0].Components[0].ValuePos(), "scene.yaml:18:15"},
		{y.Entities[0].Components[1].ValuePos(), "scene.yaml:19:11"}, // after the colon of `enemy:`
		{y.Entities[0].Children[1].Pos, "scene.yaml:25:9"},
		{y.Decls[1].Props[1].Pos, "scene.yaml:7:51"},
		{y.Mixins[1].Pos, "scene.yaml:12:3"},
		{y.Includes[0].Pos, "scene.yaml:13:11"},
		{y.Systems[1].Pos(), "scene.yaml:4:3"},
		{x.Entities[0].Pos, "scene.xml:16:3"},
		{x.Entities[0].IDPos, "scene.xml:16:15"},
		{x.Entities[0].MixinPos, "scene.xml:18:18"},
		{x.Entities[0].Components[0].Pos(), "scene.xml:19:11"},
		{x.Entities[0].Components[0].ValuePos(), "scene.xml:19:21"},
		{x.Entities[0].Components[3].Pos(), "scene.xml:22:11"},
		{x.Entities[0].Children[1].Pos, "scene.xml:24:5"},
		{x.Decls[1].Props[1].Pos, "scene.xml:8:23"},
		{x.Mixins[1].Pos, "scene.xml:14:14"},
		{x.Includes[0].Pos, "scene.xml:15:17"},
		{x.Systems[1].Pos(), "scene.xml:3:36"},
	} {
		if got := tc.got.String(); got != tc.want {
			t.Errorf("position %s, want %s", got, tc.want)
		}
	}
	// Columns count characters, not bytes.
	doc, err := ReadXML("u.xml", []byte("<scene>\n<entity title=\"héllo\" x=\"1\"/></scene>"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Entities[0].Components[1].Pos().String(); got != "u.xml:2:23" {
		t.Errorf("XML column after non-ASCII: %s, want u.xml:2:24", got)
	}
	doc, err = ReadYAML("u.yaml", []byte("entities:\n- {title: héllo, x: 1}\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Entities[0].Components[1].Pos().String(); got != "u.yaml:2:18" {
		t.Errorf("YAML column after non-ASCII: %s, want u.yaml:2:19", got)
	}
}

func TestYAMLMapValues(t *testing.T) {
	doc, err := ReadYAML("m.yaml", []byte("entities:\n  - health: {hp: 100, max: }\n    material:\n      color: red\n      opacity: \"0.5\"\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c := doc.Entities[0].Components
	if c[0].Kind != ValueMap || len(c[0].Map) != 2 || c[0].Map[0].Key != "hp" || c[0].Map[0].Value != "100" || c[0].Map[1].Value != "" {
		t.Errorf("health = %+v", c[0])
	}
	if c[1].Map[1].Value != "0.5" || c[1].Map[1].ValuePos().String() != "m.yaml:5:16" || c[1].Map[0].Pos().String() != "m.yaml:4:7" {
		t.Errorf("material = %+v %v", c[1].Map[1], c[1].Map[0].Pos())
	}
}

func TestEmptyDocuments(t *testing.T) {
	for _, src := range []string{"", "# nothing\n", "~\n", "{}\n"} {
		doc, err := ReadYAML("e.yaml", []byte(src), Limits{})
		if err != nil || doc == nil || len(doc.Entities) != 0 {
			t.Errorf("ReadYAML(%q) = %v, %v", src, doc, err)
		}
	}
	if _, err := ReadXML("e.xml", []byte("<scene/>"), Limits{}); err != nil {
		t.Error(err)
	}
}

func TestErrorList(t *testing.T) {
	_, err := ReadYAML("a.yaml", []byte("entities:\n  - id: a\n    9x: 1\n  - id: a\n"), Limits{})
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 2 {
		t.Fatalf("err = %#v", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Pos.Line != 3 {
		t.Errorf("errors.As(*Error) = %v", e)
	}
	if got, want := err.Error(), "a.yaml:3:5: invalid component name \"9x\" (want a letter, then letters, digits, '-' or '_', optionally \"__\" and an instance id)\na.yaml:4:9: duplicate entity id \"a\" (first at a.yaml:2:9)"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if (ErrorList{}).Err() != nil {
		t.Error("empty list is an error")
	}
	for p, want := range map[Pos]string{{}: "-", {File: "f"}: "f", {Line: 2, Col: 3}: "2:3", {File: "f", Line: 2}: "f:2"} {
		if p.String() != want {
			t.Errorf("%#v.String() = %q, want %q", p, p.String(), want)
		}
	}
}

func TestReadDispatch(t *testing.T) {
	if _, err := Read("a.YML", []byte("entities: []"), Limits{}); err != nil {
		t.Error(err)
	}
	_, err := Read("a.txt", []byte("{}"), Limits{})
	if err == nil || err.Error() != `a.txt: unknown scene format ".txt" (want .yaml, .yml, .xml or .json)` {
		t.Errorf("err = %v", err)
	}
}

func TestReadFileIncludes(t *testing.T) {
	fsys := fstest.MapFS{
		"main.yaml":         {Data: []byte("include: [parts/a.yaml, parts/b.xml]\nentities:\n  - id: main\n")},
		"parts/a.yaml":      {Data: []byte("include: common.yaml\nmixins:\n  red: {material: \"color: red\"}\nentities:\n  - id: a\n")},
		"parts/b.xml":       {Data: []byte("<scene>\n  <include src=\"common.yaml\"/>\n  <entity id=\"b\"/>\n</scene>\n")},
		"parts/common.yaml": {Data: []byte("components:\n  tag: {}\nentities:\n  - id: common\n")},
	}
	doc, err := ReadFile(fsys, "main.yaml", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range doc.Entities {
		ids = append(ids, e.ID+"@"+e.Pos.File)
	}
	want := []string{"common@parts/common.yaml", "a@parts/a.yaml", "b@parts/b.xml", "main@main.yaml"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("entities %v, want %v", ids, want)
	}
	if !reflect.DeepEqual(doc.Files, []string{"main.yaml", "parts/a.yaml", "parts/common.yaml", "parts/b.xml"}) {
		t.Errorf("files %v", doc.Files)
	}
	if len(doc.Mixins) != 1 || len(doc.Decls) != 1 || doc.Includes[1].Resolved != "parts/b.xml" || doc.nEntities != 4 {
		t.Errorf("merge wrong: %s", dumpDoc(doc))
	}
}

func TestReadFileErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		lim  Limits
		want string
	}{
		{"cycle", fstest.MapFS{
			"a.yaml":     {Data: []byte("include: sub/b.yaml\n")},
			"sub/b.yaml": {Data: []byte("include: [c.xml]\n")},
			"sub/c.xml":  {Data: []byte("<scene>\n <include src=\"../a.yaml\"/>\n</scene>")},
		}, Limits{}, "sub/c.xml:2:16: include cycle: a.yaml -> sub/b.yaml -> sub/c.xml -> a.yaml"},
		{"self", fstest.MapFS{"a.yaml": {Data: []byte("include: a.yaml\n")}}, Limits{},
			"a.yaml:1:10: include cycle: a.yaml -> a.yaml"},
		{"escape", fstest.MapFS{"d/a.yaml": {Data: []byte("include: [../../x.yaml]\n")}}, Limits{},
			`d/a.yaml:1:11: include "../../x.yaml": path leaves the scene root`},
		{"absolute", fstest.MapFS{"a.yaml": {Data: []byte("include: /etc/x.yaml\n")}}, Limits{},
			`a.yaml:1:10: include "/etc/x.yaml": absolute paths are not allowed`},
		{"format", fstest.MapFS{"a.yaml": {Data: []byte("include: x.txt\n")}}, Limits{},
			`a.yaml:1:10: include "x.txt": unknown scene format (want .yaml, .yml, .xml or .json)`},
		{"missing", fstest.MapFS{"a.yaml": {Data: []byte("include: nope.yaml\n")}}, Limits{},
			"a.yaml:1:10: cannot read nope.yaml: file does not exist"},
		{"root missing", fstest.MapFS{}, Limits{}, "a.yaml: cannot read a.yaml: file does not exist"},
		{"duplicate across files", fstest.MapFS{
			"a.yaml": {Data: []byte("include: b.yaml\nentities:\n  - id: x\nmixins:\n  m: {}\n")},
			"b.yaml": {Data: []byte("entities:\n  - id: x\nmixins:\n  m: {}\n")},
		}, Limits{}, "a.yaml:3:9: duplicate entity id \"x\" (first at b.yaml:2:9)\na.yaml:5:3: duplicate mixin id \"m\" (first at b.yaml:4:3)"},
		{"errors in several files", fstest.MapFS{
			"a.yaml": {Data: []byte("include: b.yaml\nbogus: 1\n")},
			"b.yaml": {Data: []byte("entities: 3\n")},
		}, Limits{}, "a.yaml:2:1: unknown top-level key \"bogus\" (want scene, components, mixins, prefabs, include or entities)\nb.yaml:1:11: entities must be a list of entities, not a scalar"},
		{"too many includes", fstest.MapFS{
			"a.yaml": {Data: []byte("include: [b.yaml, c.yaml, d.yaml]\n")},
			"b.yaml": {Data: []byte("")}, "c.yaml": {Data: []byte("")}, "d.yaml": {Data: []byte("")},
		}, Limits{MaxIncludes: 2}, "a.yaml:1:27: too many includes (limit 2)"},
		{"total size", fstest.MapFS{
			"a.yaml": {Data: []byte("include: b.yaml\n")},
			"b.yaml": {Data: []byte("entities: []\n")},
		}, Limits{MaxBytes: 20}, "a.yaml:1:10: b.yaml is too large: 13 bytes, and only 4 of the 20 bytes allowed for all files of the scene are left"},
		{"root too large", fstest.MapFS{"a.yaml": {Data: []byte("entities: []\n")}}, Limits{MaxBytes: 5},
			"a.yaml: file too large: 13 bytes (limit 5)"},
		{"entities across files", fstest.MapFS{
			"a.yaml": {Data: []byte("include: b.yaml\nentities: [{}, {}]\n")},
			"b.yaml": {Data: []byte("entities: [{}, {}]\n")},
		}, Limits{MaxEntities: 3}, "b.yaml:1:16: too many entities (limit 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := "a.yaml"
			if tc.name == "escape" {
				root = "d/a.yaml"
			}
			_, err := ReadFile(tc.fsys, root, tc.lim)
			if err == nil {
				t.Fatalf("no error, want %s", tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
}

// TestDigest: a document's digest is that of the files it was read from,
// its includes too: the same bytes give the same digest, a change in an
// included file another; a Document built in memory has none.
func TestDigest(t *testing.T) {
	fsys := fstest.MapFS{
		"main.yaml":  {Data: []byte("include: part.yaml\nentities:\n  - id: a\n")},
		"part.yaml":  {Data: []byte("entities:\n  - id: b\n")},
		"other.yaml": {Data: []byte("entities:\n  - id: b\n")},
	}
	digest := func() [32]byte {
		doc, err := ReadFile(fsys, "main.yaml", Limits{})
		if err != nil {
			t.Fatal(err)
		}
		d, ok := doc.Digest()
		if !ok {
			t.Fatal("a document read from files has no digest")
		}
		return d
	}
	a, b := digest(), digest()
	fsys["part.yaml"] = &fstest.MapFile{Data: []byte("entities:\n  - id: c\n")}
	if c := digest(); a != b || c == a {
		t.Errorf("digests: the same files %x %x, an include changed %x", a[:4], b[:4], c[:4])
	}
	mem, err := Read("x.yaml", []byte("entities:\n  - id: b\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := mem.Digest(); !ok || d == a {
		t.Errorf("a document read from memory: digest %x %v", d[:4], ok)
	}
	if _, ok := (&Document{}).Digest(); ok {
		t.Error("a Document built in memory has a digest")
	}
}
