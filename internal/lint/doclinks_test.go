package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDocLinks keeps every doc comment of ecs, and the package docs of
// the packages whose outline links their concepts, linking the names they
// mention (see DocLinkGaps).
func TestDocLinks(t *testing.T) {
	root := repoRoot(t)
	for _, dir := range []string{"ecs", "selector", "registry", "components", "editor", "inspect", "watch", "scenerun"} {
		gaps, err := DocLinkGaps(filepath.Join(root, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gaps {
			if dir != "ecs" && g.Doc != "package" {
				continue
			}
			if rel, err := filepath.Rel(root, g.Pos.Filename); err == nil {
				g.Pos.Filename = rel
			}
			t.Errorf("%v", g)
		}
	}
}

// docLinkGapsOf writes src as the only file of a package and returns its
// gaps as "doc: kind name".
func docLinkGapsOf(t *testing.T, src string) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// A test file is not checked.
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p\n\n// T uses World.\nfunc T() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gaps, err := DocLinkGaps(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, g := range gaps {
		out = append(out, fmt.Sprintf("%s: %s %s", g.Doc, g.Kind, g.Name))
	}
	return out
}

const docLinkDecls = `
type World struct {
	// Size counts the [Entity] values of the World.
	Size int
}

func (w *World) Len() int { return 0 }

type Entity struct{}

type Map[T any] struct{}

func (Map[T]) Get() {}

func NewWorld() *World { return nil }

func Register() {}

const Limit = 1
`

// TestDocLinkGapsFinds has a case of each gap: a name not linked (type,
// function, constant, "T.M", "pkg.Name", in a package doc, a method's,
// a field's, a constant's), a name in backquotes, and links that do not
// resolve.
func TestDocLinkGapsFinds(t *testing.T) {
	src := `// Package p holds a World, ` + "`Entity`" + ` in backquotes, a broken
// [Wrold] and [Entity]s.
package p

import "reflect"

// Len uses NewWorld, Map.Get, reflect.Type and Limit and Register here.
func (w *World) Len2() int { return 0 }
` + docLinkDecls + `
// Other is an Entity of a World.
type Other struct {
	// N is Map.Get of a World.
	N int
}

// Max bounds the Entity count of a ` + "`World.Len`" + `.
const Max = 2

var _ reflect.Type
`
	got := docLinkGapsOf(t, src)
	want := []string{
		"package: broken link [Wrold]",
		"package: broken link [Entity]",
		"package: in backquotes `Entity`",
		"package: not linked World",
		"World.Len2: not linked NewWorld",
		"World.Len2: not linked Map.Get",
		"World.Len2: not linked reflect.Type",
		"World.Len2: not linked Limit",
		"World.Len2: not linked Register",
		"Other: not linked Entity",
		"Other: not linked World",
		"Other.N: not linked Map.Get",
		"Other.N: not linked World",
		"Max: in backquotes `World.Len`",
		"Max: not linked Entity",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("gaps:\n%q\nwant:\n%q", got, want)
	}
}

// TestDocLinkGapsAllows has prose that must not be reported: names linked
// once, the comment's own subject, code blocks and headings, index
// expressions, lowercase bracketed text, variables' fields, a function's
// name starting a sentence, a method link standing for its type, words
// that only contain a name, and unexported declarations.
func TestDocLinkGapsAllows(t *testing.T) {
	src := `// Package p holds a [World] and a World, and [Map.Get] for Map.
//
// # World and Entity
//
// Map[T] and "[enemy]" and w.World and q.Len() and Worlds and NewWorlds
// and WorldX are not mentions.
//
//	w := NewWorld() // Entity in code
//
// Register one with [World.Len]. Register is a function.
package p
` + docLinkDecls + `
// Other is an [Entity]; Entity again and [*World] then World.
type Other struct {
	// N is an Other's count (its own type), of an [Entity], Entity.
	N int
}

// Len2 is Len2 of a World (the receiver) and of [Map.Get]: Map.Get.
func (w *World) Len2() int { return 0 }

// hidden mentions World and NewWorld but is unexported.
func hidden() {}
`
	if got := docLinkGapsOf(t, src); len(got) > 0 {
		t.Errorf("gaps in prose that has none: %q", got)
	}
}
