package loader

import (
	"bytes"
	"io/fs"
	"os"
	"testing"

	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

// writers are the three ways to write a loaded World back out, by the
// file extension that reads them again.
var writers = []struct {
	ext   string
	write func(*bytes.Buffer, *registry.Registry) error
}{
	{"yaml", func(b *bytes.Buffer, reg *registry.Registry) error {
		return scenefile.WriteYAML(b, export.Export(reg, export.Options{}))
	}},
	{"xml", func(b *bytes.Buffer, reg *registry.Registry) error {
		return scenefile.WriteXML(b, export.Export(reg, export.Options{}))
	}},
	{"json", func(b *bytes.Buffer, reg *registry.Registry) error { return export.WriteJSON(b, reg, export.Options{}) }},
}

// roundTrip loads name, writes it in every format, loads each result into
// a fresh registry and checks that the dump and the entity count are
// unchanged. It returns the text written per format.
func roundTrip(t *testing.T, newReg func(testing.TB) *registry.Registry, fsys fs.FS, name string) map[string]string {
	t.Helper()
	reg, want := loadDump(t, newReg, fsys, name)
	n := reg.World().Len()
	if got := dumpCount(t, want); got != n {
		t.Fatalf("%s: dump has %d entities, World %d", name, got, n)
	}
	out := map[string]string{}
	for _, w := range writers {
		var b bytes.Buffer
		if err := w.write(&b, reg); err != nil {
			t.Fatalf("%s: write %s: %v", name, w.ext, err)
		}
		out[w.ext] = b.String()
		reg2 := newReg(t)
		if _, err := LoadBytes(reg2, "again."+w.ext, b.Bytes(), Options{}); err != nil {
			t.Errorf("%s as %s does not load again: %v\n%s", name, w.ext, err, head(b.String(), 40))
			continue
		}
		if got := reg2.World().Len(); got != n {
			t.Errorf("%s as %s: %d entities after loading again, want %d", name, w.ext, got, n)
		}
		if got := dump(t, reg2); got != want {
			t.Errorf("%s as %s: dump changed:\n%s", name, w.ext, firstDiff(want, got))
		}
	}
	return out
}

// TestRoundTripExamples: load -> export -> load on every example scene, in
// YAML, XML and JSON. The spawner in cubes marks itself done, so the
// exported scene does not spawn its 10,000 cubes a second time.
func TestRoundTripExamples(t *testing.T) {
	names, err := fs.Glob(scenes.FS, "*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range names {
		if f := scenefile.FormatOf(name); f != scenefile.FormatYAML && f != scenefile.FormatXML {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) { roundTrip(t, newTestRegistry, scenes.FS, name) })
	}
	if n < 4 {
		t.Errorf("only %d example scenes", n)
	}
}

// TestRoundTripRich round-trips the golden scene: declared components,
// tags, multiple instances, system settings, an id with a quote.
func TestRoundTripRich(t *testing.T) {
	out := roundTrip(t, newRichRegistry, os.DirFS("testdata/golden"), "rich.yaml")
	if !bytes.Contains([]byte(out["yaml"]), []byte("sound__step:")) || !bytes.Contains([]byte(out["xml"]), []byte(`id="villager's"`)) {
		t.Errorf("export lost content:\n%s\n%s", out["yaml"], out["xml"])
	}
}

// TestRoundTripAwkwardValues: values that need quoting or escaping in
// YAML and XML survive export: quotes, '#', ':', ';', '<', '&', leading
// and trailing spaces, non-ASCII, line breaks and YAML keywords.
func TestRoundTripAwkwardValues(t *testing.T) {
	src := "components:\n  note: {type: string}\n  words: {type: array}\n  flag: {type: boolean, default: \"true\"}\n" +
		"entities:\n" +
		"  - {id: a, note: \"say \\\"hi\\\" & <bye>\"}\n" +
		"  - {id: b, note: \"#not a comment: really; ok\"}\n" +
		"  - {id: c, note: \"  padded  \"}\n" +
		"  - {id: d, note: \"héllo wörld ✓\"}\n" +
		"  - {id: e, note: \"two\\nlines\\tand a tab\"}\n" +
		"  - {id: f, note: \"yes\", flag: \"false\"}\n" +
		"  - {id: g, note: \"- dash\", words: \"a, b c, 'd'\"}\n" +
		"  - {id: h, note: \"null\"}\n" +
		"  - {id: \"ü&<x>\", class: \"k&r <b>\"}\n"
	reg := newTestRegistry(t)
	if _, err := LoadBytes(reg, "awkward.yaml", []byte(src), Options{}); err != nil {
		t.Fatal(err)
	}
	mem := fstestFS{"awkward.yaml": src}
	roundTrip(t, newTestRegistry, mem.FS(), "awkward.yaml")
}

func head(s string, lines int) string {
	for i := range s {
		if s[i] == '\n' {
			lines--
			if lines == 0 {
				return s[:i] + "\n..."
			}
		}
	}
	return s
}
