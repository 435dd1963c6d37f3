package loader

import (
	"bytes"
	"io/fs"
	"testing"
	"testing/fstest"

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

// fstestFS is an in-memory file system of file name -> content.
type fstestFS map[string]string

// FS returns the files as an fs.FS.
func (m fstestFS) FS() fs.FS {
	out := fstest.MapFS{}
	for k, v := range m {
		out[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return out
}
