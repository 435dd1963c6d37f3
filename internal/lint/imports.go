package lint

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Module is the import path of the scenecs module; [Imports] and
// [ImportTable] name its packages relative to it ("loader/plan").
const Module = "github.com/scenecs/scenecs"

// ImportTableHeader is the header row of the import table in
// docs/architecture.md that [ImportTable] reads.
const ImportTableHeader = "| package | imports (of ours) |"

// ImportTable reads the import table of a Markdown text: the rows under
// the header [ImportTableHeader], each a package and the packages of the
// module it imports, as code spans separated by commas ("nothing" for
// none). It returns them by package, sorted.
func ImportTable(md []byte) (map[string][]string, error) {
	table := map[string][]string{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	for line := 1; sc.Scan(); line++ {
		row := strings.TrimSpace(sc.Text())
		switch {
		case row == ImportTableHeader:
			in = true
			continue
		case !in || strings.HasPrefix(row, "| ---"):
			continue
		case !strings.HasPrefix(row, "|"):
			if len(table) > 0 {
				return table, nil
			}
			continue
		}
		cells := strings.Split(strings.Trim(row, "|"), "|")
		if len(cells) != 2 {
			return nil, fmt.Errorf("line %d: want two cells, package and imports: %s", line, row)
		}
		pkg := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if _, dup := table[pkg]; dup {
			return nil, fmt.Errorf("line %d: package %s listed twice", line, pkg)
		}
		table[pkg] = []string{}
		if strings.TrimSpace(cells[1]) == "nothing" {
			continue
		}
		for _, imp := range strings.Split(cells[1], ",") {
			table[pkg] = append(table[pkg], strings.Trim(strings.TrimSpace(imp), "`"))
		}
		slices.Sort(table[pkg])
	}
	if len(table) == 0 {
		return nil, fmt.Errorf("no table under %q", ImportTableHeader)
	}
	return table, sc.Err()
}

// Imports lists, with go list, every package of the module in the
// directory root and the module's packages its non-test files import,
// sorted, all named relative to [Module].
func Imports(root string) (map[string][]string, error) {
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := rel(f[0])
		imports[pkg] = []string{}
		for _, imp := range f[1:] {
			if r := rel(imp); r != imp {
				imports[pkg] = append(imports[pkg], r)
			}
		}
		slices.Sort(imports[pkg])
	}
	return imports, nil
}

// Deps lists, with go list -deps, every package the package pkg of the
// module in the directory root (named relative to [Module]) links: what
// its non-test files import, and what those import, standard library
// included; the module's own are named relative to [Module].
func Deps(root, pkg string) ([]string, error) {
	cmd := exec.Command("go", "list", "-deps", "./"+pkg)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps ./%s: %w", pkg, err)
	}
	var deps []string
	for _, line := range strings.Fields(string(out)) {
		if r := rel(line); r != pkg {
			deps = append(deps, r)
		}
	}
	return deps, nil
}

// rel names a package of the module relative to [Module]; others are
// returned as they are.
func rel(path string) string {
	if r, ok := strings.CutPrefix(path, Module+"/"); ok {
		return r
	}
	return path
}

// ImportGaps compares a documented import table with the imports of the
// code and says where they differ, one line per package, sorted.
func ImportGaps(doc, code map[string][]string) []string {
	var gaps []string
	for pkg, imps := range code {
		want, ok := doc[pkg]
		switch {
		case !ok:
			gaps = append(gaps, fmt.Sprintf("%s: not in the table; it imports %s", pkg, list(imps)))
		case !slices.Equal(want, imps):
			gaps = append(gaps, fmt.Sprintf("%s: the table says it imports %s, the code %s", pkg, list(want), list(imps)))
		}
	}
	for pkg := range doc {
		if _, ok := code[pkg]; !ok {
			gaps = append(gaps, fmt.Sprintf("%s: in the table, but no such package", pkg))
		}
	}
	slices.Sort(gaps)
	return gaps
}

// list writes a package list as the table does.
func list(pkgs []string) string {
	if len(pkgs) == 0 {
		return "nothing"
	}
	return strings.Join(pkgs, ", ")
}

// CodeLines counts the lines of Go code of the package in dir: its
// non-test .go files, without blank lines and lines that are only a
// // comment; raw is every line of those files.
func CodeLines(dir string) (code, raw int, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return 0, 0, err
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return 0, 0, err
		}
		raw += bytes.Count(data, []byte("\n"))
		for _, line := range strings.Split(string(data), "\n") {
			if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "//") {
				code++
			}
		}
	}
	return code, raw, nil
}
