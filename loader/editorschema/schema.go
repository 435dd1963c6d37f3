package editorschema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// What the JSON Schema (yamlschema.go) and the XML Schema (xmlschema.go)
// of the scene format share: the components and systems they describe,
// and the words that describe them.

// schemaComponents returns the components a schema describes, by name:
// those registered in reg (but the read-only ones, such as the world
// transform, which a scene never writes) and, with a doc, the components doc declares
// (replacing a component of the same name declared by an earlier scene).
// A declaration that does not compile, or names a component the program
// registered, is an error as Compile reports it.
func schemaComponents(reg *registry.Registry, doc *scenefile.Document) ([]*registry.Component, error) {
	cs := slices.DeleteFunc(reg.Components(), func(c *registry.Component) bool {
		return c.ReadOnly() // computed by their owners, or the prefab key
	})
	if doc != nil {
		var errs scenefile.ErrorList
		for _, d := range doc.Decls {
			s, err := plan.DeclaredSchema(d, reg)
			if err != nil {
				errs = append(errs, err.(*scenefile.Error))
				continue
			}
			c := &registry.Component{Name: d.Name, Schema: s, Declared: true}
			if i := slices.IndexFunc(cs, func(rc *registry.Component) bool { return rc.Name == d.Name }); i >= 0 {
				cs[i] = c
			} else {
				cs = append(cs, c)
			}
		}
		if len(errs) > 0 {
			errs.Sort()
			return nil, errs
		}
	}
	slices.SortFunc(cs, func(a, b *registry.Component) int { return strings.Compare(a.Name, b.Name) })
	return cs, nil
}

// sortedSystems returns the registered systems by name.
func sortedSystems(reg *registry.Registry) []*registry.System {
	ss := reg.Systems()
	slices.SortFunc(ss, func(a, b *registry.System) int { return strings.Compare(a.Name, b.Name) })
	return ss
}

// typeNames returns the property type names a declaration may use, with
// the A-Frame aliases the registry knows, sorted.
func typeNames(reg *registry.Registry) []string {
	ts := reg.Types()
	names := ts.Names()
	for _, alias := range []string{"bool", "float"} {
		if _, ok := ts.Lookup(alias); ok && !slices.Contains(names, alias) {
			names = append(names, alias)
		}
	}
	slices.Sort(names)
	return names
}

// propSummary describes one property: "type, default "x", one of a|b,
// min 0, max 1".
func propSummary(p *registry.Property) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, default %q", p.Type.Name, p.Type.Print(p.Default))
	if len(p.OneOf) > 0 {
		b.WriteString(", one of " + strings.Join(p.OneOf, "|"))
	}
	if p.Min != nil {
		b.WriteString(", min " + strconv.FormatFloat(*p.Min, 'g', -1, 64))
	}
	if p.Max != nil {
		b.WriteString(", max " + strconv.FormatFloat(*p.Max, 'g', -1, 64))
	}
	return b.String()
}

// schemaSummary describes a component's or system's schema in one line.
func schemaSummary(s *registry.Schema) string {
	switch {
	case s.IsTag():
		return "tag (no value)"
	case s.Single():
		return "single property: " + propSummary(&s.Props[0])
	}
	parts := make([]string, len(s.Props))
	for i := range s.Props {
		parts[i] = s.Props[i].Name + " (" + propSummary(&s.Props[i]) + ")"
	}
	return "properties: " + strings.Join(parts, "; ")
}

// componentDoc is the description of a registered component.
func componentDoc(c *registry.Component) string {
	doc := fmt.Sprintf("Component %s: %s.", c.Name, schemaSummary(c.Schema))
	if !c.Schema.IsTag() && !c.Schema.Single() {
		doc += ` Written as an attribute string "prop: value; prop: value" or, in YAML, as a mapping.`
	}
	if c.Multiple {
		doc += fmt.Sprintf(" An entity may hold several instances, named %s__ID.", c.Name)
	}
	if len(c.Dependencies) > 0 {
		doc += " Depends on " + strings.Join(c.Dependencies, ", ") + "."
	}
	return doc
}

// systemDoc is the description of a registered system.
func systemDoc(s *registry.System) string {
	return fmt.Sprintf("System %s: %s.", s.Name, schemaSummary(s.Schema))
}

// hyphenCase spells a camelCase property name the A-Frame way ("maxHp" →
// "max-hp"); the registry accepts both spellings.
func hyphenCase(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			b.WriteByte('-')
			b.WriteByte(c + ('a' - 'A'))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// A patternDialect is the regular-expression syntax a schema's patterns
// are written in: JSON Schema's (ECMA-262, which Go's regexp also reads)
// or XML Schema's, which has no anchors (a pattern matches the whole
// value), no "(?:" and no \f or \v.
type patternDialect struct {
	group  string // opens a group
	space  string // one white-space character, as the registry trims it
	anchor bool   // wrap the pattern in ^...$
}

var (
	jsonDialect = patternDialect{group: "(?:", space: `[ \t\n\r\f\v]`, anchor: true}
	// In XML, \f and \v cannot occur, and attribute-value normalisation
	// has already turned literal tabs and newlines into spaces.
	xsdDialect = patternDialect{group: "(", space: `[ \t\n\r]`}
)

// attrPattern returns a regular expression, in dialect d, that matches
// exactly the attribute strings of the multi-property schema s as
// registry.Schema.ParseAttr reads them, but for the values: chunks
// separated by ';' (empty chunks allowed), each "name: value" with a name
// of s in camelCase or hyphen-case and white space around the name, the
// value being any text without ';' outside url(...). So every string
// ParseAttr accepts matches, and a string naming a property s does not
// have does not.
func attrPattern(s *registry.Schema, d patternDialect) string {
	names := make([]string, len(s.Props))
	for i := range s.Props {
		names[i] = spellings(s.Props[i].Name, d)
	}
	return chunksPattern(names, d)
}

// chunksPattern is attrPattern for the names given as patterns.
func chunksPattern(names []string, d patternDialect) string {
	sp := d.space + "*"
	value := d.group + `url\([^)]*\)|[^;]` + ")*"
	chunk := sp + d.group + d.group + strings.Join(names, "|") + ")" + sp + ":" + value + ")?"
	p := chunk + d.group + ";" + chunk + ")*"
	if d.anchor {
		p = "^" + p + "$"
	}
	return p
}

// spellings returns a pattern matching the ways a property name may be
// written: each upper-case letter also as '-' and the letter in lower
// case, as registry.Schema.Lookup reads hyphen-case ("maxHp", "max-hp").
// Property names are ASCII letters, digits and '_', none special in
// either dialect.
func spellings(name string, d patternDialect) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' {
			fmt.Fprintf(&b, "%s%c|-%c)", d.group, c, c+('a'-'A'))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// attrPatternMessage is the message editors that read the non-standard
// patternErrorMessage keyword show for an attribute string that does not
// match attrPattern.
func attrPatternMessage(s *registry.Schema) string {
	return `Expected "property: value" pairs separated by ";", the properties being ` +
		strings.Join(s.Names(), ", ") + " (camelCase or hyphen-case)."
}
