package loader

import (
	"io/fs"

	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/registry"
)

// Options configure loading and reloading: [live.Options].
type Options = live.Options

// Scene is a loaded scene: [live.Scene].
type Scene = live.Scene

// Load reads the scene file name from fsys (with its includes), checks it
// against reg and builds it into reg's World; see [live.Load].
func Load(reg *registry.Registry, fsys fs.FS, name string, opt Options) (*Scene, error) {
	return live.Load(reg, fsys, name, opt)
}

// LoadFile is [Load] for a file of the operating system: see
// [live.LoadFile].
func LoadFile(reg *registry.Registry, file string, opt Options) (*Scene, error) {
	return live.LoadFile(reg, file, opt)
}

// LoadBytes loads a scene from memory: see [live.LoadBytes].
func LoadBytes(reg *registry.Registry, name string, data []byte, opt Options) (*Scene, error) {
	return live.LoadBytes(reg, name, data, opt)
}

// CheckFile reads and checks a scene file without building it: see
// [live.CheckFile].
func CheckFile(reg *registry.Registry, file string, opt Options) (*plan.Plan, error) {
	return live.CheckFile(reg, file, opt)
}
