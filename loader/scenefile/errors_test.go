package scenefile

import (
	"strings"
	"testing"
)

// TestErrors has one case per kind of error, with the exact message.
func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		lim             Limits
		want            string
	}{
		// YAML
		// Syntax errors are reported at the offending byte.
		{"yaml syntax", "a.yaml", "entities:\n  - id: x\n    p: [1, 2\n  - id: y\n", Limits{}, `a.yaml:4:7: did not find expected ',' or ']' (for the "[" at line 3, column 8)`},
		{"yaml syntax first line", "a.yaml", "a: b: c\n", Limits{}, "a.yaml:1:5: mapping values are not allowed in this context"},
		{"yaml several documents", "a.yaml", "entities: []\n---\nentities: []\n", Limits{}, "a.yaml:2:1: several YAML documents in one file (only one scene per file)"},
		{"yaml root not a mapping", "a.yaml", "- id: x\n", Limits{}, "a.yaml:1:1: scene must be a mapping with keys scene, components, mixins, prefabs, include, entities; found a list"},
		{"yaml unknown top-level key", "a.yaml", "entity: []\n", Limits{}, `a.yaml:1:1: unknown top-level key "entity" (want scene, components, mixins, prefabs, include or entities)`},
		{"yaml duplicate key", "a.yaml", "entities:\n  - id: a\n    position: 1 2 3\n    position: 4 5 6\n", Limits{}, `a.yaml:4:5: duplicate key "position" (first at a.yaml:3:5)`},
		{"yaml duplicate top-level key", "a.yaml", "entities: []\nentities: []\n", Limits{}, `a.yaml:2:1: duplicate key "entities" (first at a.yaml:1:1)`},
		{"yaml anchor and alias", "a.yaml", "mixins:\n  a: &x {scale: 1 1 1}\n  b: *x\n", Limits{}, "a.yaml:2:6: YAML anchors (&x) are not supported; use mixins\na.yaml:3:6: YAML aliases (*x) are not supported; use mixins"},
		{"yaml merge key", "a.yaml", "entities:\n  - <<: {a: 1}\n", Limits{}, "a.yaml:2:5: YAML merge keys (<<) are not supported; use mixins"},
		{"yaml custom tag", "a.yaml", "entities:\n  - position: !vec 1 2 3\n", Limits{}, `a.yaml:2:15: unsupported YAML tag "!vec"`},
		{"yaml children not a list", "a.yaml", "entities:\n  - children: {a: 1}\n", Limits{}, "a.yaml:2:15: children must be a list of entities, not a mapping"},
		{"yaml entities not a list", "a.yaml", "entities: x\n", Limits{}, "a.yaml:1:11: entities must be a list of entities, not a scalar"},
		{"yaml entity not a mapping", "a.yaml", "entities:\n  - x\n", Limits{}, "a.yaml:2:5: entity must be a mapping, not a scalar"},
		{"yaml component list item not a scalar", "a.yaml", "entities:\n  - tags: [1, [2], ~, {x: 3}]\n", Limits{}, "a.yaml:2:15: value of component \"tags\": list items must be strings, not a list\na.yaml:2:20: value of component \"tags\": list items must be strings, not nothing\na.yaml:2:23: value of component \"tags\": list items must be strings, not a mapping"},
		{"yaml nested property value", "a.yaml", "entities:\n  - health: {hp: {x: 1}}\n", Limits{}, `a.yaml:2:18: property "hp" of component "health" must be a string or a list, not a mapping`},
		{"yaml property list item not a scalar", "a.yaml", "entities:\n  - bag:\n      items:\n        - a\n        - [b]\n", Limits{}, `a.yaml:5:11: property "items" of component "bag": list items must be strings, not a list`},
		{"yaml default list item not a scalar", "a.yaml", "components:\n  bag: {items: {type: array, default: [a, {b: 1}]}}\n", Limits{}, `a.yaml:2:43: bag.items: default: list items must be strings, not a mapping`},
		{"yaml default not a list or scalar", "a.yaml", "components:\n  bag: {items: {default: {b: 1}}}\n", Limits{}, `a.yaml:2:26: bag.items: default must be a string or a list, not a mapping`},
		{"yaml bad component name", "a.yaml", "entities:\n  - 3d: 1\n  - a__b__c: 1\n  - a b: 1\n", Limits{}, "a.yaml:2:5: " + nameMsg("component", "3d") + "\na.yaml:3:5: " + nameMsg("component", "a__b__c") + "\na.yaml:4:5: " + nameMsg("component", "a b")},
		{"yaml bad id", "a.yaml", "entities:\n  - id: a b\n  - id: [x]\n", Limits{}, "a.yaml:2:9: invalid entity id \"a b\" (no spaces allowed)\na.yaml:3:9: id must be a string, not a list"},
		{"yaml duplicate entity id", "a.yaml", "entities:\n  - id: a\n    children:\n      - id: a\n", Limits{}, `a.yaml:4:13: duplicate entity id "a" (first at a.yaml:2:9)`},
		{"yaml duplicate mixin", "a.yaml", "mixins:\n  m: {}\n  m: {}\n", Limits{}, `a.yaml:3:3: duplicate key "m" (first at a.yaml:2:3)`},
		{"yaml mixin reserved key", "a.yaml", "mixins:\n  m: {children: []}\n", Limits{}, `a.yaml:2:7: "children" is not allowed in a mixin: a mixin gives one entity components; for an entity with children, define a prefab (under "prefabs", or <prefab name=...>) and write "prefab: NAME" on the entities`},
		{"yaml class list items", "a.yaml", "entities:\n  - class: [a, \"b c\", {}]\n", Limits{}, "a.yaml:2:16: class: invalid name \"b c\" (no spaces allowed)\na.yaml:2:23: class: list items must be strings, not a mapping"},
		{"yaml decl unknown key", "a.yaml", "components:\n  a: {type: int, deflt: 1}\n", Limits{}, `a.yaml:2:18: a: unknown key "deflt" in property declaration (want type, default, oneOf, min, max or onDelete)`},
		{"yaml decl bad min", "a.yaml", "components:\n  a: {x: {type: int, min: low}}\n", Limits{}, `a.yaml:2:27: a.x: min must be a number, not "low"`},
		{"yaml decl property not a mapping", "a.yaml", "components:\n  a: {default: 1}\n", Limits{}, "a.yaml:2:16: declaration of property \"default\" must be a mapping, not a scalar (a single-property component needs a string `type` key)"},
		{"yaml include empty", "a.yaml", "include: [\"\"]\n", Limits{}, "a.yaml:1:11: include: empty path"},
		{"yaml too large", "a.yaml", "entities: []\n", Limits{MaxBytes: 5}, "a.yaml: file too large: 13 bytes (limit 5)"},
		{"yaml too deep", "a.yaml", "entities:\n  - children:\n    - children:\n      - {}\n", Limits{MaxDepth: 2}, "a.yaml:4:7: entities nested too deeply (limit 2)"},
		{"yaml too many entities", "a.yaml", "entities: [{}, {children: [{}]}, {}]\n", Limits{MaxEntities: 2}, "a.yaml:1:28: too many entities (limit 2)"},
		{"yaml too many errors", "a.yaml", "entities: [1, 2, 3, 4]\n", Limits{MaxErrors: 2}, "a.yaml:1:12: entity must be a mapping, not a scalar\na.yaml:1:15: entity must be a mapping, not a scalar\na.yaml:1:18: too many errors (limit 2)"},
		// XML
		{"xml syntax", "a.xml", "<scene>\n  <entity id=x/>\n</scene>", Limits{}, "a.xml:2:15: unquoted or missing attribute value in element"},
		{"xml mismatched end", "a.xml", "<scene>\n  <entity>\n  </scene>", Limits{}, "a.xml:3:3: </scene> closes <entity> at a.xml:2:3"},
		{"xml unclosed", "a.xml", "<scene>\n  <entity>", Limits{}, "a.xml:2:11: unexpected end of file: <entity> at a.xml:2:3 is not closed"},
		{"xml no root", "a.xml", "<!-- nothing -->\n", Limits{}, "a.xml:2:1: no <scene> element"},
		{"xml wrong root", "a.xml", "<a-scene/>", Limits{}, "a.xml:1:1: root element must be <scene>, not <a-scene>"},
		{"xml several roots", "a.xml", "<scene/>\n<scene/>", Limits{}, "a.xml:2:1: several root elements: a scene file has one <scene> element"},
		{"xml doctype", "a.xml", "<!DOCTYPE scene [<!ENTITY lol \"lol\">]>\n<scene/>", Limits{}, "a.xml:1:1: DOCTYPE, ENTITY and other <!...> declarations are not allowed"},
		{"xml entity reference", "a.xml", "<scene a=\"&lol;\"/>", Limits{}, "a.xml:1:16: invalid character entity &lol;"},
		{"xml duplicate attribute", "a.xml", "<scene>\n  <entity\n    position=\"1\"\n    position=\"2\"/>\n</scene>", Limits{}, `a.xml:4:5: duplicate attribute "position" (first at a.xml:3:5)`},
		{"xml namespace", "a.xml", "<scene xmlns:x=\"u\">\n<entity x:y=\"1\"/></scene>", Limits{}, "a.xml:1:8: namespaces are not supported (attribute xmlns:x)\na.xml:2:9: namespaces are not supported (attribute x:y)"},
		{"xml text", "a.xml", "<scene>\n  <entity>hi</entity>\n</scene>", Limits{}, "a.xml:2:11: unexpected text in <entity>"},
		{"xml unknown element", "a.xml", "<scene>\n  <entty/>\n  <entity><mixin id=\"m\"/></entity>\n</scene>", Limits{}, "a.xml:2:3: unknown element <entty> in <scene> (want <entity>, <mixin>, <prefab>, <include> or <components>)\na.xml:3:11: unknown element <mixin> in <entity> (want <entity>, <part> or <removed>)"},
		{"xml children attribute", "a.xml", "<scene><entity children=\"\"/></scene>", Limits{}, "a.xml:1:16: children are written as nested <entity> elements, not as an attribute"},
		{"xml bad component name", "a.xml", "<scene><entity _x=\"1\"/></scene>", Limits{}, "a.xml:1:16: " + nameMsg("component", "_x")},
		{"xml bad id", "a.xml", "<scene><entity id=\" \"/></scene>", Limits{}, `a.xml:1:20: invalid entity id " " (no spaces allowed)`},
		{"xml duplicate entity id", "a.xml", "<scene>\n<entity id=\"a\"/>\n<entity id=\"a\"/>\n</scene>", Limits{}, `a.xml:3:13: duplicate entity id "a" (first at a.xml:2:13)`},
		{"xml duplicate mixin", "a.xml", "<scene>\n<mixin id=\"m\"/>\n<mixin id=\"m\"/>\n</scene>", Limits{}, `a.xml:3:12: duplicate mixin id "m" (first at a.xml:2:12)`},
		{"xml mixin without id", "a.xml", "<scene><mixin class=\"x\"/></scene>", Limits{}, "a.xml:1:8: <mixin> needs an id attribute\na.xml:1:15: \"class\" is not allowed in a mixin"},
		{"xml include without src", "a.xml", "<scene><include href=\"x.xml\"/></scene>", Limits{}, "a.xml:1:8: <include> needs a src attribute\na.xml:1:17: unknown attribute \"href\" on <include> (want src)"},
		{"xml decl errors", "a.xml", "<scene><components>\n<component name=\"a\" default=\"1\"/>\n<component name=\"b\"><property name=\"x\" min=\"no\" foo=\"1\"/><property name=\"x\"/></component>\n<component type=\"int\"/>\n</components></scene>", Limits{},
			"a.xml:2:1: single-property declaration of \"a\" needs a type attribute\na.xml:3:45: min must be a number, not \"no\"\na.xml:3:49: unknown attribute \"foo\" on <property> (want name, type, default, oneOf, min, max or onDelete)\na.xml:3:74: duplicate property \"x\" (first at a.xml:3:37)\na.xml:4:1: <component> needs a name attribute"},
		{"xml single with property", "a.xml", "<scene><components><component name=\"a\" type=\"int\"><property name=\"x\"/></component></components></scene>", Limits{}, "a.xml:1:51: <property> in a single-property declaration (one with a type attribute)"},
		{"xml duplicate declaration", "a.xml", "<scene><components><component name=\"a\"/><component name=\"a\"/></components></scene>", Limits{}, `a.xml:1:58: duplicate component declaration "a" (first at a.xml:1:37)`},
		{"xml too large", "a.xml", "<scene/>", Limits{MaxBytes: 3}, "a.xml: file too large: 8 bytes (limit 3)"},
		{"xml too deep", "a.xml", "<scene><entity><entity><entity/></entity></entity></scene>", Limits{MaxDepth: 2}, "a.xml:1:24: entities nested too deeply (limit 2)"},
		{"xml too many entities", "a.xml", "<scene><entity/><entity><entity/></entity></scene>", Limits{MaxEntities: 2}, "a.xml:1:25: too many entities (limit 2)"},
		{"xml not utf-8", "a.xml", "<?xml version=\"1.0\" encoding=\"latin1\"?><scene/>", Limits{}, "a.xml:1:40: xml: opening charset \"latin1\": encoding \"latin1\" not supported (scenes must be UTF-8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.file, []byte(tc.src), tc.lim)
			if err == nil {
				t.Fatalf("no error, want\n%s", tc.want)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.file) {
				t.Errorf("error does not start with the file name")
			}
		})
	}
}
