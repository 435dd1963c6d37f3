package main

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/editorschema"
	"github.com/scenecs/scenecs/registry"
)

// TestReadmeShowsThisProgram: the README's Go program is this file, from
// "package main" on, so that what it shows compiles as written.
func TestReadmeShowsThisProgram(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\npackage main\n")
	if !ok {
		t.Fatal("README has no Go block starting with package main")
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		t.Fatal("README's Go block does not end")
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, prog, _ := strings.Cut(string(src), "package main\n")
	if block != prog {
		t.Errorf("README's Go program differs from examples/readme/main.go: copy the file (from package main on) into the README")
	}
}

// TestRun: the program runs on its level as the README says.
func TestRun(t *testing.T) {
	out, err := exec.Command("go", "run", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	want := "scout hp: 20; max: 100 at 3 0 0\nguard hp: 40; max: 100 at 12 0 0\n"
	if string(out) != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

var update = flag.Bool("update", false, "rewrite level.schema.json")

// TestSchemaFile: level.schema.json, which level.yaml names in its
// modeline for editors, is the JSON Schema of this program's registry
// (go test ./examples/readme -run SchemaFile -update rewrites it).
func TestSchemaFile(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	if err != nil {
		t.Fatal(err)
	}
	if err := register(reg, b); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := editorschema.WriteJSONSchema(&want, reg, nil); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("level.schema.json", want.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("level.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("level.schema.json is stale: run go test ./examples/readme -run SchemaFile -update")
	}
	if !bytes.Contains(must(os.ReadFile("level.yaml")), []byte("# yaml-language-server: $schema=level.schema.json\n")) {
		t.Error("level.yaml does not name level.schema.json in a modeline")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
