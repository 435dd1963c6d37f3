package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scenecs/scenecs/loader"
)

// prefabDumpScene has a prefab with parts, a nested prefab, instances
// with and without ids, and an instance changing one of its parts.
const prefabDumpScene = `prefabs:
  gun-pf:
    class: gun
    scale: 1 2 1
  ship-pf:
    class: ship
    color: "#ff0000"
    children:
      - id: gun-left
        prefab: gun-pf
        position: -1 0 0
      - id: gun-right
        prefab: gun-pf
        position: 1 0 0
entities:
  - id: f1
    prefab: ship-pf
    position: 5 0 0
  - id: f2
    prefab: ship-pf
    parts:
      gun-left: {scale: 3 3 3}
  - prefab: ship-pf
`

// dumpText runs "scene-run dump" with args and returns stdout.
func dumpText(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := cmdDump(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("dump %v: %v\n%s", args, err, errOut.String())
	}
	return out.String()
}

// TestDumpFlat: "dump" writes a scene's instances as prefab: plus their
// differences, with the prefabs; "dump -flat" writes every entity whole
// and no prefab. Both, in every format, load back to the same World.
func TestDumpFlat(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "ships.yaml")
	if err := os.WriteFile(src, []byte(prefabDumpScene), 0o644); err != nil {
		t.Fatal(err)
	}
	want := dumpText(t, "-format", "json", "-flat", src)
	if strings.Contains(want, "prefab") {
		t.Fatalf("the flat dump names prefabs:\n%s", want)
	}
	for _, f := range []string{"yaml", "xml", "json"} {
		for _, flat := range []bool{false, true} {
			args := []string{"-format", f}
			if flat {
				args = append(args, "-flat")
			}
			text := dumpText(t, append(args, src)...)
			// The structured dump names the prefab once per instance
			// root and defines it; the flat one never names it.
			n := strings.Count(text, "ship-pf")
			if flat && n != 0 || !flat && n < 4 {
				t.Errorf("%s flat=%v: %d mentions of the prefab ship-pf:\n%s", f, flat, n, text)
			}
			back := filepath.Join(dir, "back."+f)
			if err := os.WriteFile(back, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := dumpText(t, "-format", "json", "-flat", back); got != want {
				t.Errorf("%s flat=%v: does not load back to the same World:\n%s\nwant\n%s\nfrom\n%s", f, flat, got, want, text)
			}
		}
	}
}

// TestSchemaJSONPrefabs: the JSON Schema accepts the prefab forms the
// loader accepts and refuses the misplaced keys the loader refuses.
func TestSchemaJSONPrefabs(t *testing.T) {
	jv := &jsonValidator{root: decodeJSON(t, schemaOutput(t))}
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"prefabs, parts", prefabDumpScene, true},
		{"everything", prefabDumpScene[:strings.Index(prefabDumpScene, "entities:")] + `  big-ship:
    prefab: ship-pf
    scale: 2 2 2
    parts:
      gun-left: {class: gun big}
entities:
  - id: f1
    prefab: big-ship
    mixin: []
    parts:
      gun-right: {position: 2 0 0, children: [{id: pilot}]}
    children:
      - visible: false
`, true},
		{"empty prefab", "prefabs: {p: }\nentities: [{prefab: p}]\n", true},
		{"prefabs a list", "prefabs: [p]\n", false},
		{"prefab name with a space", "prefabs: {p: {}}\nentities: [{prefab: p q}]\n", false},
		{"prefab not a string", "prefabs: {p: {}}\nentities: [{prefab: [p]}]\n", false},
		{"id in a prefab", "prefabs: {p: {id: x}}\n", false},
		{"prefab in a mixin", "prefabs: {p: {}}\nmixins: {m: {prefab: p}}\n", false},
		{"parts in a mixin", "mixins: {m: {parts: {}}}\n", false},
		{"parts a list", "prefabs: {p: {children: [{id: a}]}}\nentities: [{prefab: p, parts: [a]}]\n", false},
		{"id in a part", "prefabs: {p: {children: [{id: a}]}}\nentities: [{prefab: p, parts: {a: {id: b}}}]\n", false},
		{"prefab in a part", "prefabs: {p: {children: [{id: a}]}, q: {}}\nentities: [{prefab: p, parts: {a: {prefab: q}}}]\n", false},
		{"parts in a part", "prefabs: {p: {children: [{id: a, children: [{id: b}]}]}}\nentities: [{prefab: p, parts: {a: {parts: {b: {}}}}}]\n", false},
		{"bad value in a part", "prefabs: {p: {children: [{id: a}]}}\nentities: [{prefab: p, parts: {a: {position: 1 x}}}]\n", false},
		{"bad value in a prefab", "prefabs: {p: {position: 1 x}}\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			errs := jv.validate(jv.root, yamlToJSON(t, tt.src), "$")
			if got := len(errs) == 0; got != tt.ok {
				t.Errorf("schema valid = %v, want %v; errors: %v", got, tt.ok, errs)
			}
			rt, err := newRuntime(0)
			if err != nil {
				t.Fatal(err)
			}
			_, err = loader.Load(rt.reg, fstest.MapFS{"scene.yaml": {Data: []byte(tt.src)}}, "scene.yaml", loader.Options{})
			if got := err == nil; got != tt.ok {
				t.Errorf("loader ok = %v, want %v (test case out of date?): %v", got, tt.ok, err)
			}
		})
	}
}

// TestSchemaXSDPrefabs: the XSD declares <prefab> (with a required name)
// and <part> (with a required path), prefab attributes on entities,
// prefabs and parts, and each element of an XML scene with prefabs is
// allowed where it stands.
func TestSchemaXSDPrefabs(t *testing.T) {
	root := parseXSD(t, schemaOutput(t, "-format", "xsd"))
	attrs, anyAttr := xsdAttributes(root)
	for typ, want := range map[string][]string{
		"complexType:prefab": {"name", "class", "mixin", "prefab"},
		"complexType:part":   {"path", "class", "mixin"},
		"complexType:entity": {"id", "class", "mixin", "prefab"},
	} {
		for _, a := range want {
			if _, ok := attrs[typ][a]; !ok {
				t.Errorf("%s has no attribute %s", typ, a)
			}
		}
		if !anyAttr[typ] {
			t.Errorf("%s does not take scene-declared components", typ)
		}
	}
	// The elements each complex type (and the scene) allows as children.
	allowed := map[string]map[string]bool{}
	required := map[string]bool{}
	root.walk(func(n *xsdNode, parents []*xsdNode) {
		if n.XMLName.Local == "attribute" && n.attr("use") == "required" {
			for i := len(parents) - 1; i >= 0; i-- {
				if p := parents[i]; p.XMLName.Local == "complexType" && p.attr("name") != "" {
					required[p.attr("name")+"@"+n.attr("name")] = true
					break
				}
			}
		}
		if n.XMLName.Local != "element" || len(parents) < 2 {
			return
		}
		for i := len(parents) - 1; i >= 0; i-- {
			p := parents[i]
			owner := ""
			if p.XMLName.Local == "complexType" && p.attr("name") != "" {
				owner = p.attr("name")
			} else if p.XMLName.Local == "element" {
				owner = p.attr("name")
			}
			if owner != "" {
				if allowed[owner] == nil {
					allowed[owner] = map[string]bool{}
				}
				allowed[owner][n.attr("name")] = true
				break
			}
		}
	})
	for _, r := range []string{"prefab@name", "part@path"} {
		if !required[r] {
			t.Errorf("%s is not required", r)
		}
	}
	const scene = `<scene>
  <prefab name="gun" class="gun"><entity id="muzzle"/></prefab>
  <prefab name="ship" class="ship"><entity id="gun-left" prefab="gun"/></prefab>
  <prefab name="big-ship" prefab="ship" scale="2 2 2"/>
  <entity id="f1" prefab="big-ship">
    <part path="gun-left/muzzle" scale="3 3 3"><entity id="flash"/></part>
    <entity id="pilot"/>
  </entity>
</scene>`
	rt, err := newRuntime(0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loader.LoadBytes(rt.reg, "a.xml", []byte(scene), loader.Options{}); err != nil {
		t.Fatal(err)
	}
	var doc xsdNode
	if err := xml.Unmarshal([]byte(scene), &doc); err != nil {
		t.Fatal(err)
	}
	doc.walk(func(n *xsdNode, parents []*xsdNode) {
		if len(parents) == 0 {
			return
		}
		if p := parents[len(parents)-1].XMLName.Local; !allowed[p][n.XMLName.Local] {
			t.Errorf("<%s> in <%s> is not allowed by the XSD (allowed: %v)", n.XMLName.Local, p, allowed[p])
		}
	})
	for _, tt := range []struct{ parent, child string }{{"prefab", "part"}, {"part", "part"}, {"prefab", "prefab"}, {"entity", "prefab"}} {
		if allowed[tt.parent][tt.child] {
			t.Errorf("the XSD allows <%s> in <%s>, which the loader refuses", tt.child, tt.parent)
		}
	}
}
