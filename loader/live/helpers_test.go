package live

import (
	"bytes"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
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

// dump returns the JSON dump of reg's whole World.
func dump(tb testing.TB, reg *registry.Registry) string {
	tb.Helper()
	var b bytes.Buffer
	if err := export.WriteJSON(&b, reg, export.Options{}); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}
