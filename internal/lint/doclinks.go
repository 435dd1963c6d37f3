package lint

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// DocLinkGap is a name a doc comment mentions where a doc link
// (https://go.dev/doc/comment#links) would do, or a doc link that does not
// resolve.
type DocLinkGap struct {
	Pos  token.Position // where the doc comment starts
	Doc  string         // what the comment documents: "package", "World", "World.Get", "Info.Size"
	Name string         // the name as the comment spells it
	Kind string         // "not linked", "in backquotes" or "broken link"
}

// String reports the gap as "file:line:col: doc of D: KIND NAME".
func (g DocLinkGap) String() string {
	return fmt.Sprintf("%s: doc of %s: %s %s", g.Pos, g.Doc, g.Kind, g.Name)
}

// DocLinkGaps checks the doc comments of the package in dir: the package
// doc and the docs of its exported declarations, methods and struct
// fields, in its non-test files, generated ones included. It reports:
//
//   - a name a comment mentions but links nowhere: an exported
//     package-level name, "T.M" for an exported method or field M of an
//     exported type T, or "pkg.Name" for a package the doc link syntax
//     knows (an import, or the standard library). One link per comment is
//     enough, a link to T.M counts for T too, and the comment's own
//     subject (its declaration, a method's or field's type) need not be
//     linked. A function's bare name starting a sentence is not taken for
//     a mention: "Register one with ..." is English;
//   - such a name written in backquotes, `World` where a link would do;
//   - text that looks like a doc link but does not resolve, "[Wrold]" or
//     "[World]s", which godoc shows with its brackets.
//
// Code blocks and headings are not checked, and neither are bare method
// names ("Next"), which are too often English words too.
func DocLinkGaps(dir string) ([]DocLinkGap, error) {
	c, files, err := newDocChecker(dir)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		c.checkFile(f)
	}
	return c.gaps, nil
}

// docChecker holds what a package's doc comments may link to.
type docChecker struct {
	fset    *token.FileSet
	parser  *comment.Parser
	names   map[string]bool // exported package-level names
	funcs   map[string]bool // the functions among names
	members map[string]bool // "T.M": exported methods and fields of exported types
	gaps    []DocLinkGap
}

// newDocChecker parses the non-test files of the package in dir that
// build for this platform.
func newDocChecker(dir string) (*docChecker, []*ast.File, error) {
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return nil, nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s: no Go files", dir)
	}
	dp, err := doc.NewFromFiles(fset, files, "example.com/"+files[0].Name.Name, doc.PreserveAST)
	if err != nil {
		return nil, nil, err
	}
	c := &docChecker{fset: fset, parser: dp.Parser(), names: map[string]bool{}, funcs: map[string]bool{}, members: map[string]bool{}}
	for _, f := range files {
		c.collect(f)
	}
	return c, files, nil
}

// collect records the exported names f declares.
func (c *docChecker) collect(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				c.names[d.Name.Name] = true
				c.funcs[d.Name.Name] = true
			} else if t := recvType(d); ast.IsExported(t) {
				c.members[t+"."+d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				for _, n := range specNames(s) {
					c.names[n] = true
				}
				if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
					for _, fl := range typeFields(ts) {
						for _, n := range fl.Names {
							c.members[ts.Name.Name+"."+n.Name] = true
						}
					}
				}
			}
		}
	}
}

// recvType returns the name of a method's receiver type.
func recvType(d *ast.FuncDecl) string {
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// specNames returns the exported names a type, const or var spec declares.
func specNames(s ast.Spec) []string {
	var out []string
	switch s := s.(type) {
	case *ast.TypeSpec:
		if s.Name.IsExported() {
			out = append(out, s.Name.Name)
		}
	case *ast.ValueSpec:
		for _, n := range s.Names {
			if n.IsExported() {
				out = append(out, n.Name)
			}
		}
	}
	return out
}

// typeFields returns the exported fields of a struct type, or the exported
// methods of an interface type.
func typeFields(ts *ast.TypeSpec) []*ast.Field {
	var list *ast.FieldList
	switch t := ts.Type.(type) {
	case *ast.StructType:
		list = t.Fields
	case *ast.InterfaceType:
		list = t.Methods
	}
	if list == nil {
		return nil
	}
	var out []*ast.Field
	for _, fl := range list.List {
		if slices.ContainsFunc(fl.Names, (*ast.Ident).IsExported) {
			out = append(out, fl)
		}
	}
	return out
}

// checkFile checks the doc comments of f's exported declarations.
func (c *docChecker) checkFile(f *ast.File) {
	c.check(f.Doc, "package")
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv == nil {
				c.check(d.Doc, d.Name.Name, d.Name.Name)
			} else if t := recvType(d); ast.IsExported(t) {
				c.check(d.Doc, t+"."+d.Name.Name, t, d.Name.Name, t+"."+d.Name.Name)
			}
		case *ast.GenDecl:
			c.checkGenDecl(d)
		}
	}
}

// checkGenDecl checks the doc of a type, const or var declaration, of each
// of its specs, and of the fields of its struct types.
func (c *docChecker) checkGenDecl(d *ast.GenDecl) {
	var all []string
	for _, s := range d.Specs {
		all = append(all, specNames(s)...)
	}
	if len(all) == 0 {
		return
	}
	c.check(d.Doc, all[0], all...)
	for _, s := range d.Specs {
		names := specNames(s)
		if len(names) == 0 {
			continue
		}
		switch s := s.(type) {
		case *ast.ValueSpec:
			c.check(s.Doc, names[0], names...)
		case *ast.TypeSpec:
			c.check(s.Doc, names[0], names[0])
			for _, fl := range typeFields(s) {
				n := fl.Names[0].Name
				c.check(fl.Doc, names[0]+"."+n, names[0], n, names[0]+"."+n)
			}
		}
	}
}

var (
	backquoted = regexp.MustCompile("`([^`\n]+)`")
	linkish    = regexp.MustCompile(`\[\*?([A-Za-z_][\w./]*)\]`)
	ident      = regexp.MustCompile(`[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*`)
)

// check checks one doc comment; self are the names it need not link.
func (c *docChecker) check(cg *ast.CommentGroup, label string, self ...string) {
	if cg == nil {
		return
	}
	text, linked := c.prose(c.parser.Parse(cg.Text()))
	seen := map[string]bool{}
	report := func(name, kind string) {
		if !seen[kind+name] {
			seen[kind+name] = true
			c.gaps = append(c.gaps, DocLinkGap{Pos: c.fset.Position(cg.Pos()), Doc: label, Name: name, Kind: kind})
		}
	}
	text = replaceAllSubmatch(linkish, text, func(m []int) bool {
		if wordBefore(text, m[0]) || !looksExported(text[m[2]:m[3]]) {
			return false
		}
		report(text[m[0]:m[1]], "broken link")
		return true
	})
	text = backquoted.ReplaceAllStringFunc(text, func(q string) string {
		if c.mention(q[1:len(q)-1]) != "" {
			report(q, "in backquotes")
		}
		return " "
	})
	for _, m := range ident.FindAllStringIndex(text, -1) {
		if m[0] > 0 && (wordBefore(text, m[0]) || text[m[0]-1] == '.') {
			continue
		}
		name := c.mention(text[m[0]:m[1]])
		if name == "" || linked[name] || slices.Contains(self, name) || c.funcs[name] && sentenceStart(text, m[0]) {
			continue
		}
		report(name, "not linked")
	}
}

// replaceAllSubmatch replaces by a space each match of re in s for which
// f, given the match's submatch indexes, returns true.
func replaceAllSubmatch(re *regexp.Regexp, s string, f func(m []int) bool) string {
	var b strings.Builder
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		if f(m) {
			b.WriteString(s[last:m[0]])
			b.WriteString(" ")
			last = m[1]
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// sentenceStart reports whether the word at i starts a sentence or a
// block of text (blocks are separated by blank lines).
func sentenceStart(s string, i int) bool {
	newlines := 0
	for i > 0 && strings.ContainsRune(" \t\n", rune(s[i-1])) {
		if s[i-1] == '\n' {
			newlines++
		}
		i--
	}
	return i == 0 || newlines > 1 || strings.ContainsRune(".!?", rune(s[i-1]))
}

// wordBefore reports whether the byte before i is part of a word.
func wordBefore(s string, i int) bool {
	if i == 0 {
		return false
	}
	b := s[i-1]
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// looksExported reports whether the inside of a bracketed word names an
// exported identifier, as a doc link would: "World", "World.Get",
// "pkg.Name", "example.com/pkg.Name".
func looksExported(s string) bool {
	s = s[strings.LastIndex(s, "/")+1:]
	for _, part := range strings.Split(s, ".") {
		if ast.IsExported(part) {
			return true
		}
	}
	return false
}

// mention returns the name a word of prose refers to, or "" if none: an
// exported package-level name, "T.M" for a member of an exported type,
// or "pkg.Name" for a package a doc link may name.
func (c *docChecker) mention(word string) string {
	parts := strings.Split(word, ".")
	if len(parts) >= 2 {
		if c.members[parts[0]+"."+parts[1]] {
			return parts[0] + "." + parts[1]
		}
		if _, ok := c.parser.LookupPackage(parts[0]); ok && ast.IsExported(parts[1]) {
			return parts[0] + "." + parts[1]
		}
	}
	if c.names[parts[0]] {
		return parts[0]
	}
	return ""
}

// prose returns the text of d's paragraphs and lists, with each doc link
// replaced by a space, and the names the links point to ("World",
// "World.Get", "pkg.Name"). Headings and code blocks are left out.
func (c *docChecker) prose(d *comment.Doc) (string, map[string]bool) {
	var b strings.Builder
	linked := map[string]bool{}
	var text func([]comment.Text)
	text = func(ts []comment.Text) {
		for _, t := range ts {
			switch t := t.(type) {
			case comment.Plain:
				b.WriteString(string(t))
			case comment.Italic:
				b.WriteString(string(t))
			case *comment.Link:
				text(t.Text)
			case *comment.DocLink:
				linked[docLinkName(t)] = true
				if t.Recv != "" && t.ImportPath == "" {
					linked[t.Recv] = true // [T.M] leads to T too
				}
				b.WriteString(" ")
			}
		}
	}
	var blocks func([]comment.Block)
	blocks = func(bs []comment.Block) {
		for _, bl := range bs {
			switch bl := bl.(type) {
			case *comment.Paragraph:
				text(bl.Text)
			case *comment.List:
				for _, it := range bl.Items {
					blocks(it.Content)
				}
			}
			b.WriteString("\n\n")
		}
	}
	blocks(d.Content)
	return b.String(), linked
}

// docLinkName returns the name a doc link points to as prose would spell
// it: "World", "World.Get", "pkg.Name".
func docLinkName(l *comment.DocLink) string {
	name := l.Name
	if l.Recv != "" {
		name = l.Recv + "." + name
	}
	if l.ImportPath != "" {
		name = path.Base(l.ImportPath) + "." + name
	}
	return name
}
