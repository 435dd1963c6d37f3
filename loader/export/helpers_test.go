package export_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// newTestRegistry returns a Registry on a fresh World with the built-ins
// registered.
func newTestRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// hp is the health component of the benchmark scenes.
type hp struct {
	HP  int `scene:"hp,default=100"`
	Max int `scene:"max,default=100"`
}

// newBenchRegistry returns a Registry with the built-ins and health, as
// the loader's benchmarks make it.
func newBenchRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := newTestRegistry(tb)
	if _, err := registry.Register[hp](reg, "health", registry.Definition[hp]{}); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// dump returns the JSON dump of reg's whole World.
func dump(tb testing.TB, reg *registry.Registry) string {
	tb.Helper()
	var b bytes.Buffer
	if err := export.WriteJSON(&b, reg, export.Options{}); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// writers are the three ways to write a loaded World back out, by the
// file extension that reads them again.
var writers = []struct {
	ext   string
	write func(*bytes.Buffer, *registry.Registry) error
}{
	{"yaml", func(b *bytes.Buffer, reg *registry.Registry) error {
		return scenefile.WriteYAML(b, export.Export(reg, export.Options{}))
	}},
	{"xml", func(b *bytes.Buffer, reg *registry.Registry) error {
		return scenefile.WriteXML(b, export.Export(reg, export.Options{}))
	}},
	{"json", func(b *bytes.Buffer, reg *registry.Registry) error { return export.WriteJSON(b, reg, export.Options{}) }},
}

// firstDiff returns the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, x, y)
		}
	}
	return "(equal)"
}
