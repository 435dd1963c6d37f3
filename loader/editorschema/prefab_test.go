package editorschema

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// prefabSchemaScene has prefabs (one a variant, with parts), instances
// with parts changed and children added, and a prefab inside a prefab.
const prefabSchemaScene = `prefabs:
  gun:
    class: gun
    children:
      - id: muzzle
        position: 0 1 0
  ship:
    class: ship
    color: "#ff0000"
    children:
      - id: gun-left
        prefab: gun
        position: -1 0 0
      - {prefab: gun, position: 1 0 0}
  big-ship:
    prefab: ship
    scale: 2 2 2
    parts:
      gun-left: {class: gun big}
entities:
  - id: f1
    prefab: big-ship
    mixin: []
    parts:
      gun-left/muzzle: {position: 0 2 0, children: [{id: flash}]}
      "0": {visible: false}
    children:
      - visible: false
  - prefab: ship
`

// TestSchemaPrefabs: the JSON Schema (checked by a real validator)
// accepts the prefab forms the loader accepts, and refuses the misplaced
// keys and values the loader refuses, with and without the Document.
func TestSchemaPrefabs(t *testing.T) {
	reg := newRichRegistry(t)
	plain := compileJSONSchema(t, reg, nil)
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"prefabs, variants, parts", prefabSchemaScene, true},
		{"empty prefab", "prefabs: {p: }\nentities: [{prefab: p}]\n", true},
		{"tag in a prefab and a part", "prefabs: {p: {boss: , children: [{id: a}]}}\nentities: [{prefab: p, parts: {a: {npc: }}}]\n", true},
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
		{"misspelt component in a prefab", "prefabs: {p: {postion: 1 2 3}}\n", false},
		{"misspelt property in a part", "prefabs: {p: {children: [{id: a}]}}\nentities: [{prefab: p, parts: {a: {spin: 'sped: 1'}}}]\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			err := compileYAML(reg, "s.yaml", src)
			if got := err == nil; got != tt.ok {
				t.Fatalf("loader ok = %v, want %v (test case out of date?): %v", got, tt.ok, err)
			}
			schemas := map[string]*jsonschema.Schema{"without a Document": plain}
			if doc, err := scenefile.ReadYAML("s.yaml", src, scenefile.Limits{}); err == nil {
				schemas["with the Document"] = compileJSONSchema(t, reg, doc)
			}
			checkValid(t, schemas, src, tt.ok)
		})
	}
}

// TestXSDPrefabs: with xmllint, the XSD (made with or without the
// Document) accepts <prefab> and <part> where the loader does, and
// refuses them where it does not.
func TestXSDPrefabs(t *testing.T) {
	lint := xmllint(t)
	reg := newRichRegistry(t)
	dir := t.TempDir()
	plain := writeXSD(t, dir, reg, nil)
	const valid = `<scene>
  <prefab name="gun" class="gun" boss=""><entity id="muzzle" position="0 1 0"/></prefab>
  <prefab name="ship" class="ship"><entity id="gun-left" prefab="gun"/></prefab>
  <prefab name="big-ship" prefab="ship" scale="2 2 2"/>
  <entity id="f1" prefab="big-ship" spin.speed="4">
    <part path="gun-left/muzzle" scale="3 3 3" spin="axis: 0 0 1"><entity id="flash"/></part>
    <entity id="pilot"/>
    <part path="gun-left" npc=""/>
  </entity>
</scene>`
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"valid", valid, true},
		{"part in a prefab", `<scene><prefab name="a"><part path="x"/></prefab></scene>`, false},
		{"prefab in an entity", `<scene><entity><prefab name="a"/></entity></scene>`, false},
		{"prefab without a name", `<scene><prefab/></scene>`, false},
		{"part without a path", `<scene><prefab name="a"><entity id="x"/></prefab><entity prefab="a"><part/></entity></scene>`, false},
		{"part in a part", `<scene><prefab name="a"><entity id="x"><entity id="y"/></entity></prefab><entity prefab="a"><part path="x"><part path="y"/></part></entity></scene>`, false},
		{"misspelt property in a part", `<scene><prefab name="a"><entity id="x"/></prefab><entity prefab="a"><part path="x" spin="sped: 1"/></entity></scene>`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".xml")
			if err := os.WriteFile(file, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			doc, err := scenefile.ReadXML(file, []byte(tt.src), scenefile.Limits{})
			if err == nil {
				_, err = compile(doc, reg)
			}
			if got := err == nil; got != tt.ok {
				t.Fatalf("loader ok = %v, want %v (test case out of date?): %v", got, tt.ok, err)
			}
			xsds := map[string]string{"without a Document": plain}
			if doc != nil {
				var b bytes.Buffer
				if WriteXSD(&b, reg, doc) == nil {
					xsds["with the Document"] = writeXSD(t, dir, reg, doc)
				}
			}
			for what, xsd := range xsds {
				out := runXmllint(t, lint, xsd, file)
				if got := out == nil; got != tt.ok {
					t.Errorf("XSD made %s: valid = %v, want %v\n%s", what, got, tt.ok, out)
				}
			}
		})
	}
}
