package plan_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
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

// shipScene (as the loader's prefab tests have it) is a prefab with named and unnamed parts, a nested prefab,
// and instances with and without ids, overriding parts.
const shipScene = `
prefabs:
  barrel: {class: barrel, scale: 1 2 1}
  gun:
    class: gun
    children:
      - id: muzzle
        prefab: barrel
  ship:
    class: ship
    position: 0 0 0
    children:
      - id: gun-left
        prefab: gun
        class: gun left
        position: -1 0 0
      - id: gun-right
        prefab: gun
        class: gun right
        position: 1 0 0
      - {visible: false}
entities:
  - id: f1
    prefab: ship
    position: 5 0 0
  - id: f2
    prefab: ship
    class: ship hero
    parts:
      gun-left: {position: "-2 0 0", class: gun left big}
      gun-right/muzzle: {scale: 3 3 3}
      "0": {visible: true}
    children:
      - id: pilot
  - prefab: ship
`
