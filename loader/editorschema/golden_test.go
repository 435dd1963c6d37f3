package editorschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// TestSchemaGolden: the schemas of the built-ins are the reviewed files
// in testdata/golden, byte for byte (they are what scene-run schema
// printed before the writers moved into the loader; go test -run
// TestSchemaGolden -update rewrites them).
func TestSchemaGolden(t *testing.T) {
	for _, tc := range []struct {
		golden string
		write  func(b *bytes.Buffer) error
	}{
		{"testdata/golden/builtins.schema.json", func(b *bytes.Buffer) error { return WriteJSONSchema(b, newTestRegistry(t), nil) }},
		{"testdata/golden/builtins.xsd", func(b *bytes.Buffer) error { return WriteXSD(b, newTestRegistry(t), nil) }},
	} {
		var b bytes.Buffer
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(tc.golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(tc.golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s: the output differs (%d bytes, golden %d)", tc.golden, b.Len(), len(want))
		}
	}
}

// TestSchemaDeclarations: given a document, the schemas describe the
// components it declares as they describe registered ones; without one
// they do not.
func TestSchemaDeclarations(t *testing.T) {
	doc, err := scenefile.ReadYAML("s.yaml", []byte("components:\n  health: {hp: {type: int, default: 100, min: 0}, max: {type: int}}\n  mode: {type: string, default: walk, oneOf: [walk, run]}\n  boss: {}\n"), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	reg := newTestRegistry(t)
	for _, d := range []*scenefile.Document{nil, doc} {
		var js, xsd bytes.Buffer
		if err := WriteJSONSchema(&js, reg, d); err != nil {
			t.Fatal(err)
		}
		if err := WriteXSD(&xsd, reg, d); err != nil {
			t.Fatal(err)
		}
		var root struct {
			Defs map[string]struct {
				Description string         `json:"description"`
				Properties  map[string]any `json:"properties"`
				Enum        []any          `json:"enum"`
			} `json:"$defs"`
		}
		if err := json.Unmarshal(js.Bytes(), &root); err != nil {
			t.Fatal(err)
		}
		health, hasHealth := root.Defs["component.health"]
		_, entityHas := root.Defs["entity"].Properties["health"]
		xsdHas := strings.Contains(xsd.String(), `<xs:attribute name="health">`) && strings.Contains(xsd.String(), `<xs:attribute name="health.hp" type="xs:string">`)
		mode := strings.Contains(xsd.String(), `<xs:attribute name="mode">`) && strings.Contains(xsd.String(), `<xs:enumeration value="run"/>`)
		if d == nil {
			if hasHealth || entityHas || xsdHas || mode {
				t.Errorf("without a document the schemas describe declared components")
			}
			continue
		}
		if !hasHealth || !entityHas || health.Properties["hp"] == nil || !strings.Contains(health.Description, "hp (int, default \"100\", min 0)") {
			t.Errorf("JSON Schema: health is %+v (in entities: %v)", health, entityHas)
		}
		if m := root.Defs["component.mode"]; len(m.Enum) != 3 {
			t.Errorf("JSON Schema: mode is %+v, want an enum of walk, run and null", m)
		}
		if !xsdHas || !mode {
			t.Errorf("XSD: declared components missing:\n%s", xsd.String())
		}
	}
}

// TestSchemaBadDeclarations: a declaration that does not compile, or
// that names a read-only component of the program, is an error at the
// declaration.
func TestSchemaBadDeclarations(t *testing.T) {
	doc, err := scenefile.ReadYAML("s.yaml", []byte("components:\n  hp: {type: nosuch}\n  world: {type: number}\n"), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, write := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return WriteJSONSchema(b, newTestRegistry(t), doc) },
		func(b *bytes.Buffer) error { return WriteXSD(b, newTestRegistry(t), doc) },
	} {
		var b bytes.Buffer
		err := write(&b)
		var list scenefile.ErrorList
		if !errors.As(err, &list) || len(list) != 2 || list[0].Pos.String() != "s.yaml:2:3" || list[1].Pos.String() != "s.yaml:3:3" ||
			!strings.Contains(list[1].Msg, "the program's and read-only") {
			t.Errorf("got %v", err)
		}
		if b.Len() != 0 {
			t.Errorf("wrote %d bytes despite the error", b.Len())
		}
	}
}
