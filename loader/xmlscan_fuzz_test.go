package loader

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
)

// xmlScannerSeeds are inputs for the differential test of the XML scanner:
// every construct of the subset, and the ways each can go wrong.
var xmlScannerSeeds = []string{
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

// FuzzXMLScanner checks the XML scanner against encoding/xml's strict
// RawToken: the same tokens (names, attributes and values in order, text,
// comments, processing instructions), the same offsets after each token,
// and the same errors at the same offsets; so also the same inputs
// accepted and refused.
func FuzzXMLScanner(f *testing.F) {
	for _, s := range xmlScannerSeeds {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile("testdata/scene.xml"); err == nil {
		f.Add(data)
	}
	f.Add(genScene("xml", 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := compareXMLScanner(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	})
}

func TestXMLScannerAgainstEncodingXML(t *testing.T) {
	inputs := [][]byte{genScene("xml", 500), genLoadScene("xml", 1000)}
	for _, s := range xmlScannerSeeds {
		inputs = append(inputs, []byte(s))
	}
	for _, data := range inputs {
		if err := compareXMLScanner(data); err != nil {
			t.Errorf("%.200q: %v", data, err)
		}
	}
}

// compareXMLScanner reads data with the scanner and with encoding/xml side
// by side and describes the first difference.
func compareXMLScanner(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(label string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("encoding %q not supported (scenes must be UTF-8)", label)
	}
	s := newXMLScanner(data)
	for i := 0; ; i++ {
		want, werr := d.RawToken()
		wantOff := int(d.InputOffset())
		ok := s.next()
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
			if ok || s.err == nil || s.err.msg != msg || s.err.off != wantOff {
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
		if s.tok.kind == xmlStart {
			for _, a := range s.tok.attrs {
				if !bytes.HasPrefix(data[a.nameOff:], []byte(a.name)) || a.valOff < 1 || data[a.valOff-1] != '"' && data[a.valOff-1] != '\'' {
					return fmt.Errorf("token %d: bad offsets %d, %d for attribute %s", i, a.nameOff, a.valOff, a.name)
				}
			}
		}
	}
}

func scanResult(s *xmlScanner, ok bool) string {
	switch {
	case ok:
		return fmt.Sprintf("token %#v ending at %d", tokenFromScanner(&s.tok), s.p)
	case s.err != nil:
		return fmt.Sprintf("fails at %d: %s", s.err.off, s.err.msg)
	}
	return "at the end"
}

// tokenFromScanner converts a scanner token to the encoding/xml token it
// stands for.
func tokenFromScanner(t *xmlToken) xml.Token {
	name := func(s string) xml.Name {
		if xmlPrefixed(s) {
			return xml.Name{Space: s[:len(s)-len(xmlLocal(s))-1], Local: xmlLocal(s)}
		}
		return xml.Name{Local: s}
	}
	switch t.kind {
	case xmlStart:
		se := xml.StartElement{Name: name(t.name), Attr: []xml.Attr{}}
		for _, a := range t.attrs {
			se.Attr = append(se.Attr, xml.Attr{Name: name(a.name), Value: a.value})
		}
		return se
	case xmlEnd:
		return xml.EndElement{Name: name(t.name)}
	case xmlText:
		return xml.CharData(t.text)
	case xmlComment:
		return xml.Comment(t.text)
	case xmlProcInst:
		return xml.ProcInst{Target: t.name, Inst: []byte(t.text)}
	case xmlDirective:
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
