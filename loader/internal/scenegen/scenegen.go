// Package scenegen generates scene files of any size for the tests and
// benchmarks of the loader and of its syntax packages, so that they all
// measure and check the same inputs. Only tests import it.
package scenegen

import (
	"fmt"
	"strings"
)

// Scene generates a scene with n entities in the given format: 20 mixins,
// about four components per entity, and every tenth entity with two
// children (which count towards n).
func Scene(format string, n int) []byte {
	var b strings.Builder
	b.Grow(n * 160)
	yaml := format == "yaml"
	if yaml {
		b.WriteString("scene:\n  physics: \"gravity: 0 -9.8 0\"\nmixins:\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  m%d: {geometry: \"primitive: box\", material: \"color: #%06x\"}\n", i, i*4242)
		}
		b.WriteString("entities:\n")
	} else {
		b.WriteString("<scene physics=\"gravity: 0 -9.8 0\">\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  <mixin id=\"m%d\" geometry=\"primitive: box\" material=\"color: #%06x\"/>\n", i, i*4242)
		}
	}
	writeEntities(&b, n, yaml, [2]string{"enemy:", `enemy=""`}, "true")
	if !yaml {
		b.WriteString("</scene>\n")
	}
	return []byte(b.String())
}

// LoadScene generates a scene of n entities that loads against the
// built-in components: it declares health, weapon and enemy, defines 20
// mixins (each building on a base mixin), and gives every entity an id,
// classes, a mixin and four components of its own; every tenth entity has
// two children (counted in n) with four components each.
//
// format is "yaml", "yaml-flow" (the entities as a flow sequence, one
// entity per line, in flow mappings) or "xml".
func LoadScene(format string, n int) []byte {
	if format == "yaml-flow" {
		return FlowScene(n)
	}
	var b strings.Builder
	b.Grow(n * 200)
	yaml := format == "yaml"
	if yaml {
		b.WriteString("scene:\n  physics: \"step: 0.02\"\ncomponents:\n" +
			"  health: {hp: {type: int, default: 100, min: 0}, max: {type: int, default: 100, min: 1}}\n" +
			"  weapon: {damage: {type: number, default: 1}, range: {type: number, default: 10}}\n" +
			"  enemy: {}\nmixins:\n  base:\n    enemy:\n    visible: \"true\"\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  m%d: {mixin: base, velocity: \"0 %d 0\", scale: \"1 %d 1\"}\n", i, i, i+1)
		}
		b.WriteString("entities:\n")
	} else {
		b.WriteString("<scene physics=\"step: 0.02\">\n  <components>\n" +
			"    <component name=\"health\"><property name=\"hp\" type=\"int\" default=\"100\" min=\"0\"/><property name=\"max\" type=\"int\" default=\"100\" min=\"1\"/></component>\n" +
			"    <component name=\"weapon\"><property name=\"damage\" type=\"number\" default=\"1\"/><property name=\"range\" type=\"number\" default=\"10\"/></component>\n" +
			"    <component name=\"enemy\"/>\n  </components>\n  <mixin id=\"base\" enemy=\"\" visible=\"true\"/>\n")
		for i := range 20 {
			fmt.Fprintf(&b, "  <mixin id=\"m%d\" mixin=\"base\" velocity=\"0 %d 0\" scale=\"1 %d 1\"/>\n", i, i, i+1)
		}
	}
	writeEntities(&b, n, yaml, [2]string{"acceleration: 0 0 1", `acceleration="0 0 1"`}, "false")
	if !yaml {
		b.WriteString("</scene>\n")
	}
	return []byte(b.String())
}

// FlowScene is LoadScene's YAML scene with the entities written in flow
// style.
func FlowScene(n int) []byte {
	var b strings.Builder
	b.Grow(n * 200)
	b.WriteString("scene: {physics: \"step: 0.02\"}\ncomponents: {\n" +
		"  health: {hp: {type: int, default: 100, min: 0}, max: {type: int, default: 100, min: 1}},\n" +
		"  weapon: {damage: {type: number, default: 1}, range: {type: number, default: 10}},\n" +
		"  enemy: {}}\nmixins: {\n  base: {enemy: , visible: \"true\"},\n")
	for i := range 20 {
		fmt.Fprintf(&b, "  m%d: {mixin: base, velocity: \"0 %d 0\", scale: \"1 %d 1\"},\n", i, i, i+1)
	}
	b.WriteString("}\nentities: [\n")
	for i := 0; i < n; {
		kids := 0
		if i%10 == 0 && n-i >= 3 {
			kids = 2
		}
		fmt.Fprintf(&b, "  {id: e%d, class: enemy c%d, mixin: m%d, position: %d 1 -5, rotation: 0 %d 0, health: {hp: %d, max: 200}, acceleration: 0 0 1",
			i, i%7, i%20, i, i%360, i%100)
		if kids > 0 {
			b.WriteString(", children: [")
			for k := 1; k <= kids; k++ {
				if k > 1 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "{id: e%d, position: 0.5 %d 0, scale: 1 1 1, weapon: \"damage: 3\", visible: false}", i+k, k)
			}
			b.WriteString("]")
		}
		b.WriteString("},\n")
		i += 1 + kids
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

// JSONDump generates a JSON dump of n entities in the shape scene-run
// writes: every tenth entity with two children (counted in n), each
// entity with a path, a parent, a depth, classes, vectors as objects of
// their axes and multi-property components as objects.
func JSONDump(n int) []byte {
	var b strings.Builder
	b.Grow(n * 260)
	b.WriteString(`{"scene":{"physics":"step: 0.02"},"components":{"health":{"hp":{"type":"int","default":"100","min":0},"max":{"type":"int","default":"100","min":1}}},"entities":[`)
	for i := 0; i < n; {
		kids := 0
		if i%10 == 0 && n-i >= 3 {
			kids = 2
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n  {\"id\":\"e%d\",\"path\":\"e%d\",\"parent\":null,\"depth\":0,\"class\":[\"enemy\",\"c%d\"],\"components\":"+
			"{\"position\":{\"x\":%d,\"y\":1,\"z\":-5},\"rotation\":{\"x\":0,\"y\":%d,\"z\":0},\"visible\":true,\"health\":{\"hp\":%d,\"max\":200}}}",
			i, i, i%7, i, i%360, i%100)
		for k := 1; k <= kids; k++ {
			fmt.Fprintf(&b, ",\n  {\"path\":\"e%d/%d\",\"parent\":\"e%d\",\"depth\":1,\"class\":[],\"components\":{\"position\":{\"x\":0.5,\"y\":%d,\"z\":0},\"scale\":{\"x\":1,\"y\":1,\"z\":1}}}",
				i, k-1, i, k)
		}
		i += 1 + kids
	}
	b.WriteString("\n]}\n")
	return []byte(b.String())
}

// writeEntities writes the entities of Scene and LoadScene: n of them,
// every tenth with two children (counted in n). last is the fourth
// component of each top-level entity as a YAML line and as an XML
// attribute; visible is the children's visible value.
func writeEntities(b *strings.Builder, n int, yaml bool, last [2]string, visible string) {
	for i := 0; i < n; {
		kids := 0
		if i%10 == 0 && n-i >= 3 {
			kids = 2
		}
		if yaml {
			fmt.Fprintf(b, "  - id: e%d\n    class: enemy c%d\n    mixin: m%d\n    position: %d 1 -5\n    rotation: 0 %d 0\n    health: {hp: %d, max: 200}\n    %s\n",
				i, i%7, i%20, i, i%360, i%100, last[0])
			if kids > 0 {
				b.WriteString("    children:\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(b, "      - id: e%d\n        position: 0.5 %d 0\n        scale: 1 1 1\n        weapon: \"damage: 3\"\n        visible: %s\n", i+k, k, visible)
				}
			}
		} else {
			fmt.Fprintf(b, "  <entity id=\"e%d\" class=\"enemy c%d\" mixin=\"m%d\" position=\"%d 1 -5\" rotation=\"0 %d 0\" health=\"hp: %d; max: 200\" %s",
				i, i%7, i%20, i, i%360, i%100, last[1])
			if kids == 0 {
				b.WriteString("/>\n")
			} else {
				b.WriteString(">\n")
				for k := 1; k <= kids; k++ {
					fmt.Fprintf(b, "    <entity id=\"e%d\" position=\"0.5 %d 0\" scale=\"1 1 1\" weapon=\"damage: 3\" visible=\"%s\"/>\n", i+k, k, visible)
				}
				b.WriteString("  </entity>\n")
			}
		}
		i += 1 + kids
	}
}
