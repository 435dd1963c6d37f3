package edit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/xmltok"
	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// Structure edits: an entity's whole block (its lines, with its children
// and the comments inside) taken out of a file, put in at a place, or
// moved there; a prefab's body edited; a prefab added. They work on the
// bytes and the parser's positions alone; the caller checks the result
// by compiling it and comparing it with the running scene (loader/live).

// Place is where an entity's block goes in a file of format XML or YAML:
// right after After's block, else right before Before's, else as the
// first child of Parent (nil Parent: the file has no entity to go by,
// which is refused).
type Place struct {
	File                  string
	XML                   bool
	Parent, After, Before *scenefile.EntitySpec
}

// InsertEntity returns src with the block lines (BlockLines' output) put
// in at place ins, indented to it.
func InsertEntity(src []byte, ins *Place, lines []string) ([]byte, error) {
	return ins.insert(src, lines)
}

// Block is an entity written as a new block of a scene file: its keys
// (id, prefab, class, then components with their attribute strings) in
// order, what an instance of a prefab changes on the prefab's parts, and
// its children.
type Block struct {
	Keys     [][2]string
	Parts    []*Part
	Children []*Block
}

// Part is what an instance changes on one part of its prefab: the part's
// path inside the prefab ("0", "gun/0") and its keys (class, components).
type Part struct {
	Path string
	Keys [][2]string
	// Removed: the instance lacks the part (it writes no keys then).
	Removed bool
}

// Lines returns the block's lines without indentation, in XML or YAML.
func (b *Block) Lines(xml bool) []string {
	var out []string
	if xml {
		tag := "<entity"
		for _, p := range b.Keys {
			tag += " " + p[0] + `="` + xmlEscape(p[1], '"') + `"`
		}
		if len(b.Children)+len(b.Parts) == 0 {
			return []string{tag + "/>"}
		}
		out = append(out, tag+">")
		for _, p := range b.Parts {
			if p.Removed {
				out = append(out, `  <removed path="`+xmlEscape(p.Path, '"')+`"/>`)
				continue
			}
			line := `  <part path="` + xmlEscape(p.Path, '"') + `"`
			for _, kv := range p.Keys {
				line += " " + kv[0] + `="` + xmlEscape(kv[1], '"') + `"`
			}
			out = append(out, line+"/>")
		}
		for _, k := range b.Children {
			for _, l := range k.Lines(xml) {
				out = append(out, "  "+l)
			}
		}
		return append(out, "</entity>")
	}
	for i, p := range b.Keys {
		line := p[0] + ":"
		if p[1] != "" {
			line += " " + yamlValue(p[1], false)
		}
		if i == 0 {
			out = append(out, "- "+line)
		} else {
			out = append(out, "  "+line)
		}
	}
	if len(b.Keys) == 0 {
		out = append(out, "- {}")
	}
	if len(b.Parts) > 0 {
		out = append(out, "  parts:")
		for _, p := range b.Parts {
			key := "    \"" + yamlsyntax.EscapeDouble(p.Path) + "\":"
			switch {
			case p.Removed:
				out = append(out, key+" removed")
				continue
			case len(p.Keys) == 0:
				out = append(out, key+" {}")
				continue
			}
			out = append(out, key)
			for _, kv := range p.Keys {
				line := "      " + kv[0] + ":"
				if kv[1] != "" {
					line += " " + yamlValue(kv[1], false)
				}
				out = append(out, line)
			}
		}
	}
	if len(b.Children) > 0 {
		out = append(out, "  children:")
		for _, k := range b.Children {
			for _, l := range k.Lines(xml) {
				out = append(out, "    "+l)
			}
		}
	}
	return out
}

// AddPrefab returns src with prefab name, a variant of base with comps
// (component name and attribute string, in order) written over it, put
// in right after prefab last's definition at its indentation.
func AddPrefab(src []byte, last *scenefile.PrefabSpec, name, base string, comps [][2]string) ([]byte, error) {
	xml := scenefile.FormatOf(last.Body.File) == scenefile.FormatXML
	start, ok := offsetOf(src, last.Body.File, last.Pos)
	if !ok {
		return nil, fmt.Errorf("%s: the prefab's position is not in the file: %w", last.Pos, ErrCannotEdit)
	}
	if xml && src[start] != '<' { // the name attribute's value: back to the tag's '<'
		start = bytes.LastIndexByte(src[:start], '<')
	}
	end, err := blockEnd(src, start, xml, last.Body)
	if err != nil {
		return nil, err
	}
	ls, _ := lineAt(src, start)
	ind, _ := indentOf(src[ls:start])
	pad := strings.Repeat(" ", ind)
	var b strings.Builder
	if xml {
		b.WriteString(pad + `<prefab name="` + xmlEscape(name, '"') + `" prefab="` + xmlEscape(base, '"') + `"`)
		for _, c := range comps {
			b.WriteString(" " + c[0] + `="` + xmlEscape(c[1], '"') + `"`)
		}
		b.WriteString("/>\n")
	} else {
		b.WriteString(pad + yamlValue(name, false) + ":\n" + pad + "  prefab: " + yamlValue(base, false) + "\n")
		for _, c := range comps {
			b.WriteString(pad + "  " + c[0] + ":")
			if c[1] != "" {
				b.WriteString(" " + yamlValue(c[1], false))
			}
			b.WriteString("\n")
		}
	}
	return append(append(append([]byte{}, src[:end]...), b.String()...), src[end:]...), nil
}

// RemoveEntity returns src without the block of entity ent (its
// lines, children and comments inside them included; in XML its element
// and the line it takes). A YAML entity must be a block sequence item
// whose first key is on the dash's line; the only item of its sequence
// leaves an empty flow sequence ("children: []").
func RemoveEntity(src []byte, ent *scenefile.EntitySpec) ([]byte, error) {
	start, ok := offsetOf(src, ent.File, ent.Pos)
	if !ok {
		return nil, fmt.Errorf("%s: the entity's position is not in the file: %w", ent.Pos, ErrCannotEdit)
	}
	switch scenefile.FormatOf(ent.File) {
	case scenefile.FormatYAML:
		return removeYAMLItem(src, start, ent)
	case scenefile.FormatXML:
		return removeXMLElement(src, start, ent)
	}
	return nil, fmt.Errorf("%s: the editor does not edit %s files: %w", ent.File, formatName(ent.File), ErrCannotEdit)
}

// offsetOf returns the byte offset of pos, a position the reader gave
// in file, whose bytes are src.
func offsetOf(src []byte, file string, pos scenefile.Pos) (int, bool) {
	return scenefile.NewSource(file, src).Offset(pos)
}

// lineAt returns the start and end (after its '\n', or len) of the line
// holding offset off.
func lineAt(src []byte, off int) (int, int) {
	s := bytes.LastIndexByte(src[:off], '\n') + 1
	e := bytes.IndexByte(src[off:], '\n')
	if e < 0 {
		return s, len(src)
	}
	return s, off + e + 1
}

// indentOf returns the number of leading spaces of line, and whether the
// line holds only white space (or is a comment, when comments is set).
func indentOf(line []byte) (n int, blank bool) {
	for n < len(line) && line[n] == ' ' {
		n++
	}
	rest := bytes.TrimRight(line[n:], " \t\r\n")
	return n, len(rest) == 0
}

// removeYAMLItem removes the block sequence item whose first key starts
// at start.
func removeYAMLItem(src []byte, start int, ent *scenefile.EntitySpec) ([]byte, error) {
	ls, le := lineAt(src, start)
	prefix := src[ls:start]
	dash, _ := indentOf(prefix)
	if dash >= len(prefix) || prefix[dash] != '-' || len(bytes.TrimLeft(prefix[dash+1:], " ")) != 0 {
		return nil, fmt.Errorf("%s: the entity is not a block sequence item whose first key is on the dash's line: %w", ent.Pos, ErrCannotEdit)
	}
	end, err := yamlBlockEnd(src, ent.File, start, le)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	out := append(append([]byte{}, src[:ls]...), src[end:]...)
	if only, keyEnd := onlyItem(src, ls, end, dash); only {
		out = append(append(append([]byte{}, src[:keyEnd]...), " []"...), out[keyEnd:]...)
	}
	return out, nil
}

// onlyItem reports whether the item in src[ls:end] (dash at column
// dash) is the only one of its sequence: the line before it (blank lines
// aside) ends a "key:" with nothing after it, and no item at the same
// indentation follows. keyEnd is the offset right after that colon.
func onlyItem(src []byte, ls, end, dash int) (bool, int) {
	p := ls
	for p > 0 {
		s, _ := lineAt(src, p-1)
		line := bytes.TrimRight(src[s:p], " \t\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			p = s
			continue
		}
		if !bytes.HasSuffix(line, []byte(":")) {
			return false, 0
		}
		keyEnd := s + len(line)
		if end < len(src) {
			_, ne := lineAt(src, end)
			ind, _ := indentOf(src[end:ne])
			if ind == dash && end+ind < len(src) && src[end+ind] == '-' {
				return false, 0
			}
		}
		return true, keyEnd
	}
	return false, 0
}

// removeXMLElement removes the entity element starting at start (its
// '<'), with the line it takes when nothing else is on it.
func removeXMLElement(src []byte, start int, ent *scenefile.EntitySpec) ([]byte, error) {
	if start >= len(src) || src[start] != '<' {
		return nil, fmt.Errorf("%s: no start tag at the entity's position: %w", ent.Pos, ErrCannotEdit)
	}
	end, err := xmlElementEnd(src, start)
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	ls, _ := lineAt(src, start)
	_, le := lineAt(src, max(end-1, start))
	before := bytes.TrimLeft(src[ls:start], " \t")
	after := bytes.TrimRight(src[end:le], " \t\r\n")
	if len(before) == 0 && len(after) == 0 {
		start, end = ls, le
	}
	return append(append([]byte{}, src[:start]...), src[end:]...), nil
}

// xmlElementEnd returns the offset right after the element that starts
// at start, as the XML scanner reads its tokens (nested elements,
// comments, CDATA sections, processing instructions and attribute values
// are the scanner's).
func xmlElementEnd(src []byte, start int) (int, error) {
	sc := xmltok.NewScanner(src, start)
	depth := 0
	for sc.Next() {
		switch sc.Token().Kind {
		case xmltok.Start:
			depth++
		case xmltok.End:
			depth--
			if depth == 0 {
				return sc.Offset(), nil
			}
		}
		if depth == 0 {
			return 0, errors.New("no start tag there")
		}
	}
	if err := sc.Err(); err != nil {
		return 0, errors.New(err.Msg)
	}
	return 0, errors.New("the element does not end")
}

// xmlTagEnd returns the offset after the start tag at p ('<'), as the
// scanner reads it, and whether it closes itself ("/>").
func xmlTagEnd(src []byte, p int) (int, bool, error) {
	sc := xmltok.NewScanner(src, p)
	if !sc.Next() || sc.Token().Kind != xmltok.Start {
		if err := sc.Err(); err != nil {
			return 0, false, errors.New(err.Msg)
		}
		return 0, false, errors.New("no start tag there")
	}
	end := sc.Offset()
	return end, end >= 2 && src[end-2] == '/', nil
}

// insert puts the block's lines into src at ins's place.
func (ins *Place) insert(src []byte, lines []string) ([]byte, error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	at, indent, lead, err := ins.where(src)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(lead)
	for _, l := range lines {
		b.WriteString(indent + l + nl)
	}
	out := append(append(append([]byte{}, src[:at]...), b.String()...), src[at:]...)
	return out, nil
}

// where returns the offset the block goes at, the indentation of its
// lines, and text to write first (a "children:" key, say).
func (ins *Place) where(src []byte) (at int, indent, lead string, err error) {
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	sib := ins.After
	if sib == nil {
		sib = ins.Before
	}
	if sib != nil {
		start, ok := offsetOf(src, sib.File, sib.Pos)
		if !ok {
			return 0, "", "", fmt.Errorf("%s: the sibling's position is not in the file: %w", sib.Pos, ErrCannotEdit)
		}
		ls, _ := lineAt(src, start)
		ind, _ := indentOf(src[ls:start])
		if ins.Before != nil {
			return ls, strings.Repeat(" ", ind), "", nil
		}
		end, err := blockEnd(src, start, ins.XML, sib)
		return end, strings.Repeat(" ", ind), "", err
	}
	if ins.Parent == nil {
		return 0, "", "", fmt.Errorf("the scene's file has no entities to put a new root after: %w", ErrCannotEdit)
	}
	ps := ins.Parent
	start, ok := offsetOf(src, ps.File, ps.Pos)
	if !ok {
		return 0, "", "", fmt.Errorf("%s: the parent's position is not in the file: %w", ps.Pos, ErrCannotEdit)
	}
	ls, _ := lineAt(src, start)
	if ins.XML {
		ind, _ := indentOf(src[ls:start])
		return xmlFirstChild(src, start, ind, nl)
	}
	end, err := blockEnd(src, start, false, ps)
	if err != nil {
		return 0, "", "", err
	}
	key := start - ls // the parent's keys' column
	if strings.Contains(string(src[start:end]), "children:") {
		return 0, "", "", fmt.Errorf("%s: the parent writes children: in a way the editor does not extend: %w", ps.Pos, ErrCannotEdit)
	}
	return end, strings.Repeat(" ", key+2), strings.Repeat(" ", key) + "children:" + nl, nil
}

// blockEnd returns the offset after the block (YAML item or XML element)
// of the entity whose first key or start tag is at start.
func blockEnd(src []byte, start int, xml bool, ent *scenefile.EntitySpec) (int, error) {
	if xml {
		end, err := xmlElementEnd(src, start)
		if err != nil {
			return 0, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
		}
		_, le := lineAt(src, max(end-1, start))
		if len(bytes.TrimSpace(src[end:le])) == 0 {
			return le, nil
		}
		return 0, fmt.Errorf("%s: something follows the element on its line: %w", ent.Pos, ErrCannotEdit)
	}
	_, le := lineAt(src, start)
	end, err := yamlBlockEnd(src, ent.File, start, le)
	if err != nil {
		return 0, fmt.Errorf("%s: %v: %w", ent.Pos, err, ErrCannotEdit)
	}
	if end == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
		return 0, fmt.Errorf("%s: the file does not end with a line break: %w", ent.Pos, ErrCannotEdit)
	}
	return end, nil
}

// xmlFirstChild returns where the first child element of the element at
// start goes: before its end tag, or in place of its "/>".
func xmlFirstChild(src []byte, start, ind int, nl string) (int, string, string, error) {
	tagEnd, self, err := xmlTagEnd(src, start)
	if err != nil {
		return 0, "", "", fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	pad := strings.Repeat(" ", ind)
	if self {
		return 0, "", "", fmt.Errorf("the parent element closes itself (%s/>): give it an end tag first: %w", pad, ErrCannotEdit)
	}
	end, err := xmlElementEnd(src, start)
	if err != nil {
		return 0, "", "", fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	closeAt := bytes.LastIndex(src[tagEnd:end], []byte("</")) + tagEnd
	ls, _ := lineAt(src, closeAt)
	if len(bytes.TrimSpace(src[ls:closeAt])) == 0 {
		return ls, pad + "  ", "", nil
	}
	return closeAt, pad + "  ", nl, nil
}

// MoveEntity returns src with ent's block (its lines, children and
// comments inside them) moved to place ins, re-indented to it.
func MoveEntity(src []byte, ent *scenefile.EntitySpec, ins *Place) ([]byte, error) {
	start, ok := offsetOf(src, ent.File, ent.Pos)
	if !ok {
		return nil, fmt.Errorf("%s: the entity's position is not in the file: %w", ent.Pos, ErrCannotEdit)
	}
	rs, _ := lineAt(src, start)
	re, err := blockEnd(src, start, ins.XML, ent)
	if err != nil {
		return nil, err
	}
	at, indent, lead, err := ins.where(src)
	if err != nil {
		return nil, err
	}
	if at > rs && at < re {
		return nil, fmt.Errorf("%s: the new place is inside the entity's own block: %w", ent.Pos, ErrCannotEdit)
	}
	old, _ := indentOf(src[rs:start])
	lines := strings.SplitAfter(string(src[rs:re]), "\n")
	var b strings.Builder
	b.WriteString(lead)
	for _, l := range lines {
		if l == "" {
			continue
		}
		ind, blank := indentOf([]byte(l))
		if blank {
			b.WriteString(l)
			continue
		}
		if ind < old {
			return nil, fmt.Errorf("%s: a line of the block is indented less than its first: %w", ent.Pos, ErrCannotEdit)
		}
		b.WriteString(indent + l[old:])
	}
	block := b.String()
	out := make([]byte, 0, len(src)+len(block))
	if at >= re {
		out = append(append(append(append(out, src[:rs]...), src[re:at]...), block...), src[at:]...)
	} else {
		out = append(append(append(append(out, src[:at]...), block...), src[at:rs]...), src[re:]...)
	}
	return out, nil
}

// SetPrefabComponent is SetComponent on body, the entity of prefab's
// definition: the same minimal edit, read back to check that the file
// says what it said but for component name of that prefab, whose new
// components check judges.
func SetPrefabComponent(src []byte, body *scenefile.EntitySpec, prefab, name string, sch Schema, props []Prop, check Check) ([]byte, error) {
	out, err := editComponent(src, body, name, sch, props)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: the edit of %s of prefab %s did not read back as intended (%s); nothing written: %w",
			body.Pos, name, prefab, fmt.Sprintf(format, args...), ErrCannotEdit)
	}
	lim := scenefile.Limits{MaxBytes: int64(max(len(src), len(out))) + 1, MaxDepth: 1 << 20, MaxEntities: 1 << 30, MaxErrors: 10}
	od, err := scenefile.Read(body.File, src, lim)
	if err != nil {
		return nil, fail("the file does not read: %v", err)
	}
	nd, err := scenefile.Read(body.File, out, lim)
	if err != nil {
		return nil, fail("%v", err)
	}
	if len(od.Prefabs) != len(nd.Prefabs) {
		return nil, fail("the prefabs changed")
	}
	oh, nh := *od, *nd
	nh.Prefabs = slices.Clone(nd.Prefabs)
	found := false
	for i, p := range od.Prefabs {
		if p.Name != prefab || nd.Prefabs[i].Name != prefab {
			continue
		}
		found = true
		c := &docCompare{target: p.Body.Pos, name: name, check: check}
		if msg := c.entity(p.Body, nd.Prefabs[i].Body, true); msg != "" {
			return nil, fail("%s", msg)
		}
		nh.Prefabs[i] = p // judged above
	}
	if !found {
		return nil, fail("the prefab is not in the file")
	}
	if msg := docHeadDiff(&oh, &nh); msg != "" {
		return nil, fail("%s changed", msg)
	}
	if msg := (&docCompare{}).entities(od.Entities, nd.Entities); msg != "" {
		return nil, fail("%s", msg)
	}
	return out, nil
}

// yamlBlockEnd returns the offset after the last line of the block that
// starts at start, as the YAML parser spans it: an entity's mapping that
// starts there, or the value of the mapping key written there (a
// prefab's name); le is the end of start's line (at least that).
func yamlBlockEnd(src []byte, file string, start, le int) (int, error) {
	y, err := newYAMLEditor(file, src)
	if err != nil {
		return 0, err
	}
	var end int32 = -1
	var find func(n *yamlsyntax.Node)
	find = func(n *yamlsyntax.Node) {
		if end >= 0 || int(n.Off) > start || int(n.End) < start {
			return
		}
		if n.Kind == yamlsyntax.Mapping && int(n.Off) == start {
			end = n.End
			return
		}
		if n.Kind == yamlsyntax.Mapping {
			for _, p := range pairs(n) {
				if int(p.k.Off) == start {
					end = p.v.End
					return
				}
			}
		}
		for _, c := range n.Content {
			find(c)
		}
	}
	find(y.root)
	if end < 0 {
		return 0, errors.New("no block of the parser's starts there")
	}
	return max(le, y.lines.next(max(int(end)-1, start))), nil
}
