package editorschema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// docs/editor-setup.md checked as a user would follow it, without an
// editor and cheaply: its shell steps are commands this test knows
// (mkdir -p, and the schema command with the flags it has), in an order
// that works; the settings and the modelines name the files those steps
// write; and its example scenes load, and validate against those files
// (made here as the steps would make them), with exactly the lines
// marked "# flagged" flagged.

const editorSetupDoc = "../../docs/editor-setup.md"

// A fenced block of a Markdown file.
type fencedBlock struct {
	lang, text string
	line       int // of the opening fence
}

// fencedBlocks returns the fenced code blocks of Markdown source.
func fencedBlocks(t *testing.T, src []byte) []fencedBlock {
	t.Helper()
	var out []fencedBlock
	var cur *fencedBlock
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &fencedBlock{lang: strings.TrimPrefix(line, "```"), line: n}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: unclosed code block", editorSetupDoc, cur.line)
	}
	return out
}

// schemaCommandFlags parses the arguments of the schema command as it
// takes them: scene-run schema [-format json|xsd] [SCENE]. (The command
// lives in package main; this mirrors its flag set.)
func schemaCommandFlags(args []string) (format, scene string, err error) {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := fs.String("format", "json", "json or xsd")
	if err := fs.Parse(args); err != nil {
		return "", "", err
	}
	switch {
	case *f != "json" && *f != "xsd":
		return "", "", fmt.Errorf("unknown -format %q", *f)
	case fs.NArg() > 1:
		return "", "", fmt.Errorf("more than one SCENE: %v", fs.Args())
	case fs.NArg() == 1:
		scene = fs.Arg(0)
	}
	return *f, scene, nil
}

// writtenSchema is a schema file the doc's steps write.
type writtenSchema struct {
	format string // json or xsd
	data   []byte // as the built-in command writes it; nil for a program's own
}

// docSteps follows the sh steps of docs/editor-setup.md: the
// directories they make and the schemas they write.
type docSteps struct {
	t       *testing.T
	reg     *registry.Registry
	written map[string]writtenSchema // by slash path from the repository root
	dirs    map[string]bool          // made by mkdir -p
}

// exists reports whether the slash path p (from the repository root)
// exists.
func exists(p string) bool {
	_, err := os.Stat(filepath.Join("..", "..", filepath.FromSlash(p)))
	return err == nil
}

// where names line i of block b in the doc.
func where(b fencedBlock, i int) string {
	return fmt.Sprintf("%s:%d", editorSetupDoc, b.line+1+i)
}

// TestEditorSetupDoc follows docs/editor-setup.md.
func TestEditorSetupDoc(t *testing.T) {
	src, err := os.ReadFile(editorSetupDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(t, src)
	st := &docSteps{t: t, reg: newTestRegistry(t), written: map[string]writtenSchema{}, dirs: map[string]bool{".": true}}
	counts := map[string]int{}
	for _, b := range blocks {
		counts[b.lang]++
		if b.lang == "sh" {
			st.shBlock(b)
		}
	}
	for _, want := range []string{"schema/scene.schema.json", "schema/scene.xsd"} {
		if st.written[want].data == nil {
			t.Errorf("the steps do not write %s", want)
		}
	}
	if counts["yaml"] < 2 || counts["xml"] < 1 || counts["json"] < 2 || counts["sh"] < 2 {
		t.Errorf("code blocks by language: %v", counts)
	}
	for _, b := range blocks {
		switch b.lang {
		case "json":
			checkSettings(t, b, where(b, 0), func(ref string) {
				st.schemaFor(b, map[bool]string{true: "json", false: "xsd"}[path.Ext(ref) == ".json"], ref)
			})
		case "yaml":
			st.yamlBlock(b)
		case "xml":
			st.xmlBlock(b)
		}
	}
}

// shBlock follows the lines of an sh block: mkdir -p and schema commands.
func (st *docSteps) shBlock(b fencedBlock) {
	t := st.t
	for i, line := range strings.Split(strings.TrimSuffix(b.text, "\n"), "\n") {
		if c := strings.Index(line, " #"); c >= 0 {
			line = line[:c]
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case len(f) >= 3 && f[0] == "mkdir" && f[1] == "-p":
			for _, d := range f[2:] {
				st.dirs[path.Clean(d)] = true
			}
		case len(f) >= 5 && f[0] == "go" && f[1] == "run" && f[3] == "schema" && f[len(f)-2] == ">":
			st.schemaStep(where(b, i), line, f)
		default:
			t.Errorf("%s: %q: a command this test does not know; teach it, or keep the step out of sh blocks", where(b, i), line)
		}
	}
}

// schemaStep follows one "go run PKG schema [flags] [SCENE] > OUT" line
// (its fields f): it checks the command and records the schema it
// writes (made here for scene-run's own).
func (st *docSteps) schemaStep(at, line string, f []string) {
	t := st.t
	pkg, out := f[2], path.Clean(f[len(f)-1])
	format, scene, err := schemaCommandFlags(f[4 : len(f)-2])
	if err != nil {
		t.Errorf("%s: %q: %v", at, line, err)
		return
	}
	own := pkg != "./cmd/scene-run"
	if own && !strings.HasPrefix(pkg, "./examples/") {
		t.Errorf("%s: %q: go run of %s", at, line, pkg)
	}
	pkgThere := exists(pkg)
	if !pkgThere && !own {
		t.Errorf("%s: %q: no package %s", at, line, pkg)
	}
	if want := map[string]string{"json": ".json", "xsd": ".xsd"}[format]; path.Ext(out) != want {
		t.Errorf("%s: %q: a %s schema written to %s", at, line, format, out)
	}
	if d := path.Dir(out); !st.dirs[d] && !exists(d) && pkgThere {
		t.Errorf("%s: %q: %s does not exist (mkdir -p it first)", at, line, d)
	}
	var doc *scenefile.Document
	if scene != "" {
		if want := map[string]string{"json": ".yaml", "xsd": ".xml"}[format]; path.Ext(scene) != want {
			t.Errorf("%s: %q: a %s schema made with the %s scene %s", at, line, format, path.Ext(scene), scene)
		}
		if !pkgThere {
			st.written[out] = writtenSchema{format: format}
			return // the example and its scene are still to come
		}
		if doc, err = scenefile.ReadFile(os.DirFS("../.."), scene, scenefile.Limits{}); err != nil {
			t.Errorf("%s: %q: %v", at, line, err)
			return
		}
	}
	ws := writtenSchema{format: format}
	if !own {
		var buf bytes.Buffer
		if format == "json" {
			err = WriteJSONSchema(&buf, st.reg, doc)
		} else {
			err = WriteXSD(&buf, st.reg, doc)
		}
		if err != nil {
			t.Fatal(err)
		}
		ws.data = buf.Bytes()
	}
	st.written[out] = ws
}

// sceneDir is where the doc's example scenes live.
const sceneDir = "scenes"

// schemaFor returns the schema the steps write to ref, checking that
// they write one of that format.
func (st *docSteps) schemaFor(b fencedBlock, format, ref string) writtenSchema {
	st.t.Helper()
	ws, ok := st.written[ref]
	if !ok || ws.format != format {
		st.t.Errorf("%s: names %s, which the steps do not write as a %s schema", where(b, 0), ref, format)
	}
	return ws
}

// yamlBlock checks a YAML scene of the doc: it names a schema the steps
// write, and exactly its lines marked "# flagged" are flagged.
func (st *docSteps) yamlBlock(b fencedBlock) {
	m := regexp.MustCompile(`(?m)^# yaml-language-server: \$schema=(\S+)$`).FindStringSubmatch(b.text)
	if m == nil {
		st.t.Errorf("%s: a YAML scene without a modeline", where(b, 0))
		return
	}
	ws := st.schemaFor(b, "json", path.Join(sceneDir, m[1]))
	if ws.data == nil {
		return
	}
	checkFlagged(st.t, b, where, compileSchemaBytes(st.t, "doc.schema.json", ws.data))
}

// xmlBlock checks an XML scene of the doc: it names a schema the steps
// write, loads, and (with xmllint) is valid against that schema.
func (st *docSteps) xmlBlock(b fencedBlock) {
	t := st.t
	m := regexp.MustCompile(`<\?xml-model href="([^"]+)"\?>`).FindStringSubmatch(b.text)
	if m == nil {
		t.Errorf("%s: an XML scene without an xml-model instruction", where(b, 0))
		return
	}
	ws := st.schemaFor(b, "xsd", path.Join(sceneDir, m[1]))
	d, err := scenefile.ReadXML("doc.xml", []byte(b.text), scenefile.Limits{})
	if err == nil {
		_, err = compile(d, st.reg)
	}
	if err != nil {
		t.Errorf("%s: the scene does not load: %v", where(b, 0), err)
	}
	lint, err := exec.LookPath("xmllint")
	if err != nil || ws.data == nil {
		return
	}
	dir := t.TempDir()
	xsd, scene := filepath.Join(dir, "scene.xsd"), filepath.Join(dir, "scene.xml")
	if err := os.WriteFile(xsd, ws.data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(scene, []byte(b.text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := runXmllint(t, lint, xsd, scene); out != nil {
		t.Errorf("%s: xmllint: %s", where(b, 0), out)
	}
}

// checkSettings checks a settings.json block: its yaml.schemas and
// xml.fileAssociations name schemas the steps write (named by ref
// calls), for patterns that match scenes of the repository.
func checkSettings(t *testing.T, b fencedBlock, where string, ref func(string)) {
	t.Helper()
	var s struct {
		YAMLSchemas map[string][]string `json:"yaml.schemas"`
		XMLAssoc    []struct {
			Pattern, SystemID string
		} `json:"xml.fileAssociations"`
	}
	dec := json.NewDecoder(strings.NewReader(b.text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	if len(s.YAMLSchemas) == 0 && len(s.XMLAssoc) == 0 {
		t.Errorf("%s: neither yaml.schemas nor xml.fileAssociations", where)
	}
	matches := func(pattern string) []string {
		if strings.Contains(pattern, "**") {
			return nil // filepath.Glob has no **
		}
		m, err := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(pattern)))
		if err != nil || len(m) == 0 {
			t.Errorf("%s: pattern %q matches no file of the repository", where, pattern)
		}
		return m
	}
	for file, patterns := range s.YAMLSchemas {
		ref(path.Clean(strings.TrimPrefix(file, "./")))
		for _, p := range patterns {
			matches(p)
		}
	}
	for _, a := range s.XMLAssoc {
		for _, m := range matches(a.Pattern) {
			rel, err := filepath.Rel(filepath.Join("..", ".."), m)
			if err != nil {
				t.Fatal(err)
			}
			rel = filepath.ToSlash(rel)
			base := strings.TrimSuffix(path.Base(rel), path.Ext(rel))
			ref(path.Clean(strings.NewReplacer("${workspaceFolder}/", "", "${fileDirname}", path.Dir(rel), "${fileBasenameNoExtension}", base).Replace(a.SystemID)))
		}
	}
}

// checkFlagged validates a YAML scene of the doc: the lines marked
// "# flagged" are exactly those with errors, and the loader refuses the
// scene if and only if it has such lines.
func checkFlagged(t *testing.T, b fencedBlock, where func(fencedBlock, int) string, s *jsonschema.Schema) {
	t.Helper()
	var flagged []int
	for i, line := range strings.Split(b.text, "\n") {
		if strings.Contains(line, "# flagged") {
			flagged = append(flagged, i+1)
		}
	}
	errs, y := validateYAML(t, s, []byte(b.text))
	var got []int
	for _, e := range errs {
		if l := y.lines[e.ptr]; !slices.Contains(got, l) {
			got = append(got, l)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, flagged) {
		t.Errorf("%s: lines flagged %v, marked %v: %v", where(b, 0), got, flagged, errs)
	}
	err := compileYAML(newTestRegistry(t), "doc.yaml", []byte(b.text))
	if (err == nil) != (len(flagged) == 0) {
		t.Errorf("%s: the loader says %v, with %d lines marked flagged", where(b, 0), err, len(flagged))
	}
}
