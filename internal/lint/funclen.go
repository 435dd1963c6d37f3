package lint

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
)

// MaxFuncLines is the most lines a hand-written function may span, from
// its func keyword to its closing brace.
const MaxFuncLines = 100

// LongFunc is a function over [MaxFuncLines] lines.
type LongFunc struct {
	Pos   token.Position // where the function starts
	Name  string         // "F", "T.M", or "func literal" outside any function
	Lines int
}

// String reports the function as "file:line:col: name is n lines (at
// most 100)".
func (l LongFunc) String() string {
	return fmt.Sprintf("%s: %s is %d lines (at most %d)", l.Pos, l.Name, l.Lines, MaxFuncLines)
}

// LongFuncs returns the functions over [MaxFuncLines] lines in the Go
// files under root, tests included. Generated files (those with a
// "Code generated ... DO NOT EDIT." line, see [ast.IsGenerated]) are
// skipped, and so are the directories the go command ignores (testdata,
// vendor, and names starting with "." or "_"). A file that does not
// parse is an error.
func LongFuncs(root string) ([]LongFunc, error) {
	var long []LongFunc
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if !ast.IsGenerated(f) {
			long = append(long, longFuncsIn(fset, f)...)
		}
		return nil
	})
	return long, err
}

// longFuncsIn returns the functions of f over MaxFuncLines lines: its
// function declarations, and function literals outside them (in package
// level variables).
func longFuncsIn(fset *token.FileSet, f *ast.File) []LongFunc {
	var long []LongFunc
	measure := func(n ast.Node, name string) {
		start, end := fset.Position(n.Pos()), fset.Position(n.End())
		if lines := end.Line - start.Line + 1; lines > MaxFuncLines {
			long = append(long, LongFunc{Pos: start, Name: name, Lines: lines})
		}
	}
	for _, decl := range f.Decls {
		if fn, ok := decl.(*ast.FuncDecl); ok {
			measure(fn, funcName(fn))
			continue
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				measure(lit, "func literal")
				return false
			}
			return true
		})
	}
	return long
}

// funcName returns "F" for a function and "T.M" for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.ParenExpr:
			t = x.X
			continue
		}
		break
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}
