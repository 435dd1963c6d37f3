package scenefile

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/antchfx/xmlquery"
	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// The XML oracle: github.com/antchfx/xmlquery builds its own tree of an
// XML file (on encoding/xml's tokens, not the loader's scanner). Every XML
// scene the loader accepts must read, through xmlquery, to the same
// elements (scene, components, component, property, mixin, include and
// nested entities, in order), the same attributes with the same values,
// and the same text: none but white space.

// oracleElem is an element as both sides see it: its name, its
// attributes in a canonical order ("name=value"), and its child elements.
type oracleElem struct {
	name  string
	attrs []string
	kids  []*oracleElem
}

func (e *oracleElem) String() string {
	var b strings.Builder
	var walk func(e *oracleElem, indent string)
	walk = func(e *oracleElem, indent string) {
		fmt.Fprintf(&b, "%s<%s %q>\n", indent, e.name, e.attrs)
		for _, k := range e.kids {
			walk(k, indent+"  ")
		}
	}
	walk(e, "")
	return b.String()
}

// reservedAttrs are the attributes of each element that are not
// components; they are compared sorted, the components in source order.
var reservedAttrs = map[string][]string{
	"scene":      {},
	"entity":     {"id", "class", "mixin"},
	"mixin":      {"id", "mixin"},
	"include":    {"src"},
	"component":  {"name", "type", "default", "oneOf", "min", "max"},
	"property":   {"name", "type", "default", "oneOf", "min", "max"},
	"components": {},
}

// canonAttr returns attribute name=value with the value normalised as
// the scene format reads it: class and mixin lists by words, oneOf by
// values, bounds as numbers.
func canonAttr(elem, name, value string) string {
	switch {
	case (elem == "entity" || elem == "mixin") && (name == "class" || name == "mixin"):
		value = strings.Join(strings.Fields(value), " ")
	case (elem == "component" || elem == "property") && name == "oneOf":
		value = strings.Join(splitList(value), ",")
	case (elem == "component" || elem == "property") && (name == "min" || name == "max"):
		if f, err := strconv.ParseFloat(value, 64); err == nil {
			value = strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return name + "=" + value
}

// canonAttrs orders the attributes of an element: reserved ones sorted,
// then components in source order.
func canonAttrs(elem string, attrs [][2]string) []string {
	var res, comps []string
	for _, a := range attrs {
		if (elem == "entity" || elem == "mixin") && (a[0] == "class" || a[0] == "mixin") && strings.TrimSpace(a[1]) == "" {
			continue // no words: no classes, no mixins
		}
		if slices.Contains(reservedAttrs[elem], a[0]) {
			res = append(res, canonAttr(elem, a[0], a[1]))
		} else {
			comps = append(comps, canonAttr(elem, a[0], a[1]))
		}
	}
	slices.Sort(res)
	return append(res, comps...)
}

// oracleTree reads data with xmlquery into the tree of its root element,
// reporting text other than white space.
func oracleTree(data []byte) (*oracleElem, error) {
	doc, err := xmlquery.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("xmlquery refuses what the loader accepts: %v", err)
	}
	var convert func(n *xmlquery.Node) (*oracleElem, error)
	convert = func(n *xmlquery.Node) (*oracleElem, error) {
		e := &oracleElem{name: n.Data}
		var attrs [][2]string
		for _, a := range n.Attr {
			attrs = append(attrs, [2]string{a.Name.Local, a.Value})
		}
		e.attrs = canonAttrs(e.name, attrs)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case xmlquery.ElementNode:
				k, err := convert(c)
				if err != nil {
					return nil, err
				}
				e.kids = append(e.kids, k)
			case xmlquery.TextNode, xmlquery.CharDataNode:
				if strings.Trim(c.Data, " \t\r\n") != "" || c.Type == xmlquery.CharDataNode {
					return nil, fmt.Errorf("xmlquery finds text %q in <%s>", c.Data, n.Data)
				}
			}
		}
		return e, nil
	}
	var root *xmlquery.Node
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case xmlquery.ElementNode:
			if root != nil {
				return nil, fmt.Errorf("xmlquery finds a second root <%s>", c.Data)
			}
			root = c
		case xmlquery.TextNode, xmlquery.CharDataNode:
			if strings.Trim(c.Data, " \t\r\n\ufeff") != "" || c.Type == xmlquery.CharDataNode {
				return nil, fmt.Errorf("xmlquery finds text %q outside the root", c.Data)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("xmlquery finds no root element")
	}
	return convert(root)
}

// componentAttrs returns the attributes the components of an entity,
// mixin or scene were written as.
func componentAttrs(cs []*ComponentSpec) [][2]string {
	var out [][2]string
	for _, c := range cs {
		if c.Kind == ValueMap {
			for _, kv := range c.Map {
				out = append(out, [2]string{c.Name + "." + kv.Key, kv.Value})
			}
			continue
		}
		out = append(out, [2]string{c.Name, c.Text})
	}
	return out
}

// loaderTree rebuilds the element tree a Document read from XML was
// written as.
func loaderTree(doc *Document) *oracleElem {
	root := &oracleElem{name: "scene", attrs: canonAttrs("scene", componentAttrs(doc.Systems))}
	if len(doc.Decls) > 0 {
		cs := &oracleElem{name: "components"}
		for _, d := range doc.Decls {
			c := &oracleElem{name: "component", attrs: canonAttrs("component", append([][2]string{{"name", d.Name}}, propAttrs(d.Single, d.Props)...))}
			if !d.Single {
				for _, p := range d.Props {
					c.kids = append(c.kids, &oracleElem{name: "property", attrs: canonAttrs("property", append([][2]string{{"name", p.Name}}, propAttrs(true, []*PropDecl{p})...))})
				}
			}
			cs.kids = append(cs.kids, c)
		}
		root.kids = append(root.kids, cs)
	}
	for _, m := range doc.Mixins {
		attrs := [][2]string{{"id", m.ID}}
		if m.Mixins != nil {
			attrs = append(attrs, [2]string{"mixin", strings.Join(m.Mixins, " ")})
		}
		root.kids = append(root.kids, &oracleElem{name: "mixin", attrs: canonAttrs("mixin", append(attrs, componentAttrs(m.Components)...))})
	}
	for _, inc := range doc.Includes {
		root.kids = append(root.kids, &oracleElem{name: "include", attrs: canonAttrs("include", [][2]string{{"src", inc.Path}})})
	}
	// element rebuilds an <entity>, <prefab> or <part> (head: its name
	// or path attribute) from its body.
	var element func(name string, head [][2]string, e *EntitySpec) *oracleElem
	element = func(name string, head [][2]string, e *EntitySpec) *oracleElem {
		attrs := head
		if e.ID != "" {
			attrs = append(attrs, [2]string{"id", e.ID})
		}
		if e.Class != nil {
			attrs = append(attrs, [2]string{"class", strings.Join(e.Class, " ")})
		}
		if e.Mixins != nil {
			attrs = append(attrs, [2]string{"mixin", strings.Join(e.Mixins, " ")})
		}
		if e.Prefab() != "" {
			attrs = append(attrs, [2]string{"prefab", e.Prefab()})
		}
		out := &oracleElem{name: name, attrs: canonAttrs(name, append(attrs, componentAttrs(e.Components)...))}
		for _, pt := range e.Parts() {
			if pt.Removed {
				out.kids = append(out.kids, &oracleElem{name: "removed", attrs: canonAttrs("removed", [][2]string{{"path", pt.Path}})})
				continue
			}
			out.kids = append(out.kids, element("part", [][2]string{{"path", pt.Path}}, pt.Body))
		}
		for _, ch := range e.Children {
			out.kids = append(out.kids, element("entity", nil, ch))
		}
		return out
	}
	entity := func(e *EntitySpec) *oracleElem { return element("entity", nil, e) }
	for _, pf := range doc.Prefabs {
		root.kids = append(root.kids, element("prefab", [][2]string{{"name", pf.Name}}, pf.Body))
	}
	for _, e := range doc.Entities {
		root.kids = append(root.kids, entity(e))
	}
	return root
}

// propAttrs returns the attributes of a property declaration (of the
// single property of a component when single is set).
func propAttrs(single bool, props []*PropDecl) [][2]string {
	if !single || len(props) == 0 {
		return nil
	}
	p := props[0]
	var out [][2]string
	if p.Type != "" {
		out = append(out, [2]string{"type", p.Type})
	}
	if p.HasDefault {
		out = append(out, [2]string{"default", p.Default})
	}
	if p.OneOf != nil {
		out = append(out, [2]string{"oneOf", strings.Join(p.OneOf, ",")})
	}
	if p.Min != nil {
		out = append(out, [2]string{"min", strconv.FormatFloat(*p.Min, 'g', -1, 64)})
	}
	if p.Max != nil {
		out = append(out, [2]string{"max", strconv.FormatFloat(*p.Max, 'g', -1, 64)})
	}
	return out
}

// sortKids puts the children of <scene> in the order loaderTree writes
// them (components, mixins, includes, entities), keeping the order within
// each kind: the loader keeps no order between kinds.
func sortKids(root *oracleElem) {
	rank := map[string]int{"components": 0, "mixin": 1, "include": 2, "prefab": 3, "entity": 4}
	slices.SortStableFunc(root.kids, func(a, b *oracleElem) int { return rank[a.name] - rank[b.name] })
	// Nor between an instance's parts and its children: parts first.
	var parts func(e *oracleElem)
	parts = func(e *oracleElem) {
		slices.SortStableFunc(e.kids, func(a, b *oracleElem) int { return partRank(a) - partRank(b) })
		for _, k := range e.kids {
			parts(k)
		}
	}
	for _, k := range root.kids {
		if k.name == "entity" || k.name == "prefab" {
			parts(k)
		}
	}
	// The loader merges several <components> elements into one list.
	var merged *oracleElem
	kids := root.kids[:0]
	for _, k := range root.kids {
		if k.name == "components" {
			if merged != nil {
				merged.kids = append(merged.kids, k.kids...)
				continue
			}
			merged = k
		}
		kids = append(kids, k)
	}
	root.kids = kids
	if merged != nil && len(merged.kids) == 0 {
		root.kids = slices.DeleteFunc(root.kids, func(k *oracleElem) bool { return k == merged })
	}
}

// partRank orders <part> and <removed> before <entity> among an
// element's children.
func partRank(e *oracleElem) int {
	if e.name == "part" || e.name == "removed" {
		return 0
	}
	return 1
}

// compareXMLQuery reads data with the loader and, if the loader accepts
// it, with xmlquery, and describes the first difference.
func compareXMLQuery(data []byte, lim Limits) error {
	doc, err := ReadXML("o.xml", data, lim)
	if err != nil {
		return nil // the oracle speaks about accepted scenes
	}
	want, err := oracleTree(data)
	if err != nil {
		return err
	}
	sortKids(want)
	if got := loaderTree(doc); got.String() != want.String() {
		return fmt.Errorf("the loader reads\n%s\nxmlquery reads\n%s", got, want)
	}
	return nil
}

// FuzzXMLQueryOracle: every XML scene the loader accepts reads, through
// xmlquery, to the same elements, attributes and text.
func FuzzXMLQueryOracle(f *testing.F) {
	addSeeds(f, "xml")
	for _, data := range xmlScenes(f) {
		if int64(len(data)) < fuzzLimits.MaxBytes {
			f.Add(data)
		}
	}
	for _, s := range oracleSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := compareXMLQuery(data, fuzzLimits); err != nil {
			t.Fatalf("%q:\n%v", data, err)
		}
	})
}

// oracleSeeds are scenes the loader accepts, written with every construct
// that xmlquery and the loader must read alike.
var oracleSeeds = []string{"<scene/>", "<scene a=\"&lt;&#65;\r\n\"><!-- c --><?p x?><entity position.x=\"1\" class=\" a  b \"><entity/></entity>\n</scene>",
	"<scene><components><component name=\"a\" type=\"string\" oneOf=\"x, y z\" min=\"1e0\"/><component name=\"b\"><property name=\"p\" type=\"int\"/></component></components><components/><mixin id=\"m\" mixin=\"\"/><include src=\"x.xml\"/></scene>",
	"\ufeff<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scene\n  a = 'x\"y' />\n",
	"<scene><entity class=\"\" mixin=\" \" label=\"&amp;&#x9;é\r\"/></scene>",
	"<scene><prefab name=\"p\"><entity id=\"a\"/><entity/></prefab><entity prefab=\"p\"><removed path=\"a\"/><entity/><part path=\"0\" visible=\"false\"/><removed path='0' ></removed></entity></scene>",
}

// xmlScenes returns the XML scenes of the repository (scenes/ and
// testdata) and generated ones, by name.
func xmlScenes(t testing.TB) map[string][]byte {
	out := map[string][]byte{"generated": genScene("xml", 500), "generated-load": scenegen.LoadScene("xml", 1000)}
	for _, pattern := range []string{"../../scenes/*.xml", "testdata/*.xml", "../testdata/golden/*.xml"} {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files match %s (%v)", pattern, err)
		}
		for _, name := range files {
			out[name] = mustRead(t, name)
		}
	}
	return out
}

// TestXMLQueryOracleSeeds: the seeds are accepted, so the fuzz test
// starts from scenes it compares.
func TestXMLQueryOracleSeeds(t *testing.T) {
	for _, s := range oracleSeeds {
		if _, err := ReadXML("o.xml", []byte(s), Limits{}); err != nil {
			t.Errorf("%q: %v", s, err)
		}
		if err := compareXMLQuery([]byte(s), Limits{}); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// TestXMLQueryOracleSeesDifferences: the comparison fails when the
// loader's reading differs in a value, an attribute or the nesting.
func TestXMLQueryOracleSeesDifferences(t *testing.T) {
	data := []byte("<scene><entity id=\"a\" position=\"1 2 3\"><entity class=\"b\"/></entity></scene>")
	want, err := oracleTree(data)
	if err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(d *Document){
		"value":     func(d *Document) { d.Entities[0].Components[0].Text = "1 2 4" },
		"attribute": func(d *Document) { d.Entities[0].Children[0].Class = nil },
		"nesting": func(d *Document) {
			d.Entities = append(d.Entities, d.Entities[0].Children[0])
			d.Entities[0].Children = nil
		},
	} {
		doc, err := ReadXML("o.xml", data, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if loaderTree(doc).String() != want.String() {
			t.Fatalf("%s: the trees differ before the change", name)
		}
		change(doc)
		if loaderTree(doc).String() == want.String() {
			t.Errorf("%s: the change goes unseen", name)
		}
	}
}

// TestXMLQueryOracle checks every XML scene of the repository, and
// generated ones, against xmlquery; each must be accepted by the loader.
func TestXMLQueryOracle(t *testing.T) {
	for name, data := range xmlScenes(t) {
		if _, err := ReadXML(name, data, Limits{}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := compareXMLQuery(data, Limits{}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
