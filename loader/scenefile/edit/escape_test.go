package edit_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/loader/scenefile/edit"
)

// The family of the escape attacks: a value written with escapes,
// references, doubled quotes or folded lines before the property an edit
// sets (or an error points at). Each case is a value of label (text,
// font) whose font is written once as "serif": setting font to mono must
// change exactly those five bytes, in every style, and an unknown
// property written in its place must be reported exactly where it is.
type escapeCase struct {
	name  string
	value string // label's value as written; font is "serif", once
}

// yamlEscapeCases write label in every YAML style, with every kind of
// escape before font.
var yamlEscapeCases = []escapeCase{
	{"plain", `text:a\b'c"d;font:serif`},
	{"plain over lines", "text:a\n      b\n\n      c;font:serif"},
	{"single quotes", `'text: it''s ''q''; font: serif'`},
	{"single quotes over lines", "'text: a''\n\n      b; font: serif'"},
	{"double: backslash", `"text: a\\b; font: serif"`},
	{"double: two backslashes", `"text: \\\\; font: serif"`},
	{"double: quote", `"text: \"q\"; font: serif"`},
	{"double: control escapes", `"text: \t\n\r\0\a\b\v\f\e; font: serif"`},
	{"double: space, slash-free escapes", `"text: \ \_\N\L\P; font: serif"`},
	{"double: hex", `"text: \x41\x7e; font: serif"`},
	{"double: unicode", `"text: \u00e9\u2713; font: serif"`},
	{"double: long unicode", `"text: \U0001F600\U00000041; font: serif"`},
	{"double: escaped line break", "\"text: a\\\n      b; font: serif\""},
	{"double: folded lines", "\"text: a  \n\n      b  \n      c; font: serif\""},
	{"double: every kind", "\"text: \\\\\\\"\\t\\x41\\u00e9\\U0001F600\\\n  \\ x; font: serif\""},
	{"literal block", "|\n      text: a\\b \"q\"\n      x; font: serif"},
	{"literal block, keep", "|+\n      text: a\\b; font: serif\n\n"},
	{"folded block", ">-\n      text: a\n      \\b\n\n      c; font: serif"},
	{"indentation indicator", "|2-\n       text: a; font: serif"},
	{"flow map: escapes in another key", `{text: "a\\b\"\u00e9", font: serif}`},
	{"flow map: quoted", `{text: 'it''s', font: "serif"}`},
	{"flow map over lines", "{\n      text: \"a\\\\\n      b\",\n      font: serif\n    }"},
	{"block map", "\n      text: \"\\\\\\\"\\t\"\n      font: serif"},
	{"block map, quoted", "\n      text: 'a''b'\n      font: 'serif'"},
}

// xmlEscapeCases write label in XML attributes, with every reference.
var xmlEscapeCases = []escapeCase{
	{"amp", `label="text: a &amp; b; font: serif"`},
	{"decimal reference", `label="text: &#38;&#38;; font: serif"`},
	{"hex reference", `label="text: &#x26;&#x41;; font: serif"`},
	{"every entity, double quotes", `label="text: &lt;&gt;&amp;&quot;&apos;; font: serif"`},
	{"every entity, single quotes", `label='text: &lt;&gt;&amp;&quot;&apos;; font: serif'`},
	{"line break references", `label="text: a&#10;&#13;&#9;b; font: serif"`},
	{"raw line breaks", "label=\"text: a\r\nb\rc; font: serif\""},
	{"unicode references", `label='text: &#233;&#x2713;&#128512;; font: serif'`},
	{"dotted", `label.text="a &amp; b" label.font='serif'`},
	{"dotted after references", `label.text='&#38;&amp;&#x26;' label.font="serif"`},
}

// escapeFile returns a scene with the entity e whose label is written as
// value, between two neighbours.
func escapeFile(xml bool, value string) (string, string) {
	if xml {
		return "scene.xml", "<scene>\n  <entity id=\"a\" label=\"text: x; font: y\"/>\n  <entity id=\"e\" " + value +
			" position=\"1 2 3\"/>\n  <entity id=\"z\" label='text: &amp;'/>\n</scene>\n"
	}
	return "scene.yaml", "entities:\n  - id: a\n    label: \"text: \\\\; font: y\"\n  - id: e\n    label: " + value +
		"\n    position: 1 2 3\n  - id: z\n    label: 'text: '''\n"
}

func TestEditAfterEscapes(t *testing.T) {
	for _, xml := range []bool{false, true} {
		cases := yamlEscapeCases
		if xml {
			cases = xmlEscapeCases
		}
		for _, c := range cases {
			for _, v := range fileVariants {
				t.Run(fmt.Sprintf("xml=%v/%s/%s", xml, c.name, v.name), func(t *testing.T) {
					file, src := escapeFile(xml, c.value)
					if src = v.conv(src); v.bom {
						src = "\ufeff" + src
					}
					checkEscapeEdit(t, file, src)
					checkEscapeErrorPos(t, file, src)
				})
			}
		}
	}
}

// escapeCorpus returns a scene with an entity per escape case, for the
// corpus of the edit fuzz test.
func escapeCorpus(xml bool) string {
	var b strings.Builder
	if xml {
		b.WriteString("<scene>\n")
		for i, c := range xmlEscapeCases {
			fmt.Fprintf(&b, "  <entity id=\"e%d\" %s position=\"1 2 3\"/>\n", i, c.value)
		}
		b.WriteString("</scene>\n")
		return b.String()
	}
	b.WriteString("entities:\n")
	for i, c := range yamlEscapeCases {
		fmt.Fprintf(&b, "  - id: e%d\n    label: %s\n    position: 1 2 3\n", i, c.value)
	}
	return b.String()
}

// checkEscapeEdit sets font to mono on entity e of src and checks that
// exactly "serif" became "mono", and that everything reads as before
// but font.
func checkEscapeEdit(t *testing.T, file, src string) {
	t.Helper()
	if strings.Count(src, "serif") != 1 {
		t.Fatalf("serif occurs %d times in\n%s", strings.Count(src, "serif"), src)
	}
	reg := newEditRegistry(t)
	doc, err := scenefile.Read(file, []byte(src), scenefile.Limits{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	before, err := plan.Compile(doc, reg, plan.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	label, _ := reg.Component("label")
	out, err := live.EditComponent([]byte(src), findEntity(doc, "e"), "label", label.Schema, "font: mono")
	if err != nil {
		t.Fatalf("the edit is refused: %v\n%s", err, src)
	}
	if want := strings.Replace(src, "serif", "mono", 1); string(out) != want {
		t.Fatalf("edited file:\n%s\nwant:\n%s", out, want)
	}
	nd, err := scenefile.Read(file, out, scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := plan.Compile(nd, reg, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range before.Roots {
		m := after.Roots[i]
		for j, np := range n.Comps {
			for k, pv := range np.Patch {
				got := m.Comps[j].Patch[k].Value
				if n.Src.ID == "e" && np.Name == "label" && pv.Index == 1 {
					if got != "mono" {
						t.Fatalf("font reads %q", got)
					}
				} else if fmt.Sprint(got) != fmt.Sprint(pv.Value) {
					t.Fatalf("#%s %s[%d]: %q, then %q", n.Src.ID, np.Name, pv.Index, pv.Value, got)
				}
			}
		}
	}
}

// checkEscapeErrorPos writes an unknown property in font's place and
// checks that the error points at it, line and column.
func checkEscapeErrorPos(t *testing.T, file, src string) {
	t.Helper()
	bad := strings.Replace(src, "font", "fnot", 1)
	i := strings.Index(bad, "fnot")
	line := 1 + strings.Count(bad[:i], "\n")
	col := 1 + utf8.RuneCountInString(bad[strings.LastIndexByte(bad[:i], '\n')+1:i])
	want := scenefile.Pos{File: file, Line: line, Col: col}.String() + ": "
	_, err := loader.LoadBytes(newEditRegistry(t), file, []byte(bad), loader.Options{})
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `unknown property "fnot"`) {
		t.Fatalf("error %v, want it at %s\n%s", err, want, bad)
	}
}

// FuzzEditEscapes writes label's text, from the input, with escapes or
// references chosen at random in one of the styles, and checks the edit
// and the error position as TestEditAfterEscapes does.
func FuzzEditEscapes(f *testing.F) {
	for i, s := range []string{"a\\b", `"q"`, "it's", "é✓😀", "a\tb\nc", "&<>", "x  y", "\x1b\u0085\u2028"} {
		for style := range uint8(5) {
			f.Add(style, s, int64(i*7+int(style)))
		}
	}
	f.Fuzz(func(t *testing.T, style uint8, text string, seed int64) {
		text = strings.Map(func(r rune) rune {
			if r == ';' || r == utf8.RuneError || r == 0xfeff || r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0xfffe && r <= 0xffff || r >= 0xd800 && r <= 0xdfff {
				return -1
			}
			return r
		}, strings.ToValidUTF8(text, ""))
		text = strings.ReplaceAll(strings.ReplaceAll(text, "serif", "s"), "font", "f")
		text = strings.TrimSpace(strings.TrimRight(text, ":"))
		if text == "" || strings.Contains(text, "url(") {
			return
		}
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		xml := style%5 >= 3
		var value string
		switch style % 5 {
		case 0:
			value = `"text: ` + yamlEscapeRandom(text, rng) + `; font: serif"`
		case 1:
			if !edit.YAMLSingleOK(text) {
				return
			}
			value = `'text: ` + strings.ReplaceAll(text, "'", "''") + `; font: serif'`
		case 2:
			value = `{text: "` + yamlEscapeRandom(text, rng) + `", font: serif}`
		case 3:
			value = `label="text: ` + xmlEscapeRandom(text, '"', rng) + `; font: serif"`
		case 4:
			value = `label.text='` + xmlEscapeRandom(text, '\'', rng) + `' label.font="serif"`
		}
		file, src := escapeFile(xml, value)
		if xml && strings.ContainsAny(text, "\r") {
			return
		}
		checkEscapeEdit(t, file, src)
		checkEscapeErrorPos(t, file, src)
	})
}

// yamlEscapeRandom writes text for a YAML double-quoted scalar, each
// character as it is or escaped in a way chosen by rng, with escaped
// line breaks here and there.
func yamlEscapeRandom(text string, rng *rand.Rand) string {
	var b strings.Builder
	for _, r := range text {
		if rng.IntN(8) == 0 {
			b.WriteString("\\\n      ")
		}
		switch k := rng.IntN(4); {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case k == 0 && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case k == 1 && r < 0x10000:
			fmt.Fprintf(&b, `\u%04X`, r)
		case k == 2:
			fmt.Fprintf(&b, `\U%08x`, r)
		case !edit.YAMLPrintable(r) || r == '\t' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlEscapeRandom writes text for an XML attribute value quoted with q,
// each character as it is or as a reference chosen by rng.
func xmlEscapeRandom(text string, q byte, rng *rand.Rand) string {
	named := map[rune]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&apos;"}
	var b strings.Builder
	for _, r := range text {
		switch k := rng.IntN(3); {
		case k == 0 || r == '\t' || r == '\n':
			b.WriteString("&#" + strconv.Itoa(int(r)) + ";")
		case k == 1:
			fmt.Fprintf(&b, "&#x%X;", r)
		case named[r] != "" && (r != '"' && r != '\'' || byte(r) == q || r == '&' || r == '<'):
			b.WriteString(named[r])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
