package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
)

// schemaOutput runs "scene-run schema" with args and returns stdout.
func schemaOutput(t *testing.T, args ...string) []byte {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), append([]string{"schema"}, args...), &out, &errOut); code != exitOK {
		t.Fatalf("schema %v: exit %d\n%s", args, code, errOut.String())
	}
	return out.Bytes()
}

func decodeJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatalf("output is not valid JSON: %v", err)
	}
	return root
}

// The command's tests: its output, flags and arguments. What the schemas
// say, and that a real JSON Schema validator and xmllint agree with the
// loader, is tested in package loader (schema_*_test.go).

func TestSchemaJSONDeclaresDraft(t *testing.T) {
	root := decodeJSON(t, schemaOutput(t))
	if got := root["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", got)
	}
	if !bytes.Equal(schemaOutput(t), schemaOutput(t, "-format", "json")) {
		t.Error("-format json differs from the default")
	}
}

func TestSchemaJSONDeterministic(t *testing.T) {
	first := schemaOutput(t)
	for range 3 {
		if !bytes.Equal(first, schemaOutput(t)) {
			t.Fatal("output differs between runs")
		}
	}
}

// ---- XML Schema tests ----

// xsdNode is an element of the XML Schema, for inspection.
type xsdNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xsdNode  `xml:",any"`
	Text     string     `xml:",chardata"`
}

func (n *xsdNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

func (n *xsdNode) walk(f func(n *xsdNode, parents []*xsdNode)) {
	var rec func(n *xsdNode, parents []*xsdNode)
	rec = func(n *xsdNode, parents []*xsdNode) {
		f(n, parents)
		parents = append(parents, n)
		for i := range n.Children {
			rec(&n.Children[i], parents)
		}
	}
	rec(n, nil)
}

const xsNS = "http://www.w3.org/2001/XMLSchema"

func parseXSD(t *testing.T, b []byte) *xsdNode {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	for { // well-formed throughout
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("XSD is not well-formed: %v", err)
		}
	}
	var root xsdNode
	if err := xml.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	if root.XMLName != (xml.Name{Space: xsNS, Local: "schema"}) {
		t.Fatalf("root element %v, want xs:schema", root.XMLName)
	}
	return &root
}

// xsdAttributes returns, for each named complexType or attributeGroup and
// for the scene element, the attributes it declares, their documentation,
// and whether it takes any attribute.
func xsdAttributes(root *xsdNode) (attrs map[string]map[string]string, anyAttr map[string]bool) {
	attrs, anyAttr = map[string]map[string]string{}, map[string]bool{}
	owner := func(parents []*xsdNode) string {
		for i := len(parents) - 1; i >= 0; i-- {
			p := parents[i]
			switch p.XMLName.Local {
			case "complexType", "attributeGroup":
				if n := p.attr("name"); n != "" {
					return p.XMLName.Local + ":" + n
				}
			case "element":
				return "element:" + p.attr("name")
			}
		}
		return ""
	}
	root.walk(func(n *xsdNode, parents []*xsdNode) {
		switch n.XMLName.Local {
		case "attribute":
			o := owner(parents)
			if attrs[o] == nil {
				attrs[o] = map[string]string{}
			}
			doc := ""
			n.walk(func(d *xsdNode, _ []*xsdNode) {
				if d.XMLName.Local == "documentation" {
					doc = d.Text
				}
			})
			attrs[o][n.attr("name")] = doc
		case "anyAttribute":
			anyAttr[owner(parents)] = true
		}
	})
	return attrs, anyAttr
}

func TestSchemaXSD(t *testing.T) {
	out := schemaOutput(t, "-format", "xsd")
	if !bytes.Equal(out, schemaOutput(t, "-format", "xsd")) {
		t.Error("output differs between runs")
	}
	root := parseXSD(t, out)
	checkXSDReferences(t, root)
	attrs, anyAttr := xsdAttributes(root)
	checkXSDAttributes(t, attrs, anyAttr)
	checkXSDAdmitsCubes(t, attrs)
}

// checkXSDReferences checks that every type and attribute group the XSD
// refers to is defined, and that the scene's parts are.
func checkXSDReferences(t *testing.T, root *xsdNode) {
	t.Helper()
	defined := map[string]bool{}
	root.walk(func(n *xsdNode, parents []*xsdNode) {
		if len(parents) == 1 && n.attr("name") != "" {
			defined[n.XMLName.Local+":"+n.attr("name")] = true
		}
	})
	root.walk(func(n *xsdNode, _ []*xsdNode) {
		if typ := n.attr("type"); typ != "" && !strings.HasPrefix(typ, "xs:") && !defined["complexType:"+typ] {
			t.Errorf("<%s name=%q> has undefined type %q", n.XMLName.Local, n.attr("name"), typ)
		}
		if n.XMLName.Local == "attributeGroup" && n.attr("ref") != "" && !defined["attributeGroup:"+n.attr("ref")] {
			t.Errorf("undefined attribute group %q", n.attr("ref"))
		}
	})
	for _, want := range []string{"element:scene", "complexType:entity", "complexType:mixin", "complexType:include", "complexType:components", "attributeGroup:components"} {
		if !defined[want] {
			t.Errorf("%s not defined", want)
		}
	}

}

// checkXSDAttributes checks the XSD's attributes, by element or type and
// name (see xsdAttributes), against the registry: every component and
// system, the entity's own attributes, include's src.
func checkXSDAttributes(t *testing.T, attrs map[string]map[string]string, anyAttr map[string]bool) {
	t.Helper()
	rt, err := newRuntime(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rt.reg.Components() {
		if components.IsWorld(c) {
			if _, ok := attrs["attributeGroup:components"][c.Name]; ok {
				t.Errorf("the read-only %s is in the XSD", c.Name)
			}
			continue
		}
		doc, ok := attrs["attributeGroup:components"][c.Name]
		if !ok {
			t.Errorf("component %s: no attribute", c.Name)
			continue
		}
		if !strings.Contains(doc, c.Name) {
			t.Errorf("component %s: documentation %q", c.Name, doc)
		}
		for i := range c.Schema.Props {
			p := &c.Schema.Props[i]
			if !strings.Contains(doc, p.Type.Name) || !strings.Contains(doc, p.Name) {
				t.Errorf("component %s: documentation %q does not describe property %q (%s)", c.Name, doc, p.Name, p.Type.Name)
			}
		}
	}
	for _, s := range rt.reg.Systems() {
		if _, ok := attrs["element:scene"][s.Name]; !ok {
			t.Errorf("system %s: no attribute on <scene>", s.Name)
		}
	}
	for _, k := range []string{"id", "class", "mixin"} {
		if _, ok := attrs["complexType:entity"][k]; !ok {
			t.Errorf("<entity> has no %s attribute", k)
		}
	}
	if _, ok := attrs["complexType:include"]["src"]; !ok {
		t.Error("<include> has no src attribute")
	}
	if !anyAttr["complexType:entity"] || !anyAttr["complexType:mixin"] {
		t.Error("<entity> and <mixin> must take any attribute (scene-declared components)")
	}

}

// checkXSDAdmitsCubes checks that the attributes of scenes/cubes.xml are
// all declared, except those anyAttribute admits (none there: it uses
// built-ins only besides tags).
func checkXSDAdmitsCubes(t *testing.T, attrs map[string]map[string]string) {
	t.Helper()
	src, err := os.ReadFile("../../scenes/cubes.xml")
	if err != nil {
		t.Fatal(err)
	}
	var scene xsdNode
	if err := xml.Unmarshal(src, &scene); err != nil {
		t.Fatal(err)
	}
	scene.walk(func(n *xsdNode, _ []*xsdNode) {
		var own map[string]string
		switch n.XMLName.Local {
		case "scene":
			own = attrs["element:scene"]
		case "entity", "mixin":
			own = attrs["complexType:"+n.XMLName.Local]
		default:
			t.Errorf("cubes.xml: element <%s> not in the XSD", n.XMLName.Local)
			return
		}
		for _, a := range n.Attrs {
			_, mine := own[a.Name.Local]
			_, comp := attrs["attributeGroup:components"][a.Name.Local]
			if !mine && !(n.XMLName.Local != "scene" && (comp || a.Value == "")) {
				t.Errorf("cubes.xml: <%s %s> not declared", n.XMLName.Local, a.Name.Local)
			}
		}
	})
}

// TestSchemaXSDXmllint validates XML scenes with xmllint, an XML Schema
// processor, when it is installed.
func TestSchemaXSDXmllint(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint not installed")
	}
	dir := t.TempDir()
	xsd := filepath.Join(dir, "scene.xsd")
	if err := os.WriteFile(xsd, schemaOutput(t, "-format", "xsd"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(name, path string, ok bool) {
		t.Helper()
		out, err := exec.Command(xmllint, "--noout", "--schema", xsd, path).CombinedOutput()
		if got := err == nil; got != ok {
			t.Errorf("%s: xmllint ok = %v, want %v\n%s", name, got, ok, out)
		}
	}
	check("cubes.xml", "../../scenes/cubes.xml", true)
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"everything", `<?xml-model href="scene.xsd"?>
<scene physics="step: 0.02">
  <components>
    <component name="level" type="number" default="1" min="0"/>
    <component name="health"><property name="hp" type="int" default="100" min="0"/></component>
    <component name="npc"/>
  </components>
  <mixin id="m" npc="" velocity="1 0 0"/>
  <include src="other.xml"/>
  <entity id="a" class="x y" mixin="m" position="0 1 2" visible="false" level="3" health="hp: 5">
    <entity spin="speed: 45"/>
  </entity>
</scene>`, true},
		{"unknown system", `<scene fog="1"/>`, false},
		{"unknown element", `<scene><thing/></scene>`, false},
		{"boolean", `<scene><entity visible="maybe"/></scene>`, false},
		{"include without src", `<scene><include/></scene>`, false},
		{"mixin without id", `<scene><mixin position="1"/></scene>`, false},
		{"unknown type", `<scene><components><component name="c" type="quaternion"/></components></scene>`, false},
		{"mixin in entity", `<scene><entity><mixin id="m"/></entity></scene>`, false},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".xml")
		if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		check(tt.name, path, tt.ok)
	}
}

func TestSchemaUsage(t *testing.T) {
	for _, args := range [][]string{{"-format", "yaml"}, {"extra"}, {"a.yaml", "b.yaml"}} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), append([]string{"schema"}, args...), &out, &errOut); code != exitUsage || out.Len() != 0 {
			t.Errorf("schema %v: exit %d, stdout %q, want a usage error (2)", args, code, out.String())
		}
	}
}
