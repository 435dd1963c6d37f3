package xmltok

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// scannerSeeds are inputs for the differential test of the XML scanner:
// every construct of the subset, and the ways each can go wrong.
var scannerSeeds = []string{
	"",
	"<scene/>",
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scene a=\"1\"\tb='2'\n c = \"x y\" />",
	"<?xml version='1.1'?><scene/>",
	"<?xml version=\"1.0\" encoding=\"latin1\"?><scene/>",
	"<?xml encoding=\"utf-8\"?><?xml-model href=\"s.rng\"?><scene/>",
	"<?xml-stylesheet a?b ?>x?><scene/>",
	"<? x?>", "<?x", "<?x ?", "<?1x?>",
	"<scene><!-- a -- b --></scene>", "<scene><!-- a - b ---></scene>", "<!---->", "<!--->", "<!- x -->", "<!--",
	"<scene><![CDATA[ a ]] ]]></scene>", "<![CDATA[\r\n]]>", "<![CDAT[x]]>", "<![CDATA[x",
	"<!DOCTYPE scene [<!ENTITY lol \"lol\">]>\n<scene/>",
	"<!DOCTYPE a [ <!-- > --> <x y='>'> ] >x<scene/>", "<!\"x>", "<!x<>>", "<!x<!>>", "<!x<!->>", "<!>x>",
	"<scene a=\"&lt;&gt;&amp;&apos;&quot;\" b=\"&#65;&#x42;&#X43;\" c=\"&#0;\"/>",
	"<scene a=\"&#xD800;&#x10FFFF;&#x110000;\"/>", "<scene a=\"&#99999999999999999999999;\"/>",
	"<scene a=\"&#;\"/>", "<scene a=\"&#x;\"/>", "<scene a=\"&#12a;\"/>", "<scene a=\"&lol;\"/>", "<scene a=\"&;\"/>",
	"<scene a=\"& \"/>", "<scene a=\"&\"/>", "<scene a=\"&é;\"/>", "<scene a=\"&amp\"/>", "<scene a=\"&", "<scene a=\"&#", "<scene a=\"&#x1",
	"<scene a=\"x\r\ny\rz\r\r\n\"/>", "<scene a=\"\t\n\"/>", "<scene a=\"]]>\"/>", "<scene a=\"<\"/>", "<scene a='\"'/>",
	"<scene a=\"\xff\"/>", "<scene a=\"\x01\"/>", "<scene a=\"\uFFFE\"/>", "<scene a=\"é\U0001F600\"/>", "<scene a=\"x",
	"<scene>\n  <entity>hi &amp; ]] > &#10;</entity>\n</scene>", "<scene>]]></scene>", "x\r\n<scene/>\r\n", "<scene>&bad;</scene>",
	"<scene>\xff</scene>", "<scene>\x00</scene>", "\ufeff<scene/>",
	"<scene><entity id=x/></scene>", "<scene a/>", "<scene a=/>", "<scene a\n=\n'1'/>", "<scene a=\"1\"b=\"2\"/>",
	"<scene/ >", "<scene", "<scene ", "<scene a", "<scene a=", "<scene/", "< scene/>", "<1scene/>", "<-a/>", "<.a/>",
	"<x:scene xmlns:x=\"u\"><x:e/></x:scene>", "<a:b:c/>", "<scene a:b:c=\"1\"/>", "<:a/>", "<a:/>", "<scene :a=\"1\" a:=\"2\"/>",
	"<éa/>", "<a\xff/>", "<\u00B7a/>", "<a\u00B7/>", "<\u4e00/>", "<a\u0300/>", "<\u0300/>",
	"<scene></scene >", "</scene>", "</ scene>", "</scene x>", "</a:b x>", "</scene", "</", "<", "<scene><entity></scene>",
	"<scene a=\"1\" a=\"2\"/>", "<scene>\n<entity\n  id=\"e\"\n  position=\"1 2 3\"/>\n</scene>",
}

// FuzzScanner checks the XML scanner against encoding/xml's strict
// RawToken: the same tokens (names, attributes and values in order, text,
// comments, processing instructions), the same offsets after each token,
// and the same errors at the same offsets; so also the same inputs
// accepted and refused.
func FuzzScanner(f *testing.F) {
	for _, s := range scannerSeeds {
		f.Add([]byte(s))
	}
	for _, data := range sceneInputs(f) {
		if len(data) < 1<<16 {
			f.Add(data)
		}
	}
	f.Add(scenegen.Scene("xml", 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := compareScanner(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	})
}

func TestScannerAgainstEncodingXML(t *testing.T) {
	inputs := sceneInputs(t)
	inputs["generated-500"] = scenegen.Scene("xml", 500)
	inputs["generated-load-1000"] = scenegen.LoadScene("xml", 1000)
	for _, s := range scannerSeeds {
		inputs[s] = []byte(s)
	}
	for name, data := range inputs {
		if err := compareScanner(data); err != nil {
			t.Errorf("%.200q: %v", name, err)
		}
	}
}

// sceneInputs returns the XML scenes of the repository (scenes/ and the
// loader's testdata) and a generated scene, by name.
func sceneInputs(t testing.TB) map[string][]byte {
	out := map[string][]byte{"generated": scenegen.LoadScene("xml", 300)}
	for _, pattern := range []string{"../../../scenes/*.xml", "../../scenefile/testdata/*.xml", "../../testdata/golden/*.xml"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("no files match %s", pattern)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[f] = data
		}
	}
	return out
}

// compareScanner reads data with the scanner and with encoding/xml side
// by side and describes the first difference.
func compareScanner(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("encoding %q not supported (scenes must be UTF-8)", label)
	}
	s := NewScanner(data, 0)
	for i := 0; ; i++ {
		want, werr := d.RawToken()
		wantOff := int(d.InputOffset())
		ok := s.Next()
		switch {
		case werr == io.EOF:
			if ok || s.err != nil {
				return fmt.Errorf("token %d: encoding/xml at the end, scanner: %s", i, scanResult(s, ok))
			}
			return nil
		case werr != nil:
			msg := werr.Error()
			if se := (*xml.SyntaxError)(nil); errors.As(werr, &se) {
				msg = se.Msg
			}
			if ok || s.err == nil || s.err.Msg != msg || s.err.Off != wantOff {
				return fmt.Errorf("token %d: encoding/xml fails at %d: %s; scanner: %s", i, wantOff, msg, scanResult(s, ok))
			}
			return nil
		case !ok:
			return fmt.Errorf("token %d: encoding/xml reads %#v, scanner: %s", i, want, scanResult(s, ok))
		}
		if got := tokenFromScanner(&s.tok); !sameToken(got, want) {
			return fmt.Errorf("token %d: encoding/xml reads %#v, scanner %#v", i, want, got)
		}
		if s.p != wantOff {
			return fmt.Errorf("token %d (%#v): encoding/xml ends at %d, scanner at %d", i, want, wantOff, s.p)
		}
		if s.tok.Kind == Start {
			for _, a := range s.tok.Attrs {
				if !bytes.HasPrefix(data[a.NameOff:], []byte(a.Name)) || a.ValOff < 1 || data[a.ValOff-1] != '"' && data[a.ValOff-1] != '\'' {
					return fmt.Errorf("token %d: bad offsets %d, %d for attribute %s", i, a.NameOff, a.ValOff, a.Name)
				}
			}
		}
	}
}

func scanResult(s *Scanner, ok bool) string {
	switch {
	case ok:
		return fmt.Sprintf("token %#v ending at %d", tokenFromScanner(&s.tok), s.p)
	case s.err != nil:
		return fmt.Sprintf("fails at %d: %s", s.err.Off, s.err.Msg)
	}
	return "at the end"
}

// tokenFromScanner converts a scanner token to the encoding/xml token it
// stands for.
func tokenFromScanner(t *Token) xml.Token {
	name := func(s string) xml.Name {
		if Prefixed(s) {
			return xml.Name{Space: s[:len(s)-len(Local(s))-1], Local: Local(s)}
		}
		return xml.Name{Local: s}
	}
	switch t.Kind {
	case Start:
		se := xml.StartElement{Name: name(t.Name), Attr: []xml.Attr{}}
		for _, a := range t.Attrs {
			se.Attr = append(se.Attr, xml.Attr{Name: name(a.Name), Value: a.Value})
		}
		return se
	case End:
		return xml.EndElement{Name: name(t.Name)}
	case Text:
		return xml.CharData(t.Text)
	case Comment:
		return xml.Comment(t.Text)
	case ProcInst:
		return xml.ProcInst{Target: t.Name, Inst: []byte(t.Text)}
	case Directive:
		return xml.Directive(nil)
	}
	return nil
}

func sameToken(got, want xml.Token) bool {
	switch w := want.(type) {
	case xml.StartElement:
		g, ok := got.(xml.StartElement)
		if !ok || g.Name != w.Name || len(g.Attr) != len(w.Attr) {
			return false
		}
		for i := range w.Attr {
			if g.Attr[i] != w.Attr[i] {
				return false
			}
		}
		return true
	case xml.EndElement:
		return got == want
	case xml.CharData:
		g, ok := got.(xml.CharData)
		return ok && bytes.Equal(g, w)
	case xml.Comment:
		g, ok := got.(xml.Comment)
		return ok && bytes.Equal(g, w)
	case xml.ProcInst:
		g, ok := got.(xml.ProcInst)
		return ok && g.Target == w.Target && bytes.Equal(g.Inst, w.Inst)
	case xml.Directive:
		// The scanner skips a declaration's content: the reader refuses it.
		_, ok := got.(xml.Directive)
		return ok
	}
	return false
}
