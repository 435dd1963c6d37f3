package editorschema

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// The attribute-string patterns of the schemas, checked against the
// registry's own parser: every string ParseAttr accepts matches, and a
// string naming a property the component does not have does not.

// patternSchema is a multi-property schema with its patterns compiled:
// the JSON Schema's as is, the XSD's anchored (XML Schema patterns match
// the whole value; the syntax used is also Go's).
type patternSchema struct {
	name      string
	s         *registry.Schema
	json, xsd *regexp.Regexp
}

// patternSchemas returns the multi-property schemas of the rich registry
// (components and systems; spawner has more properties than the
// registry's lookup threshold, so its map lookup is covered) and one
// with awkward names: two capitals, a name prefix of another, a leading
// capital, a digit, an underscore, string values.
func patternSchemas(t testing.TB) []patternSchema {
	reg := newRichRegistry(t)
	var out []patternSchema
	add := func(name string, s *registry.Schema) {
		if s.IsTag() || s.Single() {
			return
		}
		out = append(out, patternSchema{
			name: name,
			s:    s,
			json: regexp.MustCompile(attrPattern(s, jsonDialect)),
			xsd:  regexp.MustCompile(`^(?:` + attrPattern(s, xsdDialect) + `)$`),
		})
	}
	for _, c := range reg.Components() {
		add(c.Name, c.Schema)
	}
	for _, sys := range reg.Systems() {
		add(sys.Name, sys.Schema)
	}
	odd, err := schema.NewSchema([]registry.PropSpec{
		{Name: "maxHP", Type: "int"},
		{Name: "speed", Type: "number"},
		{Name: "speedMax", Type: "number"},
		{Name: "Upper"},
		{Name: "x1", Type: "vec2"},
		{Name: "a_b", Type: "boolean"},
		{Name: "src"},
		{Name: "mode", OneOf: []string{"walk", "run"}},
	}, reg.Types())
	if err != nil {
		t.Fatal(err)
	}
	add("odd", odd)
	if len(out) < 5 {
		t.Fatalf("only %d multi-property schemas", len(out))
	}
	return out
}

// attrGen generates attribute strings for a schema.
type attrGen struct {
	r      *rand.Rand
	spaces string // white space to use
}

// space returns up to two white-space characters.
func (g *attrGen) space() string {
	var b strings.Builder
	for range g.r.IntN(3) {
		b.WriteByte(g.spaces[g.r.IntN(len(g.spaces))])
	}
	return b.String()
}

// spelling writes name in camelCase, hyphen-case or a mix of both (each
// capital kept or written as '-' and the letter in lower case).
func (g *attrGen) spelling(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; 'A' <= c && c <= 'Z' && g.r.IntN(2) == 0 {
			b.WriteByte('-')
			b.WriteByte(c + ('a' - 'A'))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// value returns a text ParseAttr accepts for p: its default, one of its
// oneOf values, or for a free string, text with ':' and url(...;...).
func (g *attrGen) value(p *registry.Property) string {
	switch {
	case len(p.OneOf) > 0:
		return p.OneOf[g.r.IntN(len(p.OneOf))]
	case p.Type.Name == "string":
		return []string{"", "a", "a:b", "url(x;y.ogg)", "url(a) b: c", "x url(;;) y"}[g.r.IntN(6)]
	}
	return p.Type.Print(p.Default)
}

// pairs returns the properties of an attribute string, each spelt as it
// is to be written.
func (g *attrGen) pairs(s *registry.Schema) [][2]string {
	kv := make([][2]string, g.r.IntN(len(s.Props)+2))
	for i := range kv {
		p := &s.Props[g.r.IntN(len(s.Props))]
		kv[i] = [2]string{g.spelling(p.Name), g.value(p)}
	}
	return kv
}

// text writes pairs as an attribute string, with white space around
// names, colons and values, and empty chunks here and there.
func (g *attrGen) text(kv [][2]string) string {
	var b strings.Builder
	for i, e := range kv {
		if i > 0 || g.r.IntN(4) == 0 {
			b.WriteString(g.space() + ";")
		}
		if g.r.IntN(4) == 0 {
			b.WriteString(g.space() + ";")
		}
		b.WriteString(g.space() + e[0] + g.space() + ":" + g.space() + e[1])
	}
	if g.r.IntN(3) == 0 {
		b.WriteString(g.space() + ";" + g.space())
	}
	return b.String()
}

// misspell returns a misspelling of a property name of s that s does not
// know, or "" if the mutation chosen gives a name it knows.
func (g *attrGen) misspell(s *registry.Schema, name string) string {
	i := g.r.IntN(len(name))
	var bad string
	switch g.r.IntN(5) {
	case 0: // a letter dropped
		bad = name[:i] + name[i+1:]
	case 1: // a letter added
		bad = name[:i] + string(rune('a'+g.r.IntN(26))) + name[i:]
	case 2: // a letter changed
		bad = name[:i] + string(rune('a'+g.r.IntN(26))) + name[i+1:]
	case 3: // the case of a letter changed
		c := name[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		} else if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		bad = name[:i] + string(c) + name[i+1:]
	case 4: // a hyphen inserted
		bad = name[:i] + "-" + name[i:]
	}
	if _, ok := s.Lookup(bad); ok || bad == "" {
		return ""
	}
	return bad
}

// TestAttrPatternGenerated: for generated attribute strings that
// ParseAttr accepts, both patterns match; with one property name
// misspelt, which ParseAttr refuses as an unknown property, neither
// does.
func TestAttrPatternGenerated(t *testing.T) {
	for _, ps := range patternSchemas(t) {
		t.Run(ps.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(len(ps.name))))
			good, bad := 0, 0
			for i := range 2000 {
				// XML has no \f or \v (and turns tabs and newlines into
				// spaces); JSON strings may hold them all.
				xml := i%2 == 0
				g := &attrGen{r: r, spaces: " \t\n\r\f\v"}
				if xml {
					g.spaces = " \t\n\r"
				}
				kv := g.pairs(ps.s)
				text := g.text(kv)
				if _, err := ps.s.ParseAttr(ps.name, text); err != nil {
					t.Fatalf("the generator made %q, which ParseAttr refuses: %v", text, err)
				}
				good++
				if !ps.json.MatchString(text) {
					t.Errorf("JSON Schema pattern does not match %q", text)
				}
				if xml && !ps.xsd.MatchString(text) {
					t.Errorf("XSD pattern does not match %q", text)
				}
				if len(kv) == 0 {
					continue
				}
				j := r.IntN(len(kv))
				name := kv[j][0]
				if kv[j][0] = g.misspell(ps.s, name); kv[j][0] == "" {
					continue
				}
				text = g.text(kv)
				_, err := ps.s.ParseAttr(ps.name, text)
				var ae *registry.AttrError
				if !errors.As(err, &ae) || ae.Kind != schema.UnknownProperty {
					t.Fatalf("misspelling %q as %q in %q: ParseAttr says %v, want an unknown property", name, kv[j][0], text, err)
				}
				bad++
				if ps.json.MatchString(text) {
					t.Errorf("JSON Schema pattern matches %q (%q misspelt)", text, kv[j][0])
				}
				if xml && ps.xsd.MatchString(text) {
					t.Errorf("XSD pattern matches %q (%q misspelt)", text, kv[j][0])
				}
			}
			if good < 2000 || bad < 1000 {
				t.Errorf("only %d good and %d bad strings", good, bad)
			}
		})
	}
}

// checkAttrPattern checks the pattern of ps against ParseAttr on text:
// what ParseAttr accepts matches; an unknown property does not; and
// matching text fails only for a value or an unclosed url(.
func checkAttrPattern(t *testing.T, ps patternSchema, text string) {
	t.Helper()
	_, err := ps.s.ParseAttr(ps.name, text)
	var ae *registry.AttrError
	if err != nil && !errors.As(err, &ae) {
		t.Fatalf("%s: ParseAttr(%q): %v, not an *AttrError", ps.name, text, err)
	}
	xml := !strings.ContainsAny(text, "\f\v")
	for _, p := range []struct {
		dialect string
		re      *regexp.Regexp
	}{{"JSON", ps.json}, {"XSD", ps.xsd}} {
		if p.dialect == "XSD" && !xml {
			continue
		}
		match := p.re.MatchString(text)
		switch {
		case err == nil && !match:
			t.Errorf("%s: %s pattern does not match %q, which ParseAttr accepts", ps.name, p.dialect, text)
		case err != nil && ae.Kind == schema.UnknownProperty && match:
			t.Errorf("%s: %s pattern matches %q, which names an unknown property: %v", ps.name, p.dialect, text, err)
		case err != nil && match && ae.Kind == schema.InvalidSyntax && !strings.Contains(ae.Expected, "url("):
			t.Errorf("%s: %s pattern matches %q, whose syntax ParseAttr refuses: %v", ps.name, p.dialect, text, err)
		}
	}
}

// TestAttrPatternCases: strings at the edges of the syntax.
func TestAttrPatternCases(t *testing.T) {
	for _, ps := range patternSchemas(t) {
		if ps.name != "odd" {
			continue
		}
		for _, text := range []string{
			"", " ", ";", " ; ;; ", "speed: 1", "speed:1;", "speed :1", " speed\t:\v1\f",
			"max-h-p: 1", "maxH-p: 1", "max-hP: 1", "maxHP: 1", "max-HP: 1", "maxhp: 1", "max--hp: 1",
			"-upper: a", "Upper: a", "upper: a", "speed-max: 1", "speedmax: 1", "speed-Max: 1",
			"src: url(a;b); speed: 1", "src: url(a;speedd: 1)", "src: url(a; speedd: 1", "src: url(", "src: a:b:c",
			"src: url(url(;)", "src: url(x) ; spee: 1", "speed", "speed 1", ": 1", " : 1", "speed: 1; x", "a_b: true", "a-b: true",
			"x1: 1 2", "x-1: 1 2", "speed: 1\n; speedd: 2", "speed: ;", "mode: fly", "mode: run",
		} {
			checkAttrPattern(t, ps, text)
		}
	}
}

// FuzzAttrPattern: ParseAttr and the patterns agree on any text, for
// every multi-property schema of patternSchemas.
func FuzzAttrPattern(f *testing.F) {
	for _, s := range []string{"axis: 0 0 1; speed: 45", "step: 0.01; max-steps: 4", "src: url(a;b); volume: 1",
		"mixin: cube; count: 3; colors: a, b", "max-h-p: 1;;speed-max:2", "speedd: 1", "src: url(x; spee: 1"} {
		f.Add(s)
	}
	schemas := patternSchemas(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, ps := range schemas {
			checkAttrPattern(t, ps, text)
		}
	})
}
