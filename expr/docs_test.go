package expr

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/expr-lang/expr/builtin"
)

// TestDocsListFunctions keeps docs/expressions.md true to the code: every
// function an expression can call is documented, every built-in of expr
// the language leaves out is named as unavailable, and every function the
// page names exists.
func TestDocsListFunctions(t *testing.T) {
	b, err := os.ReadFile("../docs/expressions.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "## Functions")
	j := strings.Index(doc, "## Speed")
	if i < 0 || j < i {
		t.Fatal("docs/expressions.md has no Functions section before Speed")
	}
	section := doc[i:j]
	unavailable := section[strings.Index(section, "not available"):]
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-zA-Z0-9]+)[(`]").FindAllStringSubmatch(section, -1) {
		named[m[1]] = true
	}
	tb := sharedTables()
	callable := map[string]bool{}
	for _, name := range tb.public {
		callable[name] = true
		if !named[name] {
			t.Errorf("function %s is not documented", name)
		}
	}
	for name := range builtin.Index {
		if !callable[name] && !tb.builtins[name] && !strings.Contains(unavailable, "`"+name+"`") {
			t.Errorf("expr's built-in %s is left out but not named as unavailable", name)
		}
	}
	for _, m := range regexp.MustCompile("`([a-zA-Z0-9]+)\\(").FindAllStringSubmatch(section, -1) {
		name := m[1]
		_, isBuiltin := builtin.Index[name]
		if !callable[name] && !isBuiltin {
			t.Errorf("the page names %s, which is not a function", name)
		}
	}
}

// TestDocsExamples compiles the examples of docs/expressions.md.
func TestDocsExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/expressions.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	block := doc[strings.Index(doc, "## Examples"):]
	block = block[strings.Index(block, "```")+3:]
	block = block[:strings.Index(block, "```")]
	names := Chain(FrameNames(), Vars{
		"health.hp": Const(50.0),
		"position":  ConstVec(Vec3, Vec{}),
		"velocity":  ConstVec(Vec3, Vec{1, 0, 0}),
		"shield.up": Const(false),
	})
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if _, err := Compile(line, names, Any); err != nil {
			t.Errorf("%q: %v", line, err)
		}
		n++
	}
	if n < 5 {
		t.Errorf("only %d examples found", n)
	}
}
