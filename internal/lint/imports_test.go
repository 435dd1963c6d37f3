package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestImportTable: the import table of docs/architecture.md is the
// code's, package by package (non-test files, the module's packages).
func TestImportTable(t *testing.T) {
	root := repoRoot(t)
	md, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ImportTable(md)
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	code, err := Imports(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, gap := range ImportGaps(doc, code) {
		t.Errorf("docs/architecture.md, import table: %s", gap)
	}
	checkLayers(t, code)
	checkNoHTTP(t, root)
	checkNoNATS(t, root)
}

// noNATS are the packages that must not link NATS, not even through the
// packages they import: scenerun is the command set a game embeds; the
// fleet's commands are scenerun/fleetcmd's, which a program adds.
var noNATS = []string{"scenerun", "loader", "inspect", "editor"}

// checkNoNATS holds the rule of noNATS.
func checkNoNATS(t *testing.T, root string) {
	t.Helper()
	for _, pkg := range noNATS {
		deps, err := Deps(root, pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deps {
			if strings.HasPrefix(d, "github.com/nats-io/") || strings.HasSuffix(d, "/rooms/fleet") {
				t.Errorf("%s links %s: it links no NATS (the fleet's commands are scenerun/fleetcmd's)", pkg, d)
			}
		}
	}
}

// noHTTP are the packages that must not link net/http, not even through
// the packages they import: the editor says what an edit does to the
// running scene and its files for any front end (the inspector over
// HTTP, a replay, a program's own tool); HTTP is the inspector's.
var noHTTP = []string{"editor"}

// checkNoHTTP holds the rule of noHTTP.
func checkNoHTTP(t *testing.T, root string) {
	t.Helper()
	for _, pkg := range noHTTP {
		deps, err := Deps(root, pkg)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range deps {
			if d == "net/http" || strings.HasPrefix(d, "net/http/") {
				t.Errorf("%s links %s: it knows no HTTP (the inspector serves it); keep HTTP in inspect", pkg, d)
			}
		}
	}
}

// checkLayers holds the rules of the layout that the table alone could
// relax: the scene file layer knows nothing above it, plans hold no
// runtime state (plan does not import ecs), the schedule runs nodes
// without knowing what makes them (it imports only ecs and internal/...,
// never the registry), and only the programs (scenerun, rooms, cmd,
// examples, scenes) import the built-in components.
func checkLayers(t *testing.T, code map[string][]string) {
	t.Helper()
	for pkg, imps := range code {
		for _, imp := range imps {
			switch {
			case strings.HasPrefix(pkg, "loader/scenefile") && !strings.HasPrefix(imp, "loader/") && !strings.HasPrefix(imp, "internal/"):
				t.Errorf("%s imports %s: the scene file layer imports only the syntax packages and internal/...", pkg, imp)
			case strings.HasPrefix(pkg, "loader/scenefile") && strings.HasPrefix(imp, "loader/") && !strings.HasPrefix(imp, "loader/internal/") && !strings.HasPrefix(imp, "loader/scenefile"):
				t.Errorf("%s imports %s, a layer above it", pkg, imp)
			case pkg == "loader/plan" && imp == "ecs":
				t.Errorf("loader/plan imports ecs: a plan holds no runtime state")
			case pkg == "schedule" && imp != "ecs" && !strings.HasPrefix(imp, "internal/"):
				t.Errorf("schedule imports %s: the schedule runs nodes, whatever makes them, and imports only ecs and internal/...", imp)
			case imp == "components" && !programs(pkg):
				t.Errorf("%s imports components: only scenerun, rooms, cmd/..., examples/... and scenes may", pkg)
			}
		}
	}
}

// programs reports whether pkg is one of the packages that may import
// the built-in components. The room host is one: like scenerun, it makes
// a Registry with the built-ins for each scene it runs (and snapshots
// the spawners' states).
func programs(pkg string) bool {
	return pkg == "scenerun" || pkg == "rooms" || pkg == "scenes" || strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "examples/")
}

// TestPackageSizes: no package but ecs over 6,000 lines of non-test
// code, counted as the files' lines (comments and blank lines included,
// as the issue that set the limit counted them), the loader's front
// door at most 3,000, and the registry at most 4,500 (issue 33 moved
// the schedule out of it, to leave it room for the next work).
func TestPackageSizes(t *testing.T) {
	root := repoRoot(t)
	code, err := Imports(root)
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range code {
		n, raw, err := CodeLines(filepath.Join(root, filepath.FromSlash(pkg)))
		if err != nil {
			t.Fatal(err)
		}
		limit := 6000
		switch pkg {
		case "ecs":
			continue
		case "loader":
			limit = 3000
		case "registry":
			limit = 4500
		}
		if raw > limit {
			t.Errorf("%s: %d lines (%d of them code), over %d: split it by job", pkg, raw, n, limit)
		}
	}
}

// TestDeps: Deps sees what a package links through its imports: the
// inspector links net/http (its own import) and ecs (through editor and
// the rest); ecs links none of the packages above it.
func TestDeps(t *testing.T) {
	root := repoRoot(t)
	insp, err := Deps(root, "inspect")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"net/http", "editor", "ecs", "fmt"} {
		if !slices.Contains(insp, want) {
			t.Errorf("inspect: %s not among its dependencies %v", want, insp)
		}
	}
	core, err := Deps(root, "ecs")
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(core, "registry") || slices.Contains(core, "ecs") || slices.Contains(core, "net/http") {
		t.Errorf("ecs: dependencies %v", core)
	}
}

func TestImportTableParse(t *testing.T) {
	md := "# x\n\n" + ImportTableHeader + "\n| --- | --- |\n| `a` | nothing |\n| `b/c` | `a`, `d` |\n\nafter\n| `z` | `q` |\n"
	got, err := ImportTable([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got["a"]) != 0 || !slices.Equal(got["b/c"], []string{"a", "d"}) {
		t.Fatalf("%v", got)
	}
	gaps := ImportGaps(got, map[string][]string{"a": {"d"}, "b/c": {"a", "d"}, "e": {}})
	want := []string{"a: the table says it imports nothing, the code d", "e: not in the table; it imports nothing"}
	if !slices.Equal(gaps, want) {
		t.Fatalf("gaps %q, want %q", gaps, want)
	}
	for _, bad := range []string{"no table", ImportTableHeader + "\n| `a` | b | c |\n", ImportTableHeader + "\n| `a` | nothing |\n| `a` | nothing |\n"} {
		if _, err := ImportTable([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestCodeLines(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("// Package a.\npackage a\n\n\t// c\nvar x = 1 // y\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package a\nvar y = 2\n"), 0o644)
	code, raw, err := CodeLines(dir)
	if err != nil || code != 2 || raw != 5 {
		t.Fatalf("code %d raw %d err %v, want 2 and 5", code, raw, err)
	}
}
