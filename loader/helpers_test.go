package loader

import (
	"bytes"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// newTestRegistry returns a Registry on a fresh World with the built-ins
// registered.
func newTestRegistry(tb testing.TB) *registry.Registry {
	tb.Helper()
	reg := registry.New(ecs.NewWorld())
	if _, err := registry.RegisterBuiltins(reg); err != nil {
		tb.Fatal(err)
	}
	return reg
}

// dump returns the JSON dump of reg's whole World.
func dump(tb testing.TB, reg *registry.Registry) string {
	tb.Helper()
	var b bytes.Buffer
	if err := WriteJSON(&b, reg, ExportOptions{}); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}
