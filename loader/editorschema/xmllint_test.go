package editorschema

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// The XML Schema checked by xmllint (libxml2's XML Schema processor),
// when it is installed: on the repository's XML scenes, and on scenes
// with misspellings.

// xmllint returns the path of xmllint, or skips the test.
func xmllint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("xmllint")
	if err != nil {
		t.Skip("xmllint is not installed (Debian/Ubuntu: apt-get install libxml2-utils); the XSD patterns are still tested by TestAttrPattern*")
	}
	return p
}

// writeXSD writes the XML Schema of reg (and doc) to a file in dir.
func writeXSD(t *testing.T, dir string, reg *registry.Registry, doc *scenefile.Document) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteXSD(&b, reg, doc); err != nil {
		t.Fatal(err)
	}
	f, err := os.CreateTemp(dir, "*.xsd")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// runXmllint validates file against xsd, returning xmllint's complaints
// (nil if the file is valid).
func runXmllint(t *testing.T, lint, xsd, file string) []byte {
	t.Helper()
	out, err := exec.Command(lint, "--noout", "--schema", xsd, file).CombinedOutput()
	if err == nil {
		return nil
	}
	if _, ok := err.(*exec.ExitError); !ok || !bytes.Contains(out, []byte("fails to validate")) {
		t.Fatalf("xmllint %s: %v\n%s", file, err, out)
	}
	return out
}

// TestXSDValidatesRepoScenes: the XML scenes of scenes/ and examples/ are
// valid against the XSD of the built-ins, and against the XSD made with
// their Document (which takes no attribute it does not know).
func TestXSDValidatesRepoScenes(t *testing.T) {
	lint := xmllint(t)
	reg := newTestRegistry(t)
	dir := t.TempDir()
	plain := writeXSD(t, dir, reg, nil)
	files := repoScenes(t, ".xml")
	if len(files) == 0 {
		t.Fatal("no XML scenes")
	}
	for _, f := range files {
		if out := runXmllint(t, lint, plain, f); out != nil {
			t.Errorf("%s:\n%s", f, out)
		}
		doc, err := scenefile.ReadFile(os.DirFS(filepath.Dir(f)), filepath.Base(f), scenefile.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if out := runXmllint(t, lint, writeXSD(t, dir, reg, doc), f); out != nil {
			t.Errorf("%s, against the XSD made with its Document:\n%s", f, out)
		}
	}
}

// TestXSDMisspellings: with xmllint, what the XSD flags and where, and
// that it agrees with the loader when made with the scene's Document.
// Made without one, it takes any attribute on <entity> and <mixin> (XML
// Schema 1.0 cannot tell scene-declared components and tags from
// misspellings), but still checks the attribute strings of the
// components it knows.
func TestXSDMisspellings(t *testing.T) {
	lint := xmllint(t)
	reg := newRichRegistry(t)
	dir := t.TempDir()
	plain := writeXSD(t, dir, reg, nil)
	const decls = `<scene>
  <components>
    <component name="health"><property name="hp" type="int"/><property name="maxHp" type="int"/></component>
  </components>
`
	for _, tt := range []struct {
		name, src string
		line      int    // of the error, 0 if valid
		attr      string // the attribute xmllint names
		plainOK   bool   // the XSD made without a Document accepts it
	}{
		{"valid", decls + `  <mixin id="m" boss="" sound__a="src: a.ogg; loop: true" spin.speed="4"/>
  <entity mixin="m" health="hp: 1; max-hp: 2" health.max-hp="3" spin="axis: 0 0 1" spin.speed="45">
    <entity boss="" sound__b.volume="0.5" visible="false"/>
  </entity>
</scene>`, 0, "", true},
		{"attribute string", "<scene>\n  <entity spin=\"axis: 0 0 1; speedd: 45\"/>\n</scene>", 2, "spin", false},
		{"attribute string of a system", "<scene physics=\"step: 0.01; max-step: 4\"/>", 1, "physics", false},
		{"schedule keys", `<scene physics="_interval: 0.05; step: 0.02" behaviour="_after: physics" spin="_phase: pre-update; _writes: rotation" audio="volume: 1; _every: 2"/>`, 0, "", true},
		{"schedule: unknown key", "<scene physics=\"step: 0.01; _phaze: update\"/>", 1, "physics", false},
		{"schedule: a component tick given a property", "<scene spin=\"_phase: update; speed: 3\"/>", 1, "spin", false},
		{"attribute string in a mixin", "<scene>\n  <mixin id=\"m\" lifetime=\"seconds: 1; ag: 2\"/>\n</scene>", 2, "lifetime", false},
		{"component", "<scene>\n  <entity>\n    <entity postion=\"1 2 3\"/>\n  </entity>\n</scene>", 3, "postion", true},
		{"dotted property", "<scene>\n  <entity spin.sped=\"1\"/>\n</scene>", 2, "spin.sped", true},
		{"instance property", "<scene>\n  <entity sound__a=\"src: a.ogg; volum: 1\"/>\n</scene>", 2, "sound__a", true},
		{"declared property", decls + "  <entity health=\"hp: 1; mxHp: 2\"/>\n</scene>", 5, "health", true},
		{"tag given a value", decls + "  <entity boss=\"\"/>\n  <entity boss=\"1\"/>\n</scene>", 6, "boss", true},
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
			if got := err == nil; got != (tt.line == 0) {
				t.Fatalf("loader ok = %v, want %v (test case out of date?): %v", got, tt.line == 0, err)
			}
			out := runXmllint(t, lint, writeXSD(t, dir, reg, doc), file)
			switch {
			case tt.line == 0 && out != nil:
				t.Errorf("XSD made with the Document refuses it:\n%s", out)
			case tt.line != 0 && (!bytes.Contains(out, fmt.Appendf(nil, "%s:%d: ", file, tt.line)) || !bytes.Contains(out, fmt.Appendf(nil, "attribute '%s'", tt.attr))):
				t.Errorf("XSD made with the Document: want an error on line %d about attribute %q, got:\n%s", tt.line, tt.attr, out)
			}
			out = runXmllint(t, lint, plain, file)
			if got := out == nil; got != tt.plainOK {
				t.Errorf("XSD made without a Document: valid = %v, want %v\n%s", got, tt.plainOK, out)
			}
		})
	}
}
